"""A click group whose subcommands are imported when they are run (click's "lazily loading
subcommands" pattern): ``csp-check validate`` never imports the API-call half or the experiment,
whose modules (and spaCy, which the NLSI instruction parser loads) cost memory and start-up time."""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """A :class:`click.Group` with ``lazy_subcommands``: command name → ``"module:attribute"``
    of a :class:`click.Command`, imported on first use (listing them in ``--help`` imports them)."""

    def __init__(self, *args: object, lazy_subcommands: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module, _, attribute = self.lazy_subcommands[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy_subcommands[cmd_name]} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)
