"""Raw text: a capitalised member of a list of KB names is a name of their domain
(csp_check/annotate/offered_names.py ``_list_members``). An invented name in such a list is a C5
break for review (it may be a variant of a KB name); the real name, in any case, is no flag; a
word before a comma that opens a sentence ("Second, <KB name> is …") is no list member."""

from __future__ import annotations

import json
import zipfile
from functools import cache

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz_val

from csp_check.models import Dialogue, Status, Turn
from csp_check.pipeline import check_dialogue
from csp_check.readers.kb import load_kb

pytestmark = needs_multiwoz_val
PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]


@cache
def val() -> dict:
    with zipfile.ZipFile(MULTIWOZ_VAL) as z:
        member = next(n for n in z.namelist() if n.endswith(".json"))
        data = json.loads(z.read(member))
    return {k.removesuffix(".json"): v for k, v in data.items()}


def raw(dialogue_id: str, edits: dict[int, tuple[str, str]]) -> Dialogue:
    """The val dialogue as raw text (no annotation), turn ``k``'s ``old`` replaced by ``new``."""
    turns = []
    for k, t in enumerate(val()[dialogue_id]["log"]):
        text = t["text"]
        if k in edits:
            old, new = edits[k]
            assert old in text
            text = text.replace(old, new)
        turns.append(Turn(index=k, speaker="user" if k % 2 == 0 else "system", utterance=text))
    return Dialogue(id=dialogue_id, turns=turns)


@pytest.mark.parametrize(("new", "flagged"), [
    ("Maple Crest Inn", True),  # invented, in "I have A, B, C, and D"
    ("Caffe Uno", False),  # the KB's own
    ("caffe uno", False),  # the KB's own, lower case
])
def test_a_name_in_a_list_of_kb_names_is_checked(new: str, flagged: bool) -> None:
    # MUL1590 turn 13: "I have Caffe Uno , Don Pasquale Pizzeria , Clowns Cafe , and Stazione Restaurant ..."
    report = check_dialogue(raw("MUL1590", {13: ("Caffe Uno", new)}), load_kb(MULTIWOZ_DB), PAPER)
    names = [v for v in report.violations if v.constraint.value == "C5" and new.lower() in v.message]
    if flagged:
        assert report.status is Status.UNCERTAIN and names and not any(v.certain for v in names)
    else:
        assert report.status is Status.CONSISTENT and not names


def test_a_sentence_opening_word_before_a_comma_is_no_list_member() -> None:
    # PMUL2780 turn 7: "First , there is no fee for castle galleries . Second , city centre north b and b is ..."
    report = check_dialogue(raw("PMUL2780", {}), load_kb(MULTIWOZ_DB), PAPER)
    assert not any("name='second'" in v.message for v in report.violations)
    with_list = raw("PMUL2780", {7: ("Second , city centre north b and b", "Second and city centre north b and b")})
    assert any("name='second'" in v.message for v in check_dialogue(with_list, load_kb(MULTIWOZ_DB), PAPER).violations)


@pytest.mark.parametrize(("dialogue_id", "turn", "old", "new", "flagged"), [
    # "It is called <Name>": a naming verb proposes the name after it
    ("MUL0036", 9, "The Lucky Star", "Marlowe Brasserie", True),
    ("MUL0036", 9, "The Lucky Star", "the lucky star", False),
    # a type word written inside a name goes on the name ("Parkside Guest House")
    ("MUL0651", 1, "Arbury Lodge Guesthouse", "Parkside Guest House", True),
    ("MUL0651", 1, "Arbury Lodge Guesthouse", "arbury lodge guesthouse", False),
])
def test_an_invented_name_the_sentence_offers_is_a_certain_c5(dialogue_id: str, turn: int, old: str, new: str,
                                                              flagged: bool) -> None:
    report = check_dialogue(raw(dialogue_id, {turn: (old, new)}), load_kb(MULTIWOZ_DB), PAPER)
    names = [v for v in report.violations if v.constraint.value == "C5" and f"name='{new.lower()}'" in v.message]
    assert bool(names) is flagged and all(v.certain for v in names), [v.message for v in report.violations]
    if not flagged:
        assert report.status is Status.CONSISTENT
