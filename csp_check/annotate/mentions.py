"""Values found in an utterance (:class:`Found`), the filters that keep or drop them, and the acts
they become.

A found value is dropped when it is negated ("not a guesthouse"), offered as an alternative to
the domain noun ("a hotel or guesthouse"), one of several choices a system sentence offers
("north, south or centre?") or a repeated mention; :func:`to_act` gives a kept one its role.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from csp_check.annotate.lexicon import (
    ALTERNATIVE_WORDS,
    CLAUSE_WORDS,
    DIRECTIONS,
    ENTITY_COLUMNS,
    LINKED_NEGATIONS,
    LOOSE_WORDS,
    NEGATIONS,
    POSSESSIVES,
    RANGE_SLOTS,
    REJECTION_VERBS,
    REJECTIONS,
    REQUEST_NOUNS,
    REQUEST_WORDS,
    SENTENCE_END,
)
from csp_check.language.normalize import normalize
from csp_check.models import ActRole, DialogueAct, Span


@dataclass(frozen=True)
class Found:
    """A value or amount found in an utterance."""

    start: int  # token offsets in the doc
    end: int
    domain: str
    slot: str
    canonical: str
    amount: bool = False
    doubt: str | None = None  # why the reading is a guess (DialogueAct.doubt)


def to_act(f: Found, doc, utterance: str, speaker: str, negative: bool) -> DialogueAct:  # type: ignore[no-untyped-def]
    """The act of ``f`` with its span in ``utterance``: a count, a no-result value (``negative``:
    inside a no-result statement), a system's offered entity, else an inform."""
    span = doc[f.start : f.end]
    surface = utterance[span.start_char : span.end_char]
    if f.amount:
        role, act = ActRole.COUNT, "inform_count"
    elif negative:
        role, act = ActRole.NO_RESULT, "nooffer"
    elif speaker == "system" and f.slot in ENTITY_COLUMNS:
        role, act = ActRole.OFFER, "offer"
    else:
        role, act = ActRole.INFORM, "inform"
    return DialogueAct(
        role=role, act=act, domain=f.domain, slot=f.slot, value=surface, canonical=f.canonical,
        span=Span(start=span.start_char, end=span.end_char), doubt=f.doubt,
    )  # fmt: skip


def implicit(role: ActRole, act: str, domain: str, slot: str, value: str) -> DialogueAct:
    """An act the text implies without writing its value (no span: an implicit variable)."""
    return DialogueAct(role=role, act=act, domain=domain, slot=slot, value=value, canonical=value)


def first_mentions(doc, found: list[Found], speaker: str) -> list[Found]:  # type: ignore[no-untyped-def]
    """A value named again in one utterance is one mention ("a train to Cambridge … arrive in
    Cambridge by 16:30"): a user's repeats are dropped, and a system's repeats in a later
    sentence; an entity repeated within a list of three or more in one sentence of a system turn
    stays (a list "A, A or C" is C3's; "from X or to X?" is one entity)."""
    def sentence(i: int) -> int:
        return sum(1 for t in doc[:i] if t.text in SENTENCE_END)

    first: dict[tuple[str, str, str], int] = {}
    out = []
    for f in found:
        key = (f.domain, f.slot, normalize(f.canonical))
        if f.amount or key not in first:
            first.setdefault(key, f.start)
            out.append(f)
        elif (speaker == "system" and f.slot in ENTITY_COLUMNS and sentence(first[key]) == sentence(f.start)
              and sum(1 for g in found if g.slot == f.slot and sentence(g.start) == sentence(f.start)) >= 3):
            out.append(f)
    return out


def negated(doc, start: int, window: int = 4, negations: frozenset[str] = NEGATIONS,  # type: ignore[no-untyped-def]
            end: int | None = None) -> bool:
    """A negation among the ``window`` words before ``start`` in its clause ("not a guesthouse",
    "I don't want a guesthouse", "as opposed to a guesthouse", "rather than the east": "rather" and
    "instead" only with their :data:`LINKED_NEGATIONS` word), or a rejection right after the value
    (:func:`rejected_after`, from the value's ``end`` token where given: "a and b guest house does
    not meet your requirements"); the "not" of a fallback ("if not, then the centre") negates the
    first wish, not what follows it."""
    for tok in reversed(doc[max(0, start - window) : start]):
        if (tok.is_punct and tok.text != "-") or tok.lower_ in ("but", "and"):
            break
        if tok.lower_ in negations and not (tok.i > 0 and doc[tok.i - 1].lower_ == "if"):
            if tok.lower_ in LINKED_NEGATIONS and (tok.i + 1 >= len(doc) or doc[tok.i + 1].lower_ != LINKED_NEGATIONS[tok.lower_]):
                continue  # "I'd rather travel on Tuesday", "instead , the north": a preference, no negation
            return True
    return rejected_after(doc, start if end is None else end)


