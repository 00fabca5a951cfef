"""The CI-ToD labels of a dialogue's last system response, from the constraint families.

CI-ToD (Qin et al., EMNLP 2021, §2) asks of the last system response three questions: does it
contradict the user's last query (**QI**), the dialogue history (**HI**), the dialogue's own KB
(**KBI**)? Each label is set by the certain violations (docs/certainty.md) of the families below;
a violation whose reading no rule settles is for review and sets no label.

``r`` below is the last system turn, read by :mod:`csp_check.score.citod_read`.

Reading rules

- **KBI, C5 (at least one entity)**: what ``r`` states describes an entity of the KB. A value no
  KB row has in its column, not said before ("directions to the_westin"): certain. An attribute
  bound to an entity (the one ``r`` names nearest before it, else after it; else the latest in
  focus in the history's system turns, an address naming its entity; by the clause, not the order:
  an attribute whose clause has a pronoun subject and names no entity before it, "it s 4_miles
  away, chevron is the closest", is the entity's in focus, not that of the place opening the next
  clause, and for review when no entity is in focus) whose rows have another
  value ("hotel_keen is 5_miles away", the KB's 3_miles): certain, for review when it is bound to
  a following entity of several or to the latest of several in focus. The attributes bound to one
  named entity fit one of its rows together (a calendar event the KB has several of); the
  attributes said of no entity, one per column with an address, fit one row; the place ``r``
  calls the nearest or closest has the least distance of the KB's places of its kind. Weather: the city
  nearest the value, the weekday said (else the one the user asked, else some day of the city's
  week must fit: "today" is not known); a temperature is the row's low or high, a weather word
  fits by its stem; a denied value ("no hail this sunday") is refuted only on its day.
- **KBI, C4 (none)**: ``r`` denies ("i do not get any grocery_store nearby") a kind or an entity
  the KB has: certain.
- **HI, C2 (coreference across turns)**: ``r`` agrees with what the turns before the user's
  query settled. It names one entity (not the query's) other than the latest turn's naming
  entities (any the history named, for a query comparing them: "which of the two is closest"),
  while the history named some not denied and neither the user ("any other", "any closer
  options") nor the system ("i have another one") asked for another: HI and QI, certain. It names
  an explicit kind of place, or an entity of a kind, other than the history's kinds (the user's
  and the settled entities'; the user's alone when no turn before the query named a place: "the
  nearest gas_station is 8_miles away"), for a query naming no kind (nor a place): HI and QI. It gives an attribute of an
  entity another value than an earlier system turn gave it (both bound as for KBI; for review
  when the KB has several of the entity); it offers what an earlier system turn said it does not
  have; it denies a kind or entity an earlier system turn offered ("no other grocery_store" denies
  only the others) (HI and QI); it takes back a claim of an earlier system turn, the nearest, the
  only one, none of a kind (:mod:`csp_check.score.citod_claims`). Calendar: a value
  the user stated in an earlier turn (not asked), given otherwise, when the query states none of
  that column; a value the query picked among those an earlier system turn offered ("the one on
  the_2nd"), given otherwise (HI and QI); not for a query naming an event no turn before it named
  ("when is my lab" after the meeting's day: a new request). Values compare by their words. Weather: another city than the one asked, when an earlier user turn named it too;
  another day than the one an earlier user turn settled (HI and QI); a weather attribute or
  temperature of a city and day another than an earlier system turn gave
  (:mod:`csp_check.score.citod_weather`).
- **QI, C2 (request to answer)**: the answer corefers with the request. ``r`` names entities none
  of which the query names, while the query names one (an address names its entity); a kind of
  place other than the query's (or, for a query naming no place, the one kind the user asked
  before); only attributes of other columns than the query's request words ask, when the query
  asks at all (a question, or "give", "tell", "find", …: "schedule it in the conference room"
  asks for no room; a bare acceptance, "yes please", of a system turn's offer, "would you like
  the address", asks for what was offered); "you are welcome" to a
  query that thanks for nothing; to a navigation command ("set the gps", "let s go there"), only
  what the history said, neither doing it (no word of the route) nor refusing; to a query asking
  for the route of the place in focus ("can you give me the quickest route": no place, kind or
  column named, no "which"), no word of the route or its traffic; an earlier turn
  word for word; the settled entity again for a
  user who asked for another (unless ``r`` says it is the only one). Calendar: a value the query
  stated (not asked), given otherwise. Weather: another city than the ones asked (the latest user
  turn naming cities asks about each it names: "in alameda and boston"). An attribute an
  earlier system turn gave, restated otherwise, which the query does not ask for: certain when it
  is the only column ``r`` states ("X is 5_miles away" to "set the gps"), else for review.

Each violation's ``reading`` holds ``label: qi`` (``hi``, ``kbi``): the label it makes.
Source: CI-ToD (arXiv 2109.11292) §2 for the labels; the paper's C2, C4, C5 (Labruna & Magnini
2024 §3.2) for the families.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from csp_check.constraint_ids import ConstraintId
from csp_check.corpora.citod import ATTRIBUTE_COLUMNS
from csp_check.models import Dialogue, VariableRef, Violation
from csp_check.score.citod_claims import claims_history, kind_history
from csp_check.score.citod_only import only_claim
from csp_check.score.citod_read import REQUEST_WORDS, Lexicon, Mention, TurnReading, value_words
from csp_check.score.citod_values import clearly_negated
from csp_check.score.citod_weather import (
    day_switch,
    temperature_history,
    vague_temperatures,
    weather_follow_up,
    weather_history,
    weather_kb,
)
from csp_check.score.citod_words import (
    ACCEPTING,
    ASKED_INFO,
    ASKING,
    COMMANDS,
    COMPARING,
    NEAREST,
    OFFERS,
    ONLY_WORDS,
    ROUTE_STEMS,
    THANKS,
    anaphoric,
    miles,
    opens_clause,
)

LABELS = ("qi", "hi", "kbi")


@dataclass(frozen=True)
class Labels:
    """The three CI-ToD labels of one dialogue (``True``: inconsistent)."""

    qi: bool
    hi: bool
    kbi: bool

    def triple(self) -> tuple[bool, bool, bool]:
        """``(qi, hi, kbi)``."""
        return (self.qi, self.hi, self.kbi)

    def as_dict(self) -> dict[str, bool]:
        """``{"qi": …, "hi": …, "kbi": …}``, as the report line writes them."""
        return {"qi": self.qi, "hi": self.hi, "kbi": self.kbi}


def labels_of(found: Sequence[Violation]) -> Labels:
    """The labels the certain violations among ``found`` make (their ``label:`` reading)."""
    made = {line.split(": ", 1)[1] for v in found if v.certain for line in v.reading if line.startswith("label: ")}
    return Labels(*(label in made for label in LABELS))


class _Check:
    """The violations of one dialogue's last system response."""

    def __init__(self, dialogue: Dialogue):
        self.dialogue = dialogue
        self.lex = Lexicon(dialogue)
        self.turns = [self.lex.read(t.index, t.speaker, t.utterance) for t in dialogue.turns]
        self.found: list[Violation] = []
        last = max((t.index for t in self.turns if t.speaker == "system"), default=None)
        self.last = self.turns[last] if last is not None else None
        self.history = self.turns[:last] if last is not None else []
        self.user = next((t for t in reversed(self.history) if t.speaker == "user"), None)

    def flag(self, label: str, constraint: str, mentions: Sequence[Mention], message: str,
             doubt: str | None = None) -> None:
        refs = [VariableRef(name=f"x{i + 1}", turn=m.turn, slot=f"{self.lex.domain}.{m.column}",
                            span=None, text=m.value, value=m.value) for i, m in enumerate(mentions)]
        turns = sorted({m.turn for m in mentions} | ({self.last.index} if self.last else set()))
        self.found.append(Violation(constraint=ConstraintId(constraint), turns=turns, variables=refs, message=message,
                                    certain=doubt is None, uncertain_reason=doubt, reading=[f"label: {label}"]))

    # -- the history ----------------------------------------------------------------------------
    def named_entities(self, turns: Sequence[TurnReading], speaker: str | None = None) -> list[Mention]:
        column = self.lex.entity_column
        return [m for t in turns if speaker is None or t.speaker == speaker for m in t.mentions if m.column == column]

    def focus(self, before: int | None = None) -> list[str]:
        """The entities the system turns before turn ``before`` (default: the last system turn)
        named or gave the address of, latest last, without repeats."""
        turns = self.history if before is None else self.turns[:before]
        named: list[str] = []
        for t in turns:
            if t.speaker != "system":
                continue
            for m in t.mentions:
                if m.column == self.lex.entity_column and not t.denied(m):
                    named.append(m.value)
                elif m.column == "address" and m.in_kb:
                    named += [row["poi"] for row in self.lex.rows_of("address", m.value) if row.get("poi")][:1]
            described = self.lex.described(t)
            if described:
                named.append(described)
        named.reverse()
        return list(dict.fromkeys(named))[::-1]

    def run(self) -> list[Violation]:
        if self.last is None or not self.lex.domain:
            return self.found
        if self.lex.domain == "weather":
            self.weather()
        else:
            self.kb_values()
            self.joint_values()
            self.nearest()
            self.one_entity()
            self.no_result()
            only_claim(self)
            claims_history(self)
        self.history_entity()
        self.attribute_history()
        self.answer()
        return self.found

    # -- KBI ------------------------------------------------------------------------------------
    def kb_values(self) -> None:
        """C5: every value ``r`` states is the KB's, and every attribute its entity's."""
        r = self.last
        assert r is not None
        if not self.lex.rows:
            return
        said_before = {m.value for t in self.history for m in t.mentions}
        for m in r.mentions:
            if not m.in_kb and m.how == "value" and m.value not in said_before:
                self.flag("kbi", "C5", [m], f"turn {r.index} says {m.column}={m.value!r}; no KB row has it")
        for i, m in enumerate(r.mentions):
            if (m.column not in ATTRIBUTE_COLUMNS.get(self.lex.domain, ()) or not (m.in_kb or m.how == "paraphrase")
                    or m.column == "poi_type" and r.negated):
                continue
            entity, anchor, doubt = self.bind(r, i)
            if entity is None:
                continue
            rows = self.lex.rows_of(self.lex.entity_column, entity)
            if r.denied(m) or clearly_negated(r.tokens, m.raw_start, r.denials):  # "it is not 5_miles away"
                if rows and all(row.get(m.column) == m.value for row in rows) and not r.question:
                    scope = None if clearly_negated(r.tokens, m.raw_start, r.denials) else \
                        "the negation's scope is not one clause: it may deny something else"
                    self.flag("kbi", "C5", [*anchor, m], f"turn {r.index} denies {m.column}={m.value!r} of "
                              f"{entity!r}; the KB has it", doubt or scope)
                continue
            if rows and not any(row.get(m.column) == m.value for row in rows):
                kb = sorted({row.get(m.column, "") for row in rows})
                self.flag("kbi", "C5", [*anchor, m], f"turn {r.index} says {m.column}={m.value!r} of {entity!r}; "
                          f"the KB has {', '.join(kb)}", doubt)

    def joint_values(self) -> None:
        """C5 on a whole statement: the attributes ``r`` binds to its one named entity fit one of
        its KB rows together ("your lab_appointment is at 6pm with sister": a lab_appointment at
        6pm and one with sister are not one), each fitting some row alone."""
        r = self.last
        assert r is not None
        column = self.lex.entity_column
        named = {m.value for m in r.mentions if m.column == column}
        if len(named) != 1 or r.question:
            return
        entity = named.pop()
        rows = self.lex.rows_of(column, entity)
        stated = [m for m in r.mentions if m.column in ATTRIBUTE_COLUMNS.get(self.lex.domain, ()) and m.in_kb
                  and not r.denied(m) and m.column != "poi_type"]
        by_column: dict[str, set[str]] = {}
        for m in stated:
            by_column.setdefault(m.column, set()).add(m.value)
        if len(rows) < 2 or len(by_column) < 2 or any(len(v) > 1 for v in by_column.values()):
            return
        if not all(any(row.get(m.column) == m.value for row in rows) for m in stated):
            return  # a value no row of the entity has is its own violation
        if not any(all(row.get(m.column) == m.value for m in stated) for row in rows):
            said = ", ".join(f"{m.column}={m.value!r}" for m in stated)
            self.flag("kbi", "C5", stated, f"turn {r.index} says {said} of {entity!r}; no one KB row of it has them all")

    def nearest(self) -> None:
        """C5 with an order (navigate): the entity ``r`` calls the nearest or closest ("X is the
        closest coffee_or_tea_place") has the least distance among the KB's entities of its kind."""
        r = self.last
        assert r is not None
        if self.lex.domain != "navigate" or r.question or not set(r.words) & NEAREST:
            return
        named = [m for m in r.mentions if m.column == "poi" and m.in_kb and not r.denied(m)]
        if len({m.value for m in named}) != 1:
            return
        rows = self.lex.rows_of("poi", named[0].value)
        kind = rows[0].get("poi_type", "") if rows else ""
        distances = [miles(row.get("distance", "")) for row in self.lex.rows if row.get("poi_type") == kind]
        own = miles(rows[0].get("distance", "")) if rows else None
        known = [m for m in distances if m is not None]
        if own is not None and len(known) == len(distances) and min(known) < own:
            self.flag("kbi", "C5", named[:1], f"turn {r.index} calls {named[0].value!r} ({own} miles) the nearest "
                      f"{kind}; the KB has one at {min(known)} miles")

    def one_entity(self) -> None:
        """C5 on a description: the attributes ``r`` states of no named entity, one value per
        column ("the nearest grocery_store is located at 269_alger_dr"), fit one KB row together."""
        r = self.last
        assert r is not None
        if self.lex.domain != "navigate" or any(m.column == self.lex.entity_column for m in r.mentions):
            return
        stated = [m for m in r.mentions if m.column in ATTRIBUTE_COLUMNS["navigate"] and m.in_kb and not r.denied(m)]
        columns = [m.column for m in stated]
        if len(stated) < 2 or len(set(columns)) < len(columns) or "address" not in columns or r.question:
            return
        if not any(all(row.get(m.column) == m.value for m in stated) for row in self.lex.rows):
            said = ", ".join(f"{m.column}={m.value!r}" for m in stated)
            self.flag("kbi", "C5", stated, f"turn {r.index} describes one place by {said}; no KB row has them all")

    def bind(self, t: TurnReading, i: int) -> tuple[str | None, list[Mention], str | None]:
        """The entity the attribute ``t.mentions[i]`` is said of, the mention naming it (if ``t``
        names it) and the doubt of the binding: the entity ``t`` names nearest before it (else
        after it), else the history's latest entity in focus before ``t``."""
        column = self.lex.entity_column
        before = [e for e in t.mentions[:i] if e.column == column]
        after = [e for e in t.mentions[i + 1:] if e.column == column]
        named = before[-1:] or after[:1]
        if (not before and after and after[0].in_kb and opens_clause(t.words, after[0].start, after[0].end)
                and anaphoric(t.words, t.mentions[i].start)):  # "it s 4_miles away chevron is the closest"
            focus = self.focus(t.index)
            if focus:
                return focus[-1], [], None if len(focus) == 1 else "the entity is the history's latest of several"
            return after[0].value, [after[0]], "the pronoun before the attribute refers to no earlier entity: " \
                "the one named after it opens its own clause"
        if named and not named[0].in_kb:
            return None, [], None  # said of an entity the KB does not have (C5 on the entity itself)
        if named:  # "mandarin_roots 5_miles away and jing_jing 6_miles away": each after its entity
            doubt = "the turn names several entities: the attribute may be another's" \
                if not before and len({e.value for e in after}) > 1 else None
            return named[0].value, [named[0]], doubt
        focus = self.focus(t.index)
        if not focus:
            return None, [], None
        return focus[-1], [], None if len(focus) == 1 else "the entity is the history's latest of several"

    def attribute_history(self) -> None:
        """HI, C2 across turns: an attribute ``r`` gives an entity is the one an earlier system
        turn gave the same entity (both bound by :meth:`bind`)."""
        r = self.last
        assert r is not None
        columns = set(ATTRIBUTE_COLUMNS.get(self.lex.domain, ())) - {"poi_type"}
        for i, m in enumerate(r.mentions):
            if m.column not in columns or r.denied(m) or r.question:
                continue
            entity, anchor, doubt = self.bind(r, i)
            if entity is None:
                continue
            for t in self.history:
                if t.speaker != "system" or t.question:
                    continue
                for j, h in enumerate(t.mentions):
                    if h.column != m.column or value_words(h.value) == value_words(m.value) or t.denied(h):
                        continue
                    said_of, _, doubt_then = self.bind(t, j)
                    if said_of == entity:
                        if len(self.lex.rows_of(self.lex.entity_column, entity)) > 1:
                            doubt = f"the KB has several {entity}: the turns may be about different ones"
                        self.flag("hi", "C2", [h, *anchor, m], f"turn {r.index} says {m.column}={m.value!r} of "
                                  f"{entity!r}; turn {t.index} said {h.value!r}", doubt or doubt_then)
                        if self.user is not None and m.column not in self.user.requests:
                            alone = {x.column for x in r.mentions if x.column in columns} == {m.column}
                            self.flag("qi", "C2", [h, *anchor, m], f"turn {r.index} gives {entity!r}'s {m.column} "
                                      f"again, which turn {t.index} gave and the user's query does not ask for",
                                      None if alone and not (doubt or doubt_then) else
                                      "what the query asks is not said: a restated attribute may still answer it")
                        return

    def no_result(self) -> None:
        """C4: a denial in ``r`` of a kind or entity the KB has."""
        r = self.last
        assert r is not None
        if not r.negated or r.question:
            return
        for m in r.mentions:
            if m.column in ("poi_type", self.lex.entity_column) and m.in_kb and m.how != "own word" and r.denied(m):
                self.flag("kbi", "C4", [m], f"turn {r.index} denies {m.column}={m.value!r}; the KB has it")
                return

    def weather(self) -> None:
        """C5 on the weather row of the city and day said; C2 on the city and on the history's
        weather statements (:mod:`csp_check.score.citod_weather`)."""
        weather_kb(self)
        vague_temperatures(self)
        weather_history(self)
        temperature_history(self)
        day_switch(self)
        weather_follow_up(self)

    # -- HI -------------------------------------------------------------------------------------
    def history_entity(self) -> None:
        """C2 across turns: ``r`` is about the entity (city) the history settled; a switch is
        also an answer about another entity than the one the user's request is about (QI)."""
        r, u = self.last, self.user
        assert r is not None
        column = self.lex.entity_column
        named = [m for m in r.mentions if m.column == column]
        before_query = [t for t in self.history if u is None or t.index < u.index]
        earlier = self.named_entities(before_query)
        if column == "location":
            mentions = self.named_entities(self.history, "user")
            asked = [m.value for m in mentions if m.turn == mentions[-1].turn] if mentions else []
            if named and asked and all(m.value not in asked for m in named):  # "alameda and boston": each is asked
                self.flag("qi", "C2", [named[0]], f"turn {r.index} is about {named[0].value!r}; "
                          f"the user asked about {' / '.join(dict.fromkeys(asked))}")
                cities = [m.value for m in self.named_entities(before_query, "user")]
                if cities and cities[-1] in asked:
                    self.flag("hi", "C2", [named[0]], f"turn {r.index} is about {named[0].value!r}; turn "
                              f"{self.named_entities(before_query, 'user')[-1].turn} settled on {cities[-1]!r}")
            return
        if not earlier:  # no entity named before the query: the kinds the user asked for still hold
            if u is None or not any(m.column == column for m in u.mentions):  # "the address of my home"
                kind_history(self, before_query, set())
            return
        user_named = {m.value for m in u.mentions if m.column == column} if u else set()
        values = {m.value for m in earlier}
        denied = {m.value for t in before_query if t.speaker == "system" for m in t.mentions
                  if m.column == column and t.denied(m)}
        settled = values - denied
        latest = next(({m.value for m in t.mentions if m.column == column and not t.denied(m)}
                       for t in reversed(before_query) if any(m.column == column for m in t.mentions)), set())
        compared = u is not None and bool(set(u.words) & COMPARING)  # "which of the two is closest"
        new = [m for m in named if m.value not in (values if compared else latest or values)]
        offered_other = any(t.other for t in before_query[-1:] if t.speaker == "system")
        if (named and new and settled and not user_named & {m.value for m in named}
                and len(set(m.value for m in named)) == 1 and not (u and u.other) and not offered_other):
            for label in ("hi", "qi"):
                self.flag(label, "C2", new[:1], f"turn {r.index} is about {new[0].value!r}; the history settled on "
                          f"{', '.join(sorted(values))}")
        kind_history(self, before_query, latest or settled)
        affirmed = [m for m in named if m.value in denied and not r.denied(m) and not r.question]
        if affirmed:
            self.flag("hi", "C2", affirmed[:1], f"turn {r.index} offers {affirmed[0].value!r}, which an earlier "
                      "system turn said it does not have")
        offered = [m for t in self.history if t.speaker == "system" for m in t.mentions
                   if m.column == column and not t.denied(m)]
        if r.negated and not r.question and offered:
            kinds = {row.get("poi_type") for m in offered for row in self.lex.rows_of(column, m.value)}
            refused = [m for m in r.mentions if r.denied(m) and r.tokens[m.raw_start - 1:m.raw_start] != ["other"]
                       and ((m.column == "poi_type" and m.value in kinds)  # "no other grocery_store" denies the others
                       or (m.column == column and m.value in values))]
            if refused:
                for label in ("hi", "qi"):
                    self.flag(label, "C2", refused[:1], f"turn {r.index} denies {refused[0].value!r}; turn "
                              f"{offered[-1].turn} offered {offered[-1].value!r}")

    # -- QI -------------------------------------------------------------------------------------
    def answer(self) -> None:
        """C2 from request to answer: ``r`` answers the user's last turn."""
        r, u = self.last, self.user
        assert r is not None
        if u is None:
            return
        for t in self.history:
            if t.words and t.words == r.words and len(r.words) > 2:
                self.flag("qi", "C2", [], f"turn {r.index} repeats turn {t.index} word for word")
                return
        thanked = bool(set(u.words) & THANKS) or any(re.fullmatch(r".hanks?|.hank|thx", w) for w in u.words)
        if r.words[:3] in (["you", "are", "welcome"], ["you", "re", "welcome"]) and not thanked:
            self.flag("qi", "C2", [], f"turn {r.index} answers a thanks; the user's turn {u.index} thanks for nothing")
        column = self.lex.entity_column
        asked = {m.value for m in u.mentions if m.column == column}
        named = {m.value for m in r.mentions if m.column == column}
        focus = self.focus(u.index)
        if (u.other and u.question and focus and named == {focus[-1]} and not asked and not r.negated
                and not set(r.words) & ONLY_WORDS):
            ms = [m for m in r.mentions if m.column == column]
            self.flag("qi", "C2", ms[:1], f"turn {r.index} names {focus[-1]!r} again; the user asked for another one")
        if not named and asked:  # an address names its entity
            named = {row["poi"] for m in r.mentions if m.column == "address" and m.in_kb
                     for row in self.lex.rows_of("address", m.value) if row.get("poi")}
        if asked and named and not asked & named:
            ms = [m for m in r.mentions if m.column == column]
            self.flag("qi", "C2", ms[:1], f"turn {r.index} is about {', '.join(sorted(named))}; the user asked about "
                      f"{', '.join(sorted(asked))}")
        if self.lex.domain == "navigate":
            self.kind_answer()
            self.command_answer()
            self.route_answer()
        if self.lex.domain == "calendar":
            self.stated_values()
        self.asked_columns()

    def stated_values(self) -> None:
        """C2 from the user's words to the system's (calendar): a time, date, party, room or
        agenda the user stated once (not asked: no question) is the one the system's statement
        gives for that column. From the query: QI; from an earlier user turn the query does not
        change, unless it names an event no turn before it named (a new request): HI. Values compare
        by their words ("5pm" = ``5_pm``)."""
        r, u = self.last, self.user
        assert r is not None and u is not None
        if r.question:
            return
        columns = ("time", "date", "party", "room", "agenda")
        earlier = [t for t in self.history if t.speaker == "user" and t.index < u.index]
        asked = {m.value for m in u.mentions if m.column == "event"}
        if asked and not asked & {m.value for t in self.history[:u.index] for m in t.mentions if m.column == "event"}:
            earlier = []  # "when is my lab" after a meeting: a new request, the values said were the meeting's
        for label, turns in (("qi", [u]), ("hi", earlier)):
            for column in columns:
                if any(m.column == column for m in u.mentions) and label == "hi":
                    continue  # the query restates or changes it
                said = {value_words(m.value) for t in turns if not t.question for m in t.mentions if m.column == column}
                given = [m for m in r.mentions if m.column == column]
                if len(said) == 1 and given and not any(value_words(m.value) in said for m in given):
                    user = next(m for t in turns for m in t.mentions if m.column == column)
                    self.flag(label, "C2", [user, given[0]], f"turn {r.index} gives {column}={given[0].value!r}; "
                              f"the user said {user.value!r} in turn {user.turn}")
                    offered = any(value_words(m.value) in said for t in self.history[:u.index]
                                  if t.speaker == "system" for m in t.mentions if m.column == column)
                    if label == "qi" and offered:  # the query picked it among what the system offered
                        self.flag("hi", "C2", [user, given[0]], f"turn {r.index} gives {column}={given[0].value!r}; "
                                  f"the user picked {user.value!r}, which an earlier system turn offered")

    def command_answer(self) -> None:
        """QI: a navigation command ("set the gps", "let s go there", "direct me") is answered by
        doing it or refusing it; ``r`` that does neither (no word of the route, no denial) and
        says nothing the history did not say answers something else."""
        r, u = self.last, self.user
        assert r is not None and u is not None
        if not set(u.words) & COMMANDS or u.question or set(u.words) & ASKED_INFO or r.question or r.negated:
            return
        if any(w.startswith(ROUTE_STEMS) for w in r.words) or not r.mentions:
            return
        said = {m.value for t in self.history for m in t.mentions}
        if all(m.value in said for m in r.mentions):
            self.flag("qi", "C2", r.mentions[:1], f"turn {r.index} restates what the history said; the user's "
                      f"turn {u.index} asks to be taken there")

    def route_answer(self) -> None:
        """QI: a query asking for the route of the place in focus ("can you give me the quickest
        route", naming no place, kind or other column, comparing nothing) is answered by a word of
        the route or its traffic; ``r`` stating only other values answers something else."""
        r, u = self.last, self.user
        assert r is not None and u is not None
        if (set(u.words) & {"route", "directions"} and (u.question or set(u.words) & {"give", "can", "could", "find"})
                and not set(u.words) & (ASKED_INFO | {"which", "best"}) and not r.question and not r.negated
                and r.mentions and not any(m.column in ("poi", "poi_type") for m in u.mentions)
                and not any(w.startswith(ROUTE_STEMS) for i, w in enumerate(r.words)  # not "arrowhead_way"
                            if not any(m.start <= i < m.end for m in r.mentions))
                and not any(m.column == "traffic_info" for m in r.mentions)):
            self.flag("qi", "C2", r.mentions[:1], f"turn {r.index} says nothing of the route turn {u.index} asks for")

    def kind_answer(self) -> None:
        """QI: the kind of place ``r`` gives is the kind the user's last turn asked for."""
        r, u = self.last, self.user
        assert r is not None and u is not None
        kinds = {m.value for m in u.mentions if m.column == "poi_type" and not u.denied(m)}
        if not kinds and not u.other and not any(m.column == "poi" for m in u.mentions):  # asked before, in force
            kinds = {m.value for t in self.history if t.speaker == "user" for m in t.mentions
                     if m.column == "poi_type" and not t.denied(m)}
            kinds = kinds if len(kinds) == 1 else set()
        if not kinds:
            return
        for m in r.mentions:
            if m.column == "poi_type" and m.how != "kind word":
                given = {m.value}
            elif m.column == "poi" and m.in_kb:
                given = {row.get("poi_type", "") for row in self.lex.rows_of("poi", m.value)}
            else:
                continue
            if not given & kinds:
                self.flag("qi", "C2", [m], f"turn {r.index} gives {m.value!r} ({', '.join(sorted(given))}); "
                          f"the user asked for {', '.join(sorted(kinds))}")
                return

    def asked_columns(self) -> None:
        """QI: ``r`` states a value of a column the user's last turn asked for (its request words),
        when it states attributes at all."""
        r, u = self.last, self.user
        assert r is not None and u is not None
        offered = self.offered_columns(u)
        if not (u.question or set(u.words) & ASKING or offered):
            return  # "schedule a meeting in the conference room" states its room, asks for none
        asked = set(u.requests) | offered
        attributes = set(ATTRIBUTE_COLUMNS.get(self.lex.domain, ()))
        stated = {m.column for m in r.mentions if m.column in attributes}
        asked &= attributes
        if not asked or not stated or asked & stated or u.negated:
            return
        ms = [m for m in r.mentions if m.column in stated]
        self.flag("qi", "C2", ms[:1], f"turn {r.index} states {', '.join(sorted(stated))}; the user asked for "
                  f"{', '.join(sorted(asked))}")


    def offered_columns(self, u: TurnReading) -> set[str]:
        """The columns a system question offered ("do you want its address") that the user's turn
        ``u`` accepts and asks nothing else ("yes", "yes sounds great", "sure please"): what it
        asks for, unsaid."""
        before = self.turns[u.index - 1] if u.index else None
        if before is None or before.speaker != "system" or not u.words or not set(u.words) <= ACCEPTING:
            return set()  # "yes and pick a route with no_traffic" asks for something of its own
        w = before.words
        starts = [k for k in range(len(w) - 1) if (w[k], w[k + 1]) in OFFERS]
        if not starts:
            return set()
        return {c for x in w[starts[-1]:] for c in REQUEST_WORDS.get(x, ())}


def violations(dialogue: Dialogue) -> list[Violation]:
    """The violations of ``dialogue``'s last system response (module docstring), each with the
    label it makes in its ``reading``; ``[]`` for a dialogue without a system turn or domain."""
    return check(dialogue)[0]


def check(dialogue: Dialogue) -> tuple[list[Violation], dict[str, int]]:
    """:func:`violations` and the coverage of the families on the last system response: the
    values it states that C2 (against the history and the query) and C5 (against the KB: when the
    dialogue has KB rows) read, and C4 when it denies something of a dialogue with KB rows."""
    run = _Check(dialogue)
    found = run.run()
    r = run.last
    stated = len(r.mentions) if r is not None and run.lex.domain else 0
    coverage = {"C2": stated}
    if run.lex.rows:
        coverage["C5"] = stated
        if r is not None and r.negated:
            coverage["C4"] = 1
    return found, {k: v for k, v in coverage.items() if v}


__all__ = ["LABELS", "Labels", "check", "labels_of", "violations"]
