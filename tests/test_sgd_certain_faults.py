"""Faults that a too broad doubt left for review, flagged certain once the doubt must hold
(issue 18, SGD dev): a detail restated after a failed booking (no one tried it anew), a count
beside the name of the entity it counts ("I found 1 restaurant called X" → 3), an inform of the
entity in a failure turn whose call returned the alternative it proposes."""

from __future__ import annotations

import json
import random

import pytest
from support.data import SGD_DEV, needs_sgd

from csp_check.faults.inject import trial
from csp_check.pipeline import check_dialogue, load_corpus


def _sgd(dialogue_id: str, file: str):
    path = SGD_DEV / file
    raw = next(d for d in json.loads(path.read_text(encoding="utf-8")) if d["dialogue_id"] == dialogue_id)
    return next(d for d in load_corpus([path]) if getattr(d, "id", "") == dialogue_id), raw


@needs_sgd
@pytest.mark.parametrize(("dialogue_id", "file", "kind", "mode", "rule"), [
    # "Sorry, I wasn't able to make a reservation … for 2 …" then "Your reservation is confirmed.
    # That is for 4 people.": the 4 is no new try (nobody said or offered it after the failure)
    ("1_00015", "dialogues_001.json", "restated_detail", "text", "C2"),
    # "I found 1 restaurant called …" said "3 restaurant called …": no reading counts 3
    ("4_00098", "dialogues_004.json", "amount", "text", "C6"),
    # the failed booking's result has the alternative and its phone: "You can call them on <another phone>"
    ("3_00038", "dialogues_003.json", "failed_inform", "text", "C5"),
])
def test_the_fault_is_flagged_certain(dialogue_id, file, kind, mode, rule):
    dialogue, raw = _sgd(dialogue_id, file)
    assert not check_dialogue(dialogue).violations
    t = trial(dialogue, kind, mode, random.Random(0), raw=raw)
    assert t is not None and rule in {c.value for c in t.certain}, t
