"""A count's value sizes nothing (issue 21, item 3; docs/robustness.md "Counts").

The relexicalization experiment on MultiWOZ val (restaurant, ``--limit 40``, a fake LLM) was
killed at 22.6 GB while scoring: the LLM filled the count of SNG0457 ("there are [MASK]") with a
phone number, the alignment read it as the count 1223364917, and the solver encoding built a set
of every code below it. These run the same code path on that real dialogue, under a memory guard
(a test that fails must not eat the machine).
"""

from __future__ import annotations

import json
import re
import resource
import time
import tracemalloc
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL, needs_multiwoz, needs_multiwoz_val

from csp_check.experiment.kb import DomainPool
from csp_check.experiment.run import CONFIGS, get_solver, prepare, restrict, score, select_dialogues
from csp_check.language.normalize import MAX_COUNT, parse_count, phone_like
from csp_check.llm.align import UNALIGNED, align_answer
from csp_check.llm.prompt import MASK, masked_turns
from csp_check.models import Span
from csp_check.readers.kinds import load_kb_option
from csp_check.solvers.encoding import encode

pytestmark = [needs_multiwoz, needs_multiwoz_val]

PHONE = 1223364917  # "01223364917" read as digits: what the alignment accepted as SNG0457's count
HUGE = 10**21  # beyond a solver's 64-bit integers: CP-SAT raised a TypeError on its codes
DIALOGUE = "SNG0457"
BUDGET = 200 * 2**20  # bytes of Python allocations one dialogue's scoring may peak at


@contextmanager
def address_space(extra: int):
    """At most ``extra`` more bytes of address space inside the block (a ``MemoryError`` past it),
    so that a regression fails instead of taking the machine's memory."""
    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("needs /proc/self/status (Linux) to bound the test's memory")
    used = int(re.search(r"VmSize:\s+(\d+) kB", status.read_text()).group(1)) * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = used + extra if hard == resource.RLIM_INFINITY else min(hard, used + extra)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture(scope="module")
def sng0457(tmp_path_factory):
    """``(dialogue, pool)`` of SNG0457 as the experiment reads it (one-dialogue copy in a temp dir)."""
    with zipfile.ZipFile(MULTIWOZ_VAL) as z:
        data = json.loads(z.read("val.json"))
    path = tmp_path_factory.mktemp("val") / "val.json"
    path.write_text(json.dumps({DIALOGUE: data[DIALOGUE]}))
    selected, everyone, errors = select_dialogues([path], "restaurant")
    assert not errors and [d.id for d in selected] == ["SNG0457"]
    pool = DomainPool.of_table(load_kb_option(MULTIWOZ_DB).tables["restaurant"], everyone)
    return selected[0], pool


def count_variable(csp):
    (amount,) = [v for v in csp.variables if v.kind.value == "amount" and v.span is not None]
    return amount


@pytest.mark.parametrize("value", [PHONE, HUGE])
def test_a_phone_number_as_a_count_is_scored_in_bounded_memory_and_is_inconsistent(sng0457, value):
    pytest.importorskip("ortools")
    dialogue, pool = sng0457
    csp, _delex, _row = prepare(dialogue, pool, 0, 8)
    amount = count_variable(csp)
    assignment = {**csp.assignment, amount.name: value}
    solver = get_solver("cp-sat")
    start = time.perf_counter()
    tracemalloc.start()
    try:
        with address_space(2**29):  # before the fix: a frozenset of 1.2 billion codes
            scores = {cfg: score(restrict(csp, enabled), assignment, solver, 10.0) for cfg, enabled in CONFIGS.items()}
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < BUDGET, f"scoring peaked at {peak / 2**20:.0f} MB"
    assert time.perf_counter() - start < 10
    assert not scores["all"].consistent and "C1" in scores["all"].violated  # a wrong count
    assert "C6" in scores["all"].violated  # the KB has not a billion restaurants
    assert scores["all except C1"].exact


