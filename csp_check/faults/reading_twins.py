"""Pairs for more false-alarm classes of issue 18 — annotation defects
(:func:`csp_check.check.value_doubts.annotation_defect`) and counts of listed values
(:func:`csp_check.check.count_doubts.listed_values`) — in the form of
:mod:`csp_check.faults.twins`: ``(dialogue, kb, rng) -> (fault, twin) | None``. The *twin*
states no error of the dialogue (a defect twin spoils only the annotation): it must not be
flagged certain; the *fault* writes an error into the text at the same place: it must be
flagged certain.

=============  ==========================================================================
class          twin (an annotation defect) / fault (an error of the text)
=============  ==========================================================================
defect         a stated phone / postcode / train id whose act's span is moved to words
               that are no such value (another act's words, taken from it, or a function
               word of the turn) / the value's words become another entity's, one that
               is no edit away from an entity with the rest of the claim (no typo)
time_role      a turn's leaving and arriving times ("leaves at 17:11 and arrives at 17:58")
               annotated with the two slots swapped / the arrival an hour later in the text
other_domain   "I also need a cheap hotel ." before an offer of another domain, "cheap"
               annotated as that domain's filter / "… a cheap attraction ." (the offer's
               entity not cheap)
listed         a count said with the areas of its entities ("3 guesthouses in the north ,
               east and west", area no filter): N those areas' count / N no reading allows
=============  ==========================================================================
"""

from __future__ import annotations

import random
import re

from csp_check.check.reading import near
from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.kb_common import KbFilterInstance
from csp_check.families.primitives import count_matches
from csp_check.faults.twins import KIND_NOUNS, Generator, Pair, edit, insert
from csp_check.language.certainty import FUNCTION_WORDS, not_a_value, relaxed, time_role
from csp_check.models import ActRole, ConstraintId, Dialogue, DialogueAct, KnowledgeBase, Span, Variable
from csp_check.pipeline import dialogue_csp

WRITTEN = ("phone", "postcode", "trainID")


def claims(csp, dialogue: Dialogue, slots) -> list[tuple[KbFilterInstance, Variable]]:
    """(C5 instance, variable) for each system value of ``slots`` a C5 instance of its turn states
    with an act of the same span."""
    by_name = {v.name: v for v in csp.variables}
    return [(c, v) for c in csp.constraints if c.id is ConstraintId.C5 and isinstance(c, KbFilterInstance)
            for i, v in ((i, by_name[n]) for i, n in enumerate(c.variables))
            if v.speaker == "system" and v.turn == c.turn and v.span is not None and v.slot in slots
            and (not c.ops or c.ops[i] == "=")
            and any(a.span == v.span and a.slot == v.slot for a in dialogue.turns[v.turn].acts)]


