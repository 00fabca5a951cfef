"""Show a corpus run with rich: a progress bar while it runs, the summary at the end.

- :class:`RunProgress`: progress on stderr, only when stderr is a terminal (tests, CI and pipes
  stay clean); it also prints the per-dialogue error lines, one line each, never wrapped.
- :func:`render_summary`: dialogues, variables, GCA, the paper's Table 2 (coverage), violations
  by constraint and the first violations in full (dialogue, constraint, turns, spans, text,
  evidence).

rich costs start-up time: ``validate`` loads this module only when its output needs it (a bar on
a terminal, the summary), never with ``--quiet`` or ``--json`` (:mod:`csp_check.cli.lazy`); what
a run shows without rich (:class:`~csp_check.output.plain.QuietProgress`, the JSON summary, the
KB warning) is :mod:`csp_check.output.plain`.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType

import click
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table
from rich.text import Text

from csp_check.families import PAPER_GROUPS, ids, label
from csp_check.models import DialogueReport, Status, Violation
from csp_check.output.plain import counted
from csp_check.output.plain import n as _n
from csp_check.score.corpus import CorpusSummary, SolverTotals, ViolationExample, group_order_key, is_annotation


def _progress_columns(unit: str, known: bool, extra: str = "", width: int = 80, description: str = "",
                      total: int | None = None) -> list:  # fmt: skip
    """The columns of a bar ``width`` characters wide: spinner, ``description``, bar, count (M/N
    when ``known``), ``unit``, elapsed time, ETA (when ``known``), then ``extra``. The bar shrinks
    (5 to 40) and ``extra`` is cut with an ellipsis so that the times are never cut (80 columns)."""
    digits = len(str(total)) if total else 7
    fixed = 1 + len(description) + (2 * digits + 1 if known else digits) + len(unit) + 7 + (3 + 7 if known else 0)
    room = width - fixed - (6 + 2 * known + bool(extra)) - 1  # the spaces between the columns, and one spare
    bar = max(5, min(40, room - (45 if extra else 0)))
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=bar)]
    columns.append(MofNCompleteColumn() if known else TextColumn("{task.completed:,.0f}"))
    columns.append(TextColumn(unit))
    columns.append(TimeElapsedColumn())
    if known:
        columns += [TextColumn("ETA"), TimeRemainingColumn()]
    if extra:
        columns.append(TextColumn(extra, table_column=Column(no_wrap=True, overflow="ellipsis", max_width=max(1, room - bar - 1))))
    return columns


class Bar:
    """A progress bar on stderr for one stage: ``with Bar("scoring", total=n, unit="dialogues")
    as bar: ... bar.advance()``. With a ``total`` it shows M/N and the time remaining (ETA);
    without, a count. ``enabled=None`` means: only if stderr is a terminal (tests, CI and pipes
    stay clean); commands pass ``False`` for ``--quiet``. Transient: it disappears when done."""

    def __init__(self, description: str, total: int | None = None, unit: str = "", enabled: bool | None = None) -> None:
        self.console = Console(stderr=True)
        self.enabled = self.console.is_terminal if enabled is None else enabled
        self.description, self.total, self.unit = description, total, unit
        self._progress: Progress | None = None
        self._task = None

    def __enter__(self) -> Bar:
        if self.enabled:
            known = self.total is not None
            columns = _progress_columns(self.unit, known, width=self.console.width, description=self.description,
                                        total=self.total)  # fmt: skip
            self._progress = Progress(*columns, console=self.console, transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total)
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more items done."""
        if self._progress is not None:
            self._progress.update(self._task, advance=n)

    def echo(self, line: str) -> None:
        """Print one line on stderr, as is, without tearing the bar."""
        if self._progress is not None:
            self._progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(line, err=True)


