"""A user's price word is of the noun English syntax binds it to (annotate.resolve.bound_domain),
a value's domain is decided by its own sentence (sentence_domains), and a price the user withdraws
is lifted (language.certainty.relaxations) — an outside attacker's false alarms: "a taxi from the
hotel to a cheap restaurant" read as a cheap hotel, "forget about the price" not read.

The pairs are csp_check.faults.raw_price_pairs's on work-half MultiWOZ val dialogues as raw text
(the twins were flagged certain before)."""

from __future__ import annotations

import pytest
from support.data import needs_multiwoz, needs_multiwoz_val
from support.rawval import PAPER, certain, edited, kb, raw_val

from csp_check.annotate import annotate
from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.memory import Memory
from csp_check.faults.raw_price_pairs import price_noun, relaxed_elsewhere, withdrawn_price
from csp_check.language.certainty import relaxations
from csp_check.pipeline import check_dialogue
from csp_check.score.split import half_of


def domains_of(utterance: str, speaker: str, active: str, slot: str) -> list[str]:
    acts, _ = annotator_for(kb(), {}).acts_in_context(utterance, speaker, Memory(active=active))
    return [a.domain for a in acts if a.slot == slot]


@needs_multiwoz
@pytest.mark.parametrize(("utterance", "active", "domain"), [
    ("I will need a taxi from the hotel to a cheap restaurant later .", "hotel", "restaurant"),
    ("Please find me a cheap guesthouse close to the restaurant .", "restaurant", "hotel"),
    ("I want a moderately priced 4 star hotel near the restaurant .", "restaurant", "hotel"),
    ("The hotel is for my parents ; the restaurant for us should be cheap .", "hotel", "restaurant"),
    ("After that I need a hotel , and a restaurant which is expensive .", "hotel", "restaurant"),
    ("The restaurant is booked . I need the hotel to be in the cheap price range .", "restaurant", "hotel"),
    ("The hotel near the restaurant has to be expensive .", "restaurant", "hotel"),
    ("A taxi from the restaurant , please . It should be cheap .", "hotel", "hotel"),  # a pronoun: the context
    ("The hotel comes first , then I will ask about a restaurant in the cheap price range .", "hotel", "restaurant"),
])  # fmt: skip
def test_a_price_word_is_of_the_noun_it_is_said_of(utterance: str, active: str, domain: str) -> None:
    assert domains_of(utterance, "user", active, "pricerange") == [domain]


@needs_multiwoz
def test_a_sentence_naming_no_domain_is_about_the_one_under_discussion() -> None:
    later = "I would like it in the north . I will also want a taxi from the hotel to a restaurant ."
    assert domains_of(later, "user", "hotel", "area") == ["hotel"]
    earlier = "I need a guesthouse . It should be in the north ."
    assert domains_of(earlier, "user", "restaurant", "area") == ["hotel"]


@needs_multiwoz
def test_a_later_sentences_value_is_no_antecedent() -> None:
    said = "Great , I like that it is in the east . Can you also help me find a museum ?"
    assert domains_of(said, "user", "hotel", "area") == ["hotel"]  # "museum" comes later


@needs_multiwoz
def test_a_word_inside_an_address_names_no_domain() -> None:
    said = "Caffe uno is italian and is expensive . The address is 32 Bridge Street City Centre ."
    assert domains_of(said, "system", "hotel", "pricerange") == ["restaurant"]  # "Bridge" is a hotel's name


def test_each_relaxation_of_a_turn_is_read() -> None:
    found = relaxations("I do n't care either way . I want it cheap . On second thought , the price is not important .")
    assert [said.strip() for _, said, _ in found] == ["I do n't care either way .", "the price is not important ."]
    assert [said for _, said, _ in relaxations("Actually , forget about the price .")] == ["forget about the price"]
    assert [said for _, said, _ in relaxations("Price is n't really important after all .")] == ["Price is n't really important after all ."]
    assert relaxations("I want a restaurant that is not expensive .") == []
    assert [said.strip() for _, said, _ in relaxations("In the centre , though I 'm not fussy about the area really .")] == [
        "though I 'm not fussy about the area really ."]
    assert [said for _, said, _ in relaxations("Come to think of it , any star rating will do .")] == ["any star rating"]


@needs_multiwoz_val
@pytest.mark.parametrize("dialogue_id", ["MUL0287", "MUL0317", "MUL0338", "MUL0610"])
@pytest.mark.parametrize("pairs", [price_noun, withdrawn_price, relaxed_elsewhere])
def test_price_pairs(dialogue_id: str, pairs) -> None:  # type: ignore[no-untyped-def]
    assert half_of(dialogue_id) == "work"
    dialogue = raw_val(dialogue_id)
    assert not certain(dialogue)
    places = pairs(annotate(dialogue, kb()), kb())
    assert places
    for fault, twin in places:
        assert certain(edited(dialogue, fault)), fault
        assert not certain(edited(dialogue, twin)), twin


@needs_multiwoz_val
def test_a_value_said_after_a_relaxation_is_asked_anew() -> None:
    """MUL0272 (work half): "I do n't care either way" answers a question on the food and the
    price; a price said in a later sentence of the turn is the request (was read as lifted)."""
    dialogue = raw_val("MUL0272")
    said = dialogue.turns[2].utterance
    assert said.startswith("I do n't care either way")
    fault = edited(dialogue, {2: f"{said} I want the restaurant to be cheap ."})  # Bedouin is expensive
    assert any(v.certain and "cheap" in v.message for v in check_dialogue(fault, kb(), PAPER).violations)
    twin = edited(dialogue, {2: f"I want the restaurant to be cheap . {said}"})
    assert not certain(twin)
