"""Faults and true twins for the CI-ToD label classes: a copy of a dialogue whose last system
response csp-check labels consistent, once made inconsistent (its label must be set) and once
rewritten the way that keeps it consistent (no label may be set).

Reading rules (what each pair writes into the copy's last system turn ``r``)

- ``kbi_value`` — ``r`` names one KB entity and writes an attribute of it as a KB value: the
  fault writes another value of that column the KB has (none the dialogue said: C5, KBI); the twin
  writes the entity's own value.
- ``hi_switch`` — ``r`` names the entity the history settled: the fault names another KB entity
  of the same kind no turn named ("navigating you to X": C2 across turns, HI and QI); the twin
  names the settled one in the same words.
- ``qi_welcome`` — the user's query thanks for nothing: the fault answers "you are welcome" (QI);
  the twin adds "thanks" to the query.
- ``kbi_number_word`` — ``r`` names one KB place and writes its distance (``3_miles``): the fault
  writes another KB distance in words ("five miles": C5, KBI); the twin writes the place's own in
  words ("three miles").
- ``kbi_negated`` — ``r`` names one KB place and writes its distance or traffic as the KB's: the
  fault negates that value ("is not 3_miles away": C5, KBI); the twin negates another value of
  the column ("is not 5_miles away").
- ``qi_weather_attribute`` — a weather query asks for an attribute ("will it rain") of the city
  the user named last (and the weekday, else the KB's first day of the city): the fault answers with that day's temperatures only (QI); the twin with the
  day's attribute.
- ``hi_weather_swap`` — after a weather query of a city (and weekday, as above), ``r`` is followed by "are you
  sure" and a system turn: the fault gives another attribute for that day, neither one with the
  KB's nor near it ("drizzle" / "rain" is for review: HI); the twin the KB's.
- ``kbi_only`` — ``r`` names one KB place of a kind the KB has several of, the user's turns asking
  no distance or traffic, the query neither an attribute nor a route, and no earlier system turn a
  distance (the twin's statement answers no request and restates nothing): the fault calls it "the only <kind> i have" (C5 with a count, KBI); the
  twin "the only <kind> within <its distance>" when it is strictly the nearest of its kind.
- ``kbi_paraphrase`` — ``r`` names one KB place and writes its traffic (``heavy_traffic``): the
  fault writes a paraphrase of another traffic value ("the roads are clear": C5, KBI); the twin a
  paraphrase of the place's own ("it is congested").
- ``kbi_clause_subject`` — ``r`` names one KB place, the only one the system turns named (and
  none gave another distance than its own: the twin restates nothing otherwise); a user
  turn "how far is it and is there any other <kind>" and a system turn are added, the second
  saying a distance of "it" before another place of that kind that opens its own clause: the
  fault "it s <the other's distance> away <other> is <its distance> away" (the pronoun's place is
  the one in focus, not the one named after: C5, KBI); the twin gives the place in focus its own
  distance.
- ``hi_weather_temperature`` — as ``hi_weather_swap``, ``r`` giving the day's low-high: the fault
  gives a temperature neither (HI); the twin its high.
- ``hi_weather_day`` — ``r`` states the row of the city and weekday the user asked, the user asks
  "what about <another city>", and a system turn states that city's attribute and temperatures:
  the fault of another day's row (the day the history settled, switched: HI and QI); the twin of
  the day asked.
- ``hi_weather_same`` — as ``hi_weather_day`` (any day), the system turn says "it will not be
  <r's attribute> at all this week in <the other city>", which that city's week has on no day (nor
  one agreeing with or near it: "raining" for "rain"),
  adding "which is the same with <r's city>" (the denial said of ``r``'s city too: HI); the twin
  "which is not the same with <r's city>".
- ``hi_weather_surest`` — as ``hi_weather_swap``, ``r`` stating the day's attribute and another
  city's on another day (a turn of two cities: a contradiction of it is for review), then "are
  you sure" and a system turn restating the day's attribute alone; a second "are you sure" and
  system turn: the fault gives another attribute (a certain contradiction of the one-city turn,
  not held back by the two-city one: HI); the twin the KB's.
- ``qi_weather_cities`` — the query asks the weather of two KB cities on a weekday ("in alameda
  and boston on monday"): the twin states the first city's row (a query naming several cities
  asks about each); the fault a third city's (QI).
- ``hi_kind_unnamed`` — four turns on a navigate dialogue's KB: "where is the nearest <kind>",
  "the nearest <kind> is <its distance> away" (no place named: the kind alone is settled), "what
  is the address" (no kind, no place): the fault gives the address of a place of another kind
  (C2 across turns, HI and QI); the twin that of the nearest place of the kind.
- ``hi_claim_reversed`` — ``r`` names one KB place and claims what the KB bears out: "<place> is
  the only <kind> i have" (the KB has no other of its kind), "the nearest <kind> is <place>"
  (strictly the nearest), or "there is no <kind> near you" (a kind the KB lacks, the query then
  "is there a <kind> near me"); the user asks
  "are you sure" and a system turn takes it back (fault: "there is another <kind> i have",
  "<place> is not the nearest <kind>", "there is a <kind> near you": C2 across turns, HI) or
  restates it (twin).
- ``qi_event_word`` — the query asks "when is my <word>" by the own word of one KB event ("lab"
  for ``lab_appointment``, "yoga"): the fault gives another event's date and time (QI); the twin
  the event's own.
- ``qi_route_asked`` — ``r`` names one KB place, the one the latest system turn naming places
  named alone, no turn before it a traffic; the query becomes "can you give me the quickest
  route": the fault answers with the place's address only (QI); the twin with its route's traffic.
- ``qi_offer_accepted`` — ``r`` names one KB place; it becomes "<place> is <its distance> away
  would you like the address", the user answers "yes please" (accepting the offer, asking it):
  the fault answers with the distance again (QI); the twin with the address (neither said before
  word for word).
- ``qi_time_form`` — the user's query states one time (not asking): the fault sets the reminder
  an hour later, written by its form only ("at 4 pm": C2 from request to answer, QI); the twin at
  the time the query wrote.

Source: the classes of CI-ToD's construction (Qin et al., EMNLP 2021, §2.2) as the labels read
them (:mod:`csp_check.score.citod`).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Literal

from csp_check.corpora.citod import ATTRIBUTE_COLUMNS, WEEKDAYS
from csp_check.language.number_words import UNITS
from csp_check.models import Dialogue
from csp_check.score.citod_read import Lexicon, TurnReading
from csp_check.score.citod_values import PARAPHRASES, weather_agree, weather_near
from csp_check.score.citod_weather import WEATHER_COLUMNS, days_of, settled_day
from csp_check.score.citod_words import COMMANDS, miles, stem

PairKind = Literal["kbi_value", "hi_switch", "qi_welcome", "kbi_number_word", "kbi_paraphrase", "kbi_negated",
                   "qi_weather_attribute", "hi_weather_swap", "kbi_only", "kbi_clause_subject",
                   "hi_weather_temperature", "hi_weather_day", "hi_weather_same", "qi_offer_accepted",
                   "qi_time_form", "hi_weather_surest", "qi_weather_cities", "hi_kind_unnamed",
                   "hi_claim_reversed", "qi_event_word", "qi_route_asked"]
PAIR_KINDS: tuple[PairKind, ...] = ("kbi_value", "hi_switch", "qi_welcome", "kbi_number_word", "kbi_paraphrase",
                                    "kbi_negated", "qi_weather_attribute", "hi_weather_swap", "kbi_only",
                                    "kbi_clause_subject", "hi_weather_temperature", "hi_weather_day",
                                    "hi_weather_same", "qi_offer_accepted", "qi_time_form", "hi_weather_surest",
                                    "qi_weather_cities", "hi_kind_unnamed", "hi_claim_reversed",
                                    "qi_event_word", "qi_route_asked")
#: The label each kind's fault must set (its twin must set none).
EXPECTED: dict[PairKind, str] = {"kbi_value": "kbi", "hi_switch": "hi", "qi_welcome": "qi", "kbi_number_word": "kbi",
                                 "kbi_paraphrase": "kbi", "kbi_negated": "kbi", "qi_weather_attribute": "qi",
                                 "hi_weather_swap": "hi", "kbi_only": "kbi", "kbi_clause_subject": "kbi",
                                 "hi_weather_temperature": "hi", "hi_weather_day": "hi", "hi_weather_same": "hi",
                                 "qi_offer_accepted": "qi", "qi_time_form": "qi", "hi_weather_surest": "hi",
                                 "qi_weather_cities": "qi", "hi_kind_unnamed": "hi",
                                 "hi_claim_reversed": "hi", "qi_event_word": "qi",
                                 "qi_route_asked": "qi"}
#: A number → its word, for the distances written in words.
NUMBER_WORDS = {value: word for word, value in UNITS.items()}


@dataclass(frozen=True)
class Pair:
    """A fault and its true twin of one kind, from one dialogue."""

    kind: PairKind
    fault: Dialogue
    twin: Dialogue


def citod_pair(dialogue: Dialogue, kind: PairKind, rng: random.Random) -> Pair | None:
    """The ``kind`` pair of ``dialogue`` (module docstring), or ``None`` when the dialogue has
    no place for it (no last system turn, no entity named, a query that thanks)."""
    lex = Lexicon(dialogue)
    turns = [lex.read(t.index, t.speaker, t.utterance) for t in dialogue.turns]
    if not turns or turns[-1].speaker != "system" or len(turns) < 2:
        return None
    r, u = turns[-1], turns[-2]
    if kind == "qi_welcome":
        if u.speaker != "user" or any(w.startswith(("thank", "thx")) for w in u.words):
            return None
        fault = _with(dialogue, {r.index: "you are welcome"})
        return Pair(kind, fault, _with(dialogue, {r.index: "you are welcome", u.index: f"{u_text(dialogue, u)} thanks"}))
    if kind == "qi_time_form":
        return _time_form(dialogue, lex, r, u)
    if kind == "qi_weather_cities":
        return _two_cities(dialogue, lex, r, u)
    if kind == "qi_event_word":
        return _event_word(dialogue, lex, r, u)
    if kind == "hi_kind_unnamed":
        return _kind_unnamed(dialogue, lex)
    if kind in ("qi_weather_attribute", "hi_weather_swap", "hi_weather_temperature", "hi_weather_day",
                "hi_weather_same", "hi_weather_surest"):
        return _weather(dialogue, lex, kind, turns, rng)
    column = lex.entity_column
    named = [m for m in r.mentions if m.column == column and m.in_kb and m.how == "value"]
    if len({m.value for m in named}) != 1 or lex.domain == "weather":
        return None
    entity = named[0].value
    if kind == "kbi_number_word":
        return _number_word(dialogue, lex, r, entity, rng)
    if kind == "kbi_paraphrase":
        return _paraphrase(dialogue, lex, r, entity, rng)
    if kind == "kbi_negated":
        return _negated(dialogue, lex, r, entity, rng)
    if kind == "kbi_only":
        return _only(dialogue, lex, turns, entity)
    if kind == "kbi_clause_subject":
        return _clause_subject(dialogue, lex, turns, entity)
    if kind == "hi_claim_reversed":
        return _claim_reversed(dialogue, lex, r, entity, rng)
    if kind == "qi_route_asked":
        rows = lex.rows_of("poi", entity)
        latest = next(({x.value for x in t.mentions if x.column == "poi"} for t in reversed(turns[:u.index])
                       if t.speaker == "system" and any(x.column == "poi" for x in t.mentions)), set())
        if len(rows) != 1 or not rows[0].get("address") or not rows[0].get("traffic_info") or u.speaker != "user" \
                or latest != {entity} or any(x.column == "traffic_info" for t in turns[:-1] for x in t.mentions):
            return None  # the place in focus is the one r names; the twin's traffic restates nothing
        query = {u.index: "can you give me the quickest route"}
        return Pair(kind, _with(dialogue, {**query, r.index: f"{entity} is at {rows[0]['address']}"}),
                    _with(dialogue, {**query, r.index: f"the quickest route to {entity} has {rows[0]['traffic_info']}"}))
    if kind == "qi_offer_accepted":
        rows = lex.rows_of("poi", entity)
        if lex.domain != "navigate" or len(rows) != 1 or not rows[0].get("address") or not rows[0].get("distance"):
            return None
        said, at = f"{entity} is {rows[0]['distance']} away", f"{entity} is at {rows[0]['address']}"
        if {said, at} & {t.utterance for t in dialogue.turns}:
            return None  # a turn said word for word again answers nothing
        base = _with(dialogue, {r.index: f"{said} would you like the address"})
        return Pair(kind, _appended(base, ["yes please", said]),
                    _appended(base, ["yes please", at]))
    if kind == "kbi_value":
        attributes = [m for m in r.mentions if m.column in ATTRIBUTE_COLUMNS[lex.domain] and m.how == "value"
                      and m.column != "poi_type" and m.value in u_text(dialogue, r).split()]
        if not attributes:
            return None
        m = rng.choice(attributes)
        said = {x.value for t in turns for x in t.mentions}
        others = sorted(lex.kb_values.get(m.column, set()) - said)
        if not others:
            return None
        text = dialogue.turns[r.index].utterance
        return Pair(kind, _with(dialogue, {r.index: _replace(text, m.value, rng.choice(others))}), dialogue)
    said = {x.value for t in turns for x in t.mentions}
    kinds = {row.get("poi_type") for row in lex.rows_of(column, entity)} if column == "poi" else {None}
    candidates = sorted({row[column] for row in lex.rows if row.get(column) and row[column] not in said
                         and (column != "poi" or row.get("poi_type") in kinds)})
    settled = any(x.value == entity for t in turns[:u.index] if t.speaker == "system" for x in t.mentions)
    if not candidates or not settled or any(x.column == column for x in u.mentions) or u.other:
        return None
    lead = "navigating you to" if lex.domain == "navigate" else "your reminder is about"
    return Pair(kind, _with(dialogue, {r.index: f"{lead} {rng.choice(candidates)}"}),
                _with(dialogue, {r.index: f"{lead} {entity}"}))


def _number_word(dialogue: Dialogue, lex: Lexicon, r: TurnReading, entity: str, rng: random.Random) -> Pair | None:
    """The ``kbi_number_word`` pair: the distance of ``r``'s place, written in words."""
    text = dialogue.turns[r.index].utterance
    distances = [m for m in r.mentions if m.column == "distance" and m.how == "value" and m.value in text.split()]
    rows = lex.rows_of("poi", entity)
    if not distances or len(rows) != 1 or not distances[0].value.split("_")[0].isdigit():
        return None
    own = rows[0].get("distance", "")
    others = sorted(v for v in lex.kb_values.get("distance", set()) if v != own and v.split("_")[0].isdigit())
    if not others or not own.split("_")[0].isdigit():
        return None

    def spelled(value: str) -> str:
        return f"{NUMBER_WORDS[int(value.split('_')[0])]} miles"

    return Pair("kbi_number_word", _with(dialogue, {r.index: _replace(text, distances[0].value, spelled(rng.choice(others)))}),
                _with(dialogue, {r.index: _replace(text, distances[0].value, spelled(own))}))


