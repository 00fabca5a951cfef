"""Families P1-P6, the checker, derivation and metrics on hand-written examples (paper Table 1)."""

from __future__ import annotations

import random

import pytest
from support.nlsi import example, schema

from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import solve_count
from csp_check.nlsi.faults import KINDS, make
from csp_check.nlsi.metrics import exact_match, f1, selection_scores, triples
from csp_check.nlsi.models import ReasoningType as RT

DISTRACT = ["Request Restaurants with Filipino cuisine as my preference.", "If I'm looking for a flight, my go-to airline is Alaska Airlines."]

CASES = {
    "plain": example(
        "User: Can you help me find a place for dinner in San Jose?",
        ["When I request Restaurants, I prefer Italian cuisine.", "If I'm flying American Airlines, check for Economy seating class."],
        ['GetRestaurants(city="San Jose", cuisine="Italian")'], rtype=RT.PLAIN),
    "multihop": example(
        "User: Can you get me a round trip ticket? Agent: Where will you go? Where from? User: I'm going to SFO from New York.",
        ["If I'm looking for a flight, American Airlines is my go-to airline.", "If I'm flying American Airlines, check for Economy seating class.",
         DISTRACT[0]],
        ['GetFlights(destination="SFO", origin="New York", airlines="American Airlines", seating_class="Economy")'], rtype=RT.MULTI_HOP),
    "multipref": example(
        "User: My schedule is free today and I plan to go to an event in Seattle, WA.",
        ["If I ask for Events, my preferred event type is Music", "When the event type is Music, search for Blues as the category.",
         "Search for the event name Greensky Bluegrass if the category is Blues.", "If I ask for Events, my preferred event type is Sports",
         DISTRACT[0]],
        ['GetEvents(city="Seattle, WA", event_type="Music", category="Blues", event_name="Greensky Bluegrass")',
         'GetEvents(city="Seattle, WA", event_type="Sports")'], rtype=RT.MULTI_PREFERENCE),
    "conflict": example(
        "User: I need to find a Gynecologist",
        ["If I'm looking for a doctor, I'd rather have a General Practitioner.", "I'd like to get a Doctor in San Rafael if I can.", DISTRACT[1]],
        ['GetDoctors(type="Gynecologist", location="San Rafael")'], rtype=RT.CONFLICT),
    "none": example(
        "User: Can you help me find some attractions to see? Agent: Where should I look? User: How about in KL?",
        DISTRACT + ["If I ask for Events, my preferred event type is Sports"],
        ['GetTravel(location="KL")'], applicable=[], rtype=RT.NONE_APPLICABLE),
    "multidomain": example(
        "User: User: Any good tourist attractions out there?",
        ["My first choice when requesting Travel is Vegas", "If I'm looking into Travel, I should also check out Hotels.",
         "When it comes to Hotels, I prefer ones that are rated 1-star.", "I'd like my travel to be kid-friendly.", DISTRACT[1]],
        ['GetTravel(good_for_kids="True", location="Vegas")', 'GetHotels(average_rating="1", location="Vegas")'], rtype=RT.MULTI_DOMAIN),
}


@pytest.fixture(scope="module")
def checker():
    return Checker(schema())


@pytest.mark.parametrize("name", sorted(CASES))
def test_gold_is_consistent_and_derived(checker, name):
    ex = CASES[name]
    report = checker.check(ex, derive_calls=True)
    assert report.status.value == "consistent", report.violations
    assert not report.unparsed_instructions
    assert exact_match(report.derived_api_calls, ex.api_calls), report.derived_api_calls
    # the derived call set is itself consistent (a solution of P1-P6)
    derived, _ = parse_calls(report.derived_api_calls)
    assert checker.check_calls(ex, derived).status.value == "consistent"
    # distractors are never derived as applicable
    assert not set(report.derived_instructions) & set(DISTRACT)


def families(checker, ex, calls):
    parsed, errors = parse_calls(calls)
    assert not errors
    report = checker.check_calls(ex, parsed)
    return report, {v.family for v in report.violations}


@pytest.mark.parametrize("name, calls, family", [
    ("plain", ['GetRestaurants(city="San Jose")'], "P4"),  # instruction value dropped
    ("plain", ['GetRestaurants(city="San Jose", cuisine="Mexican")'], "P4"),  # value swapped
    ("plain", ['GetRestaurants(city="San Jose", cuisine="Italian", price_range="cheap")'], "P2"),  # invented
    ("plain", ['GetRestaurants(city="Oakland", cuisine="Italian")'], "P3"),  # dialogue value changed
    ("plain", ['GetRestaurants(city="San Jose", cuisine="Italian", price_range="free")'], "P1"),  # not a categorical value
    ("plain", ['GetRestaurants(town="San Jose", cuisine="Italian")'], "P1"),  # wrong argument name
    ("plain", ['GetRestuarants(city="San Jose", cuisine="Italian")'], "P1"),  # unknown method
    ("conflict", ['GetDoctors(type="General Practitioner", location="San Rafael")'], "P3"),  # profile overrides dialogue
    ("multihop", ['GetFlights(destination="SFO", origin="New York", airlines="American Airlines")'], "P4"),  # hop missing
    ("multipref", ['GetEvents(city="Seattle, WA", event_type="Music", category="Blues", event_name="Greensky Bluegrass")'], "P5"),
    ("multidomain", ['GetTravel(good_for_kids="True", location="Vegas")'], "P6"),
])
def test_each_family_flags_its_fault(checker, name, calls, family):
    report, fams = families(checker, CASES[name], calls)
    assert report.status.value != "consistent" and family in fams, report.violations
    v = next(v for v in report.violations if v.family == family)
    assert v.message and "\n" not in v.message


