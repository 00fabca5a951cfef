"""System turns: the roles of their values and the search they are about (the package
docstring's **Roles and the request**, system side).

:func:`system_acts` takes the acts :meth:`~csp_check.annotate.annotator.Annotator.acts_in_context`
read in a system turn and applies, in order: one count per domain, offers (the values of a turn
that names an entity), the entity under discussion ("it", "their address"), addresses written in
part, restated searches (confirms), bookings, no-result statements
(:mod:`csp_check.annotate.no_result`), the search a count is about and what the user's "hotel" means.
"""

from __future__ import annotations

import re
from collections import Counter

from csp_check.annotate.amounts import count_search, numbers
from csp_check.annotate.annotator import Annotator
from csp_check.annotate.lexicon import (
    ANAPHORS,
    ASKED_COLUMN,
    ASKED_SLOT,
    BOOKING_WORDS,
    BOUND_COLUMNS,
    ENTITY_COLUMNS,
    INDEFINITES,
    NOT_RESTATING,
    SENTENCE_END,
)
from csp_check.annotate.memory import Memory, State
from csp_check.annotate.mentions import implicit
from csp_check.annotate.no_result import alternatives, booking_failures, no_result_request, unreadable_denials
from csp_check.annotate.wordings import compact
from csp_check.language.normalize import fold_aligned
from csp_check.models import ActRole, DialogueAct, Turn


def system_acts(
    annotator: Annotator, utterance: str, acts: list[DialogueAct], bounds: list[int], memory: Memory, turns: list[Turn]
) -> tuple[list[DialogueAct], State]:
    """The acts of a system turn with their roles settled, and the turn's ``state`` (the search its
    count or offer is about; empty when it has none). ``acts`` and ``bounds`` (where its sentences
    start) come from ``acts_in_context``; ``turns``: the turns annotated so far (a booking records
    its entity in the last user turn's state)."""
    counts = Counter(a.domain for a in acts if a.role is ActRole.COUNT)  # "6 guesthouses and 1 hotel":
    acts = [a for a in acts if not (a.role is ActRole.COUNT and counts[a.domain] > 1)]  # no one search
    acts = [a for a in acts if not (a.role is ActRole.COUNT and a.domain in memory.named)]  # "two called that"
    acts = [a for a in acts if not (a.role in (ActRole.COUNT, ActRole.NO_RESULT) and memory.vague.get(a.domain))]
    acts = restated_bounds(acts, utterance, memory.state)
    acts = offers(acts)
    acts += under_discussion(annotator, utterance, acts, memory)
    acts = [about_entity(annotator, a, acts, memory) for a in acts]
    acts = of_another_entity(annotator, utterance, acts)
    acts = parts_of_a_breakdown(acts, utterance)
    acts = restated(acts, memory.state, annotator.doc(utterance))
    acts = booked_entity(acts, utterance, memory, turns)
    acts = unreadable_denials(acts, memory.unread)
    acts += no_result_request(acts, memory.state, annotator.columns)
    acts = booking_failures(acts, utterance, next((t.utterance for t in reversed(turns) if t.speaker == "user"), ""))
    acts, new_state = unasked(count_search(acts, bounds, memory.state, numbers(annotator.doc(utterance))), utterance, acts)
    maybe = dict(memory.maybe)
    for domain, (column, value) in annotator.own_values.items():  # "1 hotel": the count's own noun
        if any(a.role is ActRole.COUNT and a.domain == domain and a.span is not None
               and annotator.own_after_count[domain].match(utterance[a.span.end :].lower())
               for a in acts):  # fmt: skip
            maybe[domain] = (column, value)
    acts += what_the_noun_means(annotator, acts, new_state or memory.state, maybe)
    new_state = alternatives(acts, new_state)
    for a in acts:
        if a.span is None and a.role is ActRole.INFORM and a.slot not in ENTITY_COLUMNS:
            new_state = new_state or {d: dict(slots) for d, slots in memory.state.items()}
            new_state.setdefault(a.domain, {})[a.slot] = [a.canonical or ""]
    return acts, new_state


