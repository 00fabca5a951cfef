"""Raw text: annotation from KB matching (csp_check.annotate), the text reader, the pipeline hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.data import MULTIWOZ_VAL

from csp_check.annotate import annotate
from csp_check.annotate.annotator import Annotator
from csp_check.annotate.wordings import spellings
from csp_check.cli.main import main
from csp_check.models import ActRole, Dialogue, Status, Turn
from csp_check.pipeline import check_dialogue, dialogue_csp
from csp_check.readers import READERS, read_dialogues, sniff_format
from csp_check.readers.kb import load_kb

ROOT = Path(__file__).resolve().parents[1]
RAW = ROOT / "examples" / "raw_dialogues.txt"
ANNOTATED = ROOT / "examples" / "dialogues.jsonl"
KB_PATH = ROOT / "kb" / "restaurants.json"


@pytest.fixture(scope="module")
def kb():
    return load_kb(KB_PATH)


def raw(*lines: str, dialogue_id: str = "d") -> Dialogue:
    """A dialogue of alternating user / system lines, with no annotations."""
    turns = [Turn(index=i, speaker="user" if i % 2 == 0 else "system", utterance=u) for i, u in enumerate(lines)]
    return Dialogue(id=dialogue_id, turns=turns)


def stripped(dialogue: Dialogue) -> Dialogue:
    return dialogue.model_copy(update={"turns": [t.model_copy(update={"acts": [], "state": {}}) for t in dialogue.turns]})


def acts(dialogue: Dialogue, turn: int) -> list[tuple[str, str, str | None, str | None]]:
    return [(a.role.value, a.slot, a.value, a.canonical) for a in dialogue.turns[turn].acts]


# --- annotation ---------------------------------------------------------------------------------
def test_spans_are_the_surface_text(kb) -> None:
    from csp_check.pipeline import with_annotations

    dialogues = [with_annotations(d, kb) for d in read_dialogues([RAW], has_kb=kb is not None)]  # annotated in the pipeline
    assert [d.id for d in dialogues] == ["raw-consistent", "raw-wrong-amount", "raw-wrong-offer"]
    total = 0
    for d in dialogues:
        for turn in d.turns:
            for act in turn.acts:
                if act.span is not None:
                    total += 1
                    assert turn.utterance[act.span.start : act.span.end] == act.value
    assert total >= 15


def test_roles_amounts_and_state(kb) -> None:
    d = annotate(raw("I need a cheap place in the center.", "There are two cheap Spanish restaurants: El Farolito is one."), kb)
    assert acts(d, 0) == [("inform", "pricerange", "cheap", "cheap"), ("inform", "area", "center", "centre")]
    assert d.turns[0].state == {"restaurant": {"pricerange": ["cheap"], "area": ["centre"]}}
    assert acts(d, 1) == [  # a system turn that names an entity offers its other values too
        ("count", "choice", "two", "2"),
        ("offer", "pricerange", "cheap", "cheap"),
        ("offer", "food", "Spanish", "spanish"),
        ("offer", "name", "El Farolito", "el farolito"),
    ]
    # a system turn that counts carries the search its count is about: the user's request
    # plus what the count's own sentence says before the entity it names
    assert d.turns[1].state == {"restaurant": {"pricerange": ["cheap"], "area": ["centre"], "food": ["spanish"]}}
    assert d.domains == ["restaurant"]


def test_amount_words_need_a_domain_noun_that_agrees(kb) -> None:
    text = "A table for two at Jade Lotus? There is one cheap italian restaurant and two moderately priced ones."
    found = Annotator(kb).turn_acts(text, "system")
    assert [(a.role.value, a.value, a.canonical) for a in found if a.role is ActRole.COUNT] == [
        ("count", "one", "1"), ("count", "two", "2")
    ]
    d = annotate(raw("Hi.", text), kb)
    assert ("offer", "pricerange", "moderately priced", "moderate") in acts(d, 1)
    # two counts of one domain in one turn break a search down; one belief state cannot express both
    assert [a for a in d.turns[1].acts if a.role is ActRole.COUNT] == []
    # "a couple of" is used loosely (MultiWOZ: "a couple of options" where the DB has 5): no count
    loose = Annotator(kb).turn_acts("There are a couple of moderately priced italian restaurants.", "system")
    assert [a for a in loose if a.role is ActRole.COUNT] == []


def test_no_result_relabels_the_utterance_values(kb) -> None:
    d = annotate(raw("Lebanese food in the north?", "Sorry, there is no lebanese restaurant in the north."), kb)
    assert acts(d, 1) == [
        ("no_result", "", None, None),
        ("no_result", "food", "lebanese", "lebanese"),
        ("no_result", "area", "north", "north"),
    ]
    report = check_dialogue(d, kb)
    assert report.status is Status.CONSISTENT and report.coverage.get("C4") == 2


def test_no_negative_cue_without_a_domain_word(kb) -> None:
    d = annotate(raw("Book Jade Lotus.", "No problem, there is no need to call Jade Lotus first."), kb)
    assert all(a.role is not ActRole.NO_RESULT for a in d.turns[1].acts)
    d = annotate(raw("Something in the north?", "I couldn't find any."), kb)
    # "any" is about the request: its values join as implicit no-result values (no span)
    assert acts(d, 1) == [("no_result", "", None, None), ("no_result", "area", "north", "north")]
    assert d.turns[1].acts[1].span is None


def test_spellings_are_the_normalisers_equivalents() -> None:
    assert spellings("centre") == ["centre", "center", "city centre", "city center"]
    assert spellings("pizza hut city centre") == ["pizza hut city centre", "pizza hut city center"]
    assert spellings("the oak and ivy") == ["the oak and ivy", "oak and ivy"]
    assert spellings("moderate") == ["moderate", "moderately priced"]


def test_annotation_finds_the_hand_annotated_spans(kb) -> None:
    """Stripped of its acts, every turn of examples/dialogues.jsonl is annotated again from its
    text: the value spans (and slots) of the hand annotation are found."""
    hand = found = extra = 0
    for line in ANNOTATED.read_text().splitlines():
        gold = Dialogue.model_validate_json(line)
        auto = annotate(stripped(gold), kb)
        for g, a in zip(gold.turns, auto.turns):
            want = {(x.span.start, x.span.end, x.slot) for x in g.acts if x.span is not None}
            got = {(x.span.start, x.span.end, x.slot) for x in a.acts if x.span is not None}
            hand += len(want)
            found += len(want & got)
            extra += len(got - want)
    assert hand >= 30
    assert found / hand >= 0.9
    assert extra <= 0.1 * hand


# --- the text reader ----------------------------------------------------------------------------
def test_text_files_sniff_last_and_only_as_text(tmp_path: Path) -> None:
    assert list(READERS)[-1] == "text"
    assert sniff_format(RAW) == "text"
    assert [n for n, m in READERS.items() if m.sniff(RAW)] == ["text"]
    other = tmp_path / "notes.txt"
    other.write_text("Dear diary,\nUser: not a dialogue\n")
    assert not READERS["text"].sniff(other)


def test_text_format_ids_labels_and_bad_blocks(tmp_path: Path, kb) -> None:
    path = tmp_path / "chat.txt"
    path.write_text(
        "USER: a cheap place\nAssistant: Jade Lotus is cheap.\n  It is in the centre.\n\n"
        "Narration without a speaker\nUser: ignored\n\n"
        "### named\n\nuser: hello\nBot: hi\n"
    )
    items = list(read_dialogues([path], has_kb=kb is not None))
    first, bad, named = items
    assert first.id == "chat-1" and [t.speaker for t in first.turns] == ["user", "system"]
    assert first.turns[1].utterance == "Jade Lotus is cheap. It is in the centre."
    assert first.format == "text" and first.source == str(path)
    assert str(bad) == f"{path}:5: expected a speaker label (User: / System: / Assistant: / Bot:)"
    assert named.id == "named" and len(named.turns) == 2


# --- the whole pipeline -------------------------------------------------------------------------
def test_validate_raw_examples(tmp_path: Path) -> None:
    report_path = tmp_path / "report.jsonl"
    result = CliRunner().invoke(
        main, ["validate", str(RAW), "--kb", str(KB_PATH), "--report", str(report_path)], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 1, result.output
    assert "raw-wrong-amount C6 turn 1" in result.stdout
    assert "turn 1 says 3 with restaurant.food='spanish'; the KB has 2" in result.stdout
    reports = {r["dialogue_id"]: r for r in map(json.loads, report_path.read_text().splitlines())}
    verdicts = {i: (r["status"], sorted({v["constraint"] for v in r["violations"]})) for i, r in reports.items()}
    assert verdicts == {
        "raw-consistent": ("consistent", []),
        "raw-wrong-amount": ("inconsistent", ["C6"]),
        "raw-wrong-offer": ("inconsistent", ["C5"]),
    }


def test_raw_text_without_kb_is_one_line_error_exit_2() -> None:
    result = CliRunner().invoke(main, ["validate", str(RAW)], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    errors = result.stderr.strip().splitlines()
    assert errors == [f"csp-check: error: {RAW}: raw text needs --kb (its variables come from matching KB values)"]


def test_unannotated_jsonl_dialogue_is_annotated_when_a_kb_is_given(kb) -> None:
    gold = Dialogue.model_validate_json(ANNOTATED.read_text().splitlines()[3])
    assert gold.id == "inconsistent-amount"
    bare = stripped(gold)
    report = check_dialogue(bare, kb)
    assert [v.constraint.value for v in report.violations] == ["C6"]
    assert dialogue_csp(bare, None).variables == []  # no KB: nothing to match against


# --- raw text with a multi-domain KB: each class of MultiWOZ wording the annotator reads ------------
from csp_check.readers.kb import short_form  # noqa: E402

TOWN = short_form({
    "restaurant": [
        {"name": "golden wok", "food": "chinese", "area": "north", "pricerange": "moderate", "address": "191 histon road"},
        {"name": "jade garden", "food": "chinese", "area": "centre", "pricerange": "cheap", "address": "2 market street"},
        {"name": "saffron brasserie", "food": "indian", "area": "centre", "pricerange": "expensive", "address": "4 hills road"},
        {"name": "curry house", "food": "indian", "area": "north", "pricerange": "moderate", "address": "9 mill road"},
        {"name": "bella pasta", "food": "italian", "area": "centre", "pricerange": "moderate", "address": "7 bridge street"},
    ],
    "hotel": [
        {"name": "acorn guest house", "type": "guesthouse", "area": "north", "pricerange": "moderate", "stars": "4",
         "parking": "yes", "internet": "yes"},
        {"name": "ashley hotel", "type": "hotel", "area": "north", "pricerange": "moderate", "stars": "2",
         "parking": "yes", "internet": "yes"},
        {"name": "city centre north b and b", "type": "guesthouse", "area": "north", "pricerange": "cheap",
         "stars": "0", "parking": "yes", "internet": "yes"},
        {"name": "gonville hotel", "type": "hotel", "area": "centre", "pricerange": "expensive", "stars": "3",
         "parking": "yes", "internet": "yes"},
        {"name": "el shaddai", "type": "guesthouse", "area": "centre", "pricerange": "cheap", "stars": "0",
         "parking": "no", "internet": "yes"},
    ],
    "train": [
        {"trainID": "TR1000", "departure": "cambridge", "destination": "ely", "day": "monday", "leaveAt": "17:11",
         "arriveBy": "17:28"},
        {"trainID": "TR1001", "departure": "cambridge", "destination": "ely", "day": "monday", "leaveAt": "18:11",
         "arriveBy": "18:28"},
        {"trainID": "TR1002", "departure": "ely", "destination": "cambridge", "day": "monday", "leaveAt": "09:00",
         "arriveBy": "09:17"},
        {"trainID": "TR1003", "departure": "cambridge", "destination": "ely", "day": "tuesday", "leaveAt": "17:11",
         "arriveBy": "17:28"},
    ],
})  # fmt: skip


def verdict(*lines: str) -> list[str]:
    """The constraints a raw dialogue (alternating user / system lines) breaks against TOWN."""
    return sorted({v.constraint.value for v in check_dialogue(raw(*lines), TOWN).violations})


def state_after(d: Dialogue, turn: int, domain: str) -> dict[str, list[str]]:
    return d.turns[turn].state.get(domain, {})


def test_request_is_carried_across_turns_for_counts() -> None:
    """A count compares with everything the user asked for so far, in any wording."""
    lines = ["I want a moderately priced place to eat.", "Which part of town?", "The north of town please, chinese food."]
    assert verdict(*lines, "There is 1 restaurant like that: Golden Wok.") == []
    assert verdict(*lines, "There are 2 restaurants like that.") == ["C6"]
    d = annotate(raw(*lines), TOWN)
    assert state_after(d, 2, "restaurant") == {"pricerange": ["moderate"], "area": ["north"], "food": ["chinese"]}


def test_paraphrases_stars_and_amenities() -> None:
    d = annotate(raw("I need a mid-range guesthouse in the northern part of town, 4-star with free wifi and parking."), TOWN)
    assert state_after(d, 0, "hotel") == {
        "pricerange": ["moderate"], "type": ["guesthouse"], "area": ["north"], "stars": ["4"], "internet": ["yes"],
        "parking": ["yes"],
    }  # fmt: skip
    d = annotate(raw("It does n't need to have free parking, but a 0 star rating is fine."), TOWN)
    assert state_after(d, 0, "hotel") == {"stars": ["0"]}  # a negated request is none


def test_hotel_is_the_domain_or_the_type_whichever_is_true() -> None:
    """The user's "hotel" names the domain; a count of "hotels" may mean the type."""
    assert verdict("I need a hotel in the north.", "Acorn Guest House is a guesthouse in the north.") == []
    assert verdict("I need a hotel in the north.", "There is 1 hotel in the north.") == []  # the type
    assert verdict("I need a hotel in the north.", "There are 3 places in the north.") == []  # the domain
    assert verdict("I need a hotel in the north.", "There are 2 places in the north.") == ["C6"]
    # a guesthouse asked, a hotel offered: the offer does not fit the request
    assert verdict("A guesthouse in the north please.", "The Ashley Hotel is a hotel in the north.") == ["C5"]
    assert verdict("I don't want a guesthouse. Something in the north.", "There is 1 hotel in the north.") == []


