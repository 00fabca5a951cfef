"""Classes found by the adversarial SGD run (benchmarks/attack_sgd.py), each on a real SGD dev
dialogue: the faulty rewording is flagged, its true twin (the same words with the true value)
is not."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest
from support.data import SGD_DEV, needs_sgd

from csp_check.language.cues import boolean_span, count_spans, read_boolean
from csp_check.language.normalize import clock_time, date_key, dollars, parse_amount, rated, wording_key
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.sgd import from_raw

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

_RAW: dict[str, dict] = {}


def _gold(dialogue_id: str):
    file = SGD_DEV / f"dialogues_{int(dialogue_id.split('_')[0]):03d}.json"
    if dialogue_id not in _RAW:
        _RAW.update({d["dialogue_id"]: d for d in json.loads(file.read_text(encoding="utf-8"))})
    gold = next(d for d in load_corpus([file]) if getattr(d, "id", "") == dialogue_id)
    return gold, _RAW[dialogue_id]


def _edited(dialogue_id: str, turn: int, old: str, new: str, acts: dict[str, str] | None = None) -> set[str]:
    """The constraint ids flagged after writing ``new`` over ``old`` in ``turn`` (spans
    re-aligned); ``acts``: slot → new value of that turn's acts (text+annotation)."""
    from attack_sgd import edit

    gold, raw = _gold(dialogue_id)
    raw = copy.deepcopy(raw)
    t = raw["turns"][turn]
    start = t["utterance"].index(old)
    edit(t, start, start + len(old), new)
    for frame in t["frames"]:
        for a in frame["actions"]:
            if acts and a["slot"] in acts:
                a["values"] = a["canonical_values"] = [acts[a["slot"]]]
    faulty = from_raw(raw, gold.ontology, gold.source, gold.slot_descriptions)
    # values no words name (S1 for review, docs/iur.md) are the gold's, not the edit's
    return {v.constraint.value for v in check_dialogue(faulty).violations
            if not (v.uncertain_reason or "").startswith(("implied:", "unsaid:"))}


def test_dollars_ratings_and_quarter_hours_are_read_as_their_values() -> None:
    assert [dollars(t) for t in ("$3,150", "3150 bucks", "usd 3200", "306 dollars", "forty-five dollars", "$12.50")] == [
        "3150", "3150", "3200", "306", "45", "12.50"]
    assert dollars("45") is None and dollars("45 people") is None
    assert [rated(t) for t in ("4.3 stars", "4.3-star", "6.2 out of 10", "4 stars")] == ["4.3", "4.3", "6.2", None]
    assert wording_key("rating", "4.30") == wording_key("rating", "4.3 out of 5")
    assert wording_key("price", "$306") == wording_key("price", "306")
    assert clock_time("a quarter to eight in the morning") == "07:45"
    assert clock_time("a quarter past five in the evening") == "17:15"
    assert parse_amount("two dozen") == 24 and parse_amount("sixty-two") == 62 and parse_amount("1,200") == 1200


def test_dates_with_a_weekday_or_in_us_digits() -> None:
    assert date_key("3/13") == "03-13" and date_key("3/13/2019") == "03-13"
    assert date_key("Wednesday, March 13th") == "03-13"
    assert date_key("Tuesday the 12th", 3) == "03-12"
    assert date_key("Tuesday") == "relative" and date_key("next Tuesday") == "relative"
    assert date_key("13/13") is None


def test_counts_said_with_plus_dozens_or_thousands_separators_are_counts() -> None:
    u = "I found 1,010 apartments, 13+ songs and two dozen alarms for $1,030."
    assert [u[s.start : s.end] for s in count_spans(u)] == ["1,010", "13", "two dozen"]


@pytest.mark.parametrize(("utterance", "slot", "value"), [
    ("You may smoke there.", "smoking_allowed", "true"),
    ("You may not smoke there.", "smoking_allowed", "false"),
    ("It's great for children.", "good_for_kids", "true"),
    ("There is patio seating.", "has_seating_outdoors", "true"),
    ("It comes without any furniture.", "furnished", "false"),
    ("They don't offer internet access.", "has_wifi", "false"),
])
def test_boolean_features_in_everyday_words(utterance: str, slot: str, value: str) -> None:
    span = boolean_span(utterance, slot)
    assert span is not None and read_boolean(utterance[span.start : span.end]) == value


@needs_sgd
@pytest.mark.parametrize(("dialogue_id", "turn", "old", "twin", "fault"), [
    # prices in words: a true one is no claim against the KB, another amount is
    ("1_00041", 3, "$306", "306 dollars", "316 dollars"),
    ("4_00010", 3, "$3,150", "3150 bucks", "USD 3250"),
    # ratings with their scale
    ("4_00104", 15, "4.3", "4.3 out of 5", "4.0 out of 5"),
    ("5_00104", 5, "5.4", "5.4 stars", "5.9 stars"),
    # quarter hours with "a"
    ("3_00061", 9, "10:15 am", "a quarter past ten in the morning", "a quarter past eleven in the morning"),
    ("1_00101", 7, "7:45 am", "a quarter to eight in the morning", "a quarter to nine in the morning"),
    # dates in US digits or with a weekday
    ("3_00054", 21, "March 13th", "3/13", "3/14"),
    ("4_00104", 10, "the 12th", "Tuesday the 12th", "Wednesday the 13th"),
])
def test_rewordings_keep_their_value(dialogue_id: str, turn: int, old: str, twin: str, fault: str) -> None:
    assert not check_dialogue(_gold(dialogue_id)[0]).violations
    assert _edited(dialogue_id, turn, old, twin) == set()
    assert _edited(dialogue_id, turn, old, fault) & {"C1", "C2", "C5", "S1"}


