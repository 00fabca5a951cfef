"""``validate --show N`` shows certain (inconsistent) violations before those for review, each
in dialogue then turn order, whatever the order of the input; ``--json`` and ``--report`` keep
file order (their content is unchanged). Input: the bundled examples with the for-review dialogue
moved first."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from csp_check.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
KB = str(ROOT / "kb" / "restaurants.json")


def review_first(tmp_path: Path) -> Path:
    lines = (ROOT / "examples" / "dialogues.jsonl").read_text(encoding="utf-8").splitlines()
    reports = tmp_path / "probe.jsonl"
    CliRunner().invoke(main, ["validate", str(ROOT / "examples" / "dialogues.jsonl"), "--kb", KB, "--quiet",
                              "--report", str(reports)])
    status = {r["dialogue_id"]: r["status"] for r in map(json.loads, reports.read_text().splitlines())}
    review = [ln for ln in lines if status[json.loads(ln)["id"]] == "uncertain"]
    assert review and any(s == "inconsistent" for s in status.values())
    path = tmp_path / "review_first.jsonl"
    path.write_text("\n".join(review + [ln for ln in lines if ln not in review]) + "\n", encoding="utf-8")
    return path


def test_certain_violations_are_shown_first(tmp_path: Path) -> None:
    path = review_first(tmp_path)
    out = CliRunner().invoke(main, ["validate", str(path), "--kb", KB, "--show", "10"], env={"COLUMNS": "200"}).stdout
    shown = re.findall(r"^\d+\. .*$", out, flags=re.M)
    assert len(shown) >= 3, out
    review = ["for review" in line for line in shown]
    assert review[0] is False and review == sorted(review), shown  # certain ones, then for review
    two = CliRunner().invoke(main, ["validate", str(path), "--kb", KB, "--show", "2"], env={"COLUMNS": "200"}).stdout
    assert not any("for review" in line for line in re.findall(r"^\d+\. .*$", two, flags=re.M))


def test_the_json_summary_keeps_file_order(tmp_path: Path) -> None:
    path = review_first(tmp_path)
    data = json.loads(CliRunner().invoke(main, ["validate", str(path), "--kb", KB, "--json"]).stdout)
    assert data["examples"][0]["violation"]["certain"] is False  # the first violation of the file
