"""S1 (annotation against text) and role-aware slots: the state and calls record what the user
said, and "from A to B" in the text decides origin and destination (issue 7, spec §9)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from csp_check.cli import main
from csp_check.errors import InputError
from csp_check.faults import ANNOTATION_KINDS, annotation_trial, inject_annotation
from csp_check.models import (
    PAPER_CONSTRAINTS, ActRole, ApiCall, ConstraintId, Dialogue, DialogueAct, KbResult, Span, Turn,
)
from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus
from csp_check.roles import text_role

SHARED = Path(__file__).resolve().parents[2] / "shared"
CASES = SHARED / "cases"
needs_cases = pytest.mark.skipif(not CASES.exists(), reason="../shared/cases is not beside the repo")
needs_sgd = pytest.mark.skipif(not (SHARED / "data" / "sgd").exists(), reason="../shared/data is not beside the repo")
S1 = ConstraintId.S1


def verdicts(path: Path) -> dict[str, set[str]]:
    out = {}
    for d in load_corpus([path]):
        assert not isinstance(d, InputError), d
        out[d.id] = {v.constraint.value for v in check_dialogue(d).violations}
    return out


@needs_cases
def test_case_01_origin_destination_swapped_is_flagged():
    found = verdicts(CASES / "01-sgd-origin-destination-swapped")
    assert found["1_00001"] & {"C2", "C5"}  # the system searched and offered the reverse direction
    assert "S1" in found["1_00001"]  # the state and call record the reverse of the text


@needs_cases
def test_case_04_state_vs_text_both_flagged():
    path = CASES / "04-sgd-state-vs-text"
    found = verdicts(path)
    assert "C2" in found["4_00001"] and found["4_00002"]
    dialogue = next(d for d in load_corpus([path]) if d.id == "4_00002")
    s1 = [v for v in check_dialogue(dialogue).violations if v.constraint is S1]
    # the state after turn 0 and the booking call at turn 3 both say 1 where the user said 2
    assert sorted(v.turns for v in s1) == [[0], [0, 3]]
    assert all(v.variables[0].text == "2" and "'1'" in v.message for v in s1)
    assert "the belief state" in s1[0].message and "ReserveRestaurant call" in s1[1].message


@needs_cases
def test_paper_constraints_leave_s1_out():
    runner = CliRunner()
    path = str(CASES / "04-sgd-state-vs-text")
    paper = runner.invoke(main, ["validate", path, "--json", "--constraints", ",".join(c.value for c in PAPER_CONSTRAINTS)])
    default = runner.invoke(main, ["validate", path, "--json"])
    paper_sum, default_sum = json.loads(paper.output), json.loads(default.output)
    assert "S1" not in paper_sum["violations"] and paper_sum["inconsistent"] == 1
    assert default_sum["violations"]["S1"] == 4 and default_sum["inconsistent"] == 2
    assert default_sum["flagged"] == {"paper": 1, "annotation": 2}


def booking(*turns: tuple[str, str, list[DialogueAct], dict, dict | None]) -> Dialogue:
    """A Restaurants dialogue from (speaker, text, acts, state, call parameters) tuples."""
    out = []
    for i, (speaker, text, acts, state, call) in enumerate(turns):
        results = [KbResult(domain="R", call=ApiCall(domain="R", method="Reserve", parameters=call))] if call else []
        out.append(Turn(index=i, speaker=speaker, utterance=text, acts=acts, state={"R": state} if state else {},
                        kb_results=results))
    return Dialogue(id="t", format="jsonl", turns=out)


def inform(text: str, value: str, slot: str = "party_size", role: ActRole = ActRole.INFORM) -> DialogueAct:
    return DialogueAct(role=role, act=role.value, domain="R", slot=slot, value=value, canonical=value)


def test_a_later_change_updates_the_state_legitimately():
    d = booking(
        ("user", "A table for 2 please.", [inform("", "2")], {"party_size": ["2"]}, None),
        ("system", "For how many?", [], {}, None),
        ("user", "Actually make it 3.", [inform("", "3")], {"party_size": ["3"]}, None),
        ("system", "Booked for 3.", [inform("", "3", role=ActRole.BOOKED)], {}, {"party_size": "3"}),
    )
    report = check_dialogue(d)
    assert not report.violations and report.coverage["S1"] == 2  # both mentions checked, both fine


def test_state_and_call_that_miss_the_users_value_are_flagged():
    d = booking(
        ("user", "A table for 2 please.", [inform("", "2")], {"party_size": ["1"]}, None),
        ("system", "Booked.", [], {}, {"party_size": "1"}),
    )
    s1 = [v for v in check_dialogue(d).violations if v.constraint is S1]
    assert [v.turns for v in s1] == [[0], [0, 1]]
    assert s1[0].variables[0].span == Span(start=12, end=13)


def test_dontcare_proposals_and_unsaid_values_are_no_s1_violations():
    d = booking(
        ("user", "Any time is fine, table for 2.", [inform("", "2"), inform("", "dontcare", "time")],
         {"party_size": ["2"], "time": ["dontcare"]}, None),
        ("system", "How about 7 pm?", [inform("", "7 pm", "time", ActRole.OFFER)], {}, None),
        ("user", "Yes.", [], {"party_size": ["2"], "time": ["7 pm"], "city": ["Paris"]}, None),
        ("system", "Booked.", [], {}, {"party_size": "2", "time": "19:00", "city": "Paris"}),
    )
    assert not [v for v in check_dialogue(d).violations if v.constraint is S1]


def test_s1_reads_wording_not_spelling():
    """'southern' is a form of south, "after 19:45" is kept by 20:00, "the same day" names
    nothing: none is a claim; a different value is."""
    def flagged(text: str, slot: str, state: str) -> bool:
        act = inform("", text, slot)
        act.span = Span(start=0, end=len(text))
        d = booking(("user", text + " .", [act], {slot: [state]}, None))
        return bool(check_dialogue(d).violations)

    assert not flagged("southern", "area", "south")
    assert not flagged("after 19:45", "leaveAt", "20:00")
    assert flagged("after 19:45", "leaveAt", "19:00")
    assert not flagged("same day", "day", "monday")
    assert not flagged("4-stars", "stars", "4")
    assert flagged("italian", "food", "latin american")
    assert flagged("economy", "class", "premium economy")


@pytest.mark.parametrize("text, word, role", [
    ("I need a flight from Denver to Austin.", "Denver", "origin"),
    ("I need a flight from Denver to Austin.", "Austin", "destination"),
    ("A bus to Austin from Denver.", "Denver", "origin"),
    ("A bus to Austin from Denver.", "Austin", "destination"),
    ("I am leaving Denver soon.", "Denver", "origin"),
    ("I want to go to Austin.", "Austin", "destination"),
    ("Departing from Denver.", "Denver", "origin"),
    ("The return flight leaves from Austin.", "Austin", None),  # a round trip's return leg
    ("I am going from Seattle.", "Seattle", None),  # loose crowd wording: no claim
    ("Pick me up at the Hilton and drop me off at Kings Cross.", "Hilton", "origin"),
    ("Pick me up at the Hilton and drop me off at Kings Cross.", "Kings", "destination"),
])
def test_text_roles(text, word, role):
    assert text_role(text, text.index(word)) == role


@needs_sgd
def test_s1_on_sgd_gold_flags_only_role_contradictions():
    dev = SHARED / "data" / "sgd" / "dev"
    flagged = set()
    for d in load_corpus([dev]):
        csp = dialogue_csp(d)
        if any(c.id is S1 for c in csp.constraints):
            report = check_dialogue(d)
            if any(v.constraint is S1 for v in report.violations):
                flagged.add(d.id)
    assert flagged == {"2_00108", "2_00119"}  # "to go to San Diego" annotated as the origin


@needs_sgd
def test_annotation_faults_are_flagged_by_s1():
    rng = random.Random(5)
    dialogues = [d for d in load_corpus([SHARED / "data" / "sgd" / "dev" / "dialogues_001.json"])]
    for kind in ANNOTATION_KINDS:
        trials = [t for d in dialogues[:60] if (t := annotation_trial(d, kind, rng)) is not None]
        assert len(trials) >= 5, kind
        assert sum(t.right for t in trials) / len(trials) >= 0.95, kind
    d = next(d for d in dialogues if inject_annotation(d, "state_value", random.Random(0)))
    faulty, fault = inject_annotation(d, "state_value", random.Random(0))
    assert faulty.turns[fault.turn].utterance == d.turns[fault.turn].utterance  # the text is untouched


FIXTURES = Path(__file__).parent / "fixtures" / "multiwoz"
MULTIWOZ_DB = SHARED / "data" / "multiwoz" / "db"


@pytest.mark.skipif(not MULTIWOZ_DB.exists(), reason="../shared/data/multiwoz is not beside the repo")
@pytest.mark.parametrize("path", [
    FIXTURES / "data.json",  # MultiWOZ 2.1 data.json
    FIXTURES / "v22",  # MultiWOZ 2.2
    SHARED / "data" / "convlab_unified" / "multiwoz21_sample.json",  # ConvLab-3 unified
    Path(__file__).resolve().parents[1] / "examples" / "dialogues.jsonl",  # our JSONL
])
def test_s1_finds_a_state_changed_away_from_the_text_in_every_format(path):
    from csp_check.kb import load_kb

    kb = load_kb(MULTIWOZ_DB) if "examples" not in str(path) else load_kb(path.parents[1] / "kb" / "restaurants.json")
    rng = random.Random(1)
    trials = [
        t for d in load_corpus([path], kb=kb)
        if not isinstance(d, InputError) and not any(v.constraint is S1 for v in check_dialogue(d, kb).violations)
        and (t := annotation_trial(d, "state_value", rng, kb)) is not None
    ]
    assert trials and all(S1 in t.found for t in trials)
