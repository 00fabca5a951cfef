"""Finding a variable's words in the text by what they are, not by the annotated value (spec §9).

Two kinds of annotated value often have no span of their own (SGD): an amount of KB instances
(``INFORM_COUNT``) and a categorical slot's value, booleans above all (``free_entry``,
``has_live_music``). Searching the utterance for the *annotated* value finds nothing when a
generator wrote something else ("I found 12 hotels" where the act says 10; "this museum is
free" where the act says False), and the variable would silently take the annotation's value.
So we locate these words by their form instead, and the assignment reads their value from the
text.

Reading rules

- :func:`count_spans`: numbers that count entities: digits or number words followed by a noun
  that is not a unit ("12 hotels", "five options", "1 flight"), or after a verb of finding
  ("I found 3", "there are 10", "I have 4 for you"), with an optional qualifier in front
  ("over 70", read as 70; "1,200 hotels" as 1200), also "came up with 3", "among the 4", "the
  first of 6", "a total of 5". Not counts: clock times, prices, decimals, ordinals, years,
  numbers of units ("2 people", "4 stars", "0 layovers", "3 days", "2 bed rooms"), and the numbers
  of a rating on a scale ("87 out of 100", "4/5": both numbers; "3 out of 10 hotels" still counts
  its 10).
- :func:`boolean_cue` / :func:`boolean_span` / :func:`read_boolean`: for a True/False slot, its
  cue words derived from the slot name (``free_entry`` → "free", ``has_live_music`` → "live
  music", ``pets_allowed`` → "pet") and the negation around them ("not free", "no live music",
  "pets are not allowed") give the value the text states.
- :func:`amount_op` / :func:`approx_tolerance`: an amount said as a bound ("over 70", "at
  least 3", "fewer than 4", "up to 5") or hedged ("about 70", "around 40", "roughly a dozen", "40
  or so": a range, the count within a quarter of the amount, rounded up, at least 1); "half a
  dozen" is 6; "a couple of" is vague by choice (no count). :func:`time_bound_op`: "after 17:00"
  is ``>=``, "by 10:30" / "before" / "until" ``<=``.
- :func:`measure_spans`: a closed numeric slot by its unit ("1 stop" / "1 layover", "a table for
  2", unit nouns from the slot name and its schema description); :func:`answer_span`: a short
  yes/no answer ("No, they do not.") to a question about a boolean slot's cue.
- :func:`replaced_value`: a value named as the one given up ("6 tickets rather than one",
  "instead of Monday") refers to nothing; :func:`corrected`: "a table for 2. Actually, make that
  3 people" settles on the 3.
- :func:`user_states`: a value in a user turn is asked for unless rejected by the words before
  it ("not on TV"), said of the offer ("That's pretty expensive") or an echo outside a request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from csp_check.language.cue_words import (  # noqa: F401  (re-exported)
    AFTER_PARTY,
    AMENITIES,
    ANSWER,
    ATTRIBUTE,
    BOOLEAN,
    BOUND_AFTER,
    BOUND_BEFORE,
    BOUND_OPS,
    BOUND_PHRASES,
    CLAUSE_END,
    CONJOINED,
    CORRECTION,
    CUE_SYNONYMS,
    DESCRIBING,
    EITHER,
    FINDING,
    FRAME_WORDS,
    HEDGE_AFTER,
    HEDGE_AT_START,
    HEDGE_BEFORE,
    HEDGES,
    INDIFFERENT,
    NEGATORS,
    NOT_NOUNS,
    NUMBER,
    PEOPLE,
    PEOPLE_BEFORE,
    PEOPLE_SLOTS,
    REJECTED,
    REJECTING,
    REPLACED,
    REQUEST,
    SCALE_AFTER,
    SCALE_BEFORE,
    SLOT_FILLER,
    SPREAD,
    TIME_BOUND,
    UNIT_SYNONYMS,
    UNIT_WORD,
    UNITS,
    WHOLE_CITY_WORDS,
    WORD,
)
from csp_check.language.normalize import fold_aligned
from csp_check.models import Span


def _numbers(folded: str, avoid: list[Span]) -> Iterator[tuple[re.Match[str], Span]]:
    """Each number (digits or a number word) of the folded text outside the ``avoid`` spans."""
    for match in NUMBER.finditer(folded):
        span = Span(start=match.start(), end=match.end())
        if not any(span.start < a.end and a.start < span.end for a in avoid):
            yield match, span


def count_spans(utterance: str, avoid: list[Span] = ()) -> list[Span]:  # type: ignore[assignment]
    """Spans of the numbers in ``utterance`` that count entities, in text order.

    ``avoid``: spans of other variables (times, prices, names): a number inside one is not a
    count. The span covers the number alone ("70" of "over 70"); a 4-digit number from 1900 to
    2099 is a year, not a count.
    """
    folded = fold_aligned(utterance)
    out = []
    for match, span in _numbers(folded, avoid):
        word = match.group(0)
        if word.isdigit() and len(word) == 4 and 1900 <= int(word) <= 2099:
            continue
        if "," in word and re.match(r"\s+[A-Z0-9]", utterance[span.end :]):
            continue  # "1,000 Main Street": a house number before a name, no count
        before = folded[max(0, span.start - 40) : span.start]
        after = UNIT_WORD.match(folded, span.end)
        noun = after.group(1).strip(".'") if after else ""
        if noun in UNITS or (noun.endswith("'s") and noun[:-2] in UNITS):
            continue
        counted = bool(noun) and noun not in NOT_NOUNS and not ATTRIBUTE.search(before)
        if SCALE_AFTER.match(folded, span.end) or SCALE_BEFORE.search(before) and not (counted and noun.endswith("s")):
            continue  # "87 out of 100", "4/5": a rating on a scale, no count
        if word in ("one", "single", "a single") and not (counted and FINDING.search(before)):
            continue  # "one of them", "one moment", "the one": only "I found one hotel" counts
        if counted or FINDING.search(before):
            out.append(span)
    return out


def approx_tolerance(amount: int) -> int:
    """How far the KB count may lie from an approximate amount ``amount`` ("about 70"): a
    quarter of it, rounded up, and at least 1 ("about 70": 52..88; "about 4": 3..5; "roughly a
    dozen": 9..15). A hedged count is a range, neither exact nor unchecked (spec §2, C6)."""
    return max(1, -(-amount // 4))


def amount_op(utterance: str, span: Span) -> str:
    """How the KB count compares with the amount at ``span`` of ``utterance`` (spec §2, C6):
    ``">"`` for "over 70" / "more than 70", ``">="`` for "at least 3" / "3 or more", ``"<"`` for
    "fewer than 4" / "under 4", ``"<="`` for "up to 5" / "at most 5" / "5 or fewer", ``"~"``
    for an approximation ("about 70", "around 40", "roughly a dozen", "40 or so": within
    :func:`approx_tolerance`), else ``"="``.
    The bound words may be inside the span ("over 200") or right before or after it."""
    folded = fold_aligned(utterance)
    text = folded[span.start : span.end]
    if (HEDGE_AT_START.match(text) or HEDGE_BEFORE.search(folded[max(0, span.start - 24) : span.start])
            or HEDGE_AFTER.match(folded, span.end)):
        return "~"
    inside = BOUND_BEFORE.search(re.sub(r"[\d\w-]+$", "", text)) if not text[:1].isdigit() else None
    before = inside or BOUND_BEFORE.search(folded[max(0, span.start - 24) : span.start])
    if before:
        words = re.sub(r"\s+", " ", before.group(1))
        if words == "over" and SPREAD.match(folded, span.end):
            return "="  # "happening over 3 days": across them, no bound
        return BOUND_OPS[words]
    after = BOUND_AFTER.match(folded, span.end)
    if after:
        return ">=" if after.group(1) in (None, "more", "over", "above", "greater") else "<="
    return "="


def bound_number(text: str) -> str:
    """``text`` without its bound or approximation words in front ("over 200" → "200"; "at
    least five" → "five"; "about 70" → "70")."""
    folded = fold_aligned(text).strip()
    for words in [w for w, _ in BOUND_PHRASES] + list(HEDGES):
        if folded.startswith(words + " "):
            return folded[len(words) :].strip()
    return folded


def time_bound_op(utterance: str, span: Span) -> str | None:
    """The bound the words before a clock time at ``span`` state on an entity's time: ``">="``
    for "after 17:00" / "later than", ``"<="`` for "by 10:30" / "before" / "until" / "no later
    than"; ``None`` when the time is stated as it is ("it leaves at 10:11")."""
    m = TIME_BOUND.search(fold_aligned(utterance[max(0, span.start - 20) : span.start]))
    if m is None:
        return None
    return ">=" if m.group(1) in ("after", "later than", "from") else "<="


@lru_cache(maxsize=1024)
def boolean_cue(slot: str) -> re.Pattern[str] | None:
    """The pattern of the words that express boolean ``slot`` in text, from its name.

    ``free_entry`` → "free"; ``has_live_music`` → "live music"; ``pets_allowed`` →
    "pet(s)"; ``is_redeye`` → "red-eye" / "redeye"; ``good_for_kids`` → "kid(s)". The name's
    frame words (has, is, allowed, …) are dropped, a plural ``s`` is optional, and a hyphen or
    space may split a long word. ``None`` when nothing is left.
    """
    words = [w for w in re.split(r"[_\s]+", slot.lower()) if w and w not in FRAME_WORDS]
    if not words:
        return None
    parts = []
    for word in words:
        stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
        if len(stem) >= 6:  # "redeye" ~ "red-eye", "wifi" stays whole
            body = "".join(re.escape(c) + ("[-\\s]?" if 2 <= i < len(stem) - 2 else "") for i, c in enumerate(stem))
        else:
            body = re.escape(stem)
        parts.append(body + r"(?:s|es)?")
    body = r"[\s-]+".join(parts)
    synonyms = CUE_SYNONYMS.get(" ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words))
    if synonyms:
        body = f"(?:{body}|{synonyms})"
    return re.compile(r"(?<![\w-])(?P<neg>non[-\s]?|un)?" + body + r"(?![\w])")


def boolean_span(utterance: str, slot: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """The words of ``utterance`` that state boolean ``slot``: its cue with the negation next to
    it in its clause ("not free", "no live music", "non refundable", "pets are not allowed");
    ``None`` when the cue is not there or the clause says either value is fine ("I don't mind
    a shared ride"). The span runs from the negator to the cue, whichever comes first."""
    pattern = boolean_cue(slot)
    if pattern is None:
        return None
    folded = fold_aligned(utterance)
    for match in pattern.finditer(folded):
        span = Span(start=match.start(), end=match.end())
        if any(span.start < a.end and a.start < span.end for a in avoid):
            continue
        start, end = span.start, span.end
        negation = (start, match.end("neg")) if match.group("neg") else _negation(folded, start, end)
        if negation == "indifferent":
            return None
        if negation is not None:
            start, end = min(start, negation[0]), max(end, negation[1])
        return Span(start=start, end=end)
    return None


_SENTENCE_END = re.compile(r"[.!?\t]")
_FULL_STOP = re.compile(r"[.!?]")


def sentence_of(utterance: str, span: Span) -> tuple[int, int]:
    """(start, end) of the sentence of ``utterance`` that holds ``span`` (ends at . ! ? or a tab)."""
    start = max((m.end() for m in _SENTENCE_END.finditer(utterance, 0, span.start)), default=0)
    tail = _SENTENCE_END.search(utterance, span.end)
    return start, tail.start() if tail else len(utterance)


def amenity_span(utterance: str, slot: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """The words of ``utterance`` that state a yes/no amenity (MultiWOZ ``internet`` /
    ``parking``): "free wifi", "no parking", "does n't have internet"; the span runs from the
    negator, if any, to the cue (as :func:`boolean_span`). ``None`` when the cue is not there or
    the clause says either is fine."""
    pattern = AMENITIES.get(slot)
    if pattern is None:
        return None
    folded = fold_aligned(utterance)
    for match in pattern.finditer(folded):
        start, end = match.start(), match.end()
        if any(start < a.end and a.start < end for a in avoid):
            continue
        negation = _negation(folded, start, end)
        if negation == "indifferent":
            return None
        if folded[max(0, start - 5) : start] == "free ":
            start -= 5  # "free wifi"
        if negation is not None:
            start, end = min(start, negation[0]), max(end, negation[1])
        return Span(start=start, end=end)
    return None


def answer_span(utterance: str, previous: str, slot: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """A yes/no answer that states boolean ``slot`` without its words: the previous turn asks
    about the slot's cue ("Do they serve alcohol?") and this utterance opens with a short answer
    ("No, they do not.", "Yes, it is.", "Unfortunately they don't."); the span is the answer,
    read by :func:`read_boolean`. ``None`` otherwise."""
    pattern = boolean_cue(slot)
    if pattern is None or "?" not in previous or not pattern.search(fold_aligned(previous)):
        return None
    folded = fold_aligned(utterance)
    m = ANSWER.match(folded)
    if m is None or not m.group(0).strip():
        return None
    end = len(m.group(0).rstrip(" ,"))
    rest = folded[end:]
    if not re.match(r"\s*(?:[.!]|$)", rest) and not re.match(r"\s*,", rest):
        return None  # "they are open until 10": more than an answer
    span = Span(start=0, end=end)
    return None if any(span.start < a.end and a.start < span.end for a in avoid) else span


def _negation(folded: str, start: int, end: int) -> tuple[int, int] | str | None:
    """Offsets of the negator of the cue at [start, end): one of the six words before it in
    its clause, or one of the three after it ("pets are not allowed"); ``"indifferent"`` for
    "don't mind" / "no preference". A cue that is the second noun of a coordination ("does
    not have parking and wifi", "no wifi or parking") is under the negation of the first:
    the negator scopes over both nouns of "not have X and Y" (English reads it as "neither";
    with its own qualifier, "no parking and free wifi", it is a new phrase and is not)."""
    joined = CONJOINED.search(folded, 0, start)
    if joined is not None:
        first_end = joined.end(1)
        first = re.search(r"[\w-]+$", folded[:first_end])
        if first is not None:
            inherited = _negation(folded, first.start(), first_end)
            if inherited is not None:
                return inherited
    clause_start = max((m.end() for m in CLAUSE_END.finditer(folded, 0, start)), default=0)
    tail = CLAUSE_END.search(folded, end)
    stop = tail.start() if tail else len(folded)
    before = [(clause_start + w.start(), w.group(0)) for w in re.finditer(r"\S+", folded[clause_start:start])][-6:]
    after = [(end + w.start(), w.group(0)) for w in re.finditer(r"\S+", folded[end:stop])][:3]
    if EITHER.search(folded[end:stop]):
        return "indifferent"  # "a shared ride or not"
    for offset, word in before + after:
        if (word in ("no", "nope") and folded[offset + len(word) : start].strip()
                and re.fullmatch(r"(?:.*[.!?]\s*)?\s*", folded[:offset], re.S)):
            continue  # "No I want it with subtitles": an answer; "No live music" negates the cue
        if NEGATORS.search(word):
            if INDIFFERENT.match(folded, offset + len(word)):
                return "indifferent"
            return offset, offset + len(word)
    return None


def read_boolean(text: str) -> str:
    """``"false"`` when the words state a negation, else ``"true"``."""
    return "false" if NEGATORS.search(fold_aligned(text)) else "true"


@lru_cache(maxsize=1024)
def unit_words(slot: str, description: str = "") -> tuple[frozenset[str], bool]:
    """(stems of the unit nouns that name ``slot``'s number, whether it counts people): the
    slot name's words and the noun after "number of" in its description ("Number of layovers
    in the flight" → layover)."""
    words = [w for w in re.split(r"[_\s]+", slot.lower()) if w and w not in SLOT_FILLER]
    words += re.findall(r"\bnumber of (\w+)", description.lower())
    people = any(w in PEOPLE_SLOTS for w in words)
    stems = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}
    stems |= {synonym for s in stems for synonym in UNIT_SYNONYMS.get(s, ())}
    if people:
        stems |= {w[:-1] if w.endswith("s") else w for w in PEOPLE}
    return frozenset(stems), people


def _names_unit(noun: str, stems: frozenset[str]) -> bool:
    stem = noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
    return bool(stem) and (stem in stems or any(len(s) >= 3 and stem.startswith(s) for s in stems))


def unit_after(utterance: str, span: Span) -> str:
    """The unit noun right after the number at ``span`` ("people" in "2 people"), or ``""``."""
    after = WORD.match(fold_aligned(utterance), span.end)
    noun = after.group(1).strip(".'") if after else ""
    return noun if noun in UNITS or noun in PEOPLE else ""


def measure_spans(
    utterance: str, slot: str, avoid: list[Span] = (), description: str = ""  # type: ignore[assignment]
) -> list[Span]:
    """The numbers in ``utterance`` that state closed numeric ``slot`` by its unit, in text
    order: a number before a noun named by the slot ("1 stop" for ``number_stops``, "4 star"
    for ``star_rating``, "2 baths" for ``number_of_baths``), or for a slot counting people a
    number before a people noun ("3 people", "2 tickets") or after "for" / "party of" / "get
    me" / "is" with no other noun after it ("a table for 2", "get me 1", not "for one table"). A number rejected in its
    sentence ("instead of two tickets", "not 4 people") is none. Each span covers the number."""
    stems, people = unit_words(slot, description)
    folded = fold_aligned(utterance)
    out = []
    for _match, span in _numbers(folded, avoid):
        if REJECTED.search(folded[max(0, span.start - 16) : span.start]):
            continue  # "instead of two tickets you want 1"
        after = UNIT_WORD.match(folded, span.end)
        noun = after.group(1).strip(".'") if after else ""
        second = WORD.match(folded, after.end()) if after else None  # "1 bus ticket", "2 hotel rooms"
        nouns = [noun] + ([second.group(1).strip(".'")] if second and noun not in NOT_NOUNS | UNITS else [])
        if any(_names_unit(n, stems) for n in nouns):
            out.append(span)
        elif people and re.match(r"\s+of (?:us|you|them)\b", folded[span.end :]):
            out.append(span)  # "there's 1 of us"
        elif people and re.fullmatch(r"\s*(?:(?:just|only|yes|ok|okay|sure)[,!]?\s+)?", folded[: span.start]) and (
            not noun or noun == "please"
        ):
            out.append(span)  # the whole answer: "1 please", "Just 3"
        elif (people and (not noun or noun in NOT_NOUNS or noun in AFTER_PARTY)
              and PEOPLE_BEFORE.search(folded[max(0, span.start - 16) : span.start])
              and not re.match(r"\s*(?::\d|[ap]\.?m\b|o'clock)", folded[span.end :])):
            out.append(span)
    return out


def introduced_as_correction(utterance: str, span: Span) -> bool:
    """Whether the words before ``span`` in its sentence take back an earlier value ("Actually,
    make that [3] people"): the value at ``span`` is the one the speaker settles on."""
    folded = fold_aligned(utterance)
    start = max((m.end() for m in _FULL_STOP.finditer(folded, 0, span.start)), default=0)
    return start > 0 and bool(CORRECTION.search(folded[start : span.start]))


def replaced_value(utterance: str, span: Span) -> bool:
    """Whether the value at ``span`` is named as the one given up ("I've changed your reservation
    for 6 tickets rather than [one]", "Tuesday instead of [Monday]"): the utterance states
    the other value, not this one, so this mention corefers with nothing (C2)."""
    folded = fold_aligned(utterance)
    return bool(REPLACED.search(folded[max(0, span.start - 24) : span.start]))


def corrected(utterance: str, spans: list[Span]) -> Span | None:
    """Of several values of one slot in ``utterance`` (``spans`` in text order), the last one
    a correction introduces ("a table for 2. Actually, make that 3 people": the 3): a change
    of mind written in the text, which the state must then record. ``None`` when no later
    value is so introduced."""
    folded = fold_aligned(utterance)
    for i in range(len(spans) - 1, 0, -1):
        if CORRECTION.search(folded[spans[i - 1].end : spans[i].start]):
            return spans[i]
    return None


def _clause(utterance: str, span: Span) -> str:
    """The clause of ``utterance`` around ``span`` (split at punctuation and "but" / "however")."""
    sentence_start = max(utterance.rfind(p, 0, span.start) for p in ".?!,;") + 1
    head = utterance[sentence_start : span.start]
    cut = max((m.end() for m in re.finditer(r"\b(?:but|however|though)\b", head, re.I)), default=0)
    return utterance[sentence_start + cut : span.end]


def _sentence(utterance: str, span: Span) -> str:
    """The sentence of ``utterance`` around ``span``."""
    start = max(utterance.rfind(p, 0, span.start) for p in ".?!") + 1
    ends = [e for e in (utterance.find(p, span.end) for p in ".?!") if e != -1]
    return utterance[start : min(ends) if ends else len(utterance)]


def user_states(utterance: str, span: Span, previous: str = "") -> bool:
    """Whether a value written at ``span`` of a user ``utterance`` is one the user asks for: not
    rejected by the words before it ("not on TV", "instead of Compact"), not in a clause
    describing the offer ("That's pretty expensive"), and not an echo of the ``previous``
    (system) turn outside a request ("You licked the TV?" after "… on the TV") unless that turn
    asked the user to choose ("Checking or savings account?" → "Savings.")."""
    folded = fold_aligned(utterance)
    if REJECTING.search(folded[max(0, span.start - 30) : span.start]) or DESCRIBING.match(_clause(utterance, span)):
        return False
    echoed = re.search(rf"(?<!\w){re.escape(folded[span.start : span.end])}(?!\w)", fold_aligned(previous))
    if not echoed or REQUEST.search(_sentence(utterance, span)):
        return True
    # an answer to the system's choice question ("Checking or savings account?" → "Savings.",
    # "Start with my checking account"): the echo is the user's pick
    return bool(re.search(r"\bor\b[^.!?]*\?", fold_aligned(previous)))


def whole_city_span(utterance: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """The words that place a statement in the whole city ("in Cambridge", "in town", "all over
    town"; :data:`~csp_check.language.cue_words.WHOLE_CITY_WORDS`), outside the spans ``avoid`` (names such as "Cambridge
    Belfry" are spans); ``None`` when there are none."""
    for m in WHOLE_CITY_WORDS.finditer(utterance):
        if not any(m.start() < a.end and a.start < m.end() for a in avoid):
            return Span(start=m.start(), end=m.end())
    return None
