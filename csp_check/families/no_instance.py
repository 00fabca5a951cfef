"""C4 (none): where the system says it found nothing, no KB entity surely matches what it
searched for (paper §3.2, spec §2): a KB count of 0 (an entity lacking a filtered column does not
refute it). Instances are built in the KB walk of :mod:`csp_check.constraints`."""

from __future__ import annotations

from typing import Mapping

from csp_check.families import kb_common
from csp_check.families.primitives import Bound, KbCount, count_matches
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, Value, Variable


@register
class NoInstance(Family):
    id = "C4"
    name = "no instance"
    description = "when the system finds nothing, no KB entity matches what was searched for"
    group = "domain"

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        sure, _ = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                kb_common.values(constraint, assignment), constraint.ops)
        return sure == 0

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [KbCount(constraint.kb or "", kb_common.filters(constraint), lo=Bound(None, 0), hi=Bound(None, 0))]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        matches = kb_common.possible_matches(constraint, assignment, csp)
        return (f"{kb_common.claim(constraint, by_name)} says there is no instance with "
                f"{kb_common.said(constraint, assignment, by_name)}; the KB has {len(matches)}: {kb_common.sample(matches)}")
