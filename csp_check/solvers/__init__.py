"""Solver backends for csp-check: satisfiability, solution counts, exact VCA, minimal repair.

Backends are looked up by name (as CPMpy does): ``cp-sat`` (OR-Tools, in-process, the default),
``minizinc:gecode``, ``minizinc:chuffed`` (any ``minizinc:<solver id or tag>`` works; aliases
``ortools`` and ``minizinc``). They share one integer encoding of the CSP
(:mod:`~csp_check.solvers.encoding`) and one MiniZinc model (``models/consistency.mzn``), and
agree with the solver-free checker :mod:`csp_check.check` (tests/test_solvers.py).

Semantics (issue 3; spec §2–3, paper §3.2–3.3):

- search variables are the variables with a ``span``; implicit ones are fixed to their value in
  ``csp.assignment``; solutions are counted over the search variables;
- a slot variable ranges over ``csp.domains[slot type]`` when C1 is enabled, otherwise over all
  known slot values; an amount over ``0..csp.max_amount``;
- constraints mean exactly what :func:`csp_check.check.satisfied` says;
- the most similar solution maximises the number of search variables equal to
  ``csp.assignment``; that number is a dialogue's VCA numerator and its number of search
  variables the denominator (implicit variables count on neither side); a CSP without a
  solution contributes 0;
- every call has a time limit (seconds); reaching it gives status ``unknown`` with a reason.

>>> from csp_check.solvers import get_solver
>>> cp = get_solver("cp-sat")
>>> cp.satisfiable(csp).status, cp.count_solutions(csp, cap=101).group, cp.most_similar(csp).agreement
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pydantic import BaseModel

from csp_check.errors import UsageError
from csp_check.models import CSP, Value
from csp_check.solvers.base import DEFAULT_TIME_LIMIT, Outcome, Solver, SolverUnavailable, Task
from csp_check.solvers.cpsat import CpSatSolver
from csp_check.solvers.dzn import MAXIMISE_AGREEMENT, MODEL_PATH, to_dzn
from csp_check.solvers.encoding import IntEncoding, InvalidCSP, encode
from csp_check.solvers.minizinc import MiniZincSolver
from csp_check.solvers.results import (
    DEFAULT_CAP,
    CountResult,
    OptimumResult,
    SolutionGroup,
    SolveResult,
    SolveStatus,
    solution_group,
)

__all__ = [
    "DEFAULT_CAP", "DEFAULT_SOLVER", "DEFAULT_TIME_LIMIT", "SOLVER_NAMES", "CountResult", "ExportedFiles",
    "IntEncoding", "InvalidCSP", "OptimumResult", "Outcome", "SolutionGroup", "SolveResult", "SolveStatus",
    "Solver", "SolverUnavailable", "Task", "available_solvers", "check_assignment", "count_solutions",
    "encode", "export_mzn", "get_solver", "most_similar", "register", "satisfiable", "solution_group",
    "own_optimum", "solve_report",
]  # fmt: skip

DEFAULT_SOLVER = "cp-sat"
#: The names ``--solver`` accepts (``minizinc:<other>`` also works for any installed solver).
SOLVER_NAMES = ("cp-sat", "minizinc:gecode", "minizinc:chuffed")
_ALIASES = {"ortools": "cp-sat", "cpsat": "cp-sat", "minizinc": "minizinc:gecode"}
_FACTORIES: dict[str, Callable[[], Solver]] = {"cp-sat": CpSatSolver}
_INSTANCES: dict[str, Solver] = {}


def register(name: str, factory: Callable[[], Solver]) -> None:
    """Make ``get_solver(name)`` build a backend with ``factory`` (see ``TEMPLATE.py``)."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def get_solver(name: str = DEFAULT_SOLVER) -> Solver:
    """The backend called ``name`` (cached per process).

    Raises :class:`~csp_check.errors.UsageError` for an unknown name and
    :class:`SolverUnavailable` (with how to install it) when the solver is not installed.
    """
    name = _ALIASES.get(name, name)
    if name in _INSTANCES:
        return _INSTANCES[name]
    if name in _FACTORIES:
        solver = _FACTORIES[name]()
        if not solver.available():
            raise SolverUnavailable(f"solver {name!r} is not installed: pip install 'csp-check[solvers]'")
    elif name.startswith("minizinc:") and name.split(":", 1)[1]:
        mzn = MiniZincSolver(name.split(":", 1)[1])
        mzn.ensure_available()
        solver = mzn
    else:
        known = ", ".join(sorted({*SOLVER_NAMES, *_FACTORIES}))
        raise UsageError(f"unknown solver {name!r}; choose one of {known} (or minizinc:<solver>)")
    _INSTANCES[name] = solver
    return solver