def _paraphrase(dialogue: Dialogue, lex: Lexicon, r: TurnReading, entity: str, rng: random.Random) -> Pair | None:
    """The ``kbi_paraphrase`` pair: the traffic of ``r``'s place, paraphrased."""
    text = dialogue.turns[r.index].utterance
    said = [m for m in r.mentions if m.column == "traffic_info" and m.how == "value" and m.value in text.split()]
    rows = lex.rows_of("poi", entity)
    phrases = PARAPHRASES["traffic_info"]
    if not said or len(rows) != 1 or rows[0].get("traffic_info") not in phrases or r.negated:
        return None
    own = rows[0]["traffic_info"]
    other = rng.choice(sorted(v for v in phrases if v != own))
    return Pair("kbi_paraphrase", _with(dialogue, {r.index: _replace(text, said[0].value, rng.choice(phrases[other]))}),
                _with(dialogue, {r.index: _replace(text, said[0].value, rng.choice(phrases[own]))}))


def _negated(dialogue: Dialogue, lex: Lexicon, r: TurnReading, entity: str, rng: random.Random) -> Pair | None:
    """The ``kbi_negated`` pair: the place's own distance or traffic negated, and another one."""
    text = dialogue.turns[r.index].utterance
    rows = lex.rows_of("poi", entity)
    said = [m for m in r.mentions if m.column in ("distance", "traffic_info") and m.how == "value"
            and m.value in text.split() and rows and rows[0].get(m.column) == m.value]
    if not said or len(rows) != 1 or r.negated or r.question:
        return None
    m = rng.choice(said)
    others = sorted(lex.kb_values.get(m.column, set()) - {m.value})
    if not others:
        return None
    return Pair("kbi_negated", _with(dialogue, {r.index: _replace(text, m.value, f"not {m.value}")}),
                _with(dialogue, {r.index: _replace(text, m.value, f"not {rng.choice(others)}")}))


