"""What a new user following only the README meets (issue 21, items 8-13): one-line errors for
mistyped paths, ``calls --show``, per-domain KB warnings, progress columns, unreachable LLMs,
solver names and the wording of built instructions."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from support.nlsi import SCHEMA_FILE, example, schema
from support.openai_server import FakeOpenAI, Status

from csp_check import validate
from csp_check.cli.main import main
from csp_check.errors import UsageError
from csp_check.models import ALL_CONSTRAINTS
from csp_check.nlsi.build import ALSO_PARAPHRASES, BOOL_PARAPHRASES, DOMAIN_PARAPHRASES, WORDING_CUES, Wording
from csp_check.nlsi.cues import DOMAIN_CUES
from csp_check.output.console import RunProgress
from csp_check.output.kb_coverage import kb_coverage_warning
from csp_check.output.totals import count_dialogues, count_in_background
from csp_check.readers.kb import load_kb

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
    ["benchmark", "citod", "{missing}"],
    ["drift", "--out", "{out}", "--corpus", "{missing}"],
    ["iur", "check", "{missing}", "--report", "{out}"],
    ["iur", "detect", "{missing}", "--report", "{out}"],
])
def test_a_mistyped_input_path_is_one_line_and_exit_2(command: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "dialogs.jsonl"
    args = [part.format(missing=missing, out=tmp_path / "out.jsonl") for part in command]
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"csp-check: error: {missing}: no such file or directory"], result.stderr


# --- 13: every benchmark runs as `python benchmarks/NAME.py`, this checkout first ---------------

BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))
OWN_PATH = "sys.path.insert(0, str(Path(__file__).resolve().parents[1]))"


@pytest.mark.parametrize("script", [p.name for p in BENCHMARKS])
def test_every_benchmark_puts_its_checkout_first_before_importing_csp_check(script: str) -> None:
    text = (ROOT / "benchmarks" / script).read_text(encoding="utf-8")
    first = re.search(r"^(?:from|import) (?:csp_check|support)\b", text, re.MULTILINE)
    if first is None:  # imports nothing of the project (blind.py), or runs it as a command (readme_figures.py)
        return
    children = '"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT)'  # scale.py: csp_check runs in its children
    named = "ROOT = Path(__file__).resolve().parents[1]" in text and "sys.path.insert(0, str(ROOT))" in text[: first.start()]
    own = OWN_PATH in text[: first.start()] or named or children in text
    assert own, f"{script} imports csp_check without putting {ROOT} first"
    assert "PYTHONPATH=$PWD" not in text, f"{script}'s usage still asks for PYTHONPATH"


def test_a_benchmark_runs_from_the_root_without_pythonpath(tmp_path: Path) -> None:
    """Run as the README says: its checkout's csp_check is the one imported (not an installed one)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = ROOT / "benchmarks" / "fuzz.py"
    code = (f"import runpy; runpy.run_path({str(probe)!r}, run_name='x'); "
            "import csp_check; print(csp_check.__file__)")  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == str(ROOT / "csp_check" / "__init__.py")


# --- 8: `calls` shows its violations as `validate` does --------------------------------------------

def _calls_input(tmp_path: Path) -> Path:
    good = example("User: Find me a Gynecologist.", ["I'd like to get a Doctor in San Rafael if I can."],
                   ['GetDoctors(type="Gynecologist", location="San Rafael")'], eid="good")
    no_location = good.model_copy(update={"example_id": "bad", "api_calls": ['GetDoctors(type="Gynecologist")']})
    dentist = good.model_copy(update={"example_id": "bad2", "api_calls": ['GetDoctors(type="Dentist", location="San Rafael")']})
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in (good, no_location, dentist)), encoding="utf-8")
    return path


def test_calls_shows_the_violations_in_full(tmp_path: Path) -> None:
    path = _calls_input(tmp_path)
    result = invoke("calls", path, "--schema", SCHEMA_FILE)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "violations by family: P1 1, P2 1, P3 1, P4 1 (in 2 examples)" in lines
    first = lines.index("First 4 violations in full:")
    assert lines[first + 1] == f"1. bad P4  {path}"
    assert "but the call has no location, not 'San Rafael'" in lines[first + 2]
    assert lines[first + 3] == '     call GetDoctors(type="Gynecologist")  argument location'
    assert lines[first + 4] == "     instruction: I'd like to get a Doctor in San Rafael if I can."
    assert lines[first + 5] == f"2. bad2 P1  {path}"


