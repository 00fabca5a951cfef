"""Generator-style examples (csp_check.nlsi.build_release) and the classes they revealed: head
counts, counts by unit, a cab's destination, places with a state code, dates with a year, a
request cue settling an ambiguous one, twin place slots of an undecided domain (skipped when
../shared/data/nlsi is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from csp_check.nlsi.build_release import ReleaseBuilder, ReleaseTables, also, preference
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive
from csp_check.nlsi.models import Example, ReasoningType
from csp_check.nlsi.schema import load_schema
from csp_check.nlsi.spans import date_spans, destinations, head_counts, role_places, unit_counts

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "nlsi"
needs_release = pytest.mark.skipif(not (RELEASE / "schema_updated_v5.json").exists(), reason="shared NLSI release files not present")


def test_spans_of_the_classes():
    assert head_counts("Can you help me call a cab for three people?") == ["3"]
    assert head_counts("Can you get me a cab for one please? There are two of us") == ["1", "2"]
    assert head_counts("a hotel for 2 days at 3 pm for 2 nights; I have 2 dogs") == []
    assert unit_counts("I need one hotel room, a 2 bedroom flat with two bathrooms") == [("room", "1"), ("bed", "2"), ("bath", "2")]
    assert unit_counts("I want a room for a few days") == []
    assert destinations("I am going to 5434 Ygnacio Valley Road #90") == ["5434 Ygnacio Valley Road #90"]
    assert destinations("I want to go to 1850 El Camino Real. For 1 person.") == ["1850 El Camino Real"]
    assert destinations("from 3 to 5 pm, to I want") == []
    assert role_places("from Anaheim, CA to Long Beach, CA.") == [("origin", "Anaheim, CA"), ("destination", "Long Beach, CA")]
    assert role_places("to SFO, OK?") == [("destination", "SFO")]
    assert role_places("the destination is Sacramento.") == [("destination", "Sacramento")]
    assert [w for _, w in date_spans("on the 1st of March 2019, or March 2nd, 2019, or March 8th")] == [
        "1st of March 2019", "March 2nd, 2019", "March 8th"]


def _derive(checker, text: str) -> list[str]:
    ex = Example(example_id="x", user_utterance=text, all_standing_instructions=[], applicable_standing_instructions=[], api_calls=[])
    return [c.render() for c in derive(checker.context(ex))[0]]


@needs_release
def test_derive_reads_the_classes_in_the_users_words():
    checker = Checker(load_schema([RELEASE]), use_annotation=False)
    assert _derive(checker, "User: Hey I need a cab for 1 to Lers Ros Thai\n") == [
        'GetRideSharing(destination="Lers Ros Thai", number_of_riders="1")']
    assert _derive(checker, "User: I want a hotel in London, England.\n") == ['GetHotels(destination="London, England")']
    assert _derive(checker, "User: I'd like to do something fun, please find me an attraction to see.\n") == ["GetTravel()"]
    hotel = _derive(checker, "User: I need to book one hotel room.\n")
    assert hotel == ['GetHotels(number_of_rooms="1")']


def _dialogue(turns: list[tuple[str, str, dict]]) -> dict:
    out = []
    for speaker, text, state in turns:
        frames = [{"service": "Buses_1", "actions": [], "slots": [],
                   **({"state": {"active_intent": "FindBus", "requested_slots": [], "slot_values": state}} if speaker == "USER" else {})}]
        out.append({"speaker": speaker, "utterance": text, "frames": frames})
    return {"dialogue_id": "9_00001", "services": ["Buses_1"], "turns": out}


@needs_release
def test_release_builder_keeps_the_state_in_the_users_words():
    tables = ReleaseTables(RELEASE)
    assert "Events_2" in tables.partners("Buses_1")
    assert preference("Services_2", "dentist_name", "Dr. Lee") == "If I ask for Dentist, my preferred dentist name is Dr. Lee"
    assert preference("Hotels_1", "has_wifi", "True") == "If I ask for Hotels, my preference is that it has wifi"
    assert also("Buses_1", "Events_2") == "If I ask for Buses, then also look at Events"
    dialogue = _dialogue([
        ("USER", "Find me a bus from Anaheim, CA on 3rd March.", {"from_location": ["Anaheim, CA"], "leaving_date": ["3rd March"]}),
        ("SYSTEM", "Where to?", {}),
        ("USER", "To Fresno on March 3rd.", {"from_location": ["Anaheim, CA"], "to_location": ["Fresno"], "leaving_date": ["March 3rd"]}),
    ])
    seen = set()
    for seed in range(12):
        ex = ReleaseBuilder(tables, seed=seed, multi_domain=0.0).build(dialogue)
        assert ex is not None
        seen.add(ex.metadata["style"])
        if ex.metadata["style"] == "two user turns":
            assert ex.reasoning_type is ReasoningType.NONE_APPLICABLE and not ex.applicable_standing_instructions
        else:  # the first turn only: what later turns add is instructed
            assert ex.reasoning_type is ReasoningType.PLAIN
            assert "If I ask for Buses, my preferred to location is Fresno" in [i.nl_instruction for i in ex.applicable_standing_instructions]
        assert ex.api_calls == ['GetBuses(from_location="Anaheim, CA", to_location="Fresno", leaving_date="March 3rd")']
        if ex.metadata["style"] == "single utterance":  # the span the final state holds replaces the first one
            assert "March 3rd" in ex.user_utterance and "Fresno" not in ex.user_utterance
    assert seen == {"single utterance", "two user turns"}
