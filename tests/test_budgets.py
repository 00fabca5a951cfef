"""Size and time budgets (issue 21, item 3) and redacted server errors (item 5; docs/robustness.md
"Budgets"): the sniffer reads a head, never a whole huge first line; white space and damaged
items are skipped in linear time; a call of thousands of arguments and a long instruction
cost near-linear time; an LLM answer is capped, a request has a total deadline that a slow
drip does not reset, ``calls --llm-parse`` has a timeout and retries; an API key a server
echoes never reaches the output."""

from __future__ import annotations

import json
import time
from pathlib import Path

from click.testing import CliRunner
from support import attacks
from support.openai_server import FakeOpenAI

from csp_check.cli.main import main
from csp_check.llm.client import ChatClient, CompletionError, LLMSettings, redact
from csp_check.nlsi.instructions import InstructionParser
from csp_check.nlsi.schema import load_schema
from csp_check.readers.json_stream import skip_value, skip_ws

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "tests" / "fixtures" / "nlsi" / "schema.json"
KEY = "sk-test-0123456789abcdef"


def test_the_sniffer_reads_no_whole_first_line_of_a_huge_json(tmp_path: Path) -> None:
    sparse = attacks.sparse_json(tmp_path / "huge.json", 2 << 30)  # 2 GiB of NUL, no disk used
    # the child's own VmHWM: RUSAGE_CHILDREN is the largest of every child so far (and counts
    # the parent's RSS at fork), so it says nothing about this one inside a long test session
    (tmp_path / "run").mkdir()
    code, _out, err, seconds, peak = attacks.run_measured(["validate", str(sparse), "--quiet"], tmp_path / "run", {},
                                                          timeout=60)  # fmt: skip
    assert seconds < 20
    assert code == 2 and "unknown format" in err
    assert 0 < peak < 600  # reading the line whole took 4 GB


def test_white_space_and_damaged_items_are_skipped_in_linear_time() -> None:
    text = "[" + " " * (8 << 20) + "1]"
    start = time.perf_counter()
    assert skip_ws(text, 1) == len(text) - 2
    damaged = '{"a": "' + "x\\\"" * (2 << 20) + '", "b": [1, {"c": "]"}]}, 2'
    assert skip_value(damaged, 0) == len(damaged) - 3
    assert time.perf_counter() - start < 1.0  # a Python loop per character took seconds


def test_a_call_of_thousands_of_arguments_is_reported_in_linear_space(tmp_path: Path) -> None:
    n = 3000
    args = ", ".join(f'a{i}="x"' for i in range(n))
    path = tmp_path / "calls.jsonl"
    path.write_text(json.dumps({"example_id": "big", "utterance": "find me a restaurant in San Jose",
                                "all_standing_instructions": ["If I ask for restaurants, look for Italian ones."],
                                "api_calls": [f"GetRestaurants({args})"]}) + "\n")  # fmt: skip
    report = tmp_path / "r.jsonl"
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["calls", str(path), "--schema", str(SCHEMA), "--quiet", "--report", str(report)])
    assert time.perf_counter() - start < 20, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    line = json.loads(report.read_text())
    assert len(line["violations"]) >= n  # one per unknown argument
    assert max(len(v["call"] or "") for v in line["violations"]) < 400
    assert f"({n:,} arguments)" in line["violations"][0]["call"]
    assert report.stat().st_size < 1000 * n  # was n × the whole call: 27 MB for 3,000


def test_a_long_instruction_is_parsed_in_near_linear_time() -> None:
    parser = InstructionParser(load_schema([SCHEMA]))
    parser.parse("If I ask for restaurants, look for Italian ones in San Jose.")  # spaCy loaded
    timings = []
    for n in (1000, 4000):
        text = "If I ask for restaurants, look for " + " and ".join(["Italian food in San Jose"] * n) + "."
        runs = []
        for _ in range(3):  # the fastest of three: a busy machine's pauses are not the parser's
            start = time.perf_counter()
            parser.parse(text)
            runs.append(time.perf_counter() - start)
        timings.append(min(runs))
    assert timings[1] < 8 * timings[0] + 0.3, timings  # quadratic: 0.24 s for 1,000, 6.7 s for 4,000


# --- the LLM client --------------------------------------------------------------------------


