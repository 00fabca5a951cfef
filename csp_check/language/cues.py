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
  ("over 70", read as 70; "1,200 hotels" as 1200). Not counts: clock times, prices, decimals, ordinals, years,
  and numbers of units ("2 people", "4 stars", "0 layovers", "3 days", "2 bed rooms").
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
from functools import lru_cache
from typing import Iterator

from csp_check.models import Span
from csp_check.language.normalize import NUMBER_WORDS, fold_aligned

#: Words after a number that make it a measure, not a count of KB entities.
UNITS = frozenset(
    """people person persons adult adults guest guests passenger passengers traveler travelers traveller
    travellers rider riders seat seats ticket tickets star stars stop stops layover layovers transfer
    transfers bag bags bed beds bedroom bedrooms bath baths bathroom bathrooms room rooms night nights week weeks month months year years hour hours hr hrs minute minutes min mins second seconds am pm
    a.m. p.m. o'clock dollars dollar bucks usd percent mile miles km kilometers kilometres pound pounds
    euro euros time times way st nd rd th kid kids child children floor floors""".split()
)
#: Words after a number that show it is no count ("one of them", "one called X", "2 at 7 pm").
NOT_NOUNS = frozenset(
    """of is are was were be called named that which who whom whose you your i we they he she it me us them
    at on in for to from by with and or but not more other another less than as so if the a an this these
    those there here what when where how do does did can could would will should may might must has have
    had am pm among though although however just only too also moment then now again yet out today tomorrow
    tonight""".split()
)
#: Words right before a number that make it a count even with no noun after it ("I found 3.").
FINDING = re.compile(
    r"(?:found|find|have|(?:i|we)'ve|got|see|saw|revealed|returned|shows?|showing|located|there\s+(?:are|is|were|was)|"
    r"here\s+(?:are|is)|there's|here's|there're|you've\s+got|i've\s+got|out\s+of)"
    r"(?:\s+(?:over|about|around|nearly|almost|approximately|roughly|exactly|only|just|some|a\s+total\s+of|"
    r"(?:no\s+|not\s+)?(?:more|fewer|less)\s+than|at\s+(?:least|most)|up\s+to|under|above|below|upwards\s+of|"
    r"in\s+excess\s+of|a\s+(?:minimum|maximum)\s+of))?\s+$"
)
#: Words right before a number that make it an attribute, not a count ("rated 4", "party of 3").
ATTRIBUTE = re.compile(r"(?:rating|rated|size|party|group|floor|number|table)(?:\s+(?:of|for|is|was))?\s+$")
_COUNT_WORDS = {w: n for w, n in NUMBER_WORDS.items() if w not in ("no", "none", "zero", "couple", "a couple")}
_NUMBER = re.compile(
    r"(?<![\w$£€.,:/#-])(?:\d{1,3}(?:,\d{3})+(?![.,]\d)|\d+|" + "|".join(sorted(map(re.escape, _COUNT_WORDS), key=len, reverse=True))
    + r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)(?![\w%$£€-])(?![.,:/]\d)"
)
_WORD = re.compile(r"\s+([a-z][a-z.'-]*)")
#: The unit word after a number, also when tokenised text puts a hyphen apart ("3 -star").
_UNIT_WORD = re.compile(r"\+?\s+-?\s*([a-z][a-z.'-]*)")  # "20+ hotels": a bound before its noun


def _numbers(folded: str, avoid: list[Span]) -> Iterator[tuple[re.Match[str], Span]]:
    """Each number (digits or a number word) of the folded text outside the ``avoid`` spans."""
    for match in _NUMBER.finditer(folded):
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
        after = _UNIT_WORD.match(folded, span.end)
        noun = after.group(1).strip(".'") if after else ""
        if noun in UNITS or (noun.endswith("'s") and noun[:-2] in UNITS):
            continue
        counted = bool(noun) and noun not in NOT_NOUNS and not ATTRIBUTE.search(before)
        if word in ("one", "single", "a single") and not (counted and FINDING.search(before)):
            continue  # "one of them", "one moment", "the one": only "I found one hotel" counts
        if counted or FINDING.search(before):
            out.append(span)
    return out


