"""CI-ToD: the reader, the labels from the families (with true twins that must not be flagged),
the benchmark's metrics and command, the labels in validate's report lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.citod import NAV_KB
from support.data import SHARED_DATA

from csp_check.cli.main import main
from csp_check.errors import InputError
from csp_check.models import Dialogue
from csp_check.readers import citod, read_dialogues, sniff_format
from csp_check.score.citod import labels_of, violations
from csp_check.score.citod_bench import disagreements, disagreements_markdown, fault_rates, run

CITOD = SHARED_DATA / "citod"
needs_citod = pytest.mark.skipif(not (CITOD / "navigate_dev.json").is_file(), reason="../shared/data/citod is absent")

ONTOLOGY = {"poi": ["hotel_keen", "the_westin", "trader_joes", "four_seasons"],
            "address": ["578_arbol_dr", "329_el_camino_real", "408_university_ave", "465_arcadia_pl"],
            "distance": ["2_miles", "3_miles", "5_miles"], "traffic_info": ["no_traffic", "heavy_traffic",
            "moderate_traffic"], "poi_type": ["rest_stop", "grocery_store"]}


def item(turns: list[str], kb: list[dict] | None = None, labels: str = "000", ident: int = 1) -> dict:
    """A CI-ToD item: driver / assistant turns alternating from the driver."""
    return {"id": ident, "dialogue": [{"turn": "driver" if i % 2 == 0 else "assistant", "utterance": u}
                                      for i, u in enumerate(turns)],
            "scenario": {"kb": {"items": NAV_KB if kb is None else kb}, "qi": labels[0], "hi": labels[1],
                         "kbi": labels[2]}, "HIPosition": []}


def write(tmp_path: Path, items: list[dict], name: str = "navigate_dev.json") -> Path:
    (tmp_path / "entities.json").write_text(json.dumps(ONTOLOGY))
    path = tmp_path / name
    path.write_text(json.dumps(items))
    return path


def labels(tmp_path: Path, turns: list[str]) -> tuple[bool, bool, bool]:
    [(dialogue, _)] = list(citod.items(write(tmp_path, [item(turns)])))
    assert isinstance(dialogue, Dialogue)
    return labels_of(violations(dialogue)).triple()


def test_the_reader_turns_an_item_into_a_dialogue_with_its_own_kb(tmp_path: Path) -> None:
    path = write(tmp_path, [item(["where is a rest_stop", "hotel_keen is 3_miles away"], labels="011", ident=7)])
    assert sniff_format(path) == "citod"
    [d] = list(read_dialogues([path]))
    assert isinstance(d, Dialogue) and d.id == "7" and d.format == "citod" and d.domains == ["navigate"]
    assert [t.speaker for t in d.turns] == ["user", "system"]
    assert citod.kb_rows(d) == NAV_KB and "hotel_keen" in d.ontology["navigate.poi"]
    [(_, gold)] = list(citod.items(path))
    assert gold is not None and gold.triple() == (False, True, True)


def test_a_broken_item_is_one_error_naming_file_item_and_field(tmp_path: Path) -> None:
    good = item(["where is a rest_stop", "hotel_keen is 3_miles away"])
    bad = item(["hi", "hello"], ident=9)
    bad["dialogue"][1]["turn"] = "robot"
    out = list(read_dialogues([write(tmp_path, [bad, good])]))
    assert isinstance(out[0], InputError) and isinstance(out[1], Dialogue)
    assert "item 0" in out[0].file and out[0].dialogue == "9" and "dialogue[1].turn" in str(out[0])


def test_kbi_an_entity_or_attribute_the_kb_does_not_have_and_its_true_twins(tmp_path: Path) -> None:
    assert labels(tmp_path, ["where is a hotel", "here are directions to four_seasons"])[2]
    assert not labels(tmp_path, ["where is a hotel", "here are directions to the_westin"])[2]
    assert labels(tmp_path, ["where is a hotel", "hotel_keen is 5_miles away"])[2]
    assert not labels(tmp_path, ["where is a hotel", "hotel_keen is 3_miles away"])[2]
    assert labels(tmp_path, ["i need a grocery_store", "i do not have any grocery_store nearby"])[2]
    assert not labels(tmp_path, ["i need a gas station", "i do not have any gas station nearby"])[2]


def test_hi_and_qi_a_switch_from_the_settled_entity_and_its_true_twin(tmp_path: Path) -> None:
    settled = ["find me a hotel", "hotel_keen is 3_miles away", "yes please set directions"]
    assert labels(tmp_path, [*settled, "navigation set to the_westin"])[:2] == (True, True)
    assert labels(tmp_path, [*settled, "navigation set to hotel_keen"])[:2] == (False, False)
    another = ["find me a hotel", "hotel_keen is 3_miles away", "is there any other hotel"]
    assert labels(tmp_path, [*another, "the_westin is 5_miles away"])[:2] == (False, False)


def test_hi_an_attribute_an_earlier_turn_gave_otherwise(tmp_path: Path) -> None:
    history = ["find me a hotel", "hotel_keen is 3_miles away", "what is the address"]
    assert labels(tmp_path, [*history, "hotel_keen is 5_miles away"])[1]
    assert not labels(tmp_path, [*history, "hotel_keen is at 578_arbol_dr"])[1]


def test_qi_a_welcome_that_answers_no_thanks_and_its_twin(tmp_path: Path) -> None:
    history = ["find me a hotel", "hotel_keen is 3_miles away"]
    assert labels(tmp_path, [*history, "what is the address", "you are welcome"])[0]
    assert not labels(tmp_path, [*history, "thanks a lot", "you are welcome"])[0]


def test_validate_writes_the_labels_in_each_report_line(tmp_path: Path) -> None:
    path = write(tmp_path, [item(["where is a hotel", "here are directions to four_seasons"])])
    report = tmp_path / "report.jsonl"
    result = CliRunner().invoke(main, ["validate", str(path), "--report", str(report), "--quiet"])
    assert result.exit_code == 1, result.output
    line = json.loads(report.read_text().splitlines()[0])
    assert line["extra"]["labels"] == {"qi": False, "hi": False, "kbi": True}
    assert line["status"] == "inconsistent" and line["violations"][0]["constraint"] == "C5"


def test_benchmark_citod_prints_the_metrics_and_fails_on_a_broken_item(tmp_path: Path) -> None:
    items = [item(["where is a hotel", "here are directions to four_seasons"], labels="001", ident=1),
             item(["where is a hotel", "hotel_keen is 3_miles away"], labels="100", ident=2)]
    path = write(tmp_path, items)
    result = CliRunner().invoke(main, ["benchmark", "citod", str(path), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["kbi"]["f1"] == 1.0 and figures["qi"]["recall"] == 0.0 and figures["overall"] == 0.5
    broken = write(tmp_path, [*items, {"id": 3}], name="calendar_dev.json")
    result = CliRunner().invoke(main, ["benchmark", "citod", str(broken)])
    assert result.exit_code == 2 and "BART" in result.output and "item 2" in result.output


@needs_citod
def test_dev_sample_labels_match_the_gold_ones() -> None:
    """The first 40 navigate and 20 calendar dev dialogues: real labels, not a stub."""
    bench = run([CITOD / "navigate_dev.json"])
    bench.scored = bench.scored[:40] + run([CITOD / "calendar_dev.json"]).scored[:20]
    assert bench.accuracy >= 0.7
    assert bench.prf("kbi")[2] >= 0.85 and bench.prf("qi")[2] >= 0.6
    chosen = disagreements(bench, 5)
    assert chosen and all(not s.right for s in chosen)
    text = disagreements_markdown(chosen)
    assert text.count("## ") == len(chosen) and "| KBI |" in text


@needs_citod
def test_faults_are_caught_and_their_true_twins_are_not() -> None:
    """The fault generators (csp_check/faults/citod.py) on the calendar + navigate dialogues labelled
    consistent (dev, and navigate train for enough settled entities to switch)."""
    rates = fault_rates(run([CITOD / "calendar_dev.json", CITOD / "navigate_dev.json", CITOD / "navigate_train.json"]))
    for kind, (pairs, caught, twins) in rates.items():
        if "weather" in kind:
            continue  # tests/test_citod_classes.py: on the weather work half
        assert pairs >= 5, kind
        assert caught >= 0.9 * pairs and twins <= 0.02 * pairs, (kind, pairs, caught, twins)


WEATHER_KB = [{"date": day, "low_temperature": "40f", "weather_attribute": attr, "high_temperature": "60f",
               "location": city} for city in ("alameda", "boston")
              for day, attr in (("monday", "rain"), ("tuesday", "snow"), ("wednesday", "dry"))]


def test_weather_kbi_by_the_city_and_day_said_and_its_twins(tmp_path: Path) -> None:
    (tmp_path / "entities.json").write_text(json.dumps({"location": ["alameda", "boston", "oakland"],
                                                       "weather_attribute": ["rain", "snow", "dry"],
                                                       "high_temperature": ["60f", "90f"],
                                                       "low_temperature": ["40f"]}))

    def weather(turns: list[str]) -> tuple[bool, bool, bool]:
        path = tmp_path / "weather_new_dev.json"
        path.write_text(json.dumps([item(turns, kb=WEATHER_KB)]))
        [(dialogue, _)] = list(citod.items(path))
        assert isinstance(dialogue, Dialogue) and dialogue.domains == ["weather"]
        return labels_of(violations(dialogue)).triple()

    assert weather(["will it snow in alameda", "it will snow on monday in alameda"])[2]
    assert not weather(["will it snow in alameda", "it will snow on tuesday in alameda"])[2]
    assert weather(["is it hot in boston", "it will be 90f in boston today"])[2]  # no day of boston's week
    assert not weather(["is it hot in boston", "it will be 60f in boston today"])[2]
    assert not weather(["will it snow in alameda", "there will be no snow on monday in alameda"])[2]
    assert weather(["what is the weather in alameda", "it will be dry on wednesday in oakland"])[0]


def test_disagreements_never_overwrite_another_file(tmp_path: Path) -> None:
    path = write(tmp_path, [item(["where is the nearest gas_station", "chevron is 3_miles away"], labels="100")])
    mine = tmp_path / "mine.md"
    mine.write_text("# my notes\n")
    result = CliRunner().invoke(main, ["benchmark", "citod", str(path), "--disagreements", str(mine)])
    assert result.exit_code == 2 and "--disagreements" in result.stderr and mine.read_text() == "# my notes\n"
    result = CliRunner().invoke(main, ["benchmark", "citod", str(path), "--disagreements", str(path)])
    assert result.exit_code == 2 and "is an input file" in result.stderr
    fresh = tmp_path / "d.md"
    for _ in range(2):  # its own earlier output is overwritten
        result = CliRunner().invoke(main, ["benchmark", "citod", str(path), "--disagreements", str(fresh)])
        assert result.exit_code in (0, 2) and fresh.read_text().startswith("# CI-ToD: disagreements")
