"""Issue 18's misses on real MultiWOZ 2.1 val dialogues (work half): a count under a belief-state
value the text never says is checked with it as an implicit filter (families.c6_implicit), and the
entity a booking names first is checked with the search in force (c5_some_instance.booked_entity);
each fault of faults.misses is flagged certain, each twin is not."""

from __future__ import annotations

from functools import lru_cache

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL

from csp_check.families.c6_implicit import StateValue
from csp_check.faults.misses import (
    GENERATORS,
    PAPER,
    address_claims,
    booked_entities,
    breakdown_counts,
    implicit_counts,
)
from csp_check.models import Dialogue, Status
from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus
from csp_check.readers.kb import load_kb
from csp_check.score.split import half_of

needs_shared = pytest.mark.skipif(not MULTIWOZ_DB.is_dir(), reason="../shared/data absent")
#: work-half dialogues with a place for each kind (benchmarks/misses.py --half work)
PLACES = {"implicit_count": ["PMUL0025", "PMUL0555", "MUL2487"], "booked_misfit": ["MUL2014", "MUL2020", "SNG0381"],
          "breakdown_count": ["SNG0783", "MUL0651", "MUL0229"],
          "address_part": ["PMUL3363", "MUL1044", "PMUL3979"]}


@lru_cache(maxsize=1)
def corpus() -> tuple[dict[str, Dialogue], object]:
    kb = load_kb(MULTIWOZ_DB)
    wanted = {i for ids in PLACES.values() for i in ids}
    wanted |= {"PMUL2421", "MUL0219", "MUL2448", "MUL0602"}
    items = {d.id: d for d in load_corpus([MULTIWOZ_VAL], kb=kb) if isinstance(d, Dialogue) and d.id in wanted}
    return items, kb


@needs_shared
def test_implicit_filter_recorded() -> None:
    """PMUL0025 counts under a state value no variable mentions: the count is checked with it, said
    so. (SNG0896's "free wifi" is no longer one: its text reads internet=yes, context._latest_mention.)"""
    items, kb = corpus()
    csp = dialogue_csp(items["PMUL0025"], kb, PAPER)
    found = implicit_counts(csp)
    assert found
    _, c = found[0]
    assert c.table.of(StateValue)
    assert any("from the belief state (no mention in the text)" in r for r in c.reading)


@needs_shared
def test_booked_entity_checked_with_search() -> None:
    items, kb = corpus()
    csp = dialogue_csp(items["MUL0602"], kb, PAPER)
    found = booked_entities(csp)
    assert found
    name, c = found[0]
    assert len(c.variables) > 1 and any(csp.variable(n).turn < name.turn for n in c.variables[1:])


@needs_shared
@pytest.mark.parametrize("kind,dialogue_id", [(k, i) for k, ids in PLACES.items() for i in ids])
def test_fault_certain_twin_not(kind: str, dialogue_id: str) -> None:
    items, kb = corpus()
    d = items[dialogue_id]
    assert half_of(d.id) == "work"
    assert check_dialogue(d, kb, PAPER).status is Status.CONSISTENT
    fault, twin = GENERATORS[kind](d, kb), GENERATORS[kind](d, kb, True)
    assert fault is not None and twin is not None
    assert check_dialogue(fault, kb, PAPER).status is Status.INCONSISTENT
    assert not any(v.certain for v in check_dialogue(twin, kb, PAPER).violations)


@needs_shared
def test_breakdown_total_and_parts() -> None:
    """MUL0229 "3 mediterranean restaurants in the centre. One falls in a cheap price range, and the
    other 2 are expensive": the 3 under the search with no price of its parts, the One as cheap;
    "the other 2" (no whole number) is not checked."""
    items, kb = corpus()
    csp = dialogue_csp(items["MUL0229"], kb, PAPER)
    found = {csp.variable(c.count_variable).text: c for _, c in breakdown_counts(csp)}
    assert set(found) == {"3", "One"}
    assert "pricerange" not in found["3"].columns
    assert [csp.assignment[n] for n, col in zip(found["One"].variables, found["One"].columns) if col == "pricerange"] == ["cheap"]


@needs_shared
def test_breakdown_parts_sharing_a_slot_are_all_parts() -> None:
    """PMUL2421 "three cheap chinese restaurants in the centre and one in the south": two parts,
    the second under the search (cheap chinese) in the south. MUL0219 "There are 4 that meet your
    request . 2 are moderately priced and 2 are expensively priced": both parts are annotated on
    the first "2"; that part ends where the text coordinates the other number (mw31), so the total
    4 is checked without a price and the first part under its own price, and both hold."""
    items, kb = corpus()
    csp = dialogue_csp(items["PMUL2421"], kb, PAPER)
    south = [c for _, c in breakdown_counts(csp) if csp.variable(c.count_variable).value == 1]
    assert south and {"food", "pricerange", "area"} <= set(south[0].columns)
    assert check_dialogue(items["PMUL2421"], kb, PAPER).status is Status.CONSISTENT
    csp = dialogue_csp(items["MUL0219"], kb, PAPER)
    found = breakdown_counts(csp)
    assert [a.value for a, _ in found] == [4, 2]
    assert "pricerange" not in found[0][1].columns and "pricerange" in found[1][1].columns
    assert not [v for v in check_dialogue(items["MUL0219"], kb, PAPER).violations if v.constraint.value == "C6"]


@needs_shared
def test_address_over_several_acts_keeps_the_name() -> None:
    """PMUL3979 "It is located at 15 - 17 norman way , coldhams business park" (two acts) about
    the express by holiday inn: one C5 with the name and both parts; MUL2448's two addresses in two
    sentences ("Golden Wok is at … The nirala is at …") are two entities, no such C5."""
    items, kb = corpus()
    csp = dialogue_csp(items["PMUL3979"], kb, PAPER)
    (parts, c), = address_claims(csp)
    assert len(parts) == 2 and "name" in c.columns and c.columns[-2:] == ["address part 1", "address part 2"]
    assert not [c for c in address_claims(dialogue_csp(items["MUL2448"], kb, PAPER))[0:] if c[1].turn == 7]
