"""Readers: every format loads, sniffing picks it, spans are right, broken input gives one-line errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.data import SGD_DEV, SHARED

from csp_check.errors import InputError
from csp_check.language.normalize import normalize
from csp_check.models import ActRole, Dialogue
from csp_check.readers import READERS, jsonl, multiwoz, multiwoz22, read_dialogues, sniff_format, unified

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "multiwoz"
MWOZ21 = FIXTURES / "data.json"
MWOZ22 = FIXTURES / "v22"
EXAMPLES = ROOT / "examples" / "dialogues.jsonl"
UNIFIED_MWOZ = SHARED / "data" / "convlab_unified" / "multiwoz21_sample.json"
UNIFIED_SGD = SHARED / "data" / "convlab_unified" / "sgd_sample.json"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared data not present at {SHARED}")


def load(path: Path, fmt: str = "auto") -> tuple[list[Dialogue], list[InputError]]:
    items = list(read_dialogues([path], fmt))
    return [d for d in items if isinstance(d, Dialogue)], [e for e in items if isinstance(e, InputError)]


def span_share(dialogues: list[Dialogue]) -> tuple[int, float]:
    """(spans, share whose text normalises to the act value)."""
    total = good = 0
    for d in dialogues:
        for t in d.turns:
            for a in t.acts:
                if a.span is not None and a.value is not None:
                    total += 1
                    good += normalize(t.utterance[a.span.start : a.span.end]) == normalize(a.value)
    return total, good / total if total else 0.0


def one_line(err: InputError, *parts: str) -> None:
    text = str(err)
    assert "\n" not in text
    for part in parts:
        assert part in text, (part, text)


# --- sniffing ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "fmt"),
    [(MWOZ21, "multiwoz"), (MWOZ22, "multiwoz22"), (MWOZ22 / "dialogues_ours.json", "multiwoz22"), (EXAMPLES, "jsonl")],
)
def test_sniff_own_files(path: Path, fmt: str) -> None:
    assert sniff_format(path) == fmt


@needs_shared
@pytest.mark.parametrize(
    ("rel", "fmt"),
    [
        ("data/convlab_unified/multiwoz21_sample.json", "unified"),
        ("data/convlab_unified/sgd_sample.json", "unified"),
        ("data/sgd/dev", "sgd"),
        ("data/sgd/dev/dialogues_001.json", "sgd"),
    ],
)
def test_sniff_shared_files(rel: str, fmt: str) -> None:
    assert sniff_format(SHARED / rel) == fmt


def test_sniff_unknown_format(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just some text\n")
    with pytest.raises(InputError) as info:
        sniff_format(path)
    one_line(info.value, str(path), "unknown format")
    _, errors = load(path)
    assert len(errors) == 1 and "unknown format" in str(errors[0])


@pytest.mark.parametrize("name", ["empty.json", "empty.txt"])
def test_an_empty_file_is_called_empty(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("  \n")
    with pytest.raises(InputError) as info:
        sniff_format(path)
    one_line(info.value, f"no dialogues in {path} (the file is empty)")


def test_a_kb_given_as_input_gets_a_hint(tmp_path: Path) -> None:
    """Our KB JSON and a MultiWOZ *_db.json read as dialogues: say to give them with --kb."""
    db = tmp_path / "hotel_db.json"
    db.write_text(json.dumps([{"name": "acorn guest house", "area": "north"}]))
    ours = Path(__file__).resolve().parents[1] / "kb" / "restaurants.json"
    for path in (ours, db):
        with pytest.raises(InputError) as info:
            sniff_format(path)
        one_line(info.value, str(path), "give it with --kb")
    other = tmp_path / "list.json"  # a list of records not named *_db.json: no KB claim
    other.write_text(json.dumps([{"name": "x"}]))
    with pytest.raises(InputError, match="unknown format"):
        sniff_format(other)


def test_sniffers_reject_each_other(tmp_path: Path) -> None:
    """Each own file is claimed by exactly its reader (none of the others say yes)."""
    for path, fmt in [(MWOZ21, "multiwoz"), (MWOZ22 / "dialogues_ours.json", "multiwoz22"), (EXAMPLES, "jsonl")]:
        claimed = [name for name, module in READERS.items() if module.sniff(path)]
        assert claimed == [fmt], (path, claimed)


# --- MultiWOZ 2.1-2.3 ---------------------------------------------------------------------------
def test_multiwoz_fixture_loads_with_exact_spans() -> None:
    dialogues, errors = load(MWOZ21)
    assert errors == []
    assert [d.id for d in dialogues] == ["SNG90001.json", "SNG90002.json", "PMUL9003.json", "SNG90004.json"]
    assert all(d.format == "multiwoz" and d.domains == ["restaurant"] for d in dialogues)
    total, share = span_share(dialogues)
    assert total >= 30 and share >= 0.95  # "moderately" for moderate is the one paraphrase


def test_multiwoz_mapping() -> None:
    d = next(iter(multiwoz.read(MWOZ21)))
    count = next(a for a in d.turns[1].acts if a.role is ActRole.COUNT)
    assert (count.slot, count.value, count.canonical) == ("choice", "two", "2")
    assert d.turns[1].utterance[count.span.start : count.span.end] == "two"
    request = next(a for a in d.turns[1].acts if a.role is ActRole.REQUEST)
    assert (request.slot, request.value) == ("pricerange", None)
    offers = {a.slot: a.value for a in d.turns[3].acts if a.role is ActRole.OFFER}
    assert offers == {"name": "la raza", "pricerange": "cheap", "food": "spanish", "area": "centre"}
    area = next(a for a in d.turns[3].acts if a.slot == "area")
    assert d.turns[3].utterance[area.span.start : area.span.end] == "centre"  # the token was "centre."
    booked = [a for a in d.turns[5].acts if a.role is ActRole.BOOKED]
    assert {a.domain for a in booked} == {"restaurant"} and {a.slot for a in booked} == {"ref", "name"}
    assert d.turns[4].state["restaurant"] == {
        "food": ["spanish"], "pricerange": ["cheap"], "book people": ["2"], "book day": ["friday"], "book time": ["18:00"]
    }
    assert d.turns[0].state == {"restaurant": {"food": ["spanish"]}}  # state after the user turn
    second = list(multiwoz.read(MWOZ21))[1]
    assert [a.role for a in second.turns[1].acts][:2] == [ActRole.NO_RESULT, ActRole.NO_RESULT]
    assert second.turns[2].state["restaurant"]["pricerange"] == ["dontcare"]
    last = list(multiwoz.read(MWOZ21))[3]
    assert last.turns[2].acts == []  # "No Annotation"
    assert last.turns[1].state["restaurant"]["food"] == ["indian"]  # list-valued metadata


@pytest.mark.parametrize(
    ("slot", "domain", "column"),
    [
        ("Price", "restaurant", "pricerange"), ("Addr", "hotel", "address"), ("Post", "attraction", "postcode"),
        ("Leave", "train", "leaveAt"), ("Arrive", "taxi", "arriveBy"), ("Dest", "train", "destination"),
        ("Depart", "train", "departure"), ("Ticket", "train", "price"), ("Id", "train", "trainID"),
        ("Ref", "restaurant", "ref"), ("Fee", "attraction", "entrance fee"), ("Time", "train", "duration"),
        ("Day", "train", "day"), ("Day", "restaurant", "book day"), ("People", "hotel", "book people"),
        ("price range", "hotel", "pricerange"), ("leave at", "taxi", "leaveAt"), ("train id", "train", "trainID"),
        ("bookstay", "hotel", "book stay"), ("price_range", "Restaurants_1", "price_range"),
    ],
)
def test_slot_to_db_column(slot: str, domain: str, column: str) -> None:
    assert multiwoz.column(domain, slot) == column


@needs_shared
def test_mapped_columns_exist_in_the_db() -> None:
    db = SHARED / "data" / "multiwoz" / "db"
    columns = set(json.loads((db / "restaurant_db.json").read_text())[0])
    for slot in ("Price", "Addr", "Post", "Food", "Area", "Name", "Phone"):
        assert multiwoz.column("restaurant", slot) in columns
    train = set(json.loads((db / "train_db.json").read_text())[0])
    for slot in ("Leave", "Arrive", "Dest", "Depart", "Ticket", "Id", "Day", "Time"):
        assert multiwoz.column("train", slot) in train


def test_multiwoz_single_dialogue_and_list(tmp_path: Path) -> None:
    data = json.loads(MWOZ21.read_text())
    single = tmp_path / "SNG90001.json"
    single.write_text(json.dumps(data["SNG90001.json"]))
    dialogues, errors = load(single)
    assert errors == [] and [d.id for d in dialogues] == ["SNG90001"] and len(dialogues[0].turns) == 6
    as_list = tmp_path / "list.json"
    as_list.write_text(json.dumps([{"dialogue_id": k, **v} for k, v in data.items()]))
    dialogues, errors = load(as_list, "multiwoz")
    assert errors == [] and [d.id for d in dialogues][:2] == ["SNG90001.json", "SNG90002.json"]


def test_multiwoz_broken_dialogues_do_not_sink_the_file(tmp_path: Path) -> None:
    data = json.loads(MWOZ21.read_text())
    data["SNG90001.json"]["log"][1]["span_info"][0][4] = 99  # word index outside the utterance
    data["SNG90002.json"]["log"] = []  # no turns
    data["PMUL9003.json"]["log"][2]["text"] = 42  # wrong type
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data))
    dialogues, errors = load(path)
    assert [d.id for d in dialogues] == ["SNG90004.json"]
    assert len(errors) == 3
    one_line(errors[0], str(path), "dialogue SNG90001.json", "log[1].span_info[0]", "outside its utterance")
    one_line(errors[1], "dialogue SNG90002.json", "log", "no turns")
    one_line(errors[2], "dialogue PMUL9003.json", "log[2].text")


def test_multiwoz_truncated_file_keeps_earlier_dialogues(tmp_path: Path) -> None:
    text = json.dumps(json.loads(MWOZ21.read_text()), indent=1)
    path = tmp_path / "data.json"
    path.write_text(text[: text.index('"PMUL9003.json"') + 200])
    dialogues, errors = load(path, "multiwoz")
    assert [d.id for d in dialogues] == ["SNG90001.json", "SNG90002.json"]
    assert len(errors) == 1
    one_line(errors[0], str(path), "invalid JSON")


# --- MultiWOZ 2.2 -------------------------------------------------------------------------------
def test_multiwoz22_fixture() -> None:
    dialogues, errors = load(MWOZ22)
    assert errors == []
    assert [d.id for d in dialogues] == ["SNG90001.json", "SNG90002.json", "PMUL9003.json", "SNG90004.json"]
    total, share = span_share(dialogues)
    assert total >= 30 and share >= 0.95
    d = dialogues[0]
    assert d.format == "multiwoz22" and d.turns[1].speaker == "system"
    assert d.turns[4].state["restaurant"]["book day"] == ["friday"]
    assert d.turns[5].state == d.turns[4].state  # a system turn keeps the user's state
    count = next(a for a in d.turns[1].acts if a.role is ActRole.COUNT)
    assert (count.value, count.canonical) == ("two", "2")


def test_multiwoz22_without_dialog_acts_uses_frame_actions(tmp_path: Path) -> None:
    dialogues = json.loads((MWOZ22 / "dialogues_ours.json").read_text())
    first = dialogues[0]
    first["turns"][0]["frames"][0]["actions"] = [{"act": "INFORM", "slot": "restaurant-food", "values": ["spanish"]}]
    (tmp_path / "dialogues_001.json").write_text(json.dumps([first]))
    (d,), errors = load(tmp_path)
    assert errors == []
    (act,) = d.turns[0].acts
    assert (act.role, act.domain, act.slot, act.value) == (ActRole.INFORM, "restaurant", "food", "spanish")
    assert d.turns[0].utterance[act.span.start : act.span.end] == "spanish"  # span from the frame slots


def test_multiwoz22_bad_spans(tmp_path: Path) -> None:
    shutil.copy(MWOZ22 / "dialog_acts.json", tmp_path / "dialog_acts.json")
    dialogues = json.loads((MWOZ22 / "dialogues_ours.json").read_text())
    dialogues[0]["turns"][0]["frames"][0]["slots"][0]["exclusive_end"] = 500
    acts = json.loads((MWOZ22 / "dialog_acts.json").read_text())
    acts["SNG90002.json"]["1"]["span_info"][0][3] = -1
    (tmp_path / "dialog_acts.json").write_text(json.dumps(acts))
    (tmp_path / "dialogues_001.json").write_text(json.dumps(dialogues))
    good, errors = load(tmp_path / "dialogues_001.json")
    assert [d.id for d in good] == ["PMUL9003.json", "SNG90004.json"]
    one_line(errors[0], "dialogues_001.json", "dialogue SNG90001.json", "turns[0].frames[0].slots[0]", "outside")
    one_line(errors[1], "dialog_acts.json", "dialogue SNG90002.json", "span_info[0]", "outside")


# --- ConvLab-3 unified --------------------------------------------------------------------------
@needs_shared
@pytest.mark.parametrize("path", [UNIFIED_MWOZ, UNIFIED_SGD], ids=["multiwoz21", "sgd"])
def test_unified_samples_load(path: Path) -> None:
    dialogues, errors = load(path)
    assert errors == [] and len(dialogues) == 10
    assert all(d.format == "unified" for d in dialogues)
    total, share = span_share(dialogues)
    assert total > 100 and share >= 0.95


@needs_shared
def test_unified_multiwoz_mapping() -> None:
    d = next(iter(unified.read(UNIFIED_MWOZ)))
    assert d.turns[0].state["hotel"] == {"pricerange": ["cheap"], "type": ["hotel"]}
    count = next(a for a in d.turns[3].acts if a.role is ActRole.COUNT)
    assert (count.domain, count.slot, count.value, count.canonical) == ("hotel", "choice", "1", "1")
    slots = {a.slot for dd in unified.read(UNIFIED_MWOZ) for t in dd.turns for a in t.acts}
    assert {"pricerange", "leaveAt", "arriveBy", "trainID", "book day"} <= slots
    assert "price range" not in slots


@needs_shared
def test_unified_sgd_mapping() -> None:
    d = next(iter(unified.read(UNIFIED_SGD)))
    assert d.domains == ["Restaurants_1"]
    counted = [(t, a) for t in d.turns for a in t.acts if a.role is ActRole.COUNT]
    assert counted
    for turn, act in counted:
        (result,) = turn.kb_results
        assert result.call is not None and result.call.method == "FindRestaurants"
        assert int(act.canonical) == len(result.entities)
        assert all(isinstance(v, str) for e in result.entities for v in e.values())
    roles = {a.role for t in d.turns for a in t.acts}
    assert {ActRole.OFFER, ActRole.CONFIRM, ActRole.BOOKED} <= roles


def test_unified_broken(tmp_path: Path) -> None:
    good = {
        "dialogue_id": "u-1", "domains": ["restaurant"],
        "turns": [{"speaker": "user", "utterance": "cheap food", "dialogue_acts": {"non-categorical": [
            {"intent": "inform", "domain": "restaurant", "slot": "price range", "value": "cheap", "start": 0, "end": 5}]},
            "state": {"restaurant": {"price range": "cheap", "food": ""}}}],
    }
    bad_span = json.loads(json.dumps(good)) | {"dialogue_id": "u-2"}
    bad_span["turns"][0]["dialogue_acts"]["non-categorical"][0]["end"] = 50
    no_turns = {"dialogue_id": "u-3", "turns": []}
    wrong_type = {"dialogue_id": "u-4", "turns": [{"speaker": "user", "utterance": ["not", "text"]}]}
    path = tmp_path / "unified.json"
    path.write_text(json.dumps([good, bad_span, no_turns, wrong_type, good | {"dialogue_id": "u-5"}]))
    dialogues, errors = load(path)
    assert [d.id for d in dialogues] == ["u-1", "u-5"]
    assert dialogues[0].turns[0].acts[0].slot == "pricerange"
    assert dialogues[0].turns[0].state == {"restaurant": {"pricerange": ["cheap"]}}
    one_line(errors[0], str(path), "dialogue u-2", "turns[0].dialogue_acts.non-categorical[0]", "outside")
    one_line(errors[1], "dialogue u-3", "turns", "no turns")
    one_line(errors[2], "dialogue u-4", "turns[0]", "utterance")


# --- JSONL ---------------------------------------------------------------------------------------
def test_jsonl_examples_load_with_exact_spans() -> None:
    dialogues, errors = load(EXAMPLES)
    assert errors == [] and len(dialogues) == 7
    assert all(d.format == "jsonl" and d.source == str(EXAMPLES) for d in dialogues)
    total, share = span_share(dialogues)
    assert total >= 20
    # every span is exact except the coreference break, whose text drifted on purpose
    drifted = [
        (d.id, t.index) for d in dialogues for t in d.turns for a in t.acts
        if a.span and normalize(t.utterance[a.span.start : a.span.end]) != normalize(a.value)
    ]
    assert drifted == [("inconsistent-coreference", 1)]


def test_jsonl_bad_lines(tmp_path: Path) -> None:
    lines = EXAMPLES.read_text().splitlines()
    bad_type = json.loads(lines[1])
    bad_type["turns"][0]["speaker"] = "robot"
    bad_span = json.loads(lines[2])
    bad_span["turns"][1]["acts"][0]["span"] = {"start": 3, "end": 400}
    no_turns = {"id": "empty", "turns": []}
    path = tmp_path / "d.jsonl"
    path.write_text("\n".join([lines[0], "", json.dumps(bad_type), '{"id": "cut", "turns": [', json.dumps(bad_span), json.dumps(no_turns), lines[3]]) + "\n")
    dialogues, errors = load(path)
    assert [d.id for d in dialogues] == ["consistent-spanish-count", "inconsistent-amount"]
    assert len(errors) == 4
    one_line(errors[0], f"{path}:3", "dialogue consistent-no-result", "turns[0].speaker")
    one_line(errors[1], f"{path}:4", "invalid JSON")
    one_line(errors[2], f"{path}:5", "dialogue consistent-italian-address", "turns[1].acts[0].span", "outside")
    one_line(errors[3], f"{path}:6", "dialogue empty", "turns", "no turns")


def test_jsonl_schema_is_published() -> None:
    published = (ROOT / "csp_check" / "schema" / "dialogue.schema.json").read_text(encoding="utf-8")
    assert published == jsonl.schema_text(), "regenerate: python -m csp_check.schema --write"


def test_examples_file_is_up_to_date() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's csp_check, installed or not
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "make_examples.py"), "--check"],
                          capture_output=True, text=True, env=env)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


# --- all formats --------------------------------------------------------------------------------
def test_missing_path_and_forced_wrong_format(tmp_path: Path) -> None:
    _, errors = load(tmp_path / "nope.json")
    one_line(errors[0], "no such file")
    _, errors = load(EXAMPLES, "multiwoz")  # JSONL forced through a JSON reader
    assert errors and all("\n" not in str(e) for e in errors)


@needs_shared
def test_sgd_still_reads_after_shared_helpers() -> None:
    dialogues, errors = load(SGD_DEV / "dialogues_001.json")
    assert errors == [] and len(dialogues) > 50
    assert multiwoz22.sniff(SGD_DEV) is False


@needs_shared
def test_unified_single_dialogue_and_id_mapping(tmp_path: Path) -> None:
    sample = json.loads(UNIFIED_MWOZ.read_text())
    one = tmp_path / "one.json"
    one.write_text(json.dumps(sample[2]))
    assert [d.id for d in load(one)[0]] == ["multiwoz21-train-2"]
    mapping = tmp_path / "mapping.json"
    mapping.write_text(json.dumps({d["dialogue_id"]: d for d in sample[:3]}))
    assert [d.id for d in load(mapping)[0]] == ["multiwoz21-train-0", "multiwoz21-train-1", "multiwoz21-train-2"]


def test_every_reader_implements_the_protocol_without_a_kb() -> None:
    """readers/base.py: NAME, sniff(path), read(path) — no reader takes a KB (raw text says it needs one)."""
    import inspect

    from csp_check.readers.base import Reader

    for name, reader in READERS.items():
        assert isinstance(reader, Reader) and reader.NAME == name
        assert "kb" not in inspect.signature(reader.read).parameters, name
    raw = ROOT / "examples" / "raw_dialogues.txt"
    [error] = read_dialogues([raw])
    assert isinstance(error, InputError) and "raw text needs --kb" in str(error)
    read = list(read_dialogues([raw], has_kb=True))
    assert read and all(isinstance(d, Dialogue) and not any(t.acts for t in d.turns) for d in read)
