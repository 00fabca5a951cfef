"""Reliability (docs/cli.md "Report file", "Interrupts", "Resuming a run"): the report file never destroys data, output failures are one line, interrupts are
clean (exit 130, one line, a valid partial report, no process left), ``--resume`` finishes an
interrupted run as if it had not been interrupted, long dialogues cost near-linear time and
a per-dialogue time limit, strict span types."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import attacks
from support import fuzzing as fz

from csp_check.cli.main import main
from csp_check.run import runner

ROOT = Path(__file__).resolve().parents[1]


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def sgd_corpus(directory: Path, n: int, name: str = "dialogues_001.json") -> Path:
    """``n`` small SGD dialogues, every third inconsistent."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    dialogues = [fz.sgd_dialogue(f"1_{i:05d}", 3 if i % 3 == 0 else 2) for i in range(1, n + 1)]
    path.write_text(json.dumps(dialogues), encoding="utf-8")
    return path


def lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


# --- 1. the report file never destroys data ----------------------------------------------------


@pytest.mark.parametrize("fmt", fz.FORMATS)
def test_report_naming_an_input_is_refused_and_the_input_kept(tmp_path: Path, fmt: str) -> None:
    corpus = fz.corpora()[fmt]
    main_bytes, _ = fz.serialise(corpus, corpus.items)
    path = fz.write(corpus, tmp_path, main_bytes)
    for target in [path, *(tmp_path / name for name in corpus.extra)]:
        before = target.read_bytes()
        result = invoke("validate", str(path), "--report", str(target), *[str(tmp_path / a) if a.endswith(".json") else a for a in corpus.args])
        assert result.exit_code == 2
        assert len(lines(result)) == 1 and lines(result)[0].startswith(f"csp-check: error: --report {target}")
        assert target.read_bytes() == before


def test_report_inside_an_input_directory_is_refused(tmp_path: Path) -> None:
    sgd_corpus(tmp_path / "corpus", 3)
    result = invoke("validate", str(tmp_path / "corpus"), "--report", str(tmp_path / "corpus" / "r.jsonl"))
    assert result.exit_code == 2 and "inside the input directory" in result.stderr
    assert not (tmp_path / "corpus" / "r.jsonl").exists()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(content=st.one_of(st.binary(min_size=1, max_size=200), st.sampled_from([b"\n\x00", b"\n\n{}", b' \n{"dialogue_id": 1}'])).filter(lambda b: b.strip()))
def test_an_existing_file_that_is_no_report_is_never_overwritten(tmp_path_factory, content: bytes) -> None:
    tmp = tmp_path_factory.mktemp("r")
    path = sgd_corpus(tmp / "c", 2)
    target = tmp / "notes.jsonl"
    target.write_bytes(content)
    result = invoke("validate", str(path), "--report", str(target), "--quiet")
    try:
        first = json.loads(next(line for line in content.split(b"\n") if line.strip()))
        is_report = isinstance(first, dict) and {"dialogue_id", "status"} <= set(first)
    except ValueError:
        is_report = False
    if is_report:
        assert result.exit_code == 1
    else:
        assert result.exit_code == 2 and len(lines(result)) == 1 and "not a csp-check report" in result.stderr
        assert target.read_bytes() == content


def test_a_previous_report_is_replaced_whole_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    path = sgd_corpus(tmp_path / "c", 5)
    report = tmp_path / "r.jsonl"
    assert invoke("validate", str(path), "--report", str(report), "--quiet").exit_code == 1
    first = report.read_text()
    assert invoke("validate", str(path), "--report", str(report), "--quiet").exit_code == 1
    assert report.read_text() == first and len(first.splitlines()) == 5
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


# --- 6. output failures --------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["/dev/full", "{tmp}", "{tmp}/missing/r.jsonl"])
def test_an_unwritable_report_is_one_line_and_exit_2(tmp_path: Path, target: str) -> None:
    path = sgd_corpus(tmp_path / "c", 3)
    if target == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    result = invoke("validate", str(path), "--report", target.format(tmp=tmp_path), "--quiet")
    assert result.exit_code == 2
    assert len(lines(result)) == 1 and lines(result)[0].startswith("csp-check: error: --report")
    assert "Usage:" not in result.output + result.stderr


