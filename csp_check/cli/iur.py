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

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import click

from csp_check.cli.paths import existing_paths
from csp_check.errors import UsageError, error_line
from csp_check.iur.augment import augment_files, swaps_path
from csp_check.iur.criteria import check_record
from csp_check.iur.detect import Candidate, candidates
from csp_check.iur.generate import GenerateError, generate
from csp_check.iur.judge import JudgeError, judge, score
from csp_check.iur.records import RecordError, read_records, write_records
from csp_check.iur.schema import Service, load_services
from csp_check.llm.client import DEFAULT_CACHE_DIR, ChatClient, LLMSettings
from csp_check.models import Dialogue
from csp_check.output.report_file import check_output_path, check_text_output
from csp_check.readers import FORMATS, read_dialogues
from csp_check.score.split import HALVES, half_of

EXIT_OK, EXIT_ERROR = 0, 2


def fail(message: str) -> None:
    """One line on stderr, exit 2."""
    click.echo(error_line(message), err=True)
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


#: The first line of ``detect --sample-md``'s file (an earlier one may be overwritten).
SAMPLE_HEADER = "# Indirect-request candidates for reading"


def guard_output(path: Path | None, inputs: list[Path], keys: tuple[str, ...] | str, option: str = "--report") -> None:
    """Exit 2 with one line before any work when writing ``path`` could destroy data: an input,
    inside an input folder, a directory, or an existing file that is not an earlier output of the
    same command (its first line a JSON object with ``keys``, or, for a Markdown sample, the
    header line ``keys``) (:mod:`csp_check.output.report_file`, as ``validate --report``)."""
    if path is None:
        return
    try:
        if isinstance(keys, str):
            check_text_output(path, inputs, option, keys)
        else:
            check_output_path(path, inputs, option, keys, kind="an earlier output of this command")
    except UsageError as err:
        click.echo(f"csp-check: error: {err}", err=True)
        sys.exit(2)


