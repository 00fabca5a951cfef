"""Solver backends agree with the solver-free checker and with brute force (spec §3, §8).

Property-based: hypothesis generates small CSPs (2–3 slot types with tiny domains, amounts, a
KB of 0–5 entities with missing columns and ``dontcare``, random C1–C6 and S1 instances, amounts
compared with ``=``, ``>``, ``>=``, ``<``, ``<=`` ("over 70"), random assignments, implicit variables). For each, the checker (:func:`csp_check.check.evaluate.violations`),
CP-SAT and MiniZinc/Gecode must agree on whether the dialogue's assignment is consistent (each
solver given the assignment fixed), on satisfiability, on the solution count below the cap and
on the maximum agreement; brute-force enumeration over the product of the domains with
:func:`csp_check.check.evaluate.satisfied` is the reference. Every solution a solver returns passes the
checker.

MiniZinc tests are skipped only when MiniZinc is missing *and* ``CI`` is unset: in CI they run.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from support.solvers import (
    CAP,
    CP_EXAMPLES,
    DONTCARE,
    MZN_EXAMPLES,
    POOLS,
    SETTINGS,
    assert_agrees,
    by_name,
    csps,
    needs_minizinc,
    solutions,
)

from csp_check.check import evaluate as check
from csp_check.families.annotation_common import RecordedValuesInstance
from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.kb_common import KbFilterInstance
from csp_check.models import CSP, VariableKind
from csp_check.solvers import DEFAULT_CAP, SolveStatus, get_solver


@settings(max_examples=CP_EXAMPLES, **SETTINGS)
@given(csps())
def test_cpsat_agrees_with_checker_and_brute_force(csp: CSP) -> None:
    assert_agrees(csp, "cp-sat")


@needs_minizinc
@settings(max_examples=MZN_EXAMPLES, **SETTINGS)
@given(csps())
def test_minizinc_gecode_agrees_with_checker_and_brute_force(csp: CSP) -> None:
    assert_agrees(csp, "minizinc:gecode")


@settings(max_examples=150, **SETTINGS)
@given(csps(), st.data())
def test_cpsat_checks_any_assignment_like_the_checker(csp: CSP, data: st.DataObject) -> None:
    """Fixed to an arbitrary assignment (in or out of the domains), CP-SAT says what check says."""
    pools = [x for values in POOLS.values() for x in values] + [DONTCARE, 0, 1, 2, 5, "many"]
    other = {v.name: data.draw(st.sampled_from(pools)) for v in csp.variables}
    result = get_solver("cp-sat").check_assignment(csp, other)
    expected = SolveStatus.UNSATISFIABLE if check.violations(csp, other) else SolveStatus.SATISFIED
    assert result.status is expected


FEATURES: dict[str, Any] = {
    **{cid: (lambda cid: lambda csp: any(c.id.value == cid for c in csp.constraints))(cid)  # noqa: B023 (bound by the outer lambda)
       for cid in ("C1", "C2", "C3", "C4", "C5", "C6", "S1")},
    "S1 omission": lambda csp: any(isinstance(c, RecordedValuesInstance) and c.id.value == "S1" and not c.values
                                   for c in csp.constraints),
    "S2 ruled out": lambda csp: any(c.id.value == "S2" for c in csp.constraints),
    "implicit": lambda csp: any(v.span is None for v in csp.variables),
    "bound": lambda csp: any(op != "=" for c in csp.constraints if isinstance(c, KbFilterInstance) for op in c.ops),
    "qualified form": lambda csp: any(  # a KB count whose "=" filter a cell matches only as a qualified form
        col == "food" and csp.assignment[n] == "spanish" and (op or "=") == "="
        and any(e.get("food") == "modern spanish" for e in csp.kbs.get(c.kb, []))
        for c in csp.constraints if isinstance(c, KbFilterInstance)
        for n, col, op in zip(c.variables, c.columns, c.ops or [""] * len(c.columns))),
    "amount op": lambda csp: any(isinstance(c, CountInstance) and by_name(csp.variables, c.count_variable).amount_op != "="
                                 for c in csp.constraints),
    "amount": lambda csp: any(v.kind is VariableKind.AMOUNT for v in csp.variables),
    "capped": lambda csp: sum(1 for _ in itertools.islice(solutions(csp), CAP)) >= CAP,
    "unsat": lambda csp: not any(True for _ in solutions(csp)),
}  # fmt: skip


@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_generator_reaches(feature: str) -> None:
    """The generator reaches every constraint family, implicit variables, amounts, capping and
    unsatisfiability (searched for, so it holds whatever order a hypothesis release draws in)."""
    example = find(csps(), FEATURES[feature], settings=settings(max_examples=5000, database=None, **SETTINGS))
    assert FEATURES[feature](example)


def test_default_cap_makes_groups_exact() -> None:
    assert DEFAULT_CAP == 101
