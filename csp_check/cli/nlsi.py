"""Command line of the NLSI part: ``csp-check calls`` and ``csp-check nlsi build``.

``csp-check calls PATH... [--schema FILE_OR_SGD_DIR]... [--field api_calls|pred_api_calls]
[--report FILE.jsonl] [--derive [--solver interpreter|cp-sat|minizinc]] [--jobs N] [--show N] [--no-annotation] [--llm-parse --base-url URL --model M]
[--engine local|ray [--ray-address A]]``: one report line per example
(``example_id``, ``status``, ``violations``, …). Exit 0 all consistent, 1 any inconsistent, 2
any unreadable input or example error (2 wins); bad input is one line on stderr and every other
example is still checked. Without ``--schema`` the schema written beside the input by ``nlsi
build`` (``FILE.schema.json``) is used.

``csp-check nlsi build SGD_PATH... --out FILE.jsonl [--seed N] [--paraphrase P] [--limit N]``:
NLSI-style examples from SGD (spec §6) and ``FILE.schema.json`` (schema + ontology).

``csp-check nlsi experiment PATH... [--out DIR] [--bm25-top N] [--icl --base-url URL --model M
[--demos FILE]] [--no-annotation] [--no-plots]``: exact match, slot F1, instruction EM / F1 and
hallucination by reasoning type for derive / BM25 / LLM-ICL selection (:mod:`.experiment`).
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
import time
from collections import Counter
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

import click

from csp_check.cli.paths import existing_paths, of_kind
from csp_check.errors import NoDialogues, SolverUnavailable, UsageError, error_line, json_error_text
from csp_check.install import pip_extra
from csp_check.llm.client import LLMSettings
from csp_check.nlsi.build import build_examples, check_sgd_inputs
from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.experiment import run_calls_experiment, write_outputs
from csp_check.nlsi.metrics import Scores, exact_match, f1, release_scores, render_table, selection_scores, triples
from csp_check.nlsi.models import CallReport, CallStatus, Example
from csp_check.nlsi.readers import ExampleError, iter_paths, read_examples
from csp_check.nlsi.schema import load_schema
from csp_check.nlsi.selection import LlmIclSelector
from csp_check.output.calls_console import CallViolations
from csp_check.output.console import Bar
from csp_check.output.plain import counted
from csp_check.output.report_file import check_output_path, refuse_inputs
from csp_check.readers import count_lines, nothing_in
from csp_check.run.engines import check_engine, engine_options
from csp_check.run.ray_engine import ordered_map
from csp_check.solvers import get_solver

EXIT_OK, EXIT_INCONSISTENT, EXIT_ERROR = 0, 1, 2

_WORKER = None


def _schema_paths(paths: tuple[Path, ...], schema: tuple[Path, ...]) -> list[Path]:
    if schema:
        return list(schema)
    found = []
    for p in paths:
        cand = p.with_name(p.name.removesuffix(".jsonl") + ".schema.json") if p.is_file() else None
        if cand is not None and cand.exists():
            found.append(cand)
    if not found:
        named = ", ".join(f"{p.with_name(p.name.removesuffix('.jsonl') + '.schema.json')}" for p in paths)
        raise click.UsageError(f"no schema: {named} not found; give --schema FILE_OR_SGD_DIR "
                               "(`csp-check nlsi build` writes it beside the examples)")
    return list(dict.fromkeys(found))


def _init_worker(schema_paths, field, annotation, llm_parse=None, solver="interpreter"):
    global _WORKER

    _WORKER = Checker(load_schema(schema_paths), field=field, use_annotation=annotation, llm_parse=llm_parse, solver=solver)


def llm_settings(base_url: str | None, model: str, cache_dir: Path, temperature: float, option: str):
    """:class:`~csp_check.llm.client.LLMSettings` for an NLSI LLM option, or a usage error
    naming ``option`` when there is no server or no ``openai`` package."""
    if not base_url:
        raise click.UsageError(f"{option} needs --base-url URL (an OpenAI-compatible server) or $OPENAI_BASE_URL")
    try:
        import openai  # noqa: F401
    except ImportError:
        raise click.UsageError(f"{option} needs the openai package: {pip_extra('llm')}") from None

    meta = click.get_current_context().meta if click.get_current_context(silent=True) else {}
    return LLMSettings(base_url=base_url, model=model, temperature=temperature, cache_dir=cache_dir,
                       timeout=meta.get("llm_timeout", 60.0), max_retries=meta.get("llm_retries", 4))  # fmt: skip


def _to_meta(name: str):
    def store(ctx: click.Context, param: click.Parameter, value):
        ctx.meta[name] = value
        return value
    return store


def llm_options(f):
    """The shared ``--base-url / --model / --cache-dir / --temperature / --request-timeout /
    --retries`` options (the last two reach :func:`llm_settings` through the click context)."""
    f = click.option("--retries", type=click.IntRange(min=0), default=4, show_default=True, expose_value=False,
                     callback=_to_meta("llm_retries"), help="LLM retries per request.")(f)  # fmt: skip
    f = click.option("--request-timeout", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
                     expose_value=False, callback=_to_meta("llm_timeout"), metavar="SEC",
                     help="Total seconds per LLM request, the whole answer included.")(f)  # fmt: skip
    f = click.option("--temperature", type=float, default=0.0, show_default=True, help="LLM sampling temperature.")(f)
    f = click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("~/.cache/csp-check"),
                     show_default=True, help="LLM answer cache.")(f)  # fmt: skip
    f = click.option("--model", default="gpt-4", show_default=True, help="Chat model name.")(f)
    f = click.option("--base-url", envvar="OPENAI_BASE_URL", default=None,
                     help="OpenAI-compatible server for the LLM options (default $OPENAI_BASE_URL).")(f)  # fmt: skip
    return f


def _work(item):
    example, source, derive = item
    if not derive and getattr(example, _WORKER.field, None) is None:  # nothing to check: an input error, no violation
        return missing_field_report(example, source, _WORKER.field).model_dump(mode="json"), example.model_dump(mode="json")
    return _WORKER.check(example, derive_calls=derive, source=source).model_dump(mode="json"), example.model_dump(mode="json")


def missing_field_report(example: Example, source: str, field: str) -> CallReport:
    """The ``error`` report of an example without the calls ``--field`` names: an input error
    naming the field, never checked (its calls are not empty, they are absent: no P1-P6 verdict)."""
    return CallReport(example_id=example.example_id, source=source, status=CallStatus.ERROR,
                      reasoning_type=example.reasoning_type,
                      errors=[f"{field}: missing: the example has no {field} field (no calls to check; "
                              "they are not taken as empty)"])  # fmt: skip


def _not_a_file(path: Path) -> str:
    """Why ``calls`` cannot read ``path``, which is no file (validate's words for an empty folder)."""
    if not path.is_dir():
        return f"{path}: no such file or directory"
    try:
        if next(path.iterdir(), None) is None:
            return str(NoDialogues(str(path), "an empty folder"))
    except OSError as err:
        return f"{path}: cannot read: {err.strerror or err}"
    return f"{path}: a directory, not an NLSI JSONL file"


def _items(paths: tuple[Path, ...], derive: bool, errors: list[str], echo=None) -> Iterator:

    for path in iter_paths(list(paths)):
        for item in read_examples(path):
            if isinstance(item, ExampleError):
                errors.append(str(item))
                (echo or (lambda line: click.echo(line, err=True)))(error_line(item))
            else:
                yield item, str(path), derive


@click.command("calls")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--schema", "schema", multiple=True, callback=existing_paths, type=click.Path(path_type=Path),
              help="SGD-style schema.json or an SGD split directory (repeatable).")
