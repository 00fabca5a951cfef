"""Readers: dialogue files of any supported format → :class:`~csp_check.models.Dialogue`.

Every reader is a module implementing :class:`~csp_check.readers.base.Reader`: ``NAME``,
``sniff(path) -> bool`` and ``read(path) -> Iterator[Dialogue | InputError]``; the format's
vocabulary (act names, id shapes) lives in its reader. A reader yields an
:class:`~csp_check.errors.InputError` in place of a dialogue it cannot read and goes on with
the next one, so one broken dialogue never sinks a corpus run. Readers stream: memory does
not grow with the number of files read.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

from csp_check.errors import InputError, NoDialogues, SkippedInput, UsageError
from csp_check.models import Dialogue
from csp_check.readers.empty import nothing_in
from csp_check.readers.foreign import foreign_kind, not_dialogues
from csp_check.readers.json_stream import json_value
from csp_check.readers.kb import load_kb

from . import citod, jsonl, multiwoz, multiwoz22, sgd, text, unified
from .base import Reader, SplitReader

READERS: dict[str, Reader] = {m.NAME: m for m in (sgd, multiwoz22, unified, multiwoz, citod, jsonl, text)}  # sniffed in this order
FORMATS = ("auto", *READERS)


def sniff_format(path: Path) -> str:
    """Name of the reader that recognises ``path``; raises :class:`InputError` if none does, or
    when ``path`` holds NLSI examples or a service schema (one line naming the command that
    reads it: :mod:`csp_check.readers.foreign`)."""
    foreign = foreign_kind(path)
    if foreign is not None:
        raise InputError(str(path), not_dialogues(path, foreign))
    for name, module in READERS.items():
        try:
            if module.sniff(path):
                return name
        except OSError as err:
            raise InputError(str(path), f"cannot read: {err.strerror or err}") from err
    empty = nothing_in(path)
    if empty is not None:
        raise NoDialogues(str(path), empty)
    scalar = _json_scalar(path)
    if scalar is not None:
        raise InputError(str(path), f"expected a list or an object of dialogues, found {scalar}")
    if looks_like_kb(path):
        raise InputError(str(path), "this looks like a KB, not dialogues: give it with --kb")
    raise InputError(str(path), f"unknown format (not one of {', '.join(READERS)}); use --format")


def _json_scalar(path: Path) -> str | None:
    """What a small ``.json`` file holds when it is one JSON value that is no list or object
    (``"a number"``, ``"a string"``, …), else ``None``."""
    try:
        if path.suffix != ".json" or not path.is_file() or path.stat().st_size > 1 << 16:
            return None
        value = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if isinstance(value, (list, dict)):
        return None
    return json_value(value) if value is None or isinstance(value, bool) else f"{_KIND[type(value)]} ({json_value(value)})"


_KIND = {str: "a string", int: "a number", float: "a number"}


def looks_like_kb(path: Path, max_bytes: int = 64 << 20) -> bool:
    """Whether ``path`` is a JSON file :func:`csp_check.readers.kb.load_kb` reads as a KB: an object of
    tables (``{"tables": …}`` or ``{domain: [entity, …]}``), or a ``*_db.json`` list of
    entities."""
    try:
        if path.suffix != ".json" or not path.is_file() or path.stat().st_size > max_bytes:
            return False

        kb = load_kb(path)
    except Exception:
        return False
    return bool(kb.tables) and (path.name.endswith("_db.json") or path.read_bytes().lstrip()[:1] == b"{")


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
        if path.is_dir() and not _takes_whole(path, fmt):  # a folder of dialogue files
            if split is not None:
                yield InputError(str(path), "--split applies to MultiWOZ data.json / release folders; "
                                 "this folder is neither")  # fmt: skip
                continue
            yield from _read_folder(path, fmt, has_kb)
            continue
        try:
            name = sniff_format(path) if fmt == "auto" else fmt
        except InputError as err:
            yield err
            continue
        if fmt != "auto":
            empty = nothing_in(path)
            if empty is not None:  # one message whichever reader is named (each would say it its own way)
                yield NoDialogues(str(path), empty)
                continue
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
    """The items of one path read by ``reader``; a path that gives none (no dialogue, no error:
    a JSONL file of blank lines, a JSON list of nothing) is one :class:`NoDialogues`."""
    given = False
    for item in _read_all(reader, path, has_kb, split):
        given = True
        yield item
    if not given:
        yield NoDialogues(str(path), nothing_in(path) or (f"with --split {split}" if split is not None else None))


def _read_all(reader: Reader | SplitReader, path: Path, has_kb: bool, split: str | None = None) -> Iterator[Dialogue | InputError]:
    if getattr(reader, "NEEDS_KB", False) and not has_kb:
        yield InputError(str(path), getattr(reader, "NEEDS_KB_MESSAGE", f"{reader.NAME} needs --kb"))
        return
    try:
        if split is not None:  # a SplitReader (MultiWOZ): checked by the caller
            yield from reader.read(path, split=split)  # type: ignore[call-arg]
        else:
            yield from reader.read(path)
    except Exception as err:  # a failure no reader foresaw costs this file only, never the run
        yield InputError(str(path), f"cannot read: {type(err).__name__}: {err}")


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


def input_files(paths: list[str | Path], fmt: str = "auto") -> list[Path]:
    """The dialogue files :func:`read_dialogues` will read from ``paths``, in order, found the
    same way (a cheap walk: only heads of files are sniffed); for a progress bar's total.
    Missing paths and unreadable folders give no file; never raises."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        try:
            if not path.is_dir():
                files += [path] if path.exists() else []
            elif _takes_whole(path, fmt):
                files += _whole_files(path, fmt)
            else:
                for source, name in _sources(path):
                    if name != EMPTY and fmt in ("auto", name):
                        files += _whole_files(source, name) if source.is_dir() else [source]
        except (OSError, ValueError):
            continue
    return files


