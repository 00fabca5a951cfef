"""C6 (exactly n): a system amount — "I found 3", "over 70 trains" — agrees with the number of KB
entities matching the search in force (paper §3.2, spec §2). The amount variable's
``amount_op`` says how ("over 70": ``>`` 70; "about 70": ``~`` 70, within a quarter of it,
:func:`csp_check.language.cues.approx_tolerance`; default ``=``); the KB count must lie between the
bounds that op and value give, e.g. ``> 70``: at least 71, no upper bound. With unknown cells the
count is ``sure..possible`` (:mod:`csp_check.families.primitives`). Instances are built in the KB
walk of :mod:`csp_check.build.builder`.

Reading rules

- An amount equals the number of KB entities (the latest result of its domain) matching the
  search filters in force (:mod:`csp_check.build.builder`; MultiWOZ ``leaveAt`` ≥ / ``arriveBy`` ≤
  as bounds). A search value of the state no variable mentions is an implicit filter
  (:mod:`csp_check.families.c6_implicit`).
- Said as a bound ("over 70", "at least 3", "up to 5") it bounds the count; hedged ("about 70",
  "roughly a dozen", "40 or so") it is a range: the count within a quarter of the amount,
  rounded up, at least 1.
- A count of *other* entities ("2 other cheap Chinese places", "another 3", "4 more", "3
  others") may leave out the entities named earlier that match its filters: the count lies in
  [N, N + m], m = how many there are (the words do not say which were set aside), lowered as the
  hedged amount's offsets (:func:`~csp_check.families.c6_scope.others_excluded`). "The other three" and "also 6 earlier
  options" leave out the entities named (for trains, offered by time) earlier in their own turn.
- "One" right before an entity's own details ("I have one train leaving cambridge at 12:40")
  introduces that entity, no count; "there is one", "only one", "just one" stay counts
  (:func:`~csp_check.families.c6_scope.introduces_entity`). A breakdown ("there are 10, 4 in the north and 6
  in the centre") is read as a total and its parts (:mod:`csp_check.families.c6_breakdown`).
- Under an "arrive by" bound a train arriving after midnight within the bound's clock time
  counts under either reading (the next day, too late; or its clock time, as MultiWOZ's wizards
  compared): the KB count may fall short by that many (:func:`~csp_check.families.c6_scope.next_day_within`).
- The count's own words filter it ("6 4-star guesthouses *in the east*", "2 *swimming pools*"),
  and its own noun picks its kind ("three hotels", "four churches": :func:`~csp_check.families.c6_scope.noun_kind`); "hotel"
  as a type filters only when the annotated amount is the number of hotels (:func:`~csp_check.families.c6_scope.generic_sense`).
  Not filters: a value the turn asks for again ("9 different italian restaurants. Do you have a
  preference on price range?": :func:`~csp_check.families.c6_scope.without_requested`), a value the turn says none has ("none
  of which are catalan": :func:`~csp_check.families.c6_scope.without_denied`), a value said of a part of the counted set ("nine
  of which are guesthouses": :func:`~csp_check.families.c6_scope.parts`). Several areas or price ranges listed ("in the
  centre, east and west") count entities with any of them (:func:`~csp_check.families.c6_scope.listed_values`); a count of
  zero about a search value the DB lacks holds (:func:`~csp_check.families.c6_scope.unknown_value`). Parking / internet "no"
  is literal.
- Every reasonable reading of the search: a count that disagrees with the search in force is
  checked against the first other reading under which it holds (:func:`~csp_check.families.c6_scope.other_reading`): without
  a value only the system proposed, with the value an unsaid ``dontcare`` replaced, or with an
  amenity the user "doesn't need" as absent. Said per day ("3 trains a day", no day yet) it
  counts the trains of the day the user later gives, or of any day when all days agree
  (:func:`~csp_check.families.c6_scope.day_of_daily_count`). A turn naming exactly that many entities with values of another
  search column counts the entities with one of those values (:func:`~csp_check.families.c6_scope.named_values`). A
  multi-word food or type the DB lacks counts the values sharing its last word ("eastern
  European": european, modern european; :func:`~csp_check.families.c6_scope.broader_values`). A plain food word holds
  anywhere in the interval of its readings ("8 European": 4 european + 4 modern european).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field

from csp_check.corpora.shared import ARRIVAL_COLUMNS
from csp_check.families import kb_common
from csp_check.families.c6_breakdown import breakdown, part_filters, part_values
from csp_check.families.c6_implicit import StateValue, implicit_filters
from csp_check.families.c6_scope import (
    NameHas,
    OneOf,
    broader_values,
    count_bounds,
    counted_noun,
    day_of_daily_count,
    generic_sense,
    introduces_entity,
    listed_values,
    name_word_noun,
    name_word_table,
    named_values,
    next_day_within,
    noun_kind,
    other_reading,
    others_excluded,
    parts,
    unknown_value,
    values_table,
    with_own_words,
    within,
    without_denied,
    without_requested,
)
from csp_check.families.kb_common import KbFilterInstance, KindOf, TableView, after_midnight_within, kind_table
from csp_check.families.primitives import KbCount, Primitive, count_matches
from csp_check.families.registry import Family, register
from csp_check.language.normalize import clock_of_day
from csp_check.language.scope_words import ONE_AFTER_ARTICLE, ONE_OF_THEM_AFTER
from csp_check.models import CSP, ActRole, ConstraintId, Value, Variable, VariableKind

#: The words an explanation gives each comparison of an amount ("more than 70").
OP_WORDS = {"=": "", ">": "more than ", ">=": "at least ", "<": "fewer than ", "<=": "at most ", "~": "about "}


class CountInstance(KbFilterInstance):
    """A C6 instance: as a C5 (:class:`~csp_check.families.kb_common.KbFilterInstance`), but
    ``|matching entities|`` compared with the amount variable ``count_variable`` by that
    variable's ``amount_op`` (``=``: equal; ``>``: more than, …; ``~``: about, within a
    quarter); a count of "other" entities may exceed it by up to ``count_excluded``, and one
    under an "arrive by" bound fall short of it by up to ``count_next_day``."""

    count_variable: str
    count_excluded: int = Field(
        0, description="entities named earlier that a count of 'other' ones ('2 other cheap places') "
        "leaves out and that match its filters; the KB count may exceed the amount by up to that many",
    )
    count_next_day: int = Field(
        0, description="matching trains that arrive after midnight, on the next day, though their clock "
        "time is within an 'arrive by' bound; a count made by comparing clock times includes them, so the "
        "KB count may fall short of the amount by up to that many",
    )

    @property
    def scope(self) -> list[str]:
        """The filter variables, then the amount."""
        return [*self.variables, self.count_variable]


def amount_op(constraint: CountInstance, csp: CSP) -> str:
    """The comparison of the constraint's amount variable (``=`` when it states none)."""
    try:
        return csp.variable(constraint.count_variable).amount_op
    except KeyError:
        return "="


