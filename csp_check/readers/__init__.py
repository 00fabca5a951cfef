"""Readers: dialogue files of any supported format → :class:`~csp_check.models.Dialogue`.

Every reader is a module implementing :class:`~csp_check.readers.base.Reader`: ``NAME``,
``sniff(path) -> bool`` and ``read(path) -> Iterator[Dialogue | InputError]``; the format's
vocabulary (act names, id shapes) lives in its reader. A reader yields an
:class:`~csp_check.errors.InputError` in place of a dialogue it cannot read and goes on with
the next one, so one broken dialogue never sinks a corpus run. Readers stream: memory does
not grow with the number of files read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from csp_check.errors import InputError, UsageError
from csp_check.models import Dialogue

from . import jsonl, multiwoz, multiwoz22, sgd, text, unified
from .base import Reader, SplitReader

READERS: dict[str, Reader] = {m.NAME: m for m in (sgd, multiwoz22, unified, multiwoz, jsonl, text)}  # sniffed in this order
FORMATS = ("auto", *READERS)


def sniff_format(path: Path) -> str:
    """Name of the reader that recognises ``path``; raises :class:`InputError` if none does."""
    for name, module in READERS.items():
        try:
            if module.sniff(path):
                return name
        except OSError as err:
            raise InputError(str(path), f"cannot read: {err.strerror or err}") from err
    raise InputError(str(path), f"unknown format (not one of {', '.join(READERS)}); use --format")


def read_dialogues(
    paths: list[str | Path], fmt: str = "auto", *, split: str | None = None, has_kb: bool = False
) -> Iterator[Dialogue | InputError]:
    """Dialogues of every path in order, or an :class:`InputError` per unreadable item.

    A path is a file, a directory a reader takes whole (an SGD split), or a directory whose
    dialogue files (recursively) are read one by one.

    ``fmt`` is ``auto`` or a key of :data:`READERS`; an unknown name raises :class:`UsageError`.
    A named format that does not fit a path's content (the named reader does not recognise it,
    another one does: an SGD file with ``--format multiwoz22``) is one :class:`InputError` for
    that path, which is not read (:func:`format_mismatch`).
    ``split`` (``train`` / ``val`` / ``test``) keeps one split of a MultiWOZ release
    (:func:`csp_check.readers.multiwoz.split_filter`); other formats then give an
    :class:`InputError`.
    ``has_kb``: whether a KB will be given to the checker; a reader that needs one
    (``NEEDS_KB``: raw text) gives its one error per path without it.
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            yield InputError(str(path), "no such file or directory")
            continue
        try:
            name = sniff_format(path) if fmt == "auto" else fmt
        except InputError as err:
            sources = list(_sources(path)) if path.is_dir() else []  # a folder of dialogue files
            if not sources:
                yield err
            for source, name in sources:
                yield from _read(READERS[name], source, has_kb)
            continue
        if fmt != "auto":
            mismatch = format_mismatch(path, fmt)
            if mismatch is not None:
                yield mismatch
                continue
        if split is not None:
            if name != multiwoz.NAME:
                yield InputError(str(path), f"--split applies to MultiWOZ data.json / release folders, not {name}")
                continue
            yield from _read(multiwoz, path, has_kb, split)
            continue
        yield from _read(READERS[name], path, has_kb)


def _read(reader: Reader | SplitReader, path: Path, has_kb: bool, split: str | None = None) -> Iterator[Dialogue | InputError]:
    if getattr(reader, "NEEDS_KB", False) and not has_kb:
        yield InputError(str(path), getattr(reader, "NEEDS_KB_MESSAGE", f"{reader.NAME} needs --kb"))
        return
    if split is not None:  # a SplitReader (MultiWOZ): checked by the caller
        yield from reader.read(path, split=split)  # type: ignore[call-arg]
    else:
        yield from reader.read(path)


def format_mismatch(path: Path, fmt: str) -> InputError | None:
    """The error for ``--format fmt`` on a path whose content is another format, else ``None``.

    Only a clear case is refused: the ``fmt`` reader does not recognise ``path`` and another
    reader does. Content no reader recognises is left to the named reader (its own errors).
    """
    try:
        if READERS[fmt].sniff(path):
            return None
        other = next((name for name, module in READERS.items() if name != fmt and module.sniff(path)), None)
    except (OSError, ValueError):
        return None
    if other is None:
        return None
    return InputError(str(path), f"--format {fmt} does not fit this content, which looks like {other} "
                      f"(use --format {other} or --format auto)")  # fmt: skip


def _sources(path: Path) -> Iterator[tuple[Path, str]]:
    """(path, reader name) of everything in the directory ``path`` that a reader recognises:
    sub-directories a reader takes whole (an SGD split), else their contents, and dialogue
    files; other files (a LICENSE, a README) are skipped."""
    for entry in sorted(path.iterdir()):
        if entry.is_file() and entry.suffix not in (".json", ".jsonl", ".txt"):
            continue
        try:
            yield entry, sniff_format(entry)
        except InputError:
            if entry.is_dir():
                yield from _sources(entry)
