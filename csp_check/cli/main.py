"""The ``csp-check`` command line.

``csp-check validate PATH... [--format F] [--kb PATH] [--constraints C1,...] [--report FILE.jsonl]
[--jobs N] [--show N] [--quiet] [--json] [--solver NAME] [--vca] [--count-solutions [--cap N]]
[--repair] [--time-limit SEC] [--dialogue-time-limit SEC] [--resume] [--engine local|ray
[--ray-address ADDRESS]]``

``csp-check export-mzn PATH --dialogue ID [--out DIR]``: write one dialogue's CSP as MiniZinc.

``csp-check delexicalize PATH... [--out FILE.jsonl] [--format F] [--kb PATH] [--quiet]``: the
delexicalized dialogues.

Exit codes of ``validate`` (2 beats 1 beats 0):

- **0** every dialogue was checked and is consistent;
- **1** every dialogue was checked and at least one is inconsistent (or unknown: past
  ``--dialogue-time-limit``);
- **2** a usage error (bad option, unloadable KB, unknown or missing solver, unwritable report),
  or some input could not be read or checked. The run still checks and reports every other
  dialogue; each failure is one line on stderr ``csp-check: error: FILE: dialogue ID: FIELD: what is wrong``;
- **130** interrupted (Ctrl-C), at any moment: one line on stderr, the report file keeps every
  dialogue finished so far (a valid JSONL file; ``--resume`` continues it), no worker or solver
  process is left running.

``--report`` never destroys data: see :mod:`csp_check.output.report_file` (an input, a directory or a
file that is not a previous report is refused; the file is written under a temporary name and
renamed at the end).

No traceback is ever printed (set ``CSP_CHECK_DEBUG=1`` to get one for an internal error).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from itertools import islice
from pathlib import Path
from typing import Any

import click

from csp_check.cli.lazy import LazyGroup, load
from csp_check.cli.paths import fail_if_none_exist, refuse_if_no_dialogues, skipped_input_lines, unwarned
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.errors import CspCheckError, InputError, NoDialogues, UsageError, error_line
from csp_check.families.selection import dialogue_constraints
from csp_check.models import ALL_CONSTRAINTS, ConstraintId, Dialogue, Status
from csp_check.output.kb_coverage import kb_coverage_warning
from csp_check.output.plain import KbUse, QuietProgress, counted, summary_json
from csp_check.output.report_file import (
    ReportWriter,
    check_report_path,
    check_resumed_inputs,
    done_counts,
    previous_reports,
    refuse_inputs,
    remove_leftover_parts,
)
from csp_check.output.totals import count_in_background
from csp_check.pipeline import dialogue_csp, load_corpus, with_annotations
from csp_check.readers import FORMATS, input_files, jsonl_total
from csp_check.readers.kinds import load_kb_option
from csp_check.readers.zipped import BUDGET_ENV, DEFAULT_MAX_UNZIPPED
from csp_check.run import interrupts
from csp_check.run.engines import check_engine, engine_options
from csp_check.run.interrupts import InterruptFlag, exit_now, kill_descendants
from csp_check.run.runner import SolverSettings
from csp_check.run.runner import validate as run_validate
from csp_check.score.corpus import CorpusSummary
from csp_check.solvers import DEFAULT_CAP, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, SOLVER_NAMES, get_solver
from csp_check.solvers import export_mzn as write_mzn

EXIT_OK, EXIT_INCONSISTENT, EXIT_ERROR, EXIT_INTERRUPTED = 0, 1, 2, 130
#: What validate shows with rich, loaded only when shown (:func:`csp_check.cli.lazy.load`): rich
#: costs start-up time, and ``--quiet``, ``--json`` and a run whose stderr is no terminal need none.
RICH_VIEWS = {"summary": "csp_check.output.console:render_summary", "bar": "csp_check.output.console:RunProgress"}


def parse_constraints(ctx: click.Context, param: click.Parameter, value: str) -> tuple[ConstraintId, ...]:
    """``"C1,c6"`` → ``(C1, C6)`` (:func:`csp_check.families.selection.dialogue_constraints`);
    an unknown id is a usage error (exit 2)."""
    try:
        return dialogue_constraints(value)
    except UsageError as err:
        raise click.BadParameter(str(err)) from None


def solver_option(
    name: str | None, vca: bool, count: bool, cap: int, repair: bool, time_limit: float
) -> SolverSettings | None:
    """The solver settings the options ask for (``None``: solver-free); checks the solver can run.

    ``--vca``, ``--count-solutions`` and ``--repair`` imply ``--solver cp-sat`` when no solver is
    named. Raises :class:`UsageError` (one line) for an unknown or missing solver.
    """
    if name is None and not (vca or count or repair):
        return None

    name = name or DEFAULT_SOLVER
    try:
        get_solver(name)
    except CspCheckError as err:
        raise UsageError(f"--solver {name}: {err}") from None
    return SolverSettings(name=name, vca=vca, count=count, cap=cap, repair=repair, time_limit=time_limit)


def _internal(err: BaseException) -> str:
    return f"csp-check: internal error: {type(err).__name__}: {err} (set CSP_CHECK_DEBUG=1 for a traceback)"


def _fail(message: str) -> None:
    click.echo(f"csp-check: error: {' '.join(message.split())}", err=True)
    sys.exit(EXIT_ERROR)


def corpus_options(f: Callable) -> Callable:
    """``--format``, ``--kb`` and ``--constraints``: how to read a corpus and which checks to build."""
    f = click.option("--constraints", "constraints", default=lambda: ",".join(c.value for c in ALL_CONSTRAINTS),
                     show_default="every registered family", callback=parse_constraints,
                     help="Enabled constraints, comma-separated (`csp-check constraints` lists them): the "
                          "paper's C1-C6, S1 (the state and calls record what the user said) and S2 (no "
                          "value the user ruled out is recorded); C1,...,C6 leaves S1 and S2 out.")(f)  # fmt: skip
    return reading_options(f)


def _set_unzip_budget(ctx: click.Context, param: click.Parameter, value: float | None) -> None:
    if value is not None:  # the readers (and worker processes) read it from the environment
        os.environ[BUDGET_ENV] = repr(value)


def reading_options(f: Callable) -> Callable:
    """``--format``, ``--kb`` and ``--max-unzipped-mb``: how to read a corpus."""
    f = click.option("--max-unzipped-mb", type=click.FloatRange(min=0, min_open=True), default=None, expose_value=False,
                     callback=_set_unzip_budget, metavar="MB",
                     help=f"Budget of one zip member expanded; a larger one is refused unread "
                          f"[default: {DEFAULT_MAX_UNZIPPED >> 20}].")(f)  # fmt: skip
    f = click.option("--kb", "kb_path", type=click.Path(path_type=Path), help="Domain KB (file or directory).")(f)
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True,
                        help="Input format; auto sniffs each path.")(f)  # fmt: skip


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, lazy_subcommands={
    "experiment": "csp_check.cli.experiment:experiment",  # the paper's relexicalization experiment
    "calls": "csp_check.cli.nlsi:calls_command",  # API calls against standing instructions (docs/nlsi.md)
    "nlsi": "csp_check.cli.nlsi:nlsi_group",
    "constraints": "csp_check.cli.constraints:constraints_command",  # the registry's listing
    "drift": "csp_check.cli.drift:drift",  # instruction drift: self-chats, depth of corpora, attention (docs/drift.md)
    "benchmark": "csp_check.cli.benchmark:benchmark_group",  # a labelled benchmark of the field (docs/citod.md)
    "iur": "csp_check.cli.iur:iur_group",  # indirect user requests (docs/iur.md)
})
@click.version_option(package_name="csp-check")
def main() -> None:
    """Check task-oriented dialogue data for consistency (the paper's C1-C6 and the annotation
    family S1-S2)."""
    click.get_current_context().with_resource(skipped_input_lines())  # a skipped empty file: one warning line


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@corpus_options
@click.option("--report", "report_path", type=click.Path(path_type=Path),
              help="Write one DialogueReport JSON per line, flushed as each dialogue finishes "
                   "(to a temporary file renamed at the end; never overwrites an input or a non-report).")
@click.option("--resume", is_flag=True,
              help="Continue the run of --report FILE: skip the dialogues it reports, append the rest.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (1 = in-process).")
@click.option("--show", type=click.IntRange(min=0), default=5, show_default=True,
              help="Violations shown in full in the summary.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary; errors still go to stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object on stdout.")
@click.option("--solver", "solver_name", metavar="NAME",
              help=f"Also solve each dialogue's CSP: {', '.join(SOLVER_NAMES)} (or minizinc:<solver>).")
@click.option("--vca", is_flag=True, help="Most similar solution per dialogue: the corpus VCA.")
@click.option("--count-solutions", "count", is_flag=True, help="Count solutions (up to --cap): solution groups.")
@click.option("--cap", type=click.IntRange(min=1), default=DEFAULT_CAP, show_default=True,
              help="Stop counting solutions here.")
@click.option("--repair", is_flag=True, help="A minimal repair (edits) of each inconsistent dialogue.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_TIME_LIMIT,
              show_default=True, metavar="SEC", help="Seconds per solver call; beyond it the solver's answer is unknown (the verdict stays the "
                   "solver-free check's).")
@click.option("--dialogue-time-limit", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SEC",
              help="Seconds per dialogue (reading excluded, all checks and solver calls included); "
                   "beyond it the dialogue is unknown. Default: no limit.")
@click.option("--split", type=click.Choice(["train", "val", "test"]), default=None,
              help="MultiWOZ release folder / data.json: only this split (valListFile.txt, testListFile.txt; "
                   "train = the rest).")  # fmt: skip
@click.option("--strict", is_flag=True,
              help="Count violations whose reading is uncertain (reported 'for review') as inconsistencies too: "
                   "in GCA and the exit code.")
@engine_options
def validate(
    paths: tuple[Path, ...],
    fmt: str,
    kb_path: Path | None,
    constraints: tuple[ConstraintId, ...],
    report_path: Path | None,
    jobs: int,
    show: int,
    quiet: bool,
    as_json: bool,
    solver_name: str | None,
    vca: bool,
    count: bool,
    cap: int,
    repair: bool,
    time_limit: float,
    resume: bool,
    dialogue_time_limit: float | None,
    split: str | None,
    strict: bool = False,
    engine: str = "local",
    ray_address: str | None = None,
) -> None:
    """Check every dialogue of PATH... (files or directories) and summarise the corpus.

    Exit 0 if all dialogues are consistent (or only uncertain: violations for review), 1 if any
    is inconsistent (with --strict: or uncertain), 2 on a usage error or if any input could not
    be read or checked (2 takes precedence over 1).
    """
    fail_if_none_exist(paths)
    refuse_if_no_dialogues(paths)
    check_engine(engine, ray_address)
    with InterruptFlag() as flag:
        try:
            _validate(paths, fmt, kb_path, constraints, report_path, jobs, show, quiet, as_json, solver_name, vca,
                      count, cap, repair, time_limit, resume, dialogue_time_limit, flag, split, engine, ray_address,
                      strict)  # fmt: skip
        except KeyboardInterrupt:  # before the run or after it (while summarising)
            kill_descendants(grace=0, keep=flag.before)
            click.echo("csp-check: interrupted", err=True)
            exit_now(flag.exit_code)
        except SystemExit:
            if interrupts.AS_COMMAND:  # the verdict is final: a Ctrl-C while Python shuts down changes nothing
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            raise


def _kb_unused(kb_use: KbUse, kb, kb_path, paths, fmt: str, split: str | None, constraints, scan: int = 2000) -> str | None:
    """:func:`csp_check.output.kb_coverage.kb_coverage_warning` (``None``: no dialogue had
    variables, or none of C4-C6 is enabled), the dialogues' domains counted on the first ``scan``
    dialogues of the inputs (enough to name them, cheap to re-read)."""

    if not kb_use.files or not {c.value for c in constraints} & set(KbUse.KB_CONSTRAINTS):
        return None
    dialogues: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    read = 0
    with unwarned():  # a second look: its skipped files were said
        for item in islice(load_corpus(paths, fmt, kb, split=split), scan):
            if isinstance(item, Dialogue):
                read += 1
                dialogues.update(set(item.domains))
                flagged.update(kb_use.flagged.get((item.source, item.id), ()))
    sizes = {domain: len(table.normalized()) for domain, table in kb.tables.items()}
    return kb_coverage_warning(kb_path, sizes, dialogues, flagged, scanned=scan if read >= scan else None)


def _validate(
    paths: tuple[Path, ...], fmt: str, kb_path: Path | None, constraints: tuple[ConstraintId, ...],
    report_path: Path | None, jobs: int, show: int, quiet: bool, as_json: bool, solver_name: str | None,
    vca: bool, count: bool, cap: int, repair: bool, time_limit: float, resume: bool,
    dialogue_time_limit: float | None, flag: InterruptFlag, split: str | None = None, engine: str = "local",
    ray_address: str | None = None, strict: bool = False,
) -> None:  # fmt: skip
    crashed = False
    writer: ReportWriter | None = None
    try:
        if resume and report_path is None:
            raise UsageError("--resume needs --report FILE (the report of the run to continue)")
        _solver_options_used(solver_name, vca, count, repair)
        if report_path is not None:
            check_report_path(report_path, [*paths, *([kb_path] if kb_path else [])], resume=resume)
        kb = load_kb_option(kb_path) if kb_path is not None else None
        solver = solver_option(solver_name, vca, count, cap, repair, time_limit)
        summary = CorpusSummary(constraints=[c.value for c in constraints], keep=max(show, 10), strict=strict)
        kb_use = KbUse()
        before = previous_reports(report_path) if resume and report_path is not None else []
        if before:
            check_resumed_inputs(report_path, before, paths)
        with ExitStack() as stack:
            if report_path is not None:
                writer = ReportWriter(report_path, keep=before)
            for report in before:
                summary.add(report)
                kb_use.add(report)
            reports = run_validate(paths, fmt, kb, constraints, jobs, solver=solver,
                                   dialogue_time_limit=dialogue_time_limit, skip=done_counts(before), split=split,
                                   engine=engine, ray_address=ray_address)  # fmt: skip
            stack.callback(getattr(reports, "close", lambda: None))
            progress = stack.enter_context(_run_progress(paths, fmt, quiet, skipped=len(before), split=split))
            start = time.perf_counter()
            try:
                for report in reports:
                    if flag.hit:  # finished while interrupted: maybe a swallowed Ctrl-C, not a verdict
                        raise KeyboardInterrupt
                    with flag.shield():  # counted, shown and written: all or nothing
                        if writer is not None:
                            try:
                                writer.write(report)
                            except OSError as err:
                                raise UsageError(f"--report {report_path}: cannot write: {err.strerror or err}") from None
                        summary.add(report)
                        kb_use.add(report)
                        progress.advance(report)
                        if report.status is Status.ERROR:
                            progress.error(error_line(report.error or f"{report.source}: dialogue {report.dialogue_id}: error"))
            except KeyboardInterrupt:
                # keep the report, say so, end our processes and leave at once (exit 130)
                progress.__exit__(None, None, None)  # the terminal gets its cursor back
                _discard(writer)
                writer = None
                click.echo(f"csp-check: interrupted after {counted(summary.dialogues, 'dialogue')}"
                           + (f"; continue with --resume --report {report_path}" if report_path else ""), err=True)  # fmt: skip
                kill_descendants(grace=0, keep=flag.before)
                exit_now(flag.exit_code)
            except UsageError:
                raise
            except Exception as err:
                if os.environ.get("CSP_CHECK_DEBUG"):
                    raise
                crashed = True
                progress.error(_internal(err))
            summary.seconds = time.perf_counter() - start
        if writer is not None:
            writer, closing = None, writer
            _close_report(closing, report_path)
            if resume and report_path is not None:  # its lines are in the report now
                remove_leftover_parts(report_path)
    except UsageError as err:
        _discard(writer)
        _fail(str(err))
    except KeyboardInterrupt:
        _discard(writer)
        raise
    except Exception as err:
        _discard(writer)
        if os.environ.get("CSP_CHECK_DEBUG"):
            raise
        click.echo(_internal(err), err=True)
        sys.exit(EXIT_ERROR)
    try:
        warning = kb_use.warning(tuple(c.value for c in constraints)) if kb is None and not quiet else None
        if kb is not None and not quiet and not crashed:
            warning = _kb_unused(kb_use, kb, kb_path, paths, fmt, split, constraints)
        if as_json:
            click.echo(summary_json(summary, [warning] if warning else None))
        elif not quiet:
            if warning:  # before the summary: read first, not scrolled past under it
                click.echo(warning, err=True)
            load(RICH_VIEWS["summary"])(summary, show=show)
    except BrokenPipeError:  # stdout closed early (| head): the verdict still decides the exit code
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if summary.dialogues == 0 and not summary.unreadable and not crashed:
        click.echo(error_line(NoDialogues(" ".join(map(str, paths)))), err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_ERROR if crashed else summary.exit_code)


def _run_progress(
    paths: tuple[Path, ...], fmt: str, quiet: bool, skipped: int = 0, verb: str = "checking", split: str | None = None
) -> Any:
    """The progress bar of a run over ``paths`` (a :class:`~csp_check.output.console.RunProgress`),
    or :class:`~csp_check.output.plain.QuietProgress` (no bar, no rich) with ``--quiet`` or when
    stderr is not a terminal; out of the number of dialogues when it is known (JSONL; a single
    JSON file or zip, counted while the run goes: :mod:`csp_check.output.totals`), else of files."""
    if quiet or not _stderr_is_terminal():
        return QuietProgress()
    files = input_files(list(paths), fmt)
    total = jsonl_total(files)
    progress = load(RICH_VIEWS["bar"])(enabled=True, total=None if total is None else max(total - skipped, 0),
                                       files=len(files), verb=verb)  # fmt: skip
    if total is None and len(files) == 1 and split is None:  # one JSON file or zip: counted meanwhile
        count_in_background(files[0], fmt, lambda n: progress.set_total(max(n - skipped, 0)))
    return progress


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced by an object without a descriptor
        return False


def _solver_options_used(solver_name: str | None, vca: bool, count: bool, repair: bool) -> None:
    """``--cap`` means nothing without ``--count-solutions``, ``--time-limit`` nothing without a
    solver: given alone, each is a usage error (it would be silently ignored)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return
    given = {name for name in ("cap", "time_limit") if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE}
    if "cap" in given and not count:
        raise UsageError("--cap applies to --count-solutions (the solution count stops there); add --count-solutions")
    if "time_limit" in given and solver_name is None and not (vca or count or repair):
        raise UsageError("--time-limit applies to solver calls; add --solver NAME, --vca, --count-solutions or --repair "
                         "(--dialogue-time-limit bounds each dialogue's check)")  # fmt: skip


