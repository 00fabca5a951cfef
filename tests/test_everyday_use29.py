"""What a new user met in everyday use (use29): an NLSI release file given to ``validate`` and a
dialogue file given as ``--kb`` are one line naming the file, what it is and the command that
reads it; the summary counts certain and for-review flags apart; the LLM relexicalizer survives
one bad reply; ``--quiet`` does not import rich."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import MULTIWOZ_VAL, SGD_DEV, SHARED_DATA

from csp_check import validate
from csp_check.cli.main import main
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
        assert f"{n}{' dialogues' if family == 'paper' else ''} (" in line
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
