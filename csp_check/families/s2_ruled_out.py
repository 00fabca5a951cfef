"""S2 (a ruled-out value recorded): the belief state does not record a value the user's words
rule out ("anything but Country songs" while the state's genre is Country). The reading is
:func:`csp_check.families.annotation_common.ruled_out_constraints`; an instance is ``x ∉ {recorded values}``,
the complement of S1's membership (spec §9, "text is the truth").

Reading rules

- Group ``annotation``, on by default, listed apart from C1–C6.
- A spanned user inform whose words right before it rule the value out ("anything but
  Country", "other than", "except", "rather than", "instead of", "not (in the)", "I don't want")
  must not be what the belief state after its turn records: ``x ∉`` the recorded forms, lowered
  to membership in the complement.
- Not the looser cues ("why don't we try Turkish", "are there no cheap ones?", "I can't leave
  until after 16:45", which ask for the value), not yes / no values ("without subtitles" is the
  value False).
"""

from __future__ import annotations

from typing import Mapping

from csp_check.families.primitives import Member
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, Value, Variable


@register
class RuledOut(Family):
    id = "S2"
    name = "ruled-out value recorded"
    description = "the belief state does not record a value the user ruled out ('anything but Country')"
    group = "annotation"

    def build(self, ctx) -> list[Constraint]:
        """The instances :func:`csp_check.families.annotation_common.ruled_out_constraints` reads off the dialogue."""
        from csp_check.families.annotation_common import ruled_out_constraints

        return ruled_out_constraints(ctx.dialogue, ctx.variables, ctx.lexicon, ctx.assignment)

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        return all(assignment[n] not in constraint.values for n in constraint.variables)

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [Member(tuple(constraint.variables), frozenset(constraint.values), excluded=True)]

    def evidence_turns(self, constraint: Constraint) -> set[int]:
        """The turn whose state records the value."""
        return {constraint.turn} if constraint.turn is not None else set()

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        var = by_name[constraint.variables[0]]
        span = f" [{var.span.start}:{var.span.end}] {var.text!r}" if var.span else ""
        recorded = " / ".join(repr(x) for x in constraint.values)
        return (f"turn {var.turn} the user rules out{span} ({var.slot_type}={assignment[var.name]!r}); the "
                f"{constraint.record or 'annotation'} at turn {constraint.turn} records {var.slot_type}={recorded}")
