"""Fault injection on real SGD dialogues: every injected fault is flagged, by its rule (spec §8, §9).

Faults are made in each dialogue's SGD JSON (text-only: the utterance and the span offsets;
text+annotation: the act values too) and read back by the SGD reader, as a generator's output
would be. Bars per kind x mode on the dev split: >= 99 % flagged, >= 95 % by an expected rule.
"""

from __future__ import annotations

import json
import random

import pytest
from support.data import SGD_DEV

from csp_check.errors import InputError
from csp_check.faults.dates import reworded_date_choices
from csp_check.faults.inject import inject, trial
from csp_check.faults.model import MODES
from csp_check.faults.registry import EXPECTED, KINDS, REGISTRY, TEXT_ONLY
from csp_check.faults.rewrite import rewrite_sgd
from csp_check.faults.words import TRUE_BOUNDS
from csp_check.pipeline import check_dialogue, load_corpus

pytestmark = pytest.mark.skipif(not SGD_DEV.exists(), reason="../shared/data/sgd is not beside the repo")


@pytest.fixture(scope="module")
def gold():
    """(dialogue, its SGD JSON) for every dev dialogue the checker accepts."""
    sample = []
    for path in sorted(SGD_DEV.glob("dialogues_*.json")):
        raws = {d["dialogue_id"]: d for d in json.loads(path.read_text(encoding="utf-8"))}
        dialogues = [d for d in load_corpus([path]) if not isinstance(d, InputError)]
        sample += [(d, raws[d.id]) for d in dialogues if not check_dialogue(d).violations]
    return sample


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_injected_faults_are_flagged_with_the_right_constraint(gold, kind, mode):
    if mode != "text" and kind in TEXT_ONLY:
        pytest.skip(f"{kind} is a text-only fault")
    rng = random.Random(7)
    injected = flagged = right = 0
    misses = []
    for dialogue, raw in gold:
        t = trial(dialogue, kind, mode, rng, raw=raw)
        if t is None:
            continue
        injected += 1
        flagged += t.flagged
        if t.found & EXPECTED[kind]:
            right += 1
        else:
            misses.append((t.fault.dialogue_id, t.fault.turn, t.fault.old_text, t.fault.new_text, t.found))
    assert injected >= 5, f"too few places for a {kind} fault in the sample"
    assert flagged / injected >= 0.99, misses
    assert right / injected >= 0.95, misses


def test_text_fault_changes_the_text_only(gold):
    rng = random.Random(1)
    for dialogue, raw in gold:
        result = inject(dialogue, "amount", "text", rng, raw=raw)
        if result is None:
            continue
        faulty, fault = result
        before, after = dialogue.turns[fault.turn], faulty.turns[fault.turn]
        assert after.utterance != before.utterance
        assert fault.new_text in after.utterance
        assert [(a.value, a.canonical) for a in after.acts] == [(a.value, a.canonical) for a in before.acts]
        assert after.state == before.state
        count = next(a for a in after.acts if a.role.value == "count")
        assert count.span is None  # SGD gives a count no span; the fault does not add one
        for act in after.acts:  # every span still lies inside the changed utterance
            if act.span is not None:
                assert act.span.end <= len(after.utterance)
        return
    pytest.fail("no dialogue took an amount fault")


def test_annotated_fault_changes_the_act_too(gold):
    rng = random.Random(2)
    faulty, fault = next(r for d, raw in gold if (r := inject(d, "listed_unknown", "annotated", rng, raw=raw)) is not None)
    turn = faulty.turns[fault.turn]
    assert fault.new_text in turn.utterance
    assert any(a.value == fault.new_text and a.canonical == fault.new_text for a in turn.acts)


def test_faults_without_the_json_edit_the_dialogue_alike(gold):
    """The same fault made on the read :class:`Dialogue` (other corpora) is caught the same way."""
    caught = total = 0
    for dialogue, _ in gold:
        t = trial(dialogue, "duplicate", "text", random.Random(3))
        if t is not None:
            total += 1
            caught += bool(t.found & EXPECTED["duplicate"])
    assert total >= 5 and caught == total


def test_true_bounds_are_not_flagged(gold):
    """A count the KB confirms, said as a bound that still holds ("10" → "at least 10", "up to
    10"), reads as that bound (``Variable.amount_op``), not as a changed exact count."""
    from csp_check.build.builder import build_csp
    from csp_check.delexicalize.delexicalizer import delexicalize
    from csp_check.readers.sgd import from_raw

    tried = 0
    flagged = []
    for n, (dialogue, raw) in enumerate(gold):
        csp = build_csp(dialogue, delexicalize(dialogue), None)
        by_name = {v.name: v for v in csp.variables}
        counts = [by_name[c.count_variable] for c in csp.constraints if c.id.value == "C6" and c.count_variable]
        counts = [v for v in counts if v.span is not None and v.amount_op == "="]
        if not counts:
            continue
        var = counts[0]
        words = TRUE_BOUNDS[n % len(TRUE_BOUNDS)]
        faulty = from_raw(rewrite_sgd(raw, var, f"{words} {var.text}", "", None), dialogue.ontology,
                          dialogue.source, dialogue.slot_descriptions)
        read = [v for v in delexicalize(faulty).variables if v.turn == var.turn and v.kind.value == "amount"]
        assert any(v.amount_op != "=" for v in read), (dialogue.id, words)
        tried += 1
        if check_dialogue(faulty).violations:
            flagged.append((dialogue.id, var.turn, words))
    assert tried >= 50
    assert len(flagged) / tried <= 0.01, flagged


def test_a_date_said_in_other_words_is_the_same_date(gold):
    """"March 9th" said "the 9th of March" (``faults.dates.reword_date`` with the same day) is no fault:
    the reworded dates of the dev dialogues the checker accepts stay accepted."""
    from csp_check.pipeline import dialogue_csp
    from csp_check.readers.sgd import from_raw

    tried, flagged = 0, []
    for dialogue, raw in gold:
        choices = reworded_date_choices(dialogue_csp(dialogue), None, dialogue, shift=0)
        if not choices:
            continue
        var, text, _ = choices[0]
        faulty = from_raw(rewrite_sgd(raw, var, text, "", None), dialogue.ontology, dialogue.source,
                          dialogue.slot_descriptions)
        tried += 1
        if check_dialogue(faulty).violations:
            flagged.append((dialogue.id, var.turn, text))
    assert tried >= 50
    assert len(flagged) / tried <= 0.01, flagged


def test_the_registry_lists_every_kind_once_in_order():
    """The table of kinds (``faults.registry``) names each ``FaultKind`` once, in the order of
    ``KINDS`` (the order benchmarks run and draw them), each with a chooser and expected ids."""
    assert tuple(REGISTRY) == KINDS and len(set(KINDS)) == len(KINDS) == 20
    assert all(callable(k.choose) and k.expected for k in REGISTRY.values())
    assert set(EXPECTED) == set(KINDS) and TEXT_ONLY == {"restated_detail"}
