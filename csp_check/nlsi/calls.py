"""Safe parser of API-call strings ``GetX(slot="v", other='w')`` (spec §2); no ``eval``.

Grammar: ``METHOD "(" [ARG ("," ARG)* [","]] ")"`` with ``ARG = NAME "=" VALUE``; ``VALUE`` is a
single- or double-quoted string (backslash escapes ``\\" \\' \\\\ \\n \\t``; curly quotes are
accepted as double quotes) or a bare token up to ``,``/``)`` (numbers, ``True``). ``GetX()`` is a
call without arguments. A quote closes a string only when ``,``, ``)`` or the end follows it
(blanks aside): a quote inside a value is kept, so the release's unbalanced gold calls
(``pickup_time="11 o"clock in the morning"``) parse. A request marker ``slot="?"`` is an argument
with the value ``?`` (:func:`is_request` tells it apart). Anything else raises :class:`CallSyntaxError` naming the call.
"""

from __future__ import annotations

import re

from csp_check.errors import CallSyntaxError
from csp_check.nlsi.models import ApiCall

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPEN = {'"': '"', "'": "'", "\u201c": "\u201d", "\u201d": "\u201d"}
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "n": "\n", "t": "\t"}


def parse_call(text: str) -> ApiCall:
    """Parse one call string into an :class:`ApiCall` (arguments in order).

    Raises :class:`CallSyntaxError` for an empty string, a missing or unbalanced parenthesis, an
    unterminated quote, a missing ``=`` or trailing text after ``)``.
    """
    s = text.strip()
    m = _NAME.match(s)
    if not m:
        raise CallSyntaxError(text, 0, "expected a method name")
    method, i = m.group(0), m.end()
    i = _skip(s, i)
    if i >= len(s) or s[i] != "(":
        raise CallSyntaxError(text, i, "expected '('")
    i = _skip(s, i + 1)
    args: list[tuple[str, str]] = []
    while True:
        if i >= len(s):
            raise CallSyntaxError(text, i, "missing ')'")
        if s[i] == ")":
            i += 1
            break
        m = _NAME.match(s, i)
        if not m:
            raise CallSyntaxError(text, i, "expected an argument name")
        name, i = m.group(0), _skip(s, m.end())
        if i >= len(s) or s[i] != "=":
            raise CallSyntaxError(text, i, f"expected '=' after {name!r}")
        value, i = _value(text, s, _skip(s, i + 1))
        args.append((name, value))
        i = _skip(s, i)
        if i < len(s) and s[i] == ",":
            i = _skip(s, i + 1)
        elif i < len(s) and s[i] != ")":
            raise CallSyntaxError(text, i, "expected ',' or ')'")
    if s[i:].strip():
        raise CallSyntaxError(text, i, "unexpected text after ')'")
    return ApiCall(method=method, arguments=tuple(args), text=text)


def _skip(s: str, i: int) -> int:
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def _value(text: str, s: str, i: int) -> tuple[str, int]:
    if i >= len(s):
        raise CallSyntaxError(text, i, "missing value")
    if s[i] in _OPEN:
        close, out, j = _OPEN[s[i]], [], i + 1
        while j < len(s):
            c = s[j]
            if c == "\\" and j + 1 < len(s):
                out.append(_ESCAPES.get(s[j + 1], "\\" + s[j + 1]))
                j += 2
                continue
            if (c == close or (close == '"' and c == "\u201d")) and _closes(s, j + 1):
                return "".join(out), j + 1
            out.append(c)
            j += 1
        raise CallSyntaxError(text, i, "unterminated string")
    j = i
    while j < len(s) and s[j] not in ",)":
        if s[j] in "(=\"'":
            raise CallSyntaxError(text, j, f"unexpected {s[j]!r} in a bare value")
        j += 1
    value = s[i:j].strip()
    if not value:
        raise CallSyntaxError(text, i, "missing value")
    return value, j


def _closes(s: str, j: int) -> bool:
    """Does a quote before ``s[j]`` close its string (``,`` / ``)`` / the end follows)?"""
    j = _skip(s, j)
    return j >= len(s) or s[j] in ",)"


def is_request(value: str) -> bool:
    """Is an argument value the release's request marker ``?`` (the slot is asked, not set)?"""
    return value.strip() == "?"


def without_requests(call: ApiCall) -> ApiCall:
    """``call`` without its request markers (``slot="?"``): what the call constrains."""
    kept = tuple((k, v) for k, v in call.arguments if not is_request(v))
    return call if len(kept) == len(call.arguments) else ApiCall(method=call.method, arguments=kept, text=call.text)


def parse_calls(texts: list[str]) -> tuple[list[ApiCall], list[CallSyntaxError]]:
    """Parse every call string; return the calls that parse and the errors of those that do not.

    One malformed call never hides the others (docs/nlsi.md: the other calls are still checked).
    A string holding several calls separated by whitespace or commas at top level
    (``"GetA(x=\\"1\\") GetB()"``) is split first.
    """
    calls: list[ApiCall] = []
    errors: list[CallSyntaxError] = []
    for text in texts:
        if not isinstance(text, str) or not text.strip():
            errors.append(CallSyntaxError(str(text), 0, "empty call"))
            continue
        for piece in split_calls(text):
            try:
                calls.append(parse_call(piece))
            except CallSyntaxError as err:
                errors.append(err)
    return calls, errors


def split_calls(text: str) -> list[str]:
    """Split a string into top-level call strings (outside quotes, after each closing ``)``).

    A string without any balanced call is returned whole, so the parser reports it.
    """
    pieces, depth, quote, start, i = [], 0, None, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if (c == quote or (quote == '"' and c == "\u201d")) and _closes(text, i + 1):
                quote = None
        elif c in _OPEN and depth:
            quote = _OPEN[c]
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                pieces.append(text[start : i + 1].strip(" ,\n\t"))
                start = i + 1
        i += 1
    rest = text[start:].strip(" ,\n\t")
    if rest or not pieces:
        pieces.append(rest if pieces else text)
    return [p for p in pieces if p or not pieces]
