"""``--engine`` / ``--ray-address``: where a command's per-item work runs (shared by
``validate``, ``calls`` and ``experiment``).

- ``local`` (default): this machine, ``--jobs`` worker processes (1: in this process);
- ``ray``: Ray tasks (extra ``csp-check[ray]``), on a local Ray started on demand with
  ``--jobs`` CPUs, or on the running cluster at ``--ray-address`` (``auto`` on a node of it,
  ``ray://HEAD:10001`` from outside). See :mod:`csp_check.run.ray_engine`.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from csp_check.install import pip_extra

#: The engines ``--engine`` accepts.
ENGINES = ("local", "ray")


def engine_options(f: Callable) -> Callable:
    """Add ``--engine`` and ``--ray-address`` to a click command (parameters ``engine``, ``ray_address``)."""
    f = click.option("--ray-address", "ray_address", default=None, metavar="ADDRESS",
                     help="With --engine ray: the cluster to use (auto, or ray://HEAD:10001); "
                          "default: start a local Ray with --jobs CPUs.")(f)  # fmt: skip
    return click.option("--engine", type=click.Choice(ENGINES), default="local", show_default=True,
                        help="Where checking runs: local worker processes (--jobs), or Ray tasks "
                             f"({pip_extra('ray')}; --ray-address for a cluster).")(f)  # fmt: skip


def check_engine(engine: str, ray_address: str | None) -> None:
    """Raise :class:`click.UsageError` when ``--ray-address`` is given without ``--engine ray``
    or Ray is not installed for ``--engine ray``."""
    if ray_address and engine != "ray":
        raise click.UsageError("--ray-address needs --engine ray")
    if engine == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise click.UsageError(f"--engine ray needs Ray: {pip_extra('ray')}") from None