def jsonl_total(files: list[Path]) -> int | None:
    """The number of dialogues in ``files`` when every one is JSONL (one per non-blank line),
    else ``None`` (counting dialogues of a JSON file would mean parsing it)."""
    if not files or any(f.suffix != ".jsonl" for f in files):
        return None
    return count_lines(files)


def count_lines(files: list[Path]) -> int | None:
    """The number of non-blank lines of ``files`` (``None`` if one cannot be read)."""
    total = 0
    try:
        for file in files:
            with open(file, "rb") as f:
                total += sum(1 for line in f if line.strip())
    except OSError:
        return None
    return total


def _whole_files(folder: Path, fmt: str) -> list[Path]:
    """The files of a folder a reader takes whole: an SGD / MultiWOZ 2.2 split's
    ``dialogues_*.json``, a MultiWOZ release folder's ``data.json``."""
    if (folder / "data.json").is_file() and fmt in ("auto", multiwoz.NAME) and multiwoz.sniff(folder):
        return [folder / "data.json"]
    return sgd.dialogue_files(folder)


def _takes_whole(path: Path, fmt: str) -> bool:
    """Whether a reader reads the directory ``path`` as one unit (an SGD split, a MultiWOZ
    release folder): the named one, or with ``auto`` any one."""
    names = READERS if fmt == "auto" else [fmt]
    try:
        return any(READERS[name].sniff(path) for name in names)
    except (OSError, ValueError):
        return False


