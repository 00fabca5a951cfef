"""Annotator: raw dialogue text + KB → dialogue acts with spans and a belief state (spec §5, §6, §9).

Raw text (an LLM's output; what the pytest plugin sees) has no acts, spans or belief state.
:func:`annotate` finds the variables by matching the KB's values and amount words against each
utterance, recovers what the user asked for across turns, and gives every variable the role the
constraint builder reads (:mod:`csp_check.build.builder`); it emits only the existing
:class:`~csp_check.models.DialogueAct` / ``Turn.state`` model.

Reading rules

**Values.** A spaCy blank English tokenizer and a ``PhraseMatcher(attr="LOWER")`` with one label
per (domain, column) of every KB table (and the dialogue's ``ontology``), each value also in the
normaliser's spellings (:data:`SPELLINGS`), in the wordings of :data:`PARAPHRASES` ("mid-range",
"centre of town", "boating", "swimming pool") and, for names and places, in variants that name one
entity only ("B&B" / "bed and breakfast", "&" / "and", "King's" / "Kings", "the Lensfield" for
"the lensfield hotel"); text spaced differently ("78 - 80 milton road") maps to its value.
Besides: star ratings ("4-star", "a star rating of 4"), yes/no amenities from their keywords
("free wifi", "no parking": :data:`FLAG_WORDS`) and trip times with a cue (:meth:`Annotator._times`).
Not matched: the ``id`` column, single-valued columns, yes/no/free flags, bare numbers of up to four
digits, descriptions (columns whose median value is over five words), a table's own noun as a
value (the user's "hotel" is the domain, not ``type=hotel``: see below), everyday names ("the
place"), text inside the service's name ("Cambridge TownInfo centre", "your visit to Cambridge").

**Domain and column.** The longest match wins. A value several tables share takes its domain
from the nouns of the utterance (not those that are a reference point: "as the hotel"), then its
unambiguous values, then the active domain (the one the dialogue is about). Places and days
(:data:`CONTEXT_COLUMNS`) count only when their domain is in context ("on my trip to Cambridge I
need a hotel" names no station); a day said elsewhere is remembered for "the same day". Departure
or destination: a cue before ("from", "leaving", "arriving in", "for") or "X to …" after, else the
place the request already has, else the one it lacks. Trip times: the nearest cue word decides
``leaveAt`` ("leave after 17:00") or ``arriveBy`` ("arrive by 18:30"); the user's are bounds in
the belief state (the builder keeps them out of equality filters); a system's time is a claim only
when it is the time of a trip ("TR0397 leaves at 15:17"), not a bound restated ("arrive by 13:45").

**Roles and the request.** User values are ``inform`` and update the belief state (entity names
excepted; naming an entity makes the request that entity's values). Not a request: a negated
value ("I don't want a guesthouse"), one offered as an alternative to the domain noun ("a hotel
or guesthouse"), a ranking ("the most expensive one"), a cuisine qualified by a word no value
has ("South Indian", "Latin American"; the request is then *unread*). "The same area / price
range as the hotel", "the same day" add an implicit inform (no span) with the value set before.
System turns: a name is an ``offer``, and so are the other values of a turn that names an entity;
values restating the search in a plain statement ("there are a few cheap restaurants in the
east") are ``confirm``; values about "it" / "their address" without a name get an implicit
``inform`` of the entity under discussion (the last one named), so they are checked against that
entity; a booking's one name is a ``confirm`` of the entity under discussion; negated values
("neither is a guesthouse") and values offered as choices ("north, south or centre?") are no claims.

**Amounts** (system turns): a number or number word followed within :data:`MAX_GAP` words by a
domain noun that agrees in number gives a ``count`` act; one after a bound or hedge ("over 30",
"more than 10", "about 70") is a count with that comparison (:func:`csp_check.language.cues.amount_op`).
Not a count: an amount after other :data:`APPROXIMATE` words ("some 20", "maybe 3"), a rating ("4 star hotels"), "two other guesthouses", a denial ("no cheap 4
star hotels"), "one" without an existential ("One place I'd recommend"), a count right after the
user named an entity, and several counts of one domain in a turn (a breakdown one search cannot
express). A turn that counts carries the search its count is about as its ``state``: the user's
request plus the values of the count's sentence before any entity or other number. The user's
"hotel" may be the domain or the type: a count (or no-result) true only under the type gets the
type as an implicit value (the reading under which the text holds, as with missing DB fields).

**No result** (system turns): a negative cue (:data:`NEGATIVE_CUES`, "nothing", a negation before
"any" / "find" / "have") followed by a domain noun or a value, or ending its clause, makes its
sentence (up to "but" / "however") a no-result statement: a value-less ``no_result`` act and its
values re-labelled ``no_result``; the user's request values it does not repeat join as implicit
no-result values ("no matching restaurants in the north"). "No other options" is none; a denial in a
domain whose request is unread ("Hungarian food"), or naming a word no value has, is left out.
A system turn reporting no result that offers an entity offers an alternative: its state is what
it offers.

Limits: nothing is invented that is not written or set before; a user's yes/no question about an
entity ("is it cheap?") is read as a request; several entities listed in one sentence are each
checked with the request alone; a count whose search the turn cannot express (a breakdown by
value, "the cheapest") gets no C6; pronouns other than "it" / "they" are not resolved; the
wording tables (:data:`PARAPHRASES`, :data:`DOMAIN_NOUNS`, :data:`MASKED_PHRASES`) are English and
MultiWOZ-shaped, and a KB with other columns gets only the generic rules.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from csp_check.check.evaluate import count_matches
from csp_check.models import ActRole, Dialogue, DialogueAct, KnowledgeBase, Span, Turn
from csp_check.language.normalize import NUMBER_WORDS, clock_time, fold_aligned, normalize, parse_amount

#: Columns whose value identifies an entity: a system turn that names one *offers* it.
ENTITY_COLUMNS = frozenset({"name", "trainID"})
#: Which column a span shared by several columns of one domain belongs to (then KB order).
COLUMN_PRIORITY = ("name", "trainID", "food", "type", "area", "pricerange", "departure", "destination", "day")
#: Words before a place that make it a departure / a destination ("from X", "arriving in X").
DEPARTURE_CUES = frozenset({"from", "leaving", "leave", "leaves", "depart", "departs", "departing", "departure", "out"})
DESTINATION_CUES = frozenset({"to", "into", "arriving", "arrive", "arrives", "arrival", "destination", "towards",
                              "reach", "reaching", "headed", "heading", "bound", "for"})  # fmt: skip
#: Columns of trip bounds: "leave after 17:00", "arrive by 18:30" (MultiWOZ ``leaveAt`` / ``arriveBy``).
BOUND_COLUMNS = ("leaveAt", "arriveBy")
#: The word nearest before a clock time that makes it a departure (leaveAt) or arrival (arriveBy) bound.
LEAVE_CUES = frozenset({"leave", "leaves", "leaving", "left", "depart", "departs", "departing", "departure", "after"})
ARRIVE_CUES = frozenset({"arrive", "arrives", "arriving", "arrival", "by", "before", "reach", "reaches", "reaching"})
#: Cue words that make a time a bound, not the time of one trip ("by 18:30", "after 17:00").
BOUND_WORDS = frozenset({"by", "before", "after", "than", "until", "till", "later", "earlier", "between", "from",
                         "closest", "nearest", "around", "about", "near"})
#: Columns whose values are everyday words outside their domain (the city, a weekday): a value
#: of them counts only when its domain is in the context (named, the active domain, or cued).
CONTEXT_COLUMNS = frozenset({"departure", "destination", "day"})
#: Wordings of KB values beyond the normaliser's spellings, per column (used when the KB has the value).
PARAPHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "pricerange": {
        "moderate": ("mid-range", "mid - range", "mid range", "midrange", "mid-price", "mid - price", "mid price",
                     "mid-priced", "mid - priced", "mid priced", "moderately - priced", "moderately-priced",
                     "reasonably priced", "moderate price", "moderate prices", "moderately price"),
        "cheap": ("inexpensive", "cheaply priced", "low-cost", "low cost"),
        "expensive": ("pricey", "upscale", "high-end", "high - end", "high end", "expensively priced", "luxury"),
    },
    "area": {
        "centre": ("centre of town", "center of town", "town centre", "town center", "central", "centrally located",
                   "centre of cambridge", "center of cambridge", "middle of town", "downtown"),
        "north": ("northern", "northside"), "south": ("southern", "southside"), "east": ("eastern", "eastside"),
        "west": ("western", "westside"),
    },
    "type": {
        "guesthouse": ("b&b", "b & b", "b and b", "bed and breakfasts", "guest houses"),
        "boat": ("boating", "boats", "boat tour", "boat tours"),
        "swimmingpool": ("swimming pool", "swimming pools", "pool", "pools"),
        "concerthall": ("concert hall", "concert halls", "concert venue"),
        "nightclub": ("night club", "night clubs", "nightclubs", "club", "clubs"),
        "mutliple sports": ("multiple sports", "sports", "sport", "sports centre", "sports center"),
        "theatre": ("theater", "theatres", "theaters"),
        "architecture": ("architectural",),
        "cinema": ("cinemas", "movie theater", "movie theatre"),
        "museum": ("museums",), "college": ("colleges",), "park": ("parks",), "entertainment": ("entertaining",),
    },
    "food": {
        "asian oriental": ("asian", "oriental"), "gastropub": ("gastro pub", "gastropubs"),
        "seafood": ("sea food",), "modern european": ("modern european",),
    },
}  # fmt: skip
#: Spellings the normaliser treats as one value; a KB value is also matched in the others.
SPELLINGS = (
    ("centre", "center", "city centre", "city center"),
    ("guesthouse", "guest house", "guesthouses", "guest houses", "bed and breakfast"),
    ("moderate", "moderately priced"),
)
SKIPPED_COLUMNS = frozenset({"id"})
FLAG_VALUES = frozenset({"yes", "no", "true", "false", "free", "none", "dontcare"})
MAX_VALUE_TOKENS = 12
#: Yes / no columns found by a keyword ("free parking", "wifi"): column → its keywords.
FLAG_WORDS = {"parking": ("parking",), "internet": ("wifi", "wi-fi", "wi - fi", "internet", "wireless")}
#: Words of a clause that negate a flag keyword ("no parking", "does n't have wifi").
NEGATIONS = frozenset({"no", "not", "n't", "without", "doesn't", "don't", "isn't", "lacks", "neither", "nor", "none",
                       "opposed", "instead", "rather", "never", "nothing"})
#: A user's "are there no cheap ones?" still asks for cheap ones.
USER_NEGATIONS = NEGATIONS - {"no", "none"}
#: Phrases that name the service, not a value ("Cambridge TownInfo centre"): nothing in them is matched.
MASKED_PHRASES = ("cambridge towninfo centre", "cambridge towninfo center", "towninfo centre", "towninfo center",
                  "cambridge towninfo", "town info centre", "cambridge town info centre")
_MASK = re.compile(r"\bcambridge\s+towne?\s*info\w*(?:\s+cent(?:re|er))?|\btowne?\s*info\w*\s+cent(?:re|er)"
                   r"|\b(?:visit|trip|stay|time|welcome|enjoy|vacation|holiday|here)\s+(?:to\s+|in\s+)?cambridge\b")
#: Words before a cuisine that make it another one.
_QUALIFIERS = frozenset({"north", "south", "east", "west", "northern", "southern", "eastern", "western", "latin",
                         "central", "northeast", "southeast", "northwest", "southwest"})  # fmt: skip
#: Words before a price range that rank instead of asking ("the most expensive one").
COMPARATIVES = frozenset({"most", "least", "more", "less"})
#: Words before an amount that make it no exact count ("over 30", "more than 10"); a bound or hedge
#: the checker reads (:func:`_bounded`) still makes a count, with its comparison.
APPROXIMATE = frozenset({"over", "than", "least", "about", "around", "nearly", "almost", "approximately", "roughly",
                         "under", "upwards", "some", "most", "maybe", "perhaps", "of"})  # fmt: skip
#: "the same area / price range / day" in a user turn: the value comes from what the dialogue set before.
SAME = re.compile(r"\bsame (area|part of town|side of town|location|neighbou?rhood|price ?range|price|day|night|date)\b")
SAME_SLOT = {"area": "area", "part of town": "area", "side of town": "area", "location": "area", "neighborhood": "area",
             "neighbourhood": "area", "pricerange": "pricerange", "price range": "pricerange", "price": "pricerange",
             "day": "day", "night": "day", "date": "day"}  # fmt: skip
#: Words that refer to the entity under discussion rather than name it.
ANAPHORS = frozenset({"it", "its", "it's", "they", "their", "address", "phone", "postcode"})
#: Describing words a no-result sentence may use beside its domain noun without naming a value.
PLAIN_WORDS = frozenset({"matching", "other", "such", "any", "more", "available", "suitable", "good", "nice", "great",
                         "open", "similar", "particular", "specific", "kind", "type", "many", "few", "the", "a", "an",
                         "that", "those", "these", "some", "of", "in", "with", "for", "free", "all", "results",
                         "options", "entries", "listings", "local", "your", "those", "criteria", "star", "stars",
                         "rated", "priced", "currently", "really", "certain", "exact", "exactly", "to", "do", "see",
                         "visit", "go", "eat", "stay", "that", "which", "who", "is", "are", "be", "at", "on", "by"})  # fmt: skip
#: Domain nouns beyond each KB domain's own name (singular, plural), used only for KB domains.
DOMAIN_NOUNS = {
    "restaurant": (("eatery", "eateries"), ("place to eat", "places to eat"), ("place to dine", "places to dine"),
                   ("dining establishment", "dining establishments"), ("somewhere to eat", "somewhere to eat")),
    "hotel": (("guesthouse", "guesthouses"), ("guest house", "guest houses"), ("place to stay", "places to stay"),
              ("lodging", "lodgings"), ("accommodation", "accommodations")),
    "attraction": (("museum", "museums"), ("college", "colleges"), ("park", "parks"),
                   ("thing to do", "things to do"), ("place to go", "places to go")),
    "train": (("connection", "connections"), ("train ride", "train rides")),
    "taxi": (("cab", "cabs"),),
}  # fmt: skip
#: Words that tell which domain an utterance is about but count nothing ("2 nights" is no amount of hotels).
TOPIC_WORDS = {"restaurant": ("food", "foods", "cuisine", "cuisines", "dining", "dine", "eat"),
               "hotel": ("room", "rooms", "night", "nights")}  # fmt: skip
GENERIC_NOUNS = (("place", "places"), ("option", "options"), ("choice", "choices"), ("result", "results"),
                 ("match", "matches"), ("venue", "venues"), ("one", "ones"),
                 ("listing", "listings"))  # fmt: skip
NEGATIVE_CUES = ("no", "none", "there is no", "there are no", "there's no", "there isn't any", "there aren't any",
                 "couldn't find any", "could not find any", "can't find any", "cannot find any",
                 "unable to find any", "don't have any", "do not have any", "could n't find any",
                 "ca n't find any", "do n't have any", "there is n't any", "there are n't any", "there is n't",
                 "there are n't", "there isn't", "there aren't")  # fmt: skip
#: Verbs a negation turns into a no-result cue ("could not find a …", "do n't have …").
_FINDING = frozenset({"find", "found", "have", "see", "locate", "show", "get", "offer"})
#: Words before "one" / "1" that make it a count ("there is one", "I found 1", "only one").
_EXISTENTIAL = frozenset({"is", "are", "'s", "have", "has", "found", "see", "only", "exactly", "just", "got", "show",
                          "shows", "was", "were", "located", "returned", "results"})  # fmt: skip
#: Words allowed between an amount and its noun ("three cheap italian restaurants").
MAX_GAP = 4
_GAP_STOP = frozenset({"in", "at", "on", "for", "to", "from", "with", "and", "or", "but", "than", "by", "near", "of"})
_SMALL_NUMBER = re.compile(r"^\d{1,4}$")
_CLOCK = re.compile(r"(?<![\w:.])(\d{1,2}[:.]\d{2}(?:\s*(?:am|pm|a\.m\.|p\.m\.))?|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.))(?![\w:])")
_SENTENCE_END = frozenset({".", "?", "!", ";"})

State = dict[str, dict[str, list[str]]]


@dataclass
class Memory:
    """What the annotator carries from turn to turn: the user's belief state, the active domain,
    the entity under discussion per domain, the domains in order of mention and the last day named."""

    state: State = field(default_factory=dict)
    active: str | None = None
    entity: dict[str, str | None] = field(default_factory=dict)  # domain → canonical name, None if several
    recent: list[str] = field(default_factory=list)  # domains, least recent first
    last_day: str | None = None
    unread: set[str] = field(default_factory=set)  # domains whose request names a value no KB has
    maybe: dict[str, tuple[str, str]] = field(default_factory=dict)  # domain → (column, value) its noun may mean
    named: set[str] = field(default_factory=set)  # domains whose entity the last user turn named
    entity_turn: dict[str, int] = field(default_factory=dict)  # domain → turn its entity was last named
    turn: int = 0

    def touch(self, domain: str) -> None:
        if domain in self.recent:
            self.recent.remove(domain)
        self.recent.append(domain)


def annotate(dialogue: Dialogue, kb: KnowledgeBase) -> Dialogue:
    """A copy of ``dialogue`` whose turns carry acts with character spans found in their text.

    Every turn's ``acts`` (and ``state``: the belief state after each user turn; on a system
    turn that counts, the search its count is about) are replaced by what matching ``kb`` (and
    ``dialogue.ontology``) against the utterances finds; see the module docstring for the rules
    and limits (spec §5, raw text). ``kb_results`` are kept; ``domains`` is filled from the acts
    when empty. Never raises on a well-formed dialogue; a dialogue whose text names nothing comes
    back with no acts.
    """
    annotator = _annotator(kb, dialogue.ontology)
    memory = Memory()
    turns: list[Turn] = []
    for turn in dialogue.turns:
        acts, bounds = annotator.acts_in_context(turn.utterance, turn.speaker, memory)
        new_state: State = {}
        if turn.speaker == "system":
            counts = Counter(a.domain for a in acts if a.role is ActRole.COUNT)  # "6 guesthouses and 1 hotel":
            acts = [a for a in acts if not (a.role is ActRole.COUNT and counts[a.domain] > 1)]  # no one search
            acts = [a for a in acts if not (a.role is ActRole.COUNT and a.domain in memory.named)]  # "two called that"
            acts = _offers(acts)
            acts += _under_discussion(annotator, turn.utterance, acts, memory)
            acts = [_about_entity(annotator, a, acts, memory) for a in acts]
            acts = _restated(acts, memory.state, annotator.nlp.make_doc(fold_aligned(turn.utterance)))
            acts = _booked_entity(acts, turn.utterance, memory, turns)
            acts = _unreadable_denials(acts, memory.unread)
            acts += _no_result_request(acts, memory.state, annotator)
            new_state = _count_search(acts, bounds, memory.state, _numbers(turn.utterance))
            maybe = dict(memory.maybe)
            for domain, (column, value) in annotator.own_values.items():  # "1 hotel": the count's own noun
                if any(a.role is ActRole.COUNT and a.domain == domain and a.span is not None
                       and re.match(rf"\W*(?:\w+\W+){{0,3}}?{value}s?\b", turn.utterance[a.span.end :].lower())
                       for a in acts):  # fmt: skip
                    maybe[domain] = (column, value)
            acts += _what_the_noun_means(annotator, acts, new_state or memory.state, maybe)
            new_state = _alternatives(acts, new_state)
            for a in acts:
                if a.span is None and a.role is ActRole.INFORM and a.slot not in ENTITY_COLUMNS:
                    new_state = new_state or {d: dict(slots) for d, slots in memory.state.items()}
                    new_state.setdefault(a.domain, {})[a.slot] = [a.canonical or ""]
        else:
            acts += _same_as_before(annotator, turn.utterance, acts, memory)
            memory.state = _updated(memory.state, acts, annotator)
            memory.named = {a.domain for a in acts if a.slot in ENTITY_COLUMNS and a.span is not None}
            new_state = memory.state
        _remember(acts, memory, turn.speaker)
        turns.append(turn.model_copy(update={"acts": acts, "state": new_state}))
    domains = dialogue.domains or list(dict.fromkeys(a.domain for t in turns for a in t.acts))
    return dialogue.model_copy(update={"turns": turns, "domains": domains})


def _remember(acts: list[DialogueAct], memory: Memory, speaker: str) -> None:
    """Update the entity under discussion (a turn naming several entities of a domain leaves it
    open) and the domains' recency."""
    named: dict[str, set[str]] = defaultdict(set)
    for a in acts:
        if a.slot in ENTITY_COLUMNS and a.canonical and a.span is not None:
            named[a.domain].add(a.canonical)
        if a.span is not None:
            memory.touch(a.domain)
    for domain, names in named.items():
        memory.entity[domain] = next(iter(names)) if len(names) == 1 else None
        memory.entity_turn[domain] = memory.turn
    memory.turn += 1


