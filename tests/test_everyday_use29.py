"""What a new user met in everyday use (use29): an NLSI release file given to ``validate`` and a
dialogue file given as ``--kb`` are one line naming the file, what it is and the command that
reads it; the summary counts certain and for-review flags apart; the LLM relexicalizer survives
one bad reply; ``--quiet`` does not import rich."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import MULTIWOZ_VAL, SGD_DEV, SHARED_DATA
from support.openai_server import FakeOpenAI, Status, unused_url

from csp_check import validate
from csp_check.cli.main import main
from csp_check.llm.client import ChatClient, CompletionError, LLMSettings
from csp_check.readers.kinds import sniff_kind

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
KB = ROOT / "kb" / "restaurants.json"
NLSI = SHARED_DATA / "nlsi"
RELEASE = NLSI / "old_instructions_dataset.json"

needs_release = pytest.mark.skipif(not RELEASE.is_file(), reason="../shared/data/nlsi is not beside the repo")


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "200"})


# --- 1: a file of a known kind given to the wrong command: one line naming the right one --------

@needs_release
@pytest.mark.parametrize("command", [["validate"], ["validate", "--json"], ["delexicalize"],
                                     ["export-mzn", "--dialogue", "93_00071"]], ids=["validate", "json", "delex", "mzn"])
def test_an_nlsi_release_file_given_to_a_dialogue_command_is_one_line(command: list[str]) -> None:
    result = invoke(command[0], RELEASE, *command[1:])

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"csp-check: error: {RELEASE}: this is an NLSI release file (API calls against standing instructions), "
        f"not dialogues; use `csp-check calls {RELEASE} --schema {NLSI}`"]
    assert result.stdout == ""


@needs_release
def test_the_command_it_names_reads_the_release_file() -> None:
    """The advice works: the very command of the line reads the 175 examples, none unreadable."""
    result = invoke("calls", RELEASE, "--schema", NLSI, "--quiet")

    assert result.exit_code in (0, 1), result.stderr
    assert "unreadable" not in result.stderr and "error" not in result.stderr


@needs_release
def test_among_dialogue_files_the_release_file_is_one_error_and_the_rest_is_checked() -> None:
    result = invoke("validate", EXAMPLES / "dialogues.jsonl", RELEASE, "--kb", KB, "--json")

    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if str(RELEASE) in line]
    assert len(lines) == 1 and "use `csp-check calls" in lines[0]
    assert '"checked": 7' in result.stdout


@needs_release
def test_the_python_api_and_a_folder_walk_say_it_once_too() -> None:
    reports = list(validate([RELEASE]))
    assert len(reports) == 1 and "csp-check calls" in (reports[0].error or "")

    result = invoke("validate", NLSI, "--quiet")  # the release folder: one line naming the file in it
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and f"{RELEASE}: this is an NLSI release file" in result.stderr


@needs_release
@pytest.mark.parametrize("name, kind", [("old_instructions_dataset.json", "nlsi-release"),
                                        ("schema_updated_v5.json", "schema"), ("slot_value_dict.json", None)])
def test_the_release_files_are_told_apart(name: str, kind: str | None) -> None:
    assert sniff_kind(NLSI / name) == kind


@needs_release
def test_a_schema_given_to_validate_names_both_readers() -> None:
    schema = NLSI / "schema_updated_v5.json"
    result = invoke("validate", schema)

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"csp-check: error: {schema}: this is a service schema (SGD's schema.json, NLSI's schema_updated_v5.json), "
        f"not dialogues: validate reads an SGD split's schema with its folder; use `csp-check calls NLSI_FILE "
        f"--schema {schema}` for NLSI"]


# --- 2: a dialogue file given as --kb is refused in one line ----------------------------------

def _kb_cases() -> list:
    cases = [(EXAMPLES / "dialogues.jsonl", "csp-check JSONL dialogues")]
    if SGD_DEV.is_dir():
        cases += [(SGD_DEV / "dialogues_001.json", "SGD"), (SGD_DEV, "SGD")]
    if MULTIWOZ_VAL.is_file():
        cases.append((MULTIWOZ_VAL, "MultiWOZ"))
    if RELEASE.is_file():
        cases.append((RELEASE, "an NLSI release file"))
    return cases


@pytest.mark.parametrize("kb, looks", _kb_cases(), ids=lambda v: Path(v).name if isinstance(v, Path) else v)
@pytest.mark.parametrize("command", ["validate", "delexicalize"])
def test_a_dialogue_file_as_kb_is_refused_in_one_line(kb: Path, looks: str, command: str) -> None:
    result = invoke(command, EXAMPLES / "dialogues.jsonl", "--kb", kb)

    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"csp-check: error: --kb {kb}: this is not a KB (it looks like {looks}); ")
    assert "use `csp-check calls" in line if "NLSI" in looks else f"`csp-check validate {kb} [--kb KB]`" in line
    assert result.stdout == ""


def test_a_real_kb_is_still_loaded() -> None:
    result = invoke("validate", EXAMPLES / "dialogues.jsonl", "--kb", KB, "--quiet")
    assert result.exit_code == 1 and result.stderr == ""


# --- 4: the summary counts certain and for-review flagged dialogues apart ---------------------

def _flag_counts(reports: list) -> dict[str, tuple[int, int]]:
    """family → (dialogues flagged, of them with a certain violation), counted from the reports."""
    out = {}
    for family, annotation in (("paper", False), ("annotation", True)):
        of = [[v for v in r.violations if v.constraint.value.startswith("S") == annotation] for r in reports]
        out[family] = (sum(1 for vs in of if vs), sum(1 for vs in of if any(v.certain for v in vs)))
    return out


@pytest.mark.parametrize("path, kb", [(EXAMPLES / "dialogues.jsonl", KB), (SGD_DEV / "dialogues_002.json", None)],
                         ids=["examples", "sgd-dev-002"])
def test_the_flagged_line_splits_certain_from_for_review(path: Path, kb: Path | None) -> None:
    if not path.exists():
        pytest.skip("shared data absent")
    kb_args = ["--kb", kb] if kb else []
    reports = list(validate([path], kb=kb))
    counts = _flag_counts(reports)
    assert any(n > c for n, c in counts.values()), "the input must hold a dialogue flagged for review only"

    line = next(x for x in invoke("validate", path, *kb_args, "--show", "0").stdout.splitlines() if x.startswith("flagged by"))
    for family, (n, certain) in counts.items():
        assert f"{n}{(' dialogue' if n == 1 else ' dialogues') if family == 'paper' else ''} (" in line
        assert f"{certain} certain, {n - certain} for review only)" in line
    data = json.loads(invoke("validate", path, *kb_args, "--json").stdout)
    assert data["flagged"] == {f: n for f, (n, _) in counts.items()}
    assert data["flagged_certain"] == {f: c for f, (_, c) in counts.items()}
    # the exit code's contract: without --strict a dialogue flagged for review only does not count
    assert data["inconsistent"] == sum(1 for r in reports if any(v.certain for v in r.violations))


# --- 6: --quiet and --json never import rich --------------------------------------------------

_PROBE = """
import sys
sys.argv = ["csp-check", *sys.argv[1:]]
from csp_check.cli.main import main
try:
    main()