@register
class InstanceCount(Family[CountInstance]):
    id = "C6"
    name = "instance count"
    description = "an amount the system states agrees with the number of matching KB entities"
    group = "domain"
    scope_step = 2  # after the offers: a count
    instance_type = CountInstance

    def build_in_scope(self, ctx, at) -> list[CountInstance]:
        """One instance per amount the system states at ``at``
        (:class:`~csp_check.build.context.KbScope`) that counts the search in force (:func:`counts`);
        the filters are the search in force, with the values the utterance itself names
        (:func:`~csp_check.families.c6_scope.with_own_words`) but not those about a part of the
        counted set (:func:`~csp_check.families.c6_scope.parts`), less those the same turn asks for
        again (:func:`~csp_check.families.c6_scope.without_requested`)."""
        filters = at.filters
        if at.state_search and ctx.options.count_filter == "state":
            part = parts(ctx, at.turn.index, at.mine)  # "nine of which are guesthouses": no filter
            of_parts = part | part_values(ctx, at.turn.index, at.kb_id, at.columns, [v for v in at.mine if v.kind is VariableKind.AMOUNT],
                                          at.mine, [a for a in at.turn.acts if a.role is ActRole.COUNT and a.domain == at.domain])
            filters = with_own_words(ctx, at.turn.index, at.kb_id, at.columns,  # "10, 4 in the north": north
                                     [v for v in at.mine if v.name not in of_parts],  # is no word of the 10
                                     [f for f in filters if f.name not in part])
            filters = without_requested(ctx, at.turn, at.domain, at.kb_id, at.mine, filters)
            filters, table = named_values(ctx, at.turn.index, at.kb_id, at.mine, filters)
            return counts(ctx, at.turn.index, at.domain, table, at.mine, at.state_search, filters)
        return counts(ctx, at.turn.index, at.domain, TableView(base=at.kb_id), at.mine, at.state_search, filters)

    def satisfied(self, constraint: CountInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        amount = assignment[constraint.count_variable]
        if not isinstance(amount, int):
            return False
        sure, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                       kb_common.values(constraint, assignment), constraint.ops)
        lo, hi = count_bounds(amount_op(constraint, csp), constraint.count_variable,
                              csp.assignment.get(constraint.count_variable),  # tolerance: of the text's amount
                              constraint.count_excluded, constraint.count_next_day)
        return within(sure, possible, lo, hi, assignment)

    def lower(self, constraint: CountInstance, csp: CSP) -> list[Primitive]:
        lo, hi = count_bounds(amount_op(constraint, csp), constraint.count_variable,
                              csp.assignment.get(constraint.count_variable), constraint.count_excluded,
                              constraint.count_next_day)
        return [KbCount(constraint.kb, kb_common.filters(constraint), lo=lo, hi=hi)]

    def explain(self, constraint: CountInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        amount = assignment[constraint.count_variable]
        matches = kb_common.possible_matches(constraint, assignment, csp)
        sure, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                       kb_common.values(constraint, assignment), constraint.ops)
        have = str(sure) if sure == possible else f"{sure}-{possible}"
        op = OP_WORDS[amount_op(constraint, csp)]
        said = kb_common.said(constraint, assignment, by_name)
        table = constraint.table
        kinds, listed, named = table.of(KindOf), table.of(OneOf), table.of(NameHas)
        # each names its step's value with the steps after it, as these words always have
        # (TableView.marks_after): a kind up to the next list of values, a list's values with the rest
        if kinds:  # the count's own noun ("three hotels"): counted among that kind
            kind = kinds[0].kind + table.marks_after(kinds[0], until=OneOf)
            said = ", ".join(x for x in (said, f"type={kind!r} (the counted noun)") if x)
        if listed:  # "in the centre and north": any of the values listed
            values = ("|".join(listed[0].values) + table.marks_after(listed[0])).split("|")
            said = ", ".join(x for x in (said, f"{listed[0].column} one of {values} (listed)") if x)
        if named:  # "four churches": counted among the entities so named
            word = named[0].word + table.marks_after(named[0])
            said = ", ".join(x for x in (said, f"a name with {word!r} (the counted noun)") if x)
        for step in table.of(StateValue):  # a belief-state value the text never says
            said = ", ".join(x for x in (said, f"{step.column}={step.value!r} (the belief state's)") if x)
        if constraint.count_excluded:
            op = f"{op}{amount} other (up to {constraint.count_excluded} named before not counted), i.e. "
        msg = f"{kb_common.claim(constraint, by_name)} says {op}{amount} with {said or 'no filter'}; the KB has {have}"
        if matches:
            msg += f": {kb_common.sample(matches)}"
        arrival, late = next_day_arrivals(constraint, assignment, csp)
        if late:
            msg += ("; not counted, arriving after midnight on the next day: "
                    + "; ".join(f"{kb_common.entity_label(e)} ({clock_of_day(e[arrival])})" for e in late[:3]))
        return msg


