"""C2 (coreference): variables that refer to the same value across the dialogue take one value
(paper §3.2, spec §2). What a variable refers to comes from the annotations
(:func:`csp_check.build_context.referents`); an instance is a group of at least two."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Mapping

from csp_check.build_context import names_entity, referents
from csp_check.families.primitives import AllEqual
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, ConstraintId, Value, Variable, VariableKind
from csp_check.families.words import where
from csp_check.normalize import refers_to_several


#: Words right before a value that set it aside for another: "I've changed your reservation for 6
#: tickets *rather than* one", "*instead of* Monday", "*not just* 1", "*changed from* 2".
_SET_ASIDE = re.compile(r"(?:\binstead of|\brather than|\bnot just|\bno longer|\bchanged? (?:it |that )?from)\s+$", re.I)


def set_aside(utterance: str, v: Variable) -> bool:
    """Whether ``v``'s span follows words that set its value aside (:data:`_SET_ASIDE`): the
    value replaced, which refers to no value the dialogue now holds (no C2 with the new one)."""
    return v.span is not None and bool(_SET_ASIDE.search(utterance[max(0, v.span.start - 24) : v.span.start]))


@register
class Coreference(Family):
    id = "C2"
    name = "coreference"
    description = "mentions of one value across the dialogue take the same value"
    group = "dialogic"

    def build(self, ctx) -> list[Constraint]:
        """One instance per group of ≥ 2 slot variables of one slot type with one referent."""
        groups: dict[tuple[str, Value], list[Variable]] = defaultdict(list)
        keys = referents(ctx.dialogue, ctx.variables, ctx.lexicon)
        for v in ctx.variables:
            if v.kind is VariableKind.SLOT and not ctx.description(v) and not (
                    v.speaker == "system" and v.slot in ("internet", "parking")) and not (  # "it does not have
                    names_entity(v.slot) and refers_to_several(v.text or "")) and not (  # parking": about the entity (C5)
                    set_aside(ctx.dialogue.turns[v.turn].utterance, v)):  # "6 tickets rather than one": the old value
                groups[(v.slot_type, keys[v.name][0])].append(v)
        return [
            Constraint(id=ConstraintId(self.id), variables=[m.name for m in members], turn=members[0].turn)
            for members in groups.values() if len(members) > 1
        ]

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        return len({assignment[name] for name in constraint.variables}) <= 1

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [AllEqual(tuple(constraint.variables))]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        refs = [by_name[n] for n in constraint.variables]
        return f"{where(refs)} should name the same {refs[0].slot_type}, but the text says " + " / ".join(
            f"{assignment[r.name]!r} (turn {r.turn})" for r in refs
        )
