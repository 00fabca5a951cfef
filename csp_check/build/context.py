"""What a constraint family's builder reads: :class:`BuildContext` (a dialogue, its variables,
lexicon and assignment, its corpus profile, and the KB scopes of the domain constraints,
:class:`KbScope`). Which slots are bounds, which columns a search filters by and the other words
of a corpus are its profile's (:class:`~csp_check.corpora.CorpusProfile`, ``ctx.profile``).

The decisions these encode are in :mod:`csp_check.build.builder` (the builder, which runs each
registered family over this context). This module is below the families
(:mod:`csp_check.families`): it knows no family.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Literal, NamedTuple

from pydantic import BaseModel, Field

from csp_check.corpora import CorpusProfile, profile_for
from csp_check.delexicalize.assignment import Lexicon, kb_index
from csp_check.language.lexicon import HH_MM, LIST_SPLIT, LIST_WORDS, MINUTES, NON_WORDS, NOT_LISTED, POUNDS_KEY
from csp_check.language.normalize import clock_of_day, clock_time, fold, name_words, normalize, wording_key
from csp_check.language.scope_words import RESTATED_BOUND, REVISION_AFTER, REVISION_BEFORE
from csp_check.models import (
    ActRole,
    Constraint,
    ConstraintId,
    Dialogue,
    ImpliedValue,
    IndexedRows,
    KnowledgeBase,
    Turn,
    Value,
    Variable,
    VariableKind,
    rows_where,
)

#: The roles of a system act that claim something of the KB (an offer, an inform).
SYSTEM_CLAIMS = frozenset({ActRole.OFFER, ActRole.INFORM})
#: The id of the table of every entity of a domain the dialogue's own results show:
#: ``f"{DIALOGUE_TABLE}{domain}"`` (:func:`dialogue_table`).
DIALOGUE_TABLE = "dialogue:"


def dialogue_table(domain: str) -> str:
    """The id of the table of every entity of ``domain`` the dialogue's results show (C5)."""
    return f"{DIALOGUE_TABLE}{domain}"


def turn_table(turn: int, domain: str) -> str:
    """The id of the table of ``domain``'s results at ``turn`` (a call's answer)."""
    return f"turn{turn}:{domain}"


class BuildOptions(BaseModel):
    """What to build: the enabled constraint families and which variables filter a count."""

    enabled: frozenset[ConstraintId] = Field(default_factory=lambda: frozenset(ConstraintId))
    count_filter: Literal["state", "utterance"] = "state"


class KbScope(NamedTuple):
    """Where domain constraints are built: a system turn and one of its domains, with the KB
    table in force (``kb_id``; ``params``: the call that produced it, ``None`` for a ``--kb``
    table or a belief-state search, :attr:`state_search`), its ``columns``, the turn's variables
    of the domain (``mine``), the search filters in force (``filters``, see
    :mod:`csp_check.build.builder`, C6) and every entity of the domain the dialogue's results
    show (``seen``, ``None`` without results)."""

    turn: Turn
    domain: str
    kb_id: str
    columns: set[str]
    params: dict[str, str] | None
    mine: list[Variable]
    filters: list[Variable]
    seen: list[dict[str, str]] | None

    @property
    def state_search(self) -> bool:
        """Whether the search in force is the belief state's over a whole table (a ``--kb``
        table, or results that came without their call: ``params`` is ``None``; MultiWOZ),
        rather than a service call whose own results are the table (SGD: its parameters are the
        search, exactly). A count or a no-result under a state search is read as MultiWOZ's
        wizards wrote them: with the utterance's own words, the parts it sets apart and the other
        readings of the state (:mod:`csp_check.families.c6_scope`, C4)."""
        return self.params is None


