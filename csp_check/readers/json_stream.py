"""Streaming helpers shared by the readers: JSON arrays item by item, errors that name a field."""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from csp_check.errors import InputError, json_error_text
from csp_check.models import Dialogue
from csp_check.readers.surrogates import lone_surrogate, safe

#: One decoder for every ``raw_decode`` of the readers.
DECODER = json.JSONDecoder()
#: A ``\uD800``-``\uDFFF`` escape: the item may hold a lone surrogate (checked by :func:`lone_surrogate`).
_SURROGATE_ESCAPE = re.compile(r"\\[uU][dD][89a-fA-F]")
#: Bytes that are not UTF-8, as ``surrogateescape`` decodes them.
_BAD_BYTE = re.compile("[\udc80-\udcff]")
BOM = "\ufeff"


#: Files larger than this are read window by window (:func:`json_windows`), never whole.
LARGE_FILE = 8 << 20
#: The size a window of whole items aims at (a window holds at least one item).
WINDOW_BYTES = 2 << 20


@dataclass(frozen=True)
class Window:
    """Whole items of a JSON array file: bytes ``[start, end)`` of the file (``end`` ``None``:
    to the end of the file, then ``last``), the first item's index, and where ``start`` lies in
    the file's text (``line``: newlines before it; ``column``: characters since the last one),
    so that errors name the same line, column and item as when the file is read whole."""

    start: int
    end: int | None
    index: int
    line: int = 0
    column: int = 0

    @property
    def last(self) -> bool:
        """Whether the window runs to the end of the file (it holds the closing bracket)."""
        return self.end is None


def json_windows(path: Path, target: int | None = None, max_items: int | None = None) -> list[Window] | None:
    """Cut a JSON array file into windows of whole items of about ``target`` bytes (default
    :data:`WINDOW_BYTES`; and at
    most ``max_items`` items), streaming
    the file (memory: one item and one block). ``None`` when the file is no JSON array (its
    reader then reads it whole and says what is wrong). A damaged item whose brackets balance
    is passed over as :func:`iter_json_items` passes over it; from an item that does not end
    (a truncated file) the last window runs to the end of the file. So reading the windows one
    after another gives exactly the items and errors of the whole file.
    Raises ``OSError``."""
    return list(iter_windows(path, target, max_items)) or None


def iter_windows(path: Path, target: int | None = None, max_items: int | None = None) -> Iterator[Window]:
    """The windows of :func:`json_windows`, each as soon as the scan finds its end (nothing for
    a file that is no JSON array). Raises ``OSError``."""
    return _windows(path, target or WINDOW_BYTES, max_items)


def _windows(path: Path, target: int, max_items: int | None, block: int = 1 << 20) -> Iterator[Window]:
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    with open(path, "rb") as f:
        buf = decoder.decode(f.read(block))
        mark = mark_bytes = mark_lines = 0  # buf[mark] is at file byte mark_bytes, after mark_lines newlines
        eof = False
        if buf.startswith(BOM):
            buf, mark_bytes = buf[1:], 3
        chars0 = 0  # characters before buf[0] (after the BOM)
        last_nl = -1  # absolute character offset of the last newline before buf[0]
        pos = skip_ws(buf, 0)
        if pos >= len(buf) or buf[pos] != "[":
            return
        pos = skip_ws(buf, pos + 1)
        index = 0
        start: Window | None = None
        start_chars = 0  # characters before the window's start (cheaper to follow than bytes)
        while True:
            if start is None or chars0 + pos - start_chars >= target or (max_items and index - start.index >= max_items):
                seen = buf[mark:pos]
                mark, mark_bytes, mark_lines = pos, mark_bytes + _utf8_len(seen), mark_lines + seen.count("\n")
                nl = buf.rfind("\n", 0, pos)
                here = Window(mark_bytes, None, index, mark_lines,
                              chars0 + pos - ((chars0 + nl) if nl >= 0 else last_nl) - 1)  # fmt: skip
                if start is not None:
                    yield Window(start.start, here.start, start.index, start.line, start.column)
                start, start_chars = here, chars0 + pos
            if pos < len(buf) and buf[pos] == "]":
                break
            try:
                _, end = DECODER.raw_decode(buf, pos)
            except (ValueError, RecursionError):
                # damaged, or cut off by the end of the buffer (then read more first): where
                # would the reader go on?
                end = skip_value(buf, pos) if eof or len(buf) - pos >= block else None
            after = None if end is None else skip_ws(buf, end)
            if after is None or (after >= len(buf) and not eof):  # the item may go on: read more
                if eof or len(buf) - pos > max(8 * target, 64 << 20):  # unbalanced: the rest in one window
                    break
                data = f.read(block)
                eof = not data
                buf += decoder.decode(data, final=eof)
                continue
            index += 1
            pos = after
            if pos < len(buf) and buf[pos] == ",":
                pos = skip_ws(buf, pos + 1)
            if pos >= len(buf) and eof:
                break
            if pos > block:  # drop what was read
                seen = buf[mark:pos]
                mark_bytes, mark_lines = mark_bytes + _utf8_len(seen), mark_lines + seen.count("\n")
                nl = buf.rfind("\n", 0, pos)
                if nl >= 0:
                    last_nl = chars0 + nl
                chars0 += pos
                buf, pos, mark = buf[pos:], 0, 0
        if start is not None:
            yield start


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def read_window(path: Path, window: Window) -> str:
    """The text of a window of ``path`` (decoded as :func:`read_text` does). Raises ``OSError``."""
    with open(path, "rb") as f:
        f.seek(window.start)
        data = f.read() if window.end is None else f.read(window.end - window.start)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


