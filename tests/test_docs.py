"""The documentation: ``docs/rules.md`` is what the module docstrings say now, every family states
its reading rules, every relative link of the README and the docs resolves, and the README stays
a map (at most 250 lines)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from csp_check.cli.constraints import constraints_command, docstring, family_source, rules_of
from csp_check.families import families

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "README.md",
         ROOT / "experiments" / "README.md"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_the_rules_page_is_what_the_docstrings_say() -> None:
    result = CliRunner().invoke(constraints_command, ["--rules"])
    assert result.exit_code == 0, result.output
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == result.output, "docs/rules.md is stale: csp-check constraints --rules > docs/rules.md"


def test_every_registered_family_states_its_reading_rules() -> None:
    missing = [f.id for f in families() if not rules_of(docstring(family_source(f)))]
    assert not missing, f"no 'Reading rules' in the module docstring of {missing}"


def test_rules_of_reads_the_text_under_the_heading() -> None:
    assert rules_of("Summary.\n\nReading rules\n\n- one\n- two\n") == "- one\n- two"
    assert rules_of("Summary without rules.") is None


def slug(heading: str) -> str:
    """GitHub's anchor of a markdown heading: lower case, punctuation dropped, spaces → ``-``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (outside fenced code)."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m[1]) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)  # code holds no links
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            name, _, anchor = target.partition("#")
            dest = (page.parent / name).resolve() if name else page
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_readme_is_a_map() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def _readme_command_list() -> str:
    """The README's command list: the text block under its ``## Command line`` heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("## Command line", 1)[1]
    return text.split("```text", 1)[1].split("```", 1)[0]


def test_the_readme_command_list_names_every_command_and_reading_option() -> None:
    import click

    from csp_check.cli.main import main

    listed = _readme_command_list()
    ctx = click.Context(main, info_name="csp-check")
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert f"csp-check {name} " in listed, f"csp-check {name} is not in the README's command list"
        for sub in command.list_commands(click.Context(command)) if isinstance(command, click.Group) else []:
            assert f"csp-check {name} {sub} " in listed, f"csp-check {name} {sub} is not in the README's command list"
    for name in ("validate", "export-mzn", "delexicalize"):  # the commands reading a corpus
        options = {o for p in main.get_command(ctx, name).params if isinstance(p, click.Option) for o in p.opts}
        assert "--max-unzipped-mb" in options
    assert listed.count("--max-unzipped-mb") >= 3
