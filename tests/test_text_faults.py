"""Faults written in the text alone that a reading of the words must catch (spec §9 "the text is
the truth"): a negated coordination of amenities ("does not have free parking and wifi") and an
approximate amount ("about 70 trains"), each on a real dialogue: injected → flagged with the
expected constraint; the same dialogue gold → not flagged."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, SGD_DEV, needs_multiwoz_val, needs_sgd

from csp_check.faults.booking import faithful_restatement
from csp_check.faults.counts import approximate_restatement
from csp_check.faults.inject import trial
from csp_check.faults.negation import negated_coordination
from csp_check.faults.rewrite import rewrite_sgd
from csp_check.language.cues import amenity_span, amount_op, approx_tolerance, boolean_span, count_spans, read_boolean
from csp_check.models import Span
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))


def _sgd(dialogue_id: str, file: str):
    path = SGD_DEV / file
    raw = next(d for d in json.loads(path.read_text(encoding="utf-8")) if d["dialogue_id"] == dialogue_id)
    dialogue = next(d for d in load_corpus([path]) if getattr(d, "id", "") == dialogue_id)
    return dialogue, raw


def _multiwoz(dialogue_id: str):
    kb = load_kb(MULTIWOZ_DB)
    return next(d for d in load_corpus([MULTIWOZ_VAL], kb=kb) if getattr(d, "id", "") == dialogue_id), kb


def _found(dialogue, kb=None) -> set[str]:
    return {v.constraint.value for v in check_dialogue(dialogue, kb).violations}


# -- (a) negated amenities in coordination -----------------------------------------------------

def _read(utterance: str, slot: str) -> str | None:
    span = amenity_span(utterance, slot) if slot in ("internet", "parking") else boolean_span(utterance, slot)
    return None if span is None else read_boolean(utterance[span.start : span.end])


@pytest.mark.parametrize("utterance, slot, value", [
    ("The hotel does not have free parking and wifi .", "internet", "false"),
    ("The hotel does not have free parking and wifi .", "has_wifi", "false"),
    ("It has no wifi or parking .", "parking", "false"),
    ("It doesn't offer internet nor parking .", "parking", "false"),
    ("It has neither parking nor wifi .", "internet", "false"),
    ("It has no parking and free wifi .", "internet", "true"),  # a qualifier of its own: a new phrase
    ("There is no parking and the wifi is free .", "internet", "true"),
    ("It has free parking and wifi .", "internet", "true"),
    ("They don't have parking, and wifi is extra .", "internet", "true"),  # a new clause after the comma
])  # fmt: skip
def test_a_negation_scopes_over_both_coordinated_nouns(utterance: str, slot: str, value: str) -> None:
    assert _read(utterance, slot) == value


@needs_multiwoz_val
@pytest.mark.parametrize("form", range(4))
def test_negated_coordination_on_multiwoz_is_flagged(form: int) -> None:
    """MUL0602 turn 3: "There is also Archway House in that price range with free wifi"; Archway
    House has internet, so "with no free breakfast or wifi" / "without free breakfast and wifi" is
    false (C5); the gold text is not flagged."""
    from multiwoz import edit_text

    dialogue, kb = _multiwoz("MUL0602")
    assert "C5" not in _found(dialogue, kb)
    utterance = dialogue.turns[3].utterance
    start = utterance.index("free wifi")
    span, new = negated_coordination(utterance, Span(start=start, end=start + len("free wifi")), "free breakfast", form)
    assert new.endswith(" wifi") and ("no" in new.split() or "without" in new.split())
    assert "C5" in _found(edit_text(dialogue, 3, span, new), kb)


@needs_sgd
@pytest.mark.parametrize("mode", ["text", "annotated"])
def test_negated_coordination_on_sgd_is_flagged(mode: str) -> None:
    """SGD dev 6_00070 turn 9: "… has wifi" about a hotel whose result has wifi; written as "does
    not have free parking and wifi" it is flagged by C5 (text only and with the act changed)."""
    dialogue, raw = _sgd("6_00070", "dialogues_006.json")
    assert not check_dialogue(dialogue).violations
    t = trial(dialogue, "coordinated_negation", mode, random.Random(0), raw=raw)
    assert t is not None and "wifi" in t.fault.new_text and t.fault.new_text.startswith(("does", "has", "Does", "Has"))
    assert "C5" in {c.value for c in t.found}, t


