"""The relexicalization experiment (paper §4–5, spec §4): select, sample KBs, relexicalize, score.

For every dialogue of the chosen domain:

1. its KB: the pertinent instance(s) + ``n ~ U{0..8}`` random instances (:mod:`.kb`);
2. delexicalize and build its CSP against that KB alone (:func:`.kb.with_kb_only`), keeping the
   paper's constraints (C1–C6): the annotation family (S1) checks the corpus's annotation, not a
   relexicalization, and its *unsaid* values (``x ∈ ∅``) would leave a CSP no solution by design;
3. count its solutions up to 101 (the paper's solution groups, Table 1) and record which
   variables each constraint covers (Table 2, S1 apart);
4. relexicalize with each relexicalizer (Random, Most Frequent, CSP, and LLM when configured);
5. score each assignment under every constraint configuration (all, all except each of C1–C6,
   all except dialogic, all except domain — Table 5): *consistent* (no violation: GCA) and the
   number of variables agreeing with the most similar solution (exact VCA through the solver).

GCA is strict: a dialogue whose CSP has no solution can never be consistent (the paper's
reading of its 0-solution group, Table 4: GCA 0.0), and it contributes 0 agreeing variables to
VCA (spec §3).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from csp_check.build.builder import BuildOptions, build_csp
from csp_check.check.evaluate import violations
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.errors import InputError, error_line
from csp_check.families import PAPER_GROUPS, ids
from csp_check.models import CSP, ConstraintId, DelexicalizedDialogue, Dialogue, Value
from csp_check.pipeline import load_corpus
from csp_check.readers import input_files
from csp_check.relexicalize import get_relexicalizer, relexicalize_many
from csp_check.run.ray_engine import ordered_map
from csp_check.score.metrics import CoverageScope, constraint_coverage, scope_variables
from csp_check.solvers import get_solver as lookup
from csp_check.solvers.defaults import DEFAULT_CAP, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT

from .kb import DomainPool, sample_kb, transactional_methods, with_kb_only


def configs() -> dict[str, frozenset[ConstraintId]]:
    """Table 5 configurations from the registry (:mod:`csp_check.families`): name → enabled
    constraints. ``all`` is every family of the paper's groups (C1–C6); then all but one family,
    and all but one group of several families (dialogic, domain). The annotation family (S1)
    checks the dataset's own annotation, not a relexicalization, and is only reported apart (its
    coverage row in Table 2)."""
    paper = frozenset(ids(PAPER_GROUPS))
    out = {"all": paper, **{f"all except {c.value}": paper - {c} for c in ids(PAPER_GROUPS)}}
    for group in PAPER_GROUPS:
        members = frozenset(ids((group,)))
        if len(members) > 1:
            out[f"all except {group}"] = paper - members
    return out


#: The configurations of the built-in families (:func:`configs` reads the registry when called).
CONFIGS: dict[str, frozenset[ConstraintId]] = configs()

BASELINES = ("random", "most-frequent", "csp")


class Score(BaseModel):
    """One assignment under one constraint configuration."""

    consistent: bool
    agreeing: int = Field(description="variables agreeing with the most similar solution (0 if none)")
    violated: list[str] = Field(default_factory=list, description="ids of the violated constraints")
    exact: bool = Field(True, description="false when the solver timed out (agreeing is a lower bound)")


class DialogueResult(BaseModel):
    """Everything the tables need about one dialogue (one line of ``results.jsonl``)."""

    dialogue_id: str
    source: str = ""
    kb_size: int = 0
    pertinent: int = 0
    random: int = 0
    variables: int = 0
    implicit: int = 0
    solutions: int | None = None
    capped: bool = False
    group: str | None = None
    coverage: dict[str, int] = Field(default_factory=dict, description="constraint id → variables it covers")
    assignments: dict[str, dict[str, Value]] = Field(default_factory=dict)
    scores: dict[str, dict[str, Score]] = Field(default_factory=dict, description="relexicalizer → config → score")
    alignment: dict[str, Any] | None = None
    error: str | None = None


class ExperimentResult(BaseModel):
    """A whole run: its settings and one :class:`DialogueResult` per dialogue."""

    domain: str
    seed: int
    solver: str
    relexicalizers: list[str]
    configs: list[str]
    pool_size: int = 0
    seconds: float = 0.0
    llm_requests: int = Field(0, description="dialogues sent to the LLM (with at least one mask)")
    llm_failures: int = Field(0, description="of those, the ones whose request failed for good")
    llm_left_out: str | None = Field(None, description="why the LLM has no row (every request failed), or None")
    llm_unreachable: str | None = Field(None, description="the error when the LLM server could not be reached at all")
    unreadable: int = Field(0, description="input items that could not be read (each named on stderr), left out")
    read: int = Field(0, description="dialogues read from the inputs, of any domain")
    dialogues: list[DialogueResult] = Field(default_factory=list)


@dataclass
class ExperimentConfig:
    """Settings of :func:`run_experiment`.

    ``paths``: corpus files / directories; ``domain``: the SGD service (``Restaurants_1``);
    ``limit``: at most this many dialogues (sorted by id; ``None`` = all); ``single_domain``:
    only dialogues whose only domain is ``domain``; ``llm``: :class:`~csp_check.llm.client.LLMSettings`
    to add the LLM relexicalizer (``None``: not run); ``jobs``: worker processes for scoring
    (``engine`` ``ray``: Ray tasks, on the cluster at ``ray_address`` or a local Ray with
    ``jobs`` CPUs); ``kb``: a :class:`~csp_check.models.KnowledgeBase`
    whose table ``domain`` is the instance pool (MultiWOZ DB) instead of the corpus's results;
    ``llm_answers``: a JSONL file (replaced) that gets one line per dialogue sent to the LLM as
    its answer arrives (``dialogue_id``, ``source``, ``answer``, ``alignment``): what a stopped
    run has already paid for.
    """

    paths: Sequence[str | Path]
    domain: str = "Restaurants_1"
    limit: int | None = None
    seed: int = 0
    max_random: int = 8
    solver: str = DEFAULT_SOLVER
    cap: int = DEFAULT_CAP
    time_limit: float = DEFAULT_TIME_LIMIT
    single_domain: bool = True
    relexicalizers: Sequence[str] = BASELINES
    llm: Any = None
    llm_progress: bool = True
    jobs: int = 1
    kb: Any = None
    progress: Any = None  # (description, total, unit) -> a context manager with advance(); None: silent
    engine: str = "local"
    ray_address: str | None = None
    configs: dict[str, frozenset[ConstraintId]] = field(default_factory=configs)
    llm_answers: Path | None = None


def get_solver(name: str) -> Any:
    """The solver backend ``name`` from :mod:`csp_check.solvers`."""

    return lookup(name)


def select_dialogues(
    paths: Sequence[str | Path], domain: str, single_domain: bool = True, advance: Any = None, read: list[int] | None = None
) -> tuple[list[Dialogue], list[Dialogue], list[str]]:
    """``(selected, all dialogues with the domain, errors)``: selected = having ``domain`` (and
    only it, if ``single_domain``), sorted by id. Unreadable dialogues are listed in ``errors``
    (each ``FILE: dialogue ID: FIELD: what``, :class:`~csp_check.errors.InputError`).
    ``advance()`` is called once per input file read (a progress bar's); ``read``, when given,
    gets the number of dialogues read, of any domain, appended."""

    everyone, errors = [], []
    count = 0
    source = None
    for item in load_corpus(list(paths)):
        file = item.file if isinstance(item, InputError) else item.source
        if advance is not None and source is not None and file != source:
            advance()
        source = file
        if isinstance(item, InputError):
            errors.append(str(item))
            continue
        count += 1
        if domain in item.domains:
            everyone.append(item)
    if read is not None:
        read.append(count)
    selected = [d for d in everyone if not single_domain or d.domains == [domain]]
    return sorted(selected, key=lambda d: d.id), everyone, errors


def prepare(
    dialogue: Dialogue, pool: DomainPool, seed: int, max_random: int, families: frozenset[ConstraintId] | None = None
) -> tuple[CSP, DelexicalizedDialogue, DialogueResult]:
    """Sample the dialogue's KB, delexicalize and build its CSP with every constraint; return it
    with only the constraints of ``families`` (default: the paper's, C1–C6), the CSP the
    relexicalizers fill and the solver counts. The coverage (Table 2) is of every constraint, the
    annotation family's (S1) apart: S1 checks the corpus's annotation against its text, not a
    relexicalization, and its values no words name (*unsaid*: ``x ∈ ∅``, for review) would leave
    a CSP no solution by design (docs/experiments.md)."""
    kb, pertinent, extra = sample_kb(dialogue, pool, seed, max_random)
    bare = with_kb_only(dialogue)
    delex = delexicalize(bare)
    built = build_csp(bare, delex, kb, BuildOptions())
    masked = scope_variables(built, CoverageScope.SEARCH)  # the paper's variables: the masks
    result = DialogueResult(
        dialogue_id=dialogue.id, source=dialogue.source, kb_size=pertinent + extra, pertinent=pertinent,
        random=extra, variables=len(masked), implicit=len(built.variables) - len(masked),
        coverage=constraint_coverage(built, CoverageScope.SEARCH),
    )  # fmt: skip
    return restrict(built, CONFIGS["all"] if families is None else families), delex, result


def restrict(csp: CSP, enabled: frozenset[ConstraintId]) -> CSP:
    """``csp`` with only the constraints of the enabled ids (what the builder would build)."""
    return csp.model_copy(update={"constraints": [c for c in csp.constraints if c.id in enabled]})


def score(csp: CSP, assignment: dict[str, Value], solver: Any, time_limit: float) -> Score:
    """GCA verdict (solver-free checker) and exact VCA numerator (solver) of one assignment."""
    found = violations(csp, assignment)
    optimum = solver.most_similar(csp.model_copy(update={"assignment": assignment}), time_limit=time_limit)
    return Score(
        consistent=not found, agreeing=optimum.agreeing, violated=sorted({v.constraint.value for v in found}),
        exact=optimum.status.value != "unknown",
    )  # fmt: skip


def _score_one(args: tuple) -> tuple[int, dict[str, dict[str, Score]], int | None, bool, str | None, str | None]:
    """Count one dialogue's solutions and score each of its assignments under every configuration:
    ``(index, scores, solutions, capped, group, error)``. A dialogue whose scoring fails (a broken
    CSP, a solver error) gives ``error`` (``Type: message``) and no scores: it never sinks the run."""
    index, csp, assignments, configs, solver_name, cap, time_limit = args
    try:
        solver = get_solver(solver_name)
        count = solver.count_solutions(csp, cap=cap, time_limit=time_limit)
        scores = {
            name: {cfg: score(restrict(csp, enabled), assignment, solver, time_limit) for cfg, enabled in configs.items()}
            for name, assignment in assignments.items()
        }
    except Exception as err:  # one broken dialogue never sinks the run: its row says why
        return index, {}, None, False, None, _failure(err)
    group = count.group.value if count.group is not None else None
    solutions = count.count if count.status.value != "unknown" or count.capped else None
    return index, scores, solutions, count.capped, group, None


def _failure(err: BaseException) -> str:
    """An error row's text: ``Type: message`` on one line."""
    return f"{type(err).__name__}: {' '.join(str(err).split())}"


def run_experiment(config: ExperimentConfig, log: Any = print) -> ExperimentResult:
    """Run the experiment (module doc) and return its per-dialogue results."""

    start = time.perf_counter()
    stage = config.progress or _silent
    if config.progress is not None:
        files = len(input_files(list(config.paths)))
    with stage("reading", files if config.progress is not None else 0, "files") as bar:
        read: list[int] = []
        selected, everyone, errors = select_dialogues(config.paths, config.domain, config.single_domain, bar.advance, read)
        bar.advance()
    for err in errors:  # validate's line: the rest is still measured
        log(error_line(err))
    if config.kb is not None and config.domain in config.kb.tables:
        pool = DomainPool.of_table(config.kb.tables[config.domain], everyone)
    else:
        pool = DomainPool.of(everyone, config.domain, transactional_methods(everyone))
    if config.limit is not None:
        selected = selected[: config.limit]
    if read[0] or not errors:  # nothing read at all: the command says so, in one line
        log(f"{len(selected)} {config.domain} dialogues; pool of {len(pool.entities)} instances")
    names = list(config.relexicalizers) + (["llm"] if config.llm is not None and "llm" not in config.relexicalizers else [])
    result = ExperimentResult(
        domain=config.domain, seed=config.seed, solver=config.solver, relexicalizers=names,
        configs=list(config.configs), pool_size=len(pool.entities), unreadable=len(errors), read=read[0],
    )  # fmt: skip
    items: list[tuple[CSP, DelexicalizedDialogue]] = []
    checked = frozenset().union(*config.configs.values())  # the families any configuration checks
    with stage("building CSPs", len(selected), "dialogues") as bar:
        for dialogue in selected:
            bar.advance()
            try:
                csp, delex, row = prepare(dialogue, pool, config.seed, config.max_random, checked)
            except Exception as err:  # one bad dialogue never sinks the run
                broken = DialogueResult(dialogue_id=dialogue.id, source=dialogue.source, error=_failure(err))
                result.dialogues.append(broken)
                log(error_line(f"{broken.source}: dialogue {broken.dialogue_id}: internal error: {broken.error} "
                               "(left out of the tables)"))  # fmt: skip
                continue
            items.append((csp, delex))
            result.dialogues.append(row)
    rows = [r for r in result.dialogues if r.error is None]
    llm = None
    for name in names:
        if name == "llm":
            llm = get_relexicalizer("llm", settings=config.llm, progress=config.llm_progress)
            with ExitStack() as stack:
                out = None
                if config.llm_answers is not None:
                    config.llm_answers.parent.mkdir(parents=True, exist_ok=True)
                    out = stack.enter_context(open(config.llm_answers, "w", encoding="utf-8"))
                llm.on_result = partial(_llm_result, out, log, {r.dialogue_id: r.source for r in rows})  # type: ignore[attr-defined]
                assignments = relexicalize_many(llm, items, random.Random(f"{config.seed}:llm"))
        else:
            options = {"solver": config.solver, "time_limit": config.time_limit} if name == "csp" else {}
            relex = get_relexicalizer(name, **options)
            with stage(f"relexicalizing ({name})", len(items), "dialogues") as bar:
                assignments = []
                for (csp, delex), row in zip(items, rows):
                    if row.error is not None:  # failed with an earlier relexicalizer
                        assignments.append({})
                        bar.advance()
                        continue
                    try:
                        assignments.append(relex.relexicalize(csp, delex, random.Random(f"{config.seed}:{csp.dialogue_id}:{name}")))
                    except Exception as err:  # this dialogue's row becomes an error row; the others go on
                        assignments.append({})
                        _fail_row(row, f"relexicalizing ({name}): {_failure(err)}", log)
                    bar.advance()
        for row, assignment in zip(rows, assignments):
            row.assignments[name] = assignment
    if llm is not None:
        for row in rows:
            report = llm.reports.get(row.dialogue_id)
            row.alignment = report.model_dump() if report is not None else None
        failed = [r for r in llm.reports.values() if r.error]
        result.llm_failures = len(failed)
        result.llm_requests = sum(1 for r in llm.reports.values() if r.masks or r.error)
        result.llm_unreachable = llm.unreachable  # type: ignore[attr-defined]
        if result.llm_unreachable is None:  # an unreachable server is one line, the command's
            log(f"LLM: {llm.client.requests} HTTP requests, {llm.client.cache_hits} cached answers")  # type: ignore[attr-defined]
        if failed and len(failed) == result.llm_requests:  # nothing measured: no row, and say why
            result.llm_left_out = (f"every one of the {len(failed)} LLM requests failed ({failed[0].dialogue_id}: "
                                   f"{failed[0].error}): the LLM was not measured")  # fmt: skip
            if result.llm_unreachable is not None:
                result.llm_left_out = f"the LLM server is unreachable ({result.llm_unreachable}): the LLM was not measured"
            result.relexicalizers = [n for n in result.relexicalizers if n != "llm"]
            for row in rows:
                row.assignments.pop("llm", None)
            if result.llm_unreachable is None:
                log(f"LLM: {result.llm_left_out}; its row is left out of the tables")
        elif failed:
            log(f"LLM: {len(failed)} of {result.llm_requests} dialogues got no answer "
                f"({failed[0].dialogue_id}: {failed[0].error}); their masks count as wrong")  # fmt: skip
    tasks = [
        (i, csp, rows[i].assignments, config.configs, config.solver, config.cap, config.time_limit)
        for i, (csp, _) in enumerate(items)
        if rows[i].error is None
    ]
    scored = _map(_score_one, tasks, config.jobs)
    if config.engine == "ray":
        scored = ordered_map(_score_one, tasks, jobs=config.jobs, address=config.ray_address, chunk_size=4)
    with stage("scoring", len(tasks), "dialogues") as bar:
        for i, scores, solutions, capped, group, error in scored:
            rows[i].scores, rows[i].solutions, rows[i].capped, rows[i].group = scores, solutions, capped, group
            if error is not None:
                _fail_row(rows[i], f"scoring: {error}", log)
            bar.advance()
    result.seconds = time.perf_counter() - start
    return result


def _llm_result(out: Any, log: Any, sources: dict[str, str], csp: CSP, report: Any, answer: str | None,
                unreachable: bool) -> None:  # fmt: skip
    """One dialogue's LLM answer, as it arrives: a line of ``llm_answers.jsonl`` (flushed: a
    stopped run keeps it) and, when it failed, one line naming the dialogue (not when the server
    is unreachable: the command says that once)."""
    if report.error and not unreachable:
        log(f"{sources.get(csp.dialogue_id, '?')}: dialogue {csp.dialogue_id}: LLM: {report.error} (its masks count as wrong)")
    if out is not None:
        out.write(json.dumps({"dialogue_id": csp.dialogue_id, "source": sources.get(csp.dialogue_id), "answer": answer,
                              "alignment": report.model_dump()}, ensure_ascii=False) + "\n")  # fmt: skip
        out.flush()


def _fail_row(row: DialogueResult, error: str, log: Any) -> None:
    """Make ``row`` an error row (left out of the tables, kept in ``results.jsonl``) and say so."""
    row.error = error
    log(error_line(f"{row.source}: dialogue {row.dialogue_id}: internal error: {error} (left out of the tables)"))


def _map(fn: Any, tasks: list[tuple], jobs: int) -> Iterable[Any]:
    if jobs <= 1 or len(tasks) < 2:
        yield from map(fn, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:  # results as they come (progress), in order
        yield from pool.map(fn, tasks, chunksize=max(1, len(tasks) // (jobs * 4)))


class _silent:
    """The stage context of a run without progress: ``advance`` does nothing."""

    def __init__(self, *args: Any) -> None:
        pass

    def __enter__(self) -> _silent:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass
