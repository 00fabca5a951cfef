"""csp_check.score.metrics: GCA, VCA and the two coverage scopes (docs/metrics.md), on real examples."""

from __future__ import annotations

from pathlib import Path

from csp_check.models import Dialogue
from csp_check.pipeline import dialogue_csp, load_corpus, report_for
from csp_check.score import metrics
from csp_check.score.corpus import CorpusSummary
from csp_check.score.metrics import CoverageScope, constraint_coverage, scope_variables


def test_ratios_are_none_without_a_denominator() -> None:
    assert metrics.gca(3, 4) == 0.75 and metrics.vca(11, 12) == 11 / 12 and metrics.coverage(1, 8) == 0.125
    assert metrics.gca(0, 0) is None and metrics.vca(0, 0) is None and metrics.coverage(0, 0) is None


def test_the_two_coverage_scopes_on_sgd_dialogues(sgd_dev: Path) -> None:
    """SGD has implicit variables (service-call arguments, results): the scopes differ there."""
    dialogues = [d for d in load_corpus([sgd_dev / "dialogues_001.json"]) if isinstance(d, Dialogue)][:40]
    assert dialogues
    summary = CorpusSummary()
    narrower = 0
    for dialogue in dialogues:
        csp = dialogue_csp(dialogue)
        report = report_for(csp, dialogue)
        summary.add(report)
        every, search = constraint_coverage(csp), constraint_coverage(csp, CoverageScope.SEARCH)
        assert every == report.coverage  # validate's reports count every variable
        assert every.keys() == search.keys() and all(search[c] <= every[c] for c in every)
        assert scope_variables(csp, CoverageScope.SEARCH) == {v.name for v in csp.variables if v.span is not None}
        narrower += search != every
    assert narrower, "SGD dialogues hold implicit variables under some constraint"
    for row in summary.coverage_table():
        assert row.coverage == metrics.coverage(summary.coverage.get(row.constraint, 0), summary.variables)
    assert summary.gca == metrics.gca(summary.consistent, summary.checked)
