"""Faults an LLM relexicaliser or an annotator makes on MultiWOZ 2.1 val (benchmarks/attack_multiwoz.py),
each on a real val dialogue: the fault flagged by the constraint it breaks, its true twin not."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB as DB
from support.data import MULTIWOZ_VAL as VAL

from csp_check.models import Span
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb

pytestmark = pytest.mark.skipif(not DB.is_dir() or not VAL.exists(), reason="../shared/data absent")
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
_CACHE: dict = {}


def _val(dialogue_id: str):  # type: ignore[no-untyped-def]
    """(the MultiWOZ 2.1 val dialogue ``dialogue_id``, the shared DB), the split read once per run."""
    if not _CACHE:
        kb = load_kb(DB)
        _CACHE.update({d.id: d for d in load_corpus([VAL], kb=kb) if hasattr(d, "turns")})
        _CACHE[None] = kb
    return _CACHE[dialogue_id], _CACHE[None]


def _edit(dialogue, turn: int, old: str, new: str):  # type: ignore[no-untyped-def]
    """``dialogue`` with the first ``old`` of turn ``turn`` written as ``new`` (text only, spans re-aligned)."""
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    from multiwoz import edit_text

    start = dialogue.turns[turn].utterance.index(old)
    return edit_text(dialogue, turn, Span(start=start, end=start + len(old)), new)


def _ids(dialogue, kb, turn: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The constraint ids the checker flags on ``dialogue`` at ``turn``."""
    return [v.constraint.value for v in check_dialogue(dialogue, kb).violations if turn in v.turns]


def _relexicalised(dialogue_id: str, turn: int, old: str, new: str):  # type: ignore[no-untyped-def]
    """(the val dialogue with ``new`` written over the first ``old`` of one turn, the act annotated
    at that span given ``new`` as its value too, as a relexicaliser that rewrites both does; the DB)."""
    dialogue, kb = _val(dialogue_id)
    out = _edit(dialogue, turn, old, new)
    start = out.turns[turn].utterance.index(new)
    for act in out.turns[turn].acts:
        if act.span is not None and (act.span.start, act.span.end) == (start, start + len(new)):
            act.value = act.canonical = new
    return out, kb


def _raw(dialogue_id: str):  # type: ignore[no-untyped-def]
    """(the val dialogue as raw text: ``User:`` / ``System:`` lines read back, no acts; the DB)."""
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    from rawtext import raw_dialogues, read_zip

    _, kb = _val(dialogue_id)
    [raw] = list(raw_dialogues(read_zip(VAL), [dialogue_id]))
    return raw, kb


def _raw_edit(raw, turn: int, old: str, new: str):  # type: ignore[no-untyped-def]
    out = raw.model_copy(deep=True)
    assert old in out.turns[turn].utterance
    out.turns[turn].utterance = out.turns[turn].utterance.replace(old, new, 1)
    return out


@pytest.mark.parametrize("new,flagged", [("only two", True), ("just one", True), ("four", False), ("several", False)])
def test_an_exact_amount_in_words_is_read(new: str, flagged: bool) -> None:
    """MUL0311 turn 11 "There are 4 options - dojo noodle bar, ..." with the count and its act
    rewritten: "only two" / "just one" state an exact amount the DB contradicts (C6); "four" is the
    same count, "several" names no number."""
    faulty, kb = _relexicalised("MUL0311", 11, "4", new)
    assert faulty.turns[11].utterance.startswith(f"There are {new} options")
    assert ("C6" in _ids(faulty, kb, 11)) is flagged


@pytest.mark.parametrize("new,flagged", [("budget", False), ("low-cost", False), ("inexpensive", False),
                                         ("pricey", True), ("upscale", True)])
def test_price_words_are_price_ranges(new: str, flagged: bool) -> None:
    """MUL0637 turn 3: Finches bed and breakfast (cheap) "the price range is cheap", the word
    rewritten in the text only: "budget" / "low-cost" are cheap (no flag, no C1 for an unknown
    value); "pricey" / "upscale" are expensive, which Finches is not (C5)."""
    dialogue, kb = _val("MUL0637")
    ids = _ids(_edit(dialogue, 3, "cheap", new), kb, 3)
    assert ("C5" in ids) is flagged and "C1" not in ids


@pytest.mark.parametrize("new,flagged", [("five", True), ("four", False)])
def test_stars_annotated_in_words(new: str, flagged: bool) -> None:
    """MUL0751 turn 1 "Autumn House is a cheap, 4-star guesthouse", text and act rewritten: a
    "five-star" Autumn House (4 stars; no hotel of the DB has 5) is refuted (C5), though the
    annotation's own "five" is no DB value; "four" is its rating."""
    faulty, kb = _relexicalised("MUL0751", 1, "4", new)
    assert faulty.turns[1].utterance.startswith(f"Autumn House is a cheap , {new}-star")
    assert ("C5" in _ids(faulty, kb, 1)) is flagged


