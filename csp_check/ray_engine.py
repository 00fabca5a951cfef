"""``--engine ray``: check shards (:mod:`csp_check.shards`) as Ray tasks.

On a local Ray started on demand (``jobs`` CPUs, stopped at the end) or on an existing cluster
(``ray_address``, e.g. ``ray://head:10001`` or ``auto`` after ``ray start --head``). Each task
reads and checks one shard where it runs, so the input paths must be readable at the same path
on every node (a shared file system), and csp-check must be installed there. Reports come back
in input order, at most twice the cluster's CPUs shards being in flight; a task that fails (a
worker node lost, a worker process killed) is retried by Ray (``RETRIES`` times), after which
its dialogues get ``error`` reports saying so and the run goes on.
"""

from __future__ import annotations

from typing import Any, Iterator

from csp_check.errors import UsageError
from csp_check.models import DialogueReport
from csp_check.runner import Settings, _ShardBackend, _unchecked, check_shard
from csp_check.shards import Shard

#: Times Ray re-runs a shard's task that failed (a system failure or an exception).
RETRIES = 3


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError("--engine ray needs Ray: pip install 'csp-check[ray]'") from None
    return ray


class RayShards(_ShardBackend):
    """The Ray backend of :func:`csp_check.runner.validate` (module docstring)."""

    def __init__(self, settings: Settings, jobs: int, address: str | None = None, chunk_size: int = 32) -> None:
        ray = _ray()
        self.ray = ray
        self.settings = settings
        self.started = False
        if not ray.is_initialized():
            try:
                if address:
                    ray.init(address=address, log_to_driver=False, logging_level="ERROR")
                else:  # workers inherit this process's environment (PYTHONPATH included)
                    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            except Exception as err:  # noqa: BLE001 - no cluster there, a bad address: one line
                raise UsageError(f"--engine ray: cannot start or reach Ray{f' at {address}' if address else ''}: "
                                 f"{type(err).__name__}: {' '.join(str(err).split())}") from None  # fmt: skip
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", jobs) or jobs)
        self.in_flight = 2 * max(1, cpus)
        self.task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=True)(check_shard)
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
            reports, err = _unchecked(shard, self.settings, reason), None
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
                except Exception:  # noqa: BLE001 - finished already
                    pass
        self.refs.clear()
        if self.started:
            self.ray.shutdown()
