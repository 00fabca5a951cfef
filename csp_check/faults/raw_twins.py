"""Fault and true twin for each raw-text reading class the annotator settles: the same words once
false of the DB (must be flagged certain) and once in the wording the class reads as no claim (must
not be flagged certain).

Reading rules (what each pair writes into a copy of a raw-text dialogue the checker accepts; a
pair that gives or denies an area goes only into a turn that writes no area of its domain, where
it would make the turn say two):

- ``denied_thing`` — after a system turn offering an entity: the twin adds "I 'm sorry , there are
  no tables available at X at that time ." (rooms for a hotel; "there is no entrance fee for X" for
  a free attraction): a denial of a booking or price thing, no no-result; the fault adds "Sorry ,
  there are no <domain nouns> in the <X's area> .", false of the DB since X is there (C4).
- ``frequency`` — a train count ("There are 5 trains …") becomes a number the KB contradicts: the
  fault is that count (C6); the twin adds "an hour" after the noun ("7 trains an hour"), a
  frequency, no count.
- ``asked_column`` — a count whose search holds a column of the request the count's sentence does
  not write: the number becomes the KB's count without that column; the twin asks that column in
  the same turn ("What day would you like ?": the count is of the search without it), the fault
  restates the column's value in the count's clause ("… in the cheap price range"), which makes
  the number a claim of the full search; a fault is written only where the number fits no search
  left by lifting the filters its turn still does not restate (C6; a count that merely leaves a
  filter unsaid may be of the search before it, and is for review).
- ``negated_value`` — after a system turn offering one entity with an area: the fault adds "It is
  in the <another area> ." (false of the entity: C5); the twin adds "It is not in the <another
  area> ." — a value right after a negation may be the value denied: read with a doubt, never
  flagged certain.
- ``denied_pair`` — a system turn after a user turn asking for a restaurant in one area, in a
  dialogue that names no food up to it: the fault adds "There is <F> food in the <A2> ." (no <F> restaurant
  there: C5); the twin adds "There is <F> food in the <A1> . The <A2> has many cuisines but no
  <F> food ." — a value denied in the sentence of another says the two do not go together.
- ``booking_failure``, ``train_time``, ``unread_food``, ``price_range``, ``street_area``,
  ``part_count``, ``fallback`` — the pairs of :mod:`csp_check.faults.raw_reading_pairs` (issue 18's second
  reading: a failed booking, a time naming a train, an unread cuisine, a price range, a street's
  name, a count of one part, a fallback), which may edit two turns.
- ``invented_name``, ``bare_count``, ``twelve_hour``, ``address_word``, ``another_entity``,
  ``cheaper_switch``, ``not_a_denial``, ``referred_denial``, ``breakdown_part``, ``named_area`` — the pairs of
  :mod:`csp_check.faults.raw_attack_pairs` (an outside attacker's misses and issue 18's third
  reading: a name the DB lacks, a count with no domain noun, a clock time without am / pm, an
  address's words, a value said of another entity, a switch to a cheaper search, praise or a
  negation of another sentence read as a no-result, a denial referring back to a food, the kind
  of a breakdown's part, an area said of another named entity).
- ``price_noun``, ``withdrawn_price``, ``relaxed_elsewhere`` — the pairs of
  :mod:`csp_check.faults.raw_price_pairs` (which domain's noun a user's price word is of; a price
  the user withdraws; a relaxation said of another domain).
- ``rejected_area``, ``rather_day``, ``corrected_area``, ``third_party_area``, ``rejected_stars``, ``pronoun_switch``, ``negated_same``,
  ``self_correction``, ``unfit_offer`` — the pairs of
  :mod:`csp_check.faults.raw_rejection_pairs` (a value the user rejects; "rather" that prefers; a
  value the user corrects; a value of someone else's; "it" of the entity before a domain switch; a negated "same area";
  a system that corrects its own area; a name the system says does not fit).
- ``open_alternative``, ``negated_before``, ``named_fallback``, ``went_back`` — the pairs of
  :mod:`csp_check.faults.raw_alternative_pairs` (issue 18's sixth reading: an alternative the
  system offers as one; a negated "before", a lower bound on the departure; a fallback the user
  names; a user who goes back to an earlier offer).
"""

