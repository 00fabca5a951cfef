"""How sure the reading a broken constraint instance rests on is: :func:`assess` gives the reason
an instance is *uncertain*, or ``None`` when its reading is settled. A broken uncertain instance
is reported for review (``Violation.certain`` false), not counted as an inconsistency.

Every broken instance is assessed when its dialogue's report is made
(:func:`csp_check.pipeline.report_for`), whatever its family: the rules read the variables it rests on — those of the turn that claims
(the *claim*) and those that say what was asked (the *filters*: the scope's variables of other
turns) — with the rules of English in :mod:`csp_check.language.certainty`. A family that knows
more sets ``Constraint.uncertain`` itself; the first reason found is kept.

Reading rules

- **The claim is asked, supposed or denied.** A claim variable in a question is asked, not
  stated, unless the question proposes an entity by name in its sentence ("How about Idian?"
  still says Idian exists), its act confirms ("So you want X, right?"), or the corpus's system
  acts commit to their values (SGD: ``CorpusProfile.system_values_stated``; so too a count in a
  question, and a system value after "I'm looking for"); one under "if" is supposed; an offer (C5) inside "there are no …" / "could not
  find …" denies, it does not offer (a true / false value is no offer denied: "they don't
  have wifi" states has_wifi=False). A C5 claim whose stated part alone (the instance without
  the asked, supposed or denied variables and their columns) no entity has stays certain:
  "Their address is 1991 Santa Rita Road. Shall I try for 2 at 12 pm?" states the address; so
  does a C6 count that fails without them too ("around 8 in the centre . Were you looking for
  architecture?" where 5 are architecture and 44 in the centre).
- **The amount is not exact** (C6): a vague amount ("several"), an increment ("3 more"), a rating
  ("4 out of 5"), a count of coordinated kinds ("hotels and guesthouses"), an amount with a name
  ("one guesthouse called X", unless the count fits the named entity by no reading), and a count whose sentence names a value of the table that is no
  filter ("four with free entrance" where entrance fee is no filter; a value inside an entity's
  name does not count): which entities are counted is not settled. A count supposed ("If you're
  going to Cambridge, I have 5 trains") is uncertain where it holds without the supposed filter;
  an offer so supposed ("If not, I recommend X") still claims X. An "if" after a verb of finding
  out ("see if", "check if") asks whether: it supposes nothing.
- **A vague bound** (C6): a count said as a strict bound ("over 13", "more than 20", "under 5")
  where the KB's count is the amount or within a tenth of it (at least 1): "over 13" for 13 may
  round it; a bound the KB misses by more ("over 287" where 252 match) stays certain.
- **Listed values** (C6): the count's sentence lists two or more values of a column that is no
  filter ("5 guesthouses in the centre, east and west"), or its turn, from the count's sentence
  on, names values of a filter's column none of which is the filter's ("two restaurants. The
  Nirala which is moderate and the Royal Spice which is cheap" after "expensive"): the count may
  be of the entities with those values; uncertain when it holds so.
- **A filter's source is unsure.** A filter the user only asked about ("Is it cheap?"), supposed
  ("if not, then …"), said approximately ("around 20:45"), or lifted later ("anywhere is fine",
  "no preference") in a user turn before the claim — a value said after the relaxation, in a
  later sentence or turn, is asked anew ("I don't care either way . It has to be cheap .") —; a
  search filter only the system introduced
  (the user never said its value; an entity's name the system gave is no search filter).
- **Surface variants** (C5): a name, phone, postcode, address or id one edit away from the value
  of an entity that has the rest of the claim ("cv11ln" for cb11ln, "265" for "365 milton
  road", "tr588" for tr5588), or equal to it but for spaces: a typo, not another entity. The
  KB's value is taken in either spelling of "center" / "centre", "theater" / "theatre"
  ("nandos city cnetre" for nandos city center).
- **A proposed alternative** (C5): after a failed transaction (SGD ``NOTIFY_FAILURE``), a value
  the system offers for a slot of the failed call ("I could not book it. How about 6 pm
  instead?") proposes a new try, it does not say an entity has it: with the rest of the claim
  true of some entity, the instance is uncertain. What the turn informs ("Their address is …")
  is still a claim. Where the failed call itself returned entities and the corpus's system acts
  state their values (SGD: the service answers a failed booking with the alternative it has),
  the proposal states that alternative: no new try, a claim.
- **Binding** (C5): a claim whose variables lie in different sentences of a turn that names
  more than one entity: which entity an attribute is said of is not settled (a name no entity
  has is false by every binding: certain). A claim value said
  again, denied, in the sentence of another ("There is international food in the east. The south
  has many cuisines but no international food."): the turn says the two do not go together.
- **Bound to another entity** (C2, C5, C6): a system value said in a sentence naming no entity,
  of a turn naming several, that one of them has ("… Alimentum is another option . It's a moderate
  restaurant ." after "expensive"): it may be said of that one, not restate what was asked, nor
  filter a later claim that holds without it.
- **An unread date** (C1, C2, C5): a date slot's span whose words the date reader
  (:mod:`csp_check.language.dates`, :func:`csp_check.language.normalize.date_key`) does not read
  as a date though its words say one is meant (a weekday, a month, an ordinal, "week"): no sure
  value, for review.
- **Written variants** (C2): two mentions of a phone, postcode, name or id one edit apart: a typo.
- **A requested time** (C5): a system time equal to a time the user asked for, said after
  "after", "by" or "before": the bound repeated, not the entity's time.
- **What ties the values** (C5, C6): a count's filter said in another sentence of its turn
  ("There are 13 attractions in the west. There are several museums."; any one or more of
  them may be no filter), a turn's values that fit
  another entity than the one named in an earlier turn when the user searched anew since ("How
  about a nightclub?"), a value that begins a street's name ("east road"): uncertain where
  another reading holds.
- **Another domain's kind** (C4–C6): the claim's sentence names a kind of another domain and
  none of its own ("there are no night clubs on the west" read as hotels; a count's sentence,
  "There are 9 restaurants" annotated for attractions; a no-result's turn where it says no value;
  a domain names itself, a kind its table never has is none of its own); a user's filter whose
  sentence does so ("I also need a cheap hotel" read for an attraction), or that the two words
  after it give such a kind in a sentence naming both ("a restaurant called X I also need a
  expensive hotel"), or names no kind and
  answers a question that does ("What price range would you like the persian restaurant to
  be?" — "Also expensive." read for a hotel); a kind after "as the", "near the" ("the same
  price range as the hotel") is a reference point. Uncertain where the instance holds without it.
- **An annotation defect** (any family): a span whose words are not a value of its slot's kind —
  not of its shape ("cb21ad" or "yes" as a phone, "v", "1097" or "any" as a train id, which is TR and its digits: "any" is a
  dontcare only of a slot whose values have one) or function words only
  ("for", "in and", "a few others" as a name) — or a clock time whose verb gives it the other
  slot of the trip ("leaving at 13:00 and arriving … at 13:51" with 13:51 annotated as the
  departure, unless the turn says the same time as a departure too; the other slot is the trip's
  even where the dialogue annotates none of it): the annotation gave the
  words the wrong slot, or its offsets went stale. Excused only what breaks by it (a C5 / C6
  instance that holds without the variable, or with the time read as its verb gives).
- **The reader was unsure** (any family): a variable whose act carries a doubt
  (``DialogueAct.doubt``: the raw-text annotator's guess).
- **A full result** (C6): a count above what the KB result holds, where the result is as full
  as the corpus's results get (SGD: 10, ``CorpusProfile.results_cap``): the entities left out
  may make it up ("I found 12" beside 10 results; "10" there claims "10 or more"). A count below
  what the result holds is refuted all the same.
- **An alternative after a no-result** (C5, C6): an offer or a count in a system turn that says,
  or follows a system turn that said, that nothing matches (or that a booking failed), which holds
  with one or two of what was asked lifted, among them a slot the failed turn named: the system
  proposes alternatives.
- **Two values in one turn** (C2): one speaker gives the slot two values in one turn: a
  correction or alternatives.
- **A paraphrase of a closed value** (C1): a categorical slot's text that is none of its values
  ("an amusement park" for Theme Park); another value of the slot stays certain.
- **Negation or choice of unclear scope** (any family): a true / false value read in a sentence
  with "not both" or "either", or before a "without" of its sentence; a negation over a
  coordination is settled ("without X and Y", "neither X nor Y": both).
- **Negotiation** (C2): the domain's booking or search failed between the mentions: the later
  value may be a new try ("for fewer nights, then"), where the user says it or the system offers
  it from the failing turn on (a value only restated after the failure tries nothing).
- **A fallback** (C2): the other value is one the user asked after "if not", "otherwise", "failing
  that" ("a guesthouse in the west, if not then the centre"): both were asked.
- **A short form** (C2): one value's words all words of the other ("nandos" and "nandos city
  center", "european" and "modern european").
- **A 12-hour time** (C2): two times the same on a 12-hour clock, one said without am / pm
  ("01:15" for 13:15). C4 / C5 / C6: a time written with a one-digit hour, no leading zero and no
  am / pm ("1:45") may be h or h + 12: an instance that holds with it 12 hours later is uncertain.
- **Coreference across a question or an approximation** (C2): one side asked or approximate.
- **Lifted between** (C2): a user turn from the user's mention on lifts the slot ("… in the
  north . Actually , anywhere is fine ."): a later value need not restate the first.
- **The system corrects itself** (C2, C5): a later system turn takes the value back ("Sorry, I
  made a mistake, … is actually …") with another value of its slot: the earlier is no claim.
- **An alternative said as one** (C2, C5): a system value, unlike what the user asked, that is the
  KB's value of the one entity its turn names, said with a contrast ("… in the north , not the
  south , I 'm afraid"; "though"): the system offers an alternative, and later offers of it repeat it.
- **The user went back** (C2, C5): the claim's entity was offered before what it breaks was asked,
  and a user turn since returns to it ("let's go back to the first one"): no claim of that search.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from csp_check.check.binding_doubts import (
    alternative_after_no_result,
    alternative_said,
    binding_unsettled,
    bound_in_the_turn,
    bound_to_another,
    denied_in_the_turn,
    filter_of_another_domain,
    lifted_later,
    other_domain_kind,
    went_back,
)
from csp_check.check.count_doubts import listed_values, vague_bound
from csp_check.check.reading import (
    CLOCK,
    KB_FAMILIES,
    WRITTEN_COLUMNS,
    WRITTEN_WORDS,
    Reading,
    claim_of,
    excused,
    filters_of,
    near_in,
    rest_holds,
    spellings,
    stated_anyway,
    utterance,
)
from csp_check.check.value_doubts import (
    annotation_defect,
    boolean_scope,
    categorical_paraphrase,
    contained_value,
    coreference_unsettled,
    corrected_by_system,
    fallback_given,
    lifted_between,
    negotiated,
    one_turn_two_values,
    twelve_hour,
    unread_date,
    value_variant,
    written_variants,
)
from csp_check.families import registry
from csp_check.families.primitives import count_matches
from csp_check.language import certainty as words
from csp_check.language.cues import BOOLEAN, approx_tolerance
from csp_check.language.normalize import normalize
from csp_check.models import ActRole, Constraint, Variable, VariableKind

CALLED = re.compile(r"^\s*(?:[a-z'-]+\s+){0,3}?(called|named)\b", re.I)
#: Words between a count and "called" that give the name to one of those counted ("2 alarms including one called X").
PART_OF = re.compile(r"\b(including|of which|among (?:them|which)|one of)\b", re.I)
BOUND_WORDS = re.compile(r"\b(after|by|before|until|no later than|not later than)\s*$", re.I)
#: Values that say nothing of an entity's kind or place (an amenity's yes / no, a missing cell).
NO_VALUE = frozenset({"yes", "no", "dontcare", "none", "?"})
#: Words before a value that make it the spread of a set, not a filter ("ranging from free to …").
RANGE_WORDS = re.compile(r"\b(from|between|ranging|range|to)\s+$")


def assess(ctx: Reading, constraint: Constraint) -> str | None:
    """The reason ``constraint``'s reading is uncertain, or ``None`` (module doc): the family's
    own (``Constraint.uncertain``) first, then the first of :data:`RULES`'."""
    if constraint.uncertain is not None:
        return constraint.uncertain
    family = str(constraint.id)
    by_name = {v.name: v for v in ctx.variables}
    scope = [by_name[n] for n in constraint.scope if n in by_name]
    for rule in RULES:
        reason = rule(ctx, constraint, family, scope)
        if reason:
            return reason
    return None


