"""Fault and true twin for the raw-text reading classes of issue 18's second reading (the
annotator's guesses of :mod:`csp_check.annotate`, the rules of :mod:`csp_check.language.certainty`),
in the form of :mod:`csp_check.faults.raw_twins`: each chooser gives the places of a raw-text
dialogue where the class fits, as ``(fault edits, twin edits)`` (turn → new utterance). The fault
is a real contradiction of the class's shape (must be flagged certain); the twin is the innocent
wording the class reads (must not be flagged certain).

Reading rules (what each pair writes; ``booking_failure`` and ``street_area`` only into a turn
that writes no area of X's domain, where the added area would make the turn say two):

- ``booking_failure`` — after a system turn offering a restaurant or hotel X: the fault adds
  "Sorry , there are no <plural> in the <X's area> ." (C4: X is there); the twin adds "I 'm
  sorry , booking was unsuccessful : there are no <plural> available in the <X's area> ." (a
  booking's failure, no statement that nothing matches).
- ``train_time`` — a system turn offering a train T (one id of the DB; leaving at L, arriving at A > L), then a user
  and a system turn: the fault makes the user say "I need to arrive by L ." and the system "It
  arrives at A ." (C5: T arrives after the bound); the twin makes the user ask "What is the
  arrival time of the L train ?" (a time naming the train, no bound).
- ``unread_food`` — a user turn asking for a restaurant with no food said yet, then a system turn:
  the user adds "I really miss <F> ." and the system says "I 'm sorry , there are no
  restaurants like that ."; the fault's F is a food the KB has under the request (C4), the twin's
  a people's word no KB value has ("eritrean": the request is unread).
- ``price_range`` — a user turn before a system turn offering a cheap (expensive) entity X: the
  fault adds "It should be moderate in price ." (C5: X is not moderate); the twin "It should be
  low to moderate in price ." ("moderate to high" for an expensive X: a range, the column unread).
- ``street_area`` — after a system turn offering an entity X in area A: the fault adds "It is in
  the <B> ." (C5, B another area); the twin "It is on <B> Road ." (a street's name, no area).
- ``fallback`` — a user turn with no area asked before a system turn offering X in area A: the
  fault adds "I want it in the <B> ." (C5, B another area); the twin "I want it in the <B> , if not
  then the <A> ." (a fallback the user asked too).
- ``part_count`` — a system count N of a search with no area (N the KB's count): the system turn
  becomes "There are N <plural> in the <B> ." (C6: the KB has M ≠ N there) or, the twin, "There
  are N <plural> , M of them in the <B> ." (the count of one part, said after another number).
"""

from __future__ import annotations

from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.lexicon import BOUND_COLUMNS, ENTITY_COLUMNS
from csp_check.models import ActRole, Dialogue, KnowledgeBase

Edits = dict[int, str]
Place = tuple[Edits, Edits]
#: The areas a pair may name, and the plural noun of each domain's entities.
AREAS = ("north", "south", "east", "west", "centre")
PLURALS = {"restaurant": "restaurants", "hotel": "hotels", "attraction": "attractions"}
#: Words of a people no MultiWOZ food is (the twin of ``unread_food`` takes one the KB lacks).
UNREAD_FOODS = ("eritrean", "hungarian", "cornish", "bolivian")


def offered_entity(annotator, turn) -> tuple[str, str, dict[str, str] | None]:  # type: ignore[no-untyped-def]
    """``(domain, name, KB row)`` of the one entity a system turn offers by name, or empty."""
    names = {(a.domain, a.canonical) for a in turn.acts if a.role is ActRole.OFFER and a.slot in ENTITY_COLUMNS and a.canonical}
    if turn.speaker != "system" or len(names) != 1:
        return "", "", None
    domain, name = next(iter(names))
    return domain, name, annotator.row(domain, name)