# -- (b) approximate amounts -------------------------------------------------------------------

@pytest.mark.parametrize("utterance, number, op", [
    ("I found about 70 trains.", "70", "~"), ("There are around 40 options.", "40", "~"),
    ("I have roughly a dozen hotels.", "a dozen", "~"), ("I found 40 or so trains.", "40", "~"),
    ("There are over 70 trains.", "70", ">"), ("There are 12 hotels.", "12", "="),
])  # fmt: skip
def test_a_hedged_count_is_an_approximation(utterance: str, number: str, op: str) -> None:
    spans = count_spans(utterance)
    assert [utterance[s.start : s.end] for s in spans] == [number]
    assert amount_op(utterance, spans[0]) == op


def test_the_tolerance_of_an_approximation() -> None:
    assert [approx_tolerance(n) for n in (1, 3, 4, 12, 40, 70)] == [1, 1, 1, 3, 10, 18]


@needs_sgd
@pytest.mark.parametrize("mode", ["text", "annotated"])
def test_a_hedged_count_outside_its_range_is_flagged_on_sgd(mode: str) -> None:
    """SGD dev 1_00030 turn 3: "I found 3 flights" (3 results). "I found around 6 flights" is
    false even read as a range (6 ± 2 misses 3): C6. "I found approximately 4 flights" (4 ± 1 holds 3)
    is no fault: the gold dialogue so restated is accepted."""
    dialogue, raw = _sgd("1_00030", "dialogues_001.json")
    assert not check_dialogue(dialogue).violations
    t = trial(dialogue, "hedged_amount", mode, random.Random(0), raw=raw)
    assert t is not None and t.fault.turn == 3 and t.fault.old_text == "3" and t.fault.new_text.endswith(" 6")
    assert "C6" in {c.value for c in t.found}, t
    restated = approximate_restatement(dialogue, raw)
    assert restated is not None and "approximately 4 flights" in restated.turns[3].utterance
    assert not check_dialogue(restated).violations


@needs_multiwoz_val
@pytest.mark.parametrize("new, flagged", [("16", True), ("13", False), ("9", False), ("5", True)])
def test_a_hedged_count_on_multiwoz(new: str, flagged: bool) -> None:
    """PMUL1557 turn 11: "That leaves about 11 options" (11 match): "about 13" and "about 9" are
    within a quarter (C6 holds), "about 16" and "about 5" are not (C6)."""
    from multiwoz import edit_text

    dialogue, kb = _multiwoz("PMUL1557")
    assert "C6" not in _found(dialogue, kb)
    utterance = dialogue.turns[11].utterance
    start = utterance.index("about 11") + len("about ")
    faulty = edit_text(dialogue, 11, Span(start=start, end=start + 2), new)
    assert ("C6" in _found(faulty, kb)) == flagged


# -- (c) days said relative to the dialogue's today ----------------------------------------------

@needs_sgd
def test_sgd_dialogues_are_anchored_on_their_today() -> None:
    """SGD's relative dates all read from Friday 2019-03-01 (csp_check.language.dates.SGD_TODAY)."""
    from datetime import date

    from csp_check.delexicalize.assignment import dialogue_today

    dialogue, _ = _sgd("1_00029", "dialogues_001.json")
    assert dialogue_today(dialogue) == date(2019, 3, 1)


@needs_sgd
@pytest.mark.parametrize("words, flagged", [
    ("the day after tomorrow", False), ("this Sunday", False), ("Sunday", False),  # 2019-03-03 in other words
    ("this Monday", True), ("tomorrow", True), ("next Sunday", True),
])  # fmt: skip
def test_a_relative_day_is_read_from_today(words: str, flagged: bool) -> None:
    """SGD dev 1_00029 turn 2: "departing from Vancouver on the 3rd of March" (act, state and
    search 2019-03-03; today is Friday 2019-03-01). The same day said relatively is accepted;
    another day ("this Monday", "tomorrow") contradicts the state (S1) and the results."""
    from csp_check.delexicalize.delexicalizer import delexicalize
    from csp_check.readers.sgd import from_raw

    dialogue, raw = _sgd("1_00029", "dialogues_001.json")
    assert not check_dialogue(dialogue).violations
    var = next(v for v in delexicalize(dialogue).variables if v.turn == 2 and v.slot == "departure_date")
    wide = var.model_copy(update={"span": Span(start=var.span.start - 4, end=var.span.end)})  # "the 3rd of March"
    faulty = from_raw(rewrite_sgd(raw, wide, words, words, None), dialogue.ontology, dialogue.source,
                      dialogue.slot_descriptions)
    found = {v.constraint.value for v in check_dialogue(faulty).violations}
    assert bool(found) == flagged and (not flagged or "S1" in found), found


