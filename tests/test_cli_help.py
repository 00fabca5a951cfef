"""Every option of every ``csp-check`` command (lazy subcommands and nested groups included) says
what it does in ``--help``."""

from __future__ import annotations

import click

from csp_check.cli.main import main


def options_without_help(command: click.Command, ctx: click.Context, path: str) -> list[str]:
    missing = [f"{path} {'/'.join(p.opts)}" for p in command.params
               if isinstance(p, click.Option) and not p.hidden and not (p.help or "").strip()]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, f"{path} {name} does not load"
            missing += options_without_help(sub, click.Context(sub, parent=ctx, info_name=name), f"{path} {name}")
    return missing


def test_every_option_of_every_command_has_help() -> None:
    ctx = click.Context(main, info_name="csp-check")
    assert len(main.list_commands(ctx)) >= 8  # the walk reaches the lazy subcommands
    assert options_without_help(main, ctx, "csp-check") == []
