"""P1 schema (spec §4): the method exists; every argument is a slot of its domain; categorical
values are in ``possible_values`` after normalisation.

Instances: one per call (the method) and one per argument of a call whose method is known.

Lowered (:mod:`csp_check.nlsi.lower`): the method variable is a schema method (or the call is
not made); an argument of a slot its domain lacks is absent; a categorical slot's variable is
absent or one of its possible values. In a derive structure also: a call not made has no
arguments, and candidate calls of one domain are made in order (no symmetric solutions).

Reading rules

- A call's method is a method of the schema (SGD ``schema.json``, its domains mapped as
  ``Services_1`` → Salons, …: :mod:`csp_check.nlsi.schema`); an unknown method (``GetDenists``)
  is both a P1 violation and an error of the example (exit 2).
- Every argument of a call of a known method is a slot of its domain, and a categorical slot's
  value is one of its ``possible_values`` after the released normalisation.
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.families.primitives import AnyOf, Member
from csp_check.families.registry import register
from csp_check.nlsi.families.base import ProfileFamily
from csp_check.nlsi.models import ApiCall, CallViolation


@dataclass(frozen=True)
class Instance:
    call: int
    slot: str | None = None  # None: the method itself


@register
class Schema(ProfileFamily):
    """P1, schema: the family this module's docstring states."""

    id, name = "P1", "schema"
    types_domains = True  # its instances type every (call, slot) variable: search over its candidates
    description = "a call's method exists and its arguments are slots and values of its domain"

    def instances(self, ctx, calls: list[ApiCall]) -> list[Instance]:
        out = []
        for i, call in enumerate(calls):
            out.append(Instance(i))
            if ctx.domain_of(call) is not None:
                out += [Instance(i, s) for s, _ in call.arguments]
        return out

    def holds(self, ctx, inst: Instance, calls: list[ApiCall]) -> bool:
        call = calls[inst.call]
        domain = ctx.domain_of(call)
        if inst.slot is None:
            return domain is not None
        if ctx.schema.slot(domain, inst.slot) is None:
            return False
        return all(ctx.schema.value_ok(domain, s, v) for s, v in call.arguments if s == inst.slot)

    def violation(self, ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
        call = calls[inst.call]
        domain = ctx.domain_of(call)
        if inst.slot is None:
            return CallViolation(family=self.id, call=call.shown(),
                                 message=f"unknown method {call.method} (not Get + a schema domain)")
        if ctx.schema.slot(domain, inst.slot) is None:
            return CallViolation(family=self.id, call=call.shown(), argument=inst.slot,
                                 message=f"{inst.slot} is not a slot of {domain}")
        value = call.args().get(inst.slot)
        allowed = ", ".join(ctx.schema.slot(domain, inst.slot).possible_values)
        return CallViolation(family=self.id, call=call.shown(), argument=inst.slot,
                             message=f"{inst.slot}={value!r} is not a value of {domain}.{inst.slot} ({allowed})")

    def lower_calls(self, ctx, st) -> list:
        """(label, primitives) per instance over the structure ``st`` (module doc)."""
        ABSENT, NONE = st.absent, st.none

        out = []
        methods = frozenset(f"Get{d}" for d in ctx.schema.domains) | {NONE}
        for cv in st.calls:
            out.append((f"{cv.method} exists", [Member((cv.method_var,), methods)]))
            if cv.domain is None:
                continue
            for var, s in cv.all_vars():
                info = ctx.schema.slot(cv.domain, s)
                if info is None:
                    out.append((f"{cv.method}: {s} is a slot", [Member((var,), frozenset({ABSENT}))]))
                elif info.is_categorical:
                    ok = frozenset(u for u in st.domain[var] if u == ABSENT or ctx.schema.value_ok(cv.domain, s, u))
                    out.append((f"{cv.method}: {s} categorical", [Member((var,), ok)]))
                if st.derive:
                    out.append((f"{cv.method} not made: no {s}", [AnyOf((st.exists(cv), st.is_value(var, ABSENT)))]))
        if st.derive:
            for a, b in zip(st.calls, st.calls[1:]):
                if a.domain == b.domain:
                    out.append((f"{a.method} candidates in order", [AnyOf((st.missing(b), st.exists(a)))]))
        return out
