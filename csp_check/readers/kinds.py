"""What kind of data a file holds, told by its shape: for the commands that read one kind only.

``csp-check benchmark citod`` reads CI-ToD files, ``csp-check calls`` NLSI examples. Given a file
of another kind (an SGD or MultiWOZ file to ``benchmark citod``, a dialogue file to ``calls``)
they would report every item of it as broken; instead they say once, in one line, what the file
is not and what it looks like (:func:`wrong_kind`)::

    data/dialogues_001.json: this is not a CI-ToD file (it looks like SGD)

The kind is sniffed from the head of the file, as the readers do (:mod:`csp_check.readers`):
NLSI examples first (an NLSI release file holds SGD ids and frames too, but no dialogue file has
standing instructions or API calls), then the dialogue readers in their sniffing order, then a
KB. A file whose kind cannot be told is left to the command's reader (its own errors).
"""

from __future__ import annotations

import re
from pathlib import Path

from csp_check.readers import READERS, looks_like_kb
from csp_check.readers.json_stream import head

#: A kind → how a message names it.
KIND_NAMES = {
    "sgd": "SGD",
    "multiwoz22": "MultiWOZ 2.2",
    "unified": "ConvLab-3 unified",
    "multiwoz": "MultiWOZ",
    "citod": "CI-ToD",
    "jsonl": "csp-check JSONL dialogues",
    "text": "raw text dialogues",
    "nlsi": "NLSI examples",
    "kb": "a KB",
}
#: Keys only NLSI examples have (spec §2; the release's raw names too).
_NLSI_KEY = re.compile(r'"(example_id|user_utterance|all_standing_instructions|applicable_standing_instructions'
                       r'|standing_instructions|user_profile|api_calls|pred_api_calls)"\s*:')  # fmt: skip
#: The keys of a dialogue of our JSONL (its first line).
_JSONL_KEYS = (re.compile(r'"id"\s*:'), re.compile(r'"turns"\s*:'))
SNIFF_CHARS = 1 << 16


def sniff_kind(path: Path) -> str | None:
    """The kind of ``path`` (a key of :data:`KIND_NAMES`), ``None`` when it cannot be told."""
    try:
        if not path.is_file():
            return next((name for name, reader in READERS.items() if reader.sniff(path)), None)
        text = head(path, SNIFF_CHARS)
        if _NLSI_KEY.search(text):
            return "nlsi"
        for name, reader in READERS.items():
            if name == "jsonl" and not all(key.search(text) for key in _JSONL_KEYS):
                continue  # a .jsonl suffix alone does not make dialogues
            if reader.sniff(path):
                return name
    except (OSError, ValueError):
        return None
    return "kb" if looks_like_kb(path) else None


def wrong_kind(path: Path, expected: str) -> str | None:
    """``"FILE: this is not a K file (it looks like L)"`` when ``path`` is clearly of another
    kind than ``expected`` (a key of :data:`KIND_NAMES`), else ``None`` (it is, or it cannot be
    told: the command's reader then says what is wrong)."""
    kind = sniff_kind(path)
    if kind is None or kind == expected:
        return None
    what = "an NLSI examples file" if expected == "nlsi" else f"a {KIND_NAMES[expected]} file"
    return f"{path}: this is not {what} (it looks like {KIND_NAMES[kind]})"
