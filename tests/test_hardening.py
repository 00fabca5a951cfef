"""Hardening (issue 21, items 1 and 4; docs/robustness.md "Attacks"): one bad thing costs only
itself and is one line — an encrypted, oddly compressed or damaged zip, a bad byte inside a
zipped member, a profile literal that does not evaluate, stdout closed or full, an ``--out``
that cannot be written (checked before the work); a folder walk follows links without going
round a cycle; SIGTERM ends a run like Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import attacks

from csp_check.cli.main import main
from csp_check.nlsi.readers import read_examples
from csp_check.run import runner

ROOT = Path(__file__).resolve().parents[1]
MWOZ = (ROOT / "tests" / "fixtures" / "multiwoz" / "data.json").read_bytes()


def run(*args: str, cwd: Path | None = None, stdout=subprocess.PIPE, timeout: float = 60, env: dict | None = None):
    """``csp-check ARGS`` in a child process (the worktree's code), as a user runs it."""
    return attacks.run_cli(list(args), cwd=cwd, stdout=stdout, timeout=timeout, env=env)


class _Result:
    def __init__(self, result) -> None:
        self.returncode, self.stderr, self.stdout = result.exit_code, result.stderr, result.stdout


def cli(monkeypatch, *args: str, cwd: Path) -> _Result:
    """``csp-check ARGS`` in this process (faster than a child), run from ``cwd``."""
    with monkeypatch.context() as m:
        m.chdir(cwd)
        return _Result(CliRunner().invoke(main, list(args)))


# --- 1. every failure of a zip archive costs that archive only -------------------------------------


@pytest.mark.parametrize("kind", ["encrypted", "lzma_broken", "deflate_damaged", "not_a_zip"])
def test_a_bad_zip_is_one_line_and_the_next_input_is_still_read(tmp_path: Path, kind: str, monkeypatch) -> None:
    bad = attacks.bad_zip(tmp_path / f"{kind}.zip", kind, MWOZ)
    good = tmp_path / "good.json"
    good.write_bytes(MWOZ)
    result = cli(monkeypatch, "validate", str(bad), str(good), "--json", "--quiet", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("warning")]
    assert len(lines) == 1 and lines[0].startswith(f"csp-check: error: {bad}: "), result.stderr
    summary = json.loads(result.stdout)
    assert summary["dialogues"] == 4  # the good file after it: every dialogue checked


def test_a_bad_byte_inside_a_zipped_member_costs_one_dialogue(tmp_path: Path, monkeypatch) -> None:
    damaged = MWOZ.replace(b'"text": "', b'"text": "\xff', 1)
    plain = tmp_path / "plain" / "data.json"
    plain.parent.mkdir()
    plain.write_bytes(damaged)
    zipped = tmp_path / "data.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("data.json", damaged)
    as_plain = json.loads(cli(monkeypatch, "validate", str(plain), "--json", "--quiet", cwd=tmp_path).stdout)
    as_zip = json.loads(cli(monkeypatch, "validate", str(zipped), "--json", "--quiet", cwd=tmp_path).stdout)
    assert as_zip["dialogues"] == as_plain["dialogues"] == 4
    assert as_zip["errors"] == as_plain["errors"] == 1


def test_a_zip_bomb_is_refused_unread(tmp_path: Path) -> None:
    bomb = attacks.zip_bomb(tmp_path / "bomb.zip", 8 << 20)  # 8 MiB of white space in ~8 KB
    start = time.perf_counter()
    result = run("validate", str(bomb), "--max-unzipped-mb", "1", "--quiet")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[0].startswith(f"csp-check: error: {bomb}: data.json expands to 8 MiB")
    assert "--max-unzipped-mb" in result.stderr
    assert time.perf_counter() - start < 20
    ok = run("validate", str(bomb), "--max-unzipped-mb", "16", "--quiet")  # within the budget: read
    assert "expands to" not in ok.stderr


def test_a_profile_literal_that_does_not_evaluate_is_one_example_error(tmp_path: Path) -> None:
    path = tmp_path / "ex.jsonl"
    good = {"example_id": "g", "utterance": "book a table", "all_standing_instructions": "[]", "api_calls": "[]"}
    bad = {**good, "example_id": "b", "all_standing_instructions": "{[]: 1}"}
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    items = list(read_examples(path))
    assert len(items) == 2
    assert "not a list literal" in str(items[0]) and str(items[0]).startswith(f"{path}:1")
    assert not hasattr(items[1], "message")  # the next example is read


# --- 1. output that cannot be written ----------------------------------------------------------


def test_stdout_to_a_full_device_is_one_line_and_exit_2(tmp_path: Path) -> None:
    good = tmp_path / "data.json"
    good.write_bytes(MWOZ)
    with open("/dev/full", "w") as full:
        result = run("validate", str(good), stdout=full)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "csp-check: error: stdout: cannot write: No space left on device" in result.stderr


def test_stdout_closed_is_no_traceback_and_the_verdict_decides(tmp_path: Path) -> None:
    good = tmp_path / "data.json"
    good.write_bytes(MWOZ)
    code = ("import os, sys; os.close(1); sys.argv = ['csp-check', 'validate', sys.argv[1]]; "
            "from csp_check.cli.main import main; main()")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", code, str(good)], stderr=subprocess.PIPE, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(attacks.CODE)}, cwd=tmp_path)  # fmt: skip
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0  # the 4 dialogues are consistent


def test_experiment_out_that_cannot_be_written_fails_before_the_work(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    start = time.perf_counter()
    result = run("experiment", str(ROOT / "tests" / "fixtures" / "multiwoz" / "data.json"), "--out", str(blocker / "out"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"--out {blocker / 'out'}: cannot write" in result.stderr
    assert time.perf_counter() - start < 30


# --- 4. links and signals ----------------------------------------------------------------------


def test_a_folder_walk_goes_round_no_link_cycle(tmp_path: Path) -> None:
    folder = attacks.link_cycle(tmp_path / "walk", MWOZ)
    result = run("validate", str(folder), "--json", "--quiet", timeout=30)  # a child: a cycle would hang, not fail
    summary = json.loads(result.stdout)
    assert summary["dialogues"] == 4, summary  # the one file, read once
    assert summary["unreadable"] == 0


def test_sigterm_ends_the_workers_like_ctrl_c(tmp_path: Path) -> None:
    corpus = attacks.sgd_folder(tmp_path / "c", 3000)
    report = tmp_path / "r.jsonl"
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(attacks.CODE)}
    proc = subprocess.Popen([sys.executable, "-m", "csp_check.cli.main", "validate", str(corpus), "--jobs", "2",
                             "--report", str(report), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=attacks.CODE, start_new_session=True)  # fmt: skip
    try:
        assert attacks.wait_for(lambda: any(p.name.endswith(".part") and p.stat().st_size for p in tmp_path.iterdir()), 60)
        proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        _, err = proc.communicate(timeout=30)
        assert attacks.wait_for(lambda: not attacks.process_group(proc.pid), 5), attacks.process_group(proc.pid)
        assert time.monotonic() - start < 10
    finally:
        if proc.poll() is None or attacks.process_group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err
    assert err.strip().startswith("csp-check: interrupted after"), err
    assert report.is_file() and report.read_text().count("\n") > 0


# --- 2. --resume knows its inputs by identity ----------------------------------------------------


def _resume_setup(tmp_path: Path, monkeypatch, n: int = 30) -> tuple[Path, Path, list[str]]:
    """A corpus in ``tmp/one/corpus``, its whole report (run from ``tmp/one``), the report's lines."""
    attacks.sgd_folder(tmp_path / "one" / "corpus", n)
    whole = tmp_path / "whole.jsonl"
    assert cli(monkeypatch, "validate", "corpus", "--report", str(whole), "--quiet", cwd=tmp_path / "one").returncode in (0, 1)
    return tmp_path / "one" / "corpus", whole, whole.read_text().splitlines(keepends=True)


def _verdicts(report: Path) -> list[tuple[str, str]]:
    return [(r["dialogue_id"], r["status"]) for r in map(json.loads, report.read_text().splitlines())]


def test_resume_from_another_working_directory_duplicates_nothing(tmp_path: Path, monkeypatch) -> None:
    corpus, whole, lines = _resume_setup(tmp_path, monkeypatch)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:10]))
    (tmp_path / "elsewhere").mkdir()
    result = cli(monkeypatch, "validate", "../one/corpus", "--report", str(cut), "--resume", "--quiet", cwd=tmp_path / "elsewhere")
    assert result.returncode in (0, 1), result.stderr
    assert _verdicts(cut) == _verdicts(whole)  # 30 lines, none twice


def test_resume_refuses_the_report_of_another_folder_of_the_same_name(tmp_path: Path, monkeypatch) -> None:
    _, _, lines = _resume_setup(tmp_path, monkeypatch)
    attacks.sgd_folder(tmp_path / "two" / "corpus", 30)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:10]))
    result = cli(monkeypatch, "validate", "corpus", "--report", str(cut), "--resume", "--quiet", cwd=tmp_path / "two")
    assert result.returncode == 2
    assert result.stderr.startswith(f"csp-check: error: --resume --report {cut}: it holds dialogues of "
                                    f"{tmp_path / 'one' / 'corpus' / 'dialogues_001.json'}")  # fmt: skip
    assert cut.read_text() == "".join(lines[:10])


