"""Small SGD-format dialogues written into a folder by the tests (no shared data copied)."""

from __future__ import annotations

import json
from pathlib import Path


def _span(utterance: str, slot: str, value: str) -> dict:
    start = utterance.index(value)
    return {"slot": slot, "start": start, "exclusive_end": start + len(value)}


def _act(act: str, slot: str, *values: str) -> dict:
    return {"act": act, "slot": slot, "values": list(values), "canonical_values": list(values)}


def sgd_dialogue(dialogue_id: str, count: int = 2) -> dict:
    """A two-turn restaurant search; consistent when ``count`` is 2 (two service results)."""
    user = "I want Italian food in San Jose."
    system = f"I found {count} restaurants. Pasta Bar is a nice one."
    results = [{"restaurant_name": n, "cuisine": "Italian", "city": "San Jose"} for n in ("Pasta Bar", "Luigi")]
    return {
        "dialogue_id": dialogue_id,
        "services": ["Restaurants_1"],
        "turns": [
            {
                "speaker": "USER",
                "utterance": user,
                "frames": [
                    {
                        "service": "Restaurants_1",
                        "slots": [_span(user, "cuisine", "Italian"), _span(user, "city", "San Jose")],
                        "actions": [_act("INFORM", "cuisine", "Italian"), _act("INFORM", "city", "San Jose")],
                        "state": {"slot_values": {"cuisine": ["Italian"], "city": ["San Jose"]}},
                    }
                ],
            },
            {
                "speaker": "SYSTEM",
                "utterance": system,
                "frames": [
                    {
                        "service": "Restaurants_1",
                        "slots": [_span(system, "restaurant_name", "Pasta Bar")],
                        "actions": [_act("INFORM_COUNT", "count", str(count)), _act("OFFER", "restaurant_name", "Pasta Bar")],
                        "service_call": {"method": "FindRestaurants", "parameters": {"cuisine": "Italian", "city": "San Jose"}},
                        "service_results": results,
                    }
                ],
            },
        ],
    }


def write_sgd(directory: Path, dialogues: list, name: str = "dialogues_001.json") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(json.dumps(dialogues, indent=1), encoding="utf-8")
    return path