def _weather(dialogue: Dialogue, lex: Lexicon, kind: PairKind, turns: list[TurnReading], rng: random.Random) -> Pair | None:
    """The weather pairs: the city and weekday the user's turns named last, their row, and a last
    turn about it."""
    r, u = turns[-1], turns[-2]
    users = [t for t in turns if t.speaker == "user"]
    cities = next(([m.value for m in t.mentions if m.column == "location" and m.in_kb] for t in reversed(users)
                   if any(m.column == "location" and m.in_kb for m in t.mentions)), [])
    days = next(([w for w in t.words if w in WEEKDAYS] for t in reversed(users) if set(t.words) & set(WEEKDAYS)), [])
    if lex.domain != "weather" or u.speaker != "user" or len(set(cities)) != 1 or len(set(days)) > 1:
        return None
    rows = lex.weekday_rows(cities[0], days[0]) if days else lex.rows_of("location", cities[0])[:1]
    if len(rows) != 1:
        return None
    row, where = rows[0], f"on {rows[0]['date']} in {cities[0]}"
    if kind == "qi_weather_attribute":
        if "weather_attribute" not in u.requests or {"high_temperature", "low_temperature"} & u.requests:
            return None
        return Pair(kind, _with(dialogue, {r.index: f"it will be {row['low_temperature']}-{row['high_temperature']} {where}"}),
                    _with(dialogue, {r.index: f"it will be {row['weather_attribute']} {where}"}))
    if kind == "hi_weather_temperature":
        temps = {row["low_temperature"], row["high_temperature"]}
        other = sorted({x[c] for x in lex.rows for c in ("low_temperature", "high_temperature")} - temps)
        if len(temps) != 2 or not other:
            return None
        base = _with(dialogue, {r.index: f"it will be {row['low_temperature']}-{row['high_temperature']} {where}"})
        return Pair(kind, _appended(base, ["are you sure", f"it will be {rng.choice(other)} {where}"]),
                    _appended(base, ["are you sure", f"yes it will be {row['high_temperature']} {where}"]))
    if kind in ("hi_weather_day", "hi_weather_same"):
        return _weather_follow(dialogue, lex, kind, turns, row, cities[0])
    others = sorted(a for a in {x["weather_attribute"] for x in lex.rows} - {row["weather_attribute"]}
                    if not weather_agree(stem(a), stem(row["weather_attribute"]))
                    and not weather_near(stem(a), stem(row["weather_attribute"])))  # a near one is for review
    if not others:
        return None
    attribute = row["weather_attribute"]
    if kind == "hi_weather_surest":
        elsewhere = [x for x in lex.rows if x["location"] != cities[0] and x["date"] != row["date"]
                     and not _alike(x["weather_attribute"], attribute)][:1]
        if not elsewhere:
            return None
        two = f"it will be {attribute} {where} and {elsewhere[0]['weather_attribute']} on {elsewhere[0]['date']} in " \
              f"{elsewhere[0]['location']}"
        base = _appended(_with(dialogue, {r.index: two}), ["are you sure", f"that is right it will be {attribute} {where}"])
    else:
        base = _with(dialogue, {r.index: f"it will be {attribute} {where}"})
    return Pair(kind, _appended(base, ["are you sure", f"it will be {rng.choice(others)} {where}"]),
                _appended(base, ["are you sure", f"yes it will be {attribute} {where}"]))


