"""CI-ToD HI classes of calendar and navigate found on train (issue 20, third round): the kind of
place the user asked for holds when no turn before the query named a place; the system taking back
its own claim (the nearest, the only one, none of a kind) contradicts the history."""

from __future__ import annotations

from pathlib import Path

from support.citod import CITOD, labels, needs_citod

from csp_check.score.citod_bench import fault_rates, run


def test_the_kind_asked_holds_when_no_place_was_named(tmp_path: Path) -> None:
    asked = ["where is the nearest rest_stop", "the nearest rest_stop is 3_miles away", "what is the address"]
    assert labels(tmp_path, "navigate", [*asked, "trader_joes is at 408_university_ave"])[:2] == (True, True)
    assert not any(labels(tmp_path, "navigate", [*asked, "hotel_keen is at 578_arbol_dr"]))


@needs_citod
def test_kind_unnamed_on_real_train_dialogues() -> None:
    """navigate train items 171 ("the closest hospital is at 214_el_camino_real" / "set the gps
    there" / "hava a good time in mandarin_roots") and 453 (a grocery_store, then chef_chu_s) are
    HI as gold says; the hi_kind_unnamed pairs are caught and their twins are not."""
    bench = run([CITOD / "navigate_train.json"])
    for index in (171, 453):
        assert bench.scored[index].labels.hi and bench.scored[index].gold.hi
    pairs, caught, twins = fault_rates(bench)["hi_kind_unnamed"]
    assert pairs >= 100 and caught == pairs and twins == 0


def test_the_system_taking_back_its_own_claim_is_hi(tmp_path: Path) -> None:
    nearest = ["find the nearest grocery_store", "the nearest grocery_store is trader_joes", "are you sure"]
    assert labels(tmp_path, "navigate", [*nearest, "trader_joes is not the nearest grocery_store"])[1]
    assert not labels(tmp_path, "navigate", [*nearest, "yes trader_joes is the nearest grocery_store"])[1]
    only = ["find a grocery_store", "trader_joes is the only grocery_store i have", "are you sure"]
    assert labels(tmp_path, "navigate", [*only, "there is another grocery_store i have"])[1]
    assert not labels(tmp_path, "navigate", [*only, "yes there is no other grocery_store"])[1]
    none = ["is there a rest_stop near me", "there is no rest_stop near you", "are you sure"]
    assert labels(tmp_path, "navigate", [*none, "there is a rest_stop near you"])[1]
    assert not labels(tmp_path, "navigate", [*none, "yes sorry there is no rest_stop near you"])[1]
    # another filter: "no rest_stop near you", then one 5_miles away, may both be true: for review
    assert not labels(tmp_path, "navigate", [*none, "the_westin is a rest_stop 5_miles away"])[1]


@needs_citod
def test_claims_reversed_on_real_train_dialogues() -> None:
    """navigate train items 224 ("there is no hotel listed that is near you", then "there is a
    hotel listed that is near you") and 250 ("the only hospital", then "there is another
    hospital") are HI as gold says; the hi_claim_reversed pairs are caught, their twins are not."""
    bench = run([CITOD / "navigate_train.json"])
    for index in (224, 250):
        assert bench.scored[index].labels.hi and bench.scored[index].gold.hi
    pairs, caught, twins = fault_rates(bench)["hi_claim_reversed"]
    assert pairs >= 100 and caught == pairs and twins == 0


def test_calendar_values_of_another_request_and_spellings(tmp_path: Path) -> None:
    meeting = ["remind me of the meeting on monday", "the meeting is at 10am"]
    assert not any(labels(tmp_path, "calendar", [*meeting, "when is my dinner", "your dinner is on the_12th at 3pm"]))
    # the same event asked again: the day the user said holds
    assert labels(tmp_path, "calendar", [*meeting, "and what time is it", "your meeting is on the_12th at 10am"])[1]
    assert not any(labels(tmp_path, "calendar", ["when is dinner", "dinner is at 3_pm", "are you sure",
                                                 "yes dinner is at 3pm"]))


@needs_citod
def test_an_events_short_head_word_names_it_on_real_train_dialogues() -> None:
    """calendar train item 398 ("when is my scheduled appointment for my lab" / "your
    doctor_appointment is …") is QI as gold says: "lab" names lab_appointment; the qi_event_word
    pairs are caught and their twins are not."""
    bench = run([CITOD / "calendar_train.json"])
    assert bench.scored[398].labels.qi and bench.scored[398].gold.qi
    pairs, caught, twins = fault_rates(bench)["qi_event_word"]
    assert pairs >= 50 and caught == pairs and twins == 0


def test_qi_a_route_asked_of_the_place_in_focus(tmp_path: Path) -> None:
    focus = ["find a grocery_store", "trader_joes is 2_miles away", "can you give me the quickest route"]
    assert labels(tmp_path, "navigate", [*focus, "trader_joes is a grocery_store"])[0]
    assert not labels(tmp_path, "navigate", [*focus, "the quickest route to trader_joes has moderate_traffic"])[0]
    assert not labels(tmp_path, "navigate", [*focus, "setting navigation to trader_joes now"])[0]
    # a query naming its place, or choosing among places, may be answered by the place
    assert not labels(tmp_path, "navigate", ["find a rest_stop", "hotel_keen and the_westin are near",
                                             "which one has the quickest route", "hotel_keen"])[0]


@needs_citod
def test_route_asked_on_real_train_dialogues() -> None:
    """navigate train items 175 ("can you give me the quickest route" / "jing_jing is at …") and
    290 ("is there a quickest route to reach it" / "cafe_venetia is a coffee_or_tea_place") are QI
    as gold says; the qi_route_asked pairs are caught and their twins are not."""
    bench = run([CITOD / "navigate_train.json"])
    for index in (175, 290):
        assert bench.scored[index].labels.qi and bench.scored[index].gold.qi
    pairs, caught, twins = fault_rates(bench)["qi_route_asked"]
    assert pairs >= 30 and caught == pairs and twins == 0
