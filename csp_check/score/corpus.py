"""Corpus scores: fold :class:`~csp_check.models.DialogueReport` s into one :class:`CorpusSummary`.

>>> summary = CorpusSummary()
>>> for report in validate(["dialogues/"]):
...     summary.add(report)
>>> summary.gca, summary.coverage_table()

Definitions (spec §3, paper Table 2):

- *checked* dialogues are all dialogues except those with status ``error`` (unreadable input or
  a crash while checking them). Errors are counted and shown, never scored.
- **GCA** = consistent / checked (:func:`csp_check.score.metrics.gca`). A dialogue with status
  ``unknown`` (its check ran past ``--dialogue-time-limit``) is checked but not consistent. A
  solver's time limit never makes a dialogue ``unknown``: the verdict is the solver-free check's
  (docs/cli.md, "Time limits"). ``None`` when nothing was checked.
- **coverage** of a constraint = variables under it / all variables of the checked dialogues,
  summed over dialogues (:func:`csp_check.score.metrics.coverage` over every variable, implicit ones
  too: :attr:`~csp_check.score.metrics.CoverageScope.ALL`; docs/metrics.md).
- **violations by constraint**: number of violations, and number of dialogues with at least one.
- **violations by turn** (:meth:`CorpusSummary.by_turn`): for each turn index t, the checked
  dialogues that have a turn t, and those of them with a *certain* violation surfacing at turn t
  (the last turn the violation names: where the dialogue stops being consistent); their ratio is
  the share of turns at depth t with a certain violation (issue 23: consistency by depth, the
  corpus side of ``csp-check drift``). Reports without a turn count (``turns`` 0: an error, a
  report file of an older release) add nothing here.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field, PrivateAttr

from csp_check.families import get
from csp_check.models import ALL_CONSTRAINTS, DialogueReport, Status, Violation
from csp_check.score import metrics
from csp_check.solvers.results import Edit, SolverAnswers


class ViolationExample(BaseModel):
    """A violation kept in full for the summary, with the dialogue it comes from."""

    dialogue_id: str
    source: str = ""
    violation: Violation


class CoverageRow(BaseModel):
    """One row of the paper's Table 2: constraint, # variables, % coverage (a fraction 0..1)."""

    constraint: str
    variables: int
    coverage: float


class ConstraintViolations(BaseModel):
    """How often one constraint is violated across the corpus."""

    constraint: str
    violations: int
    dialogues: int
    uncertain: int = Field(0, description="of the violations, those uncertain (for review)")
    certain_dialogues: int = Field(0, description="of the dialogues, those with a certain violation of it (the others "
                                   "have only violations for review)")


class TurnViolations(BaseModel):
    """One turn index of :meth:`CorpusSummary.by_turn`: dialogues reaching it, those with a
    certain violation surfacing there, and their ratio (0..1)."""

    turn: int
    dialogues: int
    violated: int
    share: float


class GroupTotals(BaseModel):
    """Dialogues of one solution-count group (the paper's Table 1 row)."""

    dialogues: int = 0
    variables: int = 0
    consistent: int = 0
    agreeing: int = 0


class RepairExample(BaseModel):
    """The minimal repair of one dialogue kept in full for the summary: its edits as
    :func:`csp_check.solvers.answers.solve_report` gives them."""

    dialogue_id: str
    source: str = ""
    edits: list[Edit] = Field(default_factory=list)