class BuildContext:
    """What a family's :meth:`~csp_check.families.registry.Family.build` reads: the dialogue,
    its variables (with canonical values), its lexicon and assignment, its corpus ``profile``
    (:func:`~csp_check.corpora.profile_for`, unless given), ``by_turn`` (turn → variables) and
    the KB scopes of the domain constraints (:mod:`csp_check.build.builder`)."""

    def __init__(
        self, dialogue: Dialogue, variables: list[Variable], kb: KnowledgeBase | None, options: BuildOptions,
        lexicon: Lexicon, results: list[NormalizedResult], assignment: dict[str, Value] | None = None,
        profile: CorpusProfile | None = None,
    ):
        self.dialogue = dialogue
        self.profile = profile or profile_for(dialogue)
        self.assignment = assignment or {}
        self.lexicon = lexicon
        self.results = results
        self.ignored = ignored_parameters(results)
        self.variables = variables
        self.kb = kb
        self.options = options
        self.constraints: list[Constraint] = []
        self.implied: list[ImpliedValue] = []  # indirect user requests a family's reading found (S1)
        self._vocabs: dict[tuple[str, str], AbstractSet[str]] = {}
        self.unlinked: set[tuple[int, str]] = set()  # (turn, domain): a state filter no variable mentions
        #: (turn, domain) → slot → the canonical value of each such filter (C6 reads it as an implicit filter)
        self.unlinked_values: dict[tuple[int, str], dict[str, str]] = defaultdict(dict)
        self.kbs: dict[str, list[dict[str, str]]] = {}
        #: The ids of :attr:`kbs` holding results the dialogue shows (a call's, :func:`turn_table`;
        #: every entity of a domain, :func:`dialogue_table`), not a ``--kb`` table; and the
        #: :func:`dialogue_table` ones. Recorded by :meth:`kb_scopes` as it registers them.
        self.results_tables: set[str] = set()
        self.dialogue_tables: set[str] = set()
        self._call_slots: dict[int, set[str]] | None = None
        self.by_turn: dict[int, list[Variable]] = defaultdict(list)
        for v in variables:
            self.by_turn[v.turn].append(v)
        self._state_index: dict[str, list[int]] = {}  # domain → last turn with a state, per turn
        self._mentions: dict[tuple, tuple[list[int], list[Variable]]] | None = None

    def add(self, constraint: Constraint) -> None:
        """Keep ``constraint`` when its family is enabled (:class:`BuildOptions`)."""
        if constraint.id in self.options.enabled:
            self.constraints.append(constraint)

    # -- domain constraints ---------------------------------------------------------------
    def kb_scopes(self) -> Iterator[KbScope]:
        """The KB walk (:mod:`csp_check.build.builder`, "KB scope"): for each system turn and domain,
        its :class:`KbScope`, in turn order. Records each scope's table in :attr:`kbs` as it goes
        (and :attr:`unlinked`), so the CSP holds every table a constraint reads."""
        latest: dict[str, tuple[str, list[dict[str, str]], dict[str, str] | None]] = {}
        seen = self._dialogue_entities()
        by_turn: dict[int, list[NormalizedResult]] = defaultdict(list)
        for r in self.results:
            by_turn[r.turn].append(r)
        for turn in self.dialogue.turns:
            for r in by_turn.get(turn.index, []):
                latest[r.domain] = (turn_table(turn.index, r.domain), r.entities, r.parameters)
            if turn.speaker != "system":
                continue
            turn_vars = self.by_turn.get(turn.index, [])
            for domain in sorted({v.domain for v in turn_vars} | _no_result_domains(turn)):
                scope = latest.get(domain) or self._global_table(domain)
                if scope is None:
                    continue
                kb_id, entities, params = scope
                self.kbs.setdefault(kb_id, entities)
                if domain in latest:
                    self.results_tables.add(kb_id)
                columns = (set(entities.column_names()) if isinstance(entities, IndexedRows)  # a --kb table: once per run
                           else set().union(*entities) if entities else set())
                mine = [v for v in turn_vars if v.domain == domain]
                filters = self._filters(turn.index, domain, columns, mine, params)
                if domain in seen:  # C5 looks at every entity of d the dialogue's results show
                    self.kbs.setdefault(dialogue_table(domain), seen[domain])
                    self.results_tables.add(dialogue_table(domain))
                    self.dialogue_tables.add(dialogue_table(domain))
                yield KbScope(turn, domain, kb_id, columns, params, mine, filters, seen.get(domain))

    def _dialogue_entities(self) -> dict[str, list[dict[str, str]]]:
        """Domain → every distinct entity the dialogue's KB results show (the dialogue's KB)."""
        entities: dict[str, dict[tuple, dict[str, str]]] = defaultdict(dict)
        for r in self.results:
            for e in r.entities:
                entities[r.domain].setdefault(tuple(sorted(e.items())), e)
        return {d: list(es.values()) for d, es in entities.items()}

    def _global_table(self, domain: str) -> tuple[str, list[dict[str, str]], None] | None:
        table = self.kb.tables.get(domain) if self.kb else None
        if table is None:
            return None
        if domain not in self.kbs:
            self.kbs[domain] = table.normalized()
        return domain, self.kbs[domain], None

    def description(self, v: Variable) -> bool:
        """A ``--kb`` closed column's annotated value the KB never uses and no known value names
        ("softplace area with an aquatic theme" as an attraction type): a description, which
        corefers with no value (no C2)."""
        if self.kb is None or v.domain not in self.kb.tables or not isinstance(v.value, str) or v.value == "dontcare":
            return False
        vocab = self.vocab(v.domain, v.slot)
        return bool(vocab) and v.value not in vocab and v.slot in self.profile.search_columns

    def kb_claim(self, kb_id: str, v: Variable) -> bool:
        """Whether ``v``'s annotated value can be compared with the ``--kb`` table ``kb_id``
        (always, for a dialogue's own KB results). A value of a ``--kb`` table is compared when
        the column has it, or when the column is open (names, addresses, phones: a value no
        entity has is a claim the KB refutes). Left out, as wordings the KB does not use: a
        value of a closed column the table never has (attraction type "church", price range
        "cheaper"), a part of a name or address several entities share ("east road"), a list
        ("efes restaurant or anatolia"), a clock column whose value is no time ("every hour"), and a
        value that says the information is missing ("I do not have open times listed", :data:`_NOT_LISTED`).
        Closed columns are the profile's search columns; the others (phone, postcode, price…) are open.
        An address, phone or postcode is judged by the words the text says (the assignment)."""
        if self.kb is None or kb_id not in self.kb.tables or not isinstance(v.value, str) or v.value == "dontcare":
            return True
        p = self.profile
        if p.is_generic(v.domain, v.slot, v.value):
            return False  # "the Avalon is a moderately priced hotel": the word for any place to stay
        if v.slot in p.identifying_columns and self.whole_place(kb_id, v):
            return False  # "Addenbrookes Hospital, Telephone 01223245151": the table lists its departments only
        vocab = self.vocab(kb_id, v.slot)
        value = v.value
        if v.slot in p.identifying_columns and isinstance(said := self.assignment.get(v.name), str) and said:
            value = said  # the words said, not the act's: "located on 12 st. johns street" over Cote's own address
        if v.slot == p.address_column and re.fullmatch(p.postcode_pattern, value):
            return False  # a postcode annotated as a part of the address ("Back Lane, Cambourne, CB236BW")
        if v.slot in p.entity_text_columns and any(name_words(value) < w for w, _ in kb_index(self.kb.tables[kb_id], v.slot)[1]):
            return False  # maybe a part of another entity's name or address ("clifton way")
        if value in vocab:
            return True
        if NOT_LISTED.search(value):
            return False  # "I do not have open times listed", "no currently listed": says no value
        if (v.speaker == "system" and v.role in SYSTEM_CLAIMS and v.slot in p.search_columns and value.isdigit() and vocab
                and all(x.isdigit() for x in vocab)):  # a number the system states of a numeric column ("5" stars
            return True  # where the DB's hotels have 0-4): refuted, no wording (a user's is a wish, not a claim)
        if (p.names_entity(v.slot) or v.slot in p.identifying_columns) and any(
            other != kb_id and value in self.vocab(other, v.slot) for other in self.kb.tables
        ):
            return False  # the exact name (address, phone) of another domain's entity: the act's domain
            # label is wrong, not the text ("Pizza Express Fen Ditton" under Hotel-Inform; docs/multiwoz-flags.md)
        if v.slot in p.priced_columns:  # a fee or fare that is no amount ("pounds", "not listed")
            key = wording_key(v.slot, value)
            if key != "free" and not POUNDS_KEY.fullmatch(key):
                return False
        if v.slot in p.bounds or v.slot == p.duration_column:
            # a time, also a next-day arrival ("25:06"); a duration in minutes
            return clock_time(clock_of_day(value)) is not None or v.slot == p.duration_column and bool(MINUTES.match(value))
        if LIST_WORDS.search(value) and all(
            self.lexicon.resolve(v.slot_type, part) for part in LIST_SPLIT.split(value) if part
        ):
            return False
        if v.slot in p.entity_text_columns:
            mine = name_words(value)
            if v.slot == p.address_column and any(
                    mine and mine <= w for w, _ in kb_index(self.kb.tables[kb_id], p.name_column)[1]):
                return False  # an entity's name annotated as its address ("The Cherry Hinton Village"
                # for the Cherry Hinton Village Centre): the text names the entity, the slot is wrong
            return not any(mine < w for w, _ in kb_index(self.kb.tables[kb_id], v.slot)[1])
        return v.slot not in p.search_columns  # an open column (phone, postcode, …): a value no entity has is refuted

    def whole_place(self, kb_id: str, v: Variable) -> bool:
        """Whether ``v`` (a phone, address or postcode) is said of the place a table's entities
        are parts of: the table names its entities by ``department`` (MultiWOZ's hospital) and
        neither the turn nor the belief state names one, so the detail is the place's own,
        which the table does not list (no claim)."""
        part = self.profile.part_column
        if not self.vocab(kb_id, part) or self.vocab(kb_id, self.profile.name_column):
            return False  # (the column vocabularies are computed once per table)
        if any(w.slot == part and w.turn == v.turn for w in self.variables):
            return False
        return not self.dialogue.turns[v.turn].state.get(v.domain, {}).get(part)

    def call_slots(self) -> dict[int, set[str]]:
        """Turn → the argument names of the service calls made at that turn (computed once per
        dialogue: linear in its turns)."""
        if self._call_slots is None:
            self._call_slots = defaultdict(set)
            for r in self.results:
                self._call_slots[r.turn].update(r.parameters or {})
        return self._call_slots

    def vocab(self, kb_id: str, column: str) -> AbstractSet[str]:
        """The values KB table ``kb_id`` has in ``column`` (normalised; computed once)."""
        key = (kb_id, column)
        if key not in self._vocabs:
            rows = self.kbs.get(kb_id) or (self.kb.tables[kb_id].normalized() if self.kb and kb_id in self.kb.tables else [])
            # a --kb table's column values are indexed once per run, a result table's once per dialogue
            self._vocabs[key] = rows.column_values(column) if isinstance(rows, IndexedRows) else {e[column] for e in rows if column in e}
        return self._vocabs[key]

    def under_discussion(self, turn: int, domain: str, columns: set[str], kb_id: str | None = None) -> Variable | None:
        """The entity a turn that names none talks about (spec §9, "which entity"): the one the
        belief state holds by name (selected or booked), else the one the system offered last
        (the only name or train id of its turn), unless the user has moved away from it since
        (:meth:`moved_away`, with ``kb_id``'s table); as the variable that last mentions it."""
        for slot in sorted(c for c in columns if self.profile.names_entity(c)):
            turns = self.dialogue.turns
            held = next((vals for k in range(min(turn, len(turns) - 1), -1, -1)
                         if (vals := turns[k].state.get(domain, {}).get(slot))), None)  # fmt: skip
            if held and len(held) == 1:  # the latest state holding a name: stop there, not scan them all
                var = self._latest_mention(turn - 1, domain, slot, self.lexicon.canon(f"{domain}.{slot}", held[0]))
                if var is not None:
                    return var
            for t in range(turn - 1, -1, -1):
                named = [v for v in self.by_turn.get(t, []) if v.domain == domain and v.slot == slot
                         and v.kind is VariableKind.SLOT and v.speaker == "system"]  # fmt: skip
                if named:
                    if len({v.value for v in named}) > 1 or (kb_id is not None and self.moved_away(turn, named[0], kb_id)):
                        return None
                    return named[0]
        return None

    def moved_away(self, turn: int, offered: Variable, kb_id: str) -> bool:
        """Whether the user has moved away from the entity ``offered`` names (a system offer at an
        earlier turn) by ``turn``: a search filter the belief state recorded after the offer
        (new or changed: "anything that leaves a bit later?" → leave after 11:00) rules out
        every entity of table ``kb_id`` with that name, so the turn talks about another entity
        of the new search (MUL1415: TR9536 leaves at 05:00; the price given after the user moved
        to 11:00 is the later train's)."""
        entities = rows_where(self.kbs.get(kb_id) or [], offered.slot, offered.value)
        if not entities:
            return False
        before, now = self.state(offered.turn, offered.domain), self.state(turn, offered.domain)
        changed = {slot: value for slot, value in now.items() if before.get(slot) != value and value != "dontcare"}
        for slot, value in changed.items():
            canon = self.lexicon.canon(f"{offered.domain}.{slot}", value)
            if self.profile.is_generic(offered.domain, slot, canon) or (slot in self.profile.bounds and not HH_MM.fullmatch(canon)):
                continue
            op = self.profile.search_op(slot)
            if all(slot in e and not _holds(e[slot], op, canon) for e in entities):
                return True
        return False

    def state_names(self, turn: int, domain: str) -> bool:
        """Whether the last belief state of ``domain`` at or before ``turn`` names an entity."""
        for t in reversed(self.dialogue.turns[: turn + 1]):
            slots = t.state.get(domain)
            if slots:
                return any(column in slots for column in self.profile.entity_columns)
        return False

    def restated_bound(self, turn: int, v: Variable) -> bool:
        """A system time that repeats the user's bound ("14 trains leaving after 10:00") or offers
        bounds to choose from (a ``Select`` naming no train): a bound, not an entity's time. The time compared with
        the state's is the one the text says (spec §9): "TR8373 leaves at 22:39" where the act and
        the state say 21:39 repeats no bound, it states the train's time."""
        if v.slot not in self.profile.bounds or v.speaker != "system":
            return False
        held = self.dialogue.turns[turn].state.get(v.domain, {}).get(v.slot) or []
        before = self.dialogue.turns[turn].utterance[: v.span.start] if v.span else ""
        said = self.assignment.get(v.name, v.value)
        choices = self.select(turn, v.domain) and not any(  # "TR8373 leaves at 21:39. Will that work?"
            self.profile.names_entity(u.slot) and u.domain == v.domain for u in self.by_turn.get(turn, []))  # (a Select): its time
        return any(self.lexicon.canon(v.slot_type, h) == said for h in held) or choices or bool(RESTATED_BOUND.search(before))

    def select(self, turn: int, domain: str) -> bool:
        """Whether ``turn`` asks to choose among values of ``domain`` (a MultiWOZ ``Select`` act)."""
        return any(a.act.lower().endswith("-select") and a.domain == domain for a in self.dialogue.turns[turn].acts)

    def alternatives(self, turn: int, mine: list[Variable]) -> bool:
        """Whether ``turn`` reports no result or a failed booking in a domain of ``mine``: what it
        offers then is something else than what was asked for."""
        domains = {v.domain for v in mine}
        return any(
            a.role in (ActRole.NO_RESULT, ActRole.FAILED) and a.domain in domains for a in self.dialogue.turns[turn].acts
        )

    def booked(self, turn: int, mine: list[Variable]) -> bool:
        """Whether ``turn`` confirms a booking in a domain of ``mine``."""
        domains = {v.domain for v in mine}
        return any(a.role is ActRole.BOOKED and a.domain in domains for a in self.dialogue.turns[turn].acts)

    def _filters(
        self, turn: int, domain: str, columns: set[str], mine: list[Variable], params: dict[str, str] | None
    ) -> list[Variable]:
        """The variables that filter the KB at ``turn`` (see :mod:`csp_check.build.builder`, C6):
        the call's ``params``, else (a state search, :attr:`KbScope.state_search`) the belief
        state's filters less the generic kind and the bounds no KB time can be compared with."""
        if self.options.count_filter == "utterance":
            return [v for v in mine if v.kind is VariableKind.SLOT and v.slot in columns and v.role is not ActRole.NO_RESULT]
        state_search = params is None
        wanted = self.state(turn, domain) if state_search else params
        wanted = {k: v for k, v in wanted.items() if k not in self.ignored.get(domain, ())}
        filters = []
        for slot, value in wanted.items():
            if slot not in columns:
                continue
            if state_search and self.profile.is_generic(domain, slot, self.lexicon.canon(f"{domain}.{slot}", value)):
                continue
            if (state_search and slot in self.profile.bounds and clock_time(normalize(value)) is None
                    and not HH_MM.fullmatch(value)):
                continue  # "after lunch": no bound a KB time can be compared with
            canon = self.lexicon.canon(f"{domain}.{slot}", value)
            var = self._latest_mention(turn, domain, slot, canon)
            if var is not None:
                filters.append(var)
            elif state_search and value != "dontcare":
                self.unlinked.add((turn, domain))
                self.unlinked_values[(turn, domain)][slot] = canon
        return filters

    def unsaid_relaxations(self, turn: int, domain: str, columns: set[str]) -> list[Variable]:
        """The values a ``dontcare`` of the belief state at ``turn`` replaced without the user's
        words saying so: for each search column of ``domain`` whose state is ``dontcare`` where no
        variable of the dialogue words ``dontcare`` for it ("any price", "doesn't matter") at or
        before ``turn``, the latest variable naming the value the state held before it
        (MUL2699: "a moderately priced 4-star guesthouse … any type will do as long as it includes
        free parking" — the state sets price and stars to ``dontcare``; the user restates them a
        turn later). Either reading is possible, so a claim that holds under the tighter one
        (a no-result, C4) gets the benefit of the doubt, as with unknown cells. ``[]``: none."""
        now = self._state_slots(turn, domain)
        out: list[Variable] = []
        for slot, vals in now.items():
            if (slot not in columns or vals != ["dontcare"] or slot in self.profile.entity_columns
                    or self._latest_mention(turn, domain, slot, "dontcare") is not None):
                continue
            for t in range(min(turn, len(self.dialogue.turns) - 1), -1, -1):
                held = self.dialogue.turns[t].state.get(domain, {}).get(slot)
                if held and held != ["dontcare"]:
                    if len(held) == 1:
                        canon = self.lexicon.canon(f"{domain}.{slot}", held[0])
                        var = self._latest_mention(turn, domain, slot, canon)
                        if var is not None and not self.profile.is_generic(domain, slot, canon):
                            out.append(var)
                    break
        return out

    def _bounded(self, turn: int, domain: str) -> bool:
        slots = self._state_slots(turn, domain)
        return any(s in self.profile.bounds and vals and vals[0] != "dontcare" for s, vals in slots.items())

    def state(self, turn: int, domain: str) -> dict[str, str]:
        """The belief state's search filters for ``domain`` in force at ``turn``."""
        slots = self._state_slots(turn, domain)
        return {s: vals[0] for s, vals in slots.items() if len(vals) == 1 and s not in self.profile.entity_columns}

    def _state_slots(self, turn: int, domain: str) -> dict[str, list[str]]:
        """The last non-empty ``state[domain]`` at or before ``turn`` (``{}``: none). Indexed once
        per domain, so a dialogue's cost stays linear in its turns (benchmarks/long_dialogues.py)."""
        index = self._state_index
        if domain not in index:
            last: list[int] = []
            current = -1
            for t in self.dialogue.turns:
                if t.state.get(domain):
                    current = t.index
                last.append(current)
            index[domain] = last
        last = index[domain]
        at = last[min(turn, len(last) - 1)] if last and turn >= 0 else -1
        return self.dialogue.turns[at].state[domain] if at >= 0 else {}

    def _latest_mention(self, turn: int, domain: str, slot: str, value: str) -> Variable | None:
        """The last slot variable of ``domain.slot`` with ``value`` — annotated, or read from its text
        — at or before ``turn`` (an index by (domain, slot, value) built once: linear in the
        variables; benchmarks/long_dialogues.py)."""
        mentions = self._mentions
        if mentions is None:
            mentions = {}
            for v in self.variables:
                if v.kind is VariableKind.SLOT:
                    said = self.assignment.get(v.name, v.value)  # "on the cheaper side": its text reads cheap
                    for key in dict.fromkeys([v.value] + ([said] if isinstance(said, str) else [])):
                        turns, found = mentions.setdefault((v.domain, v.slot, key), ([], []))
                        turns.append(v.turn)
                        found.append(v)
            self._mentions = mentions
        entry = mentions.get((domain, slot, value))
        if entry is None:
            return None
        k = bisect_right(entry[0], turn)
        return entry[1][k - 1] if k else None