def test_resume_refuses_a_report_of_a_file_changed_since(tmp_path: Path, monkeypatch) -> None:
    corpus, _, lines = _resume_setup(tmp_path, monkeypatch)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:10]))
    attacks.sgd_folder(corpus, 31)  # the same name, other content
    result = cli(monkeypatch, "validate", str(corpus), "--report", str(cut), "--resume", "--quiet", cwd=tmp_path)
    assert result.returncode == 2 and "changed since the report was written" in result.stderr


def test_resume_checks_transient_errors_again(tmp_path: Path, monkeypatch) -> None:
    corpus, whole, lines = _resume_setup(tmp_path, monkeypatch)
    died = []
    for k, line in enumerate(lines[:12]):
        report = json.loads(line)
        if k in (3, 7):  # a worker died on these
            report.update(status="error", error=f"{report['source']}: dialogue {report['dialogue_id']}: worker process died")
            report["extra"]["error_kind"] = "internal"
            died.append(report["dialogue_id"])
        lines[k] = json.dumps(report) + "\n"
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:12]))
    result = cli(monkeypatch, "validate", str(corpus), "--report", str(cut), "--resume", "--quiet", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    got = dict(_verdicts(cut))
    assert len(_verdicts(cut)) == 30 and got == dict(_verdicts(whole))
    assert all(got[d] != "error" for d in died)


def test_resume_picks_up_the_part_a_killed_run_left(tmp_path: Path, monkeypatch) -> None:
    corpus, whole, lines = _resume_setup(tmp_path, monkeypatch)
    report = tmp_path / "r.jsonl"
    report.write_text("".join(lines[:5]))
    part = tmp_path / ".r.jsonl.k1ll3d.part"  # what SIGKILL leaves: the old lines, then more, the last one cut
    part.write_text("".join(lines[:20]) + lines[20][:30])
    checked: list[str] = []
    original = runner.check_one
    monkeypatch.setattr(runner, "check_one", lambda d, s: (checked.append(d.id), original(d, s))[1])
    result = CliRunner().invoke(main, ["validate", str(corpus), "--report", str(report), "--resume", "--quiet"])
    assert result.exit_code in (0, 1), result.output
    assert _verdicts(report) == _verdicts(whole)
    assert len(checked) == 10  # the 20 whole lines of the .part are not checked again
    assert not list(tmp_path.glob("*.part"))