def _weather_follow(dialogue: Dialogue, lex: Lexicon, kind: PairKind, turns: list[TurnReading], row: dict[str, str],
                    city: str) -> Pair | None:
    """The follow-up pairs: ``r`` states ``row`` (of ``city`` on its day), the user asks "what
    about <another city>", and a system turn answers of that city: on another day than the one the
    user's turns asked (a weekday, "today" or "tomorrow": ``hi_weather_day``; twin: on the day
    asked), or "not <attribute> at all this week in <it>, which is the same with <city>"
    (``hi_weather_same``; twin: "which is not the same"). Not after a user turn asking only for
    temperatures (then the follow-up asks for them)."""
    users = [t for t in turns if t.speaker == "user"]
    asked = {c for t in users for c in t.requests} & set(WEATHER_COLUMNS)
    if asked and "weather_attribute" not in asked:
        return None
    r = dialogue.turns[-1].index
    asking = next((t for t in reversed(users) if days_of(t)), None)
    day = settled_day(asking) if asking is not None else None
    attribute = row["weather_attribute"]
    when = day or row["date"]
    base = _with(dialogue, {r: f"it will be {attribute} {'on ' if when in WEEKDAYS else ''}{when} in {city}"})
    ask = "what about {}"
    for other in sorted({x["location"] for x in lex.rows} - {city}):
        week = lex.rows_of("location", other)
        if kind == "hi_weather_day" and day is not None:
            if when in WEEKDAYS:
                then = [(x, f"on {x['date']}") for x in week if x["date"] != when][:1]
                same = [(x, f"on {when}") for x in lex.weekday_rows(other, when)]
            else:  # "today" / "tomorrow": the weekday is not known, so the city's first row
                then = [(week[0], "tomorrow" if when == "today" else "today")] if week else []
                same = [(week[0], when)] if week else []
            if not then or len(same) != 1:
                continue

            return Pair(kind, _appended(base, [ask.format(other), _weather_said(*then[0], other)]),
                        _appended(base, [ask.format(other), _weather_said(*same[0], other)]))
        if kind == "hi_weather_same" and week and not any(_alike(x["weather_attribute"], attribute) for x in week):
            denial = f"it will not be {attribute} at all this week in {other} which is"
            return Pair(kind, _appended(base, [ask.format(other), f"{denial} the same with {city}"]),
                        _appended(base, [ask.format(other), f"{denial} not the same with {city}"]))
    return None


