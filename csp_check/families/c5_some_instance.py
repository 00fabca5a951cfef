"""C5 (at least one): the values a system utterance offers or informs, with what the user asked
for, describe an entity the KB has (paper §3.2, spec §2): a KB count of at least 1 (an entity
lacking a filtered column may match). Instances are built in the KB walk of
:mod:`csp_check.build.builder`.

Reading rules

- A system utterance's offered / informed values that are KB columns, with the search filters
  in force for the other columns (the filters of C6, :mod:`csp_check.build.builder`), describe an
  existing entity: an offer must fit what the user asked for. The KB is every entity the
  dialogue's results show that has one of the claim's columns (another method's results, SGD's
  ``AddAlarm``, are another kind of entity: :func:`_of_its_kind`): the paper's per-dialogue KB,
  since after ``REQUEST_ALTS`` SGD systems offer the next entity of an earlier list, and a few
  results are annotated a turn late. Without results, the ``--kb`` table of the domain.
- Several values of one slot (several entities listed: "Dogman, Hackers or High Life") give
  one C5 per value, each checked with the user's request alone; names listed after "such as" /
  "including" take the area and price range their group's words give
  (:func:`~csp_check.families.c5_offers.group_values`). An offer whose stated search value is
  not the user's filter in force is checked against that filter
  (:func:`~csp_check.families.c5_offers.against_request`). "X or maybe a museum" offers two
  entities (:func:`either_or`).
- Values in a booking confirmation describe the booking (a total fee, a reference), no KB
  entity; the entity details it informs (address, phone, rating, a yes/no feature) are checked
  against the booked entity (:func:`booking_details`), a total against the booking call's own
  result where it returned one, and a trip id of the KB's form that no entity has is refuted
  alone (:func:`unknown_trip`). The booked entity itself, where the dialogue names it first at
  the booking, is checked with the search in force, like an offer (:func:`booked_entity`).
- A detail given alone (address, phone, postcode, fee, price, duration) is checked against the
  entity under discussion (the state's name / train, else the system's last offer), not any
  entity, with the filters it meets. Details a turn gives about an entity its words name with no
  name variable ("Emily Rosenbaum's address is …") are that entity's (:func:`_named_in_text`).
  An entity the user moved away from (a later filter rules it out) is no longer under discussion.
- After a no-result or a failed booking, offers are alternatives: no request check. An entity
  named only to deny it what was asked ("the lensfield hotel is not a guesthouse. May I suggest
  …") is no offer: it is checked alone with what its sentence affirms of it (:func:`withdrawn`).
- No claim: a value a question proposes to look for ("look elsewhere for something free?":
  :func:`proposed`); a detail said to be missing ("I do not have open times listed"); a detail in
  a sentence that counts ("we have four with free entrance"), which is the count's filter
  (:func:`counted`); values a ``Select`` offers as choices; an entity's name annotated as its
  address ("The Cherry Hinton Village":
  :meth:`~csp_check.build.context.BuildContext.kb_claim`); a value of a search column the DB never
  uses, and a comparative ("the cheaper option"), as in C2. "In Cambridge" / "in town" widens a
  statement to the whole city: the requested area does not filter it (:func:`whole_city`).
- Parking / internet "no" is "not needed" for an offer (literal for counts and no-results).
- Under a user's bound (MultiWOZ ``leaveAt`` ≥ / ``arriveBy`` ≤) an offered train must satisfy
  it; a system "arrive by T" / "leaves after T" is a bound of its own words (:func:`bound_op`).
  Under an "arrive by" bound a train arriving after midnight within its clock time fits, as C6
  counts it (either reading; also on a fixed day: the wizards compared clock times;
  :func:`clock_arrivals`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from csp_check.build.context import SYSTEM_CLAIMS, dialogue_table, turn_table
from csp_check.corpora import CorpusProfile
from csp_check.families import kb_common
from csp_check.families.c5_address import AddressParts, address_parts, part_column
from csp_check.families.c5_booked_trip import booked_trip
from csp_check.families.c5_offers import against_request, group_values
from csp_check.families.kb_common import KbFilterInstance, Restriction, Rows, TableView, derived
from csp_check.families.primitives import Bound, KbCount, Primitive, count_matches, entity_match
from csp_check.families.registry import Family, register
from csp_check.language.cues import sentence_of, time_bound_op, whole_city_span
from csp_check.language.lexicon import literal
from csp_check.language.normalize import clock_of_day, clock_time, fold
from csp_check.language.scope_words import BOOKING_SLOT, DENIED, EITHER_OR, NEGATED_BEFORE, PROPOSED, TOTAL_SLOT
from csp_check.models import CSP, ActRole, ConstraintId, Value, Variable, VariableKind, rows_where


@register
class SomeInstance(Family[KbFilterInstance]):
    id = "C5"
    name = "some instance"
    description = "what the system offers, with what was asked for, describes a KB entity"
    group = "domain"
    scope_step = 1  # first at a KB scope: what the system offers
    instance_type = KbFilterInstance

    def build_in_scope(self, ctx, at) -> list[KbFilterInstance]:
        """One instance per group of values the system offers or informs at ``at``
        (:class:`~csp_check.build.context.KbScope`), with the search in force (:func:`claims`),
        against every entity the dialogue's results show, else the table in force."""
        asked = at.filters if ctx.options.count_filter == "state" else []  # the paper: the utterance alone
        if at.seen is not None:  # C5 looks at every entity of d the dialogue's results show
            kb_id = dialogue_table(at.domain)
            built = claims(ctx, at.turn.index, kb_id, set().union(*at.seen), at.mine, asked)
            return [_of_its_kind(ctx, c) for c in _named_in_text(ctx, at.turn, kb_id, built)]
        return claims(ctx, at.turn.index, at.kb_id, at.columns, at.mine, asked)

    def satisfied(self, constraint: KbFilterInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        _, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                    kb_common.values(constraint, assignment), constraint.ops)
        return possible > 0

    def lower(self, constraint: KbFilterInstance, csp: CSP) -> list[Primitive]:
        return [KbCount(constraint.kb, kb_common.filters(constraint), lo=Bound(None, 1), hi=None)]

    def explain(self, constraint: KbFilterInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        """No entity has what the utterance states, or one has but not with the values the user
        asked for earlier (named one by one)."""
        entities = kb_common.entities(constraint, csp)
        ops = [constraint.ops[i] if i < len(constraint.ops) else "=" for i in range(len(constraint.columns))]
        pairs = list(zip(constraint.variables, constraint.columns, ops))
        own = [(n, col, op) for n, col, op in pairs if by_name[n].turn == constraint.turn and op == "="]
        asked = [(n, col, op) for n, col, op in pairs if (n, col, op) not in own]
        stated = ", ".join(f"{col}={assignment[n]!r}" for n, col, _ in own)
        own_cols, own_vals, own_ops = [c for _, c, _ in own], [assignment[n] for n, _, _ in own], [o for _, _, o in own]
        if not asked or not any(entity_match(e, own_cols, own_vals, own_ops)[1] for e in entities):
            return f"turn {constraint.turn} states {stated or 'an entity'}; no KB entity ({len(entities)}) has this"
        clash = [
            f"{col}{'' if op == '=' else ' ' + op + ' '}={assignment[n]!r} (turn {by_name[n].turn})".replace(" =", " ", 1) if op != "=" else f"{col}={assignment[n]!r} (turn {by_name[n].turn})"
            for n, col, op in asked
            if not any(entity_match(e, [*own_cols, col], [*own_vals, assignment[n]], [*own_ops, op])[1] for e in entities)
        ] or [", ".join(f"{col}{op}{assignment[n]!r}" for n, col, op in asked) + " together"]
        return f"turn {constraint.turn} offers {stated}, which the KB has, but not with what was asked: {'; '.join(clash)}"


def _fits(ctx, kb_id: str, entity: Variable, asked: Variable) -> bool:
    """Whether some row of table ``kb_id`` that ``entity`` (a name or train id variable) names
    may satisfy the search filter ``asked`` (a missing cell may). Details given alone about the
    entity under discussion ("They are 16.60 pounds each" of TR6332, offered two turns earlier
    although it arrives after the user's 09:45) are checked against that entity with the
    filters it meets: a filter it misses is the offering turn's fault, flagged there (spec §2,
    C5: the instance an utterance implies), not again at each later detail."""
    rows = rows_where(ctx.kbs.get(kb_id) or ctx.kb.tables[kb_id].normalized(), entity.slot, entity.value)
    return not rows or any(entity_match(e, [asked.slot], [asked.value], [ctx.profile.search_op(asked.slot)])[1] for e in rows)


class Named(Restriction):
    """The rows whose ``column`` is ``value`` (one entity a turn's words name: :func:`_named_in_text`)."""

    column: str
    value: str

    def rows(self, entities: Rows) -> Rows:
        return [e for e in entities if e.get(self.column) == self.value]

    def mark(self) -> str:
        return f"|{self.column}={self.value}"


def _named_in_text(ctx, turn, kb_id: str, constraints: list[KbFilterInstance]) -> list[KbFilterInstance]:
    """Details a system turn gives with no name variable, where its words name one entity of the
    dialogue's results ("Emily Rosenbaum's address is …", written where the annotation has "Their
    address"): the details are that entity's, whatever entity was under discussion (spec §9: the
    text is the truth). Each constraint of the turn is then checked against that entity's rows
    (its own table, so the solvers read the same), without the earlier name mention that stood
    for the entity under discussion. A name inside another variable's span, or two names, change
    nothing."""
    names_entity = ctx.profile.names_entity
    if not constraints or any(names_entity(v.slot) for v in ctx.by_turn.get(turn.index, [])):
        return constraints
    entities = ctx.kbs.get(kb_id) or []
    columns = sorted({c for e in entities for c in e if names_entity(c)})
    text = fold(turn.utterance)
    taken = [v.span for v in ctx.by_turn.get(turn.index, []) if v.span is not None]
    found: set[tuple[str, str]] = set()
    for column in columns:
        for name in {e[column] for e in entities if len(e.get(column, "")) >= 4}:
            for m in literal(name).finditer(text) if name in text else ():
                if not any(m.start() < sp.end and sp.start < m.end() for sp in taken):
                    found.add((column, name))
    if len({name for _, name in found}) != 1 or len(found) != 1:
        return constraints
    column, name = found.pop()
    named = derived(ctx, TableView(base=kb_id), Named(column=column, value=name))
    by_name = {v.name: v for v in ctx.variables}
    out = []
    for c in constraints:
        if c.id != ConstraintId("C5") or c.turn != turn.index:
            out.append(c)
            continue
        keep = [i for i, n in enumerate(c.variables) if not (names_entity(c.columns[i]) and by_name[n].turn != turn.index)]
        ops = [c.ops[i] if i < len(c.ops) else "=" for i in keep]
        out.append(c.model_copy(update={"table": named, "variables": [c.variables[i] for i in keep],
                                        "columns": [c.columns[i] for i in keep], "ops": ops}))
    return out


class WithColumns(Restriction):
    """The rows that have at least one of ``columns`` (entities of the kind a claim is about:
    :func:`_of_its_kind`)."""

    columns: tuple[str, ...]

    def rows(self, entities: Rows) -> Rows:
        return [e for e in entities if any(col in e for col in self.columns)]

    def mark(self) -> str:
        return f"|{','.join(self.columns)}"


def _of_its_kind(ctx, constraint: KbFilterInstance) -> KbFilterInstance:
    """``constraint`` against the entities of the dialogue's results that have at least one of
    its columns: a service's calls of other methods return other kinds of entity (SGD Alarm_1's
    ``AddAlarm`` result has ``new_alarm_time``, no ``alarm_time``), which a missing column
    would otherwise let match anything (spec §6: a missing field is unknown only for an entity
    of the kind the claim is about). The table is registered under its own id, so the solvers
    read the same entities."""
    entities = ctx.kbs.get(constraint.kb, [])
    kind = WithColumns(columns=tuple(sorted(set(constraint.columns))))
    if len(kind.rows(entities)) == len(entities) or not constraint.columns:
        return constraint
    return constraint.model_copy(update={"table": derived(ctx, constraint.table, kind)})


def claims(ctx, turn: int, kb_id: str, columns: set[str], mine: list[Variable],
           asked: list[Variable]) -> list[KbFilterInstance]:
    """C5: the offered / informed values of one utterance, with what the user asked for
    (``asked``: the search filters in force), describe an existing entity."""
    if any(v.role is ActRole.BOOKED for v in mine) or ctx.booked(turn, mine):
        # a booking confirmation's values describe the booking ("the total fee is …"); its other
        # values describe the booked entity
        return (booking_details(ctx, turn, kb_id, columns, mine) + booked_entity(ctx, turn, kb_id, columns, mine, asked)
                + booked_trip(ctx, turn, kb_id, columns, mine))  # a booked trip's id with its times (c5_booked_trip)
    utterance = ctx.dialogue.turns[turn].utterance
    profile = ctx.profile
    claims = [
        v for v in mine
        if v.kind is VariableKind.SLOT and v.role in SYSTEM_CLAIMS and v.slot in columns and ctx.kb_claim(kb_id, v)
        and not ctx.restated_bound(turn, v) and not proposed(utterance, v)
    ]
    claims, taken_back = withdrawn(profile, turn, kb_id, utterance, claims)
    said_bounds = [  # "TR1234 arrives by 10:30", "trains leaving after 17:00": the entity's time within
        v for v in mine  # the bound (cues.time_bound_op)
        if v.slot in profile.bounds and v.span is not None and v.slot in columns and v.role in SYSTEM_CLAIMS
        and not ctx.select(turn, v.domain) and isinstance(v.value, str) and clock_time(v.value)
        and time_bound_op(ctx.dialogue.turns[turn].utterance, v.span)
    ]
    named = {v.value for v in mine if v.slot in profile.entity_columns}
    if len(named) > 1 or len({v.slot for v in said_bounds}) < len(said_bounds):
        said_bounds = []  # several trains, or several times: listed apart
    said_bounds = [v for v in said_bounds if not any(c.slot == v.slot for c in claims)]  # "one at 13:32;
    # all other trains arrive after 14:30": the bound is about other trains
    if not claims and not said_bounds:
        return taken_back
    if any(ctx.select(turn, v.domain) for v in claims) and not any(v.slot in profile.entity_columns for v in claims):
        return taken_back  # "cheap, moderate or expensive: which would you prefer?" names choices, not an entity
    if ctx.alternatives(turn, mine):
        asked = []  # after "no match" / "could not book" the system offers something else
    elif whole_city(ctx, turn, claims + said_bounds, mine):
        asked = [v for v in asked if v.slot != profile.area_column]  # "colleges in Cambridge would be a good bet": the
        # statement's own scope is the whole city, whatever area was asked for
    elif (claims and all(v.slot in profile.detail_columns for v in claims) or claims and (
        kb_id in ctx.dialogue_tables  # the dialogue's own results (SGD): any column may be a detail
        and all(v.role is ActRole.INFORM and not profile.names_entity(v.slot) for v in claims)
        and not any(profile.names_entity(v.slot) or v.kind is VariableKind.AMOUNT for v in mine)
    )) and not counted(ctx.dialogue.turns[turn].utterance, claims, mine):  # details given alone ("Their
        # number is …", "It is not furnished"), no count: about one entity
        discussed = ctx.under_discussion(turn, claims[0].domain, columns, kb_id)
        if discussed is not None and discussed.value in ctx.vocab(kb_id, discussed.slot):  # "it's at 62 Gilbert Road": about the entity under discussion
            asked = [v for v in asked if v.slot != discussed.slot and _fits(ctx, kb_id, discussed, v)] + [discussed]
    asked = [v for v in asked if ctx.kb_claim(kb_id, v)  # "church" asked, All Saints offered: a wording
             and not (v.slot in profile.amenities.values() and v.value == "no")]  # "no" = not needed, for an offer
    against = against_request(ctx, turn, kb_id, claims, asked)
    said = {v.slot for v in claims}
    requested = {(v.slot, v.value) for v in asked}
    bounds = [v for v in asked if v.slot in profile.bounds and v.slot in columns and v not in claims] + said_bounds  # kept even if said:
    asked = [v for v in asked if v.slot not in said and v.slot in columns and v not in bounds]  # 17:11 >= 17:00
    claims += asked
    by_slot: dict[str, list[Variable]] = defaultdict(list)
    for v in claims:
        if v not in by_slot[v.slot]:
            by_slot[v.slot].append(v)
    single = [vs[0] for vs in by_slot.values() if len(vs) == 1]
    listed = [v for vs in by_slot.values() if len(vs) > 1 for v in vs]
    # Several values of one slot list several entities; the other stated values may describe
    # any of them, so each listed value is checked with the user's request alone. So are the
    # alternatives of an "or" ("the Vue cinema or maybe a museum"): two entities, not one.
    alternatives = either_or(profile, ctx.dialogue.turns[turn].utterance, [v for v in single if v.turn == turn])
    listed += alternatives
    asked_only = [v for v in single if v in asked]
    restated = [v for v in single if (v.slot, v.value) in requested and v not in asked and v not in listed]
    # (alternatives are offered for the request, which the turn may restate: "44 attractions in the centre")
    out: list[KbFilterInstance] = []
    parts = address_parts(utterance, profile.address_column, turn, claims) if len(named) <= 1 else []
    if parts and {v.name for v in listed} == {v.name for v in parts}:  # one address over several acts: one entity (c5_address)
        return [_address_claim(ctx, kb_id, single, parts, bounds)] + taken_back
    examples = group_values(ctx, turn, listed, single)
    sets = [asked_only + (restated if v in alternatives else []) + examples.get(v.name, []) + [v] for v in listed] \
        if listed else [single]
    for group in sets:
        group = group + bounds
        out.append(clock_arrivals(ctx, KbFilterInstance(
            id=ConstraintId("C5"), variables=[v.name for v in group], turn=turn, table=TableView(base=kb_id),
            columns=[v.slot for v in group], ops=[bound_op(ctx, v) if v in bounds else "=" for v in group],
        )))
    return out + against + taken_back


def _address_claim(ctx, kb_id: str, single: list[Variable], parts: list[Variable],
                   bounds: list[Variable]) -> KbFilterInstance:
    """The C5 of a turn that gives one address over several acts (:mod:`c5_address`): its other
    values (``single``, the name among them) and each part, compared with the part's column of
    the table's :class:`~csp_check.families.c5_address.AddressParts` copy (the parts as read
    at build time), with the ``bounds`` in force."""
    address, by_name = ctx.profile.address_column, {v.name: v for v in ctx.variables}
    read = tuple(str(ctx.assignment.get(v.name, by_name.get(v.name, v).value)) for v in parts)
    table = derived(ctx, TableView(base=kb_id), AddressParts(address=address, postcode=ctx.profile.postcode_column, parts=read))
    group = [v for v in single if v not in parts] + parts + bounds
    columns = [v.slot for v in single if v not in parts] + [part_column(address, k) for k in range(1, len(parts) + 1)]
    return clock_arrivals(ctx, KbFilterInstance(
        id=ConstraintId("C5"), variables=[v.name for v in group], turn=parts[0].turn, table=table,
        columns=columns + [v.slot for v in bounds], ops=["="] * len(columns) + [bound_op(ctx, v) for v in bounds],
        reading=[f"one {address} over {len(parts)} acts, each part a piece of the entity's {address}"],
    ))


def withdrawn(profile: CorpusProfile, turn: int, kb_id: str, utterance: str,
              claims: list[Variable]) -> tuple[list[Variable], list[KbFilterInstance]]:
    """Split off the entities ``claims`` (one system utterance's) names only to deny them what
    was asked: a name (a column the ``profile`` says names an entity) followed by a negated
    copula (:data:`~csp_check.language.scope_words.DENIED`: "I do apologize, the
    lensfield hotel is not a guesthouse. May I suggest Bridge Guest House?"). Such an entity is
    no offer, so it is not checked with the request (spec §2, C5: the instances an utterance
    implies); it is checked alone, with the values its sentence affirms of it after its name
    and before any other name (not those it negates,
    :data:`~csp_check.language.scope_words.NEGATED_BEFORE`), as one C5 instance each. Returns the
    remaining claims and those instances."""
    names_entity = profile.names_entity
    spanned = [(v, v.span) for v in claims if v.span is not None]
    denied = [(v, span) for v, span in spanned if names_entity(v.slot) and v.turn == turn
              and DENIED.match(utterance, span.end)]
    if not denied:
        return claims, []
    out: list[KbFilterInstance] = []
    gone: set[str] = set()
    for name, at in denied:
        where = sentence_of(utterance, at)  # its sentence up to the next name ("…, but Y is")
        until = min([span.start for v, span in spanned if names_entity(v.slot)
                     and at.end <= span.start < where[1]] + [where[1]])
        said = [(v, span) for v, span in spanned if not names_entity(v.slot) and at.end <= span.start < until]
        gone |= {name.name} | {v.name for v, _ in said}
        group = [name] + [v for v, span in said if not NEGATED_BEFORE.search(utterance[where[0] : span.start])]
        out.append(KbFilterInstance(id=ConstraintId("C5"), variables=[v.name for v in group], turn=turn, table=TableView(base=kb_id),
                              columns=[v.slot for v in group], ops=["="] * len(group)))
    return [v for v in claims if v.name not in gone], out


def clock_column(arrival: str) -> str:
    """The column an "arrive by" bound of a C5 compares when a train arriving after midnight
    within its clock time fits the claim (:func:`clock_arrivals`): the arrival as the clock shows
    it, ``"arriveBy (clock)"`` for the profile's arrival column ``"arriveBy"``."""
    return f"{arrival} (clock)"


class ClockArrivals(Restriction):
    """A copy of the table with column ``clock`` (:func:`clock_column` of the arrival column
    ``arrival``) added: the clock time of a next-day arrival (hour 25 on), else the arrival
    itself (:func:`clock_arrivals`)."""

    arrival: str
    clock: str

    def rows(self, entities: Rows) -> Rows:
        arrival, clock = self.arrival, self.clock
        return [{**e, clock: clock_of_day(e[arrival]) if e[arrival] >= "25:00" else e[arrival]}
                if e.get(arrival) else e for e in entities]

    def mark(self) -> str:
        return f"|{self.clock}"


def clock_arrivals(ctx, constraint: KbFilterInstance) -> KbFilterInstance:
    """``constraint`` (a C5) with its "arrive by" bounds compared on the clock time of each
    arrival, where a train matching its other filters arrives after midnight, on the next day
    ("01:44" for a train leaving 23:01, written "25:44":
    :func:`~csp_check.language.normalize.next_day_arrival`), at a clock time within the first such bound
    (:func:`~csp_check.families.c6_scope.next_day_within`'s trains, with the values read
    at build time). Such an arrival is too late on the day but in time on the clock, as
    MultiWOZ's wizards compared times; C6 lets a count hold under either reading
    (:func:`~csp_check.families.c6_scope.count_bounds`), and so does C5: an offer of that
    train under the bound holds, whether or not a travel day is fixed (C6 does not ask either).
    The bounds then read the table's copy (registered under its own id, so the solvers read the
    same) with column :func:`clock_column`: the clock time of a next-day arrival (hour 25 on,
    as C6's count; the DB's own "24:06" is compared as written), else the arrival itself. Any
    other constraint is returned as is. Spec §9 (time bounds)."""
    arrival = ctx.profile.arrival_column
    filters = kb_common.filters(constraint)
    bounded = [i for i, (_, col, op) in enumerate(filters) if col == arrival and op == "<="]
    if not bounded:
        return constraint
    entities = ctx.kbs.get(constraint.kb) or []
    by_name = {v.name: v for v in ctx.variables}
    said = [(col, op, ctx.assignment.get(n, by_name[n].value)) for n, col, op in filters]
    if not kb_common.after_midnight_within(entities, said, "25:00", arrival):
        return constraint
    clock = clock_column(arrival)
    table = derived(ctx, constraint.table, ClockArrivals(arrival=arrival, clock=clock))
    columns = [clock if i in bounded else col for i, col in enumerate(constraint.columns)]
    return constraint.model_copy(update={"table": table, "columns": columns})


def either_or(profile: CorpusProfile, utterance: str, stated: list[Variable]) -> list[Variable]:
    """The values of ``stated`` (one utterance's claims, one per slot) that are alternatives
    joined by "or" (:data:`~csp_check.language.scope_words.EITHER_OR`), an entity's name (a
    column the ``profile`` says names an entity) and a value of another slot: "Would
    you like the information for the Vue cinema or maybe a museum?" offers a cinema and a
    museum, two entities, so they are not checked as one. Two values of one entity ("has no
    internet or parking") have no name between them."""
    spanned = sorted((v for v in stated if v.span is not None), key=lambda v: v.span.start)  # type: ignore[union-attr]
    out: list[Variable] = []
    for a, b in zip(spanned, spanned[1:]):
        if (a.slot != b.slot and (profile.names_entity(a.slot) or profile.names_entity(b.slot))  # not "no internet or parking"
                and EITHER_OR.fullmatch(utterance[a.span.end : b.span.start])):  # type: ignore[union-attr]
            out += [v for v in (a, b) if v not in out]
    return out


def proposed(utterance: str, v: Variable) -> bool:
    """Whether ``v`` is a value a system question proposes to search for, not one it states:
    its sentence ends with "?" and "something" / "anything"
    (:data:`~csp_check.language.scope_words.PROPOSED`) comes right
    before it ("There is an entrance fee of 4 pounds. Would you like me to look elsewhere for
    something free?")."""
    if v.span is None:
        return False
    start, end = sentence_of(utterance, v.span)
    return utterance[start:end + 1].rstrip().endswith("?") and bool(PROPOSED.search(utterance[start : v.span.start]))


def counted(utterance: str, claims: list[Variable], mine: list[Variable]) -> bool:
    """Whether every claim (with a span) shares its sentence with an amount of the utterance:
    "we have four with free entrance" states the filter of a count, not a detail of the entity
    under discussion (the count's own C6 checks it)."""
    sentences = {sentence_of(utterance, v.span) for v in mine if v.kind is VariableKind.AMOUNT and v.span is not None}
    spanned = [v.span for v in claims if v.span is not None]
    return bool(sentences) and bool(spanned) and all(sentence_of(utterance, span) in sentences for span in spanned)


def whole_city(ctx, turn: int, claims: list[Variable], mine: list[Variable]) -> bool:
    """Whether the sentence of a claim places it in the whole city, outside every span ("I would
    say architecture or colleges in Cambridge would be a good bet" after the user asked for the
    east; :func:`~csp_check.language.cues.whole_city_span`) and with no area of its own: the statement
    widens its own scope, so the requested area does not filter it."""
    if any(v.slot == ctx.profile.area_column for v in mine):
        return False
    utterance = ctx.dialogue.turns[turn].utterance
    spans = [v.span for v in ctx.by_turn.get(turn, []) if v.span is not None]
    found = whole_city_span(utterance, spans)
    if found is None:
        return False
    where = sentence_of(utterance, found)
    return any(v.span is not None and sentence_of(utterance, v.span) == where for v in claims)


def booking_details(ctx, turn: int, kb_id: str, columns: set[str], mine: list[Variable]) -> list[KbFilterInstance]:
    """C5 in a booking confirmation: the entity details it informs (address, phone, rating, a
    yes/no feature…) belong to the booked entity, named in the turn or under discussion. Not
    details: the booking's own values (the booking call's arguments: date, time, party size),
    totals (price, fee, cost) and times that may be bounds."""
    profile = ctx.profile
    params = ctx.call_slots().get(turn, set())
    totals = _booked_totals(ctx, turn, mine, params)
    details = [
        v for v in mine
        if v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.slot in columns and v.span is not None
        and not profile.names_entity(v.slot) and v.slot not in params and v.slot not in profile.bounds
        and not BOOKING_SLOT.search(v.slot) and ctx.kb_claim(kb_id, v)
        and (kb_id in ctx.results_tables or v.value in ctx.vocab(kb_id, v.slot))  # a --kb value
    ]  # no entity of the domain has is more likely another domain's (MultiWOZ's acts mislabel domains)
    named = [v for v in mine if v.kind is VariableKind.SLOT and profile.names_entity(v.slot) and v.slot in columns]
    trip = unknown_trip(ctx, turn, kb_id, named)
    if trip:
        group = details + [v for v in trip if v not in details]
        return totals + [KbFilterInstance(id=ConstraintId("C5"), variables=[v.name for v in group], turn=turn, table=TableView(base=kb_id),
                                    columns=[v.slot for v in group], ops=["="] * len(group))]
    if not details:
        return totals
    if named:
        entity = named[0] if len({v.value for v in named}) == 1 else None
    else:
        entity = ctx.under_discussion(turn, details[0].domain, columns, kb_id)
    own = turn_table(turn, details[0].domain)  # the booking's own result (SGD): its one entity
    if entity is None and not named and len(ctx.kbs.get(own) or []) == 1:
        group, kb_id = details, own  # a bus, a flight: no name column
    elif entity is None or entity.value not in ctx.vocab(kb_id, entity.slot) or not ctx.kb_claim(kb_id, entity):
        return totals  # "Nandos" may be "nandos city centre": a part of another name names no one entity
    else:
        group = details + [entity]
    return totals + [KbFilterInstance(id=ConstraintId("C5"), variables=[v.name for v in group], turn=turn, table=TableView(base=kb_id),
                                columns=[v.slot for v in group], ops=["="] * len(group))]


def booked_entity(ctx, turn: int, kb_id: str, columns: set[str], mine: list[Variable],
                  asked: list[Variable]) -> list[KbFilterInstance]:
    """C5 for the entity a booking confirmation names ("I have booked the Gonville Hotel"), where
    the dialogue names it there first (no variable of either speaker names it before): it is
    checked with the search in force, like an offer. One the dialogue named earlier was checked
    where it was offered (or the user asked for it by name); after a failure the booking is of
    something else (no request check); several names, none."""
    profile = ctx.profile
    named = [v for v in mine if v.kind is VariableKind.SLOT and profile.names_entity(v.slot) and v.slot in columns
             and v.span is not None and v.turn == turn and v.speaker == "system"]
    if len({v.value for v in named}) != 1 or ctx.alternatives(turn, mine):
        return []
    entity = named[0]
    if (entity.value not in ctx.vocab(kb_id, entity.slot) or not ctx.kb_claim(kb_id, entity)
            or any(v.turn < turn and v.slot == entity.slot and v.value == entity.value for v in ctx.variables)):
        return []
    filters = [v for v in asked if v.slot in columns and v.slot != entity.slot and ctx.kb_claim(kb_id, v)
               and not (v.slot in profile.amenities.values() and v.value == "no")]
    if not filters:
        return []
    group = [entity, *filters]
    return [clock_arrivals(ctx, KbFilterInstance(
        id=ConstraintId("C5"), variables=[v.name for v in group], turn=turn, table=TableView(base=kb_id),
        columns=[v.slot for v in group], ops=["="] + [bound_op(ctx, v) if v.slot in profile.bounds else "=" for v in filters],
        reading=[f"the booked {entity.slot} {entity.value!r}, first named at the booking, with the search in force"],
    ))]


def _booked_totals(ctx, turn: int, mine: list[Variable], params: set[str]) -> list[KbFilterInstance]:
    """C5 for a total (price, fee, cost, fare) a booking confirmation informs, where the booking
    call of that very turn returned one entity with that column (SGD ``ReserveCar`` →
    ``total_price``): the booking's own record says what it costs. One instance per total,
    against that one entity (``turn{t}:{domain}``); not a call argument."""
    out = []
    for v in mine:
        if not (v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.span is not None and v.slot not in params
                and TOTAL_SLOT.search(v.slot)):
            continue
        own = turn_table(turn, v.domain)
        booked = ctx.kbs.get(own) or []
        if len(booked) == 1 and v.slot in booked[0] and any(r.turn == turn and r.parameters is not None
                                                             for r in ctx.results if r.domain == v.domain):
            out.append(KbFilterInstance(id=ConstraintId("C5"), variables=[v.name], turn=turn, table=TableView(base=own), columns=[v.slot], ops=["="]))
    return out


def unknown_trip(ctx, turn: int, kb_id: str, named: list[Variable]) -> list[Variable]:
    """C5 in a booking confirmation that names one trip by an id of the KB's form that no entity
    has ("I booked TR1701" where the table has no tr1701): the id alone, a claim the KB refutes
    (an id is a KB value, not a wording). ``[]`` otherwise. Source: spec §2 (C5), the MultiWOZ
    train table (one row per run, ids ``tr`` + 4 digits: the profile's
    :attr:`~csp_check.corpora.CorpusProfile.trip_id_pattern`)."""
    column = ctx.profile.trip_id_column
    ids = [v for v in named if v.slot == column and v.span is not None and v.turn == turn]
    if len({v.value for v in ids}) != 1 or not re.fullmatch(ctx.profile.trip_id_pattern, str(ids[0].value)):
        return []
    return [] if ids[0].value in ctx.vocab(kb_id, column) or not ctx.kb_claim(kb_id, ids[0]) else ids[:1]


def bound_op(ctx, v: Variable) -> str:
    """A bound filter's comparison: a system time by its own words ("by 10:30": ``<=``), else
    the profile's :meth:`~csp_check.corpora.CorpusProfile.search_op`."""
    if v.speaker == "system" and v.span is not None:
        said = time_bound_op(ctx.dialogue.turns[v.turn].utterance, v.span)
        if said:
            return said
    return ctx.profile.search_op(v.slot)
