"""KB loading: our KB JSON, MultiWOZ *_db.json files and directories, value conversion, errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB as DB

from csp_check.errors import InputError
from csp_check.models import KnowledgeBase
from csp_check.readers.kb import entity_strings, load_kb

ROOT = Path(__file__).resolve().parents[1]
needs_shared = pytest.mark.skipif(not DB.is_dir(), reason=f"shared MultiWOZ DB not present at {DB}")


def test_our_restaurant_kb() -> None:
    kb = load_kb(ROOT / "kb" / "restaurants.json")
    table = kb.tables["restaurant"]
    assert table.domain == "restaurant" and 10 <= len(table.entities) <= 14
    columns = {"name", "area", "food", "pricerange", "phone", "address", "postcode"}
    assert all(set(e) == columns for e in table.entities)
    assert Counter(e["food"] for e in table.entities)["spanish"] == 2
    assert {e["area"] for e in table.entities} == {"centre", "north", "south", "east", "west"}
    assert len({e["name"] for e in table.entities}) == len(table.entities)


def test_knowledge_base_json_round_trip(tmp_path: Path) -> None:
    kb = load_kb(ROOT / "kb" / "restaurants.json")
    path = tmp_path / "kb.json"
    path.write_text(kb.model_dump_json())
    assert load_kb(path) == kb


@needs_shared
def test_multiwoz_db_directory() -> None:
    kb = load_kb(DB)
    assert set(kb.tables) == {"attraction", "hospital", "hotel", "police", "restaurant", "taxi", "train"}
    restaurants = kb.tables["restaurant"].entities
    assert len(restaurants) == 110
    assert all(isinstance(v, str) for table in kb.tables.values() for e in table.entities for v in e.values())
    assert "location" not in restaurants[0]  # coordinates dropped
    assert sum("phone" not in e for e in restaurants) == 3  # DB rows without a phone stay without it
    hotel = kb.tables["hotel"].entities[0]
    assert {"price single", "price double"} <= set(hotel)  # nested prices flattened
    assert kb.tables["hospital"].entities[0]["id"] == "0"  # numbers become strings
    assert len(kb.tables["train"].entities) == 2828


@needs_shared
def test_single_db_file() -> None:
    kb = load_kb(DB / "restaurant_db.json")
    assert list(kb.tables) == ["restaurant"] and len(kb.tables["restaurant"].entities) == 110


def test_entity_strings() -> None:
    raw = {"name": "x", "id": 7, "stars": 4.5, "ok": True, "none": None, "fee": "?", "blank": "",
           "location": [52.2, 0.1], "colours": ["red", "blue"], "price": {"single": 50}}
    assert entity_strings(raw) == {"name": "x", "id": "7", "stars": "4.5", "ok": "True", "colours": "red, blue", "price single": "50"}


@pytest.mark.parametrize(
    ("content", "parts"),
    [
        ('{"domain": "restaurant", "entities": [{"name": "a"}, "oops"]}', ["entities[1]", "must be a JSON object"]),
        ('{"tables": {"restaurant": {"domain": "restaurant", "entities": [7]}}}', ["tables.restaurant.entities[0]"]),
        ('{"domain": "restaurant", "entities": {"name": "a"}}', ["entities", "list of entities"]),
        ('{"entities": []}', ["domain"]),
        ('{"domain": "restaurant", "entities": [{"name": "a"}', ["invalid JSON"]),
        ('{"something": "else"}', ["not a KB"]),
    ],
)
def test_kb_errors(tmp_path: Path, content: str, parts: list[str]) -> None:
    path = tmp_path / "kb.json"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        load_kb(path)
    text = str(info.value)
    assert "\n" not in text and str(path) in text
    for part in parts:
        assert part in text


def test_kb_missing_and_empty_dir(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such"):
        load_kb(tmp_path / "nope.json")
    with pytest.raises(InputError, match=r"no \*_db.json"):
        load_kb(tmp_path)


def test_db_file_entity_error_names_index(tmp_path: Path) -> None:
    (tmp_path / "restaurant_db.json").write_text(json.dumps([{"name": "a"}, ["not", "an", "entity"]]))
    with pytest.raises(InputError) as info:
        load_kb(tmp_path)
    assert "restaurant_db.json" in str(info.value) and "entities[1]" in str(info.value)


def test_empty_kb_model() -> None:
    assert KnowledgeBase().tables == {}


def test_a_lone_surrogate_in_a_kb_value_is_one_error_naming_the_field(tmp_path):
    import pytest

    from csp_check.errors import InputError
    from csp_check.readers.kb import load_kb

    path = tmp_path / "kb.json"
    path.write_text('{"domain": "restaurant", "entities": [{"name": "a", "area": "west\\udfff"}]}', encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_kb(path)
    assert "entities[0].area" in str(err.value) and "lone surrogate" in str(err.value)
