"""Twins and faults of the attack's misses (csp_check.faults.offer_twins) on the accepted MultiWOZ
2.1 val dialogues of the work half: each twin states no error and must not be flagged certain;
each fault settles one and must be (benchmarks/twins.py gives the figures on both halves)."""

from __future__ import annotations

import random

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz_val

from csp_check.faults.offer_twins import GENERATORS
from csp_check.models import Status
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb
from csp_check.score.split import half_of

pytestmark = needs_multiwoz_val
#: Pairs per class (the classes have few places: 2 to 13 in the work half).
PAIRS = 3


@pytest.fixture(scope="module")
def accepted():
    """The KB and the accepted work-half val dialogues."""
    kb = load_kb(MULTIWOZ_DB)
    out = [d for d in load_corpus([MULTIWOZ_VAL], kb=kb)
           if not isinstance(d, Exception) and half_of(d.id) == "work" and check_dialogue(d, kb).status is Status.CONSISTENT]
    return kb, out


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_offer_twin_not_certain_fault_certain(accepted, name):
    kb, dialogues = accepted
    rng = random.Random(f"test-{name}")
    pairs = []
    for d in dialogues:
        if (pair := GENERATORS[name](d, kb, rng)) is not None:
            pairs.append((d.id, pair))
        if len(pairs) == PAIRS:
            break
    assert pairs, f"no place for {name} in the work half"
    for dialogue_id, (fault, twin) in pairs:
        assert fault.turns != twin.turns
        assert check_dialogue(fault, kb).status is Status.INCONSISTENT, (name, dialogue_id, "fault not certain")
        assert check_dialogue(twin, kb).status is not Status.INCONSISTENT, (name, dialogue_id, "twin certain")
