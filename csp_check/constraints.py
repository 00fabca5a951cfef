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
from csp_check.normalize import normalize, normalized_entities
from csp_check.roles import with_text_roles

SYSTEM_CLAIMS = frozenset({ActRole.OFFER, ActRole.INFORM})
#: Belief-state slots that are no equality filter of a search: a name picks one entity, and
#: MultiWOZ's leaveAt / arriveBy are bounds ("leave after 12:45"), not values to match.
BOUNDS = frozenset({"leaveAt", "arriveBy"})
NOT_FILTERS = frozenset({"name", "trainID"}) | BOUNDS


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
    lexicon = Lexicon.of(dialogue)
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
        self.kbs: dict[str, list[dict[str, str]]] = {}
        self.by_turn: dict[int, list[Variable]] = defaultdict(list)
        for v in variables:
            self.by_turn[v.turn].append(v)

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
            if v.kind is VariableKind.SLOT:
                groups[(v.slot_type, keys[v.name][0])].append(v)
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
                self._counts(turn.index, domain, kb_id, mine, params, filters)
                self._no_results(turn, domain, kb_id, columns, mine, filters)

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

    def _claims(self, turn: int, kb_id: str, columns: set[str], mine: list[Variable], asked: list[Variable]) -> None:
        """C5: the offered / informed values of one utterance, with what the user asked for
        (``asked``: the search filters in force), describe an existing entity."""
        if any(v.role is ActRole.BOOKED for v in mine) or self._booked(turn, mine):
            return  # a booking confirmation's values describe the booking ("the total fee is …")
        claims = [v for v in mine if v.kind is VariableKind.SLOT and v.role in SYSTEM_CLAIMS and v.slot in columns]
        if not claims:
            return
        said = {v.slot for v in claims}
        asked = [v for v in asked if v.slot not in said and v.slot in columns]
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
            self.add(
                Constraint(
                    id=ConstraintId.C5, variables=[v.name for v in group], turn=turn, kb=kb_id,
                    columns=[v.slot for v in group],
                )
            )

    def _booked(self, turn: int, mine: list[Variable]) -> bool:
        domains = {v.domain for v in mine}
        return any(a.role is ActRole.BOOKED and a.domain in domains for a in self.dialogue.turns[turn].acts)

    def _counts(
        self, turn: int, domain: str, kb_id: str, mine: list[Variable], params: dict[str, str] | None,
        filters: list[Variable],
    ) -> None:
        """C6: an amount equals the number of entities matching the filters."""
        for amount in (v for v in mine if v.kind is VariableKind.AMOUNT):
            if params is None and self.options.count_filter == "state" and self._bounded(turn, domain):
                continue  # the search had bounds ("leave after 12:45") an exact count cannot express
            self.add(
                Constraint(
                    id=ConstraintId.C6, variables=[f.name for f in filters], turn=turn, kb=kb_id,
                    columns=[f.slot for f in filters], count_variable=amount.name,
                )
            )

    def _no_results(
        self, turn: Turn, domain: str, kb_id: str, columns: set[str], mine: list[Variable], filters: list[Variable]
    ) -> None:
        """C4: no entity matches what the system says it found nothing for."""
        if not any(a.role is ActRole.NO_RESULT and a.domain == domain for a in turn.acts):
            return
        said = [v for v in mine if v.role is ActRole.NO_RESULT and v.kind is VariableKind.SLOT and v.slot in columns]
        filters = said or filters
        if filters:
            self.add(
                Constraint(
                    id=ConstraintId.C4, variables=[f.name for f in filters], turn=turn.index, kb=kb_id,
                    columns=[f.slot for f in filters],
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
            var = self._latest_mention(turn, domain, slot, normalize(value))
            if var is not None:
                filters.append(var)
        return filters

    def _bounded(self, turn: int, domain: str) -> bool:
        for t in reversed(self.dialogue.turns[: turn + 1]):
            slots = t.state.get(domain)
            if slots:
                return any(s in BOUNDS and vals and vals[0] != "dontcare" for s, vals in slots.items())
        return False

    def _state(self, turn: int, domain: str) -> dict[str, str]:
        """The belief state's search filters for ``domain`` in force at ``turn``."""
        for t in reversed(self.dialogue.turns[: turn + 1]):
            slots = t.state.get(domain)
            if slots:
                return {s: vals[0] for s, vals in slots.items() if len(vals) == 1 and s not in NOT_FILTERS}
        return {}

    def _latest_mention(self, turn: int, domain: str, slot: str, value: str) -> Variable | None:
        best = None
        for v in self.variables:
            if v.turn > turn:
                break
            if v.domain == domain and v.slot == slot and v.value == value and v.kind is VariableKind.SLOT:
                best = v
        return best


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
    alternatives_offered = {  # a system turn that reports a failure offers other values
        t.index for t in dialogue.turns if any(a.role in (ActRole.FAILED, ActRole.NO_RESULT) for a in t.acts)
    }
    keys: dict[str, tuple[Value, bool]] = {}
    for v in variables:
        keys[v.name] = (v.value, False)
        if v.kind is not VariableKind.SLOT:
            continue
        if v.speaker == "user" and v.role is ActRole.INFORM:
            state = after.get(v.turn, {})
        elif v.speaker == "system" and (
            v.role is ActRole.CONFIRM or (v.role is ActRole.OFFER and v.turn not in alternatives_offered)
        ):
            state = after.get(v.turn - 1, {})
        else:
            continue
        alternatives = state.get(v.domain, {}).get(v.slot)
        if not alternatives:
            continue
        meant = set().union(*(lexicon.lookup(v.slot_type, a) or {normalize(a)} for a in alternatives))
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
