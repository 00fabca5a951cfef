"""Text-only dialogue grounding of NLSI examples (no SGD annotation): the classes of misses found
on data built from SGD train, on the shared SGD dev schema and ontology; relative dates."""

from __future__ import annotations

from datetime import date

import pytest
from support.nlsi import SGD_DEV, example

from csp_check.language.dates import SGD_TODAY, reference_date, resolve_dates
from csp_check.nlsi.ground import ground
from csp_check.nlsi.instructions import InstructionParser
from csp_check.nlsi.schema import load_schema, normalize


@pytest.mark.parametrize("text, iso", [
    ("I need a flight next Friday.", ["2019-03-08"]),
    ("leaving on Thursday next week", ["2019-03-07"]),
    ("Can I get it on the 3rd?", ["2019-03-03"]),
    ("tomorrow please, or the day after tomorrow", ["2019-03-02", "2019-03-03"]),
    ("March 10th", ["2019-03-10"]),
    ("the 10th of this month", ["2019-03-10"]),
    ("on the 2nd of next month", ["2019-04-02"]),
    ("this Sunday", ["2019-03-03"]),
    ("It is the first time I go there.", []),
    ("I'm free on the 45th", []),
])  # fmt: skip
def test_resolve_dates(text, iso):
    assert [d.isoformat() for d in resolve_dates(text)] == iso


def test_reference_date_from_metadata():
    assert reference_date({"reference_date": "2020-01-31"}) == date(2020, 1, 31)
    assert reference_date({"reference_date": "soon"}) == SGD_TODAY == reference_date(None)
    assert [d.isoformat() for d in resolve_dates("the 3rd", date(2020, 1, 31))] == ["2020-02-03"]


@pytest.fixture(scope="module")
def parser():
    if not (SGD_DEV / "schema.json").exists():
        pytest.skip("shared SGD dev split not present")
    return InstructionParser(load_schema([SGD_DEV]))


def test_every_date_alias_of_the_sgd_ontology_resolves_to_its_canonical_date(parser):
    checked = 0
    for (_domain, slot), table in parser.schema.aliases.items():
        if "date" not in slot:
            continue
        for alias, canon in table.items():
            if alias == normalize(canon) or not canon[:4].isdigit():
                continue
            got = resolve_dates(alias)
            assert got and got[0].isoformat() == canon, (alias, canon, got)
            checked += 1
    assert checked >= 10


def _g(parser, *turns):
    return ground(example(" ".join(f"User: {t}" for t in turns), ["x"], []), parser, use_annotation=False)


def test_title_values_need_capitals(parser):
    g = _g(parser, "Hello, could you help me search for a place to dine in?")
    assert g.domains == ["Restaurants"] and "song_name" not in g.values.get("Music", {})
    assert "Music" not in _g(parser, "I would like to find a place where I could eat.").domains


def test_movies_to_stream_are_media_and_domain_words_inside_values(parser):
    assert _g(parser, "I want to find some movies online.").domains == ["Media"]
    assert _g(parser, "I want to see a movie at the cinema.").domains == ["Movies"]
    g = _g(parser, "I'm in the mood for some music, can you look for House songs for me?")
    assert "HouseStays" not in g.domains and "Music" in g.domains


def test_paraphrased_categorical_values(parser):
    g = _g(parser, "Can you help me find an affordable place to eat out?")
    assert g.values["Restaurants"]["price_range"] == "moderate"
    assert "price_range" not in _g(parser, "I want somewhere to eat that is not costly.").values.get("Restaurants", {})
    concert = _g(parser, "Are there any concert events this weekend?")
    assert "Events" in concert.domains and concert.said("Music")
    kids = _g(parser, "Can you show me some child-friendly attractions to visit?")
    assert kids.values["Travel"]["good_for_kids"] == "True"


def test_place_names_from_other_domains(parser):
    schema = parser.schema
    own = {normalize(v) for s in schema.domains["Restaurants"] for v in schema.domains["Restaurants"][s].values}
    city = next(v for s in ("destination_city", "origin_city", "to_city", "city") for d in schema.domains
                if s in schema.domains[d] for v in sorted(schema.domains[d][s].values)
                if normalize(v) not in own and v[:1].isupper() and " " not in v and v.isalpha())  # fmt: skip
    g = _g(parser, f"I'd like a restaurant in {city}.")
    assert [v for s, v in g.values["Restaurants"].items() if s in ("city", "location")] == [city]
    fl = _g(parser, f"Find me a one way flight to {city}.")
    assert city in {v for s, v in fl.values["Flights"].items() if "dest" in s or s.startswith("to_")}


def test_request_words_when_no_domain_is_named(parser):
    assert _g(parser, "I'm hungry, can you find me something?").domains == ["Restaurants"]
    assert _g(parser, "Please call me a cab.").domains == ["RideSharing"]


def test_relative_dates_count_as_said(parser):
    g = _g(parser, "I need a one way flight next Friday.")
    assert g.said("2019-03-08") and not g.said("2019-03-09")


@pytest.mark.parametrize("text, years", [
    ("something from '15 would work.", [2015]),
    ("a song from about six years back.", [2013]),
    ("pop music from 2 years ago", [2017]),
    ("anything from last year", [2018]),
    ("rock 'n' roll from 2012", []),
])  # fmt: skip
def test_resolve_years(text, years):
    from csp_check.language.dates import resolve_years

    assert resolve_years(text) == years


def test_value_words_in_fixed_phrases_are_no_values(parser):
    g = _g(parser, "I need four seats for a one way flight on a business trip.")
    flights = g.values.get("Flights", {})
    assert flights.get("passengers") == "4" and "Business" not in flights.values()
    assert "Business" in _g(parser, "Find me a one-way flight in business class.").values["Flights"].values()
    car = _g(parser, "I would like to rent a medium-sized car from Vancouver.")
    assert "Standard" in car.values["RentalCars"].values()
    assert _g(parser, "A song from two years ago, please.").said("2017")
