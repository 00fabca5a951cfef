"""Small SGD dialogues with indirect requests for the IUR tests (no shared data copied): a
Homes_1 search whose user turns give pets_allowed by a dog (implied), furnished by nothing
(unsaid) and the number of beds outright (direct)."""

from __future__ import annotations

import json
from pathlib import Path

SCHEMA = [{
    "service_name": "Homes_1", "description": "A widely used service for finding apartments and scheduling visits",
    "slots": [
        {"name": "area", "description": "City where the apartment is located", "is_categorical": False, "possible_values": []},
        {"name": "number_of_beds", "description": "Number of bed rooms", "is_categorical": True, "possible_values": ["1", "2", "3", "4"]},
        {"name": "pets_allowed", "description": "Boolean flag indicating if pets are allowed", "is_categorical": True,
         "possible_values": ["True", "False"]},
        {"name": "furnished", "description": "Boolean flag indicating if the property is furnished", "is_categorical": True,
         "possible_values": ["True", "False"]},
    ],
    "intents": [{"name": "FindApartment", "description": "Find an apartment in a city for a given number of bedrooms",
                 "is_transactional": False, "required_slots": ["area", "number_of_beds"],
                 "optional_slots": {"pets_allowed": "dontcare", "furnished": "dontcare"}, "result_slots": []}],
}]  # fmt: skip


def _act(act: str, slot: str, *values: str) -> dict:
    return {"act": act, "slot": slot, "values": list(values), "canonical_values": list(values)}


def homes_dialogue(dialogue_id: str, second: str = "My dog comes along everywhere, he is so cute!") -> dict:
    """Turn 0 names area and beds; turn 2 (``second``) gains pets_allowed = True and furnished = True."""
    first = "I need a 2 bedroom apartment in San Jose."
    state0 = {"area": ["San Jose"], "number_of_beds": ["2"]}
    start = first.index("San Jose")
    return {"dialogue_id": dialogue_id, "services": ["Homes_1"], "turns": [
        {"speaker": "USER", "utterance": first, "frames": [{
            "service": "Homes_1", "slots": [{"slot": "area", "start": start, "exclusive_end": start + 8}],
            "actions": [_act("INFORM", "area", "San Jose"), _act("INFORM", "number_of_beds", "2")],
            "state": {"active_intent": "FindApartment", "requested_slots": [], "slot_values": state0}}]},
        {"speaker": "SYSTEM", "utterance": "Anything else I should know?", "frames": [{
            "service": "Homes_1", "slots": [], "actions": [_act("REQ_MORE", "")]}]},
        {"speaker": "USER", "utterance": second, "frames": [{
            "service": "Homes_1", "slots": [],
            "actions": [_act("INFORM", "pets_allowed", "True"), _act("INFORM", "furnished", "True")],
            "state": {"active_intent": "FindApartment", "requested_slots": [],
                      "slot_values": {**state0, "pets_allowed": ["True"], "furnished": ["True"]}}}]},
    ]}  # fmt: skip


def write_homes(directory: Path, dialogues: list[dict]) -> Path:
    """An SGD split folder (``dialogues_001.json`` and ``schema.json``) holding ``dialogues``."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "schema.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (directory / "dialogues_001.json").write_text(json.dumps(dialogues, indent=1), encoding="utf-8")
    return directory


def direct_pets_dialogue(dialogue_id: str, value: str = "True") -> dict:
    """:func:`homes_dialogue` whose turn 2 asks outright for pets_allowed = ``value`` and nothing else."""
    text = "I need a place that allows pets." if value == "True" else "Pets are not allowed, please."
    dialogue = homes_dialogue(dialogue_id, text)
    frame = dialogue["turns"][2]["frames"][0]
    frame["actions"] = [_act("INFORM", "pets_allowed", value)]
    frame["state"]["slot_values"].pop("furnished")
    frame["state"]["slot_values"]["pets_allowed"] = [value]
    return dialogue