def restated_bounds(acts: list[DialogueAct], utterance: str, state: State) -> list[DialogueAct]:
    """A trip time the system repeats from the request in a sentence that names no trip ("The
    closest arrival time I show to 10:45 is …") restates the user's bound: it is no claim."""
    def sentence(a: DialogueAct) -> str:
        assert a.span is not None
        start = max(utterance.rfind(c, 0, a.span.start) for c in ".!?") + 1
        ends = [i for i in (utterance.find(c, a.span.end) for c in ".!?") if i >= 0]
        return utterance[start : min(ends, default=len(utterance))]

    trips = [sentence(a) for a in acts if a.span is not None and a.slot in ENTITY_COLUMNS]
    return [a for a in acts if not (a.span is not None and a.slot in BOUND_COLUMNS and a.canonical is not None
                                    and state.get(a.domain, {}).get(a.slot) == [a.canonical]
                                    and sentence(a) not in trips)]  # fmt: skip


def unasked(search: State, utterance: str, acts: list[DialogueAct]) -> tuple[list[DialogueAct], State]:
    """A count's turn that asks for a column ("There are 42 trains. What day will you be
    travelling?", "I have 9 italian restaurants. Do you have a preference on price range?") does
    not know it: that column of the request is not in the search its count is about (a value the
    turn itself writes stays); a count left with no search at all is left out."""
    questions = re.findall(r"[^.!?]*\?", fold_aligned(utterance).lower())
    asked = {ASKED_SLOT[" ".join(m.group(1).split())] for q in questions for m in ASKED_COLUMN.finditer(q)}
    counted = {a.domain for a in acts if a.role is ActRole.COUNT}
    if not search or not asked & {slot for d in counted for slot in search.get(d, {})}:
        return acts, search
    said = {(a.domain, a.slot) for a in acts if a.span is not None and a.role is not ActRole.COUNT}
    search = {d: {k: v for k, v in slots.items() if not (d in counted and k in asked and (d, k) not in said)}
              for d, slots in search.items()}  # fmt: skip
    return [a for a in acts if not (a.role is ActRole.COUNT and not search.get(a.domain))], search


def offers(acts: list[DialogueAct]) -> list[DialogueAct]:
    """In a system turn that names an entity, the other values describe that entity: they are
    offered too (as SGD's OFFER and MultiWOZ's Recommend annotate them), so they are compared
    with what the user asked for. Trip times are not: "TR0397 leaves at 15:17" answers a bound
    ("after 13:30"), it does not repeat it."""
    offered = {a.domain for a in acts if a.role is ActRole.OFFER}
    return [
        a.model_copy(update={"role": ActRole.OFFER, "act": "offer"})
        if a.role is ActRole.INFORM and a.domain in offered and a.slot not in BOUND_COLUMNS
        else a
        for a in acts
    ]


def booked_entity(acts: list[DialogueAct], utterance: str, memory: Memory, turns: list[Turn]) -> list[DialogueAct]:
    """A booking names the entity under discussion (the one the user chose or was offered last):
    the one name of a domain in a system turn about a booking is a confirm of it, and the user turn
    before records it in its state for that turn only, so a booking of another entity breaks C2."""
    if not BOOKING_WORDS.search(utterance) or not turns or turns[-1].speaker != "user":
        return acts
    out = []
    for a in acts:
        names = {b.canonical for b in acts if b.domain == a.domain and b.slot == a.slot}
        chosen = memory.entity.get(a.domain) if memory.entity_turn.get(a.domain, -9) >= len(turns) - 2 else None
        question = a.span is not None and re.match(r"[^.!?]*\?", utterance[a.span.end :]) is not None
        if a.slot in ENTITY_COLUMNS and a.role is ActRole.OFFER and a.span is not None and len(names) == 1 and chosen and not question:
            a = a.model_copy(update={"role": ActRole.CONFIRM, "act": "confirm"})
            state = {d: dict(slots) for d, slots in turns[-1].state.items()}
            state.setdefault(a.domain, {})[a.slot] = [chosen]
            turns[-1] = turns[-1].model_copy(update={"state": state})
        out.append(a)
    return out


