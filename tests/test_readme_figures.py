"""The README's figures against what their commands print (benchmarks/readme_figures.py):
the cheap ones run here; the machinery (finding, comparing, rewriting a figure) on made-up text."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "readme_figures.py"
_spec = importlib.util.spec_from_file_location("readme_figures", SCRIPT)
assert _spec is not None and _spec.loader is not None
figures = importlib.util.module_from_spec(_spec)
sys.modules["readme_figures"] = figures  # its dataclasses look their module up
_spec.loader.exec_module(figures)


def script(*args: object) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def test_the_readme_example_block_is_what_the_example_command_prints() -> None:
    proc = script("--only", "example")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^example\s+match\b", proc.stdout, re.MULTILINE), proc.stdout


def test_a_stale_example_block_is_a_mismatch_and_update_rewrites_it(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    original = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = original.replace("GCA: 0.5714 (4 / 7 checked dialogues)", "GCA: 0.7143 (5 / 7 checked dialogues)", 1)
    assert stale != original
    readme.write_text(stale, encoding="utf-8")

    proc = script("--only", "example", "--readme", readme)
    assert proc.returncode == 1 and "MISMATCH" in proc.stdout, proc.stdout
    assert readme.read_text(encoding="utf-8") == stale  # without --update nothing is written

    proc = script("--only", "example", "--readme", readme, "--update")
    assert proc.returncode == 0 and "updated" in proc.stdout, proc.stdout
    assert readme.read_text(encoding="utf-8") == original


def test_every_row_of_the_figure_table_has_its_checked_command() -> None:
    listed = script("--list").stdout
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Headline figures", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) >= 10
    for row in rows:
        command = row.rsplit("|", 2)[1].split("`")[1].replace("\\|", "|")
        first = command.split(" [")[0]
        assert first in listed, f"no figure of readme_figures.py runs {first!r}"


def test_a_number_is_compared_as_the_readme_writes_it() -> None:
    assert figures.like("99.35", "99.353%") == "99.35"
    assert figures.like("3,812", "3812") == "3,812"
    assert figures.like("999", "1002") == "1,002"
    assert figures.like("0", "0.0%") == "0"
    assert figures.like("100", "100.00%") == "100"


def test_a_figure_that_changed_is_reported_and_rewritten_in_place() -> None:
    [fig] = [f for f in figures.FIGURES if f.name == "solvers"]
    text = "intro\n| gold SGD dev: exact VCA; CP-SAT and MiniZinc agree | **0.9990**; 100 / 100 | `python benchmarks/solvers.py` |\n"
    printed = ("CP-SAT vs MiniZinc on the sample: 99/100 agree; CP-SAT timeouts: 0\n"
               "GCA 0.9948 (764/768; checker and CP-SAT differ on 0)   exact VCA 0.9996 (10383/10387 variables with a span)\n")  # fmt: skip
    problems, edits = figures.check_figure(fig, text, printed)
    assert problems == ["vca: README 0.9990 -> printed 0.9996", "agree: README 100 -> printed 99"]
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    assert "| **0.9996**; 99 / 100 | `python benchmarks/solvers.py` |" in text
    assert figures.check_figure(fig, text, printed) == ([], [])
