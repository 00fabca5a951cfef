"""P4 instruction honoured (spec §4): an instruction whose condition holds in a call puts its
value in the call, unless the user stated that slot (P3 wins).

Instances: one per (call, value rule) whose condition holds in the call.

Lowered (:mod:`csp_check.nlsi.lower`), per candidate call and value rule of its domain whose
slot the user did not state: "the call is not made, or a condition pair fails, or the slot has
a value of a rule for it"; and per such value ``u`` other than the rule's own, "… or the slot
is not ``u``, or a rule giving ``u`` has its condition" (its conditions in clause form).

Reading rules

- An instruction's condition holds in a call when its domain is called and, for a chain, its
  condition argument has its value in that call; the instruction then puts its value in the
  call, unless the user stated that slot (P3 wins).
- Satisfied when the call has the rule's slot with the rule's value or with the value of another
  rule for the same slot whose condition holds too (several preferences: P5 spreads them over
  calls).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from csp_check.families.primitives import AnyOf, Member
from csp_check.families.registry import register
from csp_check.nlsi.families.base import ProfileFamily
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.models import ApiCall, CallViolation


@dataclass(frozen=True)
class Instance:
    call: int
    rule: Rule


@register
class InstructionHonoured(ProfileFamily):
    """P4, instruction honoured: the family this module's docstring states."""

    id, name = "P4", "instruction honoured"
    description = "an instruction whose condition holds in a call puts its value in the call"

    def instances(self, ctx, calls: list[ApiCall]) -> list[Instance]:
        out = []
        for i, c in enumerate(calls):
            d = ctx.domain_of(c)
            if d is None:
                continue
            for r in ctx.rules:
                if r.action and ctx.condition_holds(r, c) and ctx.grounding.stated(d, r.action[0]) is None:
                    out.append(Instance(i, r))
        return out

    def holds(self, ctx, inst: Instance, calls: list[ApiCall]) -> bool:
        c = calls[inst.call]
        d = ctx.domain_of(c)
        slot = inst.rule.action[0]
        got = c.args().get(slot)
        allowed = [r.action[1] for r in ctx.rules if r.action and r.action[0] == slot and ctx.condition_holds(r, c)]
        return any(ctx.same(d, slot, got, v) for v in allowed)

    def violation(self, ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
        c = calls[inst.call]
        slot, value = inst.rule.action
        got = c.args().get(slot)
        what = "has no " + slot if got is None else f"has {slot}={got!r}"
        return CallViolation(family=self.id, call=c.shown(), argument=slot, instruction=inst.rule.instruction,
                             message=f"the instruction applies ({inst.rule.describe()}) but the call {what}, "
                                     f"not {value!r}")

    def lower_calls(self, ctx, st) -> list:
        """(label, primitives) per instance over the structure ``st`` (module doc)."""
        out = []
        for cv in st.calls:
            d = cv.domain
            if d is None:
                continue
            for r in ctx.rules:
                if not r.action or d not in r.domains or ctx.grounding.stated(d, r.action[0]) is not None:
                    continue
                if any(s not in cv.slots for s, _ in r.condition):
                    continue  # a condition on an argument the call cannot have never holds
                premise = [st.missing(cv)] + [st.differs(cv.slots[s], d, s, v) for s, v in r.condition]
                slot = r.action[0]
                var = cv.slots.get(slot)
                if var is None:
                    out.append((f"{cv.method}: {r.instruction}", [AnyOf(tuple(premise))]))
                    continue
                others = [o for o in ctx.rules if o.action and o.action[0] == slot and d in o.domains]
                values = frozenset().union(*(st.same_set(var, d, slot, o.action[1]) for o in others))
                prims = [AnyOf((*premise, Member((var,), values)))]
                own = st.same_set(var, d, slot, r.action[1])
                for u in sorted(values - own):
                    givers = [o for o in others if u in st.same_set(var, d, slot, o.action[1])]
                    if any(not o.condition for o in givers):
                        continue
                    if any(any(s not in cv.slots for s, _ in o.condition) for o in givers):
                        givers = [o for o in givers if all(s in cv.slots for s, _ in o.condition)]
                    for pick in itertools.product(*(o.condition for o in givers)):
                        prims.append(AnyOf((*premise, st.is_value(var, u, excluded=True),
                                            *(st.same(cv.slots[s], d, s, v) for s, v in pick))))
                out.append((f"{cv.method}: {r.instruction}", prims))
        return out
