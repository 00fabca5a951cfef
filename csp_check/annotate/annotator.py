"""The annotator of one KB: its matchers and KB look-ups, and the acts of one utterance.

:class:`Annotator` builds spaCy ``PhraseMatcher`` matchers for a KB's values (in every wording of
:mod:`csp_check.annotate.wordings`), its domain nouns, the negative cues and the masked phrases;
:meth:`Annotator.acts_in_context` reads one utterance with them (the package docstring gives
the rules). :func:`annotator_for` keeps the last few annotators built.
"""

from __future__ import annotations

import re
from collections import defaultdict
from itertools import accumulate
from typing import TYPE_CHECKING

from csp_check.annotate.amounts import amounts
from csp_check.annotate.finders import code_columns, codes, flags, stars, times, trip_ids
from csp_check.annotate.lexicon import (
    ADDRESS_WORDS,
    COMPARATIVES,
    CONTEXT_COLUMNS,
    CUISINE_QUALIFIERS,
    ENTITY_COLUMNS,
    FLAG_WORDS,
    GENERIC_NOUNS,
    MASK_PATTERN,
    MASKED_PHRASES,
    NEGATIVE_CUES,
    SENTENCE_END,
    SKIPPED_COLUMNS,
    STREET_WORDS,
    TOPIC_WORDS,
    USER_NEGATIONS,
)
from csp_check.annotate.memory import Memory
from csp_check.annotate.mentions import (
    Found,
    alternative_to_noun,
    doubted,
    first_mentions,
    negated,
    not_choices,
    said_of_another,
    to_act,
)
from csp_check.annotate.no_result import no_result_scope, note_unread_request
from csp_check.annotate.offered_names import unknown_names
from csp_check.annotate.resolve import (
    DomainContext,
    bound_domain,
    column_of,
    in_context,
    is_reference,
    sentence_domains,
)
from csp_check.annotate.wordings import compact, kb_values, nouns_of, spellings, variants
from csp_check.check.evaluate import count_matches
from csp_check.language.normalize import fold_aligned, normalize
from csp_check.language.tokenizer import PhraseMatcher, blank_nlp, filter_spans
from csp_check.models import ActRole, DialogueAct, KnowledgeBase

if TYPE_CHECKING:
    from spacy.tokens import Doc

_CACHE: dict[tuple[int, tuple], tuple[KnowledgeBase, Annotator]] = {}


def annotator_for(kb: KnowledgeBase, ontology: dict[str, list[str]]) -> Annotator:
    """The (cached) annotator of one KB and ontology; the cache keeps the KB alive, so its id is stable."""
    key = (id(kb), tuple(sorted((k, tuple(v)) for k, v in ontology.items())))
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not kb:
        if len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        hit = _CACHE[key] = (kb, Annotator(kb, ontology))
    return hit[1]


def _inside(span: tuple[int, int], spans: dict[tuple[int, int], object]) -> bool:
    """Whether token span ``span`` lies inside a longer one of ``spans`` ("Bridge" in "32 Bridge
    Street City Centre": a word of an address names no hotel)."""
    return any(s <= span[0] and span[1] <= e and (s, e) != span for s, e in spans)