def test_calls_show_n_bounds_what_is_shown_and_quiet_shows_nothing(tmp_path: Path) -> None:
    path = _calls_input(tmp_path)
    one = invoke("calls", path, "--schema", SCHEMA_FILE, "--show", "1").stdout
    assert "First 1 of 4 violations in full (--show N for more):" in one and "2. bad2" not in one
    none = invoke("calls", path, "--schema", SCHEMA_FILE, "--show", "0").stdout
    assert "violations by family: P1 1" in none and "in full" not in none
    assert invoke("calls", path, "--schema", SCHEMA_FILE, "--quiet").stdout == ""


# --- 10: a KB covering the corpus badly warns per domain, and says what a KB feeds ---------------

MWOZ_FIXTURE = ROOT / "tests" / "fixtures" / "multiwoz" / "data.json"


def test_a_toy_kb_of_the_right_domain_is_warned_about_with_counts() -> None:
    """kb/restaurants.json (12 invented restaurants) on MultiWOZ restaurant dialogues: every one is
    flagged against it; before, no warning at all (some dialogue got a KB constraint)."""
    result = invoke("validate", MWOZ_FIXTURE, "--kb", KB)
    [warning] = [line for line in result.stderr.splitlines() if line.startswith("warning: --kb")]
    assert "restaurant (4 dialogues, 12 KB entities; C4-C6 flag 4)" in warning, warning
    assert "is it the corpus's own KB?" in warning
    assert "C1's value sets" in warning and "C4-C6" in warning  # what a KB feeds, C1 included
    as_json = invoke("validate", MWOZ_FIXTURE, "--kb", KB, "--json")
    assert json.loads(as_json.stdout)["warnings"] == [warning]


def test_the_corpus_own_kb_gets_no_warning() -> None:
    db = ROOT.parent / "shared" / "data" / "multiwoz" / "db"
    if not db.is_dir():
        pytest.skip("needs ../shared/data")
    assert "warning" not in invoke("validate", MWOZ_FIXTURE, "--kb", db).stderr


def test_a_kb_covering_some_domains_names_each_missing_one_with_its_dialogues() -> None:
    warning = kb_coverage_warning("db.json", {"restaurant": 110}, {"restaurant": 452, "hotel": 426, "taxi": 211},
                                  Counter({"restaurant": 20}))  # fmt: skip
    assert warning is not None
    assert "covers 1 of the dialogues' 3 domains: restaurant (452 dialogues, 110 KB entities; C4-C6 flag 20)" in warning
    assert "no table for hotel (426), taxi (211): the KB builds no C4-C6 for those (only results inside the data can)" in warning
    assert "corpus's own KB" not in warning  # 20 of 452 flagged: not suspect
    assert kb_coverage_warning("db.json", {"restaurant": 110, "hotel": 33}, {"restaurant": 452, "hotel": 426},
                               Counter({"restaurant": 20})) is None  # fmt: skip
    counted = kb_coverage_warning("db.json", {}, {"hotel": 5}, Counter(), scanned=2000)
    assert counted is not None and "domains counted on the first 2,000 dialogues" in counted


# --- 11: progress bars keep their times at 80 columns; a single JSON file or zip gets a total -----

def _bar_line(progress: RunProgress, steps: int, total: int | None = None) -> str:
    buf = io.StringIO()
    progress.console = Console(file=buf, width=80, force_terminal=True, color_system=None)
    with progress:
        for i in range(steps):
            progress.step("a.json", inconsistent=i % 3 == 0)
        if total is not None:
            progress.set_total(total)
    drawn = [part for part in re.split(r"[\r\n]|\x1b\[[0-9;?]*[A-Za-z]", buf.getvalue()) if "checking" in part]
    return drawn[-1]


def test_the_bar_keeps_elapsed_time_and_eta_at_80_columns() -> None:
    line = _bar_line(RunProgress(enabled=True, total=16142), 1234)
    assert len(line) <= 80 and "1234/16142 dialogues" in line, line
    assert re.search(r" \d+:\d\d:\d\d ETA [-\d]+:[-\d]{2}:[-\d]{2} ", line), line  # both times whole
    files = RunProgress(enabled=True, files=40)
    buf = io.StringIO()
    files.console = Console(file=buf, width=80, force_terminal=True, color_system=None)
    with files:
        for i in range(300):
            files.step(f"f{i // 10}.json")
    drawn = [p for p in re.split(r"[\r\n]|\x1b\[[0-9;?]*[A-Za-z]", buf.getvalue()) if "checking" in p][-1]
    assert "/40 files" in drawn and re.search(r" \d+:\d\d:\d\d ETA [-\d]+:[-\d]{2}:[-\d]{2} ", drawn), drawn


