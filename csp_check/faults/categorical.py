"""Faults in a categorical or boolean value's words: another value of its closed set, a boolean's
polarity flipped (``categorical``: "it is free" → "it is not free", "Economy" → "Business"); a
short yes/no answer given the other way (``boolean_answer``: "No, they do not." → "Yes, they
do."). Either is caught where the entity (C5) or another mention (C2) contradicts it."""

from __future__ import annotations

from csp_check.faults.common import breaks
from csp_check.faults.model import Choice
from csp_check.faults.wording import flip, reads_as
from csp_check.faults.words import NO_ANSWER, YES_ANSWER
from csp_check.language.cues import BOOLEAN, boolean_span, read_boolean
from csp_check.language.normalize import normalize
from csp_check.models import CSP, Dialogue, VariableKind


def categorical_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A categorical value's words state another value of its closed set (a boolean's polarity
    flipped) where a C5 or C2 containing it then fails."""
    out = []
    for var in csp.variables:
        closed = dialogue.ontology.get(var.slot_type)
        if var.span is None or not closed or var.kind is not VariableKind.SLOT:
            continue
        said = csp.assignment[var.name]
        if said in BOOLEAN:
            flipped = "false" if said == "true" else "true"
            text = flip(var.text or "", str(said))
            options = [(text, flipped.title())] if text and reads_as(dialogue, var, text, flipped) else []
        else:
            options = [(v, v) for v in closed if normalize(v) != said and not v.isdigit() and v != "None"]
        for text, canonical in options:
            if breaks(csp, var, normalize(canonical), allowed):
                out.append((var, text, canonical))
                break
    return out


def boolean_answer_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A boolean stated by a short answer at the start of a system turn (``cues.answer_span``:
    "No, they do not.") answered the other way ("Yes, they do."), where a C5 or C2 then fails."""
    out = []
    for var in csp.variables:
        said = csp.assignment[var.name]
        if (var.span is None or var.span.start != 0 or var.speaker != "system" or said not in BOOLEAN
                or boolean_span(dialogue.turns[var.turn].utterance, var.slot) is not None):
            continue
        text, value = YES_ANSWER if said == "false" else NO_ANSWER
        if read_boolean(text) != said and breaks(csp, var, value.lower(), allowed):
            out.append((var, text, value))
    return out
