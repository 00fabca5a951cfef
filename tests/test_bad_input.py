"""Bad input never sinks a run: one line per error naming file / dialogue / field, exit 2, no
traceback, and every other dialogue of the run is still checked and reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.sgd import sgd_dialogue, write_sgd

from csp_check import validate
from csp_check.cli.main import main
from csp_check.models import Dialogue, DialogueReport, Status
from csp_check.run.runner import Settings, default_check


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """The real command in a subprocess: exit codes and streams as a user sees them."""
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("CSP_CHECK_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "csp_check.cli.main", *args], capture_output=True, text=True, env=env, timeout=120
    )


def read_report(path: Path) -> list[DialogueReport]:
    return [DialogueReport.model_validate_json(line) for line in path.read_text().splitlines()]


def assert_clean_failure(proc: subprocess.CompletedProcess, n_errors: int) -> list[str]:
    """Exit 2, no traceback anywhere, exactly ``n_errors`` one-line errors on stderr, each
    ``csp-check: error: …`` (returned without that prefix: the report's ``error``)."""
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == n_errors, proc.stderr
    assert all(line.startswith("csp-check: error: ") for line in lines), proc.stderr
    return [line.removeprefix("csp-check: error: ") for line in lines]


# --- each kind of bad input -------------------------------------------------------------------


def test_truncated_json_keeps_the_dialogues_before_the_damage(tmp_path: Path) -> None:
    good = [sgd_dialogue("1_00001"), sgd_dialogue("1_00002")]
    text = json.dumps([*good, sgd_dialogue("1_00003")], indent=1)
    path = tmp_path / "sgd" / "dialogues_001.json"
    path.parent.mkdir()
    path.write_text(text[: text.index('"1_00003"') + 40])
    report = tmp_path / "out.jsonl"

    proc = run_cli("validate", str(path.parent), "--report", str(report))

    [line] = assert_clean_failure(proc, 1)
    assert str(path) in line and "JSON" in line
    reports = read_report(report)
    assert [(r.dialogue_id, r.status) for r in reports[:2]] == [
        ("1_00001", Status.CONSISTENT),
        ("1_00002", Status.CONSISTENT),
    ]
    assert reports[2].status is Status.ERROR and reports[2].error == line


@pytest.mark.parametrize(
    "breakage, field",
    [
        (lambda d: d["turns"][0].__setitem__("utterance", 42), "turns[0].utterance"),
        (lambda d: d["turns"][1]["frames"][0]["slots"][0].__setitem__("exclusive_end", 999), "turns[1].frames[0].slots[0]"),
        (lambda d: d["turns"][0]["frames"][0]["slots"][0].__setitem__("start", "7"), "turns[0].frames[0].slots[0]"),
        (lambda d: d.__setitem__("turns", []), "turns"),
        (lambda d: d.__setitem__("turns", "hello"), "turns"),
    ],
    ids=["utterance-not-a-string", "span-outside-utterance", "span-start-a-string", "no-turns", "turns-a-string"],
)
def test_broken_dialogue_names_file_dialogue_and_field(tmp_path: Path, breakage, field: str) -> None:
    broken = sgd_dialogue("1_00002")
    breakage(broken)
    path = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001"), broken, sgd_dialogue("1_00003", count=3)])
    report = tmp_path / "out.jsonl"

    proc = run_cli("validate", str(path), "--report", str(report))

    [line] = assert_clean_failure(proc, 1)
    assert line.startswith(f"{path}: dialogue 1_00002: {field}:"), line
    statuses = [(r.dialogue_id, r.status) for r in read_report(report)]
    assert statuses == [("1_00001", Status.CONSISTENT), ("1_00002", Status.ERROR), ("1_00003", Status.INCONSISTENT)]


def test_unknown_format_and_missing_path_are_errors_but_the_rest_is_checked(tmp_path: Path) -> None:
    good = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001")])
    notes = tmp_path / "notes.txt"
    notes.write_text("just some text, not dialogues\n")
    missing = tmp_path / "nowhere.json"
    report = tmp_path / "out.jsonl"

    proc = run_cli("validate", str(notes), str(good), str(missing), "--report", str(report))

    unknown, gone = assert_clean_failure(proc, 2)
    assert unknown.startswith(f"{notes}:") and "unknown format" in unknown
    assert gone.startswith(f"{missing}:") and "no such file" in gone
    assert [r.status for r in read_report(report)] == [Status.ERROR, Status.CONSISTENT, Status.ERROR]
    assert "1 checked" in proc.stdout


def test_errors_take_precedence_over_inconsistencies(tmp_path: Path) -> None:
    broken = sgd_dialogue("1_00002")
    broken["turns"] = []
    path = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001", count=5), broken])

    proc = run_cli("validate", str(path), "--json")

    assert proc.returncode == 2
    summary = json.loads(proc.stdout)
    assert (summary["inconsistent"], summary["errors"], summary["exit_code"]) == (1, 1, 2)
    assert summary["gca"] == 0.0  # errors are not scored


# --- a crash while checking one dialogue -------------------------------------------------------


def crash_on_00002(dialogue: Dialogue, settings: Settings) -> DialogueReport:
    """A check that fails on one dialogue (module level: it is pickled to worker processes)."""
    if dialogue.id.endswith("00002"):
        raise RuntimeError("boom\nsecond line")
    return default_check(dialogue, settings)


def die_on_00003(dialogue: Dialogue, settings: Settings) -> DialogueReport:
    """A check that kills its worker process on one dialogue."""
    if dialogue.id.endswith("00003"):
        os._exit(3)
    return default_check(dialogue, settings)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_crash_in_one_dialogue_becomes_its_error_report(tmp_path: Path, jobs: int) -> None:
    path = write_sgd(tmp_path / "sgd", [sgd_dialogue(f"1_0000{i}") for i in range(1, 6)])

    reports = list(validate([path], jobs=jobs, chunk_size=2, check=crash_on_00002))

    assert [r.dialogue_id for r in reports] == [f"1_0000{i}" for i in range(1, 6)]
    assert [r.status for r in reports] == [Status.CONSISTENT, Status.ERROR] + [Status.CONSISTENT] * 3
    assert reports[1].error == f"{path}: dialogue 1_00002: internal error: RuntimeError: boom second line"
    assert reports[1].extra["error_kind"] == "internal"


def test_a_dead_worker_fails_only_the_chunks_in_flight(tmp_path: Path) -> None:
    ids = [f"1_{i:05d}" for i in range(1, 17)]
    path = write_sgd(tmp_path / "sgd", [sgd_dialogue(i) for i in ids])

    reports = list(validate([path], jobs=2, chunk_size=1, check=die_on_00003))

    assert [r.dialogue_id for r in reports] == ids
    assert reports[2].status is Status.ERROR and "worker process died" in (reports[2].error or "")
    assert all(r.status is Status.CONSISTENT for r in reports[:2])
    # at most 2 * jobs chunks are in flight when the pool breaks; later ones run in a new pool
    assert all(r.status is Status.CONSISTENT for r in reports[2 + 2 * 2 :])


def test_crash_in_cli_run_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("csp_check.run.runner.default_check", crash_on_00002)
    path = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001"), sgd_dialogue("1_00002"), sgd_dialogue("1_00003")])
    report = tmp_path / "out.jsonl"

    result = CliRunner().invoke(main, ["validate", str(path), "--report", str(report)])

    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.splitlines() == [f"csp-check: error: {path}: dialogue 1_00002: internal error: RuntimeError: boom second line"]
    assert [r.status for r in read_report(report)] == [Status.CONSISTENT, Status.ERROR, Status.CONSISTENT]


def test_a_missing_file_is_an_unreadable_input_not_a_dialogue(tmp_path: Path) -> None:
    """A path that holds no dialogue at all is counted apart from the dialogues (it has no dialogue
    id), and still makes the run exit 2."""
    good = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001")])
    missing = tmp_path / "nowhere.json"

    proc = run_cli("validate", str(good), str(missing), "--json")

    assert proc.returncode == 2
    summary = json.loads(proc.stdout)
    assert (summary["dialogues"], summary["errors"], summary["unreadable"]) == (1, 0, 1)
    text = run_cli("validate", str(missing))  # alone: one line, no empty summary (issue 21)
    assert text.stdout == "" and text.returncode == 2
    assert text.stderr.splitlines() == [f"csp-check: error: {missing}: no such file or directory"]
