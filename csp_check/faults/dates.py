"""Faults in a date: a date said "March 9th" becomes another day in other words
(``reworded_date``: "the 10th of March"), or a day next to it said relative to the dialogue's
today (``relative_date``: "tomorrow" → "the day after tomorrow", "March 2nd" → "this Sunday").
Either is held to its day by a C2, C5 or S1; the same day reworded is no fault
(:func:`reword_date` with ``shift=0``)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from csp_check.delexicalize.assignment import Lexicon
from csp_check.faults.common import breaks
from csp_check.faults.model import Choice
from csp_check.faults.words import ISO_DATE, ISO_MONTH_DAY, MONTH_NAMES, RELATIVE_DAYS
from csp_check.language.dates import WEEKDAYS, resolve_dates
from csp_check.language.normalize import date_key, normalize
from csp_check.models import CSP, Dialogue, Span


def reword_date(value: str, shift: int = 0) -> str | None:
    """An ISO date ``value`` said as "the 9th of March" (``shift`` days later, in the month)."""
    m = ISO_MONTH_DAY.fullmatch(value)
    if m is None:
        return None
    month, day = int(m[1]), int(m[2]) + shift
    if not 1 <= day <= 28:
        return None
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"the {day}{suffix} of {MONTH_NAMES[month - 1]}"


def reworded_date_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue, shift: int = 1) -> list[Choice]:
    """A date written with its month and day ("March 9th") said in other words as another day
    (``shift`` days later: "the 10th of March"), where a C2, C5 or S1 then holds it to its day.
    With ``shift=0``, the same day in other words: no fault."""
    out = []
    for var in csp.variables:
        value = csp.assignment[var.name]
        if var.span is None or not isinstance(value, str) or date_key(var.text or "") != value[5:]:
            continue
        text = reword_date(value, shift)
        if text is not None:
            out.append((var, text, f"{value[:8]}{int(value[8:]) + shift:02d}"))
    return out


def relative_day(day: str, today: Any) -> str | None:
    """Words naming ISO ``day`` relative to ``today`` (a ``datetime.date``): "tomorrow", "the
    day after tomorrow", "this Friday", "next Monday", as :func:`csp_check.language.dates.resolve_dates`
    reads them; ``None`` when none of these names it."""
    weekday = WEEKDAYS[date.fromisoformat(day).weekday()].title()
    for words in (w.format(weekday=weekday) for w in RELATIVE_DAYS):
        if [d.isoformat() for d in resolve_dates(words, today)] == [day]:
            return words
    return None


def relative_date_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A date (said in any words) said relative to the dialogue's today (:func:`csp_check.delexicalize.assignment.dialogue_today`)
    as a day next to it ("March 2nd" / "tomorrow" → "the day after tomorrow", "this Sunday"),
    where a C2, C5 or S1 then holds it to its day (with the annotation changed too: only where
    another annotation records its referent, as for coreference faults, or a C5 fails)."""
    today = Lexicon.of(dialogue).today
    if today is None:
        return []
    out = []
    for var in csp.variables:
        value = csp.assignment[var.name]
        if var.span is None or not isinstance(value, str) or not ISO_DATE.fullmatch(value):
            continue
        for shift in (1, -1, 2):
            other = (date.fromisoformat(value) + timedelta(days=shift)).isoformat()
            words = relative_day(other, today)
            if words is None or normalize(words) == normalize(var.text or ""):
                continue
            if allowed is None or var.name in allowed or breaks(csp, var, other, allowed):
                utterance = dialogue.turns[var.turn].utterance
                if var.span is not None and utterance[: var.span.start].lower().endswith("the ") and not (
                        any(v.span is not None and v.turn == var.turn and v.span.end == var.span.start - 4
                            for v in csp.variables)):  # "on the 3rd" → "on this Monday", not "on the this Monday"
                    var = var.model_copy(update={"span": Span(start=var.span.start - 4, end=var.span.end),
                                                 "text": utterance[var.span.start - 4 : var.span.end]})
                out.append((var, words, other))
                break
    return out
