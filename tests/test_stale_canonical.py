"""A time rewritten in an SGD act's text and ``values`` with its ``canonical_values`` left stale:
the text is the truth, so a time no result has is a certain fault, and the same time in other
words (the twin) is never certain. Real SGD dialogues (dev dialogues_001: buses, their leaving
times in "7:00 am" form), read in place."""

from __future__ import annotations

import json

import pytest
from support.data import SGD

from csp_check.errors import InputError
from csp_check.faults.stale_canonical import in_digits, said_in_words, stale_canonical_pair, stale_confirm_pair
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.sgd import trusted_canonical
from csp_check.score.split import half_of

PATH = SGD / "dev" / "dialogues_001.json"
pytestmark = pytest.mark.skipif(not PATH.exists(), reason="../shared/data/sgd/dev is not beside the repo")


@pytest.fixture(scope="module")
def pairs():
    """(fault, twin) of the first accepted dialogues of the file with a place for one."""
    raws = {d["dialogue_id"]: d for d in json.loads(PATH.read_text(encoding="utf-8"))}
    out = []
    for d in load_corpus([PATH]):
        if isinstance(d, InputError) or check_dialogue(d).violations:
            continue
        pair = stale_canonical_pair(d, raws[d.id])
        if pair is not None:
            out.append(pair)
        if len(out) == 8:
            break
    return out


def test_the_value_outranks_a_stale_canonical():
    assert trusted_canonical("8:00 am", "07:00") == "08:00"
    assert trusted_canonical("7:30", "19:30") == "19:30"  # no period: the canonical decides
    assert trusted_canonical("$40", "35") == "40"
    assert trusted_canonical("seven o'clock in the morning", "07:00") == "07:00"
    assert trusted_canonical("Economy", "economy") == "economy"
    assert trusted_canonical("8", "6") == "8" and trusted_canonical("6", "6") == "6"
    assert trusted_canonical("March 18th", "2019-03-13") == "2019-03-18"
    assert trusted_canonical("next Sunday", "2019-03-08") == "2019-03-10"  # from SGD's today, Friday 2019-03-01
    assert trusted_canonical("next Friday", "2019-03-08") == "2019-03-08"
    assert trusted_canonical("the 13th of March", "2019-03-13") == "2019-03-13"


def test_the_words_of_a_time():
    assert said_in_words("07:00") == "seven o'clock in the morning"
    assert said_in_words("19:30") == "half past seven in the evening"
    assert in_digits("08:00") == "8:00 am" and in_digits("19:30") == "7:30 pm"


def test_a_time_behind_a_stale_canonical_is_certain(pairs):
    assert len(pairs) >= 5
    for fault, _ in pairs:
        assert any(v.certain for v in check_dialogue(fault).violations), fault.id


def test_the_same_time_in_other_words_is_never_certain(pairs):
    for _, twin in pairs:
        assert not any(v.certain for v in check_dialogue(twin).violations), twin.id


HOTELS = SGD / "dev" / "dialogues_006.json"


@pytest.fixture(scope="module")
def confirm_pairs():
    """(fault, twin) of a confirmed number / date (dev dialogues_006: hotels' stays and check-in
    dates), work half, accepted dialogues."""
    raws = {d["dialogue_id"]: d for d in json.loads(HOTELS.read_text(encoding="utf-8"))}
    out = []
    for d in load_corpus([HOTELS]):
        if isinstance(d, InputError) or half_of(d.id) != "work" or check_dialogue(d).violations:
            continue
        pair = stale_confirm_pair(d, raws[d.id])
        if pair is not None:
            out.append(pair)
        if len(out) == 10:
            break
    return out


def test_a_confirmed_number_or_date_behind_a_stale_canonical_is_certain(confirm_pairs):
    assert len(confirm_pairs) >= 8
    for fault, _ in confirm_pairs:
        assert any(v.certain for v in check_dialogue(fault).violations), fault.id


def test_the_same_number_or_date_in_other_words_is_never_certain(confirm_pairs):
    for _, twin in confirm_pairs:
        assert not any(v.certain for v in check_dialogue(twin).violations), twin.id
