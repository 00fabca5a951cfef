"""What a new user meets first: named formats on folders, warnings, solver limits, repairs
shown, progress, and the wording of error messages (docs/cli.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.sgd import sgd_dialogue, write_sgd

from csp_check.cli.main import main
from csp_check.readers import READERS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
KB = ROOT / "kb" / "restaurants.json"
MWOZ = ROOT / "tests" / "fixtures" / "multiwoz"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def _folder_of(fmt: str, tmp_path: Path) -> Path:
    """A folder (inside another one) holding dialogue files of ``fmt`` and nothing a reader takes whole."""
    folder = tmp_path / fmt / "inner"
    folder.mkdir(parents=True)
    if fmt == "sgd":
        write_sgd(folder / "split", [sgd_dialogue("1_00001"), sgd_dialogue("1_00002", count=3)])
    elif fmt == "multiwoz22":
        shutil.copytree(MWOZ / "v22", folder / "v22")
    elif fmt == "multiwoz":
        shutil.copy(MWOZ / "data.json", folder / "data.json")
    elif fmt == "jsonl":
        shutil.copy(EXAMPLES / "dialogues.jsonl", folder / "a.jsonl")
    elif fmt == "text":
        shutil.copy(EXAMPLES / "raw_dialogues.txt", folder / "a.txt")
    elif fmt == "citod":
        citod = ROOT.parent / "shared" / "data" / "citod" / "calendar_dev.json"
        if not citod.is_file():
            pytest.skip("needs ../shared/data")
        shutil.copy(citod, folder / "calendar_dev.json")
    elif fmt == "unified":
        unified = ROOT.parent / "shared" / "data" / "convlab_unified" / "sgd_sample.json"
        if not unified.is_file():
            pytest.skip("needs ../shared/data")
        shutil.copy(unified, folder / "u.json")
    (folder / "LICENSE").write_text("not a dialogue\n")
    return tmp_path / fmt


@pytest.mark.parametrize("fmt", list(READERS))
def test_a_named_format_reads_a_folder_as_auto_does(fmt: str, tmp_path: Path) -> None:
    folder = _folder_of(fmt, tmp_path)
    kb = ["--kb", str(KB)] if fmt in ("text", "jsonl") else []
    auto = invoke("validate", str(folder), "--json", *kb)
    named = invoke("validate", str(folder), "--format", fmt, "--json", *kb)
    assert auto.exit_code in (0, 1), auto.output
    assert "Is a directory" not in named.output and "Is a directory" not in named.stderr
    assert named.exit_code == auto.exit_code, named.output
    strip = lambda out: out.split('"seconds"')[0]  # noqa: E731 - the timing differs
    assert strip(named.stdout) == strip(auto.stdout)
    assert '"checked": 0' not in named.stdout


def test_an_empty_folder_says_no_dialogue_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for fmt in ("auto", *READERS):
        result = invoke("validate", str(empty), "--format", fmt)
        assert result.exit_code == 2
        assert result.stderr == f"csp-check: error: no dialogues in {empty} (an empty folder)\n", result.stderr


def test_a_named_format_on_a_folder_of_another_format_names_what_it_holds(tmp_path: Path) -> None:
    folder = _folder_of("jsonl", tmp_path)
    result = invoke("validate", str(folder), "--format", "unified")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"csp-check: error: no dialogues in {folder} (no unified dialogue file; ")
    assert "1 jsonl" in result.stderr


# --- no KB: C4-C6 not built -----------------------------------------------------------------------
def test_without_kb_a_format_with_no_kb_warns_that_c4_c6_were_not_built() -> None:
    result = invoke("validate", str(MWOZ / "data.json"))
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: no --kb")]
    assert len(warnings) == 1, result.stderr
    import json

    as_json = invoke("validate", str(MWOZ / "data.json"), "--json")
    assert as_json.stderr == "" and json.loads(as_json.stdout)["warnings"] == warnings  # --json: in the object
    assert str(MWOZ / "data.json") in warnings[0] and "C4-C6" in warnings[0] and "--kb" in warnings[0]
    assert len(warnings[0]) < 250 and "no KB results in the data" in warnings[0]  # short: the rest is in docs/cli.md
    with_kb = invoke("validate", str(MWOZ / "data.json"), "--kb", str(ROOT.parent / "shared" / "data" / "multiwoz" / "db"))
    if (ROOT.parent / "shared" / "data" / "multiwoz" / "db").is_dir():
        assert "warning: no --kb" not in with_kb.stderr


def test_data_with_its_own_kb_or_without_kb_constraints_gets_no_warning(tmp_path: Path) -> None:
    sgd = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001")])
    assert "warning" not in invoke("validate", str(sgd)).stderr  # SGD: service_results
    assert "warning" not in invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--constraints", "C1,C2,C3").stderr
    assert "warning" not in invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--quiet").stderr


def test_the_warning_names_only_the_files_without_a_kb(tmp_path: Path) -> None:
    sgd = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001")])
    result = invoke("validate", str(sgd), str(EXAMPLES / "dialogues.jsonl"))
    warning = next(line for line in result.stderr.splitlines() if line.startswith("warning: no --kb"))
    assert "dialogues.jsonl" in warning and "sgd/dialogues_001.json" not in warning and "every input" not in warning


# --- solver limits --------------------------------------------------------------------------------
SGD_DEV = ROOT.parent / "shared" / "data" / "sgd" / "dev"


def wide_dialogue(n: int = 12) -> dict:
    """One system turn offering ``n`` different names: C3 makes them pairwise different, so the
    CSP has n! solutions (12! = 479,001,600): no count of them finishes in a fraction of a second."""
    names = [f"place{chr(97 + i)}" for i in range(n)]
    utterance = "I have " + ", ".join(names) + "."
    acts = [{"role": "offer", "act": "offer", "domain": "restaurant", "slot": "name", "value": name,
             "canonical": name, "span": {"start": utterance.index(name), "end": utterance.index(name) + len(name)}}
            for name in names]  # fmt: skip
    return {"id": "wide", "domains": ["restaurant"], "turns": [
        {"index": 0, "speaker": "user", "utterance": "Any restaurant.", "acts": []},
        {"index": 1, "speaker": "system", "utterance": utterance, "acts": acts}]}  # fmt: skip


def test_a_solver_time_limit_never_changes_verdicts_and_the_lines_agree(tmp_path: Path) -> None:
    import json

    data = tmp_path / "d.jsonl"
    lines = [line for line in (EXAMPLES / "dialogues.jsonl").read_text().splitlines() if line.strip()]
    data.write_text("\n".join([json.dumps(wide_dialogue()), *lines]) + "\n")
    plain = invoke("validate", str(data), "--kb", str(KB), "--json")
    limited = invoke("validate", str(data), "--kb", str(KB), "--json", "--count-solutions", "--cap", str(10**9),
                     "--time-limit", "0.2", "--report", str(tmp_path / "r.jsonl"))  # fmt: skip
    a, b = json.loads(plain.stdout), json.loads(limited.stdout)
    assert limited.exit_code == plain.exit_code == 1
    for key in ("checked", "consistent", "inconsistent", "unknown", "gca"):
        assert a[key] == b[key], key
    solver = b["solver"]
    assert solver["timed_out"] >= 1  # the wide dialogue's count hit the limit, and it is said
    reports = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    wide = next(r for r in reports if r["dialogue_id"] == "wide")
    assert wide["extra"]["solver"]["count_complete"] is False
    unknown = sum(r["extra"]["solver"]["status"] == "unknown" for r in reports)
    assert solver["status"].get("unknown", 0) == unknown
    incomplete = sum(r["extra"]["solver"]["count_complete"] is False for r in reports)
    assert solver["groups"]["unknown"]["dialogues"] == incomplete == solver["count_incomplete"] >= 1
    text = invoke("validate", str(data), "--kb", str(KB), "--count-solutions", "--cap", str(10**9), "--time-limit", "0.2")
    assert "unknown (dialogue time limit)" not in text.stdout
    noun = "dialogue" if solver["timed_out"] == 1 else "dialogues"
    assert f"{solver['timed_out']} {noun} hit the solver time limit" in text.stdout


def test_a_count_stopped_at_a_small_cap_is_at_least_cap_not_unknown(tmp_path: Path) -> None:
    sgd = write_sgd(tmp_path / "sgd", [sgd_dialogue(f"1_{i:05d}") for i in range(1, 4)])
    result = invoke("validate", str(sgd), "--count-solutions", "--cap", "1")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines() if line.strip().startswith(("≥", "unknown"))]
    assert rows and rows[0][:3] == ["≥", "1", "3"], result.stdout


# --- repairs shown ------------------------------------------------------------------------------
def test_repair_prints_each_edit_in_the_terminal() -> None:
    result = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB), "--repair")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "Repairs (minimal edits that make the dialogue consistent), 4 of 4 dialogues:" in out
    section = out.split("Repairs (")[1]
    assert "inconsistent-amount" in section and "turn 1  restaurant.choice  [10:15] 'three': 3 → 2" in section
    assert "turn 1  restaurant.food  [34:42] 'lebanese': 'lebanese' → 'spanish'" in section
    assert section.count(" → ") == 5  # every edit of the summary's count ("5 edits in 4 dialogues"; one for review)
    assert "repair: 5 edits in 4 dialogues" in out
    fewer = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB), "--repair", "--show", "1")
    assert "1 of 4 dialogues" in fewer.stdout and "… 3 more" in fewer.stdout


# --- progress bars ------------------------------------------------------------------------------
def run_on_a_terminal(*args: str, timeout: float = 240) -> tuple[int, str, str]:
    """Run ``csp-check ARGS`` with stderr on a pseudo-terminal (as a user sees it): exit code,
    stdout, and everything written to the terminal (ANSI codes removed)."""
    import os
    import pty
    import re
    import subprocess
    import sys
    import threading

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "200", "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "csp_check.cli.main", *args], stdout=subprocess.PIPE, stderr=slave,
                            stdin=subprocess.DEVNULL, env=env, cwd=ROOT)  # fmt: skip
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    stdout, _ = proc.communicate(timeout=timeout)
    reader.join(timeout=10)
    os.close(master)
    terminal = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", b"".join(chunks).decode("utf-8", "replace"))
    return proc.returncode, stdout.decode(), terminal


def _two_files(tmp_path: Path) -> Path:
    folder = tmp_path / "sgd"
    write_sgd(folder, [sgd_dialogue("1_00001"), sgd_dialogue("1_00002", count=3)], name="dialogues_001.json")
    write_sgd(folder, [sgd_dialogue("1_00003")], name="dialogues_002.json")
    return folder


def test_validate_shows_a_bar_with_totals_and_eta_on_a_terminal(tmp_path: Path) -> None:
    code, out, terminal = run_on_a_terminal("validate", str(_two_files(tmp_path)))
    assert code == 1 and "3 dialogues: 3 checked" in out
    assert "checking" in terminal and "/2 files" in terminal and "ETA" in terminal, terminal
    code, _, terminal = run_on_a_terminal("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB))
    assert "/7 dialogues" in terminal and "ETA" in terminal, terminal  # JSONL: the dialogues are counted first


def test_no_bar_when_quiet_or_piped(tmp_path: Path) -> None:
    folder = _two_files(tmp_path)
    _, _, terminal = run_on_a_terminal("validate", str(folder), "--quiet")
    assert "checking" not in terminal and "files" not in terminal
    _, _, terminal = run_on_a_terminal("delexicalize", str(folder), "--out", str(tmp_path / "d.jsonl"), "--quiet")
    assert "delexicalizing" not in terminal
    piped = invoke("delexicalize", str(folder), "--out", str(tmp_path / "e.jsonl"))
    assert piped.exit_code == 0 and piped.stderr == ""


def test_delexicalize_and_experiment_show_bars(tmp_path: Path) -> None:
    folder = _two_files(tmp_path)
    code, _, terminal = run_on_a_terminal("delexicalize", str(folder), "--out", str(tmp_path / "d.jsonl"))
    assert code == 0 and "delexicalizing" in terminal and "/2 files" in terminal, terminal
    assert len((tmp_path / "d.jsonl").read_text().splitlines()) == 3
    code, _, terminal = run_on_a_terminal("experiment", str(folder), "--no-plots", "--out", str(tmp_path / "x"))
    assert code == 0, terminal
    for stage in ("reading", "building CSPs", "relexicalizing (csp)", "scoring"):
        assert stage in terminal, terminal
    assert "/3 dialogues" in terminal and "/2 files" in terminal and "ETA" in terminal


def test_calls_shows_a_bar_out_of_the_examples(tmp_path: Path) -> None:
    if not SGD_DEV.is_dir():
        pytest.skip("needs ../shared/data")
    examples = tmp_path / "n.jsonl"
    assert invoke("nlsi", "build", str(SGD_DEV), "--out", str(examples), "--limit", "20").exit_code == 0
    code, out, terminal = run_on_a_terminal("calls", str(examples))
    assert "20 examples" in out
    assert "checking calls" in terminal and "/20 examples" in terminal and "ETA" in terminal, terminal
    _, _, terminal = run_on_a_terminal("calls", str(examples), "--quiet")
    assert "checking calls" not in terminal


def test_delexicalize_help_lists_only_options_it_uses() -> None:
    result = invoke("delexicalize", "--help")
    assert "--constraints" not in result.stdout and "--format" in result.stdout and "--kb" in result.stdout
    assert invoke("delexicalize", str(EXAMPLES / "dialogues.jsonl"), "--constraints", "C1").exit_code == 2


# --- messages ---------------------------------------------------------------------------------------
def test_a_named_format_on_a_jsonl_file_is_a_clear_error() -> None:
    for fmt in ("sgd", "multiwoz", "multiwoz22", "unified", "text"):
        result = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--format", fmt)
        assert result.exit_code == 2
        assert f"--format {fmt} does not fit this content, which looks like jsonl (use --format jsonl" in result.stderr


def test_malformed_sgd_is_said_in_our_words_with_file_dialogue_and_field(tmp_path: Path) -> None:
    turns_as_strings = {"dialogue_id": "1_00001", "services": ["Restaurants_1"], "turns": ["hello"]}
    frames_as_strings = sgd_dialogue("1_00002")
    frames_as_strings["turns"][1]["frames"] = ["x"]
    action_as_list = sgd_dialogue("1_00003")
    action_as_list["turns"][0]["frames"][0]["actions"][1] = ["INFORM"]
    path = write_sgd(tmp_path / "sgd", [turns_as_strings, frames_as_strings, action_as_list, sgd_dialogue("1_00004")])
    result = invoke("validate", str(path))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert f"csp-check: error: {path}: dialogue 1_00001: turns[0]: expected an object, found a string" in lines
    assert f"csp-check: error: {path}: dialogue 1_00002: turns[1].frames[0]: expected an object, found a string" in lines
    assert f"csp-check: error: {path}: dialogue 1_00003: turns[0].frames[0].actions[1]: expected an object, found a list" in lines
    messages = result.stderr.replace(str(path), "FILE")
    assert "indices" not in messages and "malformed" not in messages
    assert "1 checked" in result.stdout  # the fourth is still checked


def test_jsonl_errors_give_the_real_column_and_our_words(tmp_path: Path) -> None:
    import json

    good = json.loads((EXAMPLES / "dialogues.jsonl").read_text().splitlines()[0])
    bad_span = json.loads(json.dumps(good))
    bad_span["id"] = "bad-span"
    bad_span["turns"][0]["acts"][0]["span"]["start"] = True
    bad_turn = {"id": "bad-turn", "turns": [1]}
    path = tmp_path / "d.jsonl"
    path.write_text("\n".join([json.dumps(good), '{"id": "cut", "turns": [', json.dumps(bad_span),
                               json.dumps(bad_turn), '{"id": "x" "turns": []}']) + "\n")  # fmt: skip
    result = invoke("validate", str(path))
    lines = result.stderr.splitlines()
    assert f"csp-check: error: {path}:2: invalid JSON at column 25 (the end of the line: is it cut short?): Expecting value" in lines
    assert (f"csp-check: error: {path}:3: dialogue bad-span: turns[0].acts[0].span.start: expected an integer (a character offset "
            "into the utterance), found true") in lines  # fmt: skip
    assert f"csp-check: error: {path}:4: dialogue bad-turn: turns[0]: expected an object, found 1" in lines
    assert f"csp-check: error: {path}:5: invalid JSON at column 12: Expecting ',' delimiter" in lines
    assert "Input should" not in result.stderr and "column 1:" not in result.stderr


def test_kb_errors_name_the_path_once(tmp_path: Path) -> None:
    broken = tmp_path / "kb.json"
    broken.write_text("{\n")
    for kb in (broken, tmp_path / "missing.json", tmp_path):
        result = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(kb))
        assert result.exit_code == 2
        assert result.stderr.count(str(kb)) == 1, result.stderr


def test_install_hints_are_the_readme_s() -> None:
    import re

    from csp_check.install import MINIZINC, pip_extra

    readme = (ROOT / "README.md").read_text()
    assert pip_extra("solvers") in readme and MINIZINC in readme
    for extra in ("llm", "plots", "solvers", "bm25", "all"):
        assert pip_extra(extra) == f'pip install -e ".[{extra}]"'
    source = "\n".join(p.read_text() for p in (ROOT / "csp_check").rglob("*.py") if p.name != "install.py")
    assert not re.search(r"pip install '?csp-check", source)  # the old hint, which pip cannot install
    assert "apt-get install minizinc" not in source


def test_cap_and_time_limit_without_their_operation_are_usage_errors() -> None:
    cap = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--cap", "5")
    assert cap.exit_code == 2 and "--cap applies to --count-solutions" in cap.stderr
    limit = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--time-limit", "3")
    assert limit.exit_code == 2 and "--time-limit applies to solver calls" in limit.stderr
    ok = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB), "--count-solutions", "--cap", "5")
    assert ok.exit_code == 1


def test_split_on_a_zip_reads_the_lists_inside_it_and_names_them_right(tmp_path: Path) -> None:
    import zipfile

    release = tmp_path / "MultiWOZ_2.1.zip"
    with zipfile.ZipFile(release, "w") as z:
        z.write(MWOZ / "data.json", "MultiWOZ_2.1/data.json")
        z.writestr("MultiWOZ_2.1/valListFile.txt", "SNG90001.json\n")
        z.writestr("MultiWOZ_2.1/testListFile.txt", "PMUL9003.json\n")
    val = invoke("validate", str(release), "--split", "val", "--json")
    assert '"dialogues": 1' in val.stdout, val.output
    train = invoke("validate", str(release), "--split", "train", "--json")
    assert '"dialogues": 2' in train.stdout
    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(bare, "w") as z:
        z.write(MWOZ / "data.json", "data.json")
    result = invoke("validate", str(bare), "--split", "test")
    assert result.exit_code == 2
    assert (f"{bare}: --split test needs the release's testListFile.txt: not inside the zip beside data.json "
            f"({bare}:testListFile.txt) nor beside the zip ({tmp_path / 'testListFile.txt'})") in result.stderr  # fmt: skip
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(MWOZ / "data.json", plain / "data.json")
    result = invoke("validate", str(plain / "data.json"), "--split", "test")
    assert f"{plain / 'testListFile.txt'}: --split test needs the release's testListFile.txt beside data.json" in result.stderr


# --- the README as a new user reads it ------------------------------------------------------------
def _commands(text: str) -> list[str]:
    """The ``csp-check …`` command lines of the fenced bash blocks of a markdown text (comments cut)."""
    import re

    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("csp-check ") and "..." not in line and "[" not in line:
                commands.append(line)
    return commands


def test_the_readme_example_output_is_what_the_command_prints() -> None:
    import re

    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```text\n\$ (csp-check [^\n]+)\n(.*?)```", readme, re.S)
    assert block is not None
    command, shown = block.group(1).split()[1:], block.group(2).splitlines()
    result = invoke(*command)
    assert result.exit_code == 1  # "it exits 1: three of the six dialogues are inconsistent on purpose"
    out = [re.sub(r"  \(\d+\.\d s, [\d,]+ dialogues/s\)$", "", line).rstrip() for line in result.stdout.splitlines()]
    position = 0
    for line in shown:
        if line.strip() == "...":
            continue
        assert line.rstrip() in out[position:], (line, result.stdout)
        position = out.index(line.rstrip(), position) + 1


def test_the_readme_commands_run_and_their_outputs_are_ignored_by_git(tmp_path: Path) -> None:
    import re
    import shlex
    import subprocess

    texts = [(ROOT / "README.md").read_text(), *(p.read_text() for p in (ROOT / "docs").glob("*.md"))]
    commands = [c for text in texts for c in _commands(text)]
    written = {m.group(2) for c in commands for m in re.finditer(r"--(out|report) (\S+)", c)}
    written = {w for w in written if not w.startswith(("/", "FILE", "DIR"))}
    assert {"r.jsonl", "delex.jsonl", "mzn/", "dev.nlsi.jsonl"} <= written
    if (ROOT / ".git").exists():
        also = {w.removesuffix(".jsonl") + ".schema.json" for w in written if w.endswith(".nlsi.jsonl")}
        for path in sorted(written | also | {".r.jsonl.x1y2.part"}):
            ignored = subprocess.run(["git", "check-ignore", "-q", path.rstrip("/") + ("/x" if path.endswith("/") else "")],
                                     cwd=ROOT, capture_output=True)  # fmt: skip
            assert ignored.returncode == 0, f"{path} (written by a README / docs command) is not in .gitignore"
    shared = ROOT.parent / "shared" / "data"
    readme_commands = _commands(texts[0])
    assert len(readme_commands) >= 6
    for command in readme_commands:
        if "../shared/data/sgd" in command and "--vca" in command:
            continue  # the solver run over SGD dev: ~15 s, its figures are checked by the README's benchmark lines
        if "../shared" in command and not shared.is_dir():
            continue
        if re.search(r" /\w", command):  # a cluster's paths (/data/corpus/): not on this machine
            continue
        args = shlex.split(re.sub(r"--(out|report) (\S+)", lambda m: f"--{m.group(1)} {tmp_path / m.group(2)}", command))
        result = invoke(*args[1:])
        assert result.exit_code in (0, 1), (command, result.output)
        assert "Traceback" not in result.output


def test_calls_schema_errors_name_the_schema_once_with_line_and_column(tmp_path: Path) -> None:
    examples = tmp_path / "n.jsonl"
    examples.write_text('{"example_id": "e1"}\n')
    not_json = invoke("calls", str(examples), "--schema", str(EXAMPLES / "dialogues.jsonl"))
    assert not_json.exit_code == 2
    assert f"--schema {EXAMPLES / 'dialogues.jsonl'}: invalid JSON at line 2, column 1: Extra data" in not_json.stderr
    wrong = tmp_path / "s.json"
    wrong.write_text("[1]")
    result = invoke("calls", str(examples), "--schema", str(wrong))
    assert result.exit_code == 2 and result.stderr.count(str(wrong)) == 1, result.stderr


def test_commands_documented_with_an_exit_code_exit_with_it() -> None:
    import re
    import shlex

    checked = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "examples").glob("*.md")), *sorted((ROOT / "docs").glob("*.md"))]:
        for block in re.findall(r"```bash\n(.*?)```", doc.read_text(), re.S):
            for line in block.splitlines():
                said = re.search(r"#\s*exits (\d)", line)
                command = line.split("#")[0].strip()
                if not said or not command.startswith("csp-check ") or "--out" in command or "--report" in command:
                    continue
                if "../shared" in command and not (ROOT.parent / "shared" / "data").is_dir():
                    continue
                result = invoke(*shlex.split(command)[1:])
                assert result.exit_code == int(said.group(1)), (doc.name, command, result.output)
                checked += 1
    assert checked >= 3


def test_a_kb_of_other_domains_is_named(tmp_path: Path) -> None:
    """--kb that gives no dialogue a C4-C6 instance: a warning naming both sides' domains."""
    other = tmp_path / "hotels.json"
    other.write_text('{"hotel": [{"name": "acorn guest house", "area": "north"}]}', encoding="utf-8")
    result = invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(other))
    assert "KB's domains are hotel; the dialogues' domains are restaurant" in result.stderr, result.stderr
    assert "KB constraint" not in invoke("validate", str(EXAMPLES / "dialogues.jsonl"), "--kb", str(KB)).stderr