def test_violation_names_instruction_call_and_argument(checker):
    report, _ = families(checker, CASES["plain"], ['GetRestaurants(city="San Jose", cuisine="Mexican")'])
    v = next(v for v in report.violations if v.family == "P4")
    assert v.instruction == "When I request Restaurants, I prefer Italian cuisine."
    assert v.call == 'GetRestaurants(city="San Jose", cuisine="Mexican")' and v.argument == "cuisine"


def test_errors_keep_the_rest(checker):
    ex = CASES["plain"].model_copy(update={"api_calls": ['GetRestaurants(city="San Jose", cuisine="Italian")', 'GetX(a="1"', 'GetDenists(a="1")']})
    report = checker.check(ex)
    assert report.status.value == "error"
    assert any("malformed call" in e for e in report.errors) and any("unknown method GetDenists" in e for e in report.errors)
    assert any(v.family == "P1" and "GetDenists" in (v.call or "") for v in report.violations)
    empty = CASES["plain"].model_copy(update={"all_standing_instructions": []})
    assert "empty profile" in " ".join(checker.check(empty).errors)


@pytest.mark.parametrize("name", sorted(CASES))
def test_fault_generators_are_flagged_with_their_family(checker, name):
    ex = CASES[name]
    ctx = checker.context(ex)
    gold, _ = parse_calls(ex.api_calls)
    made = 0
    for seed in range(3):
        for kind in KINDS:
            fault = make(kind, ctx, gold, random.Random(seed))
            if fault is None:
                continue
            made += 1
            report = checker.check_calls(ex, fault.calls, ctx)
            assert fault.family in {v.family for v in report.violations}, (kind, fault.detail, report.violations)
    assert made >= 3


def test_solution_count_unique_for_determined_profile(checker):
    pytest.importorskip("ortools")
    ex = CASES["multihop"]
    ctx = checker.context(ex)
    gold, _ = parse_calls(ex.api_calls)
    assert solve_count(ctx, gold) == 1


def test_metrics_follow_the_paper():
    gold = ['GetEvents(city="Seattle, WA", event_type="Music")', 'GetEvents(city="Seattle, WA", event_type="Sports")']
    assert exact_match(['GetEvents(event_type="sports", city="seattle wa")', 'GetEvents(city="Seattle, WA", event_type="Music")'], gold)
    merged = ['GetEvents(city="Seattle, WA", event_type="Music", event_type2="Sports")']
    assert not exact_match(merged, gold)  # count of calls differs -> 0 (paper App. B)
    assert f1(triples(gold[:1]), triples(gold)) == pytest.approx(2 * 1 * (2 / 3) / (1 + 2 / 3))
    em, sf1, hall = selection_scores(["A", "Z"], ["a", "b"], ["a", "b", "c"])
    assert (em, round(sf1, 3), hall) == (False, 0.667, 0.5)


def test_assert_calls_consistent_helper(tmp_path):
    from support.nlsi import SCHEMA_FILE

    from csp_check.plugin.calls import InconsistentCalls, assert_calls_consistent

    reports = assert_calls_consistent([CASES["plain"], CASES["conflict"]], SCHEMA_FILE)
    assert len(reports) == 2
    bad = CASES["plain"].model_copy(update={"api_calls": ['GetRestaurants(city="San Jose")']})
    with pytest.raises(InconsistentCalls) as info:
        assert_calls_consistent(bad, SCHEMA_FILE)
    assert "P4" in str(info.value) and "Italian cuisine" in str(info.value)
    path = tmp_path / "x.jsonl"
    path.write_text(bad.model_dump_json() + "\n{broken\n")
    with pytest.raises(InconsistentCalls) as info:
        assert_calls_consistent(path, SCHEMA_FILE)
    assert "not JSON" in str(info.value)
    assert any(line.startswith(f"csp-check: error: {path}:2: ") for line in str(info.value).splitlines())  # calls' line
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(InconsistentCalls) as info:
        assert_calls_consistent(empty, SCHEMA_FILE)
    assert str(info.value) == f"csp-check: error: no dialogues in {empty} (the file is empty)"  # as `calls` says it
    with pytest.raises(InconsistentCalls, match=r"^csp-check: error: no dialogues in \[\] \(no NLSI example\)$"):
        assert_calls_consistent([], SCHEMA_FILE)
    assert assert_calls_consistent(empty, SCHEMA_FILE, allow_empty=True) == []


def _entry_point_installed() -> bool:
    from importlib.metadata import entry_points

    return any(ep.value == "csp_check.plugin.calls" for ep in entry_points(group="pytest11"))


@pytest.mark.skipif(not _entry_point_installed(), reason="installed csp-check predates the csp_check_nlsi entry point")
def test_fixture_is_registered(request):
    from support.nlsi import SCHEMA_FILE

    helper = request.getfixturevalue("csp_check_calls")
    assert helper(CASES["multidomain"], SCHEMA_FILE)[0].status.value == "consistent"


def test_bm25_selection_baseline():
    pytest.importorskip("rank_bm25")
    from csp_check.nlsi.selection import Bm25Selector

    sel = Bm25Selector(list(CASES.values()), top=1)
    assert sel.select(CASES["conflict"]) in (["If I'm looking for a doctor, I'd rather have a General Practitioner."],
                                             ["I'd like to get a Doctor in San Rafael if I can."])
    assert len(Bm25Selector(list(CASES.values()), top=4).select(CASES["multipref"])) == 4
