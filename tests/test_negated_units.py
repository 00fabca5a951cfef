"""A closed numeric value said by negating its unit ("no layovers" = 0 stops;
:mod:`csp_check.language.negated_units`): the reading, its certainty, and the ``negated_unit``
fault with its true twin on real SGD dialogues."""

from __future__ import annotations

import json
import random

import pytest
from support.data import SGD_DEV, needs_sgd

from csp_check.faults.inject import trial
from csp_check.faults.negation import negated_unit, negated_zero_twin
from csp_check.language.negated_units import negated_amount, negated_unit_spans, negation_doubt
from csp_check.models import Span
from csp_check.pipeline import check_dialogue, load_corpus

STOPS = ("number_stops", "Number of layovers in the flight")


@pytest.mark.parametrize("utterance, words, doubt", [
    ("It has no layovers.", "no layovers", False),
    ("It does not have any layovers.", "not have any layovers", False),
    ("It doesn't have any intermediate stops.", "doesn't have any intermediate stops", False),
    ("There is a United flight without any stops at 5 pm.", "without any stops", False),
    ("A non-stop flight leaves at 5 pm.", "non-stop", False),
    ("It isn't a flight with layovers.", "isn't a flight with layovers", True),  # the scope may be "a flight"
    ("No it has layovers.", None, False),  # an answer, then a new statement
    ("No, it has layovers.", None, False),  # a clause boundary between
    ("I don't mind layovers.", None, False),  # either is fine
    ("It has 1 layover.", None, False),  # a number with the unit: cues.measure_spans
])  # fmt: skip
def test_a_negated_unit_reads_zero(utterance: str, words: str | None, doubt: bool) -> None:
    spans = negated_unit_spans(utterance, STOPS[0], [], STOPS[1])
    assert [utterance[s.start : s.end] for s in spans] == ([words] if words else [])
    if words:
        assert negated_amount(words, *STOPS) == 0
        assert (negation_doubt(words) is not None) == doubt


def test_no_party_size_is_zero() -> None:
    assert negated_unit_spans("There are no people in it.", "party_size") == []


@pytest.mark.parametrize("form, new", [(0, "has no layovers"), (1, "does not have any layovers")])
def test_the_fault_words(form: int, new: str) -> None:
    utterance = "The flight takes off at 6:25 pm and has 1 layover."
    at = utterance.index("1 layover")
    span, words = negated_unit(utterance, Span(start=at, end=at + 1), form)
    assert (utterance[span.start : span.end], words) == ("has 1 layover", new)


def _sgd(dialogue_id: str, file: str):
    path = SGD_DEV / file
    raw = next(d for d in json.loads(path.read_text(encoding="utf-8")) if d["dialogue_id"] == dialogue_id)
    return next(d for d in load_corpus([path]) if getattr(d, "id", "") == dialogue_id), raw


@needs_sgd
@pytest.mark.parametrize("mode", ["text", "annotated"])
def test_a_negated_unit_against_the_result_is_flagged_certain(mode: str) -> None:
    """SGD dev 1_00041 turn 3: "… has 1 layover" of a flight with 1 stop; "has no layovers"
    (or "does not have any layovers") is false: C5 (and C2 with the later mentions), certain."""
    dialogue, raw = _sgd("1_00041", "dialogues_001.json")
    assert not check_dialogue(dialogue).violations
    t = trial(dialogue, "negated_unit", mode, random.Random(0), raw=raw)
    assert t is not None and "layovers" in t.fault.new_text
    assert "C5" in {c.value for c in t.certain}, t


@needs_sgd
def test_a_stated_zero_said_by_negation_is_no_fault() -> None:
    """SGD dev 1_00032 turn 3: "… has 0 layovers" of a non-stop flight; "does not have any
    layovers" says the same: not flagged at all."""
    dialogue, raw = _sgd("1_00032", "dialogues_001.json")
    assert not check_dialogue(dialogue).violations
    twin = negated_zero_twin(dialogue, raw)
    assert twin is not None and "does not have any layovers" in twin.turns[3].utterance
    assert not check_dialogue(twin).violations
