"""A postcode is a code, not a noun: "CB5 8BS" is the KB's "cb58bs" (no plural s is taken off a
word with a digit: csp_check/language/normalize.py ``_singular``). Real MultiWOZ val dialogues of
the work half whose system turn gives a postcode ending in s, in the annotated and the raw-text
form: the postcode written spaced and in capitals is no flag; another postcode is a certain C5
break (no entity has that name and postcode). In raw text a code no KB value matches is still
read when it has a form the KB's column commonly has (csp_check/annotate/finders.py ``codes``): an
invented phone is a certain C5 break, a taxi's contact number ("07…", a form two attractions
have) is none."""

from __future__ import annotations

import json
import zipfile
from functools import cache
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz_val

from csp_check.language.normalize import wording_key
from csp_check.models import Dialogue, Status, Turn
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb

pytestmark = needs_multiwoz_val
PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]
#: (dialogue id, system turn, the postcode as the turn writes it); all of the work half.
SITES = [("MUL1923", 9, "cb58bs"), ("MUL2615", 15, "cb58bs"), ("MUL1881", 13, "cb30ds")]


@cache
def val() -> dict:
    with zipfile.ZipFile(MULTIWOZ_VAL) as z:
        member = next(n for n in z.namelist() if n.endswith(".json"))
        return json.loads(z.read(member))


def spaced(code: str) -> str:
    """"cb58bs" → "CB5 8BS": the outward and inward parts, as a postcode is printed."""
    return f"{code[:-3]} {code[-3:]}".upper()


def annotated(tmp_path: Path, dialogue_id: str, turn: int, old: str, new: str) -> Dialogue:
    """The val dialogue with turn ``turn``'s word ``old`` written ``new`` (its span_info word
    indices shifted past the new words)."""
    dialogue = json.loads(json.dumps(val()[dialogue_id]))
    entry = dialogue["log"][turn]
    words = entry["text"].split(" ")
    at = words.index(old)
    grow = len(new.split(" ")) - 1
    entry["text"] = " ".join(words[:at] + new.split(" ") + words[at + 1:])
    for span in entry.get("span_info", []):
        span[3] += grow if span[3] > at else 0
        span[4] += grow if span[4] >= at else 0
        if span[3] == at:
            span[2] = new
    path = tmp_path / "data.json"
    path.write_text(json.dumps({dialogue_id: dialogue}))
    return next(d for d in load_corpus([path], "multiwoz") if isinstance(d, Dialogue))


def raw(dialogue_id: str, turn: int, old: str, new: str) -> Dialogue:
    """The val dialogue as raw text (no annotation), turn ``turn``'s ``old`` written ``new``."""
    turns = [Turn(index=k, speaker="user" if k % 2 == 0 else "system",
                  utterance=t["text"].replace(old, new) if k == turn else t["text"])
             for k, t in enumerate(val()[dialogue_id]["log"])]
    return Dialogue(id=dialogue_id, turns=turns)


def test_every_kb_postcode_written_spaced_has_the_kb_s_key() -> None:
    kb = load_kb(MULTIWOZ_DB)
    codes = {e["postcode"] for t in kb.tables.values() for e in t.normalized() if e.get("postcode")}
    assert len(codes) > 100
    assert [c for c in codes if wording_key("postcode", spaced(c.replace(" ", ""))) != wording_key("postcode", c)] == []


@pytest.mark.parametrize("form", ["annotated", "raw"])
@pytest.mark.parametrize(("dialogue_id", "turn", "code"), SITES)
def test_a_spaced_postcode_is_no_flag_and_a_changed_one_is_certain(tmp_path: Path, form: str, dialogue_id: str,
                                                                    turn: int, code: str) -> None:
    kb = load_kb(MULTIWOZ_DB)

    def check(new: str):
        d = annotated(tmp_path, dialogue_id, turn, code, new) if form == "annotated" else raw(dialogue_id, turn, code, new)
        return check_dialogue(d, kb, PAPER)

    def about(report, text: str):
        return [v for v in report.violations if any((x.text or "").lower() == text.lower() for x in v.variables)]

    original = check(code)
    assert not about(original, code)
    twin = check(spaced(code))
    assert twin.status is original.status and not about(twin, spaced(code))
    wrong = code[:-3] + "9zz"  # no KB entity's postcode (one letter off is for review: a surface variant)
    fault = check(spaced(wrong))
    assert fault.status is Status.INCONSISTENT and any(v.certain for v in about(fault, spaced(wrong)))


@pytest.mark.parametrize(("dialogue_id", "turn", "phone"), [("SNG01235", 5, "01223412299"), ("SNG0566", 3, "01223365599")])
def test_an_invented_phone_in_raw_text_is_a_certain_c5_and_the_spaced_kb_one_none(dialogue_id: str, turn: int,
                                                                                  phone: str) -> None:
    kb = load_kb(MULTIWOZ_DB)
    original = check_dialogue(raw(dialogue_id, turn, phone, phone), kb, PAPER)
    twin = check_dialogue(raw(dialogue_id, turn, phone, f"{phone[:5]} {phone[5:]}"), kb, PAPER)
    assert twin.status is original.status and not [v for v in twin.violations if "phone" in v.message]
    fault = check_dialogue(raw(dialogue_id, turn, phone, "01223 909090"), kb, PAPER)
    assert fault.status is Status.INCONSISTENT
    assert any(v.certain and v.constraint.value == "C5" and "01223909090" in v.message for v in fault.violations)


def test_a_taxi_s_contact_number_is_no_kb_phone() -> None:
    # SNG0068 turn 1: "Your car type is the Grey Skoda and its contact number is 07506457479 ."
    assert check_dialogue(raw("SNG0068", 1, "07506457479", "07506457479"), load_kb(MULTIWOZ_DB), PAPER).status \
        is Status.CONSISTENT
