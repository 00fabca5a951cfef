"""Relative and partial dates in user text → ISO dates (dialogue grounding of date slots).

SGD's canonical dates are ISO (``2019-03-08``) while users say "next Friday", "the 3rd",
"tomorrow", "March 10th", "the 10th of this month". The reference day ("today") of SGD's
dialogues is Friday 2019-03-01 (:data:`SGD_TODAY`; "today" is annotated so throughout the
corpus); an example may give another one in ``metadata.reference_date``.

Reading rules

Readings: ``today``, ``tomorrow``, ``day after tomorrow``; a weekday alone or with ``this`` →
its next occurrence from today on (today included for ``this``); ``(this|the) coming <weekday>``
/ ``<weekday> coming`` → its next occurrence after today; ``next <weekday>`` /
``<weekday> next week`` → that weekday of the following week; ``the Nth`` (``of this month``)
→ day N of the current month if not past, else of the next; ``the Nth of next month``;
``<month> Nth`` / ``Nth of <month>`` → that day in the reference year. Years:
:func:`resolve_years` ("'15", "two years ago").
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import lru_cache

SGD_TODAY = date(2019, 3, 1)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]  # fmt: skip
_ORD = r"(\d{1,2})(?:st|nd|rd|th)?"
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
}  # fmt: skip
_MONTH_ALT = "|".join(MONTHS + [m[:3] for m in MONTHS])
_MONTH = f"({_MONTH_ALT})"
_DAY = "(" + "|".join(WEEKDAYS) + ")"


def _month(name: str) -> int:
    name = name.lower()[:3]
    return [m[:3] for m in MONTHS].index(name) + 1


def _day(text: str) -> int | None:
    text = text.lower()
    if text in _ORDINAL_WORDS:
        return _ORDINAL_WORDS[text]
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", text)
    return int(m.group(1)) if m else None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


_ORDINAL = r"(\d{1,2}(?:st|nd|rd|th)?|" + "|".join(_ORDINAL_WORDS) + ")"
# resolve_dates' patterns, compiled once (it reads every date-like value of a dialogue)
_NOT_WORD = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")
_NEAR_DAY = re.compile(r" (day after tomorrow|tomorrow|today|tonight) ")
_NEXT_WEEKDAY = re.compile(rf" next {_DAY} | {_DAY} (?:of )?next week ")
_WEEKDAY = re.compile(rf" (this coming |the coming |this |on |coming )?{_DAY}( coming)? ")
_MONTH_DAY = re.compile(rf" {_MONTH} (?:the )?{_ORDINAL} ")
_DAY_OF_MONTH = re.compile(rf" (?:the )?{_ORDINAL} (?:of |day of )?(this month|next month|{_MONTH_ALT})")
_THE_DAY = re.compile(r" the (\d{1,2}(?:st|nd|rd|th)) ")  # digits only: "the first time" is no date


def resolve_dates(text: str, today: date = SGD_TODAY) -> list[date]:
    """Every date the text names, in order of appearance (duplicates kept once). Never raises.
    Memoised by (text, today): the build asks it of one value again and again."""
    return list(_dates(text, today))


@lru_cache(maxsize=1 << 14)
def _dates(text: str, today: date) -> tuple[date, ...]:
    """:func:`resolve_dates`, as a tuple."""
    t = " " + _NOT_WORD.sub(" ", text.lower()) + " "
    t = _SPACES.sub(" ", t)
    found: list[tuple[int, date]] = []

    def add(pos: int, d: date | None) -> None:
        if d is not None:
            found.append((pos, d))

    for m in _NEAR_DAY.finditer(t):
        add(m.start(), today + timedelta(days={"today": 0, "tonight": 0, "tomorrow": 1}.get(m.group(1), 2)))
    taken: set[int] = set()
    for m in _NEXT_WEEKDAY.finditer(t):
        wd = WEEKDAYS.index(m.group(1) or m.group(2))
        monday_next = today + timedelta(days=7 - today.weekday())
        add(m.start(), monday_next + timedelta(days=wd))
        taken |= set(range(m.start(), m.end()))
    for m in _WEEKDAY.finditer(t):
        if m.start() in taken or m.start() + 1 in taken or any(p in taken for p in range(m.start(), m.end())):
            continue
        wd = WEEKDAYS.index(m.group(2))
        ahead = (wd - today.weekday()) % 7
        if ahead == 0 and "coming" in m.group(0):
            ahead = 7  # "this coming Friday" said on a Friday: the one ahead, not today
        add(m.start(), today + timedelta(days=ahead))
    for m in _MONTH_DAY.finditer(t):
        day = _day(m.group(2))
        add(m.start(), day and _safe(today.year, _month(m.group(1)), day))
        taken |= set(range(m.start(), m.end()))
    for m in _DAY_OF_MONTH.finditer(t):
        if any(p in taken for p in range(m.start(), m.end())):
            continue
        day = _day(m.group(1))
        if not day:
            continue
        which = m.group(2)
        if which == "this month":
            add(m.start(), _safe(today.year, today.month, day))
        elif which == "next month":
            y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
            add(m.start(), _safe(y, mo, day))
        else:
            add(m.start(), _safe(today.year, _month(which), day))
        taken |= set(range(m.start(), m.end()))
    for m in _THE_DAY.finditer(t):
        if any(p in taken for p in range(m.start(), m.end())):
            continue
        day = _day(m.group(1))
        if day:
            d = _safe(today.year, today.month, day)
            if d is not None and d < today:
                y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
                d = _safe(y, mo, day)
            add(m.start(), d)
    out: list[date] = []
    for _, d in sorted(found, key=lambda x: x[0]):
        if d not in out:
            out.append(d)
    return tuple(out)


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "a": 1, "a couple of": 2, "a couple": 2}


def resolve_years(text: str, today: date = SGD_TODAY) -> list[int]:
    """Years the text names relatively or shortly: "'15" → 2015, "two years ago" / "six years
    back" → today's year minus N, "last year" / "this year". Four-digit years are left to the
    ontology. Never raises."""
    t = " " + re.sub(r"\s+", " ", re.sub(r"[^\w\s']", " ", text.lower())) + " "
    out: list[int] = []
    for m in re.finditer(r"(?<![\w'])'(\d{2})\b", t):
        out.append(2000 + int(m.group(1)) if int(m.group(1)) <= today.year % 100 else 1900 + int(m.group(1)))
    nums = "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True))
    for m in re.finditer(rf" (\d{{1,2}}|{nums}) years? (?:ago|back|before|earlier) ", t):
        n = int(m.group(1)) if m.group(1).isdigit() else _NUMBERS[m.group(1)]
        out.append(today.year - n)
    for m in re.finditer(r" (last|this|previous) year ", t):
        out.append(today.year - (m.group(1) != "this"))
    return list(dict.fromkeys(out))


def reference_date(metadata: dict | None) -> date:
    """``metadata.reference_date`` (ISO) if present and valid, else :data:`SGD_TODAY`."""
    value = (metadata or {}).get("reference_date")
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    return SGD_TODAY