# -- amounts said as bounds ("over 70", "at least 3", "up to 5", "3 or more") -----------------
#: Words before a number that make it a bound on the KB count, and the comparison they state:
#: the count ``op`` the number. Longer phrases first ("no more than" is no "more than").
_BOUND_BEFORE = (
    ("no more than", "<="), ("not more than", "<="), ("no fewer than", ">="), ("no less than", ">="),
    ("not less than", ">="), ("not fewer than", ">="), ("at least", ">="), ("a minimum of", ">="),
    ("minimum of", ">="), ("at most", "<="), ("up to", "<="), ("a maximum of", "<="), ("maximum of", "<="),
    ("more than", ">"), ("over", ">"), ("above", ">"), ("in excess of", ">"), ("upwards of", ">"),
    ("fewer than", "<"), ("less than", "<"), ("under", "<"), ("below", "<"),
)
_BOUND_BEFORE_RE = re.compile(
    r"(?<![\w'])(" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w, _ in _BOUND_BEFORE) + r")\s+$"
)
_BOUND_OPS = {w: op for w, op in _BOUND_BEFORE}
#: Spans of time after "over N": "over 3 days" is across them, not more than 3.
_SPREAD = re.compile(r"\s+(?:different\s+|separate\s+|consecutive\s+)?(?:days?|nights?|weeks?|weekends?|months?|years?|dates?)\b")
#: Words after a number (and its noun) that make it a bound: "3 or more", "10 hotels or fewer", "20+".
_BOUND_AFTER = re.compile(r"(?:\+|(?:\s+[a-z][a-z'-]*){0,2}?\s+or\s+(more|over|above|greater|fewer|less|under|below))(?![\w-])")


# -- amounts said as approximations ("about 70", "roughly a dozen", "40 or so") ----------------
#: Words before a number that make it approximate (spec §2: the count lies within
#: :func:`approx_tolerance` of it). Longer phrases first.
_HEDGES_BEFORE = ("in the region of", "in the neighborhood of", "in the neighbourhood of", "somewhere around",
                  "close to", "approximately", "approx.", "approx", "roughly", "around", "about", "nearly", "almost",
                  "circa", "some", "an estimated", "estimated")
_HEDGE_BEFORE_RE = re.compile(
    r"(?<![\w'])(" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in _HEDGES_BEFORE) + r")\s+$"
)
#: An approximation's words at the start of a span that holds the number too ("about 10 options").
_HEDGE_AT_START = re.compile(r"\s*(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in _HEDGES_BEFORE) + r")\s+\S")
#: Words after a number (and its noun) that make it approximate: "40 or so", "70 trains give or take", "30-ish".
_HEDGE_AFTER = re.compile(r"(?:-?ish\b|(?:\s+[a-z][a-z'-]*){0,2}?\s+(?:or\s+so|give\s+or\s+take|or\s+thereabouts)\b)")


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
    if (_HEDGE_AT_START.match(text) or _HEDGE_BEFORE_RE.search(folded[max(0, span.start - 24) : span.start])
            or _HEDGE_AFTER.match(folded, span.end)):
        return "~"
    inside = _BOUND_BEFORE_RE.search(re.sub(r"[\d\w-]+$", "", text)) if not text[:1].isdigit() else None
    before = inside or _BOUND_BEFORE_RE.search(folded[max(0, span.start - 24) : span.start])
    if before:
        words = re.sub(r"\s+", " ", before.group(1))
        if words == "over" and _SPREAD.match(folded, span.end):
            return "="  # "happening over 3 days": across them, no bound
        return _BOUND_OPS[words]
    after = _BOUND_AFTER.match(folded, span.end)
    if after:
        return ">=" if after.group(1) in (None, "more", "over", "above", "greater") else "<="
    return "="


def bound_number(text: str) -> str:
    """``text`` without its bound or approximation words in front ("over 200" → "200"; "at
    least five" → "five"; "about 70" → "70")."""
    folded = fold_aligned(text).strip()
    for words in [w for w, _ in _BOUND_BEFORE] + list(_HEDGES_BEFORE):
        if folded.startswith(words + " "):
            return folded[len(words) :].strip()
    return folded


# -- clock times said as bounds ("arrives by 10:30", "leaves after 17:00") ----------------------
_TIME_BOUND = re.compile(r"\b(after|later than|from|before|by|until|till|earlier than|no later than)\s*$")


