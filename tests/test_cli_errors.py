"""Bad input as a new user meets it: one line ``csp-check: error: …`` naming file, dialogue and
field, exit 2, no traceback; a path with no dialogue is ``no dialogues in PATH`` for every reader
and for ``calls``; the no-KB warning is one short line before the summary (docs/cli.md, "Bad
input" and "Without a KB"). Every case is a real invocation (click's CliRunner or a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.sgd import sgd_dialogue, write_sgd

from csp_check.cli.main import main
from csp_check.readers import READERS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCHEMA = ROOT / "tests" / "fixtures" / "nlsi" / "schema.json"
PREFIX = "csp-check: error: "


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "200"})


def one_error(result, exit_code: int = 2) -> str:
    """The one stderr line of a failed run (``csp-check: error: …``), checked for no traceback."""
    assert result.exit_code == exit_code, (result.exit_code, result.stderr)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX), result.stderr
    return lines[0].removeprefix(PREFIX)


# --- 1. the deliberate mistakes: one line, exit 2, the prefix ----------------------------------


def _good(tmp: Path) -> Path:
    return write_sgd(tmp / "sgd", [sgd_dialogue("1_00001")])


def _turns_a_string(tmp: Path) -> Path:
    broken = sgd_dialogue("1_00001")
    broken["turns"] = "hello"
    return write_sgd(tmp / "sgd", [broken])


def _write(name: str, text: str) -> Callable[[Path], Path]:
    def make(tmp: Path) -> Path:
        (tmp / name).write_text(text, encoding="utf-8")
        return tmp / name

    return make


def _good_and_not_a_db(tmp: Path) -> Path:
    (tmp / "notdb.json").write_text('{"a": 1}')
    return _good(tmp)


def _no_json(tmp: Path) -> Path:
    (tmp / "notes").mkdir()
    (tmp / "notes" / "README.md").write_text("hello\n")
    return tmp / "notes"


def _truncated(tmp: Path) -> Path:
    text = json.dumps([sgd_dialogue("1_00001"), sgd_dialogue("1_00002")])
    return _write("cut.json", text[: len(text) * 3 // 4])(tmp)


MISTAKES = {  # name → (the input, extra options, what the line must say: {path} is the input, {tmp} its folder)
    "missing file": (lambda tmp: tmp / "nowhere.json", [], "{path}: no such file or directory"),
    "folder without JSON": (_no_json, [], "no dialogues in {path} (no dialogue file: looked for .json, .jsonl"),
    "a JSON number": (_write("n.json", "42\n"), [], "{path}: expected a list or an object of dialogues, found a number (42)"),
    "turns a string": (_turns_a_string, [], "{path}: dialogue 1_00001: turns: expected a list of turns, found 'hello'"),
    "--kb missing": (_good, ["--kb", "{tmp}/nokb.json"], "--kb {tmp}/nokb.json: no such KB file or directory"),
    "--kb not a DB": (_good_and_not_a_db, ["--kb", "{tmp}/notdb.json"], "--kb {tmp}/notdb.json: not a KB: expected"),
    "--report into no folder": (_good, ["--report", "{tmp}/nodir/r.jsonl"],
                                "--report {tmp}/nodir/r.jsonl: cannot write: no such directory"),
}


@pytest.mark.parametrize("name", MISTAKES)
def test_a_deliberate_mistake_is_one_prefixed_line_and_exit_2(tmp_path: Path, name: str) -> None:
    make, options, said = MISTAKES[name]
    path = make(tmp_path)
    line = one_error(invoke("validate", path, *(o.format(tmp=tmp_path) for o in options), "--quiet"))
    assert line.startswith(said.format(path=path, tmp=tmp_path)), line


def test_a_truncated_json_keeps_what_came_before_and_asks_if_it_is_cut(tmp_path: Path) -> None:
    path = _truncated(tmp_path)
    result = invoke("validate", path, "--json")
    line = one_error(result)
    assert line.startswith(f"{path}: invalid JSON in item 2 (1 read before it): ") and "is the file cut short?" in line
    assert " at (line" not in line  # Python's "starting at" reads cut off: "starting here"
    assert json.loads(result.stdout)["checked"] == 1


@pytest.mark.parametrize("option", [["--jobs", "0"], ["--jobs", "-1"], ["--constraints", "X9"]])
def test_a_bad_option_value_is_clicks_usage_error_shown_as_the_others(tmp_path: Path, option: list[str]) -> None:
    """Click's own usage errors stay as the CLI shows them (docs/cli.md): the error, then the
    usage line; exit 2, no traceback."""
    result = invoke("validate", _good(tmp_path), *option)
    assert result.exit_code == 2 and "Traceback" not in result.output
    error, usage = result.stderr.splitlines()
    assert error.startswith(f"{PREFIX}validate: Invalid value for '{option[0]}") and option[1] in error, error
    assert usage.startswith("usage: ")


def test_every_input_error_of_a_run_has_the_prefix_and_the_rest_is_checked(tmp_path: Path) -> None:
    """In a subprocess, as a user runs it: each unreadable path one prefixed line, each good one checked."""
    good, broken = _good(tmp_path), _turns_a_string(tmp_path / "b")
    number = _write("n.json", "42")(tmp_path)
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("CSP_CHECK_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "csp_check.cli.main", "validate", str(good), str(broken), str(number),
                           "--json"], capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith(PREFIX) for line in lines), proc.stderr
    assert json.loads(proc.stdout)["checked"] == 1


# --- 2. no dialogues: one shape for every reader, a file or a folder -----------------------------


@pytest.mark.parametrize("fmt", ["auto", *READERS])
@pytest.mark.parametrize("content", ["", "  \n", "[]", "{}"])
def test_an_empty_file_is_no_dialogues_for_every_reader(tmp_path: Path, fmt: str, content: str) -> None:
    why = {"": "the file is empty", "[]": "an empty JSON list", "{}": "an empty JSON object"}[content.strip()]
    for name in ("empty.json", "empty.jsonl", "empty.txt"):
        if name.endswith(".jsonl") and content.strip():  # a JSONL line `{}` is one broken dialogue (below)
            continue
        path = _write(name, content)(tmp_path)
        line = one_error(invoke("validate", path, "--format", fmt, "--kb", ROOT / "kb" / "restaurants.json"))
        assert line == f"no dialogues in {path} ({why})", (fmt, name, line)


def test_an_empty_object_on_a_jsonl_line_is_that_line_s_error_not_no_dialogues(tmp_path: Path) -> None:
    path = _write("d.jsonl", "{}\n")(tmp_path)
    assert one_error(invoke("validate", path)).startswith(f"{path}:1: ")


@pytest.mark.parametrize("fmt", ["auto", *READERS])
def test_an_empty_folder_is_no_dialogues_for_every_reader(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "empty").mkdir()
    assert one_error(invoke("validate", tmp_path / "empty", "--format", fmt)) == f"no dialogues in {tmp_path / 'empty'} (an empty folder)"


def test_a_jsonl_of_blank_lines_and_delexicalize_and_export_say_it_the_same_way(tmp_path: Path) -> None:
    blank = _write("blank.jsonl", "\n\n")(tmp_path)
    (tmp_path / "empty").mkdir()
    assert one_error(invoke("validate", blank)) == f"no dialogues in {blank} (the file is empty)"
    assert one_error(invoke("delexicalize", tmp_path / "empty")) == f"no dialogues in {tmp_path / 'empty'} (an empty folder)"
    assert one_error(invoke("export-mzn", blank, "--dialogue", "x")) == f"no dialogues in {blank} (the file is empty)"


def test_an_empty_input_beside_a_good_one_is_an_error_and_the_good_one_is_checked(tmp_path: Path) -> None:
    good, empty = _good(tmp_path), _write("empty.json", "")(tmp_path)
    for jobs in ("1", "2"):
        result = invoke("validate", good, empty, "--jobs", jobs, "--json")
        assert one_error(result) == f"no dialogues in {empty} (the file is empty)"
        assert json.loads(result.stdout)["checked"] == 1


@pytest.mark.parametrize("content", ["", "[]"])
def test_calls_says_no_dialogues_as_validate_does(tmp_path: Path, content: str) -> None:
    path = _write("ex.jsonl" if not content else "ex.json", content)(tmp_path)
    (tmp_path / "empty").mkdir()
    why = "the file is empty" if not content else "an empty JSON list"
    assert one_error(invoke("calls", path, "--schema", SCHEMA)) == f"no dialogues in {path} ({why})"
    assert one_error(invoke("calls", path)) == f"no dialogues in {path} ({why})"  # before asking for a schema
    assert one_error(invoke("calls", tmp_path / "empty", "--schema", SCHEMA)) == f"no dialogues in {tmp_path / 'empty'} (an empty folder)"
    assert one_error(invoke("benchmark", "citod", path)) == f"no dialogues in {path} ({why})"


def test_calls_input_errors_have_the_prefix(tmp_path: Path) -> None:
    path = _write("ex.jsonl", "42\n")(tmp_path)
    assert one_error(invoke("calls", path, "--schema", SCHEMA)).startswith(f"{path}:1: ")


# --- 3. the no-KB warning: one short line, before the summary, off with --quiet -------------------


def test_the_no_kb_warning_is_one_short_line_before_the_summary() -> None:
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "csp_check.cli.main", "validate", str(EXAMPLES / "dialogues.jsonl")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=120)  # fmt: skip
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1
    assert lines[0] == (f"warning: no --kb: C4-C6 not built for the 7 dialogues of {EXAMPLES / 'dialogues.jsonl'} "
                        "(no KB results in the data); give --kb FILE_OR_DIR (MultiWOZ: its db/ folder)")  # fmt: skip
    assert lines[1].startswith("7 dialogues: 7 checked") and not any(line.startswith("warning") for line in lines[1:])
    quiet = invoke("validate", EXAMPLES / "dialogues.jsonl", "--quiet")
    assert quiet.exit_code == 1 and quiet.stderr == ""


# --- 5. experiment: unreadable inputs are validate's lines; none readable is exit 2 --------------


def test_an_experiment_of_only_unreadable_inputs_says_each_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_text("", encoding="utf-8")
    (tmp_path / "cut.jsonl").write_text('{"id": "d1", "turns": [\n', encoding="utf-8")

    result = invoke("experiment", tmp_path / "empty.json", tmp_path / "cut.jsonl", "--no-plots", "--out", tmp_path / "out")

    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0] == f"{PREFIX}no dialogues in {tmp_path / 'empty.json'} (the file is empty)"
    assert lines[1].startswith(f"{PREFIX}{tmp_path / 'cut.jsonl'}:1: invalid JSON")
    assert lines[2:] == [f"{PREFIX}no dialogue could be read from {tmp_path / 'empty.json'}, {tmp_path / 'cut.jsonl'} "
                         "(2 unreadable inputs, named above); nothing was measured"]  # no usage block
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_an_experiment_with_an_unreadable_input_beside_good_ones_names_it_and_measures_the_rest(tmp_path: Path) -> None:
    good = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001"), sgd_dialogue("1_00002")])
    (tmp_path / "cut.jsonl").write_text('{"id": "d1", "turns": [\n', encoding="utf-8")

    result = invoke("experiment", good, tmp_path / "cut.jsonl", "--no-plots", "--out", tmp_path / "out")

    assert result.exit_code == 2, result.output  # measured, written, but not every input was read
    assert [line for line in result.stderr.splitlines() if "cut.jsonl" in line] == [
        f"{PREFIX}{tmp_path / 'cut.jsonl'}:1: invalid JSON at column 24 (the end of the line: is it cut short?): "
        "Expecting value"]  # fmt: skip
    assert result.stderr.splitlines()[-1] == f"{PREFIX}1 unreadable input, named above, left out; the tables measure the rest"
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [r["dialogue_id"] for r in rows] == ["1_00001", "1_00002"] and all(r["error"] is None for r in rows)


def test_drift_says_validate_s_no_kb_line_before_its_table_and_not_with_quiet(tmp_path: Path) -> None:
    corpus = EXAMPLES / "dialogues.jsonl"
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.run([sys.executable, "-m", "csp_check.cli.main", "drift", "--out", str(tmp_path / "a"),
                           "--corpus", str(corpus), "--corpus", str(corpus), "--no-plot"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, timeout=120)  # fmt: skip
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout
    assert lines[0] == (f"warning: no --kb: C4-C6 not built for the 14 dialogues of --corpus {corpus} and 1 more "
                        "corpus (no KB results in the data, every input); give --kb FILE_OR_DIR (MultiWOZ: its db/ folder)")
    assert lines[1].startswith("round") and not any(line.startswith("warning") for line in lines[1:])
    quiet = invoke("drift", "--out", tmp_path / "b", "--corpus", corpus, "--no-plot", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == ""


# --- 6. an empty file inside a folder of good files: one warning line, the rest read -------------


def _folder_with_empties(tmp: Path) -> Path:
    folder = tmp / "run"
    folder.mkdir()
    (folder / "good.jsonl").write_text((EXAMPLES / "dialogues.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "a_empty.json").write_text("", encoding="utf-8")
    (folder / "b_blank.jsonl").write_text("\n\n", encoding="utf-8")
    (folder / "c_list.json").write_text("[]", encoding="utf-8")
    return folder


def test_an_empty_file_in_a_folder_is_one_warning_line_and_the_good_files_decide_the_exit_code(tmp_path: Path) -> None:
    folder = _folder_with_empties(tmp_path)
    warned = [f"warning: {folder / 'a_empty.json'}: no dialogues (the file is empty)",
              f"warning: {folder / 'b_blank.jsonl'}: no dialogues (the file is empty)",
              f"warning: {folder / 'c_list.json'}: no dialogues (an empty JSON list)"]  # fmt: skip
    alone = invoke("validate", folder / "good.jsonl", "--quiet")

    for options in ([], ["--quiet"], ["--jobs", "2", "--quiet"], ["--json"]):
        result = invoke("validate", folder, *options)
        assert result.exit_code == alone.exit_code == 1, (options, result.output)
        lines = [line for line in result.stderr.splitlines() if "no --kb" not in line]
        assert lines == warned, options  # kept with --quiet: it is about the input, as the error lines are
    summary = invoke("validate", folder)
    assert summary.stdout.startswith("7 dialogues: 7 checked")
    delex = invoke("delexicalize", folder)
    assert delex.exit_code == 0 and delex.stderr.splitlines() == warned and len(delex.stdout.splitlines()) == 7


def test_an_empty_dialogues_file_of_an_sgd_split_is_one_warning_and_the_split_is_read(tmp_path: Path) -> None:
    split = tmp_path / "train"
    write_sgd(split, [sgd_dialogue("1_00001"), sgd_dialogue("1_00002")], name="dialogues_002.json")
    (split / "dialogues_001.json").write_text("  \n", encoding="utf-8")  # first: the split is still sniffed as SGD
    (split / "dialogues_003.json").write_text("[]", encoding="utf-8")
    warned = [f"warning: {split / 'dialogues_001.json'}: no dialogues (the file is empty)",
              f"warning: {split / 'dialogues_003.json'}: no dialogues (an empty JSON list)"]  # fmt: skip
    alone = invoke("validate", split / "dialogues_002.json", "--quiet")

    for options in (["--quiet"], ["--jobs", "2", "--quiet"], ["--format", "sgd", "--quiet"]):
        result = invoke("validate", split, *options)
        assert result.exit_code == alone.exit_code, (options, result.output)
        assert result.stderr.splitlines() == warned, options
    assert invoke("validate", split).stdout.startswith("2 dialogues: 2 checked")
    (split / "dialogues_002.json").write_text("", encoding="utf-8")
    assert one_error(invoke("validate", split)) == (f"no dialogues in {split} (every dialogue file in it is empty: "
                                                    "dialogues_001.json, dialogues_002.json, dialogues_003.json)")  # fmt: skip


def test_a_folder_of_only_empty_files_is_no_dialogues_and_exit_2(tmp_path: Path) -> None:
    folder = _folder_with_empties(tmp_path)
    (folder / "good.jsonl").unlink()
    assert one_error(invoke("validate", folder)) == (f"no dialogues in {folder} (every dialogue file in it is empty: "
                                                     "a_empty.json, b_blank.jsonl, c_list.json)")  # fmt: skip
