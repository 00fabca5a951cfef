"""``csp-check validate``'s summary and exit code tell the same story: an unreadable input is
counted among the errors of the headline and the closing line says the run failed on input
(exit 2), on the bundled examples beside a file that is no JSON."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from csp_check.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def test_an_unreadable_input_is_an_error_in_the_summary(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(broken), str(ROOT / "examples" / "dialogues.jsonl"),
                                       "--kb", str(ROOT / "kb" / "restaurants.json")], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert "1 error (1 unreadable input or line)" in lines[0] and "0 errors" not in lines[0], lines[0]
    assert lines[-1].endswith("the run failed on input, exit 2."), lines[-1]


def test_a_clean_run_says_zero_errors_and_exits_by_its_verdict() -> None:
    result = CliRunner().invoke(main, ["validate", str(ROOT / "examples" / "dialogues.jsonl"),
                                       "--kb", str(ROOT / "kb" / "restaurants.json")], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].endswith(", 0 errors") or ", 0 errors " in result.stdout.splitlines()[0]
    assert "failed on input" not in result.stdout
