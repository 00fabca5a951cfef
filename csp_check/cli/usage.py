"""A usage error of the command line in two lines: what is wrong, then where to look.

click prints a usage error in four lines (the usage, ``Try '… --help' for help.``, a blank line,
``Error: …``), the message last. csp-check prints it as its other errors, one line on stderr that
names the command and the option or argument, then a one-line hint, and exits 2::

    csp-check: error: validate: Invalid value for '--jobs' / '-j': 'x' is not a valid integer range
    usage: csp-check validate [OPTIONS] PATHS... (--help lists the options)

:class:`csp_check.cli.lazy.LazyGroup` turns every :class:`click.UsageError` raised while parsing
or running a command (of any nested group) into a :class:`OneLineUsageError`.
"""

from __future__ import annotations

from typing import IO, Any

import click


class OneLineUsageError(click.UsageError):
    """A :class:`click.UsageError` shown as one error line and one hint line (exit 2)."""

    def __init__(self, original: click.UsageError) -> None:
        super().__init__(original.format_message(), original.ctx)
        self.original = original

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.error_line(), file=file, err=file is None)
        hint = self.hint_line()
        if hint:
            click.echo(hint, file=file, err=file is None)

    def error_line(self) -> str:
        """``csp-check: error: COMMAND: MESSAGE``: the message on one line, without its last period."""
        message = " ".join(self.format_message().split()).removesuffix(".")
        command = _subcommand(self.ctx)
        return f"csp-check: error: {command + ': ' if command else ''}{message}"

    def hint_line(self) -> str | None:
        """The command's usage and where its options are listed (``None`` without a context)."""
        ctx = self.ctx
        if ctx is None:
            return None
        usage = " ".join(ctx.get_usage().split()).removeprefix("Usage:").strip()
        names = ctx.command.get_help_option_names(ctx) if ctx.command.get_help_option(ctx) is not None else ()
        if not names:
            return f"usage: {usage}"
        what = "commands" if isinstance(ctx.command, click.Group) else "options"
        return f"usage: {usage} ({max(names, key=len)} lists the {what})"


def _subcommand(ctx: click.Context | None) -> str:
    """The command path without the program's name (``nlsi build``; ``""`` for the top group)."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


def one_line(err: click.UsageError) -> click.UsageError:
    """``err`` as a :class:`OneLineUsageError` (itself if it is one); a group run without a
    command (:class:`click.exceptions.NoArgsIsHelpError`) still prints its help."""
    if isinstance(err, (OneLineUsageError, click.exceptions.NoArgsIsHelpError)):
        return err
    return OneLineUsageError(err)