class SolverTotals(BaseModel):
    """Totals of the solver's answers (:class:`~csp_check.solvers.results.SolverAnswers`, a
    report's ``extra["solver"]``) over the checked dialogues.

    **VCA** (:func:`csp_check.score.metrics.vca`) = Σ agreeing variables / Σ variables over the dialogues whose most similar solution
    was computed (a dialogue whose CSP has no solution adds 0 agreeing). Solution groups are
    ``0``, ``1``, ``2-10``, ``11-100``, ``101+``, ``≥ CAP`` (the count reached a ``--cap``
    below 101) or ``unknown`` (the count hit the time limit before it finished).

    ``status`` counts the CSPs by satisfiability; ``unknown`` there: the solver hit its time
    limit before it proved a solution or none. ``timed_out`` counts the dialogues where any
    operation hit the time limit, ``count_incomplete`` the counts among them (their ``count`` is
    a lower bound).
    """

    solver: str = ""
    dialogues: int = 0
    status: dict[str, int] = Field(default_factory=dict, description="satisfied / unsatisfiable / unknown")
    vca_dialogues: int = 0
    agreeing: int = 0
    vca_variables: int = 0
    not_optimal: int = Field(0, description="most similar solution not proven optimal (timeout)")
    capped: int = Field(0, description="counts that stopped at the cap")
    timed_out: int = Field(0, description="dialogues where a solver operation hit the time limit")
    count_incomplete: int = Field(0, description="counts stopped by the time limit (a lower bound)")
    groups: dict[str, GroupTotals] = Field(default_factory=dict)
    repaired: int = Field(0, description="dialogues with at least one repair edit")
    edits: int = 0
    repairs: list[RepairExample] = Field(default_factory=list, description="the first `keep` repaired dialogues")
    keep: int = 10
    seconds: float = 0.0

    def add(self, report: DialogueReport, out: SolverAnswers) -> None:
        """Count one dialogue's solver answers in (``report`` gives its verdict and variables)."""
        self.solver = out.solver
        self.dialogues += 1
        self.status[out.status.value] = self.status.get(out.status.value, 0) + 1
        self.seconds += out.solve_seconds
        if out.optimised:
            self.vca_dialogues += 1
            self.agreeing += out.agreeing or 0
            self.vca_variables += out.variables or 0
            self.not_optimal += out.optimal is False
        self.timed_out += bool(out.reason)
        if out.counted:
            self.capped += bool(out.capped)
            self.count_incomplete += out.count_complete is False
            group = self.groups.setdefault(group_name(out), GroupTotals())
            group.dialogues += 1
            group.variables += report.variables - report.implicit if out.variables is None else out.variables
            group.consistent += report.status is Status.CONSISTENT
            group.agreeing += out.agreeing or 0
        if out.edits:
            self.repaired += 1
            self.edits += len(out.edits)
            if len(self.repairs) < self.keep:
                self.repairs.append(RepairExample(dialogue_id=report.dialogue_id, source=report.source,
                                                  edits=list(out.edits)))  # fmt: skip

    @property
    def vca(self) -> float | None:
        """Variable consistency accuracy; ``None`` if no most similar solution was computed."""
        return metrics.vca(self.agreeing, self.vca_variables)


def solver_answers(report: DialogueReport) -> SolverAnswers | None:
    """The solver's answers stored in ``report`` (``extra["solver"]``), typed; ``None`` without.

    A report checked in this run holds a :class:`SolverAnswers`; one read back from a report
    file (``--resume``) holds its JSON object, validated here. Raises ``pydantic.ValidationError``
    for an object that is not a solver's answers.
    """
    solved = report.extra.get("solver")
    if solved is None or isinstance(solved, SolverAnswers):
        return solved
    return SolverAnswers.model_validate(solved)


GROUP_ORDER = ("0", "1", "2-10", "11-100", "101+", "unknown")


def group_order_key(name: str) -> tuple[float, int]:
    """Sort key of a group label of :func:`group_name`: by its least count (``0``, ``1``,
    ``2-4``, ``≥ 5``, ``11-100``, ``101+``), ``unknown`` last; a ``≥ CAP`` group after a range
    with the same least count."""

    m = re.search(r"\d+", name)
    return (float(m.group()) if m else float("inf"), name.startswith("≥"))


def group_name(out: SolverAnswers) -> str:
    """The solution group of one dialogue's solver answers: the paper's group, ``≥ CAP`` when
    the count reached a cap below 101 (so its group is undecided), ``unknown`` when the count
    hit the time limit. A cap below 101 cuts the paper's range it falls in (``2-10`` at cap 5
    is ``2-4``), so no two labels of one run overlap."""
    if out.group is not None:
        name = out.group.value
        if out.cap is not None and out.cap <= 100 and "-" in name:  # a range the cap cuts: 2-10 at cap 5 → 2-4
            low, high = (int(part) for part in name.split("-"))
            if high >= out.cap:
                return str(low) if out.cap - 1 == low else f"{low}-{out.cap - 1}"
        return name
    if out.capped:
        return f"≥ {out.cap if out.cap is not None else out.count}"
    return "unknown"


def _family(cid: str) -> str:
    """'annotation' for the annotation family (S1), 'paper' for the paper's C1–C6."""

    return "annotation" if get(cid).group == "annotation" else "paper"


def is_annotation(cid: str) -> bool:
    """Whether constraint id ``cid`` is of the annotation family (S1): listed apart from C1–C6."""
    return _family(cid) == "annotation"


