"""Raw-text reading classes the annotator settles, on MultiWOZ 2.1 val's text read as raw text
(work half): denials of a booking or price thing, frequencies and picked amounts, a count's turn
asking a column, vague price words / "near X", an unread cuisine ("eritrean"), a failed booking, a
time naming a train, a range of prices, a street's name, a count of one part, a fallback; and each class's fault (flagged certain) and true
twin (not flagged certain) from :mod:`csp_check.faults.raw_twins`."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz_val

from csp_check.annotate import annotate
from csp_check.faults import raw_twins
from csp_check.faults.raw_twins import PAIR_KINDS, raw_pair
from csp_check.readers.kb import load_kb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from rawtext import certain, check, raw_dialogues, read_zip


@pytest.fixture(scope="module")
def raw():  # type: ignore[no-untyped-def]
    kb = load_kb(MULTIWOZ_DB)
    data = read_zip(MULTIWOZ_VAL)

    def get(dialogue_id: str):  # type: ignore[no-untyped-def]
        return next(raw_dialogues(data, [dialogue_id]))

    return get, kb


@needs_multiwoz_val
@pytest.mark.parametrize("dialogue_id, turn", [
    ("PMUL2780", 7),  # "there is no fee for castle galleries"
    ("MUL0326", 11),  # "there are no tables available at Kohinoor at that time"
    ("SNG0271", 3),  # "two trains an hour leaving peterborough"
    ("MUL1426", 3),  # "The closest arrival time I show to 10:45 is 1 train"
    ("MUL2097", 7),  # "42 trains … What day will you be travelling ?"
    ("MUL1590", 11),  # "9 different italian restaurants . Do you have a preference on price range ?"
    ("SNG0896", 3),  # the request said "on the cheaper side"
    ("MUL2487", 7),  # the request said "near All Saints"
    ("MUL1003", 29),  # "no hotels on the east side that are not expensive": a negated value
    ("PMUL3966", 11),  # "Any park or historical building": one of alternatives not all read
    ("MUL1034", 3),  # "there is n't a downtown area listed": a loose word
    ("PMUL2144", 1),  # the user's "entertainment": a generic word
    ("MUL0602", 15),  # "at 10:45", later "arrive … by 10:45": the later bound replaces
    ("MUL1995", 7),  # "a train from Stansted": stansted airport
    ("PMUL2385", 15),  # "the same area as the restaurant": the restaurants asked and named differ
    ("MUL2249", 11),  # "5 guesthouses in the centre , east and west": the count of the areas listed
    ("MUL1673", 3),  # "two restaurants . The Nirala which is moderate and the royal spice which is cheap"
    ("PMUL3702", 5),  # "What kind of attraction is that ? I also need a cheap hotel": cheap is the hotel's
    ("MUL0095", 11),  # "What price range would you like the persian restaurant to be ?" "Also expensive ."
    ("SNG01235", 3),  # "international food in the east and centre . The south has … no international food"
    ("MUL1975", 5),  # a nightclub's details after "How about a nightclub", resolved to the concert hall named before
    ("PMUL3052", 1),  # "I have n't had eritrean in forever … a moderately priced restaurant that serves it"
])  # fmt: skip
def test_misreadings_of_a_class_are_no_certain_flag(raw, dialogue_id: str, turn: int) -> None:  # type: ignore[no-untyped-def]
    get, kb = raw
    flagged = [v for v in check(get(dialogue_id), kb).violations if v.certain and turn in v.turns]
    assert not flagged, [v.message for v in flagged]


@needs_multiwoz_val
def test_real_errors_stay_certain(raw) -> None:  # type: ignore[no-untyped-def]
    """PMUL3002: "aylesbray lodge guest house is a cheap guesthouse" (the DB: moderate);
    PMUL3498: "There are no nightclubs in this area" (the centre has five)."""
    get, kb = raw
    for dialogue_id in ("PMUL3002", "PMUL3498"):
        assert any(v.certain for v in check(get(dialogue_id), kb).violations), dialogue_id


@needs_multiwoz_val
@pytest.mark.parametrize("kind, dialogue_id", [
    ("denied_thing", "MUL0036"), ("frequency", "MUL0219"), ("asked_column", "MUL0046"),
    ("negated_value", "MUL0036"), ("denied_pair", "MUL0036"), ("booking_failure", "MUL0036"),
    ("train_time", "MUL0272"), ("unread_food", "MUL0036"), ("price_range", "MUL0036"), ("street_area", "MUL0036"),
    ("part_count", "MUL0013"), ("fallback", "MUL0013"),
    ("denied_pair", "MUL0338"),  # "21 different options … There is vietnamese food in the west . The centre has … no
    # vietnamese food": the food of another sentence may be no filter of the count
    ("booking_failure", "PMUL0134"),  # "one hotel … the Lensfield Hotel … booking was unsuccessful : there are no
    # hotels …": a guessed no-result does not make the count's search the offer
])  # fmt: skip
def test_fault_is_flagged_certain_and_twin_is_not(raw, kind: str, dialogue_id: str) -> None:  # type: ignore[no-untyped-def]
    get, kb = raw
    dialogue = get(dialogue_id)
    assert not certain(dialogue, kb)
    pair = raw_pair(dialogue, kind, random.Random(0), kb)  # type: ignore[arg-type]
    assert pair is not None
    fault, twin = pair
    assert certain(fault, kb)
    assert not certain(twin, kb)


@needs_multiwoz_val
def test_a_count_of_the_turns_own_values_has_no_asked_column_pair(raw) -> None:  # type: ignore[no-untyped-def]
    """PMUL3728: "4 options in the moderate price range in either the centre of town or the north":
    the count is of the listed areas too, so the count without the asked column is no one filter count."""
    get, kb = raw
    assert raw_pair(get("PMUL3728"), "asked_column", random.Random(0), kb) is None



@needs_multiwoz_val
def test_the_asked_column_fault_restates_the_column_the_twin_asks_it(raw) -> None:  # type: ignore[no-untyped-def]
    """MUL0046 turn 7 counts hotels the user asked expensive with wifi: the fault's number (the
    count without the price) is said "in the expensive price range", a claim of the whole search;
    the twin asks the price instead. A count that only leaves the price unsaid may be of the
    search before it, so that is no fault of the pair."""
    get, kb = raw
    fault, twin = raw_pair(get("MUL0046"), "asked_column", random.Random(0), kb)  # type: ignore[misc]
    changed = [k for k, (a, b) in enumerate(zip(fault.turns, twin.turns)) if a.utterance != b.utterance]
    assert changed == [7]
    assert "32 hotels that meet those criteria in the expensive price range ." in fault.turns[7].utterance
    assert twin.turns[7].utterance.endswith("Do you have a preference on price range ?")
    assert "expensive" not in twin.turns[7].utterance

@needs_multiwoz_val
def test_an_area_is_added_or_denied_only_where_the_turn_gives_none(raw) -> None:  # type: ignore[no-untyped-def]
    """MUL0013 turn 7: "… might I suggest Mahal of Cambridge ? It 's located in the centre area .": a fault
    adding "It is in the north ." there makes the turn say two areas (read with a doubt), so no pair goes there."""
    get, kb = raw
    annotated = annotate(get("MUL0013"), kb)
    assert any(a.slot == "area" and a.span is not None for a in annotated.turns[7].acts)
    for kind in ("negated_value", "denied_thing"):
        assert all(turn != 7 for turn, _, _ in raw_twins._CHOOSERS[kind](annotated, kb)), kind
    for kind in ("street_area", "booking_failure"):
        assert all(7 not in fault for fault, _ in raw_twins.READING_PAIRS[kind](annotated, kb)), kind


def test_every_kind_has_a_chooser() -> None:
    assert set(PAIR_KINDS) == set(raw_twins._CHOOSERS) | set(raw_twins.READING_PAIRS)