from __future__ import annotations

import random
from typing import Literal

from csp_check.annotate import annotate
from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.lexicon import BOUND_COLUMNS, ENTITY_COLUMNS
from csp_check.faults.raw_alternative_pairs import CHOOSERS as ALTERNATIVE_PAIRS
from csp_check.faults.raw_attack_pairs import CHOOSERS as ATTACK_PAIRS
from csp_check.faults.raw_price_pairs import CHOOSERS as PRICE_PAIRS
from csp_check.faults.raw_reading_pairs import CHOOSERS as SECOND_READING_PAIRS
from csp_check.faults.raw_reading_pairs import area_word, says_area
from csp_check.faults.raw_rejection_pairs import CHOOSERS as REJECTION_PAIRS
from csp_check.faults.wording import amount_text
from csp_check.language import certainty as words
from csp_check.models import ActRole, Dialogue, KnowledgeBase, Span

PairKind = Literal["denied_thing", "frequency", "asked_column", "negated_value", "denied_pair", "booking_failure",
                   "train_time", "unread_food", "price_range", "street_area", "part_count", "fallback",
                   "invented_name", "bare_count", "twelve_hour", "address_word", "another_entity", "cheaper_switch", "not_a_denial", "referred_denial", "breakdown_part",
                   "price_noun", "withdrawn_price", "relaxed_elsewhere", "rejected_area", "rather_day", "corrected_area", "third_party_area", "rejected_stars", "pronoun_switch", "negated_same", "self_correction", "named_area", "unfit_offer",
                   "open_alternative", "negated_before", "named_fallback", "went_back"]
#: The pairs that may edit two turns (:mod:`csp_check.faults.raw_reading_pairs`, :mod:`csp_check.faults.raw_attack_pairs`,
#: :mod:`csp_check.faults.raw_price_pairs`, :mod:`csp_check.faults.raw_rejection_pairs`).
READING_PAIRS = {**SECOND_READING_PAIRS, **ATTACK_PAIRS, **PRICE_PAIRS, **REJECTION_PAIRS, **ALTERNATIVE_PAIRS}
PAIR_KINDS: tuple[PairKind, ...] = ("denied_thing", "frequency", "asked_column", "negated_value", "denied_pair",
                                    *READING_PAIRS)  # type: ignore[arg-type]
#: The areas a fault of ``negated_value`` may move an entity to.
AREAS = ("north", "south", "east", "west", "centre")
#: The plural noun a fault's no-result names, per domain.
PLURALS = {"restaurant": "restaurants", "hotel": "hotels", "attraction": "attractions"}
#: How the twin of ``asked_column`` asks each column.
QUESTIONS = {"day": "What day would you like ?", "pricerange": "Do you have a preference on price range ?",
             "area": "Which area would you like ?", "food": "Any particular food type in mind ?",
             "stars": "What star rating would you like ?"}  # fmt: skip
#: How the fault of ``asked_column`` restates each column in the count's clause.
RESTATED = {"day": "on {v}", "pricerange": "in the {v} price range", "area": "in the {v} of town",
            "food": "that serve {v} food", "stars": "with a {v} star rating"}  # fmt: skip


def raw_pair(dialogue: Dialogue, kind: PairKind, rng: random.Random, kb: KnowledgeBase) -> tuple[Dialogue, Dialogue] | None:
    """(fault, twin): copies of the raw-text ``dialogue`` with the class ``kind``'s false and true
    wording (module doc), or ``None`` when the dialogue has no place for it."""
    annotated = annotate(dialogue, kb)
    if kind in READING_PAIRS:
        pairs = READING_PAIRS[kind](annotated, kb)
        if not pairs:
            return None
        fault_edits, twin_edits = rng.choice(pairs)
        return _with(dialogue, fault_edits), _with(dialogue, twin_edits)
    places = _CHOOSERS[kind](annotated, kb)
    if not places:
        return None
    turn, fault_text, twin_text = rng.choice(places)
    return _with(dialogue, {turn: fault_text}), _with(dialogue, {turn: twin_text})


