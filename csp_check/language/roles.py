"""Role-aware slots: "from A to B" in the text decides which of a slot pair a span fills (spec §9).

Travel domains annotate a trip with a pair of slots: SGD ``origin`` / ``destination``,
``origin_city`` / ``destination_city``, ``from_location`` / ``to_location``, …; MultiWOZ
``departure`` / ``destination``. The text is the truth.

Reading rules

- A span written in a *from* role ("from Denver", "leaving Denver", "departing from Denver") is
  the origin, one in a *to* role ("to Austin", "going to Austin", "arriving in Austin") the
  destination, whatever slot its annotation gives: :func:`with_text_roles` moves such a variable
  to the slot its words give, so a state, call or system turn that recorded the reverse
  direction is flagged (C2 / C5 against the system's mentions, S1 against the state and calls).
  A return leg makes no claim.
- Only the words right before the span decide, and only for slots of a known pair whose
  partner the dialogue uses in the same domain; a span with no role words keeps its annotated
  slot. The pairs are every corpus's (:data:`~csp_check.corpora.shared.TRIP_ROLES`); the role
  words are data of their own (:mod:`csp_check.language.cue_words`).
"""

from __future__ import annotations

from csp_check.corpora.shared import TRIP_ROLES
from csp_check.language.cue_words import (
    DESTINATION_BEFORE,
    FROM_NAME_AFTER,
    FROM_TO,
    NAME_GOES_ON,
    ORIGIN_BEFORE,
    RETURN_LEG,
    SENTENCE_END,
    TO_FROM,
    TO_NAME_AFTER,
)
from csp_check.models import Dialogue, Variable, VariableKind

#: (origin slot, destination slot) pairs of SGD and MultiWOZ (:data:`~csp_check.corpora.shared.TRIP_ROLES`).
PAIRS: tuple[tuple[str, str], ...] = TRIP_ROLES


def partners(slot: str) -> list[str]:
    """The other slot of every pair holding ``slot`` (``origin_city`` → ``[destination_city]``):
    where a span moved by its role words finds the surface forms the dialogue gave its value."""
    return [b if a == slot else a for a, b in PAIRS if slot in (a, b)]


def text_role(utterance: str, start: int) -> str | None:
    """``"origin"`` / ``"destination"`` when the words before ``start`` put the span in that role
    ("from |A", "going to |B"), else ``None``. On the return leg of a round trip ("the return
    flight leaves from |B", "returning from my trip to |B") the words name the leg, not the
    trip, and users say both "return from <home>" and "return from <destination>": no claim."""
    left = " ".join(utterance[max(0, start - 40):start].lower().split()) + " "
    role = (
        "origin" if ORIGIN_BEFORE.search(left) or _followed_by_to(utterance, start)
        else "destination" if DESTINATION_BEFORE.search(left) or FROM_TO.search(_cased_left(utterance, start))
        or _followed_by_from(utterance, start)
        else None
    )
    if role is None:
        return None
    before = SENTENCE_END.split(utterance[:start].lower())[-1]
    after = SENTENCE_END.split(utterance[start:].lower())[0]
    if RETURN_LEG.search(before) or RETURN_LEG.search(after):
        return None
    return role


def _followed_by_to(utterance: str, start: int) -> bool:
    """"from |A to B" or "to B from |A": the span right after "from" with the other end of the
    trip beside it in the same phrase."""
    left = _cased_left(utterance, start)
    if not left.lower().endswith(" from "):
        return False
    return bool(TO_NAME_AFTER.match(utterance[start:]) or TO_FROM.search(left))


def _followed_by_from(utterance: str, start: int) -> bool:
    """"to |B from A": the span right after "to" with "from" after it in the same phrase."""
    left = _cased_left(utterance, start)
    return left.lower().endswith(" to ") and bool(FROM_NAME_AFTER.match(utterance[start:]))


def _cased_left(utterance: str, start: int) -> str:
    return " " + " ".join(utterance[max(0, start - 60):start].split()) + " "


def with_text_roles(dialogue: Dialogue, variables: list[Variable]) -> list[Variable]:
    """``variables`` with each spanned slot variable of a pair slot moved to the slot of the role
    its words give (module docstring); the others unchanged. Returns new objects for moved
    variables, never mutates its input."""
    used = _used_slots(dialogue)
    out = []
    moved: dict[tuple[int, str, str, str, str], str] = {}  # (turn, domain, speaker, from, to) → variable
    for v in variables:
        out.append(v)
        if v.kind is not VariableKind.SLOT or v.span is None:
            continue
        pair = next((p for p in PAIRS if v.slot in p and all(s in used.get(v.domain, ()) for s in p)), None)
        if pair is None:
            continue
        utterance = dialogue.turns[v.turn].utterance
        if NAME_GOES_ON.match(utterance[v.span.end :]):
            continue  # part of a longer name ("to the |Cambridge| Artworks"): the words are about that
        role = text_role(utterance, v.span.start)
        if role is None:
            continue
        slot = pair[0] if role == "origin" else pair[1]
        if slot != v.slot:
            out[-1] = v.model_copy(update={"slot": slot})
            moved[(v.turn, v.domain, v.speaker, v.slot, slot)] = v.name
    # The pair swapped: a span the text moves from s to t leaves the role s to the span of the
    # same utterance annotated t whose words give no role ("goes to B and leaves from |A|").
    for i, w in enumerate(out):
        if w.kind is not VariableKind.SLOT or w.span is None or w.name in moved.values():
            continue
        left = next((old for (turn, domain, speaker, old, new), name in moved.items()
                     if (w.turn, w.domain, w.speaker, w.slot) == (turn, domain, speaker, new) and w.name != name), None)
        if left is None or text_role(dialogue.turns[w.turn].utterance, w.span.start) is not None:
            continue  # no role left to it, or its own words give its role (read only when one is left)
        out[i] = w.model_copy(update={"slot": left})
    return out


def _used_slots(dialogue: Dialogue) -> dict[str, set[str]]:
    """Domain → slots its acts, states and calls use."""
    used: dict[str, set[str]] = {}
    for turn in dialogue.turns:
        for act in turn.acts:
            used.setdefault(act.domain, set()).add(act.slot)
        for domain, slots in turn.state.items():
            used.setdefault(domain, set()).update(slots)
        for result in turn.kb_results:
            if result.call is not None:
                used.setdefault(result.domain, set()).update(result.call.parameters)
    return used