def test_delexicalize_says_when_there_are_no_dialogues(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    result = invoke("delexicalize", str(empty), "--out", str(tmp_path / "d.jsonl"))
    assert result.exit_code == 2 and result.stderr == f"csp-check: error: no dialogues in {empty} (the file is empty)\n", result.output
    assert invoke("delexicalize", str(EXAMPLES / "dialogues.jsonl"), "--out", str(tmp_path / "e.jsonl")).exit_code == 0


def test_experiment_names_the_input_domains_for_a_missing_domain(tmp_path: Path) -> None:
    """A mistyped --domain (or the default on data of other domains) lists the input's services."""
    source = write_sgd(tmp_path / "sgd", [sgd_dialogue("1_00001"), sgd_dialogue("1_00002", count=3)])
    result = invoke("experiment", str(source), "--domain", "Restaurant_1", "--no-plots", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "the input's domains (services): Restaurants_1 (2)" in result.output, result.output
    result = invoke("experiment", str(EXAMPLES / "dialogues.jsonl"), "--no-plots", "--out", str(tmp_path / "out2"))
    assert result.exit_code == 2 and "no Restaurants_1 dialogues" in result.output and "restaurant (7)" in result.output


def test_nlsi_build_says_it_needs_sgd(tmp_path: Path) -> None:
    result = invoke("nlsi", "build", str(EXAMPLES / "dialogues.jsonl"), "--out", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2 and "nlsi build reads SGD" in result.stderr and "Errno" not in result.output
    lonely = write_sgd(tmp_path / "nosch", [sgd_dialogue("1_00001")])  # no schema.json beside it
    result = invoke("nlsi", "build", str(lonely), "--out", str(tmp_path / "y.jsonl"))
    assert result.exit_code == 2 and "no schema.json in" in result.stderr
    assert "../shared/docs/api-call-spec.md" in invoke("nlsi", "--help").output


@pytest.mark.parametrize("show", [0, 1])
def test_every_annotation_defect_is_listed_whatever_show_says(show: int) -> None:
    """The defect heading never stands alone and never counts more defects than it lists."""
    from rich.console import Console

    from csp_check.models import DialogueReport, Status
    from csp_check.output.console import render_summary
    from csp_check.score.corpus import CorpusSummary

    summary = CorpusSummary(constraints=["C1"], keep=max(show, 10))
    for i in range(3):
        summary.add(DialogueReport(dialogue_id=f"D{i}", status=Status.CONSISTENT, defects=[f"log[{i}].span_info[0]: words end before they start"]))
    console = Console(record=True, width=200)
    render_summary(summary, console, show=show)
    text = console.export_text()
    assert "3 annotation defects skipped" in text and all(f"D{i}: log[{i}]" in text for i in range(3)), text
    many = CorpusSummary(constraints=["C1"], keep=2)
    for i in range(5):
        many.add(DialogueReport(dialogue_id=f"D{i}", status=Status.CONSISTENT, defects=["x: y"]))
    console = Console(record=True, width=200)
    render_summary(many, console, show=show)
    assert "first 2 shown" in console.export_text()
