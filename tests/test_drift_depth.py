"""Consistency by depth (issue 23): validate's violations by turn index, and ``csp-check drift
--corpus`` on the shared SGD and MultiWOZ data and on an LLM-relexicalized experiment corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, SGD_DEV, needs_multiwoz, needs_multiwoz_val, needs_sgd
from support.drift_agent import fill_masks
from support.openai_server import FakeOpenAI

from csp_check.cli.main import main
from csp_check.drift.depth import depth_curve
from csp_check.experiment import CONFIGS, ExperimentConfig, run_experiment, write_outputs
from csp_check.llm.client import LLMSettings
from csp_check.models import ConstraintId, DialogueReport, Status, Violation
from csp_check.readers.kb import load_kb
from csp_check.score.corpus import CorpusSummary

REPO = Path(__file__).resolve().parents[1]


def violation(turns: list[int], certain: bool = True) -> Violation:
    return Violation(constraint=ConstraintId("C5"), turns=turns, variables=[], message="m", certain=certain,
                     uncertain_reason=None if certain else "doubt")  # fmt: skip


def report(turns: int, *violations: Violation) -> DialogueReport:
    status = Status.INCONSISTENT if any(v.certain for v in violations) else Status.CONSISTENT
    return DialogueReport(dialogue_id=f"d{turns}{len(violations)}", status=status, turns=turns, violations=list(violations))


def test_violations_by_turn_count_certain_ones_where_they_surface() -> None:
    summary = CorpusSummary()
    summary.add(report(4, violation([0, 2]), violation([1, 2]), violation([3], certain=False)))
    summary.add(report(2, violation([1])))
    summary.add(report(6))
    summary.add(DialogueReport(dialogue_id="e", status=Status.ERROR, error="x"))  # no turns known: nothing
    rows = [(r.turn, r.dialogues, r.violated) for r in summary.by_turn()]
    assert rows == [(0, 3, 0), (1, 3, 1), (2, 2, 1), (3, 2, 0), (4, 1, 0), (5, 1, 0)]
    assert summary.to_json_dict()["violations_by_turn"][1] == {"turn": 1, "dialogues": 3, "violated": 1, "share": 1 / 3}
    curve = depth_curve(summary, "c")
    assert curve.rounds == [1, 2, 3] and curve.n == [6, 4, 2]
    assert curve.mean == [pytest.approx(5 / 6), 0.75, 1.0]
    assert curve.low[0] < curve.mean[0] < curve.high[0] and curve.low[2] == curve.high[2] == 1.0
    assert depth_curve(summary, "c", max_rounds=2).rounds == [1, 2]


def test_validate_reports_violations_by_turn_in_json_and_in_one_added_section() -> None:
    args = ["validate", str(REPO / "examples" / "raw_dialogues.txt"), "--kb", str(REPO / "kb" / "restaurants.json")]
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert [(r["turn"], r["dialogues"], r["violated"]) for r in data["violations_by_turn"]] == [
        (0, 3, 0), (1, 3, 2), (2, 3, 0), (3, 3, 1), (4, 1, 0), (5, 1, 0)]  # fmt: skip
    text = CliRunner().invoke(main, args).stdout
    assert "Certain violations by turn (where they surface)" in text
    assert text.index("Violations by constraint") < text.index("Certain violations by turn") < text.index("First 3 violation")


def corpus_run(tmp_path: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["drift", "--quiet", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "out" / "drift.json").read_text())


@needs_sgd
def test_corpus_depth_on_sgd_dev(tmp_path: Path) -> None:
    data = corpus_run(tmp_path, "--corpus", str(SGD_DEV / "dialogues_001.json"), "--limit", "60", "--no-plot")
    (curve,) = data["corpus"]
    assert curve["label"] == "dialogues_001.json (60 dialogues)" and curve["n"][0] == 120
    assert len(curve["rounds"]) >= 5 and all(0.0 <= v <= 1.0 for v in curve["mean"] + curve["low"] + curve["high"])
    assert data["prompts"] == [] and data["categories"] == []


@needs_multiwoz
@needs_multiwoz_val
def test_corpus_depth_on_multiwoz_val_with_its_db_and_beside_earlier_self_chats(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    out.mkdir()
    earlier = {"prompts": [], "mean": [1.0, 0.5], "rounds": [1, 2],
               "categories": [{"label": "language", "rounds": [1, 2], "mean": [1.0, 0.5], "low": [1.0, 0.3],
                               "high": [1.0, 0.7], "n": [3, 3]}], "corpus": [], "config": {"rounds": 2}}  # fmt: skip
    (out / "drift.json").write_text(json.dumps(earlier))
    data = corpus_run(tmp_path, "--corpus", str(MULTIWOZ_VAL), "--kb", str(MULTIWOZ_DB), "--limit", "60")
    assert [c["label"] for c in data["categories"]] == ["language"]  # the self-chat curves stay
    (curve,) = data["corpus"]
    assert curve["label"] == "val.json.zip (60 dialogues)" and curve["n"][0] == 120
    assert min(curve["mean"]) < 1.0  # the checker flags some MultiWOZ turns
    assert (out / "drift.png").read_bytes()[:4] == b"\x89PNG"
    rows = (out / "drift.csv").read_text().splitlines()
    assert any(r.startswith("corpus,val.json.zip (60 dialogues),,1,") for r in rows)


@needs_multiwoz
@needs_multiwoz_val
def test_corpus_depth_on_an_llm_relexicalized_experiment(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    experiment = tmp_path / "experiment"
    kb = load_kb(MULTIWOZ_DB)
    with FakeOpenAI(fill_masks) as server:  # what `csp-check experiment --base-url` runs, the LLM row and GCA only
        llm = LLMSettings(base_url=server.base_url, model="fake", cache_dir=tmp_path / "cache")
        config = ExperimentConfig(paths=[MULTIWOZ_VAL], domain="restaurant", kb=kb, limit=3, relexicalizers=(), llm=llm,
                                  llm_progress=False, configs={"all": CONFIGS["all"]})  # fmt: skip
        write_outputs(run_experiment(config), experiment, plots=False)
    data = corpus_run(tmp_path, "--corpus", str(experiment), "--kb", str(MULTIWOZ_DB), "--no-plot")
    (curve,) = data["corpus"]
    assert curve["label"] == "experiment (llm) (3 dialogues)"
    text = (tmp_path / "out" / "relexicalized-llm-experiment.txt").read_text()
    assert text.count("### ") == 3 and "[x" not in text and "[MASK]" not in text
    # the fake fills masks with the first KB entity's values: some are written into the text
    rows = [json.loads(line) for line in (experiment / "results.jsonl").read_text().splitlines()]
    filled = {str(v) for row in rows for v in row["assignments"]["llm"].values() if isinstance(v, str) and len(v) > 3}
    assert any(value in text for value in filled)
    refused = CliRunner().invoke(main, ["drift", "--corpus", str(experiment), "--out", str(tmp_path / "o2")])
    assert refused.exit_code == 2 and "give --kb" in refused.output