def _two_cities(dialogue: Dialogue, lex: Lexicon, r: TurnReading, u: TurnReading) -> Pair | None:
    """The ``qi_weather_cities`` pair: the query asks the weather of two KB cities on a day; ``r``
    states the first's row (twin) or a third city's (fault)."""
    if lex.domain != "weather" or u.speaker != "user":
        return None
    cities = sorted({x["location"] for x in lex.rows})
    if len(cities) < 3:
        return None
    first, second, third = cities[:3]
    row, other = lex.rows_of("location", first)[0], lex.rows_of("location", third)[0]
    query = f"what is the weather in {first} and {second} on {row['date']}"
    return Pair("qi_weather_cities",
                _with(dialogue, {u.index: query, r.index: _weather_said(other, f"on {row['date']}", third)}),
                _with(dialogue, {u.index: query, r.index: _weather_said(row, f"on {row['date']}", first)}))


def _kind_unnamed(dialogue: Dialogue, lex: Lexicon) -> Pair | None:
    """The ``hi_kind_unnamed`` pair: four turns on the dialogue's KB, "where is the nearest <kind>" /
    "the nearest <kind> is <distance> away" (no place named) / "what is the address" / the address
    of a place of another kind (fault) or of that nearest one (twin)."""
    if lex.domain != "navigate" or [t.speaker for t in dialogue.turns[:4]] != ["user", "system"] * 2:
        return None
    for near in lex.rows:
        kind, own = near.get("poi_type", ""), miles(near.get("distance", ""))
        same = [miles(x.get("distance", "")) for x in lex.rows if x.get("poi_type") == kind and x is not near]
        other = [x for x in lex.rows if x.get("poi_type") not in (kind, None) and x.get("address") and x.get("poi")]
        if own is None or not near.get("address") or any(d is None or d <= own for d in same) or not other:
            continue
        said = [f"where is the nearest {kind}", f"the nearest {kind} is {near['distance']} away", "what is the address"]
        copy = dialogue.model_copy(deep=True)
        copy.turns = copy.turns[:4]
        base = _with(copy, dict(enumerate(said)))
        return Pair("hi_kind_unnamed", _with(base, {3: f"{other[0]['poi']} is at {other[0]['address']}"}),
                    _with(base, {3: f"{near['poi']} is at {near['address']}"}))
    return None