# --- 10. --resume ---------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(cut=st.integers(0, 12), partial=st.booleans(), jobs=st.sampled_from([1, 2]))
def test_resume_finishes_a_cut_report_as_one_uninterrupted_run(tmp_path_factory, monkeypatch, cut: int, partial: bool, jobs: int) -> None:
    tmp = tmp_path_factory.mktemp("resume")
    path = sgd_corpus(tmp / "c", 12)
    (tmp / "c" / "broken.jsonl").write_text('{"id": "x", "turns": 3}\n')  # an error line too
    inputs = [str(path), str(tmp / "c" / "broken.jsonl")]
    whole = tmp / "whole.jsonl"
    full = invoke("validate", *inputs, "--report", str(whole), "--json")
    report_lines = whole.read_text().splitlines(keepends=True)
    cut_report = tmp / "cut.jsonl"
    cut_report.write_text("".join(report_lines[:cut]) + (report_lines[cut][:25] if partial and 0 < cut < len(report_lines) else ""))
    checked = []
    original = runner.check_one

    def counting(dialogue, settings):
        checked.append(dialogue.id)
        return original(dialogue, settings)

    monkeypatch.setattr(runner, "check_one", counting)
    resumed = invoke("validate", *inputs, "--report", str(cut_report), "--json", "--resume", "--jobs", str(jobs))
    assert resumed.exit_code == full.exit_code == 2
    assert cut_report.read_text() == whole.read_text()
    summary = {k: v for k, v in json.loads(resumed.stdout).items() if k != "seconds"}
    assert summary == {k: v for k, v in json.loads(full.stdout).items() if k != "seconds"}
    if jobs == 1:
        assert len(checked) == max(0, 12 - cut)  # the dialogues reported before are not checked again


def test_resume_needs_a_report(tmp_path: Path) -> None:
    result = invoke("validate", str(sgd_corpus(tmp_path / "c", 1)), "--resume")
    assert result.exit_code == 2 and len(lines(result)) == 1 and "--resume needs --report" in result.stderr


# --- 7. long dialogues and the per-dialogue time limit ----------------------------------------


def test_cost_is_near_linear_in_turns(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import gc

    from long_dialogues import measure

    gc.collect()
    gc.disable()  # the algorithm's cost, not the collector's (which grows with the live objects)
    try:
        small = min(measure(1000, 1, tmp_path)[1] for _ in range(2))
        variables, big, status = measure(8000, 1, tmp_path)
    finally:
        gc.enable()
    assert status == "consistent" and variables == 16000
    assert big / small < 8 * 2, (small, big)  # 8x the turns; quadratic would be 64x


_default_check = runner.default_check


def _slow_check(dialogue, settings):
    if dialogue.id.endswith("2"):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # a check that would hang
            pass
    return _default_check(dialogue, settings)


def test_dialogue_time_limit_marks_a_hanging_dialogue_unknown(tmp_path: Path, monkeypatch) -> None:
    path = sgd_corpus(tmp_path / "c", 4)
    monkeypatch.setattr(runner, "default_check", _slow_check)
    report = tmp_path / "r.jsonl"
    start = time.monotonic()
    result = invoke("validate", str(path), "--report", str(report), "--dialogue-time-limit", "0.5", "--quiet")
    assert time.monotonic() - start < 20
    statuses = {r["dialogue_id"]: r for r in map(json.loads, report.read_text().splitlines())}
    assert statuses["1_00002"]["status"] == "unknown"
    assert "dialogue time limit of 0.5 s" in statuses["1_00002"]["error"]
    assert [statuses[i]["status"] for i in ("1_00001", "1_00003", "1_00004")] == ["consistent", "inconsistent", "consistent"]
    assert result.exit_code == 1


# --- 8. strict types ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(bad=st.one_of(st.booleans(), st.integers(0, 5).map(str), st.floats(0, 5), st.none(), st.lists(st.integers(), max_size=2)),
       fmt=st.sampled_from(["sgd", "jsonl", "unified"]))
