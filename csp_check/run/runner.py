"""Run the pipeline over a corpus: one :class:`~csp_check.models.DialogueReport` per dialogue.

>>> from csp_check import validate, CorpusSummary
>>> summary = CorpusSummary()
>>> for report in validate(["../shared/data/sgd/dev"], jobs=2):
...     summary.add(report)

Guarantees, whatever the input:

- Reports come in input order (also with ``jobs > 1``), one per dialogue the readers yield.
- A dialogue that cannot be read gives a report with status ``error`` naming file, dialogue
  and field (``str(InputError)``); a dialogue whose check raises gives an ``error`` report
  ``FILE: dialogue ID: internal error: Type: message``. The run goes on either way.
- Memory does not grow with the corpus: dialogues are streamed. With ``jobs > 1`` (or
  ``engine="ray"``) each worker reads and parses its own shard (:mod:`csp_check.run.shards`: a
  window of at most ``chunk_size`` whole dialogues of an SGD file, or a whole file of a split
  of many small files (SGD's own: ~128 dialogues); inputs of other formats are
  read here and sent in chunks of ``chunk_size``), at most ``2 * jobs`` are in flight, and this
  process holds no SGD dialogue and only the reports of the units in flight; the reports are
  the serial run's, in its order.
- With a ``dialogue_time_limit``, a dialogue whose check runs longer gets an ``unknown``
  report ("dialogue time limit of SEC s reached") instead of holding the run up.
- A dialogue that cannot be sent to a worker (e.g. a lone surrogate in a string) is that
  dialogue's ``error`` report.
- If a worker process dies (a hard crash), the pool is restarted and the shards in flight are
  checked again one dialogue per worker: the dialogue that kills its worker gets an ``error``
  report and the run goes on (with ``--resume``'s ``skip``, dialogues are sent in chunks and
  the chunks in flight get ``error`` reports). If the workers cannot start at all (e.g.
  ``__main__`` is not importable by them), the run falls back to checking in this process.
  On Ray, a failed task is retried (:mod:`csp_check.run.ray_engine`).
"""

from __future__ import annotations

import multiprocessing
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from csp_check.build.builder import BuildOptions
from csp_check.errors import DialogueTimeout, InputError, UsageError
from csp_check.families.selection import dialogue_constraints
from csp_check.models import ALL_CONSTRAINTS, ConstraintId, Dialogue, DialogueReport, KnowledgeBase, Status
from csp_check.output.report_file import canonical_source
from csp_check.pipeline import check_dialogue, dialogue_csp, error_report, load_corpus, report_for, with_annotations
from csp_check.readers import FORMATS
from csp_check.readers.kinds import load_kb_option
from csp_check.run.engines import ENGINES
from csp_check.run.interrupts import dialogue_deadline, worker_ignores_sigint
from csp_check.run.ray_engine import RayShards
from csp_check.run.shards import Shard, ShardBackend, plan, read_shard
from csp_check.solvers.answers import solve_report
from csp_check.solvers.defaults import DEFAULT_CAP, DEFAULT_SOLVER, DEFAULT_TIME_LIMIT

#: A function checking one dialogue: ``(dialogue, settings) -> DialogueReport``. Must be a
#: module-level function (it is pickled to worker processes).
CheckFn = Callable[[Dialogue, "Settings"], DialogueReport]


@dataclass(frozen=True)
class SolverSettings:
    """What to ask a solver about each dialogue (:func:`csp_check.solvers.answers.solve_report`).

    ``name``: a backend name (``cp-sat``, ``minizinc:gecode``, ``minizinc:chuffed``); ``vca``:
    the most similar solution; ``count``: the number of solutions up to ``cap``; ``repair``: a
    minimal set of edits; ``time_limit``: seconds per solver call.
    """

    name: str = DEFAULT_SOLVER
    vca: bool = False
    count: bool = False
    cap: int = DEFAULT_CAP
    repair: bool = False
    time_limit: float = DEFAULT_TIME_LIMIT


