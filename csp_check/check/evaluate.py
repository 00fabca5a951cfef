"""Solver-free checker: evaluate an assignment directly against every constraint of a CSP.

What each constraint means is stated by its family (:mod:`csp_check.families`: one module per
family, :meth:`~csp_check.families.registry.Family.satisfied`); this module applies them. The
MiniZinc model and the CP-SAT backend must agree with it (spec §2, paper §3.2).

Reading rules

- Values are compared after :func:`~csp_check.language.normalize.normalize` (the CSP stores them so).
- ``dontcare`` as a filter value matches every entity.
- A KB entity without a column is *unknown* there, and the dialogue gets the benefit of the
  doubt: C4 counts only entities that surely match, C5 accepts an entity that may match, and C6
  holds when the amount's bounds (``sure ≤ x0 ≤ possible`` for ``=``) meet ``sure..possible``.
- Amount variables (kind ``amount``) are integers in ``0..CSP.max_amount``.
- S1 (annotation against text): the user's text variable takes one of the fixed values the
  belief state / service call records for it (membership in a set of constants).
- **A CSP with no solution.** The paper counts such a dialogue consistent only if its
  assignment is empty or outside the KB. We do not: a dialogue is consistent exactly when its own
  assignment satisfies every enabled constraint, so an unsolvable CSP (with at least one
  variable) always means an inconsistent dialogue, and the report says ``unsatisfiable`` so you
  can tell the cases apart; such a dialogue contributes 0 to VCA.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from csp_check.families import registry
from csp_check.families.primitives import DONTCARE, count_matches, entity_match, holds  # noqa: F401  (re-exported)
from csp_check.models import CSP, Constraint, Value, Variable, VariableRef, Violation


def satisfied(constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
    """Whether ``assignment`` (variable name → value) satisfies ``constraint`` (its family's
    meaning). Raises :class:`~csp_check.families.UnknownFamily` for an unregistered id."""
    return registry.get(constraint.id).satisfied(constraint, assignment, csp)


def violations(
    csp: CSP, assignment: Mapping[str, Value] | None = None,
    certainty: Callable[[Constraint], str | None] | None = None,
) -> list[Violation]:
    """Every constraint of ``csp`` that ``assignment`` (default: the dialogue's own) breaks;
    ``certainty`` gives the reason a broken one's reading is uncertain (default: the
    instance's own ``uncertain``; :func:`csp_check.check.certainty.assess`)."""
    assignment = csp.assignment if assignment is None else assignment
    by_name = {v.name: v for v in csp.variables}
    return [
        explain(c, assignment, csp, by_name, certainty(c) if certainty else c.uncertain)
        for c in csp.constraints if not satisfied(c, assignment, csp)
    ]


def explain(
    constraint: Constraint, assignment: Mapping[str, Value], csp: CSP, by_name: Mapping[str, Variable],
    uncertain: str | None = None,
) -> Violation:
    """A :class:`Violation` for a constraint ``assignment`` breaks, with its evidence in words
    (the family's :meth:`~csp_check.families.registry.Family.explain`); ``uncertain``: why its
    reading is not settled (``None``: certain)."""
    family = registry.get(constraint.id)
    refs = [_ref(by_name[n], assignment[n]) for n in constraint.scope]
    turns = sorted({r.turn for r in refs} | family.evidence_turns(constraint))
    msg = family.explain(constraint, assignment, csp, by_name)
    return Violation(
        constraint=constraint.id, turns=turns, variables=refs, message=msg,
        certain=uncertain is None, uncertain_reason=uncertain,
        reading=[*(said_by(by_name[n], assignment[n]) for n in constraint.scope), *constraint.reading],
    )  # fmt: skip


def said_by(var: Variable, value: Value) -> str:
    """Where a variable's value came from, in words: ``"x3: 'spanish' said by the user at turn 2
    → restaurant.food = 'spanish'"``; a variable without a span is the annotation's (an implicit
    value, or a filter the belief state holds that the text never says)."""
    source = f"{var.text!r} said by the {var.speaker} at turn {var.turn}" if var.span is not None else (
        f"annotated for the {var.speaker} at turn {var.turn}, not in the text")
    return f"{var.name}: {source} → {var.slot_type} = {value!r}"


def _ref(var: Variable, value: Value) -> VariableRef:
    return VariableRef(name=var.name, turn=var.turn, slot=var.slot_type, span=var.span, text=var.text, value=value)
