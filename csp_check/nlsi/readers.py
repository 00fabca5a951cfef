"""Readers of NLSI examples (spec §2): the released JSONL layout, our own JSONL, and the
release's raw example files.

JSONL files hold one JSON object per line. A file whose text starts with ``[`` (the release's
``old_instructions_dataset.json``) is one JSON list of examples in the release's raw format:
``utterance``, ``user_profile`` (all instructions), ``standing_instructions`` (the applicable
ones), ``example_type`` (:data:`EXAMPLE_TYPES` → reasoning type), ``api_calls``, ``frames``;
errors name the item's position (``FILE:ITEM``). The instruction lists may be JSON lists or a Python-literal
*string* of a list (released files do both); strings are parsed with :func:`ast.literal_eval`,
never ``eval``. ``api_calls`` may likewise be a list or a literal string. A line that is not JSON,
or whose fields do not fit :class:`~csp_check.nlsi.models.Example`, becomes an
:class:`ExampleError` (one line: ``FILE:LINE: example ID: what``) and reading goes on.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from csp_check.nlsi.models import GENERATION_LABELS, Example, ReasoningType

_LIST_FIELDS = (
    "all_standing_instructions",
    "applicable_standing_instructions",
    "pred_applicable_standing_instructions",
    "api_calls",
    "pred_api_calls",
)
#: The release's raw fields → ours.
RAW_FIELDS = {"user_profile": "all_standing_instructions", "standing_instructions": "applicable_standing_instructions"}
#: The release's ``example_type`` → reasoning type (paper Table 1).
EXAMPLE_TYPES = {
    "simple": ReasoningType.PLAIN,
    "chains_simple": ReasoningType.MULTI_HOP,
    "chains_domains": ReasoningType.MULTI_DOMAIN,
    "override": ReasoningType.CONFLICT,
    "multiple_instructions": ReasoningType.MULTI_PREFERENCE,
    "no_instructions": ReasoningType.NONE_APPLICABLE,
}
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "nlsi_example.schema.json"


@dataclass
class ExampleError:
    """An unreadable line or example; ``str()`` is the one-line message."""

    path: str
    line: int
    example_id: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        if self.example_id is not None:
            where += f": example {self.example_id}"
        return f"{where}: {self.message}"


def _literal_list(value: Any, field: str) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return []
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, OverflowError) as err:
            if field.endswith("api_calls"):
                return [value]  # one call string; the call parser reports it if malformed
            raise ValueError(f"{field}: not a list literal ({type(err).__name__})") from None
    if isinstance(value, tuple):
        value = list(value)
    return value


def _instruction(item: Any) -> Any:
    if isinstance(item, str):
        return {"nl_instruction": item}
    return item


def example_from_obj(obj: dict[str, Any]) -> Example:
    """Build an :class:`Example` from one decoded JSON object (released or our layout).

    Raises ``ValueError`` (or pydantic's ``ValidationError``) when a field does not fit.
    The reasoning type comes from ``reasoning_type``, ``metadata.reasoning_type`` or a known
    generation label in ``metadata`` (spec §3).
    """
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    data = dict(obj)
    for raw, ours in RAW_FIELDS.items():
        if raw in data and ours not in data:
            data[ours] = data.pop(raw)
    for field in _LIST_FIELDS:
        if field in data and data[field] is not None:
            data[field] = _literal_list(data[field], field)
            if not isinstance(data[field], list):
                raise ValueError(f"{field}: expected a list")
            if "instructions" in field:
                data[field] = [_instruction(x) for x in data[field]]
    if "user_utterance" not in data:
        for alt in ("dialogue", "utterance", "conversation"):
            if alt in data:
                data["user_utterance"] = data.pop(alt)
    meta = data.get("metadata") or {}
    if isinstance(meta, str):
        meta = {"label": meta}
    if isinstance(data.get("example_type"), str):
        meta = {**meta, "example_type": data["example_type"]}
        if data["example_type"] in EXAMPLE_TYPES and "reasoning_type" not in data:
            data["reasoning_type"] = EXAMPLE_TYPES[data["example_type"]]
    data["metadata"] = meta
    if "reasoning_type" not in data:
        data["reasoning_type"] = _reasoning_type(meta)
    return Example.model_validate(data)


def _reasoning_type(meta: dict[str, Any]) -> ReasoningType:
    for key in ("reasoning_type", "type", "category"):
        value = meta.get(key)
        if isinstance(value, str):
            for rt in ReasoningType:
                if rt.value.lower() == value.lower():
                    return rt
    for value in meta.values():
        if isinstance(value, str) and value in GENERATION_LABELS:
            return GENERATION_LABELS[value]
    return ReasoningType.UNKNOWN


def iter_paths(paths: list[Path]) -> Iterator[Path]:
    """Expand directories into their ``*.jsonl`` files (sorted); files are yielded as given."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.jsonl") if not p.name.endswith(".report.jsonl"))
        else:
            yield path


def read_examples(path: Path) -> Iterator[Example | ExampleError]:
    """Stream one JSONL file: an :class:`Example` or an :class:`ExampleError` per non-empty line.

    A missing/unreadable file yields one :class:`ExampleError` (line 0). A file starting with
    ``[`` is read as one JSON list (the release's raw examples; "line" is the item number).
    """
    try:
        handle = path.open(encoding="utf-8")
        head = handle.read(4096).lstrip()[:1]
        handle.seek(0)
    except (OSError, UnicodeDecodeError) as err:
        yield ExampleError(str(path), 0, None, f"cannot read: {getattr(err, 'strerror', None) or err}")
        return
    if head == "[":
        with handle:
            yield from _read_list(path, handle.read())
        return
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as err:
                yield ExampleError(str(path), number, None, f"not JSON: {err.msg} (column {err.colno})")
                continue
            yield _example_or_error(path, number, obj)


def _read_list(path: Path, text: str) -> Iterator[Example | ExampleError]:
    try:
        items = json.loads(text)
    except json.JSONDecodeError as err:
        yield ExampleError(str(path), err.lineno, None, f"not JSON: {err.msg} (column {err.colno})")
        return
    if not isinstance(items, list):
        yield ExampleError(str(path), 0, None, "expected a JSON list of examples")
        return
    for number, obj in enumerate(items, 1):
        yield _example_or_error(path, number, obj)


def _example_or_error(path: Path, number: int, obj: Any) -> Example | ExampleError:
    eid = obj.get("example_id") if isinstance(obj, dict) else None
    try:
        return example_from_obj(obj)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        return ExampleError(str(path), number, None if eid is None else str(eid), f"{loc}: {first['msg']}")
    except ValueError as err:
        return ExampleError(str(path), number, None if eid is None else str(eid), str(err))


def json_schema() -> dict[str, Any]:
    """The JSON Schema of our JSONL line (:class:`Example`), as published in ``SCHEMA_PATH``."""
    schema = Example.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "csp-check NLSI example (one JSONL line)"
    return schema


if __name__ == "__main__":  # python -m csp_check.nlsi.readers --write-schema
    import sys

    if "--write-schema" in sys.argv:
        SCHEMA_PATH.write_text(json.dumps(json_schema(), indent=2) + "\n")
        print(SCHEMA_PATH)
    else:
        print(json.dumps(json_schema(), indent=2))