@dataclass(frozen=True)
class Settings:
    """Everything a worker needs to check a dialogue; sent once to each worker process."""

    kb: KnowledgeBase | None = None
    constraints: tuple[ConstraintId, ...] = ALL_CONSTRAINTS
    options: BuildOptions | None = None
    solver: SolverSettings | None = None
    check: CheckFn | None = field(default=None, compare=False)
    dialogue_time_limit: float | None = None


def default_check(dialogue: Dialogue, settings: Settings) -> DialogueReport:
    """The solver-free check of :func:`csp_check.pipeline.check_dialogue`; with
    ``settings.solver``, also the solver's answers in ``report.extra["solver"]``."""
    if settings.solver is None:
        return check_dialogue(dialogue, settings.kb, settings.constraints, settings.options)

    dialogue = with_annotations(dialogue, settings.kb)
    csp = dialogue_csp(dialogue, settings.kb, settings.constraints, settings.options)
    report = report_for(csp, dialogue)
    s = settings.solver
    answers = solve_report(
        csp, s.name, vca=s.vca, count=s.count, cap=s.cap, repair=s.repair, time_limit=s.time_limit,
        utterances=[t.utterance for t in dialogue.turns] if s.repair else None,
    )  # fmt: skip
    report.extra["solver"] = answers  # a timeout is said there (reason); the verdict stays the checker's
    return report


def check_one(dialogue: Dialogue, settings: Settings) -> DialogueReport:
    """Check one dialogue; any exception becomes an ``error`` report (never raised), running past
    ``settings.dialogue_time_limit`` an ``unknown`` one. ``KeyboardInterrupt`` passes through."""
    try:
        with dialogue_deadline(settings.dialogue_time_limit) as deadline:
            report = (settings.check or default_check)(dialogue, settings)
        if not deadline.expired:
            return report
        raise DialogueTimeout(settings.dialogue_time_limit)  # the alarm was swallowed on the way
    except DialogueTimeout:
        return DialogueReport(
            dialogue_id=dialogue.id, source=dialogue.source, status=Status.UNKNOWN,
            error=f"{dialogue.source}: dialogue {dialogue.id}: dialogue time limit of {settings.dialogue_time_limit:g} s reached",
            extra={"reason": "dialogue time limit"},
        )  # fmt: skip
    except InputError as err:
        report = error_report(err)
        report.dialogue_id = report.dialogue_id or dialogue.id
        return report
    except Exception as err:
        return internal_error_report(dialogue, f"internal error: {type(err).__name__}: {err}")


def internal_error_report(dialogue: Dialogue, message: str) -> DialogueReport:
    """An ``error`` report for a dialogue that was read but could not be checked."""
    report = error_report(InputError(dialogue.source, message, dialogue=dialogue.id))
    report.extra["error_kind"] = "internal"
    return report


