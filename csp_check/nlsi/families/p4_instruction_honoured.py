"""P4 instruction honoured (spec §4): an instruction whose condition holds in a call (its domain
is called; for a chain, its condition argument has its value in that call) puts its value in
the call, unless the user stated that slot (P3 wins).

Instances: one per (call, value rule) whose condition holds in the call. Satisfied when the call
has the rule's slot with the rule's value or with the value of another rule for the same slot
whose condition holds too (several preferences: P5 spreads them over calls).
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.models import ApiCall, CallViolation

ID, TITLE = "P4", "instruction honoured"


@dataclass(frozen=True)
class Instance:
    call: int
    rule: Rule


def instances(ctx, calls: list[ApiCall]) -> list[Instance]:
    out = []
    for i, c in enumerate(calls):
        d = ctx.domain_of(c)
        if d is None:
            continue
        for r in ctx.rules:
            if r.action and ctx.condition_holds(r, c) and ctx.grounding.stated(d, r.action[0]) is None:
                out.append(Instance(i, r))
    return out


def holds(ctx, inst: Instance, calls: list[ApiCall]) -> bool:
    c = calls[inst.call]
    d = ctx.domain_of(c)
    slot = inst.rule.action[0]
    got = c.args().get(slot)
    allowed = [r.action[1] for r in ctx.rules if r.action and r.action[0] == slot and ctx.condition_holds(r, c)]
    return any(ctx.same(d, slot, got, v) for v in allowed)


def explain(ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
    c = calls[inst.call]
    slot, value = inst.rule.action
    got = c.args().get(slot)
    what = "has no " + slot if got is None else f"has {slot}={got!r}"
    return CallViolation(family=ID, call=c.render(), argument=slot, instruction=inst.rule.instruction,
                         message=f"the instruction applies ({inst.rule.describe()}) but the call {what}, not {value!r}")
