"""Amounts in system turns and the search a count is about (the package docstring's **Amounts**).

:func:`amounts` finds a number or number word followed within
:data:`~csp_check.annotate.lexicon.MAX_GAP` words by a domain noun that agrees in number;
:func:`count_search` gives the search a turn's count is about (the request plus the values of
the count's sentence).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from csp_check.annotate.lexicon import (
    APPROXIMATE,
    BARE_COUNT_AFTER,
    BARE_COUNT_BEFORE,
    BOUND_COLUMNS,
    BOUNDED_AMOUNT,
    ENTITY_COLUMNS,
    EXISTENTIALS,
    FREQUENCY,
    GAP_STOPS,
    MAX_GAP,
    REST_WORDS,
    SENTENCE_END,
    SUPERLATIVES,
)
from csp_check.annotate.memory import State
from csp_check.language.normalize import NUMBER_WORDS, fold, parse_count
from csp_check.models import ActRole, DialogueAct

if TYPE_CHECKING:
    from spacy.tokens import Doc


def amounts(doc, nouns: dict[int, tuple[str, bool]]) -> list[tuple[int, int, int, str, bool]]:  # type: ignore[no-untyped-def]
    """(start, end, amount, noun domain or "", bare) of every exact amount followed by a domain
    noun, or bare (no noun) after "there are" / "I have" (:func:`_bare`: "there are 7 in the centre")
    ("over 30 hotels" and "more than 10" are amounts whose comparison the checker reads from the
    words before them, :func:`csp_check.language.cues.amount_op`)."""
    out = []
    tokens = list(doc)  # the tokens made once; a span's text is read only for a candidate
    texts = [t.text for t in tokens]  # two tokens' text is the first's with its space, then the second's
    with_space = [t.text_with_ws for t in tokens]
    i = 0
    while i < len(tokens):
        for width in (2, 1):
            words = tokens[i : i + width]
            if len(words) < width or words[0].lower_ in ("no", "none") or any(t.is_punct for t in words):
                continue
            if width == 1 and not (words[0].like_num or fold(words[0].lower_) in NUMBER_WORDS):  # "t\u200bwo" too
                continue
            text = texts[i] if width == 1 else with_space[i] + texts[i + 1]  # doc[i : i + width].text
            amount = parse_count(text)  # "01223 364917", "50210": a phone number, an id
            if amount is None:
                continue
            if i > 0 and doc[i - 1].lower_ in APPROXIMATE and not _bounded(doc, i):
                continue
            if amount == 1 and not any(t.lower_ in EXISTENTIALS for t in doc[max(0, i - 3) : i]):
                continue  # "One place I could recommend is …" picks one, it does not count
            if any(t.lower_ in ("no", "not", "n't") for t in doc[max(0, i - 3) : i]):
                continue  # "no cheap 4 star hotels" denies, it does not count
            after = [t.lower_ for t in doc[i + width : i + width + 3]]
            if after[:1] in (["star"], ["stars"], ["-"]) or any(w in REST_WORDS for w in after):
                continue  # "4 star hotels" is a rating; "two other guesthouses" counts the rest
            noun = _noun_after(doc, i + width, nouns, couple=words[-1].lower_ == "couple")
            bare = _bare(doc, i, i + width) if noun is None or noun[1] != (amount != 1) else None
            noun = bare or noun  # "I have 5 that match": the verb is no noun
            if noun is not None and noun[1] == (amount != 1) and not _picks(doc, i, noun[2]):
                out.append((i, i + width, amount, noun[0], bare is not None))
                i += width - 1
                break
        i += 1
    return out


def _bare(doc, i: int, j: int) -> tuple[str, bool, int] | None:  # type: ignore[no-untyped-def]
    """("", plural, ``j``) for an amount at tokens ``i:j`` with no noun after a bare count's subject
    and verb (:data:`~csp_check.annotate.lexicon.BARE_COUNT_BEFORE`: "there are 7 in the centre",
    "I have 5 that match"): it counts the entities of the search in force, its domain the context's."""
    if j >= len(doc) or doc[j].lower_ not in BARE_COUNT_AFTER:
        return None
    if not BARE_COUNT_BEFORE.search(doc[max(0, i - 4) : i].text.lower()):
        return None
    return "", parse_count(doc[i:j].text) != 1, j