@needs_sgd
@pytest.mark.parametrize(("dialogue_id", "turn", "old", "twin", "fault"), [
    ("6_00107", 1, "10 songs", "10+ songs", "13+ songs"),  # "N+" is at least N
    ("3_00009", 1, "2 alarms", "two alarms", "two dozen alarms"),  # "two dozen" is 24, not 2
    ("4_00010", 3, "10 apartments", "ten apartments", "1,010 apartments"),
])
def test_counts_in_other_words(dialogue_id: str, turn: int, old: str, twin: str, fault: str) -> None:
    assert _edited(dialogue_id, turn, old, twin) == set()
    assert "C6" in _edited(dialogue_id, turn, old, fault)


@needs_sgd
@pytest.mark.parametrize("mode", ["text", "annotated"])
def test_a_confirmed_default_is_held_to_the_call_it_leads_to(mode: str) -> None:
    # 4_00104 turn 13: "A table for 2" (number_of_seats, which the user never gave: the state
    # lacks it); the user accepts and the ReserveRestaurant call books 2 seats
    acts = {"number_of_seats": "3"} if mode == "annotated" else None
    assert "S1" in _edited("4_00104", 13, "A table for 2", "A table for three", acts)
    assert _edited("4_00104", 13, "A table for 2", "A table for two") == set()


@needs_sgd
def test_a_confirmed_default_is_held_to_the_next_confirmation() -> None:
    # 1_00014 turn 5 confirms "today" (a date the user never gave); the user changes the
    # restaurant and turn 7 confirms "today" again: "3/2" in the first is flagged
    assert "S1" in _edited("1_00014", 5, "today", "3/2", {"date": "2019-03-02"})
    assert _edited("1_00014", 5, "today", "3/1") == set()


@needs_sgd
def test_a_feature_in_everyday_words_said_the_other_way_round() -> None:
    # 6_00032 turn 9: the act and the hotel's results say smoking is not allowed
    assert _edited("6_00032", 9, "No smoking permission, they do not allow it.", "You may smoke there.") & {"C2", "C5"}
    assert _edited("6_00032", 9, "No smoking permission, they do not allow it.", "You may not smoke there.") == set()


@needs_sgd
def test_attack_run_flags_faults_and_no_twins_on_a_sample() -> None:
    from attack_sgd import run

    kinds = ["count_plus", "count_two_dozen", "price_words", "rating", "date_words", "party_words"]
    c = run(str(SGD_DEV), 40, 0, kinds, 0)
    faults = sum(c[(k, m, "fault", "n")] for k in kinds for m in ("text", "annotated"))
    flagged = sum(c[(k, m, "fault", "flagged")] for k in kinds for m in ("text", "annotated"))
    twins = sum(c[(k, m, "twin", "n")] for k in kinds for m in ("text", "annotated"))
    twins_flagged = sum(c[(k, m, "twin", "flagged")] for k in kinds for m in ("text", "annotated"))
    assert faults > 50 and twins > 50
    assert flagged / faults >= 0.9 and twins_flagged == 0


@needs_sgd
def test_an_offer_is_checked_against_entities_of_its_own_kind() -> None:
    # 3_00009 turn 1 offers the alarm "wake up" at 6:30 am (GetAlarms results); the dialogue's
    # AddAlarm result (new_alarm_time / new_alarm_name, no alarm_time) is another kind of entity
    # and no longer matches any alarm time by its missing columns
    assert "C5" in _edited("3_00009", 1, "6:30 am", "8:30 am")
    assert _edited("3_00009", 1, "6:30 am", "half past six in the morning") == set()


@needs_sgd
def test_the_solvers_read_the_table_of_its_kind() -> None:
    from attack_sgd import edit

    from csp_check.families.c5_some_instance import WithColumns
    from csp_check.pipeline import dialogue_csp
    from csp_check.solvers import SolveStatus, get_solver

    gold, raw = _gold("3_00009")
    raw = copy.deepcopy(raw)
    t = raw["turns"][1]
    start = t["utterance"].index("6:30 am")
    edit(t, start, start + 7, "8:30 am")
    csp = dialogue_csp(from_raw(raw, gold.ontology, gold.source, gold.slot_descriptions))
    c5 = [c for c in csp.constraints if c.id.value == "C5" and c.turn == 1]
    assert c5 and all(c.table.of(WithColumns) and c.kb in csp.kbs for c in c5)
    for name in ("cp-sat", "minizinc"):  # the checker's verdict, read by each backend from the same table
        assert get_solver(name).check_assignment(csp).status is SolveStatus.UNSATISFIABLE, name


@needs_sgd
def test_a_booked_total_is_held_to_the_booking_result() -> None:
    # 2_00046 turn 11: "Your vehicle is booked, and costs $93."; the ReserveCar result of that
    # turn says total_price 93. Text and act changed together are caught by the result alone.
    assert "C5" in _edited("2_00046", 11, "$93", "USD 103", {"total_price": "103"})
    assert _edited("2_00046", 11, "$93", "ninety-three dollars") == set()


@needs_sgd
def test_a_count_after_ive() -> None:
    # 4_00050 turn 7: "Okay, I've 3 which all look nice." (3 apartments match)
    assert "C6" in _edited("4_00050", 7, "I've 3", "I've six")
    assert _edited("4_00050", 7, "I've 3", "I've three") == set()


@needs_sgd
def test_details_about_the_entity_the_text_names() -> None:
    # 3_00040 turn 17: "Their address is 3468 Mount Diablo Boulevard" (Alissa Scanlin Psyd's, the
    # booked therapist); written with the name of the therapist offered before, it is that one's
    assert "C5" in _edited("3_00040", 17, "Their address", "Emily Rosenbaum's address")
    assert _edited("3_00040", 17, "Their address", "Alissa Scanlin Psyd's address") == set()
