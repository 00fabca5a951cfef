"""How to add a solver backend (a template: copy it to ``mysolver.py`` and fill it in).

A backend implements one method, :meth:`~csp_check.solvers.base.Solver.run`, over the integer
encoding of a CSP (:class:`~csp_check.solvers.encoding.IntEncoding`). Everything users call
(``satisfiable``, ``check_assignment``, ``count_solutions``, ``most_similar``, and above them
``repair`` and ``solve_report``) is built on it in :mod:`~csp_check.solvers.base`, so a new backend gets all of
them with the same semantics and typed results.

Steps:

1. Read ``csp_check/solvers/consistency.mzn``: it states the four encoding primitives every constraint
   family lowers to (:mod:`csp_check.families`), and :mod:`csp_check.check.evaluate` is the executable
   definition. (A MiniZinc solver needs no new
   backend at all: ``get_solver("minizinc:<its id>")`` works once ``minizinc --solvers`` lists it.)
2. Import the solver's package *inside* the methods (it is an optional dependency) and say in
   :meth:`available` whether it is installed.
3. In :meth:`run`, post for each variable ``i`` the domain ``enc.domains[i]`` (codes), then the
   primitives whose family is on (``enc.on(inst.family)``): ``enc.members`` (``x[inst.variable]
   ∈ inst.allowed``, a set of constant codes), ``enc.equal`` (all equal), ``enc.different``
   (pairwise different; a variable listed twice is unsatisfiable) and ``enc.counts`` (``lo ≤
   |matching rows of enc.kb_rows[q.kb]| ≤ hi``: a cell ``0`` is a missing column, which leaves a
   row possible but not sure; ``enc.dontcare`` matches every entity; a bound's variable must be
   ``< enc.base``, i.e. an int).
4. Per task return an :class:`~csp_check.solvers.base.Outcome` (solutions as codes in variable
   order):

   - ``SATISFY``: one solution, or none with ``complete=True`` when proven unsatisfiable;
   - ``COUNT``: every solution up to ``cap`` (``complete=True`` when all were enumerated);
   - ``MAXIMISE``: the best solution last, maximising ``Σ [x_i = enc.said[i]]`` over the ``i``
     with ``enc.search[i]``; ``complete=True`` when proven optimal (or unsatisfiable).

   On a time limit or a solver failure return what you have with ``complete=False`` and a
   ``reason``: never raise.
5. Register it in ``csp_check/solvers/__init__.py`` (or at run time)::

       from csp_check.solvers import register
       register("my-solver", MySolver)                  # --solver my-solver
       # a family of subsolvers: MySolver(sub) builds one; --solver my-solver:fast
       register("my-solver", MySolver, subsolvers=("fast", "exact"), default_subsolver="exact")

6. Add it to the agreement tests (``tests/test_solvers.py``: the ``BACKENDS`` list) so the
   property-based suite compares it with the checker, CP-SAT and brute force.
"""

from __future__ import annotations

from csp_check.solvers.base import Outcome, Solver, Task
from csp_check.solvers.encoding import IntEncoding


class MySolver(Solver):
    """One line: which solver, how to install it."""

    name = "my-solver"

    @classmethod
    def available(cls) -> bool:
        try:
            import my_solver_package  # noqa: F401  # type: ignore[import-not-found]
        except ImportError:
            return False
        return True

    def run(self, enc: IntEncoding, task: Task, *, cap: int, time_limit: float) -> Outcome:
        raise NotImplementedError("post enc's domains and constraints, solve for task, return an Outcome")
