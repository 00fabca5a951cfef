"""P2 grounded (spec §4): every argument value is said in the dialogue or given by an
applicable instruction; otherwise it is hallucinated.

Instances: one per argument of a known-method call. Grounded means: the user stated it for that
slot, or its normalised text or one of its ontology aliases occurs in the user's turns, or a parsed instruction of the call's
domain gives that slot that value (as action or as a chain condition), or, for a location-like
slot, another call carries the same value (a second domain shares the first one's location).
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.nlsi.families import LOCATION_SLOTS
from csp_check.nlsi.models import ApiCall, CallViolation

ID, TITLE = "P2", "grounded"


@dataclass(frozen=True)
class Instance:
    call: int
    slot: str
    value: str


def instances(ctx, calls: list[ApiCall]) -> list[Instance]:
    return [Instance(i, s, v) for i, c in enumerate(calls) if ctx.domain_of(c) for s, v in c.arguments
            if ctx.schema.slot(ctx.domain_of(c), s) is not None]


def holds(ctx, inst: Instance, calls: list[ApiCall]) -> bool:
    call = calls[inst.call]
    d = ctx.domain_of(call)
    g = ctx.grounding
    if ctx.same(d, inst.slot, g.stated(d, inst.slot), inst.value) or g.said(inst.value):
        return True
    if any(g.said(form) for form in ctx.schema.surface_forms(d, inst.slot, inst.value)):
        return True  # said under another surface form of the same value ("Philly", "NYC")
    for r in ctx.rules:
        if d not in r.domains:
            continue
        pairs = list(r.condition) + ([r.action] if r.action else [])
        if any(s == inst.slot and ctx.same(d, s, v, inst.value) for s, v in pairs):
            return True
    if inst.slot in LOCATION_SLOTS:
        for j, other in enumerate(calls):
            if j != inst.call and any(s in LOCATION_SLOTS and ctx.same(d, inst.slot, v, inst.value) for s, v in other.arguments):
                return True
    return False


def explain(ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
    return CallViolation(family=ID, call=calls[inst.call].render(), argument=inst.slot,
                         message=f"{inst.slot}={inst.value!r} is neither said in the dialogue nor given by an instruction (hallucinated)")