def claim_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """The claim is asked (without naming an entity), supposed, or — for an offer — denied; a
    count's filter denied in another sentence of its turn, when the count holds without it."""
    if family not in KB_FAMILIES:
        return None
    claim = claim_of(constraint, scope)
    unsettled: dict[str, str] = {}
    for v in claim:
        text = utterance(ctx, v)
        names = any(ctx.profile.names_entity(w.slot) and words.sentence(text, w.span) == words.sentence(text, v.span)
                    for w in claim)
        if not names and not stated_anyway(ctx, v) and (reason := words.asked(text, v.span)):
            unsettled[v.name] = reason
        elif v.speaker == "system" and not stated_anyway(ctx, v) and (reason := words.wanted(text, v.span)):
            unsettled[v.name] = reason  # "I would like a guesthouse with free parking": a request, no claim
        elif (family != "C5" and (reason := words.supposed(text, v.span))
              and (v.kind is VariableKind.AMOUNT or excused(ctx, constraint, [v.name]))):
            unsettled[v.name] = reason  # "If you're going to Cambridge, I have 5 trains": the count's search is supposed
        elif (family == "C5" and v.kind is VariableKind.SLOT and str(ctx.assignment.get(v.name)) not in BOOLEAN
              and (reason := words.denied(text, v.span))):  # "they don't have wifi" states has_wifi=False
            unsettled[v.name] = reason
    if family == "C6" and not unsettled:  # "two hotels fit. Sorry, there is not one with 2 stars": not of 2 stars
        amount = next((v for v in claim if v.name == getattr(constraint, "count_variable", None)), None)
        for v in claim:
            text = utterance(ctx, v)
            if (amount is not None and v is not amount and v.kind is VariableKind.SLOT
                    and words.sentence(text, v.span) != words.sentence(text, amount.span)
                    and (reason := words.denied(text, v.span)) and excused(ctx, constraint, [v.name])):
                return f"a filter of another sentence {reason}"
    if not unsettled:
        return None
    if family == "C5" and not rest_holds(ctx, constraint, set(unsettled)):
        return None  # what the turn states, without what it asks, supposes or denies, is false already
    if (family == "C6" and getattr(constraint, "count_variable", None) not in unsettled
            and not excused(ctx, constraint, list(unsettled))):
        return None  # "there are around 8 in the centre . Were you looking for architecture ?": 8 is false either way
    return next(iter(unsettled.values()))


