"""The ``--report FILE.jsonl`` of a run: never destroys the user's data, survives interrupts, resumes.

Contract (docs/cli.md "Report file" and "Resuming a run"):

- **Refused** (one line, exit 2, nothing written): a path that is one of the inputs or lies
  inside an input directory (it would be read as input), a directory, or an existing regular
  file that is not a previous csp-check report (its first non-blank line is not a
  ``DialogueReport`` object with ``dialogue_id`` and ``status``). An empty or blank file counts
  as a previous report.
- **Written safely**: a regular file is written to a temporary file in the same folder
  (``.NAME.XXXX.part``), one line per dialogue flushed as it finishes, and renamed onto the
  path when the run ends — normally, on Ctrl-C or after an internal error — so the path holds
  either the old report or a complete, valid JSONL file, never a truncated one. A run killed
  with SIGKILL leaves the ``.part`` file (a valid prefix) and the old report untouched.
  A non-regular path (``/dev/stdout``, a FIFO, ``/dev/full``) is written directly.
- **Resume** (:func:`previous_reports`): the lines of an existing report, each a
  :class:`DialogueReport`; a damaged line (the last one of a killed run) is dropped.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from csp_check.errors import UsageError
from csp_check.models import DialogueReport


def report_key(report: DialogueReport) -> tuple[str, str]:
    """What identifies a dialogue across runs: ``(source, dialogue_id)`` as the report gives them."""
    return report.source, report.dialogue_id


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _is_previous_report(path: Path, keys: tuple[str, ...] = ("dialogue_id", "status")) -> bool:
    """An empty (or blank) file, or one whose first non-blank line is a JSON object with
    ``keys`` (a validate report: ``dialogue_id`` and ``status``)."""
    try:
        with open(path, "rb") as f:
            first = b""
            while not first.strip():
                first = f.readline(1 << 22)
                if not first:
                    return True  # nothing but blank lines
    except OSError:
        return False
    try:
        data = json.loads(first.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and all(k in data for k in keys)


def refuse_inputs(path: Path, inputs: Iterable[str | Path], option: str = "--report") -> None:
    """Raise :class:`UsageError` (one line) when the output ``path`` is one of ``inputs`` or lies
    inside an input directory."""
    target = _resolved(path)
    for raw in inputs:
        source = _resolved(Path(raw))
        if target == source or _same_file(path, Path(raw)):  # also a hard link to an input
            raise UsageError(f"{option} {path}: is an input file; refusing to overwrite it")
        if source.is_dir() and source in target.parents:
            raise UsageError(f"{option} {path}: is inside the input directory {raw} (it would be read as input)")


def check_output_path(
    path: Path, inputs: Iterable[str | Path], option: str, keys: tuple[str, ...],
    kind: str = "an earlier output of this command",
) -> None:
    """Raise :class:`UsageError` (one line) when writing ``path`` (the output of ``option``) could
    destroy data: it is an input or inside an input directory, a directory, a missing folder, or
    an existing file whose first line is not a JSON object with ``keys`` (``kind``: an earlier
    output of the same command). Used by ``validate --report``, ``calls --report`` and ``nlsi
    build --out``."""
    refuse_inputs(path, inputs, option)
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory")
    if path.is_file() and not _is_previous_report(path, keys):
        raise UsageError(f"{option} {path}: exists and is not {kind}; refusing to overwrite it")
    if not path.exists() and not path.parent.is_dir():
        raise UsageError(f"{option} {path}: cannot write: no such directory {path.parent}")


def check_writable_dir(path: Path, option: str = "--out") -> None:
    """Raise :class:`UsageError` (one line) unless files can be written into the directory
    ``path`` (made if missing): checked before a command's work starts, so that a read-only
    or full target fails at once and not after all the work. A probe file is made and removed."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".csp-check-probe.", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise UsageError(f"{option} {path}: cannot write: {err.strerror or err}") from None


def check_report_path(path: Path, inputs: Iterable[str | Path], resume: bool = False) -> None:
    """Raise :class:`UsageError` (one line) when writing ``path`` could destroy data (module docstring)."""
    check_output_path(path, inputs, "--report", ("dialogue_id", "status"), kind="a csp-check report")
    if resume and path.exists() and not path.is_file():
        raise UsageError(f"--report {path}: --resume needs a regular report file")