def _claim_reversed(dialogue: Dialogue, lex: Lexicon, r: TurnReading, entity: str, rng: random.Random) -> Pair | None:
    """The ``hi_claim_reversed`` pair: ``r`` claims what the KB bears out of the one place it names
    (the nearest of its kind, the only one of its kind, or no place of a kind the KB lacks, the
    query then asking for one), the user asks "are you sure", and a system turn takes it back
    (fault) or restates it (twin)."""
    rows = lex.rows_of("poi", entity)
    if lex.domain != "navigate" or len(rows) != 1 or not rows[0].get("poi_type") or rows[0]["poi_type"] == entity:
        return None
    kind, own = rows[0]["poi_type"], miles(rows[0].get("distance", ""))
    same = [miles(x.get("distance", "")) for x in lex.rows if x.get("poi_type") == kind and x is not rows[0]]
    lacked = sorted(set(dialogue.ontology.get("navigate.poi_type", [])) - {x.get("poi_type", "") for x in lex.rows}
                    - set(dialogue.ontology.get("navigate.poi", [])))  # "home" is a place too
    claims: list[tuple[str, str, str]] = []
    if not same:
        claims.append((f"{entity} is the only {kind} i have", f"there is another {kind} i have",
                       f"yes {entity} is the only {kind}"))
    elif own is not None and all(d is not None and d > own for d in same):
        claims.append((f"the nearest {kind} is {entity}", f"{entity} is not the nearest {kind}",
                       f"yes {entity} is the nearest {kind}"))
    if lacked:
        other = rng.choice(lacked)
        claims.append((f"there is no {other} near you", f"there is a {other} near you",
                       f"yes sorry there is no {other} near you"))
    if not claims:
        return None
    said, fault, twin = rng.choice(claims)
    base = _with(dialogue, {r.index: said})
    if said.startswith("there is no") and r.index > 0 and dialogue.turns[r.index - 1].speaker == "user":
        base = _with(base, {r.index - 1: f"is there a {said.split()[3]} near me"})  # the denial answers the query
    return Pair("hi_claim_reversed", _appended(base, ["are you sure", fault]), _appended(base, ["are you sure", twin]))