def next_day_arrivals(constraint: KbFilterInstance, assignment: Mapping[str, Value],
                      csp: CSP) -> tuple[str, list[Mapping[str, str]]]:
    """``(arrival column, entities)``: the entities a count under an "arrive by" bound leaves
    out only because they arrive after midnight, on the next day
    (:func:`~csp_check.language.normalize.next_day_arrival`: "01:44" for a train leaving 23:01),
    though the clock time is within the bound: named in the explanation, since a count made by
    comparing clock times includes them. The checker knows no dialogue, so the arrival columns
    are every corpus's (:data:`~csp_check.corpora.shared.ARRIVAL_COLUMNS`); ``("", [])``: none."""
    filters = [(col, op, assignment[n]) for n, col, op in kb_common.filters(constraint)]
    for arrival in ARRIVAL_COLUMNS:
        late = after_midnight_within(kb_common.entities(constraint, csp), filters, "24:00", arrival)
        if late:
            return arrival, late
    return "", []


def counts(
    ctx, turn: int, domain: str, base: TableView, mine: list[Variable], state_search: bool,
    filters: list[Variable], only: Variable | None = None,
) -> list[CountInstance]:
    """C6: an amount equals the number of entities matching the filters. Under a belief-state
    search (``state_search``, :attr:`~csp_check.build.context.KbScope.state_search`) the
    readings of :mod:`csp_check.families.c6_scope` narrow or widen the filters and the table ``base``;
    a service call's own results (SGD) are counted with its parameters as they are. Several counts
    not told apart by their nouns are read as a total and its parts (:func:`split_counts`);
    ``only``: that amount alone (one of a breakdown's)."""
    profile = ctx.profile
    amounts = [v for v in mine if v.kind is VariableKind.AMOUNT] if only is None else [only]
    counts = [a for a in ctx.dialogue.turns[turn].acts if a.role is ActRole.COUNT and a.domain == domain]
    nouns = {a.name: counted_noun(ctx, turn, a, mine) for a in amounts} if state_search else {}
    kinds = {(n.slot, n.value) for n in nouns.values() if n is not None}
    told_apart = len(counts) == len(amounts) and all(nouns.values()) and len(kinds) == len(amounts) \
        and len({slot for slot, _ in kinds}) == 1  # "2 hotels and 8 guesthouses"
    if state_search and len(counts) > 1 and not told_apart and only is None:
        return split_counts(ctx, turn, domain, base, mine, filters, amounts, counts)  # "10, 4 in the north and 6 in
        # the centre": the total, and each part under its own words
    if state_search:
        filters = without_denied(ctx, turn, domain, filters)
    family = broader_values(ctx, base.name, filters) if state_search else None
    if family is not None:  # "eastern European": the DB's european and modern european
        unknown, values = family
        filters = [f for f in filters if f is not unknown]
        base = values_table(ctx, base, unknown.slot, values)
    out: list[CountInstance] = []
    for amount in amounts:
        noun = nouns.get(amount.name)
        table = base
        word = name_word_noun(ctx, turn, base.name, amount, mine) if noun is None and state_search else None
        kind_column = profile.kind_column
        if word is not None:  # "four churches": no type of the table, a word of its entities' names
            types = {e.get(kind_column) for e in ctx.kbs.get(base.name) or []}
            filters = [f for f in filters if f.slot != kind_column or f.value in types or f.value == "dontcare"]
            table = name_word_table(ctx, base, word)
        elif noun is not None:  # "2 swimming pools", "8 guesthouses": the count is about that kind
            filters = [f for f in filters if f.slot != noun.slot] + [noun]
        elif state_search:  # "Three hotels come up" with no span on "hotels": the words still say the kind
            kind = noun_kind(ctx, turn, domain, base.name, amount, filters)
            if kind is not None:
                filters = [f for f in filters if f.slot != kind_column]
                table = kind_table(ctx, base, kind)
        for slot, values in (listed_values(ctx, turn, base.name, amount, mine, amounts) if state_search else {}).items():
            filters = [f for f in filters if f.slot != slot]  # "4 Indian restaurants … in the centre and north"
            table = values_table(ctx, table, slot, values)
        if state_search:
            per_day = day_of_daily_count(ctx, turn, table, amount, filters)
            if per_day == "":
                continue  # "3 trains a day" with no day known and days that differ: which day is not said
            if per_day is not None:  # "I have 3 trains a day that arrive by 10:30": one day's trains
                table = values_table(ctx, table, profile.day_column, [per_day])
        if (table.name == base.name and state_search and domain in profile.generic_kinds
                and not any(f.slot == kind_column for f in filters)):
            filters = generic_sense(ctx, turn, domain, base.name, amount, filters)
        utterance = ctx.dialogue.turns[turn].utterance
        said = ctx.assignment.get(amount.name, amount.value)  # the text's amount, not the act's: the text is the truth
        if amount.span is not None and state_search and said == 1 and amount.amount_op == "=" and (
            ONE_OF_THEM_AFTER.match(utterance[amount.span.end :]) or ONE_AFTER_ARTICLE.search(utterance[: amount.span.start])
        ):
            continue  # "I have one that arrives at 19:07", "a great one called …": one of them, not a count
        if state_search and introduces_entity(ctx, turn, amount, mine):
            continue  # "I have one train leaving cambridge at 12:40 and arriving at 13:08": "a train"
        if state_search and not filters and ctx.state_names(turn, domain):
            continue  # "two restaurants: Pizza Express and Pizza Express Fen Ditton": a count of names
        if state_search and said == 0 and unknown_value(ctx, turn, domain, base.name):
            continue  # "zero findings for australasian food": no entity has a value the DB does not know
        reading: list[str] = []
        uncertain: str | None = None
        if state_search and (turn, domain) in ctx.unlinked:  # a search value no variable mentions: the
            table, reading, uncertain = implicit_filters(ctx, turn, domain, table, filters, amount)  # state's
        if state_search:
            table, filters = other_reading(ctx, turn, domain, table, amount, filters)
        excluded = others_excluded(ctx, turn, domain, table, amount, filters) if state_search else 0
        next_day = next_day_within(ctx, table, filters) if state_search else 0
        out.append(
            CountInstance(
                id=ConstraintId("C6"), variables=[f.name for f in filters], turn=turn, table=table,
                columns=[f.slot for f in filters], count_variable=amount.name,
                ops=[profile.search_op(f.slot) for f in filters],
                count_excluded=excluded,
                count_next_day=next_day, reading=reading, uncertain=uncertain,
            )
        )
    return out


