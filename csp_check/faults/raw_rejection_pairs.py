"""Fault and true twin for a value the user rejects, corrects or prefers (an outside attacker's
classes: the rejected value read as asked, a corrected value kept as an alternative, "I'd rather
travel on Tuesday" read as no request), in the form of
:mod:`csp_check.faults.raw_reading_pairs`: each chooser gives ``(fault edits, twin edits)``
(turn → new utterance) per place; the fault must be flagged certain, the twin must not be.

Reading rules (what each pair writes):

- ``rejected_area`` — a user turn whose request has no area before a system turn offering one
  restaurant, hotel or attraction X in area A, no later turn counting that domain or naming
  another of its entities (the twin's area would filter that claim too): the fault adds a sentence asking for another area
  B and rejecting A ("I would like the B rather than the A .", "The A wo n't work for me , the B
  please ."; C5: X is in A), the twin the same with A and B swapped (A asked, B rejected).
- ``pronoun_switch`` — a system turn offering X (area A), then a user turn about another
  domain E only (no area of E asked), whose E entity offered later is in another area, no user
  turn from it on relaxing anything: the twin
  opens the user turn with "Great , I like that it is in the A ." ("it" is X, said before the
  turn names E), the fault adds "I would like the E to be in the A as well ." (C5).
- ``negated_same`` — the places of ``rejected_area`` where an entity Y of another domain, in an
  area B other than A, was offered before: the fault adds "It has to be in the same area as the
  <Y's domain> ." (C5: X is not in B), the twin "It does n't have to be in the same area as the
  <Y's domain> ." (a negated "same area" asks nothing).
- ``rejected_stars`` — a user turn whose hotel request has no star rating before a system turn
  offering one hotel X of s stars that writes no rating, no later turn counting hotels or naming
  another: the fault asks for another rating t and rejects s ("I want a t star place rather than
  a s star one .", "Rated t stars instead of s stars , please ."; C5), the twin swaps s and t.
- ``corrected_area`` — the same places: the fault asks for A and then corrects it to B ("I need
  it in the A . Sorry , I meant the B .", "The A , no wait , the B please ."; C5), the twin asks
  for B and corrects it to A (the value the user settles on is the request).
- ``third_party_area`` — the same places: a sentence giving someone else's area B ("My cousin
  works in the B", "Our friends live in the B"): the fault then asks for B (C5), the twin does
  not (a value said of another's, no request).
- ``rather_day`` — a user turn whose train request has no day before a system turn offering one
  train T (one id of the DB) that runs on day D: the fault adds "I 'd rather travel on E ." (E
  another day: C5), the twin "I 'd rather travel on D ." ("rather" without "than" prefers, it
  negates nothing).
- ``unfit_offer`` — a system turn offering one restaurant, hotel or attraction X after a user
  turn whose request gives one value v of a column (area, price range, food, type, stars): a
  sentence names another entity Z of the DB, in no turn of the dialogue, whose value of that
  column is not v. The fault says Z fits ("Z also meets your requirements .", 3 wordings; C5: Z is
  not what was asked), the twin that it does not ("Z does not meet your requirements ."): a name
  the system says does not fit is no offer.
- ``self_correction`` — a system turn offering one restaurant, hotel or attraction X (area A)
  that writes no area and names nothing of another domain, and the next system turn, which
  writes no area, names no entity and books nothing (neither turn naming another domain by its
  word): both pairs add "It is in the W ." to the offer (W another
  area, false of X) and end the next system turn with the system's own correction, "I made a
  mistake , X is actually in the A ." (3 wordings); the fault
  corrects to a third area V instead (C5: X is not in V). The twin's earlier area is taken back,
  so no claim stands against it.
"""

from __future__ import annotations

import re

from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.lexicon import DOMAIN_NOUNS, ENTITY_COLUMNS
from csp_check.faults.raw_reading_pairs import AREAS, area_word, ended, offered_entity, says_area
from csp_check.language.certainty import relaxed
from csp_check.models import ActRole, Dialogue, KnowledgeBase

Edits = dict[int, str]
Place = tuple[Edits, Edits]
REJECTING = ("I would like the {b} rather than the {a} .", "The {a} wo n't work for me , the {b} please .")
CORRECTING = ("I need it in the {a} . Sorry , I meant the {b} .", "The {a} , no wait , the {b} please .")
REJECTING_STARS = ("I want a {b} star place rather than a {a} star one .", "Rated {b} stars instead of {a} stars , please .")
#: (fault, twin): a value of someone else's, then asked for (the fault) or not (the twin).
THIRD_PARTY = [("My cousin works in the {b} , so I want to be in the {b} as well .",
                "My cousin works in the {b} , so I will see him tomorrow ."),
               ("Our friends live in the {b} . I need it in the {b} .", "Our friends live in the {b} .")]
#: The domains whose offered entity a pair edits around.
OFFERED = ("restaurant", "hotel", "attraction")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _others_after(annotated: Dialogue, k: int, domain: str, name: str) -> bool:
    """Whether a turn from ``k`` on counts ``domain``'s entities or names one other than ``name``
    (the twin's area would be a filter of that claim too)."""
    return any(a.domain == domain and (a.role is ActRole.COUNT or (a.slot in ENTITY_COLUMNS and a.canonical and a.canonical != name.lower()))
               for t in annotated.turns[k:] for a in t.acts)  # fmt: skip