def amount_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C6: the amount is vague, an increment, a rating, of coordinated kinds or of a named entity;
    the count has no filter; its sentence names a value that is no filter."""
    if family != "C6":
        return None
    amount = next((v for v in scope if v.name == getattr(constraint, "count_variable", None)), None)
    if amount is None or amount.span is None:
        return None
    text = utterance(ctx, amount)
    asked = None if stated_anyway(ctx, amount) else words.asked(text, amount.span)  # SGD: "How about X from 4 flights?" states 4
    for reason in (words.vague_amount(amount.text), words.not_a_total(text, amount.span),
                   words.coordinated(text, amount.span), asked):
        if reason and not _no_reading(ctx, constraint, amount, text, reason):
            return reason
    if (m := CALLED.match(text[amount.span.end :])) and not PART_OF.search(m.group(0)):
        named = _name_after(ctx, constraint, text[amount.span.end + m.end() :])
        rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
        if named is None or holds_with(ctx, constraint, [e for e in rows if e.get(named[0]) == named[1]]):
            return f"a count with a name: {text[amount.span.start:amount.span.end + m.end()].strip()!r}"
    return _unfiltered_value(ctx, constraint, amount, text)


def full_result(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C6: a count above what a full result (``CorpusProfile.results_cap``) holds."""
    cap = ctx.profile.results_cap
    if family != "C6" or cap is None:
        return None
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    amount = ctx.assignment.get(getattr(constraint, "count_variable", ""))
    if len(rows) < cap or not isinstance(amount, int):
        return None
    op = ctx.csp.variable(constraint.count_variable).amount_op
    if op in ("<", "<="):
        return None
    lowest = amount + 1 if op == ">" else amount - approx_tolerance(amount) if op == "~" else amount
    values = [ctx.assignment.get(n) for n in constraint.variables]
    _, possible = count_matches(rows, getattr(constraint, "columns", []), values, getattr(constraint, "ops", None))
    if lowest > possible:
        return f"the result is full ({len(rows)} entities, as many as a result holds): a count of {amount} is not refuted"
    return None