def is_large(path: Path) -> bool:
    """Whether ``path`` is a file to read window by window (larger than :data:`LARGE_FILE`)."""
    try:
        return os.path.getsize(path) > LARGE_FILE
    except OSError:
        return False


#: How much of a file (characters) :func:`head` reads at most to find its head.
HEAD_BUDGET = 64 << 20
_WHITE_RUN = re.compile(r"[ \t\r\n]{2,}")


def head(path: Path, size: int = 4096) -> str:
    """The first ``size`` characters of a file, for sniffing (a UTF-8 BOM is skipped), runs of
    white space collapsed to one blank (a file padded with megabytes of white space still shows
    its keys), reading at most :data:`HEAD_BUDGET` characters."""
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        out = f.read(size)
        if _blank_share(out) < 0.9 or len(out) < size:  # an ordinary head (the common case): as read
            return out
        read = len(out)
        out = _WHITE_RUN.sub(" ", out)
        while len(out) < size and read < HEAD_BUDGET:  # padded with white space: look further
            block = f.read(1 << 20)
            if not block:
                break
            read += len(block)
            out = _WHITE_RUN.sub(" ", out + block)
    return out[:size]


def _blank_share(text: str) -> float:
    """The share of JSON white space in ``text`` (counted in C)."""
    return sum(text.count(c) for c in " \t\r\n") / len(text) if text else 0.0