def validate(
    paths: Iterable[str | Path],
    fmt: str = "auto",
    kb: KnowledgeBase | str | Path | None = None,
    constraints: Iterable[ConstraintId | str] = ALL_CONSTRAINTS,
    jobs: int = 1,
    *,
    options: BuildOptions | None = None,
    solver: SolverSettings | None = None,
    chunk_size: int = 32,
    check: CheckFn | None = None,
    dialogue_time_limit: float | None = None,
    skip: Counter[tuple[str, str]] | None = None,
    split: str | None = None,
    engine: str = "local",
    ray_address: str | None = None,
) -> Iterator[DialogueReport]:
    """Check every dialogue of ``paths`` (files or directories); yield their reports in order.

    ``fmt``: ``auto`` or a reader name (:data:`csp_check.readers.FORMATS`). ``kb``: a loaded
    :class:`KnowledgeBase` or the path of a KB file or folder (read with
    :func:`~csp_check.readers.kb.load_kb_option`: an unreadable one is a :class:`UsageError`). ``constraints``:
    the enabled constraint ids. ``jobs``: worker processes (1 = in this process). ``solver``:
    also ask a solver (answers in ``report.extra["solver"]``; the verdict stays the checker's,
    also when a solver operation runs out of time: docs/cli.md, "Time limits").
    ``check`` replaces the per-dialogue check (a module-level function, see :data:`CheckFn`).
    ``dialogue_time_limit``: seconds per dialogue, beyond which it is ``unknown``. ``skip``:
    ``(source, dialogue_id)`` → how many of the items with that key to leave out, as their
    report would name them (``--resume``: the dialogues an earlier run reported already).
    ``split``: one split (train / val / test) of a MultiWOZ release folder or ``data.json``.

    ``engine``: ``local`` (worker processes on this machine) or ``ray`` (Ray tasks on a local
    Ray started on demand with ``jobs`` CPUs, or on the cluster at ``ray_address``; needs the
    extra ``csp-check[ray]``). With ``jobs > 1`` or Ray, workers read and parse their own shard
    of the input (:mod:`csp_check.run.shards`: a window of whole dialogues of an SGD file, or a
    whole file of a split of many; other
    formats are read here and sent in chunks); with ``skip``, local workers get the dialogues read here (the skipped ones are not
    checked), and Ray checks whole shards and leaves the skipped reports out.

    Raises :class:`UsageError` at once (before iterating) for an unknown format, constraint id,
    engine, a ``jobs`` below 1, or Ray not installed. Never raises for bad input: see the
    module docstring.

    With ``jobs > 1`` the workers are started with ``forkserver`` (``spawn`` where there is
    none), so a script calling this must follow multiprocessing's rule and run under
    ``if __name__ == "__main__":``; if the workers cannot start, checking falls back to this
    process (slower, same reports).
    """
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if isinstance(kb, (str, Path)):
        kb = load_kb_option(Path(kb))
    if jobs < 1:
        raise UsageError(f"jobs must be at least 1, not {jobs}")
    enabled = dialogue_constraints(constraints)
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    settings = Settings(kb=kb, constraints=enabled, options=options, solver=solver, check=check,
                        dialogue_time_limit=dialogue_time_limit)  # fmt: skip
    paths = list(paths)
    skip = Counter((canonical_source(source), key) for (source, key), n in (skip or {}).items() for _ in range(n)) or skip
    if engine == "ray":
        backend: ShardBackend = RayShards(settings, jobs, ray_address, check_shard, _unchecked)  # raises UsageError
        reports = _sharded(plan(paths, fmt, split, max_items=chunk_size, jobs=jobs), backend, chunk_size)
        return _skipping_reports(reports, Counter(skip)) if skip else reports
    if jobs > 1 and not skip:
        shards = plan(paths, fmt, split, max_items=chunk_size, jobs=jobs)
        return _sharded(shards, _ProcessShards(settings, jobs, chunk_size), chunk_size)
    items = load_corpus(paths, fmt, kb, split)
    if skip:
        items = _skipping(items, Counter(skip))
    if jobs == 1:
        return check_items(items, settings)
    return _parallel(items, settings, jobs, chunk_size)


#: What a worker checks: a shard it reads itself, or a chunk of items read by the main process
#: (inputs of a format other than SGD: one shard per path would leave the other workers idle).
Unit = Shard | list[Dialogue | InputError]


def _items(unit: Unit, kb: KnowledgeBase | None) -> Iterable[Dialogue | InputError]:
    return read_shard(unit, kb) if isinstance(unit, Shard) else unit


def check_shard(unit: Unit, settings: Settings) -> tuple[list[DialogueReport], BaseException | None]:
    """Read one shard (or take a chunk of items read already) and check its dialogues: the
    reports in order, and the exception a reader raised (a reader bug: the run stops there, as
    a serial run would), if any."""
    reports: list[DialogueReport] = []
    try:
        for item in _items(unit, settings.kb):
            reports.append(error_report(item) if isinstance(item, InputError) else check_one(item, settings))
    except Exception as err:
        return reports, err
    return reports, None


def _sharded(shards: Iterator[Shard], backend: ShardBackend, chunk_size: int = 32) -> Iterator[DialogueReport]:
    """Reports of every shard in plan order, with at most ``backend.in_flight`` units out: an
    SGD shard goes out as it is (the worker reads it); any other is read here and goes out in
    chunks of ``chunk_size`` items."""
    pending: deque[object] = deque()
    finished = False
    try:
        for unit in _units(shards, backend.settings.kb, chunk_size):
            pending.append(backend.submit(unit))
            if len(pending) >= backend.in_flight:
                yield from backend.collect(pending.popleft())
        while pending:
            yield from backend.collect(pending.popleft())
        finished = True
    finally:
        backend.close(finished)