def test_trip_bounds_are_no_equalities() -> None:
    d = annotate(raw("I need a train from Cambridge to Ely on Monday. I want to leave after 17:00 and arrive by 18:30."), TOWN)
    assert state_after(d, 0, "train") == {
        "departure": ["cambridge"], "destination": ["ely"], "day": ["monday"], "leaveAt": ["17:00"], "arriveBy": ["18:30"]
    }
    lines = ["I need a train from Cambridge to Ely on Monday, leaving after 17:00."]
    assert verdict(*lines, "TR1000 leaves at 17:11 and arrives at 17:28.") == []  # an answer to the bound
    assert verdict(*lines, "TR1000 leaves at 17:45.") == ["C5"]  # no such train
    assert verdict(*lines, "Trains arrive by 18:30 every hour.") == []  # a bound restated is no claim


def test_places_need_their_domain_in_context() -> None:
    """"Cambridge" is the city as well as a station: outside train talk it is no departure."""
    d = annotate(raw("On my trip to Cambridge I need a hotel in the north."), TOWN)
    assert "train" not in d.turns[0].state
    d = annotate(raw("I need a train to Ely.", "Where from?", "Arriving in Ely, leaving Cambridge."), TOWN)
    assert state_after(d, 2, "train") == {"destination": ["ely"], "departure": ["cambridge"]}


