"""CI-ToD label classes of the language: numbers in words, negated values, paraphrases of the KB's
closed values, the weather attribute asked and answered, "the only one" claims — each with its
true twin that must not be flagged."""

from __future__ import annotations

import json
from pathlib import Path

from support.citod import CITOD, FILES, ONTOLOGY, labels, needs_citod

from csp_check.language.number_words import decades, digits_for_words
from csp_check.models import Dialogue
from csp_check.readers import citod
from csp_check.score.citod import labels_of, violations
from csp_check.score.citod_bench import fault_rates, run


def test_numbers_in_words_are_read_as_kvret_values() -> None:
    assert digits_for_words("it is two miles away") == "it is 2_miles away"
    assert digits_for_words("about a mile from here") == "about 1_miles from here"
    assert digits_for_words("seventy degrees at three pm on the tenth") == "70f at 3pm on the_10th"
    assert digits_for_words("the twenty first at 3pm") == "the_21st at 3pm"
    assert digits_for_words("the first meeting is the only one") == "the first meeting is the only one"
    assert decades("highs in the 70s and the sixties".split()) == [(3, 70), (6, 60)]


def test_kbi_numbers_in_words_against_the_kb_and_their_twins(tmp_path: Path) -> None:
    assert labels(tmp_path, "navigate", ["where is hotel_keen", "hotel_keen is five miles away"])[2]
    assert not labels(tmp_path, "navigate", ["where is hotel_keen", "hotel_keen is three miles away"])[2]
    assert labels(tmp_path, "calendar", ["when is my dinner", "your dinner is on the tenth at 3pm"])[2]
    assert not labels(tmp_path, "calendar", ["when is my dinner", "your dinner is on the twelfth at three pm"])[2]


def test_kbi_a_negated_value_the_kb_has_and_its_twins(tmp_path: Path) -> None:
    assert labels(tmp_path, "navigate", ["where is hotel_keen", "hotel_keen is not 3_miles away"])[2]
    assert not labels(tmp_path, "navigate", ["where is hotel_keen", "hotel_keen is not 5_miles away"])[2]
    assert labels(tmp_path, "navigate", ["any traffic to the_westin", "the_westin has no heavy_traffic"])[2]
    assert not labels(tmp_path, "navigate", ["any traffic to hotel_keen", "hotel_keen has no heavy_traffic"])[2]
    assert labels(tmp_path, "weather", ["will it rain in alameda on monday", "it will not rain on monday in alameda"])[2]
    assert not labels(tmp_path, "weather", ["will it rain in alameda on monday", "it will not snow on monday in alameda"])[2]
    assert labels(tmp_path, "weather", ["will it snow in alameda", "it will not snow at all this week in alameda"])[2]
    assert not labels(tmp_path, "weather", ["will it drizzle in alameda", "it will not drizzle at all this week in alameda"])[2]


def test_kbi_paraphrases_of_closed_values_and_their_twins(tmp_path: Path) -> None:
    assert labels(tmp_path, "navigate", ["any traffic to hotel_keen", "the road to hotel_keen is jammed"])[2]
    assert not labels(tmp_path, "navigate", ["any traffic to the_westin", "the road to the_westin is jammed"])[2]
    assert labels(tmp_path, "navigate", ["any traffic to the_westin", "the_westin has clear roads"])[2]
    assert not labels(tmp_path, "navigate", ["any traffic to hotel_keen", "hotel_keen has clear roads"])[2]
    assert labels(tmp_path, "weather", ["what about monday in boston", "it will be sunny on monday in boston"])[2]
    assert not labels(tmp_path, "weather", ["what about wednesday in boston", "it will be sunny on wednesday in boston"])[2]


def test_qi_the_weather_attribute_asked_and_the_one_answered(tmp_path: Path) -> None:
    assert labels(tmp_path, "weather", ["will it rain in alameda on monday", "it will be 40f-60f on monday in alameda"])[0]
    assert not labels(tmp_path, "weather", ["will it rain in alameda on monday", "it will rain on monday in alameda"])[0]
    assert not labels(tmp_path, "weather", ["what is the weather in alameda on monday",
                                            "it will be 40f-60f on monday in alameda"])[0]


def test_hi_a_weather_statement_against_the_history_and_the_attribute_it_asked(tmp_path: Path) -> None:
    said = ["will it rain in alameda on monday", "it will rain on monday in alameda", "are you sure"]
    assert labels(tmp_path, "weather", [*said, "it will snow on monday in alameda"])[1]
    assert labels(tmp_path, "weather", [*said, "it will not rain on monday in alameda"])[1]
    assert not labels(tmp_path, "weather", [*said, "yes it will rain on monday in alameda"])[1]
    assert not labels(tmp_path, "weather", [*said[:2], "and on tuesday", "it will snow on tuesday in alameda"])[1]
    asked = ["will it snow in alameda on tuesday", "it will snow on tuesday in alameda", "what about boston"]
    assert labels(tmp_path, "weather", [*asked, "it will be 20f-30f on tuesday in boston"])[1]
    assert not labels(tmp_path, "weather", [*asked, "it will snow on tuesday in boston too"])[1]