def _close_report(writer: ReportWriter, path: Path | None) -> None:
    """Close the report (rename the temporary file onto ``path``); a failure is a usage error."""
    try:
        writer.close()
    except OSError as err:
        raise UsageError(f"--report {path}: cannot write: {err.strerror or err}") from None


def _discard(writer: ReportWriter | None) -> None:
    """After a failure: keep what was written if possible (renamed into place), else drop it."""
    if writer is not None:
        try:
            writer.close()
        except OSError:
            pass


@main.command("export-mzn")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--dialogue", "dialogue_id", required=True, help="Id of the dialogue to export.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("mzn"),
              show_default=True, help="Directory to write the .mzn / .dzn files into.")
@corpus_options
def export_mzn(
    path: Path, dialogue_id: str, out_dir: Path, fmt: str, kb_path: Path | None, constraints: tuple[ConstraintId, ...]
) -> None:
    """Write the CSP of one dialogue of PATH as MiniZinc: the model, most_similar.mzn and ID.dzn.

    Exit 0 when written; 2 if the dialogue is missing or unreadable, or on a usage error.
    """

    refuse_if_no_dialogues([path])
    try:
        kb = load_kb_option(kb_path) if kb_path is not None else None
        unreadable: InputError | None = None
        for item in load_corpus([path], fmt, kb):
            if isinstance(item, InputError):
                if item.dialogue == dialogue_id:
                    _fail(str(item))
                unreadable = unreadable or (item if item.dialogue is None else None)
                continue
            if item.id == dialogue_id:
                files = write_mzn(dialogue_csp(item, kb, constraints), out_dir)
                break
        else:
            _fail(str(unreadable) if unreadable else f"dialogue {dialogue_id} not found in {path}")
    except CspCheckError as err:
        _fail(str(err))
    except OSError as err:
        _fail(f"{err.filename or out_dir}: cannot write: {err.strerror or err}")
    except Exception as err:
        if os.environ.get("CSP_CHECK_DEBUG"):
            raise
        click.echo(_internal(err), err=True)
        sys.exit(EXIT_ERROR)
    for written in (files.model, files.most_similar, files.data):
        click.echo(str(written))
    click.echo(f"solve with: minizinc --solver gecode {files.model} {files.data} (a warning that \"count.mzn\" "
               "overrides a global comes from Debian's Gecode library, not this model: harmless; -G std avoids it)",
               err=True)  # fmt: skip