def available_solvers() -> list[str]:
    """The names of :data:`SOLVER_NAMES` (and registered backends) that can run here."""
    names = []
    for name in dict.fromkeys([*SOLVER_NAMES, *_FACTORIES]):
        try:
            get_solver(name)
        except (SolverUnavailable, UsageError):
            continue
        names.append(name)
    return names


# -- operations with a solver name ------------------------------------------------------------


def satisfiable(csp: CSP, solver: str = DEFAULT_SOLVER, *, time_limit: float = DEFAULT_TIME_LIMIT) -> SolveResult:
    """Whether ``csp`` has a solution (:meth:`Solver.satisfiable`)."""
    return get_solver(solver).satisfiable(csp, time_limit=time_limit)


def check_assignment(
    csp: CSP,
    assignment: Mapping[str, Value] | None = None,
    solver: str = DEFAULT_SOLVER,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> SolveResult:
    """Whether ``assignment`` (default: the dialogue's own) satisfies ``csp``, decided by a solver."""
    return get_solver(solver).check_assignment(csp, assignment, time_limit=time_limit)


def count_solutions(
    csp: CSP, cap: int = DEFAULT_CAP, solver: str = DEFAULT_SOLVER, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> CountResult:
    """The number of solutions up to ``cap`` and its group (:meth:`Solver.count_solutions`)."""
    return get_solver(solver).count_solutions(csp, cap, time_limit=time_limit)


def most_similar(csp: CSP, solver: str = DEFAULT_SOLVER, *, time_limit: float = DEFAULT_TIME_LIMIT) -> OptimumResult:
    """The solution most similar to the dialogue's assignment (:meth:`Solver.most_similar`)."""
    return get_solver(solver).most_similar(csp, time_limit=time_limit)


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
) -> dict[str, Any]:
    """Everything the CLI asks of a solver for one dialogue, as a JSON-able dict.

    The CLI stores it in :attr:`DialogueReport.extra["solver"] <csp_check.models.DialogueReport>`.
    Satisfiability is always reported; ``vca`` / ``repair`` add the most similar solution,
    ``count`` the solution count. Each operation gets ``time_limit`` seconds. Keys:

    - ``solver``: the backend's name; ``solve_seconds``: wall time of all calls (float, s);
    - ``status``: ``"satisfied"`` / ``"unsatisfiable"`` / ``"unknown"``: does the CSP have a
      solution (with ``reason`` when unknown or when an operation ran out of time);
    - with ``count``: ``count`` (int), ``capped`` (bool: at least ``cap`` solutions),
      ``cap``, ``group`` (``"0"``, ``"1"``, ``"2-10"``, ``"11-100"``, ``"101+"`` or ``None``
      when unknown), ``count_complete`` (false on a timeout: ``count`` is a lower bound);
    - with ``vca`` or ``repair``: ``agreement`` (search variables agreeing with the most
      similar solution), ``agreeing`` (the same: the VCA numerator, 0 without
      a solution), ``variables`` (the VCA denominator), ``vca`` (their ratio or ``None``),
      ``optimal`` (false on a timeout: a lower bound);
    - with ``repair``: ``edits`` (list of ``{variable, turn, slot, span, text, old, new}``) and,
      when ``utterances`` (every turn's text, indexed by turn) are given, ``relexicalized``
      (every turn's text with the edits applied).

    A CSP without a solution reports ``status: "unsatisfiable"``, ``count: 0``, group ``"0"``,
    ``agreeing: 0`` and no edits; the dialogue's own verdict stays the checker's (its assignment
    then necessarily breaks a constraint). Raises :class:`SolverUnavailable` /
    :class:`~csp_check.errors.UsageError` for a missing / unknown solver and
    :class:`InvalidCSP` for a malformed CSP; never raises on a timeout.
    """
    from csp_check.repair import edits, relexicalize

    solver = get_solver(solver_name)
    start = time.perf_counter()
    out: dict[str, Any] = {"solver": solver.name}
    reasons: list[str] = []
    status: SolveStatus | None = None
    if count:
        counted = solver.count_solutions(csp, cap, time_limit=time_limit)
        out.update(
            count=counted.count, capped=counted.capped, cap=cap,
            group=counted.group.value if counted.group else None,
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
            found = best.solution is not None
            out["edits"] = [e.model_dump(mode="json") for e in edits(csp, best.solution)] if found else []
            if utterances is not None:
                out["relexicalized"] = relexicalize(utterances, csp, best.solution) if found else None
    if status is None:
        sat = solver.satisfiable(csp, time_limit=time_limit)
        status = sat.status
        if sat.reason:
            reasons.append(f"satisfiable: {sat.reason}")
    out["status"] = status.value
    out["reason"] = "; ".join(reasons) or None
    out["solve_seconds"] = round(time.perf_counter() - start, 6)
    return out


def own_optimum(csp: CSP, solver_name: str = DEFAULT_SOLVER) -> OptimumResult | None:
    """The most similar solution without a solver, when the dialogue's own assignment is one.

    If :func:`csp_check.check.violations` finds nothing (the checker and the solvers agree on
    what satisfies a constraint: :meth:`Solver.check_assignment`) and every variable's own value
    lies in the domain the solvers give it (:func:`~csp_check.solvers.encoding.encode`), the
    assignment is a solution agreeing on every search variable: no solution agrees more, and
    it is the only one that agrees on all (implicit variables are fixed), so it is exactly what
    :meth:`Solver.most_similar` proves optimal (VCA 1). Otherwise ``None`` (ask a solver).
    Source: spec §3 (VCA's most similar solution); the paper's VCA is exact, and so is this.
    """
    from csp_check.check import violations

    start = time.perf_counter()
    if violations(csp):
        return None
    enc = encode(csp)
    if any(c not in domain for c, domain in zip(enc.said, enc.domains)):
        return None
    searched = sum(enc.search)
    return OptimumResult(
        solver=solver_name, status=SolveStatus.SATISFIED, agreement=searched, agreeing=searched,
        variables=searched, solution=enc.assignment(enc.said), solve_seconds=time.perf_counter() - start,
    )  # fmt: skip


# -- export -----------------------------------------------------------------------------------


class ExportedFiles(BaseModel):
    """What :func:`export_mzn` wrote."""

    model: Path  # consistency.mzn: the model (C1–C6), solve for satisfaction
    data: Path  # <dialogue>.dzn: the dialogue's data
    most_similar: Path  # most_similar.mzn: the model + `solve maximize preference` (agreement first)


def export_mzn(csp: CSP, out_dir: str | Path) -> ExportedFiles:
    """Write ``consistency.mzn``, ``most_similar.mzn`` and ``<dialogue id>.dzn`` into ``out_dir``.

    ``minizinc --solver gecode out_dir/consistency.mzn out_dir/<id>.dzn`` then solves the
    dialogue (``-a`` for all solutions), ``most_similar.mzn`` instead finds the most similar
    solution; both open in the MiniZinc IDE. Creates ``out_dir`` if needed; overwrites the
    files. Raises :class:`InvalidCSP` for a malformed CSP and ``OSError`` on write errors.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model = out / MODEL_PATH.name
    if model.resolve() != MODEL_PATH.resolve():
        shutil.copyfile(MODEL_PATH, model)
    similar = out / "most_similar.mzn"
    similar.write_text(
        "% The most similar solution to the dialogue's own assignment (exact VCA):\n"
        f'include "{MODEL_PATH.name}";\n{MAXIMISE_AGREEMENT}',
        encoding="utf-8",
    )
    data = out / (re.sub(r"[^A-Za-z0-9._-]+", "_", csp.dialogue_id) or "dialogue")
    data = data.with_name(data.name + ".dzn")
    data.write_text(to_dzn(encode(csp)), encoding="utf-8")
    return ExportedFiles(model=model, data=data, most_similar=similar)
