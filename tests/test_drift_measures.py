"""The drift suite and every stability measure kind on fixed answers (issue 23)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from csp_check.drift.suite import CATEGORIES, bundled_suite, load_suite
from csp_check.drift.task_measures import ALL_MEASURES, calls_in, profile_report, score
from csp_check.errors import InputError, MeasureError

CASES = [  # (kind, params, answer, expected score)
    ("language", {"lang": "fr"}, "Je pense que l'automne est la plus belle saison de l'année.", 1.0),
    ("language", {"lang": "fr"}, "I think autumn is the most beautiful season of the year.", 0.0),
    ("language", {"lang": "de"}, "1234 !!", 0.0),
    ("contains", {"words": ["meow"]}, "Meow, I am a cat.", 1.0),
    ("contains", {"words": ["cats", "birds"]}, "I love cats.", 0.5),
    ("contains", {"words": ["cats", "birds"], "mode": "any"}, "I love cats.", 1.0),
    ("contains", {"words": ["Meow"], "case_sensitive": True}, "meow", 0.0),
    ("contains", {"words": ["an ai", "a bot"], "absent": True, "mode": "any"}, "I am an AI.", 0.0),
    ("contains", {"words": ["an ai", "a bot"], "absent": True}, "I am Sam.", 1.0),
    ("regex", {"pattern": r"^Howdy!"}, "Howdy! Come in.", 1.0),
    ("regex", {"pattern": r"^Howdy!"}, "Hello, come in.", 0.0),
    ("regex", {"pattern": r"\?", "absent": True}, "What now?", 0.0),
    ("regex", {"pattern": r"Answer: (yes|no)", "match": "full"}, "Answer: yes, surely", 0.0),
    ("regex", {"pattern": r"- .+", "match": "lines"}, "- one\n- two\nthree\n- four", 0.75),
    ("answer_in", {"choices": ["A", "B", "C", "D"]}, " b. ", 1.0),
    ("answer_in", {"choices": ["A", "B", "C", "D"]}, "B) Jupiter", 1.0),
    ("answer_in", {"choices": ["A", "B", "C", "D"]}, "I think it is B", 0.0),
    ("answer_in", {"choices": ["Yes", "No"]}, "Yes!", 1.0),
    ("case", {"case": "upper"}, "ABC def", 0.5),
    ("case", {"case": "lower"}, "all lower", 1.0),
    ("case", {"case": "title"}, "One Two three Four", 0.75),
    ("case", {"case": "upper"}, "123", 0.0),
    ("length", {"max": 4}, "one two three four five six seven eight", 0.5),
    ("length", {"min": 4}, "one two", 0.5),
    ("length", {"unit": "sentences", "max": 1}, "One sentence. And two.", 0.5),
    ("length", {"unit": "chars", "max": 10}, "0123456789", 1.0),
    ("json", {"required": ["answer", "confidence"], "types": {"confidence": "float"}}, '{"answer": "x", "confidence": 0.9}', 1.0),
    ("json", {"required": ["answer", "confidence"]}, '```json\n{"answer": "x"}\n```', 0.5),
    ("json", {"types": {"confidence": "float"}}, '{"confidence": "high"}', 0.0),
    ("json", {}, "The answer is x.", 0.0),
    ("json", {"shape": "array", "required": ["name"]}, '[{"name": "a"}, {"other": 1}]', 0.5),
    ("json", {"shape": "object"}, "[1, 2]", 0.0),
]


@pytest.mark.parametrize("kind, params, answer, expected", CASES)
def test_each_generic_measure_on_fixed_answers(kind: str, params: dict, answer: str, expected: float) -> None:
    if kind == "language":
        pytest.importorskip("langdetect")
    assert score(kind, answer, params) == pytest.approx(expected, abs=1e-3)


PROFILE = ["If I ask for Restaurants, my preferred cuisine is Italian", "If I ask for Restaurants, then also look at Events",
           "If I ask for Events, my preferred category is Music"]  # fmt: skip
REQUEST = "Find me a place to eat in San Jose."


@pytest.mark.parametrize("answer, expected", [
    ('Sure:\nGetRestaurants(city="San Jose", cuisine="Italian")\nGetEvents(city_of_event="San Jose", category="Music")', 1.0),
    ('GetRestaurants(city="San Jose", cuisine="Mexican")\nGetEvents(city_of_event="San Jose", category="Music")', 0.0),  # P2, P4
    ('GetRestaurants(city="San Jose", cuisine="Italian")', 0.0),  # P6: the chain to Events is dropped
    ("I found a nice Italian place for you.", 0.0),  # no call at all
    ('GetPizza(city="San Jose")', 0.0),  # unknown method: P1
])  # fmt: skip
def test_profile_measure_scores_the_calls_by_p1_p6(answer: str, expected: float) -> None:
    assert score("profile", answer, {"instructions": PROFILE}, probe=REQUEST) == expected


def test_profile_measure_names_the_broken_family() -> None:
    calls, report = profile_report('GetRestaurants(city="San Jose")', {"instructions": PROFILE, "request": REQUEST})
    assert [c.method for c in calls] == ["GetRestaurants"]
    assert {v.family for v in report.violations} == {"P4", "P6"}
    # counting only P6, an answer that keeps the chain but drops the cuisine passes
    both = 'GetRestaurants(city="San Jose")\nGetEvents(city_of_event="San Jose", category="Music")'
    assert score("profile", both, {"instructions": PROFILE, "families": ["P6"]}, probe=REQUEST) == 1.0
    assert score("profile", both, {"instructions": PROFILE}, probe=REQUEST) == 0.0


def test_calls_are_read_out_of_prose_and_fences() -> None:
    text = 'Here you go:\n```\nGetHotels(destination="Seattle", star_rating="4")\n```\nand GetEvents(category="Music").'
    assert [c.render() for c in calls_in(text)] == ['GetHotels(destination="Seattle", star_rating="4")',
                                                     'GetEvents(category="Music")']  # fmt: skip
    assert calls_in("Nothing (really) here") == []


HOTELS = {"domain": "hotel", "entities": [
    {"name": "the grand", "area": "north", "pricerange": "expensive", "stars": "4"},
    {"name": "city lodge", "area": "centre", "pricerange": "cheap", "stars": "2"},
    {"name": "river inn", "area": "centre", "pricerange": "moderate", "stars": "3"},
]}  # fmt: skip


@pytest.mark.parametrize("answer, expected", [
    ("There are two hotels in the centre: City Lodge and River Inn.", 1.0),
    ("City Lodge is a cheap hotel in the centre.", 1.0),
    ("The Grand is a cheap hotel in the centre.", 0.0),  # C5: no such entity
    ("There are three hotels in the centre.", 0.0),  # C6: the KB has two
    ("Sorry, I have no idea.", 0.0),  # states nothing the KB covers
])  # fmt: skip
def test_kb_measure_scores_what_the_answer_states_by_c4_c6(answer: str, expected: float) -> None:
    assert score("kb", answer, {"kb": HOTELS}, probe="Which hotels are in the centre?") == expected


def test_kb_measure_without_require_statement_passes_silence() -> None:
    params = {"kb": HOTELS, "require_statement": False}
    assert score("kb", "Sorry, I have no idea.", params, probe="Which hotels are in the centre?") == 1.0


@pytest.mark.parametrize("kind, params", [
    ("language", {}), ("contains", {"words": []}), ("regex", {"pattern": "("}), ("case", {"case": "sideways"}),
    ("length", {}), ("json", {"types": {"a": "number"}}), ("profile", {"instructions": "not a list"}),
    ("kb", {"kb": {"nonsense": 1}}), ("nope", {}),
])  # fmt: skip
def test_bad_parameters_are_a_measure_error_naming_them(kind: str, params: dict) -> None:
    with pytest.raises(MeasureError, match=kind if kind != "nope" else "unknown measure kind"):
        score(kind, "an answer", params, probe="a probe")


def test_the_bundled_suite_covers_every_category_and_its_examples_hold() -> None:
    pytest.importorskip("langdetect")
    suite = bundled_suite()
    counts = Counter(p.category for p in suite)
    assert len(suite) >= 40 and set(counts) == set(CATEGORIES), counts
    assert all(counts[c] >= 5 for c in CATEGORIES), counts
    assert {p.kind for p in suite} == set(ALL_MEASURES)
    for p in suite:
        assert score(p.kind, p.examples["pass"], p.params(), p.probe) >= 0.9, p.id
        assert score(p.kind, p.examples["fail"], p.params(), p.probe) <= 0.3, p.id


def test_a_bad_suite_line_is_an_input_error_with_its_line(tmp_path: Path) -> None:
    good = {"id": "a", "category": "language", "system_prompt": "French.", "probe": "Hi?", "measure": {"kind": "language", "lang": "fr"}}
    path = tmp_path / "suite.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps({**good, "probe": ""}) + "\n")
    with pytest.raises(InputError, match=r"suite.jsonl:3: probe"):
        load_suite(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(InputError, match=r":2: id 'a' repeats"):
        load_suite(path)
    path.write_text(json.dumps({**good, "measure": {"kind": "vibes"}}) + "\n")
    with pytest.raises(InputError, match=r":1: measure kind 'vibes' is unknown"):
        load_suite(path, frozenset(ALL_MEASURES))
    assert load_suite(tmp_path / "suite.jsonl", None)[0].kind == "vibes"
    with pytest.raises(InputError, match="cannot read"):
        load_suite(tmp_path / "missing.jsonl")
