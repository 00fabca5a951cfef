"""Pairs for issue 18's classes of round 31 on annotated MultiWOZ, in the form of
:mod:`csp_check.faults.twins` (``(dialogue, kb, rng) -> (fault, twin) | None``): the *fault*
writes an error into the text (it must be flagged certain), the *twin* the same place with no
error of the dialogue (it must not be flagged certain). What makes each an error is decided from
the KB alone.

=============  ==========================================================================
class          fault (an error) / twin (no error)
=============  ==========================================================================
booked_time    a booking confirmation naming one train by its id and saying its leaving
               or arriving time ("I booked TR8531 … arrives at 19:44"): the time made one
               no row of that id has / the same time on the 12-hour clock ("7:44 pm")
lone_arrival   a system train turn that says an arrival time with its verb ("arriving …
               at 13:51"), the dialogue's only arrival annotated: its act given the leaving
               slot (an annotation defect, the twin) / the time in the text made one the
               train does not arrive at, the act as annotated (the fault)
other_detail   a system turn naming one entity and giving its phone, postcode or address:
               the value made another entity's of the table (a whole value, no typo of
               the entity's own) / the entity's own value with its digits grouped or its
               words in capitals ("01223 902158", "CB1 7DY", "REGENT STREET")
shared_value   a system sentence naming entities "X and Y" ("X , Y and Z") of one table:
               ", both in the <area>" ("all") added after the last, the area annotated: an
               area X has and another lacks (the fault) / ", both <price range> in price"
               (or the area) that all have (the twin)
part_count     a turn of several counts whose later count in digits has its own value right
               after it ("2 are guesthouses", "3 in the north") and is the KB's count of the
               search in force with that value: made 3 more (fault) / said in words (twin)
wrong_domain   an exact count the KB confirms whose next words name its kind ("9 restaurants",
               "14 guesthouses"): its sentence's count and inform acts given another domain
               (the twin: an annotation defect, the text still says the kind) / the count
               said "under K", K so far below that no reading makes it (the fault)
over_exact     an exact count the KB confirms ("I have 5 guesthouses") said "over 5"
               (the twin: a vague amount, "over 5" for 5) / "under K", K so far below the
               KB's count that no rounding makes it, nor lifting a filter (the fault)
=============  ==========================================================================
"""

from __future__ import annotations

import random
import re

from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.primitives import count_matches
from csp_check.faults.twins import Generator, Pair, edit, insert
from csp_check.language.certainty import time_role
from csp_check.language.cues import sentence_of, time_bound_op
from csp_check.models import CSP, ActRole, Dialogue, KnowledgeBase, Variable, VariableKind
from csp_check.pipeline import dialogue_csp

CLOCK = re.compile(r"^\d\d:\d\d$")
TIMES = ("leaveAt", "arriveBy")


def _shifted(time: str, minutes: int) -> str:
    h, m = map(int, time.split(":"))
    t = (h * 60 + m + minutes) % (24 * 60)
    return f"{t // 60:02d}:{t % 60:02d}"


def _twelve_hour(time: str) -> str:
    h, m = map(int, time.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'pm' if 12 <= h < 24 else 'am'}"