@needs_citod
def test_weather_faults_are_caught_and_their_true_twins_are_not() -> None:
    """The weather fault generators on the consistent dialogues of the weather work half."""
    rates = fault_rates(run([CITOD / "weather_new_dev.json"], "work"))
    for kind in ("qi_weather_attribute", "hi_weather_swap"):
        pairs, caught, twins = rates[kind]
        assert pairs >= 3 and caught == pairs and twins == 0, (kind, rates[kind])


def test_kbi_the_only_one_against_the_kb_count_and_its_twins(tmp_path: Path) -> None:
    assert labels(tmp_path, "navigate", ["i need a hotel", "hotel_keen is the only rest_stop i have"])[2]
    assert not labels(tmp_path, "navigate", ["i need groceries", "trader_joes is the only grocery_store i have"])[2]
    assert not labels(tmp_path, "navigate", ["i need a hotel", "hotel_keen is the only rest_stop within 3_miles"])[2]
    assert not labels(tmp_path, "navigate", ["a hotel avoiding all heavy_traffic", "hotel_keen is the only one"])[2]
    assert not labels(tmp_path, "navigate", ["i need a hotel", "the route to hotel_keen is the only one i have"])[2]
    assert not labels(tmp_path, "navigate", ["i need a hotel", "hotel_keen is the only rest_stop nearby"])[2]  # vague


def test_a_decade_is_vague_never_certain(tmp_path: Path) -> None:
    name, kb = FILES["weather"]
    (tmp_path / "entities.json").write_text(json.dumps(ONTOLOGY))
    raw = {"id": 1, "dialogue": [{"turn": "driver", "utterance": "how warm will it be in alameda on monday"},
                                 {"turn": "assistant", "utterance": "highs in the 90s on monday in alameda"}],
           "scenario": {"kb": {"items": kb}, "qi": "0", "hi": "0", "kbi": "0"}, "HIPosition": []}
    (tmp_path / name).write_text(json.dumps([raw]))
    [(dialogue, _)] = list(citod.items(tmp_path / name))
    assert isinstance(dialogue, Dialogue)
    found = violations(dialogue)
    assert any("in the 90s" in v.message and not v.certain for v in found) and not labels_of(found).kbi


def test_qi_an_attribute_restated_otherwise_that_is_all_the_answer_says(tmp_path: Path) -> None:
    said = ["where is a hotel", "hotel_keen is 3_miles away"]
    assert labels(tmp_path, "navigate", [*said, "set the gps there", "hotel_keen is 5_miles away"]) == (True, True, True)
    assert labels(tmp_path, "navigate", [*said, "how far is it again", "hotel_keen is 5_miles away"]) == (False, True, True)
    assert not labels(tmp_path, "navigate", [*said, "set the gps there", "hotel_keen is 5_miles away at 578_arbol_dr"])[0]


def test_kbi_a_distance_said_before_the_place_it_belongs_to_binds_by_the_clause(tmp_path: Path) -> None:
    """"it s 3_miles away, the_westin is ...": the pronoun's clause is about the place in focus
    (hotel_keen, 3 miles), not the place that opens the next clause (the_westin, 5 miles)."""
    said = ["where is hotel_keen", "hotel_keen is at 578_arbol_dr", "how far is it and is there any other rest_stop"]
    assert not labels(tmp_path, "navigate", [*said, "it s 3_miles away the_westin is 5_miles away"])[2]
    assert labels(tmp_path, "navigate", [*said, "it s 5_miles away the_westin is 5_miles away"])[2]
    assert not labels(tmp_path, "navigate", [*said, "it's 3 miles away, the_westin is the other rest_stop"])[2]
    assert labels(tmp_path, "navigate", [*said, "it's 5 miles away, the_westin is the other rest_stop"])[2]
    # a place after "from" is governed, not a clause's subject: the distance is still its own
    assert labels(tmp_path, "navigate", ["how far is the_westin", "we re 3_miles away from the_westin is it okay"])[2]


@needs_citod
def test_the_clause_subject_on_real_train_dialogues() -> None:
    """navigate train: the fault pairs are caught and their twins are not; item 147 ("palo alto
    would be better as it only has moderate_traffic and teavana is heavy_traffic", gold consistent)
    no longer binds the traffic of "it" to teavana for certain."""
    bench = run([CITOD / "navigate_train.json"])
    pairs, caught, twins = fault_rates(bench)["kbi_clause_subject"]
    assert pairs >= 20 and caught == pairs and twins == 0
    item = bench.scored[147]
    assert item.dialogue.turns[-1].utterance.startswith("palo alto would be better as it only has")
    assert not item.labels.kbi and any(not v.certain and "latest of several" in (v.uncertain_reason or "")
                                       for v in item.found)


