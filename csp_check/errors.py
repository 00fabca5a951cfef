"""Every exception type of csp-check, in one module.

Input errors name the file, the dialogue and the field at fault; usage errors are one line the
CLI prints before exiting 2 (docs/cli.md, exit codes). The modules that raise them re-export
their names where older code imported them from (``csp_check.solvers.SolverUnavailable``, …).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the reports the assertion helpers carry (no import at run time: no cycle)
    from csp_check.models import DialogueReport
    from csp_check.nlsi.models import CallReport


def json_error_text(msg: str) -> str:
    """``json.JSONDecodeError.msg`` as a whole sentence after the place it is given at: Python's
    messages ending in "at" (``Unterminated string starting at``, ``Invalid control character
    '\\n' at``) read cut off once the position is stated apart; they end in "here" instead
    (``invalid JSON at line 4, column 10: Unterminated string starting here``)."""
    return msg[: -len(" at")] + " here" if msg.endswith(" at") else msg


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


class NoDialogues(InputError):
    """A path that holds no dialogue: an empty file, an empty JSON list or object, a folder with
    no dialogue file. ``str(err)`` is ``no dialogues in PATH`` (then, in brackets, ``why`` when
    said), one shape for every reader and command (docs/cli.md, "Bad input")."""

    def __init__(self, file: str, why: str | None = None):
        self.why = why
        super().__init__(str(file), f"no dialogues in {file}" + (f" ({why})" if why else ""))

    def __str__(self) -> str:
        return " ".join(self.message.split())


class SkippedInput(UserWarning):
    """A file met inside a folder that holds no dialogue (empty, ``[]``, ``{}``): a warning, not an
    error; it is skipped and the rest of the folder is read (a path given by itself that holds
    none is :class:`NoDialogues`). ``str()`` is ``FILE: no dialogues (why)``; the command line
    prints it as one line, ``warning: FILE: no dialogues (the file is empty)`` (docs/cli.md, "No
    dialogues")."""

    def __init__(self, file: str, why: str):
        self.file, self.why = str(file), why
        super().__init__(f"{file}: no dialogues ({why})")


#: What every line of csp-check's own on stderr that reports bad input or a usage error starts with.
ERROR_PREFIX = "csp-check: error: "


def error_line(message: object) -> str:
    """``csp-check: error: MESSAGE`` (on one line): how every command prints an input error
    (``FILE: dialogue ID: FIELD: what is wrong``, :class:`InputError`). A message already
    starting ``csp-check:`` (an internal error, an interrupt) is left as it is."""
    text = " ".join(str(message).splitlines())
    return text if text.startswith("csp-check:") else ERROR_PREFIX + text


class UsageError(CspCheckError):
    """Bad options: an unknown format, a missing KB, an unknown constraint id."""


class SolverUnavailable(CspCheckError):
    """The requested solver is not installed; the message says how to install it (the CLI
    exits 2 with it)."""


class InvalidCSP(CspCheckError):
    """A CSP the solvers cannot encode (a constraint names an unknown variable, C6 without x0)."""


class DialogueTimeout(BaseException):
    """One dialogue's check ran past ``--dialogue-time-limit``. A ``BaseException`` so that no
    ``except Exception`` on the way (a solver library's) swallows it."""


class MalformedResponse(Exception):
    """The LLM server answered 2xx but not with a usable chat completion (:mod:`csp_check.llm.client`)."""


class CallSyntaxError(ValueError):
    """A call string that is not ``Method(name="value", ...)``; ``str()`` is one line (docs/nlsi.md)."""

    def __init__(self, call: str, position: int, what: str):
        self.call, self.position, self.what = call, position, what
        super().__init__(f"malformed call {call!r} at character {position}: {what}")


class InconsistentDialogues(AssertionError):
    """Raised by :func:`csp_check.plugin.dialogues.assert_consistent`; ``reports`` holds the failing
    dialogues' reports (docs/pytest-plugin.md)."""

    def __init__(self, message: str, reports: Sequence[DialogueReport]):
        super().__init__(message)
        self.reports = list(reports)


class InconsistentCalls(AssertionError):
    """Raised by :func:`csp_check.plugin.calls.assert_calls_consistent`; ``reports`` holds
    the failing reports (docs/nlsi.md)."""

    def __init__(self, message: str, reports: Sequence[CallReport]):
        super().__init__(message)
        self.reports = list(reports)


class MeasureError(CspCheckError):
    """A drift suite's measure that cannot be computed: an unknown kind, a missing or wrong
    parameter (``str()`` names the kind and the parameter; :mod:`csp_check.drift.measures`)."""


class ServerUnreachable(CspCheckError):
    """The OpenAI-compatible server of a drift run does not answer (``str()`` names its URL)."""