def _client(url: str, **kw) -> ChatClient:
    return ChatClient(LLMSettings(base_url=url, model="m", api_key=KEY, cache_dir=None, backoff=0.05, **kw))


def test_a_huge_answer_is_refused_not_retried_and_not_cached(tmp_path: Path) -> None:
    with attacks.HostileServer("huge", size=6 << 20) as server:
        client = ChatClient(LLMSettings(base_url=server.base_url, model="m", api_key=KEY, cache_dir=tmp_path / "cache",
                                        max_retries=3, backoff=0.05, max_response_bytes=1 << 20))  # fmt: skip
        answer = client.complete("hi")
        assert isinstance(answer, CompletionError) and "larger than 1,048,576 bytes" in answer.error
        assert server.hits == 1
    assert not list((tmp_path / "cache").rglob("*.json"))


def test_request_timeout_is_a_total_deadline_a_drip_does_not_reset() -> None:
    with attacks.HostileServer("drip", delay=0.3) as server:  # ~250 bytes: 75 s to send
        client = _client(server.base_url, timeout=1.5, max_retries=1)
        start = time.perf_counter()
        answer = client.complete("hi")
        took = time.perf_counter() - start
    assert isinstance(answer, CompletionError) and "no whole answer within 1.5 s" in answer.error
    assert took < 2 * 1.5 + 4, took  # two attempts of at most the deadline each (+ start-up, backoff)


def _unparsable_example(path: Path) -> Path:
    """One example whose instruction the rule parser cannot read (no slot value)."""
    path.write_text(json.dumps({"example_id": "e", "utterance": "find me a restaurant",
                                "all_standing_instructions": ["Whenever it is my birthday I want somewhere festive"],
                                "api_calls": ["GetRestaurants()"]}) + "\n")  # fmt: skip
    return path


def test_calls_llm_parse_has_a_timeout_and_retries(tmp_path: Path) -> None:
    path = _unparsable_example(tmp_path / "ex.jsonl")
    with attacks.HostileServer("drip", delay=0.3) as server:
        start = time.perf_counter()
        result = CliRunner().invoke(main, ["calls", str(path), "--schema", str(SCHEMA), "--llm-parse", "--base-url",
                                           server.base_url, "--request-timeout", "1", "--retries", "1",
                                           "--cache-dir", str(tmp_path / "c"), "--report", str(tmp_path / "r.jsonl")])  # fmt: skip
        took = time.perf_counter() - start
        hits = server.hits
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert hits == 2  # one retry
    assert took < 15, took  # each attempt ended at its 1 s deadline (the drip takes 75 s)
    assert "no whole answer within 1 s" in (tmp_path / "r.jsonl").read_text()


def test_an_echoed_key_is_redacted_from_errors_and_reports(tmp_path: Path, monkeypatch) -> None:
    with attacks.HostileServer("echo") as server:
        answer = _client(server.base_url).complete("hi")
    assert isinstance(answer, CompletionError)
    assert KEY not in answer.error and "Authorization: [redacted]" in answer.error
    path = _unparsable_example(tmp_path / "ex.jsonl")
    report = tmp_path / "r.jsonl"
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with attacks.HostileServer("echo") as server:
        result = CliRunner().invoke(main, ["calls", str(path), "--schema", str(SCHEMA), "--llm-parse", "--base-url",
                                           server.base_url, "--report", str(report), "--cache-dir", str(tmp_path / "c")])  # fmt: skip
        assert server.hits >= 1
    assert KEY not in result.output + report.read_text()
    assert "[redacted]" in report.read_text()


def test_redact_removes_authorization_values_bearer_tokens_and_the_key() -> None:
    text = 'echo {"authorization": "Bearer abc.def-123", "x": 1} token Bearer zzz999 key sk-abcdefgh1234 mine=my-own-key-42'
    out = redact(text, key="my-own-key-42")
    for secret in ("abc.def-123", "zzz999", "sk-abcdefgh1234", "my-own-key-42"):
        assert secret not in out
    assert '"x": 1' in out and out.count("[redacted]") == 4


def test_a_working_server_still_answers_through_the_capped_reader() -> None:
    with FakeOpenAI(lambda messages, body: "fine") as server:
        answer = _client(server.base_url, timeout=10).complete("hi")
    assert not isinstance(answer, CompletionError) and answer.text == "fine"