def split_counts(ctx, turn: int, domain: str, base: TableView, mine: list[Variable], filters: list[Variable],
                 amounts: list[Variable], counted: list) -> list[CountInstance]:
    """A breakdown's counts (:func:`~csp_check.families.c6_breakdown.breakdown`): the total under
    the search in force, with no value of its parts; each part whose own words give it a filter
    under the search with those values, said so in its reading and uncertain where its value is
    far from its amount. None when the turn's amounts are no total and parts."""
    columns = {f.slot for f in filters} | {v.slot for v in mine}
    split = breakdown(ctx, turn, base.base, columns, amounts, mine, counted)
    if split is None:
        return []
    others = {p.amount.name for p in split.parts} | split.values
    out: list[CountInstance] = []
    if split.total is not None:
        total = split.total
        searched = set(ctx.state(turn, domain))
        dropped = [f for f in filters if f.name in split.values and f.slot in searched]
        doubt = (f"the search's {dropped[0].slot}={dropped[0].value!r} is said of a part: whether the total "
                 "is within it is not said") if dropped else None
        out += [c.model_copy(update={"reading": [*c.reading, f"the total of a breakdown: {total.text!r}"],
                                     "uncertain": c.uncertain or doubt})
                for c in counts(ctx, turn, domain, base, [v for v in mine if v.name not in others],
                                True, [f for f in filters if f.name not in split.values], total)]
    for part in split.parts:
        if not part.values:
            continue  # "2 charge an entrance fee", "the other 2": which filter is not said
        own = {v.name for v in part.values}
        kept = [v for v in mine if v.name not in others or v.name in own or v is part.amount]
        said = ", ".join(f"{v.slot}={v.value!r}" for v in part.values)
        for c in counts(ctx, turn, domain, base, kept, True, part_filters(filters, part), part.amount):
            out.append(c.model_copy(update={"reading": [*c.reading, f"a part of a breakdown: {part.amount.text!r} "
                                                        f"with its own words' {said}"],
                                            "uncertain": c.uncertain or part.uncertain}))
    return out
