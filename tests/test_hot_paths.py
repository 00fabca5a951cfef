"""The hot paths made fast (issue 22) read as before, and untrusted text in them is read literally
(issue 21, items 5 and 6): KB values with regex metacharacters, invisible characters in words."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB, needs_multiwoz

from csp_check.families.primitives import count_matches, entity_match
from csp_check.language.lexicon import literal
from csp_check.language.normalize import normalize, parse_amount
from csp_check.models import Dialogue, IndexedRows, Status, Turn
from csp_check.pipeline import check_dialogue
from csp_check.readers.jsonl import parse_line
from csp_check.readers.kb import kb_from_json, load_kb

ROOT = Path(__file__).resolve().parents[1]
KB = ROOT / "kb" / "restaurants.json"


def raw(*lines: str) -> Dialogue:
    """A raw-text dialogue: alternating user / system lines, no annotation."""
    return Dialogue(id="d", turns=[Turn(index=i, speaker="user" if i % 2 == 0 else "system", utterance=u)
                                   for i, u in enumerate(lines)])  # fmt: skip


# -- issue 21.5: a KB domain or value with regex metacharacters ----------------------------------
def test_a_kb_domain_with_regex_metacharacters_is_read_literally() -> None:
    kb = kb_from_json({"domain": "sh(op", "entities": [
        {"name": "alpha", "type": "sh(op", "area": "north"}, {"name": "beta", "type": "market", "area": "north"},
        {"name": "gamma", "type": "sh(op", "area": "south"}]})  # fmt: skip
    report = check_dialogue(raw("I need a place in the north.", "There are 2 places in the north. Any preference?",
                                "No.", "Alpha is in the north."), kb)  # fmt: skip
    assert report.status is not Status.ERROR, report.error


def test_kb_values_with_regex_metacharacters_are_read_literally() -> None:
    data = json.loads(KB.read_text(encoding="utf-8"))
    data["entities"][0]["name"] = "casa (del) sol["
    data["entities"][1]["food"] = "spanish+*"
    report = check_dialogue(raw("Is there a spanish+* place?", "Casa (del) sol[ is in the centre."), kb_from_json(data))
    assert report.status is not Status.ERROR, report.error


# -- issue 21.6: one normalisation for every path ------------------------------------------------
def test_a_zero_width_character_in_an_amount_word_reads_as_the_word() -> None:
    assert parse_amount("t\u200bwo") == 2 and normalize("sp\u200banish") == "spanish"
    kb = load_kb(KB)
    line = (ROOT / "examples" / "dialogues.jsonl").read_text(encoding="utf-8").splitlines()[0]
    data = json.loads(line)  # consistent-spanish-count: "There are two spanish restaurants."
    turn = data["turns"][1]
    turn["utterance"] = turn["utterance"].replace("two", "t\u200bwo")
    for act in turn["acts"]:
        if act.get("span"):
            start, end = act["span"]["start"], act["span"]["end"]
            act["span"] = {"start": start if start <= 10 else start + 1, "end": end + 1}
            act["value"] = turn["utterance"][act["span"]["start"] : act["span"]["end"]]
    annotated = parse_line(Path("x.jsonl"), 1, json.dumps(data))
    assert isinstance(annotated, Dialogue)
    assert check_dialogue(annotated, kb).status is Status.CONSISTENT
    text = raw("Hi, I'm looking for a Spanish restaurant.", "There are t\u200bwo Spanish restaurants in town.")
    report = check_dialogue(text, kb)
    assert report.status is Status.CONSISTENT and report.coverage.get("C6"), report


# -- issue 22: the indexed count agrees with the scan; a literal pattern with the per-value regex --
@needs_multiwoz
def test_indexed_counts_agree_with_the_scan_on_a_sample() -> None:
    rng = random.Random(0)
    kb = load_kb(MULTIWOZ_DB)
    for domain in ("restaurant", "hotel", "attraction", "train"):
        rows = kb.tables[domain].normalized()
        assert isinstance(rows, IndexedRows)
        plain = list(rows)
        columns = sorted({c for e in plain for c in e})
        for _ in range(60):
            cols = rng.sample(columns, rng.randint(1, 3))
            ops = [rng.choice(["=", "=", ">=", "<="]) for _ in cols]
            values = [rng.choice([*(e.get(c, "dontcare") for e in rng.sample(plain, 3)), "dontcare", "european", 2])
                      for c in cols]  # fmt: skip
            assert count_matches(rows, cols, values, ops) == count_matches(plain, cols, values, ops)
            expect = [entity_match(e, cols, values, ops) for e in plain]
            assert count_matches(rows, cols, values) == count_matches(plain, cols, values)
            assert count_matches(rows, cols, values, ops) == (sum(s for s, _ in expect), sum(p for _, p in expect))


@needs_multiwoz
@pytest.mark.parametrize("edge", [r"\w", r"\w:"])
def test_the_literal_matcher_agrees_with_the_per_value_regex(edge: str) -> None:
    kb = load_kb(MULTIWOZ_DB)
    names = sorted({e["name"] for t in kb.tables.values() for e in t.normalized() if "name" in e})
    texts = [f"i booked {n} for 2 at 10:15" for n in names[:40]] + [f"{names[3]}s and {names[5]}:00", "a (b) c+ [d]"]
    for value in [*names, "(b)", "c+", "[d]", "10:1"]:
        for text in texts:
            old = [m.span() for m in re.finditer(rf"(?<![{edge}]){re.escape(value)}(?![{edge}])", text)]
            assert [m.span() for m in literal(value, edge).finditer(text)] == old
