"""What a new user following only the README meets (issue 21, items 8-13): one-line errors for
mistyped paths, ``calls --show``, per-domain KB warnings, progress columns, unreachable LLMs,
solver names and the wording of built instructions."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from csp_check.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
KB = ROOT / "kb" / "restaurants.json"


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "200"})


# --- 9: a mistyped input path is one line, exit 2 ----------------------------------------------

@pytest.mark.parametrize("command", [
    ["validate", "{missing}", "--kb", str(KB)],
    ["validate", "{missing}", "--json"],
    ["delexicalize", "{missing}"],
    ["experiment", "{missing}", "--no-plots"],
    ["experiment", str(EXAMPLES / "dialogues.jsonl"), "--kb", "{missing}", "--no-plots"],
    ["nlsi", "build", "{missing}", "--out", "{out}"],
    ["nlsi", "experiment", "{missing}", "--no-plots"],
    ["calls", "{missing}"],
    ["export-mzn", "{missing}", "--dialogue", "x"],
])
def test_a_mistyped_input_path_is_one_line_and_exit_2(command: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "dialogs.jsonl"
    args = [part.format(missing=missing, out=tmp_path / "out.jsonl") for part in command]
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"csp-check: error: {missing}: no such file or directory"], result.stderr
