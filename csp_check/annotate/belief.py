"""User turns: the belief state (the package docstring's **Roles and the request**, user side).

A user's values are informs that replace their slots in the belief state (:func:`updated`);
naming an entity makes the request that entity's values; "the same area as the hotel", "the same
day" add an implicit inform with the value set before (:func:`same_as_before`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache

from csp_check.annotate.annotator import Annotator
from csp_check.annotate.lexicon import COMPARATIVE_PRICES, ENTITY_COLUMNS, NEAR_PLACE, SAME, SAME_SLOT, VAGUE_PRICES
from csp_check.annotate.memory import Memory, State
from csp_check.annotate.mentions import UNREAD_DOUBTS, implicit
from csp_check.annotate.wordings import nouns_of
from csp_check.language.cues import corrected
from csp_check.language.normalize import fold_aligned, normalize
from csp_check.models import ActRole, DialogueAct

#: A negation in the clause before a "same …" phrase ("it does n't have to be in the same area").
NEGATED_BEFORE = re.compile(r"(?:\bnot|n't|\bnever|\bno need)\b[^.,;!?]*$")
#: A trip bound and the other one.
OTHER_BOUND = {"leaveAt": "arriveBy", "arriveBy": "leaveAt"}


def user_acts(annotator: Annotator, utterance: str, acts: list[DialogueAct], memory: Memory) -> tuple[list[DialogueAct], State]:
    """The acts of a user turn (``acts`` from ``acts_in_context`` plus the implicit "same …"
    informs) and the belief state after it, which ``memory`` keeps; ``memory.named`` becomes the
    domains whose entity the turn names, ``memory.searched`` those it gives a search value of (a
    bare count that follows, "I have 4 that match", counts that search)."""
    acts += same_as_before(annotator, utterance, acts, memory)
    acts = vague_words(annotator, utterance, acts, memory)
    acts = settled(utterance, acts)
    memory.state = updated(memory.state, acts, annotator)
    memory.named = {a.domain for a in acts if a.slot in ENTITY_COLUMNS and a.span is not None}
    memory.searched = {a.domain for a in acts if a.role is ActRole.INFORM and a.span is not None
                       and a.slot not in ENTITY_COLUMNS and a.canonical is not None}  # fmt: skip
    return acts, memory.state


def settled(utterance: str, acts: list[DialogueAct]) -> list[DialogueAct]:
    """``acts`` without the values a later value of the same slot corrects in the turn ("It
    should be in the east . Sorry , I meant the north .", "cheap , no wait , moderate":
    :func:`~csp_check.language.cues.corrected`): the value the user settles on is the request;
    without a correction's words both stay (alternatives: "the east or the north")."""
    by_slot: dict[tuple[str, str], list[DialogueAct]] = defaultdict(list)
    for a in acts:
        if a.role is ActRole.INFORM and a.span is not None and a.slot not in ENTITY_COLUMNS:
            by_slot[(a.domain, a.slot)].append(a)
    dropped: set[int] = set()
    for group in by_slot.values():
        group.sort(key=lambda a: a.span.start if a.span else 0)
        kept = corrected(utterance, [a.span for a in group if a.span]) if len(group) > 1 else None
        if kept is not None:
            dropped |= {id(a) for a in group if a.span is not None and a.span.start < kept.start}
    return [a for a in acts if id(a) not in dropped]


def updated(state: State, acts: list[DialogueAct], annotator: Annotator | None = None) -> State:
    """The belief state after a user turn: its informs replace their slots' values. Entity names
    are no search constraint (asking about one entity, then for another, is no contradiction);
    naming one makes the domain's request that entity's values for the slots asked so far
    (what follows is about it, even where it differs from the earlier search). A trip bound
    whose time the other bound already has ("depart … at 10:45", later "arrive by 10:45")
    replaces it: the user corrects which end of the trip the time is."""
    said: dict[tuple[str, str], list[str]] = defaultdict(list)
    for act in acts:
        if act.role is ActRole.INFORM and act.canonical is not None and act.slot not in ENTITY_COLUMNS:
            if act.canonical not in said[(act.domain, act.slot)]:
                said[(act.domain, act.slot)].append(act.canonical)
    new = {domain: dict(slots) for domain, slots in state.items()}
    for a in acts:  # asking about one entity by name: the request is now what that entity has
        if a.slot in ENTITY_COLUMNS and a.span is not None and a.canonical and annotator is not None:
            row = annotator.row(a.domain, a.canonical)
            if row is not None:
                new[a.domain] = {k: [row[k]] for k in new.get(a.domain, {}) if row.get(k)}
    for (domain, slot), values in said.items():
        new.setdefault(domain, {})[slot] = values
        other = OTHER_BOUND.get(slot)
        if other is not None and (domain, other) not in said and new[domain].get(other) == values:
            del new[domain][other]  # "at 10:45" then "arrive by 10:45": the later bound says which end it is
    return new


