"""The system corrects itself (issue 18, fifth blind reading's class): "Sorry, I made a mistake, X is
actually in the A" takes back the area said before, so that earlier claim is for review, while a
correction that is false again, or a restatement with no words of correction, stays certain.
Real work-half MultiWOZ val dialogues read as raw text, edited."""

from __future__ import annotations

import random

import pytest
from support.data import needs_multiwoz_val
from support.rawval import certain, kb, raw_val

from csp_check.faults.raw_twins import raw_pair
from csp_check.language.cue_words import SELF_CORRECTION
from csp_check.pipeline import check_dialogue

#: MUL0107 turn 1 offers the Carolina Bed and Breakfast (east in the DB) and says no area; turn 3
#: asks for the booking's details.
OFFER = "The carolina bed and breakfast meets your needs . Would you like to book a room ? It is in the north ."
ASK = "How many people will be staying in the room ? Also what day and time will this be ?"


def _flags(edits: dict[int, str]) -> list:
    return check_dialogue(raw_val("MUL0107", edits), kb()).violations


@needs_multiwoz_val
@pytest.mark.parametrize("correction", [
    "I made a mistake , Carolina Bed and Breakfast is actually in the east .",
    "My apologies for the confusion : Carolina Bed and Breakfast is in the east .",
    "Correction : the Carolina Bed and Breakfast is in the east .",
])  # fmt: skip
def test_an_area_the_system_takes_back_is_no_certain_claim(correction: str) -> None:
    flags = _flags({1: OFFER, 3: f"{ASK} {correction}"})
    assert not [v.message for v in flags if v.certain]
    assert any("the system corrects itself" in (v.uncertain_reason or "") and 1 in v.turns for v in flags)


@needs_multiwoz_val
def test_without_words_of_correction_the_earlier_area_stays_certain() -> None:
    flags = _flags({1: OFFER, 3: f"{ASK} Carolina Bed and Breakfast is in the east ."})
    assert any(v.certain and v.constraint.value == "C5" and 1 in v.turns for v in flags)


@needs_multiwoz_val
def test_a_correction_to_another_false_area_is_certain() -> None:
    flags = _flags({1: OFFER, 3: f"{ASK} I made a mistake , Carolina Bed and Breakfast is actually in the south ."})
    assert any(v.certain and v.constraint.value == "C5" and 3 in v.turns for v in flags)


@needs_multiwoz_val
@pytest.mark.parametrize("dialogue_id", ["MUL0107", "MUL0046", "MUL0229"])
def test_self_correction_fault_is_certain_and_twin_is_not(dialogue_id: str) -> None:
    dialogue = raw_val(dialogue_id)
    assert not certain(dialogue)
    pair = raw_pair(dialogue, "self_correction", random.Random(0), kb())
    assert pair is not None
    fault, twin = pair
    assert certain(fault) and not certain(twin)


def test_the_words_of_a_correction() -> None:
    for said in ("Sorry, I made a mistake, the train ID is actually TR5678", "my apologies for the confusion",
                 "I gave you the wrong postcode", "I misspoke", "Correction: it leaves at 10:00"):
        assert SELF_CORRECTION.search(said), said
    for said in ("I'm sorry, there are no rooms", "Sorry, I could not find that", "a correction officer",
                 "There is no mistake in that"):
        assert not SELF_CORRECTION.search(said), said
