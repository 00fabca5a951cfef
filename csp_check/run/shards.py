"""Shards: a corpus cut into pieces that a worker reads and parses by itself.

:func:`plan` yields, in input order, :class:`Shard` s: one per ``dialogues_*.json`` file of an
SGD split, one per byte window of whole dialogues of a large SGD-style JSON file, and one per
input path of any other format (read whole, as :func:`csp_check.readers.read_dialogues` reads
it). :func:`read_shard` reads one. Reading the shards of the plan one after another gives
exactly the items of ``read_dialogues`` (tests/test_scale.py), so parallel and distributed runs
(:mod:`csp_check.run.runner`) give the reports of a serial run, in the same order.

A shard is small and picklable (a reader name, a path, a byte window): the parent process never
reads dialogues, so its memory and time do not grow with the corpus beyond a streaming scan
of a large file's item boundaries (:func:`csp_check.readers.json_stream.json_windows`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csp_check.errors import InputError
from csp_check.models import Dialogue, DialogueReport, KnowledgeBase
from csp_check.readers import READERS, read_dialogues, sgd
from csp_check.readers.json_stream import Window, iter_windows


@dataclass(frozen=True)
class Shard:
    """What one worker reads. ``reader`` ``sgd``: the file ``path`` (``window``: only those
    whole dialogues of it; ``first``: the first shard of its input path, which says once that
    the split's ``schema.json`` is unreadable). Any other ``reader`` (``*``): the input path
    ``path`` read whole as :func:`~csp_check.readers.read_dialogues` reads it with ``fmt`` and
    ``split``."""

    reader: str
    path: str
    window: Window | None = None
    first: bool = True
    fmt: str = "auto"
    split: str | None = None

    @property
    def label(self) -> str:
        """The shard in words, for messages: ``FILE`` or ``FILE bytes A-B``."""
        w = self.window
        return self.path if w is None else f"{self.path} bytes {w.start}-{'' if w.end is None else w.end}"


#: The input bytes a shard of an SGD file aims at (~25 dialogues): small enough to keep every
#: worker busy to the end of a run and to get the first reports soon, large enough that a
#: shard's overhead (a task, a pickle) stays small.
SHARD_BYTES = 512 << 10
#: A split with at least this many ``dialogues_*.json`` files per worker has its files of at
#: most :data:`WHOLE_FILE_BYTES` sent whole (SGD's own: ~128 dialogues, 1.8-3.1 MB each): the
#: files keep the workers busy to the end, and the parent does not scan them for windows (a
#: scan decodes every item: on the 2 cores of SGD train, a tenth of the run's CPU beside the
#: workers).
WHOLE_FILES_PER_JOB = 4
WHOLE_FILE_BYTES = 4 << 20


def plan(
    paths: Iterable[str | Path], fmt: str = "auto", split: str | None = None, window_bytes: int = SHARD_BYTES,
    max_items: int | None = 32, jobs: int | None = None,
) -> Iterator[Shard]:
    """The shards of ``paths``, in input order (see the module docstring).

    An SGD split folder or file (``--format auto`` or ``sgd``, no ``split``) becomes one shard
    per window of about ``window_bytes`` and at most ``max_items`` whole dialogues of each
    ``dialogues_*.json`` file (found by a streaming scan,
    :func:`~csp_check.readers.json_stream.json_windows`); with ``jobs`` workers, a split of at
    least :data:`WHOLE_FILES_PER_JOB` files per worker sends each file of at most
    :data:`WHOLE_FILE_BYTES` whole instead. Every other path is one shard read whole
    (its errors, a missing path or an unknown format, come from reading it).
    """
    for raw in paths:
        path = Path(raw)
        if split is None and fmt in ("auto", "sgd") and _is_sgd(path):
            yield from _sgd_shards(path, window_bytes, max_items, jobs)
        else:
            yield Shard("*", str(path), fmt=fmt, split=split)


def _is_sgd(path: Path) -> bool:

    try:
        if not path.exists() or not sgd.sniff(path):
            return False
        return next(iter(READERS)) == sgd.NAME  # sniffed first: auto would pick it
    except (OSError, ValueError):
        return False


def _sgd_shards(path: Path, window_bytes: int, max_items: int | None, jobs: int | None) -> Iterator[Shard]:

    first = True
    files, empty = sgd.split_files(path)
    sgd.warn_empty(empty)  # said once, here, where the run is planned
    whole = jobs is not None and len(files) >= WHOLE_FILES_PER_JOB * jobs
    for file in files:
        windows: Iterable[Window | None] = [None] if whole and _size(file) <= WHOLE_FILE_BYTES else _lazy_windows(file, window_bytes, max_items)
        for window in windows:
            yield Shard(sgd.NAME, str(file), window, first)
            first = False


def _size(file: Path) -> float:
    try:
        return file.stat().st_size
    except OSError:  # reading it says why
        return float("inf")


def _lazy_windows(file: Path, window_bytes: int, max_items: int | None) -> Iterator[Window | None]:
    """The windows of ``file`` as the scan finds them; ``None`` alone (read it whole) when it is
    no JSON array or cannot be read (reading it says why). A scan failing midway ends the
    windows with one running to the end of the file."""
    last: Window | None = None
    try:
        for window in iter_windows(file, window_bytes, max_items):
            if last is not None:
                yield last
            last = window
    except OSError:
        if last is None:
            yield None
        else:
            yield Window(last.start, None, last.index, last.line, last.column)
        return
    yield last


def read_shard(shard: Shard, kb: KnowledgeBase | None = None) -> Iterator[Dialogue | InputError]:
    """The dialogues (or an :class:`InputError` per unreadable item) of one shard, in order;
    ``kb``: the checker's KB, if any (raw text cannot be read without one)."""

    if shard.reader == sgd.NAME:
        return sgd.read(Path(shard.path), window=shard.window, schema_errors=shard.first)
    return read_dialogues([shard.path], shard.fmt, split=shard.split, has_kb=kb is not None)


class ShardBackend:
    """Where shards are checked (worker processes, Ray tasks): ``submit`` a unit (a
    :class:`Shard`, or a chunk of items read already), ``collect`` its reports in order.
    :func:`csp_check.run.runner.validate` drives it; ``settings`` are the runner's."""

    in_flight: int = 2
    settings: Any

    def submit(self, unit: Any) -> object:
        raise NotImplementedError

    def collect(self, ticket: object) -> Iterator[DialogueReport]:
        raise NotImplementedError

    def close(self, finished: bool) -> None:
        """Release the workers; ``finished`` is false when the run was interrupted."""
