"""LLM parts of the NLSI checker against a real OpenAI-compatible HTTP server on 127.0.0.1 (as in
tests/test_llm.py): the instruction-parser fallback (only for unparsed instructions, cached, every
answer validated against the schema) and the ICL instruction selector."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("openai")

from support.nlsi import SCHEMA_FILE, example, schema
from support.openai_server import FakeOpenAI

from csp_check.llm.client import LLMSettings
from csp_check.nlsi.check import Checker
from csp_check.nlsi.instructions import InstructionParser, Rule, Unparsed
from csp_check.nlsi.llm_parse import LlmFallbackParser, validate_answer


class FakeChat(FakeOpenAI):
    """``POST /v1/chat/completions``: ``answer(prompt) -> str`` decides the message text of the
    last message (the prompt); every prompt is recorded in ``prompts``."""

    def __init__(self, answer):
        super().__init__(lambda messages, body: answer(messages[-1]["content"]))

    @property
    def prompts(self) -> list[str]:
        return [body["messages"][-1]["content"] for body in self.requests]


def _settings(server, cache_dir, model="fake") -> LLMSettings:
    return LLMSettings(base_url=server.base_url, model=model, temperature=0.0, timeout=5, max_retries=0,
                       cache_dir=cache_dir, api_key="sk-test")  # fmt: skip


def _instruction(prompt: str) -> str:
    return prompt.split("### Instruction\n", 1)[1].split("\n\n### JSON:", 1)[0]


# what the fake model answers per instruction: good, hallucinated, off-schema and chatty answers
ANSWERS = {
    "For restaurants I want Burmese food.": 'Sure!\n```json\n{"domain": "Restaurants", "condition": [], "action": ["cuisine", "Burmese"]}\n```',
    "When I am flying, I like to sit up front where the seats are widest.":
        '{"domain": "Flights", "condition": [], "action": ["seating_class", "First Class"]}',
    "I like to sing in the shower.": '{"domain": "Restaurants", "condition": [], "action": ["cuisine", "Italian"]}',
    "My favourite food is Burmese.": '{"domain": "Restaurants", "condition": [], "action": ["food_type", "Burmese"]}',
    "Remind me to call mom.": "I cannot help with that.",
}  # fmt: skip


def test_fallback_only_for_unparsed_validated_and_cached(tmp_path):
    parser = InstructionParser(schema())
    assert isinstance(parser.parse("I prefer Italian restaurants in San Jose."), Rule)
    with FakeChat(lambda p: ANSWERS.get(_instruction(p), '{"unparseable": true}')) as server:
        fb = LlmFallbackParser(parser, _settings(server, tmp_path / "cache"))
        rule = fb.parse("I prefer Italian restaurants in San Jose.")
        assert rule.parsed_by == "rules" and server.prompts == []  # parsed by rules: no request
        got = {t: fb.parse(t, instruction_id=7) for t in ANSWERS}
        assert len(server.prompts) == len(ANSWERS)
        burmese = got["For restaurants I want Burmese food."]
        assert isinstance(burmese, Rule) and burmese.parsed_by == "llm" and burmese.instruction_id == 7
        assert burmese.domains == ("Restaurants",) and burmese.action == ("cuisine", "Burmese")
        fly = got["When I am flying, I like to sit up front where the seats are widest."]
        assert isinstance(fly, Rule) and fly.action == ("seating_class", "First Class")  # closed set, domain named
        # never trusted: a value the instruction never says, a slot the schema lacks, no JSON
        assert "does not occur" in got["I like to sing in the shower."].reason
        assert "no slot 'food_type'" in got["My favourite food is Burmese."].reason
        assert "no JSON object" in got["Remind me to call mom."].reason
        assert all(isinstance(got[t], Unparsed) and got[t].reason.startswith("no slot value") for t in list(ANSWERS)[2:])
        assert (fb.accepted, fb.rejected) == (2, 3)
        # second parser, same cache dir and model: answered from disk, no request
        fb2 = LlmFallbackParser(InstructionParser(schema()), _settings(server, tmp_path / "cache"))
        assert fb2.parse("For restaurants I want Burmese food.").action == ("cuisine", "Burmese")
        assert len(server.prompts) == len(ANSWERS) and fb2.client.cache_hits == 1
        # another model is another key
        fb3 = LlmFallbackParser(InstructionParser(schema()), _settings(server, tmp_path / "cache", model="other"))
        fb3.parse("For restaurants I want Burmese food.")
        assert len(server.prompts) == len(ANSWERS) + 1


@pytest.mark.parametrize("answer, reason", [
    ({"domain": "Shops", "action": ["x", "y"]}, "unknown domain"),
    ({"domain": "Restaurants", "action": ["price_range", "free"]}, "not a value"),
    ({"domain": "Restaurants", "condition": [["cuisine"]], "action": ["price_range", "cheap"]}, "not a [slot, value] pair"),
    ({"domain": "Restaurants", "condition": []}, "no action"),
    ({"domain": "Travel", "also_domain": "Hotels"}, "does not name both"),
    ([1, 2], "not a JSON object"),
])  # fmt: skip
def test_validate_rejects(answer, reason):
    got = validate_answer(schema(), "Cheap places to eat please, with Burmese food.", answer)
    assert isinstance(got, str) and reason in got


def test_validate_accepts_a_chain_and_an_also_rule():
    sch = schema()
    chain = validate_answer(sch, "If I go to a Music event, it should be Blues.",
                            {"domain": "Events", "condition": [["event_type", "music"]], "action": ["category", "Blues"]})  # fmt: skip
    assert chain.condition == (("event_type", "Music"),) and chain.action == ("category", "Blues")
    also = validate_answer(sch, "Whenever I look for flights, check hotels too.", {"domain": "Flights", "also_domain": "Hotels"})
    assert also.also_domain == "Hotels" and also.parsed_by == "llm"


def test_calls_llm_parse_flag(tmp_path):
    from click.testing import CliRunner

    from csp_check.cli.main import main

    ex = example("User: Find me a restaurant in San Jose.", ["For restaurants I want Burmese food."],
                 ['GetRestaurants(city="San Jose", cuisine="Burmese")'])  # fmt: skip
    data = tmp_path / "ex.jsonl"
    data.write_text(ex.model_dump_json() + "\n")
    runner = CliRunner()
    plain = runner.invoke(main, ["calls", str(data), "--schema", str(SCHEMA_FILE), "--report", str(tmp_path / "a.jsonl")])
    assert plain.exit_code == 1  # cuisine=Burmese is not grounded without the instruction
    assert runner.invoke(main, ["calls", str(data), "--schema", str(SCHEMA_FILE), "--llm-parse"],
                         env={"OPENAI_BASE_URL": ""}).exit_code == 2  # fmt: skip
    with FakeChat(lambda p: ANSWERS.get(_instruction(p), '{"unparseable": true}')) as server:
        res = runner.invoke(main, ["calls", str(data), "--schema", str(SCHEMA_FILE), "--llm-parse", "--base-url", server.base_url,
                                   "--model", "fake", "--cache-dir", str(tmp_path / "c"), "--report", str(tmp_path / "b.jsonl")])  # fmt: skip
    assert res.exit_code == 0, res.output
    rep = json.loads((tmp_path / "b.jsonl").read_text())
    assert rep["status"] == "consistent" and rep["unparsed_instructions"] == []
    assert re.search(r"Burmese food\. \(Restaurants: if called then cuisine=Burmese\)", rep["llm_parsed_instructions"][0])
    assert json.loads((tmp_path / "a.jsonl").read_text())["llm_parsed_instructions"] is None


def test_checker_without_llm_never_asks():
    checker = Checker(schema())
    assert checker.fallback is None


# --------------------------------------------------------------------------- ICL selection

from csp_check.nlsi.metrics import selection_scores  # noqa: E402
from csp_check.nlsi.models import ReasoningType  # noqa: E402
from csp_check.nlsi.selection import LlmIclSelector, parse_selection  # noqa: E402

PROFILE = ["I prefer Italian restaurants.", "When I fly, I prefer Delta Airlines.", "For events, I like Music."]


def _icl_examples() -> list:
    out = []
    for k, rtype in enumerate([t for t in ReasoningType if t is not ReasoningType.UNKNOWN]):
        for j in range(3):
            out.append(example(f"User: request {k}-{j} about food.", PROFILE, [], applicable=[PROFILE[j]], rtype=rtype, eid=f"{k}-{j}"))
    return out


def _icl_answer(prompt: str) -> str:
    """Selects PROFILE[j] for dialogue 'request k-j' (lower-cased, numbered), plus one
    instruction the profile lacks for j == 2."""
    test = prompt.split("### Test example\n", 1)[1]
    j = int(re.search(r"request \d+-(\d)", test).group(1))
    lines = ["Applicable:", f"1. {PROFILE[j].lower().rstrip('.')}"]
    if j == 2:
        lines.append("2. Always book the cheapest flight.")
    return "\n".join(lines)


def test_parse_selection_maps_profile_and_keeps_hallucinations():
    ex = example("User: hi", PROFILE, [])
    got = parse_selection("Sure:\n- i prefer ITALIAN restaurants\n* None\n3) Book me a spa.\n- I prefer Italian restaurants.", ex)
    assert got == ["I prefer Italian restaurants.", "Book me a spa."]


def test_icl_selector_demos_prompt_scores_and_cache(tmp_path):
    examples = _icl_examples()
    with FakeChat(_icl_answer) as server:
        sel = LlmIclSelector(examples, _settings(server, tmp_path / "cache"), seed=3)
        assert sorted(e.reasoning_type.value for e in sel.demos) == sorted(t.value for t in ReasoningType if t is not ReasoningType.UNKNOWN)
        test = [e for e in examples if e.example_id not in sel.demo_ids]
        picks = sel.select_many(test)
        assert len(server.prompts) == len(test)
        prompt = server.prompts[0]
        assert prompt.count("### Example") == 6 and prompt.count("### Test example") == 1
        for e, p in zip(test, picks):
            j = int(str(e.example_id)[-1])
            assert p[0] == PROFILE[j]
            em, f1_, halluc = selection_scores(p, [PROFILE[j]], PROFILE)
            assert em and f1_ == 1.0 and halluc == (0.5 if j == 2 else 0.0)
        again = LlmIclSelector(examples, _settings(server, tmp_path / "cache"), seed=3).select_many(test)
        assert again == picks and len(server.prompts) == len(test)  # all from the disk cache


# --------------------------------------------------------------------------- nlsi experiment

from support.nlsi import SGD_DEV  # noqa: E402


def _oracle_answer(examples):
    """A fake model that selects each example's gold applicable instructions (found by its dialogue)."""
    def key(dialogue: str, profile: list[str]) -> tuple:
        return dialogue.strip(), tuple(profile)

    gold = {key(e.user_utterance, [i.nl_instruction for i in e.all_standing_instructions]):
            [i.nl_instruction for i in e.applicable_standing_instructions or []] for e in examples}  # fmt: skip

    def answer(prompt: str) -> str:
        block = prompt.split("### Test example\nDialogue:\n", 1)[1]
        dialogue, rest = block.split("\nProfile:\n", 1)
        profile = [line[2:] for line in rest.split("\nApplicable:", 1)[0].splitlines()]
        return "\n".join(f"- {s}" for s in gold[key(dialogue, profile)]) or "- None"

    return answer


