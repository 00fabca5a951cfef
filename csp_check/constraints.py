"""Constraint builder: a delexicalized dialogue + KB → its CSP with C1–C6 (paper §3.2, spec §2, §6)
and S1 (annotation against text: :mod:`csp_check.annotation`).

Decisions (also in the README, "Semantics"):

- **C1 (type)**: every variable. V(type) is the slot's closed value set when the ontology has
  one (SGD categorical slots), else every canonical value the dialogue's annotations and its
  KB give that slot type. Amounts: a non-negative integer.
- **C2 (coreference)**: slot variables of one slot type that refer to the same value, across
  the dialogue (a group of ≥ 2). What a variable refers to comes from the annotations: the
  belief state for user informs and system confirms, the act's canonical value otherwise
  (:func:`referents`).
- **C3 (distinctness)**: explicit slot variables of one slot type in one utterance take pairwise
  different values (the paper's rule as written; no gold SGD utterance names one value twice).
- **KB scope** of a domain constraint at turn t for domain d: for C4 and C6, the entities of
  the latest ``KbResult`` of d at or before t (SGD ``service_results``: the answer to the call
  the count is about); for C5, every entity of d that the dialogue's results show — the
  dialogue's KB, as in the paper (after a ``REQUEST_ALTS`` SGD systems offer the next entity of
  an earlier result list, and some results are annotated a turn late). Without any
  ``KbResult`` of d: the ``--kb`` table of d; without either, no domain constraint.
- **C4 (none)**: a system ``no_result`` act: no entity matches its values (or, if it has none,
  the search filters below).
- **C5 (at least one)**: the values of a system utterance's ``offer`` / ``inform`` acts of d
  that are KB columns, together with the search filters in force (below, C6) for the other
  columns, describe an entity that exists: an offer must fit what the user asked for. When
  one slot has several values (several entities listed), each listed value is checked with the
  user's request alone. Values stated in a turn that confirms a booking describe the booking
  (a total fee, a reference), not a KB entity: no C5. A slot offered with several values in one
  utterance ("Dogman, Hackers or High Life") gives one C5 per value.
- **C6 (exactly n)**: a system amount ``count`` of d equals the number of entities matching the
  filter variables. ``count_filter="state"`` (default): the search constraints in force — the
  ``KbResult`` call's parameters (SGD) or the belief state of d (other corpora, less the
  :data:`NOT_FILTERS` slots), less the parameters the back end ignores
  (:func:`ignored_parameters`) — each linked to the latest variable that mentions that value.
  A count made under bounds (a belief state with leaveAt / arriveBy) gets no C6: equality
  filters cannot express "leave after 12:45". ``count_filter="utterance"`` (the paper's
  reading): the other slot variables of the same utterance and domain.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from typing import Literal, NamedTuple

from pydantic import BaseModel

from csp_check.annotation import annotation_constraints
from csp_check.assignment import Lexicon, read_assignment
from csp_check.models import (
    ALL_CONSTRAINTS,
    CSP,
    ActRole,
    Constraint,
    ConstraintId,
    DelexicalizedDialogue,
    Dialogue,
    KnowledgeBase,
    Turn,
    Value,
    Variable,
    VariableKind,
)
from csp_check.assignment import ENTITY_TEXT_SLOTS, kb_index
from csp_check.check import count_matches
from csp_check.cues import time_bound_op
from csp_check.normalize import (
    clock_time, fold, name_words, normalize, normalized_entities, refers, same_clock, wording_key,
)
from csp_check.roles import with_text_roles

SYSTEM_CLAIMS = frozenset({ActRole.OFFER, ActRole.INFORM})
#: Belief-state slots that are no equality filter of a search: a name picks one entity, and
#: MultiWOZ's leaveAt / arriveBy are bounds ("leave after 12:45"), not values to match.
BOUNDS = frozenset({"leaveAt", "arriveBy"})
NOT_FILTERS = frozenset({"name", "trainID"}) | BOUNDS
#: Per MultiWOZ domain, the columns its searches use: a count's own words may name them even when
#: the belief state does not yet ("three options: British").
DOMAIN_SEARCH = {"attraction": {"area", "type"}, "restaurant": {"area", "food", "pricerange"},
                 "hotel": {"area", "type", "pricerange", "stars", "internet", "parking"},
                 "train": {"day", "departure", "destination"}}
#: Columns that describe one entity rather than a search: given alone, they are about the entity
#: under discussion ("its postcode is cb58sx").
DETAIL_COLUMNS = frozenset({"address", "phone", "postcode", "entrance fee", "openhours", "price", "duration"})
#: The columns a MultiWOZ search filters by (what a count or a no-result can be about).
SEARCH_COLUMNS = frozenset({"area", "type", "food", "pricerange", "stars", "internet", "parking", "day", "departure",
                            "destination"})


class BuildOptions(BaseModel):
    """What to build: the enabled constraint families and which variables filter a count."""

    enabled: frozenset[ConstraintId] = frozenset(ALL_CONSTRAINTS)
    count_filter: Literal["state", "utterance"] = "state"


def build_csp(
    dialogue: Dialogue, delex: DelexicalizedDialogue, kb: KnowledgeBase | None, options: BuildOptions | None = None
) -> CSP:
    """The CSP of ``dialogue``: variables, V(type) domains, KB tables, constraints, assignment.

    ``delex`` must come from :func:`csp_check.delexicalize.delexicalize` of the same dialogue.
    ``kb`` supplies tables (by domain) for turns without their own KB results.
    """
    options = options or BuildOptions()
    variables = with_text_roles(dialogue, delex.variables)  # "from A to B": the text gives the slot
    lexicon = Lexicon.of(dialogue).attach(kb)
    canonical_values(dialogue, variables, lexicon)
    assignment = read_assignment(variables, lexicon)
    results = normalized_results(dialogue)
    builder = _Builder(dialogue, variables, kb, options, lexicon, results)
    builder.build()
    for constraint in annotation_constraints(dialogue, variables, lexicon, assignment):  # S1
        builder.add(constraint)
    domains = _domains(dialogue, variables, kb, results)
    amounts = [v for v in assignment.values() if isinstance(v, int)] + [
        v.value for v in variables if v.kind is VariableKind.AMOUNT and isinstance(v.value, int)
    ]
    max_amount = max([1, *amounts, *(len(t) for t in builder.kbs.values())])
    return CSP(
        dialogue_id=dialogue.id,
        variables=variables,
        domains=domains,
        kbs=builder.kbs,
        constraints=builder.constraints,
        assignment=assignment,
        max_amount=max_amount,
    )


class _Builder:
    def __init__(
        self, dialogue: Dialogue, variables: list[Variable], kb: KnowledgeBase | None, options: BuildOptions,
        lexicon: Lexicon, results: list[NormalizedResult],
    ):
        self.dialogue = dialogue
        self.lexicon = lexicon
        self.results = results
        self.ignored = ignored_parameters(results)
        self.variables = variables
        self.kb = kb
        self.options = options
        self.constraints: list[Constraint] = []
        self._vocabs: dict[tuple[str, str], set[str]] = {}
        self.unlinked: set[tuple[int, str]] = set()  # (turn, domain): a state filter no variable mentions
        self.kbs: dict[str, list[dict[str, str]]] = {}
        self.by_turn: dict[int, list[Variable]] = defaultdict(list)
        for v in variables:
            self.by_turn[v.turn].append(v)
        self._state_index: dict[str, list[int]] = {}  # domain → last turn with a state, per turn
        self._mentions: dict[tuple, tuple[list[int], list[Variable]]] | None = None

    def add(self, constraint: Constraint) -> None:
        if constraint.id in self.options.enabled:
            self.constraints.append(constraint)

    def build(self) -> None:
        for v in self.variables:  # C1
            slot_type = None if v.kind is VariableKind.AMOUNT else v.slot_type
            self.add(Constraint(id=ConstraintId.C1, variables=[v.name], turn=v.turn, slot_type=slot_type))
        self._coreference()
        self._distinctness()
        self._domain()

    def _coreference(self) -> None:
        groups: dict[tuple[str, Value], list[Variable]] = defaultdict(list)
        keys = referents(self.dialogue, self.variables, self.lexicon)
        for v in self.variables:
            if v.kind is VariableKind.SLOT and not self._description(v) and not (
                    v.speaker == "system" and v.slot in ("internet", "parking")):  # "it does not have parking" is
                groups[(v.slot_type, keys[v.name][0])].append(v)  # about the entity (C5), not the request
        for members in groups.values():
            if len(members) > 1:
                self.add(Constraint(id=ConstraintId.C2, variables=[m.name for m in members], turn=members[0].turn))

    def _distinctness(self) -> None:
        for turn, turn_vars in sorted(self.by_turn.items()):
            by_type: dict[str, list[Variable]] = defaultdict(list)
            for v in turn_vars:
                if v.kind is VariableKind.SLOT and v.span is not None:
                    by_type[v.slot_type].append(v)
            for same_type in by_type.values():
                same_type = _one_per_wording(same_type)
                if len(same_type) > 1:
                    self.add(Constraint(id=ConstraintId.C3, variables=[v.name for v in same_type], turn=turn))

    # -- domain constraints ---------------------------------------------------------------
    def _domain(self) -> None:
        if not self.options.enabled & {ConstraintId.C4, ConstraintId.C5, ConstraintId.C6}:
            return
        latest: dict[str, tuple[str, list[dict[str, str]], dict[str, str] | None]] = {}
        seen = self._dialogue_entities()
        by_turn: dict[int, list[NormalizedResult]] = defaultdict(list)
        for r in self.results:
            by_turn[r.turn].append(r)
        for turn in self.dialogue.turns:
            for r in by_turn.get(turn.index, []):
                latest[r.domain] = (f"turn{turn.index}:{r.domain}", r.entities, r.parameters)
            if turn.speaker != "system":
                continue
            turn_vars = self.by_turn.get(turn.index, [])
            for domain in sorted({v.domain for v in turn_vars} | _no_result_domains(turn)):
                scope = latest.get(domain) or self._global_table(domain)
                if scope is None:
                    continue
                kb_id, entities, params = scope
                self.kbs.setdefault(kb_id, entities)
                columns = set().union(*entities) if entities else set()
                mine = [v for v in turn_vars if v.domain == domain]
                filters = self._filters(turn.index, domain, columns, mine, params)
                asked = filters if self.options.count_filter == "state" else []  # the paper: the utterance alone
                if domain in seen:  # C5 looks at every entity of d the dialogue's results show
                    self.kbs.setdefault(f"dialogue:{domain}", seen[domain])
                    self._claims(turn.index, f"dialogue:{domain}", set().union(*seen[domain]), mine, asked)
                else:
                    self._claims(turn.index, kb_id, columns, mine, asked)
                searched = filters
                if params is None and self.options.count_filter == "state":
                    filters = self._with_own_words(turn.index, kb_id, columns, mine, filters)
                self._counts(turn.index, domain, kb_id, mine, params, filters)
                if params is None and (turn.index, domain) in self.unlinked:
                    continue  # a search constraint no variable mentions: what found nothing is not known
                self._no_results(turn, domain, kb_id, columns, mine, searched)

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

    def _description(self, v: Variable) -> bool:
        """A ``--kb`` closed column's annotated value the KB never uses and no known value names
        ("softplace area with an aquatic theme" as an attraction type): a description, which
        corefers with no value (no C2)."""
        if self.kb is None or v.domain not in self.kb.tables or not isinstance(v.value, str) or v.value == "dontcare":
            return False
        vocab = self._vocab(v.domain, v.slot)
        return bool(vocab) and v.value not in vocab and v.slot in SEARCH_COLUMNS

    def _kb_claim(self, kb_id: str, v: Variable) -> bool:
        """Whether ``v``'s annotated value can be compared with the ``--kb`` table ``kb_id``
        (always, for a dialogue's own KB results). A value of a ``--kb`` table is compared when
        the column has it, or when the column is open (names, addresses, phones: a value no
        entity has is a claim the KB refutes). Left out, as wordings the KB does not use: a
        value of a closed column the table never has (attraction type "church", price range
        "cheaper"), a part of a name or address several entities share ("east road"), a list
        ("efes restaurant or anatolia"), and a clock column whose value is no time ("every hour").
        Closed columns are the :data:`SEARCH_COLUMNS`; the others (phone, postcode, price…) are open."""
        if self.kb is None or kb_id not in self.kb.tables or not isinstance(v.value, str) or v.value == "dontcare":
            return True
        if _generic(v.domain, v.slot, v.value):
            return False  # "the Avalon is a moderately priced hotel": the word for any place to stay
        vocab = self._vocab(kb_id, v.slot)
        value = v.value
        if v.slot == "address" and re.fullmatch(r"cb\s?\d{1,2}\s?\d?\s?[a-z]{2}", value):
            return False  # a postcode annotated as a part of the address ("Back Lane, Cambourne, CB236BW")
        if v.slot in ENTITY_TEXT_SLOTS and any(name_words(value) < w for w, _ in kb_index(self.kb.tables[kb_id], v.slot)[1]):
            return False  # maybe a part of another entity's name or address ("clifton way")
        if value in vocab:
            return True
        if v.slot in ("entrance fee", "price"):  # a fee or fare that is no amount ("pounds", "not listed")
            key = wording_key(v.slot, value)
            if key != "free" and not re.fullmatch(r"\d+\.\d\dpounds", key):
                return False
        if v.slot in BOUNDS or v.slot in ("duration",):
            return clock_time(value) is not None or v.slot == "duration" and bool(re.match(r"^\d+ minutes$", value))
        if re.search(r"\b(?:or|and)\b|/", value) and all(
            self.lexicon.resolve(v.slot_type, part) for part in re.split(r"\s*(?:\bor\b|\band\b|/|,)\s*", value) if part
        ):
            return False
        if v.slot in ENTITY_TEXT_SLOTS:
            mine = name_words(value)
            return not any(mine < w for w, _ in kb_index(self.kb.tables[kb_id], v.slot)[1])
        return v.slot not in SEARCH_COLUMNS  # an open column (phone, postcode, …): a value no entity has is refuted

    def _vocab(self, kb_id: str, column: str) -> set[str]:
        key = (kb_id, column)
        if key not in self._vocabs:
            self._vocabs[key] = {e[column] for e in self.kbs.get(kb_id) or self.kb.tables[kb_id].normalized() if column in e}
        return self._vocabs[key]

    def _claims(self, turn: int, kb_id: str, columns: set[str], mine: list[Variable], asked: list[Variable]) -> None:
        """C5: the offered / informed values of one utterance, with what the user asked for
        (``asked``: the search filters in force), describe an existing entity."""
        if any(v.role is ActRole.BOOKED for v in mine) or self._booked(turn, mine):
            self._booking_details(turn, kb_id, columns, mine)  # its other values describe the booking
            return  # ("the total fee is …")
        claims = [
            v for v in mine
            if v.kind is VariableKind.SLOT and v.role in SYSTEM_CLAIMS and v.slot in columns and self._kb_claim(kb_id, v)
            and not self._restated_bound(turn, v)
        ]
        said_bounds = [  # "TR1234 arrives by 10:30", "trains leaving after 17:00": the entity's time within
            v for v in mine  # the bound (cues.time_bound_op)
            if v.slot in BOUNDS and v.span is not None and v.slot in columns and v.role in SYSTEM_CLAIMS
            and not self._select(turn, v.domain) and isinstance(v.value, str) and clock_time(v.value)
            and time_bound_op(self.dialogue.turns[turn].utterance, v.span)
        ]
        named = {v.value for v in mine if v.slot in NOT_FILTERS - BOUNDS}
        if len(named) > 1 or len({v.slot for v in said_bounds}) < len(said_bounds):
            said_bounds = []  # several trains, or several times: listed apart
        said_bounds = [v for v in said_bounds if not any(c.slot == v.slot for c in claims)]  # "one at 13:32;
        # all other trains arrive after 14:30": the bound is about other trains
        if not claims and not said_bounds:
            return
        if any(self._select(turn, v.domain) for v in claims) and not any(v.slot in NOT_FILTERS - BOUNDS for v in claims):
            return  # "cheap, moderate or expensive: which would you prefer?" names choices, not an entity
        if self._alternatives(turn, mine):
            asked = []  # after "no match" / "could not book" the system offers something else
        elif claims and all(v.slot in DETAIL_COLUMNS for v in claims) or claims and (
            kb_id.startswith("dialogue:")  # the dialogue's own results (SGD): any column may be a detail
            and all(v.role is ActRole.INFORM and not _names_entity(v.slot) for v in claims)
            and not any(_names_entity(v.slot) or v.kind is VariableKind.AMOUNT for v in mine)
        ):  # details given alone ("Their number is …", "It is not furnished"), no count: about one entity
            discussed = self._under_discussion(turn, claims[0].domain, columns)
            if discussed is not None and discussed.value in self._vocab(kb_id, discussed.slot):  # "it's at 62 Gilbert Road": about the entity under discussion
                asked = [v for v in asked if v.slot != discussed.slot] + [discussed]
        asked = [v for v in asked if self._kb_claim(kb_id, v)  # "church" asked, All Saints offered: a wording
                 and not (v.slot in ("parking", "internet") and v.value == "no")]  # "no" = not needed, for an offer
        said = {v.slot for v in claims}
        bounds = [v for v in asked if v.slot in BOUNDS and v.slot in columns and v not in claims] + said_bounds  # kept even if said:
        asked = [v for v in asked if v.slot not in said and v.slot in columns and v not in bounds]  # 17:11 >= 17:00
        claims += asked
        by_slot: dict[str, list[Variable]] = defaultdict(list)
        for v in claims:
            if v not in by_slot[v.slot]:
                by_slot[v.slot].append(v)
        single = [vs[0] for vs in by_slot.values() if len(vs) == 1]
        multi = [vs for vs in by_slot.values() if len(vs) > 1]
        # Several values of one slot list several entities; the other stated values may describe
        # any of them, so each listed value is checked with the user's request alone.
        asked_only = [v for v in single if v in asked]
        sets = [asked_only + [v] for vs in multi for v in vs] if multi else [single]
        for group in sets:
            group = group + bounds
            self.add(
                Constraint(
                    id=ConstraintId.C5, variables=[v.name for v in group], turn=turn, kb=kb_id,
                    columns=[v.slot for v in group], ops=[self._bound_op(v) if v in bounds else "=" for v in group],
                )
            )

    def _with_own_words(
        self, turn: int, kb_id: str, columns: set[str], mine: list[Variable], filters: list[Variable]
    ) -> list[Variable]:
        """The belief-state filters, where the system's own utterance names one value of a slot
        ("6 4-star guesthouses *in the east*", "the only 4 star *hotels*") with that value: the
        count or the no-result is about what the utterance says (MultiWOZ's state may lag)."""
        own: dict[str, list[Variable]] = defaultdict(list)
        if self._select(turn, mine[0].domain if mine else "") or any(v.slot in NOT_FILTERS - BOUNDS for v in mine):
            return filters  # values of a named entity, or choices offered: not what was counted
        searched = set(self._state(turn, mine[0].domain)) if mine else set()
        for v in mine:
            if (v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.slot in columns
                    and (v.slot in searched or v.slot in DOMAIN_SEARCH.get(v.domain, ()))
                    and not _generic(v.domain, v.slot, v.value)
                    and v.slot in SEARCH_COLUMNS and self._kb_claim(kb_id, v)):  # fmt: skip
                own[v.slot].append(v)
        single = {slot: vs[0] for slot, vs in own.items() if len({x.value for x in vs}) == 1}
        if not single:
            return filters
        kept = [f for f in filters if f.slot not in single]
        return kept + [v for slot, v in single.items()]

    def _hotel_sense(self, turn: int, kb_id: str, amount: Variable, filters: list[Variable]) -> list[Variable]:
        """"Hotel" in a search (:func:`_generic`) either means any place to stay or the type
        hotel; the count's *annotated* amount (the structure, not the text) says which: with
        type=hotel when that count is the annotated one, else without."""
        said = [v for v in self.variables if v.turn <= turn and v.domain == "hotel" and v.slot == "type"
                and v.value == "hotel" and v.kind is VariableKind.SLOT]  # fmt: skip
        if not said:
            return filters
        with_type = filters + [said[-1]]
        entities = self.kbs.get(kb_id) or []
        sure, possible = count_matches(entities, [f.slot for f in with_type], [f.value for f in with_type],
                                       [_op(f) for f in with_type])  # fmt: skip
        return with_type if isinstance(amount.value, int) and sure <= amount.value <= possible else filters

    def _under_discussion(self, turn: int, domain: str, columns: set[str]) -> Variable | None:
        """The entity a turn that names none talks about (spec §9, "which entity"): the one the
        belief state holds by name (selected or booked), else the one the system offered last
        (the only name or train id of its turn); as the variable that last mentions it."""
        for slot in sorted(c for c in columns if _names_entity(c)):
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
                    return named[0] if len({v.value for v in named}) == 1 else None
        return None

    def _state_names(self, turn: int, domain: str) -> bool:
        for t in reversed(self.dialogue.turns[: turn + 1]):
            slots = t.state.get(domain)
            if slots:
                return "name" in slots or "trainID" in slots
        return False

    def _counted_noun(self, turn: int, amount: Variable, mine: list[Variable]) -> Variable | None:
        """The slot variable right after an amount that names what is counted ("2 *swimming
        pools*", "8 *guesthouses*"), when there is one."""
        if amount.span is None:
            return None
        for v in mine:
            if (v.kind is VariableKind.SLOT and v.span is not None and v.slot in SEARCH_COLUMNS
                    and not _generic(v.domain, v.slot, v.value)
                    and 0 < v.span.start - amount.span.end <= 12 and not self._description(v)
                    and re.fullmatch(r"[\s\w-]*", self.dialogue.turns[turn].utterance[amount.span.end : v.span.start])):
                return v  # fmt: skip
        return None

    def _restated_bound(self, turn: int, v: Variable) -> bool:
        """A system time that repeats the user's bound ("14 trains leaving after 10:00") or offers
        bounds to choose from (a ``Select``): a bound, not an entity's time."""
        if v.slot not in BOUNDS or v.speaker != "system":
            return False
        held = self.dialogue.turns[turn].state.get(v.domain, {}).get(v.slot) or []
        before = self.dialogue.turns[turn].utterance[: v.span.start] if v.span else ""
        return (any(self.lexicon.canon(v.slot_type, h) == v.value for h in held) or self._select(turn, v.domain)
                or bool(re.search(r"\b(?:after|before|by|until|later than|earlier than)\s*$", before, re.I)))

    def _booking_details(self, turn: int, kb_id: str, columns: set[str], mine: list[Variable]) -> None:
        """C5 in a booking confirmation: the entity details it informs (address, phone, rating, a
        yes/no feature…) belong to the booked entity, named in the turn or under discussion. Not
        details: the booking's own values (the booking call's arguments: date, time, party size),
        totals (price, fee, cost) and times that may be bounds."""
        if getattr(self, "_call_slots", None) is None:  # once per dialogue: linear in its turns
            self._call_slots: dict[int, set[str]] = defaultdict(set)
            for r in self.results:
                self._call_slots[r.turn].update(r.parameters or {})
        params = self._call_slots.get(turn, set())
        details = [
            v for v in mine
            if v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.slot in columns and v.span is not None
            and not _names_entity(v.slot) and v.slot not in params and v.slot not in BOUNDS
            and not re.search(r"price|fee|cost|fare|total|date|time|day", v.slot) and self._kb_claim(kb_id, v)
            and (kb_id.startswith(("dialogue:", "turn")) or v.value in self._vocab(kb_id, v.slot))  # a --kb value
        ]  # no entity of the domain has is more likely another domain's (MultiWOZ's acts mislabel domains)
        if not details:
            return
        named = [v for v in mine if v.kind is VariableKind.SLOT and _names_entity(v.slot) and v.slot in columns]
        if named:
            entity = named[0] if len({v.value for v in named}) == 1 else None
        else:
            entity = self._under_discussion(turn, details[0].domain, columns)
        own = f"turn{turn}:{details[0].domain}"  # the booking's own result (SGD): its one entity
        if entity is None and not named and len(self.kbs.get(own) or []) == 1:
            group, kb_id = details, own  # a bus, a flight: no name column
        elif entity is None or entity.value not in self._vocab(kb_id, entity.slot) or not self._kb_claim(kb_id, entity):
            return  # "Nandos" may be "nandos city centre": a part of another name names no one entity
        else:
            group = details + [entity]
        self.add(Constraint(id=ConstraintId.C5, variables=[v.name for v in group], turn=turn, kb=kb_id,
                            columns=[v.slot for v in group], ops=["="] * len(group)))

    def _bound_op(self, v: Variable) -> str:
        """A bound filter's comparison: a system time by its own words ("by 10:30": ``<=``), else :func:`_op`."""
        if v.speaker == "system" and v.span is not None:
            said = time_bound_op(self.dialogue.turns[v.turn].utterance, v.span)
            if said:
                return said
        return _op(v)

    def _select(self, turn: int, domain: str) -> bool:
        return any(a.act.lower().endswith("-select") and a.domain == domain for a in self.dialogue.turns[turn].acts)

    def _alternatives(self, turn: int, mine: list[Variable]) -> bool:
        domains = {v.domain for v in mine}
        return any(
            a.role in (ActRole.NO_RESULT, ActRole.FAILED) and a.domain in domains for a in self.dialogue.turns[turn].acts
        )

    def _booked(self, turn: int, mine: list[Variable]) -> bool:
        domains = {v.domain for v in mine}
        return any(a.role is ActRole.BOOKED and a.domain in domains for a in self.dialogue.turns[turn].acts)

    def _counts(
        self, turn: int, domain: str, kb_id: str, mine: list[Variable], params: dict[str, str] | None,
        filters: list[Variable],
    ) -> None:
        """C6: an amount equals the number of entities matching the filters."""
        amounts = [v for v in mine if v.kind is VariableKind.AMOUNT]
        counts = [a for a in self.dialogue.turns[turn].acts if a.role is ActRole.COUNT and a.domain == domain]
        nouns = {a.name: self._counted_noun(turn, a, mine) for a in amounts} if params is None else {}
        kinds = {(n.slot, n.value) for n in nouns.values() if n is not None}
        told_apart = len(counts) == len(amounts) and all(nouns.values()) and len(kinds) == len(amounts) \
            and len({slot for slot, _ in kinds}) == 1  # "2 hotels and 8 guesthouses"
        if params is None and len(counts) > 1 and not told_apart:
            return  # a breakdown ("2 in the centre, one in the north", "one at 17:23 and another"): each about a part
        for amount in amounts:
            noun = nouns.get(amount.name)
            if noun is not None:  # "2 swimming pools", "8 guesthouses": the count is about that kind
                filters = [f for f in filters if f.slot != noun.slot] + [noun]
            if params is None and domain == "hotel" and not any(f.slot == "type" for f in filters):
                filters = self._hotel_sense(turn, kb_id, amount, filters)
            utterance = self.dialogue.turns[turn].utterance
            if amount.span is not None and params is None and amount.value == 1 and (
                re.match(r"\s*(?:that|which|of|available|option that|leaving|departing|arriving|called|named|tickets?|person|people|night|room)\b",
                         utterance[amount.span.end :])
                or re.search(r"\ba(?: \w+)?\s*$", utterance[: amount.span.start], re.I)
            ):
                continue  # "I have one that arrives at 19:07", "a great one called …": one of them, not a count
            if params is None and not filters and self._state_names(turn, domain):
                continue  # "two restaurants: Pizza Express and Pizza Express Fen Ditton": a count of names
            if params is None and (turn, domain) in self.unlinked:
                continue  # a search constraint no variable mentions: the count's filter is not known
            self.add(
                Constraint(
                    id=ConstraintId.C6, variables=[f.name for f in filters], turn=turn, kb=kb_id,
                    columns=[f.slot for f in filters], count_variable=amount.name, ops=[_op(f) for f in filters],
                )
            )

    def _no_results(
        self, turn: Turn, domain: str, kb_id: str, columns: set[str], mine: list[Variable], filters: list[Variable]
    ) -> None:
        """C4: no entity matches what the system says it found nothing for."""
        if not any(a.role is ActRole.NO_RESULT and a.domain == domain for a in turn.acts):
            return
        said = [v for v in mine if v.role is ActRole.NO_RESULT and v.kind is VariableKind.SLOT and v.slot in columns]
        asked_about = [v for v in self.by_turn.get(turn.index - 1, []) if v.domain == domain and v.speaker == "user"]
        if not said and any(v.slot in NOT_FILTERS - BOUNDS for v in mine + asked_about):
            return  # "Does the Acorn fit?" "No, but the Tandoori Palace does": about the entity discussed
        said_slots = {v.slot for v in said}  # what it names, within the search in force
        filters = said + [f for f in filters if f.slot not in said_slots] if said else filters
        if filters:
            self.add(
                Constraint(
                    id=ConstraintId.C4, variables=[f.name for f in filters], turn=turn.index, kb=kb_id,
                    columns=[f.slot for f in filters], ops=["=" if f in said else _op(f) for f in filters],
                )
            )

    def _filters(
        self, turn: int, domain: str, columns: set[str], mine: list[Variable], params: dict[str, str] | None
    ) -> list[Variable]:
        """The variables that filter the KB at ``turn`` (see module doc, C6)."""
        if self.options.count_filter == "utterance":
            return [v for v in mine if v.kind is VariableKind.SLOT and v.slot in columns and v.role is not ActRole.NO_RESULT]
        wanted = params if params is not None else self._state(turn, domain)
        wanted = {k: v for k, v in wanted.items() if k not in self.ignored.get(domain, ())}
        filters = []
        for slot, value in wanted.items():
            if slot not in columns:
                continue
            if params is None and _generic(domain, slot, self.lexicon.canon(f"{domain}.{slot}", value)):
                continue
            if params is None and slot in BOUNDS and clock_time(normalize(value)) is None and not re.fullmatch(r"\d\d:\d\d", value):
                continue  # "after lunch": no bound a KB time can be compared with
            var = self._latest_mention(turn, domain, slot, self.lexicon.canon(f"{domain}.{slot}", value))
            if var is not None:
                filters.append(var)
            elif params is None and value != "dontcare":
                self.unlinked.add((turn, domain))
        return filters

    def _bounded(self, turn: int, domain: str) -> bool:
        slots = self._state_slots(turn, domain)
        return any(s in BOUNDS and vals and vals[0] != "dontcare" for s, vals in slots.items())

    def _state(self, turn: int, domain: str) -> dict[str, str]:
        """The belief state's search filters for ``domain`` in force at ``turn``."""
        slots = self._state_slots(turn, domain)
        return {s: vals[0] for s, vals in slots.items() if len(vals) == 1 and s not in NOT_FILTERS - BOUNDS}

    def _state_slots(self, turn: int, domain: str) -> dict[str, list[str]]:
        """The last non-empty ``state[domain]`` at or before ``turn`` (``{}``: none). Indexed once
        per domain, so a dialogue's cost stays linear in its turns (issue 11)."""
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
        """The last slot variable of ``domain.slot`` with ``value`` at or before ``turn`` (an index
        by (domain, slot, value) built once: linear in the variables, issue 11)."""
        mentions = self._mentions
        if mentions is None:
            mentions = {}
            for v in self.variables:
                if v.kind is VariableKind.SLOT:
                    turns, found = mentions.setdefault((v.domain, v.slot, v.value), ([], []))
                    turns.append(v.turn)
                    found.append(v)
            self._mentions = mentions
        entry = mentions.get((domain, slot, value))
        if entry is None:
            return None
        k = bisect_right(entry[0], turn)
        return entry[1][k - 1] if k else None


def _names_entity(slot: str) -> bool:
    """Whether a column names one entity: MultiWOZ ``name`` / ``trainID``, SGD ``*_name``
    (``restaurant_name``, ``movie_name``; not ``*_airport_name`` / ``*_station_name``, which
    name places a trip goes through)."""
    return slot in ("name", "trainID") or (slot.endswith("_name") and not slot.endswith(("airport_name", "station_name")))


def _generic(domain: str, slot: str, value: object) -> bool:
    """MultiWOZ's "hotel": the word for any place to stay and one of the two hotel types; the
    data uses it both ways ("29 hotels" counting guesthouses), so as a type it filters nothing."""
    return domain == "hotel" and slot == "type" and value == "hotel"


def _op(v: Variable) -> str:
    """A search filter's comparison: MultiWOZ's ``leaveAt`` is a lower bound on the entity's
    time ("leave after 17:00": entity >= 17:00), ``arriveBy`` an upper bound; others are ``=``."""
    return ">=" if v.slot == "leaveAt" else "<=" if v.slot == "arriveBy" else "="


def _words(text: str | None) -> str:
    return re.sub(r"\W+", " ", fold(text or "")).strip()


def _one_per_wording(same_type: list[Variable]) -> list[Variable]:
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


def canonical_values(dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon) -> None:
    """Give each slot variable (in place) the canonical form of its annotated value
    (:meth:`Lexicon.canon`: the KB's spelling of a wording, "museums" → "museum"). An annotated
    value that refers instead of naming ("that day", "same area") takes the value the belief
    state of its turn holds for the slot, when it holds one (spec §9)."""
    for v in variables:
        if v.kind is not VariableKind.SLOT or not isinstance(v.value, str):
            continue
        if refers(v.value) and lexicon.kb is not None and v.domain in lexicon.kb.tables:
            held = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot) or []
            if len(held) == 1:
                v.value = lexicon.canon(v.slot_type, held[0])
                continue
        v.value = lexicon.canon(v.slot_type, v.value)
        said = clock_time(normalize(v.text)) if v.text else None
        if said and said != v.value and same_clock(v.value, said):
            v.value = said  # "6:30" annotated for "6:30pm": the text is the truth (spec §9)
        held = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot) or []
        for h in held:  # "3:45" said and annotated, the state's 15:45: the 12-hour reading of it
            if same_clock(v.text or str(v.value), lexicon.canon(v.slot_type, h)) and same_clock(str(v.value), lexicon.canon(v.slot_type, h)):
                v.value = lexicon.canon(v.slot_type, h)


