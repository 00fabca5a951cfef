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
  :class:`DialogueReport`; a damaged line (the last one of a killed run) is dropped. A
  ``.part`` left by a run killed with SIGKILL that holds more than the report (it starts with
  the report's lines) is taken instead (:func:`leftover_parts`). Each line names its input by
  identity (``extra["input"]``: the resolved path and a content fingerprint, :class:`InputIdentity`),
  so that a run resumed from another working directory skips the same dialogues, and a report
  of another file (another folder of the same name, a file changed since) is refused. An
  ``error`` report of a transient failure (a worker that died, an internal error:
  ``extra["error_kind"] == "internal"``) is checked again.
"""

from __future__ import annotations

import functools
import hashlib
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
    """What identifies a dialogue across runs: ``(input path, dialogue_id)``, the path resolved
    as the report line records it (``extra["input"]``), else ``source`` as the report gives it."""
    identity = report.extra.get("input")
    if isinstance(identity, dict) and isinstance(identity.get("path"), str):
        return identity["path"], report.dialogue_id
    return report.source, report.dialogue_id


@functools.lru_cache(maxsize=4096)
def canonical_source(source: str) -> str:
    """A report's ``source`` as ``--resume`` compares it: the path resolved (``""`` stays ``""``),
    so that a run from another working directory names the same file the same way."""
    if not source:
        return source
    try:
        return os.path.realpath(source)
    except (OSError, ValueError):
        return source


#: Bytes of a file's head and of its tail that its fingerprint covers (with its size).
FINGERPRINT_BYTES = 1 << 20


def fingerprint(path: Path) -> str | None:
    """A content fingerprint of a file: SHA-256 of its size, its first and its last
    :data:`FINGERPRINT_BYTES` bytes (16 hex digits; a few ms on any size). ``None`` if unreadable."""
    try:
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            digest.update(str(size).encode())
            digest.update(f.read(FINGERPRINT_BYTES))
            if size > 2 * FINGERPRINT_BYTES:
                f.seek(size - FINGERPRINT_BYTES)
                digest.update(f.read(FINGERPRINT_BYTES))
            else:
                digest.update(f.read())
    except OSError:
        return None
    return digest.hexdigest()[:16]


class InputIdentity:
    """``source`` → ``{"path": resolved path, "sha256": fingerprint}`` (each file hashed once)."""

    def __init__(self) -> None:
        self._known: dict[str, dict[str, str | None]] = {}

    def __call__(self, source: str) -> dict[str, str | None]:
        if source not in self._known:
            path = _resolved(Path(source))
            self._known[source] = {"path": str(path), "sha256": fingerprint(path)}
        return self._known[source]


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


def check_text_output(path: Path, inputs: Iterable[str | Path], option: str, header: str) -> None:
    """Raise :class:`UsageError` (one line) when writing the text file ``path`` (a Markdown
    sample for reading) could destroy data: as :func:`check_output_path`, but an existing file
    is overwritten only when its first line is ``header`` (an earlier output of the command)."""
    refuse_inputs(path, inputs, option)
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory")
    if path.is_file():
        try:
            with path.open(encoding="utf-8", errors="replace") as f:
                first = f.readline(4096).rstrip("\n")
        except OSError as err:
            raise UsageError(f"{option} {path}: cannot read: {err.strerror or err}") from None
        if first != header:
            raise UsageError(f"{option} {path}: exists and is not an earlier output of this command; refusing to overwrite it")
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
    so its dialogue is checked again; so is an ``error`` report of a transient failure
    (``extra["error_kind"] == "internal"``: a worker that died, an internal error). When a
    ``.part`` of this report left by a killed run holds more lines (:func:`leftover_parts`),
    its lines are taken instead.
    """
    lines = _report_lines(path) if path.is_file() else []
    for part in leftover_parts(path):
        more = _report_lines(part)
        if len(more) > len(lines):
            lines = more
    return [r for r in lines if r.extra.get("error_kind") != "internal"]


def _report_lines(path: Path) -> list[DialogueReport]:
    out = []
    try:
        with open(path, "rb") as f:
            for line in f:
                try:
                    out.append(DialogueReport.model_validate_json(line))
                except ValueError:
                    continue
    except OSError:
        return out
    return out


def leftover_parts(path: Path) -> list[Path]:
    """The temporary files (``.NAME.XXXX.part``) a run writing ``path`` left behind when killed
    with SIGKILL, newest first."""
    try:
        parts = [p for p in path.parent.glob(f".{path.name}.*.part") if p.is_file()]
        return sorted(parts, key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []


def remove_leftover_parts(path: Path) -> None:
    """Remove the ``.part`` files of ``path`` left by killed runs (once a resumed run is done)."""
    for part in leftover_parts(path):
        part.unlink(missing_ok=True)


def report_belongs(report: DialogueReport | str, inputs: Iterable[str | Path]) -> bool:
    """Whether a report line's input (the file its dialogue was read from) is one of the
    ``inputs`` or lies under one (a directory input), compared resolved: by the resolved path
    the line records (``extra["input"]``), else by ``source`` resolved from here."""
    source = report if isinstance(report, str) else report_key(report)[0]
    if not source:
        return True
    resolved = _resolved(Path(source))
    for given in inputs:
        root = _resolved(Path(given))
        if resolved == root or root in resolved.parents:
            return True
    return False


def check_resumed_inputs(path: Path, reports: Sequence[DialogueReport], inputs: Iterable[str | Path]) -> None:
    """Raise :class:`UsageError` when ``--resume`` would continue a report of other input: a
    line whose input is none of ``inputs`` nor under one (:func:`report_belongs`: another
    folder of the same name), or whose input file changed since (its content fingerprint
    differs from the one the line records)."""
    inputs = list(inputs)
    foreign = sorted({report_key(r)[0] for r in reports if not report_belongs(r, inputs)})
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise UsageError(f"--resume --report {path}: it holds dialogues of {shown}, none of the given inputs "
                         f"({', '.join(map(str, inputs))}); resume with the same inputs, or give a new --report file")
    now: dict[str, str | None] = {}  # each file hashed once
    for report in reports:
        identity = report.extra.get("input")
        if isinstance(identity, dict) and identity.get("sha256"):
            where = str(identity.get("path"))
            if where not in now:
                now[where] = fingerprint(Path(where))
            if now[where] != identity["sha256"]:
                raise UsageError(f"--resume --report {path}: {identity.get('path')} changed since the report was "
                                 "written (its content fingerprint differs); give a new --report file")


def done_counts(reports: Iterable[DialogueReport]) -> Counter[tuple[str, str]]:
    """How many reports each ``(input path, dialogue_id)`` has (:func:`report_key`): the
    dialogues ``--resume`` skips."""
    return Counter(report_key(r) for r in reports)


class ReportWriter:
    """Writes report lines to ``path`` as described in the module docstring.

    ``keep``: reports to write first (the previous report's lines, on ``--resume``). Each line
    written gets ``extra["input"]``, its input's identity (:class:`InputIdentity`). Raises
    :class:`UsageError` if the file cannot be opened; :meth:`write` raises ``OSError`` (the
    caller turns it into one line, exit 2).
    """

    def __init__(self, path: Path, keep: Iterable[DialogueReport] = ()) -> None:
        self.path = path
        self.identity = InputIdentity()
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
        if report.source and "input" not in report.extra:
            report = report.model_copy(update={"extra": {**report.extra, "input": self.identity(report.source)}})
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
