"""NLSI on examples built from the shared SGD dev split (skipped when absent), and the CLI."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from support.nlsi import SCHEMA_FILE, SGD_DEV, example

from csp_check.cli.main import main
from csp_check.nlsi.build import build_examples
from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.faults import KINDS, make
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.metrics import exact_match
from csp_check.nlsi.models import ReasoningType

needs_sgd = pytest.mark.skipif(not (SGD_DEV / "schema.json").exists(), reason="shared SGD dev split not present")


@pytest.fixture(scope="module")
def built():
    if not (SGD_DEV / "schema.json").exists():
        pytest.skip("shared SGD dev split not present")
    return build_examples([SGD_DEV], seed=0)


@needs_sgd
def test_build_is_seeded_and_covers_every_type(built):
    schema, examples = built
    assert Counter(e.reasoning_type for e in examples).keys() >= set(ReasoningType) - {ReasoningType.UNKNOWN}
    again = build_examples([SGD_DEV], seed=0, limit=40)[1]
    assert [e.model_dump() for e in again] == [e.model_dump() for e in examples[:40]]
    other = build_examples([SGD_DEV], seed=1, limit=40)[1]
    assert [e.model_dump() for e in other] != [e.model_dump() for e in examples[:40]]
    for e in examples:
        texts = [i.nl_instruction for i in e.all_standing_instructions]
        assert {i.nl_instruction for i in e.applicable_standing_instructions} <= set(texts)
        if e.reasoning_type is not ReasoningType.NONE_APPLICABLE:
            assert e.applicable_standing_instructions or e.reasoning_type is ReasoningType.CONFLICT
        assert len(texts) >= 3  # distractors
    # both template and paraphrased wordings occur
    words = [i.nl_instruction for e in examples for i in e.all_standing_instructions]
    assert sum(w.startswith("If I ask for") for w in words) > 100
    assert sum(not w.startswith(("If I ask for", "If ")) for w in words) > 100


@needs_sgd
def test_gold_consistent_faults_flagged_and_derived(built):
    schema, examples = built
    checker = Checker(schema)
    reports = [checker.check(e, derive_calls=True) for e in examples]
    consistent = sum(r.status.value == "consistent" for r in reports)
    assert consistent / len(examples) >= 0.99
    unparsed = sum(len(r.unparsed_instructions) for r in reports)
    assert unparsed / sum(len(e.all_standing_instructions) for e in examples) < 0.01
    em = sum(exact_match(r.derived_api_calls, e.api_calls) for r, e in zip(reports, examples)) / len(examples)
    assert em >= 0.95
    rng = random.Random(0)
    right, total = Counter(), Counter()
    for e in examples[::5]:
        ctx = checker.context(e)
        gold, _ = parse_calls(e.api_calls)
        for kind in KINDS:
            fault = make(kind, ctx, gold, rng)
            if fault is not None:
                total[kind] += 1
                right[kind] += fault.family in {v.family for v in checker.check_calls(e, fault.calls, ctx).violations}
    for kind in KINDS:
        if total[kind] >= 5:
            assert right[kind] / total[kind] >= 0.97, kind


@needs_sgd
def test_paraphrases_parse_like_their_templates(built):
    schema, examples = built
    checker = Checker(schema)
    for e in examples[:150]:
        for ins in e.applicable_standing_instructions:
            out = checker.parser.parse(ins.nl_instruction)
            assert isinstance(out, Rule), out


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write(path, examples, extra_lines=()):
    with open(path, "w") as f:
        for e in examples:
            f.write(e.model_dump_json() + "\n")
        for line in extra_lines:
            f.write(line + "\n")
    return path


GOOD = example("User: Find me a Gynecologist.", ["I'd like to get a Doctor in San Rafael if I can."],
               ['GetDoctors(type="Gynecologist", location="San Rafael")'], applicable=["I'd like to get a Doctor in San Rafael if I can."],
               rtype=ReasoningType.PLAIN, eid="good")
BAD = GOOD.model_copy(update={"example_id": "bad", "api_calls": ['GetDoctors(type="Gynecologist")']})


def test_cli_exit_codes_and_report(tmp_path):
    path = write(tmp_path / "a.jsonl", [GOOD])
    assert invoke("calls", path, "--schema", SCHEMA_FILE).exit_code == 0
    path = write(tmp_path / "b.jsonl", [GOOD, BAD])
    report = tmp_path / "r.jsonl"
    result = invoke("calls", path, "--schema", SCHEMA_FILE, "--report", report)
    assert result.exit_code == 1
    lines = [json.loads(x) for x in report.read_text().splitlines()]
    assert [x["status"] for x in lines] == ["consistent", "inconsistent"]
    v = lines[1]["violations"][0]
    assert v["family"] == "P4" and v["argument"] == "location" and v["instruction"].startswith("I'd like")


def test_cli_bad_input_one_line_errors_exit_2(tmp_path):
    malformed = GOOD.model_copy(update={"example_id": "m", "api_calls": ['GetDoctors(type="Gynecologist"', 'GetDenists(type="x")']})
    empty = GOOD.model_copy(update={"example_id": "e", "all_standing_instructions": []})
    path = write(tmp_path / "c.jsonl", [GOOD, malformed, empty, BAD], ["{nope", '"just a string"'])
    report = tmp_path / "r.jsonl"
    result = invoke("calls", path, "--schema", SCHEMA_FILE, "--report", report)
    assert result.exit_code == 2
    err = result.stderr if hasattr(result, "stderr") else result.output
    assert "not JSON" in err and "malformed call" in err and "unknown method GetDenists" in err and "empty profile" in err
    assert "Traceback" not in err
    statuses = {json.loads(x)["example_id"]: json.loads(x)["status"] for x in report.read_text().splitlines()}
    assert statuses == {"good": "consistent", "m": "error", "e": "error", "bad": "inconsistent"}


def test_cli_derive_and_pred_field(tmp_path):
    pred = GOOD.model_copy(update={"pred_api_calls": ['GetDoctors(type="Gynecologist", location="Oakland")']})
    path = write(tmp_path / "d.jsonl", [pred])
    report = tmp_path / "r.jsonl"
    result = invoke("calls", path, "--schema", SCHEMA_FILE, "--derive", "--report", report)
    assert result.exit_code == 0 and "slot_f1" in result.output and "58.5" in result.output
    line = json.loads(report.read_text())
    assert line["derived_api_calls"] == ['GetDoctors(location="San Rafael", type="Gynecologist")']
    assert line["derived_instructions"] == ["I'd like to get a Doctor in San Rafael if I can."]
    assert invoke("calls", path, "--schema", SCHEMA_FILE, "--field", "pred_api_calls").exit_code == 1


def test_cli_no_schema_is_a_usage_error(tmp_path):
    path = write(tmp_path / "e.jsonl", [GOOD])
    assert invoke("calls", path).exit_code == 2


@needs_sgd
def test_cli_build_then_calls_with_jobs(tmp_path):
    out = tmp_path / "built.jsonl"
    result = invoke("nlsi", "build", SGD_DEV / "dialogues_001.json", "--out", out, "--seed", "3", "--limit", "60")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "built.schema.json").exists() and len(out.read_text().splitlines()) == 60
    single = invoke("calls", out, "--report", tmp_path / "r1.jsonl")
    multi = invoke("calls", out, "--jobs", "2", "--report", tmp_path / "r2.jsonl")
    assert single.exit_code == multi.exit_code == 0, single.output
    assert (tmp_path / "r1.jsonl").read_text() == (tmp_path / "r2.jsonl").read_text()


@needs_sgd
def test_parser_accuracy_on_template_and_paraphrase_wordings(built):
    from csp_check.nlsi.parser_eval import parser_accuracy

    schema, examples = built
    counts, wrong = parser_accuracy(Checker(schema).parser, examples)
    for kind in ("template", "paraphrase"):
        assert counts[kind, "n"] > 300
        assert counts[kind, "right"] / counts[kind, "n"] >= 0.98, wrong


@needs_sgd
def test_outputs_never_overwrite_inputs_or_other_files(tmp_path):
    source = tmp_path / "dialogues_001.json"
    source.write_bytes((SGD_DEV / "dialogues_001.json").read_bytes())
    (tmp_path / "schema.json").write_bytes((SGD_DEV / "schema.json").read_bytes())
    other = tmp_path / "notes.txt"
    other.write_text("mine\n")
    for out in (source, other):
        result = CliRunner().invoke(main, ["nlsi", "build", str(source), "--out", str(out), "--limit", "2"])
        assert result.exit_code == 2 and "refusing to overwrite" in result.output
    assert other.read_text() == "mine\n" and source.stat().st_size == (SGD_DEV / "dialogues_001.json").stat().st_size
    built = tmp_path / "ex.jsonl"
    assert CliRunner().invoke(main, ["nlsi", "build", str(source), "--out", str(built), "--limit", "3"]).exit_code == 0
    assert CliRunner().invoke(main, ["nlsi", "build", str(source), "--out", str(built), "--limit", "3"]).exit_code == 0
    size = built.stat().st_size
    for report in (built, other):
        result = CliRunner().invoke(main, ["calls", str(built), "--report", str(report)])
        assert result.exit_code == 2 and "refusing to overwrite" in result.output
    assert built.stat().st_size == size and other.read_text() == "mine\n"
    report = tmp_path / "calls.jsonl"
    for _ in range(2):  # a report of an earlier run may be replaced
        assert CliRunner().invoke(main, ["calls", str(built), "--report", str(report)]).exit_code == 0


@needs_sgd
def test_build_skips_a_broken_dialogue_and_file_naming_them(tmp_path):
    """One dialogue without an utterance and one truncated file: each is one error line naming
    file, dialogue and field; the other dialogues are still built; exit 2."""
    source = tmp_path / "sgd"
    source.mkdir()
    (source / "schema.json").write_text((SGD_DEV / "schema.json").read_text())
    dialogues = json.loads((SGD_DEV / "dialogues_001.json").read_text())[:40]
    broken = dialogues[2]["dialogue_id"]
    del dialogues[2]["turns"][1]["utterance"]
    (source / "dialogues_001.json").write_text(json.dumps(dialogues))
    (source / "dialogues_002.json").write_text(json.dumps(dialogues)[:3000])
    out = tmp_path / "x.jsonl"
    result = invoke("nlsi", "build", source, "--out", out)
    assert result.exit_code == 2, result.output
    assert f"dialogue {broken}: field turns[1].utterance missing" in result.output
    assert "dialogues_002.json: invalid JSON at line 1" in result.output
    built = [json.loads(line) for line in out.read_text().splitlines()]
    assert built and all(not e["example_id"].startswith(broken) for e in built)


def test_calls_names_a_missing_input_before_any_schema(tmp_path):
    result = invoke("calls", tmp_path / "nope.jsonl")
    assert result.exit_code == 2
    assert "nope.jsonl: no such file" in result.output
    assert "schema" not in result.output