def _offers(acts: list[DialogueAct]) -> list[DialogueAct]:
    """In a system turn that names an entity, the other values describe that entity: they are
    offered too (as SGD's OFFER and MultiWOZ's Recommend annotate them), so they are compared
    with what the user asked for. Trip times are not: "TR0397 leaves at 15:17" answers a bound
    ("after 13:30"), it does not repeat it."""
    offered = {a.domain for a in acts if a.role is ActRole.OFFER}
    return [
        a.model_copy(update={"role": ActRole.OFFER, "act": "offer"})
        if a.role is ActRole.INFORM and a.domain in offered and a.slot not in BOUND_COLUMNS
        else a
        for a in acts
    ]


_BOOKING = re.compile(r"\b(booked|reserved|reference|successful|successfully|confirmed|accommodate)\b", re.IGNORECASE)


def _booked_entity(acts: list[DialogueAct], utterance: str, memory: Memory, turns: list[Turn]) -> list[DialogueAct]:
    """A booking names the entity under discussion (the one the user chose or was offered last):
    the one name of a domain in a system turn about a booking is a confirm of it, and the user turn
    before records it in its state for that turn only, so a booking of another entity breaks C2."""
    if not _BOOKING.search(utterance) or not turns or turns[-1].speaker != "user":
        return acts
    out = []
    for a in acts:
        names = {b.canonical for b in acts if b.domain == a.domain and b.slot == a.slot}
        chosen = memory.entity.get(a.domain) if memory.entity_turn.get(a.domain, -9) >= len(turns) - 2 else None
        question = a.span is not None and re.match(r"[^.!?]*\?", utterance[a.span.end :]) is not None
        if a.slot in ENTITY_COLUMNS and a.role is ActRole.OFFER and a.span is not None and len(names) == 1 and chosen and not question:
            a = a.model_copy(update={"role": ActRole.CONFIRM, "act": "confirm"})
            state = {d: dict(slots) for d, slots in turns[-1].state.items()}
            state.setdefault(a.domain, {})[a.slot] = [chosen]
            turns[-1] = turns[-1].model_copy(update={"state": state})
        out.append(a)
    return out


