"""Doubts about values (C1, C2 and true / false readings): part of the certainty rules of
:mod:`csp_check.check.certainty`, whose module docstring states them ("Reading rules"). Each rule
is ``rule(ctx, constraint, family, scope) -> reason | None``."""

from __future__ import annotations

import re
from collections import defaultdict

from csp_check.check.evaluate import satisfied
from csp_check.check.reading import CLOCK, WRITTEN_COLUMNS, excused, near, near_in, stated_anyway, utterance
from csp_check.families.primitives import DONTCARE
from csp_check.language import certainty as words
from csp_check.language.cue_words import SELF_CORRECTION
from csp_check.language.lexicon import ISO_DATE
from csp_check.language.normalize import normalize
from csp_check.models import ActRole, Constraint, Span, Variable, VariableKind


def one_turn_two_values(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: one speaker gives two different values of the slot in one turn ("I go to London, UK. i
    travelling to SF"): a correction or alternatives, not a contradiction the text settles."""
    if family != "C2":
        return None
    seen: dict[tuple[int, str], set[str]] = defaultdict(set)
    for v in scope:
        seen[(v.turn, v.speaker)].add(str(ctx.assignment.get(v.name)))
    turn = next((t for (t, _), values in seen.items() if len(values) > 1), None)
    return f"two values of the slot in one turn ({turn}): a correction or alternatives" if turn is not None else None



def corrected_by_system(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2, C5: a system value that a later system turn takes back (:data:`SELF_CORRECTION`: "Sorry,
    I made a mistake, the train ID is actually TR5678") by a value of the same slot said after
    those words in that turn (of the same domain, or of the slot in a sentence naming the claim's
    entity, or the entity its turn names: "I made a mistake, The Copper Kettle is actually in the
    centre" in a turn about attractions): the dialogue corrects its own claim, so the earlier one is no
    standing claim of the text (the later value is checked as any other). C5: only where the
    claim holds without the value taken back."""
    if family not in ("C2", "C5"):
        return None
    corrections = [(t.index, m.start()) for t in ctx.dialogue.turns if t.speaker == "system"
                   for m in SELF_CORRECTION.finditer(t.utterance)][:8]  # fmt: skip
    if not corrections:
        return None
    names = {normalize(str(ctx.assignment.get(v.name))) for v in scope if ctx.profile.names_entity(v.slot)}
    for v in scope if family == "C2" else [v for v in scope if v.turn == constraint.turn]:
        if v.speaker != "system" or v.span is None:
            continue
        said = ctx.assignment.get(v.name)
        named = names | {normalize(str(ctx.assignment.get(n.name))) for n in ctx.by_turn.get(v.turn, [])
                         if n.domain == v.domain and ctx.profile.names_entity(n.slot)}  # fmt: skip
        for turn, at in corrections:
            text = ctx.dialogue.turns[turn].utterance
            later = next((u for u in ctx.by_turn.get(turn, []) if turn > v.turn and u.speaker == "system"
                          and u.span is not None and u.span.start > at and ctx.assignment.get(u.name) != said
                          and (u.slot_type == v.slot_type or u.slot == v.slot and _names_one(text, u.span, named))),
                         None)  # fmt: skip
            if later is not None and excused(ctx, constraint, [v.name]):
                return f"turn {turn} takes back {v.slot_type}={said!r} (turn {v.turn}): the system corrects itself"
    return None


def _names_one(text: str, span: Span, names: set[str]) -> bool:
    """Whether the sentence of ``span`` names one of the entities ``names`` (normalised): a value of
    the slot said of that entity, whichever domain the reader gave the sentence."""
    start, end = words.sentence(text, span)
    said = f" {normalize(text[start:end])} "
    return any(name and f" {name} " in said for name in names)

#: Words that say a date is meant (a weekday, a month, a day's ordinal, "week", "tomorrow"): an
#: unread date, not a value of another kind written in a date's place.
DATE_WORDS = re.compile(r"(?i)\b(?:\d{1,2}(?:st|nd|rd|th)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|"
                        r"march|april|may|june|july|august|september|october|november|december|week|tomorrow|today|"
                        r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}/\d{1,2})\b")


def unread_date(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C1, C2, C5: a date slot's span (annotated with an ISO date) whose words the date reader
    cannot read as a date although they say one is meant (:data:`DATE_WORDS`: "the week after",
    "a week from Monday"): no sure value, so what it holds is for review, not taken as written."""
    if family not in ("C1", "C2", "C5"):
        return None
    for v in scope:
        said = ctx.assignment.get(v.name)
        if (v.span is not None and isinstance(v.value, str) and ISO_DATE.fullmatch(v.value)
                and isinstance(said, str) and not ISO_DATE.fullmatch(said) and DATE_WORDS.search(v.text or "")):
            return f"the date reader cannot read {v.text!r} (turn {v.turn}) as a date"
    return None


def contained_value(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: one value's words are all words of the other ("nandos" / "nandos city center", "european"
    / "modern european"): a short form or a broader word, which may name the same."""
    if family != "C2":
        return None
    values = {str(ctx.assignment.get(v.name)) for v in scope}
    for a in values:
        for b in values:
            if a != b and a and set(a.split()) < set(b.split()):
                return f"{a!r} may be a short form of {b!r}"
    return None


#: A time as written on the 12-hour clock without its period: a one-digit hour with no leading
#: zero ("1:45", "9:30"; the 24-hour clock writes "09:30", and "10:15" is read as written).
TWELVE_HOUR_TEXT = re.compile(r"\s*[1-9][:.]\d{2}\s*")


def twelve_hour(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: two times that are one on a 12-hour clock, one said without its period ("01:15" for
    13:15). C4 / C5 / C6: a time written on the 12-hour clock without its period
    (:data:`TWELVE_HOUR_TEXT`: "1:45", a one-digit hour with no leading zero) may be h or h + 12: an instance that holds
    with it 12 hours later ("leave after 1:45" for 13:45) is no sure clash."""
    if family in ("C4", "C5", "C6"):
        for v in scope:
            value = str(ctx.assignment.get(v.name, v.value))
            if not (v.text and TWELVE_HOUR_TEXT.fullmatch(v.text) and CLOCK.match(value)):
                continue
            later = f"{(int(value[:-3]) + 12) % 24:02d}:{value[-2:]}"
            if excused(ctx, constraint, [], {v.name: later}):
                return f"{v.text.strip()!r} has no am / pm: it may be {later}"
        return None
    if family != "C2":
        return None
    said = [(v, str(ctx.assignment.get(v.name))) for v in scope]
    clocks = [(v, x) for v, x in said if CLOCK.match(x)]
    if len(clocks) < 2 or len(clocks) != len(said):
        return None
    minutes = {int(x[:-3]) % 12 * 60 + int(x[-2:]) for _, x in clocks}
    bare = [v for v, _ in clocks if v.text and not re.search(r"(?i)\b(am|pm|a\.m|p\.m|morning|afternoon|evening|night)", v.text)]
    return f"a 12-hour time: {bare[0].text!r} (turn {bare[0].turn})" if len(minutes) == 1 and bare else None


def coreference_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: a side of the coreference asked, approximate, supposed, or (the system's) denied."""
    if family != "C2":
        return None
    for v in scope:
        if v.span is None:
            continue
        text = utterance(ctx, v)
        ask = words.asked_of_entity if v.speaker == "user" else words.asked  # "Could you book X?" requests X
        asked = None if v.speaker == "system" and stated_anyway(ctx, v) else ask(text, v.span)
        denied = words.denied(text, v.span) if v.speaker == "system" else None  # "I do not have one in the east"
        for reason in (asked, words.approximate(text, v.span), words.supposed(text, v.span), denied):
            if reason:
                return f"turn {v.turn} {reason}"
    return None


def lifted_between(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: a user turn from a user's mention on, before a later mention, lifts the slot ("I would
    like the north . Actually , anywhere is fine ."): the later value need not be the first."""
    if family != "C2":
        return None
    mentions = sorted((v for v in scope if v.span is not None), key=lambda v: (v.turn, v.span.start))
    users = [v for v in mentions if v.speaker == "user"]
    if not users or len(mentions) < 2:
        return None
    for turn in ctx.dialogue.turns[users[0].turn : mentions[-1].turn]:
        for reason, said, at in words.relaxations(turn.utterance) if turn.speaker == "user" else ():
            named = words.slots_named(said) or words.slots_named(ctx.dialogue.turns[turn.index - 1].utterance if turn.index else "")
            if users[0].slot in named and at >= (users[0].span.end if turn.index == users[0].turn else 0):
                return f"the user {reason} at turn {turn.index}"
    return None


def written_variants(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: mentions of a written value (phone, postcode, name, id) one edit apart or equal but for
    spaces ("01223327978" / "01223237978"): a typo, as for C1 and C5."""
    if family != "C2":
        return None
    said = sorted({str(ctx.assignment.get(v.name, v.value)) for v in scope if v.slot in WRITTEN_COLUMNS})
    if len(said) == 2 and near(said[0], said[1]):
        return f"{said[0]!r} and {said[1]!r} are surface variants of one value"
    return None


def value_variant(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C1: a written value one edit from a value of its column in the KB: a typo, not a wrong type."""
    if family != "C1":
        return None
    for v in scope:
        if v.slot in WRITTEN_COLUMNS and v.span is not None:
            mine = str(ctx.assignment.get(v.name, v.value))
            for e in ctx.kbs.get(v.domain) or []:
                if e.get(v.slot) and near_in(mine, e[v.slot]):
                    return f"{v.slot} {mine!r} is a surface variant of {e[v.slot]!r}"
    return None


def categorical_paraphrase(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C1: a closed (categorical) slot's text that is none of its values: a paraphrase ("an
    amusement park" for Theme Park) cannot be told from an error; another value of the slot can."""
    if family != "C1":
        return None
    for v in scope:
        closed = ctx.dialogue.ontology.get(v.slot_type)
        said = ctx.assignment.get(v.name)
        if closed and v.span is not None and isinstance(said, str) and said not in {normalize(x) for x in closed}:
            return f"{v.text!r} is no value of the closed slot {v.slot_type}: a paraphrase of one of them?"
    return None


BOOLEAN_SCOPE = re.compile(r"\b(not both|either|without)\b", re.I)


def boolean_scope(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """A true / false value read where a negation's or a choice's scope is not settled: in a
    sentence with "not both" (one of them is missing, not which) or "either" (a choice), or
    before a "without" of its sentence ("with wifi but without parking": the "without" may not
    reach it). A negation over a coordination is settled ("without X and Y", "neither X nor Y":
    both)."""
    for v in scope:
        if v.span is None or str(ctx.assignment.get(v.name)) not in ("true", "false", "yes", "no"):
            continue
        text = utterance(ctx, v)
        start, end = words.sentence(text, v.span)
        for m in BOOLEAN_SCOPE.finditer(text, start, end):
            if m.group(1).lower() != "without" or m.start() >= v.span.end:
                return f"a negation or choice of unclear scope: {text[start:end].strip()!r} ({m.group(0)!r})"
    return None


def negotiated(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: a value changed after a booking or search failed between the mentions ("for fewer
    nights, then"): a negotiation, not a contradiction. A new try is someone's: the new value
    (none of those said before the failure) is said by the user or proposed by the system (an
    offer) from the failing turn on; a value only restated after it ("Your table is booked. That
    is for 4 people.") tries nothing."""
    if family != "C2":
        return None
    turns = sorted({v.turn for v in scope})
    if len(turns) < 2:
        return None
    domain = scope[0].domain
    for t in range(turns[0], turns[-1]):
        if any(a.role in (ActRole.FAILED, ActRole.NO_RESULT) and a.domain == domain for a in ctx.dialogue.turns[t].acts):
            before = {str(ctx.assignment.get(v.name)) for v in scope if v.turn < t}
            if any(v.turn >= t and str(ctx.assignment.get(v.name)) not in before
                   and (v.speaker == "user" or v.role is ActRole.OFFER) for v in scope):
                return f"the {domain} booking or search failed at turn {t}: the values after it may be a new try"
    return None


#: Words of a user's fallback: what follows is asked if the first value finds nothing ("if not,
#: then the centre", "otherwise", "failing that", "or else").
FALLBACK = re.compile(r"\b(if not|if there (?:is|are) (?:none|nothing|not)|if (?:that|it) (?:is|'s) not|otherwise|failing that|or else|"
                      r"if (?:you|they) (?:ca|do|does) ?n[o']t have|if none)\b", re.I)


def fallback_given(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: the other value is the user's fallback, said after "if not", "otherwise", … in a user
    turn up to the later mention ("a guesthouse in the west, if not then the centre"): both were
    asked."""
    if family != "C2":
        return None
    values = {str(ctx.assignment.get(v.name)) for v in scope}
    last = max(v.turn for v in scope)
    for turn in ctx.dialogue.turns[: last + 1]:
        if turn.speaker != "user" or not (m := FALLBACK.search(turn.utterance)):
            continue
        after = f" {normalize(turn.utterance[m.end():])} "
        for x in values:
            if f" {normalize(x)} " in after or x == "center" and " centre " in after:
                return f"the user's fallback at turn {turn.index}: {turn.utterance[m.start():].strip()!r}"
    return None


#: The time slots of a trip by what they time: leaving (``leaveAt``, ``departure_time``,
#: ``pickup_time``) or arriving (``arriveBy``, ``arrival_time``).
TIME_SLOTS = {"leave": re.compile(r"leave|depart|pick|start", re.I), "arrive": re.compile(r"arriv", re.I)}


def annotation_defect(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """Any family: a span whose words cannot be a value of its slot (not of its shape, or
    function words only: :func:`csp_check.language.certainty.not_a_value`), a value no span
    gives whose annotated words are not of the slot's shape (MultiWOZ's train id "V" with no
    span; not a time: an API call's "tonight" is a reading), or a time whose verb
    gives it the other slot of the trip ("arrives in London at 11:07" annotated as a departure
    time: :func:`csp_check.language.certainty.time_role`): the annotation gave the words the wrong
    slot, or its offsets went stale. Excused only what breaks by it: a C5 / C6 instance that holds
    without the variable, or (a time) with it read as the slot its verb gives. Words read as
    "dontcare" ("any") are checked so only for a slot whose values have no dontcare (a train id)."""
    reread: dict[str, str] = {}
    for v in scope:
        if (v.span is None and v.kind is VariableKind.SLOT and ctx.assignment.get(v.name) != DONTCARE
                and not words.TIME_SLOT.search(v.slot)):  # a spanless time ("tonight" of an API call) is a reading
            value = str(ctx.assignment.get(v.name, v.value))  # no words say it: the annotation's value, by its shape
            if (reason := words.not_a_value(v.slot, value)) and excused(ctx, constraint, [v.name]):
                return reason.replace("the span's words", "the annotated value (no span)")
            continue
        if (v.span is None or v.kind is not VariableKind.SLOT
                or (ctx.assignment.get(v.name) == DONTCARE and DONTCARE in ctx.csp.domains.get(v.slot_type, ()))):
            continue  # "any" of a slot that takes dontcare is a reading; of one that takes none ("any" as a train id), a defect
        if (reason := words.not_a_value(v.slot, v.text)) and excused(ctx, constraint, [v.name]):
            return reason
        if other := _time_slot_said(ctx, v):
            reread[v.name] = other
    if reread and _holds_as(ctx, constraint, reread):
        v = next(v for v in scope if v.name in reread)
        return f"the time {v.text!r} is said as {reread[v.name]}, annotated {v.slot}: annotation defect"
    return None


def _time_slot_said(ctx, v: Variable) -> str | None:
    """The other time slot of ``v``'s domain when ``v`` is a clock time of one trip time slot and
    the verb before it gives the other ("leaving … and arriving … at 13:51" annotated leaveAt),
    unless the turn says the same words elsewhere as the annotated slot (the span is another
    occurrence of the value)."""
    if not CLOCK.match(str(ctx.assignment.get(v.name, v.value))) or not words.TIME_SLOT.search(v.slot):
        return None
    mine = next((role for role, slot in TIME_SLOTS.items() if slot.search(v.slot)), None)
    text = utterance(ctx, v)
    said = words.time_role(text, v.span)
    if mine is None or said is None or said == mine or TIME_SLOTS[said].search(v.slot):
        return None
    if any(words.time_role(text, Span(start=m.start(), end=m.end())) == mine
           for m in re.finditer(re.escape(v.text or ""), text) if m.start() != v.span.start):
        return None  # "leaving at 9:16 … you will arrive by 9:16": the annotation's value is said so too, another span
    prefix = f"{v.domain}."
    slots = [t[len(prefix):] for t in sorted(ctx.csp.domains) if t.startswith(prefix)]
    slots += [s for pair in ctx.profile.trip_times if v.slot in pair for s in pair if s not in slots]  # the trip's
    # other time even where the dialogue annotates none ("arriving … at 13:51" the only arrival, annotated leaveAt)
    return next((s for s in slots if words.TIME_SLOT.search(s) and TIME_SLOTS[said].search(s)
                 and not TIME_SLOTS[mine].search(s)), None)


def _holds_as(ctx, constraint: Constraint, columns_of: dict[str, str]) -> bool:
    """Whether a C5 / C6 instance holds with each variable of ``columns_of`` read as a value of
    its column there (a bound turned with it: "after" a leaving time is "by" an arrival); other
    families: always."""
    if str(constraint.id) not in ("C5", "C6") or not set(columns_of) & set(constraint.variables):
        return True
    columns = list(constraint.columns)
    ops = list(constraint.ops or ["="] * len(columns))
    for i, name in enumerate(constraint.variables):
        if name in columns_of:
            columns[i], ops[i] = columns_of[name], {">=": "<=", "<=": ">="}.get(ops[i], ops[i])
    return satisfied(constraint.model_copy(update={"columns": columns, "ops": ops}), ctx.assignment, ctx.csp)
