"""Fault and true twin for which domain a user's price word is of (an outside attacker's false
alarms: a price said of another domain's noun read for the domain offered next; a price the user
withdraws read as still asked), in the form of :mod:`csp_check.faults.raw_reading_pairs`: each
chooser gives the places of a raw-text dialogue where the class fits, as ``(fault edits, twin
edits)`` (turn → new utterance). The fault must be flagged certain; the twin must not be.

Reading rules (what each pair writes):

- ``price_noun`` — a user turn asking no price range before a system turn offering one restaurant
  or hotel X (domain D, price P), in a dialogue that never speaks of the other of the two (O): the
  fault adds a sentence naming both nouns whose price word W ≠ P is of D's noun (C5: X is not W);
  the twin the same sentence with D and O swapped (W is of O's noun: nothing is said of D's
  price). One place per wording, each a rule of English binding an adjective to its noun:
  attributive ("a taxi from the O to a W D", "a W D close to the O") and predicative, the subject
  of the copula ("the O can wait ; the D we pick has to be W", "a O , and a D which is W"), and
  postnominal ("… then I will ask about a D in the W price range").
- ``withdrawn_price`` — the same turn and offer, D's request having no price before: the fault
  adds "I want the D to be W ." (C5), the twin that and a withdrawal of the price in a sentence
  of its own whose words name the slot ("… On second thought , the price is not important .",
  "… Actually , forget about the price .", "… I 'm not too fussed about the price ."; the user
  lifted the price: the offer need not be W).
- ``relaxed_elsewhere`` — the places of ``price_noun``: the fault asks D's price W and relaxes
  O's price in the same sentence ("I want the D to be W , but for the O any price is fine .",
  "The D has to be W ; for the O the price does n't matter ."; C5: a relaxation said of another
  domain lifts nothing of D), the twin the same with D and O swapped.
"""

from __future__ import annotations

from csp_check.annotate.annotator import annotator_for
from csp_check.faults.raw_reading_pairs import ended, offered_entity
from csp_check.models import Dialogue, KnowledgeBase

Edits = dict[int, str]
Place = tuple[Edits, Edits]
#: The other domain with a price of each, and how a price is said before a noun and after a copula.
OTHER = {"restaurant": "hotel", "hotel": "restaurant"}
BEFORE_NOUN = {"cheap": "cheap", "moderate": "moderately priced", "expensive": "expensive"}
#: Sentences with the fault's domain ``{d}``, the other ``{o}``, the price ``{w}`` (before a noun)
#: or ``{p}`` (after a copula); the twin swaps ``{d}`` and ``{o}``.
BINDINGS = ("I will also want a taxi from the {o} to a {w} {d} later .",
            "Please find me a {w} {d} close to the {o} .",
            "The {o} can wait ; the {d} we pick has to be {p} .",
            "After that I need a {o} , and a {d} which is {p} .",
            "The {o} comes first , then I will ask about a {d} in the {p} price range .")  # fmt: skip
WITHDRAWALS = ("On second thought , the price is not important .", "Actually , forget about the price .",
               "To be honest , I 'm not too fussed about the price .")
#: A price for one domain and a relaxation of the price for the other (the fault's price is D's).
ELSEWHERE = ("I want the {d} to be {w} , but for the {o} any price is fine .",
             "The {d} has to be {w} ; for the {o} the price does n't matter .")


def _place(annotated: Dialogue, kb: KnowledgeBase, fresh: bool = False) -> list[tuple[int, str, str, str]]:
    """``(user turn, D, O, W)`` of each place the module doc names; with ``fresh``, only where D's
    request has no price yet (a withdrawal of a second price may bring back the first)."""
    annotator = annotator_for(kb, {})
    domains = {a.domain for t in annotated.turns for a in t.acts}
    out = []
    for k in range(1, len(annotated.turns)):
        domain, _, row = offered_entity(annotator, annotated.turns[k])
        user = annotated.turns[k - 1]
        if row is None or domain not in OTHER or OTHER[domain] in domains or row.get("pricerange") not in BEFORE_NOUN:
            continue
        if user.speaker != "user" or any(a.slot == "pricerange" for a in user.acts):
            continue
        if fresh and k > 1 and "pricerange" in annotated.turns[k - 2].state.get(domain, {}):
            continue
        wrong = next(p for p in ("expensive", "cheap", "moderate") if p != row["pricerange"])
        out.append((k - 1, domain, OTHER[domain], wrong))
    return out


def price_noun(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out: list[Place] = []
    for k, domain, other, wrong in _place(annotated, kb):
        said = ended(annotated.turns[k].utterance)
        for wording in BINDINGS:
            fault = wording.format(d=domain, o=other, w=BEFORE_NOUN[wrong], p=wrong)
            twin = wording.format(d=other, o=domain, w=BEFORE_NOUN[wrong], p=wrong)
            out.append(({k: f"{said} {fault}"}, {k: f"{said} {twin}"}))
    return out


def withdrawn_price(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out: list[Place] = []
    for k, domain, _, wrong in _place(annotated, kb, fresh=True):
        said = f"{ended(annotated.turns[k].utterance)} I want the {domain} to be {wrong} ."
        out += [({k: said}, {k: f"{said} {withdrawal}"}) for withdrawal in WITHDRAWALS]
    return out


def relaxed_elsewhere(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out: list[Place] = []
    for k, domain, other, wrong in _place(annotated, kb):
        said = ended(annotated.turns[k].utterance)
        for wording in ELSEWHERE:
            out.append(({k: f"{said} {wording.format(d=domain, o=other, w=wrong)}"},
                        {k: f"{said} {wording.format(d=other, o=domain, w=wrong)}"}))  # fmt: skip
    return out


#: The choosers by pair kind (their rules: the module doc).
CHOOSERS = {"price_noun": price_noun, "withdrawn_price": withdrawn_price, "relaxed_elsewhere": relaxed_elsewhere}