def _restated(acts: list[DialogueAct], state: State, doc) -> list[DialogueAct]:  # type: ignore[no-untyped-def]
    """A system turn that names no entity and reports no failure restates the search ("there are
    a few cheap restaurants on the east side"): a value of a slot the user asked for, the only
    value of its slot in the turn, in a statement that does not contrast or refer ("it's on the
    expensive side", "only … but", "two are moderately priced and one is expensive") is a confirm,
    so it must equal the request (C2)."""
    about_entity = {a.domain for a in acts if a.slot in ENTITY_COLUMNS}
    failed = {a.domain for a in acts if a.role is ActRole.NO_RESULT}
    per_slot = Counter((a.domain, a.slot) for a in acts if a.span is not None)
    out = []
    for a in acts:
        if (a.role is ActRole.INFORM and a.span is not None and a.domain not in about_entity | failed
                and a.slot in state.get(a.domain, {}) and a.slot not in BOUND_COLUMNS
                and per_slot[(a.domain, a.slot)] == 1 and _plain_statement(doc, a.span.start)):
            a = a.model_copy(update={"role": ActRole.CONFIRM, "act": "confirm"})
        out.append(a)
    return out  # fmt: skip


#: Words of a sentence that contrast, refer or propose rather than restate the search.
_NOT_RESTATING = frozenset({"only", "but", "however", "instead", "otherwise", "either", "or", "try", "both", "it",
                            "its", "it's", "they", "their", "one", "other", "another", "some", "most", "although",
                            "though", "closest", "nearest", "unfortunately", "sorry"})  # fmt: skip