class RunProgress:
    """A context manager showing how far a run is; ``advance`` once per report.

    ``enabled=None`` means: only if stderr is a terminal. With ``files`` (the number of input
    files, :func:`csp_check.readers.input_files`) the bar counts finished files out of that
    total with an ETA, and the dialogues beside; a file is finished when the reports move on to
    the next source. With ``total`` it counts dialogues out of that total. The bar is transient
    (it disappears when the run ends). Error lines go through :meth:`error` so that they never
    tear the bar.
    """

    def __init__(
        self, enabled: bool | None = None, total: int | None = None, files: int | None = None, verb: str = "checking"
    ) -> None:
        self.verb = verb
        self.console = Console(stderr=True)
        self.enabled = self.console.is_terminal if enabled is None else enabled
        self.total = total
        self.files = files if total is None and files and files > 1 else None
        self._bad = 0
        self._errors = 0
        self._dialogues = 0
        self._source: str | None = None
        self._progress: Progress | None = None
        self._task = None

    def __enter__(self) -> RunProgress:
        if self.enabled:
            width = self.console.width
            if self.files:
                columns = _progress_columns("files", True, "{task.fields[dialogues]} dialogues, {task.fields[status]}",
                                            width, self.verb, self.files)  # fmt: skip
                total = self.files
            else:  # M/N and an ETA even before the total is known (N "?" until set_total)
                columns = _progress_columns("dialogues", True, "{task.fields[status]}", width, self.verb, self.total)
                total = self.total
            self._progress = Progress(*columns, console=self.console, transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.verb, total=total, status="", dialogues=0)
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def set_total(self, total: int) -> None:
        """The number of dialogues, once known (counted while the run goes: a single JSON or zip file)."""
        self.total = total
        if self._progress is not None and not self.files:
            self._progress.update(self._task, total=total)

    def advance(self, report: DialogueReport) -> None:
        """Count one finished dialogue."""
        self.step(report.source, report.status is Status.INCONSISTENT, report.status is Status.ERROR)

    def step(self, source: str, inconsistent: bool = False, error: bool = False) -> None:
        """Count one finished dialogue of file ``source``."""
        self._bad += inconsistent
        self._errors += error
        self._dialogues += 1
        if self._progress is not None:
            status = f"{self._bad} inconsistent, {counted(self._errors, 'error')}" if self.verb == "checking" else counted(self._errors, "error")
            if self.files:
                step = int(self._source is not None and source != self._source)
                self._source = source
                self._progress.update(self._task, advance=step, status=status, dialogues=f"{self._dialogues:,}")
            else:
                self._progress.update(self._task, advance=1, status=status)

    def error(self, line: str) -> None:
        """Print one error line on stderr, as is (no markup, no wrapping)."""
        if self._progress is not None:
            self._progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(line, err=True)


class _StdoutConsole(Console):
    """A console on stdout that, when its reader goes away (``| head``), stops writing quietly
    instead of exiting 1 as rich does: the run's verdict decides the exit code."""

    def on_broken_pipe(self) -> None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def render_summary(summary: CorpusSummary, console: Console | None = None, show: int = 5) -> None:
    """Print the summary of a run on ``console`` (default: stdout), with ``show`` violations in full."""
    console = console or _StdoutConsole(file=sys.stdout, soft_wrap=not sys.stdout.isatty())
    console.print(_headline(summary), highlight=False)
    if summary.checked:
        console.print(_variables_line(summary), highlight=False)
        console.print(_gca_line(summary), highlight=False)
        console.print(_family_line(summary), highlight=False)
        console.print()
        console.print(_coverage_table(summary))
    if summary.solver is not None:
        console.print()
        console.print(_solver_lines(summary.solver), highlight=False)
        if summary.solver.groups:
            console.print()
            console.print(_group_table(summary.solver))
    if summary.solver is not None and summary.solver.repairs and show:
        console.print()
        console.print(_repairs(summary.solver, show), highlight=False)
    table = _violation_table(summary)
    if table is not None:
        console.print()
        console.print(table)
    depth = _turn_table(summary)
    if depth is not None:
        console.print()
        console.print(depth)
    examples = summary.shown_examples(show)
    if examples:
        console.print()
        console.print(Text(f"First {counted(len(examples), 'violation')} in full:", style="bold"))
        for i, example in enumerate(examples, 1):
            console.print(_example(i, example))
    if summary.defects:
        console.print()
        shown = summary.defect_messages  # every one kept (they are few), whatever --show says
        more = f"; first {len(shown)} shown, each is in --report (defects)" if len(shown) < summary.defects else ""
        console.print(Text(f"{counted(summary.defects, 'annotation defect')} skipped (the rest of each dialogue checked{more}):",
                           style="bold"))  # fmt: skip
        for line in shown:
            console.print(Text(f"  {line}"), highlight=False)
    if summary.errors or summary.unreadable:
        parts = [f"{counted(summary.errors, 'dialogue')} could not be read or checked"] if summary.errors else []
        parts += [f"{counted(summary.unreadable, 'input or line', 'inputs or lines')} could not be read as a dialogue"] if summary.unreadable else []
        console.print(Text(f"{'; '.join(parts)} (listed on stderr): the run failed on input, exit 2.", style="red"))


