"""Typed results of the solver operations (pydantic models and enums).

Every result carries the solver's name, a :class:`SolveStatus`, the wall-clock time of the call
in seconds (``solve_seconds``: encoding + model building + solving, and for MiniZinc the
process start) and, when the status is ``unknown``, the ``reason`` (a time limit, a solver
error). Solutions map *every* variable name to its value (implicit variables at their fixed
value).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from csp_check.models import Span, Value
from csp_check.score.metrics import vca
from csp_check.solvers.defaults import DEFAULT_CAP as DEFAULT_CAP  # re-export (defined once in defaults)


class SolveStatus(str, Enum):
    SATISFIED = "satisfied"  # a solution exists (for counts: at least one; for optima: proven optimal)
    UNSATISFIABLE = "unsatisfiable"  # no solution: the CSP is over-constrained
    UNKNOWN = "unknown"  # the time limit was reached (or the solver failed) before an answer


class SolutionGroup(str, Enum):
    """The paper's solution-count groups (paper §4, Table 1; spec §3)."""

    NONE = "0"
    ONE = "1"
    FEW = "2-10"
    SOME = "11-100"
    MANY = "101+"




def solution_group(count: int, capped: bool) -> SolutionGroup | None:
    """The group of ``count`` solutions; ``None`` when a cap below 101 leaves it undecided.

    ``capped`` means enumeration stopped at the cap, so there are *at least* ``count``
    solutions (spec §3: "say when capped").
    """
    if count >= 101:
        return SolutionGroup.MANY
    if capped:
        return None
    if count == 0:
        return SolutionGroup.NONE
    if count == 1:
        return SolutionGroup.ONE
    return SolutionGroup.FEW if count <= 10 else SolutionGroup.SOME


class SolveResult(BaseModel):
    """Whether the CSP (or one assignment, when fixed) has a solution, with one if so."""

    solver: str
    status: SolveStatus
    solution: dict[str, Value] | None = None
    solve_seconds: float = 0.0
    reason: str | None = None


class CountResult(BaseModel):
    """The number of solutions over the search variables, enumerated up to ``cap``.

    ``capped`` is true when ``count`` reached ``cap``: there are at least ``cap`` solutions.
    On a timeout the status is ``unknown`` and ``count`` is what was found so far.
    """

    solver: str
    status: SolveStatus
    count: int
    capped: bool
    cap: int
    group: SolutionGroup | None = None
    solve_seconds: float = 0.0
    reason: str | None = None

    @property
    def label(self) -> str:
        """``"12"``, or ``"≥ 101"`` when capped."""
        return f"≥ {self.count}" if self.capped else str(self.count)


class OptimumResult(BaseModel):
    """The solution most similar to the dialogue's own assignment (exact VCA, spec §3).

    ``agreement`` counts the *search* variables (those with a span: what a relexicalizer fills)
    whose value equals what the text says; ``agreeing`` equals it and is the dialogue's VCA
    numerator; ``variables``, the number of search variables, its denominator. Implicit
    variables (no span) are fixed context and count on neither side. A CSP with no
    solution has ``agreement = agreeing = 0`` (it contributes 0 to VCA). ``status`` is
    ``satisfied`` only when the optimum is proven; on a timeout it is ``unknown`` and the best
    solution found so far (if any) is kept.
    """

    solver: str
    status: SolveStatus
    agreement: int = 0
    agreeing: int = 0
    variables: int = 0
    solution: dict[str, Value] | None = None
    solve_seconds: float = 0.0
    reason: str | None = None

    @property
    def vca(self) -> float | None:
        """This dialogue's own VCA, ``agreeing / variables`` (``None`` without variables)."""
        return vca(self.agreeing, self.variables)



class Edit(BaseModel):
    """Change variable ``variable`` at ``turn`` / ``span`` (its text ``text``) from ``old`` to ``new``.

    One edit of a minimal repair (:mod:`csp_check.solvers.repair`; spec §3, the most similar solution).
    """

    variable: str
    turn: int
    slot: str = Field(description="slot type domain.slot")
    span: Span | None
    text: str | None = Field(description="what the utterance says at the span now")
    old: Value
    new: Value


class SolverAnswers(BaseModel):
    """Everything a solver answered about one dialogue (:func:`csp_check.solvers.answers.solve_report`).

    Stored in a report line as ``extra.solver`` (docs/cli.md, "Report file"). Only what was asked
    is set, and only what is set is written: satisfiability (``status``, ``reason``,
    ``solve_seconds``) always; the count fields with ``--count``; the most-similar-solution
    fields with ``--vca`` or ``--repair``; ``edits`` (and ``relexicalized`` when the turns' text
    was given) with ``--repair``.

    - ``solver``: the backend's name; ``solve_seconds``: wall time of all calls (s);
    - ``status``: does the CSP have a solution; ``reason`` says why an operation ran out of time;
    - ``count`` (at most ``cap``), ``capped`` (at least ``cap`` solutions), ``cap``, ``group``
      (``None`` when unknown), ``count_complete`` (false on a timeout: ``count`` is a lower bound);
    - ``agreement`` / ``agreeing`` (search variables agreeing with the most similar solution:
      the VCA numerator, 0 without a solution), ``variables`` (the VCA denominator), ``vca``
      (their ratio or ``None``), ``optimal`` (false on a timeout: a lower bound);
    - ``edits`` (the minimal repair) and ``relexicalized`` (every turn's text with the edits
      applied, ``None`` without a solution).
    """

    solver: str
    count: int | None = None
    capped: bool | None = None
    cap: int | None = None
    group: SolutionGroup | None = None
    count_complete: bool | None = None
    agreement: int | None = None
    agreeing: int | None = None
    variables: int | None = None
    vca: float | None = None
    optimal: bool | None = None
    edits: list[Edit] | None = None
    relexicalized: list[str] | None = None
    status: SolveStatus
    reason: str | None = None
    solve_seconds: float = 0.0

    @model_serializer(mode="wrap")
    def _asked_only(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):  # what was not asked is left out, not written as null
            return {k: v for k, v in data.items() if k in self.model_fields_set}
        return data

    @property
    def counted(self) -> bool:
        """Whether the solutions were counted (``--count``)."""
        return self.count is not None

    @property
    def optimised(self) -> bool:
        """Whether the most similar solution was computed (``--vca`` / ``--repair``)."""
        return self.agreeing is not None
