"""A click group whose subcommands are imported when they are run (click's "lazily loading
subcommands" pattern): ``csp-check validate`` never imports the API-call half or the experiment,
whose modules (and spaCy, which the NLSI instruction parser loads) cost memory and start-up time.

The same pattern serves what a command needs only for some output (:func:`load`): ``validate``
loads :mod:`csp_check.output.console` (rich: a progress bar on a terminal, the summary) only when
it shows one, never with ``--quiet`` or ``--json``."""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any

import click

from csp_check.cli.usage import one_line


def load(target: str) -> Any:
    """The attribute named by ``"module:attribute"``, its module imported now (at first use;
    Python keeps it imported), as :class:`LazyGroup` loads a subcommand."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


class LazyGroup(click.Group):
    """A :class:`click.Group` with ``lazy_subcommands``: command name → ``"module:attribute"``
    of a :class:`click.Command`, imported on first use (listing them in ``--help`` imports them)."""

    def __init__(self, *args: object, lazy_subcommands: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_subcommands = lazy_subcommands or {}

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; output that cannot be written (stdout closed, a full device) is one
        line on stderr and exit 2, never a traceback (a closed pipe, ``| head``, stays quiet)."""
        if sys.stdout is None:  # started with stdout closed: what would be printed is dropped
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
        else:
            try:
                os.fstat(sys.stdout.fileno())
            except (ValueError, AttributeError):  # no file descriptor (a test runner's buffer; io.UnsupportedOperation)
                pass
            except OSError:  # fd 1 closed: the same
                _drop_stdout(reopen=True)
        try:
            return super().main(*args, **kwargs)
        except OSError as err:
            _drop_stdout()
            if err.errno == errno.EPIPE:
                sys.exit(0)
            where = err.filename or "stdout"
            try:
                print(f"csp-check: error: {where}: cannot write: {err.strerror or err}", file=sys.stderr)
            except (OSError, ValueError, AttributeError):
                pass
            sys.exit(2)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """The group's context; a usage error is shown in two lines (:mod:`csp_check.cli.usage`)."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as err:
            raise one_line(err) from err

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand; a usage error of any subcommand is shown in two lines."""
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            raise one_line(err) from err

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            command = load(self.lazy_subcommands[cmd_name])
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy_subcommands[cmd_name]} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)


def _drop_stdout(reopen: bool = False) -> None:
    """Point stdout at /dev/null so that the flush at exit cannot fail again (``reopen``: fd 1
    was closed; /dev/null is opened onto it)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 1:
            os.dup2(null, 1)
            os.close(null)
        if reopen:
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    except (OSError, ValueError, AttributeError):
        pass