def _unfiltered_value(ctx, constraint: Constraint, amount: Variable, text: str) -> str | None:
    """A value of a search column of the count's table, said in the count's sentence but no filter,
    under which the count holds (:func:`holds_with`): the count may be of those entities."""
    start, end = words.sentence(text, amount.span)
    sentence = list(text[start:end])
    for v in ctx.by_turn.get(amount.turn, []):  # a value inside a name ("Arbury Lodge Guesthouse") is the name's
        if v.span is not None and ctx.profile.names_entity(v.slot) and start <= v.span.start < end:
            sentence[v.span.start - start : v.span.end - start] = " " * (v.span.end - v.span.start)
    said = f" {_words(''.join(sentence))} "
    filtered = set(getattr(constraint, "columns", []))
    for step in getattr(constraint.table, "restrictions", ()):  # a kind, a list of values: filters too
        filtered.add(getattr(step, "column", None) or ctx.profile.kind_column)
    filter_values = {str(ctx.assignment.get(n)) for n in constraint.variables}
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    if not rows:
        return None
    columns = set(ctx.profile.search_columns) or set(rows[0])
    for column in sorted(columns - filtered):
        values = {e.get(column) for e in rows} - filter_values
        for value in sorted(x for x in values if x and len(x) >= 4 and not x.isdigit() and x not in NO_VALUE):
            at = said.find(f" {value} ")
            if at < 0 or RANGE_WORDS.search(said[:at]):
                continue  # not said, or said as the spread of the set ("fees ranging from free to 2 pounds")
            if holds_with(ctx, constraint, [e for e in rows if e.get(column) in (None, value)]):
                return f"the count's sentence says {column}={value!r}, which is no filter; with it the count holds"
    return None


