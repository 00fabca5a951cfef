"""What a new user met in everyday use (use25): usage errors in two lines, wrong-kind files named
once, a missing API-call field as an input error, drift's KB warning, the unknown-constraint list,
MiniZinc without deprecation warnings, an experiment that survives one broken dialogue."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.attacks import run_cli, sgd_folder
from support.data import SHARED_DATA as SHARED
from support.nlsi import SCHEMA_FILE, example
from support.sgd import sgd_dialogue, write_sgd

from csp_check.cli.main import main
from csp_check.constraint_ids import GROUPS
from csp_check.errors import UsageError
from csp_check.experiment import run as experiment_run
from csp_check.families import Family, instance, register, unregister
from csp_check.families.selection import dialogue_constraints, grouped_ids
from csp_check.models import ConstraintId
from csp_check.plugin.dialogues import check as plugin_check
from csp_check.run.runner import validate as run_validate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
KB = ROOT / "kb" / "restaurants.json"


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


# --- 2: a file of the wrong kind is one line naming what it looks like, exit 2 -------------------

def _sgd_file(folder: Path) -> Path:
    return sgd_folder(folder, 3)


def _nlsi_file(path: Path) -> Path:
    ex = example("find me a restaurant in San Jose", ["If I ask for restaurants, look for Italian ones."],
                 ['GetRestaurants(city="San Jose", cuisine="Italian")'], eid="e1")
    path.write_text(ex.model_dump_json() + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command, make, says", [
    (["benchmark", "citod"], _sgd_file, "this is not a CI-ToD file (it looks like SGD)"),
    (["benchmark", "citod"], lambda d: EXAMPLES / "dialogues.jsonl",
     "this is not a CI-ToD file (it looks like csp-check JSONL dialogues)"),
    (["benchmark", "citod"], lambda d: _nlsi_file(d / "ex.jsonl"), "this is not a CI-ToD file (it looks like NLSI examples)"),
    (["calls"], _sgd_file, "this is not an NLSI examples file (it looks like SGD)"),
    (["calls"], lambda d: EXAMPLES / "dialogues.jsonl",
     "this is not an NLSI examples file (it looks like csp-check JSONL dialogues)"),
    (["calls"], lambda d: EXAMPLES / "raw_dialogues.txt", "this is not an NLSI examples file (it looks like raw text dialogues)"),
], ids=["citod-sgd", "citod-jsonl", "citod-nlsi", "calls-sgd", "calls-jsonl", "calls-text"])
def test_a_file_of_another_kind_is_one_line(tmp_path: Path, command: list[str], make, says: str) -> None:
    path = make(tmp_path)
    result = CliRunner().invoke(main, [*command, str(path), *(["--schema", str(SCHEMA_FILE)] if command == ["calls"] else [])])

    assert result.exit_code == 2
    use = f"csp-check calls {path} --schema SCHEMA" if "NLSI examples)" in says else f"csp-check validate {path}"
    assert result.stderr.splitlines() == [f"csp-check: error: {path}: {says}; use `{use}`"]  # and which command reads it
    assert result.stdout == ""


@pytest.mark.skipif(not (SHARED / "multiwoz" / "val.json.zip").is_file(), reason="shared MultiWOZ absent")
def test_a_multiwoz_release_given_to_benchmark_citod_is_one_line() -> None:
    path = SHARED / "multiwoz" / "val.json.zip"
    result = CliRunner().invoke(main, ["benchmark", "citod", str(path)])

    assert (result.exit_code, result.stderr) == (2, f"csp-check: error: {path}: this is not a CI-ToD file (it looks like MultiWOZ); "
                                                   f"use `csp-check validate {path}`\n")


def test_the_files_of_the_right_kind_are_still_read(tmp_path: Path) -> None:
    good, bad = _nlsi_file(tmp_path / "ex.jsonl"), _sgd_file(tmp_path / "sgd")
    result = CliRunner().invoke(main, ["calls", str(bad), str(good), "--schema", str(SCHEMA_FILE)])

    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[0].startswith(f"csp-check: error: {bad}: this is not an NLSI examples file (it looks like SGD)")
    assert result.stdout.startswith("1 example: 1 consistent")


# --- 3: an example without the calls --field names is an input error, not a P3 violation ---------

def test_a_missing_calls_field_is_an_input_error_naming_file_example_and_field(tmp_path: Path) -> None:
    calls = ['GetRestaurants(city="San Jose")']
    without = example("find me a restaurant in San Jose", ["If I ask for restaurants, look for Italian ones."], calls, eid="e1")
    with_pred = without.model_copy(update={"example_id": "e2", "pred_api_calls": calls})
    path = tmp_path / "ex.jsonl"
    path.write_text(without.model_dump_json(exclude_none=True) + "\n" + with_pred.model_dump_json() + "\n")
    report = tmp_path / "r.jsonl"

    result = CliRunner().invoke(main, ["calls", str(path), "--schema", str(SCHEMA_FILE), "--field", "pred_api_calls",
                                       "--report", str(report)])  # fmt: skip

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"csp-check: error: {path}: example e1: pred_api_calls: missing: the example has no "
                                          "pred_api_calls field (no calls to check; they are not taken as empty)"]  # fmt: skip
    assert "P3" not in result.stdout and "violations by family: P4 1 (in 1 example)" in result.stdout
    first, second = (json.loads(line) for line in report.read_text().splitlines())
    assert (first["status"], first["violations"], first["errors"][0][:24]) == ("error", [], "pred_api_calls: missing:")
    assert second["status"] == "inconsistent" and [v["family"] for v in second["violations"]] == ["P4"]


# --- 4: drift --corpus without --kb says once, in validate's line, that C4-C6 were not built -----

def test_drift_corpus_without_kb_warns_once_that_kb_measures_are_skipped(tmp_path: Path) -> None:
    corpus = EXAMPLES / "dialogues.jsonl"

    bare = CliRunner().invoke(main, ["drift", "--out", str(tmp_path / "a"), "--corpus", str(corpus), "--no-plot"])
    with_kb = CliRunner().invoke(main, ["drift", "--out", str(tmp_path / "b"), "--corpus", str(corpus), "--kb", str(KB),
                                        "--no-plot"])  # fmt: skip
    own_kb = CliRunner().invoke(main, ["drift", "--out", str(tmp_path / "c"), "--corpus", str(sgd_folder(tmp_path / "s", 3)),
                                       "--no-plot"])  # fmt: skip

    assert bare.exit_code == with_kb.exit_code == own_kb.exit_code == 0
    warnings = [line for line in bare.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: no --kb: C4-C6 not built for the 7 dialogues of --corpus {corpus} (no KB results "
                        "in the data); give --kb FILE_OR_DIR (MultiWOZ: its db/ folder)"]  # validate's line
    assert "warning" not in with_kb.stderr and "warning" not in own_kb.stderr  # SGD carries its results


# --- 5: docs/cli.md's S1 examples are what the commands they show print ---------------------------

def _doc_blocks() -> list[tuple[list[str], list[str]]]:
    """The ``$ csp-check …`` blocks of docs/cli.md's S1 section: (arguments, lines after the ``…``)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split("## Which constraints", 1)[1].split("\n## ", 1)[0]
    blocks = []
    for block in re.findall(r"```text\n(\$ csp-check .*?)```", text, re.DOTALL):
        command, *lines = block.strip("\n").split("\n")
        blocks.append((command.split()[2:], [line for line in lines if line != "…"]))
    return blocks


