"""Faults in a booking turn: an entity detail the confirmation states changed to one the booked
entity lacks (``booking_detail``: C5), the party size restated in words no act annotates
(``restated_detail``: C2, text only); and the no-fault twin of the last, the party size restated
as booked (:func:`faithful_restatement`)."""

from __future__ import annotations

from typing import Any

from csp_check.faults.common import other_values
from csp_check.faults.model import Choice
from csp_check.faults.rewrite import rewritten
from csp_check.faults.wording import render
from csp_check.faults.words import BOOKING_OWN_SLOT, RESTATEMENT
from csp_check.language.cues import measure_spans, unit_words
from csp_check.models import CSP, ActRole, Dialogue, Span, Variable, VariableKind


def booking_detail_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A detail a booking confirmation informs (not the booking's own date, time, party size or
    total) changed to a value of its slot the booked entity (the turn's one KB result) lacks."""
    out = []
    for var in csp.variables:
        turn = dialogue.turns[var.turn]
        if (var.span is None or var.speaker != "system" or var.role is not ActRole.INFORM or var.kind is not VariableKind.SLOT
                or not any(a.role is ActRole.BOOKED for a in turn.acts)
                or BOOKING_OWN_SLOT.search(var.slot)):
            continue
        if any(r.call is not None and var.slot in r.call.parameters for r in turn.kb_results):
            continue  # a value the booking was made with ("from Union Station"): the booking's own
        booked = csp.kbs.get(f"turn{var.turn}:{var.domain}") or []
        if len(booked) != 1 or var.slot not in booked[0] or booked[0][var.slot] != csp.assignment[var.name]:
            continue
        for value in other_values(csp, var):
            rendered = render(dialogue, var, value) if value != booked[0][var.slot] else None
            if rendered:
                out.append((var, *rendered))
                break
    return out


def restatement_places(dialogue: Dialogue) -> list[tuple[Variable, list[str]]]:
    """(a variable standing for the empty end of a system booking turn, the closed values of its
    slot) for each party-size slot (closed numeric, people) the state in force records that a
    turn confirming or reporting a booking does not state: where a restated detail can be added."""
    out = []
    for turn in dialogue.turns:
        if turn.speaker != "system" or not turn.index:
            continue
        state = dialogue.turns[turn.index - 1].state
        for domain in dict.fromkeys(a.domain for a in turn.acts if a.role in (ActRole.CONFIRM, ActRole.BOOKED)):
            for slot, values in state.get(domain, {}).items():
                closed = dialogue.ontology.get(f"{domain}.{slot}") or []
                if (len(values or []) != 1 or not closed or not all(v.isdigit() for v in closed)
                        or not values[0].isdigit() or not unit_words(slot)[1]
                        or any(a.domain == domain and a.slot == slot for a in turn.acts)
                        or measure_spans(turn.utterance, slot)):
                    continue
                end = len(turn.utterance)
                var = Variable(name="", turn=turn.index, speaker="system", kind=VariableKind.SLOT, domain=domain, slot=slot,
                               role=ActRole.CONFIRM, span=Span(start=end, end=end), text="", value=values[0])
                out.append((var, closed))
    return out


def restated_detail_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A system turn confirming or reporting a booking restates the party size in words no act
    annotates (" That is for 4 people." added where the state and the booking say 2): text only
    (``allowed`` set: annotated mode, no place). Must trip C2 with the user's mention (or C5 /
    S1). :func:`faithful_restatement` is the no-fault twin."""
    if allowed is not None:
        return []
    out = []
    for var, closed in restatement_places(dialogue):
        n = int(str(var.value))
        new = next((str(m) for m in (n + 2, n + 1, n - 1) if str(m) in closed and m > 0), None)
        if new is not None:
            out.append((var, RESTATEMENT.format(n=new), new))
    return out


def faithful_restatement(dialogue: Dialogue, raw: dict[str, Any] | None = None) -> Dialogue | None:
    """No fault: the first place of :func:`restated_detail_choices` with the party size the state
    records (" That is for 2 people."), text only; ``None`` when there is none."""
    places = restatement_places(dialogue)
    if not places:
        return None
    var, _ = places[0]
    text = RESTATEMENT.format(n=var.value)
    return rewritten(dialogue, var, text, text, None, raw)
