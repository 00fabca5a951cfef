"""S1 (annotation against text): the value the belief state / a service call records for what
the user said is one the user's text states (spec §9, "text is the truth"). The reading of the
annotation is :mod:`csp_check.families.annotation_common`; an instance is ``x ∈ {recorded values}``, a set of
constants (``x ∈ ∅`` when the record omits a value the user gave)."""

from __future__ import annotations

from typing import Mapping

from csp_check.families.primitives import Member
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, Value, Variable


@register
class AnnotationText(Family):
    id = "S1"
    name = "annotation against text"
    description = "the belief state and service calls record what the user's text says"
    group = "annotation"

    def build(self, ctx) -> list[Constraint]:
        """The instances :func:`csp_check.families.annotation_common.annotation_constraints` reads off the dialogue."""
        from csp_check.families.annotation_common import annotation_constraints

        return list(annotation_constraints(ctx.dialogue, ctx.variables, ctx.lexicon, ctx.assignment))

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        return all(assignment[n] in constraint.values for n in constraint.variables)

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [Member(tuple(constraint.variables), frozenset(constraint.values))]

    def evidence_turns(self, constraint: Constraint) -> set[int]:
        """The turn whose state / call records the value."""
        return {constraint.turn} if constraint.turn is not None else set()

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        var = by_name[constraint.variables[0]]
        value, slot = assignment[var.name], var.slot_type
        span = f" [{var.span.start}:{var.span.end}] {var.text!r}" if var.span else ""
        record = constraint.record or "annotation"
        if not constraint.values:  # an omission: x ∈ ∅
            tracks = "" if record.endswith("yet,") else f"tracks {slot.split('.')[0]} but "
            return (f"turn {var.turn} the user says{span} ({slot}={value!r}); the {record} "
                    f"at turn {constraint.turn} {tracks}records no {slot}")
        recorded = " / ".join(repr(x) for x in constraint.values)
        if var.speaker == "system":  # a confirmation held to the call it leads to
            return (f"turn {var.turn} the system confirms{span} ({slot}={value!r}); the {record} "
                    f"at turn {constraint.turn} records {slot}={recorded}")
        return (f"turn {var.turn} the user says{span} ({slot}={value!r}); the {record} "
                f"at turn {constraint.turn} records {slot}={recorded}")