def test_same_area_and_same_day_come_from_before() -> None:
    d = annotate(raw("I'm staying at the Ashley Hotel on Monday.", "Great.",
                     "I also need a restaurant in the same area as the hotel.", "Sure.",
                     "And a train to Ely on the same day."), TOWN)  # fmt: skip
    assert state_after(d, 2, "restaurant") == {"area": ["north"]}
    assert state_after(d, 4, "train")["day"] == ["monday"]
    implicit = [a for a in d.turns[2].acts if a.span is None]
    assert [(a.domain, a.slot, a.canonical) for a in implicit] == [("restaurant", "area", "north")]


def test_values_about_it_are_checked_against_the_entity_under_discussion() -> None:
    lines = ["Tell me about the Golden Wok.", "Sure."]
    assert verdict(*lines, "What area is it in?", "It is in the north.") == []
    assert verdict(*lines, "What area is it in?", "It is in the centre.") == ["C5"]


def test_no_result_is_about_the_request_unless_it_cannot_be_read() -> None:
    lines = ["I want indian food in the north, something expensive."]
    assert verdict(*lines, "Sorry, there are no matching restaurants in the north.") == []
    assert verdict("I want chinese food in the north.", "Sorry, there are no matching restaurants in the north.") == ["C4"]
    # a cuisine no KB value names: what the system denies cannot be read, so no C4
    assert verdict("I want hungarian food in the north.", "There is no matching restaurant.") == []


