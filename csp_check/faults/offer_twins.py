"""Pairs for the misses of issue 18's last attack on MultiWOZ, in the form of
:mod:`csp_check.faults.twins` (``(dialogue, kb, rng) -> (fault, twin) | None``): the *fault*
writes an error into the text, the *twin* the same words where they state none. What makes each
an error is decided from the KB and the dialogue's belief state alone.

=============  ==========================================================================
class          fault (an error) / twin (no error)
=============  ==========================================================================
unrelaxed      a system offer of an entity first named there, with its area, moved to an
               entity of another area than the user's (who said it, and never lifted it;
               no no-result or failure before) / the same offer after the user's
               "Actually , anywhere is fine ." (the state's area then ``dontcare``)
negated       an amenity the named entity has, affirmed with no annotated span in a sentence
               that refers back to it ("It 's moderately priced and has free parking .") /
               said "does not have free parking" / said "does have free parking"
scale_end      a user's "cheap hotel" said "hotel on the cheaper side" ("expensive":
               "more expensive"), a later count of that search changed to the number
               without the price filter / the same words, the count as it was
examples       a sentence giving an area, then two or more names, the names introduced by
               "such as": its area made one none of them has / the area kept
vague_part     "2 hotels and 8 guesthouses" with the first count said "several" (its act
               too, as annotators write it) and the second made one its own kind's KB count
               refutes / the second kept
=============  ==========================================================================

The unrelaxed dialogue is cut after the offer's turn: the later turns speak of the entity it replaced.
"""

from __future__ import annotations

import random
import re

from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.primitives import count_matches
from csp_check.faults.twins import Generator, Pair, edit, insert
from csp_check.language.cues import sentence_of
from csp_check.language.normalize import normalize
from csp_check.models import ActRole, Dialogue, KnowledgeBase, Span
from csp_check.pipeline import dialogue_csp

#: The domains whose offers carry an area, and the lifting words the twin's user adds.
AREA_DOMAINS = ("restaurant", "hotel", "attraction")
ANYWHERE = " Actually , anywhere is fine ."
#: The state's slots that are no search filter of an entity (the booking's, the name).
NOT_FILTERS = ("name",)
EMPTY = ("", "not mentioned", "none", "dontcare")


def _failed_before(dialogue: Dialogue, turn: int, domain: str) -> bool:
    return any(a.role in (ActRole.NO_RESULT, ActRole.FAILED) and a.domain == domain
               for t in dialogue.turns[: turn + 1] for a in t.acts)


