"""What a reader is: the protocol every module of :mod:`csp_check.readers` implements.

A reader turns the files of one corpus format into :class:`~csp_check.models.Dialogue` s
(docs/input-formats.md; spec §5). It knows its format's vocabulary (act names, dialogue-id
shapes, slot spellings) and maps it onto the format-free model (:class:`~csp_check.models.ActRole`,
KB column names), so nothing past the readers depends on a format. A reader needs no KB: the
KB comes from ``--kb`` or from the corpus's own results and is used by the constraint builder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Protocol, runtime_checkable

from csp_check.errors import InputError
from csp_check.models import Dialogue


@runtime_checkable
class Reader(Protocol):
    """A reader module: ``NAME``, ``sniff`` and ``read`` (a module satisfies it structurally).

    - ``NAME``: the ``--format`` name (``sgd``, ``multiwoz``, …);
    - ``sniff(path)``: whether ``path`` (a file, or a directory the reader takes whole) is in this
      format; cheap (reads a head of the file), may raise ``OSError``;
    - ``read(path)``: the dialogues of ``path`` in order, streamed, with an
      :class:`~csp_check.errors.InputError` (naming file, dialogue and field) in place of each
      dialogue it cannot read; it goes on with the next one and never raises for bad content.
    """

    NAME: str

    def sniff(self, path: Path) -> bool: ...

    def read(self, path: Path) -> Iterator[Dialogue | InputError]: ...


@runtime_checkable
class SplitReader(Reader, Protocol):
    """A reader of releases that hold several splits (MultiWOZ): ``read(path, split=...)``
    keeps one split (``train`` / ``val`` / ``test``)."""

    def read(self, path: Path, split: str | None = None) -> Iterator[Dialogue | InputError]: ...
