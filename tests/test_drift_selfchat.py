"""The drift protocol against a fake OpenAI-compatible server whose agent obeys for k rounds and
then drifts (issue 23): the measured curve is exactly that; resumable; unreachable servers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import SHARED_DATA
from support.drift_agent import ObeyThenDrift
from support.openai_server import FakeOpenAI, Status, unused_url

from csp_check.cli.main import main
from csp_check.drift.nlsi_suite import nlsi_prompts
from csp_check.drift.suite import USER_PROMPT, bundled_suite, load_suite
from csp_check.drift.task_measures import score

pytest.importorskip("openai")

NLSI_RELEASE = SHARED_DATA / "nlsi" / "old_instructions_dataset.json"
needs_nlsi_release = pytest.mark.skipif(not NLSI_RELEASE.exists(), reason="../shared/data/nlsi is not beside the repo")

PROMPTS = [
    {"id": "pirate", "category": "character", "system_prompt": "You are a pirate; say arr.", "probe": "Who are you?",
     "measure": {"kind": "contains", "words": ["arr"]}, "examples": {"pass": "Arr, a pirate.", "fail": "A helper."}},
    {"id": "letter", "category": "multiple_choice", "system_prompt": "Answer A, B or C only.", "probe": "Pick one?",
     "measure": {"kind": "answer_in", "choices": ["A", "B", "C"]}, "examples": {"pass": "B", "fail": "I pick the second."}},
]  # fmt: skip


def suite_file(tmp_path: Path) -> Path:
    path = tmp_path / "suite.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in PROMPTS))
    return path


def drift(*args: str):
    return CliRunner().invoke(main, ["drift", "--quiet", *args])


@pytest.mark.parametrize("k", [0, 3, 6])
def test_an_agent_that_drifts_after_k_rounds_gives_exactly_that_curve(tmp_path: Path, k: int) -> None:
    suite = suite_file(tmp_path)
    agent = ObeyThenDrift(load_suite(suite), k)
    with FakeOpenAI(agent) as server:
        result = drift("--base-url", server.base_url, "--model", "m", "--rounds", "6", "--runs", "2", "--suite",
                       str(suite), "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "cache"), "--no-plot")  # fmt: skip
    assert result.exit_code == 0, result.output
    expected = [1.0] * k + [0.0] * (6 - k)
    data = json.loads((tmp_path / "out" / "drift.json").read_text())
    assert [p["id"] for p in data["prompts"]] == ["pirate", "letter"]
    for p in data["prompts"]:
        assert p["stability"] == expected and p["runs"] == [expected, expected]
    assert data["mean"] == expected
    assert {c["label"]: c["mean"] for c in data["categories"]} == {"character": expected, "multiple_choice": expected}
    assert data["config"]["rounds"] == 6 and data["config"]["runs"] == 2 and data["config"]["model"] == "m"
    # the protocol: per run N probes, N - 1 agent turns, N - 1 user turns
    assert len(agent.probes) == 2 * 2 * 6 and len(agent.chats) == 2 * 2 * 2 * 5
    rows = list(csv.DictReader(open(tmp_path / "out" / "drift.csv")))
    assert [float(r["stability"]) for r in rows if r["series"] == "mean"] == expected
    assert {r["name"] for r in rows if r["series"] == "prompt"} == {"pirate", "letter"}


def test_the_probe_of_round_i_follows_i_minus_one_exchanges_and_the_user_sees_the_mirror(tmp_path: Path) -> None:
    suite = suite_file(tmp_path)
    agent = ObeyThenDrift(load_suite(suite)[:1], 8)
    with FakeOpenAI(agent) as server:
        result = drift("--base-url", server.base_url, "--model", "agent-m", "--user-model", "user-m", "--rounds", "4",
                       "--suite", str(suite), "--limit", "1", "--out", str(tmp_path / "out"), "--cache-dir",
                       str(tmp_path / "cache"), "--no-plot")  # fmt: skip
        bodies = list(server.requests)
    assert result.exit_code == 0, result.output
    probes = sorted(agent.probes, key=len)
    assert [len(m) for m in probes] == [2, 4, 6, 8]  # system, 2(i - 1) turns, the probe
    assert all(m[0] == {"role": "system", "content": PROMPTS[0]["system_prompt"]} for m in probes)
    assert [m["role"] for m in probes[-1]] == ["system", "user", "assistant", "user", "assistant", "user", "assistant", "user"]
    starter = probes[1][1]["content"]
    users = [m for m in agent.chats if m[0]["content"].startswith(USER_PROMPT)]
    assert [len(m) for m in users] == [2, 4, 6]  # s_A, then b_1, a_2, b_2, …: alternating from a user turn
    assert all(m[0]["content"].endswith(starter) for m in users)
    assert all([x["role"] for x in m[1:]] == ["user", "assistant"] * (len(m) // 2 - 1) + ["user"] for m in users)
    assert {b["model"] for b in bodies if b["messages"][0]["content"].startswith(USER_PROMPT)} == {"user-m"}
    assert {b["model"] for b in bodies if not b["messages"][0]["content"].startswith(USER_PROMPT)} == {"agent-m"}
    assert starter in bundled_suite()[0].starters  # the default starters, drawn by the seed
    assert len({b["seed"] for b in bodies}) == 1  # one run, one seed
    chat = json.loads((tmp_path / "out" / "conversations" / "pirate.json").read_text())
    assert chat["runs"][0]["starter"] == starter and len(chat["runs"][0]["probe_answers"]) == 4


def test_a_rerun_resumes_from_the_kept_conversations(tmp_path: Path) -> None:
    suite = suite_file(tmp_path)
    agent = ObeyThenDrift(load_suite(suite), 2)
    out = tmp_path / "out"
    with FakeOpenAI(agent) as server:
        args = ["--base-url", server.base_url, "--model", "m", "--rounds", "3", "--suite", str(suite), "--out", str(out),
                "--no-plot"]  # fmt: skip
        first = drift(*args, "--cache-dir", str(tmp_path / "c1"))
        asked = len(server.requests)
        again = drift(*args, "--cache-dir", str(tmp_path / "c2"))  # a cold LLM cache: the conversations serve
        assert len(server.requests) == asked
        (out / "conversations" / "letter.json").unlink()
        third = drift(*args, "--cache-dir", str(tmp_path / "c3"))
        assert len(server.requests) == asked + asked // 2  # only the prompt whose conversation was lost
        other_seed = drift(*args, "--cache-dir", str(tmp_path / "c4"), "--seed", "1")
        assert len(server.requests) == 2 * asked + asked // 2  # another seed is another run
    assert [r.exit_code for r in (first, again, third, other_seed)] == [0, 0, 0, 0]
    assert json.loads((out / "drift.json").read_text())["mean"] == [1.0, 1.0, 0.0]


def test_an_unreachable_server_exits_2_with_one_line_naming_it(tmp_path: Path) -> None:
    url = unused_url()
    result = CliRunner().invoke(main, ["drift", "--base-url", url, "--model", "m", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and url in lines[0] and lines[0].startswith("csp-check: error: cannot reach"), result.output


def test_a_failing_server_exits_2_and_keeps_the_finished_runs(tmp_path: Path) -> None:
    suite = suite_file(tmp_path)
    agent = ObeyThenDrift(load_suite(suite), 5)

    def reply(messages: list[dict], body: dict) -> str | Status:
        return Status(401, "bad key") if messages[0]["content"] == PROMPTS[1]["system_prompt"] else agent(messages, body)

    with FakeOpenAI(reply) as server:
        result = drift("--base-url", server.base_url, "--model", "m", "--rounds", "2", "--suite", str(suite),
                       "--concurrency", "1", "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "c"))  # fmt: skip
    assert result.exit_code == 2
    line = result.output.strip().splitlines()[-1]
    assert server.base_url in line and "401" in line and "rerun to resume" in line, result.output
    assert (tmp_path / "out" / "conversations" / "pirate.json").exists()


def test_usage_errors(tmp_path: Path) -> None:
    assert "give --base-url" in drift("--out", str(tmp_path)).output
    assert "needs --model" in drift("--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path)).output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    result = drift("--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--suite", str(bad), "--out", str(tmp_path))
    assert result.exit_code == 2 and "bad.jsonl:1" in result.output


def test_the_bundled_suite_end_to_end_with_its_plot(tmp_path: Path) -> None:
    pytest.importorskip("langdetect")
    pytest.importorskip("matplotlib")
    agent = ObeyThenDrift(bundled_suite(), 2)
    with FakeOpenAI(agent) as server:
        result = CliRunner().invoke(main, ["drift", "--base-url", server.base_url, "--model", "m", "--rounds", "4",
                                           "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "c")])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "drift.json").read_text())
    assert len(data["prompts"]) == len(bundled_suite()) >= 40
    for p in data["prompts"]:
        assert min(p["stability"][:2]) >= 0.9 and max(p["stability"][2:]) <= 0.3, p["id"]
    assert {c["label"] for c in data["categories"]} == {"multiple_choice", "character", "format", "memorization",
                                                        "language", "profile", "kb"}  # fmt: skip
    assert (tmp_path / "out" / "drift.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert result.stdout.splitlines()[0].split() == ["round", "1", "2", "3", "4"]
    assert "profile " in result.stdout and "kb " in result.stdout


@needs_nlsi_release
def test_profile_prompts_from_the_nlsi_release_drift_as_the_agent_does(tmp_path: Path) -> None:
    prompts = nlsi_prompts(NLSI_RELEASE, NLSI_RELEASE.parent, limit=6)
    assert len(prompts) == 6 and all(p.kind == "profile" and p.examples["pass"] for p in prompts)
    passing = [p.id for p in prompts if score(p.kind, p.examples["pass"], p.params(), p.probe) == 1.0]
    assert len(passing) >= 5  # the gold calls honour their profile (the checker flags 10 of the 175)
    agent = ObeyThenDrift(prompts, 1)  # the gold calls, then chatter without calls
    with FakeOpenAI(agent) as server:
        result = drift("--base-url", server.base_url, "--model", "m", "--rounds", "3", "--nlsi", str(NLSI_RELEASE),
                       "--limit", "6", "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "c"), "--no-plot")  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "drift.json").read_text())
    stability = {p["id"]: p["stability"] for p in data["prompts"]}
    assert set(stability) == {p.id for p in prompts}
    assert all(stability[i] == [1.0, 0.0, 0.0] for i in passing)