def _holds(have: str, op: str, value: str) -> bool:
    """A KB cell against a filter, as :func:`csp_check.families.primitives.holds` (``HH:MM``
    strings compare as times)."""
    return have == value if op == "=" else have >= value if op == ">=" else have <= value


def _words(text: str | None) -> str:
    return NON_WORDS.sub(" ", fold(text or "")).strip()


def one_per_wording(same_type: list[Variable]) -> list[Variable]:
    """C3's members: spans annotated with one value but worded differently ("8 mercers row" and
    "mercers row industrial estate", parts of one address; "guesthouses" and "bed and
    breakfast") are one mention, so only the first stays; the same words written twice stay
    twice (that is the duplicate C3 exists to catch)."""
    kept: list[Variable] = []
    for v in same_type:
        if any(k.value == v.value and _words(k.text) != _words(v.text) for k in kept):
            continue
        kept.append(v)
    return kept


def referents(dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon) -> dict[str, tuple[Value, bool]]:
    """Variable name → (the value it refers to, whether the belief state says so); C2 groups
    variables by it.

    A user ``inform`` refers to the value the belief state records for its slot after that
    turn; a system ``confirm``, or an ``offer`` in a turn that reports no failure, to the value
    of the state in force (the last user turn's): an offer must fit what the user asked for.
    Any other variable, or one whose state is absent, ambiguous or ``dontcare``, refers to its
    own annotated value; so does an offer next to a failure ("could not book 6:15; 6 pm?"). A
    system ``booked`` party size or length of stay (a number) in a turn that reports no failure
    refers to the state in force too: the booking made is the one the user asked for. So a mention whose act annotation was changed along with its text still
    corefers with what the rest of the dialogue's annotations say it should. Which slots are
    bounds and booked numbers is the dialogue's profile's (:func:`~csp_check.corpora.profile_for`).
    """
    profile = profile_for(dialogue)
    in_force: dict[str, dict[str, list[str]]] = {}
    after: dict[int, dict[str, dict[str, list[str]]]] = {}
    for turn in dialogue.turns:
        if turn.speaker == "user":
            for domain, slots in turn.state.items():
                in_force[domain] = slots
        after[turn.index] = dict(in_force)
    alternatives_offered = {  # a system turn that reports a failure, or asks to choose, offers other values
        t.index for t in dialogue.turns
        if any(a.role in (ActRole.FAILED, ActRole.NO_RESULT) or a.act.lower().endswith("-select") for a in t.acts)
    }
    keys: dict[str, tuple[Value, bool]] = {}
    for v in variables:
        keys[v.name] = (v.value, False)
        if v.kind is not VariableKind.SLOT:
            continue
        if v.speaker == "user" and v.role is ActRole.INFORM:
            state = after.get(v.turn, {})
            if revised(dialogue, v, state, after.get(v.turn - 1, {}), lexicon):
                continue  # "how about a hotel instead?" while the state still says guesthouse: a new value
        elif v.speaker == "system" and v.slot not in profile.bounds and (
            v.role is ActRole.CONFIRM or (v.role is ActRole.OFFER and v.turn not in alternatives_offered)
        ):  # a time offered under a bound satisfies it (C5 checks that), it does not repeat it
            state = after.get(v.turn - 1, {})
        elif (v.speaker == "system" and v.role is ActRole.BOOKED and v.slot in profile.booked_numbers
              and isinstance(v.value, str) and v.value.isdigit() and v.turn not in alternatives_offered):
            state = after.get(v.turn - 1, {})  # a booking made is the one asked for: "booked for 4" after
            # "for 3 people" (no failure in the turn)
        else:
            continue
        alternatives = state.get(v.domain, {}).get(v.slot)
        if not alternatives:
            continue
        meant = state_meaning(lexicon, v.slot_type, alternatives)
        if len(meant) > 1 and v.speaker == "system":  # alternatives that name different values (two
            said = [u for u in variables if u.speaker == "user" and u.turn < v.turn and u.slot_type == v.slot_type
                    and u.value in meant]  # entities merged into one state value): what the user said
            meant = {said[-1].value} if said else meant
        if len(meant) == 1 and "dontcare" not in meant:
            keys[v.name] = (meant.pop(), True)
    return keys