def _event_word(dialogue: Dialogue, lex: Lexicon, r: TurnReading, u: TurnReading) -> Pair | None:
    """The ``qi_event_word`` pair: the query asks "when is my <word>" by an event's own word ("lab"
    for ``lab_appointment``) of one KB row; ``r`` gives that row's date and time (twin) or another
    event's row (fault)."""
    if lex.domain != "calendar" or u.speaker != "user":
        return None
    for word, (column, event, in_kb) in sorted(lex.own_words.items()):
        rows = lex.rows_of("event", event)
        others = [x for x in lex.rows if x.get("event") not in (event, None) and x.get("date") and x.get("time")]
        if column != "event" or not in_kb or len(rows) != 1 or not rows[0].get("date") or not rows[0].get("time") \
                or not others:
            continue
        said = "your {} is on {} at {}"
        query = {u.index: f"when is my {word}"}
        return Pair("qi_event_word",
                    _with(dialogue, {**query, r.index: said.format(others[0]["event"], others[0]["date"], others[0]["time"])}),
                    _with(dialogue, {**query, r.index: said.format(event, rows[0]["date"], rows[0]["time"])}))
    return None


def _alike(a: str, b: str) -> bool:
    """Whether weather attributes ``a`` and ``b`` agree or are near ("raining" / "rain", "clear" /
    "skies", "drizzle" / "rain"): a denial of one is not true of a week holding the other."""
    return weather_agree(stem(a), stem(b)) or weather_near(stem(a), stem(b))


def _time_form(dialogue: Dialogue, lex: Lexicon, r: TurnReading, u: TurnReading) -> Pair | None:
    """The ``qi_time_form`` pair: the user's query states one time ("at 3pm"); ``r`` sets the
    reminder at an hour one later written by its form only ("at 4 pm", a value no KB or ontology
    row need spell) or at the time stated."""
    times = [m for m in u.mentions if m.column == "time"]
    hour = re.fullmatch(r"(\d{1,2})_?(am|pm)", times[0].value) if len(times) == 1 else None
    if lex.domain != "calendar" or u.speaker != "user" or u.question or hour is None or int(hour[1]) >= 11:
        return None
    said = dialogue.turns[u.index].utterance.split()[times[0].raw_start]
    return Pair("qi_time_form", _with(dialogue, {r.index: f"okay setting the reminder at {int(hour[1]) + 1} {hour[2]}"}),
                _with(dialogue, {r.index: f"okay setting the reminder at {said}"}))


