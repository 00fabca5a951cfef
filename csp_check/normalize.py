"""Value normalisation (spec §6): the one place where two spellings become one value.

``normalize("Centre")`` → ``"center"``; ``normalize("Guest House")`` → ``"guesthouse"``;
unicode dashes and quotes become ASCII; case and surrounding punctuation are dropped.
``parse_amount("three")`` → ``3``.
"""

from __future__ import annotations

import re
import unicodedata

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_QUOTES = {ord("\u2018"): "'", ord("\u2019"): "'", ord("\u201c"): '"', ord("\u201d"): '"', ord("`"): "'"}
_SYNONYMS = {
    "centre": "center",
    "city centre": "center",
    "city center": "center",
    "guest house": "guesthouse",
    "guest houses": "guesthouse",
    "guesthouses": "guesthouse",
    "bed and breakfast": "guesthouse",
    "don't care": "dontcare",
    "do n't care": "dontcare",
    "dont care": "dontcare",
    "any": "dontcare",
    "moderately priced": "moderate",
    "moderately": "moderate",
}
_EDGE_PUNCT = " \t\n.,;:!?\"'()[]{}"

NUMBER_WORDS = {
    "no": 0, "none": 0, "zero": 0, "one": 1, "a single": 1, "single": 1, "two": 2, "a couple": 2,
    "couple": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50,
}


def fold(text: str) -> str:
    """Unicode-fold and lower-case, keeping every character position-aligned where possible."""
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    return text.lower()


def fold_aligned(text: str) -> str:
    """Like :func:`fold` but guaranteed to keep length, so offsets into it are offsets into ``text``."""
    out = text.translate(_DASHES).translate(_QUOTES).lower()
    return out if len(out) == len(text) else text.translate(_DASHES).translate(_QUOTES)


def normalize(value: str) -> str:
    """Canonical comparison key of a slot value: folded, trimmed, single-spaced, synonyms merged."""
    text = fold(value).strip(_EDGE_PUNCT)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.!?'])", r"\1", text)  # MultiWOZ tokenised text: "restaurant ,"
    text = _SYNONYMS.get(text, text)
    text = re.sub(r"\bcentre\b", "center", text)
    return text


def parse_amount(text: str) -> int | None:
    """An amount written as digits or an English number word; ``None`` when it is neither."""
    key = normalize(text)
    if key.isdigit():
        return int(key)
    if key in NUMBER_WORDS:
        return NUMBER_WORDS[key]
    parts = key.replace("-", " ").split()
    if len(parts) == 2 and parts[0] in NUMBER_WORDS and parts[1] in NUMBER_WORDS:
        tens, units = NUMBER_WORDS[parts[0]], NUMBER_WORDS[parts[1]]
        if tens >= 20 and tens % 10 == 0 and units < 10:
            return tens + units
    return None