@pytest.mark.parametrize("value", [PHONE, HUGE])
def test_an_own_count_written_as_a_phone_number_sizes_no_domain(sng0457, value):
    """The dialogue's own annotation says the count is 1223364917: the CSP's amount domain stays
    the KB's size (the count lies outside it: C1), and counting its solutions stays small."""
    pytest.importorskip("ortools")
    dialogue, pool = sng0457
    turn = dialogue.turns[3]
    k = next(i for i, a in enumerate(turn.acts) if a.role.value == "count")
    act, said = turn.acts[k], str(value)
    shift = len(said) - (act.span.end - act.span.start)

    def moved(a):
        if a.span is None or a.span.start < act.span.end:
            return a
        return a.model_copy(update={"span": Span(start=a.span.start + shift, end=a.span.end + shift)})

    acts = [a.model_copy(update={"value": said, "canonical": said, "span": Span(start=a.span.start, end=a.span.start + len(said))})
            if i == k else moved(a) for i, a in enumerate(turn.acts)]  # fmt: skip
    utterance = turn.utterance[: act.span.start] + said + turn.utterance[act.span.end :]
    turns = [*dialogue.turns[:3], turn.model_copy(update={"utterance": utterance, "acts": acts}), *dialogue.turns[4:]]
    csp, _delex, _row = prepare(dialogue.model_copy(update={"turns": turns}), pool, 0, 8)
    assert csp.assignment[count_variable(csp).name] == value
    assert csp.max_amount <= max(MAX_COUNT, *(len(t) for t in csp.kbs.values()))
    tracemalloc.start()
    try:
        with address_space(2**29):
            count = get_solver("cp-sat").count_solutions(csp, cap=101, time_limit=10.0)
            verdict = score(csp, csp.assignment, get_solver("cp-sat"), 10.0)
            checked = get_solver("cp-sat").check_assignment(csp, time_limit=10.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < BUDGET and count.status.value != "unknown"
    assert checked.status.value == "unsatisfiable"  # the solver agrees with the checker
    enc = encode(csp)  # the count has a small code of its own, and decodes back to itself
    assert enc.base <= csp.max_amount + 2 and enc.decode(enc.code(value)) == value
    assert not verdict.consistent and "C1" in verdict.violated


def test_the_llm_alignment_reads_no_phone_number_as_a_count(sng0457):
    """The answer that filled SNG0457's count with a phone number: the count is unaligned (a
    wrong value, reported), as the annotator never reads a phone number as a count."""
    dialogue, pool = sng0457
    csp, delex, _row = prepare(dialogue, pool, 0, 8)
    turns = masked_turns(delex, csp)
    amount = count_variable(csp)

    def answer(count: str) -> str:
        lines = []
        for t in turns:
            text = t.template
            for name in t.masks:
                text = text.replace(MASK, count if name == amount.name else csp.variable(name).text or "", 1)
            lines.append(f"{t.speaker.capitalize()}: {text}")
        return "\n".join(lines)

    for phone in ("01223364917", "01223 364917", "(01223) 364 917", "1,000,000,000,000,000,000,000"):
        values, report = align_answer(turns, answer(phone), csp)
        assert values[amount.name] == UNALIGNED, phone
        assert any(i.variable == amount.name for i in report.issues)
    values, report = align_answer(turns, answer("2"), csp)
    assert values[amount.name] == 2 and report.aligned == report.masks


@pytest.mark.parametrize(
    ("text", "count"),
    [("01223364917", None), ("01223 332 360", None), ("50210", None), ("just 12345", None), ("10,000", None),
     ("1,000,000,000,000,000,000,000", None),
     ("2", 2), ("two", 2), ("4708", 4708), ("1,200", 1200), ("twenty-one", 21), ("just 3", 3)],
)  # fmt: skip
def test_parse_count_is_parse_amount_without_phone_numbers_ids_and_huge_numbers(text, count):
    assert parse_count(text) == count
    assert phone_like(text) == (count is None and "," not in text)
