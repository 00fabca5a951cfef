"""C3 (same utterance, same type): the explicit slot variables of one slot type in one
utterance take pairwise different values (paper §3.2, spec §2).

Reading rules

- Explicit slot variables of one slot type in one utterance are pairwise different: the
  paper's rule as written (no gold SGD utterance names one value twice).
- Two spans with equal text are two variables ("A, A or C" gives C3 three variables); spans
  annotated with one value but worded differently count as one mention
  (:func:`csp_check.build.context.one_per_wording`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from csp_check.build.context import one_per_wording
from csp_check.families.primitives import AllDifferent, Primitive
from csp_check.families.registry import Family, register
from csp_check.families.words import where
from csp_check.models import CSP, Constraint, ConstraintId, Value, Variable, VariableKind


@register
class DistinctMentions(Family[Constraint]):
    id = "C3"
    name = "distinct in one utterance"
    description = "values of one slot type in one utterance are pairwise different"
    group = "dialogic"
    instance_type = Constraint  # its variables are all an instance needs

    def build(self, ctx) -> list[Constraint]:
        """One instance per utterance and slot type with ≥ 2 explicit mentions."""
        out = []
        for turn, turn_vars in sorted(ctx.by_turn.items()):
            by_type: dict[str, list[Variable]] = defaultdict(list)
            for v in turn_vars:
                if v.kind is VariableKind.SLOT and v.span is not None:
                    by_type[v.slot_type].append(v)
            for same_type in by_type.values():
                same_type = one_per_wording(same_type)
                if len(same_type) > 1:
                    out.append(Constraint(id=ConstraintId(self.id), variables=[v.name for v in same_type], turn=turn))
        return out

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        values = [assignment[name] for name in constraint.variables]
        return len(set(values)) == len(values)

    def lower(self, constraint: Constraint, csp: CSP) -> list[Primitive]:
        return [AllDifferent(tuple(constraint.variables))]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        refs = [by_name[n] for n in constraint.variables]
        said = ", ".join(f"{r.slot_type}={assignment[r.name]!r}" for r in refs)
        return f"{where(refs)} names the same {refs[0].slot_type} twice in one utterance: {said}"
