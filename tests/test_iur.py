"""The IndirectRequests records and the deterministic criteria (``csp-check iur check``) on
records of our own writing (tests/fixtures/iur/records.jsonl: direct, indirect, ambiguous and
inappropriate records, each with the kind it was written as)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import SGD

from csp_check.cli.main import main
from csp_check.iur.criteria import check_record, unambiguity
from csp_check.iur.lexical import Evidence, evidence, names, party_size
from csp_check.iur.records import AMBIGUOUS, IndirectRequest, RecordError, as_list, read_records, write_records
from csp_check.iur.schema import load_services

FIXTURES = Path(__file__).parent / "fixtures" / "iur"
RECORDS = FIXTURES / "records.jsonl"
SCHEMAS = [SGD / "train" / "schema.json", SGD / "dev" / "schema.json"]
needs_schema = pytest.mark.skipif(not all(p.exists() for p in SCHEMAS), reason="the SGD schemas are not beside the repo")


def test_lists_stored_as_strings_are_read_and_written_as_lists(tmp_path: Path) -> None:
    assert as_list("['True', 'False']") == ["True", "False"]
    assert as_list('["a", "b"]') == ["a", "b"]
    assert as_list("cheap, moderate") == ["cheap", "moderate"]
    records = read_records(RECORDS)
    assert records[0].possible_slot_values == ["True", "False"] and records[0].extra("kind") == "indirect"
    out = tmp_path / "out.jsonl"
    write_records(records, out)
    first = json.loads(out.read_text().splitlines()[0])
    assert first["possible_slot_values"] == ["True", "False"] and first["kind"] == "indirect"
    assert read_records(out) == records


def test_csv_and_bad_records(tmp_path: Path) -> None:
    csv = tmp_path / "r.csv"
    csv.write_text("utterance,service,possible_slot_values,target_slot_value,mean_world_understanding\n"
                   "\"my dog comes along\",Homes_1,\"['True', 'False']\",True,7.5\n")
    (record,) = read_records(csv)
    assert record.possible_slot_values == ["True", "False"] and record.mean_world_understanding == 7.5
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"utterance": "x"}\n{"service": "no utterance"}\n')
    with pytest.raises(RecordError, match=r"bad.jsonl:2"):
        read_records(bad)


def test_names_any_known_wording() -> None:
    assert names("leave at 6 pm", "18:00") == "6 pm"
    assert names("leave at 5:15", "17:15") == "5:15"  # no period said: the 12-hour clock
    assert names("leave at 5:15 am", "17:15") is None
    assert names("in the southern part", "south") == "southern"
    assert names("a table for two", "2") == "two"
    assert names("pets are not allowed", "False", "pets_allowed") is not None
    assert names("pets are not allowed", "True", "pets_allowed") is None
    assert names("my dog comes along", "True", "pets_allowed") is None


def test_evidence_strategies_and_polarity() -> None:
    (dog,) = evidence("my dog comes along everywhere", "pets_allowed", ["True", "False"])
    assert dog.values == {"True"} and dog.strategy == "hyponym/synonym swap"
    (cats,) = evidence("I'm allergic to cats", "pets_allowed", ["True", "False"])
    assert cats.values == {"False"}
    assert party_size("me, my wife and our twins") == ("twins, wife", 4)
    assert party_size("just me this time")[1] == 1  # type: ignore[index]
    assert party_size("a quiet table") is None


def test_unambiguity_csp_cases() -> None:
    a, b = Evidence("x", frozenset({"cheap"}), "d"), Evidence("y", frozenset({"cheap", "moderate"}), "d")
    assert unambiguity(["cheap", "moderate", "pricey"], [a, b]).entailed == "cheap"
    assert unambiguity(["cheap", "moderate"], [b]).entailed is None  # two solutions: ambiguous
    none = unambiguity(["cheap", "moderate"], [a, Evidence("z", frozenset({"moderate"}), "d")])
    assert none.solutions == [] and none.entailed is None  # conflicting phrases: no solution
    free = unambiguity(["cheap", "moderate"], [])
    assert free.solutions == ["cheap", "moderate"] and not free.constrained  # nothing eliminated


@needs_schema
def test_check_on_own_records_matches_the_kinds_they_were_written_as() -> None:
    services = load_services(*SCHEMAS)
    for i, record in enumerate(read_records(RECORDS)):
        result = check_record(i, record, services)
        kind = record.extra("kind")
        assert result.direct is (kind == "direct"), record.utterance
        assert result.appropriate is (kind != "inappropriate"), record.utterance
        if kind == "indirect":
            assert result.unambiguous and result.predicted == record.target_slot_value, record.utterance
        if kind == "ambiguous":
            assert result.predicted == AMBIGUOUS
    wrong_slot = IndirectRequest(utterance="my dog comes along", service="Homes_1", slot_description="no such slot",
                                 possible_slot_values=["True", "False"], target_slot_value="True")
    assert check_record(0, wrong_slot, services).appropriate is False


@needs_schema
def test_check_command(tmp_path: Path) -> None:
    report = tmp_path / "r.jsonl"
    args = ["iur", "check", str(RECORDS), "--report", str(report)] + [a for p in SCHEMAS for a in ("--schema", str(p))]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(rows) == len(read_records(RECORDS)) and "accuracy (N+1 classes): 10/10" in result.output
    missing = CliRunner().invoke(main, ["iur", "check", str(tmp_path / "none.jsonl"), "--report", str(report)])
    assert missing.exit_code == 2
