"""Negated coordination (``coordinated_negation``: C5 or C2): a True boolean the system affirms
("it has wifi") said as the second noun of a negated coordination ("it does not have free parking
and wifi", "has no parking or wifi"), where the negation scopes over both nouns (spec §9)."""

from __future__ import annotations

from csp_check.build.builder import SYSTEM_CLAIMS
from csp_check.faults.common import breaks
from csp_check.faults.model import Choice
from csp_check.faults.words import FREE, HAVING, OTHER_AMENITY, OTHER_THAN_PARKING, PLURAL_HAVING
from csp_check.language.cues import read_boolean
from csp_check.models import CSP, Dialogue, Span, VariableKind


def negated_coordination(utterance: str, span: Span, other: str, form: int) -> tuple[Span, str] | None:
    """An amenity the text affirms ("it has free wifi") said as the second noun of a negated
    coordination: the span from the having verb to the amenity's words becomes one of four
    forms (``form`` mod 4), with ``other`` as the first noun: "does not have {other} and
    wifi", "has no {other} or wifi", "doesn't offer {other} nor wifi", "has neither {other}
    nor wifi" ("with": "with no {other} or wifi", "without {other} and wifi"). Returns (the
    span replaced, its new words); ``None`` when no having verb stands right before the words
    or they carry a negation already. The negation then scopes over both nouns (spec §9)."""
    words = utterance[span.start : span.end]
    if read_boolean(words) == "false":
        return None
    verb = HAVING.search(utterance, 0, span.start)
    if verb is None:
        return None
    cue = FREE.sub("", words)
    head = verb.group(1).lower()
    if head == "with":
        new = (f"with no {other} or {cue}", f"without {other} and {cue}")[form % 2]
    else:
        plural = head in PLURAL_HAVING
        do, has = ("do", "have") if plural else ("does", "has")
        new = (f"{do} not have {other} and {cue}", f"{has} no {other} or {cue}", f"{do}n't offer {other} nor {cue}",
               f"{has} neither {other} nor {cue}")[form % 4]
    if verb.group(1)[0].isupper():
        new = new[0].upper() + new[1:]
    return Span(start=verb.start(), end=span.end), new


def coordinated_negation_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A True boolean the system affirms ("The hotel has wifi") said as the second noun of a
    negated coordination ("The hotel does not have free parking and wifi"; :func:`negated_coordination`),
    where a C5 or C2 then fails. The target variable's span is widened to the verb."""
    out = []
    for var in csp.variables:
        said = csp.assignment[var.name]
        if (var.span is None or var.speaker != "system" or said != "true" or var.kind is not VariableKind.SLOT
                or var.role not in SYSTEM_CLAIMS or not breaks(csp, var, "false", allowed)):
            continue
        utterance = dialogue.turns[var.turn].utterance
        other = OTHER_THAN_PARKING if "parking" in (var.text or "").lower() else OTHER_AMENITY
        found = negated_coordination(utterance, var.span, other, var.turn + var.span.start)
        if found is None:
            continue
        span, new = found
        if any(v.turn == var.turn and v is not var and v.span is not None and v.span.start < span.end
               and span.start < v.span.end for v in csp.variables):
            continue  # another variable's words inside the widened span
        wide = var.model_copy(update={"span": span, "text": utterance[span.start : span.end]})
        out.append((wide, new, "False"))
    return out
