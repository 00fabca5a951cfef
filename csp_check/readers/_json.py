"""Streaming helpers shared by the readers: JSON arrays item by item, errors that name a field."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from pydantic import ValidationError

from csp_check.errors import InputError
from csp_check.models import Dialogue

_decoder = json.JSONDecoder()


def head(path: Path, size: int = 4096) -> str:
    """The first ``size`` characters of a file, for sniffing."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read(size)


def iter_json_items(path: Path, text: str | None = None) -> Iterator[tuple[str | int, Any] | InputError]:
    """Items of a JSON file whose top level is an array (index, item) or an object (key, item).

    Parses item by item, so a file truncated or corrupted in the middle still gives every item
    before the damage, then one :class:`InputError` saying where the JSON breaks. ``text``, when
    given, is the file's content already read (a member of a zip archive); ``path`` names it.
    """
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            yield InputError(str(path), f"cannot read: {err}")
            return
    pos = _skip_ws(text, 0)
    if pos >= len(text) or text[pos] not in "[{":
        yield InputError(str(path), "not a JSON array or object of dialogues")
        return
    is_object = text[pos] == "{"
    pos = _skip_ws(text, pos + 1)
    index = 0
    while pos < len(text) and text[pos] not in "]}":
        try:
            key: str | int = index
            if is_object:
                key, pos = _decoder.raw_decode(text, pos)
                pos = _skip_ws(text, pos)
                if text[pos] != ":":
                    raise json.JSONDecodeError("expected ':'", text, pos)
                pos = _skip_ws(text, pos + 1)
            item, pos = _decoder.raw_decode(text, pos)
        except (json.JSONDecodeError, IndexError) as err:
            where = f"item {index + 1}" if index else "the first item"
            if isinstance(err, json.JSONDecodeError):
                at_pos = f"{err.msg} (line {err.lineno}, column {err.colno})"
            else:
                at_pos = f"line {text.count(chr(10), 0, pos) + 1}: unexpected end of file"
            yield InputError(str(path), f"invalid JSON in {where} ({index} read before it): {at_pos}")
            return
        yield key, item
        index += 1
        pos = _skip_ws(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
    if pos >= len(text):
        yield InputError(str(path), f"invalid JSON: the file ends after {index} items without closing (truncated?)")


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def read_items(
    path: Path,
    convert: Callable[[Path, str, Any], Dialogue],
    single_keys: frozenset[str] = frozenset(),
    text: str | None = None,
) -> Iterator[Dialogue | InputError]:
    """Each dialogue of a JSON file, ``convert(path, dialogue_id, raw)``-ed, errors isolated.

    The file is a list of dialogues, an object mapping id → dialogue, or — when its first key is
    one of ``single_keys`` — one dialogue object. A dialogue's id is its ``dialogue_id`` (or
    ``id``) field, else its key, else ``#index``; a single dialogue without one is named after
    the file. ``text``: the file's content when already read (see :func:`iter_json_items`).
    """
    items = iter_json_items(path, text)
    for item in items:
        if isinstance(item, InputError):
            yield item
            continue
        key, raw = item
        if key in single_keys:  # one dialogue object: gather its fields
            fields = {key: raw}
            for rest in items:
                if isinstance(rest, InputError):
                    yield rest
                    return
                fields[rest[0]] = rest[1]
            dialogue_id = str(fields.get("dialogue_id") or fields.get("id") or path.stem)
            yield build(path, dialogue_id, lambda: convert(path, dialogue_id, fields))
            return
        fallback = f"#{key}" if isinstance(key, int) else str(key)
        named = raw.get("dialogue_id") or raw.get("id") if isinstance(raw, dict) and isinstance(key, int) else None
        dialogue_id = str(named or fallback)
        yield build(path, dialogue_id, lambda: convert(path, dialogue_id, raw))


def build(path: Path, dialogue_id: str, convert: Callable[[], Dialogue]) -> Dialogue | InputError:
    """Run a reader's conversion of one dialogue, turning any failure into an :class:`InputError`.

    ``convert`` may raise :class:`InputError` itself (with the field), a pydantic
    ``ValidationError`` (its first error's location becomes the field), or ``KeyError`` /
    ``TypeError`` / ``ValueError`` / ``IndexError`` from malformed data.
    """
    try:
        return convert()
    except InputError as err:
        return err
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        return InputError(str(path), first["msg"], dialogue=dialogue_id, field=field)
    except KeyError as err:
        return InputError(str(path), f"missing field {err}", dialogue=dialogue_id)
    except (TypeError, ValueError, IndexError, AttributeError) as err:
        return InputError(str(path), f"malformed: {err}", dialogue=dialogue_id)


def turn_list(path: Path, dialogue_id: str, raw: Any, key: str = "turns") -> list[Any]:
    """The non-empty list ``raw[key]`` of a raw dialogue object; :class:`InputError` naming the
    field when ``raw`` is no object or has no turns."""
    if not isinstance(raw, dict):
        raise InputError(str(path), "a dialogue must be a JSON object", dialogue=dialogue_id)
    turns = raw.get(key)
    if not isinstance(turns, list) or not turns:
        raise InputError(str(path), "dialogue has no turns", dialogue=dialogue_id, field=key)
    return turns


def check_span(path: Path, dialogue_id: str, field: str, utterance: str, start: Any, end: Any) -> None:
    """Raise :class:`InputError` unless ``[start, end)`` is a valid span of ``utterance``."""
    if isinstance(start, int) and isinstance(end, int) and 0 <= end < start <= len(utterance):
        raise InputError(
            str(path), f"span [{start}, {end}) ends before it starts", dialogue=dialogue_id, field=field
        )
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end <= len(utterance):
        raise InputError(
            str(path),
            f"span [{start}, {end}) is outside its utterance of {len(utterance)} characters",
            dialogue=dialogue_id,
            field=field,
        )


@contextmanager
def at(path: Path, dialogue_id: str, field: str) -> Iterator[None]:
    """Re-raise malformed data met inside the block as an :class:`InputError` naming ``field``.

    ``KeyError`` / ``TypeError`` / ``ValueError`` / ``IndexError`` / ``AttributeError`` become
    ``InputError(path, …, dialogue=dialogue_id, field=field)``; an :class:`InputError` raised
    inside (which already names its field) passes through unchanged.
    """
    try:
        yield
    except InputError:
        raise
    except ValidationError as err:
        first = err.errors()[0]
        inner = ".".join(str(p) for p in first["loc"])
        raise InputError(str(path), first["msg"], dialogue=dialogue_id, field=f"{field}.{inner}" if inner else field) from err
    except KeyError as err:
        raise InputError(str(path), f"missing field {err}", dialogue=dialogue_id, field=field) from err
    except (TypeError, ValueError, IndexError, AttributeError) as err:
        raise InputError(str(path), f"malformed: {err}", dialogue=dialogue_id, field=field) from err
