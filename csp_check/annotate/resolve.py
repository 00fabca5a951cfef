"""Which domain and column a matched value belongs to (the package docstring's **Domain and column**).

A value several KB tables share takes its domain from the utterance's nouns (not those that are a
reference point: :func:`is_reference`), then its unambiguous values, then the active domain
(:class:`DomainContext`) — unless the value is bound to a domain noun of its own by English
syntax (:func:`bound_domain`: "a cheap restaurant", "the restaurant should be cheap"); a place or
day counts only when its domain is in context
(:func:`in_context`); a place is a departure or a destination by its cue words or the request
(:func:`column_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from csp_check.annotate.lexicon import (
    ATTRIBUTIVE_FILLERS,
    AUXILIARIES,
    COLUMN_PRIORITY,
    COPULAS,
    DEGREE_WORDS,
    DEPARTURE_CUES,
    DESTINATION_CUES,
    PLACE_PREPOSITIONS,
    REFERENCE_DETERMINERS,
    REFERENCE_WORDS,
    SENTENCE_END,
    SUBJECT_PRONOUNS,
)
from csp_check.annotate.memory import State
from csp_check.language.normalize import normalize


@dataclass(frozen=True)
class DomainContext:
    """What decides the domain of a value or noun that several KB tables share."""

    mentioned: set[str]  # domains a noun of the utterance names
    sure: set[str]  # domains of the utterance's values that only one table has
    active: str | None  # the domain of the previous turns

    def pick(self, options: list[str], guess: bool = True) -> str | None:
        """The domain among ``options`` the context prefers; else the first (or ``None``
        without ``guess``)."""
        options = list(dict.fromkeys(options))
        for preferred in (self.mentioned, self.sure, {self.active}):
            hits = [d for d in options if d in preferred]
            if len(hits) == 1:
                return hits[0]
            options = hits or options
        return options[0] if options and (guess or len(options) == 1) else None

    def within(self, mentioned: set[str], sure: set[str]) -> DomainContext:
        """This context for one value: the domains its sentence names (:func:`sentence_domains`)
        in place of the utterance's, and the domains of the sure values of its own and earlier
        sentences (``sure``; a later sentence's "museum" is no antecedent of "it is in the east");
        with none named, the active domain's — or, with no active domain (a first turn:
        "Something cheap in the north . I need a hotel ."), the utterance's."""
        return self if not mentioned and self.active is None else replace(self, mentioned=mentioned, sure=sure)


def sentence_domains(  # type: ignore[no-untyped-def]
    doc, nouns: dict[int, tuple[str, bool]], topics: dict[str, tuple[str, ...]], sentence: list[int]
) -> Callable[[int], set[str]]:
    """For a token, the domains that decide its value's domain: those its sentence names (domain
    nouns that are no reference point, :data:`~csp_check.annotate.lexicon.TOPIC_WORDS` ``topics``);
    a sentence naming none is about what the nearest earlier sentence of the utterance names
    ("I need a hotel . It should be in the north ."), and with none before it nothing (``set()``:
    the active domain decides, :meth:`DomainContext.within`; "I would like it in the north . Also
    a taxi from the hotel to a restaurant ." is about the hotel under discussion). ``sentence``:
    token → the index of its sentence in the utterance."""
    named: dict[int, set[str]] = {}
    for i, (domain, _) in nouns.items():
        if domain and not is_reference(doc, i):
            named.setdefault(sentence[i], set()).add(domain)
    for tok in doc:
        for domain in (d for d, words in topics.items() if tok.lower_ in words):
            named.setdefault(sentence[tok.i], set()).add(domain)

    def of(i: int) -> set[str]:
        return next((named[s] for s in range(sentence[i], -1, -1) if s in named), set())

    return of