def referents(dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon) -> dict[str, tuple[Value, bool]]:
    """Variable name → (the value it refers to, whether the belief state says so); C2 groups
    variables by it.

    A user ``inform`` refers to the value the belief state records for its slot after that
    turn; a system ``confirm``, or an ``offer`` in a turn that reports no failure, to the value
    of the state in force (the last user turn's): an offer must fit what the user asked for.
    Any other variable, or one whose state is absent, ambiguous or ``dontcare``, refers to its
    own annotated value; so does an offer next to a failure ("could not book 6:15; 6 pm?"). So a mention whose act annotation was changed along with its text still
    corefers with what the rest of the dialogue's annotations say it should.
    """
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
        elif v.speaker == "system" and v.slot not in BOUNDS and (
            v.role is ActRole.CONFIRM or (v.role is ActRole.OFFER and v.turn not in alternatives_offered)
        ):  # a time offered under a bound satisfies it (C5 checks that), it does not repeat it
            state = after.get(v.turn - 1, {})
        else:
            continue
        alternatives = state.get(v.domain, {}).get(v.slot)
        if not alternatives:
            continue
        meant = set().union(*(lexicon.lookup(v.slot_type, a) or {lexicon.canon(v.slot_type, a)} for a in alternatives))
        if len(meant) > 1 and v.speaker == "system":  # alternatives that name different values (two
            said = [u for u in variables if u.speaker == "user" and u.turn < v.turn and u.slot_type == v.slot_type
                    and u.value in meant]  # entities merged into one state value): what the user said
            meant = {said[-1].value} if said else meant
        if len(meant) == 1 and "dontcare" not in meant:
            keys[v.name] = (meant.pop(), True)
    return keys


