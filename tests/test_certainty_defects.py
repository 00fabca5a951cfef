"""Annotation defects are no dialogue errors (issue 18): a span whose words are not a value of its
slot's kind (a postcode or function words annotated as a phone, "some others" as a name) or a
time its verb gives the other slot of the trip ("leaves at 17:11 and arrives at 17:58" with the
slots swapped) makes what rests on it for review; the same place with a wrong value in the text
(the twin: a real error) stays certain. The dialogues are of MultiWOZ 2.1 val's work half
(csp_check.score.split), edited at one act."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from csp_check.faults.reading_twins import GENERATORS as DEFECTS
from csp_check.faults.twins import edit
from csp_check.language import certainty as words
from csp_check.models import Dialogue, Span, Status
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb
from csp_check.score.split import half_of

MULTIWOZ = Path(__file__).resolve().parents[2] / "shared" / "data" / "multiwoz"
PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]
needs_multiwoz = pytest.mark.skipif(not MULTIWOZ.exists(), reason="needs ../shared/data/multiwoz")


@cache
def kb():
    return load_kb(MULTIWOZ / "db")


@cache
def work(dialogue_id: str) -> Dialogue:
    assert half_of(dialogue_id) == "work"
    return next(d for d in load_corpus([MULTIWOZ / "val.json.zip"], kb=kb()) if d.id == dialogue_id)


def edited(dialogue: Dialogue, turn: int, slot: str, *, words_at: str | None = None, new_slot: str | None = None,
           text: tuple[str, str] | None = None, add: tuple[str, str, str] | None = None) -> Dialogue:
    """``dialogue`` with turn ``turn``'s act of ``slot`` moved to the words ``words_at`` or to
    ``new_slot``, the turn's text with ``text[0]`` replaced by ``text[1]`` (same length: the
    spans stay), or an act ``add`` = (domain, slot, words) of the turn's first act's role added."""
    t = dialogue.turns[turn]
    utterance = t.utterance.replace(*text) if text else t.utterance
    acts = []
    for a in t.acts:
        if a.slot == slot and words_at is not None:
            start = utterance.index(words_at)
            a = a.model_copy(update={"span": Span(start=start, end=start + len(words_at))})
        if a.slot == slot and new_slot is not None:
            a = a.model_copy(update={"slot": new_slot})
        acts.append(a)
    if add:
        domain, new, said = add
        start = utterance.index(said)
        first = next(a for a in t.acts if a.domain == domain)
        acts.append(first.model_copy(update={"slot": new, "value": said.lower(), "canonical": said.lower(),
                                             "span": Span(start=start, end=start + len(said))}))
    turns = list(dialogue.turns)
    turns[turn] = t.model_copy(update={"utterance": utterance, "acts": acts})
    return dialogue.model_copy(update={"turns": turns})


def verdict(dialogue: Dialogue):
    report = check_dialogue(dialogue, kb(), PAPER)
    return report.status, [v.uncertain_reason for v in report.violations if not v.certain]


@pytest.mark.parametrize(("slot", "said", "defect"), [
    ("phone", "cb21ad", True), ("phone", "yes", True), ("phone", "01223 351241", False),
    ("trainID", "v", True), ("trainID", "TR1234", False), ("name", "a few others", True),
    ("name", "in and", True), ("name", "the place", False), ("leaveAt", "every hour", False),
    ("book time", "noon", False), ("area", "for", True),
    ("name", "01223351241", True), ("restaurant_name", "01223 365068", True), ("phone", "01223365068", False),
    ("address", "12 hills road", False), ("appointment_date", "2019-03-01", False), ("pickup_date", "2019-03-11", False), ("ref", "00000013", False), ("name", "tr1234", False),
])
def test_a_value_not_of_its_slots_shape_is_an_annotation_defect(slot, said, defect):
    assert (words.not_a_value(slot, said) is not None) is defect


@pytest.mark.parametrize(("text", "at", "role"), [
    ("TR0315 leaving cambridge at 13:00 and arriving in London kings cross at 13:51 .", "13:51", "arrive"),
    ("TR0315 leaving cambridge at 13:00 and arriving in London kings cross at 13:51 .", "13:00", "leave"),
    ("I have train TR2755 that will leave at 09:40 and put you at the airport by 10:08", "10:08", "arrive"),
    ("A black tesla will arrive to pick you up at the hotel at 06:45", "06:45", "leave"),
    ("How about the 16:01 train ?", "16:01", None),
])
def test_the_last_verb_of_leaving_or_arriving_gives_a_times_role(text, at, role):
    start = text.index(at)
    assert words.time_role(text, Span(start=start, end=start + len(at))) == role


@needs_multiwoz
def test_a_postcode_or_function_words_annotated_as_a_phone_are_for_review_a_wrong_phone_is_not():
    d = work("MUL1288")  # 5: "The phone number is 01223351241 and the postcode is cb21ad ."
    assert verdict(d)[0] is Status.INCONSISTENT  # its real error: no expensive Indian restaurants (C4, turn 9)
    turn = d.turns[5].model_copy(update={"acts": [a for a in d.turns[5].acts if a.slot != "postcode"]})
    base = d.model_copy(update={"turns": [*d.turns[:5], turn]})  # the postcode's words annotated only as the phone
    assert verdict(base)[0] is Status.CONSISTENT
    for words_at in ("cb21ad", "and"):
        status, reasons = verdict(edited(base, 5, "phone", words_at=words_at))
        assert status is Status.UNCERTAIN and all("annotation defect" in r for r in reasons), reasons
    assert verdict(edited(base, 5, "phone", text=("01223351241", "01223351999")))[0] is Status.INCONSISTENT


@needs_multiwoz
def test_a_phone_number_annotated_as_a_name_is_for_review_a_name_the_kb_lacks_is_not():
    """A phone's digits (the folk museum's, said in turn 3 for "some others") annotated as a name."""
    d = work("PMUL2762")  # 3: "… Or I can tell you about some others ."
    base = d.model_copy(update={"turns": d.turns[:4]})
    phone = edited(base, 3, "", text=("some others", "01223355159"), add=("attraction", "name", "01223355159"))
    status, reasons = verdict(phone)
    assert status is Status.UNCERTAIN and all("annotation defect" in r for r in reasons), reasons
    twin = edited(base, 3, "", text=("some others", "Hobson Hall"), add=("attraction", "name", "Hobson Hall"))
    assert verdict(twin)[0] is Status.INCONSISTENT


@needs_multiwoz
def test_a_time_annotated_as_the_other_of_the_trip_is_for_review_a_wrong_time_is_not():
    d = work("PMUL1122")  # 7: "The TR3677 leaves at 17:11 and arrives at 17:58 ."
    assert verdict(d)[0] is Status.CONSISTENT
    swapped = edited(edited(d, 7, "leaveAt", new_slot="arrive"), 7, "arriveBy", new_slot="leaveAt")
    swapped = edited(swapped, 7, "arrive", new_slot="arriveBy")
    status, reasons = verdict(swapped)
    assert status is Status.UNCERTAIN and all("annotation defect" in r for r in reasons), reasons
    assert verdict(edited(d, 7, "arriveBy", text=("17:58", "18:58")))[0] is Status.INCONSISTENT


@needs_multiwoz
def test_a_lists_rest_read_as_a_name_is_for_review_a_name_the_kb_lacks_is_not():
    d = work("PMUL2762")  # 3: "… Or I can tell you about some others ."
    base = d.model_copy(update={"turns": d.turns[:4]})
    assert verdict(base)[0] is Status.CONSISTENT
    status, reasons = verdict(edited(base, 3, "", add=("attraction", "name", "some others")))
    assert status is Status.UNCERTAIN and all("annotation defect" in r for r in reasons), reasons
    twin = edited(base, 3, "", text=("some others", "Hobson Hall"), add=("attraction", "name", "Hobson Hall"))
    assert verdict(twin)[0] is Status.INCONSISTENT


@needs_multiwoz
@pytest.mark.parametrize("name", sorted(DEFECTS))
def test_defect_twins_are_not_certain_their_faults_are(name):
    """csp_check.faults.reading_twins on the first accepted work-half val dialogues with a place."""
    rng = random.Random(f"test-{name}")
    pairs = []
    for d in load_corpus([MULTIWOZ / "val.json.zip"], kb=kb()):
        if isinstance(d, Dialogue) and half_of(d.id) == "work" and check_dialogue(d, kb()).status is Status.CONSISTENT:
            if (pair := DEFECTS[name](d, kb(), rng)) is not None:
                pairs.append((d.id, pair))
        if len(pairs) == 4:
            break
    assert pairs, f"no place for {name}"
    for dialogue_id, (fault, twin) in pairs:
        assert check_dialogue(fault, kb()).status is Status.INCONSISTENT, (name, dialogue_id, "fault not certain")
        assert check_dialogue(twin, kb()).status is not Status.INCONSISTENT, (name, dialogue_id, "twin certain")


@needs_multiwoz
def test_any_annotated_as_a_train_id_is_a_defect_a_train_the_search_lacks_is_not():
    """"any" reads as dontcare, which no train id takes: the span is stale, not a value said."""
    d = work("PMUL1636")  # 15: "Train TR4987 will get you there by 10:08 . Do you need any tickets today ?"
    assert verdict(d)[0] is Status.CONSISTENT
    status, reasons = verdict(edited(d, 15, "trainID", words_at="any"))
    assert status is Status.UNCERTAIN and all("annotation defect" in r for r in reasons), reasons
    assert verdict(edited(d, 15, "trainID", text=("TR4987", "TR6699")))[0] is Status.INCONSISTENT


@needs_multiwoz
def test_a_typo_of_centre_in_a_name_the_kb_spells_center_is_a_variant_another_name_is_not():
    d = work("PMUL4976")  # 11: "… The nandos city centre is a great place to eat ." (KB: nandos city center)
    assert verdict(d)[0] is Status.CONSISTENT
    status, reasons = verdict(edited(d, 11, "name", text=("nandos city centre", "nandos city cnetre")))
    assert status is Status.UNCERTAIN and all("surface variant" in r for r in reasons), reasons
    name = next(a.span for a in d.turns[11].acts if a.slot == "name")
    assert verdict(edit(d, 11, name, "gourmet burger kitchen"))[0] is Status.INCONSISTENT


@needs_multiwoz
def test_a_filter_right_before_another_domains_kind_is_for_review_before_its_own_it_is_not():
    """"… a restaurant called nandos city centre I also need a expensive hotel": one sentence names
    both kinds, but "expensive" is of the hotel; "a expensive restaurant" is the restaurant's."""
    d = work("PMUL3880")  # 4: "Great I am also looking for a restaurant called nandos city centre"
    base = d
    assert verdict(base)[0] is Status.CONSISTENT
    said = "nandos city centre"

    def asked(kind: str) -> Dialogue:  # the words, their act and the belief state's filter
        out = edited(base, 4, "", text=(said, f"{said} I also need a expensive {kind} ."), add=("restaurant", "pricerange", "expensive"))
        turns = [t if t.index < 4 else t.model_copy(update={"state": {
            **t.state, "restaurant": {**t.state["restaurant"], "pricerange": ["expensive"]}}}) for t in out.turns]
        return out.model_copy(update={"turns": turns})

    status, reasons = verdict(asked("hotel"))
    assert status is Status.UNCERTAIN and all("hotel domain" in r for r in reasons), reasons
    assert verdict(asked("restaurant"))[0] is Status.INCONSISTENT


def spanless(dialogue: Dialogue, turn: int, slot: str, value: str) -> Dialogue:
    """``dialogue`` with turn ``turn``'s act of ``slot`` annotated ``value`` and given no span."""
    t = dialogue.turns[turn]
    acts = [a.model_copy(update={"span": None, "value": value, "canonical": value.lower()}) if a.slot == slot else a
            for a in t.acts]
    return dialogue.model_copy(update={"turns": [*dialogue.turns[:turn], t.model_copy(update={"acts": acts}),
                                                 *dialogue.turns[turn + 1:]]})


@needs_multiwoz
def test_a_spanless_train_id_not_of_its_shape_is_a_defect_a_spanless_id_of_another_train_is_not():
    """MultiWOZ annotates a train id "V" with no span: no words say it and it is no train id."""
    d = work("PMUL1636")  # 15: "Train TR4987 will get you there by 10:08 . Do you need any tickets today ?"
    status, reasons = verdict(spanless(d, 15, "trainID", "V"))
    assert status is Status.UNCERTAIN and all("annotation defect" in r and "no span" in r for r in reasons), reasons
    assert verdict(spanless(d, 15, "trainID", "TR6699"))[0] is Status.INCONSISTENT