@main.command("delexicalize")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="JSONL file to write (default: stdout).")
@reading_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar; errors still go to stderr.")
def delexicalize_command(paths: tuple[Path, ...], out_path: Path | None, fmt: str, kb_path: Path | None, quiet: bool) -> None:
    """Write each dialogue of PATH... delexicalized: one JSON line per dialogue with its
    variables (turn, speaker, span, slot, text, value) and its turns with spans replaced by [xN].

    Exit 0 when all were written, 2 if any input could not be read (one line each on stderr;
    the other dialogues are still written), if the inputs hold no dialogue, or on a usage error.
    """

    fail_if_none_exist(paths)
    refuse_if_no_dialogues(paths)
    failed = False
    written = 0
    try:
        if out_path is not None:
            refuse_inputs(out_path, [*paths, *([kb_path] if kb_path else [])], "--out")
        kb = load_kb_option(kb_path) if kb_path is not None else None
        with ExitStack() as stack:
            out = stack.enter_context(open(out_path, "w", encoding="utf-8")) if out_path else sys.stdout
            progress = stack.enter_context(_run_progress(paths, fmt, quiet or out is sys.stdout and sys.stdout.isatty(),
                                                         verb="delexicalizing"))  # fmt: skip
            for item in load_corpus(list(paths), fmt, kb):
                if isinstance(item, InputError):
                    progress.error(error_line(item))
                    progress.step(item.file, error=True)
                    failed = True
                    continue
                out.write(delexicalize(with_annotations(item, kb)).model_dump_json() + "\n")
                out.flush()
                written += 1
                progress.step(item.source)
    except CspCheckError as err:
        _fail(str(err))
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_OK)
    except OSError as err:
        _fail(f"{err.filename or out_path or 'stdout'}: cannot write: {err.strerror or err}")
    if written == 0 and not failed:  # as validate: an input without dialogues is an error
        click.echo(error_line(NoDialogues(" ".join(map(str, paths)))), err=True)
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_ERROR if failed else EXIT_OK)


if __name__ == "__main__":  # python -m csp_check.cli.main
    main()
