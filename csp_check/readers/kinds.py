"""What kind of data a file holds, told by its shape: for the commands that read one kind only.

``csp-check validate`` (and ``delexicalize``, ``export-mzn``) reads dialogues, ``benchmark citod``
CI-ToD files, ``calls`` NLSI examples, ``--kb`` a KB. Given a file of another kind (an NLSI
release file to ``validate``, an SGD or MultiWOZ file to ``benchmark citod`` or as ``--kb``, a
dialogue file to ``calls``) they would report every item of it as broken, or worse read it;
instead they say once, in one line, what the file is and which command reads it
(:func:`wrong_kind`, :func:`not_a_kb`)::

    data/dialogues_001.json: this is not a CI-ToD file (it looks like SGD); use `csp-check validate data/dialogues_001.json`

The kind is sniffed from the head of the file, as the readers do (:mod:`csp_check.readers`):
NLSI examples and service schemas first (:mod:`csp_check.readers.foreign`: an NLSI release file
holds SGD ids and frames too, but no dialogue file has standing instructions or API calls), then
the dialogue readers in their sniffing order, then a KB. A file whose kind cannot be told is left
to the command's reader (its own errors).
"""

from __future__ import annotations

import re
from pathlib import Path

from csp_check.errors import CspCheckError, InputError, UsageError
from csp_check.models import KnowledgeBase
from csp_check.readers import READERS, looks_like_kb
from csp_check.readers.foreign import SNIFF_CHARS, calls_command, foreign_kind, not_dialogues
from csp_check.readers.json_stream import head
from csp_check.readers.kb import load_kb

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
    "nlsi-release": "an NLSI release file",
    "schema": "a service schema",
    "kb": "a KB",
}
#: What a command expects (``dialogues``: any dialogue reader's kind) → the kinds it takes.
EXPECTED = {"dialogues": frozenset(READERS), "nlsi": frozenset({"nlsi", "nlsi-release"}), "citod": frozenset({"citod"}),
            "kb": frozenset({"kb"})}  # fmt: skip
#: The keys of a dialogue of our JSONL (its first line).
_JSONL_KEYS = (re.compile(r'"id"\s*:'), re.compile(r'"turns"\s*:'))


def sniff_kind(path: Path) -> str | None:
    """The kind of ``path`` (a key of :data:`KIND_NAMES`), ``None`` when it cannot be told."""
    try:
        if not path.is_file():
            return next((name for name, reader in READERS.items() if reader.sniff(path)), None)
        text = head(path, SNIFF_CHARS)
        foreign = foreign_kind(path, text)
        if foreign is not None:
            return foreign
        for name, reader in READERS.items():
            if name == "jsonl" and not all(key.search(text) for key in _JSONL_KEYS):
                continue  # a .jsonl suffix alone does not make dialogues
            if reader.sniff(path):
                return name
    except (OSError, ValueError):
        return None
    return "kb" if looks_like_kb(path) else None


def reads(kind: str, path: Path) -> str:
    """The command that reads ``path``, a file of ``kind`` (a key of :data:`KIND_NAMES`)."""
    if kind in ("nlsi", "nlsi-release"):
        return calls_command(path)
    if kind == "kb":
        return f"csp-check validate DIALOGUES --kb {path}"
    if kind == "schema":
        return f"csp-check calls NLSI_FILE --schema {path}"
    if kind == "citod":
        return f"csp-check validate {path}` or `csp-check benchmark citod {path}"
    return f"csp-check validate {path}"


def wrong_kind(path: Path, expected: str) -> str | None:
    """``"FILE: this is not a K file (it looks like L); use `COMMAND`"`` when ``path`` is clearly
    of another kind than ``expected`` (a key of :data:`EXPECTED`), else ``None`` (it is, or it
    cannot be told: the command's reader then says what is wrong). For ``dialogues``, an NLSI
    file or a schema is :func:`csp_check.readers.foreign.not_dialogues`'s line."""
    kind = sniff_kind(path)
    if kind is None or kind in EXPECTED[expected]:
        return None
    if expected == "dialogues":
        if kind == "kb":
            return f"{path}: this looks like a KB, not dialogues: give it with --kb"
        return f"{path}: {not_dialogues(path, kind)}"
    what = {"nlsi": "an NLSI examples file", "kb": "a KB"}.get(expected, f"a {KIND_NAMES[expected]} file")
    return f"{path}: this is not {what} (it looks like {KIND_NAMES[kind]}); use `{reads(kind, path)}`"


def not_a_kb(path: Path) -> str | None:
    """The line refusing ``--kb PATH`` when ``path`` is clearly no KB (dialogues, NLSI examples,
    a schema), else ``None``: ``"FILE: this is not a KB (it looks like SGD); …"``. SGD and
    ConvLab-3 unified dialogues carry the results the system saw: checked without ``--kb``,
    their C4-C6 are built from those."""
    kind = sniff_kind(path)
    if kind is None or kind == "kb":
        return None
    message = f"{path}: this is not a KB (it looks like {KIND_NAMES[kind]})"
    if kind in READERS:
        return message + f"; dialogues are given as a PATH: `csp-check validate {path} [--kb KB]`"
    return message + f"; use `{reads(kind, path)}`"


def load_kb_option(path: Path) -> KnowledgeBase:
    """Load ``--kb PATH`` with :func:`csp_check.readers.kb.load_kb` (every command's one ``--kb``
    loader); raises :class:`UsageError` (one line), also for a path that is clearly no KB
    (:func:`not_a_kb`: a dialogue file, a dialogue folder, NLSI examples), which would otherwise be
    read as a table of entities or fail on its bytes."""
    refused = not_a_kb(Path(path))
    if refused is not None:
        raise UsageError(f"--kb {refused}")
    try:
        return load_kb(path)
    except CspCheckError as err:
        named = isinstance(err, InputError) and err.file.startswith(str(path))  # names the file: say it once
        raise UsageError(f"--kb {err}" if named else f"--kb {path}: {err}") from None
    except Exception as err:
        raise UsageError(f"--kb {path}: cannot load KB: {type(err).__name__}: {err}") from None
