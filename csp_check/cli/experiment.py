"""``csp-check experiment``: the paper's relexicalization experiment on a corpus (spec §4).

``csp-check experiment PATH... [--domain Restaurants_1] [--kb DB_DIR] [--limit N] [--seed S] [--out DIR]
[--solver NAME] [--time-limit SEC] [--jobs N] [--no-plots] [--base-url URL --model NAME
[--temperature 0.9] [--concurrency N] [--cache-dir DIR] [--request-timeout SEC] [--retries N]]
[--engine local|ray [--ray-address ADDRESS]]``

Writes ``DIR/results.jsonl``, ``DIR/tables.md``, ``DIR/table1..5.csv`` and PNG plots, and prints
Table 3. Exit 2 when every LLM request failed (the server is unreachable or refuses: the
console says why; the tables are still written, without an LLM row, and say why). The LLM relexicalizer runs only with ``--base-url`` (any OpenAI-compatible server; key
from ``$OPENAI_API_KEY``, a dummy for local servers). Exit 0 on success, 2 on a usage error
(unknown solver, nothing selected, missing ``openai`` / ``matplotlib`` package), when no input
could be read (each unreadable one is validate's line, ``csp-check: error: FILE: dialogue ID:
FIELD: what``, then one line saying nothing was measured), or when some dialogue could not be
built, relexicalized or scored: each is one line on stderr (``csp-check: error: FILE: dialogue
ID: internal error: …``) and an error row of ``results.jsonl``; the others are measured and the
tables written without it. Unreadable items among readable ones are named the same way and left
out; the rest is measured and written, then one line counts what was left out, and the exit code
is 2 (as ``validate``: exit 0 promises that every input was read).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from itertools import islice
from pathlib import Path

import click

from csp_check.cli.paths import existing_paths, unwarned
from csp_check.errors import CspCheckError, error_line
from csp_check.experiment import ExperimentConfig, run_experiment, write_outputs
from csp_check.experiment.tables import table3
from csp_check.install import pip_extra
from csp_check.llm.client import LLMSettings
from csp_check.models import Dialogue
from csp_check.output.console import Bar
from csp_check.output.plain import counted
from csp_check.output.report_file import check_writable_dir
from csp_check.pipeline import load_corpus
from csp_check.readers.kinds import load_kb_option
from csp_check.run.engines import check_engine, engine_options
from csp_check.solvers import get_solver
from csp_check.solvers.defaults import DEFAULT_SOLVER, DEFAULT_TIME_LIMIT


@click.command("experiment")
@click.argument("paths", nargs=-1, required=True, callback=existing_paths, type=click.Path(path_type=Path))
@click.option("--domain", default="Restaurants_1", show_default=True,
              help="Domain to select: an SGD service, or a DB table name with --kb (restaurant).")  # fmt: skip
@click.option("--kb", "kb_path", callback=existing_paths, type=click.Path(path_type=Path), default=None,
              help="KB whose DOMAIN table is the instance pool (MultiWOZ: the *_db.json directory).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="At most N dialogues (by id).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of KB sampling and Random.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("experiment-out"),
              show_default=True, help="Directory for tables, plots and results.jsonl.")  # fmt: skip
@click.option("--solver", "solver_name", default=DEFAULT_SOLVER, show_default=True, help="Solver backend.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_TIME_LIMIT, show_default=True,
              help="Seconds per solver call.")  # fmt: skip
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Scoring processes.")
@click.option("--multi-domain", is_flag=True, help="Also dialogues with other domains besides --domain.")
@click.option("--no-plots", is_flag=True, help="Tables only (no matplotlib needed).")
@click.option("--base-url", default=None, help="OpenAI-compatible server: adds the LLM relexicalizer.")
@click.option("--model", default="gpt-3.5-turbo", show_default=True, help="Chat model name.")
@click.option("--temperature", type=float, default=0.9, show_default=True, help="Sampling temperature (paper: 0.9).")
@click.option("--concurrency", type=click.IntRange(min=1), default=4, show_default=True, help="Parallel LLM requests.")
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("~/.cache/csp-check"),
              show_default=True, help="LLM answer cache.")  # fmt: skip
@click.option("--request-timeout", type=click.FloatRange(min=0, min_open=True), default=120.0, show_default=True,
              help="Total seconds per LLM request, the whole answer included.")  # fmt: skip
@click.option("--retries", type=click.IntRange(min=0), default=4, show_default=True, help="LLM retries per request.")
@engine_options
def experiment(
    paths: tuple[Path, ...], domain: str, kb_path: Path | None, limit: int | None, seed: int, out_dir: Path, solver_name: str,
    time_limit: float, jobs: int, multi_domain: bool, no_plots: bool, base_url: str | None, model: str,
    temperature: float, concurrency: int, cache_dir: Path, request_timeout: float, retries: int,
    engine: str = "local", ray_address: str | None = None,
) -> None:  # fmt: skip
    """Relexicalize DOMAIN dialogues of PATHs (Random, Most Frequent, CSP, LLM) and write the
    paper's Tables 1-5 and plots."""

    check_engine(engine, ray_address)
    try:
        check_writable_dir(out_dir, "--out")  # before the work, not after it
    except CspCheckError as err:
        raise click.UsageError(str(err)) from None
    try:
        get_solver(solver_name)
    except CspCheckError as err:  # one line, as validate says it
        click.echo(f"csp-check: error: --solver {solver_name}: {err}", err=True)
        raise SystemExit(2) from None
    llm = None
    if base_url:
        try:
            import openai  # noqa: F401
        except ImportError:
            raise click.UsageError(f"--base-url needs the openai package: {pip_extra('llm')}") from None


        if not os.environ.get("OPENAI_API_KEY"):
            click.echo("warning: OPENAI_API_KEY is not set; sending a dummy key (fine for a local server)", err=True)

        llm = LLMSettings(
            base_url=base_url, model=model, temperature=temperature, timeout=request_timeout, max_retries=retries,
            concurrency=concurrency, cache_dir=cache_dir,
        )  # fmt: skip
    kb = None
    if kb_path is not None:
        try:
            kb = load_kb_option(kb_path)  # the one --kb loader of every command
        except CspCheckError as err:
            raise click.UsageError(str(err)) from None
        if domain not in kb.tables:
            raise click.UsageError(f"--kb {kb_path} has no table {domain!r} (tables: {', '.join(sorted(kb.tables))})")
    config = ExperimentConfig(
        paths=list(paths), domain=domain, kb=kb, limit=limit, seed=seed, solver=solver_name, time_limit=time_limit,
        single_domain=not multi_domain, llm=llm, jobs=jobs, progress=_stage_bar, engine=engine, ray_address=ray_address,
        llm_answers=out_dir / "llm_answers.jsonl" if llm is not None else None,
    )  # fmt: skip
    result = run_experiment(config, log=lambda msg: click.echo(msg, err=True))
    if result.read == 0 and result.unreadable:  # bad input, not a usage error: no usage block
        click.echo(error_line(f"no dialogue could be read from {', '.join(map(str, paths))} ("
                              f"{counted(result.unreadable, 'unreadable input')}, named above); nothing was measured"), err=True)  # fmt: skip
        raise SystemExit(2)
    if not any(r.error is None for r in result.dialogues):
        raise click.UsageError(f"no {domain} dialogues could be used in {', '.join(map(str, paths))}"
                               + domains_hint(paths, domain, multi_domain))  # fmt: skip
    try:
        written = write_outputs(result, out_dir, plots=not no_plots)
    except RuntimeError as err:  # matplotlib missing
        raise click.UsageError(f"{err} (or use --no-plots)") from None
    except OSError as err:  # the disk filled up meanwhile
        raise click.UsageError(f"--out {out_dir}: cannot write {err.filename or ''}: {err.strerror or err}") from None
    click.echo(table3(result).markdown())
    click.echo(f"\nwrote {len(written) + (llm is not None)} files to {out_dir}/ (tables.md, table1-5.csv, results.jsonl"
               + (", llm_answers.jsonl" if llm is not None else "")
               + ("" if no_plots else ", *.png") + f") in {result.seconds:.0f} s")  # fmt: skip
    failed = [r for r in result.dialogues if r.error is not None]
    if failed:  # each was named on stderr as it failed; the tables leave them out, results.jsonl keeps them
        click.echo(f"csp-check: error: {len(failed)} of {len(result.dialogues)} dialogues could not be scored (named "
                   f"above; their results.jsonl rows carry the error); the tables leave them out", err=True)  # fmt: skip
    if result.llm_unreachable is not None:  # one line: the server, and why
        click.echo(f"csp-check: error: --base-url {base_url}: cannot reach the LLM server ({result.llm_unreachable}); "
                   "the LLM row is left out of the tables (not measured)", err=True)  # fmt: skip
        raise SystemExit(2)
    if result.llm_failures and result.llm_failures == result.llm_requests:
        click.echo(f"csp-check: error: every LLM request failed ({result.llm_failures} dialogues): the LLM row is left "
                   f"out of the tables (not measured); check --base-url {base_url} and the server", err=True)  # fmt: skip
        raise SystemExit(2)  # an environment error, as a usage error
    if result.unreadable:  # as validate: the rest was measured, but the run did not see all its input
        click.echo(error_line(f"{counted(result.unreadable, 'unreadable input')}, named above, left out; the tables measure "
                              "the rest"), err=True)  # fmt: skip
    if failed or result.unreadable:
        raise SystemExit(2)  # as validate: an unreadable input or a dialogue whose check crashed makes the run exit 2


