"""Raw dialogue text (an LLM's output): speaker-labelled lines, annotated against the KB (spec §5).

Format::

    ### restaurant-17          (optional: starts a dialogue and gives its id)
    User: I need a cheap restaurant in the centre.
    System: Jade Lotus is a cheap chinese place in the centre.

    User: …                    (a blank line ends a dialogue)

Speaker labels, case-insensitive: ``User:`` → user; ``System:``, ``Assistant:``, ``Bot:`` →
system. A line without a label continues the previous turn (joined with a space). A dialogue
without a ``### id`` line is ``<file stem>-<n>`` (n counts the file's dialogues from 1). A block
that does not start with a label gives one :class:`InputError` (``FILE:LINE``) and is skipped.

There are no annotations: each dialogue is passed through
:func:`csp_check.annotate.annotate`, so reading needs the KB (``--kb``); without it the reader
yields the single error "raw text needs --kb". ``.txt`` files sniff as text when their first
non-blank line (after an optional ``### id`` line) starts with a speaker label.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from csp_check.errors import InputError
from csp_check.models import Dialogue, Turn

NAME = "text"
SPEAKERS = {"user": "user", "system": "system", "assistant": "system", "bot": "system"}
_LABEL = re.compile(rf"^\s*({'|'.join(SPEAKERS)})\s*:\s?(.*)$", re.IGNORECASE)
_HEADER = re.compile(r"^\s*###\s*(.*?)\s*$")


def sniff(path: Path) -> bool:
    """A ``.txt`` file whose first non-blank line (after an optional ``### id``) has a speaker label."""
    if not path.is_file() or path.suffix.lower() != ".txt":
        return False
    with open(path, encoding="utf-8", errors="replace") as f:
        read = 0
        while read < 1 << 20:  # a head only: never a whole huge first line
            line = f.readline((1 << 20) - read)
            if not line:
                return False
            read += len(line)
            if line.strip() and not _HEADER.match(line):
                return bool(_LABEL.match(line))
    return False


#: Raw text has no annotations: without a KB there is nothing to check, so
#: :func:`csp_check.readers.read_dialogues` gives :data:`NEEDS_KB_MESSAGE` instead of reading.
NEEDS_KB = True
NEEDS_KB_MESSAGE = "raw text needs --kb (its variables come from matching KB values)"


def read(path: Path) -> Iterator[Dialogue | InputError]:
    """The dialogues of a raw-text file, without acts: the pipeline annotates them against the KB
    (:func:`csp_check.pipeline.with_annotations`, in the worker that checks them). An
    :class:`InputError` for a block that is not dialogue text (streamed)."""
    yield from parse(path)


def parse(path: Path) -> Iterator[Dialogue | InputError]:
    """The unannotated dialogues of a raw-text file (see the module docstring for the format)."""
    try:
        f = open(path, encoding="utf-8")
    except OSError as err:
        yield InputError(str(path), f"cannot read: {err.strerror or err}")
        return
    block = _Block(path)
    with f:
        try:
            for lineno, line in enumerate(f, 1):
                header = _HEADER.match(line)
                if header or not line.strip():
                    if block.turns or block.bad:
                        yield from block.flush()
                    if header:
                        block.dialogue_id = header.group(1) or None
                    continue
                block.add(lineno, line.rstrip("\r\n"))
        except UnicodeDecodeError as err:
            yield InputError(str(path), f"not UTF-8: {err.reason}")
            return
    yield from block.flush()


class _Block:
    """The dialogue being read: its id (if a header gave one) and turns."""

    def __init__(self, path: Path):
        self.path = path
        self.count = 0
        self.dialogue_id: str | None = None
        self.turns: list[Turn] = []
        self.bad: InputError | None = None

    def add(self, lineno: int, line: str) -> None:
        if self.bad is not None:
            return
        label = _LABEL.match(line)
        if label:
            speaker = SPEAKERS[label.group(1).lower()]
            self.turns.append(Turn(index=len(self.turns), speaker=speaker, utterance=label.group(2).strip()))  # type: ignore[arg-type]
        elif self.turns:
            last = self.turns[-1]
            last.utterance = f"{last.utterance} {line.strip()}".strip()
        else:
            self.bad = InputError(
                f"{self.path}:{lineno}", "expected a speaker label (User: / System: / Assistant: / Bot:)",
                dialogue=self.dialogue_id,
            )  # fmt: skip

    def flush(self) -> Iterator[Dialogue | InputError]:
        if self.turns or self.bad:
            self.count += 1
            if self.bad is not None:
                yield self.bad
            else:
                dialogue_id = self.dialogue_id or f"{self.path.stem}-{self.count}"
                yield Dialogue(id=dialogue_id, source=str(self.path), format=NAME, turns=self.turns)
        self.dialogue_id, self.turns, self.bad = None, [], None