def _units(shards: Iterator[Shard], kb: KnowledgeBase | None, chunk_size: int) -> Iterator[Unit]:
    for shard in shards:
        if shard.reader == "*":
            yield from _chunks(read_shard(shard, kb), chunk_size)
        else:
            yield shard


def _check_shard_in_worker(shard: Shard) -> tuple[list[DialogueReport], BaseException | None]:
    assert _settings is not None, "worker not initialised"
    return check_shard(shard, _settings)


def _started() -> bool:
    return True


class _ProcessShards(ShardBackend):
    """Shards on a local process pool (``jobs`` workers).

    A pool that breaks while its workers had started lost a worker to a dialogue: the shards it
    had in flight are checked again one dialogue per worker, so that only a dialogue that kills
    its worker gets an ``error`` report.
    A pool whose workers never started (e.g. an unimportable ``__main__``) makes the run go on
    in this process (slower, same reports).
    """

    def __init__(self, settings: Settings, jobs: int, chunk_size: int) -> None:
        self.settings, self.jobs, self.chunk_size = settings, jobs, chunk_size
        self.in_flight = 2 * jobs
        self.in_process = False
        self.generation = 0
        self.ready: dict[int, Future] = {}
        self._start()

    def _start(self) -> None:
        self.pool = _pool(self.settings, self.jobs)
        self.ready[self.generation] = self.pool.submit(_started)  # done once a worker could start

    def submit(self, unit: Unit) -> object:
        if self.in_process:
            return unit, None, self.generation
        try:
            if isinstance(unit, Shard):
                future = self.pool.submit(_check_shard_in_worker, unit)
            else:
                future = self.pool.submit(_check_chunk, _payloads(unit))
        except BrokenProcessPool as err:
            future = Future()
            future.set_exception(err)
        return unit, future, self.generation

    def collect(self, ticket: object) -> Iterator[DialogueReport]:
        unit, future, generation = ticket  # type: ignore[misc]
        if future is None:
            reports, err = check_shard(unit, self.settings)
        else:
            try:
                result = future.result()
                reports, err = result if isinstance(unit, Shard) else (list(_interleave(unit, result)), None)
            except BrokenProcessPool:
                if not self._workers_started(generation):
                    self.in_process = True
                    reports, err = check_shard(unit, self.settings)
                else:
                    self._restart(generation)
                    yield from self._isolated(_items(unit, self.settings.kb))
                    return
            except Exception as error:
                reason = f"internal error in worker: {type(error).__name__}: {error}"
                reports, err = _unchecked(unit, self.settings, reason), None
        yield from reports
        if err is not None:
            raise err

    def _isolated(self, items: Iterable[Dialogue | InputError]) -> Iterator[DialogueReport]:
        """Check the items of a unit that was in flight when a worker died one dialogue at a
        time, each in a worker of its own: only a dialogue that kills its worker gets an
        ``error`` report."""
        pool: ProcessPoolExecutor | None = None
        try:
            for item in items:
                if isinstance(item, InputError):
                    yield error_report(item)
                    continue
                try:
                    payload = _payload(item)
                except Exception as err:
                    yield error_report(InputError(item.source, f"cannot be sent to a worker: {type(err).__name__}: {err}",
                                                  dialogue=item.id))  # fmt: skip
                    continue
                pool = pool or _pool(self.settings, 1)
                try:
                    yield from pool.submit(_check_chunk, [payload]).result()
                except BrokenProcessPool as err:
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = None
                    yield internal_error_report(item, f"worker process died ({err}); dialogue not checked")
        finally:
            if pool is not None:
                pool.shutdown(wait=True)

    def _workers_started(self, generation: int) -> bool:
        try:
            return bool(self.ready[generation].result(timeout=0))
        except Exception:
            return False

    def _restart(self, generation: int) -> None:
        if generation != self.generation:
            return  # that pool was replaced already
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.generation += 1
        self._start()

    def close(self, finished: bool) -> None:
        if finished:
            self.pool.shutdown(wait=True, cancel_futures=True)
        else:
            _terminate(self.pool)


