"""``csp-check constraints``: every registered constraint family, like a linter's rule list.

``--rules`` writes ``docs/rules.md``: per registered family (registry order) its id, name,
group, one line and the reading rules of its module's docstring (the text under the line
``Reading rules``), then the reading rules of every other module that states some (the shared
reading: normalisation, the text at a span, the builder, …), in pipeline order. The docstrings
are the source; ``tests/test_docs.py`` checks the committed page is what this writes.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import click

import csp_check
from csp_check.families.registry import GROUPS, Family, families

#: The line of a module docstring that starts its reading rules (they run to the docstring's end).
RULES_HEADING = "Reading rules"
#: The order of the shared modules in ``docs/rules.md``: the pipeline's (first folder or module).
PIPELINE = ("readers", "language", "annotate", "delexicalize", "pipeline", "build", "families", "check",
            "solvers", "score", "nlsi")
PACKAGE = Path(csp_check.__file__).resolve().parent


@click.command("constraints")
@click.option("--group", "groups", multiple=True, type=click.Choice(GROUPS), help="Only families of this group (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per family: id, name, group, description.")
@click.option("--rules", "as_rules", is_flag=True,
              help="The reading rules of every family and shared module, as markdown (docs/rules.md).")
def constraints_command(groups: tuple[str, ...], as_json: bool, as_rules: bool) -> None:
    """List the registered constraint families: id, name, group and what each checks.

    The ids are what ``--constraints`` accepts.
    """
    listed = families(groups or None)
    if as_rules:
        click.echo(rules_markdown(listed), nl=False)
        return
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


def rules_of(doc: str | None) -> str | None:
    """The reading rules of a docstring: the text after its line ``Reading rules``, to its end
    (``None`` when it has no such line)."""
    lines = (doc or "").splitlines()
    marks = [i for i, line in enumerate(lines) if line.strip() == RULES_HEADING]
    return "\n".join(lines[marks[0] + 1:]).strip("\n") if marks else None


def family_source(family: Family) -> Path:
    """The module file whose docstring states ``family``'s rules: the module of its class, or for
    a profile family declared in :mod:`csp_check.families.profile`, the module of
    :mod:`csp_check.nlsi.families` whose ``ID`` is the family's (found in the source, so listing
    the rules loads nothing of the NLSI half)."""
    path = Path(sys.modules[type(family).__module__].__file__ or "").resolve()
    if path == PACKAGE / "families" / "profile.py":
        for candidate in sorted((PACKAGE / "nlsi" / "families").glob("*.py")):
            if declared_id(candidate) == family.id:
                return candidate
    return path


def declared_id(path: Path) -> str | None:
    """The constant a module assigns to ``ID`` at its top level (``ID, TITLE = "P1", "schema"``),
    read from its source; ``None`` when it assigns none."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            for name, value in zip(names, values):
                if isinstance(name, ast.Name) and name.id == "ID" and isinstance(value, ast.Constant):
                    return str(value.value)
    return None


def docstring(path: Path) -> str:
    """The module docstring of ``path`` (cleaned, ``""`` when it has none), read from its source."""
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def shared_modules(skip: set[Path]) -> list[tuple[Path, str]]:
    """(path, docstring) of every module of the package outside ``skip`` whose docstring states
    reading rules, in :data:`PIPELINE` order (read from the source: nothing is imported)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        doc = docstring(path)
        if path.resolve() not in skip and rules_of(doc) is not None:
            found.append((path, doc))
    return sorted(found, key=lambda item: pipeline_rank(item[0]))


def pipeline_rank(path: Path) -> tuple[int, str]:
    """Where a module of the package comes in :data:`PIPELINE` (its first folder or module),
    then its path; modules of no listed stage come last."""
    first = path.relative_to(PACKAGE).with_suffix("").parts[0]
    return (PIPELINE.index(first) if first in PIPELINE else len(PIPELINE), str(path))


def markdown(text: str) -> str:
    """A docstring's reST markup as markdown: ``:func:`~a.b``` → `` `b` ``, ``` ``x`` ``` → `` `x` ``."""
    text = re.sub(r":[a-z]+:`~([^`]+)`", lambda m: f"`{m[1].rpartition('.')[2]}`", text)
    text = re.sub(r":[a-z]+:`([^`]+)`", r"`\1`", text)
    return re.sub(r"``(.+?)``", r"`\1`", text, flags=re.S)


def rules_markdown(listed: list[Family]) -> str:
    """``docs/rules.md``: the families' rules (``listed``, in registry order), then the shared
    modules' rules."""
    root = PACKAGE.parent
    out = ["# Reading rules", "",
           "<!-- Generated by `csp-check constraints --rules > docs/rules.md` from the module docstrings;",
           "     edit the docstrings, not this page (tests/test_docs.py checks it is current). -->", "",
           "How csp-check reads a dialogue, rule by rule. Each constraint family states its rules in",
           "the docstring of its module (under the line `Reading rules`); the rules that belong to no one",
           "family are in the docstrings of the modules that implement them (the shared reading, below).",
           "", "## Constraint families", ""]
    used = set()
    for f in listed:
        path = family_source(f)
        used.add(path)
        rules = rules_of(docstring(path))
        out += [f"### {f.id} {f.name}", "",
                f"*{f.group}*: {f.description}. Module: `{path.relative_to(root).as_posix()}`.", "",
                markdown(rules) if rules else "(its module's docstring states no reading rules)", ""]
    out += ["## Shared reading", ""]
    for path, doc in shared_modules(used):
        out += [f"### `{path.relative_to(root).as_posix()}`", "",
                markdown(" ".join(doc.split("\n\n")[0].split())), "", markdown(rules_of(doc) or ""), ""]
    return "\n".join(out)
