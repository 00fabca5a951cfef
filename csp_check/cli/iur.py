"""Command line of the indirect-user-request tools (docs/iur.md): ``csp-check iur …``.

- ``iur check FILE [--schema SGD_SCHEMA]... --report R``: the deterministic criteria of each
  IndirectRequests record (:mod:`csp_check.iur.criteria`), one JSON line per record in R; prints
  the counts and, for labelled records, the accuracy of the CSP's label (as the proxies of §5).
- ``iur detect PATH... --report R``: implied and unsaid state values of a corpus's user turns
  (:mod:`csp_check.iur.detect`), one JSON line per candidate; prints counts by kind and half.
- ``iur judge FILE --base-url URL --model NAME --report R``: the LLM proxies
  (:mod:`csp_check.iur.judge`), scored against the records' labels (accuracy; Pearson r).
- ``iur generate --schema S --service SV --slot SLOT [--value V] --n N --base-url URL --model
  NAME --out FILE [--augment PATH --augmented-out OUT]``: the generation pipeline
  (:mod:`csp_check.iur.generate`, :mod:`csp_check.iur.augment`).

Exit 0 done; 2 a usage error, an unreadable input, or an unreachable / failing server (one line
on stderr naming the URL).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from csp_check.iur.criteria import check_record
from csp_check.iur.records import RecordError, read_records
from csp_check.iur.schema import Service, load_services

EXIT_OK, EXIT_ERROR = 0, 2


def fail(message: str) -> None:
    """One line on stderr, exit 2."""
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def services_of(paths: tuple[Path, ...]) -> dict[str, Service]:
    try:
        return load_services(*paths) if paths else {}
    except (OSError, ValueError) as err:
        fail(f"cannot read the schema: {err}")
        raise  # unreachable: fail exits


def records_of(path: Path) -> list:
    try:
        return read_records(path)
    except (OSError, RecordError) as err:
        fail(str(err))
        raise


def write_lines(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


@click.group("iur")
def iur_group() -> None:
    """Indirect user requests: detect them in corpora, check, judge and generate them (docs/iur.md)."""


@iur_group.command("check")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--schema", "schemas", multiple=True, type=click.Path(path_type=Path),
              help="SGD schema.json (or split folder) for the appropriateness of slot to service; repeatable.")
@click.option("--report", type=click.Path(path_type=Path), required=True, help="JSON lines, one per record.")
def check_command(file: Path, schemas: tuple[Path, ...], report: Path) -> None:
    """The deterministic criteria (direct, appropriateness, unambiguity CSP) of each record."""
    services = services_of(schemas)
    results = [check_record(i, r, services) for i, r in enumerate(records_of(file))]
    write_lines([r.model_dump(mode="json") for r in results], report)
    labelled = [r for r in results if r.target is not None]
    agree = sum(r.predicted == r.target for r in labelled)
    counts = Counter("direct" if r.direct else "indirect" for r in results)
    click.echo(f"{len(results)} records: {counts['direct']} direct, {counts['indirect']} indirect; "
               f"unambiguous {sum(bool(r.unambiguous) for r in results)}, "
               f"inappropriate {sum(r.appropriate is False for r in results)}")
    if labelled:
        click.echo(f"unambiguity label accuracy (N+1 classes): {agree}/{len(labelled)} = {agree / len(labelled):.3f}")
