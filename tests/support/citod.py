"""Small KBs (KVRET columns) the CI-ToD tests write their own dialogues against, and
:func:`labels`, the labels of such a dialogue read as a CI-ToD file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from csp_check.models import Dialogue
from csp_check.readers import citod
from csp_check.score.citod import labels_of, violations
from support.data import SHARED_DATA

NAV_KB = [
    {"traffic_info": "no_traffic", "address": "578_arbol_dr", "distance": "3_miles", "poi_type": "rest_stop",
     "poi": "hotel_keen"},
    {"traffic_info": "heavy_traffic", "address": "329_el_camino_real", "distance": "5_miles",
     "poi_type": "rest_stop", "poi": "the_westin"},
    {"traffic_info": "moderate_traffic", "address": "408_university_ave", "distance": "2_miles",
     "poi_type": "grocery_store", "poi": "trader_joes"},
]

CITOD = SHARED_DATA / "citod"
needs_citod = pytest.mark.skipif(not (CITOD / "weather_new_dev.json").is_file(), reason="../shared/data/citod is absent")

CAL_KB = [{"date": "the_12th", "time": "3pm", "event": "dinner", "agenda": "-", "room": "-", "party": "sister"},
          {"date": "monday", "time": "10am", "event": "meeting", "agenda": "go_over_budget",
           "room": "conference_room_50", "party": "boss"}]
WEATHER_KB = [{"date": day, "low_temperature": low, "weather_attribute": attr, "high_temperature": high,
               "location": city} for city in ("alameda", "boston")
              for day, attr, low, high in (("monday", "rain", "40f", "60f"), ("tuesday", "snow", "20f", "30f"),
                                           ("wednesday", "skies", "60f", "70f"))]
ONTOLOGY = {"poi": ["hotel_keen", "the_westin", "trader_joes", "four_seasons"],
            "address": ["578_arbol_dr", "329_el_camino_real", "408_university_ave"],
            "distance": ["2_miles", "3_miles", "5_miles"],
            "traffic_info": ["no_traffic", "heavy_traffic", "moderate_traffic"],
            "poi_type": ["rest_stop", "grocery_store"],
            "event": ["dinner", "meeting"], "date": ["the_12th", "the_10th", "monday"], "time": ["3pm", "10am"],
            "party": ["sister", "boss"], "location": ["alameda", "boston"],
            "weather_attribute": ["rain", "snow", "skies", "drizzle", "clear"],
            "high_temperature": ["60f", "30f", "70f"], "low_temperature": ["40f", "20f", "60f"]}
FILES = {"navigate": ("navigate_dev.json", NAV_KB), "calendar": ("calendar_dev.json", CAL_KB),
         "weather": ("weather_new_dev.json", WEATHER_KB)}


def labels(tmp_path: Path, domain: str, turns: list[str]) -> tuple[bool, bool, bool]:
    """The (qi, hi, kbi) labels of a dialogue of ``domain`` with driver / assistant turns alternating."""
    name, kb = FILES[domain]
    (tmp_path / "entities.json").write_text(json.dumps(ONTOLOGY))
    raw = {"id": 1, "dialogue": [{"turn": "driver" if i % 2 == 0 else "assistant", "utterance": u}
                                 for i, u in enumerate(turns)],
           "scenario": {"kb": {"items": kb}, "qi": "0", "hi": "0", "kbi": "0"}, "HIPosition": []}
    path = tmp_path / name
    path.write_text(json.dumps([raw]))
    [(dialogue, _)] = list(citod.items(path))
    assert isinstance(dialogue, Dialogue) and dialogue.domains == [domain]
    return labels_of(violations(dialogue)).triple()