@pytest.mark.skipif(not (SHARED / "sgd" / "dev").is_dir() or not (SHARED / "multiwoz" / "db").is_dir(),
                    reason="shared SGD / MultiWOZ absent")  # fmt: skip
@pytest.mark.parametrize("index", [0, 1], ids=["call", "omission"])
def test_the_s1_examples_of_the_docs_are_real_output(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    args, lines = _doc_blocks()[index]
    monkeypatch.chdir(ROOT)  # the paths are the docs', relative to the repository
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})

    assert result.exit_code in (0, 1), result.output
    printed = result.stdout.splitlines()
    start = printed.index(lines[0])
    assert printed[start : start + len(lines)] == lines


# --- 6: an unknown constraint lists every registered id, grouped ---------------------------------

def test_an_unknown_constraint_lists_every_registered_id_by_group() -> None:
    unknown = CliRunner().invoke(main, ["validate", str(EXAMPLES / "dialogues.jsonl"), "--constraints", "C1,Q7"])
    profile = CliRunner().invoke(main, ["validate", str(EXAMPLES / "dialogues.jsonl"), "--constraints", "p3"])

    assert unknown.exit_code == profile.exit_code == 2
    dialogue_ids = "linguistic C1, dialogic C2-C3, domain C4-C6, annotation S1-S2"
    assert unknown.stderr.splitlines()[0] == (
        "csp-check: error: validate: Invalid value for '--constraints': unknown constraint 'Q7'; the registered ones "
        f"are, for dialogues, {dialogue_ids}; for API calls (csp-check calls), profile P1-P6 (csp-check constraints "
        "describes them)")
    assert profile.stderr.splitlines()[0] == (
        "csp-check: error: validate: Invalid value for '--constraints': P3 is a profile family: it checks API "
        f"calls (csp-check calls), not dialogues; choose from {dialogue_ids}")


