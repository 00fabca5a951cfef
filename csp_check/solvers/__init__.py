"""Solver backends for csp-check: satisfiability, solution counts, exact VCA, minimal repair.

Backends are looked up by ``name`` or ``name:subsolver`` in one registry
(:mod:`~csp_check.solvers.registry`, as CPMpy's ``SolverLookup``): ``cp-sat`` (OR-Tools,
in-process, the default), ``minizinc:gecode``, ``minizinc:chuffed`` (any ``minizinc:<solver id or
tag>`` works; aliases ``ortools`` and ``minizinc``). Defaults (solver, time limit, cap) are
defined once in :mod:`~csp_check.solvers.defaults`. They share one integer encoding of the CSP
(:mod:`~csp_check.solvers.encoding`) and one MiniZinc model (``csp_check/solvers/consistency.mzn``), and
agree with the solver-free checker :mod:`csp_check.check.evaluate` (tests/test_solvers.py).

Semantics (spec §2–3, paper §3.2–3.3):

- search variables are the variables with a ``span``; implicit ones are fixed to their value in
  ``csp.assignment``; solutions are counted over the search variables;
- a slot variable ranges over ``csp.domains[slot type]`` when C1 is enabled, otherwise over all
  known slot values; an amount over ``0..csp.max_amount``;
- constraints mean exactly what :func:`csp_check.check.evaluate.satisfied` says;
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
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel

from csp_check.check.evaluate import violations
from csp_check.errors import InvalidCSP, SolverUnavailable
from csp_check.models import CSP, Value
from csp_check.solvers.base import Outcome, Solver, Task
from csp_check.solvers.cpsat import CpSatSolver
from csp_check.solvers.defaults import DEFAULT_CAP, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT
from csp_check.solvers.dzn import MAXIMISE_AGREEMENT, MODEL_PATH, to_dzn
from csp_check.solvers.encoding import IntEncoding, encode
from csp_check.solvers.minizinc import MiniZincSolver
from csp_check.solvers.registry import (
    SolverFamily,
    available_solvers,
    canonical_name,
    get_solver,
    register,
    solver_names,
    unregister,
)
from csp_check.solvers.results import (
    CountResult,
    Edit,
    OptimumResult,
    SolutionGroup,
    SolverAnswers,
    SolveResult,
    SolveStatus,
    solution_group,
)

__all__ = [
    "DEFAULT_CAP", "DEFAULT_SOLVER", "DEFAULT_TIME_LIMIT", "SOLVER_NAMES", "CountResult", "Edit", "ExportedFiles",
    "IntEncoding", "InvalidCSP", "OptimumResult", "Outcome", "SolutionGroup", "SolveResult", "SolveStatus",
    "Solver", "SolverAnswers", "SolverFamily", "SolverUnavailable", "Task", "available_solvers", "canonical_name",
    "check_assignment", "count_solutions", "encode", "export_mzn", "get_solver", "most_similar", "register",
    "satisfiable", "solution_group", "solver_names", "unregister", "own_optimum",
]  # fmt: skip

register("cp-sat", CpSatSolver, aliases=("ortools", "cpsat"))
register("minizinc", MiniZincSolver, subsolvers=("gecode", "chuffed"), default_subsolver="gecode")

#: The names ``--solver`` lists (``minizinc:<other>`` also works for any installed MiniZinc solver).
SOLVER_NAMES = solver_names()


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


def own_optimum(csp: CSP, solver_name: str = DEFAULT_SOLVER) -> OptimumResult | None:
    """The most similar solution without a solver, when the dialogue's own assignment is one.

    If :func:`csp_check.check.evaluate.violations` finds nothing (the checker and the solvers agree on
    what satisfies a constraint: :meth:`Solver.check_assignment`) and every variable's own value
    lies in the domain the solvers give it (:func:`~csp_check.solvers.encoding.encode`), the
    assignment is a solution agreeing on every search variable: no solution agrees more, and
    it is the only one that agrees on all (implicit variables are fixed), so it is exactly what
    :meth:`Solver.most_similar` proves optimal (VCA 1). Otherwise ``None`` (ask a solver).
    Source: spec §3 (VCA's most similar solution); the paper's VCA is exact, and so is this.
    """

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