def test_a_single_file_gets_its_total_while_the_run_goes(tmp_path: Path) -> None:
    line = _bar_line(RunProgress(enabled=True), 3, total=4)
    assert "3/4 dialogues" in line, line
    assert "/?" in _bar_line(RunProgress(enabled=True), 3)  # before the count arrives: M/?
    archive = tmp_path / "val.json.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(MWOZ_FIXTURE, "val.json")
    assert count_dialogues(MWOZ_FIXTURE) == 4 and count_dialogues(archive) == 4
    assert count_dialogues(EXAMPLES / "dialogues.jsonl") is None  # JSONL: counted by lines already
    broken = tmp_path / "broken.json"
    broken.write_text(MWOZ_FIXTURE.read_text(encoding="utf-8")[:500], encoding="utf-8")
    assert count_dialogues(broken, "multiwoz") is None
    got: list[int] = []
    count_in_background(archive, "auto", got.append).join(timeout=30)
    assert got == [4]


# --- 12: a failing LLM server: no row that looks measured, and exit 2 ------------------------------

def _refusing_server():
    return FakeOpenAI(lambda messages, body: Status(401, "invalid api key"))


def _llm_examples(tmp_path: Path) -> Path:
    rule = "For restaurants I want Burmese food."
    first = example("User: Find me a restaurant in San Jose.", [rule], ['GetRestaurants(city="San Jose", cuisine="Burmese")'],
                    applicable=[rule], eid="a")  # fmt: skip
    path = tmp_path / "llm.jsonl"
    path.write_text(first.model_dump_json() + "\n" + first.model_copy(update={"example_id": "b"}).model_dump_json() + "\n")
    return path


