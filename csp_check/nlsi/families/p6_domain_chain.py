"""P6 domain chain (spec §4): ``if D1 then also D2`` with D1 called → a D2 call exists (its own
applicable instructions are then P4 instances of that call).

Instances: one per also-rule whose source domain is called.

Lowered (:mod:`csp_check.nlsi.lower`): per also-rule and candidate call of a source domain,
"the call is not made, or a candidate call of the target domain is made".

Reading rules

- An also-rule ("if D1 then also D2") whose source domain D1 is called needs a call of D2; the
  instructions of D2 that apply are then P4 instances of that call.
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.families.primitives import AnyOf
from csp_check.families.registry import register
from csp_check.nlsi.families.base import ProfileFamily
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.models import ApiCall, CallViolation


@dataclass(frozen=True)
class Instance:
    rule: Rule


@register
class DomainChain(ProfileFamily):
    """P6, domain chain: the family this module's docstring states."""

    id, name = "P6", "domain chain"
    description = "'if D1 then also D2' with D1 called: a D2 call exists"

    def instances(self, ctx, calls: list[ApiCall]) -> list[Instance]:
        called = {ctx.domain_of(c) for c in calls}
        return [Instance(r) for r in ctx.rules if r.also_domain and set(r.domains) & called]

    def holds(self, ctx, inst: Instance, calls: list[ApiCall]) -> bool:
        return any(ctx.domain_of(c) == inst.rule.also_domain for c in calls)

    def violation(self, ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
        src = next(c for c in calls if ctx.domain_of(c) in inst.rule.domains)
        return CallViolation(family=self.id, call=src.shown(), instruction=inst.rule.instruction,
                             message=f"{'/'.join(inst.rule.domains)} is called, so {inst.rule.also_domain} must be "
                                     "called too; it is not")

    def lower_calls(self, ctx, st) -> list:
        """(label, primitives) per instance over the structure ``st`` (module doc)."""
        out = []
        for r in ctx.rules:
            if not r.also_domain:
                continue
            targets = tuple(st.exists(cv) for cv in st.of_domain(r.also_domain))
            prims = [AnyOf((st.missing(cv), *targets)) for cv in st.calls if cv.domain in r.domains]
            if prims:
                out.append((r.instruction, prims))
        return out
