"""The NLSI release's own files (../shared/data/nlsi; skipped when absent): the raw example
format, the release folder as --schema, release conventions, the release's metric."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from csp_check.cli.main import main
from csp_check.nlsi.calls import parse_calls, without_requests
from csp_check.nlsi.check import Checker
from csp_check.nlsi.instructions import InstructionParser, repair_template, split_actions
from csp_check.nlsi.metrics import release_items, release_scores
from csp_check.nlsi.models import ReasoningType
from csp_check.nlsi.readers import read_examples
from csp_check.nlsi.schema import load_schema

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "nlsi"
RAW = RELEASE / "old_instructions_dataset.json"
needs_release = pytest.mark.skipif(not RAW.exists(), reason="shared NLSI release files not present")


def test_unbalanced_quote_and_request_marker():
    calls, errors = parse_calls(['GetBuses(leaving_time="8 o"clock in the morning", to_location="San Diego")',
                                 'GetMusic(song_name="Only Love", year="?")'])
    assert not errors
    assert calls[0].args()["leaving_time"] == '8 o"clock in the morning'
    assert without_requests(calls[1]).args() == {"song_name": "Only Love"}


def test_release_metric_ignores_empty_calls_and_case():
    assert release_items(['GetHotels(location="London")', "GetTravel()"]) == {"hotels_location=london"}
    assert release_scores(['GetDentists(city="SF")'], ['GetDenists(city="sf")']) == (True, 1.0)


def test_split_actions():
    text = "If I ask for Homes and area is fremont then look for number of beds as 2, number of baths as 1"
    assert len(split_actions(text)) == 2
    assert split_actions("If city is Paris then look for location as London, UK") == [
        "If city is Paris then look for location as London, UK"]
    named = frozenset({"furnished", "number_of_beds"})
    assert split_actions("If I ask for Homes and area is San Jose then look for number of beds as 3, furnished", named) == [
        "If I ask for Homes and area is San Jose then look for number of beds as 3",
        "If I ask for Homes and area is San Jose then look for furnished"]


@needs_release
def test_raw_release_file_reads_every_example():
    items = list(read_examples(RAW))
    assert len(items) == 175 and all(not hasattr(i, "message") for i in items)
    types = {i.reasoning_type for i in items}
    assert ReasoningType.MULTI_DOMAIN in types and ReasoningType.UNKNOWN not in types
    assert all(i.all_standing_instructions for i in items)


@needs_release
def test_release_folder_schema_and_method_spellings():
    schema = load_schema([RELEASE])
    for method, domain in (("GetDenists", "Dentists"), ("GetRentalcars", "RentalCars"), ("GetHouses", "HouseStays")):
        assert schema.method_domain(method) == domain and schema.method_alias(method)
    assert not schema.method_alias("GetHotels")
    assert "San Fran" in schema.domains["Restaurants"]["city"].values  # the release's ontology


@needs_release
def test_calls_cli_on_release_never_exit_2(tmp_path):
    report = tmp_path / "r.jsonl"
    res = CliRunner().invoke(main, ["calls", str(RAW), "--schema", str(RELEASE), "--report", str(report)])
    assert res.exit_code in (0, 1), res.output
    lines = [json.loads(x) for x in report.read_text().splitlines()]
    assert len(lines) == 175 and not any(r["errors"] for r in lines)
    consistent = sum(r["status"] == "consistent" for r in lines)
    assert consistent >= 163  # 165 / 175 measured
    assert "method spellings in 32 examples" in res.output


@needs_release
def test_multi_action_rule_on_release():
    schema = load_schema([RELEASE])
    checker = Checker(schema, use_annotation=False)
    ex = next(i for i in read_examples(RAW) if str(i.example_id) == "1065")
    rep = checker.check(ex, derive_calls=True)
    assert rep.status.value == "consistent"
    assert release_scores(rep.derived_api_calls, ex.api_calls)[0]


@pytest.fixture(scope="module")
def release():
    """(checker, {example id: example}) over the release files, text grounding."""
    checker = Checker(load_schema([RELEASE]), use_annotation=False)
    return checker, {str(i.example_id): i for i in read_examples(RAW)}


@needs_release
def test_accepted_offers_count_as_said(release):
    """An agent offer the user accepts ("Yes, I like that one", "That one is good", "That sounds
    interesting") or goes on from without rejecting is said: its values ground the gold calls."""
    checker, examples = release
    for eid in ("1793", "1797", "2492", "2462"):
        rep = checker.check(examples[eid])
        assert rep.status.value == "consistent", (eid, rep.violations)
    flights = checker.check(examples["1956"])  # "10:55 am" is said; refundable="True" is not (a true error)
    assert [v.argument for v in flights.violations] == ["refundable"]


@needs_release
def test_accepted_offer_states_its_categorical_values(release):
    """Derive: the category of an accepted offer is stated ("the Tourist Attraction 360 CHICAGO"),
    the names in an offer are not ("Heartbeat by Enrique Iglesias": no artist)."""
    checker, examples = release
    rep = checker.check(examples["2492"], derive_calls=True)
    assert release_scores(rep.derived_api_calls, examples["2492"].api_calls)[0]
    music = checker.check(examples["1797"], derive_calls=True)
    assert not any("artist" in c for c in music.derived_api_calls)


@needs_release
def test_domains_not_from_qualified_or_negated_words(release):
    """"a short term house rental" is a HouseStays request (the domain word qualifies the cue
    "rental"), "there's no place like home" asks for no Homes."""
    checker, examples = release
    assert checker.context(examples["1372"]).grounding.domains == ["HouseStays"]
    assert "Homes" not in checker.context(examples["1494"]).grounding.domains
    rep = checker.check(examples["1372"], derive_calls=True)
    assert rep.status.value == "consistent" and release_scores(rep.derived_api_calls, examples["1372"].api_calls)[0]


@needs_release
def test_last_turn_follow_up_is_no_request(release):
    """"I would like to find a hotel room there" after the agent's weather answer: Hotels is a
    follow-up (grounded, not requested); the gold Weather call alone is consistent."""
    checker, examples = release
    for eid in ("1624", "1636"):
        g = checker.context(examples[eid]).grounding
        assert g.domains == ["Weather"] and g.followups == ["Hotels"]
        rep = checker.check(examples[eid], derive_calls=True)
        assert rep.status.value == "consistent" and not any("Hotels" in c for c in rep.derived_api_calls)


def test_repair_template_typos():
    assert repair_template("If I ask for Travel and category is Park then look forfree entry").endswith("look for free entry")
    assert repair_template("my preferance is that it has wifi") == "my preference is that it has wifi"
    assert repair_template("then look forward to it") == "then look forward to it"


@needs_release
def test_release_template_typos_read_as_the_template():
    parser = InstructionParser(load_schema([RELEASE]))
    text = "If I ask for Travel and category is Park then look forfree entry"
    rule = parser.parse(text)
    assert rule.condition == (("category", "Park"),) and rule.action == ("free_entry", "True")
    assert rule.instruction == text
    pieces = split_actions("If I ask for Homes and area is Fremont then look fornumber of beds as 1, number of baths as 1")
    assert [parser.parse(p).action for p in pieces] == [("number_of_beds", "1"), ("number_of_baths", "1")]


@needs_release
def test_release_schema_dontcare_slots():
    schema = load_schema([RELEASE])
    assert schema.slot("Movies", "show_type").dontcare and schema.slot("Movies", "genre").dontcare
    assert not schema.slot("Movies", "location").dontcare
    assert load_schema_json_roundtrip(schema).slot("Movies", "show_type").dontcare


def load_schema_json_roundtrip(schema):
    fresh = type(schema)()
    for service in schema.to_json():
        fresh.add_service(service)
    return fresh


@needs_release
def test_any_kind_of_domain_is_dontcare(release):
    """"Any kind of movie works for me" (630): show_type="dontcare" is stated, derived, and no
    genre is required (the "kind of" cue of genre does not apply inside it)."""
    checker, examples = release
    rep = checker.check(examples["630"], derive_calls=True)
    assert rep.status.value == "consistent", rep.violations
    assert release_scores(rep.derived_api_calls, examples["630"].api_calls)[0]
    ctx = checker.context(examples["630"])
    assert ctx.grounding.stated("Movies", "show_type") == "dontcare" and ctx.grounding.stated("Movies", "genre") is None


@needs_release
def test_any_slot_is_fine_is_dontcare(release):
    checker, examples = release
    ex = examples["630"]
    ex2 = type(ex)(**{**ex.__dict__, "user_utterance": "User: I want to watch a movie in Martinez. Any genre is fine."})
    g = checker.context(ex2).grounding
    assert g.stated("Movies", "genre") == "dontcare"


@needs_release
def test_number_before_a_unit_word_states_that_slot(release):
    """"book 1 room … stay there for 2 days" (1920): rooms 1, days 2 (not 2 rooms)."""
    checker, examples = release
    g = checker.context(examples["1920"]).grounding
    assert g.stated("Hotels", "number_of_rooms") == "1" and g.stated("Hotels", "number_of_days") == "2"
    assert checker.check(examples["1920"]).status.value == "consistent"
