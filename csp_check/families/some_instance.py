"""C5 (at least one): the values a system utterance offers or informs, with what the user asked
for, describe an entity the KB has (paper §3.2, spec §2): a KB count of at least 1 (an entity
lacking a filtered column may match). Instances are built in the KB walk of
:mod:`csp_check.constraints`."""

from __future__ import annotations

from typing import Mapping

from csp_check.families import kb_common
from csp_check.families.primitives import Bound, KbCount, count_matches, entity_match
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, Value, Variable


@register
class SomeInstance(Family):
    id = "C5"
    name = "some instance"
    description = "what the system offers, with what was asked for, describes a KB entity"
    group = "domain"

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        _, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                    kb_common.values(constraint, assignment), constraint.ops)
        return possible > 0

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [KbCount(constraint.kb or "", kb_common.filters(constraint), lo=Bound(None, 1), hi=None)]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        """No entity has what the utterance states, or one has but not with the values the user
        asked for earlier (named one by one)."""
        entities = kb_common.entities(constraint, csp)
        ops = [constraint.ops[i] if i < len(constraint.ops) else "=" for i in range(len(constraint.columns))]
        pairs = list(zip(constraint.variables, constraint.columns, ops))
        own = [(n, col, op) for n, col, op in pairs if by_name[n].turn == constraint.turn and op == "="]
        asked = [(n, col, op) for n, col, op in pairs if (n, col, op) not in own]
        stated = ", ".join(f"{col}={assignment[n]!r}" for n, col, _ in own)
        own_cols, own_vals, own_ops = [c for _, c, _ in own], [assignment[n] for n, _, _ in own], [o for _, _, o in own]
        if not asked or not any(entity_match(e, own_cols, own_vals, own_ops)[1] for e in entities):
            return f"turn {constraint.turn} states {stated or 'an entity'}; no KB entity ({len(entities)}) has this"
        clash = [
            f"{col}{'' if op == '=' else ' ' + op + ' '}={assignment[n]!r} (turn {by_name[n].turn})".replace(" =", " ", 1) if op != "=" else f"{col}={assignment[n]!r} (turn {by_name[n].turn})"
            for n, col, op in asked
            if not any(entity_match(e, [*own_cols, col], [*own_vals, assignment[n]], [*own_ops, op])[1] for e in entities)
        ] or [", ".join(f"{col}{op}{assignment[n]!r}" for n, col, op in asked) + " together"]
        return f"turn {constraint.turn} offers {stated}, which the KB has, but not with what was asked: {'; '.join(clash)}"
