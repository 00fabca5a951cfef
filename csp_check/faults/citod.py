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
  sure" and a system turn: the fault gives another attribute for that day (HI); the twin the KB's.
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

Source: the classes of CI-ToD's construction (Qin et al., EMNLP 2021, §2.2) as the labels read
them (:mod:`csp_check.score.citod`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from csp_check.corpora.citod import ATTRIBUTE_COLUMNS, WEEKDAYS
from csp_check.language.number_words import UNITS
from csp_check.models import Dialogue
from csp_check.score.citod_read import Lexicon, TurnReading
from csp_check.score.citod_values import PARAPHRASES
from csp_check.score.citod_words import COMMANDS, miles

PairKind = Literal["kbi_value", "hi_switch", "qi_welcome", "kbi_number_word", "kbi_paraphrase", "kbi_negated",
                   "qi_weather_attribute", "hi_weather_swap", "kbi_only", "kbi_clause_subject"]
PAIR_KINDS: tuple[PairKind, ...] = ("kbi_value", "hi_switch", "qi_welcome", "kbi_number_word", "kbi_paraphrase",
                                    "kbi_negated", "qi_weather_attribute", "hi_weather_swap", "kbi_only",
                                    "kbi_clause_subject")
#: The label each kind's fault must set (its twin must set none).
EXPECTED: dict[PairKind, str] = {"kbi_value": "kbi", "hi_switch": "hi", "qi_welcome": "qi", "kbi_number_word": "kbi",
                                 "kbi_paraphrase": "kbi", "kbi_negated": "kbi", "qi_weather_attribute": "qi",
                                 "hi_weather_swap": "hi", "kbi_only": "kbi", "kbi_clause_subject": "kbi"}
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
    if kind in ("qi_weather_attribute", "hi_weather_swap"):
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
    others = sorted({x["weather_attribute"] for x in lex.rows} - {row["weather_attribute"]}
                    - {a for a in ("clear", "skies") if row["weather_attribute"] in ("clear", "skies")})
    if not others:
        return None
    base = _with(dialogue, {r.index: f"it will be {row['weather_attribute']} {where}"})
    return Pair(kind, _appended(base, ["are you sure", f"it will be {rng.choice(others)} {where}"]),
                _appended(base, ["are you sure", f"yes it will be {row['weather_attribute']} {where}"]))


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
