"""Fault injection on real SGD dialogues: every injected fault is flagged by its rule (spec §8)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from csp_check.errors import InputError
from csp_check.faults import EXPECTED, KINDS, MODES, inject, trial
from csp_check.pipeline import check_dialogue, load_corpus

SGD_DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd" / "dev"
pytestmark = pytest.mark.skipif(not SGD_DEV.exists(), reason="../shared/data/sgd is not beside the repo")
PER_FILE = 20  # the first dialogues of each dev file: every service of the split, ~120 dialogues


@pytest.fixture(scope="module")
def gold():
    sample = []
    for path in sorted(SGD_DEV.glob("dialogues_*.json")):
        dialogues = [d for d in load_corpus([path]) if not isinstance(d, InputError)]
        sample += [d for d in dialogues[:PER_FILE] if not check_dialogue(d).violations]
    return sample


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_injected_faults_are_flagged_with_the_right_constraint(gold, kind, mode):
    rng = random.Random(7)
    injected = right = 0
    misses = []
    for dialogue in gold:
        t = trial(dialogue, kind, mode, rng)
        if t is None:
            continue
        injected += 1
        if t.found & EXPECTED[kind]:
            right += 1
        else:
            misses.append((t.fault.dialogue_id, t.fault.turn, t.fault.old_text, t.fault.new_text, t.found))
    assert injected >= 5, f"too few places for a {kind} fault in the sample"
    assert right / injected >= 0.99, misses


def test_text_fault_changes_the_text_only(gold):
    rng = random.Random(1)
    for dialogue in gold:
        result = inject(dialogue, "coreference", "text", rng)
        if result is None:
            continue
        faulty, fault = result
        before, after = dialogue.turns[fault.turn], faulty.turns[fault.turn]
        assert after.utterance != before.utterance
        assert fault.new_text in after.utterance
        assert [(a.value, a.canonical) for a in after.acts] == [(a.value, a.canonical) for a in before.acts]
        assert after.state == before.state
        for act in after.acts:  # every span still lies inside the changed utterance
            if act.span is not None:
                assert act.span.end <= len(after.utterance)
        return
    pytest.fail("no dialogue took a coreference fault")


def test_annotated_fault_changes_the_act_too(gold):
    rng = random.Random(2)
    faulty, fault = next(r for d in gold if (r := inject(d, "kb_swap", "annotated", rng)) is not None)
    turn = faulty.turns[fault.turn]
    assert any(a.value == fault.new_text for a in turn.acts)