def _stage_bar(description: str, total: int, unit: str):
    """A progress bar for one stage of the experiment (only when stderr is a terminal)."""

    return Bar(description, total=total, unit=unit)


def domains_hint(paths: Iterable[Path], domain: str, multi_domain: bool, scan: int = 5000) -> str:
    """``"; its domains (services): A (12), B (3); give one with --domain"``: what the first
    ``scan`` dialogues of ``paths`` have, for an ``experiment`` that found no ``domain`` dialogue
    (a mistyped ``--domain``, or the default ``Restaurants_1`` on data of other domains). When
    ``domain`` occurs but only beside others, points to ``--multi-domain`` instead. ``""`` when
    nothing could be read."""

    counts: Counter[str] = Counter()
    with unwarned():  # a second look: its skipped files were said
        for item in islice(load_corpus(list(paths), "auto"), scan):
            if isinstance(item, Dialogue):
                counts.update(dict.fromkeys(item.domains, 1))
    if not counts:
        return ""
    if domain in counts and not multi_domain:
        return f"; its {counts[domain]} {domain} dialogue(s) have other domains too: add --multi-domain"
    listed = ", ".join(f"{name} ({n})" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:30])
    more = f" and {len(counts) - 30} more" if len(counts) > 30 else ""
    return f"; the input's domains (services): {listed}{more}; give one with --domain"
