"""``csp-check iur detect`` and S1's report of values no words name (implied: for review as an
indirect request; unsaid: for review as a value no text gives), on SGD dialogues of our own
writing (tests/support/iur.py) and, when present, the shared SGD dev split."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from support.data import SGD_DEV, needs_sgd
from support.iur import homes_dialogue, write_homes

from csp_check import validate
from csp_check.cli.main import main
from csp_check.iur.detect import candidates
from csp_check.models import Dialogue
from csp_check.readers import read_dialogues


def read_one(folder: Path) -> Dialogue:
    (dialogue,) = [d for d in read_dialogues([folder]) if isinstance(d, Dialogue)]
    return dialogue


def test_detect_kinds(tmp_path: Path) -> None:
    found = candidates(read_one(write_homes(tmp_path / "a", [homes_dialogue("1_00001")])))
    kinds = {c.slot: c.kind for c in found}
    assert kinds == {"pets_allowed": "implied", "furnished": "unsaid"}  # area and beds are named in turn 0
    (pets,) = [c for c in found if c.slot == "pets_allowed"]
    assert pets.evidence[0]["words"] == "dog" and "small talk" in pets.strategies
    direct = homes_dialogue("1_00002", "It must allow pets and be furnished.")
    assert candidates(read_one(write_homes(tmp_path / "b", [direct]))) == []
    allergic = homes_dialogue("1_00003", "I'm allergic to cats, sadly.")
    allergic["turns"][2]["frames"][0]["state"]["slot_values"]["pets_allowed"] = ["False"]
    found = {c.slot: c for c in candidates(read_one(write_homes(tmp_path / "c", [allergic])))}
    assert found["pets_allowed"].kind == "implied" and found["pets_allowed"].value == "False"


def test_s1_reports_implied_apart_and_unsaid_for_review(tmp_path: Path) -> None:
    folder = write_homes(tmp_path / "d", [homes_dialogue("1_00001"), homes_dialogue("1_00002", "It must allow pets and be furnished.")])
    reports = {r.dialogue_id: r for r in validate([folder], constraints=["S1"])}
    flags = reports["1_00001"].violations
    assert [v.variables[0].slot for v in flags] == ["Homes_1.furnished"]  # unsaid: for review
    assert not flags[0].certain and (flags[0].uncertain_reason or "").startswith("unsaid:")
    assert reports["1_00001"].status.value == "uncertain"
    # the indirect request is no violation: reported apart, also under --strict
    assert [(i.slot, i.value) for i in reports["1_00001"].implied] == [("Homes_1.pets_allowed", "True")]
    assert reports["1_00002"].violations == [] and reports["1_00002"].implied == []
    only_implied = write_homes(tmp_path / "f", [homes_dialogue("1_00003", "My dog comes along everywhere, and it must be furnished.")])
    (report,) = validate([only_implied], constraints=["S1"])
    assert report.status.value == "consistent" and report.violations == [] and len(report.implied) == 1


def test_detect_command_and_sample(tmp_path: Path) -> None:
    folder = write_homes(tmp_path / "e", [homes_dialogue(f"1_{i:05d}") for i in range(6)])
    report, md = tmp_path / "c.jsonl", tmp_path / "c.md"
    result = CliRunner().invoke(main, ["iur", "detect", str(folder), "--report", str(report), "--sample-md", str(md),
                                       "--per-kind", "2"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(rows) == 12 and {r["half"] for r in rows} <= {"work", "check"}
    checked = sum(r["half"] == "check" for r in rows) // 2  # two candidates a dialogue
    assert f"check: {2 * checked} user turns; implied {checked} values in {checked} turns" in result.output
    text = md.read_text()
    assert text.count("### implied") == min(2, checked) and "My dog comes along" in text


@needs_sgd
def test_detect_on_shared_sgd_dev() -> None:
    dialogues = [d for d in read_dialogues([SGD_DEV]) if isinstance(d, Dialogue)]
    found = [c for d in dialogues for c in candidates(d)]
    users = sum(t.speaker == "user" for d in dialogues for t in d.turns)
    assert found and len({(c.dialogue_id, c.turn) for c in found}) < users * 0.05  # a few in a hundred turns at most
    assert all(c.kind in ("implied", "unsaid") and c.reason for c in found)


def test_a_call_argument_the_state_lacks_is_a_candidate_of_the_user_turn_before(tmp_path: Path) -> None:
    dialogue = homes_dialogue("1_00004")
    dialogue["turns"][2]["frames"][0]["state"]["slot_values"].pop("pets_allowed")
    dialogue["turns"].append({"speaker": "SYSTEM", "utterance": "I found 3 apartments.", "frames": [{
        "service": "Homes_1", "slots": [], "actions": [],
        "service_call": {"method": "FindApartment", "parameters": {"area": "San Jose", "number_of_beds": "2",
                                                                   "pets_allowed": "True"}},
        "service_results": []}]})  # fmt: skip
    found = {c.slot: c for c in candidates(read_one(write_homes(tmp_path / "f", [dialogue])))}
    assert found["pets_allowed"].turn == 2 and found["pets_allowed"].kind == "implied"
    assert "area" not in found  # the state holds it


def test_detect_never_overwrites_an_input_or_another_file(tmp_path: Path) -> None:
    folder = write_homes(tmp_path / "g", [homes_dialogue("1_00001")])
    data = folder / "dialogues_001.json"
    before = data.read_bytes()
    other = tmp_path / "notes.jsonl"
    other.write_text('{"mine": 1}\n')
    for target, says in ((data, "is inside the input directory"), (other, "exists and is not an earlier output"),
                         (tmp_path, "is a directory")):
        result = CliRunner().invoke(main, ["iur", "detect", str(folder), "--report", str(target)])
        assert result.exit_code == 2 and says in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert data.read_bytes() == before and other.read_text() == '{"mine": 1}\n'
    report, md = tmp_path / "c.jsonl", tmp_path / "c.md"
    for _ in range(2):  # an earlier output of the command is overwritten
        result = CliRunner().invoke(main, ["iur", "detect", str(folder), "--report", str(report), "--sample-md", str(md)])
        assert result.exit_code == 0, result.output
    md.write_text("# my own notes\n")
    result = CliRunner().invoke(main, ["iur", "detect", str(folder), "--report", str(report), "--sample-md", str(md)])
    assert result.exit_code == 2 and "--sample-md" in result.stderr and md.read_text() == "# my own notes\n"
