"""Raw text: annotation from KB matching (csp_check.annotate), the text reader, the pipeline hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from csp_check.annotate import Annotator, annotate, spellings
from csp_check.cli import main
from csp_check.kb import load_kb
from csp_check.models import ActRole, Dialogue, Status, Turn
from csp_check.pipeline import check_dialogue, dialogue_csp
from csp_check.readers import READERS, read_dialogues, sniff_format

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

    dialogues = [with_annotations(d, kb) for d in read_dialogues([RAW], kb=kb)]  # annotated in the pipeline
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
    text = "A table for two at Jade Lotus? There is one cheap italian restaurant and a couple of moderately priced ones."
    found = Annotator(kb).turn_acts(text, "system")
    assert [(a.role.value, a.value, a.canonical) for a in found if a.role is ActRole.COUNT] == [
        ("count", "one", "1"), ("count", "a couple", "2")
    ]
    d = annotate(raw("Hi.", text), kb)
    assert ("offer", "pricerange", "moderately priced", "moderate") in acts(d, 1)
    # two counts of one domain in one turn break a search down; one belief state cannot express both
    assert [a for a in d.turns[1].acts if a.role is ActRole.COUNT] == []


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
    items = list(read_dialogues([path], kb=kb))
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
    assert errors == [f"{RAW}: raw text needs --kb (its variables come from matching KB values)"]


def test_unannotated_jsonl_dialogue_is_annotated_when_a_kb_is_given(kb) -> None:
    gold = Dialogue.model_validate_json(ANNOTATED.read_text().splitlines()[3])
    assert gold.id == "inconsistent-amount"
    bare = stripped(gold)
    report = check_dialogue(bare, kb)
    assert [v.constraint.value for v in report.violations] == ["C6"]
    assert dialogue_csp(bare, None).variables == []  # no KB: nothing to match against
