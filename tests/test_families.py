"""The registry of constraint families (csp_check/families/): the listing, unknown ids, a family
added in one place (here, in this test only) reaching every stage, and C6's bounded amounts
("over 70") agreeing across the checker, CP-SAT and MiniZinc."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from csp_check.check import evaluate as check
from csp_check.cli.main import main
from csp_check.experiment.run import DialogueResult, ExperimentResult, configs
from csp_check.experiment.tables import table2
from csp_check.families import GROUPS, Family, UnknownFamily, families, get, instance, register, unregister
from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.c6_scope import OneOf
from csp_check.families.kb_common import KindOf, TableView
from csp_check.families.primitives import Member
from csp_check.models import (
    CSP,
    ActRole,
    Constraint,
    ConstraintId,
    Dialogue,
    DialogueAct,
    KbTable,
    KnowledgeBase,
    Span,
    Status,
    Turn,
    Variable,
    VariableKind,
)
from csp_check.output.console import render_summary
from csp_check.output.plain import summary_json
from csp_check.pipeline import check_dialogue, dialogue_csp
from csp_check.score.corpus import CorpusSummary
from csp_check.solvers import SolveStatus, get_solver
from csp_check.solvers.minizinc import MiniZincSolver

needs_minizinc = pytest.mark.skipif(not MiniZincSolver.available("gecode"), reason="MiniZinc/Gecode not installed")

KB = KnowledgeBase(tables={"restaurant": KbTable(domain="restaurant", entities=[
    {"name": "Taberna", "area": "centre", "food": "spanish"},
    {"name": "Espana", "area": "north", "food": "spanish"},
    {"name": "Beirut", "area": "centre", "food": "lebanese"},
])})  # fmt: skip


def _act(role: ActRole, slot: str, text: str, utterance: str) -> DialogueAct:
    start = utterance.index(text)
    return DialogueAct(role=role, act=role.value, domain="restaurant", slot=slot, value=text, canonical=text.lower(),
                       span=Span(start=start, end=start + len(text)))  # fmt: skip


def small_dialogue(amount: str = "two") -> Dialogue:
    """A user asks for Spanish food; the system counts the Spanish restaurants."""
    u0 = "I want Spanish food."
    s1 = f"There are {amount} restaurants serving Spanish food."
    return Dialogue(id="toy", turns=[
        Turn(index=0, speaker="user", utterance=u0, acts=[_act(ActRole.INFORM, "food", "Spanish", u0)],
             state={"restaurant": {"food": ["spanish"]}}),
        Turn(index=1, speaker="system", utterance=s1, acts=[
            DialogueAct(role=ActRole.COUNT, act="count", domain="restaurant", slot="choice", value=amount,
                        canonical="2", span=Span(start=s1.index(amount), end=s1.index(amount) + len(amount))),
            _act(ActRole.INFORM, "food", "Spanish", s1),
        ]),
    ])  # fmt: skip


class NeverEmpty(Family):
    """A toy family: a slot value is never the empty string. It states only its instances and its
    decomposition (member of every known non-empty value); its meaning and explanation are the
    base class's, read off the decomposition."""

    id = "T1"
    name = "value never empty"
    description = "a slot value is never the empty string"
    group = "linguistic"

    def build(self, ctx) -> list[Constraint]:
        return [Constraint(id=ConstraintId(self.id), variables=[v.name], turn=v.turn)
                for v in ctx.variables if v.kind is VariableKind.SLOT]  # fmt: skip

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        known = {x for values in csp.domains.values() for x in values}
        known |= {x for x in csp.assignment.values() if isinstance(x, str)}
        return [Member(tuple(constraint.variables), frozenset(known - {""}))]


@pytest.fixture
def toy_family():
    register(NeverEmpty)
    yield get("T1")
    unregister("T1")


def test_constraints_command_lists_every_family() -> None:
    out = CliRunner().invoke(main, ["constraints"])
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert lines[0].split() == ["id", "name", "group", "description"]
    listed = [line.split()[0] for line in lines[1:]]
    assert listed == [f.id for f in families(GROUPS)] and listed[:6] == ["C1", "C2", "C3", "C4", "C5", "C6"]
    assert listed[-6:] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    as_json = [json.loads(line) for line in CliRunner().invoke(main, ["constraints", "--json", "--group", "domain"]).output.splitlines()]
    assert [(r["id"], r["group"]) for r in as_json] == [("C4", "domain"), ("C5", "domain"), ("C6", "domain")]


def test_unknown_id_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown constraint 'C7'"):
        ConstraintId("C7")
    with pytest.raises(UnknownFamily):
        get("C7")
    out = CliRunner().invoke(main, ["validate", "x.json", "--constraints", "C1,C7"])
    assert out.exit_code == 2 and "unknown constraint 'C7'" in out.output
    with pytest.raises(ValueError, match="group"):
        register(type("Bad", (Family,), {"id": "B1", "name": "b", "description": "b", "group": "misc"}))