def time_bound_op(utterance: str, span: Span) -> str | None:
    """The bound the words before a clock time at ``span`` state on an entity's time: ``">="``
    for "after 17:00" / "later than", ``"<="`` for "by 10:30" / "before" / "until" / "no later
    than"; ``None`` when the time is stated as it is ("it leaves at 10:11")."""
    m = _TIME_BOUND.search(fold_aligned(utterance[max(0, span.start - 20) : span.start]))
    if m is None:
        return None
    return ">=" if m.group(1) in ("after", "later than", "from") else "<="


# -- booleans --------------------------------------------------------------------------------
#: Slot-name words that say how a boolean slot is phrased, not what it is about.
_FRAME_WORDS = frozenset(
    "has have is are offers offer serves serve good for allowed allows welcome options option services service "
    "entry seating arrives ride flag".split()
)
_NEGATORS = re.compile(
    r"\b(?:not|no|never|without|minus|nor|neither|cannot|cant|isnt|doesnt|dont|arent|wont|don|doesn|isn|aren|didn|wasn|weren|hasn|haven|non|prohibited|forbidden|banned)\b"
    r"|n't\b|\bnon-?\w|\bun\w+(?:able|ed)\b"
)
#: A negator before these words says "either is fine", not "false" ("I don't mind a shared ride").
_INDIFFERENT = re.compile(r"\s*(?:mind|matter|care|preference|problem|issue|restriction|worries|concern)\b")
_EITHER = re.compile(r"\bor\s+not\b")
_CLAUSE_END = re.compile(r"[.;!?,:]|\b(?:but|and|however|although|while|though|if)\b")
BOOLEAN = ("true", "false")


