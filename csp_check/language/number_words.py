"""Numbers written in words, read into the digits a KB writes (KVRET's forms).

Reading rules

- a **cardinal** is one number word ("two", "seventy") or a tens word and a unit word ("twenty
  one"), read as its value; "a" / "an" is 1 only before a unit ("a mile");
- a **distance** is a cardinal or digits before "mile" / "miles": ``2_miles`` (KVRET writes every
  distance in miles, "1_miles" too);
- a **temperature** is a cardinal or digits before "degrees" / "degree" / "f": ``70f``;
- a **time** is a cardinal (1–12) or digits before "pm" / "am" / "p.m." / "a.m.": ``3pm``;
- an **ordinal** date is an ordinal word ("tenth", "twenty first") or digits with an ordinal ending
  ("10th") after "the": ``the_10th`` (KVRET's calendar dates); an ordinal word before a noun
  counts items ("the first meeting", "the second one"): a date only at the end or before a word
  of :data:`DATE_FOLLOWERS` ("on the tenth at 3pm");
- a **decade** ("the 70s", "the seventies") is a vague temperature: :func:`decades` gives its
  range, never one value.

Only a number word before its unit (or after "the" for an ordinal) is read: "the only one", "one
of them", "a meeting" stay words.

Source: English number words (cardinals, ordinals, decades) and KVRET's value forms (Eric et al.,
SIGDIAL 2017: ``5_miles``, ``70f``, ``7pm``, ``the_12th``).
"""

from __future__ import annotations

import re

#: Unit number words → their value.
UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
#: Tens number words → their value.
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}
#: Ordinal words → their value.
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
            "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
            "twentieth": 20, "thirtieth": 30}
#: Decade words → the first value of their decade ("seventies" → 70).
DECADES = {"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
           "eighties": 80, "nineties": 90}
#: The words an ordinal word may stand before and still be a date ("the tenth at 3pm", "the tenth
#: of this month"); before any other word it counts items ("the first meeting").
DATE_FOLLOWERS = frozenset({"at", "of", "and", "or", "with", "for", "in", "from", "to", "is", "was", "will", "?", ".",
                            ",", "please", "instead", "then", "this", "next", "not", "but", "so", "right", "correct"})
_DISTANCE_UNITS = frozenset({"mile", "miles"})
_TEMPERATURE_UNITS = frozenset({"degrees", "degree", "f"})
_TIME_UNITS = {"pm": "pm", "am": "am", "p.m.": "pm", "a.m.": "am", "p.m": "pm", "a.m": "am"}
_ORDINAL_DIGITS = re.compile(r"(\d{1,2})(st|nd|rd|th)")


def cardinal(tokens: list[str], i: int) -> tuple[int, int] | None:
    """The cardinal at ``tokens[i]``: ``(value, tokens read)``, digits or words ("twenty one"),
    else ``None``."""
    t = tokens[i]
    if t.isdigit():
        return int(t), 1
    if t in UNITS:
        return UNITS[t], 1
    if t in TENS:
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if nxt in UNITS and 0 < UNITS[nxt] < 10:
            return TENS[t] + UNITS[nxt], 2
        return TENS[t], 1
    return None


def ordinal(tokens: list[str], i: int) -> tuple[int, int] | None:
    """The ordinal at ``tokens[i]`` ("tenth", "twenty first", "10th"): ``(value, tokens read)``."""
    t = tokens[i]
    match = _ORDINAL_DIGITS.fullmatch(t)
    if match:
        return int(match.group(1)), 1
    if t in ORDINALS:
        return ORDINALS[t], 1
    if t in TENS and i + 1 < len(tokens) and tokens[i + 1] in ORDINALS and ORDINALS[tokens[i + 1]] < 10:
        return TENS[t] + ORDINALS[tokens[i + 1]], 2
    return None


def _suffix(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def digits_for_words(text: str) -> str:
    """``text`` (whitespace-separated tokens) with its distances, temperatures, times and ordinal
    dates in KVRET's forms (module docstring): "two miles" → ``2_miles``, "a mile" → ``1_miles``,
    "seventy degrees" → ``70f``, "three pm" → ``3pm``, "the tenth" → ``the_10th``. Other tokens
    are kept as they are."""
    tokens = text.split()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        read = cardinal(tokens, i)
        if read is None and t in ("a", "an") and i + 1 < len(tokens) and tokens[i + 1] == "mile":
            read = (1, 1)
        if read is not None:
            value, n = read
            unit = tokens[i + n] if i + n < len(tokens) else ""
            if unit in _DISTANCE_UNITS:
                out.append(f"{value}_miles")
                i += n + 1
                continue
            if unit in _TEMPERATURE_UNITS and value >= 10:
                out.append(f"{value}f")
                i += n + 1
                continue
            if unit in _TIME_UNITS and 1 <= value <= 12:
                out.append(f"{value}{_TIME_UNITS[unit]}")
                i += n + 1
                continue
        if t == "the" and i + 1 < len(tokens):
            read = ordinal(tokens, i + 1)
            after = tokens[i + 1 + read[1]] if read is not None and i + 1 + read[1] < len(tokens) else "?"
            if (read is not None and 1 <= read[0] <= 31
                    and (tokens[i + 1][0].isdigit() or after in DATE_FOLLOWERS or not after.isalpha())):
                out.append(f"the_{read[0]}{_suffix(read[0])}")
                i += read[1] + 1
                continue
        out.append(t)
        i += 1
    return " ".join(out)


def decades(words: list[str]) -> list[tuple[int, int]]:
    """The word positions and first values of the decades in ``words`` ("the 70s", "the
    seventies"): ``[(position, 70), …]``; a decade covers its value to value + 9."""
    found = []
    for i, w in enumerate(words):
        if w in DECADES:
            found.append((i, DECADES[w]))
        elif re.fullmatch(r"[1-9]0s", w):
            found.append((i, int(w[:-1])))
    return found


__all__ = ["DATE_FOLLOWERS", "DECADES", "ORDINALS", "TENS", "UNITS", "cardinal", "decades", "digits_for_words", "ordinal"]
