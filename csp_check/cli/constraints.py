"""``csp-check constraints``: every registered constraint family, like a linter's rule list."""

from __future__ import annotations

import json

import click

from csp_check.families.registry import GROUPS, families


@click.command("constraints")
@click.option("--group", "groups", multiple=True, type=click.Choice(GROUPS), help="Only families of this group (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per family: id, name, group, description.")
def constraints_command(groups: tuple[str, ...], as_json: bool) -> None:
    """List the registered constraint families: id, name, group and what each checks.

    The ids are what ``--constraints`` accepts.
    """
    listed = families(groups or GROUPS)
    if as_json:
        for f in listed:
            click.echo(json.dumps({"id": f.id, "name": f.name, "group": f.group, "description": f.description}))
        return
    id_w = max([2, *(len(f.id) for f in listed)])
    name_w = max([4, *(len(f.name) for f in listed)])
    group_w = max([5, *(len(f.group) for f in listed)])
    click.echo(f"{'id':<{id_w}}  {'name':<{name_w}}  {'group':<{group_w}}  description")
    for f in listed:
        click.echo(f"{f.id:<{id_w}}  {f.name:<{name_w}}  {f.group:<{group_w}}  {f.description}")
