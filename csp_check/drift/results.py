"""The figures of a drift run: stability per probed round, per prompt, per category and overall
(paper §3, Figure 3), and their files ``drift.json`` and ``drift.csv``.

- A prompt's ``runs`` is R lists of N scores f_B(b'_i) ∈ [0, 1]; its ``stability`` the mean per
  round over its runs.
- A category's curve (:class:`Curve`) is the mean per round over every (prompt, run) of the
  category, with a 95 % normal confidence band ``mean ± 1.96 · sd / √n`` (sd the sample standard
  deviation; the band is the mean itself when n = 1), clipped to [0, 1]: the shaded bands of
  Figure 3.
- ``mean`` is the mean per round of the prompts' stability (each prompt weighs the same).
- A corpus curve (:mod:`csp_check.drift.depth`) joins them as a :class:`Curve` under ``corpus``:
  the share of turns without a certain violation per round of depth, so generated data and
  self-chats share one plot.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from csp_check.drift.selfchat import RunRecord
from csp_check.drift.suite import CATEGORIES, SuitePrompt
from csp_check.drift.task_measures import score

Z95 = 1.96


class PromptResult(BaseModel):
    """One suite prompt's stability: ``stability[i]`` the mean over runs at round i + 1,
    ``runs[r][i]`` run r's score there, ``answers[r][i]`` the probe answer scored."""

    id: str
    category: str
    kind: str
    stability: list[float]
    runs: list[list[float]]
    answers: list[list[str]] = Field(default_factory=list)


class Curve(BaseModel):
    """A mean per round with its 95 % band; ``n[i]`` the scores averaged at round i + 1."""

    label: str
    rounds: list[int]
    mean: list[float]
    low: list[float]
    high: list[float]
    n: list[int]


class DriftResult(BaseModel):
    """``drift.json``: the prompts, the overall mean per round, the curves by category, the
    corpus curves (``--corpus``) and the run's configuration."""

    prompts: list[PromptResult] = Field(default_factory=list)
    mean: list[float] = Field(default_factory=list)
    rounds: list[int] = Field(default_factory=list)
    categories: list[Curve] = Field(default_factory=list)
    corpus: list[Curve] = Field(default_factory=list)
    config: dict[str, Any] = Field(default_factory=dict)


def curve(label: str, rounds: list[int], columns: list[list[float]]) -> Curve:
    """The :class:`Curve` of ``columns[i]``, the scores at ``rounds[i]``."""
    means, lows, highs, ns = [], [], [], []
    for values in columns:
        n = len(values)
        mean = sum(values) / n if n else 0.0
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        means.append(round(mean, 6))
        lows.append(round(max(0.0, mean - half), 6))
        highs.append(round(min(1.0, mean + half), 6))
        ns.append(n)
    return Curve(label=label, rounds=rounds, mean=means, low=lows, high=highs, n=ns)


def score_prompt(prompt: SuitePrompt, records: list[RunRecord]) -> PromptResult:
    """Score every probe answer of ``records`` with the prompt's measure."""
    runs = [[score(prompt.kind, answer, prompt.params(), prompt.probe) for answer in r.probe_answers] for r in records]
    rounds = max((len(r) for r in runs), default=0)
    stability = [round(sum(r[i] for r in runs if i < len(r)) / sum(i < len(r) for r in runs), 6) for i in range(rounds)]
    return PromptResult(id=prompt.id, category=prompt.category, kind=prompt.kind, stability=stability, runs=runs,
                        answers=[list(r.probe_answers) for r in records])  # fmt: skip


def summarise(prompts: list[PromptResult], config: dict[str, Any]) -> DriftResult:
    """The overall mean and the per-category curves of scored prompts."""
    rounds = list(range(1, max((len(p.stability) for p in prompts), default=0) + 1))
    mean = [round(sum(p.stability[i] for p in prompts if i < len(p.stability))
                  / max(1, sum(i < len(p.stability) for p in prompts)), 6) for i in range(len(rounds))]  # fmt: skip
    order = [c for c in CATEGORIES if any(p.category == c for p in prompts)]
    order += sorted({p.category for p in prompts} - set(order))
    categories = []
    for name in order:
        runs = [run for p in prompts if p.category == name for run in p.runs]
        categories.append(curve(name, rounds, [[run[i] for run in runs if i < len(run)] for i in range(len(rounds))]))
    return DriftResult(prompts=prompts, mean=mean, rounds=rounds, categories=categories, config=config)


def write_json(result: DriftResult, path: Path) -> Path:
    """``drift.json`` (indented)."""
    path.write_text(json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def write_csv(result: DriftResult, path: Path) -> Path:
    """``drift.csv``: one row per (series, round) — ``series`` is ``prompt`` (``name`` its id),
    ``category``, ``mean`` or ``corpus`` (``name`` its label) — with ``stability``, ``low``,
    ``high`` (the band; empty for prompts and the mean) and ``n``."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["series", "name", "category", "round", "stability", "low", "high", "n"])
        for p in result.prompts:
            for i, value in enumerate(p.stability):
                out.writerow(["prompt", p.id, p.category, i + 1, value, "", "", sum(i < len(r) for r in p.runs)])
        for series, curves in (("category", result.categories), ("corpus", result.corpus)):
            for c in curves:
                for i, r in enumerate(c.rounds):
                    out.writerow([series, c.label, c.label if series == "category" else "", r, c.mean[i], c.low[i], c.high[i], c.n[i]])
        for i, value in enumerate(result.mean):
            out.writerow(["mean", "mean", "", i + 1, value, "", "", len(result.prompts)])
    return path