@lru_cache(maxsize=1024)
def boolean_cue(slot: str) -> re.Pattern[str] | None:
    """The pattern of the words that express boolean ``slot`` in text, from its name.

    ``free_entry`` → "free"; ``has_live_music`` → "live music"; ``pets_allowed`` →
    "pet(s)"; ``is_redeye`` → "red-eye" / "redeye"; ``good_for_kids`` → "kid(s)". The name's
    frame words (has, is, allowed, …) are dropped, a plural ``s`` is optional, and a hyphen or
    space may split a long word. ``None`` when nothing is left.
    """
    words = [w for w in re.split(r"[_\s]+", slot.lower()) if w and w not in _FRAME_WORDS]
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
    synonyms = _CUE_SYNONYMS.get(" ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words))
    if synonyms:
        body = f"(?:{body}|{synonyms})"
    return re.compile(r"(?<![\w-])(?P<neg>non[-\s]?|un)?" + body + r"(?![\w])")


#: Other words for a boolean slot's cue (by the stems :func:`boolean_cue` keeps): the same
#: feature in everyday words ("smoke" for smoking, "children" for kids, "patio" for outdoor
#: seating, "furniture" for furnished, "internet" for wifi). Only words that name the feature
#: itself, so their negation negates it ("no furniture", "you can't smoke").
_CUE_SYNONYMS = {
    "kid": r"child(?:ren)?|famil(?:y|ies)",
    "smoking": r"smok(?:e|es|er|ers)",
    "outdoor": r"outside|patio|(?:on|at) the terrace",
    "furnished": r"furniture|furnishings?",
    "wifi": r"wi-fi|internet|wireless",
    "alcohol": r"alcoholic|liquor|booze",
    "vegetarian": r"veggie",
    "refundable": r"refund(?:s|ed)?",
    "live music": r"live\s+(?:band|bands|concerts?|performances?)",
}


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


#: MultiWOZ's yes/no hotel columns and the words that name them in text.
AMENITIES = {"internet": re.compile(r"(?<![\w-])(?:wi-?fi|wifi|internet|wireless(?: internet)?)(?![\w])"),
             "parking": re.compile(r"(?<![\w-])(?:parking|car park|place to park)(?![\w])")}


def sentence_of(utterance: str, span: Span) -> tuple[int, int]:
    """(start, end) of the sentence of ``utterance`` that holds ``span`` (ends at . ! ? or a tab)."""
    start = max((m.end() for m in re.finditer(r"[.!?\t]", utterance[: span.start])), default=0)
    tail = re.search(r"[.!?\t]", utterance[span.end :])
    return start, span.end + tail.start() if tail else len(utterance)


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


_ANSWER = re.compile(
    r"(?:(?:yes|yeah|yep|yup|no|nope|sorry|unfortunately|indeed|actually|sadly|luckily|fortunately)\b[ ,!]*)*"
    r"(?:(?:they|it|he|she|there|this|that|the \w+)(?:\s+|(?=')))?(?:do|does|did|is|are|was|were|has|have|can|will|'s|'re)"
    r"(?:\s*n't|\s+not)?\b|(?:yes|yeah|yep|yup|no|nope)\b"
)


def answer_span(utterance: str, previous: str, slot: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """A yes/no answer that states boolean ``slot`` without its words: the previous turn asks
    about the slot's cue ("Do they serve alcohol?") and this utterance opens with a short answer
    ("No, they do not.", "Yes, it is.", "Unfortunately they don't."); the span is the answer,
    read by :func:`read_boolean`. ``None`` otherwise."""
    pattern = boolean_cue(slot)
    if pattern is None or "?" not in previous or not pattern.search(fold_aligned(previous)):
        return None
    folded = fold_aligned(utterance)
    m = _ANSWER.match(folded)
    if m is None or not m.group(0).strip():
        return None
    end = len(m.group(0).rstrip(" ,"))
    rest = folded[end:]
    if not re.match(r"\s*(?:[.!]|$)", rest) and not re.match(r"\s*,", rest):
        return None  # "they are open until 10": more than an answer
    span = Span(start=0, end=end)
    return None if any(span.start < a.end and a.start < span.end for a in avoid) else span


#: The second of two coordinated nouns, right after the "and" / "or" that joins it to the first
#: (an article between at most: "parking and wifi", "wifi or any parking"); group 1 is the end
#: of the first noun.
_CONJOINED = re.compile(r"([\w-])\s+(?:and|or)\s+(?:(?:a|an|any)\s+)?$")


def _negation(folded: str, start: int, end: int) -> tuple[int, int] | str | None:
    """Offsets of the negator of the cue at [start, end): one of the six words before it in
    its clause, or one of the three after it ("pets are not allowed"); ``"indifferent"`` for
    "don't mind" / "no preference". A cue that is the second noun of a coordination ("does
    not have parking and wifi", "no wifi or parking") is under the negation of the first:
    the negator scopes over both nouns of "not have X and Y" (English reads it as "neither";
    with its own qualifier, "no parking and free wifi", it is a new phrase and is not)."""
    joined = _CONJOINED.search(folded, 0, start)
    if joined is not None:
        first_end = joined.end(1)
        first = re.search(r"[\w-]+$", folded[:first_end])
        if first is not None:
            inherited = _negation(folded, first.start(), first_end)
            if inherited is not None:
                return inherited
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(folded, 0, start)), default=0)
    tail = _CLAUSE_END.search(folded, end)
    stop = tail.start() if tail else len(folded)
    before = [(clause_start + w.start(), w.group(0)) for w in re.finditer(r"\S+", folded[clause_start:start])][-6:]
    after = [(end + w.start(), w.group(0)) for w in re.finditer(r"\S+", folded[end:stop])][:3]
    if _EITHER.search(folded[end:stop]):
        return "indifferent"  # "a shared ride or not"
    for offset, word in before + after:
        if (word in ("no", "nope") and folded[offset + len(word) : start].strip()
                and re.fullmatch(r"(?:.*[.!?]\s*)?\s*", folded[:offset], re.S)):
            continue  # "No I want it with subtitles": an answer; "No live music" negates the cue
        if _NEGATORS.search(word):
            if _INDIFFERENT.match(folded, offset + len(word)):
                return "indifferent"
            return offset, offset + len(word)
    return None


def read_boolean(text: str) -> str:
    """``"false"`` when the words state a negation, else ``"true"``."""
    return "false" if _NEGATORS.search(fold_aligned(text)) else "true"


# -- numbers of units (closed numeric slots: party size, stops, star rating) -------------------
_PEOPLE = frozenset("people person persons adult adults guest guests passenger passengers traveler travelers "
                    "rider riders seat seats ticket tickets".split())
