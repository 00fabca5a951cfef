"""The solver's answers about one dialogue: satisfiability, solution count, exact VCA, repair.

What ``csp-check validate --solver … [--count] [--vca] [--repair]`` asks of a solver for each
dialogue (docs/cli.md; spec §3), as one typed :class:`~csp_check.solvers.results.SolverAnswers`.
It sits above both :mod:`csp_check.solvers` and :mod:`csp_check.solvers.repair` (which uses the solvers),
so neither imports the other's user.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from csp_check.models import CSP
from csp_check.solvers import DEFAULT_CAP, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT, get_solver, own_optimum
from csp_check.solvers.repair import edits, relexicalize
from csp_check.solvers.results import SolverAnswers, SolveStatus


def solve_report(
    csp: CSP,
    solver_name: str = DEFAULT_SOLVER,
    *,
    vca: bool = False,
    count: bool = False,
    cap: int = DEFAULT_CAP,
    repair: bool = False,
    time_limit: float = DEFAULT_TIME_LIMIT,
    utterances: Sequence[str] | None = None,
) -> SolverAnswers:
    """Everything the CLI asks of a solver for one dialogue (:class:`SolverAnswers`).

    The runner stores it in a report's ``extra["solver"]`` (docs/cli.md, "Report file").
    Satisfiability is always reported; ``vca`` / ``repair`` add the most similar solution,
    ``count`` the solution count, ``repair`` the edits and, when ``utterances`` (every turn's
    text, indexed by turn) are given, the relexicalized turns. Each operation gets
    ``time_limit`` seconds; ``reason`` names each operation that ran out of time.

    A CSP without a solution reports ``status: "unsatisfiable"``, ``count: 0``, group ``"0"``,
    ``agreeing: 0`` and no edits; the dialogue's own verdict stays the checker's (its assignment
    then necessarily breaks a constraint). Raises :class:`~csp_check.errors.SolverUnavailable` /
    :class:`~csp_check.errors.UsageError` for a missing / unknown solver and
    :class:`~csp_check.errors.InvalidCSP` for a malformed CSP; never raises on a timeout.
    """
    solver = get_solver(solver_name)
    start = time.perf_counter()
    out: dict[str, object] = {"solver": solver.name}
    reasons: list[str] = []
    status: SolveStatus | None = None
    if count:
        counted = solver.count_solutions(csp, cap, time_limit=time_limit)
        out.update(
            count=counted.count, capped=counted.capped, cap=cap, group=counted.group,
            count_complete=counted.status is not SolveStatus.UNKNOWN,
        )  # fmt: skip
        if counted.count:
            status = SolveStatus.SATISFIED
        elif counted.status is SolveStatus.UNSATISFIABLE:
            status = SolveStatus.UNSATISFIABLE
        if counted.reason:
            reasons.append(f"count: {counted.reason}")
    if vca or repair:
        best = own_optimum(csp, solver.name) or solver.most_similar(csp, time_limit=time_limit)
        out.update(
            agreement=best.agreement, agreeing=best.agreeing, variables=best.variables, vca=best.vca,
            optimal=best.status is not SolveStatus.UNKNOWN,
        )  # fmt: skip
        if best.solution is not None:
            status = SolveStatus.SATISFIED
        elif best.status is SolveStatus.UNSATISFIABLE:
            status = SolveStatus.UNSATISFIABLE
        if best.reason:
            reasons.append(f"most similar solution: {best.reason}")
        if repair:
            solution = best.solution
            out["edits"] = edits(csp, solution) if solution is not None else []
            if utterances is not None:
                out["relexicalized"] = relexicalize(utterances, csp, solution) if solution is not None else None
    if status is None:
        sat = solver.satisfiable(csp, time_limit=time_limit)
        status = sat.status
        if sat.reason:
            reasons.append(f"satisfiable: {sat.reason}")
    out["status"] = status
    out["reason"] = "; ".join(reasons) or None
    out["solve_seconds"] = round(time.perf_counter() - start, 6)
    return SolverAnswers.model_validate(out)
