"""CI-ToD weather HI classes of issue 20's third round: a for-review contradiction of an earlier
turn (one naming several cities) does not hold back a certain one of a later turn; the fault
generators' twins stay true (a week-long denial of "rain" is not true of a week with "raining")."""

from __future__ import annotations

from pathlib import Path

from support.citod import CITOD, labels, needs_citod

from csp_check.score.citod_bench import fault_rates, run


def test_a_for_review_turn_does_not_hold_back_a_certain_one(tmp_path: Path) -> None:
    two = ["will it rain in alameda and boston", "it will rain on monday in alameda and snow on tuesday in boston",
           "what about alameda on monday", "it will rain on monday in alameda", "are you sure"]
    assert labels(tmp_path, "weather", [*two, "it will snow on monday in alameda"])[1]
    assert not labels(tmp_path, "weather", [*two, "yes it will rain on monday in alameda"])[1]
    temps = ["what is the temperature in alameda and boston on monday",
             "it will be 40f-60f on monday in alameda and 20f-30f on tuesday in boston",
             "what about alameda on monday", "it will be 40f-60f on monday in alameda", "are you sure"]
    assert labels(tmp_path, "weather", [*temps, "it will be 70f on monday in alameda"])[1]
    assert not labels(tmp_path, "weather", [*temps, "yes it will be 60f on monday in alameda"])[1]
    # only the two-city turn contradicted: for review, no label
    assert not labels(tmp_path, "weather", [*two[:2], "are you sure", "it will snow on monday in alameda"])[1]


@needs_citod
def test_weather_surest_and_same_faults_on_the_work_half() -> None:
    """hi_weather_surest, hi_weather_same and qi_weather_cities on the consistent dialogues of the weather work half."""
    rates = fault_rates(run([CITOD / "weather_new_dev.json"], "work"))
    for kind in ("hi_weather_surest", "hi_weather_same", "qi_weather_cities"):
        pairs, caught, twins = rates[kind]
        assert pairs >= 5 and caught == pairs and twins == 0, (kind, rates[kind])


def test_a_query_naming_two_cities_asks_about_each(tmp_path: Path) -> None:
    both = ["what is the weather in alameda and boston on monday"]
    assert not any(labels(tmp_path, "weather", [*both, "it will rain with 40f-60f on monday in boston"]))
    assert not any(labels(tmp_path, "weather", [*both, "it will rain with 40f-60f on monday in alameda"]))
    # a city no turn asked about is another city than the one asked
    assert labels(tmp_path, "weather", ["will it rain in alameda on monday", "which city",
                                        "boston", "it will rain on monday in alameda"])[0]
