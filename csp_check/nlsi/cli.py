"""Command line of the NLSI part: ``csp-check calls`` and ``csp-check nlsi build``.

``csp-check calls PATH... [--schema FILE_OR_SGD_DIR]... [--field api_calls|pred_api_calls]
[--report FILE.jsonl] [--derive] [--jobs N] [--no-annotation] [--engine local|ray [--ray-address A]]``: one report line per example
(``example_id``, ``status``, ``violations``, …). Exit 0 all consistent, 1 any inconsistent, 2
any unreadable input or example error (2 wins); bad input is one line on stderr and every other
example is still checked. Without ``--schema`` the schema written beside the input by ``nlsi
build`` (``FILE.schema.json``) is used.

``csp-check nlsi build SGD_PATH... --out FILE.jsonl [--seed N] [--paraphrase P] [--limit N]``:
NLSI-style examples from SGD (spec §6) and ``FILE.schema.json`` (schema + ontology).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Iterator

import click

from csp_check.engines import check_engine, engine_options

EXIT_OK, EXIT_INCONSISTENT, EXIT_ERROR = 0, 1, 2

_WORKER = None


def _schema_paths(paths: tuple[Path, ...], schema: tuple[Path, ...]) -> list[Path]:
    if schema:
        return list(schema)
    found = []
    for p in paths:
        cand = p.with_name(p.name.removesuffix(".jsonl") + ".schema.json") if p.is_file() else None
        if cand is not None and cand.exists():
            found.append(cand)
    if not found:
        raise click.UsageError("no schema: give --schema FILE_OR_SGD_DIR (or build the input with `csp-check nlsi build`)")
    return list(dict.fromkeys(found))


def _init_worker(schema_paths, field, annotation):
    global _WORKER
    from csp_check.nlsi.check import Checker
    from csp_check.nlsi.schema import load_schema

    _WORKER = Checker(load_schema(schema_paths), field=field, use_annotation=annotation)


def _work(item):
    example, source, derive = item
    return _WORKER.check(example, derive_calls=derive, source=source).model_dump(mode="json"), example.model_dump(mode="json")


def _items(paths: tuple[Path, ...], derive: bool, errors: list[str]) -> Iterator:
    from csp_check.nlsi.readers import ExampleError, iter_paths, read_examples

    for path in iter_paths(list(paths)):
        for item in read_examples(path):
            if isinstance(item, ExampleError):
                errors.append(str(item))
                click.echo(f"csp-check: {item}", err=True)
            else:
                yield item, str(path), derive


@click.command("calls")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--schema", "schema", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="SGD-style schema.json or an SGD split directory (repeatable).")
@click.option("--field", "field", type=click.Choice(["api_calls", "pred_api_calls"]), default="api_calls", show_default=True)
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), help="Write one JSON report per example.")
@click.option("--derive", is_flag=True, help="Derive the call set and applicable instructions; score them against gold.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--no-annotation", is_flag=True, help="Ignore SGD annotation in metadata; ground the dialogue on its text only.")
@click.option("--quiet", "-q", is_flag=True)
@engine_options
def calls_command(paths, schema, field, report_path, derive, jobs, no_annotation, quiet, engine="local", ray_address=None):
    """Check the API calls of NLSI examples against profile, dialogue and schema (P1-P6)."""
    check_engine(engine, ray_address)
    from csp_check.nlsi.calls import parse_calls
    from csp_check.nlsi.metrics import Scores, exact_match, f1, render_table, selection_scores, triples

    try:
        schema_paths = _schema_paths(paths, schema)
        _init_worker(schema_paths, field, not no_annotation)
    except click.UsageError:
        raise
    except (OSError, ValueError) as err:
        click.echo(f"csp-check: error: schema: {err}", err=True)
        sys.exit(EXIT_ERROR)
    if report_path is not None:
        from csp_check.errors import UsageError
        from csp_check.report_file import check_output_path

        try:
            schemas = list(schema) if isinstance(schema, (tuple, list)) else [schema] if schema else []
            check_output_path(Path(report_path), [*paths, *schemas], "--report",
                              ("example_id", "status"))  # fmt: skip
        except UsageError as err:
            click.echo(f"csp-check: error: {err}", err=True)
            sys.exit(EXIT_ERROR)
    try:
        out = open(report_path, "w", encoding="utf-8") if report_path else None
    except OSError as err:
        click.echo(f"csp-check: error: --report {report_path}: {err.strerror}", err=True)
        sys.exit(EXIT_ERROR)
    read_errors: list[str] = []
    counts = {"consistent": 0, "inconsistent": 0, "error": 0}
    scores = Scores()
    start = time.perf_counter()
    items = _items(paths, derive, read_errors)
    if engine == "ray":
        from csp_check.errors import UsageError
        from csp_check.ray_engine import ordered_map

        pool = None
        try:
            results = ordered_map(_work, items, jobs=jobs, address=ray_address, init=_init_worker,
                                  init_args=(schema_paths, field, not no_annotation))  # fmt: skip
            results = _started(results)
        except UsageError as err:
            click.echo(f"csp-check: error: {err}", err=True)
            sys.exit(EXIT_ERROR)
    elif jobs > 1:
        import multiprocessing as mp

        pool = mp.get_context("fork").Pool(jobs, initializer=_init_worker, initargs=(schema_paths, field, not no_annotation))
        results = pool.imap(_work, items, chunksize=16)
    else:
        pool = None
        results = map(_work, items)
    try:
        for rep, ex in results:
            counts[rep["status"]] += 1
            for err in rep["errors"]:
                click.echo(f"csp-check: {rep['source']}: example {rep['example_id']}: {err}", err=True)
            if out:
                out.write(json.dumps(rep) + "\n")
            if derive and ex.get("api_calls") is not None:
                gold, _ = parse_calls(ex["api_calls"])
                pred = rep["derived_api_calls"]
                values = {"em": exact_match(pred, gold), "slot_f1": f1(triples(pred), triples(gold))}
                if ex.get("applicable_standing_instructions") is not None:
                    profile = [i["nl_instruction"] for i in ex["all_standing_instructions"]]
                    gold_i = [i["nl_instruction"] for i in ex["applicable_standing_instructions"]]
                    sel_em, sel_f1, halluc = selection_scores(rep["derived_instructions"], gold_i, profile)
                    values.update(sel_em=sel_em, sel_f1=sel_f1, halluc=halluc)
                scores.add(rep.get("reasoning_type") or "unknown", **values)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        if out:
            out.close()
    seconds = time.perf_counter() - start
    total = sum(counts.values())
    if not quiet:
        click.echo(f"{total} examples: {counts['consistent']} consistent, {counts['inconsistent']} inconsistent, "
                   f"{counts['error']} errors, {len(read_errors)} unreadable lines ({total / seconds if seconds else 0:.1f} examples/s)")
        if derive and scores.n:
            click.echo("derived calls vs gold (%), paper's GPT-4 figures beside:")
            click.echo(render_table(scores.table()))
    if total == 0 and not read_errors:
        click.echo(f"csp-check: error: no examples found in {' '.join(map(str, paths))}", err=True)
        sys.exit(EXIT_ERROR)
    if read_errors or counts["error"]:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_INCONSISTENT if counts["inconsistent"] else EXIT_OK)


def _started(results: Iterator) -> Iterator:
    """``results`` with its first item computed already (a generator starts Ray lazily: its
    usage errors must come before the run)."""
    from itertools import chain

    try:
        first = next(results)
    except StopIteration:
        return iter(())
    return chain([first], results)


@click.group("nlsi")
def nlsi_group():
    """NLSI standing-instruction data (spec: docs/api-call-spec.md)."""


@nlsi_group.command("build")
@click.argument("sgd_paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--paraphrase", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Share of instructions worded by a paraphrase template instead of the plain template.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Stop after N examples.")
def build_command(sgd_paths, out_path, seed, paraphrase, limit):
    """Build NLSI-style examples from SGD dialogues (and OUT.schema.json beside them)."""
    from collections import Counter

    from csp_check.nlsi.build import build_examples

    from csp_check.errors import UsageError
    from csp_check.report_file import check_output_path, refuse_inputs

    schema_path = out_path.with_name(out_path.name.removesuffix(".jsonl") + ".schema.json")
    try:
        check_output_path(out_path, list(sgd_paths), "--out", ("example_id",))
        refuse_inputs(schema_path, list(sgd_paths), "--out (its schema)")
        if schema_path.is_file() and schema_path.stat().st_size and not _is_nlsi_schema(schema_path):
            raise UsageError(f"--out {out_path}: {schema_path} exists and is not a schema it wrote; refusing to overwrite it")
    except UsageError as err:
        click.echo(f"csp-check: error: {err}", err=True)
        sys.exit(EXIT_ERROR)
    try:
        schema, examples = build_examples(list(sgd_paths), seed=seed, paraphrase=paraphrase, limit=limit)
        with open(out_path, "w", encoding="utf-8") as f:
            for ex in examples:
                f.write(ex.model_dump_json(exclude_none=True) + "\n")
        schema_path.write_text(json.dumps(schema.to_json(), indent=1) + "\n", encoding="utf-8")
    except (OSError, ValueError, KeyError) as err:
        click.echo(f"csp-check: error: {err}", err=True)
        sys.exit(EXIT_ERROR)
    by_type = Counter(e.reasoning_type.value for e in examples)
    click.echo(f"{len(examples)} examples -> {out_path} ({', '.join(f'{k} {v}' for k, v in sorted(by_type.items()))}); schema -> {schema_path}")


def _is_nlsi_schema(path: Path) -> bool:
    """Whether ``path`` is a schema ``nlsi build`` wrote (services with ``nlsi_domain``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(data, list) and all(isinstance(s, dict) and "nlsi_domain" in s for s in data)
