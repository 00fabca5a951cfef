"""P1 schema (spec §4): the method exists; every argument is a slot of its domain; categorical
values are in ``possible_values`` after normalisation.

Instances: one per call (the method) and one per argument of a call whose method is known.
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.nlsi.models import ApiCall, CallViolation

ID, TITLE = "P1", "schema"


@dataclass(frozen=True)
class Instance:
    call: int
    slot: str | None = None  # None: the method itself


def instances(ctx, calls: list[ApiCall]) -> list[Instance]:
    out = []
    for i, call in enumerate(calls):
        out.append(Instance(i))
        if ctx.domain_of(call) is not None:
            out += [Instance(i, s) for s, _ in call.arguments]
    return out


def holds(ctx, inst: Instance, calls: list[ApiCall]) -> bool:
    call = calls[inst.call]
    domain = ctx.domain_of(call)
    if inst.slot is None:
        return domain is not None
    if ctx.schema.slot(domain, inst.slot) is None:
        return False
    return all(ctx.schema.value_ok(domain, s, v) for s, v in call.arguments if s == inst.slot)


def explain(ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
    call = calls[inst.call]
    domain = ctx.domain_of(call)
    if inst.slot is None:
        return CallViolation(family=ID, call=call.render(), message=f"unknown method {call.method} (not Get + a schema domain)")
    if ctx.schema.slot(domain, inst.slot) is None:
        return CallViolation(family=ID, call=call.render(), argument=inst.slot,
                             message=f"{inst.slot} is not a slot of {domain}")
    value = call.args().get(inst.slot)
    allowed = ", ".join(ctx.schema.slot(domain, inst.slot).possible_values)
    return CallViolation(family=ID, call=call.render(), argument=inst.slot,
                         message=f"{inst.slot}={value!r} is not a value of {domain}.{inst.slot} ({allowed})")