def _headline(s: CorpusSummary) -> Text:
    text = Text(f"{_n(s.dialogues)} dialogue{'' if s.dialogues == 1 else 's'}: ", style="bold")
    text.append(f"{_n(s.checked)} checked, ")
    text.append(f"{_n(s.consistent)} consistent", style="green")
    text.append(", ")
    text.append(f"{_n(s.inconsistent)} inconsistent", style="yellow" if s.inconsistent else "")
    if s.uncertain:
        counted = "counted inconsistent: --strict" if s.strict else "not counted inconsistent"
        text.append(f", {_n(s.uncertain)} uncertain (for review, {counted})")
    if s.unknown:
        text.append(f", {_n(s.unknown)} unknown (dialogue time limit)")
    text.append(", ")
    errors = s.errors + s.unreadable  # an unreadable input is an error too: it makes the run exit 2
    text.append(f"{_n(errors)} error{'' if errors == 1 else 's'}", style="red" if errors else "")
    if s.unreadable:
        text.append(f" ({_n(s.unreadable)} unreadable input{'' if s.unreadable == 1 else 's'} or line"
                    f"{'' if s.unreadable == 1 else 's'})", style="red")
    if s.seconds:
        text.append(f"  ({s.seconds:.1f} s, {s.dialogues / s.seconds:,.0f} dialogues/s)", style="dim")
    return text


def _variables_line(s: CorpusSummary) -> Text:
    share = f" ({s.implicit / s.variables:.1%})" if s.variables else ""
    line = Text(f"variables: {_n(s.variables)}, implicit (no span): {_n(s.implicit)}{share}")
    if s.implied:
        line.append(f"; {_n(s.implied)} indirect user request{'' if s.implied == 1 else 's'} "
                    "(values implied, not named: never violations, docs/iur.md)")
    return line


def _gca_line(s: CorpusSummary) -> Text:
    gca = s.gca if s.gca is not None else 0.0
    consistent = s.consistent + (0 if s.strict else s.uncertain)
    return Text.assemble(("GCA: ", "bold"), f"{gca:.4f}", f" ({_n(consistent)} / {_n(s.checked)} checked dialogues)")


def _family_line(s: CorpusSummary) -> Text:
    """Dialogues flagged by the paper's C1–C6 and, apart, by the annotation family (S1), each
    count split into certain and for review only (the exit code and GCA count only the certain
    ones unless ``--strict``: docs/certainty.md)."""

    text = Text(f"flagged by {label(ids(PAPER_GROUPS)).replace(', ', ',')}: ")
    text.append_text(_flagged(s, "paper", "dialogue"))
    text.append(f"; by the annotation family ({label(ids(('annotation',)))}, state/calls vs the user's text): ")
    text.append_text(_flagged(s, "annotation"))
    return text


