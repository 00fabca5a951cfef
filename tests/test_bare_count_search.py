"""A bare count ("I have 4 that match") counts the search the user turn before it gave a value of
(annotate.memory.Memory.searched), not the domain that turn named last by a noun: MUL1590 (work
half), "how about an Italian place instead . Also , can you give me my reference number for my
train tickets" then "I have 4 that match ." — four Italian restaurants, not trains (the twin of
csp_check.faults.raw_attack_pairs.bare_count was flagged certain as a train count before)."""

from __future__ import annotations

import json
import zipfile

from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz_val

from csp_check.annotate import annotate
from csp_check.faults.raw_attack_pairs import bare_count
from csp_check.models import Dialogue, Turn
from csp_check.pipeline import check_dialogue
from csp_check.readers.kb import load_kb
from csp_check.score.split import half_of

pytestmark = needs_multiwoz_val
PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]


def raw(dialogue_id: str) -> Dialogue:
    with zipfile.ZipFile(MULTIWOZ_VAL) as z:
        member = next(n for n in z.namelist() if n.endswith(".json"))
        log = json.loads(z.read(member))[dialogue_id]["log"]
    return Dialogue(id=dialogue_id, turns=[Turn(index=k, speaker="user" if k % 2 == 0 else "system",
                                                utterance=" ".join(t["text"].split())) for k, t in enumerate(log)])  # fmt: skip


def test_a_bare_count_counts_the_search_the_user_gave_a_value_of() -> None:
    assert half_of("MUL1590") == "work"
    kb = load_kb(MULTIWOZ_DB)
    dialogue = raw("MUL1590")
    places = bare_count(annotate(dialogue, kb), kb)
    turn = 11
    fault, twin = next((f, t) for f, t in places if turn in f)
    assert twin[turn] == "I have 4 that match ."
    counts = [a for a in annotate(_edited(dialogue, twin), kb).turns[turn].acts if a.slot == "choice"]
    assert [(a.domain, a.canonical) for a in counts] == [("restaurant", "4")]
    assert not any(v.certain for v in check_dialogue(_edited(dialogue, twin), kb, PAPER).violations)
    report = check_dialogue(_edited(dialogue, fault), kb, PAPER)
    assert any(v.certain and v.constraint.value == "C6" and "restaurant" in v.message for v in report.violations)


def _edited(dialogue: Dialogue, edits: dict[int, str]) -> Dialogue:
    return Dialogue(id=dialogue.id, turns=[Turn(index=t.index, speaker=t.speaker, utterance=edits.get(t.index, t.utterance))
                                           for t in dialogue.turns])  # fmt: skip
