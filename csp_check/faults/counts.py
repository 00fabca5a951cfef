"""Faults in a count of KB instances (C6): another number (``amount``), a bound the KB count
breaks (``amount_bound``), an approximation that misses it (``hedged_amount``); and the no-fault
twins: an approximation that holds (:func:`approximate_restatement`), a count above a full result
(:func:`capped_restatement`)."""

from __future__ import annotations

from typing import Any

from csp_check.build.builder import build_csp
from csp_check.check.evaluate import count_matches
from csp_check.corpora import profile_for
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.families.c6_instance_count import CountInstance
from csp_check.faults.common import spanned_counts
from csp_check.faults.model import Choice
from csp_check.faults.rewrite import rewritten
from csp_check.faults.wording import amount_text
from csp_check.faults.words import FALSE_BOUNDS, HEDGES
from csp_check.language.cues import approx_tolerance
from csp_check.models import CSP, ConstraintId, Dialogue, KnowledgeBase, Variable


def full_result(csp: CSP, var: Variable, dialogue: Dialogue) -> bool:
    """Whether the KB result ``var`` counts is as full as its corpus's results get
    (``CorpusProfile.results_cap``, SGD's 10): entities may have been left out of it."""
    cap = profile_for(dialogue).results_cap
    return cap is not None and any(
        isinstance(c, CountInstance) and c.count_variable == var.name and len(csp.kbs.get(c.kb) or []) >= cap
        for c in csp.constraints
    )


def amount_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count ("I found 10") becomes the nearest other number the KB contradicts ("12"); beside
    a full result (:func:`full_result`) only a smaller one ("9"): the entities left out could
    make up a larger one."""
    out = []
    for var, sure, possible in spanned_counts(csp, with_ops=False):
        full = full_result(csp, var, dialogue)
        for new in (var.value + d for d in (2, 1, -1, -2, 3)):
            if new >= 0 and not sure <= new <= possible and not (full and new > possible):
                out.append((var, amount_text(new, var.text or ""), str(new)))
                break
    return out


def amount_bound_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count the KB confirms said as a bound the KB count breaks: "10" → "more than 10" where
    at most 10 match, "fewer than 10" where at least 10 surely match. Beside a full result
    (:func:`full_result`) only a bound below ("fewer than 10"): the entities left out could make
    "more than 10" true."""
    out = []
    for var, sure, possible in spanned_counts(csp):
        if var.amount_op != "=" or var.value < 1:
            continue
        n = var.value
        full = full_result(csp, var, dialogue)
        bounds = [w for w, side in FALSE_BOUNDS
                  if not (possible > n if side == ">" else sure < n) and not (full and side == ">")]
        if bounds:
            words = bounds[(var.turn + len(var.text or "")) % len(bounds)]
            new = f"{words} {var.text}"
            out.append((var, new, new))
    return out


def hedged_beyond(sure: int, possible: int) -> int | None:
    """The amount nearest the KB count ``sure..possible`` whose approximation ("about M": M ±
    :func:`csp_check.language.cues.approx_tolerance`) still misses every count there: the first M above
    ``possible`` whose range starts above it, else the last one below ``sure`` whose range ends
    below it (``None`` when none is 1 or more)."""
    m = possible + 1
    while m - approx_tolerance(m) <= possible:
        m += 1
    below = next((k for k in range(sure - 1, 0, -1) if k + approx_tolerance(k) < sure), None)
    return m if m - possible <= 2 * max(1, sure - (below or 0)) or below is None else below


def hedged_amount_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count the KB confirms ("I found 10 hotels") said as an approximation of an amount
    outside its tolerance ("I found about 14 hotels" where 10 match: 14 ± 4 misses 10;
    :func:`hedged_beyond`), so C6 must fail even with the count read as a range; beside a full
    result (:func:`full_result`) only an amount below it."""
    out = []
    for var, sure, possible in spanned_counts(csp):
        if var.amount_op != "=":
            continue
        if not sure <= var.value <= possible:
            continue
        new = hedged_beyond(sure, possible)
        if new is not None and new > possible and full_result(csp, var, dialogue):
            below = next((k for k in range(sure - 1, 0, -1) if k + approx_tolerance(k) < sure), None)
            new = below  # beside a full result only an amount below refutes ("about 14" may be true)
        if new is not None:
            hedge = HEDGES[(var.turn + var.value) % len(HEDGES)]
            out.append((var, f"{hedge} {amount_text(new, var.text or '')}", str(new)))
    return out


def capped_restatement(
    dialogue: Dialogue, raw: dict[str, Any] | None = None, kb: KnowledgeBase | None = None
) -> Dialogue | None:
    """No fault: the first exact count the KB confirms beside a full result (:func:`full_result`:
    SGD's 10 results) said as more ("I found 10" → "I found 12"), text only: the entities the
    result left out may make it up, so it is no certain fault. ``None`` when there is none."""
    csp = build_csp(dialogue, delexicalize(dialogue), kb)
    for var, sure, possible in spanned_counts(csp, with_ops=False):
        if var.amount_op == "=" and sure <= var.value <= possible and full_result(csp, var, dialogue):
            text = amount_text(possible + 2, var.text or "")
            return rewritten(dialogue, var, text, text, None, raw)
    return None


def approximate_restatement(
    dialogue: Dialogue, raw: dict[str, Any] | None = None, kb: KnowledgeBase | None = None
) -> Dialogue | None:
    """No fault: the first exact count the KB confirms said as an approximation that holds ("I
    found 10 hotels" → "I found about 11 hotels", within the tolerance of 11), text only; a
    checker that reads "about" as exact flags it. ``None`` when the dialogue has no such count."""
    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        if c.id is not ConstraintId.C6 or not isinstance(c, CountInstance):
            continue
        var = by_name.get(c.count_variable)
        if var is None or var.span is None or not isinstance(var.value, int) or var.amount_op != "=":
            continue
        sure, possible = count_matches(csp.kbs[c.kb], c.columns, [csp.assignment[n] for n in c.variables], c.ops)
        new = var.value + 1
        if not sure <= var.value <= possible or new - approx_tolerance(new) > var.value:
            continue
        text = f"{HEDGES[var.turn % len(HEDGES)]} {amount_text(new, var.text or '')}"
        return rewritten(dialogue, var, text, text, None, raw)
    return None
