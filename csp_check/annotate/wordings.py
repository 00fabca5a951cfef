"""Which KB values the annotator matches, and in which wordings (the package docstring's **Values**).

:func:`kb_values` lists the matchable values of a KB and ontology; :func:`spellings` and
:func:`variants` give the other wordings each is matched in (the normaliser's spellings,
:data:`~csp_check.annotate.lexicon.PARAPHRASES`, name variants that name one entity only);
:func:`nouns_of` gives the nouns naming a domain.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from csp_check.annotate.lexicon import (
    BOUND_COLUMNS,
    DOMAIN_NOUNS,
    ENTITY_COLUMNS,
    FLAG_VALUES,
    MAX_VALUE_TOKENS,
    NAME_SUFFIXES,
    PARAPHRASES,
    PLAIN_NAMES,
    SKIPPED_COLUMNS,
    SMALL_NUMBER,
    SPELLINGS,
)
from csp_check.language.normalize import normalize
from csp_check.models import KnowledgeBase


def kb_values(kb: KnowledgeBase, ontology: dict[str, list[str]]) -> Iterable[tuple[str, str, str]]:
    """(domain, column, value) of every matchable KB and ontology value (package docstring)."""
    for domain, table in kb.tables.items():
        by_column: dict[str, set[str]] = defaultdict(set)
        for entity in table.entities:
            for column, value in entity.items():
                by_column[column].add(value)
        own = {normalize(n) for pair in nouns_of(domain)[:1] for n in pair}  # "hotel" in the hotel table
        for column, values in by_column.items():
            if column in SKIPPED_COLUMNS or column in BOUND_COLUMNS or (len(values) == 1 and len(table.entities) > 1):
                continue
            lengths = sorted(len(v.split()) for v in values)
            if lengths[len(lengths) // 2] > 5:
                continue  # descriptions and opening hours ("always" is one of them), not values
            for value in sorted(values):
                if _matchable(value) and normalize(value) not in own and normalize(value) not in PLAIN_NAMES:
                    yield domain, column, value
    for slot_type, values in ontology.items():
        domain, _, column = slot_type.partition(".")
        for value in values:
            if column and _matchable(value):
                yield domain, column, value


def _matchable(value: str) -> bool:
    text = normalize(value)
    return bool(text) and text not in FLAG_VALUES and not SMALL_NUMBER.match(text) and len(text.split()) <= MAX_VALUE_TOKENS


def spellings(value: str) -> list[str]:
    """``value`` and the spellings of it that :func:`normalize` maps to the same key.

    >>> spellings("pizza hut city centre")
    ['pizza hut city centre', 'pizza hut city center']
    """
    key = normalize(value)
    out = [value]
    lowered = value.lower()
    variants = [lowered[4:]] if lowered.startswith("the ") and " " in lowered[4:] else []  # not "the place" → "place"
    for group in SPELLINGS:
        for old in group:
            pattern = re.compile(rf"\b{re.escape(old)}\b")
            if pattern.search(lowered):
                variants += [pattern.sub(new, lowered) for new in group if new != old]
    for variant in variants:
        if variant not in out and normalize(variant) == key:
            out.append(variant)
    return out


def variants(canonical: dict[tuple[str, str], dict[str, str]]) -> dict[tuple[str, str], dict[str, str]]:
    """(domain, column) → other wording → KB value: :data:`PARAPHRASES` of values the KB has, and
    name variants ("&" / "and", "b&b" / "bed and breakfast", "king's" / "kings", a short form
    without a trailing "restaurant" / "hotel"), each kept only if it names one value."""
    out: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for (domain, column), values in canonical.items():
        for value, surfaces in PARAPHRASES.get(column, {}).items():
            kb_value = values.get(normalize(value))
            if kb_value is not None:
                for surface in surfaces:
                    if normalize(surface) not in values:
                        out[(domain, column)][surface] = kb_value
        if column not in ENTITY_COLUMNS and column not in ("departure", "destination"):
            continue
        claimed: dict[str, set[str]] = defaultdict(set)
        for key, kb_value in values.items():
            for spelling in {key, *(v.lower() for v in spellings(kb_value))}:
                for form in _name_forms(spelling):
                    if normalize(form) not in values:
                        claimed[form].add(kb_value)
        for form, kb_values in claimed.items():
            if len(kb_values) == 1:
                out[(domain, column)][form] = next(iter(kb_values))
    return out


def _name_forms(key: str) -> list[str]:
    forms = {key}
    if " and " in key:
        forms |= {f.replace(" and ", " & ") for f in forms}
    if "bed and breakfast" in key or "b and b" in key:
        forms |= {key.replace(o, n) for o in ("bed and breakfast", "b and b") for n in ("b&b", "b & b", "bed & breakfast", "b and b", "bed and breakfast")}
    possessive = re.sub(r"\b(\w{3,}[^s\W])s\b", r"\1's", key)
    if possessive != key:
        forms |= {possessive, possessive.replace("'s", " 's")}
    for suffix in NAME_SUFFIXES:
        if key.endswith(" " + suffix):
            short = key[: -len(suffix) - 1].strip()
            if len(short.split()) >= 2 or len(short) >= 5:
                forms.add(short)
    forms.discard(key)
    return sorted(forms)


def nouns_of(domain: str) -> list[tuple[str, str]]:
    """(singular, plural) nouns naming ``domain``: its name ("Restaurants_1" → restaurant) and
    :data:`DOMAIN_NOUNS`."""
    base = re.sub(r"_\d+$", "", domain).replace("_", " ").lower()
    singular = base[:-1] if base.endswith("s") and not base.endswith("ss") else base
    return [(singular, singular + "s"), *DOMAIN_NOUNS.get(singular, ())]


def compact(text: str) -> str:
    """``text`` normalised without spaces or punctuation ("78 - 80 milton road" → "7880miltonroad")."""
    return re.sub(r"[\W_]+", "", normalize(text))
