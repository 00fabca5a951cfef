"""Issue 18's second reading, raw text against the MultiWOZ DB: each class's innocent wording is
no certain flag, the same place with a real contradiction stays certain (the pairs on real val
dialogues are in tests/test_raw_twins.py)."""

from __future__ import annotations

from functools import cache

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz, needs_multiwoz_val

from csp_check.faults.twins import edit
from csp_check.language import certainty as words
from csp_check.models import Dialogue, Span, Status, Turn
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb

PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]
pytestmark = needs_multiwoz


@cache
def kb():  # type: ignore[no-untyped-def]
    return load_kb(MULTIWOZ_DB)


def certain(*lines: str) -> list[str]:
    """The constraints a raw dialogue (alternating user / system lines) breaks with certainty."""
    turns = [Turn(index=k, speaker="user" if k % 2 == 0 else "system", utterance=u) for k, u in enumerate(lines)]
    report = check_dialogue(Dialogue(id="raw", turns=turns), kb(), PAPER)
    return sorted({v.constraint.value for v in report.violations if v.certain})


TRAIN = ["I want a train from cambridge to london kings cross on sunday after 19:00 .", "TR5143 leaves at 21:00 ."]


@pytest.mark.parametrize(("twin", "fault"), [
    (["I have n't had eritrean in forever . Please find me a moderately priced restaurant that serves it",
      "I 'm sorry , there are no restaurants like that in Cambridge ."],
     ["I really miss chinese . Please find me a moderately priced restaurant that serves it",
      "I 'm sorry , there are no restaurants like that in Cambridge ."]),
    (["I want a cheap restaurant just north of the centre .", "There are no cheap restaurants there ."],
     ["I want a cheap restaurant in the centre .", "There are no cheap restaurants there ."]),
    (["I want a guesthouse in the north that is low to moderate in price .", "There are 2 cheap guesthouses in the north ."],
     ["I want a guesthouse in the north that is moderate in price .", "There are 2 cheap guesthouses in the north ."]),
    ([*TRAIN, "What is the arrival time of the 21:00 train ?", "It arrives at 21:51 ."],
     [*TRAIN, "I need to arrive by 21:00 .", "It arrives at 21:51 ."]),
    (["I need a guesthouse in the north .", "How about the acorn guest house ?", "Book it for 3 people for 5 nights from friday .",
      "Sorry , the booking was unsuccessful . There are no guesthouses available in the north ."],
     ["I need a guesthouse in the north .", "How about the acorn guest house ?", "Is there anything else ?",
      "Sorry , there are no guesthouses in the north ."]),
    (["I 'd like a cheap guesthouse in the west , if not then the centre .", "There are 2 cheap guesthouses in the centre ."],
     ["I 'd like a cheap guesthouse in the west .", "There are 2 cheap guesthouses in the centre ."]),
    (["I want a museum .", "Kettle 's yard is on castle street . There is also a museum on East Road ."],
     ["I want a museum .", "Kettle 's yard is on castle street . It is in the east ."]),
])  # fmt: skip
def test_the_innocent_reading_is_no_certain_flag_the_contradiction_is(twin: list[str], fault: list[str]) -> None:
    assert certain(*twin) == []
    assert certain(*fault) != []


@pytest.mark.parametrize(("text", "part"), [
    ("There are 24 guesthouses , 9 of them in the north .", "9"), ("three of those are moderately priced", "three"),
    ("There are 5 guesthouses in the north .", None),
])
def test_a_number_of_a_set_said_before_is_a_part_not_a_total(text: str, part: str | None) -> None:
    if part is None:
        assert words.not_a_total(text, Span(start=10, end=11)) is None
        return
    start = text.index(part)
    assert words.not_a_total(text, Span(start=start, end=start + len(part))) is not None


@pytest.mark.parametrize("text", [
    "I am showing 6 of them .", "I actually have 10 of them . Did you have a certain type in mind ?",
    "Yes , around 9 of them actually !", "All approximately 3 of the expensive hotels have free wifi .",
])  # fmt: skip
def test_of_them_naming_the_set_counted_is_a_total(text: str) -> None:
    """No number before it, no predicate of its own: "of them" names what the number counts."""
    number = next(w for w in text.split() if w.isdigit())
    start = text.index(number)
    assert words.not_a_total(text, Span(start=start, end=start + len(number))) is None


@needs_multiwoz_val
def test_a_count_said_as_n_of_them_is_checked_on_real_val() -> None:
    """PMUL2190 (work half) turn 5 counts the cheap italian restaurants of the centre ("I am showing
    3 of them"; the KB has 3): said as 6, the count is false by every reading, certain."""
    dialogue = next(d for d in load_corpus([MULTIWOZ_VAL], kb=kb()) if not isinstance(d, Exception) and d.id == "PMUL2190")
    assert check_dialogue(dialogue, kb(), PAPER).status is Status.CONSISTENT
    turn = dialogue.turns[5]
    act = next(a for a in turn.acts if a.slot == "choice" and a.span is not None)
    said = turn.utterance[act.span.start : act.span.end]
    assert f"{said} of them" in turn.utterance
    report = check_dialogue(edit(dialogue, 5, act.span, "6"), kb(), PAPER)  # the text only: it is the truth
    assert any(v.certain and v.constraint.value == "C6" for v in report.violations)


@pytest.mark.parametrize(("utterance", "lifts"), [
    ("Yes , please broaden the price search .", True), ("No , any one of them will do .", True),
    ("Okay , then try a different price range .", True), ("I want a cheap hotel .", False),
])
def test_widening_the_search_relaxes_it(utterance: str, lifts: bool) -> None:
    assert (words.relaxed(utterance) is not None) is lifts