def _unchecked(unit: Unit, settings: Settings, reason: str) -> list[DialogueReport]:
    """The reports of a unit whose check failed as a whole: (read here,) each dialogue an
    internal ``error`` report saying why, read errors as they are."""
    return [error_report(item) if isinstance(item, InputError) else internal_error_report(item, reason)
            for item in _items(unit, settings.kb)]  # fmt: skip


def _payloads(chunk: list[Dialogue | InputError]) -> list[_Payload]:
    """The dialogues of ``chunk`` as worker payloads; a dialogue that cannot be sent becomes
    its :class:`InputError` in ``chunk`` (e.g. a lone surrogate)."""
    payloads = []
    for k, item in enumerate(chunk):
        if isinstance(item, Dialogue):
            try:
                payloads.append(_payload(item))
            except Exception as err:
                chunk[k] = InputError(item.source, f"cannot be sent to a worker: {type(err).__name__}: {err}",
                                      dialogue=item.id)  # fmt: skip
    return payloads


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: cancel what is queued and end the worker processes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=2)


def item_key(item: Dialogue | InputError) -> tuple[str, str]:
    """``(source, dialogue_id)`` of the report an item gives (:func:`csp_check.output.report_file.report_key`)."""
    if isinstance(item, InputError):
        return item.file, item.dialogue or ""
    return item.source, item.id


def _skipping(items: Iterator[Dialogue | InputError], skip: Counter[tuple[str, str]]) -> Iterator[Dialogue | InputError]:
    for item in items:
        source, dialogue_id = item_key(item)
        key = canonical_source(source), dialogue_id
        if skip[key] > 0:
            skip[key] -= 1
            continue
        yield item


def _skipping_reports(reports: Iterator[DialogueReport], skip: Counter[tuple[str, str]]) -> Iterator[DialogueReport]:
    """``reports`` without those ``skip`` counts (by ``(source, dialogue_id)``, as
    :func:`item_key` names the item a report is of): the shards were checked whole."""
    for report in reports:
        key = (canonical_source(report.source), report.dialogue_id)
        if skip[key] > 0:
            skip[key] -= 1
            continue
        yield report


def check_items(items: Iterable[Dialogue | InputError], settings: Settings) -> Iterator[DialogueReport]:
    """One report per item, in order, in this process: an :class:`InputError` becomes its
    ``error`` report, a dialogue is checked by :func:`check_one` (never raises for one dialogue).
    The loop of ``validate(jobs=1)``; the pytest plugin runs it too."""
    for item in items:
        yield error_report(item) if isinstance(item, InputError) else check_one(item, settings)


# --- parallel ------------------------------------------------------------------------------

_settings: Settings | None = None


def _init_worker(settings: Settings) -> None:
    global _settings
    _settings = settings
    worker_ignores_sigint()  # Ctrl-C is the parent's to handle


# Dialogues travel to the workers as JSON: 4x cheaper to make than a pickle of the pydantic
# objects, and cheaper to turn back into a Dialogue (the round trip is exact).
_Payload = tuple[str, str, str]  # (dialogue id, source, Dialogue JSON)


def _payload(dialogue: Dialogue) -> _Payload:
    return dialogue.id, dialogue.source, dialogue.model_dump_json()


def _check_chunk(payloads: list[_Payload]) -> list[DialogueReport]:
    assert _settings is not None, "worker not initialised"
    reports = []
    for dialogue_id, source, data in payloads:
        try:
            dialogue = Dialogue.model_validate_json(data)
        except Exception as err:
            stub = Dialogue.model_construct(id=dialogue_id, source=source, turns=[])
            reports.append(internal_error_report(stub, f"internal error in worker: {type(err).__name__}: {err}"))
            continue
        reports.append(check_one(dialogue, _settings))
    return reports


