"""A fault hidden behind a stale canonical value (SGD), and its twin: a clock time a system turn
offers or informs in digits with its period ("7:00 am") is rewritten in the text and in its
act's ``values``, its ``canonical_values`` left as they were — as an edit of the text and its
annotation leaves them.

- fault (:func:`stale_canonical_pair`, first of the pair): another time, in the same form, that
  no entity of the turn's results has ("8:00 am" where every result leaves at 07:00 or 09:30):
  the text is the truth, so the claim is false (C5, certain) though the canonical still says 07:00;
- twin (second): the same time in other words ("seven o'clock in the morning"): no error, never
  certain.

So too a number or a date a system CONFIRM says (:func:`stale_confirm_pair`: "6 days" → "8
days", "March 13th" → "March 15th" against the user's; twins "six", "the 13th of March").

What is read: :func:`csp_check.readers.sgd.trusted_canonical` keeps a value's own reading where
its canonical is another (clock times, dollars, numbers in digits, dates).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from csp_check.faults.rewrite import reword_span
from csp_check.faults.words import HOUR_NAMES, ISO_DATE, MONTH_NAMES
from csp_check.language.normalize import clock_time, normalize
from csp_check.models import Dialogue
from csp_check.readers.sgd import from_raw

#: The acts whose clock time claims a value of the turn's results.
CLAIMS = ("OFFER", "INFORM", "CONFIRM")
DIGITS = re.compile(r"(\d{1,2}):(\d\d) ([ap]m)", re.IGNORECASE)
#: A date said with its month, as SGD's system turns write it ("March 13th").
MONTH_DAY = re.compile(rf"({'|'.join(MONTH_NAMES)}) (\d{{1,2}})(?:st|nd|rd|th)")


def said_in_words(clock: str) -> str:
    """``HH:MM`` in words with its period: "07:00" → "seven o'clock in the morning", "19:30" →
    "half past seven in the evening", "13:15" → "1:15 in the afternoon"."""
    hour, minute = int(clock[:2]), int(clock[3:])
    h12 = hour % 12 or 12
    period = "in the morning" if hour < 12 else "in the afternoon" if hour < 18 else "in the evening"
    if minute == 0:
        return f"{HOUR_NAMES[h12]} o'clock {period}"
    if minute == 30:
        return f"half past {HOUR_NAMES[h12]} {period}"
    return f"{h12}:{minute:02d} {period}"


def in_digits(clock: str) -> str:
    """``HH:MM`` as SGD's system turns write it: "08:00" → "8:00 am", "19:30" → "7:30 pm"."""
    hour, minute = int(clock[:2]), int(clock[3:])
    return f"{hour % 12 or 12}:{minute:02d} {'am' if hour < 12 else 'pm'}"


def stale_canonical_pair(dialogue: Dialogue, raw: dict[str, Any] | None) -> tuple[Dialogue, Dialogue] | None:
    """(fault, twin) at the first clock time in digits ("7:00 am", span text = value, canonical
    its ``HH:MM``) that a system act of :data:`CLAIMS` states in a turn with service results
    having the slot; ``None`` when the dialogue has none or no free hour for the fault."""
    if raw is None:
        return None
    for ti, fi, ai, slot, value, canon, spans in _single_valued_system_acts(raw, CLAIMS):
        results = raw["turns"][ti]["frames"][fi].get("service_results") or []
        if not DIGITS.fullmatch(value) or clock_time(normalize(value)) != canon or len(spans) != 1:
            continue
        have = {clock_time(normalize(str(r[slot]))) or str(r[slot]) for r in results if slot in r}
        if not have:
            continue
        hour = int(canon[:2])
        free = [f"{(hour + k) % 24:02d}{canon[2:]}" for k in (1, 2, 3, -1, -2)]
        free = [t for t in free if t not in have and 6 <= int(t[:2]) <= 22]
        if not free:
            continue
        pair = tuple(_edited(raw, ti, fi, ai, spans[0], new) for new in (in_digits(free[0]), said_in_words(canon)))
        return tuple(from_raw(p, dialogue.ontology, dialogue.source, dialogue.slot_descriptions)
                     for p in pair)  # type: ignore[return-value]
    return None