def previous_reports(path: Path) -> list[DialogueReport]:
    """The reports already in ``path`` (for ``--resume``); ``[]`` when it does not exist.

    A line that is not a valid :class:`DialogueReport` (a line cut by a killed run) is dropped,
    so its dialogue is checked again.
    """
    if not path.is_file():
        return []
    out = []
    with open(path, "rb") as f:
        for line in f:
            try:
                out.append(DialogueReport.model_validate_json(line))
            except ValueError:
                continue
    return out


def report_belongs(source: str, inputs: Iterable[str | Path]) -> bool:
    """Whether a report line's ``source`` (the file its dialogue was read from) is one of the
    ``inputs`` or lies under one (a directory input). Compared resolved, and also by the
    input's name among the source's path parts (a run started from another directory)."""
    if not source:
        return True
    where = Path(source)
    try:
        resolved = where.resolve()
    except OSError:
        resolved = where
    for given in inputs:
        path = Path(given)
        try:
            root = path.resolve()
        except OSError:
            root = path
        if resolved == root or root in resolved.parents or str(source).startswith(str(given)):
            return True
        if path.name and path.name in where.parts:
            return True
    return False


def check_resumed_inputs(path: Path, reports: Sequence[DialogueReport], inputs: Iterable[str | Path]) -> None:
    """Raise :class:`UsageError` when ``--resume`` would continue a report of another input:
    ``reports`` (the lines already in ``path``) name sources, none of which is one of
    ``inputs`` or under one (:func:`report_belongs`)."""
    inputs = list(inputs)
    sources = sorted({r.source for r in reports if r.source})
    if sources and not any(report_belongs(source, inputs) for source in sources):
        shown = ", ".join(sources[:3]) + (f" and {len(sources) - 3} more" if len(sources) > 3 else "")
        raise UsageError(f"--resume --report {path}: its dialogues come from {shown}, none of the given inputs "
                         f"({', '.join(map(str, inputs))}); resume with the same inputs, or give a new --report file")


def done_counts(reports: Iterable[DialogueReport]) -> Counter[tuple[str, str]]:
    """How many reports each ``(source, dialogue_id)`` has: the dialogues ``--resume`` skips."""
    return Counter(report_key(r) for r in reports)


class ReportWriter:
    """Writes report lines to ``path`` as described in the module docstring.

    ``keep``: reports to write first (the previous report's lines, on ``--resume``). Raises
    :class:`UsageError` if the file cannot be opened; :meth:`write` raises ``OSError`` (the
    caller turns it into one line, exit 2).
    """

    def __init__(self, path: Path, keep: Iterable[DialogueReport] = ()) -> None:
        self.path = path
        self.temp: Path | None = None
        try:
            if path.exists() and not path.is_file():  # a device or a FIFO: write as is
                self.file: IO[bytes] = open(path, "wb")
            else:
                fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent or ".")
                self.temp = Path(name)
                self.file = os.fdopen(fd, "wb")
        except OSError as err:
            raise UsageError(f"--report {path}: cannot write: {err.strerror or err}") from None
        for report in keep:
            self.file.write(_line(report))
        self.file.flush()

    def write(self, report: DialogueReport) -> None:
        """Append one report line and flush it (to the temporary file while the run goes on)."""
        self.file.write(_line(report))
        self.file.flush()

    def close(self) -> None:
        """Close and move the temporary file onto ``path``; raises ``OSError`` if that fails
        (the temporary file is then removed and ``path`` left as it was)."""
        try:
            self.file.close()
            if self.temp is not None:
                if self.path.is_file():  # keep the permissions of the report replaced
                    os.chmod(self.temp, self.path.stat().st_mode & 0o777)
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    os.chmod(self.temp, 0o666 & ~umask)
                os.replace(self.temp, self.path)
                self.temp = None
        finally:
            if self.temp is not None:
                self.temp.unlink(missing_ok=True)


def _line(report: DialogueReport) -> bytes:
    """One JSON line, UTF-8; a lone surrogate in a string is written as its ``\\udcXX`` escape."""
    try:
        text = report.model_dump_json()
    except ValueError:  # pydantic cannot encode a lone surrogate: json escapes it
        text = json.dumps(report.model_dump(mode="json"), ensure_ascii=True)
    for char, escape in _LINE_BREAKS:  # valid in JSON strings, but str.splitlines() splits there
        if char in text:
            text = text.replace(char, escape)
    return (text + "\n").encode("utf-8")


_LINE_BREAKS = (("\x85", "\\u0085"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))
