"""Which domain and column a matched value belongs to (the package docstring's **Domain and column**).

A value several KB tables share takes its domain from the utterance's nouns (not those that are a
reference point: :func:`is_reference`), then its unambiguous values, then the active domain
(:class:`DomainContext`); a place or day counts only when its domain is in context
(:func:`in_context`); a place is a departure or a destination by its cue words or the request
(:func:`column_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.annotate.lexicon import (
    COLUMN_PRIORITY,
    DEPARTURE_CUES,
    DESTINATION_CUES,
    REFERENCE_DETERMINERS,
    REFERENCE_WORDS,
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


def is_reference(doc, i: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the noun at token ``i`` is a reference point ("in the same area as the hotel")."""
    j = i - 1
    while j >= 0 and doc[j].lower_ in REFERENCE_DETERMINERS:
        j -= 1
    return j >= 0 and doc[j].lower_ in REFERENCE_WORDS and j < i - 1


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