def rejected_area(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    return _area_pairs(annotated, kb, [(w, w.format(a="{b}", b="{a}")) for w in REJECTING])


def corrected_area(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    return _area_pairs(annotated, kb, [(w, w.format(a="{b}", b="{a}")) for w in CORRECTING])


def third_party_area(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    return _area_pairs(annotated, kb, THIRD_PARTY)


def rejected_stars(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    ratings = sorted({e.get("stars", "") for e in kb.tables["hotel"].entities} - {""}) if "hotel" in kb.tables else []
    out: list[Place] = []
    for k in range(1, len(annotated.turns)):
        turn, user = annotated.turns[k], annotated.turns[k - 1]
        domain, _, row = offered_entity(annotator, turn)
        stars = (row or {}).get("stars", "")
        if domain != "hotel" or row is None or stars not in ratings or user.speaker != "user":
            continue
        if "stars" in user.state.get("hotel", {}) or any(a.slot == "stars" for a in turn.acts):
            continue
        if _others_after(annotated, k, domain, row.get("name", "")):
            continue
        other = next(r for r in ratings if r != stars)
        said = ended(user.utterance)
        for wording in REJECTING_STARS:
            out.append(({k - 1: f"{said} {wording.format(a=stars, b=other)}"}, {k - 1: f"{said} {wording.format(a=other, b=stars)}"}))
    return out


def pronoun_switch(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k in range(1, len(annotated.turns) - 2):
        domain, _, row = offered_entity(annotator, annotated.turns[k])
        user = annotated.turns[k + 1]
        area = area_word((row or {}).get("area", ""))
        spoken = {a.domain for a in user.acts if a.span is not None}
        if row is None or area not in AREAS or user.speaker != "user" or len(spoken) != 1 or domain in spoken:
            continue
        other = next(iter(spoken))
        if other not in OFFERED or "area" in user.state.get(other, {}):
            continue
        later = next((r for t in annotated.turns[k + 2 :] for d, _, r in [offered_entity(annotator, t)] if d == other), None)
        there = area_word((later or {}).get("area", ""))
        if there not in AREAS or there == area:
            continue
        if any(relaxed(t.utterance) for t in annotated.turns[k + 1 :] if t.speaker == "user"):
            continue  # the dialogue lifts a filter later: the fault's area may be lifted too
        comment = f"Great , I like that it is in the {area} ."
        out.append(({k + 1: f"{comment} {user.utterance} I would like the {other} to be in the {area} as well ."},
                    {k + 1: f"{comment} {user.utterance}"}))  # fmt: skip
        break
    return out


def negated_same(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k, domain, area in _area_places(annotated, kb):
        earlier = [offered_entity(annotator, t) for t in annotated.turns[: k - 1]]
        before = [(d, r) for d, _, r in earlier if r is not None and d != domain and d in OFFERED]
        if not before:
            continue
        other, that = before[-1]
        if area_word(that.get("area", "")) not in AREAS or area_word(that["area"]) == area:
            continue
        said = ended(annotated.turns[k - 1].utterance)
        out.append(({k - 1: f"{said} It has to be in the same area as the {other} ."},
                    {k - 1: f"{said} It does n't have to be in the same area as the {other} ."}))  # fmt: skip
    return out


def _area_pairs(annotated: Dialogue, kb: KnowledgeBase, wordings: list[tuple[str, str]]) -> list[Place]:
    """Per place (:func:`_area_places`) and per (fault, twin) wording, both formatted with X's area
    ``{a}`` and another ``{b}``."""
    out: list[Place] = []
    for k, _, area in _area_places(annotated, kb):
        other = next(a for a in AREAS[:4] if a != area)
        said = ended(annotated.turns[k - 1].utterance)
        for fault, twin in wordings:
            out.append(({k - 1: f"{said} {fault.format(a=area, b=other)}"}, {k - 1: f"{said} {twin.format(a=area, b=other)}"}))
    return out


def _area_places(annotated: Dialogue, kb: KnowledgeBase) -> list[tuple[int, str, str]]:
    """``(k, domain, area)`` of each system turn k offering one restaurant, hotel or attraction X
    in ``area``, writing no area of it, after a user turn whose request has no area, no turn from
    k on counting that domain or naming another of its entities (``rejected_area``'s places)."""
    annotator = annotator_for(kb, {})
    out = []
    for k in range(1, len(annotated.turns)):
        turn, user = annotated.turns[k], annotated.turns[k - 1]
        domain, _, row = offered_entity(annotator, turn)
        area = area_word((row or {}).get("area", ""))
        if row is None or domain not in OFFERED or area not in AREAS:
            continue
        if user.speaker != "user" or "area" in user.state.get(domain, {}) or says_area(turn, domain):
            continue
        if not _others_after(annotated, k, domain, row.get("name", "")):
            out.append((k, domain, area))
    return out


def rather_day(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    for k in range(1, len(annotated.turns)):
        turn, user = annotated.turns[k], annotated.turns[k - 1]
        domain, _, row = offered_entity(annotator, turn)
        day = (row or {}).get("day", "").lower()
        if domain != "train" or row is None or day not in DAYS or user.speaker != "user":
            continue
        if sum(e.get("trainID") == row.get("trainID") for e in kb.tables["train"].entities) != 1:
            continue  # an id the DB gives two trains: which day it runs is not the pair's to say
        if "day" in user.state.get("train", {}) or any(a.slot == "day" for a in turn.acts):
            continue
        other = DAYS[(DAYS.index(day) + 1) % 7]
        out.append(({k - 1: f"{ended(user.utterance)} I 'd rather travel on {other.title()} ."},
                    {k - 1: f"{ended(user.utterance)} I 'd rather travel on {day.title()} ."}))
    return out


#: The choosers by pair kind (their rules: the module doc).
#: Words of a booking's turn ("booked up", "your reservation", "reference number").
BOOKING = re.compile(r"\b(?:book|reserv|reference)\w*", re.I)
#: How ``self_correction`` has the system take its area back: X's name, the area that holds now.
SELF_CORRECTIONS = ("I made a mistake , {x} is actually in the {a} .", "My apologies for the confusion : {x} is in the {a} .",
                    "Sorry , I gave you the wrong area : {x} is in the {a} .")  # fmt: skip


def self_correction(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    turns = annotated.turns
    for k, turn in enumerate(turns[:-2]):
        domain, name, row = offered_entity(annotator, turn)
        area = area_word((row or {}).get("area", ""))
        after = turns[k + 2]
        if domain not in OFFERED or area not in AREAS or says_area(turn, domain) or after.speaker != "system" or says_area(after, domain):
            continue
        if any(a.domain != domain for a in turn.acts) or any(a.slot in ENTITY_COLUMNS for a in after.acts):
            continue  # "It" of a turn naming another domain's entity (a taxi's pick-up) is no sure X
        if BOOKING.search(after.utterance):
            continue  # a name in a booking's turn restates the booked entity: no claim of its own
        if _names_another_domain(turn.utterance, domain) or _names_another_domain(after.utterance, domain):
            continue  # "It" may be the hotel a taxi picks up at; a train turn's later counts are trains
        said = next(a.value for a in turn.acts if a.role is ActRole.OFFER and a.canonical == name)
        wrong, third = [a for a in AREAS if a != area][:2]
        offer = {k: f"{ended(turn.utterance)} It is in the {wrong} ."}
        for wording in SELF_CORRECTIONS:
            out.append(({**offer, k + 2: f"{ended(after.utterance)} {wording.format(x=said, a=third)}"},
                        {**offer, k + 2: f"{ended(after.utterance)} {wording.format(x=said, a=area)}"}))  # fmt: skip
    return out


#: The columns ``unfit_offer`` finds Z by, and its (fault, twin) wordings of Z's name.
UNFIT_COLUMNS = ("area", "pricerange", "food", "type", "stars")
UNFIT = (("{z} also meets your requirements .", "{z} does not meet your requirements ."),
         ("{z} also matches what you asked for .", "{z} does not match what you asked for ."),
         ("{z} is a good match too .", "{z} is not a good match , though ."))  # fmt: skip


def unfit_offer(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    annotator = annotator_for(kb, {})
    out: list[Place] = []
    said = " ".join(t.utterance.lower() for t in annotated.turns)
    for k, turn in enumerate(annotated.turns):
        domain, _, row = offered_entity(annotator, turn)
        if row is None or domain not in OFFERED or k == 0 or domain not in kb.tables:
            continue
        state = annotated.turns[k - 1].state.get(domain, {})
        asked = {c: v[0] for c, v in state.items() if c in UNFIT_COLUMNS and len(v) == 1 and v[0] != "dontcare"}
        if not asked:
            continue
        column, value = sorted(asked.items())[0]
        others = sorted(e["name"] for e in kb.tables[domain].entities
                        if e.get("name") and e.get(column) and e[column] != value and e["name"].lower() not in said)  # fmt: skip
        if not others:
            continue
        text = ended(turn.utterance)
        for fault, twin in UNFIT:
            out.append(({k: f"{text} {fault.format(z=others[0])}"}, {k: f"{text} {twin.format(z=others[0])}"}))
    return out


def _names_another_domain(utterance: str, domain: str) -> bool:
    """Whether ``utterance`` names a domain other than ``domain`` by its word ("the hotel", "trains", "a cab")."""
    said = f" {' '.join(re.findall(r'[a-z]+', utterance.lower()))} "
    return any(f" {noun} " in said for other, nouns in DOMAIN_NOUNS.items() if other != domain
               for noun in (other, f"{other}s", *(n for pair in nouns for n in pair)))  # fmt: skip


CHOOSERS = {"rejected_area": rejected_area, "rather_day": rather_day, "corrected_area": corrected_area,
            "third_party_area": third_party_area, "rejected_stars": rejected_stars, "pronoun_switch": pronoun_switch,
            "negated_same": negated_same, "self_correction": self_correction, "unfit_offer": unfit_offer}
