"""C1 (type): a variable takes a value of its own slot type, V(type(x)); an amount is an int in
``0..CSP.max_amount`` (paper §3.2, spec §2). Instances: one per variable.

Reading rules

- Every variable takes a value of its own slot type. V(type) is the closed value set of a
  categorical slot (SGD ``schema.json``), else every canonical value the dialogue's annotations
  and its KB give that slot (built by :mod:`csp_check.build.builder`).
- A clock slot (``leaveAt``, ``arriveBy``, ``book time``, ``*_time``) also takes every
  well-formed time: a bound's "after 18:45" need not be a KB time; "25:70" is none. A price a
  sentence gives as the party's total is also read per ticket
  (:func:`csp_check.delexicalize.assignment.ticket_price`), and that reading is in V(type).
- Amounts are non-negative integers, at most ``CSP.max_amount``: the largest KB table's size, or
  the dialogue's own largest amount up to 9,999 (:func:`csp_check.build.builder.amount_bound`).
  A larger amount is a wrong count. A number above 9,999 or written like a phone number or an id
  ("01223364917": :func:`csp_check.language.normalize.parse_count`) is read as no count.
"""

from __future__ import annotations

from collections.abc import Mapping

from csp_check.families.primitives import Member, Primitive
from csp_check.families.registry import Family, register
from csp_check.families.words import where
from csp_check.models import CSP, Constraint, ConstraintId, Value, Variable, VariableKind


class ValueTypeInstance(Constraint):
    """A C1 instance: each of ``variables`` takes a value of ``slot_type``
    (``CSP.domains[slot_type]``); ``slot_type`` ``None``: an amount, an int in ``0..CSP.max_amount``."""

    slot_type: str | None = None


@register
class ValueType(Family[ValueTypeInstance]):
    id = "C1"
    name = "type"
    description = "a variable takes a value of its slot type; an amount is a non-negative integer"
    group = "linguistic"
    types_domains = True
    instance_type = ValueTypeInstance

    def build(self, ctx) -> list[ValueTypeInstance]:
        """One instance per variable; ``slot_type`` is ``None`` for an amount."""
        return [
            ValueTypeInstance(id=ConstraintId(self.id), variables=[v.name], turn=v.turn,
                       slot_type=None if v.kind is VariableKind.AMOUNT else v.slot_type)
            for v in ctx.variables
        ]

    def satisfied(self, constraint: ValueTypeInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        values = [assignment[name] for name in constraint.variables]
        if constraint.slot_type is None:  # an amount
            return all(isinstance(v, int) and 0 <= v <= csp.max_amount for v in values)
        allowed = csp.domains.get(constraint.slot_type, ())
        return all(v in allowed for v in values)

    def lower(self, constraint: ValueTypeInstance, csp: CSP) -> list[Primitive]:
        if constraint.slot_type is None:
            return [Member(tuple(constraint.variables), frozenset(range(0, csp.max_amount + 1)))]
        return [Member(tuple(constraint.variables), frozenset(csp.domains.get(constraint.slot_type, ())))]

    def explain(self, constraint: ValueTypeInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        var = by_name[constraint.variables[0]]
        kind = "an amount" if constraint.slot_type is None else f"a {constraint.slot_type} value"
        return f"{where([var])} says {assignment[var.name]!r}, which is not {kind}"
