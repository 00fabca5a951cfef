"""What a new user met in everyday use (use25): usage errors in two lines, wrong-kind files named
once, a missing API-call field as an input error, drift's KB warning, the unknown-constraint list,
MiniZinc without deprecation warnings, an experiment that survives one broken dialogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.attacks import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


# --- 1: a usage error is one line naming the option or argument, then a one-line hint, exit 2 -----

@pytest.mark.parametrize("args, error", [
    (["validate"], "csp-check: error: validate: Missing argument 'PATHS...'"),
    (["validate", "{ok}", "--jobs", "x"],
     "csp-check: error: validate: Invalid value for '--jobs' / '-j': 'x' is not a valid integer range"),
    (["validate", "{ok}", "--bogus"], "csp-check: error: validate: No such option '--bogus'"),
    (["validat"], "csp-check: error: No such command 'validat'. Did you mean 'validate'?"),
    (["nlsi", "build"], "csp-check: error: nlsi build: Missing argument 'SGD_PATHS...'"),
    (["benchmark", "citod", "{ok}", "--half", "x"], "csp-check: error: benchmark citod: Invalid value for '--half'"),
], ids=["missing-argument", "bad-value", "no-such-option", "no-such-command", "nested-group", "choice"])
def test_a_usage_error_is_one_line_and_a_hint(args: list[str], error: str) -> None:
    proc = run_cli([a.format(ok=EXAMPLES / "dialogues.jsonl") for a in args])

    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 2, proc.stderr
    assert lines[0].startswith(error)
    command = " ".join(a for a in args[:2] if not a.startswith("{") and a != "validat")
    assert lines[1].startswith("usage: ") and f"csp_check.cli.main {command}".rstrip() in lines[1]
    assert lines[1].endswith(("(--help lists the options)", "(--help lists the commands)"))


def test_a_group_without_its_command_still_shows_its_help() -> None:
    proc = run_cli(["nlsi"])

    assert proc.returncode == 2 and "Commands:" in proc.stdout + proc.stderr and "build" in proc.stdout + proc.stderr