def test_ids_are_one_object_each() -> None:
    assert ConstraintId("C6") is ConstraintId.C6 and ConstraintId.C6 == "C6"
    assert get("C1").types_domains and get("S1").group == "annotation"


def test_built_in_ids_are_declared_below_the_models() -> None:
    """The data model validates C1-C6, S1, P1-P6 without loading the families (the leaf
    ``constraint_ids`` declares them: models cannot import the families, which import models),
    and what it declares is what the families register: same ids, groups and order."""
    import subprocess
    import sys

    from csp_check.constraint_ids import BUILT_IN, declare

    assert [(f.id, f.group) for f in families(GROUPS)] == list(BUILT_IN)
    with pytest.raises(ValueError, match="declared in group dialogic"):
        declare("C2", "domain")
    code = ("import sys; from csp_check.models import Constraint, ConstraintId; "
            "c = Constraint(id='C4', variables=['x1']); assert c.id is ConstraintId.C4 and ConstraintId.P1.family == 'profile'; "
            "assert list(ConstraintId)[:7] == ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'S1']; "
            "assert not [m for m in sys.modules if m.startswith('csp_check.families')]")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_family_in_one_place_reaches_every_stage(toy_family: Family) -> None:
    dialogue = small_dialogue()
    # the listing
    assert "T1  value never empty" in CliRunner().invoke(main, ["constraints"]).output
    # the builder (default: every registered family) and the checker
    report = check_dialogue(dialogue, KB)
    assert report.coverage["T1"] == 2 and report.status.value == "consistent"
    csp = dialogue_csp(dialogue, KB)
    user = next(v.name for v in csp.variables if v.speaker == "user" and v.kind is VariableKind.SLOT)
    empty = {**csp.assignment, user: ""}
    broken = [v for v in check.violations(csp, empty) if v.constraint == "T1"]
    assert len(broken) == 1 and broken[0].variables[0].name == user
    assert "value never empty" in broken[0].message and "''" in broken[0].message
    # the report
    summary = CorpusSummary()
    summary.add(report.model_copy(update={"status": Status.INCONSISTENT, "violations": broken}))
    data = json.loads(summary_json(summary))
    assert data["violations"] == {"T1": 1} and data["flagged"] == {"paper": 1, "annotation": 0}
    assert {"constraint": "T1", "variables": 2, "coverage": 2 / 3} in data["coverage_table"]
    from rich.console import Console

    console = Console(record=True, width=160)
    render_summary(summary, console=console)
    assert "T1" in console.export_text()
    # the experiment's tables and configurations
    assert "all except T1" in configs() and ConstraintId("T1") in configs()["all"]
    result = ExperimentResult(domain="restaurant", seed=0, solver="cp-sat", relexicalizers=[], configs=[],
                              dialogues=[DialogueResult(dialogue_id="toy", variables=3, coverage=report.coverage)])
    assert ["T1", 2] == table2(result).rows[6][:2]


def test_instances_are_typed_per_family() -> None:
    """Each family's instances are of its own type, with no field of another family's; a derived
    KB table is typed steps, its id built from them (never parsed back)."""
    csp = dialogue_csp(small_dialogue(), KB)
    assert csp.constraints and all(isinstance(c, get(c.id).instance_type) for c in csp.constraints)
    assert {type(c).__name__ for c in csp.constraints} >= {"ValueTypeInstance", "KbFilterInstance"}
    with pytest.raises(ValidationError):
        instance("C4", variables=["x1"], table="kb", count_variable="x2")  # a C6 field
    view = TableView(base="hotel").restricted(KindOf(column="type", kind="guesthouse"))
    view = view.restricted(OneOf(column="area", values=("centre", "north")))
    assert view.name == "hotel|type=guesthouse|one of area=centre|north"
    assert view.of(OneOf)[0].values == ("centre", "north") and view.of(KindOf)[0].kind == "guesthouse"


@pytest.mark.parametrize("solver", ["cp-sat", pytest.param("minizinc:gecode", marks=needs_minizinc)])
def test_a_family_in_one_place_reaches_the_solvers(toy_family: Family, solver: str) -> None:
    csp = dialogue_csp(small_dialogue(), KB)
    user = next(v.name for v in csp.variables if v.speaker == "user" and v.kind is VariableKind.SLOT)
    backend = get_solver(solver)
    assert backend.check_assignment(csp).status is SolveStatus.SATISFIED
    assert backend.check_assignment(csp, {**csp.assignment, user: ""}).status is SolveStatus.UNSATISFIABLE
    # with "" in every domain, types alone allow it; the toy family rules it out for each slot
    typed = [c for c in csp.constraints if c.id == "C1"]
    csp = csp.model_copy(update={"domains": {k: [*v, ""] for k, v in csp.domains.items()}, "constraints": typed})
    without = backend.count_solutions(csp).count
    toy = [c for c in dialogue_csp(small_dialogue(), KB).constraints if c.id == "T1"]
    with_toy = backend.count_solutions(csp.model_copy(update={"constraints": typed + toy})).count
    food, amounts = len(csp.domains["restaurant.food"]), csp.max_amount + 1  # two food variables, one amount
    assert without == food * food * amounts and with_toy == (food - 1) * (food - 1) * amounts