def vague_words(annotator: Annotator, utterance: str, acts: list[DialogueAct], memory: Memory) -> list[DialogueAct]:
    """Request words no value reads: a price word ("affordable", "on the cheaper side") with no
    price range of the turn, or a place given by what it is near ("near All Saints", "near the
    centre of the location"), a value given by another place or as one end of a range ("north of
    the centre", "low to moderate": :data:`~csp_check.annotate.mentions.UNREAD_DOUBTS`) leaves that column of the domain the utterance is about unread
    (``memory.vague``; a count in that domain is then left out: what it counts cannot be read). A
    value right after "near" is a reference point, not a request value. A later value of the column
    clears it. Such a word is said now: the request's earlier value of that column is no longer in
    force (dropped from the state); a comparative price word ("anything cheaper ?",
    :data:`~csp_check.annotate.lexicon.COMPARATIVE_PRICES`) after the turn's own price value lifts it too."""
    text = fold_aligned(utterance).lower()
    near = [m.end() for m in NEAR_PLACE.finditer(text)]
    kept = [a for a in acts if not (a.span is not None and a.slot == "area"
                                    and any(0 <= a.span.start - end <= 16 for end in near))]  # fmt: skip
    for a in kept:
        if a.span is not None and a.role is ActRole.INFORM and (a.doubt or "").startswith(UNREAD_DOUBTS):
            memory.vague.setdefault(a.domain, set()).add(a.slot)  # "north of the centre", "low to moderate"
        elif a.span is not None and a.role is ActRole.INFORM:
            memory.vague.get(a.domain, set()).discard(a.slot)
    for column, pattern in (("pricerange", VAGUE_PRICES), ("area", NEAR_PLACE)):
        match = pattern.search(text)
        if match is None:
            continue
        domain = _about(annotator, text[: match.start()], kept, memory, column)
        if domain is None:
            continue
        switch = column == "pricerange" and COMPARATIVE_PRICES.search(text[match.start() :]) is not None
        if switch:  # "expensive … do you have anything cheaper ?": the price said before is lifted
            kept = [a for a in kept if not (a.domain == domain and a.slot == column and a.span is not None
                                            and a.span.start < match.start())]  # fmt: skip
        if not any(a.domain == domain and a.slot == column and a.span is not None for a in kept):
            memory.vague.setdefault(domain, set()).add(column)
            if switch or column in memory.state.get(domain, {}):  # the request's price is no longer in force
                memory.state = {d: {k: v for k, v in slots.items() if not (d == domain and k == column)}
                                for d, slots in memory.state.items()}  # fmt: skip
    return kept


def same_as_before(annotator: Annotator, utterance: str, acts: list[DialogueAct], memory: Memory) -> list[DialogueAct]:
    """"In the same area as the hotel", "on the same day": the value the dialogue set before for
    that slot (in another domain: its entity under discussion, else its request; a day: the last
    day named), as an implicit inform of the domain the utterance is about. When the entities of
    that domain named so far differ in that slot, the antecedent is not single: the inform is a
    guess (``doubt``); so too when that domain's request has another value there (the restaurant
    the user asked for in the centre, the one named last in the south). A negated one ("it
    needn't be in the same area as the hotel") asks nothing."""
    out = []
    text = fold_aligned(utterance).lower()
    for match in SAME.finditer(text):
        if NEGATED_BEFORE.search(text[: match.start()]):
            continue  # "it needn't be in the same area as the hotel", "not in the same area": no value asked
        slot = SAME_SLOT[match.group(1)]
        target = _about(annotator, text[: match.start()], acts, memory, slot)
        if target is None or any(a.domain == target and a.slot == slot for a in acts):
            continue
        source = (memory.last_day, "") if slot == "day" and memory.last_day else annotator.value_elsewhere(target, slot, memory)
        if source is None:
            continue
        value, domain = source
        act = implicit(ActRole.INFORM, "inform", target, slot, value)
        others = annotator.values_named(domain, slot, memory) if domain else set()
        others |= {normalize(v) for v in memory.state.get(domain, {}).get(slot, [])} if domain else set()
        others -= {normalize(value)}
        if others:  # "the same area as the restaurant" after two restaurants in different areas
            act.doubt = f"'{match.group(0)}' read as {value!r}; the {domain} named or asked also has {', '.join(sorted(others))}"
        out.append(act)
    return out


@cache
def _named(domain: str) -> re.Pattern[str]:
    """The words naming ``domain`` (its own noun of :func:`nouns_of`, singular or plural), compiled
    once per domain (not per call: the ``re`` cache overflows, issue 22)."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, nouns_of(domain)[0])) + r")s?\b")


def _about(annotator: Annotator, before: str, acts: list[DialogueAct], memory: Memory, slot: str) -> str | None:
    """The domain a user utterance asks about, if it has column ``slot``: of the domains named in
    ``before`` (the words before the "same …" or price words), the one named nearest them that has
    the column ("a taxi from the hotel … the hotel should be expensive . anything cheaper ?": the
    hotel; a domain without the column is skipped, as a taxi has no price); else its acts', else
    the active one."""
    ends = {d: found[-1].end() for d in annotator.domains if (found := list(_named(d).finditer(before)))}
    named = [d for d in sorted(ends, key=ends.__getitem__, reverse=True) if slot in annotator.columns.get(d, ())]
    if ends:
        return named[0] if named else None
    options = [a.domain for a in acts if a.span is not None][-1:] or ([memory.active] if memory.active else [])
    for domain in options:
        if slot in annotator.columns.get(domain, ()):
            return domain
    return None
