"""``csp-check iur judge`` and ``iur generate [--augment]`` against the fake OpenAI-compatible
server (tests/support/openai_server.py): the proxies scored as Table 3, an unreachable or failing
server (exit 2, one line naming the URL), the pipeline's filter, and an augmented SGD split that
validates with no new certain flags (its IURs are found implied)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from support.iur import SCHEMA, direct_pets_dialogue, write_homes
from support.openai_server import FakeOpenAI, Status, unused_url

from csp_check import validate
from csp_check.cli.main import main
from csp_check.iur.detect import candidates
from csp_check.iur.records import read_records
from csp_check.models import Dialogue
from csp_check.readers import read_dialogues

RECORDS = Path(__file__).parent / "fixtures" / "iur" / "records.jsonl"


def field(prompt: str, name: str) -> str:
    found = re.findall(rf"^{name}: (.*)$", prompt, re.M)
    return found[-1] if found else ""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_judge_scores_against_labels(tmp_path: Path) -> None:
    records = read_records(RECORDS)
    by_utterance = {r.utterance: r for r in records}
    wrong = records[0].utterance  # the judge errs once: 9 of 10 right

    def reply(messages: list[dict], body: dict) -> str:
        prompt = messages[-1]["content"]
        record = by_utterance[field(prompt, "Utterance")]
        if "Slot Values Implied:" in prompt.splitlines()[-1]:
            if record.utterance == wrong or record.ambiguous:
                return ", ".join(record.possible_slot_values[:2])
            return record.target_slot_value or ""
        return f"Level {record.mean_world_understanding / 2 + 1:.1f}"  # a linear map: r = 1

    report = tmp_path / "j.jsonl"
    with FakeOpenAI(reply) as server:
        result = run("iur", "judge", str(RECORDS), "--base-url", server.base_url, "--model", "fake", "--report", str(report),
                     "--no-cache")
    assert result.exit_code == 0, result.output
    ambiguous = sum(r.ambiguous for r in records)
    assert f"accuracy (N+1 classes): {(len(records) - 1) / len(records):.3f} over {len(records)}" in result.output
    assert "Pearson r: 1.000 over 10 rated" in result.output and ambiguous == 3
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    assert rows[0]["predicted"] == "<ambiguous>" and rows[0]["correct"] is False


def test_judge_unreachable_or_failing_server(tmp_path: Path) -> None:
    url = unused_url()
    result = run("iur", "judge", str(RECORDS), "--base-url", url, "--model", "m", "--report", str(tmp_path / "r"),
                 "--no-cache", "--max-retries", "0")
    assert result.exit_code == 2 and url in result.output and len(result.output.strip().splitlines()) == 1
    with FakeOpenAI(lambda messages, body: Status(401, "bad key")) as server:
        result = run("iur", "judge", str(RECORDS), "--base-url", server.base_url, "--model", "m", "--report",
                     str(tmp_path / "r"), "--no-cache", "--max-retries", "0")
    assert result.exit_code == 2 and server.base_url in result.output


#: Candidate IURs by target value and seed: direct, indirect, ambiguous.
ANSWERS = {"True": ["I need a place that allows pets.", "Indirect User Request: My dog comes along everywhere, he is so cute!",
                    "I need an apartment that feels like home."],
           "False": ["No pets allowed there, right?", "I'm allergic to cats, so I'd rather not share with them.",
                     "Something quiet."]}  # fmt: skip


def generation_reply(messages: list[dict], body: dict) -> str:
    prompt = messages[-1]["content"]
    if prompt.rstrip().endswith("Facts:"):
        return "Dogs need a home too.\nCats shed.\nSome people are allergic."
    return ANSWERS[field(prompt, "Target Slot Value")][body.get("seed", 0)]


def test_generate_and_augment_end_to_end(tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    split = write_homes(tmp_path / "sgd", [direct_pets_dialogue(f"1_{i:05d}", v) for i, v in enumerate(["True", "False"] * 3)])
    out, augmented = tmp_path / "iur.jsonl", tmp_path / "augmented"
    with FakeOpenAI(generation_reply) as server:
        result = run("iur", "generate", "--schema", str(schema), "--service", "Homes_1", "--slot", "pets_allowed", "--n", "3",
                     "--base-url", server.base_url, "--model", "fake", "--out", str(out), "--no-cache",
                     "--augment", str(split), "--augmented-out", str(augmented))
        bad = run("iur", "generate", "--schema", str(schema), "--service", "Homes_1", "--slot", "area", "--n", "1",
                  "--base-url", server.base_url, "--model", "fake", "--out", str(tmp_path / "x"), "--no-cache")
    assert result.exit_code == 0, result.output
    assert bad.exit_code == 2 and "no possible values" in bad.output
    kept = read_records(out)
    assert [(r.target_slot_value, r.utterance) for r in kept] == [
        ("True", "My dog comes along everywhere, he is so cute!"), ("False", "I'm allergic to cats, so I'd rather not share with them.")]
    assert "2 IURs kept, 4 dropped" in result.output and "direct: names True" in result.output
    assert "ambiguous: the CSP's solutions are ['True', 'False']" in result.output and "inappropriate" in result.output
    assert "6 direct requests swapped" in result.output
    assert kept[0].situation.startswith("Find an apartment") and kept[0].extra("facts")
    before = {r.dialogue_id: r for r in validate([split])}
    after = {r.dialogue_id: r for r in validate([augmented])}
    assert before.keys() == after.keys()
    for did in before:
        certain = [v for v in after[did].violations if v.certain]
        assert certain == [v for v in before[did].violations if v.certain]  # no new certain flag
    found = [c for d in read_dialogues([augmented]) if isinstance(d, Dialogue) for c in candidates(d)]
    assert len(found) == 6 and all(c.kind == "implied" and c.turn == 2 for c in found)
    assert all(not v.certain for r in after.values() for v in r.violations)
    assert sum(len(r.implied) for r in after.values()) == 6  # the IURs: reported apart, never violations