def _flagged(s: CorpusSummary, family: str, noun: str = "") -> Text:
    """``"128 dialogues (12.8%: 93 certain, 35 for review only)"``."""
    flagged, certain = s.flagged.get(family, 0), s.flagged_certain.get(family, 0)
    share = f"{flagged / s.checked:.1%}: " if s.checked else ""
    what = counted(flagged, noun) if noun else _n(flagged)
    return Text(f"{what} ({share}{_n(certain)} certain, {_n(flagged - certain)} for review only)")


def _add_rows(table: Table, rows: list, cells) -> None:
    """Rows of C1–C6, then a section with the annotation family (S1): listed apart."""
    paper = [r for r in rows if not is_annotation(r.constraint)]
    annotation = [r for r in rows if is_annotation(r.constraint)]
    for row in paper:
        table.add_row(*cells(row))
    if paper and annotation:
        table.add_section()
    for row in annotation:
        table.add_row(*cells(row))


def _coverage_table(s: CorpusSummary) -> Table:
    table = Table(title="Coverage (paper's Table 2)", box=box.SIMPLE_HEAD, show_edge=False, title_justify="left")
    table.add_column("Constraint")
    table.add_column("# variables", justify="right")
    table.add_column("% coverage", justify="right")
    _add_rows(table, s.coverage_table(), lambda row: (row.constraint, _n(row.variables), f"{row.coverage:.2f}"))
    return table


def _solver_lines(t: SolverTotals) -> Text:
    status = ", ".join(f"{_n(t.status.get(k, 0))} {k}" for k in ("satisfied", "unsatisfiable", "unknown"))
    text = Text.assemble((f"Solver {t.solver}", "bold"), f": CSP of {counted(t.dialogues, 'dialogue')}: {status}")
    text.append(f"  ({t.seconds:.1f} s solving)", style="dim")
    if t.timed_out:
        text.append(f"\n{counted(t.timed_out, 'dialogue')} hit the solver time limit")
        parts = []
        if t.status.get("unknown"):
            parts.append(f"{_n(t.status['unknown'])} before satisfiability was decided (unknown)")
        if t.count_incomplete:
            parts.append(f"{_n(t.count_incomplete)} before the count finished (group unknown)")
        if parts:
            text.append(f": {'; '.join(parts)}")
        text.append("; their verdicts are the solver-free check's (GCA unchanged)")
    if t.vca is not None:
        text.append("\n")
        text.append("VCA: ", style="bold")
        text.append(f"{t.vca:.4f} ({_n(t.agreeing)} / {_n(t.vca_variables)} variables agree with the most similar solution)")
        if t.not_optimal:
            text.append(f"; {_n(t.not_optimal)} optima not proven (time limit): a lower bound")
    if t.capped:
        text.append(f"\n{_n(t.capped)} solution counts stopped at the cap (at least that many solutions)")
    if t.repaired:
        text.append(f"\nrepair: {counted(t.edits, 'edit')} in {counted(t.repaired, 'dialogue')}")
    return text


def _repairs(t: SolverTotals, show: int) -> Text:
    """Every edit of the first ``show`` repaired dialogues: turn, slot, span, its text, old → new."""
    shown = t.repairs[:show]
    text = Text(f"Repairs (minimal edits that make the dialogue consistent), {len(shown)} of "
                f"{counted(t.repaired, 'dialogue')}:", style="bold")  # fmt: skip
    for example in shown:
        text.append(f"\n{example.dialogue_id}", style="bold cyan")
        if example.source:
            text.append(f"  {example.source}", style="dim")
        for edit in example.edits:
            where = f"[{edit.span.start}:{edit.span.end}] {edit.text!r}" if edit.span else "(implicit)"
            text.append(f"\n   turn {edit.turn}  {edit.slot}  {where}: {edit.old!r} → {edit.new!r}")
    if t.repaired > len(shown):
        text.append(f"\n… {_n(t.repaired - len(shown))} more (--show N; every edit is in --report: extra.solver.edits)",
                    style="dim")  # fmt: skip
    return text


