"""Lone surrogates in decoded JSON: where they are, and how to print text holding them.

A JSON ``"\\udc80"`` escape is valid JSON but no text and not writable as UTF-8, so readers and
the KB loader name the field holding one instead of carrying it into a report (spec §7, real data is messy).
Below both :mod:`csp_check.readers` and :mod:`csp_check.readers.kb`, importing neither.
"""

from __future__ import annotations

from typing import Any


def safe(text: str) -> str:
    """``text`` printable as UTF-8: a lone surrogate becomes its ``\\udcXX`` escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def lone_surrogate(value: Any, path: str = "") -> str | None:
    """The field path (``turns[2].utterance``) of the first string in ``value`` holding a lone
    surrogate (``"\\udc80"`` in JSON: valid JSON, but no text, and not writable as UTF-8), or ``None``."""
    todo: list[tuple[str, Any]] = [(path, value)]
    while todo:
        where, item = todo.pop()
        if isinstance(item, str):
            if any("\ud800" <= ch <= "\udfff" for ch in item):
                return where or "(value)"
        elif isinstance(item, dict):
            for k, v in item.items():
                key = safe(str(k))
                if isinstance(k, str) and key != k:
                    return f"{where}.{key}" if where else key
                todo.append((f"{where}.{key}" if where else key, v))
        elif isinstance(item, list):
            todo.extend((f"{where}[{i}]", v) for i, v in enumerate(item))
    return None