def holds_with(ctx, constraint: Constraint, rows: list[dict[str, str]]) -> bool:
    """Whether ``constraint`` holds when its table has only ``rows`` (another reading of what it counts)."""
    kb = getattr(constraint, "kb", "")
    variant = ctx.csp.model_copy(update={"kbs": {**ctx.kbs, kb: rows}})
    return registry.get(constraint.id).satisfied(constraint, ctx.assignment, variant)


def filter_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """A filter asked, supposed, approximate, lifted later, or only the system's."""
    if family not in KB_FAMILIES:
        return None
    if family == "C5" and not _claim_exists(ctx, constraint):
        return None  # what the claim says alone no entity has: what was asked does not matter
    for v in filters_of(constraint, scope):
        if v.span is None or v.speaker != "user":
            continue
        text = utterance(ctx, v)
        for reason in (words.asked_of_entity(text, v.span), words.supposed(text, v.span),
                       words.approximate(text, v.span)):
            if reason and excused(ctx, constraint, [v.name]):
                return f"filter {v.slot_type} {reason}"
    claim_turn = constraint.turn if constraint.turn is not None else len(ctx.dialogue.turns)
    if reason := lifted_later(ctx, constraint, scope, claim_turn):
        return reason
    for v in filters_of(constraint, scope):
        if (v.speaker == "system" and v.kind is VariableKind.SLOT and not ctx.profile.names_entity(v.slot)
                and not _user_said(ctx, v, claim_turn) and excused(ctx, constraint, [v.name])):
            return f"filter {v.slot_type}={v.value!r} only the system introduced (turn {v.turn})"
    return None


