"""Solver API: edge cases of the semantics, time limits, MiniZinc quirks, registry, repair,
``solve_report`` and ``export_mzn`` (solved again with the ``minizinc`` command line)."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from support.data import SGD_DEV
from support.solvers import SETTINGS, Reference, csps, needs_minizinc

from csp_check.check import evaluate as check
from csp_check.errors import UsageError
from csp_check.families import instance
from csp_check.models import CSP, ActRole, Constraint, Dialogue, Span, Value, Variable, VariableKind
from csp_check.solvers import (
    SOLVER_NAMES,
    SolutionGroup,
    SolverAnswers,
    SolverUnavailable,
    SolveStatus,
    available_solvers,
    canonical_name,
    export_mzn,
    get_solver,
    register,
    solution_group,
    solver_names,
    unregister,
)
from csp_check.solvers.answers import solve_report
from csp_check.solvers.cpsat import CpSatSolver
from csp_check.solvers.minizinc import MiniZincSolver, quiet_count_warning
from csp_check.solvers.repair import edits, relexicalize, repair

BACKENDS = ["cp-sat", pytest.param("minizinc:gecode", marks=needs_minizinc)]


SPAN = Span(start=0, end=1)


def var(name: str, slot: str, value: Value, turn: int = 0, span: Span | None = SPAN) -> Variable:
    amount = isinstance(value, int) or slot == "count"
    return Variable(
        name=name, turn=turn, speaker="system", kind=VariableKind.AMOUNT if amount else VariableKind.SLOT,
        domain="restaurant", slot=slot, role=ActRole.COUNT if amount else ActRole.INFORM, span=span,
        text=str(value), value=value,
    )  # fmt: skip


def make_csp(variables: list[Variable], constraints: list[Constraint], kb: list[dict[str, str]] = (), **kw) -> CSP:
    domains = kw.pop("domains", {"restaurant.food": ["spanish", "italian"], "restaurant.area": ["north", "center"]})
    return CSP(
        dialogue_id=kw.pop("dialogue_id", "d"), variables=variables, domains=domains, kbs={"kb": list(kb)},
        constraints=constraints, assignment={v.name: v.value for v in variables}, max_amount=kw.pop("max_amount", 5),
    )  # fmt: skip


def c(cid: str, *names: str, **kw) -> Constraint:
    return instance(cid, variables=list(names), **kw)


# -- edge cases of the semantics (each solver, against the checker) --------------------------

FOOD_KB = [{"food": "spanish", "area": "north"}, {"food": "spanish"}, {"food": "italian", "area": ""}]

EDGE_CASES = {
    # C4: an entity without the column does not refute "there is none"
    "c4-missing-column": (make_csp([var("x1", "area", "center")], [c("C4", "x1", table="kb", columns=["area"])], FOOD_KB), True),
    "c4-sure-match": (make_csp([var("x1", "area", "north")], [c("C4", "x1", table="kb", columns=["area"])], FOOD_KB), False),
    # C5: an entity without the column may match
    "c5-possible": (make_csp([var("x1", "area", "center")], [c("C5", "x1", table="kb", columns=["area"])], FOOD_KB), True),
    "c5-empty-kb": (make_csp([var("x1", "area", "center")], [c("C5", "x1", table="kb", columns=["area"])], []), False),
    "c5-unknown-kb": (make_csp([var("x1", "area", "north")], [c("C5", "x1", table="nope", columns=["area"])], FOOD_KB), False),
    # C6: sure <= x0 <= possible; x0 must be an int
    "c6-in-range": (make_csp([var("x1", "food", "spanish"), var("x2", "count", 2)],
                             [c("C6", "x1", table="kb", columns=["food"], count_variable="x2")], FOOD_KB), True),
    "c6-out-of-range": (make_csp([var("x1", "food", "spanish"), var("x2", "count", 3)],
                                 [c("C6", "x1", table="kb", columns=["food"], count_variable="x2")], FOOD_KB), False),
    "c6-area-unknown": (make_csp([var("x1", "area", "north"), var("x2", "count", 3)],
                                [c("C6", "x1", table="kb", columns=["area"], count_variable="x2")], FOOD_KB), True),
    "c6-no-filter": (make_csp([var("x2", "count", 3)], [c("C6", table="kb", count_variable="x2")], FOOD_KB), True),
    "c6-string-count": (make_csp([var("x1", "food", "spanish"), var("x2", "area", "center")],  # 0 <= code <= 9
                                 [c("C6", "x1", table="kb", columns=["food"], count_variable="x2")], [{"area": "north"}] * 9,
                                 max_amount=1), False),
    # dontcare as a filter matches every entity
    "dontcare-c4": (make_csp([var("x1", "food", "dontcare")], [c("C4", "x1", table="kb", columns=["food"])], FOOD_KB), False),
    "dontcare-c6": (make_csp([var("x1", "area", "dontcare"), var("x2", "count", 3)],
                             [c("C6", "x1", table="kb", columns=["area"], count_variable="x2")], FOOD_KB), True),
    # C2 / C3: values compared as stored; 3 is not "3"; a variable twice in C3 fails
    "c2-int-vs-str": (make_csp([var("x1", "count", 3), var("x2", "food", "3")], [c("C2", "x1", "x2")]), False),
    "c3-duplicate": (make_csp([var("x1", "food", "spanish")], [c("C3", "x1", "x1")]), False),
    "c3-different": (make_csp([var("x1", "food", "spanish"), var("x2", "food", "italian")], [c("C3", "x1", "x2")]), True),
    # C1: a value of another slot type; an amount out of range or not a number
    "c1-wrong-type": (make_csp([var("x1", "food", "north")], [c("C1", "x1", slot_type="restaurant.food")]), False),
    "c1-amount-range": (make_csp([var("x1", "count", 6)], [c("C1", "x1")]), False),
    "c1-amount-string": (make_csp([var("x1", "count", "many")], [c("C1", "x1")]), False),
    "c1-unknown-type": (make_csp([var("x1", "price", "cheap")], [c("C1", "x1", slot_type="restaurant.price")]), False),
    "no-constraints": (make_csp([var("x1", "food", "anything")], []), True),
}  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(EDGE_CASES))
def test_edge_case(case: str, backend: str) -> None:
    csp, consistent = EDGE_CASES[case]
    assert (not check.violations(csp)) is consistent
    fixed = get_solver(backend).check_assignment(csp)
    assert fixed.status is (SolveStatus.SATISFIED if consistent else SolveStatus.UNSATISFIABLE)
    ref = Reference(csp)
    counted = get_solver(backend).count_solutions(csp, cap=101)
    assert counted.count == min(ref.count, 101)


@pytest.mark.parametrize("backend", BACKENDS)
def test_implicit_variables_are_fixed_and_not_counted_in_vca(backend: str) -> None:
    x1 = var("x1", "food", "italian", span=None)  # annotated, not written: fixed
    x2 = var("x2", "food", "spanish")
    csp = make_csp([x1, x2], [c("C2", "x1", "x2")])
    best = get_solver(backend).most_similar(csp)
    assert best.solution == {"x1": "italian", "x2": "italian"}
    assert (best.agreement, best.agreeing, best.variables, best.vca) == (0, 0, 1, 0.0)
    assert get_solver(backend).count_solutions(csp).count == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_domains_with_and_without_c1(backend: str) -> None:
    """With C1 a slot variable ranges over its type; without, over every known slot value."""
    x1, x2 = var("x1", "food", "thai"), var("x2", "area", "north")
    typed = make_csp([x1, x2], [c("C1", "x1", slot_type="restaurant.food"), c("C1", "x2", slot_type="restaurant.area")])
    assert get_solver(backend).count_solutions(typed).count == 2 * 2
    untyped = make_csp([x1, x2], [c("C3", "x1", "x2")])
    # values: spanish, italian, north, center + the text's "thai" = 5; pairwise different
    assert get_solver(backend).count_solutions(untyped).count == 5 * 4


# -- counts, groups, caps ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "capped", "group"),
    [(0, False, SolutionGroup.NONE), (1, False, SolutionGroup.ONE), (2, False, SolutionGroup.FEW),
     (10, False, SolutionGroup.FEW), (11, False, SolutionGroup.SOME), (100, False, SolutionGroup.SOME),
     (101, False, SolutionGroup.MANY), (101, True, SolutionGroup.MANY), (5000, True, SolutionGroup.MANY),
     (50, True, None), (1, True, None)],
)  # fmt: skip
def test_solution_groups(count: int, capped: bool, group: SolutionGroup | None) -> None:
    assert solution_group(count, capped) is group


def wide_csp(n: int = 12, values: int = 10) -> CSP:
    """A chain of C3 (neighbours differ): ``values * (values - 1) ** (n - 1)`` solutions."""
    domain = [f"v{i}" for i in range(values)]
    variables = [var(f"x{i}", "food", "v0") for i in range(n)]
    chain = [c("C3", f"x{i}", f"x{i + 1}") for i in range(n - 1)]
    return make_csp(variables, [c("C1", v.name, slot_type="restaurant.food") for v in variables] + chain,
                    domains={"restaurant.food": domain})  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
def test_cap_reports_at_least(backend: str) -> None:
    counted = get_solver(backend).count_solutions(wide_csp(4, 5), cap=101)
    assert (counted.status, counted.count, counted.capped, counted.group) == (
        SolveStatus.SATISFIED, 101, True, SolutionGroup.MANY)
    assert counted.label == "≥ 101"
    exact = get_solver(backend).count_solutions(wide_csp(4, 5), cap=1000)
    assert (exact.count, exact.capped) == (5 * 4**3, False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_unconstrained_variables_multiply_the_count(backend: str) -> None:
    csp = wide_csp(4, 5)
    free = [var(f"y{i}", "food", "v1") for i in range(3)]  # only C1, which their domain implies
    csp = csp.model_copy(update={
        "variables": csp.variables + free, "assignment": {**csp.assignment, **{v.name: v.value for v in free}},
        "constraints": csp.constraints + [c("C1", v.name, slot_type="restaurant.food") for v in free]})
    assert get_solver(backend).count_solutions(csp, cap=10**6, time_limit=120).count == 5 * 4**3 * 5**3
    assert get_solver(backend).count_solutions(csp, cap=1000).count == 1000


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_gives_unknown_not_an_exception(backend: str) -> None:
    counted = get_solver(backend).count_solutions(wide_csp(), cap=10**9, time_limit=0.5)
    assert counted.status is SolveStatus.UNKNOWN
    assert counted.group is None and not counted.capped
    assert "time limit" in (counted.reason or "")
    report = solve_report(wide_csp(), backend, count=True, cap=10**9, time_limit=0.5)
    assert report.count_complete is False and report.group is None
    assert report.status is SolveStatus.SATISFIED  # solutions were found before the limit
    assert "time limit" in (report.reason or "")


# -- MiniZinc specifics -----------------------------------------------------------------------


@needs_minizinc
def test_count_mzn_warning_is_not_an_error() -> None:
    """Debian's MiniZinc warns about count.mzn on every call: silenced, never an error."""
    csp, _ = EDGE_CASES["c6-in-range"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning escaping the backend would fail here
        assert get_solver("minizinc:gecode").satisfiable(csp).status is SolveStatus.SATISFIED
        assert get_solver("minizinc:gecode").check_assignment(EDGE_CASES["c4-sure-match"][0]).status is (
            SolveStatus.UNSATISFIABLE)  # fmt: skip


def test_count_mzn_filter_lets_other_warnings_through() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with quiet_count_warning():
            warnings.warn('included file "count.mzn" overrides a global constraint file from the standard library.', stacklevel=1)
            warnings.warn("a real problem", stacklevel=1)
    assert [str(w.message) for w in caught] == ["a real problem"]


def test_missing_chuffed_is_a_clear_error() -> None:
    if MiniZincSolver.available("chuffed"):
        pytest.skip("Chuffed is installed here")
    with pytest.raises(SolverUnavailable, match="(?s)chuffed.*minizinc.org"):
        get_solver("minizinc:chuffed")
    assert "minizinc:chuffed" not in available_solvers()


def test_unknown_solver_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown solver"):
        get_solver("z3")
    with pytest.raises(UsageError, match="no subsolvers"):
        get_solver("cp-sat:fast")
    with pytest.raises(UsageError, match="name a subsolver"):
        get_solver("minizinc:")
    assert get_solver("ortools") is get_solver("cp-sat")
    assert "cp-sat" in available_solvers()


def test_names_are_family_and_subsolver() -> None:
    assert canonical_name("minizinc") == "minizinc:gecode" and canonical_name("cpsat") == "cp-sat"
    assert SOLVER_NAMES == ("cp-sat", "minizinc:gecode", "minizinc:chuffed")
    if MiniZincSolver.available("gecode"):
        assert get_solver("minizinc") is get_solver("minizinc:gecode")
        assert get_solver("minizinc:gecode").name == "minizinc:gecode"


def test_a_registered_family_gets_its_subsolver() -> None:
    """A backend family registered at run time is looked up as ``name:subsolver`` like the built-in ones."""

    class Echo(CpSatSolver):
        def __init__(self, sub: str) -> None:
            self.name = f"echo:{sub}"  # type: ignore[misc]

    register("echo", Echo, subsolvers=("a",), default_subsolver="a")
    try:
        assert get_solver("echo").name == "echo:a" and get_solver("echo:zz").name == "echo:zz"
        assert "echo:a" in solver_names() and "echo:a" in available_solvers()
        csp, _ = EDGE_CASES["c6-in-range"]
        assert get_solver("echo:b").satisfiable(csp).status is SolveStatus.SATISFIED
    finally:
        unregister("echo")
    with pytest.raises(UsageError, match="unknown solver"):
        get_solver("echo:a")


# -- repair and relexicalization --------------------------------------------------------------


def test_repair_edits_and_relexicalizes() -> None:
    text = ["I want Spanish food.", "There are 3 Spanish places in the north.", "Book the Lebanese one."]
    x1 = var("x1", "food", "spanish", 0, Span(start=7, end=14))
    x2 = var("x2", "count", 3, 1, Span(start=10, end=11))
    x3 = var("x3", "food", "spanish", 1, Span(start=12, end=19))
    x4 = var("x4", "area", "north", 1, Span(start=35, end=40))
    x5 = var("x5", "food", "lebanese", 2, Span(start=9, end=17))
    kb = [{"food": "spanish", "area": "north"}, {"food": "spanish", "area": "center"}]
    csp = make_csp(
        [x1, x2, x3, x4, x5],
        [c("C2", "x1", "x3", "x5"), c("C6", "x3", table="kb", columns=["food"], count_variable="x2"),
         c("C5", "x3", "x4", table="kb", columns=["food", "area"])],
        kb, domains={"restaurant.food": ["spanish", "lebanese"], "restaurant.area": ["north", "center"]},
    )  # fmt: skip
    result = repair(csp, utterances=text)
    assert result.status is SolveStatus.SATISFIED and result.agreement == 3
    assert [(e.variable, e.turn, e.old, e.new) for e in result.edits] == [("x2", 1, 3, 2), ("x5", 2, "lebanese", "spanish")]
    assert result.relexicalized == [text[0], "There are 2 Spanish places in the north.", "Book the Spanish one."]
    repaired = {**csp.assignment, **{e.variable: e.new for e in result.edits}}
    assert check.violations(csp, repaired) == []


def test_repair_of_unsatisfiable_csp_has_no_edits() -> None:
    csp, _ = EDGE_CASES["c3-duplicate"]
    result = repair(csp, utterances=["x"])
    assert (result.status, result.edits, result.relexicalized) == (SolveStatus.UNSATISFIABLE, [], None)


def test_relexicalize_keeps_unchanged_text_and_skips_overlaps() -> None:
    x1 = var("x1", "food", "spanish", 0, Span(start=0, end=7))
    x2 = var("x2", "area", "north", 0, Span(start=3, end=9))  # overlaps x1
    csp = make_csp([x1, x2], [])
    assert relexicalize(["SPANISH!!"], csp, {"x1": "spanish", "x2": "north"}) == ["SPANISH!!"]
    assert relexicalize(["SPANISH!!"], csp, {"x1": "thai", "x2": "south"}) == ["THAI!!"]
    assert [e.variable for e in edits(csp, {"x1": "thai", "x2": "north"})] == ["x1"]


@settings(max_examples=100, **SETTINGS)
@given(csps())
def test_every_repair_passes_the_checker(csp: CSP) -> None:
    result = repair(csp)
    if result.status is SolveStatus.SATISFIED:
        repaired = {**csp.assignment, **{e.variable: e.new for e in result.edits}}
        assert check.violations(csp, repaired) == []
        assert all(e.variable in {v.name for v in csp.variables if v.span is not None} for e in result.edits)


# -- solve_report (csp_check.solvers.answers) --------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_report_is_json(backend: str) -> None:
    csp, _ = EDGE_CASES["c6-out-of-range"]
    report = solve_report(csp, backend, vca=True, count=True, cap=101, repair=True, time_limit=5, utterances=["x x"])
    data = json.loads(report.model_dump_json())
    assert SolverAnswers.model_validate(data) == report
    assert data["status"] == "satisfied" and data["group"] == "2-10" and data["optimal"] is True
    assert report.vca == (report.agreeing or 0) / (report.variables or 1) == 0.5
    assert [e.new for e in report.edits or []] == [2]
    unsat = solve_report(EDGE_CASES["c3-duplicate"][0], backend, vca=True, count=True)
    assert (unsat.status, unsat.count, unsat.group, unsat.agreeing) == (SolveStatus.UNSATISFIABLE, 0, SolutionGroup.NONE, 0)
    only = solve_report(csp, backend)
    assert only.status is SolveStatus.SATISFIED
    assert set(json.loads(only.model_dump_json())) == {"solver", "status", "reason", "solve_seconds"}  # only what was asked


# -- export-mzn: the files solve with the minizinc command line, with the same answer ---------


def minizinc_cli(*args: Path | str) -> str:
    done = subprocess.run(["minizinc", "--solver", "gecode", *map(str, args)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_minizinc
@settings(max_examples=12, **SETTINGS)
@given(csps())
def test_export_mzn_solves_on_the_command_line(csp: CSP) -> None:
    with tempfile.TemporaryDirectory() as out:
        files = export_mzn(csp, out)
        cp = get_solver("cp-sat")
        counted = cp.count_solutions(csp, cap=10**6)
        everything = minizinc_cli("-a", files.model, files.data)
        if counted.count == 0:
            assert "=====UNSATISFIABLE=====" in everything
        else:
            assert everything.count("----------") == counted.count and "==========" in everything
            best = minizinc_cli(files.most_similar, files.data)
            agreements = [int(a) for a in re.findall(r"agreement = (\d+) of", best)]
            assert agreements[-1] == cp.most_similar(csp).agreement


# -- real dialogues (when ../shared is present) -----------------------------------------------


@needs_minizinc
def test_backends_agree_on_sgd_dev_dialogues() -> None:
    if not SGD_DEV.is_dir():
        pytest.skip("../shared/data/sgd/dev not present")
    from csp_check.pipeline import dialogue_csp, load_corpus

    dialogues = [d for d in load_corpus([SGD_DEV / "dialogues_001.json"]) if isinstance(d, Dialogue)][:6]
    assert dialogues
    for dialogue in dialogues:
        csp = dialogue_csp(dialogue)
        mine = solve_report(csp, "cp-sat", vca=True, count=True)
        theirs = solve_report(csp, "minizinc:gecode", vca=True, count=True)
        keys = {"status", "count", "capped", "group", "agreement", "agreeing", "variables"}
        assert mine.model_dump(include=keys) == theirs.model_dump(include=keys), dialogue.id