def _read_folder(path: Path, fmt: str, has_kb: bool) -> Iterator[Dialogue | InputError]:
    """The dialogues of the files of a folder (recursively), found as with ``auto``; a named
    format reads the files its reader recognises and skips the others. A folder holding no
    such file (empty, only a LICENSE or a KB, only files of another format) is one
    :class:`NoDialogues` (``no dialogues in DIR (why)``), naming the formats it does hold. A file
    in it with no dialogue (empty, ``[]``, ``{}``: :func:`nothing_in`) is skipped with a
    :class:`SkippedInput` warning (``FILE: no dialogues (the file is empty)``), the rest read; a
    folder whose every dialogue file is such is :class:`NoDialogues` naming them."""
    found = False
    others: dict[str, int] = {}
    empties: list[Path] = []  # said once a dialogue file is found; else the folder's NoDialogues names them
    try:
        for source, name in _sources(path):
            if name == EMPTY:
                empties.append(source)
            elif fmt != "auto" and name != fmt:
                others[name] = others.get(name, 0) + 1
                continue
            else:
                found = True
            if found:
                for empty in empties:
                    warnings.warn(SkippedInput(str(empty), nothing_in(empty) or "the file is empty"), stacklevel=2)
                empties.clear()
            if name != EMPTY:
                yield from _read(READERS[name], source, has_kb)
    except OSError as err:
        yield InputError(str(path), f"cannot read: {err.strerror or err}")
        return
    if not found:
        if empties and not others:
            named = ", ".join(e.name for e in empties[:3]) + (f" and {len(empties) - 3} more" if len(empties) > 3 else "")
            yield NoDialogues(str(path), f"every dialogue file in it is empty: {named}")
            return
        if others:
            held = ", ".join(f"{n} {name}" for name, n in others.items())
            yield NoDialogues(str(path), f"no {fmt} dialogue file; it holds files of another format ({held}): use --format auto")
            return
        named = f"{fmt} " if fmt != "auto" else ""
        why = "an empty folder" if next(path.iterdir(), None) is None else (
            f"no {named}dialogue file: looked for {', '.join(_SUFFIXES)} files a reader recognises, in every sub-folder")
        if any(path.glob("*_db.json")):
            why += "; this is a MultiWOZ DB: give it with --kb"
        foreign = next(((f, kind) for f in sorted(path.glob("*.json*")) if (kind := foreign_kind(f))), None)
        if foreign is not None and foreign[1] != "schema":  # NLSI examples: name the command
            why += f"; {foreign[0]}: {not_dialogues(*foreign)}"
        yield NoDialogues(str(path), why)


#: The reader name :func:`_sources` gives a file that holds no dialogue (:func:`nothing_in`).
EMPTY = ""

#: Suffixes of the files a folder walk offers to the readers.
_SUFFIXES = (".json", ".jsonl", ".txt", ".zip")


def _sources(path: Path, seen: set[tuple[int, int]] | None = None, root: Path | None = None) -> Iterator[tuple[Path, str]]:
    """(path, reader name) of everything in the directory ``path`` that a reader recognises:
    sub-directories a reader takes whole (an SGD split), else their contents, and dialogue
    files (:data:`EMPTY` for one that holds no dialogue: empty, ``[]``, ``{}``); other files (a
    LICENSE, a README, a KB) are skipped. Symbolic links are followed,
    but a directory is walked once (``seen``: its device and inode) and a link to the folder
    walked or one of its parents (a cycle: ``link -> ..``) is not followed."""
    if seen is None:
        seen, root = set(), _real(path)
    try:
        info = path.stat()
    except OSError:
        return
    if (info.st_dev, info.st_ino) in seen:
        return
    seen.add((info.st_dev, info.st_ino))
    for entry in sorted(path.iterdir()):
        if entry.is_file() and entry.suffix not in _SUFFIXES:
            continue
        if entry.is_symlink() and entry.is_dir() and root is not None:
            target = _real(entry)
            if target == root or target in root.parents:
                continue  # a link back up: walking it would never end
        if entry.is_file() and nothing_in(entry) is not None:
            yield entry, EMPTY
            continue
        try:
            yield entry, sniff_format(entry)
        except InputError:
            if entry.is_dir():
                yield from _sources(entry, seen, root)


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of links
        return path.absolute()