@click.option("--field", "field", type=click.Choice(["api_calls", "pred_api_calls"]), default="api_calls", show_default=True,
              help="Which calls of each example to check: the gold api_calls or a model's pred_api_calls.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), help="Write one JSON report per example.")
@click.option("--derive", is_flag=True, help="Derive the call set and applicable instructions; score them against gold.")
@click.option("--solver", "solver", default="interpreter", show_default=True,
              help="What --derive uses: the forward-chaining interpreter (fastest), or a solver backend over the lowered "
                   "P1-P6 (cp-sat, minizinc[:gecode]); a backend also reports derived_solutions.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes checking examples in parallel (output order kept).")
@click.option("--no-annotation", is_flag=True, help="Ignore SGD annotation in metadata; ground the dialogue on its text only.")
@click.option("--llm-parse", is_flag=True,
              help="Read instructions the rule parser cannot through a chat model (validated against the schema; off by default).")
@llm_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary; errors still go to stderr.")
@click.option("--show", type=click.IntRange(min=0), default=5, show_default=True,
              help="Violations shown in full after the summary (as validate's --show).")
@engine_options
def calls_command(paths, schema, field, report_path, derive, jobs, no_annotation, llm_parse, base_url, model, cache_dir,
                  temperature, quiet, engine="local", ray_address=None, solver="interpreter", show=5):  # fmt: skip
    """Check the API calls of NLSI examples against profile, dialogue and schema (P1-P6)."""
    check_engine(engine, ray_address)
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.get_parameter_source("solver") is click.core.ParameterSource.COMMANDLINE and not derive:
        click.echo(f"csp-check: error: --solver {solver} applies to --derive (what derives the calls); add --derive", err=True)
        sys.exit(EXIT_ERROR)
    if solver != "interpreter":
        try:
            get_solver(solver).ensure_available()
        except (SolverUnavailable, UsageError) as err:
            named = "; or interpreter (the default)" if isinstance(err, UsageError) else ""
            click.echo(f"csp-check: error: --solver {solver}: {err}{named}", err=True)
            sys.exit(EXIT_ERROR)

    llm = llm_settings(base_url, model, cache_dir, temperature, "--llm-parse") if llm_parse else None
    missing = [p for p in paths if not Path(p).is_file()]
    if missing:
        for p in missing:
            click.echo(error_line(_not_a_file(Path(p))), err=True)
        sys.exit(EXIT_ERROR)
    empty = [NoDialogues(str(p), why) for p in paths if (why := nothing_in(Path(p)))]  # as validate says it
    for err in empty:
        click.echo(error_line(err), err=True)
    if len(empty) == len(paths):
        sys.exit(EXIT_ERROR)
    kept, wrong_kind = of_kind([p for p in paths if not nothing_in(Path(p))], "nlsi")  # a dialogue file: one line
    paths, wrong_kind = tuple(kept), wrong_kind or bool(empty)
    try:
        schema_paths = _schema_paths(paths, schema)
        _init_worker(schema_paths, field, not no_annotation, llm, solver)
    except click.UsageError:
        raise
    except (OSError, ValueError) as err:
        where = " ".join(map(str, schema_paths))
        if isinstance(err, json.JSONDecodeError):
            why = f"invalid JSON at line {err.lineno}, column {err.colno}: {json_error_text(err.msg)} (is it an SGD schema.json?)"
        else:
            why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        named = any(why.startswith(str(path)) for path in schema_paths)  # names its file: say it once
        click.echo(f"csp-check: error: --schema {why if named else f'{where}: {why}'}", err=True)
        sys.exit(EXIT_ERROR)
    if report_path is not None:
        try:
            schemas = list(schema) if isinstance(schema, (tuple, list)) else [schema] if schema else []
            check_output_path(Path(report_path), [*paths, *schemas], "--report",
                              ("example_id", "status"))  # fmt: skip
        except UsageError as err:
            click.echo(f"csp-check: error: {err}", err=True)
            sys.exit(EXIT_ERROR)
    try:
        out = open(report_path, "w", encoding="utf-8") if report_path else None
    except OSError as err:
        click.echo(f"csp-check: error: --report {report_path}: {err.strerror}", err=True)
        sys.exit(EXIT_ERROR)
    read_errors: list[str] = []
    counts = {"consistent": 0, "inconsistent": 0, "error": 0}
    aliases: Counter[str] = Counter()
    markers = 0
    shown = CallViolations(show)
    scores = Scores()
    start = time.perf_counter()
    bar = _bar(paths, quiet)
    items = _items(paths, derive, read_errors, echo=bar.echo)
    if engine == "ray":
        pool = None
        try:
            results = ordered_map(_work, items, jobs=jobs, address=ray_address, init=_init_worker,
                                  init_args=(schema_paths, field, not no_annotation, llm, solver))  # fmt: skip
            results = _started(results)
        except UsageError as err:
            click.echo(f"csp-check: error: {err}", err=True)
            sys.exit(EXIT_ERROR)
    elif jobs > 1:
        pool = mp.get_context("fork").Pool(jobs, initializer=_init_worker, initargs=(schema_paths, field, not no_annotation, llm, solver))
        results = pool.imap(_work, items, chunksize=16)
    else:
        pool = None
        results = map(_work, items)
    try:
        bar.__enter__()
        for rep, ex in results:
            bar.advance()
            counts[rep["status"]] += 1
            shown.add(rep)
            aliases.update(rep.get("method_aliases") or [])
            markers += rep.get("request_markers") or 0
            for err in rep["errors"]:
                bar.echo(error_line(f"{rep['source']}: example {rep['example_id']}: {err}"))
            if out:
                out.write(json.dumps(rep) + "\n")
            if derive and ex.get("api_calls") is not None:
                gold, _ = parse_calls(ex["api_calls"])
                pred = rep["derived_api_calls"]
                rel_em, rel_f1 = release_scores(pred, ex["api_calls"])
                values = {"rel_em": rel_em, "rel_f1": rel_f1, "em": exact_match(pred, gold), "slot_f1": f1(triples(pred), triples(gold))}
                if ex.get("applicable_standing_instructions") is not None:
                    profile = [i["nl_instruction"] for i in ex["all_standing_instructions"]]
                    gold_i = [i["nl_instruction"] for i in ex["applicable_standing_instructions"]]
                    sel_em, sel_f1, halluc = selection_scores(rep["derived_instructions"], gold_i, profile)
                    values.update(sel_em=sel_em, sel_f1=sel_f1, halluc=halluc)
                scores.add(rep.get("reasoning_type") or "unknown", **values)
    finally:
        bar.__exit__(None, None, None)
        if pool is not None:
            pool.close()
            pool.join()
        if out:
            out.close()
    seconds = time.perf_counter() - start
    total = sum(counts.values())
    if not quiet:
        click.echo(f"{counted(total, 'example')}: {counts['consistent']} consistent, {counts['inconsistent']} inconsistent, "
                   f"{counted(counts['error'], 'error')}, {counted(len(read_errors), 'unreadable line')} ({total / seconds if seconds else 0:.1f} examples/s)")
        if aliases or markers:
            named = ", ".join(f"{m} {n}" for m, n in sorted(aliases.items()))
            click.echo(f"release conventions read: method spellings in {sum(aliases.values())} examples ({named or 'none'}); "
                       f"{markers} request markers slot=\"?\" left out of the check")  # fmt: skip
        for line in shown.lines():
            click.echo(line)
        fb = getattr(_WORKER, "fallback", None)
        if fb is not None and pool is None:
            click.echo(f"--llm-parse: {fb.accepted} instructions read by the model, {fb.rejected} rejected or failed "
                       f"(reasons in the report's unparsed_instructions)")  # fmt: skip
        if derive and scores.n:
            table = scores.table()
            click.echo(f"derived calls vs gold: exact match {table['all']['rel_em']} % under the release's metric "
                       f"(lower-cased domain_slot=value sets, calls without arguments ignored), {table['all']['em']} % under ours")
            click.echo("by reasoning type (%; rel_ = the release's metric), paper's GPT-4 figures beside:")
            click.echo(render_table(table))
    if total == 0 and not read_errors:
        click.echo(error_line(NoDialogues(" ".join(map(str, paths)), "no NLSI example")), err=True)
        sys.exit(EXIT_ERROR)
    fallback = getattr(_WORKER, "fallback", None)
    if fallback is not None and pool is None and fallback.failed and fallback.failed == fallback.accepted + fallback.rejected:
        click.echo(f"csp-check: error: --llm-parse: every one of the {fallback.failed} LLM requests failed; check --base-url "
                   f"{base_url} and the server (the instructions stay unparsed)", err=True)  # fmt: skip
        sys.exit(EXIT_ERROR)
    if read_errors or counts["error"] or wrong_kind:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_INCONSISTENT if counts["inconsistent"] else EXIT_OK)


