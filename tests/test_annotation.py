"""S1 (annotation against text) and role-aware slots: the state and calls record what the user
said, and "from A to B" in the text decides origin and destination (spec §9, docs/s1-flags.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import CASES, MULTIWOZ_DB, MULTIWOZ_VAL, SHARED

from csp_check.cli.main import main
from csp_check.errors import InputError
from csp_check.faults.annotation import ANNOTATION_KINDS, annotation_trial, drop_record, inject_annotation
from csp_check.language.roles import text_role
from csp_check.models import (
    PAPER_CONSTRAINTS,
    ActRole,
    ApiCall,
    ConstraintId,
    Dialogue,
    DialogueAct,
    KbResult,
    Span,
    Turn,
)
from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus

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
    assert paper_sum["flagged"] == {"paper": 1, "annotation": 0}  # zero counts are written too (docs/cli.md)
    only_s1 = json.loads(runner.invoke(main, ["validate", path, "--json", "--constraints", "S1"]).output)
    assert only_s1["flagged"] == {"paper": 0, "annotation": 2}


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
    flagged, review, implied = set(), [], []
    for d in load_corpus([dev]):
        csp = dialogue_csp(d)
        if any(c.id is S1 for c in csp.constraints):
            report = check_dialogue(d)
            if any(v.constraint is S1 and v.certain for v in report.violations):
                flagged.add(d.id)
            review += [v for v in report.violations if v.constraint is S1 and not v.certain]
            implied += report.implied
    assert flagged == {"2_00108", "2_00119"}  # "to go to San Diego" annotated as the origin
    # values no words name: unsaid ones are for review; implied ones (indirect requests) are
    # reported apart, never as violations (docs/iur.md)
    assert all((v.uncertain_reason or "").startswith("unsaid: ") for v in review)
    assert implied and all(i.reason for i in implied)


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


@pytest.mark.skipif(not MULTIWOZ_DB.exists(), reason="../shared/data/multiwoz is not beside the repo")
@pytest.mark.parametrize("path", [
    FIXTURES / "data.json",  # MultiWOZ 2.1 data.json
    FIXTURES / "v22",  # MultiWOZ 2.2
    SHARED / "data" / "convlab_unified" / "multiwoz21_sample.json",  # ConvLab-3 unified
    Path(__file__).resolve().parents[1] / "examples" / "dialogues.jsonl",  # our JSONL
])
def test_s1_finds_a_state_changed_away_from_the_text_in_every_format(path):
    from csp_check.readers.kb import load_kb

    kb = load_kb(MULTIWOZ_DB) if "examples" not in str(path) else load_kb(path.parents[1] / "kb" / "restaurants.json")
    rng = random.Random(1)
    trials = [
        t for d in load_corpus([path], kb=kb)
        if not isinstance(d, InputError) and not any(v.constraint is S1 for v in check_dialogue(d, kb).violations)
        and (t := annotation_trial(d, "state_value", rng, kb)) is not None
    ]
    assert trials and all(S1 in t.found for t in trials)


# -- omissions: the state tracks the domain but not the value the user gave ---------------------

def said(text: str, word: str, slot: str, value: str | None = None, domain: str = "restaurant",
         role: ActRole = ActRole.INFORM) -> DialogueAct:
    """A user act of ``slot`` whose span is ``word`` in ``text``."""
    start = text.index(word)
    return DialogueAct(role=role, act=role.value, domain=domain, slot=slot, value=value or word.lower(),
                       canonical=value or word.lower(), span=Span(start=start, end=start + len(word)))


def multiwoz(*turns: tuple[str, list[DialogueAct], dict]) -> Dialogue:
    """A MultiWOZ-format dialogue from (user text, user acts, state after the turn) triples, each
    followed by a system turn that carries the same state (as the MultiWOZ reader gives it)."""
    out = []
    for text, acts, state in turns:
        out.append(Turn(index=len(out), speaker="user", utterance=text, acts=acts, state=state))
        out.append(Turn(index=len(out), speaker="system", utterance="Okay .", acts=[], state=state))
    return Dialogue(id="m", format="multiwoz", turns=out)


def omissions(d: Dialogue) -> list:
    return [v for v in check_dialogue(d).violations if v.constraint is S1 and "records no" in v.message]


def test_a_value_the_state_of_a_tracked_domain_omits_is_flagged():
    text = "I want a cheap restaurant in the north ."
    d = multiwoz((text, [said(text, "cheap", "pricerange"), said(text, "north", "area")],
                  {"restaurant": {"pricerange": ["cheap"]}}))
    found = omissions(d)
    assert [(v.turns, v.variables[0].text) for v in found] == [([0], "north")]
    assert "tracks restaurant but records no restaurant.area" in found[0].message
    csp = dialogue_csp(d)
    s1 = [c for c in csp.constraints if c.id is S1 and c.values == []]
    assert len(s1) == 1  # lowered as x ∈ ∅: the state records no value


def test_booking_slots_and_a_dropped_name_are_omissions():
    text = "Yes , please book the Ashley Hotel for 2 nights ."
    d = multiwoz((text, [said(text, "Ashley Hotel", "name", domain="hotel"), said(text, "2", "book stay", domain="hotel")],
                  {"hotel": {"pricerange": ["moderate"]}}))
    assert sorted(v.variables[0].slot for v in omissions(d)) == ["hotel.book stay", "hotel.name"]


@pytest.mark.parametrize("text, word, slot, value, state", [
    ("I want a cheap place , not in the north .", "north", "area", None, {}),  # negated
    ("Any area is fine , but it must be cheap .", "Any area", "area", "dontcare", {}),  # dontcare
    ("I want a cheap place , any area .", "any", "area", "any", {}),  # dontcare written as a word
    ("Is it in the north ? I want cheap .", "north", "area", None, {}),  # a question about an entity
    ("Cheap is fine . What is the phone number of Nandos ?", "Nandos", "name", None, {}),  # a name only asked about
    ("Is there a cheap place near the Cotto ?", "Cotto", "name", None, {}),  # a name placing something
    ("A cheap place on the same day .", "same day", "book day", None, {}),  # refers
    ("Try 18:00 or 19:00 , cheap please .", "18:00", "book time", None, {}),  # a choice
    ("Cheap . What is the address ?", "address", "address", "x", {}),  # no such state slot in MultiWOZ
    ("A cheap place , north please .", "north", "area", None, {"taxi": {"destination": ["north"]}}),  # not the name rule
])
def test_words_that_give_no_value_to_record_make_no_omission_claim(text, word, slot, value, state):
    cheap = said(text, "cheap" if "cheap" in text else "Cheap", "pricerange", "cheap")
    d = multiwoz((text, [cheap, said(text, word, slot, value)], {"restaurant": {"pricerange": ["cheap"]}, **state}))
    if slot == "area" and state:  # a value in another domain's slot of the same kind is still an omission
        assert omissions(d)
    else:
        assert not omissions(d)


def test_no_omission_when_the_domain_is_untracked_recorded_late_or_elsewhere():
    text = "I want a cheap restaurant in the north ."
    acts = [said(text, "cheap", "pricerange"), said(text, "north", "area")]
    untracked = multiwoz((text, acts, {"hotel": {"area": ["east"]}}))
    assert not omissions(untracked)  # the state does not track the restaurant at all
    late = multiwoz((text, acts, {"restaurant": {"pricerange": ["cheap"]}}),
                    ("Thanks .", [], {"restaurant": {"pricerange": ["cheap"], "area": ["north"]}}))
    assert not omissions(late)  # recorded a turn late: a delay, not an omission
    taxi = "Book a taxi to the Golden Curry ."
    elsewhere = multiwoz((taxi, [said(taxi, "Golden Curry", "name")],
                          {"restaurant": {"food": ["indian"]}, "taxi": {"destination": ["golden curry"]}}))
    assert not omissions(elsewhere)  # a taxi's destination annotated as a restaurant name


def test_a_stale_value_the_user_changed_is_flagged():
    """'Actually, make it Tuesday' while the state keeps Monday: each mention is held to the
    state after its own turn (a contradiction, not an omission)."""
    first, change = "A table on Monday , cheap .", "Actually , make it Tuesday ."
    d = multiwoz((first, [said(first, "Monday", "book day", "monday"), said(first, "cheap", "pricerange")],
                  {"restaurant": {"pricerange": ["cheap"], "book day": ["monday"]}}),
                 (change, [said(change, "Tuesday", "book day", "tuesday")],
                  {"restaurant": {"pricerange": ["cheap"], "book day": ["monday"]}}))
    s1 = [v for v in check_dialogue(d).violations if v.constraint is S1]
    assert [(v.turns, v.variables[0].text) for v in s1] == [([2], "Tuesday")]
    assert "records restaurant.book day='monday'" in s1[0].message


@pytest.mark.skipif(not MULTIWOZ_VAL.exists(), reason="../shared/data/multiwoz is not beside the repo")
def test_omissions_on_multiwoz_val_dialogues_read_by_hand(tmp_path):
    """Dialogues of MultiWOZ 2.1 val read by hand (docs/s1-flags.md): omissions where the user
    gave the value, none where the user only asks or the acts name the wrong domain."""
    import zipfile

    with zipfile.ZipFile(MULTIWOZ_VAL) as archive:
        data = json.loads(archive.read(next(n for n in archive.namelist() if n.endswith(".json"))))
    keep = ["SNG0921", "PMUL4955", "MUL0602", "PMUL0705", "MUL2259", "MUL1472"]
    (tmp_path / "val.json").write_text(json.dumps({k: data[k] for k in keep}))
    found = {}
    for d in load_corpus([tmp_path / "val.json"]):
        found[d.id] = sorted((v.variables[0].turn, v.variables[0].slot) for v in omissions(d))
    assert found["SNG0921"] == [(4, "hotel.name")]  # "please book the Ashley Hotel"
    assert found["PMUL4955"] == [(6, "hotel.book stay")]  # "book a room for Saturday for 4 nights"
    assert found["MUL0602"] == []  # "What is the star rating of the Acorn Guest House ?"
    assert found["PMUL0705"] == []  # "book the anatolia for 2 people": annotated as the train's
    assert found["MUL2259"] == []  # the span of internet=yes is the "yes" of "Before I say yes"
    assert found["MUL1472"] == []  # one span annotated as both leaveAt and arriveBy; the state has one


@pytest.mark.skipif(not MULTIWOZ_DB.exists(), reason="../shared/data/multiwoz is not beside the repo")
def test_contradictions_on_multiwoz_val_dialogues_read_by_hand():
    """S1 contradictions of MultiWOZ 2.1 val read by hand as real (docs/s1-flags.md): MUL2470 turn
    14, "a taxi ... to the Golden Curry", the restaurant the system recommended and the user
    booked, while the state and booking say curry garden; PMUL1620 turn 12, "leave after 16:45"
    with a state of 16:15; PMUL3850 turn 6, "How about Italian food instead?" with the state
    still latin american. With the KB, as ``csp-check validate --kb`` runs them."""
    from csp_check.readers.kb import load_kb

    kb = load_kb(MULTIWOZ_DB)
    want = {"MUL2470": (14, "restaurant.name='curry garden'"), "PMUL1620": (12, "train.leaveAt='16:15'"),
            "PMUL3850": (6, "restaurant.food='latin american'")}
    found = {}
    for d in load_corpus([MULTIWOZ_VAL], kb=kb):
        if getattr(d, "id", "") in want:
            found[d.id] = [(v.turns, v.message) for v in check_dialogue(d, kb).violations if v.constraint is S1]
    assert set(found) == set(want)
    for name, (turn, recorded) in want.items():
        assert [t for t, _ in found[name]] == [[turn]], found[name]
        assert f"records {recorded}" in found[name][0][1]


@pytest.mark.skipif(not MULTIWOZ_DB.exists(), reason="../shared/data/multiwoz is not beside the repo")
def test_state_value_faults_leave_the_bound_the_user_said():
    """PMUL4436 turn 6 "Sometime after 15:00 ." (state leaveAt 15:15, within the bound): a
    state_value fault that set 16:21 would still keep the user's bound, so it is no fault and S1
    rightly passes it. Every fault drawn is outside the bound, and each is flagged by S1."""
    from csp_check.readers.kb import load_kb

    kb = load_kb(MULTIWOZ_DB)
    d = next(x for x in load_corpus([MULTIWOZ_VAL], kb=kb) if getattr(x, "id", "") == "PMUL4436")
    assert not [v for v in check_dialogue(d, kb).violations if v.constraint is S1]
    bound = []
    for seed in range(60):
        t = annotation_trial(d, "state_value", random.Random(seed), kb, (S1,))
        assert t is not None and t.right, (seed, t and t.fault)
        if t.fault.old_text == "after 15:00":
            bound.append(t.fault.new_text)
    assert bound and all(new < "15:00" for new in bound), bound


def test_state_omission_faults_drop_the_value_and_trip_s1():
    text = "I want a cheap restaurant in the north ."
    d = multiwoz((text, [said(text, "cheap", "pricerange"), said(text, "north", "area")],
                  {"restaurant": {"pricerange": ["cheap"], "area": ["north"]}}),
                 ("Thanks .", [], {"restaurant": {"pricerange": ["cheap"], "area": ["north"]}}))
    assert not check_dialogue(d).violations
    faulty, fault = inject_annotation(d, "state_omission", random.Random(0))
    slot = "pricerange" if fault.old_text == "cheap" else "area"
    assert all(slot not in t.state.get("restaurant", {}) for t in faulty.turns)  # dropped from every turn
    assert [t.utterance for t in faulty.turns] == [t.utterance for t in d.turns]  # the text is untouched
    t = annotation_trial(d, "state_omission", random.Random(0))
    assert t is not None and t.right and S1 in t.found


@pytest.mark.skipif(not MULTIWOZ_DB.exists(), reason="../shared/data/multiwoz is not beside the repo")
def test_the_users_only_slot_of_an_untracked_domain_dropped_is_an_omission():
    """MUL0445 turn 0 "I 'm looking for a train Norwich .": the state after it has no train slot;
    it records the destination at the user's next turn (a delay, no claim). With the value
    dropped from the state for good, the state tracks train later but never records it: S1."""
    from csp_check.readers.kb import load_kb

    kb = load_kb(MULTIWOZ_DB)
    d = next(x for x in load_corpus([MULTIWOZ_VAL], kb=kb) if getattr(x, "id", "") == "MUL0445")
    assert not d.turns[0].state.get("train")
    assert not [v for v in check_dialogue(d, kb).violations if v.constraint is S1 and 0 in v.turns]
    faulty = d.model_copy(deep=True)
    drop_record(faulty, "train", "destination", 2)
    found = [v for v in check_dialogue(faulty, kb).violations if v.constraint is S1 and v.variables[0].turn == 0]
    assert found and "records no train.destination" in found[0].message


@needs_sgd
def test_a_call_argument_off_by_twelve_hours_is_flagged_after_a_confirmation(tmp_path):
    """SGD dev 1_00011: the user says "7:30 in the evening"; the system confirms "7:30 pm",
    which the state adds beside the user's words (no change of value), and the booking call two
    turns later records 19:30. A call recording 07:30 breaks S1; "in the evening" rules out the
    12-hour reading of 07:30 that a bare "7:30" would allow."""
    source = SHARED / "data" / "sgd" / "dev" / "dialogues_001.json"
    dialogue = next(d for d in json.loads(source.read_text()) if d["dialogue_id"] == "1_00011")
    (tmp_path / "gold").mkdir()
    (tmp_path / "gold" / "dialogues_001.json").write_text(json.dumps([dialogue]))
    call = next(f["service_call"] for t in dialogue["turns"] for f in t["frames"] if "service_call" in f
                and f["service_call"]["method"] == "ReserveRestaurant")
    assert call["parameters"]["time"] == "19:30"
    call["parameters"]["time"] = "07:30"
    (tmp_path / "fault").mkdir()
    (tmp_path / "fault" / "dialogues_001.json").write_text(json.dumps([dialogue]))
    assert S1.value not in verdicts(tmp_path / "gold")["1_00011"]
    fault = [v for d in load_corpus([tmp_path / "fault"]) for v in check_dialogue(d).violations]
    assert any(v.constraint is S1 and "ReserveRestaurant call" in v.message for v in fault), fault


@needs_sgd
def test_a_value_the_user_rules_out_but_the_state_records_is_flagged_by_s2(tmp_path):
    """Text-only fault on SGD dev dialogues of one file: "anything but " goes before a user's
    first city / genre / type inform the state records (state and acts untouched, spans
    re-aligned). S2
    flags each one the gold version passes; the gold file gets no S2 flag (the looser cues of
    "why don't we try X", "no X?" are not rule-outs)."""
    source = SHARED / "data" / "sgd" / "dev" / "dialogues_003.json"  # Homes, Alarm: many cities
    gold = json.loads(source.read_text())[:80]
    faulted, changed = [], set()
    for d in gold:
        d = json.loads(json.dumps(d))
        for turn in d["turns"]:
            if turn["speaker"] != "USER" or d["dialogue_id"] in changed:
                continue
            frame = next((f for f in turn["frames"] if f["slots"]), None)
            slot = frame and next((s for s in frame["slots"] if s["slot"] in ("city", "area", "genre", "type", "category", "cuisine")), None)
            if slot is None or not any(slot["slot"] in (f["state"]["slot_values"]) for f in turn["frames"]):
                continue
            shift, at, u = len("anything but "), slot["start"], turn["utterance"]
            turn["utterance"] = u[:at] + "anything but " + u[at:]
            for f in turn["frames"]:
                for s in f["slots"]:
                    s["start"] += shift if s["start"] >= at else 0
                    s["exclusive_end"] += shift if s["exclusive_end"] > at else 0
            changed.add(d["dialogue_id"])
        faulted.append(d)
    assert len(changed) >= 20
    for name, dialogues in (("gold", gold), ("fault", faulted)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "dialogues_003.json").write_text(json.dumps(dialogues))
    gold_flags, fault_flags = verdicts(tmp_path / "gold"), verdicts(tmp_path / "fault")
    assert not any("S2" in flags for flags in gold_flags.values())
    caught = [i for i in changed if "S2" in fault_flags[i] and "S2" not in gold_flags[i]]
    assert len(caught) >= 0.95 * len(changed), sorted(set(changed) - set(caught))