def restated(acts: list[DialogueAct], state: State, doc) -> list[DialogueAct]:  # type: ignore[no-untyped-def]
    """A system turn that names no entity and reports no failure restates the search ("there are
    a few cheap restaurants on the east side"): a value of a slot the user asked for, the only
    value of its slot in the turn, in a statement that does not contrast or refer ("it's on the
    expensive side", "only … but", "two are moderately priced and one is expensive") is a confirm,
    so it must equal the request (C2)."""
    about_entity = {a.domain for a in acts if a.slot in ENTITY_COLUMNS}
    failed = {a.domain for a in acts if a.role is ActRole.NO_RESULT}
    per_slot = Counter((a.domain, a.slot) for a in acts if a.span is not None)
    out = []
    for a in acts:
        if (a.role is ActRole.INFORM and a.span is not None and a.domain not in about_entity | failed
                and a.slot in state.get(a.domain, {}) and a.slot not in BOUND_COLUMNS
                and per_slot[(a.domain, a.slot)] == 1 and _plain_statement(doc, a.span.start)):
            a = a.model_copy(update={"role": ActRole.CONFIRM, "act": "confirm"})
        out.append(a)
    return out  # fmt: skip


def _plain_statement(doc, char: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether the sentence around character ``char`` is a statement without contrast or reference."""
    tokens = list(doc)
    i = next((t.i for t in tokens if t.idx <= char < t.idx + len(t.text) + 1), 0)
    first = max([0] + [t.i + 1 for t in tokens[:i] if t.text in SENTENCE_END])
    last = next((t.i for t in tokens[i:] if t.text in SENTENCE_END), len(tokens))
    words = {t.lower_ for t in tokens[first : last + 1]}
    return not words & NOT_RESTATING and "?" not in words


def under_discussion(annotator: Annotator, utterance: str, acts: list[DialogueAct], memory: Memory) -> list[DialogueAct]:
    """A system turn that states values about "it" / "this place" without naming an entity is
    about the entity under discussion: an implicit inform of its name joins the turn, so its
    values are checked against that entity (spec §9 "which entity")."""
    if any(a.role in (ActRole.COUNT, ActRole.NO_RESULT) for a in acts):
        return []
    words = {t.lower_ for t in annotator.doc(utterance)}
    if not words & ANAPHORS:
        return []
    out = []
    for domain in dict.fromkeys(a.domain for a in acts if a.span is not None and a.slot not in BOUND_COLUMNS):
        if any(a.domain == domain and a.slot in ENTITY_COLUMNS for a in acts):
            continue
        name = memory.entity.get(domain)
        column = annotator.entity_column(domain)
        if name is not None and column is not None:
            out.append(implicit(ActRole.INFORM, "inform", domain, column, name))
    return out


#: A number word or digits right before a value ("one guesthouse", "3 hotels").
PART_AMOUNT = re.compile(r"(?:\b(?:one|two|three|four|five|six|seven|eight|nine|ten)|\d+)\s+$", re.I)


def parts_of_a_breakdown(acts: list[DialogueAct], utterance: str) -> list[DialogueAct]:
    """In a turn that counts, a kind after another amount than the count ("There are 2 options :
    one guesthouse and one hotel") is the kind of one part of a breakdown, not of the whole: it
    carries a doubt, so the count is not tied to it for sure."""
    counts = [a for a in acts if a.role is ActRole.COUNT and a.span is not None]
    if not counts:
        return acts
    out = []
    for a in acts:
        if (a.span is not None and a.role is not ActRole.COUNT and a.slot not in ENTITY_COLUMNS and not a.doubt
                and any(c.domain == a.domain and c.span is not None and c.span.end <= a.span.start for c in counts)
                and not any(c.span is not None and c.span.end == len(utterance[: a.span.start].rstrip()) for c in counts)):
            m = PART_AMOUNT.search(utterance[: a.span.start])
            if m is not None:
                a = a.model_copy(update={"doubt": f"the kind of one part of a breakdown: '{m.group(0).strip()} {a.value}'"})
        out.append(a)
    return out  # fmt: skip


#: Words that point back to an entity named before ("This is a 4 star guesthouse", "which is in the east").
POINTING = frozenset({"this", "that", "which", "these", "both", "he", "she"})


def of_another_entity(annotator: Annotator, utterance: str, acts: list[DialogueAct]) -> list[DialogueAct]:
    """A value in a sentence that names no entity and has no pronoun for one, but brings in an
    entity by an indefinite noun after a sentence that named one ("How about X ? There is also a 2
    star option .", "Another one is in the east .") may be said of that new entity, not of the one
    named before (an indefinite noun before the name, "There is one portuguese restaurant . It is
    Nandos", introduces the entity then named, and a question's values are the question rules':
    no doubt): it carries a
    doubt (what entity the value is bound to is unsettled). A pronoun or pointing word ("it",
    "this", "which") binds the sentence to the entity under discussion."""
    if not any(a.slot in ENTITY_COLUMNS and a.span is not None for a in acts):
        return acts
    doc = annotator.doc(utterance)
    nouns = {start for _, start, _ in annotator.nouns(doc)}
    starts = [0] + [t.i + 1 for t in doc if t.text in SENTENCE_END]
    out = []
    for a in acts:
        if a.span is not None and a.slot not in ENTITY_COLUMNS and a.role in (ActRole.OFFER, ActRole.INFORM) and not a.doubt:
            tokens = doc.char_span(a.span.start, a.span.end, alignment_mode="expand")
            first = max((s for s in starts if tokens is not None and s <= tokens.start), default=0)
            last = min((s for s in starts if tokens is not None and s > tokens.start), default=len(doc))
            sentence = doc[first:last]
            names = any(b.slot in ENTITY_COLUMNS and b.span is not None
                        and sentence.start_char <= b.span.start < sentence.end_char for b in acts)  # fmt: skip
            before = any(b.slot in ENTITY_COLUMNS and b.span is not None and b.span.start < sentence.start_char for b in acts)
            lowers = [t.lower_ for t in sentence]
            brought = next((sentence[i : i + 4].text for i, w in enumerate(lowers) if w in INDEFINITES
                            and any(k in nouns for k in range(first + i + (w != "one"), first + i + 4))), None)  # fmt: skip
            if before and not names and brought and not set(lowers) & (ANAPHORS | POINTING | {"?"}):
                a = a.model_copy(update={"doubt": f"said in a sentence bringing in another entity: '{brought}'"})
        out.append(a)
    return out


def about_entity(annotator: Annotator, act: DialogueAct, acts: list[DialogueAct], memory: Memory) -> DialogueAct:
    """An address written in part or spaced differently ("on Trinity Street", "78 - 80 milton
    road") of the entity the turn is about (named in it, else under discussion) is that entity's
    address."""
    if act.slot != "address" or act.span is None or act.value is None:
        return act
    names = {a.canonical for a in acts if a.domain == act.domain and a.slot in ENTITY_COLUMNS and a.canonical}
    name = next(iter(names)) if len(names) == 1 else (memory.entity.get(act.domain) if not names else None)
    row = annotator.row(act.domain, name) if name else None
    if row is None or not row.get("address"):
        return act
    said, have = compact(act.value), compact(row["address"])
    if said and said in have and compact(act.canonical or "") != have:
        return act.model_copy(update={"canonical": row["address"]})
    return act


def what_the_noun_means(
    annotator: Annotator, acts: list[DialogueAct], search: State, maybe: dict[str, tuple[str, str]]
) -> list[DialogueAct]:
    """The user's "hotel" may be the domain or the type ``hotel``. A count or no-result of that
    domain that holds only when the noun means the type gets the type as an implicit value: the
    text is read in the sense under which it is true (as missing DB fields are)."""
    out = []
    for a in acts:
        if a.domain not in maybe or a.slot == maybe[a.domain][0] or a.role not in (ActRole.COUNT, ActRole.NO_RESULT):
            continue
        if a.role is ActRole.NO_RESULT and a.slot:
            continue
        column, value = maybe[a.domain]
        if a.role is ActRole.COUNT:
            filters = {k: v[0] for k, v in search.get(a.domain, {}).items() if len(v) == 1 and k not in BOUND_COLUMNS
                       and k not in ENTITY_COLUMNS}  # fmt: skip
            amount = int(a.canonical or 0)
            sure, possible = annotator.count(a.domain, filters)
            if column not in filters and not sure <= amount <= possible:
                sure, possible = annotator.count(a.domain, {**filters, column: value})
                if sure <= amount <= possible:
                    out.append(implicit(ActRole.INFORM, "inform", a.domain, column, value))
        else:
            said = {b.slot: b.canonical or "" for b in acts if b.domain == a.domain and b.role is ActRole.NO_RESULT and b.slot}
            if column not in said and annotator.count(a.domain, said)[0] > 0 and annotator.count(a.domain, {**said, column: value})[0] == 0:
                out.append(implicit(ActRole.NO_RESULT, "nooffer", a.domain, column, value))
    return out
