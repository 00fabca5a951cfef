"""Relexicalizers on hand-built CSPs (Random, Most Frequent, CSP) and the CSP relexicalizer's
GCA 1.0 on every solvable real SGD dialogue of a sample."""

from __future__ import annotations

import random

import pytest
from support.data import SGD

from csp_check.check.evaluate import violations
from csp_check.families import instance
from csp_check.models import CSP, ActRole, ConstraintId, DelexicalizedDialogue, Span, Variable, VariableKind
from csp_check.relexicalize import (
    NAMES,
    CspRelexicalizer,
    MostFrequentRelexicalizer,
    RandomRelexicalizer,
    Relexicalizer,
    get_relexicalizer,
)

KB = [
    {"name": "napoli", "area": "center", "food": "italian"},
    {"name": "mario", "area": "center", "food": "italian"},
    {"name": "roma", "area": "north", "food": "italian"},
    {"name": "beirut", "area": "east", "food": "lebanese"},
]


def var(name, turn, slot, value, kind=VariableKind.SLOT, role=ActRole.INFORM, explicit=True) -> Variable:
    return Variable(
        name=name, turn=turn, speaker="user" if turn % 2 == 0 else "system", kind=kind, domain="restaurant",
        slot=slot, role=role, span=Span(start=0, end=1) if explicit else None, text=str(value) if explicit else None,
        value=value,
    )  # fmt: skip


def hand_csp(kb=KB, count=2) -> tuple[CSP, DelexicalizedDialogue]:
    """"I want [x1] food in the [x2]." / "There are [x3] [x4] places; [x5] is one." / "[x6] it is."
    plus an implicit x7 (date). C1 all; C2 x1=x4, x5=x6; C5 (x5, x4); C6 |food=x4, area=x2| = x3."""
    variables = [
        var("x1", 0, "food", "italian"),
        var("x2", 0, "area", "center"),
        var("x3", 1, "count", count, kind=VariableKind.AMOUNT, role=ActRole.COUNT),
        var("x4", 1, "food", "italian", role=ActRole.OFFER),
        var("x5", 1, "name", "napoli", role=ActRole.OFFER),
        var("x6", 2, "name", "napoli"),
        var("x7", 2, "date", "friday", explicit=False),
    ]
    constraints = [
        *(instance(ConstraintId.C1, variables=[v.name], slot_type=None if v.kind is VariableKind.AMOUNT else v.slot_type)
          for v in variables),
        instance(ConstraintId.C2, variables=["x1", "x4"]),
        instance(ConstraintId.C2, variables=["x5", "x6"]),
        instance(ConstraintId.C5, variables=["x5", "x4"], table="restaurant", columns=["name", "food"]),
        instance(ConstraintId.C6, variables=["x4", "x2"], table="restaurant", columns=["food", "area"], count_variable="x3"),
    ]  # fmt: skip
    domains = {
        "restaurant.food": sorted({e["food"] for e in KB}),
        "restaurant.area": sorted({e["area"] for e in KB}),
        "restaurant.name": sorted({e["name"] for e in KB}),
        "restaurant.date": ["friday", "monday"],
    }
    csp = CSP(
        dialogue_id="hand", variables=variables, domains=domains, kbs={"restaurant": kb}, constraints=constraints,
        assignment={v.name: v.value for v in variables}, max_amount=4,
    )  # fmt: skip
    delex = DelexicalizedDialogue(
        dialogue_id="hand", variables=variables, speakers=["user", "system", "user"],
        turns=["I want [x1] food in the [x2].", "There are [x3] [x4] places; [x5] is one.", "[x6] it is."],
    )  # fmt: skip
    return csp, delex


def test_registry():
    for name in ("random", "most-frequent", "csp"):
        assert isinstance(get_relexicalizer(name), Relexicalizer)
        assert get_relexicalizer(name).name == name
    assert set(NAMES) == {"random", "most-frequent", "csp", "llm"}
    with pytest.raises(ValueError, match="unknown relexicalizer"):
        get_relexicalizer("oracle")