def says_area(turn, domain: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether a turn already writes an area of ``domain``: a fault giving or denying another area
    there makes the turn say two (a correction or alternatives, read with a doubt), not one false claim."""
    return any(a.domain == domain and a.slot == "area" and a.span is not None for a in turn.acts)


def area_word(area: str) -> str:
    """How a pair writes a KB area ("center" as "centre")."""
    return "centre" if area in ("centre", "center") else area


def ended(utterance: str) -> str:
    """``utterance`` ending a sentence (" ." added where it ends none), so a sentence can follow."""
    return utterance if utterance.rstrip()[-1:] in ".!?" else f"{utterance} ."


def booking_failure(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out = []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if row is None or domain not in ("restaurant", "hotel") or not row.get("area") or says_area(turn, domain):
            continue
        area = f"{area_word(row['area'])} of town"
        fault = f"{turn.utterance} Sorry , there are no {PLURALS[domain]} in the {area} ."
        twin = f"{turn.utterance} I 'm sorry , booking was unsuccessful : there are no {PLURALS[domain]} available in the {area} ."
        out.append(({k: fault}, {k: twin}))
    return out


def train_time(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out = []
    for k, turn in enumerate(annotated.turns[:-2]):
        domain, _, row = offered_entity(annotator, turn)
        after = annotated.turns[k + 2]
        if domain != "train" or row is None or annotated.turns[k + 1].speaker != "user":
            continue
        if sum(e.get("trainID") == row.get("trainID") for e in kb.tables["train"].entities) != 1:
            continue  # an id the DB gives two trains: which one arrives when is not the pair's to say
        leave, arrive = row.get("leaveAt", ""), row.get("arriveBy", "")
        if not leave or not arrive or arrive <= leave or any(a.slot in ENTITY_COLUMNS for a in after.acts):
            continue
        user = annotated.turns[k + 1].utterance
        said = f"It arrives at {arrive} . {after.utterance}"
        out.append(({k + 1: f"{user} I need to arrive by {leave} .", k + 2: said},
                    {k + 1: f"{user} What is the arrival time of the {leave} train ?", k + 2: said}))
    return out


def unread_food(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    table = kb.tables.get("restaurant")
    foods = sorted({e.get("food", "") for e in table.entities} - {""}) if table else []
    unknown = next((w for w in UNREAD_FOODS if w not in foods), None)
    out: list[Place] = []
    if unknown is None:
        return out
    for k in range(1, len(annotated.turns)):
        user, turn = annotated.turns[k - 1], annotated.turns[k]
        if turn.speaker != "system" or not any(a.domain == "restaurant" for a in user.acts):
            continue
        state = user.state.get("restaurant", {})
        if "food" in state or any(len(v) != 1 for v in state.values()) or set(state) & set(BOUND_COLUMNS):
            break
        filters = {s: v[0] for s, v in state.items() if s not in ENTITY_COLUMNS}
        food = next((f for f in foods if " " not in f and annotator.count("restaurant", {**filters, "food": f})[0] > 0), None)
        if food is None:
            break
        denial = "I 'm sorry , there are no restaurants like that ."
        out.append(({k - 1: f"{user.utterance} I really miss {food} .", k: denial},
                    {k - 1: f"{user.utterance} I really miss {unknown} .", k: denial}))
        break
    return out


def price_range(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out = []
    for k in range(1, len(annotated.turns)):
        domain, _, row = offered_entity(annotator, annotated.turns[k])
        user = annotated.turns[k - 1]
        if row is None or user.speaker != "user" or row.get("pricerange") not in ("cheap", "expensive"):
            continue
        if "pricerange" in user.state.get(domain, {}):
            continue  # the request has a price range already
        spread = "low to moderate" if row["pricerange"] == "cheap" else "moderate to high"
        out.append(({k - 1: f"{user.utterance} It should be moderate in price ."},
                    {k - 1: f"{user.utterance} It should be {spread} in price ."}))
    return out


def street_area(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out = []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if row is None or area_word(row.get("area", "")) not in AREAS or says_area(turn, domain):
            continue
        other = next(a for a in AREAS[:4] if a != row["area"])
        out.append(({k: f"{turn.utterance} It is in the {other} ."}, {k: f"{turn.utterance} It is on {other.title()} Road ."}))
    return out


def part_count(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out = []
    for k, turn in enumerate(annotated.turns):
        counts = [a for a in turn.acts if a.role is ActRole.COUNT and a.span is not None and a.domain in PLURALS]
        if turn.speaker != "system" or len(counts) != 1:
            continue
        domain = counts[0].domain
        state = turn.state.get(domain, {})
        if not state or "area" in state or any(len(v) != 1 for v in state.values()) or set(state) & set(BOUND_COLUMNS):
            continue
        filters = {s: v[0] for s, v in state.items() if s not in ENTITY_COLUMNS}
        sure, possible = annotator.count(domain, filters)
        if sure != possible or sure < 3:
            continue
        for area in AREAS:
            m = annotator.count(domain, {**filters, "area": "centre" if area == "centre" else area})
            if m[0] == m[1] and 1 <= m[0] < sure:
                noun = f"{filters['type']}s" if filters.get("type", "").isalpha() else PLURALS[domain]
                out.append(({k: f"There are {sure} {noun} in the {area} ."},
                            {k: f"There are {sure} {noun} , {m[0]} of them in the {area} ."}))
                break
    return out


def fallback(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out = []
    for k in range(1, len(annotated.turns)):
        domain, _, row = offered_entity(annotator, annotated.turns[k])
        user = annotated.turns[k - 1]
        area = area_word((row or {}).get("area", ""))
        if row is None or user.speaker != "user" or area not in AREAS or "area" in user.state.get(domain, {}):
            continue
        other = next(a for a in AREAS[:4] if a != area)
        out.append(({k - 1: f"{user.utterance} I want it in the {other} ."},
                    {k - 1: f"{user.utterance} I want it in the {other} , if not then the {area} ."}))
    return out


#: The choosers by pair kind (their rules: the module doc).
CHOOSERS = {"booking_failure": booking_failure, "train_time": train_time, "unread_food": unread_food,
            "price_range": price_range, "street_area": street_area, "part_count": part_count,
            "fallback": fallback}  # fmt: skip