def rejected_after(doc, start: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the value at token ``start`` is rejected by the words after it in its clause
    ("the east won't work for me", "expensive is not an option", "Tuesday is no good"): the
    first words after the value's own (up to 4 tokens on from ``start``, the value's first token
    or the one after it) that :data:`REJECTIONS` matches."""
    end = start
    while end < len(doc) and end - start < 4 and not doc[end].is_punct and doc[end].lower_ not in REJECTION_VERBS:
        end += 1
    return REJECTIONS.match(" ".join(t.lower_ for t in doc[end : end + 5])) is not None


def said_of_another(doc, start: int, nouns: dict[int, tuple[str, bool]]) -> str | None:  # type: ignore[no-untyped-def]
    """The subject a user's value at token ``start`` is said of when its clause is about someone
    or something else (:data:`~csp_check.annotate.lexicon.POSSESSIVES`: "my sister lives in the
    north", "our conference is on Wednesday", "my flight here was cheap"): no request value.
    ``None`` when the subject is the request's ("my stay", a domain noun: ``nouns``) or the
    clause asks (a request word: "my wife and I need a cheap room")."""
    i = start - 1
    while i >= 0 and not (doc[i].is_punct and doc[i].text != "-") and doc[i].lower_ not in CLAUSE_WORDS:
        i -= 1
    clause = doc[i + 1 : start]
    if not clause or clause[0].lower_ not in POSSESSIVES or any(t.lower_ in REQUEST_WORDS for t in clause):
        return None
    head = next((t for t in clause[1:4] if not t.is_punct), None)
    if head is None or head.lower_ in REQUEST_NOUNS or any(nouns.get(t.i, ("", False))[0] for t in clause[1:4]):
        return None
    return f"{clause[0].text} {head.text}"


def not_choices(doc, found: list[Found]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Drop the values a system sentence offers as choices ("what area, north, south or
    centre?"): two or more values of one slot (not names) in a question, or three in any sentence."""
    def sentence(i: int) -> tuple[int, bool]:
        n = sum(1 for t in doc[:i] if t.text in SENTENCE_END)
        end = next((t for t in doc[i:] if t.text in SENTENCE_END), None)
        return n, end is not None and end.text == "?"

    groups: dict[tuple[int, str, str], list[Found]] = defaultdict(list)
    for f in found:
        if not f.amount and f.slot not in ENTITY_COLUMNS:
            n, question = sentence(f.start)
            groups[(n, f.domain, f.slot)].append(f)
    drop = set()
    for members in groups.values():
        question = sentence(members[0].start)[1]
        if len({m.canonical for m in members}) >= (2 if question else 3):
            drop |= {id(m) for m in members}
    return [f for f in found if id(f) not in drop]


def alternative_to_noun(doc, start: int, end: int, nouns: dict[int, tuple[str, bool]]) -> bool:  # type: ignore[no-untyped-def]
    """A value listed as an alternative to a plain domain noun ("a hotel or guesthouse",
    "guesthouse or a hotel"): the user accepts either, so it is no constraint."""
    if end + 1 < len(doc) and doc[end].lower_ in ("or", "and"):
        nxt = end + 1 + (doc[end + 1].lower_ in ("a", "an", "the"))
        if (nxt in nouns and nouns[nxt][0]) or (nxt < len(doc) and doc[nxt].lower_ in ALTERNATIVE_WORDS):
            return True
    k = start - 1 - (start > 0 and doc[start - 1].lower_ in ("a", "an"))
    return k >= 1 and doc[k].lower_ in ("or", "and") and bool(nouns.get(k - 1, ("", False))[0])


def doubted(doc, found: list[Found], speaker: str, scope: tuple[int, int] | None) -> list[Found]:  # type: ignore[no-untyped-def]
    """Mark the guesses among the kept values (``Found.doubt``: a violation resting on one is for
    review, not certain):

    - a value right after a negation ("not expensive", "no international food", "are n't
      expensive"; in a system no-result statement only "not" / "n't": its "no" is the denial
      itself) — it may be the value denied;
    - a user's value that is one of alternatives the rest of which is not read ("any park or
      historical building", "a museum or something fun"): the request may be the other one;
    - a value read from a loose word (:data:`LOOSE_WORDS`: "downtown" for the centre, the user's
      "entertainment" for the kind of attraction of that name);
    - a user's area given by another place ("north of the centre", "between the centre and the
      north"): the place asked is neither value;
    - a user's value that is one end of a range (:data:`RANGE_SLOTS`: "low to moderate", "cheap
      to moderate"): the request is the range, not that value.
    """
    starts = {(f.start, f.slot) for f in found}
    ends = {(f.end, f.slot) for f in found}
    out = []
    for f in found:
        doubt = None
        words = {"not", "n't"} if scope is not None and scope[0] <= f.start < scope[1] else {"not", "n't", "no"}
        before = [t.lower_ for t in doc[max(0, f.start - 2) : f.start]]
        if not f.amount and (before[-1:] and before[-1] in words or before[:1] and before[0] in words
                             and before[-1] in ("any", "a", "an", "so", "too", "very")):
            doubt = f"read under a negation: '{doc[max(0, f.start - 2) : f.end].text}'"
        elif speaker == "user" and not f.amount and f.slot not in ENTITY_COLUMNS:
            after = f.end < len(doc) - 1 and doc[f.end].lower_ == "or" and (f.end + 1, f.slot) not in starts \
                and (f.end + 2, f.slot) not in starts
            ahead = f.start > 1 and doc[f.start - 1].lower_ == "or" and (f.start - 1, f.slot) not in ends
            if after or ahead:
                doubt = f"one of alternatives not all read: '{doc[max(0, f.start - 2) : f.end + 3].text}'"
        if doubt is None and speaker == "user" and not f.amount:
            doubt = _relative_or_range(doc, f, starts, ends)
        loose = LOOSE_WORDS.get(doc[f.start : f.end].text.lower())
        if doubt is None and loose is not None and (speaker == "user" or not loose[1]):
            doubt = f"'{doc[f.start : f.end].text}' {loose[0]}"
        out.append(replace(f, doubt=doubt) if doubt else f)
    return out


#: The starts of the doubts of :func:`_relative_or_range`: the column's value is not read, so the
#: request of that column is unread (``Memory.vague``) until the user gives a plain value.
UNREAD_DOUBTS = ("a place given by another", "a place between two", "one end of a range")
#: Words after "<area> of" that name the whole town: "the north of town" is the north.
WHOLE_TOWN = frozenset({"town", "cambridge", "city", "the"})


def _relative_or_range(doc, f: Found, starts: set[tuple[int, str]], ends: set[tuple[int, str]]) -> str | None:  # type: ignore[no-untyped-def]
    """Why a user's value is a place given by another or one end of a range, or ``None``
    (:func:`doubted`)."""
    lowers = [t.lower_ for t in doc]
    before, after = lowers[max(0, f.start - 4) : f.start], lowers[f.end : f.end + 1]
    text = doc[max(0, f.start - 3) : min(len(doc), f.end + 3)].text
    if f.slot == "area":
        beyond = [w for w in lowers[f.end + 1 : f.end + 3] if w != "the"][:1]
        if (after == ["of"] and beyond and beyond[0] not in WHOLE_TOWN  # not "the north of town"
                or any(w == "of" and k > 0 and before[k - 1] in DIRECTIONS for k, w in enumerate(before))):
            return f"a place given by another: '{text}'"
        if "between" in before:
            return f"a place between two: '{text}'"
    if f.slot in RANGE_SLOTS:
        ahead = lowers[f.end + 1] if f.end + 1 < len(lowers) else ""
        if (after and after[0] in ("to", "-") and (f.end + 1, f.slot) not in starts and not ahead.startswith("star")
                or before and before[-1] in ("to", "-") and (f.start - 1, f.slot) not in ends):  # not "4-star"
            return f"one end of a range: '{text}'"
    return None