def test_random_draws_kb_values_and_amounts_in_range():
    csp, delex = hand_csp()
    relex = RandomRelexicalizer()
    seen: dict[str, set] = {}
    for seed in range(200):
        out = relex.relexicalize(csp, delex, random.Random(seed))
        assert set(out) == {v.name for v in csp.variables}
        assert out["x7"] == "friday"  # implicit: keeps its value
        for name, value in out.items():
            seen.setdefault(name, set()).add(value)
    assert seen["x1"] == seen["x4"] == {"italian", "lebanese"}  # KB values of the slot, both drawn
    assert seen["x2"] == {"center", "north", "east"}
    assert seen["x5"] == {"napoli", "mario", "roma", "beirut"}
    assert seen["x3"] == set(range(0, csp.max_amount + 1))  # uniform 0..max
    assert relex.relexicalize(csp, delex, random.Random(7)) == relex.relexicalize(csp, delex, random.Random(7))


def test_random_uses_the_domain_for_slots_outside_the_kb():
    csp, delex = hand_csp()
    date = var("x8", 2, "date", "friday")
    csp = csp.model_copy(update={"variables": [*csp.variables, date], "assignment": {**csp.assignment, "x8": "friday"}})
    values = {RandomRelexicalizer().relexicalize(csp, delex, random.Random(s))["x8"] for s in range(50)}
    assert values == {"friday", "monday"}


def test_most_frequent_picks_the_kbs_mode():
    csp, delex = hand_csp()
    out = MostFrequentRelexicalizer().relexicalize(csp, delex, random.Random(0))
    assert out == {"x1": "italian", "x2": "center", "x3": 4, "x4": "italian", "x5": "napoli", "x6": "napoli", "x7": "friday"}
    # x3 = 4: the number of KB entities; it is not how many Italian places are in the center (2): C6
    assert [v.constraint for v in violations(csp, out)] == [ConstraintId.C6]


def test_csp_relexicalizer_satisfies_every_constraint():
    csp, delex = hand_csp(count=3)  # the dialogue itself miscounts
    assert [v.constraint for v in violations(csp)] == [ConstraintId.C6]
    relex = CspRelexicalizer()
    out = relex.relexicalize(csp, delex, random.Random(0))
    assert violations(csp, out) == []
    assert out["x7"] == "friday" and relex.status["hand"] == "satisfied"


def test_csp_relexicalizer_keeps_own_values_when_unsolvable():
    kb = [{"name": "beirut", "area": "east", "food": "lebanese"}]
    csp, delex = hand_csp(kb=kb)
    csp = csp.model_copy(update={"domains": {**csp.domains, "restaurant.food": ["italian"]}})  # C5 cannot hold
    relex = CspRelexicalizer()
    out = relex.relexicalize(csp, delex, random.Random(0))
    assert relex.status["hand"] == "unsatisfiable"
    assert out == csp.assignment


@pytest.mark.skipif(not SGD.exists(), reason="needs ../shared/data/sgd")
def test_csp_relexicalizer_reaches_gca_1_on_every_solvable_sgd_dialogue():
    from csp_check.experiment.kb import DomainPool
    from csp_check.experiment.run import prepare, select_dialogues
    from csp_check.solvers import get_solver

    selected, everyone, _ = select_dialogues([SGD / "train" / "dialogues_001.json"], "Restaurants_1")
    pool = DomainPool.of(everyone, "Restaurants_1")
    solver, relex = get_solver("cp-sat"), CspRelexicalizer()
    solvable = 0
    for dialogue in selected[:25]:
        csp, delex, _ = prepare(dialogue, pool, seed=0, max_random=8)
        assignment = relex.relexicalize(csp, delex, random.Random(0))
        if solver.satisfiable(csp).status.value == "satisfied":
            solvable += 1
            assert violations(csp, assignment) == [], dialogue.id
            assert solver.check_assignment(csp, assignment).status.value == "satisfied"
    assert solvable >= 10