class Annotator:
    """Matchers for one KB: values (label ``domain\\x1fcolumn``), domain nouns and negative cues."""

    def __init__(self, kb: KnowledgeBase, ontology: dict[str, list[str]] | None = None):
        self.kb = kb
        self.nlp = blank_nlp()
        self._last_doc: tuple[str | None, Doc | None] = (None, None)
        self.values = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.nouns = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.cues = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.domains = list(kb.tables)
        self.columns: dict[str, set[str]] = {d: set().union(*t.entities) if t.entities else set() for d, t in kb.tables.items()}
        self.column_order: dict[tuple[str, str], int] = {}
        self.code_forms = code_columns({d: {c: [str(e[c]) for e in t.entities if e.get(c)] for c in self.columns[d]}
                                        for d, t in kb.tables.items()})  # fmt: skip
        self.canonical: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        patterns: dict[str, list[str]] = defaultdict(list)
        for domain, column, value in kb_values(kb, ontology or {}):
            self.column_order.setdefault((domain, column), len(self.column_order))
            self.canonical[(domain, column)].setdefault(normalize(value), value)
            patterns[f"{domain}\x1f{column}"] += spellings(value)
        for (domain, column), forms in variants(self.canonical).items():
            for form, value in forms.items():
                self.canonical[(domain, column)].setdefault(normalize(form), value)
                patterns[f"{domain}\x1f{column}"].append(form)
        self.compact: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        for key, forms in self.canonical.items():
            for value in forms.values():
                self.compact[key].setdefault(compact(value), value)
        for label, forms in patterns.items():
            self.values.add(label, list(self.nlp.tokenizer.pipe(dict.fromkeys(forms))))
        for domain in self.domains:
            for number, nouns in enumerate(zip(*nouns_of(domain))):
                self.nouns.add(f"{domain}\x1f{number}", list(self.nlp.tokenizer.pipe(nouns)))
        for number, nouns in enumerate(zip(*GENERIC_NOUNS)):
            self.nouns.add(f"\x1f{number}", list(self.nlp.tokenizer.pipe(nouns)))
        self.cues.add("NEG", list(self.nlp.tokenizer.pipe(NEGATIVE_CUES)))
        self.own_values: dict[str, tuple[str, str]] = {}  # "hotel" is the hotel table's noun and a type
        for domain, table in kb.tables.items():
            noun = nouns_of(domain)[0][0]
            for entity in table.entities:
                column = next((c for c, v in entity.items() if normalize(v) == noun and c not in SKIPPED_COLUMNS), None)
                if column is not None and len({e.get(column) for e in table.entities}) > 1:
                    self.own_values[domain] = (column, noun)
                    break
        # "1 hotel": the own value's noun within three words after a count, the noun read
        # literally (a KB's domain may hold regex metacharacters); compiled once per KB
        self.own_after_count: dict[str, re.Pattern[str]] = {
            domain: re.compile(rf"\W*(?:\w+\W+){{0,3}}?{re.escape(value)}s?\b") for domain, (_, value) in self.own_values.items()
        }
        self.masks = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.masks.add("MASK", list(self.nlp.tokenizer.pipe(MASKED_PHRASES)))

    def count(self, domain: str, filters: dict[str, str]) -> tuple[int, int]:
        """(sure, possible) number of ``domain`` entities matching ``filters`` (column → value)."""
        table = self.kb.tables.get(domain)
        if table is None:
            return 0, 0
        columns = list(filters)
        return count_matches(table.normalized(), columns, [normalize(filters[c]) for c in columns])

    def entity_column(self, domain: str) -> str | None:
        """The column naming ``domain``'s entities (``name``, ``trainID``), if it has one."""
        return next((c for c in ENTITY_COLUMNS if c in self.columns.get(domain, ())), None)

    def row(self, domain: str, name: str) -> dict[str, str] | None:
        """The KB entity of ``domain`` whose name is ``name`` (normalised), if any."""
        column = self.entity_column(domain)
        table = self.kb.tables.get(domain)
        if column is None or table is None:
            return None
        key = normalize(name)
        return next((e for e in table.entities if normalize(e.get(column, "")) == key), None)

    def value_elsewhere(self, target: str, slot: str, memory: Memory) -> tuple[str, str] | None:
        """(value, domain) of ``slot`` another domain set most recently: its entity under
        discussion's (the KB row), else its request's."""
        for domain in reversed(memory.recent):
            if domain == target:
                continue
            name = memory.entity.get(domain)
            row = self.row(domain, name) if name else None
            if row is not None and row.get(slot):
                return row[slot], domain
            values = memory.state.get(domain, {}).get(slot)
            if values and len(values) == 1:
                return values[0], domain
        return None

    def values_named(self, domain: str, slot: str, memory: Memory) -> set[str]:
        """The values of ``slot`` of every entity of ``domain`` the dialogue named so far."""
        rows = (self.row(domain, name) for name in memory.names.get(domain, ()))
        return {normalize(r[slot]) for r in rows if r is not None and r.get(slot)}

    def doc(self, utterance: str) -> Doc:
        """The spaCy ``Doc`` of ``utterance``'s folded text (``fold_aligned``: offsets are the
        utterance's), made once per utterance: the readers of one turn ask for it in turn, and no
        reader changes a ``Doc``."""
        said, doc = self._last_doc
        if said != utterance or doc is None:
            doc = self.nlp.make_doc(fold_aligned(utterance))
            self._last_doc = (utterance, doc)
        return doc

    def turn_acts(self, utterance: str, speaker: str, active: str | None = None) -> list[DialogueAct]:
        """The acts of one utterance, ordered by span (see the package docstring); ``active`` is
        the domain of the previous turns, used when a value or noun leaves the domain open."""
        return self.acts_in_context(utterance, speaker, Memory(active=active))[0]

    def acts_in_context(self, utterance: str, speaker: str, memory: Memory) -> tuple[list[DialogueAct], list[int]]:
        """The acts of one utterance given what the dialogue said before (``memory``; its active
        domain and last day are updated), and the character offsets where its sentences start."""
        doc = self.doc(utterance)
        bounds = [doc[i + 1].idx for i in range(len(doc) - 1) if doc[i].text in SENTENCE_END]
        labels = self.nlp.vocab.strings
        candidates: dict[tuple[int, int], dict[tuple[str, str], None]] = defaultdict(dict)
        for match_id, start, end in self.values(doc):
            domain, column = labels[match_id].split("\x1f")
            candidates[(start, end)][(domain, column)] = None
        masked = self._masked(doc)
        value_tokens = {i for (start, end) in candidates for i in range(start, end)}
        inside_values = {i for (start, end) in candidates if end - start > 1 for i in range(start, end)}
        nouns = self._domain_nouns(doc, inside_values)
        mentioned = {d for i, (d, _) in nouns.items() if d and not is_reference(doc, i)}
        lowers = [t.lower_ for t in doc]
        mentioned |= {d for d, words in TOPIC_WORDS.items() if d in self.columns for w in lowers if w in words}
        sure_at = [(span[0], next(iter(c))[0]) for span, c in candidates.items() if len({d for d, _ in c}) == 1
                   and not {col for _, col in c} & CONTEXT_COLUMNS and not _inside(span, candidates)]  # fmt: skip
        context = DomainContext(
            mentioned=mentioned,
            sure={d for _, d in sure_at},
            active=memory.active,
        )  # fmt: skip
        qualified: set[int] = set()
        places = sum(1 for c in candidates.values() if {col for _, col in c} & {"departure", "destination"})
        found: list[Found] = []
        sentence_of = list(accumulate((t.text in SENTENCE_END for t in doc[:-1]), initial=0))  # token → its sentence
        named_in = sentence_domains(doc, nouns, {d: w for d, w in TOPIC_WORDS.items() if d in self.columns}, sentence_of)
        names = {end - 1: next(iter(c))[0] for (start, end), c in candidates.items()
                 if len({d for d, _ in c}) == 1 and all(col in ENTITY_COLUMNS for _, col in c)}  # fmt: skip
        for (start, end), options in candidates.items():
            owners = [d for d, _ in options]
            bound = bound_domain(doc, start, end, nouns, value_tokens, names) if len(set(owners)) > 1 else None
            local = context.within(named_in(start), {d for at, d in sure_at if sentence_of[at] <= sentence_of[start]})
            domain = bound if bound in owners else local.pick(owners)  # "a taxi to a cheap restaurant"
            assert domain is not None  # options is never empty
            columns = [c for d, c in options if d == domain]
            column = column_of(doc, start, end, domain, columns, memory.state, value_tokens, self.column_order)
            text = doc[start:end].text
            value = self.canonical[(domain, column)].get(normalize(text)) or self.compact[(domain, column)].get(compact(text), text)
            if column in CONTEXT_COLUMNS and not in_context(doc, start, domain, local, places):
                if column == "day":
                    memory.last_day = value
                continue
            if column == "day":
                memory.last_day = value
            if column == "area" and end < len(doc) and doc[end].lower_ in STREET_WORDS:
                continue  # "East Road", "North Street": a street's name, no area
            before = start - (start > 1 and doc[start - 1].lower_ in ("city", "town"))  # "Street [City] Centre"
            if column in ("area", "type") and before > 0 and doc[before - 1].lower_ in ADDRESS_WORDS:
                continue  # "Cambridge Business Park", "Regent Street City Centre": an address, no kind or area
            if column == "pricerange" and start > 0 and doc[start - 1].lower_ in COMPARATIVES:
                continue  # "the most expensive one" ranks, it does not ask
            if alternative_to_noun(doc, start, end, nouns):
                continue  # "a hotel or guesthouse": either will do
            if speaker == "user" and negated(doc, start, 6, USER_NEGATIONS, end):
                continue  # "I don't want a guesthouse": no value asked
            if speaker == "user" and said_of_another(doc, start, nouns):
                continue  # "my sister lives in the north": a value of her, none asked
            if start in masked:
                continue  # inside "Cambridge TownInfo centre"
            if column == "food" and start > 0 and doc[start - 1].lower_ in CUISINE_QUALIFIERS:
                if speaker == "user":
                    memory.unread.add(domain)
                qualified.add(start - 1)
                continue  # "South Indian", "eastern European", "Latin American": another cuisine
            found.append(Found(start, end, domain, column, value))
        found = [f for f in found if f.start not in qualified and f.end - 1 not in qualified]
        found += flags(doc, speaker, self.columns)
        found += [f for f in stars(doc, self.columns)  # "3 stars rather than 4 stars": the 4 is rejected
                  if speaker != "user" or not negated(doc, f.start, 6, USER_NEGATIONS, f.end)]  # fmt: skip
        found += trip_ids(doc, found, self.columns)
        if speaker == "system":
            found += codes(doc, found, context, self.code_forms)
            found += unknown_names(doc, utterance, found, nouns, context, masked, self.columns)
        found += times(doc, context, found, speaker, self.columns)
        if speaker == "user":
            note_unread_request(doc, found, memory, self.columns)
            self._note_own_values(doc, found, nouns, memory)
        if speaker == "system":
            for start, end, amount, noun_domain, bare in amounts(doc, nouns):
                searched = memory.searched if bare and not (context.mentioned | context.sure) else set()
                domain = noun_domain or (next(iter(searched)) if len(searched) == 1
                                         else context.pick(self.domains, guess=len(self.domains) == 1))  # fmt: skip
                if bare and domain in memory.unread:
                    continue  # "eastern European … I have 5 to choose from": a bare count of an unread request
                if domain is not None:  # an amount of a KB domain only
                    found.append(Found(start, end, domain, "choice", str(amount), amount=True))
        kept = {(s.start, s.end) for s in filter_spans([doc[f.start : f.end] for f in found])}
        found = sorted((f for f in found if (f.start, f.end) in kept), key=lambda f: f.start)
        found = list({(f.start, f.end): f for f in found}.values())  # one per span; an amount wins
        found = first_mentions(doc, found, speaker)
        scope = no_result_scope(self.cues, doc, nouns, found) if speaker == "system" else None
        if speaker == "system":  # "neither one is a guesthouse" states no type
            found = [f for f in found if f.amount or (scope is not None and scope[0] <= f.start < scope[1])
                     or f.slot in FLAG_WORDS or not negated(doc, f.start, 4, end=f.end)]  # fmt: skip
            found = not_choices(doc, found)
        found = doubted(doc, found, speaker, scope)
        acts = [to_act(f, doc, utterance, speaker, scope is not None and scope[0] <= f.start < scope[1]) for f in found]
        if scope is not None:
            inside = [f for f in found if scope[0] <= f.start < scope[1] and not f.amount]
            named = [nouns[i][0] for i in nouns if scope[0] <= i < scope[1] and nouns[i][0]] + [f.domain for f in inside]
            domain = context.pick(named or self.domains, guess=bool(named) or len(self.domains) == 1)
            if domain is not None:
                acts.insert(0, DialogueAct(role=ActRole.NO_RESULT, act="nooffer", domain=domain))
        spoken = [a.domain for a in acts if a.span is not None and a.role is not ActRole.COUNT]
        if len(mentioned) == 1 and (speaker == "user" or not spoken):
            memory.active = next(iter(mentioned))
        elif spoken:
            memory.active = spoken[-1]
        return acts, bounds

    def _masked(self, doc) -> set[int]:  # type: ignore[no-untyped-def]
        """Tokens inside a phrase that names the service ("Cambridge TownInfo centre", "your visit to
        Cambridge"): no value is read there."""
        masked = {i for _, start, end in self.masks(doc) for i in range(start, end)}
        for m in MASK_PATTERN.finditer(doc.text.lower()):
            span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
            masked |= set(range(span.start, span.end)) if span is not None else set()
        return masked

    def _domain_nouns(self, doc, inside_values: set[int]) -> dict[int, tuple[str, bool]]:  # type: ignore[no-untyped-def]
        """Start token → (domain, or "" for a generic noun; plural) of the nouns of ``doc`` outside
        the multi-word values (tokens ``inside_values``); a domain's noun wins over a generic one,
        then the longest."""
        labels = self.nlp.vocab.strings
        nouns: dict[int, tuple[str, bool]] = {}
        widths: dict[int, tuple[bool, int]] = {}
        for match_id, start, end in self.nouns(doc):
            domain, number = labels[match_id].split("\x1f")
            if start in inside_values:  # "park" in "Cambridge Leisure Park"
                continue
            if start > 0 and doc[start - 1].lower_ in ADDRESS_WORDS:  # "the Cambridge Business Park"
                continue
            rank = (bool(domain), end - start)  # a domain's noun over a generic one, then the longest
            if start not in widths or rank > widths[start]:
                nouns[start], widths[start] = (domain, number == "1"), rank
        return nouns

    def _note_own_values(  # type: ignore[no-untyped-def]
        self, doc, found: list[Found], nouns: dict[int, tuple[str, bool]], memory: Memory
    ) -> None:
        """A user's bare "hotel" may mean the domain or the type ``hotel`` (:attr:`own_values`):
        note it in ``memory.maybe`` (and drop the type asked before); a type said clears it."""
        for domain, (column, value) in self.own_values.items():
            if any(f.domain == domain and f.slot == column for f in found):
                memory.maybe.pop(domain, None)
            elif any(d == domain and doc[i].lower_ in (value, value + "s") for i, (d, _) in nouns.items()):
                memory.maybe[domain] = (column, value)
                memory.state.get(domain, {}).pop(column, None)  # "how about a hotel?" after "a guesthouse"