@needs_sgd
@pytest.mark.parametrize("mode", ["text", "annotated"])
def test_relative_date_fault_is_flagged(mode: str) -> None:
    dialogue, raw = _sgd("1_00029", "dialogues_001.json")
    t = trial(dialogue, "relative_date", mode, random.Random(0), raw=raw)
    assert t is not None and t.fault.new_text == "this Monday" and t.fault.old_text == "the 3rd of March"
    assert "S1" in {c.value for c in t.found}, t


# -- (d) a change of mind written only in the text -----------------------------------------------

@pytest.mark.parametrize("utterance, said", [
    ("I want a table for 2 people. Actually, make that 3 people.", "3"),
    ("Book 2 tickets. Actually, make it 3.", "3"),
    ("I need 2 tickets, not 1 ticket.", None),  # one value stated, none taken back
    ("Get me 2 tickets. Actually, can you also check the weather?", None),
])  # fmt: skip
def test_a_correction_gives_the_value_that_holds(utterance: str, said: str | None) -> None:
    from csp_check.language.cues import corrected, measure_spans

    span = corrected(utterance, measure_spans(utterance, "number_of_seats"))
    assert (None if span is None else utterance[span.start : span.end]) == said


@needs_sgd
@pytest.mark.parametrize("mode", ["text", "annotated"])
def test_a_change_of_mind_the_state_misses_is_flagged(mode: str) -> None:
    """SGD dev 1_00000 turn 0: "… a restaurant reservation for 2 people …" (state and booking:
    2). With " Actually, make that 3 people." added, the state and the call still say 2: S1.
    The gold turn, and the gold turn with the change of mind to the state's own value, are not."""
    from csp_check.delexicalize.delexicalizer import delexicalize
    from csp_check.readers.sgd import from_raw

    dialogue, raw = _sgd("1_00000", "dialogues_001.json")
    assert not check_dialogue(dialogue).violations
    t = trial(dialogue, "change_of_mind", mode, random.Random(0), raw=raw)
    assert t is not None and t.fault.new_text == " Actually, make that 3 people."
    assert "S1" in {c.value for c in t.found}, t
    var = next(v for v in delexicalize(dialogue).variables if v.turn == 0 and v.slot == "number_of_seats")
    end = len(dialogue.turns[0].utterance)
    at_end = var.model_copy(update={"span": Span(start=end, end=end)})
    same = " Sorry, 3 people. Actually, make that 2 people."
    kept = from_raw(rewrite_sgd(raw, at_end, same, same, None), dialogue.ontology, dialogue.source,
                    dialogue.slot_descriptions)
    assert not check_dialogue(kept).violations


# -- (e) a detail restated without a span ----------------------------------------------------------

@needs_sgd
def test_a_party_size_restated_without_an_act_is_checked() -> None:
    """SGD dev 1_00000 turn 5: "Your reservation has been made. …" after a booking for 2 (state,
    call and result). " That is for 4 people." added (no act annotates it) contradicts the
    user's 2 and the booked table: C2 (C5); " That is for 2 people." is no fault."""
    dialogue, raw = _sgd("1_00000", "dialogues_001.json")
    assert not check_dialogue(dialogue).violations
    t = trial(dialogue, "restated_detail", "text", random.Random(0), raw=raw)
    assert t is not None and t.fault.turn == 5 and t.fault.new_text == " That is for 4 people."
    assert "C2" in {c.value for c in t.found}, t
    kept = faithful_restatement(dialogue, raw)
    assert kept is not None and kept.turns[5].utterance.endswith("That is for 2 people.")
    assert not check_dialogue(kept).violations
    assert trial(dialogue, "restated_detail", "annotated", random.Random(0), raw=raw) is None  # text only
