"""Consistency by depth of a corpus already generated (issue 23): the share of turns with a
certain violation at each depth, drawn as the self-chats' stability is, so generated data and
self-chats share one plot (``csp-check drift --corpus PATH [--kb KB]``).

The corpus is checked as ``validate`` checks it (:func:`csp_check.run.runner.validate`, solver-free)
and folded into a :class:`~csp_check.score.corpus.CorpusSummary`, whose violations by turn index
(:meth:`~csp_check.score.corpus.CorpusSummary.by_turn`) are grouped by **round** — turns 2r − 2
and 2r − 1, a user turn and the system's answer, as one self-chat round — for :func:`depth_curve`:
at round r, ``1 − violated turns / turns`` with a 95 % normal (Wald) band
``p ± 1.96 · √(p(1 − p) / n)`` over the n turns of that round.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path

from csp_check.drift.results import Z95, Curve
from csp_check.models import ALL_CONSTRAINTS, ConstraintId, KnowledgeBase
from csp_check.run.runner import validate
from csp_check.score.corpus import CorpusSummary


def corpus_summary(
    paths: Iterable[Path], fmt: str = "auto", kb: KnowledgeBase | None = None,
    constraints: Iterable[ConstraintId | str] = ALL_CONSTRAINTS, jobs: int = 1, limit: int | None = None,
    advance: Callable[[], None] = lambda: None,
) -> CorpusSummary:  # fmt: skip
    """The summary of checking (at most ``limit`` dialogues of) ``paths``, as ``validate`` does."""
    enabled = [ConstraintId(c).value for c in constraints]
    summary = CorpusSummary(constraints=enabled)
    reports = validate(list(paths), fmt, kb, enabled, jobs)
    try:
        for report in islice(reports, limit):
            summary.add(report)
            advance()
    finally:
        close = getattr(reports, "close", None)
        if close is not None:
            close()
    return summary


def depth_curve(summary: CorpusSummary, label: str, max_rounds: int | None = None) -> Curve:
    """Round r ↦ the share of turns 2r − 2, 2r − 1 without a certain violation surfacing there
    (module docstring), for every round some dialogue reaches (at most ``max_rounds``)."""
    rows = summary.by_turn()
    rounds = (len(rows) + 1) // 2 if max_rounds is None else min(max_rounds, (len(rows) + 1) // 2)
    means, lows, highs, ns = [], [], [], []
    for r in range(1, rounds + 1):
        pair = rows[2 * r - 2 : 2 * r]
        n = sum(row.dialogues for row in pair)
        p = 1.0 - sum(row.violated for row in pair) / n if n else 1.0
        half = Z95 * math.sqrt(p * (1 - p) / n) if n else 0.0
        means.append(round(p, 6))
        lows.append(round(max(0.0, p - half), 6))
        highs.append(round(min(1.0, p + half), 6))
        ns.append(n)
    return Curve(label=label, rounds=list(range(1, rounds + 1)), mean=means, low=lows, high=highs, n=ns)
