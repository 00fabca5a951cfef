"""The IndirectRequests record format (the paper's released dataset, §4.3), read and written.

One record is one IUR: ``utterance``, ``service`` (an SGD service, e.g. ``Restaurants_1``),
``slot_description``, ``situation`` (an intent's description), ``possible_slot_values`` (the
slot's candidate values, N ≤ 5 in the paper), ``target_slot_value`` (one of them, or
``<ambiguous>`` when the annotators' unambiguity label is "ambiguous"), and
``mean_world_understanding`` (the mean annotator rating, a number; 1–10 in the proxies of §5).
The released files store lists as Python-literal strings (``"['True', 'False']"``); both that
and JSON lists are read, lists are written. Extra fields (``slot``, ``strategy``, a judge's
output) are kept.

A file is JSON Lines (one record a line), a JSON array, or a CSV with these columns; it is written
as JSON Lines. :class:`RecordError` names the file and line of a bad record.
"""

from __future__ import annotations

import ast
import csv
import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

AMBIGUOUS = "<ambiguous>"


class RecordError(ValueError):
    """A record that cannot be read: ``path``, 1-based ``line`` (the item's index for an array)."""

    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line = path, line


def as_list(value: object) -> list[str]:
    """A list of strings from a list, a JSON / Python-literal list in a string (``"['a', 'b']"``),
    a comma-separated string, or ``None`` (``[]``). Raises :class:`ValueError` for anything else."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return []
        if text[0] == "[":
            try:
                value = json.loads(text)
            except ValueError:
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError) as err:
                    raise ValueError(f"not a list: {text[:60]!r}") from err
        else:
            return [part.strip() for part in text.split(",") if part.strip()]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    raise ValueError(f"not a list: {value!r}")


class IndirectRequest(BaseModel):
    """One IndirectRequests record (module docstring)."""

    model_config = ConfigDict(extra="allow")

    utterance: str
    service: str = ""
    slot_description: str = ""
    situation: str = ""
    possible_slot_values: list[str] = Field(default_factory=list)
    target_slot_value: str | None = Field(None, description="a value of possible_slot_values, or <ambiguous>")
    mean_world_understanding: float | None = Field(None, description="mean annotator rating of world understanding")

    @field_validator("possible_slot_values", mode="before")
    @classmethod
    def _listed(cls, value: object) -> list[str]:
        return as_list(value)

    @field_validator("mean_world_understanding", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        return None if value in ("", None) else value

    @property
    def ambiguous(self) -> bool:
        """Whether the record's label says no single value is entailed."""
        return self.target_slot_value == AMBIGUOUS

    def extra(self, name: str, default: object = None) -> object:
        """An extra field of the record (``slot``, ``strategy``, …), or ``default``."""
        return (self.model_extra or {}).get(name, default)


def read_records(path: str | Path) -> list[IndirectRequest]:
    """The records of ``path`` (JSON Lines, a JSON array or CSV). Raises :class:`RecordError`
    (file, line, what is wrong) for a record that does not parse, :class:`OSError` if unreadable."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    items: Iterable[tuple[int, object]]
    if path.suffix.lower() == ".csv":
        items = ((i + 2, row) for i, row in enumerate(csv.DictReader(text.splitlines())))
    elif text.lstrip().startswith("["):
        try:
            items = list(enumerate(json.loads(text), 1))
        except ValueError as err:
            raise RecordError(str(path), 1, f"invalid JSON: {err}") from err
    else:
        items = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
    out = []
    for line, item in items:
        try:
            data = json.loads(item) if isinstance(item, str) else item
            out.append(IndirectRequest.model_validate(data))
        except (ValueError, ValidationError) as err:
            raise RecordError(str(path), line, str(err).splitlines()[0]) from err
    return out


def write_records(records: Iterable[IndirectRequest | dict], path: str | Path) -> int:
    """Write ``records`` to ``path`` as JSON Lines (lists as lists); the number written."""
    n = 0
    with Path(path).open("w", encoding="utf-8") as f:
        for record in records:
            data = record.model_dump(mode="json") if isinstance(record, IndirectRequest) else record
            f.write(json.dumps(data, ensure_ascii=False) + "\n")
            n += 1
    return n
