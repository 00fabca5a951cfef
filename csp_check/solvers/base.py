"""The solver interface: what a backend implements, and the operations built on it.

A backend implements one method, :meth:`Solver.run`, over an
:class:`~csp_check.solvers.encoding.IntEncoding` and a :class:`Task`; the public operations
(:meth:`Solver.satisfiable`, :meth:`Solver.check_assignment`, :meth:`Solver.count_solutions`,
:meth:`Solver.most_similar`) are written once here on top of it, so every backend returns the
same typed results (:mod:`csp_check.solvers.results`) with the same semantics. See
``TEMPLATE.py`` for adding a backend.

Every operation takes ``time_limit`` (seconds per call). Reaching it is never an exception: the
result has status ``unknown`` and says why in ``reason``. Operations raise only
:class:`~csp_check.errors.InvalidCSP` for a malformed CSP (a constraint naming an
unknown variable, C6 without its count variable) and ``ValueError`` for a cap below 1.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

from csp_check.errors import SolverUnavailable
from csp_check.install import pip_extra
from csp_check.models import CSP, Value
from csp_check.solvers.defaults import DEFAULT_CAP, DEFAULT_TIME_LIMIT
from csp_check.solvers.encoding import IntEncoding, encode
from csp_check.solvers.results import CountResult, OptimumResult, SolveResult, SolveStatus, solution_group


class Task(str, Enum):
    SATISFY = "satisfy"  # one solution or a proof there is none
    COUNT = "count"  # enumerate solutions up to a cap
    MAXIMISE = "maximise"  # maximise the agreement with the dialogue's assignment


@dataclass
class Outcome:
    """What a backend's :meth:`Solver.run` returns.

    ``solutions`` are codes in variable order (SATISFY: one; MAXIMISE: the best last; COUNT:
    optional, a backend may only report ``count``). ``count`` is COUNT's number of solutions
    found, at most ``cap`` (``None``: ``len(solutions)``). ``complete`` means the search
    finished: every solution enumerated, optimality or unsatisfiability proven; stopping at the
    cap is not complete. ``reason`` explains an incomplete search that is not a cap.
    """

    solutions: list[tuple[int, ...]] = field(default_factory=list)
    complete: bool = True
    reason: str | None = None
    count: int | None = None

    @property
    def found(self) -> int:
        """How many solutions the search found."""
        return len(self.solutions) if self.count is None else self.count


class Solver(ABC):
    """A constraint solver backend, looked up by name (``cp-sat``, ``minizinc:gecode``, …)."""

    name: ClassVar[str] = ""

    @classmethod
    def available(cls) -> bool:
        """Whether the backend can run here (its package and binaries are installed)."""
        return True

    def ensure_available(self) -> None:
        """Raise :class:`~csp_check.errors.SolverUnavailable` (saying how to install it) when
        the backend cannot run here."""
        if not self.available():
            raise SolverUnavailable(f"solver {self.name!r} is not installed: {pip_extra('solvers')}")

    @abstractmethod
    def run(self, enc: IntEncoding, task: Task, *, cap: int, time_limit: float) -> Outcome:
        """Solve ``enc`` for ``task`` within ``time_limit`` seconds.

        COUNT stops after ``cap`` solutions. Must not raise on a timeout or solver failure:
        return an incomplete :class:`Outcome` with a ``reason``.
        """

    # -- operations ---------------------------------------------------------------------------

    def satisfiable(self, csp: CSP, *, time_limit: float = DEFAULT_TIME_LIMIT) -> SolveResult:
        """Whether ``csp`` has a solution over its search variables (spec §1), with one if so."""
        return self._satisfy(csp, None, time_limit)

    def check_assignment(
        self, csp: CSP, assignment: Mapping[str, Value] | None = None, *, time_limit: float = DEFAULT_TIME_LIMIT
    ) -> SolveResult:
        """Whether ``assignment`` (default: the dialogue's own) satisfies every constraint.

        Every variable is fixed to its assigned value, even one outside its domain, so this
        answers exactly what :func:`csp_check.check.evaluate.violations` answers (empty ⇔ satisfied).
        """
        assignment = csp.assignment if assignment is None else assignment
        fixed = {v.name: assignment[v.name] if v.name in assignment else v.value for v in csp.variables}
        return self._satisfy(csp, fixed, time_limit)

    def count_solutions(
        self, csp: CSP, cap: int = DEFAULT_CAP, *, time_limit: float = DEFAULT_TIME_LIMIT
    ) -> CountResult:
        """The number of solutions over the search variables, up to ``cap`` (spec §3 groups).

        ``capped`` ⇔ ``count == cap`` (there are at least ``cap``); ``cap >= 1``.
        """
        if cap < 1:
            raise ValueError(f"cap must be at least 1, not {cap}")
        start = time.perf_counter()
        out = self._run(encode(csp), Task.COUNT, cap, time_limit)
        count = min(out.found, cap)
        capped = count == cap
        if capped or out.complete:
            status = SolveStatus.SATISFIED if count else SolveStatus.UNSATISFIABLE
            group = solution_group(count, capped)
        else:
            status, group = SolveStatus.UNKNOWN, None
        return CountResult(
            solver=self.name, status=status, count=count, capped=capped, cap=cap, group=group,
            solve_seconds=time.perf_counter() - start, reason=None if capped or out.complete else out.reason,
        )  # fmt: skip

    def most_similar(self, csp: CSP, *, time_limit: float = DEFAULT_TIME_LIMIT) -> OptimumResult:
        """The solution agreeing with the dialogue's assignment on most variables (exact VCA).

        Maximises the number of search variables whose value equals ``csp.assignment``
        (spec §3: VCA's "most similar" solution; computed by optimisation, not sampling).
        """
        start = time.perf_counter()
        enc = encode(csp)
        out = self._run(enc, Task.MAXIMISE, 1, time_limit)
        searched = sum(1 for v in csp.variables if v.span is not None)
        result = OptimumResult(solver=self.name, status=SolveStatus.UNKNOWN, variables=searched)
        if out.solutions:
            best = out.solutions[-1]
            result.agreement = sum(1 for i, c in enumerate(best) if enc.search[i] and c == enc.said[i])
            result.agreeing = result.agreement
            result.solution = enc.assignment(best)
        if out.complete:
            result.status = SolveStatus.SATISFIED if out.solutions else SolveStatus.UNSATISFIABLE
        else:
            result.reason = out.reason
        result.solve_seconds = time.perf_counter() - start
        return result

    # -- helpers ------------------------------------------------------------------------------

    def _satisfy(self, csp: CSP, fixed: Mapping[str, Value] | None, time_limit: float) -> SolveResult:
        start = time.perf_counter()
        enc = encode(csp, fixed)
        out = self._run(enc, Task.SATISFY, 1, time_limit)
        if out.solutions:
            status, solution = SolveStatus.SATISFIED, enc.assignment(out.solutions[0])
        else:
            status, solution = (SolveStatus.UNSATISFIABLE if out.complete else SolveStatus.UNKNOWN), None
        return SolveResult(
            solver=self.name, status=status, solution=solution, solve_seconds=time.perf_counter() - start,
            reason=None if out.solutions or out.complete else out.reason,
        )  # fmt: skip

    def _run(self, enc: IntEncoding, task: Task, cap: int, time_limit: float) -> Outcome:
        if any(not d for d in enc.domains):  # a variable without values: nothing to search
            return Outcome([], complete=True)
        return self.run(enc, task, cap=cap, time_limit=time_limit)
