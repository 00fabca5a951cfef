"""How C6 reads a count's scope (:mod:`csp_check.families.c6_instance_count`): the bounds its
amount's words put on the KB count ("over 70", "about 70", "2 *other*", trains arriving after
midnight), and, under a belief-state search (:attr:`~csp_check.build.context.KbScope.state_search`,
MultiWOZ), which filters the count is about: the utterance's own values, a part of the counted
set set apart, a value asked for again or denied, the kind its noun names, the values it lists,
one day's entities, an amenity the user "doesn't need", the other readings of the state.

Each reading takes the :class:`~csp_check.build.context.BuildContext` (``ctx``) and reads the
corpus's columns from its profile (``ctx.profile``); the words it looks for are
:mod:`csp_check.language.scope_words`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from csp_check.corpora import CorpusProfile
from csp_check.families.kb_common import Restriction, Rows, TableView, after_midnight_within, derived
from csp_check.families.primitives import Bound, count_matches, entity_match
from csp_check.language.cues import approx_tolerance, sentence_of
from csp_check.language.normalize import name_words, wording_key
from csp_check.language.scope_words import (
    ALL_BUT_AFTER,
    ALL_WORD,
    ANOTHER_NUMBER,
    CLAUSE_BREAK,
    COUNTED_ONE,
    JOINED_KIND,
    NOT_NEEDED,
    OTHERS_AFTER,
    OTHERS_BEFORE,
    PART_BEFORE,
    PER_DAY,
    WORDS_AFTER,
    WORDS_ONLY,
)
from csp_check.models import ActRole, Value, Variable, VariableKind


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


def next_day_within(ctx, table: TableView, filters: list[Variable]) -> int:
    """How many entities of ``table`` matching ``filters`` arrive after midnight, on the next day
    ("01:44" for a train leaving 23:01: :func:`~csp_check.language.normalize.next_day_arrival`), at a
    clock time within the filters' "arrive by" bound: those a count made by comparing clock
    times includes (MultiWOZ's wizards did) and csp-check's day-aware comparison leaves out.
    ``0`` without such a bound. An arrival in hour 24 is left out: the DB writes those "24:06",
    which no clock bound meets. Spec §9 (time bounds); the values are read at build time, as
    :func:`others_excluded`'s."""
    said = [(f.slot, ctx.profile.search_op(f.slot), ctx.assignment.get(f.name, f.value)) for f in filters]
    return len(after_midnight_within(ctx.kbs.get(table.name) or [], said, "25:00", ctx.profile.arrival_column))


def without_requested(ctx, turn, domain: str, kb_id: str, mine: list[Variable], filters: list[Variable]) -> list[Variable]:
    """The search filters less the slots system turn ``turn`` (a :class:`~csp_check.models.Turn`)
    asks for again in ``domain`` ("I have 9 different italian restaurants. Do you have a
    preference on price range?", Request Price after the user had said expensive), when the
    turn has dropped them: its counts' *annotated* amounts (the structure, not the text, as
    :func:`generic_sense`) all agree with the KB without those filters and none with them. Else
    ``filters`` (MultiWOZ's wizards also ask again for a value they counted with)."""
    requested = {a.slot for a in turn.acts if a.role is ActRole.REQUEST and a.domain == domain and a.slot}
    kept = [f for f in filters if f.slot not in requested or f.speaker == "system" and f.turn == turn.index]
    amounts = [v.value for v in mine if v.kind is VariableKind.AMOUNT and isinstance(v.value, int)
               and not isinstance(v.value, bool)]  # fmt: skip
    if len(kept) == len(filters) or not amounts:
        return filters

    def fits(chosen: list[Variable], amount: int) -> bool:
        sure, possible = count_matches(ctx.kbs.get(kb_id) or [], [f.slot for f in chosen], [f.value for f in chosen],
                                       [ctx.profile.search_op(f.slot) for f in chosen])  # fmt: skip
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
    profile = ctx.profile
    own: dict[str, list[Variable]] = defaultdict(list)
    if ctx.select(turn, mine[0].domain if mine else "") or any(v.slot in profile.entity_columns for v in mine):
        return filters  # values of a named entity, or choices offered: not what was counted
    searched = set(ctx.state(turn, mine[0].domain)) if mine else set()
    for v in mine:
        if (v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.slot in columns
                and (v.slot in searched or v.slot in profile.domain_search.get(v.domain, ()))
                and (ctx.kb_claim(kb_id, v) or profile.is_generic(v.domain, v.slot, v.value))
                and v.slot in profile.search_columns):  # fmt: skip
            own[v.slot].append(v)
    single = {slot: vs[0] for slot, vs in own.items()  # one value, and not the word for any place
              if len({x.value for x in vs}) == 1 and not profile.is_generic(vs[0].domain, slot, vs[0].value)}
    # to stay: "21 guesthouses and hotels" names two kinds, so it filters by neither
    if not single:
        return filters
    kept = [f for f in filters if f.slot not in single]
    return kept + [v for slot, v in single.items()]


def fits(ctx, table: TableView, filters: list[Variable], amount: Variable) -> bool:
    """Whether the amount the text states (``amount``'s value, by its ``amount_op``) agrees with
    the count of ``table``'s entities matching ``filters`` (values as the text says them)."""
    said = ctx.assignment.get(amount.name, amount.value)
    if not isinstance(said, int) or isinstance(said, bool):
        return False
    sure, possible = count_matches(ctx.kbs.get(table.name) or [], [f.slot for f in filters],
                                   [ctx.assignment.get(f.name, f.value) for f in filters],
                                   [ctx.profile.search_op(f.slot) for f in filters])  # fmt: skip
    lo, hi = count_bounds(amount.amount_op, amount.name, said)
    return within(sure, possible, lo, hi, {amount.name: said})


def other_reading(ctx, turn: int, domain: str, table: TableView, amount: Variable,
                  filters: list[Variable]) -> tuple[TableView, list[Variable]]:
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
    readings: list[tuple[TableView, list[Variable]]] = []
    for f in filters:
        if f.speaker == "system" and f.turn < turn and f.role is ActRole.OFFER and not any(
                v.speaker == "user" and v.domain == f.domain and v.slot == f.slot and v.turn <= turn
                and ctx.assignment.get(v.name, v.value) == ctx.assignment.get(f.name, f.value) for v in ctx.variables):
            readings.append((table, [g for g in filters if g is not f]))
    tight = [v for v in ctx.unsaid_relaxations(turn, domain, {f.slot for f in filters} | set(ctx.profile.search_columns))
             if not any(f.slot == v.slot for f in filters)]
    if tight:
        readings.append((table, filters + tight))
    columns = {f.slot for f in filters}
    for t in ctx.dialogue.turns[:turn]:
        for m in NOT_NEEDED.finditer(t.utterance) if t.speaker == "user" else ():
            column = ctx.profile.amenities[m[1].lower()]
            if column not in columns and any(column in e for e in ctx.kbs.get(table.name) or []):
                readings.append((values_table(ctx, table, column, ["no"]), filters))
    for reading in readings:
        if fits(ctx, *reading, amount):
            return reading
    return table, filters


def day_of_daily_count(ctx, turn: int, table: TableView, amount: Variable, filters: list[Variable]) -> str | None:
    """The day whose entities a count said per day counts ("I have 3 trains a day that arrive by
    10:30", no day given yet): table ``table`` has a ``day`` column, no filter is on it, and the
    amount's words are followed within a few words by "a day" / "per day" / "each day" /
    "daily". The day is the one the belief state of the domain holds later in the dialogue (the
    user's travel day), else any day when every day has the same count. ``None``: no per-day
    count; ``""``: a per-day count whose day is not known and matters (no C6). The day is the
    profile's :attr:`~csp_check.corpora.CorpusProfile.day_column`."""
    day = ctx.profile.day_column
    entities = ctx.kbs.get(table.name) or []
    if amount.span is None or any(f.slot == day for f in filters) or not any(day in e for e in entities):
        return None
    utterance = ctx.dialogue.turns[turn].utterance
    if not PER_DAY.search(utterance[amount.span.end : sentence_of(utterance, amount.span)[1]]):
        return None
    domain = amount.domain
    later = next((vals[0] for t in ctx.dialogue.turns[turn:]
                  if len(vals := t.state.get(domain, {}).get(day) or []) == 1 and vals[0] != "dontcare"), None)
    days = sorted({e[day] for e in entities if e.get(day)})
    if later is not None and ctx.lexicon.canon(f"{domain}.{day}", later) in days:
        return ctx.lexicon.canon(f"{domain}.{day}", later)
    values = [ctx.assignment.get(f.name, f.value) for f in filters]
    ops = [ctx.profile.search_op(f.slot) for f in filters]
    counted = {count_matches([e for e in entities if e.get(day) == d], [f.slot for f in filters], values, ops)
               for d in days}
    return days[0] if len(counted) == 1 and days else ""


def named_values(ctx, turn: int, kb_id: str, mine: list[Variable],
                 filters: list[Variable]) -> tuple[list[Variable], TableView]:
    """``(filters, table)`` for a count whose turn names the counted entities and gives each its
    own value of a search column, none of them the value in force ("There are two restaurants.
    The Nirala which is moderate and the royal spice which is cheap" after "expensive"): the
    system dropped that filter and says so, so the count is of the entities with one of the
    values it gives (:func:`values_table`). Unchanged unless the turn has one amount and names
    that many entities, or when one of its values is the one in force."""
    profile = ctx.profile
    names = {v.value for v in mine if profile.names_entity(v.slot) and v.kind is VariableKind.SLOT}
    amounts = [ctx.assignment.get(v.name, v.value) for v in mine if v.kind is VariableKind.AMOUNT]
    if len(amounts) != 1 or amounts[0] != len(names):
        return filters, TableView(base=kb_id)  # the entities named are not the ones counted
    table = TableView(base=kb_id)
    for f in list(filters):
        if (f.slot not in profile.search_columns or profile.search_op(f.slot) != "=" or not isinstance(f.value, str)
                or f.value == "dontcare"):
            continue
        said = {x for v in mine if v.kind is VariableKind.SLOT and v.slot == f.slot and v.role is ActRole.INFORM
                and v.span is not None and isinstance(x := ctx.assignment.get(v.name, v.value), str)
                and x in ctx.vocab(kb_id, f.slot)}  # fmt: skip
        if said and ctx.assignment.get(f.name, f.value) not in said:
            filters = [g for g in filters if g is not f]
            table = values_table(ctx, table, f.slot, sorted(said))
    return filters, table


def generic_sense(ctx, turn: int, domain: str, kb_id: str, amount: Variable, filters: list[Variable]) -> list[Variable]:
    """A generic kind in a search of ``domain`` (:meth:`~csp_check.corpora.CorpusProfile.is_generic`:
    MultiWOZ's "hotel") either means any place to stay or the type hotel; the count's
    *annotated* amount (the structure, not the text) says which: with type=hotel when that count
    is the annotated one, else without."""
    said = [v for v in ctx.variables if v.turn <= turn and v.domain == domain
            and ctx.profile.is_generic(domain, v.slot, v.value) and v.kind is VariableKind.SLOT]  # fmt: skip
    if not said:
        return filters
    with_type = filters + [said[-1]]
    entities = ctx.kbs.get(kb_id) or []
    sure, possible = count_matches(entities, [f.slot for f in with_type], [f.value for f in with_type],
                                   [ctx.profile.search_op(f.slot) for f in with_type])  # fmt: skip
    return with_type if isinstance(amount.value, int) and sure <= amount.value <= possible else filters


def counted_noun(ctx, turn: int, amount: Variable, mine: list[Variable]) -> Variable | None:
    """The slot variable right after an amount that names what is counted ("2 *swimming
    pools*", "8 *guesthouses*"), when there is one."""
    if amount.span is None:
        return None
    profile = ctx.profile
    for v in mine:
        if (v.kind is VariableKind.SLOT and v.span is not None and v.slot in profile.search_columns
                and not profile.is_generic(v.domain, v.slot, v.value)
                and 0 < v.span.start - amount.span.end <= 12 and not ctx.description(v)
                and WORDS_ONLY.fullmatch(ctx.dialogue.turns[turn].utterance[amount.span.end : v.span.start])):
            if v.slot == profile.kind_column and more_kinds(ctx, turn, v.span.end, v.domain):
                return None  # "21 guesthouses and hotels": both kinds are counted
            return v  # fmt: skip
    return None


def more_kinds(ctx, turn: int, end: int, domain: str) -> bool:
    """Whether the kind named before ``end`` is joined to another ("21 guesthouses *and hotels*",
    "hotels or guesthouses"): the noun phrase counts several kinds, so it narrows to none."""
    m = JOINED_KIND.match(ctx.dialogue.turns[turn].utterance[end:])
    return m is not None and any(ctx.lexicon.resolve(f"{domain}.{ctx.profile.kind_column}", p) for p in (m[1], m[1].split()[0]))



def unknown_value(ctx, turn: int, domain: str, kb_id: str) -> Variable | None:
    """A search value of ``domain`` that system turn ``turn`` or the user's turn before it names
    and KB table ``kb_id`` has in no entity, though the table has that column ("zero findings
    for *australasian* food"): a count of 0 about it holds (no entity has it), while the value
    itself is no filter (:meth:`~csp_check.build.context.BuildContext.description`). ``None``
    when every named value is one the table knows."""
    for v in [*ctx.by_turn.get(turn - 1, []), *ctx.by_turn.get(turn, [])]:
        if (v.kind is VariableKind.SLOT and v.domain == domain and v.slot in ctx.profile.search_columns
                and isinstance(v.value, str) and v.value != "dontcare" and not ctx.profile.is_generic(domain, v.slot, v.value)):
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
        if f.slot not in ctx.profile.search_columns or not isinstance(f.value, str) or f.value == "dontcare":
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
        if PART_BEFORE.search(before) or (ALL_WORD.search(before) and ALL_BUT_AFTER.search(after)):
            out.add(v.name)
    return out


def introduces_entity(ctx, turn: int, amount: Variable, mine: list[Variable]) -> bool:
    """Whether an amount "one" is the indefinite that introduces the entity the turn offers, not
    a count of the matches: "I have one train leaving cambridge at 12:40 and arriving at 13:08"
    (after "the one that arrives closest to 13:45") says "I have a train …". It is when one of
    the turn's own spans gives that entity's identity or times (a name, a train id, a leave or
    arrive time; :attr:`~csp_check.corpora.CorpusProfile.not_filters`) within four words after "one" (its
    noun and a verb: "one train leaving cambridge at"), with no sentence or clause break
    between (punctuation, a dash: "I see one option - Grafton Hotel Restaurant" counts), and no
    word before "one" makes it a count (:data:`~csp_check.language.scope_words.COUNTED_ONE`:
    "there is only one train", "just one", "there is one train that …" stay counts)."""
    if amount.span is None or ctx.assignment.get(amount.name, amount.value) != 1:  # the text's amount
        return False
    utterance = ctx.dialogue.turns[turn].utterance
    if COUNTED_ONE.search(utterance[: amount.span.start]):
        return False
    for v in mine:
        if v.kind is not VariableKind.SLOT or v.span is None or v.slot not in ctx.profile.not_filters:
            continue
        between = utterance[amount.span.end : v.span.start]
        if v.span.start >= amount.span.end and len(between.split()) <= 4 and not CLAUSE_BREAK.search(between):
            return True
    return False


def others_excluded(ctx, turn: int, domain: str, table: TableView, amount: Variable, filters: list[Variable]) -> int:
    """For an amount that counts *other* entities ("There are 2 other cheap Chinese places",
    "another 3", "4 more", "2 … else"; :data:`~csp_check.language.scope_words.OTHERS_AFTER`,
    :data:`~csp_check.language.scope_words.OTHERS_BEFORE`): how many
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
    if not (OTHERS_AFTER.match(utterance, amount.span.end) or OTHERS_BEFORE.search(utterance[: amount.span.start])):
        return 0
    named = {(v.slot, v.value) for v in ctx.variables
             if v.domain == domain and v.kind is VariableKind.SLOT and isinstance(v.value, str)
             and _before(v, turn, amount) and _identifies(ctx.profile, v)}  # fmt: skip
    values = [ctx.assignment.get(f.name, f.value) for f in filters]
    count = 0
    for entity in ctx.kbs.get(table.name) or []:
        if not any(entity.get(slot) == value for slot, value in named):
            continue
        _, possible = entity_match(entity, [f.slot for f in filters], values, [ctx.profile.search_op(f.slot) for f in filters])
        count += bool(possible)
    return count


def _before(v: Variable, turn: int, amount: Variable) -> bool:
    """Whether ``v`` is said before ``amount``: in an earlier turn, or earlier in its own turn
    ("Gallery at Twelve A High Street is … Would you like information for the other three?")."""
    if v.turn != turn:
        return v.turn < turn
    return v.span is not None and amount.span is not None and v.span.end <= amount.span.start


def _identifies(profile: CorpusProfile, v: Variable) -> bool:
    """Whether ``v`` picks out the entities it is said of: a name or train id, or a train time
    (a bound of the ``profile``) the system offers ("a train that will arrive at 18:10 or one at
    16:10. There are also 6 earlier options")."""
    return profile.names_entity(v.slot) or (v.speaker == "system" and v.slot in profile.bounds)


def noun_kind(ctx, turn: int, domain: str, kb_id: str, amount: Variable, filters: list[Variable]) -> str | None:
    """The kind an amount's own noun counts when no span annotates it ("Three *hotels* come up
    for 4 stars", "5 4-star *guesthouses*"): a ``type`` value of the table (``hotel``,
    ``guesthouse``, ``museum``, …) written within three words after the amount (words and
    hyphens between: "4-star", "expensive"). The count is then about that kind, whatever type
    the request had ("a hotel or guesthouse"). "Hotels" may also mean any place to stay
    (:meth:`~csp_check.corpora.CorpusProfile.is_generic`): it narrows the count only when the
    count's annotated amount is the number of hotels (as :func:`generic_sense`). ``None``: no
    such noun, or it names the kind the request already filters by."""
    profile = ctx.profile
    column = profile.kind_column
    entities = ctx.kbs.get(kb_id) or []
    kinds = {e[column] for e in entities if column in e}
    if amount.span is None or len(kinds) < 2:  # every restaurant is of type "restaurant": no kind to pick
        return None
    after = ctx.dialogue.turns[turn].utterance[amount.span.end :]
    m = WORDS_AFTER.match(after)
    if not m:
        return None
    words = m[1].split()
    keys = {wording_key(column, value): value for value in kinds}
    for i in range(len(words)):
        for phrase in (" ".join(words[i : i + 2]), words[i]):
            kind = keys.get(wording_key(column, phrase))
            if kind is None:
                continue
            said = re.search(rf"{re.escape(phrase)}", after)
            if said and more_kinds(ctx, turn, amount.span.end + said.end(), domain):
                return None  # "17 guesthouses and hotels": several kinds
            if any(f.slot == column and f.value == kind for f in filters):
                return None
            if profile.is_generic(domain, column, kind):
                narrowed = [f for f in filters if f.slot != column]
                sure, possible = count_matches([e for e in entities if e.get(column) == kind],
                                               [f.slot for f in narrowed], [f.value for f in narrowed],
                                               [profile.search_op(f.slot) for f in narrowed])  # fmt: skip
                if not (isinstance(amount.value, int) and sure <= amount.value <= possible):
                    return None
            return kind
    return None


#: What :class:`OneOf` appends to a table's id: ``f"{table}{LIST_MARK}{column}={a}|{b}"``.
LIST_MARK = "|one of "


class OneOf(Restriction):
    """The entities whose ``column`` is one of ``values`` (:func:`values_table`)."""

    column: str
    values: tuple[str, ...]

    def rows(self, entities: Rows) -> Rows:
        return [e for e in entities if e.get(self.column) in self.values]

    def mark(self) -> str:
        return f"{LIST_MARK}{self.column}={'|'.join(self.values)}"


def listed_values(ctx, turn: int, kb_id: str, amount: Variable, mine: list[Variable],
                  amounts: list[Variable]) -> dict[str, list[str]]:
    """Column → the values the count's sentence lists for it, when it lists two or more of one
    area or price range (the profile's :attr:`~csp_check.corpora.CorpusProfile.listed_columns`; "We have listings for 4 Indian restaurants in the cheap
    price range in the centre and north of town", "I have 5 guesthouses in the centre, east and
    west"): the count is of the entities with any of them. Only for a turn with one amount and
    a sentence with no other number (else a breakdown: "two in the centre and three in the
    west"), values the table has, informed in the amount's sentence."""
    if amount.span is None or len(amounts) != 1:
        return {}
    utterance = ctx.dialogue.turns[turn].utterance
    where = sentence_of(utterance, amount.span)
    rest = utterance[where[0] : amount.span.start] + " " + utterance[amount.span.end : where[1]]
    if ANOTHER_NUMBER.search(rest):
        return {}  # "4 swimming pools in town, two on the northend, one on the eastside": a breakdown
    found: dict[str, set[str]] = defaultdict(set)
    for v in mine:
        if (v.kind is VariableKind.SLOT and v.role is ActRole.INFORM and v.span is not None
                and v.slot in ctx.profile.listed_columns
                and isinstance(said := ctx.assignment.get(v.name, v.value), str) and said in ctx.vocab(kb_id, v.slot)
                and sentence_of(utterance, v.span) == where):  # fmt: skip
            found[v.slot].add(said)  # what the text says (the table is fixed when the CSP is built)
    return {slot: sorted(values) for slot, values in found.items() if len(values) > 1}


def values_table(ctx, table: TableView, column: str, values: list[str]) -> TableView:
    """Table ``table`` restricted to entities whose ``column`` is one of ``values``
    (:class:`OneOf`), added to the CSP's tables once: the checker and the solvers count the same rows."""
    return derived(ctx, table, OneOf(column=column, values=tuple(values)))


#: What :class:`NameHas` appends to a table's id: ``f"{table}{NAME_WORD_MARK}{word}"``.
NAME_WORD_MARK = "|name has "


class NameHas(Restriction):
    """The entities whose name (``column``: the profile's
    :attr:`~csp_check.corpora.CorpusProfile.name_column`) has the word ``word`` (:func:`name_word_table`)."""

    column: str
    word: str

    def rows(self, entities: Rows) -> Rows:
        return [e for e in entities if self.word in name_words(e.get(self.column) or "")]

    def mark(self) -> str:
        return f"{NAME_WORD_MARK}{self.word}"


def name_word_noun(ctx, turn: int, kb_id: str, amount: Variable, mine: list[Variable]) -> str | None:
    """The name word a count's noun stands for when it is no ``type`` of the table but a word of
    its entities' names: "four *churches* in the centre" counts the attractions named "… church"
    (MultiWOZ has no type church; its churches are of type architecture). The noun is a ``type``
    span right after the amount (as :func:`counted_noun`'s, words only between) whose value the
    table's types lack (:meth:`~csp_check.build.context.BuildContext.description`), one word
    that some entity's name has. ``None`` otherwise."""
    kind, name = ctx.profile.kind_column, ctx.profile.name_column
    entities = ctx.kbs.get(kb_id) or []
    if amount.span is None or not any(kind in e for e in entities):
        return None
    utterance = ctx.dialogue.turns[turn].utterance
    for v in mine:
        if (v.kind is not VariableKind.SLOT or v.slot != kind or v.span is None or not isinstance(v.value, str)
                or not 0 < v.span.start - amount.span.end <= 12 or not ctx.description(v)
                or not WORDS_ONLY.fullmatch(utterance[amount.span.end : v.span.start])):
            continue
        words = name_words(v.value)
        word = next(iter(words)) if len(words) == 1 else ""
        if word and any(word in name_words(e.get(name) or "") for e in entities):
            return word
    return None


def name_word_table(ctx, table: TableView, word: str) -> TableView:
    """Table ``table`` restricted to entities whose name has ``word`` (:class:`NameHas`,
    :func:`name_word_noun`), added to the CSP's tables once."""
    return derived(ctx, table, NameHas(column=ctx.profile.name_column, word=word))