def booked_time(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A booked train's time (the id named in the turn) moved to one no row of the id has
    (fault), or said on the 12-hour clock (twin)."""
    csp = dialogue_csp(dialogue, kb)
    rows = csp.kbs.get("train") or []
    options = []
    for t in dialogue.turns:
        if t.speaker != "system" or not any(a.role is ActRole.BOOKED and a.domain == "train" for a in t.acts):
            continue
        mine = [v for v in csp.variables if v.turn == t.index and v.domain == "train" and v.span is not None]
        ids = {str(csp.assignment.get(v.name)).upper() for v in mine if v.slot == "trainID"}
        if len(ids) != 1:
            continue
        own = [e for e in rows if str(e.get("trainID", "")).upper() in ids]
        for v in mine:
            said = str(csp.assignment.get(v.name))
            if (v.slot not in TIMES or v.role not in (ActRole.BOOKED, ActRole.INFORM) or not CLOCK.match(said)
                    or time_bound_op(t.utterance, v.span) or said not in {e.get(v.slot) for e in own}
                    or not re.fullmatch(r"\d\d:\d\d", t.utterance[v.span.start : v.span.end])
                    or int(said[:2]) in (0, 12, 24)):
                continue
            taken = {e.get(v.slot) for e in own}
            wrong = [w for w in (_shifted(said, d) for d in (60, -60, 17, -23)) if w not in taken]
            if wrong:
                options.append((v, said, rng.choice(wrong)))
    if not options:
        return None
    v, said, wrong = rng.choice(options)
    return edit(dialogue, v.turn, v.span, wrong), edit(dialogue, v.turn, v.span, _twelve_hour(said))


def lone_arrival(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """The dialogue's one annotated arrival time, said with an arrival verb in a system turn
    that names a train id: annotated as the leaving time (twin) or moved in the text (fault)."""
    csp = dialogue_csp(dialogue, kb)
    arrivals = [v for v in csp.variables if v.domain == "train" and v.slot == "arriveBy"]
    if len(arrivals) != 1 or arrivals[0].speaker != "system" or arrivals[0].span is None:
        return None
    v = arrivals[0]
    text = dialogue.turns[v.turn].utterance
    said = str(csp.assignment.get(v.name))
    ids = {str(csp.assignment.get(x.name)).upper() for x in csp.variables
           if x.turn == v.turn and x.slot == "trainID" and x.span is not None}
    own = [e for e in csp.kbs.get("train") or [] if str(e.get("trainID", "")).upper() in ids]
    if (len(ids) != 1 or not CLOCK.match(said) or time_role(text, v.span) != "arrive" or time_bound_op(text, v.span)
            or said not in {e.get("arriveBy") for e in own} or text[v.span.start : v.span.end] != said):
        return None
    wrong = [w for w in (_shifted(said, d) for d in (60, -60, 29)) if w not in {e.get("arriveBy") for e in own}]
    if not wrong:
        return None
    fault = edit(dialogue, v.turn, v.span, rng.choice(wrong))
    twin = dialogue.model_copy(deep=True)
    for a in twin.turns[v.turn].acts:
        if a.span == v.span and a.slot == "arriveBy":
            a.slot = "leaveAt"
    return fault, twin


DETAILS = ("phone", "postcode", "address")


def _far(a: str, b: str) -> bool:
    """Whether two written values share no word and differ in three characters or more."""
    a, b = a.lower(), b.lower()
    return not set(a.split()) & set(b.split()) and sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b)) >= 3


def _own_form(slot: str, value: str) -> str:
    """``value`` written another way that says the same: a phone in groups, a postcode with its
    space, an address in capitals."""
    if slot == "phone" and len(value) == 11 and value.isdigit():
        return f"{value[:5]} {value[5:]}"
    if slot == "postcode" and len(value) >= 5:
        return f"{value[:-3]} {value[-3:]}".upper()
    return value.upper()


def other_detail(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A named entity's phone, postcode or address made another entity's (fault) or written
    another way (twin)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for t in dialogue.turns:
        if t.speaker != "system":
            continue
        mine = [v for v in csp.variables if v.turn == t.index and v.span is not None]
        names = {str(csp.assignment.get(v.name)) for v in mine if v.slot == "name"}
        if len(names) != 1:
            continue
        for v in mine:
            rows = csp.kbs.get(v.domain) or []
            own = [e for e in rows if e.get("name") in names]
            said = str(csp.assignment.get(v.name))
            if (v.slot not in DETAILS or len(own) != 1 or own[0].get(v.slot) != said or v.role not in (ActRole.INFORM, ActRole.OFFER)
                    or t.utterance[v.span.start : v.span.end].lower() != said):
                continue
            taken = [e.get(v.slot, "") for e in rows]
            others = sorted({x for x in taken if x and _far(x, said) and taken.count(x) == 1
                             and not any(x != y and set(x.split()) < set(y.split()) for y in taken if y)})
            if others:
                options.append((v, said, rng.choice(others)))
    if not options:
        return None
    v, said, other = rng.choice(options)
    return edit(dialogue, v.turn, v.span, other), edit(dialogue, v.turn, v.span, _own_form(v.slot, said))


SHARED_PHRASES = {"area": " , both in the {}", "pricerange": " , both {} in price"}


def shared_value(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Names "X and Y" given a value together: one another lacks (fault), one all have (twin)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for t in dialogue.turns:
        if t.speaker != "system":
            continue
        names = sorted((v for v in csp.variables if v.turn == t.index and v.slot == "name" and v.span is not None
                        and v.domain in ("restaurant", "hotel", "attraction")), key=lambda v: v.span.start)
        runs: list[list] = []
        for v in names:
            if runs and runs[-1][-1].domain == v.domain and t.utterance[runs[-1][-1].span.end : v.span.start].strip().lower() in (",", "and", ", and"):
                runs[-1].append(v)
            else:
                runs.append([v])
        for run in runs:
            rows = csp.kbs.get(run[0].domain) or []
            found = [[e for e in rows if e.get("name") == csp.assignment.get(v.name)] for v in run]
            act = next((a for a in t.acts if a.span == run[-1].span and a.slot == "name"), None)
            if (len(run) < 2 or any(len(f) != 1 for f in found) or act is None
                    or any(a.slot in SHARED_PHRASES and a.span is not None for a in t.acts)):
                continue
            ents = [f[0] for f in found]
            same = [c for c in SHARED_PHRASES if ents[0].get(c) and all(e.get(c) == ents[0][c] for e in ents)]
            differ = [c for c in SHARED_PHRASES if all(e.get(c) for e in ents) and len({e[c] for e in ents}) > 1]
            if same and differ:
                options.append((t.index, act, run[-1], len(run), same[0], ents[0][same[0]], differ[0], ents[0][differ[0]]))
    if not options:
        return None
    turn, name_act, y, size, good, good_value, bad, bad_value = rng.choice(options)

    def said(column: str, value: str) -> Dialogue:
        phrase = SHARED_PHRASES[column].format(value).replace("both", "both" if size == 2 else "all")
        act = name_act.model_copy(update={"slot": column, "value": value, "canonical": value, "role": ActRole.INFORM})
        return insert(dialogue, turn, y.span.end, phrase, ((act, value),))

    return said(bad, bad_value), said(good, good_value)


NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
PART_COLUMNS = ("area", "pricerange", "type", "stars", "food")


def part_count(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A part of a turn's several counts, true under the state's search with its own value: made
    3 more (fault) or said in words (twin)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for t in dialogue.turns:
        if t.speaker != "system":
            continue
        amounts = sorted((v for v in csp.variables if v.turn == t.index and v.kind is VariableKind.AMOUNT and v.span is not None),
                         key=lambda v: v.span.start)
        if len(amounts) < 2 or len({v.domain for v in amounts}) != 1:
            continue
        domain = amounts[0].domain
        state = dialogue.turns[t.index - 1].state.get(domain, {}) if t.index else {}
        search = {k: vs[0] for k, vs in state.items() if vs and vs[0] not in ("", "none", "not mentioned", "dontcare")
                  and k in PART_COLUMNS}
        rows = csp.kbs.get(domain) or []
        for a in amounts[1:]:
            words = t.utterance[a.span.start : a.span.end]
            own = [v for v in csp.variables if v.turn == t.index and v.span is not None and v.slot in PART_COLUMNS
                   and 0 <= v.span.start - a.span.end <= 20]
            n = csp.assignment.get(a.name)
            if not words.isdigit() or not isinstance(n, int) or n >= len(NUMBER_WORDS) or len(own) != 1:
                continue
            filters = {**search, own[0].slot: str(csp.assignment.get(own[0].name))}
            if sum(all(e.get(k) == x for k, x in filters.items()) for e in rows) == n:
                options.append((a, n))
    if not options:
        return None
    a, n = rng.choice(options)
    return edit(dialogue, a.turn, a.span, str(n + 3)), edit(dialogue, a.turn, a.span, NUMBER_WORDS[n])


OTHER_DOMAIN = {"hotel": "restaurant", "restaurant": "attraction", "attraction": "hotel", "train": "hotel"}
KIND_AFTER = re.compile(r"^\s+(?:[a-z]+\s+){0,2}?(restaurants|hotels|guesthouses|guest houses|trains|museums|colleges|"
                        r"churches|theatres|cinemas|nightclubs|parks|attractions)\b", re.I)


def _system_counts(csp: CSP) -> list[tuple[CountInstance, Variable]]:
    """``(count instance, its amount variable)`` of every count the system says at a span."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        amount = by_name.get(c.count_variable) if isinstance(c, CountInstance) else None
        if amount is not None and amount.span is not None and amount.speaker == "system":
            out.append((c, amount))
    return out


def wrong_domain(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A count naming its kind, its acts given another domain (twin) or said "under K" (fault)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, amount in _system_counts(csp):
        if amount.domain not in OTHER_DOMAIN:
            continue
        text = dialogue.turns[amount.turn].utterance
        n = csp.assignment.get(amount.name)
        if not text[amount.span.start : amount.span.end].isdigit() or not isinstance(n, int) or not KIND_AFTER.match(text[amount.span.end :]):
            continue
        start, end = sentence_of(text, amount.span)
        said = [a for a in dialogue.turns[amount.turn].acts if a.span is not None and start <= a.span.start < end
                and a.span != amount.span]
        slots = [a.slot for a in said]
        if len(set(slots)) < len(slots) or any(a.role is ActRole.COUNT or a.slot not in (*c.columns, "type") for a in said):
            continue  # one value of each slot, of the search or the kind, no other count: nothing lists or narrows it
        sure, possible = count_matches(csp.kbs.get(c.kb) or [], c.columns, [csp.assignment.get(x) for x in c.variables], c.ops)
        if sure == possible == n and _under(n) and not c.count_excluded and not c.count_next_day:
            options.append((amount, n))
    if not options:
        return None
    amount, n = rng.choice(options)
    twin = dialogue.model_copy(deep=True)
    start, end = sentence_of(dialogue.turns[amount.turn].utterance, amount.span)
    for a in twin.turns[amount.turn].acts:  # the acts of the count's sentence (its kind word names the domain)
        if (a.domain == amount.domain and a.role in (ActRole.COUNT, ActRole.INFORM) and a.span is not None
                and start <= a.span.start and a.span.end <= end):
            a.domain = OTHER_DOMAIN[amount.domain]
    return edit(dialogue, amount.turn, amount.span, f"under {_under(n)}"), twin


def _under(n: int) -> int | None:
    """The largest K whose "under K" no rounding makes true of a count ``n`` (the vague reading
    allows a tenth of K, at least 1), or ``None``: lifting a filter only adds entities, so "under
    K" stays false by every reading of the search."""
    return next((k for k in range(n - 1, 0, -1) if k + max(1, -(-k // 10)) < n), None)


def over_exact(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """An exact count in digits the KB confirms said "over N" (twin) or "under K" far below (fault)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, amount in _system_counts(csp):
        if amount.amount_op != "=":
            continue
        said = dialogue.turns[amount.turn].utterance[amount.span.start : amount.span.end]
        n = csp.assignment.get(amount.name)
        if not said.isdigit() or not isinstance(n, int) or n < 2:
            continue
        sure, possible = count_matches(csp.kbs.get(c.kb) or [], c.columns, [csp.assignment.get(x) for x in c.variables], c.ops)
        if sure == possible == n and not c.count_excluded and not c.count_next_day and _under(n):
            options.append((amount, n))
    if not options:
        return None
    amount, n = rng.choice(options)
    return (edit(dialogue, amount.turn, amount.span, f"under {_under(n)}"),
            edit(dialogue, amount.turn, amount.span, f"over {n}"))


#: The generators, by class, in the order the benchmark and the tests run them.
GENERATORS: dict[str, Generator] = {"booked_time": booked_time, "lone_arrival": lone_arrival, "other_detail": other_detail,
                                    "shared_value": shared_value, "part_count": part_count, "wrong_domain": wrong_domain,
                                    "over_exact": over_exact}
