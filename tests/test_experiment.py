"""Experiment parts: KB sampling the paper's way, tables (ours beside the paper's), plots, and a
small real run on SGD Restaurants_1."""

from __future__ import annotations

import csv

import pytest
from support.data import MULTIWOZ, SGD

from csp_check.experiment import ExperimentConfig, run_experiment, write_outputs
from csp_check.experiment.kb import DomainPool, pertinent_instances, sample_kb, with_kb_only
from csp_check.experiment.run import CONFIGS, DialogueResult, ExperimentResult, Score
from csp_check.experiment.tables import all_tables, gca, vca
from csp_check.models import ActRole, ApiCall, Dialogue, DialogueAct, KbResult, Turn


def restaurant(name: str, city: str = "San Jose", **extra: str) -> dict[str, str]:
    return {"restaurant_name": name, "city": city, "cuisine": "Italian", **extra}


def dialogue(did: str, offered: list[tuple[str, str]], results: list[dict], booked: dict | None = None) -> Dialogue:
    """A dialogue whose system turn t offers ``offered[t]`` (name, city), having seen ``results``."""
    turns = [Turn(index=0, speaker="user", utterance="Find me a place.")]
    for i, (name, city) in enumerate(offered):
        acts = [
            DialogueAct(role=ActRole.OFFER, act="OFFER", domain="R", slot="restaurant_name", value=name),
            DialogueAct(role=ActRole.OFFER, act="OFFER", domain="R", slot="city", value=city),
        ]
        kb = [KbResult(domain="R", call=ApiCall(domain="R", method="FindRestaurants"), entities=results)] if i == 0 else []
        turns.append(Turn(index=len(turns), speaker="system", utterance=f"How about {name}?", acts=acts, kb_results=kb))
    if booked:
        call = ApiCall(domain="R", method="ReserveRestaurant")
        turns.append(Turn(index=len(turns), speaker="system", utterance="Booked.", kb_results=[KbResult(domain="R", call=call, entities=[booked])],
                          acts=[DialogueAct(role=ActRole.BOOKED, act="NOTIFY_SUCCESS", domain="R")]))  # fmt: skip
    return Dialogue(id=did, domains=["R"], turns=turns)


POOL_RESULTS = [restaurant(f"r{i}", "Palo Alto") for i in range(20)]
DIALOGUES = [
    dialogue("d1", [("Napoli", "San Jose"), ("Mario", "San Jose")],
             [restaurant("Napoli"), restaurant("Mario"), restaurant("Napoli", "Palo Alto"), restaurant("Roma")],
             booked=restaurant("Mario", time="11:30", party_size="2")),
    dialogue("d2", [("r3", "Palo Alto")], POOL_RESULTS),
]  # fmt: skip


def pool() -> DomainPool:
    return DomainPool.of(DIALOGUES, "R", transactional={"ReserveRestaurant"})


def test_pool_has_search_results_only():
    p = pool()
    assert p.name_column == "restaurant_name"
    assert len(p.entities) == 4 + 20
    assert p.columns == {"restaurant_name", "city", "cuisine"}  # no booking fields


def test_pertinent_instances_are_the_offered_ones_matched_by_name_and_city():
    assert pertinent_instances(DIALOGUES[0], pool()) == [restaurant("Napoli"), restaurant("Mario")]
    assert pertinent_instances(DIALOGUES[1], pool()) == [restaurant("r3", "Palo Alto")]


def test_sample_kb_is_seeded_bounded_and_order_independent():
    sizes = set()
    for seed in range(60):
        kb, pertinent, extra = sample_kb(DIALOGUES[0], pool(), seed=seed)
        entities = kb.tables["R"].entities
        assert restaurant("Napoli") in entities and restaurant("Mario") in entities
        assert pertinent == 2 and 0 <= extra <= 8 and len(entities) == pertinent + extra
        assert len({tuple(sorted(e.items())) for e in entities}) == len(entities)  # distinct
        sizes.add(extra)
    assert sizes == set(range(9))  # n uniform in 0..8: every size occurs
    again = DomainPool.of(list(reversed(DIALOGUES)), "R", transactional={"ReserveRestaurant"})
    assert sample_kb(DIALOGUES[0], pool(), seed=3) == sample_kb(DIALOGUES[0], pool(), seed=3)
    assert sample_kb(DIALOGUES[0], again, seed=3) == sample_kb(DIALOGUES[0], pool(), seed=3)  # pool order irrelevant
    assert sample_kb(DIALOGUES[0], pool(), seed=1)[0] != sample_kb(DIALOGUES[0], pool(), seed=2)[0]


