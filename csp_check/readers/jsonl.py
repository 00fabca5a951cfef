"""Our own JSONL format: one :class:`~csp_check.models.Dialogue` (its JSON) per line.

The format is documented by the JSON Schema ``csp_check/schema/dialogue.schema.json``, which is
``Dialogue.model_json_schema()``; regenerate it after changing :mod:`csp_check.models` with::

    python -m csp_check.schema --write

Blank lines are skipped. A bad line (invalid JSON, a field of the wrong type, a dialogue
without turns, an act span outside its utterance) gives one :class:`InputError` whose file is
``PATH:LINE`` and which names the dialogue id (when the line parses) and the field path
(``turns[0].acts[1].span``); the other lines are still read. ``source`` and ``format`` are set to
the file read and ``jsonl``. ``examples/dialogues.jsonl`` is an example.

Each line is decoded on its own: a line that is not UTF-8, nests too deeply, holds an integer
of more than 4,300 digits or a lone surrogate (``"\\udc80"``) is that line's error and the
other lines are read. A UTF-8 BOM before the first line is skipped. Types are strict: a span
offset of ``true`` or ``"3"`` is an error naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from csp_check.errors import InputError, json_error_text
from csp_check.models import Dialogue

from .json_stream import lone_surrogate, safe, validation_message

NAME = "jsonl"
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "dialogue.schema.json"


def schema_text() -> str:
    """The published JSON Schema of one line (deterministic text, ends with a newline)."""
    return json.dumps(Dialogue.model_json_schema(), indent=2, ensure_ascii=False) + "\n"


def sniff(path: Path) -> bool:
    """A ``.jsonl`` file, or a file whose first non-blank line is a JSON object with ``id`` and ``turns``."""
    if not path.is_file():
        return False
    if path.suffix == ".jsonl":
        return True
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        read = 0
        while read < SNIFF_CHARS:  # a head only: never a whole huge first line
            line = f.readline(SNIFF_CHARS - read)
            if not line:
                return False
            read += len(line)
            if line.strip():
                if not line.endswith("\n") and read >= SNIFF_CHARS:
                    return False  # a first line longer than the sniffing budget is not one dialogue of JSONL
                try:
                    first = json.loads(line)
                except (ValueError, RecursionError):
                    return False
                return isinstance(first, dict) and "id" in first and "turns" in first
    return False


#: How much of a file (characters) :func:`sniff` reads to find its first line.
SNIFF_CHARS = 1 << 20


#: Lines of invalid JSON, before any dialogue, after which a file is declared not JSONL at all.
NOT_JSONL_AFTER = 5


def read(path: Path) -> Iterator[Dialogue | InputError]:
    """Dialogues of a JSONL file, line by line (streamed)."""
    try:
        f = open(path, "rb")
    except OSError as err:
        yield InputError(str(path), f"cannot read: {err.strerror or err}")
        return
    with f:
        lineno = 0
        held: list[InputError] = []  # invalid-JSON lines before the first dialogue
        started = False
        while True:
            lineno += 1
            try:
                data = f.readline()
            except OSError as err:
                yield from held
                yield InputError(f"{path}:{lineno}", f"cannot read: {err.strerror or err}")
                return
            if not data:
                yield from held
                return
            if lineno == 1 and data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            try:
                line = data.decode("utf-8")
            except UnicodeDecodeError as err:
                item: Dialogue | InputError = InputError(
                    f"{path}:{lineno}", f"not UTF-8: byte 0x{data[err.start]:02x} at column {err.start + 1}"
                )
            else:
                if not line.strip():
                    continue
                item = parse_line(path, lineno, line)
            if not started and isinstance(item, InputError) and "invalid JSON" in item.message:
                held.append(item)
                if len(held) >= NOT_JSONL_AFTER:  # a pretty-printed JSON file, say
                    yield InputError(str(path), f"not JSON lines: the first {len(held)} lines are not JSON; "
                                     "is it another format? (try --format auto)")  # fmt: skip
                    return
                continue
            started = True
            yield from held
            held.clear()
            yield item


def parse_line(path: Path, lineno: int, line: str) -> Dialogue | InputError:
    """One line → :class:`Dialogue`, or the :class:`InputError` naming line, dialogue and field."""
    where = f"{path}:{lineno}"
    text = line.rstrip("\r\n")  # the line's own characters: an error at its end is not "line 2, column 1"
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        end = " (the end of the line: is it cut short?)" if err.pos >= len(text.rstrip()) else ""
        return InputError(where, f"invalid JSON at column {err.pos + 1}{end}: {json_error_text(err.msg)}")
    except RecursionError:
        return InputError(where, "invalid JSON: nested too deeply")
    except ValueError as err:  # an integer of more than 4,300 digits
        if "digits" in str(err):
            return InputError(where, "invalid JSON: an integer literal of more than 4,300 digits")
        return InputError(where, f"invalid JSON: {' '.join(str(err).split())}")
    dialogue_id = str(raw["id"]) if isinstance(raw, dict) and isinstance(raw.get("id"), (str, int)) else None
    if not isinstance(raw, dict):
        return InputError(where, "a line must be a JSON object (one dialogue)")
    if "\\u" in line:
        bad = lone_surrogate(raw)
        if bad is not None:
            return InputError(where, "a lone surrogate (\\udXXX) is no text", dialogue=safe(dialogue_id or "") or None, field=bad)
    try:
        dialogue = Dialogue.model_validate(raw)
    except RecursionError:
        return InputError(where, "nested too deeply", dialogue=dialogue_id)
    except ValidationError as err:
        field, message = validation_message(err)
        return InputError(where, message, dialogue=dialogue_id, field=field)
    if not dialogue.turns:
        return InputError(where, "dialogue has no turns", dialogue=dialogue_id, field="turns")
    for i, turn in enumerate(dialogue.turns):
        for j, act in enumerate(turn.acts):
            if act.span is not None and not act.span.start <= act.span.end <= len(turn.utterance):
                return InputError(
                    where,
                    f"span [{act.span.start}, {act.span.end}) is outside its utterance of {len(turn.utterance)} characters",
                    dialogue=dialogue_id,
                    field=f"turns[{i}].acts[{j}].span",
                )
    return dialogue.model_copy(update={"source": str(path), "format": NAME})