# -- C6 with bounded amounts ("over 70") ------------------------------------------------------


def bounded_csp(op: str, amount: int) -> CSP:
    """x1 = food filter, x2 = an amount compared with ``op`` to the Spanish restaurants (2)."""
    variables = [
        Variable(name="x1", turn=0, speaker="user", domain="restaurant", slot="food", role=ActRole.INFORM,
                 span=Span(start=0, end=1), text="spanish", value="spanish"),
        Variable(name="x2", turn=1, speaker="system", kind=VariableKind.AMOUNT, domain="restaurant", slot="choice",
                 role=ActRole.COUNT, span=Span(start=0, end=1), text=str(amount), value=amount, amount_op=op),
    ]  # fmt: skip
    return CSP(
        dialogue_id="bounded", variables=variables, domains={"restaurant.food": ["lebanese", "spanish"]},
        kbs={"kb": [{"food": "spanish"}, {"food": "spanish"}, {"food": "lebanese"}]},
        constraints=[CountInstance(id=ConstraintId.C6, variables=["x1"], columns=["food"], table="kb", turn=1,
                                   count_variable="x2")],
        assignment={"x1": "spanish", "x2": amount}, max_amount=3,
    )  # fmt: skip


# the KB has 2 Spanish restaurants: (op, amount said, holds)
BOUNDED = [("=", 2, True), ("=", 1, False), (">", 1, True), (">", 2, False), (">=", 2, True), (">=", 3, False),
           ("<", 3, True), ("<", 2, False), ("<=", 2, True), ("<=", 1, False), ("<", 0, False)]


@pytest.mark.parametrize("op,amount,holds", BOUNDED)
def test_bounded_amounts_agree_across_backends(op: str, amount: int, holds: bool) -> None:
    csp = bounded_csp(op, amount)
    assert (check.violations(csp) == []) is holds
    expected = SolveStatus.SATISFIED if holds else SolveStatus.UNSATISFIABLE
    backends = ["cp-sat"] + (["minizinc:gecode"] if MiniZincSolver.available("gecode") else [])
    counts = set()
    for name in backends:
        assert get_solver(name).check_assignment(csp).status is expected, name
        counts.add(get_solver(name).count_solutions(csp).count)
    assert len(counts) == 1


def test_bounded_amount_explained_in_words() -> None:
    [violation] = check.violations(bounded_csp(">", 2))
    assert violation.constraint is ConstraintId.C6
    assert "says more than 2 with restaurant.food='spanish'; the KB has 2" in violation.message
    [violation] = check.violations(bounded_csp("<=", 1))
    assert "says at most 1" in violation.message


def test_profile_families_are_the_nlsi_modules() -> None:
    """P1–P6 are registered (group profile) by their own modules of csp_check.nlsi.families, one
    family class each; dialogue checking neither builds nor accepts them."""
    from csp_check.models import ALL_CONSTRAINTS
    from csp_check.nlsi.families import ProfileFamily

    profile = families(("profile",))
    assert [f.id for f in profile] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert [type(f).__module__.rpartition(".")[2] for f in profile] == [
        "p1_schema", "p2_grounded", "p3_dialogue_kept", "p4_instruction_honoured", "p5_one_call_per_preference",
        "p6_domain_chain",
    ]
    assert all(isinstance(f, ProfileFamily) and f.group == "profile" for f in profile)
    assert get("P4") is profile[3] and not isinstance(get("C1"), ProfileFamily)
    assert not {f.id for f in profile} & set(ALL_CONSTRAINTS)
    out = CliRunner().invoke(main, ["validate", "x.json", "--constraints", "C1,P1"])
    assert out.exit_code == 2 and "P1 is a profile family: it checks API calls (csp-check calls), not dialogues" in out.output


def test_profile_families_load_on_first_need() -> None:
    """Checking a dialogue (build, check, encode for a solver) does not import the NLSI side; the
    first request for the profile group (listing it, or one of its ids) does."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from csp_check.models import Dialogue, Turn\n"
            "from csp_check.pipeline import check_dialogue, dialogue_csp\n"
            "from csp_check.solvers.encoding import encode\n"
            "from csp_check.families import families, get\n"
            "d = Dialogue(id='d', turns=[Turn(index=0, speaker='user', utterance='hello')])\n"
            "check_dialogue(d); encode(dialogue_csp(d)); families()\n"
            "assert not [m for m in sys.modules if m.startswith('csp_check.nlsi')], sys.modules\n"
            "assert get('P2').name == 'grounded' and 'csp_check.nlsi.families.p6_domain_chain' in sys.modules\n"
            "assert [f.id for f in families()][-6:] == ['P1', 'P2', 'P3', 'P4', 'P5', 'P6']\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_python_dash_m_has_every_command():
    """``python -m csp_check.cli.main`` registers every command before it runs (``constraints`` too)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "csp_check.cli.main", "constraints"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]][:8] == ["C1", "C2", "C3", "C4", "C5", "C6", "S1", "S2"]
