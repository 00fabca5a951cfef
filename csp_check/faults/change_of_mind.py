"""A change of mind in the text alone (``change_of_mind``: S1): a user's number the state records
("a table for 2") taken back at the end of the turn (" Actually, make that 3 people."), while the
belief state and the calls keep the old number."""

from __future__ import annotations

from csp_check.faults.model import Choice
from csp_check.faults.words import CHANGE_OF_MIND, CHANGE_OF_MIND_BARE, SENTENCE_ENDS
from csp_check.language.cues import measure_spans, unit_after
from csp_check.models import CSP, ConstraintId, Dialogue, Span


def change_of_mind_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A user's number of a closed numeric slot the belief state records ("a table for 2")
    taken back in the text alone: " Actually, make that 3 people." appended to the turn
    (:func:`csp_check.language.cues.corrected`), while the state and the calls keep 2: S1. The target
    variable's span becomes the empty end of the utterance (the words are added there)."""
    recorded = {n for c in csp.constraints if c.id is ConstraintId.S1 for n in c.variables}
    out = []
    for var in csp.variables:
        closed = dialogue.ontology.get(var.slot_type) or []
        value = csp.assignment[var.name]
        if (var.speaker != "user" or var.span is None or var.name not in recorded or not closed
                or not all(v.isdigit() for v in closed) or not str(value).isdigit()):
            continue
        utterance = dialogue.turns[var.turn].utterance.rstrip()
        new = next((v for v in (str(int(value) + 1), str(int(value) - 1)) if v in closed and v != "0"), None)
        if new is None:
            continue
        unit = unit_after(utterance, var.span)
        sentence = CHANGE_OF_MIND.format(new=new, unit=unit) if unit else CHANGE_OF_MIND_BARE.format(new=new)
        changed = utterance + ("" if utterance.endswith(SENTENCE_ENDS) else ".") + sentence
        spans = measure_spans(changed, var.slot, [], dialogue.slot_descriptions.get(var.slot_type, ""))
        if not spans or changed[spans[-1].start : spans[-1].end] != new:
            continue  # the added words do not read as the slot's number
        end = len(dialogue.turns[var.turn].utterance)
        at_end = var.model_copy(update={"span": Span(start=end, end=end), "text": ""})
        out.append((at_end, changed[end:], new))
    return out
