"""Fault generators over a consistent call set (docs/nlsi.md).

Each generator takes a :class:`~csp_check.nlsi.families.Context`, the gold calls and a random
stream, and returns a :class:`CallFault` (the faulty calls and the family that must flag it) or
None when the fault does not apply to the example (e.g. no instruction-given argument):

========================  ==========================================================  ======
kind                      what changes                                                family
========================  ==========================================================  ======
``arg_dropped``           an instruction-given argument is removed                    P4
``value_swapped``         an instruction-given value becomes another value of the     P4
                          slot that no instruction or the dialogue gives
``arg_invented``          a slot the call lacks gets a value nobody said              P2
``call_dropped``          a call is removed (second domain → P6, second preference    P6/P5/P3
                          → P5, the only call → P3)
``profile_override``      a value the user stated is replaced by a profile value      P3
``wrong_method``          the method name is misspelled                               P1
``wrong_arg_name``        an argument name is misspelled                              P1
========================  ==========================================================  ======
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from csp_check.nlsi.families import Context
from csp_check.nlsi.models import ApiCall
from csp_check.nlsi.schema import normalize

KINDS = ("arg_dropped", "value_swapped", "arg_invented", "call_dropped", "profile_override", "wrong_method", "wrong_arg_name")


@dataclass
class CallFault:
    """A faulty call set, its kind and the family expected to flag it."""

    kind: str
    calls: list[ApiCall]
    family: str
    detail: str


def _replace(call: ApiCall, args: dict[str, str] | list[tuple[str, str]], method: str | None = None) -> ApiCall:
    items = list(args.items()) if isinstance(args, dict) else list(args)
    return ApiCall(method=method or call.method, arguments=tuple(items))


def _given(ctx: Context, call: ApiCall) -> list[str]:
    """Arguments of the call given by an instruction (not stated by the user)."""
    d = ctx.domain_of(call)
    out = []
    for s, v in call.arguments:
        if ctx.grounding.stated(d, s) is not None:
            continue
        if any(r.action and r.action[0] == s and ctx.condition_holds(r, call) and ctx.same(d, s, r.action[1], v) for r in ctx.rules):
            out.append(s)
    return out


def _stated(ctx: Context, call: ApiCall) -> list[str]:
    d = ctx.domain_of(call)
    return [s for s, v in call.arguments if ctx.same(d, s, ctx.grounding.stated(d, s), v)]


def _fresh_value(ctx: Context, d: str, slot: str, rng: random.Random, avoid: set[str]) -> str | None:
    info = ctx.schema.slot(d, slot)
    if info is None:
        return None
    taken = {normalize(v) for v in avoid}
    taken |= {normalize(r.action[1]) for r in ctx.rules if r.action and r.action[0] == slot}
    taken |= {normalize(v) for r in ctx.rules for s, v in r.condition if s == slot}
    pool = sorted(v for v in info.values if normalize(v) not in taken and normalize(v) != "dontcare"
                  and not ctx.grounding.said(v) and len(normalize(v)) > 1)
    return rng.choice(pool) if pool else None


def make(kind: str, ctx: Context, calls: list[ApiCall], rng: random.Random) -> CallFault | None:
    """One fault of ``kind`` on ``calls`` (see the module table), or None when not applicable."""
    if not calls:
        return None
    i = rng.randrange(len(calls))
    call = calls[i]
    d = ctx.domain_of(call)
    if d is None:
        return None
    args = call.args()

    def with_call(new: ApiCall | None) -> list[ApiCall]:
        out = list(calls)
        if new is None:
            out.pop(i)
        else:
            out[i] = new
        return out

    if kind in ("arg_dropped", "value_swapped"):
        given = _given(ctx, call)
        if not given:
            return None
        slot = rng.choice(given)
        if kind == "arg_dropped":
            new = _replace(call, {s: v for s, v in args.items() if s != slot})
            return CallFault(kind, with_call(new), "P4", f"dropped {slot} from {call.render()}")
        value = _fresh_value(ctx, d, slot, rng, {args[slot]})
        if value is None:
            return None
        new = _replace(call, {**args, slot: value})
        return CallFault(kind, with_call(new), "P4", f"{slot}: {args[slot]!r} -> {value!r}")
    if kind == "arg_invented":
        slots = sorted(s for s in ctx.schema.domains[d] if s not in args and ctx.grounding.stated(d, s) is None)
        rng.shuffle(slots)
        for slot in slots:
            value = _fresh_value(ctx, d, slot, rng, {v for c in calls for _, v in c.arguments})
            if value is not None:
                new = _replace(call, {**args, slot: value})
                return CallFault(kind, with_call(new), "P2", f"invented {slot}={value!r}")
        return None
    if kind == "call_dropped":
        if len(calls) == 1:
            return CallFault(kind, [], "P3", f"dropped the only call {call.render()}")
        first = ctx.domain_of(calls[0])
        j = len(calls) - 1
        family = "P6" if ctx.domain_of(calls[j]) != first else "P5"
        return CallFault(kind, calls[:j], family, f"dropped {calls[j].render()}")
    if kind == "profile_override":
        for slot in _stated(ctx, call):
            values = [r.action[1] for r in ctx.rules if r.action and r.action[0] == slot and d in r.domains
                      and not ctx.same(d, slot, r.action[1], args[slot])]
            if values:
                value = rng.choice(values)
                return CallFault(kind, with_call(_replace(call, {**args, slot: value})), "P3",
                                 f"{slot}: dialogue {args[slot]!r} overridden by profile {value!r}")
        return None
    if kind == "wrong_method":
        name = call.method
        k = rng.randrange(3, len(name)) if len(name) > 4 else len(name) - 1
        bad = name[:k] + name[k + 1 :] if len(name) > 4 else name + "x"
        if ctx.schema.method_domain(bad):
            return None
        return CallFault(kind, with_call(_replace(call, list(call.arguments), method=bad)), "P1", f"method {name} -> {bad}")
    if kind == "wrong_arg_name":
        if not call.arguments:
            return None
        slot = rng.choice([s for s, _ in call.arguments])
        bad = slot.replace("_", "") + "s" if "_" in slot else slot + "_name"
        if ctx.schema.slot(d, bad) is not None:
            bad = slot + "_x"
        new = _replace(call, [(bad if s == slot else s, v) for s, v in call.arguments])
        return CallFault(kind, with_call(new), "P1", f"argument {slot} -> {bad}")
    raise ValueError(f"unknown fault kind {kind!r}")
