"""A value the user rejects is no request ("the east wo n't work for me", "rather than the north"),
and "rather" / "instead" negate only with "than" / "of" ("I 'd rather travel on Tuesday" asks for
Tuesday): annotate.mentions.negated and rejected_after; a value the user corrects is replaced
("the east . Sorry , I meant the north"): annotate.belief.settled; a value said of someone else's
("my sister lives in the north") is none: annotate.mentions.said_of_another. The pairs are
csp_check.faults.raw_rejection_pairs's on work-half MultiWOZ val dialogues as raw text (the faults
were missed before: the rejected value read as a second value asked, "rather" as a negation)."""

from __future__ import annotations

import pytest
from support.data import needs_multiwoz, needs_multiwoz_val
from support.rawval import certain, edited, kb, raw_val

from csp_check.annotate import annotate
from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.belief import user_acts
from csp_check.annotate.memory import Memory
from csp_check.faults.raw_rejection_pairs import (
    corrected_area,
    negated_same,
    pronoun_switch,
    rather_day,
    rejected_area,
    rejected_stars,
    third_party_area,
    unfit_offer,
)
from csp_check.score.split import half_of

NEGATED_SAME = ("MUL2587", "PMUL2617", "PMUL2970")


@needs_multiwoz
@pytest.mark.parametrize(("utterance", "active", "asked"), [
    ("Definitely in the moderate price range ; expensive wo n't work for me .", "hotel", [("pricerange", "moderate")]),
    ("The east will not work for us , the centre please .", "hotel", [("area", "centre")]),
    ("Tuesday is no good , Wednesday please .", "train", [("day", "wednesday")]),
    ("I want the centre rather than the east .", "restaurant", [("area", "centre")]),
    ("Instead of the east , the centre please .", "restaurant", [("area", "centre")]),
    ("Actually , I 'd rather travel on Tuesday .", "train", [("day", "tuesday")]),
    ("Can we do Sunday instead ?", "train", [("day", "sunday")]),
    ("The north is fine .", "hotel", [("area", "north")]),
    ("My sister lives in the centre of town , so I 'll visit her afterwards .", "hotel", []),
    ("My sister lives in the north , so it should be in the north as well .", "hotel", [("area", "north")]),
    ("My meeting in town is on Wednesday .", "train", []),
    ("My wife and I need a cheap room .", "hotel", [("pricerange", "cheap")]),  # the clause asks
    ("My trip is on Wednesday .", "train", [("day", "wednesday")]),  # the request's own noun
    ("I want something rated 2 stars rather than 4 stars .", "hotel", [("stars", "2")]),
    ("It should be rated 3 stars , not 4 stars .", "hotel", [("stars", "3")]),
    ("I need a restaurant . It does n't have to be in the same area as the hotel .", "restaurant", []),
])  # fmt: skip
def test_a_rejected_value_is_no_request(utterance: str, active: str, asked: list[tuple[str, str]]) -> None:
    acts, _ = annotator_for(kb(), {}).acts_in_context(utterance, "user", Memory(active=active))
    assert [(a.slot, a.canonical) for a in acts] == asked


@needs_multiwoz
@pytest.mark.parametrize(("utterance", "state"), [
    ("It should be in the east . Sorry , I meant the north .", {"area": ["north"]}),
    ("I need it cheap , oh wait , no , moderate please .", {"pricerange": ["moderate"]}),
    ("I want the east or the north .", {"area": ["east", "north"]}),  # alternatives: no correction
])  # fmt: skip
def test_the_value_a_correction_settles_on_is_the_request(utterance: str, state: dict[str, list[str]]) -> None:
    annotator = annotator_for(kb(), {})
    memory = Memory(active="hotel")
    acts, _ = annotator.acts_in_context(utterance, "user", memory)
    assert user_acts(annotator, utterance, acts, memory)[1] == {"hotel": state}


@needs_multiwoz_val
@pytest.mark.parametrize(("pairs", "dialogue_id"), [
    (rejected_area, "MUL0036"), (rejected_area, "MUL0107"), (rejected_area, "MUL0635"),
    (rather_day, "PMUL1345"), (rather_day, "PMUL4711"),
    (corrected_area, "MUL0036"), (corrected_area, "MUL0107"), (corrected_area, "MUL0635"),
    (third_party_area, "MUL0036"), (third_party_area, "MUL0107"), (third_party_area, "MUL0635"),
    (rejected_stars, "MUL0036"), (rejected_stars, "MUL0046"), (rejected_stars, "MUL0051"),
    (pronoun_switch, "MUL1341"), (pronoun_switch, "PMUL3544"),
    *((negated_same, d) for d in NEGATED_SAME),
    (unfit_offer, "MUL0036"), (unfit_offer, "MUL0107"), (unfit_offer, "MUL0142"),
])  # fmt: skip
def test_rejection_pairs(pairs, dialogue_id: str) -> None:  # type: ignore[no-untyped-def]
    assert half_of(dialogue_id) == "work"
    dialogue = raw_val(dialogue_id)
    assert not certain(dialogue)
    places = pairs(annotate(dialogue, kb()), kb())
    assert places
    for fault, twin in places:
        assert certain(edited(dialogue, fault)), fault
        assert not certain(edited(dialogue, twin)), twin


@needs_multiwoz_val
@pytest.mark.parametrize("said", [
    "a and b guest house does not meet your requirements .",
    "Cityroomz does n't match what you asked for .",
    "Cityroomz is not a good match , though .",
    "Cityroomz is not what you want .",
])  # fmt: skip
def test_a_name_the_system_says_does_not_fit_is_no_offer(said: str) -> None:
    acts = annotator_for(kb(), {}).turn_acts(f"I recommend the Carolina Bed and Breakfast . {said}", "system", active="hotel")
    assert [a.value.lower() for a in acts if a.slot == "name"] == ["carolina bed and breakfast"]


@needs_multiwoz_val
def test_a_name_the_system_says_fits_is_offered() -> None:
    acts = annotator_for(kb(), {}).turn_acts("Cityroomz also meets your requirements .", "system", active="hotel")
    assert [a.value for a in acts if a.slot == "name"] == ["Cityroomz"]
