"""``--engine ray``: check shards (:mod:`csp_check.run.shards`) as Ray tasks.

On a local Ray started on demand (``jobs`` CPUs, stopped at the end) or on an existing cluster
(``ray_address``, e.g. ``ray://head:10001`` or ``auto`` after ``ray start --head``). Each task
reads and checks one shard where it runs, so the input paths must be readable at the same path
on every node (a shared file system), and csp-check must be installed there. Reports come back
in input order, at most twice the cluster's CPUs shards being in flight; a task that fails (a
worker node lost, a worker process killed) is retried by Ray (``RETRIES`` times), after which
its dialogues get ``error`` reports saying so and the run goes on.
"""

from __future__ import annotations

import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from csp_check.errors import UsageError
from csp_check.install import pip_extra
from csp_check.models import DialogueReport
from csp_check.run.shards import Shard, ShardBackend

#: Times Ray re-runs a shard's task that failed (a system failure or an exception).
RETRIES = 3


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError(f"--engine ray needs Ray: {pip_extra('ray')}") from None
    return ray


class RayShards(ShardBackend):
    """The Ray backend of :func:`csp_check.run.runner.validate` (module docstring): ``check``
    checks one shard where a task runs (:func:`csp_check.run.runner.check_shard`), ``unchecked``
    gives the error reports of a shard whose task failed every retry."""

    def __init__(
        self, settings: Any, jobs: int, address: str | None,
        check: Callable[[Shard, Any], tuple[list[DialogueReport], BaseException | None]],
        unchecked: Callable[[Shard, Any, str], list[DialogueReport]],
    ) -> None:  # fmt: skip
        self.ray, self.started, cpus = _connect(jobs, address)
        ray = self.ray
        self.settings = settings
        self.unchecked = unchecked
        self.in_flight = 2 * cpus
        self.task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=True)(check)
        self.settings_ref = ray.put(settings)
        self.refs: set[Any] = set()

    def submit(self, shard: Shard) -> object:
        ref = self.task.remote(shard, self.settings_ref)
        self.refs.add(ref)
        return shard, ref

    def collect(self, ticket: object) -> Iterator[DialogueReport]:
        shard, ref = ticket  # type: ignore[misc]
        try:
            reports, err = self.ray.get(ref)
        except self.ray.exceptions.RayError as error:
            reason = f"Ray task failed after {RETRIES} retries: {type(error).__name__}: {' '.join(str(error).split())[:300]}"
            reports, err = self.unchecked(shard, self.settings, reason), None
        finally:
            self.refs.discard(ref)
        yield from reports
        if err is not None:
            raise err

    def close(self, finished: bool) -> None:
        if not finished:
            for ref in list(self.refs):
                try:
                    self.ray.cancel(ref, force=True)
                except Exception:
                    pass
        self.refs.clear()
        if self.started:
            self.ray.shutdown()


# -- any ordered map over Ray tasks (``calls``, ``experiment``) --------------------------------

_INITIALISED: dict[tuple, bool] = {}


def _run_chunk(init: Callable[..., None] | None, init_args: tuple, fn: Callable[[Any], Any], chunk: list) -> list:
    """Run ``fn`` over ``chunk`` in a Ray worker, after ``init(*init_args)`` once per worker."""
    if init is not None:
        key = (init.__module__, init.__qualname__, repr(init_args))
        if key not in _INITIALISED:
            init(*init_args)
            _INITIALISED.clear()
            _INITIALISED[key] = True
    return [fn(item) for item in chunk]


def ordered_map(
    fn: Callable[[Any], Any],
    items: Iterable[Any],
    *,
    jobs: int = 2,
    address: str | None = None,
    init: Callable[..., None] | None = None,
    init_args: tuple = (),
    chunk_size: int = 16,
) -> Iterator[Any]:
    """``map(fn, items)`` over Ray tasks of ``chunk_size`` items, yielded in order as they come.

    ``fn`` and ``init`` are module-level functions (Ray pickles them); ``init(*init_args)``
    sets up a worker process once (as a ``multiprocessing`` initializer does). Ray is started
    locally with ``jobs`` CPUs unless it runs already or ``address`` names a cluster; at most
    twice the cluster's CPUs chunks are in flight; a failed task is retried ``RETRIES`` times,
    after which its exception is raised here. Raises :class:`UsageError` without Ray or with an
    unreachable cluster.
    """
    ray, started, cpus = _connect(jobs, address)
    task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=True)(_run_chunk)
    fn_ref, init_ref = ray.put(fn), ray.put(init)
    pending: deque[Any] = deque()
    finished = False
    try:
        it = iter(items)
        while chunk := list(islice(it, chunk_size)):
            pending.append(task.remote(init_ref, init_args, fn_ref, chunk))
            if len(pending) >= 2 * cpus:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
        finished = True
    finally:
        if not finished:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:
                    pass
        if started:
            ray.shutdown()


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``host:port`` or ``ray://host:port`` address (default port 10001
    for ``ray://``, 6379 for a bare host), or ``None`` for ``auto`` / ``local`` (which Ray
    resolves itself)."""
    rest = address.strip()
    client = rest.startswith("ray://")
    if client:
        rest = rest[len("ray://"):]
    elif "://" in rest or rest in ("auto", "local", ""):
        return None
    rest = rest.split("/", 1)[0]
    host, sep, port = rest.rpartition(":")
    if not sep:
        host, port = rest, ("10001" if client else "6379")
    host = host.strip("[]")
    try:
        return host, int(port)
    except ValueError:
        raise UsageError(f"--ray-address {address!r}: the port is not a number") from None


def check_reachable(address: str, timeout: float = 3.0) -> None:
    """Raise :class:`~csp_check.errors.UsageError` ("cannot reach Ray at ...") when nothing
    accepts a TCP connection at the host and port of ``address`` within ``timeout`` seconds,
    before ``ray.init`` would retry for minutes. ``auto`` / ``local`` are not checked here."""

    target = _host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=timeout):
            pass
    except OSError as err:
        raise UsageError(f"--engine ray: cannot reach Ray at {address}: {err.strerror or type(err).__name__}") from None


def _connect(jobs: int, address: str | None) -> tuple[Any, bool, int]:
    """(the ``ray`` module, whether this call started Ray, the cluster's CPUs)."""
    ray = _ray()
    started = False
    if address:  # an explicit address nothing answers at is an error, even if Ray is up here
        check_reachable(address)
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False, logging_level="ERROR")
            else:  # workers inherit this process's environment (PYTHONPATH included)
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        except Exception as err:
            raise UsageError(f"--engine ray: cannot start or reach Ray{f' at {address}' if address else ''}: "
                             f"{type(err).__name__}: {' '.join(str(err).split())}") from None  # fmt: skip
        started = True
    cpus = int(ray.cluster_resources().get("CPU", jobs) or jobs)
    return ray, started, max(1, cpus)