def write_lines(rows: list[dict], path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


@click.group("iur")
def iur_group() -> None:
    """Indirect user requests: detect them in corpora, check, judge and generate them (docs/iur.md)."""


@iur_group.command("check")
@click.argument("file", callback=existing_paths, type=click.Path(path_type=Path))
@click.option("--schema", "schemas", multiple=True, callback=existing_paths, type=click.Path(path_type=Path),
              help="SGD schema.json (or split folder) for the appropriateness of slot to service; repeatable.")
@click.option("--report", type=click.Path(path_type=Path), required=True, help="JSON lines, one per record.")
def check_command(file: Path, schemas: tuple[Path, ...], report: Path) -> None:
    """The deterministic criteria (direct, appropriateness, unambiguity CSP) of each record."""
    guard_output(report, [file, *schemas], ("index", "utterance", "direct"))
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


def sample_key(c: Candidate) -> str:
    """The fixed hash a sample is drawn by: SHA-256 of ``dialogue_id:turn:domain.slot``."""
    return hashlib.sha256(f"{c.dialogue_id}:{c.turn}:{c.slot_type}".encode()).hexdigest()


def candidates_markdown(rows: list[Candidate], per_kind: int) -> str:
    """A readable sample for a blind reader: ``per_kind`` candidates of each kind, first by
    :func:`sample_key`, each with its utterance, the two turns before, slot, value, kind and why."""
    lines = [SAMPLE_HEADER, "",
             "Each item: a user turn whose belief state gains a value that no words of the dialogue so far name.",
             "Kind `implied`: the turn's words point to the value (an indirect request); `unsaid`: nothing does",
             "(an annotation error, unless a wording says it). Judge for each: is the kind right?", ""]
    for kind in ("implied", "unsaid"):
        chosen = sorted((c for c in rows if c.kind == kind), key=sample_key)[:per_kind]
        lines += [f"## {kind} ({len(chosen)} of {sum(c.kind == kind for c in rows)})", ""]
        for n, c in enumerate(chosen, 1):
            where = "/".join(Path(c.source).parts[-2:]) if c.source else ""
            lines += [f"### {kind} {n}. {c.dialogue_id} turn {c.turn} ({where})", ""]
            lines += [f"- before: {p[:200]}" for p in c.previous]
            lines += [f"- **user**: {c.utterance}", f"- slot `{c.slot_type}`, value `{c.value}`", f"- kind **{c.kind}**: {c.reason}", ""]
    return "\n".join(lines)


@iur_group.command("detect")
@click.argument("paths", nargs=-1, required=True, callback=existing_paths, type=click.Path(path_type=Path))
@click.option("--report", type=click.Path(path_type=Path), required=True, help="JSON lines, one per candidate.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True,
              help="Input format (auto: sniffed).")
@click.option("--sample-md", type=click.Path(path_type=Path), help="Write a readable sample of candidates here.")
@click.option("--sample-half", type=click.Choice(HALVES), default="check", show_default=True,
              help="Half (by dialogue id hash) the --sample-md candidates are drawn from.")
@click.option("--per-kind", type=int, default=30, show_default=True, help="Candidates of each kind in the sample.")
def detect_command(paths: tuple[Path, ...], report: Path, fmt: str, sample_md: Path | None, sample_half: str,
                   per_kind: int) -> None:
    """Implied and unsaid state values of the corpus's user turns, by half (work / check)."""
    guard_output(report, list(paths), ("dialogue_id", "kind", "slot"))
    guard_output(sample_md, list(paths), SAMPLE_HEADER, option="--sample-md")
    rows: list[Candidate] = []
    users: Counter[str] = Counter()
    errors = 0
    for item in read_dialogues(list(paths), fmt):
        if not isinstance(item, Dialogue):
            click.echo(error_line(item), err=True)
            errors += 1
            continue
        users[half_of(item.id)] += sum(t.speaker == "user" for t in item.turns)
        rows += candidates(item)
    write_lines([c.model_dump(mode="json") for c in rows], report)
    for half in HALVES:
        mine = [c for c in rows if c.half == half]
        turns = {kind: len({(c.dialogue_id, c.turn) for c in mine if c.kind == kind}) for kind in ("implied", "unsaid")}
        values = Counter(c.kind for c in mine)
        click.echo(f"{half}: {users[half]} user turns; implied {values['implied']} values in {turns['implied']} turns, "
                   f"unsaid {values['unsaid']} values in {turns['unsaid']} turns")
    if sample_md is not None:
        sample_md.write_text(candidates_markdown([c for c in rows if c.half == sample_half], per_kind), encoding="utf-8")
    if errors:
        sys.exit(EXIT_ERROR)


def llm_options(f):  # type: ignore[no-untyped-def]
    """--base-url, --model and the client's settings (csp_check.llm.client.LLMSettings)."""
    f = click.option("--max-retries", type=int, default=2, show_default=True, help="Retries of a failed request.")(f)
    f = click.option("--timeout", type=float, default=60.0, show_default=True, help="Seconds per request.")(f)
    f = click.option("--concurrency", type=int, default=4, show_default=True, help="Requests to the model in flight at once.")(f)
    f = click.option("--no-cache", is_flag=True, help="Do not read or write the answer cache.")(f)
    f = click.option("--cache-dir", type=click.Path(path_type=Path), default=DEFAULT_CACHE_DIR, show_default=True,
                     help="Directory of the answer cache.")(f)
    f = click.option("--temperature", type=float, default=None, help="Sampling temperature (judge 0, generate 0.9).")(f)
    f = click.option("--model", required=True, help="Model name the server knows.")(f)
    return click.option("--base-url", required=True, help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1.")(f)


def client_of(base_url: str, model: str, temperature: float, max_retries: int, timeout: float, concurrency: int,
              no_cache: bool, cache_dir: Path) -> ChatClient:
    return ChatClient(LLMSettings(base_url=base_url, model=model, temperature=temperature, max_retries=max_retries,
                                  timeout=timeout, concurrency=concurrency, cache_dir=None if no_cache else cache_dir,
                                  backoff=0.5))


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


@iur_group.command("judge")
@click.argument("file", callback=existing_paths, type=click.Path(path_type=Path))
@click.option("--report", type=click.Path(path_type=Path), required=True, help="JSON lines, one per record.")
@llm_options
def judge_command(file: Path, report: Path, base_url: str, model: str, temperature: float | None, cache_dir: Path,
                  no_cache: bool, concurrency: int, timeout: float, max_retries: int) -> None:
    """The paper's LLM proxies (N+1-way unambiguity, world understanding 1-10), scored as Table 3."""
    guard_output(report, [file], ("index", "implied", "predicted"))
    records = records_of(file)
    client = client_of(base_url, model, 0.0 if temperature is None else temperature, max_retries, timeout, concurrency,
                       no_cache, cache_dir)
    try:
        judgements = judge(records, client)
    except JudgeError as err:
        fail(str(err))
    write_lines([j.model_dump(mode="json") for j in judgements], report)
    scores = score(judgements)
    click.echo(f"{scores.records} records judged by {model}")
    click.echo(f"unambiguity accuracy (N+1 classes): {pct(scores.accuracy)} over {scores.labelled} labelled")
    click.echo(f"world understanding Pearson r: {pct(scores.pearson)} over {scores.rated} rated")


@iur_group.command("generate")
@click.option("--schema", "schemas", multiple=True, required=True, callback=existing_paths, type=click.Path(path_type=Path),
              help="SGD schema.json (or split folder); repeatable.")
@click.option("--service", required=True, help="SGD service, e.g. Homes_1.")
@click.option("--slot", required=True, help="A categorical slot of the service.")
@click.option("--value", default=None, help="One target value (default: every possible value).")
@click.option("--n", "n", type=int, default=5, show_default=True, help="Candidate IURs per target value.")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="IndirectRequests records kept (JSON lines).")
@click.option("--augment", "augment", type=click.Path(path_type=Path), help="SGD split folder (or file) to augment.")
@click.option("--augmented-out", type=click.Path(path_type=Path), help="Folder for the augmented split (default OUT.augmented).")
@llm_options
def generate_command(schemas: tuple[Path, ...], service: str, slot: str, value: str | None, n: int, out: Path,
                     augment: Path | None, augmented_out: Path | None, base_url: str, model: str,
                     temperature: float | None, cache_dir: Path, no_cache: bool, concurrency: int, timeout: float,
                     max_retries: int) -> None:
    """The generation pipeline (situation, facts, candidate IURs, criteria filter); --augment swaps them into SGD."""
    services = services_of(schemas)
    if service not in services:
        fail(f"no service {service!r} in the schema")
    client = client_of(base_url, model, 0.9 if temperature is None else temperature, max_retries, timeout, concurrency,
                       no_cache, cache_dir)
    try:
        result = generate(services[service], slot, client, n, value)
    except GenerateError as err:
        fail(str(err))
    except JudgeError as err:
        fail(str(err))
    write_records(result.kept, out)
    click.echo(f"{len(result.kept)} IURs kept, {len(result.dropped)} dropped")
    for drop in result.dropped:
        click.echo(f"  dropped ({drop.target}): {drop.why}: {drop.utterance[:100]!r}")
    if augment is not None:
        target = augmented_out or out.with_name(out.stem + ".augmented")
        try:
            swaps = augment_files(augment, target, result.kept, slot)
        except (OSError, ValueError) as err:
            fail(f"cannot augment {augment}: {err}")
        click.echo(f"{len(swaps)} direct requests swapped for IURs in {target} (listed in {swaps_path(target)})")