class CorpusSummary(BaseModel):
    """Running totals over the reports of a corpus run; :meth:`add` one report at a time.

    ``keep`` bounds how many violations (and error messages) are kept in full, so memory stays
    constant however large the corpus. ``constraints`` lists the enabled constraint ids: every
    one of them gets a coverage row, even at 0.
    """

    constraints: list[str] = Field(default_factory=lambda: [c.value for c in ALL_CONSTRAINTS])
    keep: int = 10
    dialogues: int = 0
    consistent: int = 0
    inconsistent: int = 0
    uncertain: int = Field(0, description="dialogues whose violations are all uncertain (for review): consistent "
                           "in GCA and the exit code unless strict")
    strict: bool = Field(False, description="count uncertain dialogues as inconsistent (--strict)")
    unknown: int = 0
    errors: int = 0
    unreadable: int = Field(0, description="inputs or lines read as no dialogue at all (a missing file, an unknown "
                            "format, a JSONL line that is no JSON): errors, not counted as dialogues")
    variables: int = 0
    implicit: int = 0
    coverage: dict[str, int] = Field(default_factory=dict, description="constraint → variables under it")
    violations: dict[str, int] = Field(default_factory=dict, description="constraint → violations")
    violating_dialogues: dict[str, int] = Field(default_factory=dict, description="constraint → dialogues")
    uncertain_violations: dict[str, int] = Field(
        default_factory=dict, description="constraint → violations of it that are uncertain (for review; "
        "included in violations)",
    )
    flagged: dict[str, int] = Field(
        default_factory=lambda: {"paper": 0, "annotation": 0},
        description="'paper' (C1–C6) / 'annotation' (S1) → dialogues with a violation of it (both keys always), "
        "certain or for review",
    )
    flagged_certain: dict[str, int] = Field(
        default_factory=lambda: {"paper": 0, "annotation": 0},
        description="of `flagged`, the dialogues with a certain violation of the family; the rest of `flagged` "
        "are flagged for review only (not counted in GCA and the exit code unless strict)",
    )
    certain_violating_dialogues: dict[str, int] = Field(
        default_factory=dict, description="constraint → dialogues with a certain violation of it"
    )
    examples: list[ViolationExample] = Field(default_factory=list, description="the first `keep` violations")
    #: The first ``keep`` certain violations (what :meth:`shown_examples` puts first; not in the JSON).
    _certain_examples: list[ViolationExample] = PrivateAttr(default_factory=list)
    error_messages: list[str] = Field(default_factory=list, description="the first `keep` errors")
    implied: int = Field(0, description="indirect user requests reported (DialogueReport.implied): values the "
                         "user implied without naming them, never violations")
    defects: int = Field(0, description="annotation defects reported (DialogueReport.defects)")
    defect_messages: list[str] = Field(default_factory=list, description="the first few, 'DIALOGUE: FIELD: what'")
    turns_checked: list[int] = Field(default_factory=list, description="[t]: checked dialogues with a turn t")
    turns_violated: list[int] = Field(default_factory=list, description="[t]: of them, those with a certain "
                                      "violation surfacing at turn t (the last turn it names)")
    seconds: float | None = Field(None, description="wall time of the run, if the caller measured it")
    solver: SolverTotals | None = Field(None, description="totals of the solver's answers, if one ran")

    def add(self, report: DialogueReport) -> None:
        """Count one dialogue's report in (an error report without a dialogue id is an input or
        line read as no dialogue: counted in ``unreadable``, not in ``dialogues``)."""
        if report.status is Status.ERROR and not report.dialogue_id:
            self.unreadable += 1
            if len(self.error_messages) < self.keep:
                self.error_messages.append(report.error or report.source)
            return
        self.dialogues += 1
        if report.status is Status.ERROR:
            self.errors += 1
            if len(self.error_messages) < self.keep:
                self.error_messages.append(report.error or f"{report.source}: dialogue {report.dialogue_id}")
            return
        if report.status is Status.CONSISTENT:
            self.consistent += 1
        elif report.status is Status.INCONSISTENT:
            self.inconsistent += 1
        elif report.status is Status.UNCERTAIN:
            self.uncertain += 1
        else:
            self.unknown += 1
        self.variables += report.variables
        self.implicit += report.implicit
        self.defects += len(report.defects)
        self.implied += len(report.implied)
        for defect in report.defects:
            if len(self.defect_messages) < self.keep:
                self.defect_messages.append(f"{report.dialogue_id}: {defect}")
        solved = solver_answers(report)
        if solved is not None:
            self.solver = self.solver or SolverTotals(keep=self.keep)
            self.solver.add(report, solved)
        for cid, n in report.coverage.items():
            self.coverage[cid] = self.coverage.get(cid, 0) + n
        self._add_depth(report)
        for family in sorted({_family(v.constraint.value) for v in report.violations}):
            self.flagged[family] = self.flagged.get(family, 0) + 1
        certain = sorted({v.constraint.value for v in report.violations if v.certain})  # sorted: keys in a fixed order
        for family in sorted({_family(cid) for cid in certain}):
            self.flagged_certain[family] = self.flagged_certain.get(family, 0) + 1
        for cid in certain:
            self.certain_violating_dialogues[cid] = self.certain_violating_dialogues.get(cid, 0) + 1
        seen: set[str] = set()
        for violation in report.violations:
            cid = violation.constraint.value
            self.violations[cid] = self.violations.get(cid, 0) + 1
            if not violation.certain:
                self.uncertain_violations[cid] = self.uncertain_violations.get(cid, 0) + 1
            if cid not in seen:
                seen.add(cid)
                self.violating_dialogues[cid] = self.violating_dialogues.get(cid, 0) + 1
            example = ViolationExample(dialogue_id=report.dialogue_id, source=report.source, violation=violation)
            if len(self.examples) < self.keep:
                self.examples.append(example)
            if violation.certain and len(self._certain_examples) < self.keep:
                self._certain_examples.append(example)

    def _add_depth(self, report: DialogueReport) -> None:
        """Count the report's turns and the turns where a certain violation surfaces."""
        if report.turns <= 0:
            return
        for counts in (self.turns_checked, self.turns_violated):
            counts.extend([0] * (report.turns - len(counts)))
        for t in range(report.turns):
            self.turns_checked[t] += 1
        for t in {max(v.turns) for v in report.violations if v.certain and v.turns}:
            if 0 <= t < report.turns:
                self.turns_violated[t] += 1

    def by_turn(self) -> list[TurnViolations]:
        """Violations by turn index, every index some checked dialogue reaches (module docstring)."""
        return [TurnViolations(turn=t, dialogues=n, violated=self.turns_violated[t],
                               share=self.turns_violated[t] / n if n else 0.0)
                for t, n in enumerate(self.turns_checked)]  # fmt: skip

    @property
    def checked(self) -> int:
        """Dialogues that were read and checked (all but errors)."""
        return self.dialogues - self.errors

    @property
    def gca(self) -> float | None:
        """Global consistency accuracy: consistent / checked, where a dialogue with uncertain
        violations only counts as consistent unless :attr:`strict`; ``None`` if nothing was checked."""
        return metrics.gca(self.consistent + (0 if self.strict else self.uncertain), self.checked)

    @property
    def exit_code(self) -> int:
        """The CLI's exit code for this run: 2 if any error (or unreadable input), else 1 if any dialogue is not
        consistent (inconsistent, unknown, or — when :attr:`strict` — uncertain), else 0. Errors take
        precedence over inconsistencies: an exit code of 1 promises every dialogue was checked."""
        if self.errors or self.unreadable:
            return 2
        return 1 if self.inconsistent or self.unknown or (self.strict and self.uncertain) else 0

    def coverage_table(self) -> list[CoverageRow]:
        """The paper's Table 2: for each enabled (or covered) constraint, # variables and share."""
        ids = list(self.constraints) + sorted(set(self.coverage) - set(self.constraints))
        return [
            CoverageRow(
                constraint=cid,
                variables=self.coverage.get(cid, 0),
                coverage=metrics.coverage(self.coverage.get(cid, 0), self.variables) or 0.0,
            )
            for cid in ids
        ]

    def violation_table(self) -> list[ConstraintViolations]:
        """Violations and violating dialogues per constraint, for constraints with any."""
        ids = [c for c in self.constraints if c in self.violations]
        ids += sorted(set(self.violations) - set(ids))
        return [
            ConstraintViolations(constraint=c, violations=self.violations[c], dialogues=self.violating_dialogues[c],
                                 uncertain=self.uncertain_violations.get(c, 0),
                                 certain_dialogues=self.certain_violating_dialogues.get(c, 0))
            for c in ids
        ]

    def shown_examples(self, show: int) -> list[ViolationExample]:
        """The ``show`` violations the console shows in full: certain ones first, then those for
        review, each in the order of the input's dialogues and, within a dialogue, of its turns
        (``examples``, in the JSON, stays the first ``keep`` in file order)."""
        review = [e for e in self.examples if not e.violation.certain]
        picked = (self._certain_examples + review)[:show]
        order = {d: i for i, d in enumerate(dict.fromkeys(e.dialogue_id for e in self._certain_examples + self.examples))}
        return sorted(picked, key=lambda e: (not e.violation.certain, order[e.dialogue_id], min(e.violation.turns, default=-1)))

    def to_json_dict(self) -> dict[str, object]:
        """The JSON summary: every total plus the derived figures (checked, GCA, tables, exit code)."""
        data = self.model_dump(mode="json")
        data.update(
            checked=self.checked,
            gca=self.gca,
            exit_code=self.exit_code,
            coverage_table=[r.model_dump() for r in self.coverage_table()],
            violation_table=[r.model_dump() for r in self.violation_table()],
            violations_by_turn=[r.model_dump() for r in self.by_turn()],
        )
        if self.solver is not None:
            data["solver"]["vca"] = self.solver.vca
        return data