class NormalizedResult(NamedTuple):
    """A turn's :class:`KbResult` with its entities' values normalised (once per dialogue)."""

    turn: int
    domain: str
    parameters: dict[str, str] | None
    entities: list[dict[str, str]]


def normalized_results(dialogue: Dialogue) -> list[NormalizedResult]:
    """Every KB result of ``dialogue`` in turn order, values normalised like variable values."""
    return [
        NormalizedResult(t.index, r.domain, r.call.parameters if r.call else None, normalized_entities(r.entities))
        for t in dialogue.turns
        for r in t.kb_results
    ]


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


def _domains(
    dialogue: Dialogue, variables: list[Variable], kb: KnowledgeBase | None, results: list[NormalizedResult]
) -> dict[str, list[str]]:
    """V(type) per slot type: the closed ontology set, else annotated ∪ KB values (see module
    doc). The KB here is every table the dialogue could use, whichever constraints are enabled."""
    values: dict[str, set[str]] = defaultdict(set)
    for v in variables:
        if v.kind is VariableKind.SLOT and isinstance(v.value, str):
            values[v.slot_type].add(v.value)
    tables = [(r.domain, r.entities) for r in results]
    if kb is not None:
        used = {v.domain for v in variables}
        tables += [(domain, table.normalized()) for domain, table in kb.tables.items() if domain in used]
    for domain, entities in tables:
        for entity in entities:
            for column, value in entity.items():
                slot_type = f"{domain}.{column}"
                if slot_type in values:
                    values[slot_type].add(value)
    for slot_type, closed in dialogue.ontology.items():
        if slot_type in values:
            values[slot_type] = {normalize(x) for x in closed} | ({"dontcare"} & values[slot_type])
    return {k: sorted(v) for k, v in sorted(values.items())}
