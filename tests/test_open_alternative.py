"""The sixth blind reading's classes (issue 18): an alternative the system offers as one ("Acorn
Guest House is in the north , not the south , I 'm afraid") is no claim that it fits what was
asked, nor is a later offer of it; a user who goes back to an earlier offer ("let's go back to
the first one") asks for it again, whatever was asked in between; a negated "before" ("I can't leave before 12:35") bounds the
departure from below, not the arrival. Real work-half MultiWOZ val dialogues read as raw text,
edited, and the pairs of :mod:`csp_check.faults.raw_alternative_pairs` on them."""

from __future__ import annotations

import random

import pytest
from support.data import needs_multiwoz_val
from support.rawval import certain, kb, raw_val

from csp_check.faults.raw_twins import raw_pair
from csp_check.language.cue_words import BACK_TO
from csp_check.pipeline import check_dialogue

#: MUL2587 turn 6 asks for a 4-star guesthouse with free parking; turn 7 offers the Acorn Guest
#: House (north in the DB); turn 8 books it.
ASK = "Thank you . I 'm also looking for a guesthouse to stay that has a star of 4 and includes free parking . I want it in the south ."
OFFER = "Acorn guest house is available if that works for you ."


def _flags(edits: dict[int, str]) -> list:
    return check_dialogue(raw_val("MUL2587", edits), kb()).violations


@needs_multiwoz_val
@pytest.mark.parametrize("said", [
    f"{OFFER} It is in the north , not the south , I 'm afraid .",
    f"{OFFER} It is in the north , though .",
    f"Unfortunately {OFFER[:1].lower()}{OFFER[1:-2]}, but it is in the north .",
])  # fmt: skip
def test_an_alternative_said_as_one_is_for_review(said: str) -> None:
    flags = _flags({6: ASK, 7: said})
    assert not [v.message for v in flags if v.certain]
    assert any("an alternative offered as one" in (v.uncertain_reason or "") for v in flags)


@needs_multiwoz_val
def test_an_offer_that_does_not_fit_is_certain() -> None:
    """The same offer with no word of difference, or with an area the KB denies, is a claim."""
    assert any(v.certain and v.constraint.value == "C5" and 7 in v.turns for v in _flags({6: ASK, 7: OFFER}))
    wrong = _flags({6: ASK, 7: f"{OFFER} It is in the west , not the south , I 'm afraid ."})
    assert any(v.certain and 7 in v.turns for v in wrong)


@needs_multiwoz_val
def test_system_values_that_disagree_stay_certain() -> None:
    """A C2 instance whose system turns give two areas is a contradiction, marked or not."""
    flags = _flags({6: ASK, 7: f"{OFFER} It is in the north , not the south , I 'm afraid .",
                    9: "Booking was successful . Your reference number is 6RQXSUYD . The guesthouse is in the east ."})
    assert any(v.certain and v.constraint.value == "C2" for v in flags)


@needs_multiwoz_val
@pytest.mark.parametrize(("bound", "flagged"), [
    ("I ca n't leave before 12:35 .", True),  # TR3412 leaves at 11:35: before the user can
    ("I wo n't get out of work before 12:35 .", True),
    ("I ca n't leave before 10:35 .", False),
    ("I do n't want to arrive before 12:35 .", False),  # an arrival bounded from below: no column
])  # fmt: skip
def test_a_negated_before_bounds_the_departure(bound: str, flagged: bool) -> None:
    """PMUL3314 turn 8 asks for a train from Ely to Cambridge; turn 9 offers TR3412 (11:35 → 11:52)."""
    dialogue = raw_val("PMUL3314", {8: f"I am leaving from Ely heading to Cambridge . {bound}"})
    assert certain(dialogue) is flagged


#: MUL0036 turn 10 books the Lucky Star (south, offered in turn 7); the edits make the user prefer
#: the centre and the system offer Charlie Chan there before turn 13 books the Lucky Star.
DETOUR = {10: "Yes , book me a table for 2 on Saturday at 19:45 . Actually , I would prefer one in the centre .",
          11: "Charlie Chan is in the centre ."}  # fmt: skip


@needs_multiwoz_val
@pytest.mark.parametrize("back", ["Let 's go back to the first one .", "I 'll take the one you suggested first .",
                                  "Hmm , the Lucky Star sounds better after all ."])  # fmt: skip
def test_a_user_who_goes_back_asks_for_the_earlier_offer(back: str) -> None:
    dialogue = raw_val("MUL0036", {**DETOUR, 12: f"{back} Ok , how about 18:45 instead ?"})
    assert not certain(dialogue)


@needs_multiwoz_val
def test_without_going_back_the_earlier_offer_is_flagged() -> None:
    flags = check_dialogue(raw_val("MUL0036", DETOUR), kb()).violations
    assert any(v.certain and v.constraint.value == "C2" and 13 in v.turns for v in flags)


def test_the_words_of_going_back() -> None:
    for said in ("let's go back to the first one", "I'll take the one you suggested first", "the other one is better",
                 "the first place sounds better after all", "back to my original choice"):
        assert BACK_TO.search(said), said
    for said in ("I need to get back by 5", "the first train", "one more thing", "I'll go back home"):
        assert not BACK_TO.search(said), said


@needs_multiwoz_val
@pytest.mark.parametrize(("kind", "dialogue_id"), [
    ("open_alternative", "MUL2587"), ("open_alternative", "PMUL1721"), ("open_alternative", "SNG1007"),
    ("negated_before", "PMUL3314"), ("named_fallback", "MUL2587"), ("went_back", "MUL0036"), ("went_back", "MUL2638"),
])  # fmt: skip
def test_each_pair_fault_is_certain_and_twin_is_not(kind: str, dialogue_id: str) -> None:
    dialogue = raw_val(dialogue_id)
    assert not certain(dialogue)
    pair = raw_pair(dialogue, kind, random.Random(0), kb())
    assert pair is not None
    fault, twin = pair
    assert certain(fault) and not certain(twin)