def _plain_statement(doc, char: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the sentence around character ``char`` is a statement without contrast or reference."""
    tokens = list(doc)
    i = next((t.i for t in tokens if t.idx <= char < t.idx + len(t.text) + 1), 0)
    first = max([0] + [t.i + 1 for t in tokens[:i] if t.text in _SENTENCE_END])
    last = next((t.i for t in tokens[i:] if t.text in _SENTENCE_END), len(tokens))
    words = {t.lower_ for t in tokens[first : last + 1]}
    return not words & _NOT_RESTATING and "?" not in words


def _updated(state: State, acts: list[DialogueAct], annotator: "Annotator | None" = None) -> State:
    """The belief state after a user turn: its informs replace their slots' values. Entity names
    are no search constraint (asking about one entity, then for another, is no contradiction);
    naming one makes the domain's request that entity's values for the slots asked so far
    (what follows is about it, even where it differs from the earlier search)."""
    said: dict[tuple[str, str], list[str]] = defaultdict(list)
    for act in acts:
        if act.role is ActRole.INFORM and act.canonical is not None and act.slot not in ENTITY_COLUMNS:
            if act.canonical not in said[(act.domain, act.slot)]:
                said[(act.domain, act.slot)].append(act.canonical)
    new = {domain: dict(slots) for domain, slots in state.items()}
    for a in acts:  # asking about one entity by name: the request is now what that entity has
        if a.slot in ENTITY_COLUMNS and a.span is not None and a.canonical and annotator is not None:
            row = annotator.row(a.domain, a.canonical)
            if row is not None:
                new[a.domain] = {k: [row[k]] for k in new.get(a.domain, {}) if row.get(k)}
    for (domain, slot), values in said.items():
        new.setdefault(domain, {})[slot] = values
    return new


def _implicit(role: ActRole, act: str, domain: str, slot: str, value: str) -> DialogueAct:
    """An act the text implies without writing its value (no span: an implicit variable)."""
    return DialogueAct(role=role, act=act, domain=domain, slot=slot, value=value, canonical=value)


def _same_as_before(annotator: "Annotator", utterance: str, acts: list[DialogueAct], memory: Memory) -> list[DialogueAct]:
    """"In the same area as the hotel", "on the same day": the value the dialogue set before for
    that slot (in another domain: its entity under discussion, else its request; a day: the last
    day named), as an implicit inform of the domain the utterance is about."""
    out = []
    text = fold_aligned(utterance).lower()
    for match in SAME.finditer(text):
        slot = SAME_SLOT[match.group(1)]
        target = _about(annotator, text[: match.start()], acts, memory, slot)
        if target is None or any(a.domain == target and a.slot == slot for a in acts):
            continue
        value = memory.last_day if slot == "day" else annotator.value_elsewhere(target, slot, memory)
        if value is not None:
            out.append(_implicit(ActRole.INFORM, "inform", target, slot, value))
    return out


def _about(annotator: "Annotator", before: str, acts: list[DialogueAct], memory: Memory, slot: str) -> str | None:
    """The domain a user utterance asks about (named before the "same …" words, else its acts',
    else the active one), if it has column ``slot``."""
    named = [d for d in annotator.domains for noun in _nouns_of(d)[0] if re.search(rf"\b{re.escape(noun)}s?\b", before)]
    options = named[-1:] or [a.domain for a in acts if a.span is not None][-1:] or ([memory.active] if memory.active else [])
    for domain in options:
        if slot in annotator.columns.get(domain, ()):
            return domain
    return None


def _under_discussion(annotator: "Annotator", utterance: str, acts: list[DialogueAct], memory: Memory) -> list[DialogueAct]:
    """A system turn that states values about "it" / "this place" without naming an entity is
    about the entity under discussion: an implicit inform of its name joins the turn, so its
    values are checked against that entity (spec §9 "which entity")."""
    if any(a.role in (ActRole.COUNT, ActRole.NO_RESULT) for a in acts):
        return []
    words = {t.lower_ for t in annotator.nlp.make_doc(fold_aligned(utterance))}
    if not words & ANAPHORS:
        return []
    out = []
    for domain in dict.fromkeys(a.domain for a in acts if a.span is not None and a.slot not in BOUND_COLUMNS):
        if any(a.domain == domain and a.slot in ENTITY_COLUMNS for a in acts):
            continue
        name = memory.entity.get(domain)
        column = annotator.entity_column(domain)
        if name is not None and column is not None:
            out.append(_implicit(ActRole.INFORM, "inform", domain, column, name))
    return out


def _about_entity(annotator: "Annotator", act: DialogueAct, acts: list[DialogueAct], memory: Memory) -> DialogueAct:
    """An address written in part or spaced differently ("on Trinity Street", "78 - 80 milton
    road") of the entity the turn is about (named in it, else under discussion) is that entity's
    address."""
    if act.slot != "address" or act.span is None or act.value is None:
        return act
    names = {a.canonical for a in acts if a.domain == act.domain and a.slot in ENTITY_COLUMNS and a.canonical}
    name = next(iter(names)) if len(names) == 1 else (memory.entity.get(act.domain) if not names else None)
    row = annotator.row(act.domain, name) if name else None
    if row is None or not row.get("address"):
        return act
    said, have = _compact(act.value), _compact(row["address"])
    if said and said in have and _compact(act.canonical or "") != have:
        return act.model_copy(update={"canonical": row["address"]})
    return act


def _compact(text: str) -> str:
    return re.sub(r"[\W_]+", "", normalize(text))


def _unreadable_denials(acts: list[DialogueAct], unread: set[str]) -> list[DialogueAct]:
    """A no-result statement in a domain whose request names a value no KB has ("Hungarian
    food") denies what cannot be read: it makes no no-result claim; its values are informs."""
    named = {a.domain for a in acts if a.role is ActRole.NO_RESULT and a.slot == "food"}
    out = []
    for a in acts:
        if a.role is ActRole.NO_RESULT and a.domain in unread - named:
            if not a.slot:
                continue
            a = a.model_copy(update={"role": ActRole.INFORM, "act": "inform"})
        out.append(a)
    return out


def _what_the_noun_means(
    annotator: "Annotator", acts: list[DialogueAct], search: State, maybe: dict[str, tuple[str, str]]
) -> list[DialogueAct]:
    """The user's "hotel" may be the domain or the type ``hotel``. A count or no-result of that
    domain that holds only when the noun means the type gets the type as an implicit value: the
    text is read in the sense under which it is true (as missing DB fields are)."""
    out = []
    for a in acts:
        if a.domain not in maybe or a.slot == maybe[a.domain][0] or a.role not in (ActRole.COUNT, ActRole.NO_RESULT):
            continue
        if a.role is ActRole.NO_RESULT and a.slot:
            continue
        column, value = maybe[a.domain]
        if a.role is ActRole.COUNT:
            filters = {k: v[0] for k, v in search.get(a.domain, {}).items() if len(v) == 1 and k not in BOUND_COLUMNS
                       and k not in ENTITY_COLUMNS}  # fmt: skip
            amount = int(a.canonical or 0)
            sure, possible = annotator.count(a.domain, filters)
            if column not in filters and not sure <= amount <= possible:
                sure, possible = annotator.count(a.domain, {**filters, column: value})
                if sure <= amount <= possible:
                    out.append(_implicit(ActRole.INFORM, "inform", a.domain, column, value))
        else:
            said = {b.slot: b.canonical or "" for b in acts if b.domain == a.domain and b.role is ActRole.NO_RESULT and b.slot}
            if column not in said and annotator.count(a.domain, said)[0] > 0 and annotator.count(a.domain, {**said, column: value})[0] == 0:
                out.append(_implicit(ActRole.NO_RESULT, "nooffer", a.domain, column, value))
    return out


def _alternatives(acts: list[DialogueAct], state: State) -> State:
    """A system turn that reports no result and offers an entity offers an alternative outside
    the request ("no moderate hotels in the east; there is an expensive one, X"): that turn's
    search is what it offers, so the request is not added to its offer."""
    failed = {a.domain for a in acts if a.role is ActRole.NO_RESULT}
    out = {d: dict(slots) for d, slots in state.items()}
    for domain in failed:
        offered = [a for a in acts if a.domain == domain and a.role is ActRole.OFFER and a.span is not None]
        if any(a.slot in ENTITY_COLUMNS for a in offered):
            out[domain] = {a.slot: [a.canonical or ""] for a in offered}
    return out if out != state else state


def _no_result_request(acts: list[DialogueAct], state: State, annotator: "Annotator") -> list[DialogueAct]:
    """A no-result statement is about the request in force ("no matching restaurants in the
    north"): the user's search values it does not repeat join it as implicit no-result values."""
    out = []
    for domain in {a.domain for a in acts if a.role is ActRole.NO_RESULT and not a.slot}:
        said = {a.slot for a in acts if a.domain == domain and a.role is ActRole.NO_RESULT}
        for slot, values in state.get(domain, {}).items():
            if slot in said or slot in ENTITY_COLUMNS or len(values) != 1:
                continue  # a bound joins as its value: none at exactly that time is implied by none after it
            if slot in annotator.columns.get(domain, ()):
                out.append(_implicit(ActRole.NO_RESULT, "nooffer", domain, slot, values[0]))
    return out


def _count_search(acts: list[DialogueAct], bounds: list[int], state: State, numbers: list[int]) -> State:
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

        self.kb = kb
        self.nlp = blank_nlp()
        self.values = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.nouns = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.cues = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.domains = list(kb.tables)
        self.columns: dict[str, set[str]] = {d: set().union(*t.entities) if t.entities else set() for d, t in kb.tables.items()}
        self.column_order: dict[tuple[str, str], int] = {}
        self.canonical: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        patterns: dict[str, list[str]] = defaultdict(list)
        for domain, column, value in _kb_values(kb, ontology or {}):
            self.column_order.setdefault((domain, column), len(self.column_order))
            self.canonical[(domain, column)].setdefault(normalize(value), value)
            patterns[f"{domain}\x1f{column}"] += spellings(value)
        for (domain, column), forms in _variants(self.canonical).items():
            for form, value in forms.items():
                self.canonical[(domain, column)].setdefault(normalize(form), value)
                patterns[f"{domain}\x1f{column}"].append(form)
        self.compact: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        for key, forms in self.canonical.items():
            for value in forms.values():
                self.compact[key].setdefault(_compact(value), value)
        for label, forms in patterns.items():
            self.values.add(label, list(self.nlp.tokenizer.pipe(dict.fromkeys(forms))))
        for domain in self.domains:
            for number, nouns in enumerate(zip(*_nouns_of(domain))):
                self.nouns.add(f"{domain}\x1f{number}", list(self.nlp.tokenizer.pipe(nouns)))
        for number, nouns in enumerate(zip(*GENERIC_NOUNS)):
            self.nouns.add(f"\x1f{number}", list(self.nlp.tokenizer.pipe(nouns)))
        self.cues.add("NEG", list(self.nlp.tokenizer.pipe(NEGATIVE_CUES)))
        self.own_values: dict[str, tuple[str, str]] = {}  # "hotel" is the hotel table's noun and a type
        for domain, table in kb.tables.items():
            noun = _nouns_of(domain)[0][0]
            for entity in table.entities:
                column = next((c for c, v in entity.items() if normalize(v) == noun and c not in SKIPPED_COLUMNS), None)
                if column is not None and len({e.get(column) for e in table.entities}) > 1:
                    self.own_values[domain] = (column, noun)
                    break
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

    def value_elsewhere(self, target: str, slot: str, memory: Memory) -> str | None:
        """The value of ``slot`` another domain set most recently: its entity under discussion's
        (the KB row), else its request's."""
        for domain in reversed(memory.recent):
            if domain == target:
                continue
            name = memory.entity.get(domain)
            row = self.row(domain, name) if name else None
            if row is not None and row.get(slot):
                return row[slot]
            values = memory.state.get(domain, {}).get(slot)
            if values and len(values) == 1:
                return values[0]
        return None

    def turn_acts(self, utterance: str, speaker: str, active: str | None = None) -> list[DialogueAct]:
        """The acts of one utterance, ordered by span (see the module docstring); ``active`` is
        the domain of the previous turns, used when a value or noun leaves the domain open."""
        return self.acts_in_context(utterance, speaker, Memory(active=active))[0]

    def acts_in_context(self, utterance: str, speaker: str, memory: Memory) -> tuple[list[DialogueAct], list[int]]:
        """The acts of one utterance given what the dialogue said before (``memory``; its active
        domain and last day are updated), and the character offsets where its sentences start."""
        from spacy.util import filter_spans

        doc = self.nlp.make_doc(fold_aligned(utterance))
        bounds = [doc[i + 1].idx for i in range(len(doc) - 1) if doc[i].text in _SENTENCE_END]
        labels = self.nlp.vocab.strings
        candidates: dict[tuple[int, int], dict[tuple[str, str], None]] = defaultdict(dict)
        for match_id, start, end in self.values(doc):
            domain, column = labels[match_id].split("\x1f")
            candidates[(start, end)][(domain, column)] = None
        masked = {i for _, start, end in self.masks(doc) for i in range(start, end)}
        for m in _MASK.finditer(doc.text.lower()):
            span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
            masked |= set(range(span.start, span.end)) if span is not None else set()
        value_tokens = {i for (start, end) in candidates for i in range(start, end)}
        inside_values = {i for (start, end) in candidates if end - start > 1 for i in range(start, end)}
        nouns: dict[int, tuple[str, bool]] = {}  # start token → (domain, or "" for a generic noun; plural)
        widths: dict[int, tuple[bool, int]] = {}
        for match_id, start, end in self.nouns(doc):
            domain, number = labels[match_id].split("\x1f")
            if start in inside_values:  # "park" in "Cambridge Leisure Park"
                continue
            rank = (bool(domain), end - start)  # a domain's noun over a generic one, then the longest
            if start not in widths or rank > widths[start]:
                nouns[start], widths[start] = (domain, number == "1"), rank
        mentioned = {d for i, (d, _) in nouns.items() if d and not _reference(doc, i)}
        mentioned |= {d for d, words in TOPIC_WORDS.items() if d in self.columns for t in doc if t.lower_ in words}
        context = _Context(
            mentioned=mentioned,
            sure={next(iter(c))[0] for c in candidates.values() if len({d for d, _ in c}) == 1
                  and not {col for _, col in c} & CONTEXT_COLUMNS},
            active=memory.active,
        )  # fmt: skip
        qualified: set[int] = set()
        places = sum(1 for c in candidates.values() if {col for _, col in c} & {"departure", "destination"})
        found: list[_Found] = []
        for (start, end), options in candidates.items():
            domain = context.pick([d for d, _ in options])
            assert domain is not None  # options is never empty
            columns = [c for d, c in options if d == domain]
            column = self._column(doc, start, end, domain, columns, memory.state, value_tokens)
            text = doc[start:end].text
            value = self.canonical[(domain, column)].get(normalize(text)) or self.compact[(domain, column)].get(_compact(text), text)
            if column in CONTEXT_COLUMNS and not self._in_context(doc, start, domain, context, places):
                if column == "day":
                    memory.last_day = value
                continue
            if column == "day":
                memory.last_day = value
            if column == "pricerange" and start > 0 and doc[start - 1].lower_ in COMPARATIVES:
                continue  # "the most expensive one" ranks, it does not ask
            if _alternative_to_noun(doc, start, end, nouns):
                continue  # "a hotel or guesthouse": either will do
            if speaker == "user" and _negated(doc, start, 6, USER_NEGATIONS):
                continue  # "I don't want a guesthouse": no value asked
            if start in masked:
                continue  # inside "Cambridge TownInfo centre"
            if column == "food" and start > 0 and doc[start - 1].lower_ in _QUALIFIERS:
                if speaker == "user":
                    memory.unread.add(domain)
                qualified.add(start - 1)
                continue  # "South Indian", "eastern European", "Latin American": another cuisine
            found.append(_Found(start, end, domain, column, value))
        found = [f for f in found if f.start not in qualified and f.end - 1 not in qualified]
        found += self._flags(doc, speaker)
        found += self._stars(doc)
        found += self._trip_ids(doc, found)
        found += self._times(doc, context, found, speaker)
        if speaker == "user":
            self._unread_request(doc, found, memory)
            for domain, (column, value) in self.own_values.items():
                if any(f.domain == domain and f.slot == column for f in found):
                    memory.maybe.pop(domain, None)
                elif any(d == domain and doc[i].lower_ in (value, value + "s") for i, (d, _) in nouns.items()):
                    memory.maybe[domain] = (column, value)
                    memory.state.get(domain, {}).pop(column, None)  # "how about a hotel?" after "a guesthouse"
        if speaker == "system":
            for start, end, amount, noun_domain in _amounts(doc, nouns):
                domain = noun_domain or context.pick(self.domains, guess=len(self.domains) == 1)
                if domain is not None:  # an amount of a KB domain only
                    found.append(_Found(start, end, domain, "choice", str(amount), amount=True))
        kept = {(s.start, s.end) for s in filter_spans([doc[f.start : f.end] for f in found])}
        found = sorted((f for f in found if (f.start, f.end) in kept), key=lambda f: f.start)
        found = list({(f.start, f.end): f for f in found}.values())  # one per span; an amount wins
        found = _first_mentions(doc, found, speaker)
        scope = self._negative(doc, nouns, found) if speaker == "system" else None
        if speaker == "system":  # "neither one is a guesthouse" states no type
            found = [f for f in found if f.amount or (scope is not None and scope[0] <= f.start < scope[1])
                     or f.slot in FLAG_WORDS or not _negated(doc, f.start, 4)]  # fmt: skip
            found = _not_choices(doc, found)
        acts = [_act(f, doc, utterance, speaker, scope is not None and scope[0] <= f.start < scope[1]) for f in found]
        if scope is not None:
            inside = [f for f in found if scope[0] <= f.start < scope[1] and not f.amount]
            named = [nouns[i][0] for i in nouns if scope[0] <= i < scope[1] and nouns[i][0]] + [f.domain for f in inside]
            domain = context.pick(named or self.domains, guess=bool(named) or len(self.domains) == 1)
            if domain is not None:
                acts.insert(0, DialogueAct(role=ActRole.NO_RESULT, act="nooffer", domain=domain))
        spoken = [a.domain for a in acts if a.span is not None and not (a.role is ActRole.COUNT)]
        if len(mentioned) == 1 and (speaker == "user" or not spoken):
            memory.active = next(iter(mentioned))
        elif spoken:
            memory.active = spoken[-1]
        return acts, bounds

    def _unread_request(self, doc, found: list[_Found], memory: Memory) -> None:  # type: ignore[no-untyped-def]
        """Note a user request for a food no KB value matches ("Hungarian cuisine", "serves
        corsica food"); a later food the KB has clears it."""
        domains = [d for d in self.domains if "food" in self.columns[d]]
        if not domains:
            return
        if any(f.slot == "food" for f in found):
            memory.unread.discard(domains[0])
            return
        covered = {i for f in found for i in range(f.start, f.end)}
        for i, tok in enumerate(doc):
            nxt = doc[i + 1].lower_ if i + 1 < len(doc) else ""
            before = doc[i - 1].lower_ if i > 0 else ""
            if tok.is_alpha and i not in covered and tok.lower_ not in PLAIN_WORDS and tok.lower_ not in NUMBER_WORDS:
                if nxt in ("food", "cuisine", "restaurant", "restaurants", "place", "places") or before in ("serves", "serving", "serve"):
                    if tok.lower_ not in _NOT_FOODS:
                        memory.unread.add(domains[0])
                        return

    def _in_context(self, doc, start: int, domain: str, context: _Context, places: int) -> bool:  # type: ignore[no-untyped-def]
        """Whether a value of a :data:`CONTEXT_COLUMNS` column is about its domain: the domain is
        named or active, another value of the utterance is surely of it, two places are named
        ("from Ely to Cambridge"), or a departure / arrival word stands right before it."""
        if domain in context.mentioned or domain in context.sure or places >= 2:
            return True
        if domain == context.active and not (context.sure | context.mentioned) - {domain}:
            return True  # the active domain, unless the utterance is surely about another
        before = doc[start - 1].lower_ if start > 0 else ""
        return before in (DEPARTURE_CUES | DESTINATION_CUES) - {"to", "for"}

    def _column(self, doc, start: int, end: int, domain: str, columns: list[str], state: State, taken: set[int]) -> str:  # type: ignore[no-untyped-def]
        """The column of a value several columns of ``domain`` share: a departure / destination cue
        among the three words before it ("from X", "arriving in X") or "X to …" after it; else the
        place the request already has, or the one it lacks; else :data:`COLUMN_PRIORITY`."""
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
        return min(columns, key=lambda c: (rank.get(c, len(rank)), self.column_order.get((domain, c), 0)))

    def _flags(self, doc, speaker: str) -> list[_Found]:  # type: ignore[no-untyped-def]
        """Yes / no columns from their keywords ("free parking", "wifi"): yes, or for the system
        no when negated in the clause ("no parking"); a negated user request is left out."""
        out = []
        for column, words in FLAG_WORDS.items():
            domains = [d for d in self.domains if column in self.columns[d]]
            if len(domains) != 1:
                continue
            for i, tok in enumerate(doc):
                width = next((len(w.split()) for w in words if doc[i : i + len(w.split())].text.lower() == w), 0)
                if not width:
                    continue
                clause = []
                for t in reversed(doc[max(0, i - 6) : i]):
                    if (t.is_punct and t.text != "-") or t.lower_ == "but":
                        break
                    clause.append(t.lower_)
                negated = bool(NEGATIONS & set(clause))
                if negated and speaker == "user":
                    continue
                out.append(_Found(i, i + width, domains[0], column, "no" if negated else "yes"))
        return out

    def _stars(self, doc) -> list[_Found]:  # type: ignore[no-untyped-def]
        """Star ratings: a number before "star(s)" ("4 stars", "4-star", "four star")."""
        domains = [d for d in self.domains if "stars" in self.columns[d]]
        if len(domains) != 1:
            return []
        out = []
        for i, tok in enumerate(doc[:-1]):
            j = i + 1 + (doc[i + 1].text == "-" and i + 2 < len(doc))
            if doc[j].lower_ not in ("star", "stars"):
                continue
            amount = parse_amount(tok.text)
            if amount is not None and amount <= 5:
                out.append(_Found(i, i + 1, domains[0], "stars", str(amount)))
        for i, tok in enumerate(doc[:-2]):  # "a star rating of 4", "a star of 4"
            j = i + 1 + (doc[i + 1].lower_ == "rating")
            if tok.lower_ in ("star", "stars") and j + 1 < len(doc) and doc[j].lower_ == "of":
                amount = parse_amount(doc[j + 1].text)
                if amount is not None and amount <= 5:
                    out.append(_Found(j + 1, j + 2, domains[0], "stars", str(amount)))
        return out

    def _trip_ids(self, doc, found: list[_Found]) -> list[_Found]:  # type: ignore[no-untyped-def]
        """Train ids of the KB's form ("TR1234") that no KB value matched: an id is a KB value, not
        a wording, so one no train has is still an id (and C5 refutes it), not an unread word."""
        if "train" not in self.domains or "trainID" not in self.columns["train"]:
            return []
        taken = {i for f in found for i in range(f.start, f.end)}
        return [_Found(i, i + 1, "train", "trainID", tok.lower_) for i, tok in enumerate(doc)
                if i not in taken and re.fullmatch(r"tr\d{4}", tok.lower_)]

    def _times(self, doc, context: _Context, found: list[_Found], speaker: str) -> list[_Found]:  # type: ignore[no-untyped-def]
        """Trip bounds: a clock time whose nearest cue word before it (within six words of its
        clause) is a departure word ("leave after 17:00" → leaveAt) or an arrival word ("arrive by
        18:30" → arriveBy), in a domain with those columns that the context is about."""
        domains = [d for d in self.domains if set(BOUND_COLUMNS) <= self.columns[d]]
        sure = {f.domain for f in found}
        domains = [d for d in domains if d in context.mentioned or d == context.active or d in sure]
        if len(domains) != 1:
            return []
        out = []
        for match in _CLOCK.finditer(doc.text):
            span = doc.char_span(match.start(1), match.end(1), alignment_mode="expand")
            value = clock_time(normalize(match.group(1)))
            if span is None or value is None:
                continue
            column = cue = None
            for tok in reversed(doc[max(0, span.start - 6) : span.start]):
                if tok.is_punct and tok.text not in (":", "-"):
                    break
                if tok.lower_ in BOUND_WORDS and cue is None:
                    cue = tok.lower_  # "arrive no later than 21:00": a bound whatever verb comes before
                if tok.lower_ in LEAVE_CUES:
                    column, cue = "leaveAt", cue or tok.lower_
                    break
                if tok.lower_ in ARRIVE_CUES:
                    column, cue = "arriveBy", cue or tok.lower_
                    break
            if column is not None and speaker == "system" and cue in BOUND_WORDS:
                continue  # "8 trains arrive by 13:45" restates the bound; only a time a train has is a claim
            if column is not None:
                out.append(_Found(span.start, span.end, domains[0], column, value))
        return out

    def _negative(self, doc, nouns: dict[int, tuple[str, bool]], found: list[_Found]) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
        """The token range (the sentence) of a no-result statement, if the utterance makes one:
        a negative cue before a domain noun or a value, or ending its clause. A sentence that
        also names something no KB value matches ("no eritrean restaurants") is left out: what
        it denies cannot be read."""
        starts = set(nouns) | {f.start for f in found if not f.amount and f.slot not in FLAG_WORDS}  # not "no parking"
        covered = {i for f in found for i in range(f.start, f.end)}
        cues = [(start, end) for _, start, end in self.cues(doc)]
        for i, tok in enumerate(doc):  # "it does n't appear there are any cinemas", "could not find a guesthouse"
            negated = any(t.lower_ in NEGATIONS for t in doc[max(0, i - 5) : i])
            if tok.lower_ in ("any", "anything", "anywhere") and negated:
                cues.append((i, i + 1))
            elif tok.lower_ in _FINDING and any(t.lower_ in NEGATIONS for t in doc[max(0, i - 3) : i]):
                cues.append((i, i + 1))
            elif tok.lower_ == "nothing":
                cues.append((i, i + 1))
        for start, end in sorted(cues):
            hit = False
            bare_no = doc[start:end].text.lower() in ("no", "any", "anything", "anywhere") or doc[start].lower_ in _FINDING
            if any(t.lower_ in ("other", "else", "more", "additional", "further") for t in doc[end : end + 3]):
                continue  # "no other options": none besides the one offered, not none at all
            for tok in doc[end : end + MAX_GAP + 1]:  # "no [cheap] restaurants", not "no need to call X"
                if tok.i in starts:
                    hit = True
                    break
                if not _gap_word(tok) and (bare_no or tok.lower_ not in ("in", "at", "near", "with", "for", "of", "on")):
                    break
            if not hit and not (not bare_no and (end == len(doc) or (doc[end].is_punct and doc[end].text != "-"))):
                continue
            first = max([0] + [i + 1 for i in range(start) if doc[i].text in _SENTENCE_END])
            last = next((i + 1 for i in range(end, len(doc)) if doc[i].text in _SENTENCE_END
                         or doc[i].lower_ in ("but", "however", "although")), len(doc))  # fmt: skip
            if self._unread(doc, first, last, nouns, covered):
                return None
            return first, last
        return None

    def _unread(self, doc, first: int, last: int, nouns: dict[int, tuple[str, bool]], covered: set[int]) -> bool:  # type: ignore[no-untyped-def]
        """A word right before a domain noun of the sentence that is no KB value and no plain word."""
        for i in range(first + 1, last):
            if i in nouns or doc[i].lower_ in ("food", "cuisine"):
                prev = doc[i - 1]
                if prev.is_alpha and prev.i not in covered and prev.lower_ not in PLAIN_WORDS and prev.lower_ not in NUMBER_WORDS:
                    if not any(prev.lower_ == c for c in NEGATIVE_CUES):
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


#: Trailing words a short form of an entity name may drop ("the lensfield hotel" → "lensfield").
_NAME_SUFFIXES = ("restaurant", "hotel", "guest house", "guesthouse", "bed and breakfast", "b and b")


def _variants(canonical: dict[tuple[str, str], dict[str, str]]) -> dict[tuple[str, str], dict[str, str]]:
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
    for suffix in _NAME_SUFFIXES:
        if key.endswith(" " + suffix):
            short = key[: -len(suffix) - 1].strip()
            if len(short.split()) >= 2 or len(short) >= 5:
                forms.add(short)
    forms.discard(key)
    return sorted(forms)


def _kb_values(kb: KnowledgeBase, ontology: dict[str, list[str]]) -> Iterable[tuple[str, str, str]]:
    """(domain, column, value) of every matchable KB and ontology value (module docstring)."""
    for domain, table in kb.tables.items():
        by_column: dict[str, set[str]] = defaultdict(set)
        for entity in table.entities:
            for column, value in entity.items():
                by_column[column].add(value)
        own = {normalize(n) for pair in _nouns_of(domain)[:1] for n in pair}  # "hotel" in the hotel table
        for column, values in by_column.items():
            if column in SKIPPED_COLUMNS or column in BOUND_COLUMNS or (len(values) == 1 and len(table.entities) > 1):
                continue
            lengths = sorted(len(v.split()) for v in values)
            if lengths[len(lengths) // 2] > 5:
                continue  # descriptions and opening hours ("always" is one of them), not values
            for value in sorted(values):
                if _matchable(value) and normalize(value) not in own and normalize(value) not in _PLAIN_NAMES:
                    yield domain, column, value
    for slot_type, values in ontology.items():
        domain, _, column = slot_type.partition(".")
        for value in values:
            if column and _matchable(value):
                yield domain, column, value


#: Values that are everyday phrases ("the place" is a nightclub): never matched.
_PLAIN_NAMES = frozenset(normalize(n) for pair in GENERIC_NOUNS for n in pair)


#: Words before "food" / after "serves" that name no cuisine.
_NOT_FOODS = frozenset({"good", "great", "nice", "fine", "tasty", "delicious", "fast", "some", "any", "food", "the",
                        "a", "an", "that", "this", "what", "which", "excellent", "cheap", "expensive", "moderate",
                        "priced", "kind", "type", "sort", "of", "local", "different", "other", "same", "your", "our",
                        "their", "its", "lunch", "dinner", "breakfast", "meals", "drinks", "it", "them", "new",
                        "another", "one", "particular", "popular", "specific", "fancy", "nearby", "best", "star",
                        "expensively", "cheaply", "moderately", "reasonably", "upscale", "pricey", "centre", "center",
                        "north", "south", "east", "west", "to", "eat", "dine", "at", "in", "for", "is", "be", "any",
                        "quality", "affordable", "high", "end", "range", "priced", "budget", "inexpensive", "classy",
                        "romantic", "special", "decent", "small", "big", "large", "little", "authentic",
                        "my", "hotel", "what", "nice", "sit", "down", "family", "friendly", "local", "town"})  # fmt: skip


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
    """(start, end, amount, noun domain or "") of every exact amount followed by a domain noun
    ("over 30 hotels" and "more than 10" are amounts whose comparison the checker reads from the
    words before them, :func:`csp_check.language.cues.amount_op`)."""
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
            if i > 0 and doc[i - 1].lower_ in APPROXIMATE and not _bounded(doc, i):
                continue
            if amount == 1 and not any(t.lower_ in _EXISTENTIAL for t in doc[max(0, i - 3) : i]):
                continue  # "One place I could recommend is …" picks one, it does not count
            if any(t.lower_ in ("no", "not", "n't") for t in doc[max(0, i - 3) : i]):
                continue  # "no cheap 4 star hotels" denies, it does not count
            after = [t.lower_ for t in doc[i + width : i + width + 3]]
            if after[:1] in (["star"], ["stars"], ["-"]) or any(w in ("other", "others", "more", "additional") for w in after):
                continue  # "4 star hotels" is a rating; "two other guesthouses" counts the rest
            noun = _noun_after(doc, i + width, nouns, couple=words[-1].lower_ == "couple")
            if noun is not None and noun[1] == (amount != 1):
                out.append((i, i + width, amount, noun[0]))
                i += width - 1
                break
        i += 1
    return out


def _bounded(doc, i: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the amount at token ``i`` is a bound or an approximation the checker reads
    (:func:`csp_check.language.cues.amount_op`: "over 20", "more than 10", "at least 3", "about 70"): a
    count with its comparison, not an amount left out."""
    before = doc[max(0, i - 3) : i].text.lower()
    return bool(re.search(r"(?:^|\s)(?:over|more than|fewer than|less than|at least|at most|under|about|around|"
                          r"approximately|roughly|nearly|almost)$", before))


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


def _alternative_to_noun(doc, start: int, end: int, nouns: dict[int, tuple[str, bool]]) -> bool:  # type: ignore[no-untyped-def]
    """A value listed as an alternative to a plain domain noun ("a hotel or guesthouse",
    "guesthouse or a hotel"): the user accepts either, so it is no constraint."""
    if end + 1 < len(doc) and doc[end].lower_ in ("or", "and"):
        nxt = end + 1 + (doc[end + 1].lower_ in ("a", "an", "the"))
        if (nxt in nouns and nouns[nxt][0]) or (nxt < len(doc) and doc[nxt].lower_ in ("other", "anything", "not", "whatever", "something")):
            return True
    k = start - 1 - (start > 0 and doc[start - 1].lower_ in ("a", "an"))
    return k >= 1 and doc[k].lower_ in ("or", "and") and bool(nouns.get(k - 1, ("", False))[0])


def _numbers(utterance: str) -> list[int]:
    """Character offsets of the numbers (digits or number words) of an utterance."""
    doc = blank_nlp().make_doc(fold_aligned(utterance))
    out = []
    for t in doc:
        if (t.like_num or t.lower_ in NUMBER_WORDS) and t.lower_ not in ("no", "none"):
            after = [u.lower_ for u in doc[t.i + 1 : t.i + 3]]
            if not after or after[0] not in ("star", "stars", "-"):
                out.append(t.idx)
    return out


def _first_mentions(doc, found: list[_Found], speaker: str) -> list[_Found]:  # type: ignore[no-untyped-def]
    """A value named again in one utterance is one mention ("a train to Cambridge … arrive in
    Cambridge by 16:30"): a user's repeats are dropped, and a system's repeats in a later
    sentence; an entity repeated within a list of three or more in one sentence of a system turn
    stays (a list "A, A or C" is C3's; "from X or to X?" is one entity)."""
    def sentence(i: int) -> int:
        return sum(1 for t in doc[:i] if t.text in _SENTENCE_END)

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


def _negated(doc, start: int, window: int = 4, negations: frozenset[str] = NEGATIONS) -> bool:  # type: ignore[no-untyped-def]
    """A negation among the ``window`` words before ``start`` in its clause ("not a guesthouse",
    "I don't want a guesthouse", "as opposed to a guesthouse")."""
    for tok in reversed(doc[max(0, start - window) : start]):
        if (tok.is_punct and tok.text != "-") or tok.lower_ in ("but", "and"):
            return False
        if tok.lower_ in negations:
            return True
    return False


def _not_choices(doc, found: list[_Found]) -> list[_Found]:  # type: ignore[no-untyped-def]
    """Drop the values a system sentence offers as choices ("what area, north, south or
    centre?"): two or more values of one slot (not names) in a question, or three in any sentence."""
    def sentence(i: int) -> tuple[int, bool]:
        n = sum(1 for t in doc[:i] if t.text in _SENTENCE_END)
        end = next((t for t in doc[i:] if t.text in _SENTENCE_END), None)
        return n, end is not None and end.text == "?"

    groups: dict[tuple[int, str, str], list[_Found]] = defaultdict(list)
    for f in found:
        if not f.amount and f.slot not in ENTITY_COLUMNS:
            n, question = sentence(f.start)
            groups[(n, f.domain, f.slot)].append(f)
    drop = set()
    for (n, _, _), members in groups.items():
        question = sentence(members[0].start)[1]
        if len({m.canonical for m in members}) >= (2 if question else 3):
            drop |= {id(m) for m in members}
    return [f for f in found if id(f) not in drop]


#: Words that make a domain noun a reference point, not the topic ("as the hotel", "near the restaurant").
_REFERENCE_WORDS = frozenset({"as", "near", "than", "from", "of", "like", "to", "by", "close"})


def _reference(doc, i: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the noun at token ``i`` is a reference point ("in the same area as the hotel")."""
    j = i - 1
    while j >= 0 and doc[j].lower_ in ("the", "my", "our", "a", "your"):
        j -= 1
    return j >= 0 and doc[j].lower_ in _REFERENCE_WORDS and j < i - 1