def test_the_python_api_and_the_plugin_say_what_the_cli_says() -> None:
    """One rule and one message for the CLI, :func:`csp_check.run.runner.validate` and the pytest
    plugin's ``check`` (:mod:`csp_check.families.selection`)."""
    from_cli = CliRunner().invoke(main, ["validate", str(EXAMPLES / "dialogues.jsonl"), "--constraints", "C1,Q7"])
    said = from_cli.stderr.splitlines()[0].split("Invalid value for '--constraints': ")[1]
    for call in (lambda: list(run_validate([EXAMPLES / "dialogues.jsonl"], constraints=["c1", "Q7"])),
                 lambda: plugin_check(EXAMPLES / "dialogues.jsonl", constraints=["C1", "Q7"])):  # fmt: skip
        with pytest.raises(UsageError) as raised:
            call()
        assert str(raised.value) == said
    with pytest.raises(UsageError, match="^P3 is a profile family: it checks API calls"):
        list(run_validate([EXAMPLES / "dialogues.jsonl"], constraints=["P3"]))
    assert dialogue_constraints("c6, C1 c6") == (ConstraintId("C6"), ConstraintId("C1"))


class _Own(Family):
    """A family of one's own in the annotation group (never built: only its id is listed)."""

    id, name, description, group = "X1", "own", "a family registered by a user", "annotation"

    def build(self, ctx) -> list:
        return []


def test_a_family_of_your_own_is_listed_in_its_group() -> None:
    register(_Own)
    try:
        result = CliRunner().invoke(main, ["validate", str(EXAMPLES / "dialogues.jsonl"), "--constraints", "Q7"])
    finally:
        unregister("X1")

    assert result.exit_code == 2 and "annotation S1-S2, X1; for API calls" in result.stderr
    assert grouped_ids(GROUPS) == ("linguistic C1, dialogic C2-C3, domain C4-C6, annotation S1-S2, profile P1-P6")


# --- 8: one broken dialogue never sinks an experiment run -------------------------------------

