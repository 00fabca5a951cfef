"""Random small CSPs (hypothesis strategies) and a brute-force reference for the solver tests
(``tests/test_solvers.py``, ``tests/test_solvers_api.py``): every backend must agree with the
solver-free checker and with enumeration over the product of the domains (spec §2–3).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from csp_check.check import evaluate as check
from csp_check.families import instance
from csp_check.models import CSP, ActRole, Constraint, ConstraintId, Span, Value, Variable, VariableKind
from csp_check.solvers import SolveStatus, get_solver
from csp_check.solvers.minizinc import MiniZincSolver

HAVE_MINIZINC = MiniZincSolver.available("gecode")
needs_minizinc = pytest.mark.skipif(
    not HAVE_MINIZINC and not os.environ.get("CI"), reason="MiniZinc/Gecode not installed (runs in CI)"
)

CAP = 40  # below the brute-force maxima the generator reaches, so capping is exercised
CP_EXAMPLES = 400
MZN_EXAMPLES = 100  # ~0.6 s each (four MiniZinc calls)

POOLS = {  # tiny, so that values often match KB cells
    "food": ["spanish", "italian", "modern spanish"],  # "modern spanish" is a qualified form of "spanish"
    "area": ["north", "center"],
    "price": ["cheap", "north"],  # "north" is also an area value: only C1 tells them apart
}
DONTCARE = "dontcare"
FEW = st.sampled_from([0, 0, 0, 1, 1, 2])  # instances per constraint family


# -- generated CSPs ---------------------------------------------------------------------------


@st.composite
def csps(draw: st.DrawFn) -> CSP:
    """A small random CSP (see the module docstring)."""
    slots = draw(st.lists(st.sampled_from(sorted(POOLS)), min_size=2, max_size=3, unique=True))
    domains = {
        f"r.{s}": draw(st.lists(st.sampled_from(POOLS[s] + [DONTCARE]), min_size=int(draw(st.integers(0, 9)) > 0),
                                max_size=3, unique=True))
        for s in slots
    }
    kbs = {}
    for kb in ("kb1", "kb2"):
        entities = []
        for _ in range(draw(st.sampled_from([0, 1, 2, 2, 3, 3, 4]))):
            entity = {}
            for s in slots:
                cell = draw(st.sampled_from(POOLS[s] * 3 + [DONTCARE, "", None, None]))  # None: no column
                if cell is not None:
                    entity[s] = cell
            entities.append(entity)
        kbs[kb] = entities
    max_amount = draw(st.integers(1, 2))  # usually at least the KB's size, as the builder makes it
    if draw(st.integers(0, 4)) > 0:
        max_amount = max(max_amount, *(len(t) for t in kbs.values()))
    every_value = sorted({x for s in slots for x in POOLS[s]} | {DONTCARE})

    n = draw(st.integers(1, 4))
    variables, assignment = [], {}
    for i in range(n):
        name = f"x{i + 1}"
        amount = draw(st.integers(0, 3)) == 0
        slot = "count" if amount else draw(st.sampled_from(slots))
        if amount:  # now and then out of range, or not a number at all
            out_of_range = draw(st.integers(0, 5)) == 0
            wrong = st.sampled_from([max_amount + 1, "many"])
            said: Value = draw(wrong if out_of_range else st.integers(0, max_amount))
        else:  # mostly a value of its own slot, sometimes any value (a C1 violation)
            own = draw(st.integers(0, 3)) > 0
            said = draw(st.sampled_from(POOLS[slot] + [DONTCARE] if own else every_value))
        implicit = draw(st.integers(0, 5)) == 0
        # how a count compares with the KB ("over 70": >); mostly "="
        amount_op = draw(st.sampled_from(["=", "=", "=", ">", ">=", "<", "<=", "~"])) if amount else "="
        variables.append(Variable(
            name=name, turn=i // 2, speaker="system" if i % 2 else "user",
            kind=VariableKind.AMOUNT if amount else VariableKind.SLOT, domain="r", slot=slot,
            role=ActRole.COUNT if amount else ActRole.INFORM,
            span=None if implicit else Span(start=0, end=1), text=str(said), value=said, amount_op=amount_op,
        ))  # fmt: skip
        assignment[name] = said

    names = [v.name for v in variables]
    constraints: list[Constraint] = []
    c1_mode = draw(st.sampled_from(["none", "all", "some"]))
    for v in variables:
        if c1_mode == "all" or (c1_mode == "some" and draw(st.booleans())):
            slot_type = None if v.kind is VariableKind.AMOUNT else v.slot_type
            constraints.append(instance(ConstraintId.C1, variables=[v.name], slot_type=slot_type))
    for cid in (ConstraintId.C2, ConstraintId.C3):
        for _ in range(draw(FEW)):
            unique = draw(st.integers(0, 19)) > 0  # now and then a variable listed twice
            pool = names  # mostly variables of one slot type, as the builder makes them
            if draw(st.integers(0, 4)) > 0:
                slot = draw(st.sampled_from([v.slot for v in variables]))
                pool = [v.name for v in variables if v.slot == slot]
            group = draw(st.lists(st.sampled_from(pool), min_size=min(2, len(pool)), max_size=3, unique=unique))
            constraints.append(instance(cid, variables=group))

    for cid in (ConstraintId.C4, ConstraintId.C5, ConstraintId.C6):
        for _ in range(draw(FEW)):
            filt = draw(st.lists(st.sampled_from(names), min_size=int(draw(st.integers(0, 9)) > 0), max_size=2,
                                 unique=True))
            columns = [
                draw(st.sampled_from(slots)) if by_name(variables, x).kind is VariableKind.AMOUNT or draw(
                    st.integers(0, 4)) == 0 else by_name(variables, x).slot
                for x in filt
            ]  # fmt: skip
            kb = draw(st.sampled_from(["kb1", "kb2"] * 4 + ["missing"]))
            amounts = [v.name for v in variables if v.kind is VariableKind.AMOUNT]
            count = {}
            if cid is ConstraintId.C6:  # mostly an amount variable; else a (type-violating) slot one
                count["count_variable"] = draw(st.sampled_from(amounts if amounts and draw(st.integers(0, 4)) else names))
            ops = [draw(st.sampled_from(["=", "=", ">=", "<="])) for _ in filt]  # bounds ("leave after 17:00")
            constraints.append(instance(cid, variables=filt, table=kb, columns=columns, ops=ops, **count))
    for _ in range(draw(FEW)):  # S1: a variable takes one of the values the annotation records
        x = draw(st.sampled_from(names))  # mostly a slot variable, as the builder makes them
        # none recorded: an omission (the state has no value for what the user said), x ∈ ∅
        recorded = draw(st.lists(st.sampled_from(every_value + ["lebanese"]), min_size=0, max_size=2, unique=True))
        constraints.append(instance(ConstraintId.S1, variables=[x], slot_type=by_name(variables, x).slot_type,
                                    values=sorted(recorded), record="state"))
    for _ in range(draw(FEW)):  # S2: a variable takes none of the values the annotation records
        x = draw(st.sampled_from(names))
        recorded = draw(st.lists(st.sampled_from(every_value + ["lebanese"]), min_size=1, max_size=2, unique=True))
        constraints.append(instance(ConstraintId("S2"), variables=[x], slot_type=by_name(variables, x).slot_type,
                                    values=sorted(recorded), record="state"))
    return CSP(
        dialogue_id="gen", variables=variables, domains=domains, kbs=kbs,
        constraints=draw(st.permutations(constraints)), assignment=assignment, max_amount=max_amount,
    )  # fmt: skip


def by_name(variables: list[Variable], name: str) -> Variable:
    return next(v for v in variables if v.name == name)


# -- the reference: brute force over the product of the domains, written from the spec ------


def reference_domains(csp: CSP) -> list[list[Value]]:
    """Each variable's domain as the encoding's docstring decides it (spec §3) (independently of the encoding module)."""
    typed = any(c.id is ConstraintId.C1 for c in csp.constraints)
    slot_said = {csp.assignment[v.name] for v in csp.variables if v.kind is VariableKind.SLOT}
    union = {x for values in csp.domains.values() for x in values} | slot_said
    out: list[list[Value]] = []
    for v in csp.variables:
        if v.span is None:
            out.append([csp.assignment[v.name]])
        elif v.kind is VariableKind.AMOUNT:
            out.append(list(range(csp.max_amount + 1)))
        elif typed:
            out.append(sorted(set(csp.domains.get(v.slot_type, []))))
        else:
            out.append(sorted(union, key=repr))
    return out


def solutions(csp: CSP) -> Iterator[dict[str, Value]]:
    """Every solution, by enumeration and :func:`csp_check.check.evaluate.satisfied`."""
    names = [v.name for v in csp.variables]
    for values in itertools.product(*reference_domains(csp)):
        assignment = dict(zip(names, values))
        if all(check.satisfied(c, assignment, csp) for c in csp.constraints):
            yield assignment


def agreement(csp: CSP, solution: dict[str, Value]) -> int:
    return sum(1 for v in csp.variables if v.span is not None and solution[v.name] == csp.assignment[v.name])


class Reference:
    def __init__(self, csp: CSP):
        found = list(solutions(csp))
        self.count = len(found)
        self.best = max((agreement(csp, s) for s in found), default=None)
        self.consistent = not check.violations(csp)


# -- agreement properties ---------------------------------------------------------------------


def assert_agrees(csp: CSP, solver_name: str) -> None:
    """Every operation of ``solver_name`` against the checker and brute force."""
    solver = get_solver(solver_name)
    ref = Reference(csp)

    fixed = solver.check_assignment(csp)
    assert fixed.status is (SolveStatus.SATISFIED if ref.consistent else SolveStatus.UNSATISFIABLE)
    if fixed.solution is not None:
        assert fixed.solution == csp.assignment

    sat = solver.satisfiable(csp)
    assert sat.status is (SolveStatus.SATISFIED if ref.count else SolveStatus.UNSATISFIABLE)
    if sat.solution is not None:
        assert check.violations(csp, sat.solution) == []

    counted = solver.count_solutions(csp, cap=CAP)
    assert counted.status is not SolveStatus.UNKNOWN
    assert (counted.count, counted.capped) == (min(ref.count, CAP), ref.count >= CAP)

    best = solver.most_similar(csp)
    assert best.status is (SolveStatus.SATISFIED if ref.count else SolveStatus.UNSATISFIABLE)
    if ref.best is None:
        assert (best.solution, best.agreement, best.agreeing) == (None, 0, 0)
    else:
        assert best.agreement == ref.best
        assert best.agreeing == ref.best  # implicit variables are fixed context, not VCA variables
        assert best.variables == sum(1 for v in csp.variables if v.span is not None)
        assert check.violations(csp, best.solution) == []
        assert agreement(csp, best.solution) == best.agreement
    # a consistent assignment is a solution of its own CSP when it lies in the domains
    if ref.consistent and all(csp.assignment[v.name] in d for v, d in zip(csp.variables, reference_domains(csp))):
        assert best.agreement == sum(1 for v in csp.variables if v.span is not None)


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