@pytest.mark.skipif(not (SGD_DEV / "schema.json").exists(), reason="shared SGD dev split not present")
def test_nlsi_experiment_tables_csv_plot(tmp_path):
    import csv

    from click.testing import CliRunner

    from csp_check.cli.main import main
    from csp_check.nlsi.readers import read_examples

    runner = CliRunner()
    data = tmp_path / "dev.nlsi.jsonl"
    assert runner.invoke(main, ["nlsi", "build", str(SGD_DEV), "--out", str(data), "--limit", "150"]).exit_code == 0
    examples = list(read_examples(data))
    with FakeChat(_oracle_answer(examples)) as server:
        res = runner.invoke(main, ["nlsi", "experiment", str(data), "--out", str(tmp_path / "exp"), "--icl", "--base-url",
                                   server.base_url, "--model", "fake", "--cache-dir", str(tmp_path / "c")])  # fmt: skip
        assert res.exit_code == 0, res.output
        assert len(server.prompts) == 150 - 6
    out = tmp_path / "exp"
    assert {p.name for p in out.iterdir()} == {"nlsi_tables.md", "nlsi_methods.csv", "nlsi_by_type.csv", "nlsi_by_type.png"}
    methods = {r["method"]: r for r in csv.DictReader(open(out / "nlsi_methods.csv"))}
    assert {"derive", "bm25", "llm-icl", "paper GPT-4: BM25 selection"} <= methods.keys()
    assert methods["llm-icl"]["n"] == methods["derive"]["n"] == "144"
    # the fake model is an oracle selector: instruction EM 100, no hallucination
    assert float(methods["llm-icl"]["instr. EM"]) == 100.0 and float(methods["llm-icl"]["halluc."]) == 0.0
    assert float(methods["bm25"]["instr. EM"]) < 100.0
    by_type = list(csv.DictReader(open(out / "nlsi_by_type.csv")))
    for m in ("derive", "bm25", "llm-icl"):
        assert sum(int(r["n"]) for r in by_type if r["method"] == m) == 144
    assert "| llm-icl |" in (out / "nlsi_tables.md").read_text()
    # without --icl: no LLM row, no request, and --icl without a server is a usage error
    res = runner.invoke(main, ["nlsi", "experiment", str(data), "--out", str(tmp_path / "e2"), "--no-plots"], env={"OPENAI_BASE_URL": ""})
    assert res.exit_code == 0 and "llm-icl" not in (tmp_path / "e2" / "nlsi_tables.md").read_text()
    assert not (tmp_path / "e2" / "nlsi_by_type.png").exists()
    assert runner.invoke(main, ["nlsi", "experiment", str(data), "--icl"], env={"OPENAI_BASE_URL": ""}).exit_code == 2


def test_assert_calls_consistent_with_llm_parse(tmp_path):
    from csp_check.plugin.calls import InconsistentCalls, assert_calls_consistent

    ex = example("User: Find me a restaurant in San Jose.", ["For restaurants I want Burmese food."],
                 ['GetRestaurants(city="San Jose", cuisine="Burmese")'])  # fmt: skip
    with pytest.raises(InconsistentCalls, match="P2"):
        assert_calls_consistent(ex, schema=SCHEMA_FILE)
    with FakeChat(lambda p: ANSWERS.get(_instruction(p), '{"unparseable": true}')) as server:
        reports = assert_calls_consistent(ex, schema=SCHEMA_FILE, llm_parse=_settings(server, tmp_path / "c"))
    assert reports[0].llm_parsed_instructions and len(server.prompts) == 1
