"""Fault and true twin for the raw-text classes of issue 18's third reading and of an outside
attacker's misses (the annotator's reading rules of :mod:`csp_check.annotate`), in the form of
:mod:`csp_check.faults.raw_reading_pairs`: each chooser gives the places of a raw-text dialogue
where the class fits, as ``(fault edits, twin edits)`` (turn → new utterance). The fault is a real
contradiction of the class's shape (must be flagged certain); the twin is the innocent wording
(must not be flagged certain).

Reading rules (what each pair writes):

- ``invented_name`` — after a system turn offering one restaurant, hotel or attraction X (named
  by the DB) in area A: the fault adds "<N> is a nice place in the <A> ." with N a name no entity
  of the DB has (:data:`INVENTED`; C5: no entity has it), the twin the same sentence with X's name
  (true of X); a second place of each turn writes "I recommend <N> ." / "I recommend <X> .".
- ``bare_count`` — a system count N of a search with one value per column (N the DB's count of
  the search): the turn becomes "I have <N + 2> that match ." (C6, a count with no domain noun:
  its domain is the search in force: the request of the user turn before, which the new turn keeps);
  the twin "I have <N> that match .".
- ``twelve_hour`` — a system turn offering a train T that leaves at L (14:00 to 21:59), written
  and read once in the turn: the fault writes L an hour earlier in the 24-hour clock (C5: T leaves at L);
  the twin writes L on the 12-hour clock without am / pm ("1:45" for 13:45: h or h + 12, no clash).
- ``address_word`` — after a system turn offering X (restaurant, hotel or attraction) in an area
  other than the centre, the turn writing no area: the fault adds "It is in the city centre ."
  (C5), the twin "It is on Fenner Street City Centre ." (an address's words, no area); after one
  offering an attraction of a type other than park: the fault adds "It is a park ." (C5), the
  twin "It is near Fenner Business Park ." (a place's name, no type).
- ``another_entity`` — after a system turn offering one hotel X of s stars that writes no star
  rating: the fault adds "It is a <s'> star <X's type> ." (C5, s' another rating some hotel has),
  the twin "There is also a <s'> star <X's type> ." (an indefinite noun brings in another entity:
  the rating need not be X's).
- ``cheaper_switch`` — a user turn with no price range before a system turn offering a cheap or
  moderate restaurant or hotel X: the fault adds "The <domain> should be expensive ." (C5: X is
  not), the twin the same and "Actually , is there anything cheaper ?" (the user switches to a
  cheaper search: the price said before is no longer in force).
- ``not_a_denial`` — after a system turn offering one restaurant or hotel X in area A, the turn
  writing no area: the fault adds "Sorry , there are no <plural> in the <A> ." (C4: X is there);
  the twins praise X ("Nothing beats <X> in the <A> !") or follow a negation with a sentence of
  its own ("No problem ! Any <plural> in the <A> can be booked for you .": the negation is not
  that sentence's).
- ``referred_denial`` — a system turn answering a restaurant request with no food and no area
  yet: the turn becomes "You mentioned <F> food . I have nothing like that in the <A> ."; the
  fault's F has a restaurant of the request in A (C4), the twin's none while A has other
  restaurants of the request (the denial refers back to F: it keeps the food; before, the food
  was dropped and "no restaurants in A" flagged).
- ``breakdown_part`` — a system hotel count of a search with no type, one value per column, whose
  N hotels are g guesthouses and h hotels (both ≥ 1): the fault makes the turn "There are N options
  , all guesthouses ." (C6: g ≠ N), the twin "There are N options : one guesthouse and one hotel ."
  (the kind of a part of the breakdown, not of the total).
- ``named_area`` — a system turn offering one restaurant, hotel or attraction X (area A) that
  writes no area, after a system turn that offered Y of another of those domains (area C ≠ A):
  the twin adds a sentence giving C as Y's ("<Y> is in the <C> .", "It is a short ride from <Y> ,
  which is in the <C> .", "<Y> is located in the <C> ."), the fault the same with X the subject
  ("<X> is in the <C> ." …; C5). A value said of a named entity is of that entity's domain.
"""

from __future__ import annotations

from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.lexicon import BOUND_COLUMNS, ENTITY_COLUMNS
from csp_check.faults.raw_reading_pairs import AREAS, area_word, ended, offered_entity, says_area
from csp_check.models import ActRole, Dialogue, KnowledgeBase