def defect(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A stated phone / postcode / train id: its span moved to words that are none (twin), or
    its words replaced by another entity's value of the column (fault)."""
    csp = dialogue_csp(dialogue, kb)
    found = claims(csp, dialogue, WRITTEN)
    rng.shuffle(found)
    for c, v in found:
        t = dialogue.turns[v.turn]
        others = sorted({str(e.get(v.slot)) for e in csp.kbs[c.kb] if e.get(v.slot)} - {str(csp.assignment[v.name])})
        targets = [a.span for a in t.acts if a.span is not None and a.span != v.span and not_a_value(v.slot, t.utterance[a.span.start:a.span.end])]
        targets += [Span(start=m.start(), end=m.end()) for m in re.finditer(r"[a-z]+", t.utterance)
                    if m.group(0) in FUNCTION_WORDS and not v.span.start <= m.start() < v.span.end]
        if not others or not targets:
            continue
        to = rng.choice(targets)
        twin = dialogue.model_copy(deep=True)
        acts = twin.turns[v.turn].acts
        acts[:] = [a for a in acts if a.span != to]  # the words now annotated only as the slot
        for a in acts:
            if a.span == v.span and a.slot == v.slot:
                a.span = to
        said = {col: csp.assignment[n] for i, (col, n) in enumerate(zip(c.columns, c.variables))
                if col != v.slot and (not c.ops or c.ops[i] == "=")}
        fitting = {str(e.get(v.slot)) for e in csp.kbs[c.kb] if all(e.get(col) in (None, x) for col, x in said.items())}
        fitting.add(str(csp.assignment[v.name]))  # the entity's own value ("cb21tt" for cb21tl)
        value = next((o for o in rng.sample(others, len(others)) if not any(near(o, x) for x in fitting)), None)
        if value is None:
            continue  # every other value is one edit from an entity with the rest: a typo by one reading
        fault = edit(dialogue, v.turn, v.span, value.upper() if v.slot == "trainID" else value)
        return fault, twin
    return None


def time_role_swap(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A turn's leaving and arriving times, each after its verb and both stated by one C5
    instance: annotated swapped (twin), or the arrival written an hour later (fault; the train
    then has another arrival)."""
    csp = dialogue_csp(dialogue, kb)
    by_instance: dict[int, dict[str, Variable]] = {}
    for c, v in claims(csp, dialogue, ("leaveAt", "arriveBy")):
        by_instance.setdefault(id(c), {})[v.slot] = v
    for times in by_instance.values():
        if len(times) < 2:
            continue
        t = dialogue.turns[times["leaveAt"].turn]
        arrive = times["arriveBy"]
        said = t.utterance[arrive.span.start:arrive.span.end]
        if (not re.fullmatch(r"\d\d:\d\d", said) or said >= "23:00"
                or any(time_role(t.utterance, v.span) != ("leave" if s == "leaveAt" else "arrive") for s, v in times.items())):
            continue
        twin = dialogue.model_copy(deep=True)
        spans = {v.span for v in times.values()}
        for a in twin.turns[t.index].acts:
            if a.slot in times and a.span in spans:
                a.slot = "arriveBy" if a.slot == "leaveAt" else "leaveAt"
        later = f"{int(said[:2]) + 1:02d}{said[2:]}"
        return edit(dialogue, t.index, arrive.span, later), twin
    return None


COUNTED = re.compile(r"^\s+(?:[a-z]+\s+)?([a-z]+s)\b")


def listed(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A count whose turn says no area, with two or three areas of its entities listed after its
    noun: the amount those areas' entities (twin), or one no reading allows (fault)."""
    csp = dialogue_csp(dialogue, kb)
    by_name = {v.name: v for v in csp.variables}
    options = []
    for c in csp.constraints:
        amount = by_name.get(getattr(c, "count_variable", ""))
        if not isinstance(c, CountInstance) or amount is None or amount.span is None or amount.amount_op != "=":
            continue
        text = dialogue.turns[amount.turn].utterance
        m = COUNTED.match(text[amount.span.end :])
        if not m or m.group(1).lower() not in KIND_NOUNS or "area" in c.columns or c.table.restrictions:
            continue
        if any(v.slot == "area" for v in csp.variables if v.turn == amount.turn):
            continue
        rows = csp.kbs[c.kb]
        cols, vals, ops = list(c.columns), [csp.assignment[n] for n in c.variables], list(c.ops or ["="] * len(c.columns))
        sure, possible = count_matches(rows, cols, vals, ops)
        areas = sorted({e["area"] for e in rows if e.get("area")})
        if sure != possible or len(areas) < 3:
            continue
        chosen = rng.sample(areas, rng.choice((2, 3)))
        each = [count_matches(rows, [*cols, "area"], [*vals, a], [*ops, "="])[1] for a in chosen]
        narrow = sum(each)
        if 0 < narrow != sure:
            said = [a.replace("center", "centre") for a in chosen]
            options.append((amount, m, f" in the {' , '.join(said[:-1])} and {said[-1]}", narrow, max(sure, *each)))
    if not options:
        return None
    amount, m, after, narrow, most = rng.choice(options)
    at = Span(start=amount.span.end + m.end(1), end=amount.span.end + m.end(1))

    def recount(number: int) -> Dialogue:
        return edit(edit(dialogue, amount.turn, at, after), amount.turn, amount.span, str(number))

    return recount(most + 1 + rng.randrange(2)), recount(narrow)


#: What a filter of another domain is said of, by domain ("a cheap hotel").
DOMAIN_WORDS = {"hotel": "hotel", "restaurant": "restaurant"}


def other_domain(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """An offer of one domain after a user turn that adds "I also need a <value> <kind> .": the
    value annotated as the offer's domain's filter, the kind another domain (twin) or the offer's
    own (fault), the value one the offered entity has not."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, v in claims(csp, dialogue, ("name",)):
        if v.domain not in DOMAIN_WORDS or v.turn < 1 or dialogue.turns[v.turn - 1].speaker != "user":
            continue
        rows = [e for e in csp.kbs[c.kb] if e.get("name") == csp.assignment[v.name]]
        if any(relaxed(t.utterance) for t in dialogue.turns[: v.turn] if t.speaker == "user"):
            continue
        for column in ("pricerange", "area"):
            if (column in c.columns or len(rows) != 1 or not rows[0].get(column)
                    or any(u.slot_type == f"{v.domain}.{column}" for u in csp.variables)):
                continue
            others = sorted({e.get(column) for e in csp.kbs[c.kb] if e.get(column)} - {rows[0][column], "free", "?"})
            if others:
                options.append((v, column, rng.choice(others)))
    if not options:
        return None
    v, column, value = rng.choice(options)
    user = dialogue.turns[v.turn - 1]
    act = DialogueAct(role=ActRole.INFORM, act=f"{v.domain.title()}-Inform", domain=v.domain, slot=column,
                      value=value, canonical=value)
    said = value.replace("center", "centre")
    other = rng.choice(sorted(set(DOMAIN_WORDS) - {v.domain}))

    def saying(kind: str) -> Dialogue:
        new = f" I also need a {said} {kind} ." if column == "pricerange" else f" I also need a {kind} in the {said} ."
        out = insert(dialogue, user.index, len(user.utterance), new, ((act, said),))
        for t in out.turns[user.index :]:  # the state records the act, as the annotators did
            if v.domain in t.state:
                t.state[v.domain][column] = [value]
        return out

    return saying(DOMAIN_WORDS[v.domain]), saying(other)


GENERATORS: dict[str, Generator] = {"defect": defect, "time_role": time_role_swap, "listed": listed, "other_domain": other_domain}