_PEOPLE_SLOTS = frozenset("size party group passengers travelers riders adults seats tickets people guests".split())
_REJECTED = re.compile(r"(?:instead of|rather than|\bnot|\bno longer|\bchange from|\bfrom)\s+$")
#: English words for one unit: "1 stop" = "1 layover", "2 baths" = "2 bathrooms".
_UNIT_SYNONYMS = {
    "stop": ("layover", "connection", "transfer"), "layover": ("stop", "connection", "transfer"),
    "transfer": ("stop", "layover", "connection"), "bed": ("bedroom",), "bath": ("bathroom",),
    "bag": ("suitcase", "luggage"),
}
_AFTER_PARTY = frozenset("available please today tomorrow tonight next this".split())
#: Words before a bare number of people: "a table for 2", "get me 1", "the number of tickets is 3".
_PEOPLE_BEFORE = re.compile(r"(?:\bfor|\bparty of|\bgroup of|\bget me|\bbook|\bbuy|\breserve|\bneed|\bwant|\bare|\bis|"
                            r"\bmake it|\bto)\s+$")
_SLOT_FILLER = frozenset("number num of the in to for".split())


@lru_cache(maxsize=1024)
def unit_words(slot: str, description: str = "") -> tuple[frozenset[str], bool]:
    """(stems of the unit nouns that name ``slot``'s number, whether it counts people): the
    slot name's words and the noun after "number of" in its description ("Number of layovers
    in the flight" → layover)."""
    words = [w for w in re.split(r"[_\s]+", slot.lower()) if w and w not in _SLOT_FILLER]
    words += re.findall(r"\bnumber of (\w+)", description.lower())
    people = any(w in _PEOPLE_SLOTS for w in words)
    stems = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}
    stems |= {synonym for s in stems for synonym in _UNIT_SYNONYMS.get(s, ())}
    if people:
        stems |= {w[:-1] if w.endswith("s") else w for w in _PEOPLE}
    return frozenset(stems), people


def _names_unit(noun: str, stems: frozenset[str]) -> bool:
    stem = noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
    return bool(stem) and (stem in stems or any(len(s) >= 3 and stem.startswith(s) for s in stems))


def unit_after(utterance: str, span: Span) -> str:
    """The unit noun right after the number at ``span`` ("people" in "2 people"), or ``""``."""
    after = _WORD.match(fold_aligned(utterance), span.end)
    noun = after.group(1).strip(".'") if after else ""
    return noun if noun in UNITS or noun in _PEOPLE else ""


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
        if _REJECTED.search(folded[max(0, span.start - 16) : span.start]):
            continue  # "instead of two tickets you want 1"
        after = _UNIT_WORD.match(folded, span.end)
        noun = after.group(1).strip(".'") if after else ""
        second = _WORD.match(folded, after.end()) if after else None  # "1 bus ticket", "2 hotel rooms"
        nouns = [noun] + ([second.group(1).strip(".'")] if second and noun not in NOT_NOUNS | UNITS else [])
        if any(_names_unit(n, stems) for n in nouns):
            out.append(span)
        elif people and re.match(r"\s+of (?:us|you|them)\b", folded[span.end :]):
            out.append(span)  # "there's 1 of us"
        elif people and re.fullmatch(r"\s*(?:(?:just|only|yes|ok|okay|sure)[,!]?\s+)?", folded[: span.start]) and (
            not noun or noun == "please"
        ):
            out.append(span)  # the whole answer: "1 please", "Just 3"
        elif (people and (not noun or noun in NOT_NOUNS or noun in _AFTER_PARTY)
              and _PEOPLE_BEFORE.search(folded[max(0, span.start - 16) : span.start])
              and not re.match(r"\s*(?::\d|[ap]\.?m\b|o'clock)", folded[span.end :])):
            out.append(span)
    return out


#: Words that take back what was just said and give the value that holds now ("Actually, make
#: that 3 people", "on second thought, 4", "change it to 2", "2 tickets, no wait, 3").
_CORRECTION = re.compile(
    r"\b(?:actually|on second thought|make (?:that|it)|change (?:that|it|this) to|(?:no\s*,?\s*)?wait|rather|"
    r"instead|scratch that|i mean|correction)\b[^.!?]*$"
)


def introduced_as_correction(utterance: str, span: Span) -> bool:
    """Whether the words before ``span`` in its sentence take back an earlier value ("Actually,
    make that [3] people"): the value at ``span`` is the one the speaker settles on."""
    folded = fold_aligned(utterance)
    start = max((m.end() for m in re.finditer(r"[.!?]", folded[: span.start])), default=0)
    return start > 0 and bool(_CORRECTION.search(folded[start : span.start]))