def test_with_kb_only_drops_the_dialogues_own_results():
    bare = with_kb_only(DIALOGUES[0])
    assert all(not t.kb_results for t in bare.turns) and DIALOGUES[0].turns[1].kb_results


def _row(did: str, group: str, variables: int, consistent: dict[str, bool], agreeing: dict[str, int]) -> DialogueResult:
    scores = {
        name: {cfg: Score(consistent=consistent[name] or cfg == "all except domain", agreeing=agreeing[name]) for cfg in CONFIGS}
        for name in consistent
    }
    return DialogueResult(dialogue_id=did, variables=variables, group=group, solutions=1, coverage={"C1": variables, "C2": 2}, scores=scores)


def synthetic() -> ExperimentResult:
    rows = [
        _row("a", "1", 4, {"random": False, "csp": True}, {"random": 1, "csp": 4}),
        _row("b", "101+", 6, {"random": True, "csp": True}, {"random": 6, "csp": 6}),
        _row("c", "0", 10, {"random": False, "csp": False}, {"random": 0, "csp": 0}),
    ]
    return ExperimentResult(domain="R", seed=0, solver="cp-sat", relexicalizers=["random", "csp"], configs=list(CONFIGS), dialogues=rows)


def test_metrics():
    result = synthetic()
    assert gca(result.dialogues, "random") == pytest.approx(1 / 3)
    assert vca(result.dialogues, "random") == pytest.approx(7 / 20)
    assert gca(result.dialogues, "csp") == pytest.approx(2 / 3)
    assert gca(result.dialogues, "random", "all except domain") == 1.0
    assert gca([], "random") is None and vca([], "random") is None


def test_tables_put_the_paper_beside_ours(tmp_path):
    t1, t2, t3, t4, t5 = all_tables(synthetic())
    assert t1.rows[0] == ["all", 3, 20, 131, 768]
    assert t1.rows[1] == ["0 sol.", 1, 10, 56, 403]
    assert t2.rows[0] == ["C1", 20, 1.0, 768, 1.0] and t2.rows[1] == ["C2", 6, 0.3, 686, 0.89]
    assert t3.rows == [["Random", pytest.approx(1 / 3), 0.35, 0.01, 0.06], ["CSP (solver)", pytest.approx(2 / 3), 0.5, None, None]]
    assert t4.columns[-2:] == ["paper LLM GCA", "paper LLM VCA"] and t4.rows[1][-2:] == [0.31, 0.48]
    assert [r[0] for r in t5.rows] == list(CONFIGS) and t5.rows[-1][-2:] == [0.23, 0.56]
    md = t3.markdown()
    assert "| Random | 0.33 | 0.35 | 0.01 | 0.06 |" in md and "| CSP (solver) | 0.67 | 0.50 | – | – |" in md
    paths = write_outputs(synthetic(), tmp_path, plots=False)
    assert {p.name for p in paths} == {"results.jsonl", "tables.md", *(f"table{i}.csv" for i in range(1, 6))}
    with open(tmp_path / "table3.csv") as f:
        assert list(csv.reader(f))[1] == ["Random", "0.3333", "0.3500", "0.0100", "0.0600"]
    text = (tmp_path / "tables.md").read_text()
    assert all(f"### Table {i}" in text for i in range(1, 6))


