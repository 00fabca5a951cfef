"""Corpus profiles (csp_check.corpora): a dialogue's profile by its format, and what a profile
says of its columns."""

from __future__ import annotations

from dataclasses import fields

import pytest

from csp_check.corpora import CONVLAB, DEFAULT, JSONL, MULTIWOZ, PROFILES, SGD, TEXT, profile_for
from csp_check.corpora.shared import ARRIVAL_COLUMNS, ENTITY_TEXT_COLUMNS, TRIP_TIME_COLUMNS, TRIP_TIMES
from csp_check.language.dates import SGD_TODAY
from csp_check.models import Dialogue


@pytest.mark.parametrize("fmt,profile", [
    ("multiwoz", MULTIWOZ), ("multiwoz22", MULTIWOZ), ("unified", CONVLAB), ("sgd", SGD), ("jsonl", JSONL),
    ("text", TEXT), ("", DEFAULT), ("something else", DEFAULT),
])
def test_a_dialogue_gets_the_profile_of_its_reader(fmt: str, profile) -> None:  # type: ignore[no-untyped-def]
    assert profile_for(Dialogue(id="d", format=fmt, turns=[])) is profile


def test_each_format_is_named_by_one_profile() -> None:
    named = [fmt for p in PROFILES for fmt in p.formats]
    assert len(named) == len(set(named))


def test_the_conventions_of_each_format() -> None:
    """What the code decides per format: SGD's acts carry canonical values and its today is
    fixed; MultiWOZ (and ConvLab-3's unified MultiWOZ) fix the belief-state slots per domain."""
    assert SGD.canonical_acts and SGD.today == SGD_TODAY and SGD.state_slots is None
    assert not any(p.canonical_acts or p.today for p in PROFILES if p is not SGD)
    assert MULTIWOZ.state_slots is CONVLAB.state_slots and "leaveAt" in MULTIWOZ.state_slots["train"]
    assert JSONL.state_slots is None and TEXT.state_slots is None
    assert [p.own_results for p in (SGD, CONVLAB, JSONL)] == ["service_results", "db_results", "turns[].kb_results"]


def test_every_profile_carries_the_column_vocabulary_the_checks_apply_today() -> None:
    """The checks apply MultiWOZ's column vocabulary to every format; a profile that narrows it
    to its own corpus changes verdicts (a change of its own, not of this redesign). A corpus's
    conventions differ: how full its results get (SGD's 10) and whether its system acts state
    their values even in a question (SGD's schema-guided acts) among them."""
    conventions = {"name", "formats", "today", "canonical_acts", "state_slots", "own_results", "results_cap",
                   "system_values_stated"}
    for profile in PROFILES:
        for f in fields(profile):
            if f.name not in conventions:
                assert getattr(profile, f.name) == getattr(MULTIWOZ, f.name), (profile.name, f.name)


def test_what_the_profile_says_of_a_column() -> None:
    p = MULTIWOZ
    assert p.search_op("leaveAt") == ">=" and p.search_op("arriveBy") == "<=" and p.search_op("area") == "="
    assert p.bounds == {"leaveAt", "arriveBy"} and p.not_filters == {"name", "trainID", "leaveAt", "arriveBy"}
    assert p.names_entity("name") and p.names_entity("trainID") and p.names_entity("restaurant_name")
    assert not p.names_entity("origin_airport_name") and not p.names_entity("destination_station_name")
    assert p.is_generic("hotel", "type", "hotel") and not p.is_generic("hotel", "type", "guesthouse")
    assert not p.is_generic("attraction", "type", "hotel")


def test_the_words_of_every_corpus_for_code_without_a_dialogue() -> None:
    assert TRIP_TIMES == (("leaveAt", "arriveBy"),) and TRIP_TIME_COLUMNS == {"leaveAt", "arriveBy"}
    assert ARRIVAL_COLUMNS == ("arriveBy",) and ENTITY_TEXT_COLUMNS == {"name", "address"}