def _with(dialogue: Dialogue, edits: dict[int, str]) -> Dialogue:
    out = dialogue.model_copy(deep=True)
    for turn, utterance in edits.items():
        out.turns[turn].utterance = utterance
    return out


def _offered_row(annotator, turn) -> tuple[str, str, dict[str, str] | None]:
    """``(domain, name, KB row)`` of the one entity a system turn offers by name, in a domain
    with a plural kind word; ``("", "", None)`` otherwise."""
    names = {(a.domain, a.canonical) for a in turn.acts if a.role is ActRole.OFFER and a.slot == "name" and a.canonical}
    if turn.speaker != "system" or len(names) != 1:
        return "", "", None
    domain, name = next(iter(names))
    return (domain, name, annotator.row(domain, name)) if domain in PLURALS else ("", "", None)


def _denied_thing(annotated: Dialogue, kb: KnowledgeBase) -> list[tuple[int, str, str]]:
    annotator = annotator_for(kb, {})
    out = []
    for k, turn in enumerate(annotated.turns):
        domain, name, row = _offered_row(annotator, turn)
        if row is None or not row.get("area") or says_area(turn, domain):
            continue  # a turn that gives the entity's area: the fault's no-result would contradict it in the turn
        if domain == "restaurant":
            twin = f"I 'm sorry , there are no tables available at {name} at that time ."
        elif domain == "hotel":
            twin = f"I 'm sorry , there are no rooms available at {name} for those nights ."
        elif row.get("entrance fee") == "free":
            twin = f"There is no entrance fee for {name} ."
        else:
            continue
        area = {"centre": "centre of town"}.get(row["area"], f"{row['area']} of town")
        fault = f"Sorry , there are no {PLURALS[domain]} in the {area} ."
        out.append((k, f"{turn.utterance} {fault}", f"{turn.utterance} {twin}"))
    return out


def _counts(annotated: Dialogue) -> list[tuple[int, object]]:
    return [(k, a) for k, t in enumerate(annotated.turns) for a in t.acts
            if a.role is ActRole.COUNT and a.span is not None and t.speaker == "system"]  # fmt: skip


def _frequency(annotated: Dialogue, kb: KnowledgeBase) -> list[tuple[int, str, str]]:
    annotator = annotator_for(kb, {})
    out = []
    for k, a in _counts(annotated):
        text = annotated.turns[k].utterance
        rest = text[a.span.end :]  # type: ignore[attr-defined]
        if a.domain != "train" or not rest.lower().startswith(" trains"):  # type: ignore[attr-defined]
            continue
        filters = {s: v[0] for s, v in annotated.turns[k].state.get("train", {}).items() if len(v) == 1
                   and s not in BOUND_COLUMNS and s not in ENTITY_COLUMNS}  # fmt: skip
        sure, possible = annotator.count("train", filters)
        new = next((n for n in (int(a.canonical) + d for d in (3, 5, 7)) if not sure <= n <= possible), None)  # type: ignore[attr-defined]
        if new is None:
            continue
        head = text[: a.span.start] + amount_text(new, text[a.span.start : a.span.end])  # type: ignore[attr-defined]
        out.append((k, head + rest, head + " trains an hour" + rest[len(" trains") :]))
    return out