def test_calls_llm_parse_with_a_failing_server_exits_2(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    data = _llm_examples(tmp_path)
    with _refusing_server() as server:
        result = invoke("calls", data, "--schema", SCHEMA_FILE, "--llm-parse", "--base-url", server.base_url,
                        "--cache-dir", tmp_path / "c")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "--llm-parse: every one of the 1 LLM requests failed" in result.stderr


def test_nlsi_experiment_leaves_out_the_icl_row_of_a_failing_server_and_exits_2(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    data = _llm_examples(tmp_path)
    with _refusing_server() as server:
        result = invoke("nlsi", "experiment", data, "--schema", SCHEMA_FILE, "--icl", "--base-url", server.base_url,
                        "--cache-dir", tmp_path / "c", "--no-plots", "--bm25-top", "0", "--out", tmp_path / "out")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "every ICL request failed: the llm-icl row is left out" in result.stderr
    tables = (tmp_path / "out" / "nlsi_tables.md").read_text(encoding="utf-8")
    assert "| llm-icl |" not in tables and "| derive |" in tables
    assert "no llm-icl row: every one of the 1 ICL requests failed" in tables


def test_experiment_leaves_out_the_llm_row_of_a_failing_server_and_exits_2(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    out = tmp_path / "out"
    with _refusing_server() as server:
        result = invoke("experiment", EXAMPLES / "dialogues.jsonl", "--kb", KB, "--domain", "restaurant", "--no-plots",
                        "--out", out, "--base-url", server.base_url, "--cache-dir", tmp_path / "c")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "every LLM request failed (7 dialogues): the LLM row is left out" in result.stderr
    assert "| CSP (solver) |" in result.stdout and "| LLM |" not in result.stdout
    assert "LLM relexicalization" not in result.stdout  # no progress bar in the command's output
    tables = (out / "tables.md").read_text(encoding="utf-8")
    assert "| LLM |" not in tables and "LLM GCA" not in tables.replace("paper LLM GCA", "")
    assert "No LLM row: every one of the 7 LLM requests failed" in tables and "401" in tables


# --- 13: a JSON error message is never cut off ---------------------------------------------------

def test_a_json_error_message_is_whole(tmp_path: Path) -> None:
    kb = tmp_path / "kb.json"
    kb.write_text(KB.read_text(encoding="utf-8")[:200], encoding="utf-8")  # cut inside a string
    result = invoke("validate", EXAMPLES / "dialogues.jsonl", "--kb", kb)
    assert result.exit_code == 2
    assert re.fullmatch(rf"csp-check: error: --kb {re.escape(str(kb))}: invalid JSON at line 4, column \d+: "
                        r"Unterminated string starting here\n", result.stderr), result.stderr  # fmt: skip
    schema = tmp_path / "schema.json"
    schema.write_text(SCHEMA_FILE.read_text(encoding="utf-8")[:100], encoding="utf-8")
    result = invoke("calls", _llm_examples(tmp_path), "--schema", schema)
    assert result.exit_code == 2 and "Unterminated string starting here (is it an SGD schema.json?)" in result.stderr
    line = tmp_path / "cut.jsonl"
    line.write_text('{"id": "x", "turns": [{"speaker": "user", "utterance": "abc\n', encoding="utf-8")
    result = invoke("validate", line, "--kb", KB)
    assert f"csp-check: error: {line}:1: invalid JSON at column 56: Unterminated string starting here" in result.stderr.splitlines()
    assert not any(message.rstrip().endswith(" at") for message in result.stderr.splitlines())


# --- 13: docs/cli.md states the default constraints as the command has them ---------------------

def test_the_documented_default_constraints_are_the_defaults() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    stated = re.search(r"The default enables every registered dialogue constraint: `([A-Z0-9,]+)`", text)
    assert stated is not None, "docs/cli.md no longer states the default --constraints"
    result = invoke("validate", EXAMPLES / "dialogues.jsonl", "--kb", KB, "--json")
    assert stated.group(1) == ",".join(json.loads(result.stdout)["constraints"])
    assert stated.group(1) == ",".join(c.value for c in ALL_CONSTRAINTS)


# --- 13: a solver name is checked where it is given, and a wrong one lists the valid names --------

VALID = "choose one of cp-sat (or ortools, cpsat), minizinc:gecode, minizinc:chuffed (or minizinc:<solver>)"


@pytest.mark.parametrize("command", [
    ["validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB), "--solver", "cp_sat"],
    ["experiment", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB), "--domain", "restaurant", "--no-plots",
     "--solver", "cp_sat"],
])
def test_a_wrong_solver_name_is_one_line_listing_the_valid_ones(command: list[str]) -> None:
    result = invoke(*command)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"csp-check: error: --solver cp_sat: unknown solver 'cp_sat'; {VALID}"]


def test_calls_solver_needs_derive_and_lists_the_interpreter(tmp_path: Path) -> None:
    data = _llm_examples(tmp_path)
    alone = invoke("calls", data, "--schema", SCHEMA_FILE, "--solver", "cpsat")  # was accepted, and did nothing
    assert alone.exit_code == 2 and alone.stderr.splitlines() == [
        "csp-check: error: --solver cpsat applies to --derive (what derives the calls); add --derive"]
    wrong = invoke("calls", data, "--schema", SCHEMA_FILE, "--derive", "--solver", "cp_sat")
    assert wrong.exit_code == 2 and wrong.stderr.strip().endswith(f"{VALID}; or interpreter (the default)")


def test_a_benchmark_refuses_a_wrong_solver_name_before_its_work() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "validate.py"), "--solver", "cp_sat"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2 and f"--solver cp_sat: unknown solver 'cp_sat'; {VALID}" in proc.stderr


# --- 13: nlsi build words every domain as a noun phrase --------------------------------------------

BARE = re.compile(r"\b(?:For|for|about|want|looking for|looking into|check out|look at|search for|comes to) "
                  r"(?:to eat|eat out|dining out|flying|renting a car|banking|concert|property visit|restaurant|hotel)\b")


def test_built_paraphrases_name_their_domain_as_a_noun_phrase() -> None:
    templates = [*DOMAIN_PARAPHRASES, *ALSO_PARAPHRASES, *(t for ts in BOOL_PARAPHRASES.values() for t in ts)]
    for domain, wordings in WORDING_CUES.items():
        for wording in wordings:  # the parser reads it: it holds one of the domain's cues
            assert any(re.search(rf"\b{re.escape(cue)}\b", wording) for cue in DOMAIN_CUES[domain]), (domain, wording)
            for template in templates:
                text = template.format(cue=wording, cue1=wording, cue2=wording, s="area", v="Berkeley", b="free")
                assert not BARE.search(text), text
    rng = random.Random(0)
    wording = Wording(rng, paraphrase=1.0, schema=schema())
    said = [wording.domain_pref("Restaurants", "city", "San Jose") for _ in range(200)]
    assert not [t for t in said if BARE.search(t) or "For to eat" in t], said
    assert any("somewhere to eat" in t or "a place to eat" in t for t in said)


def test_validate_takes_a_kb_path_as_the_cli_does() -> None:
    from_path = [r.status.value for r in validate([ROOT / "examples" / "dialogues.jsonl"], kb=str(ROOT / "kb" / "restaurants.json"))]
    loaded = [r.status.value for r in validate([ROOT / "examples" / "dialogues.jsonl"], kb=load_kb(ROOT / "kb" / "restaurants.json"))]
    assert from_path == loaded and "inconsistent" in from_path
    with pytest.raises(UsageError, match="no such KB"):
        validate([ROOT / "examples" / "dialogues.jsonl"], kb=ROOT / "kb" / "missing.json")