def test_a_span_offset_that_is_no_integer_is_an_error_naming_the_field(tmp_path_factory, bad, fmt: str) -> None:
    tmp = tmp_path_factory.mktemp("strict")
    corpus = fz.corpora()[fmt]
    items = [(k, json.loads(json.dumps(v))) for k, v in corpus.items]
    first = items[1][1]
    if fmt == "sgd":
        first["turns"][0]["frames"][0]["slots"][0]["start"] = bad
        field = "turns[0].frames[0].slots[0]"
    elif fmt == "unified":
        first["turns"][0]["dialogue_acts"]["non-categorical"][0]["start"] = bad
        field = "turns[0].dialogue_acts.non-categorical[0]"
    else:
        act = next(a for a in first["turns"][0]["acts"] if a.get("span"))
        act["span"]["start"] = bad
        field = "turns[0].acts["
    main_bytes, _ = fz.serialise(corpus, items)
    path = fz.write(corpus, tmp, main_bytes)
    report = tmp / "r.jsonl"
    result = invoke("validate", str(path), "--report", str(report), "--quiet")
    assert result.exit_code == 2
    [line] = lines(result)
    assert line.startswith(f"csp-check: error: {path}") and f"dialogue {items[1][0]}" in line and field in line, line
    assert len(report.read_text().splitlines()) == 4


# --- 5. interrupts (real signals, real processes) ------------------------------------------------


def _spawn(*args: str) -> subprocess.Popen:
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    env.pop("CSP_CHECK_DEBUG", None)
    return subprocess.Popen([sys.executable, "-m", "csp_check.cli.main", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT, start_new_session=True)  # fmt: skip


def _part_lines(directory: Path) -> int:
    return sum(len(p.read_bytes().splitlines()) for p in directory.glob(".r.jsonl.*.part"))


def _has_descendant(pid: int, name: str) -> bool:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if name in Path(f"/proc/{entry}/comm").read_text() and int(entry) in attacks.process_group(pid):
                    return True
            except OSError:
                continue
    return False


def _assert_clean_interrupt(proc: subprocess.Popen, report: Path | None) -> list[dict]:
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in out + err and "Aborted" not in out + err, err
    err_lines = [line for line in err.splitlines() if line.strip()]
    assert len(err_lines) == 1 and err_lines[0].startswith("csp-check: interrupted"), err
    assert attacks.wait_for(lambda: not attacks.process_group(proc.pid), 5), f"processes left: {attacks.process_group(proc.pid)}"
    if report is None:
        return []
    reports = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    assert f"after {len(reports)} dialogues" in err_lines[0]
    assert not [p for p in report.parent.glob("*.part")]
    for r in reports:  # never a false "time limit" verdict
        assert r["status"] != "unknown", r
    return reports


@pytest.mark.parametrize("delay", [0.2, 0.4, 0.7])
def test_sigint_at_start_up(tmp_path: Path, delay: float) -> None:
    path = sgd_corpus(tmp_path / "c", 2000)
    proc = _spawn("validate", str(path), "--report", str(tmp_path / "r.jsonl"), "--quiet")
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 1:  # finished before the signal: nothing to check
        pytest.skip("the run finished before the signal")
    assert proc.returncode == 130, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    "extra, wait_for, group",
    [
        ((), "lines", False),  # mid-run, kill -INT to the process alone
        (("--jobs", "2"), "lines", True),  # Ctrl-C in a terminal: the whole process group
        (("--solver", "minizinc:gecode", "--vca"), "minizinc", True),  # during a MiniZinc call
        (("--solver", "minizinc:gecode", "--vca"), "minizinc", False),
        (("--solver", "minizinc:gecode", "--vca", "--jobs", "2"), "minizinc", True),
        (("--vca",), "lines", True),  # CP-SAT
    ],
)
def test_sigint_mid_run_is_clean_and_resumable(tmp_path: Path, extra: tuple, wait_for: str, group: bool) -> None:
    if "minizinc:gecode" in extra:
        from csp_check.solvers.minizinc import MiniZincSolver

        if not MiniZincSolver.available("gecode"):
            pytest.skip("MiniZinc with gecode is not installed")
    path = sgd_corpus(tmp_path / "c", 400)
    report = tmp_path / "r.jsonl"
    proc = _spawn("validate", str(path), "--report", str(report), "--quiet", *extra)
    if wait_for == "lines":
        ready = attacks.wait_for(lambda: _part_lines(tmp_path) >= 3 or proc.poll() is not None)
    else:
        attacks.wait_for(lambda: _part_lines(tmp_path) >= 1 or proc.poll() is not None)  # past start-up's `minizinc --solvers`
        ready = attacks.wait_for(lambda: _has_descendant(proc.pid, "minizinc") or _has_descendant(proc.pid, "fzn-gecode") or proc.poll() is not None)
    assert ready and proc.poll() is None, "the run ended before it could be interrupted"
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    reports = _assert_clean_interrupt(proc, report)
    assert [r["dialogue_id"] for r in reports] == [f"1_{i:05d}" for i in range(1, len(reports) + 1)]
    if extra == ():  # finish it: the same report as one uninterrupted run
        resumed = invoke("validate", str(path), "--report", str(report), "--quiet", "--resume")
        whole = tmp_path / "whole.jsonl"
        invoke("validate", str(path), "--report", str(whole), "--quiet")
        assert resumed.exit_code == 1
        assert report.read_text() == whole.read_text()


