"""Files that hold no dialogue at a glance: empty, ``[]``, ``{}`` (docs/cli.md, "No dialogues").

Given by itself such a path is :class:`~csp_check.errors.NoDialogues`; met inside a folder, or
among the ``dialogues_*.json`` files of an SGD / MultiWOZ 2.2 split, it is skipped with a
:class:`~csp_check.errors.SkippedInput` warning and the rest is read.
"""

from __future__ import annotations

from pathlib import Path


def nothing_in(path: Path) -> str | None:
    """Why the file ``path`` holds no dialogue at a glance (``"the file is empty"``: nothing but
    white space; ``"an empty JSON list"`` / ``"an empty JSON object"``, but not in a ``.jsonl``
    file, where a line ``{}`` is one broken dialogue), else ``None``."""
    try:
        if not path.is_file() or path.stat().st_size > 1 << 16:
            return None
        data = b"".join(path.read_bytes().removeprefix(b"\xef\xbb\xbf").split())
    except OSError:
        return None
    if data and path.suffix == ".jsonl":
        return None
    return {b"": "the file is empty", b"[]": "an empty JSON list", b"{}": "an empty JSON object"}.get(data)