def read_text(path: Path) -> str:
    """A file's text: UTF-8, a leading BOM dropped, bytes that are not UTF-8 kept as
    ``surrogateescape`` characters (:data:`_BAD_BYTE`) so that the reader can blame the one item
    holding them. Raises ``OSError``."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
    return text[1:] if text.startswith(BOM) else text


#: What :func:`skip_value` stops at: a quote or a bracket or a comma.
_STRUCTURE = re.compile(r'["\[\]{},]')
#: The rest of a JSON string after its opening quote, through the closing one (escapes skipped).
_STRING_REST = re.compile(r'(?>[^"\\]*)(?:\\.(?>[^"\\]*))*+"', re.S)  # atomic: no backtracking stack
#: JSON white space (RFC 8259 §2), as a run.
_WHITE_SPACE = re.compile(r"[ \t\r\n]*")


def skip_value(text: str, pos: int) -> int | None:
    """The end of the JSON value starting at ``pos`` found by matching brackets and quotes
    only (no parsing): where to go on after an item that could not be parsed. ``None`` if the
    value does not end (truncated or unbalanced). Linear, jumping from one quote or bracket to
    the next in C (a damaged item of megabytes costs milliseconds)."""
    depth = 0
    i = pos
    while True:
        found = _STRUCTURE.search(text, i)
        if found is None:
            return None
        i = found.start()
        ch = text[i]
        if ch == '"':
            rest = _STRING_REST.match(text, i + 1)
            if rest is None:
                return None
            i = rest.end()
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth < 0:
                return i if i > pos else None  # a scalar item ended by the closing bracket
            if depth == 0:
                return i + 1
        elif depth == 0:  # a comma
            return i if i > pos else None
        i += 1


def iter_json_items(
    path: Path, text: str | None = None, window: Window | None = None
) -> Iterator[tuple[str | int, Any] | InputError]:
    """Items of a JSON file whose top level is an array (index, item) or an object (key, item).

    Parses item by item, so a file truncated or corrupted in the middle still gives every item
    before the damage, then one :class:`InputError` saying where the JSON breaks. An item that
    is damaged inside while its brackets still balance — invalid JSON, bytes that are not
    UTF-8, nesting too deep for Python, an integer of more than 4,300 digits, a lone surrogate —
    is one :class:`InputError` (naming ``#index`` or its key as the dialogue) and the items after
    it are still read. A UTF-8 BOM is skipped. ``text``, when given, is the file's content
    already read (a member of a zip archive); ``path`` names it. ``window``: only the items of
    that part of the array file (:func:`json_windows`), with the same errors, lines and item
    numbers as when the file is read whole.
    """
    line0 = col0 = 0
    if window is not None:
        try:
            text = read_window(path, window)
        except OSError as err:
            yield InputError(str(path), f"cannot read: {err.strerror or err}")
            return
        line0, col0 = window.line, window.column
    elif text is None:
        try:
            text = read_text(path)
        except OSError as err:
            yield InputError(str(path), f"cannot read: {err.strerror or err}")
            return
    elif text.startswith(BOM):
        text = text[1:]
    bad_bytes = [] if text.isascii() else [m.start() for m in _BAD_BYTE.finditer(text)]  # a scan: 17 ms a 3 MB file
    if window is not None:
        is_object, pos, index = False, skip_ws(text, 0), window.index
    else:
        pos = skip_ws(text, 0)
        if pos >= len(text) or text[pos] not in "[{":
            yield InputError(str(path), "not a JSON array or object of dialogues")
            return
        is_object = text[pos] == "{"
        pos = skip_ws(text, pos + 1)
        index = 0
    while pos < len(text) and text[pos] not in "]}":
        start = pos
        key: str | int = index
        name = f"#{index}"
        try:
            if is_object:
                key, pos = DECODER.raw_decode(text, pos)
                name = safe(str(key))
                pos = skip_ws(text, pos)
                if text[pos] != ":":
                    raise json.JSONDecodeError("expected ':'", text, pos)
                pos = skip_ws(text, pos + 1)
            item, pos = DECODER.raw_decode(text, pos)
        except (ValueError, IndexError, RecursionError) as err:
            where = f"item {index + 1}" if index else "the first item"
            if isinstance(err, json.JSONDecodeError):
                at_pos = (f"{json_error_text(err.msg)} (line {err.lineno + line0}, "
                          f"column {err.colno + (col0 if err.lineno == 1 else 0)})")  # fmt: skip
            elif isinstance(err, IndexError):
                at_pos = f"line {text.count(chr(10), 0, pos) + 1 + line0}: unexpected end of file"
            elif isinstance(err, RecursionError):
                at_pos = "nested too deeply"
            else:
                at_pos = " ".join(str(err).split())
            end = skip_value(text, pos)
            if end is None:
                yield InputError(str(path), f"invalid JSON in {where} ({index} read before it): {at_pos}; "
                                 "it never closes: is the file cut short?")  # fmt: skip
                return
            yield InputError(str(path), _damage(text, start, end, bad_bytes, line0) or f"invalid JSON: {at_pos}", dialogue=name)
            pos = end
        else:
            problem = _damage(text, start, pos, bad_bytes, line0)
            if problem is None and _SURROGATE_ESCAPE.search(text, start, pos):
                where_bad = lone_surrogate({key: item} if is_object else item)
                problem = f"{where_bad}: a lone surrogate (\\udXXX) is no text" if where_bad else None
            if problem is not None:
                named = item.get("dialogue_id") or item.get("id") if isinstance(item, dict) and not is_object else None
                yield InputError(str(path), problem, dialogue=safe(str(named)) if isinstance(named, (str, int)) else name)
            else:
                yield key, item
        index += 1
        pos = skip_ws(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = skip_ws(text, pos + 1)
    if pos >= len(text) and (window is None or window.last):
        yield InputError(str(path), f"invalid JSON: the file ends after {index} items without closing (truncated?)")


def _damage(text: str, start: int, end: int, bad_bytes: list[int], line0: int = 0) -> str | None:
    """"not UTF-8 …" when a byte that is not UTF-8 lies in ``text[start:end]`` (``line0``:
    lines before ``text`` in its file)."""
    for at_byte in bad_bytes:
        if start <= at_byte < end:
            line = text.count("\n", 0, at_byte) + 1 + line0
            return f"not UTF-8: byte 0x{ord(text[at_byte]) - 0xDC00:02x} on line {line}"
        if at_byte >= end:
            break
    return None


def skip_ws(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not JSON white space (RFC 8259 §2); one
    regular-expression match, not a Python loop per character."""
    if pos >= len(text) or text[pos] not in " \t\r\n":
        return pos
    found = _WHITE_SPACE.match(text, pos)
    return found.end() if found else pos


def read_items(
    path: Path,
    convert: Callable[[Path, str, Any], Dialogue],
    single_keys: frozenset[str] = frozenset(),
    text: str | None = None,
    window: Window | None = None,
) -> Iterator[Dialogue | InputError]:
    """Each dialogue of a JSON file, ``convert(path, dialogue_id, raw)``-ed, errors isolated.

    The file is a list of dialogues, an object mapping id → dialogue, or — when its first key is
    one of ``single_keys`` — one dialogue object. A dialogue's id is its ``dialogue_id`` (or
    ``id``) field, else its key, else ``#index``; a single dialogue without one is named after
    the file. ``text``: the file's content when already read; ``window``: only that part of
    an array file (see :func:`iter_json_items`).
    """
    items = iter_json_items(path, text, window)
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
            yield build(path, dialogue_id, lambda: convert(path, dialogue_id, fields))  # noqa: B023 (called at once)
            return
        fallback = f"#{key}" if isinstance(key, int) else str(key)
        named = raw.get("dialogue_id") or raw.get("id") if isinstance(raw, dict) and isinstance(key, int) else None
        dialogue_id = str(named or fallback)
        yield build(path, dialogue_id, lambda: convert(path, dialogue_id, raw))  # noqa: B023 (called at once)


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
        field, message = validation_message(err)
        return InputError(str(path), message, dialogue=dialogue_id, field=field)
    except KeyError as err:
        return InputError(str(path), f"missing field {safe(str(err))}", dialogue=dialogue_id)
    except RecursionError:
        return InputError(str(path), "nested too deeply", dialogue=dialogue_id)
    except (TypeError, ValueError, IndexError, AttributeError) as err:
        return InputError(str(path), plain_error(err), dialogue=dialogue_id)


def turn_list(path: Path, dialogue_id: str, raw: Any, key: str = "turns") -> list[Any]:
    """The non-empty list ``raw[key]`` of a raw dialogue object; :class:`InputError` naming the
    field when ``raw`` is no object, lacks the field, holds no list there (``expected a list of
    turns, found 'hello'``) or an empty one."""
    if not isinstance(raw, dict):
        raise InputError(str(path), "a dialogue must be a JSON object", dialogue=dialogue_id)
    if key not in raw:
        raise InputError(str(path), "missing field (a dialogue's list of turns)", dialogue=dialogue_id, field=key)
    turns = raw[key]
    if not isinstance(turns, list):
        raise InputError(str(path), f"expected a list of turns, found {json_value(turns)}", dialogue=dialogue_id, field=key)
    if not turns:
        raise InputError(str(path), "dialogue has no turns", dialogue=dialogue_id, field=key)
    return turns


def is_index(value: Any) -> bool:
    """An integer offset or index: ``int`` but not ``bool`` (strict typing: ``true`` is no 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_span(path: Path, dialogue_id: str, field: str, utterance: str, start: Any, end: Any) -> None:
    """Raise :class:`InputError` unless ``[start, end)`` is a valid span of ``utterance``."""
    if not is_index(start) or not is_index(end):
        raise InputError(
            str(path), f"span offsets must be integers, not {type(start).__name__} / {type(end).__name__}",
            dialogue=dialogue_id, field=field,
        )  # fmt: skip
    if 0 <= end < start <= len(utterance):
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
        inner, message = validation_message(err)
        raise InputError(str(path), message, dialogue=dialogue_id, field=f"{field}.{inner}" if inner else field) from err
    except KeyError as err:
        raise InputError(str(path), f"missing field {safe(str(err))}", dialogue=dialogue_id, field=field) from err
    except RecursionError as err:
        raise InputError(str(path), "nested too deeply", dialogue=dialogue_id, field=field) from err
    except (TypeError, ValueError, IndexError, AttributeError) as err:
        raise InputError(str(path), plain_error(err), dialogue=dialogue_id, field=field) from err


# --- malformed data in our words ----------------------------------------------------------------

#: Python's type names → what the JSON holds.
_JSON_KIND = {"str": "a string", "int": "a number", "float": "a number", "bool": "true / false",
              "list": "a list", "tuple": "a list", "dict": "an object", "NoneType": "null"}  # fmt: skip

_PY_MESSAGES = [
    (re.compile(r"(str|list|tuple)\w* indices must be integers"), "expected an object, found {kind}"),
    (re.compile(r"'(\w+)' object is not subscriptable"), "expected an object or a list, found {kind}"),
    (re.compile(r"'(\w+)' object has no attribute"), "expected an object, found {kind}"),
    (re.compile(r"'(\w+)' object is not iterable"), "expected a list, found {kind}"),
    (re.compile(r"argument of type '(\w+)' is not iterable"), "expected an object, found {kind}"),
    (re.compile(r"unhashable type: '(\w+)'"), "expected a string or a number, found {kind}"),
]


def plain_error(err: BaseException) -> str:
    """What a ``TypeError`` / ``AttributeError`` / … raised while converting malformed JSON
    means, in the data's terms ("expected an object, found a string"), instead of Python's
    words ("string indices must be integers"); other messages as they are, after
    ``malformed:``."""
    text = safe(str(err))
    for pattern, message in _PY_MESSAGES:
        match = pattern.search(text)
        if match:
            return message.format(kind=_JSON_KIND.get(match.group(1), f"a {match.group(1)}"))
    return f"malformed: {text}"


def json_value(value: Any) -> str:
    """A JSON value as a message shows it: ``true``, ``null``, ``3``, ``'abc'``, an object, a list."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return repr(value) if abs(value) < 1e15 else "a very large number"
    if isinstance(value, str):
        return repr(safe(value if len(value) <= 40 else value[:37] + "..."))
    return _JSON_KIND.get(type(value).__name__, type(value).__name__)


#: pydantic error types → what the field must hold.
_EXPECTED = {
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "an integer",
    "float_type": "a number", "float_parsing": "a number", "string_type": "a string",
    "bool_type": "true or false", "bool_parsing": "true or false", "list_type": "a list",
    "dict_type": "an object", "model_type": "an object", "model_attributes_type": "an object",
    "dataclass_type": "an object", "none_required": "null",
}  # fmt: skip


def validation_message(err: ValidationError) -> tuple[str, str]:
    """``(field, message)`` of the first problem of a pydantic ``ValidationError`` on our models,
    in our words: the field as a path (``turns[0].acts[1].span.start``, :func:`json_path`) and what it must
    hold and what it holds ("expected an integer (a character offset into the utterance),
    found true"), with the number of further problems."""
    first = err.errors()[0]
    loc = [str(p) for p in first["loc"]]
    kind, ctx = first["type"], first.get("ctx") or {}
    found = json_value(first.get("input"))
    if kind == "missing":
        message = "missing field"
    elif kind in _EXPECTED:
        what = _EXPECTED[kind]
        if loc[-2:-1] == ["span"] or loc[-1:] == ["index"]:
            what += " (a character offset into the utterance)" if loc[-2:-1] == ["span"] else " (the turn's position, 0, 1, …)"
        message = f"expected {what}, found {found}"
    elif kind in ("literal_error", "enum"):
        message = f"expected {ctx.get('expected', 'one of the allowed values')}, found {found}"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(ctx.values()), "")
        sign = {"greater_than_equal": "≥", "greater_than": ">", "less_than_equal": "≤", "less_than": "<"}[kind]
        message = f"expected a number {sign} {bound}, found {found}"
    elif kind == "extra_forbidden":
        message = "unknown field"
    elif kind in ("value_error", "assertion_error"):
        message = str(first["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    else:
        message = f"{str(first['msg'])[:1].lower()}{str(first['msg'])[1:]}, found {found}"
    more = err.error_count() - 1
    if more:
        message += f" (and {more} more problem{'s' if more > 1 else ''} in this dialogue)"
    return json_path(first["loc"]), safe(message)


def json_path(loc) -> str:  # type: ignore[no-untyped-def]
    """A field's path as every reader writes it: keys joined by dots, list positions in brackets
    (``("turns", 0, "acts", 1, "span")`` → ``turns[0].acts[1].span``)."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
