"""A date a system CONFIRM says reworded in the text only (SGD): the span's words change, the
act's ``values`` and ``canonical_values`` stay — as an edit of the text alone leaves them. The
text is the truth: what the words name is the date confirmed.

- fault (:func:`confirm_date_pair`, first of the pair): another day of the same month said as a
  day alone ("the 11th" for a CONFIRM of 2019-03-09) where the user gave the date before: the
  confirmation contradicts the user (C2, certain);
- twin (second): the same day in other English words the date reader knows — "this coming
  Friday" for a day within the week after today ("next Friday" in the act), else the day alone
  ("the 9th", read in the month of the date in force): no error, never certain.

What is read: :func:`csp_check.language.normalize.date_key` and
:func:`csp_check.language.dates.resolve_dates` (the coming weekday; a day without its month);
words the reader cannot read are no sure value (:func:`csp_check.check.value_doubts.unread_date`).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from csp_check.faults.rewrite import reword_span
from csp_check.faults.words import ISO_DATE
from csp_check.language.dates import SGD_TODAY, WEEKDAYS
from csp_check.models import Dialogue
from csp_check.readers.sgd import from_raw


def ordinal(day: int) -> str:
    """``9`` → "9th", ``1`` → "1st", ``22`` → "22nd"."""
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def same_day_words(day: date, today: date = SGD_TODAY) -> str:
    """``day`` in other words the date reader reads as it: "this coming Friday" when it is within
    the week after ``today`` (today excluded), else "the 9th" (its day alone)."""
    if 1 <= (day - today).days <= 7:
        return f"this coming {WEEKDAYS[day.weekday()].title()}"
    return f"the {ordinal(day.day)}"


def _user_said(raw: dict[str, Any], before: int, slot: str, canon: str) -> bool:
    """Whether a user act before turn ``before`` gives ``slot`` the canonical value ``canon``."""
    return any(turn.get("speaker") == "USER" and action.get("slot") == slot and canon in (action.get("canonical_values") or [])
               for turn in raw["turns"][:before] for frame in turn.get("frames") or [] for action in frame.get("actions") or [])


def confirm_date_pair(dialogue: Dialogue, raw: dict[str, Any] | None) -> tuple[Dialogue, Dialogue] | None:
    """(fault, twin) at the first system CONFIRM of one ISO date (its span's text = its value)
    whose date the user gave before (module doc); ``None`` when the dialogue has none."""
    if raw is None:
        return None
    for ti, turn in enumerate(raw["turns"]):
        if turn.get("speaker") != "SYSTEM":
            continue
        for frame in turn.get("frames") or []:
            for action in frame.get("actions") or []:
                slot, values = action.get("slot"), action.get("values") or []
                canonical = action.get("canonical_values") or []
                if action.get("act") != "CONFIRM" or len(values) != 1 or len(canonical) != 1:
                    continue
                if not ISO_DATE.fullmatch(canonical[0]) or not _user_said(raw, ti, slot, canonical[0]):
                    continue
                spans = [s for s in frame.get("slots") or [] if s["slot"] == slot
                         and turn["utterance"][s["start"]:s["exclusive_end"]] == values[0]]
                day = date.fromisoformat(canonical[0])
                other = day + timedelta(days=2)
                if len(spans) != 1 or other.month != day.month:
                    continue
                pair = tuple(reword_span(raw, ti, spans[0], new) for new in (f"the {ordinal(other.day)}", same_day_words(day)))
                return tuple(from_raw(p, dialogue.ontology, dialogue.source, dialogue.slot_descriptions)
                             for p in pair)  # type: ignore[return-value]
    return None