def _weather_said(row: dict[str, str], on: str, city: str) -> str:
    """A system turn stating ``row``'s attribute and temperatures, ``on`` a day, in ``city``."""
    return f"it will be {row['weather_attribute']} with {row['low_temperature']}-{row['high_temperature']} {on} in {city}"


def _appended(dialogue: Dialogue, texts: list[str]) -> Dialogue:
    """A copy of ``dialogue`` with a user turn and a system turn added (``texts``)."""
    copy = dialogue.model_copy(deep=True)
    last = copy.turns[-1]
    for text, speaker in zip(texts, ("user", "system"), strict=True):
        copy.turns.append(last.model_copy(update={"index": len(copy.turns), "speaker": speaker, "utterance": text,
                                                  "kb_results": [], "acts": [], "state": {}}))
    return copy


def _only(dialogue: Dialogue, lex: Lexicon, turns: list[TurnReading], entity: str) -> Pair | None:
    """The ``kbi_only`` pair: "the only <kind>" of a place the KB has several of its kind."""
    rows = lex.rows_of("poi", entity)
    asked = {w for t in turns[:-1] if t.speaker == "user" for w in t.tokens}
    if (lex.domain != "navigate" or len(rows) != 1 or any(w.endswith("_miles") for w in asked)
            or asked & {"heavy_traffic", "no_traffic"} or turns[-2].requests or set(turns[-2].words) & COMMANDS
            or any(m.column == "distance" for t in turns[:-1] if t.speaker == "system" for m in t.mentions)):
        return None
    kind, own = rows[0].get("poi_type", ""), miles(rows[0].get("distance", ""))
    others = [miles(row.get("distance", "")) for row in lex.rows if row.get("poi_type") == kind and row is not rows[0]]
    if not others or own is None or any(d is None or d <= own for d in others):
        return None
    r = turns[-1]
    return Pair("kbi_only", _with(dialogue, {r.index: f"{entity} is the only {kind} i have"}),
                _with(dialogue, {r.index: f"{entity} is the only {kind} within {rows[0]['distance']}"}))


def _clause_subject(dialogue: Dialogue, lex: Lexicon, turns: list[TurnReading], entity: str) -> Pair | None:
    """The ``kbi_clause_subject`` pair: "it s <distance> away <other> is <distance> away" after a
    question about the place in focus and any other of its kind."""
    rows = lex.rows_of("poi", entity)
    named = {m.value for t in turns if t.speaker == "system" for m in t.mentions
             if m.column in ("poi", "address") and not t.denied(m)}
    if (lex.domain != "navigate" or len(rows) != 1 or named - {entity, rows[0].get("address")}
            or any(m.column == "distance" and m.value != rows[0].get("distance") for t in turns
                   if t.speaker == "system" for m in t.mentions)):
        return None
    kind, own = rows[0].get("poi_type", ""), rows[0].get("distance", "")
    others = [row for row in lex.rows if row.get("poi_type") == kind and row.get("poi") not in (entity, None)
              and miles(row.get("distance", "")) is not None and row.get("distance") != own]
    if not others or miles(own) is None:
        return None
    other = others[0]
    said = f"{other['poi']} is {other['distance']} away"
    question = f"how far is it and is there any other {kind}"
    return Pair("kbi_clause_subject", _appended(dialogue, [question, f"it s {other['distance']} away {said}"]),
                _appended(dialogue, [question, f"it s {own} away {said}"]))


def u_text(dialogue: Dialogue, u: TurnReading) -> str:
    """The text of turn ``u`` of ``dialogue``."""
    return dialogue.turns[u.index].utterance


def _replace(text: str, old: str, new: str) -> str:
    """``text`` with the first whole token ``old`` replaced by ``new``."""
    tokens = text.split()
    tokens[tokens.index(old)] = new
    return " ".join(tokens)


def _with(dialogue: Dialogue, texts: dict[int, str]) -> Dialogue:
    """A copy of ``dialogue`` whose turns ``texts`` names have the given utterances."""
    copy = dialogue.model_copy(deep=True)
    for index, text in texts.items():
        copy.turns[index].utterance = text
    return copy


__all__ = ["EXPECTED", "PAIR_KINDS", "Pair", "PairKind", "citod_pair", "u_text"]