def _picks(doc, i: int, noun_end: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the amount at token ``i`` (its noun ending at ``noun_end``) is no count of the
    results: a frequency ("two trains an hour") or one a superlative earlier in its sentence picks
    ("the closest arrival time I show is 1 train")."""
    after = doc[noun_end : noun_end + 2].text.lower()
    if FREQUENCY.match(after):
        return True
    first = max([0] + [k + 1 for k in range(i) if doc[k].text in SENTENCE_END])
    return any(t.lower_ in SUPERLATIVES for t in doc[first:i])


def _bounded(doc, i: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the amount at token ``i`` is a bound or an approximation the checker reads
    (:func:`csp_check.language.cues.amount_op`: "over 20", "more than 10", "at least 3", "about 70"): a
    count with its comparison, not an amount left out."""
    before = doc[max(0, i - 3) : i].text.lower()
    return bool(BOUNDED_AMOUNT.search(before))


def _noun_after(doc, j: int, nouns: dict[int, tuple[str, bool]], couple: bool) -> tuple[str, bool, int] | None:  # type: ignore[no-untyped-def]
    """(domain, plural, the token after the noun) of the domain noun within the gap after ``j``."""
    for k in range(j, min(j + MAX_GAP + 1, len(doc))):
        if k in nouns:
            return (*nouns[k], k + 1)
        if couple and k == j and doc[k].lower_ == "of":
            continue
        if not gap_word(doc[k]):
            return None
    return None


def gap_word(tok) -> bool:  # type: ignore[no-untyped-def]
    """A word that may stand between an amount or a negative cue and its noun ("cheap", "-")."""
    return (tok.is_alpha or tok.text == "-") and tok.lower_ not in GAP_STOPS and not tok.like_num


def numbers(doc: Doc) -> list[int]:
    """Character offsets of the numbers (digits or number words) of an utterance, given as its
    ``Doc`` (:meth:`~csp_check.annotate.annotator.Annotator.doc`: the folded text, offsets the
    utterance's)."""
    out = []
    for t in doc:
        if (t.like_num or t.lower_ in NUMBER_WORDS) and t.lower_ not in ("no", "none"):
            after = [u.lower_ for u in doc[t.i + 1 : t.i + 3]]
            if not after or after[0] not in ("star", "stars", "-"):
                out.append(t.idx)
    return out


def count_search(acts: list[DialogueAct], bounds: list[int], state: State, numbers: list[int]) -> State:
    """The search a system count is about: the user's state, plus the values the count's sentence
    gives up to the next number, entity or count ("21 guesthouses in the north"), a slot given two
    values excepted. ``numbers``: character offsets of the
    turn's numbers. Empty when the turn has no count."""
    def sentence(a: DialogueAct) -> int | None:
        return None if a.span is None else sum(1 for b in bounds if b <= a.span.start)

    counted = {a.domain: sentence(a) for a in acts if a.role is ActRole.COUNT}
    if not counted:
        return {}
    search = {domain: dict(slots) for domain, slots in state.items()}
    for domain, counted_in in counted.items():
        count = next(a for a in acts if a.role is ActRole.COUNT and a.domain == domain)
        assert count.span is not None
        later = [a.span.start for a in acts if a.span is not None and a.span.start > count.span.start
                 and (a.role is ActRole.COUNT or a.slot in ENTITY_COLUMNS or sentence(a) != counted_in)]  # fmt: skip
        until = min([*later, *(b for b in numbers if b > count.span.start)], default=None)
        said: dict[str, set[str]] = defaultdict(set)
        for a in acts:
            if a.domain != domain or a.span is None or a.canonical is None or (until is not None and a.span.start >= until):
                continue
            if sentence(a) != counted_in:
                continue
            if a.role not in (ActRole.INFORM, ActRole.OFFER) or a.slot in ENTITY_COLUMNS or a.slot in BOUND_COLUMNS:
                continue
            if any(e.span is not None and e.slot in ENTITY_COLUMNS and e.domain == domain and e.span.start < a.span.start for e in acts):
                continue  # a value after an entity's name describes that entity
            said[a.slot].add(a.canonical)
        for slot, values in said.items():
            if len(values) == 1:
                search.setdefault(domain, {})[slot] = [next(iter(values))]
            else:  # "in the moderate to cheap price range": no single value of that slot
                search.get(domain, {}).pop(slot, None)
    return search if any(search.get(d) for d in counted) else {}