def test_hi_weather_temperatures_days_and_same_with_against_the_history(tmp_path: Path) -> None:
    """A temperature given otherwise for the city and day an earlier turn gave; the day an
    earlier user turn settled, switched; "the same with X" extends a week-long denial to X; near
    attributes ("drizzle" after "rain") and a weekday against "today" are for review only."""
    given = ["what is the temperature in alameda on monday", "it will be 40f-60f on monday in alameda", "are you sure"]
    assert labels(tmp_path, "weather", [*given, "it will be 70f on monday in alameda"])[1]
    assert not labels(tmp_path, "weather", [*given, "yes it will be 60f on monday in alameda"])[1]
    highs = ["what is the temperature in alameda on monday", "the low is 40f and the high is 60f on monday in alameda"]
    assert labels(tmp_path, "weather", [*highs, "and the high", "the high is 70f on monday in alameda"])[1]
    day = ["will it rain on monday", "which city", "alameda"]
    assert labels(tmp_path, "weather", [*day, "it will snow on tuesday in alameda"])[:2] == (True, True)
    assert not any(labels(tmp_path, "weather", [*day, "it will rain on monday in alameda"]))
    assert labels(tmp_path, "weather", ["will it rain today", "which city", "alameda", "it will rain tomorrow in alameda"])[1]
    assert not labels(tmp_path, "weather", ["will it rain today", "which city", "alameda",
                                            "it will snow on tuesday in alameda"])[1]  # today's weekday is unknown
    assert not labels(tmp_path, "weather", ["will it rain this week on monday", "which city", "alameda",
                                            "it will snow on tuesday in alameda"])[1]  # a span settles no day
    rained = ["will it rain in boston", "it will rain on monday in boston", "and alameda"]
    assert labels(tmp_path, "weather", [*rained, "it will not rain at all this week in alameda which is the same "
                                                 "with boston"])[1]
    assert not labels(tmp_path, "weather", [*rained, "it will not rain at all this week in alameda which is not the "
                                                     "same with boston"])[1]
    swap = ["will it rain in alameda on monday", "it will rain on monday in alameda", "are you sure"]
    assert labels(tmp_path, "weather", [*swap, "it will snow on monday in alameda"])[1]
    assert not labels(tmp_path, "weather", [*swap, "it will drizzle on monday in alameda"])[1]  # near: for review


@needs_citod
def test_weather_history_faults_on_the_work_half() -> None:
    """The new weather HI fault generators on the consistent dialogues of the weather work half
    (real dialogues; the check half is never read)."""
    rates = fault_rates(run([CITOD / "weather_new_dev.json"], "work"))
    for kind in ("hi_weather_temperature", "hi_weather_day", "hi_weather_same"):
        pairs, caught, twins = rates[kind]
        assert pairs >= 2 and caught == pairs and twins == 0, (kind, rates[kind])


def test_qi_a_bare_yes_asks_for_what_the_system_offered(tmp_path: Path) -> None:
    offer = ["find the nearest hotel", "hotel_keen is 3_miles away do you want its address"]
    assert labels(tmp_path, "navigate", [*offer, "yes sounds great", "there is no_traffic on the route to hotel_keen"])[0]
    assert not labels(tmp_path, "navigate", [*offer, "yes sounds great", "hotel_keen is at 578_arbol_dr"])[0]
    assert not labels(tmp_path, "navigate", [*offer, "yes and pick a route with no_traffic",
                                             "there is no_traffic on the route to hotel_keen"])[0]  # its own request


@needs_citod
def test_qi_offer_accepted_on_real_train_dialogues() -> None:
    """navigate train: items 24 and 888 ("would you like the address" / "yes" / a distance or
    traffic only) are QI, as gold says; the fault pairs are caught and their twins are not."""
    bench = run([CITOD / "navigate_train.json"])
    assert bench.scored[24].labels.qi and bench.scored[888].labels.qi
    assert bench.scored[24].gold.qi and bench.scored[888].gold.qi
    pairs, caught, twins = fault_rates(bench)["qi_offer_accepted"]
    assert pairs >= 50 and caught == pairs and twins == 0


def test_qi_a_calendar_time_or_day_by_its_form(tmp_path: Path) -> None:
    """A time or day no KB or ontology value spells ("8 am", "wed", "tomorrow") is read by its
    form and compared with the query's: never claimed absent from the KB."""
    query = ["schedule my dinner at 3pm with my sister"]
    assert labels(tmp_path, "calendar", [*query, "okay setting your dinner at 8 am"]) == (True, False, False)
    assert not any(labels(tmp_path, "calendar", [*query, "okay setting your dinner at 3pm"]))
    today = ["no schedule my dinner for today"]
    assert labels(tmp_path, "calendar", [*today, "okay scheduling your dinner for tomorrow"])[0]
    assert not labels(tmp_path, "calendar", [*today, "okay scheduling your dinner for today"])[0]


@needs_citod
def test_calendar_forms_on_real_train_dialogues() -> None:
    """calendar train: items 54 ("11am" → "8am"), 91 ("today" → "tomorrow") and 286 ("1pm" →
    "wed at 8am") are QI, as gold says; the fault pairs are caught and their twins are not."""
    bench = run([CITOD / "calendar_train.json"])
    assert all(bench.scored[i].labels.qi and bench.scored[i].gold.qi for i in (54, 91, 286))
    pairs, caught, twins = fault_rates(bench)["qi_time_form"]
    assert pairs >= 50 and caught == pairs and twins == 0
