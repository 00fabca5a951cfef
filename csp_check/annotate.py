"""Annotator: raw dialogue text + KB → dialogue acts with spans (spec §5 last paragraph, §6).

Raw text (an LLM's output) has no acts, spans or belief state. :func:`annotate` finds the
variables by matching the KB's values and amount words against each utterance and gives them
the roles the constraint builder reads (:mod:`csp_check.constraints`):

- **Values.** A spaCy blank English pipeline (tokenizer only, no model) and a
  ``PhraseMatcher(attr="LOWER")`` with one label per (domain, column) of every KB table (and
  the dialogue's ``ontology``). Each value is also matched in the spellings the normaliser
  treats as the same value (:data:`SPELLINGS`: centre / center / city centre, guesthouse /
  guest house, moderate / moderately priced; a leading "the" dropped before two or more words), a variant being kept
  only when :func:`~csp_check.normalize.normalize` maps it to the value's own key. Text is
  unicode-folded first (curly quotes, dashes), keeping offsets. Not matched, because raw text
  cannot tell them from ordinary words: the ``id`` column, columns with one value for every
  entity (MultiWOZ ``type: restaurant``), yes/no/true/false/free flags, bare numbers of up to
  four digits (hotel stars, party sizes) and values of more than :data:`MAX_VALUE_TOKENS`
  tokens (descriptions).
- **Overlaps and ambiguity.** The longest match wins (``spacy.util.filter_spans``). A span
  that several (domain, column) labels share gets its domain from the context (a domain noun
  in the utterance, then the domain of the utterance's unambiguous values, then the domain of
  the previous turns, then KB table order) and its column from a cue word ("from X" →
  departure, "to X" → destination) or else :data:`COLUMN_PRIORITY`, then KB column order.
- **Roles.** User turns: ``inform``; the state after a user turn is the previous state with its
  informs (several values of one slot in one turn are all listed, which the builder reads as
  no single filter). System turns: ``offer`` for an entity-identifying column
  (:data:`ENTITY_COLUMNS`) and, in a turn that names an entity, for its other values too (as
  SGD's OFFER and MultiWOZ's Recommend annotate them); ``inform`` otherwise.
- **Amounts** (system turns): a number word or digits (``NUMBER_WORDS``, "a couple (of)") followed
  within :data:`MAX_GAP` words by a domain noun — plural for 0 or ≥ 2, singular for 1 — give a
  ``count`` act, slot ``choice``, value the surface, canonical the digits. Domain nouns: each KB
  domain's name and plural, :data:`DOMAIN_NOUNS`, and the generic :data:`GENERIC_NOUNS`
  ("places", "options", …) whose domain comes from the context.
- **No result** (system turns): a negative existence cue (:data:`NEGATIVE_CUES`: "there are
  no", "I couldn't find any", "no … restaurants", "none", …) followed by a domain noun or a
  matched value (across at most :data:`MAX_GAP` describing words: "no cheap lebanese
  restaurant", not "no need to call Jade Lotus"), or (except a bare "no") ending its clause
  ("I couldn't find any."), makes the utterance a no-result statement: a value-less ``no_result`` act for its domain and
  every matched value of the utterance re-labelled ``no_result``.

Limits: nothing is invented that is not written. The negation scope is the whole utterance
("no lebanese place in the north, but Cedar Garden…" marks Cedar Garden no-result too); a
negated user request ("not spanish") is still an inform; pronouns are not resolved ("it is
cheap" names no entity); "any area" / "I don't mind" (dontcare) and paraphrases not in the KB
("inexpensive") are not found; every value of a system turn that names an entity is offered,
so an attribute merely informed beside a name is compared with the request too.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from csp_check.models import ActRole, Dialogue, DialogueAct, KnowledgeBase, Span, Turn
from csp_check.normalize import NUMBER_WORDS, fold_aligned, normalize, parse_amount

#: Columns whose value identifies an entity: a system turn that names one *offers* it.
ENTITY_COLUMNS = frozenset({"name", "trainID"})
#: Which column a span shared by several columns of one domain belongs to (then KB order).
COLUMN_PRIORITY = ("name", "trainID", "food", "type", "area", "pricerange", "departure", "destination", "day")
#: A word right before a value that picks its column when both are candidates.
CUES = {"from": "departure", "to": "destination"}
#: Spellings the normaliser treats as one value; a KB value is also matched in the others.
SPELLINGS = (
    ("centre", "center", "city centre", "city center"),
    ("guesthouse", "guest house", "guesthouses", "guest houses", "bed and breakfast"),
    ("moderate", "moderately priced"),
)
SKIPPED_COLUMNS = frozenset({"id"})
FLAG_VALUES = frozenset({"yes", "no", "true", "false", "free", "none", "dontcare"})
MAX_VALUE_TOKENS = 8
#: Domain nouns beyond each KB domain's own name (singular, plural), used only for KB domains.
DOMAIN_NOUNS = {
    "restaurant": (("eatery", "eateries"), ("place to eat", "places to eat")),
    "hotel": (("guesthouse", "guesthouses"), ("guest house", "guest houses"), ("place to stay", "places to stay")),
    "attraction": (("museum", "museums"), ("college", "colleges"), ("park", "parks")),
    "train": (("connection", "connections"),),
    "taxi": (("cab", "cabs"),),
}
GENERIC_NOUNS = (("place", "places"), ("option", "options"), ("choice", "choices"), ("result", "results"),
                 ("match", "matches"), ("venue", "venues"), ("one", "ones"))  # fmt: skip
NEGATIVE_CUES = ("no", "none", "there is no", "there are no", "there's no", "there isn't any", "there aren't any",
                 "couldn't find any", "could not find any", "can't find any", "cannot find any",
                 "unable to find any", "don't have any", "do not have any")  # fmt: skip
#: Words allowed between an amount and its noun ("three cheap italian restaurants").
MAX_GAP = 4
_GAP_STOP = frozenset({"in", "at", "on", "for", "to", "from", "with", "and", "or", "but", "than", "by", "near", "of"})
_SMALL_NUMBER = re.compile(r"^\d{1,4}$")


def annotate(dialogue: Dialogue, kb: KnowledgeBase) -> Dialogue:
    """A copy of ``dialogue`` whose turns carry acts with character spans found in their text.

    Every turn's ``acts`` (and ``state``: the belief state after each user turn) are replaced
    by what matching ``kb`` (and ``dialogue.ontology``) against the utterances finds; see the
    module docstring for the rules and limits (spec §5, raw text). ``kb_results`` are kept;
    ``domains`` is filled from the acts when empty. Never raises on a well-formed dialogue;
    a dialogue whose text names nothing comes back with no acts.
    """
    annotator = _annotator(kb, dialogue.ontology)
    state: dict[str, dict[str, list[str]]] = {}
    active: str | None = None
    turns: list[Turn] = []
    for turn in dialogue.turns:
        acts = annotator.turn_acts(turn.utterance, turn.speaker, active)
        if turn.speaker == "system":
            acts = _offers(acts)
        if acts:
            active = acts[-1].domain
        new_state: dict[str, dict[str, list[str]]] = {}
        if turn.speaker == "user":
            state = _updated(state, acts)
            new_state = state
        turns.append(turn.model_copy(update={"acts": acts, "state": new_state}))
    domains = dialogue.domains or list(dict.fromkeys(a.domain for t in turns for a in t.acts))
    return dialogue.model_copy(update={"turns": turns, "domains": domains})


def _offers(acts: list[DialogueAct]) -> list[DialogueAct]:
    """In a system turn that names an entity, the other values describe that entity: they are
    offered too (as SGD's OFFER and MultiWOZ's Recommend annotate them), so they are compared
    with what the user asked for."""
    offered = {a.domain for a in acts if a.role is ActRole.OFFER}
    return [
        a.model_copy(update={"role": ActRole.OFFER, "act": "offer"}) if a.role is ActRole.INFORM and a.domain in offered else a
        for a in acts
    ]


def _updated(state: dict[str, dict[str, list[str]]], acts: list[DialogueAct]) -> dict[str, dict[str, list[str]]]:
    said: dict[tuple[str, str], list[str]] = defaultdict(list)
    for act in acts:
        if act.role is ActRole.INFORM and act.canonical is not None and act.canonical not in said[(act.domain, act.slot)]:
            said[(act.domain, act.slot)].append(act.canonical)
    new = {domain: dict(slots) for domain, slots in state.items()}
    for (domain, slot), values in said.items():
        new.setdefault(domain, {})[slot] = values
    return new


@dataclass(frozen=True)
class _Found:
    """A value or amount found in an utterance."""

    start: int  # token offsets in the doc
    end: int
    domain: str
    slot: str
    canonical: str
    amount: bool = False


@dataclass(frozen=True)
class _Context:
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


@lru_cache(maxsize=1)
def blank_nlp():  # type: ignore[no-untyped-def]
    """The spaCy blank English pipeline (tokenizer only; no model download), built once."""
    import spacy

    return spacy.blank("en")


_CACHE: dict[tuple[int, tuple], tuple[KnowledgeBase, "Annotator"]] = {}


def _annotator(kb: KnowledgeBase, ontology: dict[str, list[str]]) -> "Annotator":
    """The (cached) annotator of one KB and ontology; the cache keeps the KB alive, so its id is stable."""
    key = (id(kb), tuple(sorted((k, tuple(v)) for k, v in ontology.items())))
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not kb:
        if len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        hit = _CACHE[key] = (kb, Annotator(kb, ontology))
    return hit[1]


class Annotator:
    """Matchers for one KB: values (label ``domain\\x1fcolumn``), domain nouns and negative cues."""

    def __init__(self, kb: KnowledgeBase, ontology: dict[str, list[str]] | None = None):
        from spacy.matcher import PhraseMatcher

        self.nlp = blank_nlp()
        self.values = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.nouns = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.cues = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.domains = list(kb.tables)
        self.column_order: dict[tuple[str, str], int] = {}
        self.canonical: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        patterns: dict[str, list[str]] = defaultdict(list)
        for domain, column, value in _kb_values(kb, ontology or {}):
            self.column_order.setdefault((domain, column), len(self.column_order))
            self.canonical[(domain, column)].setdefault(normalize(value), value)
            patterns[f"{domain}\x1f{column}"] += spellings(value)
        for label, forms in patterns.items():
            self.values.add(label, list(self.nlp.tokenizer.pipe(dict.fromkeys(forms))))
        for domain in self.domains:
            for number, nouns in enumerate(zip(*_nouns_of(domain))):
                self.nouns.add(f"{domain}\x1f{number}", list(self.nlp.tokenizer.pipe(nouns)))
        for number, nouns in enumerate(zip(*GENERIC_NOUNS)):
            self.nouns.add(f"\x1f{number}", list(self.nlp.tokenizer.pipe(nouns)))
        self.cues.add("NEG", list(self.nlp.tokenizer.pipe(NEGATIVE_CUES)))

    def turn_acts(self, utterance: str, speaker: str, active: str | None = None) -> list[DialogueAct]:
        """The acts of one utterance, ordered by span (see the module docstring); ``active`` is
        the domain of the previous turns, used when a value or noun leaves the domain open."""
        from spacy.util import filter_spans

        doc = self.nlp.make_doc(fold_aligned(utterance))
        labels = self.nlp.vocab.strings
        candidates: dict[tuple[int, int], dict[tuple[str, str], None]] = defaultdict(dict)
        for match_id, start, end in self.values(doc):
            domain, column = labels[match_id].split("\x1f")
            candidates[(start, end)][(domain, column)] = None
        nouns: dict[int, tuple[str, bool]] = {}  # start token → (domain, or "" for a generic noun; plural)
        for match_id, start, end in self.nouns(doc):
            domain, number = labels[match_id].split("\x1f")
            nouns.setdefault(start, (domain, number == "1"))
        context = _Context(
            mentioned={d for d, _ in nouns.values() if d},
            sure={next(iter(c))[0] for c in candidates.values() if len({d for d, _ in c}) == 1},
            active=active,
        )
        found: list[_Found] = []
        for (start, end), options in candidates.items():
            domain = context.pick([d for d, _ in options])
            assert domain is not None  # options is never empty
            column = self._column(doc, start, domain, [c for d, c in options if d == domain])
            value = self.canonical[(domain, column)].get(normalize(doc[start:end].text), doc[start:end].text)
            found.append(_Found(start, end, domain, column, value))
        if speaker == "system":
            for start, end, amount, noun_domain in _amounts(doc, nouns):
                domain = noun_domain or context.pick(self.domains, guess=len(self.domains) == 1)
                if domain is not None:  # an amount of a KB domain only
                    found.append(_Found(start, end, domain, "choice", str(amount), amount=True))
        kept = {(s.start, s.end) for s in filter_spans([doc[f.start : f.end] for f in found])}
        found = sorted((f for f in found if (f.start, f.end) in kept), key=lambda f: f.start)
        found = list({(f.start, f.end): f for f in found}.values())  # one per span; an amount wins
        negative = speaker == "system" and self._negative(doc, nouns, found)
        acts = [_act(f, doc, utterance, speaker, negative) for f in found]
        if negative:
            named = [d for d, _ in nouns.values() if d] + [f.domain for f in found if not f.amount]
            domain = context.pick(named or self.domains, guess=bool(named) or len(self.domains) == 1)
            if domain is not None:
                acts.insert(0, DialogueAct(role=ActRole.NO_RESULT, act="nooffer", domain=domain))
        return acts

    def _column(self, doc, start: int, domain: str, columns: list[str]) -> str:  # type: ignore[no-untyped-def]
        if len(columns) > 1 and start > 0:
            cued = CUES.get(doc[start - 1].lower_)
            if cued in columns:
                return cued  # type: ignore[return-value]
        rank = {c: i for i, c in enumerate(COLUMN_PRIORITY)}
        return min(columns, key=lambda c: (rank.get(c, len(rank)), self.column_order.get((domain, c), 0)))

    def _negative(self, doc, nouns: dict[int, tuple[str, bool]], found: list[_Found]) -> bool:  # type: ignore[no-untyped-def]
        starts = set(nouns) | {f.start for f in found if not f.amount}
        for _, start, end in self.cues(doc):
            for tok in doc[end : end + MAX_GAP + 1]:  # "no [cheap] restaurants", not "no need to call X"
                if tok.i in starts:
                    return True
                if not _gap_word(tok):
                    break
            bare_no = doc[start:end].text.lower() == "no"
            if not bare_no and (end == len(doc) or (doc[end].is_punct and doc[end].text != "-")):
                return True
        return False

def _act(f: _Found, doc, utterance: str, speaker: str, negative: bool) -> DialogueAct:  # type: ignore[no-untyped-def]
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
        span=Span(start=span.start_char, end=span.end_char),
    )  # fmt: skip


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


def _kb_values(kb: KnowledgeBase, ontology: dict[str, list[str]]) -> Iterable[tuple[str, str, str]]:
    """(domain, column, value) of every matchable KB and ontology value (module docstring)."""
    for domain, table in kb.tables.items():
        by_column: dict[str, set[str]] = defaultdict(set)
        for entity in table.entities:
            for column, value in entity.items():
                by_column[column].add(value)
        for column, values in by_column.items():
            if column in SKIPPED_COLUMNS or (len(values) == 1 and len(table.entities) > 1):
                continue
            for value in sorted(values):
                if _matchable(value):
                    yield domain, column, value
    for slot_type, values in ontology.items():
        domain, _, column = slot_type.partition(".")
        for value in values:
            if column and _matchable(value):
                yield domain, column, value


def _matchable(value: str) -> bool:
    text = normalize(value)
    return bool(text) and text not in FLAG_VALUES and not _SMALL_NUMBER.match(text) and len(text.split()) <= MAX_VALUE_TOKENS


def _nouns_of(domain: str) -> list[tuple[str, str]]:
    """(singular, plural) nouns naming ``domain``: its name ("Restaurants_1" → restaurant) and
    :data:`DOMAIN_NOUNS`."""
    base = re.sub(r"_\d+$", "", domain).replace("_", " ").lower()
    singular = base[:-1] if base.endswith("s") and not base.endswith("ss") else base
    return [(singular, singular + "s"), *DOMAIN_NOUNS.get(singular, ())]


def _amounts(doc, nouns: dict[int, tuple[str, bool]]) -> list[tuple[int, int, int, str]]:  # type: ignore[no-untyped-def]
    """(start, end, amount, noun domain or "") of every amount followed by a domain noun."""
    out = []
    i = 0
    while i < len(doc):
        for width in (2, 1):
            words = doc[i : i + width]
            if len(words) < width or words[0].lower_ in ("no", "none") or any(t.is_punct for t in words):
                continue
            if width == 1 and not (words[0].like_num or words[0].lower_ in NUMBER_WORDS):
                continue
            amount = parse_amount(words.text)
            if amount is None or (words.text.isdigit() and len(words.text) > 4):
                continue
            noun = _noun_after(doc, i + width, nouns, couple=words[-1].lower_ == "couple")
            if noun is not None and noun[1] == (amount != 1):
                out.append((i, i + width, amount, noun[0]))
                i += width - 1
                break
        i += 1
    return out


def _noun_after(doc, j: int, nouns: dict[int, tuple[str, bool]], couple: bool) -> tuple[str, bool] | None:  # type: ignore[no-untyped-def]
    for k in range(j, min(j + MAX_GAP + 1, len(doc))):
        if k in nouns:
            return nouns[k]
        if couple and k == j and doc[k].lower_ == "of":
            continue
        if not _gap_word(doc[k]):
            return None
    return None


def _gap_word(tok) -> bool:  # type: ignore[no-untyped-def]
    """A word that may stand between an amount or a negative cue and its noun ("cheap", "-")."""
    return (tok.is_alpha or tok.text == "-") and tok.lower_ not in _GAP_STOP and not tok.like_num