#: Words right before a value that say it is the one being replaced: "6 tickets rather than
#: [one]", "instead of [Monday]", "not just [1]", "no longer [2]", "changed from [4]".
_REPLACED = re.compile(
    r"(?:\brather than|\binstead of|\bnot just|\bnot only|\bno longer|\b(?:chang|mov|switch)(?:e|ed|ing) (?:it )?from)"
    r"\s+(?:the\s+)?$"
)


def replaced_value(utterance: str, span: Span) -> bool:
    """Whether the value at ``span`` is named as the one given up ("I've changed your reservation
    for 6 tickets rather than [one]", "Tuesday instead of [Monday]"): the utterance states
    the other value, not this one, so this mention corefers with nothing (C2)."""
    folded = fold_aligned(utterance)
    return bool(_REPLACED.search(folded[max(0, span.start - 24) : span.start]))


def corrected(utterance: str, spans: list[Span]) -> Span | None:
    """Of several values of one slot in ``utterance`` (``spans`` in text order), the last one
    a correction introduces ("a table for 2. Actually, make that 3 people": the 3): a change
    of mind written in the text, which the state must then record. ``None`` when no later
    value is so introduced."""
    folded = fold_aligned(utterance)
    for i in range(len(spans) - 1, 0, -1):
        if _CORRECTION.search(folded[spans[i - 1].end : spans[i].start]):
            return spans[i]
    return None


# -- what a user states --------------------------------------------------------------------
_REJECTING = re.compile(
    r"(?:\bnot|\bno|n't|\bnever|instead of|rather than|other than|except|\bnor)\s+(?:[\w']+\s+){0,2}$"
)


#: A user sentence that asks for something (or asks a question).
_REQUEST = re.compile(
    r"\b(?:want|wanna|need|like|prefer|looking|look|find|search|book|reserve|play|get|show|go|give|make|rent|buy|"
    r"set|use|change|switch|rather|would|could|can|please|interested|about|maybe|perhaps|try|instead|let's|check|"
    r"choose|pick|select|opt|tell|how|what|which|where|when)\b", re.I
)
#: A user sentence about the entity offered ("That's pretty expensive"), not a request.
_DESCRIBING = re.compile(r"\s*(?:that|it|this|these|those)(?:'s|\s+is|\s+was|\s+are|\s+sounds|\s+seems)\b", re.I)


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
    if _REJECTING.search(folded[max(0, span.start - 30) : span.start]) or _DESCRIBING.match(_clause(utterance, span)):
        return False
    echoed = re.search(rf"(?<!\w){re.escape(folded[span.start : span.end])}(?!\w)", fold_aligned(previous))
    if not echoed or _REQUEST.search(_sentence(utterance, span)):
        return True
    # an answer to the system's choice question ("Checking or savings account?" → "Savings.",
    # "Start with my checking account"): the echo is the user's pick
    return bool(re.search(r"\bor\b[^.!?]*\?", fold_aligned(previous)))


#: The whole city as the place a statement is about, said outside any annotated span ("colleges
#: in Cambridge would be a good bet", "the best museum in town", "all over town"); not the city
#: centre ("in the city centre", "in town centre") nor the start of a name ("in Cambridge
#: Belfry", which is a span).
_WHOLE_CITY_WORDS = re.compile(
    r"\b(?:in|around|across|throughout|anywhere in|everywhere in|all over|all around)\s+(?:all\s+of\s+)?"
    r"(?:cambridge|town|the\s+city|the\s+town|the\s+whole\s+(?:city|town))\b(?!\s*(?:'s\s+)?(?:cent(?:re|er)|area|-))",
    re.IGNORECASE,
)


def whole_city_span(utterance: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """The words that place a statement in the whole city ("in Cambridge", "in town", "all over
    town"; :data:`_WHOLE_CITY_WORDS`), outside the spans ``avoid`` (names such as "Cambridge
    Belfry" are spans); ``None`` when there are none."""
    for m in _WHOLE_CITY_WORDS.finditer(utterance):
        if not any(m.start() < a.end and a.start < m.end() for a in avoid):
            return Span(start=m.start(), end=m.end())
    return None