def _chunks(items: Iterator[Dialogue | InputError], size: int) -> Iterator[list[Dialogue | InputError]]:
    while chunk := list(islice(items, size)):
        yield chunk


def _parallel(
    items: Iterator[Dialogue | InputError], settings: Settings, jobs: int, chunk_size: int
) -> Iterator[DialogueReport]:
    workers = _Workers(settings, jobs)
    pending: deque[_Pending] = deque()
    finished = False
    try:
        for chunk in _chunks(items, chunk_size):
            pending.append(workers.submit(chunk))
            if len(pending) >= 2 * jobs:
                yield from workers.collect(pending.popleft())
        while pending:
            yield from workers.collect(pending.popleft())
        finished = True
    finally:
        for _, future, _ in pending:
            if future is not None:
                future.cancel()
        if finished:
            workers.shutdown()
        else:  # interrupted or abandoned: do not wait for the chunks in flight
            workers.terminate()


# A chunk in flight: its input items (dialogues and read errors, in order), the future of the
# dialogues' reports (None: to be checked in this process) and the pool generation running it.
_Pending = tuple[list[Dialogue | InputError], "Future | None", int]


class _Workers:
    """A process pool that is replaced when a worker dies.

    A pool that breaks after finishing some chunks lost a worker to a dialogue: the chunks it
    had in flight become ``error`` reports and a new pool takes over. A pool that breaks before
    finishing anything could not start its workers (e.g. an unimportable ``__main__``): no
    dialogue is to blame, so the run falls back to checking in this process.
    """

    def __init__(self, settings: Settings, jobs: int) -> None:
        self.settings, self.jobs = settings, jobs
        self.generation = 0
        self.finished = {0: 0}  # generation → chunks finished
        self.in_process = False
        self.pool = _pool(settings, jobs)

    def submit(self, chunk: list[Dialogue | InputError]) -> _Pending:
        if self.in_process:
            return chunk, None, self.generation
        payloads = _payloads(chunk)
        try:
            future = self.pool.submit(_check_chunk, payloads)
        except BrokenProcessPool as err:
            future = Future()
            future.set_exception(err)
        return chunk, future, self.generation

    def collect(self, pending: _Pending) -> Iterator[DialogueReport]:
        """The chunk's reports in input order: read errors in place, checked dialogues between."""
        chunk, future, generation = pending
        if future is None:
            return check_items(chunk, self.settings)
        dialogues = [d for d in chunk if isinstance(d, Dialogue)]
        try:
            reports = future.result()
            self.finished[generation] += 1
        except BrokenProcessPool as err:
            if self.finished[generation] == 0:
                self.in_process = True
                return check_items(chunk, self.settings)
            self._restart(generation)
            reason = f"worker process died ({err}); dialogue not checked"
            reports = [internal_error_report(d, reason) for d in dialogues]
        except Exception as err:
            reason = f"internal error in worker: {type(err).__name__}: {err}"
            reports = [internal_error_report(d, reason) for d in dialogues]
        return _interleave(chunk, reports)

    def _restart(self, generation: int) -> None:
        if generation != self.generation or self.in_process:
            return  # that pool was replaced already
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.generation += 1
        self.finished[self.generation] = 0
        self.pool = _pool(self.settings, self.jobs)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def terminate(self) -> None:
        """Stop at once: cancel what is queued and end the worker processes."""
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=2)


def _interleave(chunk: list[Dialogue | InputError], reports: list[DialogueReport]) -> Iterator[DialogueReport]:
    checked = iter(reports)
    for item in chunk:
        yield error_report(item) if isinstance(item, InputError) else next(checked)


def _pool(settings: Settings, jobs: int) -> ProcessPoolExecutor:
    # forkserver / spawn: never fork a parent that runs threads (the progress bar has one).
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        preload = ["csp_check.run.worker_init", "csp_check.pipeline", "csp_check.run.runner"]
        if settings.solver is not None and settings.solver.name == "cp-sat":  # imported once, not per worker
            preload += ["csp_check.solvers", "ortools.sat.python.cp_model"]
        ctx.set_forkserver_preload(preload)
    return ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker, initargs=(settings,))
