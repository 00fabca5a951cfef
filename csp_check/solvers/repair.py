"""Minimal repair and relexicalization: a CSP solution written back into the dialogue.

The *minimal repair* of a dialogue is its most similar solution (the one maximising the number
of variables that keep what the text says; spec §3, VCA), shown as edits ``(turn, span, old →
new)``: each edit changes one variable's value, and no solution needs fewer. Applying the edits
to the text gives one consistent *relexicalization* (the paper's CSP re-lexicalizer, spec §4).

>>> result = repair(csp, utterances=[t.utterance for t in dialogue.turns])
>>> [f"turn {e.turn}: {e.old!r} → {e.new!r}" for e in result.edits]
>>> result.relexicalized[3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from csp_check.models import CSP, Span, Value
from csp_check.solvers import get_solver
from csp_check.solvers.defaults import DEFAULT_SOLVER, DEFAULT_TIME_LIMIT
from csp_check.solvers.results import Edit, SolveStatus


class RepairResult(BaseModel):
    """The minimal repair of one dialogue (see the module docstring).

    ``status`` is ``satisfied`` when the repair is proven minimal, ``unsatisfiable`` when the
    CSP has no solution (nothing to repair towards: no edits), ``unknown`` on a timeout (then
    ``edits`` come from the best solution found, if any, and may not be minimal).
    ``relexicalized`` holds every turn's text with the edits applied (``None`` when no
    utterances were given or there is no solution).
    """

    solver: str
    status: SolveStatus
    agreement: int = 0
    edits: list[Edit] = Field(default_factory=list)
    relexicalized: list[str] | None = None
    solve_seconds: float = 0.0
    reason: str | None = None


def edits(csp: CSP, solution: Mapping[str, Value]) -> list[Edit]:
    """The edits turning ``csp.assignment`` into ``solution``, in variable order."""
    out = []
    for v in csp.variables:
        old = csp.assignment.get(v.name, v.value)
        new = solution[v.name]
        if new != old:
            out.append(Edit(variable=v.name, turn=v.turn, slot=v.slot_type, span=v.span, text=v.text, old=old, new=new))
    return out


def relexicalize(utterances: Sequence[str], csp: CSP, solution: Mapping[str, Value]) -> list[str]:
    """Every turn's text with each changed variable's span replaced by its new value.

    ``utterances[i]`` is the text of turn ``i`` (``Turn.utterance``; spans index into it).
    Variables whose value does not change keep their text as written; a new value is written
    as its canonical string (an amount as digits), capitalised like the text it replaces.
    Implicit variables (no span) change nothing. A span overlapping an earlier one, or out of
    its utterance, is skipped.
    """
    by_turn: dict[int, list[tuple[Span, Value]]] = {}
    for e in edits(csp, solution):
        if e.span is not None:
            by_turn.setdefault(e.turn, []).append((e.span, e.new))
    texts = list(utterances)
    for turn, replacements in by_turn.items():
        if not 0 <= turn < len(texts):
            continue
        text, end = texts[turn], -1
        kept = []
        for span, new in sorted(replacements, key=lambda r: (r[0].start, r[0].end)):
            if span.start >= end and span.end <= len(text) and span.start <= span.end:
                kept.append((span, _surface(new, text[span.start : span.end])))
                end = span.end
        for span, new in reversed(kept):
            text = text[: span.start] + new + text[span.end :]
        texts[turn] = text
    return texts


def repair(
    csp: CSP,
    solver: str = DEFAULT_SOLVER,
    *,
    utterances: Sequence[str] | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> RepairResult:
    """The minimal repair of ``csp`` by ``solver`` (a name for :func:`~csp_check.solvers.get_solver`).

    Raises :class:`~csp_check.solvers.base.SolverUnavailable` if the solver is not installed;
    a timeout gives status ``unknown`` (see :class:`RepairResult`).
    """

    best = get_solver(solver).most_similar(csp, time_limit=time_limit)
    result = RepairResult(
        solver=best.solver, status=best.status, agreement=best.agreement,
        solve_seconds=best.solve_seconds, reason=best.reason,
    )  # fmt: skip
    if best.solution is not None:
        result.edits = edits(csp, best.solution)
        if utterances is not None:
            result.relexicalized = relexicalize(utterances, csp, best.solution)
    return result


def _surface(value: Value, replaced: str | None) -> str:
    """How to write ``value`` in place of the text ``replaced``."""
    text = str(value)
    if replaced and isinstance(value, str):
        if replaced.isupper() and len(replaced) > 1:
            return text.upper()
        if replaced.istitle():
            return text.title()
        if replaced[:1].isupper():
            return text[:1].upper() + text[1:]
    return text