def _broken_second(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Three SGD dialogues; 1_00002's CSP names a variable it does not have (a builder bug), which
    the solver refuses."""
    path = write_sgd(tmp_path / "data", [sgd_dialogue("1_00001"), sgd_dialogue("1_00002"), sgd_dialogue("1_00003", 3)])
    prepare = experiment_run.prepare

    def broken(dialogue, *args):
        csp, delex, row = prepare(dialogue, *args)
        if dialogue.id == "1_00002":
            csp = csp.model_copy(update={"constraints": [*csp.constraints, instance("C2", variables=["x1", "x404"], turn=0)]})
        return csp, delex, row

    monkeypatch.setattr(experiment_run, "prepare", broken)
    return path


BROKEN = "InvalidCSP: dialogue 1_00002: C2 names unknown variable 'x404'"


def test_a_dialogue_whose_scoring_fails_is_an_error_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _broken_second(monkeypatch, tmp_path)
    said: list[str] = []

    result = experiment_run.run_experiment(experiment_run.ExperimentConfig(paths=[path], relexicalizers=("random",)),
                                           log=said.append)  # fmt: skip

    rows = {r.dialogue_id: r for r in result.dialogues}
    assert rows["1_00002"].error == f"scoring: {BROKEN}" and not rows["1_00002"].scores
    assert all(rows[i].error is None and set(rows[i].scores) == {"random"} for i in ("1_00001", "1_00003"))
    assert f"csp-check: error: {path}: dialogue 1_00002: internal error: scoring: {BROKEN} (left out of the tables)" in said


def test_a_broken_dialogue_in_the_experiment_command_is_named_kept_and_exit_2(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = _broken_second(monkeypatch, tmp_path)
    out = tmp_path / "out"

    result = CliRunner().invoke(main, ["experiment", str(path), "--no-plots", "--out", str(out)])

    assert result.exit_code == 2, result.output
    assert (f"csp-check: error: {path}: dialogue 1_00002: internal error: relexicalizing (csp): {BROKEN} "
            "(left out of the tables)"
            in result.stderr.splitlines())
    assert "csp-check: error: 1 of 3 dialogues could not be scored" in result.stderr
    rows = {r["dialogue_id"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert set(rows) == {"1_00001", "1_00002", "1_00003"} and rows["1_00002"]["error"] == f"relexicalizing (csp): {BROKEN}"
    assert all(rows[i]["error"] is None and set(rows[i]["scores"]) == {"random", "most-frequent", "csp"}
               for i in ("1_00001", "1_00003"))  # fmt: skip
    assert "2 dialogues (1 skipped with errors)" in (out / "tables.md").read_text()


# --- 7: the MiniZinc model itself warns of nothing; the count.mzn warning is Debian's Gecode's ----

def _minizinc(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(["minizinc", *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc not installed")
def test_the_exported_model_flattens_without_any_warning_and_solves_the_same(tmp_path: Path) -> None:
    ids = [json.loads(line)["id"] for line in (EXAMPLES / "dialogues.jsonl").read_text().splitlines() if line.strip()]
    for dialogue in ids:
        out = tmp_path / dialogue
        written = CliRunner().invoke(main, ["export-mzn", str(EXAMPLES / "dialogues.jsonl"), "--dialogue", dialogue,
                                            "--kb", str(KB), "--out", str(out)])  # fmt: skip
        assert written.exit_code == 0, written.output
        model, similar, data = (out / "consistency.mzn", out / "most_similar.mzn", out / f"{dialogue}.dzn")
        for top in (model, similar):
            strict = _minizinc("-Werror", "-c", "-G", "std", top, data, "-o", tmp_path / "flat.fzn")
            assert strict.returncode == 0 and strict.stderr == "", (dialogue, strict.stderr)  # the model: no warning
        for args in (("-a", model, data), (similar, data)):
            gecode, std = _minizinc("--solver", "gecode", *args), _minizinc("--solver", "gecode", "-G", "std", *args)
            assert gecode.returncode == std.returncode == 0 and gecode.stdout == std.stdout, dialogue
            assert std.stderr == "" and all("count.mzn" in line for line in gecode.stderr.splitlines() if line.strip())