def _asked_column(annotated: Dialogue, kb: KnowledgeBase) -> list[tuple[int, str, str]]:
    annotator = annotator_for(kb, {})
    out = []
    for k, a in _counts(annotated):
        turn = annotated.turns[k]
        said = {b.slot for b in turn.acts if b.span is not None and b.role is not ActRole.COUNT}
        state = turn.state.get(a.domain, {})  # type: ignore[attr-defined]
        if set(state) & set(BOUND_COLUMNS) or any(len(v) != 1 for v in state.values()):
            continue  # a count under a bound or an either-or: the twin's number is not one filter count
        own = {(b.slot, b.canonical) for b in turn.acts if b.span is not None and b.domain == a.domain  # type: ignore[attr-defined]
               and b.role is not ActRole.COUNT and b.slot not in ENTITY_COLUMNS}  # fmt: skip
        if any([value] != state.get(slot) for slot, value in own):
            continue  # "4 options … in either the centre or the north": the count is of the turn's own values too
        filters = {s: v[0] for s, v in state.items() if s not in ENTITY_COLUMNS}
        for column in sorted(set(filters) - said):
            if column not in QUESTIONS:
                continue
            without = {s: v for s, v in filters.items() if s != column}
            if not without:
                continue  # a count left with no search is left out
            sure, possible = annotator.count(a.domain, without)  # type: ignore[attr-defined]
            full = annotator.count(a.domain, filters)  # type: ignore[attr-defined]
            if sure != possible or sure < 2 or full[0] <= sure <= full[1]:
                continue
            unsaid = sorted(set(filters) - said - {column})
            lifted = [{s: v for s, v in filters.items() if s not in group} for group in [[u] for u in unsaid] + [unsaid]]
            if any(annotator.count(a.domain, f)[0] <= sure <= annotator.count(a.domain, f)[1] for f in lifted if f):  # type: ignore[attr-defined]
                continue  # the restated number would fit a search still unsaid: no sure fault
            text = turn.utterance
            counted = text[: a.span.start] + amount_text(sure, text[a.span.start : a.span.end]) + text[a.span.end :]  # type: ignore[attr-defined]
            shift = len(counted) - len(text)
            start, end = words.clause(counted, Span(start=a.span.start, end=a.span.end + shift))  # type: ignore[attr-defined]
            at = start + len(counted[start:end].rstrip(" .,!?;:"))
            restated = f"{counted[:at]} {RESTATED[column].format(v=area_word(filters[column]))}{counted[at:]}"
            out.append((k, restated, f"{counted} {QUESTIONS[column]}"))
            break
    return out


def _negated_value(annotated: Dialogue, kb: KnowledgeBase) -> list[tuple[int, str, str]]:
    annotator = annotator_for(kb, {})
    out = []
    for k, turn in enumerate(annotated.turns):
        domain, name, row = _offered_row(annotator, turn)
        if row is None or row.get("area") not in AREAS or says_area(turn, domain):
            continue
        other = AREAS[(AREAS.index(row["area"]) + 1) % len(AREAS)]
        out.append((k, f"{turn.utterance} It is in the {other} .", f"{turn.utterance} It is not in the {other} ."))
    return out


def _denied_pair(annotated: Dialogue, kb: KnowledgeBase) -> list[tuple[int, str, str]]:
    table = kb.tables.get("restaurant")
    areas: dict[str, set[str]] = {}
    for e in table.entities if table else []:
        if e.get("food") and e.get("area"):
            areas.setdefault(e["food"], set()).add(e["area"])
    out = []
    for k, turn in enumerate(annotated.turns):
        if any(a.domain == "restaurant" and a.slot == "food" for t in annotated.turns[: k + 1] for a in t.acts):
            break
        asked = {a.canonical for a in annotated.turns[k - 1].acts if a.domain == "restaurant" and a.slot == "area"} if k else set()
        if turn.speaker != "system" or len(asked) != 1:
            continue
        none = next(iter(asked)) or ""
        foods = sorted(f for f, a in areas.items() if none not in a and a & set(AREAS))
        if none not in AREAS and none != "center" or not foods:
            continue
        food = foods[k % len(foods)]
        there = sorted(areas[food] & set(AREAS))[0]
        said = "centre" if none == "center" else none
        out.append((k, f"{turn.utterance} There is {food} food in the {said} .",
                    f"{turn.utterance} There is {food} food in the {there} . The {said} has many cuisines but no {food} food ."))
    return out


_CHOOSERS = {"denied_thing": _denied_thing, "frequency": _frequency, "asked_column": _asked_column,
             "negated_value": _negated_value, "denied_pair": _denied_pair}  # fmt: skip
