"""What S1 and S2 share: their instance type (:class:`RecordedValuesInstance`) and the reading
of a user's mention against the annotation's record.

S1 (:mod:`csp_check.families.s1_annotation_text`) and S2 (:mod:`csp_check.families.s2_ruled_out`)
hold a spanned user ``inform`` (:func:`user_mentions`) to the values the belief state or a call
records for it; both compare the user's words with the forms of a recorded value
(:func:`recorded_forms`, :func:`same_meaning`) and skip words that refer instead of naming
(:data:`REFERRING`). Whether the user's words inform a value the state must hold (:func:`informs`,
:func:`names_both`) decides S1's omissions and the annotation faults that drop a value
(:func:`csp_check.faults.annotation.inject_annotation`), which read it here too.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict

from pydantic import Field

from csp_check.corpora.shared import BOUND_SLOTS
from csp_check.delexicalize.assignment import Lexicon
from csp_check.language.cues import introduced_as_correction
from csp_check.language.dates import resolve_dates
from csp_check.language.lexicon import literal
from csp_check.language.normalize import NUMBER_WORDS, clock_time, normalize, parse_amount
from csp_check.models import ActRole, Constraint, Dialogue, Span, Value, Variable, VariableKind


class RecordedValuesInstance(Constraint):
    """An S1 / S2 instance: ``variables=[x]`` (what the user's text says) against ``values``,
    the forms of the value the annotation records for it (belief-state alternatives, or a service
    call's argument); ``record`` says which annotation, ``turn`` the turn whose state / call
    records it. S1: x ∈ ``values`` (an omission: ``values`` empty); S2: x ∉ ``values``."""

    slot_type: str
    values: list[str] = Field(default_factory=list, description="the annotation's fixed values")
    record: str | None = Field(None, description="which annotation records them (belief state, a call, …)")


def recorded_forms(lexicon: Lexicon, slot_type: str, alternatives: list[str]) -> set[str]:
    """The canonical values the recorded ``alternatives`` (surface forms of one value) stand
    for, plus their normalised text: the values a user variable may take under S1."""
    forms: set[str] = set()
    for a in alternatives:
        forms |= lexicon.lookup(slot_type, a) | {normalize(a)}
        if lexicon.today is not None and "date" in slot_type.rpartition(".")[2]:
            forms |= _day_named(a, lexicon.today)  # "3rd of March", "tomorrow": the ISO day
    for form in list(forms):  # "1" / "one": a number in digits or words ("for one person")
        n = parse_amount(form)
        if n is not None:
            forms |= {str(n)} | set(_NAMES_OF.get(n, ()))
    return forms


#: Amount → its number words, in :data:`~csp_check.language.normalize.NUMBER_WORDS` order ("1" → one, a single, …).
_NAMES_OF = {n: tuple(w for w, m in NUMBER_WORDS.items() if m == n) for n in set(NUMBER_WORDS.values())}


def _day_named(text: str, today) -> set[str]:  # type: ignore[no-untyped-def]
    """The ISO day ``text`` names from ``today`` ("the 3rd of March", "tomorrow"), as a set of
    at most one (:func:`csp_check.language.dates.resolve_dates`)."""
    named = resolve_dates(text, today)
    return {named[0].isoformat()} if len(named) == 1 else set()


#: Span text that refers instead of naming ("the same day", "same group of people", "the
#: places"): what it stands for is not in the words, so there is nothing to hold the state to.
REFERRING = re.compile(r"\b(?:same|that|this|those|these|it|there|them|places?|one)\b")
#: Bounds (MultiWOZ leaveAt / arriveBy): "after 19:45" is kept by a state of 20:00.
_BOUND = re.compile(r"^(?P<op>after|later than|from|past|before|by|earlier than|no later than|until|prior to)\s+(?P<t>.+)$")
_FILLER = frozenset({"the", "a", "an", "of", "from", "restaurant", "hotel", "guesthouse", "college", "museum", "cafe"})


#: Words that give a clock time its half of the day.
PERIOD = re.compile(r"\b(?:am|pm|a\.m|p\.m|morning|evening|afternoon|night|noon|midnight)\b")


@functools.lru_cache(maxsize=1 << 14)
def same_meaning(said: str, recorded: str, slot: str = "", twelve_hour: bool = True) -> bool:
    """Whether the user's wording ``said`` names the recorded value ``recorded`` (both
    normalised): one word form of the other ("southern" / "southside" / "south", "colleges" /
    "college", "cheaply" / "cheap", "nightclub" / "night club", "4-stars" / "4"), or for a bound
    slot a time within the bound ("after 19:45" / "20:00"). Digits compare exactly. A time said
    without a period ("3:30") may be on the 12-hour clock (15:30) unless ``twelve_hour`` is false
    (the user's words gave the period: "half past 11 in the morning"). Memoised: S1 compares
    the same wordings and recorded forms at every turn that keeps them."""
    a, b = re.sub(r"[^a-z0-9]", "", said), re.sub(r"[^a-z0-9]", "", recorded)
    if not a or not b:
        return False
    if a == b:
        return True
    words_a, words_b = set(said.split()) - _FILLER, set(recorded.split()) - _FILLER
    if words_a and words_a == words_b and not (a.isdigit() or b.isdigit()):
        return True  # "shiraz restaurant" / "shiraz": the same words but for generic ones
    glued = re.match(r"(\d{1,2}:\d\d)(?![\d:])", said)  # "16:15.get", "12:15on": text glued to a time
    said_time = clock_time(said) or (clock_time(glued[1]) if glued else None)  # "7:30 in the evening": 19:30
    if said_time and re.fullmatch(r"\d\d:\d\d", recorded):
        h, m = said_time.split(":")
        twelve = twelve_hour and not PERIOD.search(said)
        if said_time == recorded or (twelve and int(h) < 12 and f"{int(h) + 12:02d}:{m}" == recorded):
            return True  # "leave by 3:30" on the 12-hour clock is 15:30
    star = re.fullmatch(r"(\d+)stars?", a)
    if star and star[1] == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and not short.isdigit() and long_.startswith(short) and len(long_) - len(short) <= 4:
        return True
    if slot in BOUND_SLOTS:
        bound, value = _BOUND.match(said), clock_time(recorded) or recorded
        t = clock_time(bound["t"]) if bound else None
        if t and bound and re.fullmatch(r"\d\d:\d\d", value):
            later = bound["op"] in ("after", "later than", "from", "past")
            return value >= t if later else value <= t
    return False


@functools.lru_cache(maxsize=1024)
def masked(utterance: str, spans: tuple[tuple[int, int], ...]) -> str:
    """``utterance`` with the text of each ``(start, end)`` span (character offsets) replaced by
    ``" | "``, normalised; memoised, as every variable of a turn masks the turn's same spans."""
    rest = utterance
    for start, end in sorted(spans, key=lambda sp: -sp[0]):
        rest = rest[:start] + " | " + rest[end:]
    return normalize(rest)


_CAPITALISED_NEXT = re.compile(r" [A-Z][a-z]")


def names_both(utterance: str, v: Variable, forms: set[str], spans: list[Span]) -> bool:
    """Whether the utterance leaves open which value the user means: it offers a choice at the
    span ("10:15 or 9:15"), the span is part of a longer name ("the Cambridge Artworks"), or it
    also writes the recorded value elsewhere ("for 4 ... 2 star rating" with stars=2)."""
    assert v.span is not None
    before, after = utterance[: v.span.start].lower(), utterance[v.span.end :]
    if before.rstrip().endswith(" or") or after.lower().lstrip().startswith("or "):
        return True
    if _CAPITALISED_NEXT.match(after) and utterance[v.span.start : v.span.start + 1].isupper():
        return True
    if introduced_as_correction(utterance, v.span):
        return False  # "for 2. Actually, make that 3 people": the 2 is taken back, the 3 holds
    rest = masked(utterance, tuple((sp.start, sp.end) for sp in spans))  # text other variables stand for is theirs
    written = [f for f in forms if f != "dontcare" and f not in NUMBER_WORDS]  # not "one" in "that one"
    return any(f in rest and literal(f, r"\w:").search(rest) for f in written)


def user_mentions(variables: list[Variable], assignment: dict[str, Value]) -> list[Variable]:
    """Explicit user inform slot variables, less those of a turn naming two values of one slot."""
    candidates = [
        v for v in variables
        if v.speaker == "user" and v.role is ActRole.INFORM and v.kind is VariableKind.SLOT and v.span is not None
    ]
    said: dict[tuple[int, str], set[Value]] = defaultdict(set)
    for v in candidates:
        said[(v.turn, v.slot_type)].add(assignment[v.name])
    return [v for v in candidates if len(said[(v.turn, v.slot_type)]) == 1]


#: Words before a span that negate it ("not in the north", "anything but Italian", "other than",
#: "no Italian"); a leading "No," answers the system and negates nothing.
_NEGATED = re.compile(
    r"(?:\b(?:not|never|without|except|besides|anything but|other than|rather than|instead of)|n't)"
    r"(?:\s+\w+){0,3}\s*$|\bno(?:\s+\w+)?\s*$"
)
#: Wordings of ``dontcare`` as the whole span ("any", "any part of town", "doesn't matter", "no
#: preference"): no value to record. Not a title that contains such a word ("Say Anything").
_DONTCARE = re.compile(
    r"^(?:(?:any|anything|anywhere|whatever|either)(?:\s+\w+){0,3}|not important|(?:i )?do ?n ?'?t care"
    r"|(?:it )?does ?n ?'?t matter|no (?:particular )?preference|do ?n ?'?t mind)$"
)
#: A yes/no question about an entity's attribute ("Is the Lensfield a 4 star hotel?", "Does it
#: have free wifi?", "Do either of them have 4 stars?"): it asks, it does not constrain. Not
#: a search ("is there", "do you have any", "is it possible to").
_ASKS_WHETHER = re.compile(r"(?:^|, )(?:is|are|does|do|has|have|was|were)\b(?!\s+(?:there|you|is|it possible|any)\b)")
#: A value given as a fallback, after the first choice fails ("if the booking fails how about
#: 12:30", "if not, ...", "otherwise"); not a condition the user sets ("only if it leaves on
#: Thursday").
_CONDITIONAL = re.compile(
    r"\bif (?:that |this |it |there |the \w+ )?(?:fails|not|(?:is|'s|was) (?:not|n't)|isn't|does ?n ?'?t|can ?n ?'?t"
    r"|cannot|(?:is |'s )?(?:full|unavailable|booked))(?!\w)|\b(?:otherwise|alternatively)\b"
)
#: A name used to place something else ("a restaurant near the Cityroomz", "a taxi to Cotto").
_PLACES = re.compile(r"\b(?:near|close to|next to|around|from|to|between|by|and)(?:\s+the)?\s*$")
#: Asking to book or choosing: a name so given is the entity the user wants.
_CHOOSES = re.compile(
    r"\b(?:book|booking|reserve|reservation|table at|room at|sounds (?:good|great|nice|fine|perfect|lovely|wonderful)"
    r"|is fine|is perfect|will do|i 'll take|i'll take|go with)\b"
)
#: Slots every bookable domain has: a sentence that also informs another domain leaves open
#: which one the value is for (an act annotation may name the wrong one).
SHARED_SLOTS = frozenset({"book people", "book day", "book time", "book stay", "day"})
SENTENCE = re.compile(r"(?<=[.?!])\s+")


def informs(dialogue: Dialogue, v: Variable, said: Value, spans: list[Span]) -> bool:
    """Whether the words of the user's span ``v`` (reading ``said``) give a value the belief
    state must hold, so that its absence is an omission (S1,
    :mod:`csp_check.families.s1_annotation_text`): not ``dontcare`` in any wording, not
    referring ("same day"), not negated ("not in the north"), not a choice ("10:15 or 9:15"),
    not inside a yes/no question about an entity ("Is the Lensfield a 4 star
    hotel?"), not a fallback ("if it fails, 12:30"), not a name the user only asks about, uses
    to place something else ("near the Cotto") or names with another ("Churchill and Magdalene
    Colleges"), and not the generic word "hotel" for the hotel type unless the user sets it
    against a guesthouse. ``spans``: every variable's span in the turn."""
    assert v.span is not None
    utterance = dialogue.turns[v.turn].utterance
    text = normalize(v.text or "")
    before = utterance[: v.span.start].lower()
    if (not isinstance(said, str) or said == "dontcare" or REFERRING.search(text) or _DONTCARE.match(text)
            or _NEGATED.search(before) or names_both(utterance, v, set(), spans)):
        return False
    start = 0
    for sentence in SENTENCE.split(utterance):
        start = utterance.index(sentence, start)
        if start + len(sentence) >= v.span.end:
            break
        start += len(sentence)
    lead = utterance[start : v.span.start].lower()
    sentence_text = sentence.lower().strip()
    if _ASKS_WHETHER.search(lead) or _CONDITIONAL.search(lead) or text in ("yes", "no"):
        return False  # "yes" / "no" alone answers; it does not name the slot
    end = start + len(sentence)
    if v.slot in SHARED_SLOTS and any(
        a.domain != v.domain and a.span is not None and start <= a.span.start < end
        for a in dialogue.turns[v.turn].acts if a.role is ActRole.INFORM
    ):
        return False  # "book the anatolia for 2 people on Saturday": which domain's booking is it?
    if v.slot == "type" and v.domain == "hotel" and said == "hotel":
        return bool(re.search(r"guest ?house", utterance.lower()))
    if v.slot == "name":
        asks = any(a.role is ActRole.REQUEST and a.domain == v.domain for a in dialogue.turns[v.turn].acts)
        after = utterance[v.span.end :].lower()
        if _PLACES.search(lead) or after.lstrip().startswith("and ") or re.search(r"\bboth\b", lead):
            return False
        if not _CHOOSES.search(sentence_text) and (asks or "?" in sentence_text):
            return False
    return True