def is_reference(doc, i: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the noun at token ``i`` is a reference point ("in the same area as the hotel")."""
    j = i - 1
    while j >= 0 and doc[j].lower_ in REFERENCE_DETERMINERS:
        j -= 1
    return j >= 0 and doc[j].lower_ in REFERENCE_WORDS and j < i - 1


def bound_domain(doc, start: int, end: int, nouns: dict[int, tuple[str, bool]], values: set[int],  # type: ignore[no-untyped-def]
                 names: dict[int, str] | None = None) -> str | None:
    """The domain of the noun the value at tokens ``start:end`` is said of by syntax, or ``None``.

    - Attributive: a domain noun right after the value, with only other values (tokens
      ``values``), numbers and :data:`ATTRIBUTIVE_FILLERS` between ("a cheap restaurant", "a
      moderately priced 4 star guesthouse", "a taxi from the hotel to a cheap restaurant").
    - Postnominal: the value in a phrase right after a domain noun ("a restaurant in the east", "a
      hotel in the moderate price range").
    - Predicative: the value after a copula (:data:`COPULAS`, past :data:`DEGREE_WORDS` such as
      "in the", "really"): the subject is the nearest domain noun before the copula and its
      auxiliaries in the same sentence that is no reference point ("the restaurant for us should
      be cheap", "a restaurant which is cheap", "the hotel near the museum has to be cheap"); a
      pronoun right before them ("it should be cheap") leaves the subject to the context. A
      subject that is an entity's name (``names``: its last token → its domain) is of that
      domain ("Charlie Chan is actually in the south" in a turn about hotels; "a short ride from
      Allenbell, which is in the east").

    ``nouns`` is :meth:`~csp_check.annotate.annotator.Annotator._domain_nouns`'s map (start token
    → (domain or "" for a generic noun, plural)); a generic noun ("place") binds to no domain."""
    i = end
    while i < len(doc) and i - end < 4 and i not in nouns and (
            i in values or doc[i].like_num or doc[i].lower_ in ATTRIBUTIVE_FILLERS):  # fmt: skip
        i += 1
    if i in nouns and i - end < 4:
        return nouns[i][0] or None
    j = start - 1
    while j >= 0 and doc[j].lower_ in DEGREE_WORDS:
        j -= 1
    if j >= 0 and j < start - 1 and doc[j + 1].lower_ in PLACE_PREPOSITIONS and j in nouns and nouns[j][0]:
        return nouns[j][0]  # "a restaurant in the east", "a hotel in the moderate price range"
    if j < 0 or doc[j].lower_ not in COPULAS:
        return None
    j -= 1
    while j >= 0 and doc[j].lower_ in AUXILIARIES:
        j -= 1
    if j < 0 or doc[j].lower_ in SUBJECT_PRONOUNS:
        return None
    if names and j in names:
        return names[j]  # "Charlie Chan is in the south"
    j -= doc[j].lower_ in ("that", "which", "who")  # "a restaurant which is cheap": the noun before it
    if names and j > 0 and doc[j].text == "," and doc[j + 1].lower_ == "which" and j - 1 in names:
        return names[j - 1]  # "a short ride from Allenbell , which is in the east"
    for k in range(j, -1, -1):
        if doc[k].text in SENTENCE_END:
            return None
        if k in nouns and nouns[k][0] and not is_reference(doc, k):
            return nouns[k][0]
    return None


def in_context(doc, start: int, domain: str, context: DomainContext, places: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether a value of a :data:`~csp_check.annotate.lexicon.CONTEXT_COLUMNS` column is about its
    domain: the domain is named or active, another value of the utterance is surely of it, two
    places are named ("from Ely to Cambridge"), or a departure / arrival word stands right before it."""
    if domain in context.mentioned or domain in context.sure or places >= 2:
        return True
    if domain == context.active and not (context.sure | context.mentioned) - {domain}:
        return True  # the active domain, unless the utterance is surely about another
    before = doc[start - 1].lower_ if start > 0 else ""
    return before in (DEPARTURE_CUES | DESTINATION_CUES) - {"to", "for"}


def column_of(  # type: ignore[no-untyped-def]
    doc, start: int, end: int, domain: str, columns: list[str], state: State, taken: set[int],
    column_order: dict[tuple[str, str], int],
) -> str:  # fmt: skip
    """The column of a value several columns of ``domain`` share: a departure / destination cue
    among the three words before it ("from X", "arriving in X") or "X to …" after it; else the
    place the request already has, or the one it lacks; else :data:`COLUMN_PRIORITY`, then the
    KB's order (``column_order``: (domain, column) → rank)."""
    if {"departure", "destination"} <= set(columns):
        for tok in reversed(doc[max(0, start - 3) : start]):
            if tok.is_punct or tok.i in taken:
                break
            if tok.lower_ in DEPARTURE_CUES:
                return "departure"
            if tok.lower_ in DESTINATION_CUES:
                return "destination"
        if end < len(doc) and doc[end].lower_ == "to":
            return "departure"
        asked = state.get(domain, {})
        key = normalize(doc[start:end].text)
        for column in ("departure", "destination"):
            if [normalize(v) for v in asked.get(column, [])] == [key]:
                return column
        for column in ("departure", "destination"):
            if column not in asked:
                return column
    rank = {c: i for i, c in enumerate(COLUMN_PRIORITY)}
    return min(columns, key=lambda c: (rank.get(c, len(rank)), column_order.get((domain, c), 0)))
