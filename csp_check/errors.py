"""Error types. Every input error names the file, the dialogue and the field at fault."""

from __future__ import annotations


class CspCheckError(Exception):
    """Base class of csp-check's own errors."""


class InputError(CspCheckError):
    """Input that cannot be read: truncated JSON, wrong types, a span outside its utterance, …

    ``str(err)`` is one line: ``FILE: dialogue ID: FIELD: what is wrong``. A reader yields it in
    place of the broken dialogue so that the rest of the corpus is still checked.
    """

    def __init__(self, file: str, message: str, dialogue: str | None = None, field: str | None = None):
        self.file = str(file)
        self.dialogue = dialogue
        self.field = field
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.file]
        if self.dialogue is not None:
            parts.append(f"dialogue {self.dialogue}")
        if self.field:
            parts.append(self.field)
        parts.append(" ".join(self.message.split()))
        return ": ".join(parts)


class UsageError(CspCheckError):
    """Bad options: an unknown format, a missing KB, an unknown constraint id."""
