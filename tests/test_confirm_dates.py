"""A date a system CONFIRM says reworded in the text only (SGD; acts and canonical left): the
text is the truth. Another day against the user's is certain; the same day in other English
words ("this coming Friday", "the 9th") is never certain, and words the date reader cannot
read are no sure value. Real SGD dev dialogues (dialogues_006: hotels, their check-in dates),
work half only, read in place."""

from __future__ import annotations

import json
from datetime import date

import pytest
from support.data import SGD

from csp_check.errors import InputError
from csp_check.faults.confirm_dates import confirm_date_pair, same_day_words
from csp_check.faults.rewrite import reword_span
from csp_check.language.dates import resolve_dates
from csp_check.language.normalize import date_key
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.sgd import from_raw
from csp_check.score.split import half_of

PATH = SGD / "dev" / "dialogues_006.json"
pytestmark = pytest.mark.skipif(not PATH.exists(), reason="../shared/data/sgd/dev is not beside the repo")


@pytest.fixture(scope="module")
def raws():
    return {d["dialogue_id"]: d for d in json.loads(PATH.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def accepted(raws):
    """The work half's dialogues of the file the checker accepts, with their SGD JSON."""
    return [(d, raws[d.id]) for d in load_corpus([PATH])
            if not isinstance(d, InputError) and half_of(d.id) == "work" and not check_dialogue(d).violations]


@pytest.fixture(scope="module")
def pairs(accepted):
    out = [p for d, raw in accepted if (p := confirm_date_pair(d, raw)) is not None]
    return out[:10]


def test_the_coming_weekday_and_the_day_alone():
    today = date(2019, 3, 1)  # a Friday
    for words in ("this coming Friday", "the coming Friday", "Friday coming", "coming Friday"):
        assert resolve_dates(words, today) == [date(2019, 3, 8)], words  # not today: the one ahead
        assert date_key(words) == "relative", words
    assert resolve_dates("this Friday", today) == [today]  # "this" includes today
    assert resolve_dates("this coming Monday", today) == [date(2019, 3, 4)]
    assert date_key("the 9th", 3) == "03-09" and date_key("Thursday the 14th", 3) == "03-14"
    assert date_key("the 9th") is None  # no month in force: unread
    assert same_day_words(date(2019, 3, 8)) == "this coming Friday" and same_day_words(date(2019, 3, 13)) == "the 13th"


def test_another_day_confirmed_is_certain(pairs):
    assert len(pairs) >= 8
    for fault, _ in pairs:
        assert any(v.certain and str(v.constraint) == "C2" for v in check_dialogue(fault).violations), fault.id


def test_the_same_day_in_other_words_is_never_certain(pairs):
    for _, twin in pairs:
        assert not any(v.certain for v in check_dialogue(twin).violations), twin.id


def test_a_date_the_reader_cannot_read_is_no_sure_value(accepted):
    """"a week from Monday" over a confirmed date: the reader names no day, so the C2 / C1 it
    breaks are for review, never certain."""
    tried = reviewed = 0
    for d, raw in accepted[:60]:
        for ti, turn in enumerate(raw["turns"]):
            span = next((s for f in turn["frames"] for a in f["actions"] if a["act"] == "CONFIRM"
                         and len(a.get("canonical_values") or []) == 1 and a["canonical_values"][0][:4] == "2019"
                         for s in f["slots"] if s["slot"] == a["slot"]
                         and turn["utterance"][s["start"]:s["exclusive_end"]] == a["values"][0]), None)
            if span is None:
                continue
            odd = reword_span(raw, ti, span, "a week from Monday")
            found = check_dialogue(from_raw(odd, d.ontology, d.source, d.slot_descriptions)).violations
            assert not any(v.certain for v in found), (d.id, [v.message for v in found if v.certain])
            reviewed += any("date reader" in (v.uncertain_reason or "") for v in found)
            tried += 1
            break
    assert tried >= 5 and reviewed >= tried // 2  # the reading is doubted, not dropped
