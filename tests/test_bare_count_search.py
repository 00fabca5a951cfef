"""A bare count ("I have 4 that match") counts the search the user turn before it gave a value of
(annotate.memory.Memory.searched), not the domain that turn named last by a noun: MUL1590 (work
half), "how about an Italian place instead . Also , can you give me my reference number for my
train tickets" then "I have 4 that match ." — four Italian restaurants, not trains (the twin of
csp_check.faults.raw_attack_pairs.bare_count was flagged certain as a train count before)."""

from __future__ import annotations

from support.data import needs_multiwoz_val
from support.rawval import PAPER, edited, kb, raw_val

from csp_check.annotate import annotate
from csp_check.faults.raw_attack_pairs import bare_count
from csp_check.pipeline import check_dialogue
from csp_check.score.split import half_of

pytestmark = needs_multiwoz_val


def test_a_bare_count_counts_the_search_the_user_gave_a_value_of() -> None:
    assert half_of("MUL1590") == "work"
    dialogue = raw_val("MUL1590")
    places = bare_count(annotate(dialogue, kb()), kb())
    turn = 11
    fault, twin = next((f, t) for f, t in places if turn in f)
    assert twin[turn] == "I have 4 that match ."
    counts = [a for a in annotate(edited(dialogue, twin), kb()).turns[turn].acts if a.slot == "choice"]
    assert [(a.domain, a.canonical) for a in counts] == [("restaurant", "4")]
    assert not any(v.certain for v in check_dialogue(edited(dialogue, twin), kb(), PAPER).violations)
    report = check_dialogue(edited(dialogue, fault), kb(), PAPER)
    assert any(v.certain and v.constraint.value == "C6" and "restaurant" in v.message for v in report.violations)

