"""``csp-check benchmark``: csp-check's verdicts against a field's labelled benchmark.

``benchmark citod PATH...`` labels the last system response of every CI-ToD dialogue (QI, HI,
KBI: :mod:`csp_check.score.citod`) and prints the paper's metrics against the gold labels
(:mod:`csp_check.score.citod_bench`) beside the published BART / BERT / human figures.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from csp_check.cli.paths import existing_paths, of_kind
from csp_check.errors import UsageError, error_line
from csp_check.output.report_file import check_text_output
from csp_check.score.citod_bench import DISAGREEMENTS_HEADER, disagreements, disagreements_markdown, run, table


@click.group("benchmark")
def benchmark_group() -> None:
    """Score csp-check against a labelled benchmark of the field (no training, no model)."""


@benchmark_group.command("citod")
@click.argument("paths", nargs=-1, required=True, callback=existing_paths, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--half", type=click.Choice(["work", "check"]), default=None,
              help="Keep only the dialogues of this half (csp_check/score/split.py half_of(id)): weather has no "
                   "train file, so its dev file is tuned on the work half and measured on the check half.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option("--disagreements", "disagreements_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Write a sample of dialogues whose labels differ from the gold ones, as Markdown for a blind reader.")
@click.option("--sample", type=click.IntRange(min=1), default=30, show_default=True,
              help="How many disagreements --disagreements writes (the first by a fixed hash of file, index, id).")
def citod_command(paths: tuple[Path, ...], half: str | None, as_json: bool, disagreements_path: Path | None,
                  sample: int) -> None:
    """Label CI-ToD files (PATH...: calendar / navigate / weather JSON lists) and print precision,
    recall and F1 per label (QI, HI, KBI) and overall accuracy (all three right) against their
    gold labels. Exit 2 if an item could not be read (it is left out of the figures), or a file is
    not CI-ToD (one line: what it looks like; the other files are scored)."""
    kept, left_out = of_kind(paths, "citod")
    if disagreements_path is not None:  # checked before the work: an input or another file is never overwritten
        try:
            check_text_output(disagreements_path, list(paths), "--disagreements", DISAGREEMENTS_HEADER)
        except UsageError as err:
            click.echo(f"csp-check: error: {err}", err=True)
            sys.exit(2)
    bench = run(tuple(kept), half)  # type: ignore[arg-type]
    for err in bench.errors:
        click.echo(error_line(err), err=True)
    if as_json:
        click.echo(json.dumps(bench.to_json()))
    else:
        click.echo(table(bench))
    if disagreements_path is not None:
        chosen = disagreements(bench, sample)
        disagreements_path.write_text(disagreements_markdown(chosen), encoding="utf-8")
        click.echo(f"{len(chosen)} disagreements written to {disagreements_path}", err=True)
    sys.exit(2 if bench.errors or left_out else 0)
