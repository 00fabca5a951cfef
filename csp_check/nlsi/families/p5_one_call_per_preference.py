"""P5 one call per preference (spec §4): several applicable values for one slot of a called
domain → one call with each value (MultiPreference).

Instances: one per (domain, slot, value) when the domain is called, the user did not state the
slot, and at least two distinct values come from domain-level rules (no condition) of it.

Lowered (:mod:`csp_check.nlsi.lower`): per such value and candidate call of the domain, "the
call is not made, or some call of the domain has the value" (a call not made has no arguments).

Reading rules

- When a domain is called, the user did not state a slot, and domain-level rules (no
  condition) give that slot at least two distinct values, some call of the domain has each of
  them: one call per preference.
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.families.primitives import AnyOf
from csp_check.families.registry import register
from csp_check.nlsi.families.base import ProfileFamily
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.models import ApiCall, CallViolation
from csp_check.nlsi.schema import normalize


@dataclass(frozen=True)
class Instance:
    domain: str
    slot: str
    value: str
    rule: Rule


@register
class OneCallPerPreference(ProfileFamily):
    """P5, one call per preference: the family this module's docstring states."""

    id, name = "P5", "one call per preference"
    description = "several applicable values for one slot give one call with each value"

    def instances(self, ctx, calls: list[ApiCall]) -> list[Instance]:
        out = []
        called = {ctx.domain_of(c) for c in calls} - {None}
        for d in sorted(called):
            by_slot: dict[str, list[Rule]] = {}
            for r in ctx.rules:
                if r.action and not r.condition and d in r.domains and ctx.grounding.stated(d, r.action[0]) is None:
                    by_slot.setdefault(r.action[0], []).append(r)
            for slot, rules in sorted(by_slot.items()):
                if len({normalize(r.action[1]) for r in rules}) >= 2:
                    out += [Instance(d, slot, r.action[1], r) for r in rules]
        return out

    def holds(self, ctx, inst: Instance, calls: list[ApiCall]) -> bool:
        return any(ctx.domain_of(c) == inst.domain
                   and ctx.same(inst.domain, inst.slot, c.args().get(inst.slot), inst.value) for c in calls)

    def violation(self, ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
        return CallViolation(family=self.id, argument=inst.slot, instruction=inst.rule.instruction,
                             message=f"several preferences for {inst.domain}.{inst.slot}; no Get{inst.domain} call "
                                     f"has {inst.slot}={inst.value!r}")

    def lower_calls(self, ctx, st) -> list:
        """(label, primitives) per instance over the structure ``st`` (module doc)."""
        out = []
        for d in sorted({cv.domain for cv in st.calls} - {None}):
            mine = st.of_domain(d)
            fake = [ApiCall(method=f"Get{d}")]
            for inst in self.instances(ctx, fake):
                has = tuple(st.same(cv.slots[inst.slot], d, inst.slot, inst.value)
                            for cv in mine if inst.slot in cv.slots)
                out.append((f"{d}.{inst.slot}={inst.value!r} in a call",
                            [AnyOf((st.missing(cv), *has)) for cv in mine]))
        return out
