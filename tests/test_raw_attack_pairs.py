"""Raw-text classes of an outside attacker's misses and of issue 18's third reading, against the
MultiWOZ DB: a name the DB lacks, a count with no domain noun, a 12-hour time, an address's words,
a value said of another entity, a switch to a cheaper search, praise or another sentence's
negation read as a no-result, a denial referring back, the kind of a breakdown's part; each class's wording checked by hand and
its fault / true twin (:mod:`csp_check.faults.raw_attack_pairs`) on real val dialogues of the
work half."""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz, needs_multiwoz_val

from csp_check.faults.raw_twins import raw_pair
from csp_check.models import Dialogue, Turn
from csp_check.pipeline import check_dialogue
from csp_check.readers.kb import load_kb
from csp_check.score.split import half_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from rawtext import certain, raw_dialogues, read_zip

PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]


@cache
def kb():  # type: ignore[no-untyped-def]
    return load_kb(MULTIWOZ_DB)


def broken(*lines: str) -> list[str]:
    """The constraints a raw dialogue (alternating user / system lines) breaks with certainty."""
    turns = [Turn(index=k, speaker="user" if k % 2 == 0 else "system", utterance=u) for k, u in enumerate(lines)]
    report = check_dialogue(Dialogue(id="raw", turns=turns), kb(), PAPER)
    return sorted({v.constraint.value for v in report.violations if v.certain})


@needs_multiwoz
@pytest.mark.parametrize(("fault", "twin"), [
    (["I need a guesthouse in the north .", "Cityview Lodge is a nice guesthouse in the north ."],
     ["I need a guesthouse in the north .", "Acorn Guest House is a nice guesthouse in the north ."]),
    (["I want a cheap restaurant in the centre .", "How about Bluebird Kitchen ? It serves chinese food ."],
     ["I want a cheap restaurant in the centre .", "How about Charlie Chan ? It serves chinese food ."]),
    (["I want a hotel in the centre .", "There are 9 in the centre . Any price range ?"],
     ["I want a hotel in the centre .", "There are 5 in the centre . Any price range ?"]),
    (["I need a restaurant in the west .", "How about prezzo ? It is in the city centre ."],
     ["I need a restaurant in the west .", "How about prezzo ? It is on Fenner Street City Centre ."]),
    (["I need a hotel in the north .", "How about the acorn guest house ? It has 2 stars ."],
     ["I need a hotel in the north .", "How about the acorn guest house ? There is also a 2 star option ."]),
    (["I need a hotel in the north . It should be expensive .", "How about the acorn guest house ?"],
     ["I need a hotel in the north . It should be expensive . Actually , is there anything cheaper ?",
      "How about the acorn guest house ?"]),
    (["I need a hotel in the north .", "How about the acorn guest house ? Sorry , there are no hotels in the north ."],
     ["I need a hotel in the north .", "How about the acorn guest house ? Nothing beats Acorn Guest House in the north !"]),
    (["I want a restaurant .", "You mentioned chinese food . I have nothing like that in the north ."],
     ["I want a restaurant .", "You mentioned african food . I have nothing like that in the north ."]),
    (["I need a moderate place to stay in the north .", "There are 11 options , all guesthouses ."],
     ["I need a moderate place to stay in the north .", "There are 11 options : one guesthouse and one hotel ."]),
])  # fmt: skip
def test_each_class_fault_is_certain_and_its_twin_is_not(fault: list[str], twin: list[str]) -> None:
    assert broken(*fault)
    assert not broken(*twin)


@needs_multiwoz
def test_a_bare_count_ending_its_sentence_is_no_count() -> None:
    """ "Certainly , we have 21 ." answers what the turn asks as much as the search: no count."""
    assert not broken("I want a hotel in the centre .", "Certainly , we have 9 . Any price range ?")


@needs_multiwoz
def test_a_twelve_hour_time_clashes_only_where_twelve_hours_later_clashes_too() -> None:
    """TR7075 (cambridge → london kings cross, monday) leaves at 05:00: "after 1:45" may be 13:45
    (uncertain); "after 09:45" is read as written (certain)."""
    ask = "I need a train from cambridge to london kings cross on monday leaving after {} ."
    offer = "TR7075 leaves at 05:00 ."
    assert not broken(ask.format("1:45"), offer)
    assert broken(ask.format("09:45"), offer)


@pytest.fixture(scope="module")
def raw():  # type: ignore[no-untyped-def]
    data = read_zip(MULTIWOZ_VAL)

    def get(dialogue_id: str):  # type: ignore[no-untyped-def]
        assert half_of(dialogue_id) == "work"  # the check half is not read
        return next(raw_dialogues(data, [dialogue_id]))

    return get


@needs_multiwoz_val
@pytest.mark.parametrize("kind, dialogue_id", [
    ("invented_name", "MUL0013"), ("bare_count", "MUL0013"), ("twelve_hour", "MUL0376"), ("address_word", "MUL0013"),
    ("another_entity", "MUL0036"), ("cheaper_switch", "MUL0013"), ("not_a_denial", "MUL0013"),
    ("referred_denial", "MUL0060"), ("breakdown_part", "MUL0657"),
])  # fmt: skip
def test_fault_is_flagged_certain_and_twin_is_not_on_real_dialogues(raw, kind: str, dialogue_id: str) -> None:  # type: ignore[no-untyped-def]
    dialogue = raw(dialogue_id)
    assert not certain(dialogue, kb())
    pair = raw_pair(dialogue, kind, random.Random(0), kb())  # type: ignore[arg-type]
    assert pair is not None
    fault, twin = pair
    assert certain(fault, kb())
    assert not certain(twin, kb())