def test_plots_are_png(tmp_path):
    pytest.importorskip("matplotlib")
    from csp_check.experiment.plots import write_plots

    paths = write_plots(synthetic(), tmp_path)
    assert [p.name for p in paths] == ["gca_vca.png", "coverage.png", "groups.png", "ablation.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 5000 for p in paths)


@pytest.mark.skipif(not SGD.exists(), reason="needs ../shared/data/sgd")
def test_small_run_on_sgd_restaurants(tmp_path):
    config = ExperimentConfig(paths=[SGD / "train" / "dialogues_001.json"], limit=6, seed=1, time_limit=5.0)
    result = run_experiment(config, log=lambda *_: None)
    rows = [r for r in result.dialogues if r.error is None]
    assert len(rows) == 6 and result.relexicalizers == ["random", "most-frequent", "csp"]
    for row in rows:
        assert 1 <= row.kb_size <= row.pertinent + 8 and row.variables > 0
        assert set(row.scores) == {"random", "most-frequent", "csp"} and set(row.scores["csp"]) == set(CONFIGS)
        if row.group != "0":
            assert row.scores["csp"]["all"].consistent and row.scores["csp"]["all"].agreeing == row.variables
        assert row.coverage["C1"] == row.variables
    again = run_experiment(config, log=lambda *_: None)
    assert [r.assignments for r in again.dialogues] == [r.assignments for r in result.dialogues]  # seeded
    paths = write_outputs(result, tmp_path, plots=False)
    assert (tmp_path / "tables.md").exists() and len(paths) == 7


@pytest.mark.skipif(not SGD.exists(), reason="needs ../shared/data/sgd")
def test_cli_experiment_command(tmp_path):
    from click.testing import CliRunner

    from csp_check.cli.main import main

    args = ["experiment", str(SGD / "train" / "dialogues_001.json"), "--limit", "3", "--no-plots", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "| CSP (solver) | 1.00 | 1.00 | – | – |" in result.output
    assert (tmp_path / "tables.md").exists() and (tmp_path / "table5.csv").exists()
    bad = CliRunner().invoke(main, [*args, "--solver", "nope"])
    assert bad.exit_code == 2


def test_pool_of_a_db_table_keeps_the_mentioned_columns_and_finds_named_instances():
    from csp_check.models import KbTable

    table = KbTable(domain="restaurant", entities=[
        {"name": "golden wok", "food": "chinese", "area": "north", "id": "1", "introduction": "long text"},
        {"name": "la raza", "food": "spanish", "area": "centre", "id": "2", "introduction": "other text"},
    ])  # fmt: skip
    said = DialogueAct(role=ActRole.INFORM, act="Restaurant-Inform", domain="restaurant", slot="name", value="La Raza")
    food = DialogueAct(role=ActRole.INFORM, act="Restaurant-Inform", domain="restaurant", slot="food", value="spanish")
    d = Dialogue(id="m1", domains=["restaurant"], turns=[
        Turn(index=0, speaker="user", utterance="Spanish food please."),
        Turn(index=1, speaker="system", utterance="La Raza serves spanish food.", acts=[said, food]),
    ])  # fmt: skip
    p = DomainPool.of_table(table, [d])
    assert p.name_column == "name" and p.columns == {"name", "food"}  # id, area, introduction unmentioned
    assert pertinent_instances(d, p) == [{"name": "la raza", "food": "spanish"}]


@pytest.mark.skipif(not (MULTIWOZ / "val.json.zip").exists(), reason="needs ../shared/data/multiwoz")
def test_cli_experiment_on_multiwoz_restaurants_with_its_db(tmp_path):
    import zipfile

    from click.testing import CliRunner

    from csp_check.cli.main import main

    with zipfile.ZipFile(MULTIWOZ / "val.json.zip") as z:
        z.extract("val.json", tmp_path)
    out = tmp_path / "out"
    args = ["experiment", str(tmp_path / "val.json"), "--kb", str(MULTIWOZ / "db"), "--domain", "restaurant",
            "--limit", "5", "--no-plots", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "| CSP (solver) |" in result.output and (out / "table1.csv").exists()
    rows = [r for r in (out / "results.jsonl").read_text().splitlines() if r]
    assert len(rows) == 5
    bad = CliRunner().invoke(main, [*args[:4], "--domain", "nowhere"])
    assert bad.exit_code == 2 and "no table 'nowhere'" in bad.output


@pytest.mark.skipif(not SGD.exists(), reason="needs ../shared/data/sgd")
def test_unreachable_llm_server_says_why_and_exits_2(tmp_path, monkeypatch):
    pytest.importorskip("openai")
    from click.testing import CliRunner

    from csp_check.cli.main import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    args = ["experiment", str(SGD / "train" / "dialogues_001.json"), "--limit", "2", "--no-plots", "--out",
            str(tmp_path), "--base-url", "http://127.0.0.1:9/v1", "--retries", "0", "--cache-dir", str(tmp_path / "c")]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output  # an environment error (issue 21)
    assert "OPENAI_API_KEY is not set" in result.output
    errors = [line for line in result.stderr.splitlines() if "error" in line or line.startswith("LLM")]
    assert errors == ["csp-check: error: --base-url http://127.0.0.1:9/v1: cannot reach the LLM server (gave up after 1 "
                      "attempt: APIConnectionError: Connection error.); the LLM row is left out of the tables (not measured)"]
    assert "No LLM row" in (tmp_path / "tables.md").read_text()