def _claim_exists(ctx, constraint: Constraint) -> bool:
    """Whether some entity of the instance's table has every value the claim's turn says."""
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    said = {col: ctx.assignment.get(n) for col, n in zip(getattr(constraint, "columns", []), constraint.variables)
            if ctx.csp.variable(n).turn == constraint.turn}
    return any(all(e.get(c) in (None, x) or x == "dontcare" for c, x in said.items()) for e in rows)


def _user_said(ctx, v: Variable, before: int) -> bool:
    return any(u.speaker == "user" and u.slot_type == v.slot_type and u.value == v.value and u.turn <= before
               for u in ctx.variables)


def surface_variant(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: a written value one edit from an entity's that has the rest of the claim."""
    if family != "C5":
        return None
    columns, names = getattr(constraint, "columns", []), constraint.variables
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    for column, name in zip(columns, names):
        if not (column in WRITTEN_COLUMNS or ctx.profile.names_entity(column) or WRITTEN_WORDS.search(column)):
            continue
        mine = str(ctx.assignment.get(name, ""))
        if len(names) == 1 and ctx.profile.names_entity(column) and len(mine) < 7:
            continue  # a short id alone ("tr8912"): its one-edit neighbours are other entities
        var = ctx.csp.variable(name)
        said = {mine, normalize(var.text or "")} - {""}  # "nandos city cenrte" read as the entity nandos
        for e in rows:
            theirs = e.get(column) or ""
            if (theirs and any(near_in(x, form) for x in said for form in spellings(theirs))
                    and excused(ctx, constraint, [], {name: theirs})):
                return f"{column} {(var.text or mine)!r} is a surface variant of {theirs!r}"
    return None


def proposed_alternative(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: values offered for the failed call's slots after a failed transaction, the rest true."""
    if family != "C5" or constraint.turn is None:
        return None
    turn = ctx.dialogue.turns[constraint.turn]
    if not any(a.role is ActRole.FAILED for a in turn.acts):
        return None
    if ctx.profile.system_values_stated and any(r.call is not None and r.entities for r in turn.kb_results):
        return None  # SGD: the failed call returned the alternative; the proposal states it
    calls = turn.kb_results or next((t.kb_results for t in reversed(ctx.dialogue.turns[: turn.index]) if t.kb_results), [])
    slots = {p for r in calls for p in r.call.parameters}
    proposed = [v for v in claim_of(constraint, scope) if v.role is ActRole.OFFER and v.slot in slots]
    if not proposed:
        return None
    if rest_holds(ctx, constraint, {v.name for v in proposed}):
        said = ", ".join(f"{v.slot}={v.text!r}" for v in proposed)
        return f"a proposed alternative after a failed transaction (turn {turn.index}): {said}"
    return None


def requested_time(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: a system time that repeats the user's bound ("the first train after 17:45")."""
    if family != "C5":
        return None
    for v in claim_of(constraint, scope):
        value = str(ctx.assignment.get(v.name, v.value))
        if not CLOCK.match(value) or not BOUND_WORDS.search(utterance(ctx, v)[: v.span.start]):
            continue
        if any(u.speaker == "user" and str(ctx.assignment.get(u.name, u.value)) == value for u in ctx.variables
               if u.turn < v.turn) and excused(ctx, constraint, [v.name]):
            return f"the time {value} repeats the user's bound"
    return None


def _count_fits(ctx, constraint: Constraint, amount: Variable, put: dict[str, str]) -> bool:
    """Whether a count's amount fits the KB count with the filters ``put`` (column → value) set:
    what another reading of its scope counts. An amount that is not exact always fits."""
    value = ctx.assignment.get(amount.name)
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    if amount.amount_op != "=" or not isinstance(value, int) or not rows:
        return True
    cols, ops = list(constraint.columns), list(constraint.ops or ["="] * len(constraint.columns))
    vals = [ctx.assignment.get(n) for n in constraint.variables]
    for column, x in put.items():
        if column in cols:
            vals[cols.index(column)], ops[cols.index(column)] = x, "="
        else:
            cols, vals, ops = [*cols, column], [*vals, x], [*ops, "="]
    sure, possible = count_matches(rows, cols, vals, ops)
    return sure - constraint.count_excluded <= value <= possible + constraint.count_next_day


def _no_reading(ctx, constraint: Constraint, amount: Variable, text: str, reason: str) -> bool:
    """Whether an increment or a count of coordinated kinds fits no reading: "N more" with N past
    every entity that matches; "N hotels and guesthouses" with N neither kind's count nor their
    sum (the kinds values of one column of the table). Other reasons: ``False``."""
    value = ctx.assignment.get(amount.name)
    if not isinstance(value, int) or amount.amount_op != "=":
        return False
    if reason.startswith("an increment"):
        return not _count_fits(ctx, constraint, amount, {}) and value > count_matches(
            ctx.kbs.get(constraint.kb) or [], constraint.columns,
            [ctx.assignment.get(n) for n in constraint.variables], constraint.ops)[1] + constraint.count_next_day
    kinds = words.coordinated_kinds(text, amount.span) if reason.startswith("a count of coordinated") else None
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    if not kinds or not rows:
        return False
    for column in sorted({c for e in rows for c in e}):
        values = {e.get(column) for e in rows}
        found = [next((x for x in words.singulars(k) if x in values), None) for k in kinds]
        if None in found:
            continue
        ranges = []
        for kind in found:
            cols, vals, ops = list(constraint.columns), [ctx.assignment.get(n) for n in constraint.variables], list(
                constraint.ops or ["="] * len(constraint.columns))
            if column in cols:
                vals[cols.index(column)] = kind
            else:
                cols, vals, ops = [*cols, column], [*vals, kind], [*ops, "="]
            ranges.append(count_matches(rows, cols, vals, ops))
        total = (sum(r[0] for r in ranges), sum(r[1] for r in ranges))
        return not any(lo - constraint.count_excluded <= value <= hi + constraint.count_next_day
                       for lo, hi in [*ranges, total])
    return False


def _name_after(ctx, constraint: Constraint, rest: str) -> tuple[str, str] | None:
    """(column, name) of an entity of the count's table whose name ``rest`` (the words after
    "called") starts with: "called X" names the entity, whichever column holds X (MultiWOZ
    ``name``, SGD ``restaurant_name``, ``title``, …); values of fewer than 4 letters name nothing."""
    said = f"{_words(rest)} "
    rows = ctx.kbs.get(getattr(constraint, "kb", ""), [])
    names = sorted({(e[c], c) for e in rows for c in e if e[c] and len(e[c]) >= 4 and not e[c].isdigit()},
                   key=lambda p: (len(p[0]), p))
    return next(((c, n) for n, c in reversed(names) if said.startswith(f"{_words(n)} ")), None)


def _words(text: str) -> str:
    """``text`` normalised, its words apart from the punctuation after them ("west, do" → "west do"):
    a value or name is found in a sentence word by word."""
    return " ".join(re.findall(r"[\w'&]+", normalize(text)))


def kind_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C1, C2, C5, C6: a kind said by a generic word ("place", "attraction", "venue"), or by a
    hypernym of a kind ("entertainment" for a cinema, "hotel" for a guesthouse): no kind in
    particular is said. A generic word refers back to the kind under discussion (the last kind
    said of its domain before it); a hypernym names each kind under it, or that kind. An offer or
    a count resting on such a word (its claim, or a filter it set) is excused only if it holds
    with one of those kinds (or with no kind, for a generic word): what breaks by every reading
    is still an error."""
    if family not in ("C1", "C2", "C5", "C6"):
        return None
    for v in scope:
        if v.slot != ctx.profile.kind_column or v.span is None:
            continue
        said = (v.text or "").strip().lower()
        value = str(ctx.assignment.get(v.name, v.value))
        before = _kind_before(ctx, v)
        if reason := words.generic_kind(said):
            if excused(ctx, constraint, [v.name]) or any(excused(ctx, constraint, [], {v.name: k}) for k in before):
                return reason
        if value != said and said.rstrip("s") != value:
            continue
        for kind in sorted(words.HYPERNYMS.get(value, frozenset()) | set(before)) if value in words.HYPERNYMS else ():
            if excused(ctx, constraint, [], {v.name: kind}):
                return f"a hypernym: {said!r} names {kind!r} too"
    return None


def _kind_before(ctx, v: Variable) -> list[str]:
    """The kinds under discussion when ``v`` is said: the last kind of its domain said before its
    turn in words that are no generic word, and the one the belief state holds (:func:`_kind_in_state`)."""
    earlier = [u for u in ctx.variables if u.slot_type == v.slot_type and u.turn < v.turn and u.span is not None
               and not words.generic_kind(u.text) and str(ctx.assignment.get(u.name, u.value)) not in NO_VALUE]
    last = max(earlier, key=lambda u: (u.turn, u.span.start), default=None)
    kinds = [str(ctx.assignment.get(last.name, last.value))] if last else []
    return kinds + [k for k in _kind_in_state(ctx, v) if k not in kinds]


def _kind_in_state(ctx, v: Variable) -> list[str]:
    """The kind the belief state holds for ``v``'s domain at the last user turn before ``v``'s,
    where a user turn's words say it ("How about a concert hall?" annotated by the state alone,
    no span): the kind under discussion too."""
    users = [t for t in ctx.dialogue.turns[: v.turn] if t.speaker == "user"]
    if not users:
        return []
    values = users[-1].state.get(v.domain, {}).get(v.slot) or []
    said = " ".join(re.sub(r"\s+", "", t.utterance.lower()) for t in users)
    return [k for k in values[:1] if k not in NO_VALUE and re.sub(r"\s+", "", k.lower()) in said]


def doubtful_variable(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """A variable whose act its reader or annotator was unsure of (``Variable.doubt``)."""
    return next((f"{v.name} {v.doubt}" for v in scope if v.doubt), None)


Rule = Callable[..., str | None]
#: The rules :func:`assess` applies, in order; the first reason found is the instance's.
RULES: Iterable[Rule] = (doubtful_variable, annotation_defect, other_domain_kind, bound_in_the_turn, claim_unsettled, amount_unsettled, vague_bound, listed_values, full_result, filter_unsettled, filter_of_another_domain,
                         surface_variant, proposed_alternative, alternative_said, went_back, binding_unsettled, denied_in_the_turn, requested_time, coreference_unsettled, lifted_between, written_variants, bound_to_another,
                         value_variant, kind_unsettled, twelve_hour, one_turn_two_values, alternative_after_no_result,
                         contained_value, unread_date, categorical_paraphrase, boolean_scope, negotiated, fallback_given,
                         corrected_by_system)