@pytest.mark.parametrize("new,flagged", [("4", True), ("2", True), ("three", False), ("3", False)])
def test_a_booking_for_another_party_size(new: str, flagged: bool) -> None:
    """MUL0650: the user asks for three tickets (turn 6), the system confirms "I booked 3 tickets"
    (turn 7). With the confirmation and its act both rewritten, a booking for 4 is not the one asked
    for (C2); "three" is."""
    faulty, kb = _relexicalised("MUL0650", 7, "3", new)
    assert f"I booked {new} tickets" in faulty.turns[7].utterance
    assert ("C2" in _ids(faulty, kb, 7)) is flagged


def test_gold_bookings_for_another_party() -> None:
    """Real errors of the release: PMUL3072 (5 people for 3 nights asked, "3 people, 5 nights"
    booked) and MUL2092 (6 tickets asked, "booked for 4") are C2."""
    for dialogue_id, turn in (("PMUL3072", 11), ("MUL2092", 5)):
        dialogue, kb = _val(dialogue_id)
        assert "C2" in _ids(dialogue, kb, turn), dialogue_id


@pytest.mark.parametrize("new,flagged", [("TR6544", True), ("TR4645", True), ("tr6454", False)])
def test_a_booked_train_id_no_train_has(new: str, flagged: bool) -> None:
    """MUL0650 turn 7 "I booked 3 tickets on train TR6454", the id rewritten in text and act: an
    id of the DB's form that no train has is refuted in a booking confirmation too (C5); the id
    in lower case is the same train. The release's MUL0219 books TR8912, which the DB lacks."""
    dialogue, kb = _relexicalised("MUL0650", 7, "TR6454", new)
    id_alone = f"states trainID='{new.lower()}';"  # the id refuted by itself, not with its time
    messages = [v.message for v in check_dialogue(dialogue, kb).violations if v.constraint.value == "C5" and 7 in v.turns]
    assert any(id_alone in m for m in messages) is flagged, messages
    gold, kb = _val("MUL0219")
    assert "C5" in _ids(gold, kb, 13)


@pytest.mark.parametrize("arrive,flagged", [("17:45", True), ("05:00", False)])
def test_a_no_result_under_an_arrival_bound(arrive: str, flagged: bool) -> None:
    """MUL0676 as raw text: "I'd like to arrive by 17:45" (Ely to Cambridge, Sunday), "there are
    no trains available at that time": the DB has trains arriving before 17:45, so the no-result
    is false (C4) under the bound, not only for a train arriving at 17:45 exactly; none arrives by
    05:00, so that no-result is true."""
    raw, kb = _raw("MUL0676")
    dialogue = _raw_edit(raw, 8, "17:45", arrive)
    assert ("C4" in _ids(dialogue, kb, 9)) is flagged


@pytest.mark.parametrize("said,flagged", [("over 13", True), ("over 10", False), ("about 13", False),
                                          ("about 30", True)])
def test_a_bounded_count_in_raw_text(said: str, flagged: bool) -> None:
    """PMUL2492 turn 7 as raw text, "There are over 13 attractions on the west side": the DB has
    13, so "over 13" is false (C6) where "over 10" and "about 13" hold and "about 30" does not."""
    raw, kb = _raw("PMUL2492")
    dialogue = _raw_edit(raw, 7, "over 13", said)
    assert ("C6" in _ids(dialogue, kb, 7)) is flagged


def test_gold_flags_stay_true() -> None:
    """A true dialogue stays unflagged by these rules: MUL0751, MUL0637 and MUL0311 as released.
    MUL0650 as released books TR6454 "leaving at 13:11" on a Saturday: the DB's TR6454 leaves at
    12:11 on Fridays, 23:21 on Saturdays, so its one C5 is that booking (a blind reader of stop 31
    read it real), not the id."""
    for dialogue_id in ("MUL0751", "MUL0637", "MUL0311"):
        dialogue, kb = _val(dialogue_id)
        assert not check_dialogue(dialogue, kb, ["C1", "C2", "C3", "C4", "C5", "C6"]).violations, dialogue_id
    dialogue, kb = _val("MUL0650")
    flags = check_dialogue(dialogue, kb, ["C1", "C2", "C3", "C4", "C5", "C6"]).violations
    assert [(v.constraint.value, v.turns) for v in flags] == [("C5", [7])]
    assert "leaveAt='13:11'" in flags[0].message


@pytest.mark.parametrize("new,flagged", [("TR4152", True), ("TR4125", False), ("tr4125", False)])
def test_a_train_id_no_train_has_in_raw_text(new: str, flagged: bool) -> None:
    """PMUL3169 turn 9 as raw text, "The TR4125 meets your criteria": an id of the DB's form that
    no train has ("TR4152", two digits swapped) is read as an id and refuted (C5), not left
    unread; the released id, in either case, is not flagged. The release's MUL1884 offers TR3859,
    which the DB lacks (C5)."""
    raw, kb = _raw("PMUL3169")
    assert ("C5" in _ids(_raw_edit(raw, 9, "TR4125", new), kb, 9)) is flagged
    gold, kb = _raw("MUL1884")
    assert "C5" in _ids(gold, kb, 7)