def test_delexicalize_out_naming_an_input_is_refused(tmp_path: Path) -> None:
    path = sgd_corpus(tmp_path / "c", 2)
    before = path.read_bytes()
    result = invoke("delexicalize", str(path), "--out", str(path))
    assert result.exit_code == 2 and len(lines(result)) == 1 and "--out" in result.stderr
    assert path.read_bytes() == before


def test_report_lines_survive_str_splitlines(tmp_path: Path) -> None:
    """U+2028 / U+0085 are valid inside JSON strings, but ``str.splitlines`` splits there: the
    report escapes them, so a report has exactly one line per dialogue for any line splitter."""
    directory = tmp_path / "c"
    directory.mkdir()
    dialogues = [fz.sgd_dialogue(f"1_{i}\u2028x\x85", 2) for i in range(3)]
    (directory / "dialogues_001.json").write_text(json.dumps(dialogues), encoding="utf-8")
    report = tmp_path / "r.jsonl"
    assert invoke("validate", str(directory / "dialogues_001.json"), "--format", "sgd", "--report", str(report), "--quiet").exit_code == 0
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [r["dialogue_id"] for r in rows] == [d["dialogue_id"] for d in dialogues]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_dialogue_time_limit_on_a_really_long_dialogue(tmp_path: Path, jobs: str) -> None:
    """No monkeypatching: an 8,000-turn dialogue takes over a second to check; with a limit of 0.2 s it
    is ``unknown`` while the short ones keep their verdicts (also in a ``--jobs`` worker)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from long_dialogues import long_dialogue

    dialogues = [fz.sgd_dialogue("1_00001", 2), long_dialogue(8000, "1_00002"), fz.sgd_dialogue("1_00003", 3)]
    (tmp_path / "c").mkdir()
    path = tmp_path / "c" / "dialogues_001.json"
    path.write_text(json.dumps(dialogues), encoding="utf-8")
    report = tmp_path / "r.jsonl"
    result = invoke("validate", str(path), "--report", str(report), "--quiet", "--dialogue-time-limit", "0.2", "--jobs", jobs)
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    assert [(r["dialogue_id"], r["status"]) for r in rows] == [
        ("1_00001", "consistent"), ("1_00002", "unknown"), ("1_00003", "inconsistent")
    ]
    assert "dialogue time limit of 0.2 s reached" in rows[1]["error"]
    assert result.exit_code == 1


# --- 4. a named format must fit ----------------------------------------------------------------


@pytest.mark.parametrize(
    "fmt, named", [("sgd", "multiwoz22"), ("sgd", "unified"), ("sgd", "multiwoz"), ("unified", "sgd"),
                   ("unified", "multiwoz"), ("multiwoz", "unified"), ("jsonl", "sgd")]  # fmt: skip
)
def test_a_named_format_that_does_not_fit_is_one_line_and_exit_2(tmp_path: Path, fmt: str, named: str) -> None:
    corpus = fz.corpora()[fmt]
    main_bytes, _ = fz.serialise(corpus, corpus.items)
    path = fz.write(corpus, tmp_path, main_bytes)
    report = tmp_path / "r.jsonl"
    result = invoke("validate", str(path), "--format", named, "--report", str(report))
    assert result.exit_code == 2
    [line] = lines(result)
    assert line == f"csp-check: error: {path}: --format {named} does not fit this content, which looks like {fmt} (use --format {fmt} or --format auto)"
    assert [json.loads(r)["status"] for r in report.read_text().splitlines()] == ["error"]
