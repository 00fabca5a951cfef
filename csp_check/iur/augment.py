"""Swap direct user requests of SGD dialogues for generated IURs, keeping the annotation
(the paper's extrinsic setting, §7: "user request must be about a categorical slot … the
latest utterance's act should be inform … a single slot-value pair").

A user turn is swapped when it has one frame, of the records' service; that frame's actions
are one ``INFORM`` of the records' slot (any other actions carry no value); its value is the
target of some kept record; no span of the frame is annotated (so the new text breaks none);
and its utterance names the value outright (:func:`csp_check.iur.lexical.names`: a direct
request). The utterance becomes the next record of that target value (records are used in
turn, round robin); acts, state and service calls are kept as they are, so the result reads and
validates like any SGD split. :func:`augment_files` writes the dialogue files and the schema
and returns what was swapped.
"""

from __future__ import annotations

import json
from collections import defaultdict
from itertools import cycle
from pathlib import Path

from pydantic import BaseModel

from csp_check.iur.lexical import names
from csp_check.iur.records import IndirectRequest


class Swap(BaseModel):
    """One swapped turn: where, the old and the new utterance, the slot and value kept."""

    dialogue_id: str
    turn: int
    slot: str
    value: str
    before: str
    after: str


def _swappable(turn: dict, service: str, slot: str) -> str | None:
    """The value of the turn's one INFORM of ``slot`` (module docstring), or ``None``."""
    frames = turn.get("frames", [])
    if turn.get("speaker") != "USER" or len(frames) != 1 or frames[0].get("service") != service or frames[0].get("slots"):
        return None
    informs = [a for a in frames[0].get("actions", []) if a.get("values")]
    if len(informs) != 1 or informs[0].get("act") != "INFORM" or informs[0].get("slot") != slot:
        return None
    values = informs[0].get("canonical_values") or informs[0]["values"]
    if len(values) != 1 or names(turn.get("utterance", ""), values[0], slot) is None:
        return None
    return str(values[0])


def augment_dialogues(dialogues: list[dict], records: list[IndirectRequest], slot: str) -> list[Swap]:
    """Swap, in place, the direct requests of ``dialogues`` (SGD JSON) for ``records`` (module docstring)."""
    if not records:
        return []
    service = records[0].service
    by_value: dict[str, list[IndirectRequest]] = defaultdict(list)
    for record in records:
        if record.target_slot_value:
            by_value[record.target_slot_value].append(record)
    turns = {value: cycle(rs) for value, rs in by_value.items()}
    swaps = []
    for dialogue in dialogues:
        for index, turn in enumerate(dialogue.get("turns", [])):
            value = _swappable(turn, service, slot)
            if value is None or value not in turns:
                continue
            new = next(turns[value]).utterance
            swaps.append(Swap(dialogue_id=dialogue["dialogue_id"], turn=index, slot=slot, value=value,
                              before=turn["utterance"], after=new))
            turn["utterance"] = new
    return swaps


def swaps_path(out: Path) -> Path:
    """Where :func:`augment_files` lists its swaps: ``OUT.swaps.jsonl`` beside the folder."""
    return out.parent / f"{out.name}.swaps.jsonl"


def augment_files(source: Path, out: Path, records: list[IndirectRequest], slot: str, schema: Path | None = None) -> list[Swap]:
    """Augment every ``dialogues_*.json`` of the SGD split folder (or file) ``source`` into the
    folder ``out`` (same file names; ``schema.json`` copied from ``schema`` or ``source``), and
    write the swaps beside it, ``OUT.swaps.jsonl`` (one :class:`Swap` a line). Raises :class:`OSError`,
    :class:`ValueError` (a file that is not JSON)."""
    files = sorted(source.glob("dialogues_*.json")) if source.is_dir() else [source]
    out.mkdir(parents=True, exist_ok=True)
    swaps: list[Swap] = []
    for path in files:
        dialogues = json.loads(path.read_text(encoding="utf-8"))
        swaps += augment_dialogues(dialogues, records, slot)
        (out / path.name).write_text(json.dumps(dialogues, indent=1, ensure_ascii=False), encoding="utf-8")
    schema = schema or (source / "schema.json" if source.is_dir() else source.parent / "schema.json")
    if schema.is_dir():
        schema = schema / "schema.json"
    if schema.exists():
        (out / "schema.json").write_text(schema.read_text(encoding="utf-8"), encoding="utf-8")
    with swaps_path(out).open("w", encoding="utf-8") as f:
        for swap in swaps:
            f.write(swap.model_dump_json() + "\n")
    return swaps
