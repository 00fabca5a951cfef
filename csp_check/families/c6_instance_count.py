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
  as bounds). A count whose search has a constraint no variable mentions is not checked.
- Said as a bound ("over 70", "at least 3", "up to 5") it bounds the count; hedged ("about 70",
  "roughly a dozen", "40 or so") it is a range: the count within a quarter of the amount,
  rounded up, at least 1.
- A count of *other* entities ("2 other cheap Chinese places", "another 3", "4 more", "3
  others") may leave out the entities named earlier that match its filters: the count lies in
  [N, N + m], m = how many there are (the words do not say which were set aside), lowered as the
  hedged amount's offsets (:func:`others_excluded`). "The other three" and "also 6 earlier
  options" leave out the entities named (for trains, offered by time) earlier in their own turn.
- "One" right before an entity's own details ("I have one train leaving cambridge at 12:40")
  introduces that entity, no count; "there is one", "only one", "just one" stay counts
  (:func:`introduces_entity`). Breakdowns ("two in the centre, one in the north") are no count.
- Under an "arrive by" bound a train arriving after midnight within the bound's clock time
  counts under either reading (the next day, too late; or its clock time, as MultiWOZ's wizards
  compared): the KB count may fall short by that many (:func:`next_day_within`).
- The count's own words filter it ("6 4-star guesthouses *in the east*", "2 *swimming pools*"),
  and its own noun picks its kind ("three hotels", "four churches": :func:`noun_kind`); "hotel"
  as a type filters only when the annotated amount is the number of hotels (:func:`hotel_sense`).
  Not filters: a value the turn asks for again ("9 different italian restaurants. Do you have a
  preference on price range?": :func:`without_requested`), a value the turn says none has ("none
  of which are catalan": :func:`without_denied`), a value said of a part of the counted set ("nine
  of which are guesthouses": :func:`parts`). Several areas or price ranges listed ("in the
  centre, east and west") count entities with any of them (:func:`listed_values`); a count of
  zero about a search value the DB lacks holds (:func:`unknown_value`). Parking / internet "no"
  is literal.
- Every reasonable reading of the search: a count that disagrees with the search in force is
  checked against the first other reading under which it holds (:func:`other_reading`): without
  a value only the system proposed, with the value an unsaid ``dontcare`` replaced, or with an
  amenity the user "doesn't need" as absent. Said per day ("3 trains a day", no day yet) it
  counts the trains of the day the user later gives, or of any day when all days agree
  (:func:`day_of_daily_count`). A turn naming exactly that many entities with values of another
  search column counts the entities with one of those values (:func:`named_values`). A
  multi-word food or type the DB lacks counts the values sharing its last word ("eastern
  European": european, modern european; :func:`broader_values`). A plain food word holds
  anywhere in the interval of its readings ("8 European": 4 european + 4 modern european).
"""

from __future__ import annotations

from typing import Mapping

from csp_check.build.context import BOUNDS, DOMAIN_SEARCH, NOT_FILTERS, SEARCH_COLUMNS, is_generic, names_entity, search_op
from csp_check.families import kb_common
from csp_check.families.kb_common import KIND_MARK, after_midnight_within, kind_table
from csp_check.families.primitives import Bound, KbCount, count_matches, entity_match
from csp_check.families.registry import Family, register
import re
from collections import defaultdict

from csp_check.models import CSP, ActRole, Constraint, ConstraintId, Value, Variable, VariableKind
from csp_check.language.cues import sentence_of
from csp_check.language.normalize import clock_of_day, name_words, wording_key

#: The words an explanation gives each comparison of an amount ("more than 70").
OP_WORDS = {"=": "", ">": "more than ", ">=": "at least ", "<": "fewer than ", "<=": "at most ", "~": "about "}


def count_bounds(op: str, amount: str, said: object = None, excluded: int = 0,
                 next_day: int = 0) -> tuple[Bound, Bound | None]:
    """(lower, upper) bound on the KB count for ``count op amount`` (``amount``: the variable's
    name); ``None``: no upper bound. ``~`` (an approximation, "about 70") is ``amount`` ±
    :func:`csp_check.language.cues.approx_tolerance` of ``said``, the amount the text states (an int; the
    tolerance is fixed by it, so the bounds stay offsets of the variable). ``excluded``: for a
    count of "other" entities (:func:`others_excluded`), how many matching entities named
    earlier it may leave out; the upper bound rises by that many ("2 other": 2..2+excluded).
    ``next_day``: how many matching trains arrive after midnight within an "arrive by" clock
    bound (:func:`next_day_within`); the lower bound falls by that many, so either reading of
    such an arrival (the next day: too late; the clock time, as MultiWOZ's wizards compared
    it: in time) makes the count hold. Raises ``ValueError`` for an unknown op."""
    lo, hi = _op_bounds(op, amount, said)
    if excluded and hi is not None:
        hi = Bound(hi.variable, hi.offset + excluded)
    if next_day and lo.variable is not None:
        lo = Bound(lo.variable, lo.offset - next_day)
    return lo, hi


def _op_bounds(op: str, amount: str, said: object) -> tuple[Bound, Bound | None]:
    if op == "~":
        from csp_check.language.cues import approx_tolerance

        tolerance = approx_tolerance(said) if isinstance(said, int) and not isinstance(said, bool) else 0
        return Bound(amount, -tolerance), Bound(amount, tolerance)
    if op == "=":
        return Bound(amount, 0), Bound(amount, 0)
    if op == ">":
        return Bound(amount, 1), None
    if op == ">=":
        return Bound(amount, 0), None
    if op == "<":
        return Bound(None, 0), Bound(amount, -1)
    if op == "<=":
        return Bound(None, 0), Bound(amount, 0)
    raise ValueError(f"unknown amount comparison {op!r}")


def within(sure: int, possible: int, lo: Bound, hi: Bound | None, assignment: Mapping[str, Value]) -> bool:
    """Whether a KB count between ``sure`` and ``possible`` (unknown cells) can lie between the
    bounds ``lo`` and ``hi`` (:func:`count_bounds`) under ``assignment``."""
    low = lo.value(assignment) or 0
    high = None if hi is None else hi.value(assignment)
    return max(sure, low) <= (possible if high is None else min(possible, high))


def amount_op(constraint: Constraint, csp: CSP) -> str:
    """The comparison of the constraint's amount variable (``=`` when it states none)."""
    try:
        return csp.variable(constraint.count_variable or "").amount_op
    except KeyError:
        return "="


@register
class InstanceCount(Family):
    id = "C6"
    name = "instance count"
    description = "an amount the system states agrees with the number of matching KB entities"
    group = "domain"
    scope_step = 2  # after the offers: a count

    def build_in_scope(self, ctx, at) -> list[Constraint]:
        """One instance per amount the system states at ``at``
        (:class:`~csp_check.build.context.KbScope`) that counts the search in force (:func:`counts`);
        the filters are the search in force, with the values the utterance itself names
        (:func:`with_own_words`) but not those about a part of the counted set (:func:`parts`), less
        those the same turn asks for again (:func:`without_requested`)."""
        filters = at.filters
        if at.params is None and ctx.options.count_filter == "state":
            part = parts(ctx, at.turn.index, at.mine)  # "nine of which are guesthouses": no filter
            filters = with_own_words(ctx, at.turn.index, at.kb_id, at.columns,
                                     [v for v in at.mine if v.name not in part], [f for f in filters if f.name not in part])
            filters = without_requested(ctx, at.turn, at.domain, at.kb_id, at.mine, filters)
            filters, table = named_values(ctx, at.turn.index, at.kb_id, at.mine, filters)
            return counts(ctx, at.turn.index, at.domain, table, at.mine, at.params, filters)
        return counts(ctx, at.turn.index, at.domain, at.kb_id, at.mine, at.params, filters)

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        amount = assignment[constraint.count_variable or ""]
        if not isinstance(amount, int):
            return False
        sure, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                       kb_common.values(constraint, assignment), constraint.ops)
        lo, hi = count_bounds(amount_op(constraint, csp), constraint.count_variable or "",
                              csp.assignment.get(constraint.count_variable or ""),  # tolerance: of the text's amount
                              constraint.count_excluded, constraint.count_next_day)
        return within(sure, possible, lo, hi, assignment)

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        if not constraint.count_variable:
            raise ValueError(f"dialogue {csp.dialogue_id}: C6 without a count variable")
        lo, hi = count_bounds(amount_op(constraint, csp), constraint.count_variable,
                              csp.assignment.get(constraint.count_variable), constraint.count_excluded,
                              constraint.count_next_day)
        return [KbCount(constraint.kb or "", kb_common.filters(constraint), lo=lo, hi=hi)]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        amount = assignment[constraint.count_variable or ""]
        matches = kb_common.possible_matches(constraint, assignment, csp)
        sure, possible = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                       kb_common.values(constraint, assignment), constraint.ops)
        have = str(sure) if sure == possible else f"{sure}-{possible}"
        op = OP_WORDS[amount_op(constraint, csp)]
        said = kb_common.said(constraint, assignment, by_name)
        kind = (constraint.kb or "").partition(KIND_MARK)[2].partition(LIST_MARK)[0]
        if kind:  # the count's own noun ("three hotels"): counted among that kind
            said = ", ".join(x for x in (said, f"type={kind!r} (the counted noun)") if x)
        listed = (constraint.kb or "").partition(LIST_MARK)[2]
        if listed:  # "in the centre and north": any of the values listed
            column, _, values = listed.partition("=")
            said = ", ".join(x for x in (said, f"{column} one of {values.split('|')} (listed)") if x)
        word = (constraint.kb or "").partition(NAME_WORD_MARK)[2]
        if word:  # "four churches": counted among the entities so named
            said = ", ".join(x for x in (said, f"a name with {word!r} (the counted noun)") if x)
        if constraint.count_excluded:
            op = f"{op}{amount} other (up to {constraint.count_excluded} named before not counted), i.e. "
        msg = f"{kb_common.claim(constraint, by_name)} says {op}{amount} with {said or 'no filter'}; the KB has {have}"
        if matches:
            msg += f": {kb_common.sample(matches)}"
        late = next_day_arrivals(constraint, assignment, csp)
        if late:
            msg += (f"; not counted, arriving after midnight on the next day: "
                    + "; ".join(f"{kb_common.entity_label(e)} ({clock_of_day(e['arriveBy'])})" for e in late[:3]))
        return msg


def next_day_arrivals(constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> list[Mapping[str, str]]:
    """The entities a count under an "arrive by" bound leaves out only because they arrive after
    midnight, on the next day (:func:`~csp_check.language.normalize.next_day_arrival`: "01:44" for a train
    leaving 23:01), though the clock time is within the bound: named in the explanation, since a
    count made by comparing clock times includes them."""
    filters = [(col, op, assignment[n]) for n, col, op in kb_common.filters(constraint)]
    return after_midnight_within(kb_common.entities(constraint, csp), filters, "24:00")


def next_day_within(ctx, table: str, filters: list[Variable]) -> int:
    """How many entities of ``table`` matching ``filters`` arrive after midnight, on the next day
    ("01:44" for a train leaving 23:01: :func:`~csp_check.language.normalize.next_day_arrival`), at a
    clock time within the filters' "arrive by" bound: those a count made by comparing clock
    times includes (MultiWOZ's wizards did) and csp-check's day-aware comparison leaves out.
    ``0`` without such a bound. An arrival in hour 24 is left out: the DB writes those "24:06",
    which no clock bound meets. Spec §9 (time bounds); the values are read at build time, as
    :func:`others_excluded`'s."""
    said = [(f.slot, search_op(f), ctx.assignment.get(f.name, f.value)) for f in filters]
    return len(after_midnight_within(ctx.kbs.get(table) or [], said, "25:00"))


def without_requested(ctx, turn, domain: str, kb_id: str, mine: list[Variable], filters: list[Variable]) -> list[Variable]:
    """The search filters less the slots system turn ``turn`` (a :class:`~csp_check.models.Turn`)
    asks for again in ``domain`` ("I have 9 different italian restaurants. Do you have a
    preference on price range?", Request Price after the user had said expensive), when the
    turn has dropped them: its counts' *annotated* amounts (the structure, not the text, as
    :func:`hotel_sense`) all agree with the KB without those filters and none with them. Else
    ``filters`` (MultiWOZ's wizards also ask again for a value they counted with)."""
    requested = {a.slot for a in turn.acts if a.role is ActRole.REQUEST and a.domain == domain and a.slot}
    kept = [f for f in filters if f.slot not in requested or f.speaker == "system" and f.turn == turn.index]
    amounts = [v.value for v in mine if v.kind is VariableKind.AMOUNT and isinstance(v.value, int)
               and not isinstance(v.value, bool)]  # fmt: skip
    if len(kept) == len(filters) or not amounts:
        return filters

    def fits(chosen: list[Variable], amount: int) -> bool:
        sure, possible = count_matches(ctx.kbs.get(kb_id) or [], [f.slot for f in chosen], [f.value for f in chosen],
                                       [search_op(f) for f in chosen])  # fmt: skip
        return sure <= amount <= possible

    if all(fits(kept, n) for n in amounts) and not any(fits(filters, n) for n in amounts):
        return kept
    return filters


def with_own_words(
    ctx, turn: int, kb_id: str, columns: set[str], mine: list[Variable], filters: list[Variable]
) -> list[Variable]:
    """The belief-state filters, where the system's own utterance names one value of a slot
    ("6 4-star guesthouses *in the east*", "the only 4 star *hotels*") with that value: the
    count or the no-result is about what the utterance says (MultiWOZ's state may lag)."""
    own: dict[str, list[Variable]] = defaultdict(list)
    if ctx.select(turn, mine[0].domain if mine else "") or any(v.slot in NOT_FILTERS - BOUNDS for v in mine):
        return filters  # values of a named entity, or choices offered: not what was counted
    searched = set(ctx.state(turn, mine[0].domain)) if mine else set()
    for v in mine:
        if (v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.slot in columns
                and (v.slot in searched or v.slot in DOMAIN_SEARCH.get(v.domain, ()))
                and (ctx.kb_claim(kb_id, v) or is_generic(v.domain, v.slot, v.value))
                and v.slot in SEARCH_COLUMNS):  # fmt: skip
            own[v.slot].append(v)
    single = {slot: vs[0] for slot, vs in own.items()  # one value, and not the word for any place
              if len({x.value for x in vs}) == 1 and not is_generic(vs[0].domain, slot, vs[0].value)}
    # to stay: "21 guesthouses and hotels" names two kinds, so it filters by neither
    if not single:
        return filters
    kept = [f for f in filters if f.slot not in single]
    return kept + [v for slot, v in single.items()]


#: "doesn't need (to have) free parking": the amenity the user rules out of the search, or not.
_NOT_NEEDED = re.compile(r"\b(?:does|do|did)\s*(?:n't|n’t|not|nt)\s+(?:really\s+)?need\s+(?:to\s+(?:have|include)\s+)?"
                         r"(?:a\s+|any\s+)?(?:free\s+)?(parking|wifi|internet)\b", re.I)


def fits(ctx, table: str, filters: list[Variable], amount: Variable) -> bool:
    """Whether the amount the text states (``amount``'s value, by its ``amount_op``) agrees with
    the count of ``table``'s entities matching ``filters`` (values as the text says them)."""
    said = ctx.assignment.get(amount.name, amount.value)
    if not isinstance(said, int) or isinstance(said, bool):
        return False
    sure, possible = count_matches(ctx.kbs.get(table) or [], [f.slot for f in filters],
                                   [ctx.assignment.get(f.name, f.value) for f in filters],
                                   [search_op(f) for f in filters])  # fmt: skip
    lo, hi = count_bounds(amount.amount_op, amount.name, said)
    return within(sure, possible, lo, hi, {amount.name: said})


def other_reading(ctx, turn: int, domain: str, table: str, amount: Variable,
                  filters: list[Variable]) -> tuple[str, list[Variable]]:
    """``(table, filters)`` of a count: as given, or — when the amount disagrees with them — the
    first other reasonable reading of the search under which it agrees (a count is not wrong if
    any reasonable reading of the constraints in force makes it true; spec §9). The readings:
    without a value only the system proposed at an earlier turn (an offer or recommendation), which
    the user never said ("How about one in the
    town centre?" — "Sure, it should have free parking and 4 stars" — "That will narrow it down to
    two hotels: Huntington Marriott and University Arms", one of them in the west); with a value
    a ``dontcare`` of the state replaced though the user's words did not
    (:meth:`~csp_check.build.context.BuildContext.unsaid_relaxations`); with an amenity the user
    "doesn't need" as absent rather than either way ("free wifi but doesn't need to have free
    parking": 3 places, those without parking)."""
    if fits(ctx, table, filters, amount):
        return table, filters
    readings: list[tuple[str, list[Variable]]] = []
    for f in filters:
        if f.speaker == "system" and f.turn < turn and f.role is ActRole.OFFER and not any(
                v.speaker == "user" and v.domain == f.domain and v.slot == f.slot and v.turn <= turn
                and ctx.assignment.get(v.name, v.value) == ctx.assignment.get(f.name, f.value) for v in ctx.variables):
            readings.append((table, [g for g in filters if g is not f]))
    tight = [v for v in ctx.unsaid_relaxations(turn, domain, {f.slot for f in filters} | set(SEARCH_COLUMNS))
             if not any(f.slot == v.slot for f in filters)]
    if tight:
        readings.append((table, filters + tight))
    columns = {f.slot for f in filters}
    for t in ctx.dialogue.turns[:turn]:
        for m in _NOT_NEEDED.finditer(t.utterance) if t.speaker == "user" else ():
            column = "parking" if m[1].lower() == "parking" else "internet"
            if column not in columns and any(column in e for e in ctx.kbs.get(table) or []):
                readings.append((values_table(ctx, table, column, ["no"]), filters))
    for reading in readings:
        if fits(ctx, *reading, amount):
            return reading
    return table, filters


#: A count said per day: "3 trains a day", "five trains per day", "runs 10 times daily".
_PER_DAY = re.compile(r"^[\w\s-]{0,30}?\b(?:a|per|each|every) day\b|^[\w\s-]{0,30}?\bdaily\b", re.I)


def day_of_daily_count(ctx, turn: int, table: str, amount: Variable, filters: list[Variable]) -> str | None:
    """The day whose entities a count said per day counts ("I have 3 trains a day that arrive by
    10:30", no day given yet): table ``table`` has a ``day`` column, no filter is on it, and the
    amount's words are followed within a few words by "a day" / "per day" / "each day" /
    "daily". The day is the one the belief state of the domain holds later in the dialogue (the
    user's travel day), else any day when every day has the same count. ``None``: no per-day
    count; ``""``: a per-day count whose day is not known and matters (no C6)."""
    entities = ctx.kbs.get(table) or []
    if amount.span is None or any(f.slot == "day" for f in filters) or not any("day" in e for e in entities):
        return None
    utterance = ctx.dialogue.turns[turn].utterance
    if not _PER_DAY.search(utterance[amount.span.end : sentence_of(utterance, amount.span)[1]]):
        return None
    domain = amount.domain
    later = next((vals[0] for t in ctx.dialogue.turns[turn:]
                  if len(vals := t.state.get(domain, {}).get("day") or []) == 1 and vals[0] != "dontcare"), None)
    days = sorted({e["day"] for e in entities if e.get("day")})
    if later is not None and ctx.lexicon.canon(f"{domain}.day", later) in days:
        return ctx.lexicon.canon(f"{domain}.day", later)
    values = [ctx.assignment.get(f.name, f.value) for f in filters]
    ops = [search_op(f) for f in filters]
    counted = {count_matches([e for e in entities if e.get("day") == d], [f.slot for f in filters], values, ops)
               for d in days}
    return days[0] if len(counted) == 1 and days else ""


def named_values(ctx, turn: int, kb_id: str, mine: list[Variable],
                 filters: list[Variable]) -> tuple[list[Variable], str]:
    """``(filters, table)`` for a count whose turn names the counted entities and gives each its
    own value of a search column, none of them the value in force ("There are two restaurants.
    The Nirala which is moderate and the royal spice which is cheap" after "expensive"): the
    system dropped that filter and says so, so the count is of the entities with one of the
    values it gives (:func:`values_table`). Unchanged unless the turn has one amount and names
    that many entities, or when one of its values is the one in force."""
    names = {v.value for v in mine if names_entity(v.slot) and v.kind is VariableKind.SLOT}
    amounts = [ctx.assignment.get(v.name, v.value) for v in mine if v.kind is VariableKind.AMOUNT]
    if len(amounts) != 1 or amounts[0] != len(names):
        return filters, kb_id  # the entities named are not the ones counted
    table = kb_id
    for f in list(filters):
        if (f.slot not in SEARCH_COLUMNS or search_op(f) != "=" or not isinstance(f.value, str)
                or f.value == "dontcare"):
            continue
        said = {x for v in mine if v.kind is VariableKind.SLOT and v.slot == f.slot and v.role is ActRole.INFORM
                and v.span is not None and isinstance(x := ctx.assignment.get(v.name, v.value), str)
                and x in ctx.vocab(kb_id, f.slot)}  # fmt: skip
        if said and ctx.assignment.get(f.name, f.value) not in said:
            filters = [g for g in filters if g is not f]
            table = values_table(ctx, table, f.slot, sorted(said))
    return filters, table


def hotel_sense(ctx, turn: int, kb_id: str, amount: Variable, filters: list[Variable]) -> list[Variable]:
    """"Hotel" in a search (:func:`~csp_check.build.context.is_generic`) either means any place to stay or the type
    hotel; the count's *annotated* amount (the structure, not the text) says which: with
    type=hotel when that count is the annotated one, else without."""
    said = [v for v in ctx.variables if v.turn <= turn and v.domain == "hotel" and v.slot == "type"
            and v.value == "hotel" and v.kind is VariableKind.SLOT]  # fmt: skip
    if not said:
        return filters
    with_type = filters + [said[-1]]
    entities = ctx.kbs.get(kb_id) or []
    sure, possible = count_matches(entities, [f.slot for f in with_type], [f.value for f in with_type],
                                   [search_op(f) for f in with_type])  # fmt: skip
    return with_type if isinstance(amount.value, int) and sure <= amount.value <= possible else filters


def counted_noun(ctx, turn: int, amount: Variable, mine: list[Variable]) -> Variable | None:
    """The slot variable right after an amount that names what is counted ("2 *swimming
    pools*", "8 *guesthouses*"), when there is one."""
    if amount.span is None:
        return None
    for v in mine:
        if (v.kind is VariableKind.SLOT and v.span is not None and v.slot in SEARCH_COLUMNS
                and not is_generic(v.domain, v.slot, v.value)
                and 0 < v.span.start - amount.span.end <= 12 and not ctx.description(v)
                and re.fullmatch(r"[\s\w-]*", ctx.dialogue.turns[turn].utterance[amount.span.end : v.span.start])):
            if v.slot == "type" and more_kinds(ctx, turn, v.span.end, v.domain):
                return None  # "21 guesthouses and hotels": both kinds are counted
            return v  # fmt: skip
    return None


def more_kinds(ctx, turn: int, end: int, domain: str) -> bool:
    """Whether the kind named before ``end`` is joined to another ("21 guesthouses *and hotels*",
    "hotels or guesthouses"): the noun phrase counts several kinds, so it narrows to none."""
    m = re.match(r"\s*(?:and|or|&|/)\s+([\w-]+(?:\s+[\w-]+)?)", ctx.dialogue.turns[turn].utterance[end:])
    return bool(m) and any(ctx.lexicon.resolve(f"{domain}.type", p) for p in (m[1], m[1].split()[0]))


def counts(
    ctx, turn: int, domain: str, kb_id: str, mine: list[Variable], params: dict[str, str] | None,
    filters: list[Variable],
) -> list[Constraint]:
    """C6: an amount equals the number of entities matching the filters."""
    amounts = [v for v in mine if v.kind is VariableKind.AMOUNT]
    counts = [a for a in ctx.dialogue.turns[turn].acts if a.role is ActRole.COUNT and a.domain == domain]
    nouns = {a.name: counted_noun(ctx, turn, a, mine) for a in amounts} if params is None else {}
    kinds = {(n.slot, n.value) for n in nouns.values() if n is not None}
    told_apart = len(counts) == len(amounts) and all(nouns.values()) and len(kinds) == len(amounts) \
        and len({slot for slot, _ in kinds}) == 1  # "2 hotels and 8 guesthouses"
    if params is None and len(counts) > 1 and not told_apart:
        return []  # a breakdown ("2 in the centre, one in the north", "one at 17:23 and another"): each about a part
    if params is None:
        filters = without_denied(ctx, turn, domain, filters)
    family = broader_values(ctx, kb_id, filters) if params is None else None
    if family is not None:  # "eastern European": the DB's european and modern european
        unknown, values = family
        filters = [f for f in filters if f is not unknown]
        kb_id = values_table(ctx, kb_id, unknown.slot, values)
    out: list[Constraint] = []
    for amount in amounts:
        noun = nouns.get(amount.name)
        table = kb_id
        word = name_word_noun(ctx, turn, kb_id, amount, mine) if noun is None and params is None else None
        if word is not None:  # "four churches": no type of the table, a word of its entities' names
            types = {e.get("type") for e in ctx.kbs.get(kb_id) or []}
            filters = [f for f in filters if f.slot != "type" or f.value in types or f.value == "dontcare"]
            table = name_word_table(ctx, kb_id, word)
        elif noun is not None:  # "2 swimming pools", "8 guesthouses": the count is about that kind
            filters = [f for f in filters if f.slot != noun.slot] + [noun]
        elif params is None:  # "Three hotels come up" with no span on "hotels": the words still say the kind
            kind = noun_kind(ctx, turn, domain, kb_id, amount, filters)
            if kind is not None:
                filters = [f for f in filters if f.slot != "type"]
                table = kind_table(ctx, kb_id, kind)
        for slot, values in (listed_values(ctx, turn, kb_id, amount, mine, amounts) if params is None else {}).items():
            filters = [f for f in filters if f.slot != slot]  # "4 Indian restaurants … in the centre and north"
            table = values_table(ctx, table, slot, values)
        if params is None:
            per_day = day_of_daily_count(ctx, turn, table, amount, filters)
            if per_day == "":
                continue  # "3 trains a day" with no day known and days that differ: which day is not said
            if per_day is not None:  # "I have 3 trains a day that arrive by 10:30": one day's trains
                table = values_table(ctx, table, "day", [per_day])
        if table == kb_id and params is None and domain == "hotel" and not any(f.slot == "type" for f in filters):
            filters = hotel_sense(ctx, turn, kb_id, amount, filters)
        utterance = ctx.dialogue.turns[turn].utterance
        if amount.span is not None and params is None and amount.value == 1 and (
            re.match(r"\s*(?:that|which|of|available|option that|leaving|departing|arriving|called|named|tickets?|person|people|night|room)\b",
                     utterance[amount.span.end :])
            or re.search(r"\ba(?: \w+)?\s*$", utterance[: amount.span.start], re.I)
        ):
            continue  # "I have one that arrives at 19:07", "a great one called …": one of them, not a count
        if params is None and introduces_entity(ctx, turn, amount, mine):
            continue  # "I have one train leaving cambridge at 12:40 and arriving at 13:08": "a train"
        if params is None and not filters and ctx.state_names(turn, domain):
            continue  # "two restaurants: Pizza Express and Pizza Express Fen Ditton": a count of names
        if params is None and amount.value == 0 and unknown_value(ctx, turn, domain, kb_id):
            continue  # "zero findings for australasian food": no entity has a value the DB does not know
        if params is None and (turn, domain) in ctx.unlinked:
            continue  # a search constraint no variable mentions: the count's filter is not known
        if params is None:
            table, filters = other_reading(ctx, turn, domain, table, amount, filters)
        excluded = others_excluded(ctx, turn, domain, table, amount, filters) if params is None else 0
        next_day = next_day_within(ctx, table, filters) if params is None else 0
        out.append(
            Constraint(
                id=ConstraintId("C6"), variables=[f.name for f in filters], turn=turn, kb=table,
                columns=[f.slot for f in filters], count_variable=amount.name, ops=[search_op(f) for f in filters],
                count_excluded=excluded,
                count_next_day=next_day,
            )
        )
    return out


def unknown_value(ctx, turn: int, domain: str, kb_id: str) -> Variable | None:
    """A search value of ``domain`` that system turn ``turn`` or the user's turn before it names
    and KB table ``kb_id`` has in no entity, though the table has that column ("zero findings
    for *australasian* food"): a count of 0 about it holds (no entity has it), while the value
    itself is no filter (:meth:`~csp_check.build.context.BuildContext.description`). ``None``
    when every named value is one the table knows."""
    for v in [*ctx.by_turn.get(turn - 1, []), *ctx.by_turn.get(turn, [])]:
        if (v.kind is VariableKind.SLOT and v.domain == domain and v.slot in SEARCH_COLUMNS
                and isinstance(v.value, str) and v.value != "dontcare" and not is_generic(domain, v.slot, v.value)):
            vocab = ctx.vocab(kb_id, v.slot)
            if vocab and v.value not in vocab:
                return v
    return None


def broader_values(ctx, kb_id: str, filters: list[Variable]) -> tuple[Variable, list[str]] | None:
    """A search filter whose value KB table ``kb_id`` has in no entity though the column is
    closed and known (:meth:`~csp_check.build.context.BuildContext.description`), with the
    table's values that share its last word ("eastern european" → european, modern european;
    the wizard counts what the DB has of that family): ``(filter, values)``. A count is read over
    those values, the broadest reading the words allow. ``None``: every filter's value is one the
    table has, or no value shares the word ("light bites")."""
    for f in filters:
        if f.slot not in SEARCH_COLUMNS or not isinstance(f.value, str) or f.value == "dontcare":
            continue
        vocab = ctx.vocab(kb_id, f.slot)
        words = f.value.split()
        if not vocab or f.value in vocab or len(words) < 2:
            continue
        values = sorted(v for v in vocab if words[-1] in v.split())
        if values:
            return f, values
    return None


def without_denied(ctx, turn: int, domain: str, filters: list[Variable]) -> list[Variable]:
    """The count's filters less those of a slot the same system turn says no entity has, when
    the filter comes from an earlier turn: "There are 33 expensive establishments in the centre,
    none of which are catalan" (a no-result act on food) counts without the food the user asked
    for. A filter the turn states itself stays ("no cheap ones in the north, but 3 in the
    centre": the 3 are in the centre)."""
    denied = {a.slot for a in ctx.dialogue.turns[turn].acts
              if a.role is ActRole.NO_RESULT and a.domain == domain and a.slot}
    return [f for f in filters if f.slot not in denied or f.turn == turn]


#: A part of the counted set before a value in its sentence: "nine *of which* are guesthouses",
#: "3 of them", "some of which", "most of them", "mostly", "all but one".
_PART_BEFORE = re.compile(
    r"\b(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|some|most|many|several|a few|few|half)"
    r"\s+of\s+(?:which|them|these|those)|most(?:ly)?|all\s+(?:but|except)\s+(?:\d+|one|two|three|a few))\b", re.I)
#: "All of them are 4 star *with the exception of one*", "all … except two": the value holds for all but some.
_ALL_BUT_AFTER = re.compile(
    r"\b(?:except(?:\s+for)?|but|with\s+the\s+exception\s+of|other\s+than|save\s+for)\s+"
    r"(?:\d+|one|two|three|four|five|a\s+few|a\s+couple)\b", re.I)


def parts(ctx, turn: int, mine: list[Variable]) -> set[str]:
    """The names of the system's own informed values of turn ``turn`` that describe a *part* of
    the counted set, not the set: after a cue in their sentence ("ten options, nine of which are
    *guesthouses*", "some of which are cheap", "most of them", "mostly") or in an "all … except
    one" sentence ("7 fit. All of them are *4 star* with the exception of one"). Such a value is
    no filter of the count (a filter the user asked for earlier stays one)."""
    utterance = ctx.dialogue.turns[turn].utterance
    out: set[str] = set()
    for v in mine:
        if v.kind is not VariableKind.SLOT or v.span is None or v.turn != turn or v.speaker != "system":
            continue
        start, end = sentence_of(utterance, v.span)
        before, after = utterance[start : v.span.start], utterance[v.span.end : end]
        if _PART_BEFORE.search(before) or (re.search(r"\ball\b", before, re.I) and _ALL_BUT_AFTER.search(after)):
            out.add(v.name)
    return out


#: Words before "one" that make it a count ("only one", "just one", "there is one", "exactly one").
_COUNTED_ONE = re.compile(r"\b(?:only|just|exactly|single|there\s*(?:is|are|'s|was)|is|are)\s*$", re.I)


def introduces_entity(ctx, turn: int, amount: Variable, mine: list[Variable]) -> bool:
    """Whether an amount "one" is the indefinite that introduces the entity the turn offers, not
    a count of the matches: "I have one train leaving cambridge at 12:40 and arriving at 13:08"
    (after "the one that arrives closest to 13:45") says "I have a train …". It is when one of
    the turn's own spans gives that entity's identity or times (a name, a train id, a leave or
    arrive time; :data:`~csp_check.build.context.NOT_FILTERS`) within four words after "one" (its
    noun and a verb: "one train leaving cambridge at"), with no sentence or clause break
    between (punctuation, a dash: "I see one option - Grafton Hotel Restaurant" counts), and no word before "one" makes it a count (:data:`_COUNTED_ONE`: "there is only
    one train", "just one", "there is one train that …" stay counts)."""
    if amount.span is None or amount.value != 1:
        return False
    utterance = ctx.dialogue.turns[turn].utterance
    if _COUNTED_ONE.search(utterance[: amount.span.start]):
        return False
    for v in mine:
        if v.kind is not VariableKind.SLOT or v.span is None or v.slot not in NOT_FILTERS:
            continue
        between = utterance[amount.span.end : v.span.start]
        if v.span.start >= amount.span.end and len(between.split()) <= 4 and not re.search(r"[.,;:!?()]|\s[-–—]+\s", between):
            return True
    return False


#: Words that make an amount a count of *other* entities: "2 other places", "3 others", "4 more",
#: "2 additional", "2 further", "another 2", "the other 3", "6 earlier (options)", "3 later"; not "more than 4" / "4 or more" (bounds).
_OTHERS_AFTER = re.compile(r"\s+(?:other|others|more(?!\s+than)|additional|further|earlier|later)\b|\s+(?:[a-z-]+\s+){0,2}else\b", re.I)
_OTHERS_BEFORE = re.compile(r"\b(?:another|other|an\s+additional)\s*$", re.I)


def others_excluded(ctx, turn: int, domain: str, table: str, amount: Variable, filters: list[Variable]) -> int:
    """For an amount that counts *other* entities ("There are 2 other cheap Chinese places",
    "another 3", "4 more", "2 … else"; :data:`_OTHERS_AFTER`, :data:`_OTHERS_BEFORE`): how many
    entities named earlier in the dialogue or before the amount in its own turn ("Gallery at Twelve
    A High Street is … Would you like information for the other three?"; by either speaker: a
    name or train id of ``domain``)
    are in ``table`` and possibly match the count's ``filters``; those are what "other"
    leaves out. ``0`` for an amount without such words. The KB count then lies in
    ``[N, N + m]`` (:func:`count_bounds`), not exactly ``N + m``: which of the named ones the
    speaker sets aside (the one under discussion, or every one named) the words do not say."""
    if amount.span is None:
        return 0
    utterance = ctx.dialogue.turns[turn].utterance
    if not (_OTHERS_AFTER.match(utterance, amount.span.end) or _OTHERS_BEFORE.search(utterance[: amount.span.start])):
        return 0
    named = {(v.slot, v.value) for v in ctx.variables
             if v.domain == domain and v.kind is VariableKind.SLOT and isinstance(v.value, str)
             and _before(v, turn, amount) and _identifies(v)}  # fmt: skip
    values = [ctx.assignment.get(f.name, f.value) for f in filters]
    count = 0
    for entity in ctx.kbs.get(table) or []:
        if not any(entity.get(slot) == value for slot, value in named):
            continue
        _, possible = entity_match(entity, [f.slot for f in filters], values, [search_op(f) for f in filters])
        count += bool(possible)
    return count


def _before(v: Variable, turn: int, amount: Variable) -> bool:
    """Whether ``v`` is said before ``amount``: in an earlier turn, or earlier in its own turn
    ("Gallery at Twelve A High Street is … Would you like information for the other three?")."""
    if v.turn != turn:
        return v.turn < turn
    return v.span is not None and amount.span is not None and v.span.end <= amount.span.start


def _identifies(v: Variable) -> bool:
    """Whether ``v`` picks out the entities it is said of: a name or train id, or a train time
    the system offers ("a train that will arrive at 18:10 or one at 16:10. There are also 6
    earlier options")."""
    return names_entity(v.slot) or (v.speaker == "system" and v.slot in ("leaveAt", "arriveBy"))


def noun_kind(ctx, turn: int, domain: str, kb_id: str, amount: Variable, filters: list[Variable]) -> str | None:
    """The kind an amount's own noun counts when no span annotates it ("Three *hotels* come up
    for 4 stars", "5 4-star *guesthouses*"): a ``type`` value of the table (``hotel``,
    ``guesthouse``, ``museum``, …) written within three words after the amount (words and
    hyphens between: "4-star", "expensive"). The count is then about that kind, whatever type
    the request had ("a hotel or guesthouse"). "Hotels" may also mean any place to stay
    (:func:`~csp_check.build.context.is_generic`): it narrows the count only when the count's
    annotated amount is the number of hotels (as :func:`hotel_sense`). ``None``: no such noun,
    or it names the kind the request already filters by."""
    entities = ctx.kbs.get(kb_id) or []
    kinds = {e["type"] for e in entities if "type" in e}
    if amount.span is None or len(kinds) < 2:  # every restaurant is of type "restaurant": no kind to pick
        return None
    after = ctx.dialogue.turns[turn].utterance[amount.span.end :]
    m = re.match(r"((?:\s+[\w-]+){1,4})", after)
    if not m:
        return None
    words = m[1].split()
    keys = {wording_key("type", value): value for value in kinds}
    for i in range(len(words)):
        for phrase in (" ".join(words[i : i + 2]), words[i]):
            kind = keys.get(wording_key("type", phrase))
            if kind is None:
                continue
            said = re.search(rf"{re.escape(phrase)}", after)
            if said and more_kinds(ctx, turn, amount.span.end + said.end(), domain):
                return None  # "17 guesthouses and hotels": several kinds
            if any(f.slot == "type" and f.value == kind for f in filters):
                return None
            if is_generic(domain, "type", kind):
                narrowed = [f for f in filters if f.slot != "type"]
                sure, possible = count_matches([e for e in entities if e.get("type") == kind],
                                               [f.slot for f in narrowed], [f.value for f in narrowed],
                                               [search_op(f) for f in narrowed])  # fmt: skip
                if not (isinstance(amount.value, int) and sure <= amount.value <= possible):
                    return None
            return kind
    return None


#: A KB table restricted to several values of one column: ``f"{table}{LIST_MARK}{column}={a}|{b}"``
#: is the entities of ``table`` whose ``column`` is one of them (:func:`values_table`).
LIST_MARK = "|one of "


#: The columns whose listed values narrow a count to any of them (where, at what price); listed
#: kinds are examples ("44 attractions in the centre, colleges, architecture, museums").
_LISTED = frozenset({"area", "pricerange"})
#: Another number in a count's sentence (a digit or a number word up to twelve): a breakdown.
_ANOTHER_NUMBER = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I)


def listed_values(ctx, turn: int, kb_id: str, amount: Variable, mine: list[Variable],
                  amounts: list[Variable]) -> dict[str, list[str]]:
    """Column → the values the count's sentence lists for it, when it lists two or more of one
    area or price range (:data:`_LISTED`; "We have listings for 4 Indian restaurants in the cheap
    price range in the centre and north of town", "I have 5 guesthouses in the centre, east and
    west"): the count is of the entities with any of them. Only for a turn with one amount and
    a sentence with no other number (else a breakdown: "two in the centre and three in the
    west"), values the table has, informed in the amount's sentence."""
    if amount.span is None or len(amounts) != 1:
        return {}
    utterance = ctx.dialogue.turns[turn].utterance
    where = sentence_of(utterance, amount.span)
    rest = utterance[where[0] : amount.span.start] + " " + utterance[amount.span.end : where[1]]
    if _ANOTHER_NUMBER.search(rest):
        return {}  # "4 swimming pools in town, two on the northend, one on the eastside": a breakdown
    found: dict[str, set[str]] = defaultdict(set)
    for v in mine:
        if (v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.span is not None and v.slot in _LISTED
                and isinstance(said := ctx.assignment.get(v.name, v.value), str) and said in ctx.vocab(kb_id, v.slot)
                and sentence_of(utterance, v.span) == where):  # fmt: skip
            found[v.slot].add(said)  # what the text says (the table is fixed when the CSP is built)
    return {slot: sorted(values) for slot, values in found.items() if len(values) > 1}


def values_table(ctx, kb_id: str, column: str, values: list[str]) -> str:
    """The id of table ``kb_id`` restricted to entities whose ``column`` is one of ``values``
    (:data:`LIST_MARK`), added to the CSP's tables once: the checker and the solvers count the same rows."""
    table = f"{kb_id}{LIST_MARK}{column}={'|'.join(values)}"
    if table not in ctx.kbs:
        ctx.kbs[table] = [e for e in ctx.kbs.get(kb_id) or [] if e.get(column) in values]
    return table


#: A KB table restricted to the entities whose name has one word: ``f"{table}{NAME_WORD_MARK}{word}"``
#: (:func:`name_word_table`).
NAME_WORD_MARK = "|name has "


def name_word_noun(ctx, turn: int, kb_id: str, amount: Variable, mine: list[Variable]) -> str | None:
    """The name word a count's noun stands for when it is no ``type`` of the table but a word of
    its entities' names: "four *churches* in the centre" counts the attractions named "… church"
    (MultiWOZ has no type church; its churches are of type architecture). The noun is a ``type``
    span right after the amount (as :func:`counted_noun`'s, words only between) whose value the
    table's types lack (:meth:`~csp_check.build.context.BuildContext.description`), one word
    that some entity's name has. ``None`` otherwise."""
    entities = ctx.kbs.get(kb_id) or []
    if amount.span is None or not any("type" in e for e in entities):
        return None
    utterance = ctx.dialogue.turns[turn].utterance
    for v in mine:
        if (v.kind is not VariableKind.SLOT or v.slot != "type" or v.span is None or not isinstance(v.value, str)
                or not 0 < v.span.start - amount.span.end <= 12 or not ctx.description(v)
                or not re.fullmatch(r"[\s\w-]*", utterance[amount.span.end : v.span.start])):
            continue
        words = name_words(v.value)
        word = next(iter(words)) if len(words) == 1 else ""
        if word and any(word in name_words(e.get("name") or "") for e in entities):
            return word
    return None


def name_word_table(ctx, kb_id: str, word: str) -> str:
    """The id of table ``kb_id`` restricted to entities whose name has ``word``
    (:data:`NAME_WORD_MARK`, :func:`name_word_noun`), added to the CSP's tables once."""
    table = f"{kb_id}{NAME_WORD_MARK}{word}"
    if table not in ctx.kbs:
        ctx.kbs[table] = [e for e in ctx.kbs.get(kb_id) or [] if word in name_words(e.get("name") or "")]
    return table