def _bar(paths: tuple[Path, ...], quiet: bool):
    """The progress bar of ``calls``: examples out of their number (one per non-blank line);
    off with ``--quiet`` or when stderr is not a terminal."""

    bar = Bar("checking calls", unit="examples", enabled=False if quiet else None)
    if bar.enabled:
        files = [f for f in iter_paths(list(paths)) if f.is_file()]
        bar.total = count_lines(files) if files else None
    return bar


def _started(results: Iterator) -> Iterator:
    """``results`` with its first item computed already (a generator starts Ray lazily: its
    usage errors must come before the run)."""

    try:
        first = next(results)
    except StopIteration:
        return iter(())
    return chain([first], results)


@click.group("nlsi")
def nlsi_group():
    """NLSI standing-instruction data (spec: ../shared/docs/api-call-spec.md)."""


@nlsi_group.command("build")
@click.argument("sgd_paths", nargs=-1, required=True, callback=existing_paths, type=click.Path(path_type=Path))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="NLSI examples JSONL to write (its schema is written beside it).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the instruction and template draws.")
@click.option("--paraphrase", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Share of instructions worded by a paraphrase template instead of the plain template.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after N examples.")
def build_command(sgd_paths, out_path, seed, paraphrase, limit):
    """Build NLSI-style examples from SGD dialogues (and OUT.schema.json beside them)."""


    schema_path = out_path.with_name(out_path.name.removesuffix(".jsonl") + ".schema.json")
    try:
        check_sgd_inputs(list(sgd_paths))
        check_output_path(out_path, list(sgd_paths), "--out", ("example_id",))
        refuse_inputs(schema_path, list(sgd_paths), "--out (its schema)")
        if schema_path.is_file() and schema_path.stat().st_size and not _is_nlsi_schema(schema_path):
            raise UsageError(f"--out {out_path}: {schema_path} exists and is not a schema it wrote; refusing to overwrite it")
    except UsageError as err:
        click.echo(f"csp-check: error: {err}", err=True)
        sys.exit(EXIT_ERROR)
    try:
        problems: list[str] = []
        schema, examples = build_examples(list(sgd_paths), seed=seed, paraphrase=paraphrase, limit=limit, errors=problems)
        for problem in problems:
            click.echo(f"csp-check: error: {problem}", err=True)
        with open(out_path, "w", encoding="utf-8") as f:
            for ex in examples:
                f.write(ex.model_dump_json(exclude_none=True) + "\n")
        schema_path.write_text(json.dumps(schema.to_json(), indent=1) + "\n", encoding="utf-8")
    except (OSError, ValueError, KeyError) as err:
        click.echo(f"csp-check: error: {err}", err=True)
        sys.exit(EXIT_ERROR)
    by_type = Counter(e.reasoning_type.value for e in examples)
    click.echo(f"{len(examples)} examples -> {out_path} ({', '.join(f'{k} {v}' for k, v in sorted(by_type.items()))}); schema -> {schema_path}")
    if problems:
        click.echo(f"{len(problems)} unreadable files or dialogues skipped (above)", err=True)
        sys.exit(EXIT_ERROR)


def _is_nlsi_schema(path: Path) -> bool:
    """Whether ``path`` is a schema ``nlsi build`` wrote (services with ``nlsi_domain``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(data, list) and all(isinstance(s, dict) and "nlsi_domain" in s for s in data)


@nlsi_group.command("experiment")
@click.argument("paths", nargs=-1, required=True, callback=existing_paths, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("nlsi-experiment"),
              show_default=True, help="Directory for nlsi_tables.md, the CSVs and the plot.")  # fmt: skip
@click.option("--schema", "schema", multiple=True, callback=existing_paths, type=click.Path(path_type=Path),
              help="SGD-style schema.json or an SGD split directory (default: the one `nlsi build` wrote).")
@click.option("--no-annotation", is_flag=True, help="Ground the dialogues on their text only.")
@click.option("--bm25-top", type=click.IntRange(min=0), default=4, show_default=True, help="BM25 selects N (0: no BM25 row).")
@click.option("--icl", is_flag=True, help="Add the LLM in-context-learning selector (needs --base-url).")
@click.option("--demos", "demos_path", callback=existing_paths, type=click.Path(dir_okay=False, path_type=Path),
              help="Examples to draw the ICL demonstrations from (default: the input; those drawn are then not scored).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the ICL demonstration draw.")
@llm_options
@click.option("--no-plots", is_flag=True, help="Tables only (no matplotlib needed).")
def experiment_command(paths, out_dir, schema, no_annotation, bm25_top, icl, demos_path, seed, base_url, model, cache_dir,
                       temperature, no_plots):  # fmt: skip
    """Metrics of the API calls by reasoning type for derive / BM25 / LLM-ICL selection, beside
    the paper's Tables 2 and 5 (markdown, CSV, PNG)."""

    settings = llm_settings(base_url, model, cache_dir, temperature, "--icl") if icl else None
    try:
        checker = Checker(load_schema(_schema_paths(paths, schema)), use_annotation=not no_annotation)
    except (OSError, ValueError) as err:
        click.echo(f"csp-check: error: schema: {err}", err=True)
        sys.exit(EXIT_ERROR)

    def load(ps) -> list:
        out = []
        for path in iter_paths(list(ps)):
            for item in read_examples(path):
                if isinstance(item, ExampleError):
                    click.echo(error_line(item), err=True)
                else:
                    out.append(item)
        return out

    examples = load(paths)
    if not examples:
        click.echo(error_line(NoDialogues(" ".join(map(str, paths)), "no NLSI example")), err=True)
        sys.exit(EXIT_ERROR)
    selector = None
    if settings is not None:
        selector = LlmIclSelector(load([demos_path]) if demos_path else examples, settings, seed=seed)
    res = run_calls_experiment(examples, checker, bm25_top=bm25_top or None, icl=selector,
                               log=lambda m: click.echo(m, err=True))  # fmt: skip
    try:
        written = write_outputs(res, out_dir, plots=not no_plots)
    except RuntimeError as err:  # matplotlib missing
        raise click.UsageError(f"{err} (or use --no-plots)") from None
    click.echo((out_dir / "nlsi_tables.md").read_text(encoding="utf-8"))
    click.echo(f"wrote {len(written)} files to {out_dir}/ in {res.seconds:.1f} s")
    if selector is not None and selector.failures and selector.failures == res.n_examples:
        click.echo(f"csp-check: error: every ICL request failed: the llm-icl row is left out (not measured); check --base-url "
                   f"{base_url} and the server", err=True)  # fmt: skip
        sys.exit(EXIT_ERROR)
