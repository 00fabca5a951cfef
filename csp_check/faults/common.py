"""What the fault generators ask of a CSP: its spanned counts, its system claims and lists, and
whether a changed value breaks a constraint (shared by the kind modules of :mod:`csp_check.faults`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from csp_check.build.builder import SYSTEM_CLAIMS
from csp_check.check.evaluate import count_matches, entity_match, satisfied
from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.kb_common import KbFilterInstance
from csp_check.models import CSP, ConstraintId, Variable, VariableKind


def spanned_counts(csp: CSP, with_ops: bool = True) -> Iterator[tuple[Variable, int, int]]:
    """Each C6 count whose amount is a spanned integer: (its amount variable, the KB count
    ``sure``, ``possible`` under the count's filters, with their bound operators when
    ``with_ops``)."""
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        if c.id is not ConstraintId.C6 or not isinstance(c, CountInstance):
            continue
        var = by_name[c.count_variable]
        if var.span is None or not isinstance(var.value, int):
            continue
        values = [csp.assignment[n] for n in c.variables]
        yield (var, *count_matches(csp.kbs[c.kb], c.columns, values, *((c.ops,) if with_ops else ())))


def claims(csp: CSP) -> Iterator[tuple[Variable, KbFilterInstance, int]]:
    """(variable, C5 constraint, its index there) for every explicit system claim of a C5."""
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        if c.id is not ConstraintId.C5 or not isinstance(c, KbFilterInstance):
            continue
        for i, name in enumerate(c.variables):
            var = by_name[name]
            if var.span is not None and var.speaker == "system" and var.role in SYSTEM_CLAIMS and var.turn == c.turn:
                yield var, c, i


def listed(csp: CSP) -> list[Variable]:
    """System offer / inform variables with a span that share their utterance and slot type
    with another one: the entities of a list ("Dogman, Hackers or High Life")."""
    groups: dict[tuple[int, str], list[Variable]] = {}
    for v in csp.variables:
        if v.span is not None and v.kind is VariableKind.SLOT and v.speaker == "system" and v.role in SYSTEM_CLAIMS:
            groups.setdefault((v.turn, v.slot_type), []).append(v)
    return [v for vs in groups.values() if len(vs) > 1 for v in vs]


def misfit(csp: CSP, constraint: KbFilterInstance, i: int, candidates: Iterable[str], render: Callable[[str], Any]) -> Any:
    """``render(value)`` of the first of ``candidates`` that, put at position ``i`` of a KB claim
    (C5 ``constraint``), makes it match no entity; ``None`` when none does (or none renders).
    Shared by the KB-swap, listed-misfit and raw-text fault generators."""
    entities = csp.kbs[constraint.kb]
    values = [csp.assignment[n] for n in constraint.variables]
    for value in candidates:
        values[i] = value
        rendered = render(value)
        if rendered and not any(entity_match(e, constraint.columns, values)[1] for e in entities):
            return rendered
    return None


def breaks(csp: CSP, var: Variable, value: str, allowed: set[str] | None) -> bool:
    """Whether ``var`` taking ``value`` breaks a C5 or (where its referent is kept) a C2."""
    assignment = dict(csp.assignment)
    assignment[var.name] = value
    for c in csp.constraints:
        if var.name not in c.variables or c.id not in (ConstraintId.C2, ConstraintId.C5):
            continue
        if c.id is ConstraintId.C2 and allowed is not None and var.name not in allowed:
            continue
        if c.id is ConstraintId.C5 and var.speaker != "system":
            continue
        if not satisfied(c, assignment, csp):
            return True
    return False


def other_values(csp: CSP, var: Variable) -> list[str]:
    """Values of ``var``'s slot type other than its own, in a stable order."""
    own = csp.assignment[var.name]
    return [v for v in csp.domains.get(var.slot_type, []) if v != own and v != "dontcare"]
