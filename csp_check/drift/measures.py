"""Deterministic stability measures f_B(b) ∈ [0, 1] of the drift protocol (paper §3: "a Python
function that takes as input the agent LM's response and returns a number p in the range
0 ≤ p ≤ 1 deterministically; the larger the value of p, the better the system prompt is
followed").

Each measure is ``f(answer: str, params: dict) -> float``, registered in :data:`MEASURES` under
its kind; a missing or ill-typed parameter raises :class:`~csp_check.errors.MeasureError`.

| kind | params | score |
| --- | --- | --- |
| ``language`` | ``lang`` (ISO 639-1, ``"fr"``) | langdetect's probability of ``lang`` (seed 0: deterministic); 0 for an answer without letters |
| ``contains`` | ``words`` (list), ``mode`` ``all`` / ``any`` (default ``all``), ``absent`` (bool: the words must not occur), ``case_sensitive`` | share of ``words`` present (``any``: 1 if one is); with ``absent``, share absent |
| ``regex`` | ``pattern``, ``match`` ``search`` / ``full`` / ``lines`` (default ``search``), ``ignore_case``, ``absent`` | 1 if it matches (``lines``: share of non-blank lines that match); ``absent`` flips |
| ``answer_in`` | ``choices`` (list) | 1 if the answer, stripped of punctuation and case, is one of the choices (or starts with one followed by ``)`` / ``.`` / ``:``), else 0 |
| ``case`` | ``case`` ``upper`` / ``lower`` / ``title`` | share of letters in that case (``title``: of words starting upper-case) |
| ``length`` | ``unit`` ``words`` / ``sentences`` / ``chars``, ``max`` and / or ``min`` | 1 inside the bounds, else ``max / n`` or ``n / min`` |
| ``json`` | ``shape`` ``object`` / ``array`` / ``any``, ``required`` (keys), ``types`` (key → ``str`` / ``int`` / ``float`` / ``bool`` / ``list`` / ``dict``) | 0 if the answer (a fenced code block allowed) is no JSON of that shape, else the share of required keys present with their type (1 without any) |

csp-check's own kinds, ``profile`` and ``kb``, are in :mod:`csp_check.drift.task_measures`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from csp_check.errors import MeasureError
from csp_check.install import pip_extra

Measure = Callable[[str, dict[str, Any]], float]

_FENCE = re.compile(r"^\s*```[A-Za-z]*\s*\n(.*?)\n\s*```\s*$", re.DOTALL)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*|\d+")
_PUNCT = re.compile(r"[^\w\s]")
_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,), "int": (int,), "float": (int, float), "bool": (bool,), "list": (list,), "dict": (dict,),
}  # fmt: skip


def param(params: dict[str, Any], name: str, kind: str, types: type | tuple[type, ...], default: Any = ...) -> Any:
    """``params[name]`` checked against ``types``; ``default`` when absent (none: required).
    Raises :class:`MeasureError` naming ``kind`` and ``name``."""
    if name not in params:
        if default is ...:
            raise MeasureError(f"measure {kind}: parameter {name!r} is required")
        return default
    value = params[name]
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
        raise MeasureError(f"measure {kind}: parameter {name!r} must be {_type_names(types)}, not {value!r}")
    return value


def _as_tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _type_names(types: type | tuple[type, ...]) -> str:
    return " or ".join(t.__name__ for t in _as_tuple(types))


def _words_param(params: dict[str, Any], kind: str, name: str) -> list[str]:
    words = param(params, name, kind, list)
    if not words or not all(isinstance(w, str) and w for w in words):
        raise MeasureError(f"measure {kind}: parameter {name!r} must be a non-empty list of strings")
    return words


def language(answer: str, params: dict[str, Any]) -> float:
    """The probability langdetect gives language ``lang`` for the answer (its profiles, seed 0)."""
    lang = param(params, "lang", "language", str)
    if not re.search(r"[^\W\d_]", answer):
        return 0.0
    try:
        from langdetect import DetectorFactory, detect_langs
        from langdetect.lang_detect_exception import LangDetectException
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise MeasureError(f"measure language needs langdetect: {pip_extra('drift')}") from err
    DetectorFactory.seed = 0  # langdetect samples; a fixed seed makes it deterministic
    try:
        found = detect_langs(answer)
    except LangDetectException:
        return 0.0
    return round(next((g.prob for g in found if g.lang == lang), 0.0), 6)


def contains(answer: str, params: dict[str, Any]) -> float:
    """Share of ``words`` in the answer (``mode="any"``: 1 if any is); ``absent``: share not in it."""
    words = _words_param(params, "contains", "words")
    mode = param(params, "mode", "contains", str, "all")
    if mode not in ("all", "any"):
        raise MeasureError(f"measure contains: parameter 'mode' must be 'all' or 'any', not {mode!r}")
    absent = param(params, "absent", "contains", bool, False)
    sensitive = param(params, "case_sensitive", "contains", bool, False)
    text = answer if sensitive else answer.lower()
    found = [(w if sensitive else w.lower()) in text for w in words]
    if absent:
        return 0.0 if (any(found) if mode == "any" else False) else sum(not f for f in found) / len(found)
    return float(any(found)) if mode == "any" else sum(found) / len(found)


def regex(answer: str, params: dict[str, Any]) -> float:
    """1 if ``pattern`` matches (``match``: ``search``, ``full`` or ``lines``: share of non-blank
    lines it matches whole); ``absent`` gives 1 − that."""
    pattern = param(params, "pattern", "regex", str)
    how = param(params, "match", "regex", str, "search")
    flags = re.IGNORECASE if param(params, "ignore_case", "regex", bool, False) else 0
    try:
        compiled = re.compile(pattern, flags | re.DOTALL if how != "lines" else flags)
    except re.error as err:
        raise MeasureError(f"measure regex: parameter 'pattern' is no regular expression: {err}") from None
    if how == "search":
        score = float(compiled.search(answer) is not None)
    elif how == "full":
        score = float(compiled.fullmatch(answer.strip()) is not None)
    elif how == "lines":
        lines = [line.strip() for line in answer.splitlines() if line.strip()]
        score = sum(compiled.fullmatch(line) is not None for line in lines) / len(lines) if lines else 0.0
    else:
        raise MeasureError(f"measure regex: parameter 'match' must be search, full or lines, not {how!r}")
    return 1.0 - score if param(params, "absent", "regex", bool, False) else score


def _norm(text: str) -> str:
    return " ".join(_PUNCT.sub(" ", text.lower()).split())


def answer_in(answer: str, params: dict[str, Any]) -> float:
    """1 if the whole answer is one of ``choices`` (case and punctuation aside), or starts with
    one followed by ``)``, ``.`` or ``:`` ("B) Paris"); else 0."""
    choices = _words_param(params, "answer_in", "choices")
    said = _norm(answer)
    if said in {_norm(c) for c in choices}:
        return 1.0
    head = answer.strip()
    return float(any(re.match(rf"{re.escape(c.strip())}\s*[).:](\s|$)", head, re.IGNORECASE) for c in choices))


def case(answer: str, params: dict[str, Any]) -> float:
    """Share of the answer's letters in ``case`` (``upper`` / ``lower``), or of its words that
    start with an upper-case letter (``title``); 0 for an answer without letters."""
    which = param(params, "case", "case", str)
    if which in ("upper", "lower"):
        letters = [c for c in answer if c.isalpha() and (c.isupper() or c.islower())]
        if not letters:
            return 0.0
        return sum(c.isupper() if which == "upper" else c.islower() for c in letters) / len(letters)
    if which == "title":
        words = [w for w in _WORD.findall(answer) if w[0].isalpha()]
        return sum(w[0].isupper() for w in words) / len(words) if words else 0.0
    raise MeasureError(f"measure case: parameter 'case' must be upper, lower or title, not {which!r}")


def length(answer: str, params: dict[str, Any]) -> float:
    """1 when the answer's length in ``unit`` lies within [``min``, ``max``], else the ratio
    ``max / n`` (too long) or ``n / min`` (too short)."""
    unit = param(params, "unit", "length", str, "words")
    high = param(params, "max", "length", (int, float), None)
    low = param(params, "min", "length", (int, float), None)
    if high is None and low is None:
        raise MeasureError("measure length: give 'max' and / or 'min'")
    if unit == "words":
        n = len(_WORD.findall(answer))
    elif unit == "sentences":
        n = len([s for s in _SENTENCE.findall(answer) if _WORD.search(s)])
    elif unit == "chars":
        n = len(answer.strip())
    else:
        raise MeasureError(f"measure length: parameter 'unit' must be words, sentences or chars, not {unit!r}")
    if high is not None and n > high:
        return high / n
    if low is not None and n < low:
        return n / low if low else 1.0
    return 1.0


def json_shape(answer: str, params: dict[str, Any]) -> float:
    """0 if the answer is no JSON value of ``shape`` (a fenced ``` block is unwrapped first);
    else the share of ``required`` keys present with the type ``types`` names (an array: of its
    object items, averaged)."""
    shape = param(params, "shape", "json", str, "object")
    required = param(params, "required", "json", list, [])
    types = param(params, "types", "json", dict, {})
    bad = [t for t in types.values() if t not in _TYPES]
    if bad or shape not in ("object", "array", "any"):
        raise MeasureError(f"measure json: shape must be object, array or any and types among {', '.join(_TYPES)}")
    text = answer.strip()
    fenced = _FENCE.match(text)
    try:
        value = json.loads(fenced.group(1) if fenced else text)
    except ValueError:
        return 0.0
    if (shape == "object" and not isinstance(value, dict)) or (shape == "array" and not isinstance(value, list)):
        return 0.0
    keys = list(dict.fromkeys([*required, *types]))
    if not keys:
        return 1.0
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(item, dict) for item in items):
        return 0.0

    def share(item: dict[str, Any]) -> float:
        good = sum(k in item and (k not in types or _typed(item[k], types[k])) for k in keys)
        return good / len(keys)

    return sum(share(item) for item in items) / len(items)


def _typed(value: Any, name: str) -> bool:
    return isinstance(value, _TYPES[name]) and not (isinstance(value, bool) and name in ("int", "float"))


#: Kind → measure, the generic ones (``profile`` and ``kb``: :mod:`csp_check.drift.task_measures`).
MEASURES: dict[str, Measure] = {
    "language": language,
    "contains": contains,
    "regex": regex,
    "answer_in": answer_in,
    "case": case,
    "length": length,
    "json": json_shape,
}