def state_meaning(lexicon: Lexicon, slot_type: str, alternatives: list[str]) -> set[str]:
    """The canonical values a belief state's ``alternatives`` for one slot name."""
    return set().union(*(lexicon.lookup(slot_type, a) or {lexicon.canon(slot_type, a)} for a in alternatives))


def revised(dialogue: Dialogue, v: Variable, state: dict[str, dict[str, list[str]]],
            before: dict[str, dict[str, list[str]]], lexicon: Lexicon) -> bool:
    """Whether user mention ``v`` asks for a value other than the one the belief state after its
    turn records (``state``), in words that ask for a change ("how about checking for a hotel
    instead", "are there hotels that meet that criteria?" after guesthouses), while the state
    keeps the value it held before the turn (``before``): a revision the state failed to record
    (an annotation error S1 reports), not a reference to the state's value, so it is no C2
    mention of that value. A state that changes at the turn to another value than the words say
    recorded a change, just not this one: the mention still refers to it. Spec §9: the text is
    the truth."""
    held = state.get(v.domain, {}).get(v.slot)
    if (not held or v.span is None or not isinstance(v.value, str) or v.value == "dontcare"
            or before.get(v.domain, {}).get(v.slot) != held):
        return False
    meant = state_meaning(lexicon, v.slot_type, held)
    if v.value in meant or "dontcare" in meant:
        return False
    text = dialogue.turns[v.turn].utterance
    return bool(REVISION_BEFORE.search(text[: v.span.start]) or REVISION_AFTER.search(text[v.span.end :]))


class NormalizedResult(NamedTuple):
    """A turn's :class:`KbResult` with its entities' values normalised (once per dialogue)."""

    turn: int
    domain: str
    parameters: dict[str, str] | None
    entities: list[dict[str, str]]


def ignored_parameters(results: list[NormalizedResult]) -> dict[str, set[str]]:
    """Domain → call parameters its back end ignores: a parameter that some call's own results
    contradict was not used as a filter (SGD RentalCars ignores ``pickup_time``), so it filters
    no count or offer of that domain anywhere in the dialogue."""
    ignored: dict[str, set[str]] = defaultdict(set)
    for r in results:
        for slot, value in (r.parameters or {}).items():
            key = normalize(value)
            if any(slot in e and e[slot] != key for e in r.entities):
                ignored[r.domain].add(slot)
    return ignored


def _no_result_domains(turn: Turn) -> set[str]:
    return {a.domain for a in turn.acts if a.role is ActRole.NO_RESULT}