except SystemExit as done:
    code = done.code
print(code, sorted({m.split(".")[0] for m in sys.modules if m == "rich" or m.startswith("rich.")}))
"""


@pytest.mark.parametrize("flag, rich", [("--quiet", []), ("--json", []), ("--show=1", ["rich"])])
def test_rich_is_imported_only_when_the_summary_is_shown(flag: str, rich: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-c", _PROBE, "validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB), flag],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == f"1 {rich}"  # exit 1: three inconsistent dialogues


def test_the_llm_paths_do_not_import_rich() -> None:
    """The LLM client draws its bar with rich only on a terminal: importing the commands that ask
    an LLM (relexicalize, the indirect-request judge, ICL selection) loads no rich."""
    probe = ("import sys, csp_check.llm.client, csp_check.relexicalize.llm, csp_check.iur.judge, csp_check.nlsi.selection;"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'rich'))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# --- 5: one bad LLM reply costs its dialogue only; an unreachable server is one line ----------

def _experiment(tmp_path: Path, base_url: str, *extra: str):
    pytest.importorskip("openai")
    args = ["experiment", SGD_DEV / "dialogues_001.json", "--domain", "Restaurants_2", "--limit", "4", "--no-plots",
            "--out", tmp_path / "out", "--base-url", base_url, "--retries", "0", "--request-timeout", "1",
            "--cache-dir", tmp_path / "cache", *extra]  # fmt: skip
    return invoke(*args)


@pytest.mark.skipif(not SGD_DEV.is_dir(), reason="../shared/data/sgd is not beside the repo")
@pytest.mark.parametrize("bad", ["500", "timeout", "garbage"])
def test_one_bad_llm_reply_is_reported_for_its_dialogue_and_the_run_goes_on(tmp_path: Path, bad: str) -> None:
    calls: list[int] = []

    def reply(messages: list[dict], body: dict) -> str | Status:
        calls.append(1)
        if len(calls) != 2:
            return "User: hi\nSystem: hello"
        if bad == "500":
            return Status(500, "boom")
        if bad == "timeout":
            time.sleep(2.5)  # past --request-timeout 1
            slept.set()
        return "\x00{not an answer" * 50

    slept = threading.Event()
    with FakeOpenAI(reply) as server:
        result = _experiment(tmp_path, server.base_url, "--concurrency", "1")
        if bad == "timeout":  # the late answer meets a closed connection: let its handler finish here
            slept.wait(10)
            time.sleep(0.3)
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in (tmp_path / "out" / "llm_answers.jsonl").read_text().splitlines()]
    assert len(answers) == 4 and {a["source"] for a in answers} == {str(SGD_DEV / "dialogues_001.json")}
    failed = [a for a in answers if a["alignment"]["error"]]
    named = [line for line in result.stderr.splitlines() if ": LLM: " in line]
    if bad == "garbage":  # an answer, malformed: aligned to nothing, its masks wrong; no error
        assert not failed and not named and any(a["alignment"]["missing_turns"] for a in answers)
    else:
        assert len(failed) == 1 and failed[0]["answer"] is None
        assert named == [f"{SGD_DEV / 'dialogues_001.json'}: dialogue {failed[0]['dialogue_id']}: LLM: "
                         f"{failed[0]['alignment']['error']} (its masks count as wrong)"]
    assert "| LLM |" in result.stdout  # the LLM was measured on the others
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["error"] is None for r in rows)


@pytest.mark.skipif(not SGD_DEV.is_dir(), reason="../shared/data/sgd is not beside the repo")
def test_an_unreachable_llm_server_is_one_line_and_exit_2(tmp_path: Path) -> None:
    url = unused_url()
    result = _experiment(tmp_path, url)

    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if "error" in line.lower() or line.startswith("LLM")]
    assert len(errors) == 1 and errors[0].startswith(f"csp-check: error: --base-url {url}: cannot reach the LLM server")
    assert "No LLM row" in (tmp_path / "out" / "tables.md").read_text()


def test_the_requests_not_yet_sent_to_an_unreachable_server_are_not_sent(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    settings = LLMSettings(base_url=unused_url(), model="m", max_retries=1, backoff=0.5, concurrency=1, cache_dir=None)
    client = ChatClient(settings)
    seen: list[int] = []
    started = time.perf_counter()
    answers = client.complete_many([(f"prompt {i}", i) for i in range(20)], progress=False,
                                   on_done=lambda i, answer: seen.append(i))  # fmt: skip
    assert time.perf_counter() - started < 5  # not 20 requests x (1 retry + 0.5 s backoff)
    assert sorted(seen) == list(range(20)) and all(isinstance(a, CompletionError) and a.unreachable for a in answers)
    assert client.requests <= 2 * settings.concurrency + 2
