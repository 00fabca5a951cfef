"""SGD schemas as the IUR tools read them (``schema.json`` of an SGD split: a list of services).

:func:`load_services` gives service name → :class:`Service` (its description, slots with
descriptions and possible values, intents with their slots). Raises :class:`OSError` for an
unreadable file and :class:`ValueError` for one that is not an SGD schema.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field


class Slot(BaseModel):
    name: str
    description: str = ""
    is_categorical: bool = False
    possible_values: list[str] = Field(default_factory=list)


class Intent(BaseModel):
    name: str
    description: str = ""
    required_slots: list[str] = Field(default_factory=list)
    optional_slots: dict[str, str] = Field(default_factory=dict)

    @property
    def slots(self) -> set[str]:
        return set(self.required_slots) | set(self.optional_slots)


class Service(BaseModel):
    service_name: str
    description: str = ""
    slots: list[Slot] = Field(default_factory=list)
    intents: list[Intent] = Field(default_factory=list)

    def slot(self, name: str) -> Slot | None:
        return next((s for s in self.slots if s.name == name), None)

    def slot_by_description(self, description: str) -> Slot | None:
        """The slot whose description is ``description`` (case and spaces aside)."""
        key = " ".join(description.lower().split())
        return next((s for s in self.slots if " ".join(s.description.lower().split()) == key), None)

    def intent_for(self, slot: str) -> Intent | None:
        """The first intent that takes ``slot`` (required before optional), or ``None``."""
        return next((i for i in self.intents if slot in i.required_slots), None) or next(
            (i for i in self.intents if slot in i.optional_slots), None)


def load_services(*paths: str | Path) -> dict[str, Service]:
    """Service name → :class:`Service` of the SGD ``schema.json`` files ``paths`` (a folder
    means its ``schema.json``); a later file's service replaces an earlier one of that name."""
    out: dict[str, Service] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            path = path / "schema.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, list) or not all(isinstance(s, dict) and "service_name" in s for s in data):
            raise ValueError(f"{path}: not an SGD schema (a list of services with service_name)")
        for item in data:
            service = Service.model_validate(item)
            out[service.service_name] = service
    return out