def unrelaxed(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """An offer moved outside the user's area (fault), or after the user lifted it (twin)."""
    csp = dialogue_csp(dialogue, kb)
    said_area = {(v.domain, str(csp.assignment.get(v.name))) for v in csp.variables
                 if v.speaker == "user" and v.slot == "area" and v.span is not None}
    options = []
    for t in dialogue.turns[2:]:
        if t.speaker != "system" or dialogue.turns[t.index - 1].speaker != "user":
            continue
        names = [a for a in t.acts if a.slot == "name" and a.span is not None and a.domain in AREA_DOMAINS
                 and a.role in (ActRole.OFFER, ActRole.INFORM)]
        if len(names) != 1:
            continue
        domain = names[0].domain
        areas = [a for a in t.acts if a.slot == "area" and a.domain == domain and a.span is not None]
        state = dialogue.turns[t.index - 1].state.get(domain, {})
        asked = (state.get("area") or [""])[0]
        table = kb.tables.get(domain)
        if (len(areas) != 1 or asked in EMPTY or (domain, asked) not in said_area or table is None
                or _failed_before(dialogue, t.index, domain)):
            continue
        offered = next((v for v in csp.variables if v.turn == t.index and v.span == names[0].span), None)
        name = str(csp.assignment.get(offered.name)) if offered is not None else ""
        if offered is None or any(v.slot == "name" and v.turn < t.index and str(csp.assignment.get(v.name)) == name
                                  for v in csp.variables):
            continue  # an entity already under discussion: an answer about it, no offer
        rows = table.normalized()
        own = next((row for row in rows if row.get("name") == name), None)
        stated = {a.slot for a in t.acts if a.domain == domain and a.span is not None} - {"name", "area"}
        filters = {k: normalize(v[0]) for k, v in state.items() if v and v[0] not in EMPTY
                   and k not in NOT_FILTERS + ("area",) and not k.startswith("book")}
        if own is None or not stated <= set(own):
            continue
        mentioned = " ".join(u.utterance.lower() for u in dialogue.turns)
        fitting = [(raw, row) for raw, row in zip(table.entities, rows)
                   if row.get("area") and row["area"] != normalize(asked) and all(row.get(k) == v for k, v in filters.items())
                   and all(row.get(k) == own[k] for k in stated) and str(raw.get("name", "")).lower() not in mentioned]
        if fitting:
            options.append((t.index, names[0].span, areas[0].span, rng.choice(fitting)))
    if not options:
        return None
    turn, name_span, area_span, (raw, row) = rng.choice(options)
    first, second = sorted([(name_span, str(raw["name"])), (area_span, {"center": "centre"}.get(row["area"], row["area"]))],
                           key=lambda x: -x[0].start)
    moved = edit(edit(dialogue, turn, first[0], first[1]), turn, second[0], second[1])
    moved = moved.model_copy(update={"turns": moved.turns[: turn + 1]})
    user = moved.turns[turn - 1]
    twin = insert(moved, turn - 1, len(user.utterance), ANYWHERE)
    domain = next(a.domain for a in moved.turns[turn].acts if a.slot == "name" and a.span is not None)
    for t in twin.turns[turn - 1 :]:
        if domain in t.state:
            t.state[domain]["area"] = ["dontcare"]
    return moved, twin


#: An amenity affirmed ("has free parking", "offers wifi"), and its column's word group.
AFFIRMED = re.compile(r"\b(?:has|offers|provides|includes)\s+(?:free\s+)?(parking|wifi|internet)\b", re.I)
COLUMN = {"parking": "parking", "wifi": "internet", "internet": "internet"}
REFERRING = re.compile(r"\s*(?:it|it 's|they)\b", re.I)


def negated(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """An amenity without a span affirmed of the one named entity in a later sentence opening
    with "it": negated (fault: the entity has it) or affirmed with "does" (twin)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for t in dialogue.turns:
        names = [a for a in t.acts if a.slot == "name" and a.span is not None and a.domain == "hotel"]
        if t.speaker != "system" or len({normalize(a.value or "") for a in names}) != 1:
            continue
        var = next((v for v in csp.variables if v.turn == t.index and v.span == names[0].span), None)
        rows = [r for r in kb.tables["hotel"].normalized() if var is not None and r.get("name") == csp.assignment.get(var.name)]
        for m in AFFIRMED.finditer(t.utterance):
            column = COLUMN[m.group(1).lower()]
            start = sentence_of(t.utterance, Span(start=m.start(), end=m.end()))[0]
            if (len(rows) == 1 and rows[0].get(column) == "yes" and start >= names[0].span.end
                    and REFERRING.match(t.utterance, start) and not any(
                        a.slot == column and a.span is not None for a in t.acts)
                    and any(a.slot == column and a.value is None for a in t.acts)):
                options.append((t.index, Span(start=m.start(), end=m.end()), m.group(1)))
    if not options:
        return None
    turn, span, word = rng.choice(options)
    return (edit(dialogue, turn, span, f"does not have free {word}"), edit(dialogue, turn, span, f"does have free {word}"))


#: A user's price word before the kind it says ("cheap hotel"), and the comparative of its scale's end.
PRICED = re.compile(r"(cheap|expensive) (hotel|restaurant|guesthouse|place)\b", re.I)
SCALE = {"cheap": "cheaper", "expensive": "more expensive"}


def scale_end(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A user's price range said as the end of the scale ("a hotel on the cheaper side"): a later
    count of the search made the count without the price filter (fault: the words say cheap) or
    left as it was (twin)."""
    csp = dialogue_csp(dialogue, kb)
    by_name = {v.name: v for v in csp.variables}
    options = []
    for c in csp.constraints:
        if not isinstance(c, CountInstance) or c.count_variable not in by_name:
            continue
        amount = by_name[c.count_variable]
        if amount.span is None or amount.amount_op != "=" or not isinstance(csp.assignment.get(amount.name), int):
            continue
        for j, n in enumerate(c.variables):
            v = by_name[n]
            if v.slot != "pricerange" or v.speaker != "user" or v.span is None:
                continue
            m = PRICED.match(dialogue.turns[v.turn].utterance, v.span.start)
            if m is None or m.end(1) != v.span.end:
                continue
            rows, ops = csp.kbs[c.kb], c.ops or ["="] * len(c.columns)
            keep = [i for i in range(len(c.columns)) if i != j]
            sure, possible = count_matches(rows, c.columns, [csp.assignment[x] for x in c.variables], ops)
            other = count_matches(rows, [c.columns[i] for i in keep], [csp.assignment[c.variables[i]] for i in keep],
                                  [ops[i] for i in keep])[0]
            if sure == possible == csp.assignment[amount.name] and other > possible + 1:
                options.append((v, m, amount, other))
    if not options:
        return None
    v, m, amount, other = rng.choice(options)
    words = f"{m.group(2)} on the {SCALE[m.group(1).lower()]} side"
    twin = edit(dialogue, v.turn, Span(start=m.start(), end=m.end()), words)
    at = m.start() + words.index(SCALE[m.group(1).lower()])
    for a in twin.turns[v.turn].acts:  # the price act's span on its comparative
        if a.slot == "pricerange" and a.span is not None and m.start() <= a.span.start < m.end():
            a.span = Span(start=at, end=at + len(SCALE[m.group(1).lower()]))
    assert amount.span is not None
    return edit(twin, amount.turn, amount.span, str(other)), twin


AREAS = ("centre", "north", "south", "east", "west")
EXAMPLE_WORDS = re.compile(r"\b(?:such as|including|for example|like)\b", re.I)


def examples(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A group's area before names it lists ("two indian restaurants in the east : the curry
    prince and the rajmahal"), the names put after "such as": the area made one no listed entity
    has (fault) or kept (twin)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for t in dialogue.turns:
        if t.speaker != "system":
            continue
        for area in [a for a in t.acts if a.slot == "area" and a.span is not None]:
            start, end = sentence_of(t.utterance, area.span)
            names = sorted((a for a in t.acts if a.slot == "name" and a.span is not None and a.domain == area.domain
                            and start <= a.span.start < end), key=lambda a: a.span.start)  # type: ignore[union-attr]
            table = kb.tables.get(area.domain)
            if len(names) < 2 or names[0].span.start < area.span.end or table is None:  # type: ignore[union-attr]
                continue
            if re.search(r"\b(?:from|between|they are|are|is)\s*$", t.utterance[area.span.end : names[0].span.start]):  # type: ignore[union-attr]
                continue  # "from Camboats to …", "they are X and Y": no place for "such as"
            said = [v for v in csp.variables if v.turn == t.index and any(v.span == a.span for a in names)]
            rows = {r.get("name"): r for r in table.normalized()}
            theirs = {rows[str(csp.assignment.get(v.name))].get("area") for v in said if str(csp.assignment.get(v.name)) in rows}
            if len(said) != len(names) or len(theirs) != 1 or None in theirs:
                continue
            wrong = [a for a in AREAS if normalize(a) not in theirs and normalize(a) != "centre" or a == "centre" and "center" not in theirs]
            options.append((t.index, area.span, names[0].span, rng.choice(wrong)))
    if not options:
        return None
    turn, area_span, first, wrong = rng.choice(options)
    text = dialogue.turns[turn].utterance
    gap = text[area_span.end : first.start]
    colon = gap.rstrip().endswith(":")
    at = Span(start=area_span.end + gap.rstrip().rfind(":"), end=first.start) if colon else Span(start=first.start, end=first.start)
    marked = dialogue if EXAMPLE_WORDS.search(gap) else edit(dialogue, turn, at, ", such as " if colon else "such as ")
    return edit(marked, turn, area_span, wrong), marked


def vague_part(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A turn of two counts told apart by their kinds: the first said "several" (text and act),
    the second made its KB count + 3 (fault) or kept (twin)."""
    csp = dialogue_csp(dialogue, kb)
    by_name = {v.name: v for v in csp.variables}
    options = []
    for t in dialogue.turns:
        acts = sorted((a for a in t.acts if a.role is ActRole.COUNT and a.span is not None), key=lambda a: a.span.start)  # type: ignore[union-attr]
        if t.speaker != "system" or len(acts) != 2:
            continue
        for c in csp.constraints:
            amount = by_name.get(getattr(c, "count_variable", ""))
            if not isinstance(c, CountInstance) or amount is None or amount.span != acts[1].span or amount.amount_op != "=":
                continue
            sure, possible = count_matches(csp.kbs[c.kb], c.columns, [csp.assignment[n] for n in c.variables], c.ops)
            if sure == possible == csp.assignment.get(amount.name):
                options.append((t.index, acts[0], amount, possible + 3))
    if not options:
        return None
    turn, first, amount, wrong = rng.choice(options)
    assert first.span is not None and amount.span is not None
    twin = edit(dialogue, turn, first.span, "several")
    for a in twin.turns[turn].acts:
        if a.role is ActRole.COUNT and a.span is not None and a.span.start == first.span.start:
            a.value = a.canonical = "several"
    shift = len("several") - (first.span.end - first.span.start)
    return edit(twin, turn, Span(start=amount.span.start + shift, end=amount.span.end + shift), str(wrong)), twin


GENERATORS: dict[str, Generator] = {"unrelaxed": unrelaxed, "negated": negated, "scale_end": scale_end,
                                    "examples": examples, "vague_part": vague_part}
