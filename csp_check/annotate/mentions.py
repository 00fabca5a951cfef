"""Values found in an utterance (:class:`Found`), the filters that keep or drop them, and the acts
they become.

A found value is dropped when it is negated ("not a guesthouse"), offered as an alternative to
the domain noun ("a hotel or guesthouse"), one of several choices a system sentence offers
("north, south or centre?") or a repeated mention; :func:`to_act` gives a kept one its role.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from csp_check.annotate.lexicon import ALTERNATIVE_WORDS, ENTITY_COLUMNS, LOOSE_WORDS, NEGATIONS, SENTENCE_END
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


def negated(doc, start: int, window: int = 4, negations: frozenset[str] = NEGATIONS) -> bool:  # type: ignore[no-untyped-def]
    """A negation among the ``window`` words before ``start`` in its clause ("not a guesthouse",
    "I don't want a guesthouse", "as opposed to a guesthouse")."""
    for tok in reversed(doc[max(0, start - window) : start]):
        if (tok.is_punct and tok.text != "-") or tok.lower_ in ("but", "and"):
            return False
        if tok.lower_ in negations:
            return True
    return False


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
      "entertainment" for the kind of attraction of that name).
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
        loose = LOOSE_WORDS.get(doc[f.start : f.end].text.lower())
        if doubt is None and loose is not None and (speaker == "user" or not loose[1]):
            doubt = f"'{doc[f.start : f.end].text}' {loose[0]}"
        out.append(replace(f, doubt=doubt) if doubt else f)
    return out