def _single_valued_system_acts(raw: dict[str, Any], acts: Collection[str]) -> Iterator[tuple[int, int, int, str, str, str, list]]:
    """``(turn, frame, action index, slot, value, canonical, spans)`` of every system act of
    ``acts`` with one value and one canonical value, in order; ``spans``: the frame's slot spans
    of that slot whose text is the value."""
    for ti, turn in enumerate(raw["turns"]):
        if turn.get("speaker") != "SYSTEM":
            continue
        for fi, frame in enumerate(turn.get("frames") or []):
            for ai, action in enumerate(frame.get("actions") or []):
                slot, values = action.get("slot"), action.get("values") or []
                canonical = action.get("canonical_values") or []
                if action.get("act") not in acts or len(values) != 1 or len(canonical) != 1:
                    continue
                spans = [s for s in frame.get("slots") or [] if s["slot"] == slot
                         and turn["utterance"][s["start"]:s["exclusive_end"]] == values[0]]
                yield ti, fi, ai, slot, values[0], canonical[0], spans


def _edited(raw: dict[str, Any], ti: int, fi: int, ai: int, span: dict[str, Any], new: str) -> dict[str, Any]:
    """``raw`` with ``new`` over ``span`` of turn ``ti`` and as the ``values`` of action ``ai`` of
    frame ``fi``; ``canonical_values`` untouched, later spans of the turn shifted."""
    out = reword_span(raw, ti, span, new)
    turn = out["turns"][ti]
    start, end = span["start"], span["exclusive_end"]
    turn["frames"][fi]["actions"][ai]["values"] = [new]
    for action in turn["frames"][fi]["actions"]:  # the other acts of the mention (an INFORM beside an OFFER)
        if action.get("slot") == span["slot"] and action.get("values") == [raw["turns"][ti]["utterance"][start:end]]:
            action["values"] = [new]
    return out


def stale_confirm_pair(dialogue: Dialogue, raw: dict[str, Any] | None) -> tuple[Dialogue, Dialogue] | None:
    """(fault, twin) at the first system CONFIRM of a number in digits ("6", a count of days or
    people) or a date said with its month ("March 13th") whose value the user gave before:
    rewritten in the text and ``values``, ``canonical_values`` left. The fault is another value
    in the same form ("8", "March 15th": the confirmation contradicts the user, C2 certain); the
    twin, the same value in other words ("six", "the 13th of March"): never certain."""
    if raw is None:
        return None
    for ti, fi, ai, slot, value, canon, spans in _single_valued_system_acts(raw, ("CONFIRM",)):
        if len(spans) != 1 or not _user_gave(raw, ti, slot, canon):
            continue
        forms = _other_and_same(value, canon)
        if forms is None:
            continue
        pair = tuple(_edited(raw, ti, fi, ai, spans[0], new) for new in forms)
        return tuple(from_raw(p, dialogue.ontology, dialogue.source, dialogue.slot_descriptions)
                     for p in pair)  # type: ignore[return-value]
    return None


def _other_and_same(value: str, canon: str) -> tuple[str, str] | None:
    """(another value in ``value``'s form, the same value in other words), or ``None``."""
    if value.isdigit() and value == canon and 1 <= int(value) <= 10:
        return str(int(value) + 2), HOUR_NAMES[int(value)]
    m = MONTH_DAY.fullmatch(value)
    if m and ISO_DATE.fullmatch(canon) and int(m[2]) == int(canon[8:]) and int(canon[8:]) <= 26:
        day = int(canon[8:])
        return f"{m[1]} {_ordinal(day + 2)}", f"the {_ordinal(day)} of {m[1]}"
    return None


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def _user_gave(raw: dict[str, Any], before: int, slot: str, canon: str) -> bool:
    """Whether a user act before turn ``before`` gives ``slot`` the canonical value ``canon``."""
    return any(turn.get("speaker") == "USER" and action.get("slot") == slot and canon in (action.get("canonical_values") or [])
               for turn in raw["turns"][:before] for frame in turn.get("frames") or [] for action in frame.get("actions") or [])
