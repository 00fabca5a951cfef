"""What a CI-ToD (KVRET) turn says: the KB values and request words in its text.

KVRET writes a multi-word value as one ``_``-joined token (``hotel_keen``, ``5_miles``) and
lower-cases everything; speakers also write a value's words apart ("hotel keen") or a time without
its ``_`` ("7pm" for ``7_pm``).

Reading rules

- a **value** is any value of the dialogue's own KB or of the corpus ontology
  (``Dialogue.ontology``, CI-ToD's ``entities.json``) of the dialogue's domain, found as its
  whole words (``_`` read as a space, a time's ``_`` dropped; an entity's possessive split, "jack
  s house" for ``jacks_house``), the longest first; a word once read as one value is read as no
  other; a value both columns have ("home") names the entity, except a place named by its address
  after "at" / "is" / "address" / "located" (KVRET's ``certain_address`` places), which is the
  address; an ontology entity whose words are all in exactly one KB entity's is that entity
  ("medicine" → ``taking_medicine``);
- a **number in words** is read as its digits in KVRET's form ("two miles" → ``2_miles``, "seventy
  degrees" → ``70f``, "three pm" → ``3pm``, "the tenth" → ``the_10th``:
  :mod:`csp_check.language.number_words`);
- a calendar **time or day by its form**, where no value spells it: a clock hour with "am" /
  "pm" ("8am", "8 am"), a weekday or its short form ("wed"), "today", "tomorrow" ("tonight" is
  today); compared with the other turns' values (C2), never claimed absent from the KB;
- a **paraphrase** of a closed value names it ("jammed" → ``heavy_traffic``, "sunny" → ``clear``:
  :data:`csp_check.score.citod_values.PARAPHRASES`), found as a value is, after the values;
- an **entity's own word**: a place or event named by one of its words that no other value of the
  KB or ontology has and that is no word for any place ("keen" for ``hotel_keen``; "yoga" for
  ``yoga_activity``; not "city" of ``redwood_city``; four letters or more, three for an event's:
  "lab" of ``lab_appointment``), read as the entity when no whole value is there;
- a **kind word** names a ``poi_type`` ("gas" → ``gas_station``, "hotel" → ``rest_stop``,
  "coffee" → ``coffee_or_tea_place``): :data:`KIND_WORDS`;
- a **request word** names the column a question asks for ("address", "where" → ``address``;
  "how far" → ``distance``; "traffic" → ``traffic_info``; "when" / "what time" → ``time``,
  ``date``; "who" → ``party``; "temperature" → a temperature; "rain", "snow", … → the weather
  attribute): :data:`REQUEST_WORDS`; after "shortest", "least", "avoid", "no" it is a preference
  ("the shortest distance"), and "where" asks for an address only of a named entity ("where is a
  hotel" asks for a place);
- a **denial** denies what follows its negation through denial words only ("i do not have any
  info about chevron"; not "there isn't any traffic to pizza_my_heart"; "X is the only one"
  affirms X); a **description** (a kind and attributes, one per column, that fit one KB row) names
  its entity; "another", "any other", "alternate", "options" ask for another entity ("anything
  else" does not).

Source: the CI-ToD paper (Qin et al., EMNLP 2021, §2: the KB of each dialogue, the three labels)
and KVRET (Eric et al., SIGDIAL 2017: the in-car scenarios, the KB columns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from csp_check.corpora.citod import ATTRIBUTE_COLUMNS, ENTITY_COLUMN, NO_VALUE, WEEKDAYS
from csp_check.language.number_words import digits_for_words
from csp_check.models import Dialogue
from csp_check.readers.citod import kb_rows
from csp_check.score.citod_values import PARAPHRASES

#: A word for a kind of place → the ``poi_type`` it names (KVRET's navigation requests).
KIND_WORDS = {
    "gas": "gas_station", "hotel": "rest_stop", "hotels": "rest_stop", "rest": "rest_stop",
    "coffee": "coffee_or_tea_place", "tea": "coffee_or_tea_place", "cafe": "coffee_or_tea_place",
    "parking": "parking_garage", "garage": "parking_garage", "hospital": "hospital", "hospitals": "hospital",
    "grocery": "grocery_store", "groceries": "grocery_store", "mall": "shopping_center",
    "shopping": "shopping_center", "chinese": "chinese_restaurant", "pizza": "pizza_restaurant",
    "friend": "friends_house", "friends": "friends_house", "home": "home",
}
#: Calendar day words by their form → the day (a weekday's short form; a day relative to today).
DAY_FORMS = {"tues": "tuesday", "wed": "wednesday", "thur": "thursday", "thurs": "thursday", "fri": "friday",
             "today": "today", "tomorrow": "tomorrow", "tonight": "today", **{d: d for d in WEEKDAYS}}
#: A request word → the columns the question asks for.
REQUEST_WORDS = {
    "address": ("address",), "where": ("address",), "located": ("address",),  # "where": see TurnReading.requests
    "far": ("distance",), "distance": ("distance",),
    "traffic": ("traffic_info",),
    "time": ("time",), "when": ("date", "time"), "date": ("date",), "day": ("date",),
    "who": ("party",), "attending": ("party",),
    "room": ("room",), "agenda": ("agenda",), "purpose": ("agenda",),
    "temperature": ("high_temperature", "low_temperature"), "hot": ("high_temperature",),
    "cold": ("low_temperature",), "warm": ("high_temperature",), "highest": ("high_temperature",),
    "lowest": ("low_temperature",), "high": ("high_temperature",), "low": ("low_temperature",),
    "weather": ("weather_attribute", "high_temperature", "low_temperature"),  # any column answers "the weather"
    "forecast": ("weather_attribute", "high_temperature", "low_temperature"), "rain": ("weather_attribute",),
    "snow": ("weather_attribute",), "sunny": ("weather_attribute",), "cloudy": ("weather_attribute",),
}
#: Words after which a value that is both an address and a place's name (KVRET's
#: ``certain_address`` places) is the address: "the address is 5677_southwest_4th_street".
ADDRESS_LEADS = frozenset({"at", "is", "address", "located"})
#: Words that make the request word after them a preference ("pick the shortest distance").
PREFERENCE_WORDS = frozenset({"shortest", "least", "quickest", "fastest", "minimum", "less", "avoid", "no"})
#: Words that make a sentence a denial of what it names ("i don't have a garage nearby").
NEGATIONS = frozenset({"no", "not", "don", "dont", "doesn", "isn", "cannot", "sorry", "unable", "nothing",
                       "none", "never", "couldn", "t", "shouldn", "wouldn", "won", "aren", "wasn", "weren", "without"})
#: The words a denial may put between its negation and what it denies ("no listing for", "not have
#: any info about", "don t get the direction of").
DENIAL_FILLERS = frozenset({
    "any", "a", "an", "the", "have", "has", "had", "get", "got", "find", "found", "see", "know", "listed", "listing",
    "listings", "info", "information", "record", "records", "data", "direction", "directions", "route", "for", "of",
    "about", "on", "to", "in", "my", "your", "memory", "there", "is", "are", "t", "do", "does", "not", "no", "nearby",
    "near", "local", "close", "such", "other", "more", "longer", "one", "ones", "be", "will", "going", "gonna",
    "expected", "predicted", "address", "location", "position", "place", "places", "spot", "shop", "shops",
})
#: Words of entity names that are words for any place or event ("city" of ``redwood_city``, "house"):
#: never an entity's own word.
GENERIC_WORDS = frozenset({"city", "house", "center", "centre", "park", "garage", "street", "place", "market",
                           "inn", "lodge", "mall", "beach", "foods", "appointment", "activity", "room", "team",
                           "medicine", "taking", "farmers", "express", "health", "care", "coffee", "country"})
#: Words by which a user asks for another entity than the one offered ("any other hospital", "any
#: closer options"), or the system offers one ("i have another one").
OTHER_WORDS = frozenset({"other", "another", "else", "alternative", "alternate", "different", "instead", "options"})
_WORD = re.compile(r"[a-z0-9.']+|[^\sa-z0-9]")


@dataclass(frozen=True)
class Mention:
    """A KB or ontology value written in one turn: its column, the value (as the KB writes it),
    its word positions ``[start, end)`` in the turn's words, whether this dialogue's KB holds it,
    and how it was found (``value``, ``own word``, ``kind word``)."""

    turn: int
    column: str
    value: str
    start: int
    end: int
    in_kb: bool
    how: str = "value"
    raw_start: int = 0
    """The position of its first word among the turn's whitespace-separated tokens (a
    ``_``-joined value is one token)."""


@dataclass
class TurnReading:
    """What one turn says: its words, the values found in it (in text order), the columns its
    request words ask for, and whether it asks (a question) or denies. "where" asks for an
    address only of an entity: "where is a hotel" (a kind, no entity named) asks for a place."""

    index: int
    speaker: str
    words: list[str]
    mentions: list[Mention] = field(default_factory=list)
    requests: set[str] = field(default_factory=set)
    question: bool = False
    negated: bool = False
    denials: list[int] = field(default_factory=list)
    other: bool = False
    tokens: list[str] = field(default_factory=list)

    def denied(self, mention: Mention) -> bool:
        """Whether a negation ("no", "don't", "not") denies ``mention``: it is among the five
        tokens before it (a ``_``-joined value is one token) with only the words of a denial
        between (:data:`DENIAL_FILLERS`: "i do not have any info about chevron"; not "there isn't
        any traffic to pizza_my_heart", which denies the traffic)."""
        if "only" in self.tokens[mention.raw_start + 1:mention.raw_start + 4]:
            return False  # "no, panda_express is the only one" affirms it
        return any(0 < mention.raw_start - i <= 5 and all(w in DENIAL_FILLERS for w in self.tokens[i + 1:mention.raw_start])
                   for i in self.denials)

    def values(self, column: str) -> list[str]:
        """The values of ``column`` the turn names, in text order."""
        return [m.value for m in self.mentions if m.column == column]


def words_of(text: str) -> list[str]:
    """The words of a KVRET utterance, ``_`` read as a space (``hotel_keen`` → hotel, keen)."""
    return _WORD.findall(text.lower().replace("_", " "))


def value_words(value: str) -> tuple[str, ...]:
    """The words a KB value is written with (``7_pm`` and ``7pm`` → ``7pm``)."""
    v = value.lower()
    if re.fullmatch(r"\d+_?(am|pm)", v):
        v = v.replace("_", "")
    return tuple(words_of(v))


class Lexicon:
    """The values a dialogue's turns may name: its KB's and its ontology's, of its domain, by
    their words, with the own words of its entities (module docstring)."""

    def __init__(self, dialogue: Dialogue):
        self.domain = dialogue.domains[0] if dialogue.domains else ""
        self.rows = kb_rows(dialogue)
        self.entity_column = ENTITY_COLUMN.get(self.domain, "")
        columns = (self.entity_column, *ATTRIBUTE_COLUMNS.get(self.domain, ()))
        kb_values: dict[str, set[str]] = {c: {r[c] for r in self.rows if r.get(c) and r[c] != NO_VALUE} for c in columns}
        self.kb_values = kb_values
        known: dict[tuple[str, ...], tuple[str, str, bool]] = {}
        for key, values in dialogue.ontology.items():
            domain, _, column = key.partition(".")
            if domain != self.domain or column not in columns:
                continue
            for value in values:
                if value and value != NO_VALUE:
                    key_words = value_words(value)
                    if column == self.entity_column or key_words not in known:  # the entity column names a shared value
                        known[key_words] = (column, value, value in kb_values.get(column, ()))
        self._canonical_entities(known)
        self.addresses = {v for k, vs in dialogue.ontology.items() if k.endswith(".address") for v in vs}
        self.addresses |= kb_values.get("address", set())
        for column in reversed(columns):  # the entity column last: a value it shares ("home") names the entity
            for value in kb_values.get(column, ()):
                known[value_words(value)] = (column, value, True)
        self.paraphrased: set[tuple[str, ...]] = set()
        for column in columns:  # "jammed" → heavy_traffic, "sunny" → clear: the KB's closed value sets
            for value, phrases in PARAPHRASES.get(column, {}).items():
                for phrase in phrases:
                    phrase_words = tuple(words_of(phrase))
                    if phrase_words not in known:
                        known[phrase_words] = (column, value, value in kb_values.get(column, ()))
                        self.paraphrased.add(phrase_words)
        for spelled, hit in list(known.items()):  # "jack s house" for jacks_house, "trader joe s" for trader_joes
            if hit[0] == self.entity_column:
                for j, w in enumerate(spelled):
                    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
                        known.setdefault((*spelled[:j], w[:-1], "s", *spelled[j + 1:]), hit)
        self.known = known
        self.longest = max((len(k) for k in known), default=1)
        counts: dict[str, int] = {}
        for k in known:
            for w in set(k):
                counts[w] = counts.get(w, 0) + 1
        self.own_words: dict[str, tuple[str, str, bool]] = {}
        for k, (column, value, in_kb) in known.items():
            if column != self.entity_column or len(k) < 2:
                continue
            for w in k:
                short = len(w) == 3 and column == "event"  # an event's head word: "lab" of lab_appointment
                if (counts.get(w) == 1 and (len(w) > 3 or short) and w not in KIND_WORDS and w not in REQUEST_WORDS
                        and w not in GENERIC_WORDS and not w.isdigit()):
                    self.own_words[w] = (column, value, in_kb)

    def _canonical_entities(self, known: dict[tuple[str, ...], tuple[str, str, bool]]) -> None:
        """An entity value of the ontology whose words are all in exactly one KB entity's value
        names that entity ("medicine" → ``taking_medicine``, "dentist" → ``dentist_appointment``):
        a shorter wording of it, not another entity."""
        column = self.entity_column
        kb_entities = self.kb_values.get(column, set())
        for key, (col, _value, in_kb) in list(known.items()):
            if col != column or in_kb:
                continue
            longer = [e for e in kb_entities if set(key) < set(value_words(e))]
            if len(longer) == 1:
                known[key] = (column, longer[0], True)

    def read(self, index: int, speaker: str, text: str) -> TurnReading:
        """The :class:`TurnReading` of one turn's text (numbers in words read as digits:
        :func:`csp_check.language.number_words.digits_for_words`)."""
        text = digits_for_words(text.lower())
        raw = text.split()
        words, token_of = [], []
        for t, token in enumerate(raw):
            for w in words_of(token):
                words.append(w)
                token_of.append(t)
        reading = TurnReading(index, speaker, words, tokens=raw)
        taken = [False] * len(words)
        for n in range(min(self.longest, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if any(taken[i:i + n]):
                    continue
                hit = self.known.get(tuple(words[i:i + n]))
                if hit is not None:
                    if hit[0] == self.entity_column and hit[1] in self.addresses and i and words[i - 1] in ADDRESS_LEADS:
                        hit = ("address", hit[1], hit[1] in self.kb_values.get("address", ()))  # "the address is X"
                    how = "paraphrase" if tuple(words[i:i + n]) in self.paraphrased else "value"
                    reading.mentions.append(Mention(index, hit[0], hit[1], i, i + n, hit[2], how, token_of[i]))
                    taken[i:i + n] = [True] * n
        for i, w in enumerate(words):
            if taken[i]:
                continue
            if w in self.own_words:
                column, value, in_kb = self.own_words[w]
                reading.mentions.append(Mention(index, column, value, i, i + 1, in_kb, "own word", token_of[i]))
            elif self.domain == "navigate" and w in KIND_WORDS:
                reading.mentions.append(Mention(index, "poi_type", KIND_WORDS[w], i, i + 1,
                                                KIND_WORDS[w] in self.kb_values.get("poi_type", ()), "kind word",
                                                token_of[i]))
            elif self.domain == "calendar":
                self._calendar_form(reading, words, taken, i, token_of[i])
            if w in REQUEST_WORDS and not (i and words[i - 1] in PREFERENCE_WORDS):
                reading.requests.update(REQUEST_WORDS[w])  # "the shortest distance" prefers a route, asks nothing
        reading.mentions.sort(key=lambda m: m.start)
        if any(m.column == "weather_attribute" for m in reading.mentions):
            reading.requests.add("weather_attribute")  # "will it be humid": a weather word asks for the attribute
        kinds = any(m.column == "poi_type" for m in reading.mentions)
        if kinds and "address" not in words and not any(m.column == self.entity_column for m in reading.mentions):
            reading.requests.discard("address")  # "where is a hotel" asks for a place, not an address
        reading.question = bool(words) and (words[0] in _QUESTION_OPENERS or "?" in text)
        reading.denials = [i for i, w in enumerate(raw) if w in NEGATIONS]
        reading.negated = bool(reading.denials)
        reading.other = any(w in OTHER_WORDS and not (w == "else" and raw[i - 1:i] == ["anything"])
                            for i, w in enumerate(raw))  # "anything else?" closes, asks for no other
        return reading

    def _calendar_form(self, reading: TurnReading, words: list[str], taken: list[bool], i: int, token: int) -> None:
        """A calendar time or day no KB or ontology value spells, read by its form (module
        docstring): "8am", "8 am", "wed", "tomorrow"; ``how`` is ``form`` (no KB value, so no
        "no KB row has it" claim: only compared with the other turns')."""
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if re.fullmatch(r"(1[0-2]|[1-9])(am|pm)", w):
            value, n = w, 1
        elif re.fullmatch(r"1[0-2]|[1-9]", w) and nxt in ("am", "pm") and not taken[i + 1]:
            value, n = w + nxt, 2
        elif w in DAY_FORMS:
            value, n = DAY_FORMS[w], 1
        else:
            return
        column = "time" if value.endswith(("am", "pm")) else "date"
        taken[i:i + n] = [True] * n
        reading.mentions.append(Mention(reading.index, column, value, i, i + n, value in self.kb_values.get(column, ()),
                                        "form", token))

    def described(self, t: TurnReading) -> str | None:
        """The one entity a turn that names none describes: its kind and attributes (not denied),
        one value per column, fit exactly one KB row ("the nearest rest_stop is 3_miles away");
        ``None`` otherwise. A definite description names its entity."""
        if self.domain != "navigate" or any(m.column == self.entity_column for m in t.mentions) or t.question:
            return None
        stated = [m for m in t.mentions if m.column in ("poi_type", "distance", "traffic_info", "address")
                  and m.in_kb and not t.denied(m)]
        columns = [m.column for m in stated]
        if len(stated) < 2 or len(set(columns)) < len(columns):
            return None
        rows = [row for row in self.rows if all(row.get(m.column) == m.value for m in stated)]
        return rows[0].get(self.entity_column) if len(rows) == 1 else None

    def rows_of(self, column: str, value: str) -> list[dict[str, str]]:
        """The KB rows whose ``column`` is ``value``."""
        return [r for r in self.rows if r.get(column) == value]

    def weekday_rows(self, location: str, day: str) -> list[dict[str, str]]:
        """The weather rows of ``location`` on ``day`` (a weekday)."""
        return [r for r in self.rows if r.get("location") == location and r.get("date") == day]


_QUESTION_OPENERS = frozenset({"what", "which", "where", "when", "who", "how", "is", "are", "do", "does", "can",
                               "could", "would", "will", "should", "shall", "did", "any", "whats"})

__all__ = ["KIND_WORDS", "Lexicon", "Mention", "REQUEST_WORDS", "TurnReading", "WEEKDAYS", "value_words", "words_of"]
