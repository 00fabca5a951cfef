"""C6 (exactly n): a system amount — "I found 3", "over 70 trains" — agrees with the number of KB
entities matching the search in force (paper §3.2, spec §2). The amount variable's
``amount_op`` says how ("over 70": ``>`` 70; default ``=``); the KB count must lie between the
bounds that op and value give, e.g. ``> 70``: at least 71, no upper bound. With unknown cells the
count is ``sure..possible`` (:mod:`csp_check.families.primitives`). Instances are built in the KB
walk of :mod:`csp_check.constraints`."""

from __future__ import annotations

from typing import Mapping

from csp_check.families import kb_common
from csp_check.families.primitives import Bound, KbCount, count_matches
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, Value, Variable

#: The words an explanation gives each comparison of an amount ("more than 70").
OP_WORDS = {"=": "", ">": "more than ", ">=": "at least ", "<": "fewer than ", "<=": "at most "}


def count_bounds(op: str, amount: str) -> tuple[Bound, Bound | None]:
    """(lower, upper) bound on the KB count for ``count op amount`` (``amount``: the variable's
    name); ``None``: no upper bound. Raises ``ValueError`` for an unknown op."""
    if op == "=":
        return Bound(amount, 0), Bound(amount, 0)
    if op == ">":
        return Bound(amount, 1), None
    if op == ">=":
        return Bound(amount, 0), None
    if op == "<":
        return Bound(None, 0), Bound(amount, -1)
    if op == "<=":
        return Bound(None, 0), Bound(amount, 0)
    raise ValueError(f"unknown amount comparison {op!r}")


def amount_op(constraint: Constraint, csp: CSP) -> str:
    """The comparison of the constraint's amount variable (``=`` when it states none)."""
    for v in csp.variables:
        if v.name == constraint.count_variable:
            return v.amount_op
    return "="


@register
class InstanceCount(Family):
    id = "C6"
    name = "instance count"
    description = "an amount the system states agrees with the number of matching KB entities"
    group = "domain"

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        amount = assignment[constraint.count_variable or ""]
        if not isinstance(amount, int):
            return False
        sure, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                       kb_common.values(constraint, assignment), constraint.ops)
        lo, hi = count_bounds(amount_op(constraint, csp), constraint.count_variable or "")
        low = lo.value(assignment)
        high = None if hi is None else hi.value(assignment)
        return max(sure, low) <= (possible if high is None else min(possible, high))

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        if not constraint.count_variable:
            raise ValueError(f"dialogue {csp.dialogue_id}: C6 without a count variable")
        lo, hi = count_bounds(amount_op(constraint, csp), constraint.count_variable)
        return [KbCount(constraint.kb or "", kb_common.filters(constraint), lo=lo, hi=hi)]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        amount = assignment[constraint.count_variable or ""]
        matches = kb_common.possible_matches(constraint, assignment, csp)
        sure, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                       kb_common.values(constraint, assignment), constraint.ops)
        have = str(sure) if sure == possible else f"{sure}-{possible}"
        op = OP_WORDS[amount_op(constraint, csp)]
        said = kb_common.said(constraint, assignment, by_name)
        msg = f"{kb_common.claim(constraint, by_name)} says {op}{amount} with {said or 'no filter'}; the KB has {have}"
        if matches:
            msg += f": {kb_common.sample(matches)}" + (" …" if len(matches) > 3 else "")
        return msg
