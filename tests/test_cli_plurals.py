"""Counts the command line prints take the noun's number: ``1 dialogue``, ``1 violation``,
``1 error`` (never ``1 dialogues``, ``1 errors``, ``violation(s)``), on one bundled example
dialogue and on two."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from csp_check.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "dialogues.jsonl"
KB = ROOT / "kb" / "restaurants.json"
SINGULAR_AS_PLURAL = re.compile(r"(?<![\d,.])1 (dialogues|errors|violations|flags|examples|domains|edits|inputs)\b|\(s\)")


def test_one_dialogue_is_said_in_the_singular(tmp_path: Path) -> None:
    seen_flagged = False
    for i, line in enumerate(EXAMPLES.read_text(encoding="utf-8").splitlines()):
        one = tmp_path / f"one{i}.jsonl"
        one.write_text(line + "\n", encoding="utf-8")
        result = CliRunner().invoke(main, ["validate", str(one), "--kb", str(KB), "--show", "1"], env={"COLUMNS": "300"})
        out = result.stdout + result.stderr
        assert result.stdout.startswith("1 dialogue: 1 checked"), result.stdout
        assert not SINGULAR_AS_PLURAL.search(out), out
        if result.exit_code == 1:
            seen_flagged = True
            assert "flagged by C1-C6: 1 dialogue (" in result.stdout
            assert "First 1 violation in full:" in result.stdout
    assert seen_flagged  # at least one example is inconsistent: the singular of the flagged line was seen


def test_counts_above_one_stay_plural() -> None:
    result = CliRunner().invoke(main, ["validate", str(EXAMPLES), "--kb", str(KB), "--show", "2"], env={"COLUMNS": "300"})
    assert result.stdout.startswith("7 dialogues: 7 checked")
    assert "First 2 violations in full:" in result.stdout
    assert not SINGULAR_AS_PLURAL.search(result.stdout + result.stderr)
