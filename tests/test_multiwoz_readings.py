"""MultiWOZ 2.1 val: counts and no-results under every reasonable reading of the search in force
(spec §9; docs/multiwoz-flags.md, the classes a blind read of every flag found). Each gold turn is
accepted and a twin with a count no reading allows is flagged."""

from __future__ import annotations

import pytest

from test_multiwoz import _edit, _flags, _val, needs_shared

pytestmark = needs_shared


def _at(flags: list, turn: int) -> list:
    return [v for v in flags if turn in v.turns]


@pytest.mark.parametrize("dialogue_id, turn, old, wrong", [
    # "4 Indian restaurants in the cheap price range in the centre and north of town": the act's
    # spanless "n the centre" no longer takes the span of "north of town" (3 + 1 = 4)
    ("MUL0348", 9, "4 Indian", "5 Indian"),
    # "There are two restaurants. The Nirala which is moderate and the royal spice which is cheap"
    # after "expensive": the count of the two named, with the prices the turn gives them
    ("MUL1673", 3, "two restaurants", "three restaurants"),
    # "I have 3 trains a day that arrive by 10:30", no day given yet: one day's trains
    ("PMUL1791", 3, "3 trains a day", "4 trains a day"),
    # "free wifi but doesn't need to have free parking": 3 places without parking
    ("MUL0754", 1, "3 places", "5 places"),
    # "How about one in the town centre?" "Sure, … free parking and 4 stars" "two hotels": the
    # wizard counts without the area only it proposed (both named; 1 in the centre)
    ("MUL2670", 7, "two hotels", "three hotels"),
    # "eastern European", which the DB lacks: its european and modern european restaurants
    ("PMUL0142", 11, "I have 5", "I have 7"),
])
def test_a_count_holds_under_a_reasonable_reading(dialogue_id: str, turn: int, old: str, wrong: str) -> None:
    dialogue, kb = _val(dialogue_id)
    assert not _at(_flags(dialogue, kb, "C6"), turn)
    assert _at(_flags(_edit(dialogue, turn, old, wrong), kb, "C6"), turn)


@pytest.mark.parametrize("dialogue_id, turn", [
    # "a 3 star guesthouse with those same requirements?" "Yes, any type will do as long as it
    # includes free parking": the state sets price and stars to dontcare, which no words said;
    # "no availability in the town centre with free parking" holds for the moderate 4-star search
    ("MUL2699", 15),
    # "The only 4 star hotels are in the west and centre … nothing moderately priced" after a
    # search for guesthouses: the sentence names its own kind
    ("MUL2016", 13),
    # "if you wanted a hotel, you'd need to stay in the west. There are guesthouses that meet
    # your needs": the guesthouses are the alternative, not the kind of the no-result
    ("PMUL0420", 3),
])
def test_a_no_result_holds_under_its_own_reading(dialogue_id: str, turn: int) -> None:
    dialogue, kb = _val(dialogue_id)
    assert not _at(_flags(dialogue, kb, "C4"), turn)


def test_a_no_result_is_read_under_the_value_an_unsaid_dontcare_replaced() -> None:
    """MUL2699 turn 15: the state's price ``dontcare`` came from no words, so the no-result's C4
    filters on the moderate price the user gave at turn 12; the area the turn names stays."""
    from csp_check.pipeline import dialogue_csp

    dialogue, kb = _val("MUL2699")
    csp = dialogue_csp(dialogue, kb)
    c4 = [c for c in csp.constraints if c.id.value == "C4" and c.turn == 15]
    assert len(c4) == 1 and {"pricerange", "area", "parking"} <= set(c4[0].columns)
    price = c4[0].variables[c4[0].columns.index("pricerange")]
    assert csp.assignment[price] == "moderate"
