"""The release fault kinds (csp_check.nlsi.release_faults) on the NLSI release's own examples:
faults flagged with their family, true twins never (skipped when ../shared/data/nlsi is absent)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from csp_check.nlsi.calls import parse_calls, without_requests
from csp_check.nlsi.check import Checker
from csp_check.nlsi.models import Example
from csp_check.nlsi.readers import read_examples
from csp_check.nlsi.release_faults import RELEASE_KINDS, make_release, twin
from csp_check.nlsi.schema import load_schema

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "nlsi"
RAW = RELEASE / "old_instructions_dataset.json"
pytestmark = pytest.mark.skipif(not RAW.exists(), reason="shared NLSI release files not present")


def test_release_faults_flagged_and_twins_not():
    checker = Checker(load_schema([RELEASE]), use_annotation=False)
    rng = random.Random(0)
    made = {k: [0, 0] for k in RELEASE_KINDS}
    twins = {k: [0, 0] for k in RELEASE_KINDS}
    for ex in read_examples(RAW):
        assert isinstance(ex, Example)
        ctx = checker.context(ex)
        calls = [without_requests(c) for c in parse_calls(ex.api_calls)[0]]
        if checker.check_calls(ex, calls, ctx).status.value != "consistent":
            continue
        for kind in RELEASE_KINDS:
            fault = make_release(kind, ctx, calls, rng)
            if fault is not None:
                rep = checker.check_calls(ex, fault.calls, ctx)
                made[kind][0] += 1
                made[kind][1] += any(v.family == fault.family for v in rep.violations)
            good = twin(kind, ctx, calls, rng)
            if good is not None:
                twins[kind][0] += 1
                twins[kind][1] += checker.check_calls(ex, good, ctx).status.value != "consistent"
    for kind in RELEASE_KINDS:
        n, k = made[kind]
        if kind == "asked_boolean" and n == 0:  # no user asks about an offer's boolean here: test_nlsi_free_values
            continue
        assert n >= 4 and k / n >= 0.95, (kind, made[kind])
        assert twins[kind][1] == 0, (kind, twins[kind])
    assert twins["free_value_moved"][0] >= 20 and twins["carried_changed"][0] >= 4