def _group_table(t: SolverTotals) -> Table:
    table = Table(title="By number of solutions (paper's Table 1)", box=box.SIMPLE_HEAD, show_edge=False, title_justify="left")
    for name in ("Solutions", "dialogues", "variables", "GCA", "VCA"):
        table.add_column(name, justify="left" if name == "Solutions" else "right")
    for name in sorted(t.groups, key=group_order_key):  # 0, 1, 2-4, ≥ 5, …, unknown
        g = t.groups[name]
        gca = f"{g.consistent / g.dialogues:.2f}" if g.dialogues else "-"
        vca = f"{g.agreeing / g.variables:.2f}" if g.variables and t.vca is not None else "-"
        table.add_row(name, _n(g.dialogues), _n(g.variables), gca, vca)
    return table


def _violation_table(s: CorpusSummary) -> Table | None:
    rows = s.violation_table()
    if not rows:
        return None
    table = Table(title="Violations by constraint", box=box.SIMPLE_HEAD, show_edge=False, title_justify="left")
    table.add_column("Constraint")
    table.add_column("violations", justify="right")
    if any(row.uncertain for row in rows):
        table.add_column("of which for review", justify="right")
        table.add_column("dialogues", justify="right")
        table.add_column("of which certain", justify="right")
        _add_rows(table, rows, lambda row: (row.constraint, _n(row.violations), _n(row.uncertain), _n(row.dialogues),
                                            _n(row.certain_dialogues)))  # fmt: skip
    else:
        table.add_column("dialogues", justify="right")
        _add_rows(table, rows, lambda row: (row.constraint, _n(row.violations), _n(row.dialogues)))
    return table


#: Turn indices shown in the summary's violations-by-turn table (all of them are in ``--json``).
TURNS_SHOWN = 30


def _turn_table(s: CorpusSummary) -> Table | None:
    """Certain violations by the turn where they surface (shown when there is any)."""
    rows = s.by_turn()
    if not any(row.violated for row in rows):
        return None
    more = f"; turns {TURNS_SHOWN}-{len(rows) - 1} in --json" if len(rows) > TURNS_SHOWN else ""
    table = Table(title=f"Certain violations by turn (where they surface{more})", box=box.SIMPLE_HEAD,
                  show_edge=False, title_justify="left")  # fmt: skip
    for name in ("Turn", "dialogues", "violated", "share"):
        table.add_column(name, justify="left" if name == "Turn" else "right")
    for row in rows[:TURNS_SHOWN]:
        table.add_row(str(row.turn), _n(row.dialogues), _n(row.violated), f"{row.share:.1%}")
    return table


def _example(i: int, example: ViolationExample) -> Text:
    v: Violation = example.violation
    turns = ", ".join(map(str, v.turns))
    text = Text(f"{i}. ", style="bold")
    text.append(f"{example.dialogue_id}", style="bold cyan")
    text.append(f" {v.constraint.value}", style="bold yellow")
    text.append(f" turn{'s' if len(v.turns) != 1 else ''} {turns}")
    if example.source:
        text.append(f"  {example.source}", style="dim")
    if not v.certain:
        text.append("  for review", style="bold magenta")
    text.append(f"\n   {v.message}")
    if not v.certain:
        text.append(f"\n   uncertain: {v.uncertain_reason}", style="magenta")
    for ref in v.variables:
        span = f"[{ref.span.start}:{ref.span.end}]" if ref.span else "(implicit)"
        said = repr(ref.text) if ref.text is not None else "-"
        text.append(f"\n     {ref.name}  turn {ref.turn}  {ref.slot}  {span} {said} = {ref.value!r}", style="dim")
    return text
