"""Input paths of the commands: a path that does not exist is one line on stderr and exit 2.

A mistyped path must not cost a whole empty summary, nor click's four-line usage block:
``csp-check: error: PATH: no such file or directory``, once per missing path, then exit 2 before
any work (no KB loaded, no report opened).

- :func:`existing_paths` is a click callback for arguments and options whose every path must
  exist (``experiment``, ``nlsi build``, ``nlsi experiment``, ``calls``, ``--kb``, ``--schema``);
- :func:`fail_if_none_exist` is for ``validate`` and ``delexicalize``, where a missing path among
  readable ones stays one error line in a run that checks the rest (docs/cli.md, "Bad input");
- :func:`refuse_if_no_dialogues` is for ``validate``, ``delexicalize`` and ``export-mzn``: when
  every path is clearly no dialogue file (an NLSI release file, a KB, a schema) each is one line
  naming the command that reads it, and exit 2 (no empty summary); among dialogue files such a
  path is the reader's one error line (:func:`csp_check.readers.sniff_format`);
- :func:`of_kind` is for the commands that read one kind of file (``benchmark citod``: CI-ToD,
  ``calls``: NLSI examples): a file clearly of another kind is one line, not one error per item;
- :func:`skipped_input_lines` (entered by the ``csp-check`` group for every command) prints each
  :class:`~csp_check.errors.SkippedInput` (a file with no dialogue inside a folder) as one line,
  ``warning: FILE: no dialogues (the file is empty)``, with ``--quiet`` too (as the error lines);
  :func:`unwarned` silences them for a second look at inputs already read (a hint's scan).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from csp_check.errors import SkippedInput
from csp_check.readers.kinds import wrong_kind

EXIT_ERROR = 2


def _say_missing(missing: Iterable[Path]) -> None:
    for path in missing:
        click.echo(f"csp-check: error: {path}: no such file or directory", err=True)
    sys.exit(EXIT_ERROR)


def fail_if_none_exist(paths: Iterable[Path]) -> None:
    """Exit 2 with one line per path when none of ``paths`` exists; return otherwise.

    Raises ``SystemExit(2)``.
    """
    paths = list(paths)
    if paths and not any(Path(p).exists() for p in paths):
        _say_missing(paths)


def existing_paths(ctx: click.Context, param: click.Parameter, value: object) -> object:
    """Click callback: ``value`` (a path, a tuple of paths or ``None``) unchanged when every path
    exists; else one line per missing path on stderr and exit 2 (``SystemExit(2)``)."""
    if value is None or ctx.resilient_parsing:
        return value
    paths = list(value) if isinstance(value, (tuple, list)) else [value]
    missing = [Path(p) for p in paths if not Path(p).exists()]  # type: ignore[arg-type]
    if missing:
        _say_missing(missing)
    return value


def refuse_if_no_dialogues(paths: Iterable[Path]) -> None:
    """Exit 2 with one line per path when every one of ``paths`` is clearly of a kind that is not
    dialogues (:func:`csp_check.readers.kinds.wrong_kind`), e.g. ``csp-check: error: FILE: this is
    an NLSI release file (…), not dialogues; use `csp-check calls FILE --schema DIR```; return
    otherwise. Raises ``SystemExit(2)``."""
    messages = [wrong_kind(Path(path), "dialogues") for path in paths]
    if messages and all(messages):
        for message in messages:
            click.echo(f"csp-check: error: {message}", err=True)
        sys.exit(EXIT_ERROR)


def of_kind(paths: Iterable[Path], expected: str) -> tuple[list[Path], bool]:
    """The paths that may be of kind ``expected`` (:data:`csp_check.readers.kinds.KIND_NAMES`)
    and whether any was left out: each path clearly of another kind is one line on stderr,
    ``csp-check: error: FILE: this is not a CI-ToD file (it looks like SGD)``, and is not read.
    When no path is left, exit 2 at once."""
    given = list(paths)
    kept: list[Path] = []
    for path in given:
        message = wrong_kind(Path(path), expected)
        if message is None:
            kept.append(path)
        else:
            click.echo(f"csp-check: error: {message}", err=True)
    if not kept:
        sys.exit(EXIT_ERROR)
    return kept, len(kept) < len(given)


@contextmanager
def skipped_input_lines() -> Iterator[None]:
    """While entered, every :class:`~csp_check.errors.SkippedInput` warning is one line on stderr,
    ``warning: FILE: no dialogues (why)``, each time it is issued; other warnings are shown as
    Python shows them."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", SkippedInput)
        shown = warnings.showwarning

        def show(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
            if issubclass(category, SkippedInput):
                click.echo(f"warning: {message}", err=True)
            else:
                shown(message, category, *args, **kwargs)

        warnings.showwarning = show
        yield


@contextmanager
def unwarned() -> Iterator[None]:
    """No :class:`~csp_check.errors.SkippedInput` warning while entered: a second scan of inputs
    whose skipped files were said once already."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkippedInput)
        yield
