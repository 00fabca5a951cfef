"""PNG figures of an experiment, ours beside the paper's (matplotlib, Agg backend; imported
lazily: ``pip install -e ".[plots]"``).

- ``gca_vca.png`` — Table 3: GCA and VCA per relexicalizer, paper's as hatched bars;
- ``coverage.png`` — Table 2: coverage per constraint, ours vs paper;
- ``groups.png`` — Tables 1 and 4: dialogues per solution group and GCA / VCA per group;
- ``ablation.png`` — Table 5: GCA / VCA per constraint configuration.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from csp_check.families import PAPER_GROUPS
from csp_check.families import ids as family_ids
from csp_check.install import pip_extra
from csp_check.score import metrics

from . import paper
from .run import ExperimentResult
from .tables import PAPER_NAMES, completed, gca, vca


def pyplot() -> Any:
    """matplotlib's ``pyplot`` on the Agg backend (no screen); ``RuntimeError`` naming the ``plots``
    extra when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError(f"plots need matplotlib: {pip_extra('plots')}") from err
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _zero(x: float | None) -> float:
    return 0.0 if x is None else x


def _ours_vs_paper(ax: Any, ours: list[float], theirs: list[float]) -> range:
    """Paired bars per category: ours, and the paper's hatched beside it; returns the x positions."""
    xs = range(len(ours))
    ax.bar([x - 0.2 for x in xs], ours, 0.4, label="ours")
    ax.bar([x + 0.2 for x in xs], theirs, 0.4, label="paper", hatch="//", alpha=0.6)
    return xs


def save_figure(plt: Any, fig: Any, path: Path) -> Path:
    """Write ``fig`` to ``path`` as a PNG (120 dpi), close it and return ``path``."""
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_gca_vca(result: ExperimentResult, path: Path) -> Path:
    plt = pyplot()
    rows = completed(result)
    names = result.relexicalizers
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, metric, fn, idx in ((axes[0], "GCA", gca, 0), (axes[1], "VCA", vca, 1)):
        xs = _ours_vs_paper(ax, [_zero(fn(rows, n)) for n in names], [paper.TABLE3.get(n, (0, 0))[idx] for n in names])
        ax.set_xticks(list(xs), [PAPER_NAMES.get(n, n) for n in names], rotation=15)
        ax.set_title(metric)
        ax.set_ylim(0, 1.05)
    axes[0].legend()
    fig.suptitle(f"Table 3 — {result.domain}, {len(rows)} dialogues")
    return save_figure(plt, fig, path)


def plot_coverage(result: ExperimentResult, path: Path) -> Path:
    plt = pyplot()
    rows = completed(result)
    total = sum(r.variables for r in rows)

    ids = [c.value for c in family_ids(PAPER_GROUPS)]
    ours = [metrics.coverage(sum(r.coverage.get(c, 0) for r in rows), total) or 0.0 for c in ids]
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = _ours_vs_paper(ax, ours, [paper.TABLE2.get(c, (None, float("nan")))[1] for c in ids])
    ax.set_xticks(list(xs), ids)
    ax.set_ylabel("share of variables")
    ax.set_ylim(0, 1.05)
    ax.set_title("Table 2 — constraint coverage")
    ax.legend()
    return save_figure(plt, fig, path)


def plot_groups(result: ExperimentResult, path: Path) -> Path:
    plt = pyplot()
    rows = completed(result)
    groups = list(paper.GROUPS)
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    counts = [sum((r.group or "unknown") == g for r in rows) for g in groups]
    xs = _ours_vs_paper(
        axes[0], [c / max(1, len(rows)) for c in counts], [paper.TABLE1[g][0] / paper.TABLE1["all"][0] for g in groups]
    )
    axes[0].set_title("Table 1 — share of dialogues")
    axes[0].legend()
    for ax, metric, fn, idx in ((axes[1], "GCA", gca, 0), (axes[2], "VCA", vca, 1)):
        for name in result.relexicalizers:
            values = [fn([r for r in rows if (r.group or "unknown") == g], name) for g in groups]
            ax.plot(list(xs), [float("nan") if v is None else v for v in values], marker="o", label=PAPER_NAMES.get(name, name))
        ax.plot(list(xs), [paper.TABLE4[g][idx] for g in groups], "k--", marker="x", label="paper LLM")
        ax.set_title(f"Table 4 — {metric} by solution group")
        ax.set_ylim(-0.02, 1.05)
        ax.legend(fontsize=7)
    for ax in axes:
        ax.set_xticks(list(xs), groups)
    return save_figure(plt, fig, path)


def plot_ablation(result: ExperimentResult, path: Path) -> Path:
    plt = pyplot()
    rows = completed(result)
    configs = result.configs
    fig, axes = plt.subplots(1, 2, figsize=(14, 4.5), sharey=True)
    ys = range(len(configs))
    for ax, metric, fn, idx in ((axes[0], "GCA", gca, 0), (axes[1], "VCA", vca, 1)):
        for name in result.relexicalizers:
            ax.plot([_zero(fn(rows, name, c)) for c in configs], list(ys), marker="o", label=PAPER_NAMES.get(name, name))
        ax.plot([paper.TABLE5.get(c, (float("nan"),) * 2)[idx] for c in configs], list(ys), "k--", marker="x", label="paper LLM")
        ax.set_title(f"Table 5 — {metric}")
        ax.set_xlim(-0.02, 1.05)
    axes[0].set_yticks(list(ys), configs)
    axes[1].legend(fontsize=7)
    return save_figure(plt, fig, path)


def write_plots(result: ExperimentResult, out_dir: Path | str) -> list[Path]:
    """Write the four PNGs into ``out_dir``; returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [
        plot_gca_vca(result, out / "gca_vca.png"),
        plot_coverage(result, out / "coverage.png"),
        plot_groups(result, out / "groups.png"),
        plot_ablation(result, out / "ablation.png"),
    ]
