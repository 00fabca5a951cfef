"""``csp-check drift``: instruction drift over long dialogues (issue 23, docs/drift.md).

``csp-check drift --out DIR`` with any of:

- ``--base-url URL --model NAME [--user-model NAME] [--rounds N] [--runs R] [--suite FILE]
  [--nlsi FILE [--nlsi-schema PATH]] [--limit K] [--seed S]``: the paper's self-chat protocol against an OpenAI-compatible server
  (:mod:`csp_check.drift.selfchat`), every probe answer scored by its measure;
- ``--corpus PATH [--corpus PATH …] [--kb KB] [--format F]``: consistency by depth of a corpus
  already generated (:mod:`csp_check.drift.depth`), one curve per ``--corpus``; a ``csp-check
  experiment`` output folder (or its ``results.jsonl``) stands for its ``--relexicalizer``'s
  (default ``llm``) relexicalized text (:mod:`csp_check.drift.relexicalized`, written to
  ``DIR/relexicalized-NAME-FOLDER.txt``, read against ``--kb``); without ``--base-url`` the
  self-chat curves of an earlier ``DIR/drift.json`` are kept beside them; without ``--kb``, one
  short warning line before the table (validate's, off with ``--quiet``) names the corpora none
  of whose dialogues got a KB constraint (C4-C6 not built);
- ``--hf-model PATH [--split-exponent K]``: π(t) and split-softmax on a local Hugging Face causal
  LM (:mod:`csp_check.drift.attention`; extra ``hf``).

Writes ``DIR/drift.json``, ``DIR/drift.csv``, ``DIR/drift.png`` (extra ``plots``; ``--no-plot``
skips it), ``DIR/conversations/<id>.json`` (the self-chats, reused by a rerun: resumable) and,
with ``--hf-model``, ``DIR/attention.json`` and ``DIR/attention.png``. Prints the stability per
round by category. Exit 0 on success; 2 on a usage error, an unreadable suite or corpus, a
missing extra, or a server that cannot be reached or fails a request (one line naming the URL;
the runs finished before it are kept).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from csp_check.cli.paths import existing_paths
from csp_check.drift import attention, depth
from csp_check.drift.nlsi_suite import nlsi_prompts
from csp_check.drift.plot import plot_drift
from csp_check.drift.relexicalized import experiment_results, write_relexicalized
from csp_check.drift.results import DriftResult, score_prompt, summarise, write_csv, write_json
from csp_check.drift.selfchat import ConversationStore, DriftRequestError, DriftSettings, check_reachable, run_suite
from csp_check.drift.suite import BUNDLED_SUITE, SuitePrompt, load_suite
from csp_check.drift.task_measures import ALL_MEASURES
from csp_check.errors import CspCheckError, UsageError
from csp_check.llm.client import LLMSettings
from csp_check.output.console import Bar
from csp_check.output.plain import KbUse, no_kb_line
from csp_check.readers import FORMATS
from csp_check.readers.kinds import load_kb_option

EXIT_ERROR = 2


def _fail(message: str) -> None:
    click.echo(f"csp-check: error: {' '.join(message.split())}", err=True)
    sys.exit(EXIT_ERROR)


@click.command("drift")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for drift.json, drift.csv, drift.png and the cached conversations.")
@click.option("--base-url", default=None, help="OpenAI-compatible server of the self-chats.")
@click.option("--model", default=None, help="Chat model of the agent (and of the user, unless --user-model).")
@click.option("--user-model", default=None, help="Chat model of the user LM (default: --model).")
@click.option("--rounds", type=click.IntRange(min=1), default=8, show_default=True, help="Rounds N of each self-chat.")
@click.option("--runs", type=click.IntRange(min=1), default=1, show_default=True, help="Self-chats R per prompt.")
@click.option("--suite", "suite_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Suite JSONL (default: the bundled suite).")
@click.option("--nlsi", "nlsi_path", callback=existing_paths, type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="NLSI examples (the release's file or `nlsi build` output): one profile prompt each, P1-P6 as measure "
                   "(instead of the bundled suite, or beside --suite).")
@click.option("--nlsi-schema", callback=existing_paths, type=click.Path(path_type=Path), default=None,
              help="Schema of --nlsi: an NLSI release folder, SGD split folder or schema.json (default: its folder).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Only the first K prompts of the suite; with --corpus only, at most K dialogues per corpus.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the starters and of the requests.")
@click.option("--temperature", type=float, default=0.9, show_default=True, help="Sampling temperature.")
@click.option("--max-tokens", type=click.IntRange(min=1), default=256, show_default=True, help="Tokens per answer.")
@click.option("--concurrency", type=click.IntRange(min=1), default=4, show_default=True, help="Self-chats run at once.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("~/.cache/csp-check"),
              show_default=True, help="LLM answer cache.")  # fmt: skip
@click.option("--request-timeout", type=click.FloatRange(min=0, min_open=True), default=120.0, show_default=True,
              help="Seconds per request.")  # fmt: skip
@click.option("--retries", type=click.IntRange(min=0), default=2, show_default=True, help="Retries per request.")
@click.option("--corpus", "corpora", multiple=True, callback=existing_paths, type=click.Path(path_type=Path),
              help="A generated corpus (file or folder): its consistency by depth joins the plot. Repeatable.")
@click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="KB of --corpus (file or directory).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True, help="Format of --corpus.")
@click.option("--relexicalizer", default="llm", show_default=True,
              help="With --corpus of an experiment's output folder: whose relexicalization to read.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Processes checking --corpus.")
@click.option("--hf-model", callback=existing_paths, type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Local Hugging Face causal LM folder: attention share on the system prompt (extra hf).")
@click.option("--split-exponent", type=click.FloatRange(min=0, max=1, min_open=True), default=0.5, show_default=True,
              help="Split-softmax exponent k with --hf-model (1: plain softmax).")  # fmt: skip
@click.option("--hf-tokens", type=click.IntRange(min=1), default=24, show_default=True,
              help="Tokens the --hf-model writes per turn.")
@click.option("--no-plot", is_flag=True, help="No PNG (no matplotlib needed).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no table.")
def drift(
    out_dir: Path, base_url: str | None, model: str | None, user_model: str | None, rounds: int, runs: int,
    suite_path: Path | None, nlsi_path: Path | None, nlsi_schema: Path | None, limit: int | None, seed: int,
    temperature: float, max_tokens: int, concurrency: int, cache_dir: Path, request_timeout: float, retries: int, corpora: tuple[Path, ...], kb_path: Path | None,
    fmt: str, relexicalizer: str, jobs: int, hf_model: Path | None, split_exponent: float, hf_tokens: int,
    no_plot: bool, quiet: bool,
) -> None:  # fmt: skip
    """Instruction drift: self-chats probed every round (--base-url), consistency by depth of
    generated corpora (--corpus), attention on the system prompt (--hf-model)."""
    try:
        if not (base_url or corpora or hf_model):
            raise UsageError("give --base-url (self-chats), --corpus (a generated corpus) and / or --hf-model")
        if base_url and not model:
            raise UsageError("--base-url needs --model NAME")
        prompts = [] if nlsi_path and not suite_path else load_suite(suite_path or BUNDLED_SUITE, frozenset(ALL_MEASURES))
        if nlsi_path is not None:
            prompts += nlsi_prompts(nlsi_path, nlsi_schema or nlsi_path.parent, limit)
        prompts = prompts[:limit]
        out_dir.mkdir(parents=True, exist_ok=True)
        config = {"suite": str(suite_path or ("" if nlsi_path else "bundled")), "nlsi": str(nlsi_path) if nlsi_path else None, "prompts": len(prompts), "rounds": rounds, "runs": runs,
                  "seed": seed}  # fmt: skip
        result = DriftResult()
        if base_url:
            assert model is not None
            settings = DriftSettings(
                agent=LLMSettings(base_url=base_url, model=model, temperature=temperature, timeout=request_timeout,
                                  max_retries=retries, concurrency=concurrency, cache_dir=cache_dir, max_tokens=max_tokens),
                rounds=rounds, runs=runs, seed=seed, user_model=user_model,
            )  # fmt: skip
            check_reachable(base_url)
            if not os.environ.get("OPENAI_API_KEY") and not quiet:
                click.echo("warning: OPENAI_API_KEY is not set; sending a dummy key (fine for a local server)", err=True)
            store = ConversationStore(out_dir / "conversations", settings.key())
            with Bar("self-chats", total=len(prompts) * runs, unit="runs", enabled=False if quiet else None) as bar:
                records = run_suite(prompts, settings, store, advance=bar.advance)
            scored = [score_prompt(p, records[p.id]) for p in prompts]
            result = summarise(scored, {**config, **settings.key(), "base_url": base_url})
        elif corpora and (out_dir / "drift.json").exists():
            result = _previous(out_dir / "drift.json")
        if corpora:
            kb = load_kb_option(kb_path) if kb_path is not None else None
            curves = []
            without_kb: list[tuple[Path, int]] = []  # corpora none of whose dialogues got a C4-C6 instance
            for path in corpora:
                source, source_fmt, label = path, fmt, path.name
                results = experiment_results(path)
                if results is not None:  # an experiment's output: its relexicalized text, read against --kb
                    if kb is None:
                        raise UsageError(f"--corpus {path}: an experiment's relexicalized text is read against a KB; give --kb")
                    source, source_fmt = out_dir / f"relexicalized-{relexicalizer}-{path.name}.txt", "text"
                    write_relexicalized(results, source, relexicalizer)
                    label = f"{path.name} ({relexicalizer})"
                with Bar(f"checking {path.name}", unit="dialogues", enabled=False if quiet else None) as bar:
                    summary = depth.corpus_summary([source], source_fmt, kb, jobs=jobs, limit=None if base_url else limit,
                                                   advance=bar.advance)  # fmt: skip
                if not summary.checked:
                    raise UsageError(f"--corpus {path}: no dialogue could be checked"
                                     + (f" ({summary.error_messages[0]})" if summary.error_messages else ""))  # fmt: skip
                curves.append(depth.depth_curve(summary, f"{label} ({summary.checked} dialogues)",
                                                max_rounds=max(rounds, 1) if base_url else None))  # fmt: skip
                if kb is None and not any(summary.coverage.get(c) for c in KbUse.KB_CONSTRAINTS):
                    without_kb.append((path, summary.checked))
            if without_kb and not quiet:
                click.echo(_no_kb_warning(without_kb, len(corpora)), err=True)
            kept = [c for c in result.corpus if c.label not in {k.label for k in curves}]
            result.corpus = kept + curves
            result.config = {**result.config, "corpus": [str(p) for p in corpora], "kb": str(kb_path) if kb_path else None}
        written = []
        if base_url or corpora:
            written += [write_json(result, out_dir / "drift.json"), write_csv(result, out_dir / "drift.csv")]
        if not no_plot and (result.categories or result.corpus):
            written.append(plot_drift(result, out_dir / "drift.png"))
        if hf_model is not None:
            written += _attention(hf_model, prompts, rounds, hf_tokens, split_exponent, out_dir)
    except DriftRequestError as err:
        _fail(f"request failed: {err} (finished runs are kept in {out_dir}/conversations; rerun to resume)")
    except RuntimeError as err:  # a missing extra
        _fail(str(err))
    except (CspCheckError, ValueError) as err:
        _fail(str(err))
    except OSError as err:
        _fail(f"{err.filename or out_dir}: {err.strerror or err}")
    if not quiet:
        _print(result)
        click.echo(f"wrote {', '.join(str(p) for p in written)}", err=True)


def _no_kb_warning(corpora: list[tuple[Path, int]], given: int) -> str:
    """validate's one short line: ``--corpus`` without ``--kb`` left these corpora (path,
    dialogues checked) of the ``given`` ones without any KB constraint (C4-C6 not built)."""
    where = f"--corpus {corpora[0][0]}" + (f" and {len(corpora) - 1} more {'corpus' if len(corpora) == 2 else 'corpora'}" if len(corpora) > 1 else "")
    return no_kb_line(sum(k for _, k in corpora), where, every=len(corpora) == given > 1)


def _previous(path: Path) -> DriftResult:
    try:
        return DriftResult.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except ValueError as err:
        raise UsageError(f"{path}: not a drift.json of csp-check: {str(err).splitlines()[0]}") from None


def _attention(model_dir: Path, prompts: list[SuitePrompt], rounds: int, tokens: int, exponent: float, out_dir: Path) -> list[Path]:
    """π(t) for the suite's first prompt, plain softmax and split-softmax at ``exponent``."""
    model, tokenizer = attention.load_model(model_dir)
    prompt = prompts[0]
    turns = [prompt.starters[i % len(prompt.starters)] for i in range(rounds - 1)] + [prompt.probe]
    traces = {"softmax": attention.attention_decay(model, tokenizer, prompt.system_prompt, turns, tokens)}
    traces[f"split-softmax k={exponent:g}"] = attention.attention_decay(model, tokenizer, prompt.system_prompt, turns,
                                                                        tokens, exponent)  # fmt: skip
    path = out_dir / "attention.json"
    path.write_text(json.dumps({"model": str(model_dir), "prompt": prompt.id, "turns": turns,
                                "traces": {k: t.to_json() for k, t in traces.items()}}, indent=1) + "\n")  # fmt: skip
    for label, trace in traces.items():
        click.echo(f"attention {label}: mean π per turn " + " ".join(f"{p:.3f}" for p in trace.per_turn()))
    return [path, attention.plot_attention(traces, out_dir / "attention.png")]


def _print(result: DriftResult) -> None:
    """Stability per round: each category, the mean, each corpus curve."""
    rows = [(c.label, c.mean) for c in result.categories]
    if result.mean:
        rows.append(("mean", result.mean))
    rows += [(f"corpus {c.label}", c.mean) for c in result.corpus]
    if not rows:
        return
    width = max(len(name) for name, _ in rows)
    longest = max(len(values) for _, values in rows)
    click.echo(f"{'round':<{width}}  " + " ".join(f"{i:>5}" for i in range(1, longest + 1)))
    for name, values in rows:
        click.echo(f"{name:<{width}}  " + " ".join(f"{v:5.2f}" for v in values))