def test_bounded_counts_are_read_and_breakdowns_are_no_counts() -> None:
    # a bound or a hedge is a count with its comparison (cues.amount_op): TOWN has 5 restaurants
    assert verdict("A place to eat please.", "There are over 30 restaurants.") == ["C6"]
    assert verdict("A place to eat please.", "There are about 30 restaurants.") == ["C6"]
    assert verdict("A place to eat please.", "There are over 2 restaurants.") == []
    assert verdict("A place to eat please.", "There are about 5 restaurants.") == []
    assert verdict("A place to eat please.", "There are 2 chinese restaurants and 3 indian restaurants.") == []
    assert verdict("A place to stay in the north.", "There are two other guesthouses.") == []


def test_name_variants_and_bookings() -> None:
    d = annotate(raw("Is City Centre North B&B cheap?"), TOWN)
    assert [(a.slot, a.canonical) for a in d.turns[0].acts if a.slot == "name"] == [("name", "city centre north b and b")]
    lines = ["Book the Acorn Guest House for 2 nights."]
    assert verdict(*lines, "Booked! Your stay at Acorn Guest House is confirmed, reference 12AB.") == []
    assert verdict(*lines, "Booked! Your stay at Ashley Hotel is confirmed, reference 12AB.") == ["C2"]


def test_raw_text_faults_are_flagged() -> None:
    """Each kind of raw-text fault, injected into a dialogue the checker accepts, is flagged."""
    import random

    from csp_check.faults.raw_text import RAW_KINDS, inject_raw_text

    gold = raw(
        "I want a moderately priced restaurant.",
        "There are 3 restaurants like that: Golden Wok, Curry House or Bella Pasta.",
        "Tell me about the north ones.",
        "The Golden Wok is a moderately priced chinese place in the north.",
    )
    assert check_dialogue(gold, TOWN).violations == []
    flagged = {}
    for kind in RAW_KINDS:
        injected = inject_raw_text(gold, kind, random.Random(0), TOWN)
        assert injected is not None, kind
        faulty, fault = injected
        found = {v.constraint for v in check_dialogue(faulty, TOWN).violations}
        flagged[kind] = bool(found & fault.expected)
        assert all(not t.acts for t in faulty.turns)  # still raw text
    assert flagged == dict.fromkeys(RAW_KINDS, True)


@pytest.mark.skipif(not MULTIWOZ_VAL.exists(), reason="shared MultiWOZ 2.1 val not present")
def test_multiwoz_val_as_raw_text_flags_at_most_35_percent() -> None:
    """A seeded sample of MultiWOZ 2.1 val gold text read as raw text with the DB: ≤ 35 % flagged
    with C1–C6 (benchmarks/rawtext.py measures the whole split)."""
    import random
    import sys
    import time

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from rawtext import check, raw_dialogues, read_zip

    start = time.perf_counter()
    db = load_kb(MULTIWOZ_VAL.parent / "db")
    data = read_zip(MULTIWOZ_VAL)
    ids = random.Random(0).sample(sorted(data), 250)
    reports = [check(d, db) for d in raw_dialogues(data, ids)]
    assert len(reports) == 250
    flagged = sum(bool(r.violations) for r in reports) / len(reports)
    assert flagged <= 0.35, flagged
    assert time.perf_counter() - start < 60
