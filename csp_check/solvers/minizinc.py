"""MiniZinc backend (``--solver minizinc:gecode`` / ``minizinc:chuffed``) via the ``minizinc`` package.

Each call runs the MiniZinc driver on ``csp_check/solvers/consistency.mzn`` plus the dialogue's data
(:func:`csp_check.solvers.dzn.to_dzn`), the same files ``csp-check export-mzn`` writes. MAXIMISE
adds ``solve maximize preference;`` (agreement first, then the user's variables); COUNT asks for up to ``cap`` solutions (``-n cap``).

Installing the solvers:

- **Gecode** comes with Debian's ``minizinc`` package (``apt-get update && apt-get install -y minizinc``) and with the
  MiniZinc bundle.
- **Chuffed** is not packaged in Debian bookworm. Get it with the MiniZinc IDE bundle from
  https://www.minizinc.org/software.html (it ships Chuffed), or build Chuffed from source
  (https://github.com/chuffed/chuffed: ``cmake -B build && cmake --build build``) and copy or
  link its ``chuffed.msc`` into ``~/.minizinc/solvers/`` (adjusting the ``executable`` and
  ``mznlib`` paths in it). ``minizinc --solvers`` then lists it.

Debian's MiniZinc 2.6.4 warns on every run that 'included file "count.mzn" overrides a global
constraint file from the standard library': a packaging quirk, not an error. The backend
silences exactly that warning, and "model inconsistency detected" (flattening proved the
instance unsatisfiable, which the result's status already says); others pass through.

A time limit, or a driver failure, gives an incomplete :class:`~csp_check.solvers.base.Outcome`
with the reason (status ``unknown``), never an exception.
"""

from __future__ import annotations

import re
import warnings
from datetime import timedelta
from typing import Any

from csp_check.errors import SolverUnavailable
from csp_check.install import MINIZINC, pip_extra
from csp_check.solvers.base import Outcome, Solver, Task
from csp_check.solvers.dzn import MAXIMISE_AGREEMENT, MODEL_PATH, to_dzn
from csp_check.solvers.encoding import IntEncoding

#: Start of the harmless warning Debian's MiniZinc 2.6.4 prints on every call.
COUNT_MZN_WARNING = 'included file "count.mzn" overrides a global constraint file'
#: MiniZinc's warning when flattening alone proves the instance unsatisfiable (status says so).
INCONSISTENCY_WARNING = "model inconsistency detected"

HOW_TO_GET = {
    "chuffed": (
        "Chuffed is not packaged in Debian: install the MiniZinc bundle from "
        "https://www.minizinc.org/software.html (it includes Chuffed), or build Chuffed from "
        "https://github.com/chuffed/chuffed and put its chuffed.msc in ~/.minizinc/solvers/; "
        "`minizinc --solvers` must then list it. Or use --solver cp-sat / minizinc:gecode."
    ),
    "gecode": f"Gecode comes with MiniZinc: {MINIZINC}, or the bundle from https://www.minizinc.org/.",
}


class MiniZincSolver(Solver):
    """One MiniZinc solver configuration (``gecode``, ``chuffed``, …) behind the driver."""

    def __init__(self, backend: str = "gecode"):
        self.backend = backend
        self.name = f"minizinc:{backend}"  # type: ignore[misc]  # per-instance name
        self._solver: Any = None

    @classmethod
    def available(cls, backend: str = "gecode") -> bool:  # type: ignore[override]
        try:
            _lookup(backend)
        except SolverUnavailable:
            return False
        return True

    def ensure_available(self) -> None:
        """Raise :class:`SolverUnavailable` with how to install it when the solver is missing."""
        if self._solver is None:
            self._solver = _lookup(self.backend)

    def run(self, enc: IntEncoding, task: Task, *, cap: int, time_limit: float) -> Outcome:
        import minizinc

        self.ensure_available()
        model = minizinc.Model(str(MODEL_PATH))
        if task is Task.MAXIMISE:
            model.add_string(MAXIMISE_AGREEMENT)
        model.add_string(to_dzn(enc))
        instance = minizinc.Instance(self._solver, model)
        kwargs: dict[str, Any] = {"time_limit": timedelta(seconds=time_limit)}
        if task is Task.COUNT:
            kwargs["nr_solutions"] = cap
        try:
            with quiet_count_warning():
                result = instance.solve(**kwargs)
        except minizinc.MiniZincError as err:
            return Outcome([], complete=False, reason=f"MiniZinc error: {' '.join(str(err).split())}")
        return _outcome(result, task, cap, time_limit)


def _outcome(result: Any, task: Task, cap: int, time_limit: float) -> Outcome:
    from minizinc import Status

    status = result.status
    if result.solution is None:
        solutions = []
    elif isinstance(result.solution, list):
        solutions = [tuple(s.x) for s in result.solution]
    else:
        solutions = [tuple(result.solution.x)]
    if status in (Status.UNSATISFIABLE, Status.ALL_SOLUTIONS, Status.OPTIMAL_SOLUTION):
        complete = True
    elif status is Status.SATISFIED:
        # satisfy: one solution answers; count: finished below the cap only if ALL_SOLUTIONS
        complete = task is Task.SATISFY
    else:
        complete = False
    if task is Task.COUNT and len(solutions) >= cap:
        return Outcome(solutions, complete=False)
    reason = None if complete else _reason(status, time_limit)
    return Outcome(solutions, complete, reason)


def _reason(status: Any, time_limit: float) -> str:
    from minizinc import Status

    if status in (Status.UNKNOWN, Status.SATISFIED):
        return f"time limit of {time_limit:g} s reached"
    return f"MiniZinc stopped with status {status.name}"


def _lookup(backend: str) -> Any:
    """The ``minizinc.Solver`` configuration for ``backend``, or :class:`SolverUnavailable`."""
    try:
        import minizinc
    except ImportError as err:
        raise SolverUnavailable(
            f"the minizinc Python package is missing: {pip_extra('solvers')}"
        ) from err
    if minizinc.default_driver is None:
        raise SolverUnavailable(
            f"the MiniZinc driver (`minizinc`) is not on PATH: {MINIZINC}, or the "
            "bundle from https://www.minizinc.org/software.html"
        )
    try:
        return minizinc.Solver.lookup(backend)
    except LookupError as err:
        how = HOW_TO_GET.get(backend, "see `minizinc --solvers` for the installed solvers.")
        raise SolverUnavailable(f"MiniZinc solver {backend!r} is not installed. {how}") from err


class quiet_count_warning(warnings.catch_warnings):
    """Context manager silencing Debian MiniZinc's ``count.mzn`` warning (and the
    "model inconsistency detected" notice of an unsatisfiable instance), and only those."""

    def __enter__(self) -> Any:
        entered = super().__enter__()
        warnings.filterwarnings("ignore", message=".*" + re.escape(COUNT_MZN_WARNING))
        warnings.filterwarnings("ignore", message=re.escape(INCONSISTENCY_WARNING))
        return entered
