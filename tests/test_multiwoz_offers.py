"""C5 "offer vs request" on MultiWOZ 2.1 val: which turn offers an entity (docs/multiwoz-flags.md).
A later detail of an offered entity, a name variant of one DB entity and an entity named only to
be denied what was asked are no new offers; the offering turn's own flag stays."""

from __future__ import annotations

import pytest

from csp_check.assignment import Lexicon

from support.data import MULTIWOZ_DB, needs_multiwoz, needs_multiwoz_val
from test_multiwoz import _backends_agree, _edited, _ids, _val

pytestmark = [needs_multiwoz, needs_multiwoz_val]


def test_a_detail_of_an_offered_train_does_not_flag_the_offer_again() -> None:
    """MUL1738: turn 3 offers TR6332, which arrives at 19:27 though the user asked to arrive by
    09:45 (C5 at turn 3); turn 5 "They are 16.60 pounds each" is TR6332's true fare, a detail
    of the offered train, not a second offer (no C5 at turn 5). A fare TR6332 does not have is
    still C5 at turn 5."""
    dialogue, kb = _val("MUL1738")
    assert "C5" in _ids(dialogue, kb, 3)
    assert "C5" not in _ids(dialogue, kb, 5)
    wrong = _edited("MUL1738", 5, "16.60", "23.60")
    assert "C5" in _ids(*wrong, 5)
    _backends_agree([(dialogue, kb), wrong])


def test_a_name_with_one_word_replaced_is_the_one_entity_it_varies() -> None:
    """"Cherry Hinton Water Park" is the cherry hinton water play (three of four words; no other
    name of any table shares three); a name as close to two entities, or a list of two names,
    is none of them."""
    from csp_check.kb import load_kb

    lexicon = Lexicon().attach(load_kb(MULTIWOZ_DB))
    assert lexicon.resolve("attraction.name", "Cherry Hinton Water Park") == "cherry hinton water play"
    assert lexicon.resolve("attraction.name", "Cherry Hinton Water Hall") is None  # also cherry hinton hall and grounds
    assert lexicon.resolve("restaurant.name", "Graffiti and Travellers Rest") is None  # two names
    assert lexicon.resolve("restaurant.name", "pizza hut fen ditton") == "pizza hut fen ditton"  # an exact name


@pytest.mark.parametrize("name, flagged", [
    (None, False),  # the water play: free, at Cherry Hinton Hall on Cherry Hinton Road
    ("Cherry Hinton Village Park", True),  # closest to the village centre (Colville Road): not there
    ("Cherry Hinton Water Hall", True),  # as close to the hall and grounds: no one entity
    ("Cherry Hinton Hall and Grounds", True),  # an exact name (the injected 'name' fault): that entity
])  # fmt: skip
def test_a_name_variant_in_an_offer(name: str | None, flagged: bool) -> None:
    """MUL2387 turn 5 "Cherry Hinton Water Park is in the area. It's located at Cherry Hinton
    Hall on Cherry Hinton Road and admission is free": the DB's cherry hinton water play (no C5).
    A name closer to another entity, or as close to two, is still C5."""
    dialogue, kb = _val("MUL2387") if name is None else _edited("MUL2387", 5, "Cherry Hinton Water Park", name)
    assert ("C5" in _ids(dialogue, kb, 5)) == flagged


@pytest.mark.parametrize("old, new, flagged", [
    (None, None, False),  # "the lensfield hotel is not a guesthouse ... may I suggest Bridge Guest House?"
    ("is not a guesthouse", "is lovely", True),  # no denial: the lensfield is offered with the guesthouse
    ("Bridge Guest House", "Gonville Hotel", True),  # the alternative offered is no south guesthouse
    ("lensfield hotel", "plaza royale", True),  # the denied entity is still checked: no such hotel
])  # fmt: skip
def test_an_entity_named_to_be_denied_is_no_offer(old: str | None, new: str | None, flagged: bool) -> None:
    """PMUL2762: turn 13 offers the lensfield hotel for a guesthouse (C5 at turn 13, real); turn
    15 "I do apologize, the lensfield hotel is not a guesthouse. ... may I suggest Bridge Guest
    House?" takes it back (the act still has Name=lensfield hotel): no offer, no C5 at turn 15."""
    dialogue, kb = _val("PMUL2762") if old is None else _edited("PMUL2762", 15, old, new)
    assert "C5" in _ids(dialogue, kb, 13)
    assert ("C5" in _ids(dialogue, kb, 15)) == flagged
