"""A comparative price word lifts the price of the domain named nearest before it that has a price
(annotate.belief._about): "a taxi from the hotel … The hotel should be expensive . Actually , is
there anything cheaper ?" is about the hotel, not the taxi (no price) nor a restaurant named
earlier. Work-half MultiWOZ val dialogues as raw text, edited as the cheaper_switch pair edits
them; the twin was flagged certain (C2/C5 against 'expensive') before."""

from __future__ import annotations

import pytest
from support.data import needs_multiwoz_val
from support.rawval import PAPER, kb, val_log

from csp_check.models import Dialogue, Turn
from csp_check.pipeline import check_dialogue
from csp_check.score.split import half_of

pytestmark = needs_multiwoz_val


def raw(dialogue_id: str, turn: int, old: str, new: str) -> Dialogue:
    """The val dialogue as raw text (no annotation), ``old`` replaced by ``new`` in turn ``turn``."""
    texts = [t["text"] for t in val_log(dialogue_id)]
    assert old in texts[turn]
    texts[turn] = texts[turn].replace(old, new)
    return Dialogue(id=dialogue_id, turns=[Turn(index=k, speaker="user" if k % 2 == 0 else "system", utterance=text)
                                           for k, text in enumerate(texts)])  # fmt: skip

SAID = " The hotel should be expensive ."
SWITCH = " Actually , is there anything cheaper ?"


@pytest.mark.parametrize(("dialogue_id", "turn", "end"), [
    ("MUL2615", 16, "and back please ."),  # a taxi named after the hotel, before the price
    ("PMUL4833", 8, "same area as the restaurant ."),  # a restaurant named before the hotel
])
def test_anything_cheaper_lifts_the_nearest_domains_price(dialogue_id: str, turn: int, end: str) -> None:
    assert half_of(dialogue_id) == "work"
    fault = check_dialogue(raw(dialogue_id, turn, end, end + SAID), kb(), PAPER)
    twin = check_dialogue(raw(dialogue_id, turn, end, end + SAID + SWITCH), kb(), PAPER)

    assert any(v.certain and "expensive" in v.message for v in fault.violations)
    assert not any(v.certain for v in twin.violations)