Edits = dict[int, str]
Place = tuple[Edits, Edits]
#: Names no MultiWOZ entity has (a chooser keeps only those the KB lacks).
INVENTED = {"restaurant": ("Bluebell Kitchen", "The Saffron Table", "Riverside Bistro"),
            "hotel": ("Willowbrook Lodge", "Cityview House", "The Granta Inn"),
            "attraction": ("Marlowe Gallery", "The Fenland Collection", "Cherrywood Gardens")}  # fmt: skip


def invented_name(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if row is None or domain not in INVENTED or not row.get("area") or not row.get("name"):
            continue
        fake = next((n for n in INVENTED[domain] if annotator.row(domain, n) is None), None)
        if fake is None:
            continue
        real = row["name"].title()
        area = "centre" if row["area"] in ("centre", "center") else row["area"]
        said = ended(turn.utterance)
        out.append(({k: f"{said} {fake} is a nice place in the {area} ."}, {k: f"{said} {real} is a nice place in the {area} ."}))
        out.append(({k: f"{said} I recommend {fake} ."}, {k: f"{said} I recommend {real} ."}))
    return out


def bare_count(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, turn in enumerate(annotated.turns):
        counts = [a for a in turn.acts if a.role is ActRole.COUNT and a.span is not None]
        if turn.speaker != "system" or len(counts) != 1 or k == 0:
            continue
        domain = counts[0].domain
        state = annotated.turns[k - 1].state.get(domain, {})  # the request: the new turn writes no value
        if not state or any(len(v) != 1 for v in state.values()) or set(state) & set(BOUND_COLUMNS):
            continue
        filters = {s: v[0] for s, v in state.items() if s not in ENTITY_COLUMNS}
        sure, possible = annotator.count(domain, filters)
        if sure != possible or sure < 1:
            continue
        out.append(({k: f"I have {sure + 2} that match ."}, {k: f"I have {sure} that match ."}))
    return out


def twelve_hour(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        leave = (row or {}).get("leaveAt", "")
        if domain != "train" or row is None or len(leave) != 5 or not "14" <= leave[:2] <= "21":
            continue
        if sum(e.get("trainID") == row.get("trainID") for e in kb.tables["train"].entities) != 1:
            continue  # an id the DB gives two trains: which one leaves when is not the pair's to say
        if turn.utterance.count(leave) != 1 or not any(a.slot == "leaveAt" and a.canonical == leave for a in turn.acts):
            continue
        hour = int(leave[:2])
        out.append(({k: turn.utterance.replace(leave, f"{hour - 1:02d}:{leave[3:]}")},
                    {k: turn.utterance.replace(leave, f"{hour - 12}:{leave[3:]}")}))
    return out


def address_word(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if row is None or domain not in INVENTED:
            continue
        if row.get("area") not in (None, "", "centre", "center") and not says_area(turn, domain):
            out.append(({k: f"{turn.utterance} It is in the city centre ."},
                        {k: f"{turn.utterance} It is on Fenner Street City Centre ."}))
        if domain == "attraction" and row.get("type") not in (None, "", "park"):
            if not any(a.domain == domain and a.slot == "type" and a.span is not None for a in turn.acts):
                out.append(({k: f"{turn.utterance} It is a park ."}, {k: f"{turn.utterance} It is near Fenner Business Park ."}))
    return out


def another_entity(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    ratings = sorted({e.get("stars", "") for e in kb.tables["hotel"].entities} - {""}) if "hotel" in kb.tables else []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if domain != "hotel" or row is None or row.get("type") not in ("hotel", "guesthouse") or not row.get("stars"):
            continue
        if any(a.slot == "stars" and a.span is not None for a in turn.acts):
            continue
        other = next((r for r in ratings if r != row["stars"]), None)
        said = ended(turn.utterance)
        if other is not None:
            out.append(({k: f"{said} It is a {other} star {row['type']} ."}, {k: f"{said} There is also a {other} star {row['type']} ."}))
    return out


def cheaper_switch(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k in range(1, len(annotated.turns)):
        domain, _, row = offered_entity(annotator, annotated.turns[k])
        user = annotated.turns[k - 1]
        if row is None or domain not in ("restaurant", "hotel") or row.get("pricerange") not in ("cheap", "moderate"):
            continue
        if user.speaker != "user" or any(a.slot == "pricerange" for a in user.acts):
            continue
        said, noun = ended(user.utterance), f"The {domain}"
        out.append(({k - 1: f"{said} {noun} should be expensive ."},
                    {k - 1: f"{said} {noun} should be expensive . Actually , is there anything cheaper ?"}))
    return out


#: The plural noun of each domain's entities.
PLURALS = {"restaurant": "restaurants", "hotel": "hotels"}


def not_a_denial(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if row is None or domain not in PLURALS or not row.get("area") or says_area(turn, domain):
            continue
        said, area = ended(turn.utterance), "centre" if row["area"] in ("centre", "center") else row["area"]
        fault = f"{said} Sorry , there are no {PLURALS[domain]} in the {area} ."
        out.append(({k: fault}, {k: f"{said} Nothing beats {row['name'].title()} in the {area} !"}))
        out.append(({k: fault}, {k: f"{said} No problem ! Any {PLURALS[domain]} in the {area} can be booked for you ."}))
    return out


def referred_denial(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    table = kb.tables.get("restaurant")
    foods = sorted({e.get("food", "") for e in table.entities if e.get("food", "").isalpha()}) if table else []
    out: list[Place] = []
    for k in range(1, len(annotated.turns)):
        user, turn = annotated.turns[k - 1], annotated.turns[k]
        if turn.speaker != "system" or not any(a.domain == "restaurant" for a in user.acts):
            continue
        state = user.state.get("restaurant", {})
        if {"food", "area"} & set(state) or any(len(v) != 1 for v in state.values()) or set(state) & set(BOUND_COLUMNS):
            break
        filters = {s: v[0] for s, v in state.items() if s not in ENTITY_COLUMNS}
        for area in ("north", "south", "east", "west"):
            if annotator.count("restaurant", {**filters, "area": area})[0] == 0:
                continue
            there = [f for f in foods if annotator.count("restaurant", {**filters, "area": area, "food": f})[0] > 0]
            absent = [f for f in foods if annotator.count("restaurant", {**filters, "area": area, "food": f})[1] == 0]
            if there and absent:
                said = "You mentioned {} food . I have nothing like that in the {} ."
                out.append(({k: said.format(there[0], area)}, {k: said.format(absent[0], area)}))
                break
        break
    return out


def breakdown_part(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, turn in enumerate(annotated.turns):
        counts = [a for a in turn.acts if a.role is ActRole.COUNT and a.span is not None and a.domain == "hotel"]
        if turn.speaker != "system" or len(counts) != 1 or k == 0:
            continue
        state = annotated.turns[k - 1].state.get("hotel", {})
        if not state or "type" in state or any(len(v) != 1 for v in state.values()) or set(state) & set(BOUND_COLUMNS):
            continue
        filters = {s: v[0] for s, v in state.items() if s not in ENTITY_COLUMNS}
        total = annotator.count("hotel", filters)
        guesthouses = annotator.count("hotel", {**filters, "type": "guesthouse"})
        hotels = annotator.count("hotel", {**filters, "type": "hotel"})
        if any(c[0] != c[1] for c in (total, guesthouses, hotels)) or min(guesthouses[0], hotels[0]) < 1:
            continue
        n = total[0]
        out.append(({k: f"There are {n} options , all guesthouses ."}, {k: f"There are {n} options : one guesthouse and one hotel ."}))
    return out


#: The choosers by pair kind (their rules: the module doc).
#: The domains of ``named_area`` and its (twin, fault) wordings: Y's name, X's name, Y's area.
NAMED_DOMAINS = ("restaurant", "hotel", "attraction")
NAMED_AREAS = (("{y} is in the {c} .", "{x} is in the {c} ."),
               ("It is a short ride from {y} , which is in the {c} .", "{x} is in the {c} , a short ride from {y} ."),
               ("{y} is located in the {c} .", "{x} is located in the {c} ."))  # fmt: skip


def named_area(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    earlier: tuple[str, str, str] | None = None  # (domain, name as said, area) of the last entity offered
    for k, turn in enumerate(annotated.turns):
        domain, name, row = offered_entity(annotator, turn)
        if row is None or domain not in NAMED_DOMAINS:
            continue
        said = next(a.value for a in turn.acts if a.role is ActRole.OFFER and a.canonical == name)
        area = area_word(row.get("area", ""))
        if earlier is not None and earlier[0] != domain and area in AREAS and earlier[2] != area and not says_area(turn, domain):
            text = ended(turn.utterance)
            for twin, fault in NAMED_AREAS:
                out.append(({k: f"{text} {fault.format(x=said, y=earlier[1], c=earlier[2])}"},
                            {k: f"{text} {twin.format(x=said, y=earlier[1], c=earlier[2])}"}))  # fmt: skip
        if area in AREAS:
            earlier = (domain, str(said), area)
    return out


CHOOSERS = {"invented_name": invented_name, "bare_count": bare_count, "twelve_hour": twelve_hour,
            "address_word": address_word, "another_entity": another_entity,
            "cheaper_switch": cheaper_switch, "not_a_denial": not_a_denial,
            "referred_denial": referred_denial, "breakdown_part": breakdown_part, "named_area": named_area}
