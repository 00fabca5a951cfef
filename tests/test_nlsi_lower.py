"""P1–P6 lowered to the shared primitives (csp_check/nlsi/lower.py): the checker, the primitives,
CP-SAT and MiniZinc agree on which call sets are solutions; the solvers derive what the
interpreter derives; the solution count says when the profile leaves choices."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.nlsi import SGD_DEV, example, schema

from csp_check.nlsi.build import build_examples
from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive, derive_with, solve_count
from csp_check.nlsi.families import violations
from csp_check.nlsi.faults import KINDS, make
from csp_check.nlsi.lower import ABSENT, Structure, lowered, lowered_holds, solver_check
from csp_check.nlsi.models import ALL_FAMILIES, ApiCall
from csp_check.nlsi.models import ReasoningType as RT
from csp_check.solvers import available_solvers

pytest.importorskip("ortools")
HAS_MZN = any(s.startswith("minizinc") for s in available_solvers())


@pytest.fixture(scope="module")
def built():
    if not (SGD_DEV / "schema.json").exists():
        pytest.skip("shared SGD dev split not present")
    sch, examples = build_examples([SGD_DEV], seed=0)
    return sch, examples


def _cases(sch, examples, annotation, every=1):
    """(checker, ctx, call set) for each gold call set and each fault of it."""
    checker = Checker(sch, use_annotation=annotation)
    rng = random.Random(0)
    for e in examples[::every]:
        ctx = checker.context(e)
        gold, _ = parse_calls(e.api_calls)
        yield checker, ctx, gold
        for kind in KINDS:
            fault = make(kind, ctx, gold, rng)
            if fault is not None:
                yield checker, ctx, fault.calls


@pytest.mark.parametrize("annotation", [True, False])
def test_checker_equals_primitives_per_family_on_built_gold_and_faults(built, annotation):
    sch, examples = built
    n = bad = 0
    for _, ctx, calls in _cases(sch, examples, annotation):
        st_ = Structure(ctx, calls)
        for fam in ALL_FAMILIES:
            checker_ok = not violations(ctx, calls, (fam,))
            lowered_ok = lowered_holds(lowered(ctx, st_, (fam,)), st_.assignment)
            bad += checker_ok != lowered_ok
            n += 1
    assert n > 4000 and bad == 0


def test_cp_sat_agrees_with_the_checker_on_built_gold_and_faults(built):
    _backend_agrees(built, "cp-sat", annotation=False, every=3)


@pytest.mark.skipif(not HAS_MZN, reason="MiniZinc not installed")
def test_minizinc_agrees_with_the_checker_on_built_gold_and_faults(built):
    _backend_agrees(built, "minizinc", annotation=True, every=60)


def _backend_agrees(built, backend: str, annotation: bool, every: int) -> None:
    """``backend`` gives the checker's verdict on every ``every``-th built example's gold and
    faulty call sets, and both verdicts occur."""
    sch, examples = built
    verdicts = set()
    for _, ctx, calls in _cases(sch, examples, annotation=annotation, every=every):
        ok = not violations(ctx, calls)
        assert solver_check(ctx, calls, backend) == ok, [c.render() for c in calls]
        verdicts.add(ok)
    assert verdicts == {True, False}


def _mutate(ctx, calls, data):
    """A random edit of a call set: drop / add / change an argument (to a candidate value, a
    said word or nonsense), repeat a slot, misspell a method, drop or copy a call."""
    calls = list(calls)
    for _ in range(data.draw(st.integers(1, 3))):
        if not calls:
            break
        i = data.draw(st.integers(0, len(calls) - 1))
        c = calls[i]
        d = ctx.domain_of(c)
        op = data.draw(st.sampled_from(["drop_arg", "set_arg", "repeat", "method", "drop_call", "copy_call"]))
        args = list(c.arguments)
        if op == "drop_arg" and args:
            args.pop(data.draw(st.integers(0, len(args) - 1)))
        elif op == "set_arg" and d is not None:
            slot = data.draw(st.sampled_from(sorted(ctx.schema.domains[d]) + ["bogus_slot"]))
            pool = sorted(Structure(ctx, calls).candidates(d, slot) - {ABSENT}) or ["x"]
            words = ctx.grounding.text.split()[:20] or ["x"]
            value = data.draw(st.sampled_from(pool + words + ["Zanzibar", "dontcare"]))
            args = [(s, v) for s, v in args if s != slot] + [(slot, value)]
        elif op == "repeat" and args:
            args.append(data.draw(st.sampled_from(args)))
        elif op == "method":
            c = c.model_copy(update={"method": data.draw(st.sampled_from([c.method + "s", "GetHotels", "GetTravel", "GetFlights"]))})
        elif op == "drop_call":
            calls.pop(i)
            continue
        elif op == "copy_call":
            calls.append(c)
        calls[i] = ApiCall(method=c.method, arguments=tuple(args))
    return calls


_CHECKERS: dict[bool, Checker] = {}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_call_sets_checker_primitives_and_cp_sat_agree(built, data):
    sch, examples = built
    annotation = data.draw(st.booleans())
    checker = _CHECKERS.get(annotation) or _CHECKERS.setdefault(annotation, Checker(sch, use_annotation=annotation))
    e = data.draw(st.sampled_from(examples))
    ctx = checker.context(e)
    gold, _ = parse_calls(e.api_calls)
    calls = _mutate(ctx, gold, data)
    ok = not violations(ctx, calls)
    st_ = Structure(ctx, calls)
    assert lowered_holds(lowered(ctx, st_), st_.assignment) == ok
    assert solver_check(ctx, calls, "cp-sat") == ok


def _same_calls(a, b):
    return sorted(c.render() for c in a) == sorted(c.render() for c in b)


@pytest.mark.parametrize("annotation", [True, False])
def test_cp_sat_derives_what_the_interpreter_derives_on_built_data(built, annotation):
    sch, examples = built
    checker = Checker(sch, use_annotation=annotation)
    same = 0
    for e in examples:
        ctx = checker.context(e)
        calls, _ = derive_with(ctx, "cp-sat")
        same += _same_calls(calls, derive(ctx)[0])
        assert not violations(ctx, calls)  # a solver's answer is always consistent
    assert same / len(examples) >= 0.99, same


@pytest.mark.skipif(not HAS_MZN, reason="MiniZinc not installed")
def test_minizinc_derives_what_cp_sat_derives(built):
    sch, examples = built
    checker = Checker(sch)
    picked = [e for rtype in RT for e in [x for x in examples if x.reasoning_type == rtype][:2]]
    assert len(picked) >= 10
    for e in picked:
        ctx = checker.context(e)
        assert _same_calls(derive_with(ctx, "minizinc")[0], derive_with(ctx, "cp-sat")[0]), e.example_id


CHOICE = example(
    "User: Can you get me a round trip ticket? Agent: Where to? User: I'm going to SFO from New York.",
    ["If I'm looking for a flight, American Airlines is my go-to airline.",
     "If I'm flying American Airlines, check for Economy seating class.",
     "If I'm flying American Airlines, check for Business seating class."],
    ['GetFlights(destination="SFO", origin="New York", airlines="American Airlines", seating_class="Economy")'],
    rtype=RT.MULTI_HOP)


@pytest.mark.parametrize("solver", ["cp-sat", "minizinc"])
def test_solution_count_says_when_the_profile_leaves_a_choice(solver):
    if solver == "minizinc" and not HAS_MZN:
        pytest.skip("MiniZinc not installed")
    checker = Checker(schema())
    ctx = checker.context(CHOICE)
    gold, _ = parse_calls(CHOICE.api_calls)
    assert not violations(ctx, gold)
    assert solve_count(ctx, gold, solver=solver) == 2  # Economy or Business: both consistent
    determined = CHOICE.model_copy(update={"all_standing_instructions": CHOICE.all_standing_instructions[:2]})
    ctx = checker.context(determined)
    assert solve_count(ctx, gold, solver=solver) == 1
    bad, _ = parse_calls(['GetFlights(destination="SFO", origin="New York", airlines="American Airlines")'])
    assert solve_count(ctx, bad, solver=solver) == 0  # no seating_class: no solution of that shape


def test_multipreference_calls_in_either_order_are_one_call_set():
    ex = example("User: My schedule is free today and I plan to go to an event in Seattle, WA.",
                 ["If I ask for Events, my preferred event type is Music", "If I ask for Events, my preferred event type is Sports"],
                 ['GetEvents(city="Seattle, WA", event_type="Music")', 'GetEvents(city="Seattle, WA", event_type="Sports")'])
    checker = Checker(schema(), solver="cp-sat")
    ctx = checker.context(ex)
    gold, _ = parse_calls(ex.api_calls)
    assert solve_count(ctx, gold) == 1
    report = checker.check(ex, derive_calls=True)
    assert sorted(report.derived_api_calls) == sorted(c.render() for c in gold) and report.derived_solutions == 1
