"""OR-Tools CP-SAT backend (``--solver cp-sat``, the default): in-process, no subprocess.

The model is built from the same :class:`~csp_check.solvers.encoding.IntEncoding` as the
MiniZinc data and states its primitives as ``csp_check/solvers/consistency.mzn`` does (every family lowers
to them: :mod:`csp_check.families`):

- one integer variable per CSP variable over its domain (codes); a Boolean ``[x = v]`` is made
  on demand and fully reified, and ``[x ∈ S]`` is the sum of such Booleans;
- member ``x ∈ S``; all equal (equalities); all different (``AllDifferent``);
- KB count between bounds: per KB entity a reified *sure* and *possible* match, built from
  ``[x ∈ {dontcare, cell}]`` per filter, or for a bound filter ``[x ∈ {dontcare} ∪ {v ≤ cell}]``
  (``≥``) (a missing cell leaves the entity possible, not sure; so does an ``=`` value the cell
  is a qualified form of, ``IntEncoding.kb_wider``); then ``lo ≤ Σ possible``,
  ``Σ sure ≤ hi`` and ``lo ≤ hi``, and a bound's amount variable is an int (``< base``);
- a clause (at least one literal): each literal is a Boolean that implies its member / equal /
  different condition, and one of them is true.

Every auxiliary Boolean is a function of the value variables, so CP-SAT's enumeration counts
solutions over the CSP's variables only. Tasks: SATISFY solves; COUNT enumerates with a
callback that stops at the cap (a variable no constraint restricts is fixed and its domain size
multiplies the count); MAXIMISE maximises ``Σ [x = said]`` over the search variables. One
worker, and the set-up meant for big models switched off (the CSPs have tens of variables).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from csp_check.solvers.base import Outcome, Solver, Task
from csp_check.solvers.encoding import LIT_EQUAL, LIT_MEMBER, OP_EQ, OP_GE, IntEncoding


class CpSatSolver(Solver):
    """CP-SAT from ``ortools`` (``pip install -e ".[solvers]"``)."""

    name = "cp-sat"

    @classmethod
    def available(cls) -> bool:
        try:
            import ortools.sat.python.cp_model  # noqa: F401
        except ImportError:
            return False
        return True

    def run(self, enc: IntEncoding, task: Task, *, cap: int, time_limit: float) -> Outcome:
        from ortools.sat.python import cp_model

        builder = _Builder(enc)
        model, x = builder.model, builder.x
        if task is Task.MAXIMISE:
            agree = [(builder.eq(i, enc.said[i]), enc.user[i]) for i in range(len(x)) if enc.search[i]]
            # agreement first; among equally similar solutions, keep what the user said
            model.maximize(sum((len(x) + 1) * a + (a if user else 0) for a, user in agree))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = float(time_limit)
        # Ctrl-C is csp-check's to handle (exit 130, docs/cli.md "Interrupts"): CP-SAT must not take SIGINT over
        solver.parameters.catch_sigint_signal = False
        _tune_for_tiny_models(solver.parameters)
        if task is Task.COUNT:
            # A variable no constraint restricts multiplies the count by its domain size: fix
            # it and enumerate the others only (fewer callbacks; same count).
            factor = 1
            for i in range(len(x)):
                if i not in builder.linked and len(enc.domains[i]) > 1:
                    factor *= len(enc.domains[i])
                    model.add(x[i] == enc.domains[i][0])
            solver.parameters.enumerate_all_solutions = True
            counter = _counter(-(-cap // factor))
            status = solver.solve(model, counter)
            found = counter.found * factor
            capped = found >= cap
            complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not capped
            reason = None if complete or capped else _reason(solver, status, time_limit)
            return Outcome([], complete, reason, count=found)
        status = solver.solve(model)
        solutions = []
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            solutions = [tuple(solver.value(v) for v in x)]
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or (task is Task.SATISFY and bool(solutions))
        return Outcome(solutions, complete, None if complete else _reason(solver, status, time_limit))


def _tune_for_tiny_models(params: Any) -> None:
    """Dialogue CSPs have tens of variables: skip the set-up work meant for big models.

    Measured on SGD dev (CP-SAT 9.15, one worker): 1.37 ms → 0.42 ms per satisfiability solve.
    These switch off heuristics only (presolve, probing, symmetry detection, LP relaxation,
    in-processing); the answers are the same (tests/test_solvers.py).
    """
    params.cp_model_presolve = False
    params.cp_model_probing_level = 0
    params.symmetry_level = 0
    params.linearization_level = 0
    params.use_sat_inprocessing = False


def _reason(solver: Any, status: Any, time_limit: float) -> str:
    from ortools.sat.python import cp_model

    if status == cp_model.MODEL_INVALID:
        return "CP-SAT: invalid model (a csp-check bug: please report it)"
    if solver.wall_time >= 0.95 * time_limit or status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
        return f"time limit of {time_limit:g} s reached"
    return f"CP-SAT stopped with status {solver.status_name(status)}"


def _counter(cap: int) -> Any:
    """A solution callback counting solutions and stopping the search at ``cap``."""
    return _classes()[1](cap)


def _model() -> Any:
    """A ``CpModel`` without the camelCase aliases ortools adds to every instance (~0.3 ms each)."""
    return _classes()[0]()


@functools.cache
def _classes() -> tuple[type, type]:
    from ortools.sat.python import cp_model

    class Model(cp_model.CpModel):
        def _add_pre_pep8_methods(self) -> None:  # we only use the snake_case API
            pass

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self, cap: int) -> None:
            super().__init__()
            self.cap = cap
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1
            if self.found >= self.cap:
                self.stop_search()

    return Model, Counter


class _Builder:
    """Builds the CP-SAT model of an encoding (see the module docstring)."""

    def __init__(self, enc: IntEncoding):
        from ortools.sat.python import cp_model

        self.enc = enc
        self.model = m = _model()
        domains = enc.domains
        self.domain_sets = [frozenset(d) for d in domains]
        self.x = [m.new_int_var_from_domain(cp_model.Domain.from_values(d), n) for n, d in zip(enc.names, domains)]
        self.true = m.new_bool_var("true")
        m.add(self.true == 1)
        self._eq: dict[tuple[int, int], Any] = {}
        self._in: dict[tuple[int, frozenset[int]], Any] = {}
        self._and: dict[tuple, Any] = {}
        self._same: dict[tuple[int, int], Any] = {}
        self.linked: set[int] = set()  # variables some posted constraint restricts
        for inst in enc.members:
            if enc.on(inst.family):
                self.member_of(inst.variable, inst.allowed)
        for group in enc.equal:
            if enc.on(group.family):
                self.all_equal(group.variables)
        for group in enc.different:
            if enc.on(group.family):
                self.all_different(group.variables)
        for q in enc.counts:
            if enc.on(q.family):
                self.count(q)
        for clause in enc.clauses:
            if enc.on(clause.family):
                self.any_of(clause.literals)

    # -- literals -----------------------------------------------------------------------------

    def eq(self, i: int, value: int) -> Any:
        """Literal ``[x_i = value]`` (``self.true`` / its negation when decided by the domain)."""
        dom = self.domain_sets[i]
        if value not in dom:
            return ~self.true
        if len(dom) == 1:
            return self.true
        key = (i, value)
        if key not in self._eq:
            b = self.model.new_bool_var(f"{self.enc.names[i]}={value}")
            self.model.add(self.x[i] == value).only_enforce_if(b)
            self.model.add(self.x[i] != value).only_enforce_if(~b)
            self._eq[key] = b
        return self._eq[key]

    def member(self, i: int, values: Iterable[int]) -> Any:
        """Literal ``[x_i ∈ values]``."""
        dom = self.domain_sets[i]
        inside = frozenset(values) & dom
        if not inside:
            return ~self.true
        if inside == dom:
            return self.true
        if len(inside) == 1:
            return self.eq(i, next(iter(inside)))
        key = (i, inside)
        if key not in self._in:
            b = self.model.new_bool_var(f"{self.enc.names[i]} in {sorted(inside)}")
            self.model.add(b == sum(self.eq(i, v) for v in sorted(inside)))
            self._in[key] = b
        return self._in[key]

    def all_of(self, lits: list[Any]) -> Any:
        """Literal ``[l1 ∧ … ∧ lk]`` (true when empty)."""
        lits = [lit for lit in lits if lit is not self.true]
        if not lits:
            return self.true
        if len(lits) == 1:
            return lits[0]
        key = tuple(sorted(id(lit) for lit in lits))
        if key not in self._and:
            b = self.model.new_bool_var("and")
            self.model.add_bool_and(lits).only_enforce_if(b)
            self.model.add_bool_or([~lit for lit in lits]).only_enforce_if(~b)
            self._and[key] = (b, lits)  # keep lits alive: the key uses their ids
        return self._and[key][0]

    # -- constraints --------------------------------------------------------------------------

    def member_of(self, i: int, allowed: frozenset[int]) -> None:
        """``x_i ∈ allowed``."""
        lit = self.member(i, allowed)
        if lit is not self.true:  # else the domain already says so
            self.model.add_bool_or([lit])
            self.linked.add(i)

    def all_equal(self, group: tuple[int, ...]) -> None:
        """``x_i = x_j`` for every ``i, j`` in ``group``."""
        self.linked.update(group if len(group) > 1 else ())
        for i in group[1:]:
            self.model.add(self.x[i] == self.x[group[0]])

    def all_different(self, group: tuple[int, ...]) -> None:
        """Pairwise different; a variable listed twice makes it unsatisfiable."""
        self.linked.update(group if len(group) > 1 else ())
        if len(set(group)) < len(group):
            self.model.add_bool_or([~self.true])  # a variable different from itself
        elif len(group) > 1:
            self.model.add_all_different([self.x[i] for i in group])

    def any_of(self, literals: Iterable[Any]) -> None:
        """At least one clause literal holds (none: unsatisfiable). A member literal is the
        conjunction of its variables' ``[x ∈ S]``; an equal / different literal the conjunction
        of reified ``[x_i = x_j]`` / ``[x_i ≠ x_j]`` per pair (fully reified, so enumeration
        still counts value assignments only)."""
        lits = []
        for lit in literals:
            self.linked.update(lit.variables)
            if lit.kind == LIT_MEMBER:
                lits.append(self.all_of([self.member(i, lit.allowed) for i in lit.variables]))
                continue
            vs = lit.variables
            pairs = [(vs[0], j) for j in vs[1:]] if lit.kind == LIT_EQUAL else \
                [(vs[a], vs[b]) for a in range(len(vs)) for b in range(a + 1, len(vs))]
            lits.append(self.all_of([self.same(i, j) if lit.kind == LIT_EQUAL else ~self.same(i, j) for i, j in pairs]))
        if any(lit is self.true for lit in lits):
            return
        self.model.add_bool_or(lits or [~self.true])

    def same(self, i: int, j: int) -> Any:
        """Literal ``[x_i = x_j]``, fully reified."""
        if i == j:
            return self.true
        key = (min(i, j), max(i, j))
        if key not in self._same:
            b = self.model.new_bool_var(f"{self.enc.names[i]}=={self.enc.names[j]}")
            self.model.add(self.x[i] == self.x[j]).only_enforce_if(b)
            self.model.add(self.x[i] != self.x[j]).only_enforce_if(~b)
            self._same[key] = b
        return self._same[key]

    def bounded(self, i: int, op: int, cell: int) -> Iterable[int]:
        """The values of ``x_i`` a KB cell satisfies: ``cell`` itself for ``=``; for a bound,
        the string codes of x_i's domain at most (``OP_GE``) / at least (``OP_LE``) ``cell``."""
        if op == OP_EQ:
            return (cell,)
        base = self.enc.base
        if op == OP_GE:
            return [c for c in self.domain_sets[i] if base <= c <= cell]
        return [c for c in self.domain_sets[i] if c >= base and c >= cell]

    def count(self, q: Any) -> None:
        """A KB count between bounds over the KB rows of one instance (module docstring)."""
        enc, dc = self.enc, self.enc.dontcare
        self.linked.update(v for v, _ in q.filters)
        self.linked.update(q.bound_variables)
        sure, possible = [], []
        wider = enc.kb_wider[q.kb] if enc.kb_wider else ()
        for r, row in enumerate(enc.kb_rows[q.kb]):
            s, p = [], []
            for f, (var, col) in enumerate(q.filters):
                cell = row[col]
                if cell == 0:  # the entity lacks the column: unknown unless dontcare
                    s.append(self.eq(var, dc))
                else:
                    lit = self.member(var, (dc, *self.bounded(var, q.op(f), cell)))
                    s.append(lit)
                    covers = wider[r][col] if wider and q.op(f) == OP_EQ else ()
                    p.append(self.member(var, (dc, cell, *covers)) if covers else lit)
            sure.append(self.all_of(s))
            possible.append(self.all_of(p))
        m = self.model
        for v in q.bound_variables:
            m.add(self.x[v] <= enc.base - 1)  # an amount: an int
        lo = self.bound(q.lo)
        m.add(sum(possible) >= lo)
        if q.hi is not None:
            hi = self.bound(q.hi)
            m.add(sum(sure) <= hi)
            if q.lo[0] is None and q.hi[0] is None:
                if lo > hi:
                    m.add_bool_or([~self.true])
            else:
                m.add(lo <= hi)

    def bound(self, b: tuple[int | None, int]) -> Any:
        """A bound as a linear expression: ``offset`` or ``x_v + offset``."""
        v, offset = b
        return offset if v is None else self.x[v] + offset
