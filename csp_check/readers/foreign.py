"""Files that hold data of the field but no dialogues: NLSI examples and service schemas.

Told by the head of the file (:func:`foreign_kind`), before any dialogue reader sniffs it: an
NLSI release file holds SGD ids and ``frames`` too, and would otherwise be read as SGD, one error
per example (``turns: dialogue has no turns``, 175 lines for the release's
``old_instructions_dataset.json``). Instead :func:`csp_check.readers.sniff_format` refuses it in
one line naming the command that reads it (:func:`not_dialogues`)::

    old_instructions_dataset.json: this is an NLSI release file, not dialogues; use `csp-check calls
    old_instructions_dataset.json --schema SCHEMA` (SCHEMA: the release's schema_updated_v5.json or its folder)

- ``nlsi``: a key only NLSI examples have (spec §2; the release's raw names too);
  ``nlsi-release`` when the file is a JSON list (the release's format), else our JSONL;
- ``schema``: a JSON list whose first object starts with ``"service_name"`` (SGD's
  ``schema.json``, NLSI's ``schema_updated_v5.json``).
"""

from __future__ import annotations

import re
from pathlib import Path

from csp_check.readers.json_stream import head

#: Keys only NLSI examples have (spec §2; the release's raw names too).
NLSI_KEY = re.compile(r'"(example_id|user_utterance|all_standing_instructions|applicable_standing_instructions'
                      r'|standing_instructions|user_profile|api_calls|pred_api_calls)"\s*:')  # fmt: skip
#: The head of a service schema: a list of services, each opening with its name.
_SCHEMA_HEAD = re.compile(r'\[\s*\{\s*"service_name"\s*:')
SNIFF_CHARS = 1 << 16


def foreign_kind(path: Path, text: str | None = None) -> str | None:
    """``"nlsi-release"``, ``"nlsi"`` or ``"schema"`` for a file of that kind (``text``: its head,
    when already read), else ``None`` (a folder, a zip, anything else, an unreadable file)."""
    try:
        if text is None:
            if not path.is_file() or path.suffix not in (".json", ".jsonl"):
                return None
            text = head(path, SNIFF_CHARS)
    except (OSError, ValueError):
        return None
    if NLSI_KEY.search(text):
        return "nlsi-release" if text.lstrip()[:1] == "[" else "nlsi"
    if _SCHEMA_HEAD.match(text.lstrip()):
        return "schema"
    return None


def calls_command(path: Path) -> str:
    """``csp-check calls FILE --schema SCHEMA`` for the NLSI file ``path``: SCHEMA is its folder
    when that holds a schema (the release's layout), else left for the user to fill."""
    beside = path.parent
    schema = str(beside) if any(beside.glob("schema*.json")) else "SCHEMA"
    return f"csp-check calls {path} --schema {schema}"


def not_dialogues(path: Path, kind: str) -> str:
    """What ``path``, of the foreign ``kind``, is and which command reads it (one line, no path
    prefix): for a command that reads dialogues."""
    if kind in ("nlsi", "nlsi-release"):
        what = "an NLSI release file" if kind == "nlsi-release" else "a file of NLSI examples"
        return f"this is {what} (API calls against standing instructions), not dialogues; use `{calls_command(path)}`"
    return ("this is a service schema (SGD's schema.json, NLSI's schema_updated_v5.json), not dialogues: validate reads "
            f"an SGD split's schema with its folder; use `csp-check calls NLSI_FILE --schema {path}` for NLSI")  # fmt: skip
