"""``drift.png``: instruction stability per round by category with 95 % confidence bands (the
paper's Figure 3), the corpus curves (consistency by depth, :mod:`csp_check.drift.depth`) drawn
dashed on the same axes. matplotlib on the Agg backend, imported lazily (extra ``plots``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from csp_check.drift.results import DriftResult
from csp_check.install import pip_extra


def pyplot() -> Any:
    """matplotlib's ``pyplot`` on the Agg backend; ``RuntimeError`` naming the extra when it is
    missing. (As :func:`csp_check.experiment.plots.pyplot`, without importing the experiment.)"""
    try:
        import matplotlib
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError(f"plots need matplotlib: {pip_extra('plots')}") from err
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_drift(result: DriftResult, path: Path, title: str = "Instruction stability by round") -> Path:
    """Write the figure of ``result`` to ``path`` (PNG) and return ``path``. Raises
    ``RuntimeError`` naming the ``plots`` extra when matplotlib is missing."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for c in result.categories:
        line = ax.plot(c.rounds, c.mean, marker="o", label=f"{c.label} ({max(c.n, default=0)})")[0]
        ax.fill_between(c.rounds, c.low, c.high, color=line.get_color(), alpha=0.15, linewidth=0)
    if result.mean and len(result.categories) > 1:
        ax.plot(result.rounds, result.mean, color="black", linewidth=2.2, label="mean")
    for c in result.corpus:
        line = ax.plot(c.rounds, c.mean, linestyle="--", marker=".", label=f"corpus: {c.label}")[0]
        ax.fill_between(c.rounds, c.low, c.high, color=line.get_color(), alpha=0.1, linewidth=0)
    rounds = sorted({r for c in [*result.categories, *result.corpus] for r in c.rounds})
    if len(rounds) <= 20:
        ax.set_xticks(rounds)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("round (probe after i - 1 exchanges; corpus: turn pair)")
    ax.set_ylabel("stability / share of turns consistent")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
