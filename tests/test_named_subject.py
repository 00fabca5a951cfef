"""A value said of a named entity is of that entity's domain (an outside attacker's class 11: "Allenbell
is in the east" in a turn offering an attraction was read as the attraction's area). The subject of
the copula is the name ("X is (actually / located) in the A"), or the name a ", which is" clause
follows. Unit readings on the MultiWOZ DB, and the ``named_area`` pair on real work-half val
dialogues read as raw text."""

from __future__ import annotations

import random

import pytest
from support.data import needs_multiwoz_val
from support.rawval import certain, kb, raw_val

from csp_check.annotate.annotator import annotator_for
from csp_check.faults.raw_twins import raw_pair


def _areas(text: str) -> list[tuple[str, str]]:
    acts = annotator_for(kb(), {}).turn_acts(text, "system", active="attraction")
    return [(a.domain, a.value) for a in acts if a.slot == "area"]


@needs_multiwoz_val
@pytest.mark.parametrize("said", [
    "Allenbell is in the east .",
    "Allenbell is actually in the east .",
    "Allenbell is located in the east .",
    "It is a short ride from Allenbell , which is in the east .",
])  # fmt: skip
def test_an_area_said_of_a_named_hotel_is_the_hotels(said: str) -> None:
    assert _areas(f"I recommend Cineworld Cinema . {said}") == [("hotel", "east")]


@needs_multiwoz_val
@pytest.mark.parametrize("said", ["It is in the south .", "Cineworld Cinema is in the south .",
                                  "The museum is in the south ."])  # fmt: skip
def test_an_area_of_the_offered_attraction_stays_the_attractions(said: str) -> None:
    assert _areas(f"I recommend Cineworld Cinema . {said}") == [("attraction", "south")]


@needs_multiwoz_val
@pytest.mark.parametrize("dialogue_id", ["MUL0036", "MUL1022", "MUL1025"])
def test_named_area_fault_is_certain_and_twin_is_not(dialogue_id: str) -> None:
    dialogue = raw_val(dialogue_id)
    assert not certain(dialogue)
    pair = raw_pair(dialogue, "named_area", random.Random(0), kb())
    assert pair is not None
    fault, twin = pair
    assert certain(fault) and not certain(twin)
