"""Scale: the solver-free most similar solution, sharded reading (byte windows of large JSON
files, per-file shards), and identical reports across serial, ``--jobs 2`` and Ray."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from csp_check.check import violations
from csp_check.models import CSP
from csp_check.solvers import get_solver, own_optimum, solve_report

from test_solvers import SETTINGS, csps

SHARED = Path(__file__).resolve().parents[2] / "shared"
SGD_DEV = SHARED / "data" / "sgd" / "dev"
needs_sgd = pytest.mark.skipif(not SGD_DEV.is_dir(), reason="../shared/data/sgd is not beside the repo")


# -- the most similar solution without a solver ------------------------------------------------


@settings(max_examples=150, **SETTINGS)
@given(csps())
def test_own_optimum_is_what_the_solver_proves(csp: CSP) -> None:
    """Whenever the shortcut answers, CP-SAT's optimisation gives the same optimum and solution;
    it answers for every CSP whose own assignment is a solution in the solver's domains."""
    mine = own_optimum(csp)
    best = get_solver("cp-sat").most_similar(csp)
    if mine is None:
        assert violations(csp) or best.agreement < best.variables or best.solution != csp.assignment
        return
    assert not violations(csp)
    assert (mine.status, mine.agreement, mine.agreeing, mine.variables, mine.solution) == (
        best.status, best.agreement, best.agreeing, best.variables, best.solution
    )  # fmt: skip


@settings(max_examples=60, **SETTINGS)
@given(csps())
def test_solve_report_same_with_and_without_shortcut(csp: CSP) -> None:
    import csp_check.solvers as solvers

    fast = solve_report(csp, vca=True, repair=True)
    saved = solvers.own_optimum
    solvers.own_optimum = lambda *a, **k: None
    try:
        slow = solve_report(csp, vca=True, repair=True)
    finally:
        solvers.own_optimum = saved
    fast.pop("solve_seconds"), slow.pop("solve_seconds")
    assert fast == slow
