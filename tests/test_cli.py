"""``csp-check validate``: exit codes, summary, --report, --jobs, --constraints, --json, --quiet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import SGD_DEV
from support.sgd import sgd_dialogue, write_sgd

from csp_check import CorpusSummary, validate
from csp_check.cli.main import main
from csp_check.models import DialogueReport, Status
from csp_check.score.corpus import solver_answers


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "csp_check.cli.main", *args], capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture
def consistent(tmp_path: Path) -> Path:
    return write_sgd(tmp_path / "ok", [sgd_dialogue(f"1_{i:05d}") for i in range(1, 4)])


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """Three dialogues; the second says 3 restaurants where the KB (its service results) has 2."""
    return write_sgd(tmp_path / "mixed", [sgd_dialogue("1_00001"), sgd_dialogue("1_00002", count=3), sgd_dialogue("1_00003")])


def test_consistent_corpus_exits_0_with_a_clean_summary(consistent: Path) -> None:
    result = invoke("validate", str(consistent))

    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    out = result.stdout
    assert "3 dialogues: 3 checked, 3 consistent, 0 inconsistent, 0 errors" in out
    assert "GCA: 1.0000 (3 / 3 checked dialogues)" in out
    assert "Coverage (paper's Table 2)" in out
    for cid in ("C1", "C2", "C3", "C4", "C5", "C6"):
        assert f"\n {cid} " in out
    assert "Violations by constraint" not in out


def test_inconsistent_corpus_exits_1_and_shows_the_violation_in_full(mixed: Path) -> None:
    result = invoke("validate", str(mixed))

    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "GCA: 0.6667 (2 / 3 checked dialogues)" in out
    assert "Violations by constraint" in out
    assert "1. 1_00002 C6 turns 0, 1" in out
    assert "the KB has 2" in out  # the evidence message
    assert "[8:9] '3' = 3" in out  # the span and its text


def test_constraints_option_restricts_checks_and_table(mixed: Path) -> None:
    result = invoke("validate", str(mixed), "--constraints", "c1,C2", "--json")

    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [row["constraint"] for row in summary["coverage_table"]] == ["C1", "C2"]
    assert summary["consistent"] == 3


def test_json_summary(mixed: Path) -> None:
    result = invoke("validate", str(mixed), "--json")

    summary = json.loads(result.stdout)
    assert summary["dialogues"] == summary["checked"] == 3
    assert (summary["consistent"], summary["inconsistent"], summary["errors"]) == (2, 1, 0)
    assert summary["gca"] == pytest.approx(2 / 3)
    assert summary["violations"] == {"C6": 1}
    assert summary["examples"][0]["dialogue_id"] == "1_00002"
    c1 = summary["coverage_table"][0]
    assert c1["constraint"] == "C1" and c1["variables"] == summary["variables"] and c1["coverage"] == 1.0
    assert summary["exit_code"] == result.exit_code == 1


def test_quiet_prints_nothing_but_keeps_the_exit_code(mixed: Path) -> None:
    result = invoke("validate", str(mixed), "--quiet")

    assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")


def test_show_limits_the_violations_in_full(tmp_path: Path) -> None:
    path = write_sgd(tmp_path / "bad", [sgd_dialogue(f"1_{i:05d}", count=5) for i in range(1, 5)])

    result = invoke("validate", str(path), "--show", "2")

    assert "First 2 violations in full:" in result.stdout
    assert "1_00002" in result.stdout and "1_00003" not in result.stdout


def test_report_has_one_line_per_dialogue(mixed: Path, tmp_path: Path) -> None:
    report = tmp_path / "r.jsonl"

    invoke("validate", str(mixed), "--report", str(report))

    reports = [DialogueReport.model_validate_json(line) for line in report.read_text().splitlines()]
    assert [(r.dialogue_id, r.status) for r in reports] == [
        ("1_00001", Status.CONSISTENT),
        ("1_00002", Status.INCONSISTENT),
        ("1_00003", Status.CONSISTENT),
    ]
    assert reports[1].violations[0].constraint.value == "C6"
    assert reports[0].source == str(mixed)


def test_report_keeps_what_finished_before_an_interrupt(
    mixed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from csp_check.run import runner

    real = runner.default_check

    def interrupt_on_third(dialogue, settings):
        if dialogue.id == "1_00003":
            raise KeyboardInterrupt
        return real(dialogue, settings)

    monkeypatch.setattr(runner, "default_check", interrupt_on_third)
    report = tmp_path / "r.jsonl"

    result = invoke("validate", str(mixed), "--report", str(report), "--quiet")

    assert result.exit_code == 130
    assert "interrupted after 2 dialogues" in result.stderr
    assert len(report.read_text().splitlines()) == 2


def test_jobs_gives_the_same_reports_in_the_same_order(tmp_path: Path) -> None:
    dialogues = [sgd_dialogue(f"1_{i:05d}", count=2 + (i % 7 == 0)) for i in range(1, 80)]
    path = write_sgd(tmp_path / "many", dialogues)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"

    r1 = invoke("validate", str(path), "--report", str(one), "--quiet")
    r2 = invoke("validate", str(path), "--report", str(two), "--quiet", "--jobs", "2")

    assert r1.exit_code == r2.exit_code == 1
    assert one.read_text() == two.read_text()
    assert len(one.read_text().splitlines()) == 79


def test_python_api_and_cli_agree(mixed: Path) -> None:
    summary = CorpusSummary()
    for report in validate([mixed], jobs=1):
        summary.add(report)

    cli = json.loads(invoke("validate", str(mixed), "--json").stdout)

    assert summary.gca == cli["gca"] and summary.coverage == cli["coverage"] and summary.exit_code == cli["exit_code"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["validate"], "Missing argument"),
        (["validate", "{ok}", "--format", "bogus"], "Invalid value for '--format'"),
        (["validate", "{ok}", "--constraints", "C1,C9"], "unknown constraint 'C9'"),
        (["validate", "{ok}", "--jobs", "0"], "Invalid value for '--jobs'"),
        (["validate", "{ok}", "--kb", "{tmp}/no-such-kb.json"], "csp-check: error: --kb "),
        (["validate", "{ok}", "--report", "{tmp}/no/such/dir/r.jsonl"], "csp-check: error: --report "),
    ],
    ids=["no-path", "format", "constraint", "jobs", "kb", "report"],
)
def test_usage_errors_exit_2(consistent: Path, tmp_path: Path, args: list[str], message: str) -> None:
    args = [a.format(ok=consistent, tmp=tmp_path) for a in args]

    proc = run_cli(*args)

    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_exit_codes_of_the_real_command(consistent: Path, mixed: Path) -> None:
    assert run_cli("validate", str(consistent), "--quiet").returncode == 0
    assert run_cli("validate", str(mixed), "--quiet").returncode == 1
    assert run_cli("validate", str(consistent), str(mixed), "--quiet").returncode == 1


@pytest.mark.skipif(not SGD_DEV.is_dir(), reason="shared SGD data not present")
def test_shared_sgd_file_serial_and_parallel_agree(tmp_path: Path) -> None:
    source = SGD_DEV / "dialogues_001.json"
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"

    p1 = run_cli("validate", str(source), "--report", str(one), "--json")
    p2 = run_cli("validate", str(source), "--report", str(two), "--json", "--jobs", "2")

    assert p1.returncode in (0, 1) and p2.returncode == p1.returncode, p1.stderr
    assert p1.stderr == ""
    assert one.read_text() == two.read_text()
    summary = json.loads(p1.stdout)
    assert summary["errors"] == 0 and summary["dialogues"] > 50
    assert summary["coverage_table"][0]["coverage"] == 1.0  # C1 covers every variable


# --- solver options (csp_check.solvers) --------------------------------------------------------


def test_solver_options_add_vca_groups_and_repairs(mixed: Path, tmp_path: Path) -> None:
    pytest.importorskip("ortools")
    report = tmp_path / "r.jsonl"

    result = invoke("validate", str(mixed), "--vca", "--count-solutions", "--repair", "--json", "--report", str(report))

    assert result.exit_code == 1, result.output
    solver = json.loads(result.stdout)["solver"]
    assert solver["solver"] == "cp-sat" and solver["dialogues"] == 3
    assert solver["status"] == {"satisfied": 3}
    assert solver["vca_variables"] == 12 and solver["agreeing"] == 11  # the wrong count disagrees
    assert sum(g["dialogues"] for g in solver["groups"].values()) == 3
    assert solver["repaired"] == 1 and solver["edits"] == 1
    bad = [DialogueReport.model_validate_json(line) for line in report.read_text().splitlines()][1]
    answers = solver_answers(bad)  # read back from the report file: typed again
    assert answers is not None and answers.edits and answers.relexicalized
    assert answers.edits[0].new == 2
    assert "I found 2 restaurants" in answers.relexicalized[1]


def test_solver_summary_is_rendered(mixed: Path) -> None:
    pytest.importorskip("ortools")
    out = invoke("validate", str(mixed), "--solver", "cp-sat", "--vca", "--count-solutions").stdout

    assert "Solver cp-sat: CSP of 3 dialogues: 3 satisfied" in out
    assert "VCA: 0.9167 (11 / 12 variables" in out
    assert "By number of solutions (paper's Table 1)" in out


def test_unknown_solver_is_a_usage_error(consistent: Path) -> None:
    result = invoke("validate", str(consistent), "--solver", "no-such-solver")

    assert result.exit_code == 2
    assert result.stderr.startswith("csp-check: error: --solver no-such-solver: unknown solver")


def test_export_mzn_writes_model_and_data(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "mzn"

    result = invoke("export-mzn", str(mixed), "--dialogue", "1_00002", "--out", str(out))

    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["1_00002.dzn", "consistency.mzn", "most_similar.mzn"]
    assert result.stdout.splitlines()[-1] == str(out / "1_00002.dzn")


def test_export_mzn_of_a_missing_or_broken_dialogue_exits_2(tmp_path: Path) -> None:
    broken = sgd_dialogue("1_00002")
    broken["turns"] = []
    path = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001"), broken])

    missing = invoke("export-mzn", str(path), "--dialogue", "9_99999", "--out", str(tmp_path / "m"))
    unreadable = invoke("export-mzn", str(path), "--dialogue", "1_00002", "--out", str(tmp_path / "m"))

    assert missing.exit_code == unreadable.exit_code == 2
    assert missing.stderr == f"csp-check: error: dialogue 9_99999 not found in {path}\n"
    assert unreadable.stderr == f"csp-check: error: {path}: dialogue 1_00002: turns: dialogue has no turns\n"


@pytest.mark.parametrize("cap", [3, 4, 5])
def test_a_low_cap_cuts_the_group_labels(cap: int) -> None:
    """Table 1 under --cap N < 101: the range N falls in ends at N - 1, so no labels overlap."""
    import re

    examples = Path(__file__).resolve().parents[1] / "examples" / "dialogues.jsonl"
    summary = json.loads(invoke("validate", str(examples), "--count-solutions", "--cap", str(cap), "--json").stdout)
    groups = list(summary["solver"]["groups"])
    assert "2-10" not in groups and groups, groups
    for name in groups:
        top = re.fullmatch(r"(\d+)(?:-(\d+))?", name)
        assert name.startswith("≥") or (top and int(top.group(2) or top.group(1)) < cap), (cap, groups)
    text = invoke("validate", str(examples), "--count-solutions", "--cap", str(cap)).stdout
    rows = [re.split(r"\s{2,}", line.strip())[0] for line in text.split("Table 1)")[1].splitlines()[3:] if line.strip()]
    rows = rows[: len(groups)]
    assert sorted(rows) == sorted(groups) and rows == sorted(rows, key=lambda r: int(re.search(r"\d+", r).group()))


def test_resume_refuses_a_report_of_other_inputs(tmp_path: Path) -> None:
    """--resume with a report none of whose dialogues come from the given inputs: exit 2, report untouched."""
    examples = Path(__file__).resolve().parents[1] / "examples" / "dialogues.jsonl"
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_bytes(examples.read_bytes())
    two.write_bytes(examples.read_bytes())
    report = tmp_path / "r.jsonl"
    assert invoke("validate", str(one), "--report", str(report), "-q").exit_code == 1
    before = report.read_text()
    result = invoke("validate", str(two), "--resume", "--report", str(report))
    assert result.exit_code == 2 and "none of the given inputs" in result.output and "one.jsonl" in result.output
    assert report.read_text() == before
    assert invoke("validate", str(one), "--resume", "--report", str(report), "-q").exit_code == 1
    assert invoke("validate", str(tmp_path / "one.jsonl"), str(two), "--resume", "--report", str(report), "-q").exit_code == 1
