"""S2 (a ruled-out value recorded): the belief state does not record a value the user's words
rule out ("anything but Country songs" while the state's genre is Country). The reading is
:func:`ruled_out_constraints` below; an instance is ``x ∉ {recorded values}``,
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

import re
from collections.abc import Mapping

from csp_check.delexicalize.assignment import Lexicon
from csp_check.families.annotation_common import (
    REFERRING,
    SENTENCE,
    RecordedValuesInstance,
    recorded_forms,
    user_mentions,
)
from csp_check.families.primitives import Member, Primitive
from csp_check.families.registry import Family, register
from csp_check.language.normalize import normalize
from csp_check.models import CSP, ConstraintId, Dialogue, Value, Variable

#: Words right before a span that rule its value out: "anything but", "other than", "except",
#: "rather than", "instead of", "not (in the)", "don't want". Not the looser cues of
#: ``_NEGATED`` (:mod:`csp_check.families.annotation_common`): "why don't we try turkish", "are
#: there no cheap ones?", "I haven't had eritrean in forever", "I can't leave until after 16:45"
#: all ask for the value.
_RULED_OUT = re.compile(
    r"(?:\b(?:anything|something|somewhere|any\s+\w+)\s+(?:but|other\s+than|except)|\bother\s+than|\bexcept(?:\s+for)?"
    r"|\brather\s+than|\binstead\s+of|\bnot(?:\s+(?:be|in|at|a|an|the|in\s+the))?"
    r"|\b(?:do|does|would)\s*(?:n't|n ?'t|not)\s+(?:want|like)(?:\s+\w+){0,2})\s*$"
)
#: Values that are yes / no: "without subtitles" is the value False said in words, not a ruled-out True.
_YES_NO = frozenset({"true", "false", "yes", "no"})


@register
class RuledOut(Family[RecordedValuesInstance]):
    id = "S2"
    name = "ruled-out value recorded"
    description = "the belief state does not record a value the user ruled out ('anything but Country')"
    group = "annotation"
    instance_type = RecordedValuesInstance

    def build(self, ctx) -> list[RecordedValuesInstance]:
        """The instances :func:`ruled_out_constraints` reads off the dialogue."""
        return ruled_out_constraints(ctx.dialogue, ctx.variables, ctx.lexicon, ctx.assignment)

    def satisfied(self, constraint: RecordedValuesInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        return all(assignment[n] not in constraint.values for n in constraint.variables)

    def lower(self, constraint: RecordedValuesInstance, csp: CSP) -> list[Primitive]:
        return [Member(tuple(constraint.variables), frozenset(constraint.values), excluded=True)]

    def evidence_turns(self, constraint: RecordedValuesInstance) -> set[int]:
        """The turn whose state records the value."""
        return {constraint.turn} if constraint.turn is not None else set()

    def explain(self, constraint: RecordedValuesInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        var = by_name[constraint.variables[0]]
        span = f" [{var.span.start}:{var.span.end}] {var.text!r}" if var.span else ""
        recorded = " / ".join(repr(x) for x in constraint.values)
        return (f"turn {var.turn} the user rules out{span} ({var.slot_type}={assignment[var.name]!r}); the "
                f"{constraint.record or 'annotation'} at turn {constraint.turn} records {var.slot_type}={recorded}")


def ruled_out_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value]
) -> list[RecordedValuesInstance]:
    """The S2 instances of ``dialogue``: an explicit user ``inform`` x whose words rule its value
    out ("anything but Country", "not in the north", "I don't want Italian": :data:`_RULED_OUT`
    right before the span, in its sentence), while the belief state after that turn records the
    value: ``x ∉`` the recorded forms. Not for yes / no values (the negation is the value), a
    span that refers instead of naming, or ``dontcare``. Spec §9: the annotation must record what
    the user said, and a user who rules a value out did not ask for it."""
    out: list[RecordedValuesInstance] = []
    for v in user_mentions(variables, assignment):
        said = assignment[v.name]
        if not isinstance(said, str) or normalize(said) in _YES_NO | {"dontcare"} or v.span is None:
            continue
        utterance = dialogue.turns[v.turn].utterance
        before = SENTENCE.split(utterance[: v.span.start])[-1].lower()
        if not _RULED_OUT.search(before):
            continue
        if REFERRING.search(normalize(v.text or "")):
            continue
        alternatives = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot)
        if not alternatives:
            continue
        forms = recorded_forms(lexicon, v.slot_type, alternatives)
        if "dontcare" in forms or said not in forms:
            continue
        out.append(RecordedValuesInstance(id=ConstraintId("S2"), variables=[v.name], turn=v.turn, slot_type=v.slot_type,
                              values=sorted(forms), record="belief state"))
    return out
