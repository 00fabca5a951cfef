"""P2 grounded (spec §4): every argument value is said in the dialogue or given by an
applicable instruction; otherwise it is hallucinated.

Instances: one per argument of a known-method call.

Lowered (:mod:`csp_check.nlsi.lower`): per argument variable of a schema slot, absent or a
value grounded alone (:func:`grounded_alone`); for a location-like slot, each other value ``u``
gives the clause "not ``u``, or some other call's location-like argument equals ``u``".

Reading rules

- Grounded means: the user stated it for that slot, or its normalised text or one of its
  ontology aliases occurs in the user's turns, or a parsed instruction of the call's domain gives
  that slot that value (as action or as a chain condition), or, for a location-like slot,
  another call carries the same value (a second domain shares the first one's location:
  MultiDomain), or, with the release's carry-over (a release schema folder), another call
  carries the same value under the same slot name.
- *Applicable* is decided by the rules and the calls, never read from the gold
  ``applicable_standing_instructions`` (those are only scored).
- Relative and partial dates ("next Friday", "the 3rd") and years count as said once resolved
  against the reference day (:mod:`csp_check.language.dates`).
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.families.primitives import AnyOf, Member
from csp_check.families.registry import register
from csp_check.nlsi.families.base import ProfileFamily
from csp_check.nlsi.models import ApiCall, CallViolation
from csp_check.nlsi.schema import LOCATION_SLOTS


@dataclass(frozen=True)
class Instance:
    call: int
    slot: str
    value: str


def grounded_alone(ctx, d: str, slot: str, value: str) -> bool:
    """Grounded without looking at other calls: stated, said (under any surface form), or
    given by an instruction of ``d`` for ``slot``."""
    g = ctx.grounding
    if ctx.same(d, slot, g.stated(d, slot), value) or g.said(value):
        return True
    if any(g.said(form) for form in ctx.schema.surface_forms(d, slot, value)):
        return True  # said under another surface form of the same value ("Philly", "NYC")
    for r in ctx.rules:
        if d not in r.domains:
            continue
        pairs = list(r.condition) + ([r.action] if r.action else [])
        if any(s == slot and ctx.same(d, s, v, value) for s, v in pairs):
            return True
    return False


def _shares(ctx, slot: str, other: str) -> bool:
    """May a value of ``other`` in another call ground ``slot``: both location-like, or (the
    release's carry-over, ``NlsiSchema.carry_same_names``) the same slot name."""
    return (slot in LOCATION_SLOTS and other in LOCATION_SLOTS) or (ctx.schema.carry_same_names and slot == other)


@register
class Grounded(ProfileFamily):
    """P2, grounded: the family this module's docstring states."""

    id, name = "P2", "grounded"
    description = "every argument value is said in the dialogue or given by an applicable instruction"

    def instances(self, ctx, calls: list[ApiCall]) -> list[Instance]:
        return [Instance(i, s, v) for i, c in enumerate(calls) if ctx.domain_of(c) for s, v in c.arguments
                if ctx.schema.slot(ctx.domain_of(c), s) is not None]

    def holds(self, ctx, inst: Instance, calls: list[ApiCall]) -> bool:
        call = calls[inst.call]
        d = ctx.domain_of(call)
        if grounded_alone(ctx, d, inst.slot, inst.value):
            return True
        if inst.slot in LOCATION_SLOTS or ctx.schema.carry_same_names:
            for j, other in enumerate(calls):
                if j != inst.call and any(_shares(ctx, inst.slot, s) and ctx.same(d, inst.slot, v, inst.value)
                                          for s, v in other.arguments):
                    return True
        return False

    def violation(self, ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
        return CallViolation(family=self.id, call=calls[inst.call].shown(), argument=inst.slot,
                             message=f"{inst.slot}={inst.value!r} is neither said in the dialogue nor given by an "
                                     "instruction (hallucinated)")

    def lower_calls(self, ctx, st) -> list:
        """(label, primitives) per instance over the structure ``st`` (module doc)."""
        ABSENT = st.absent

        out = []
        for cv in st.calls:
            d = cv.domain
            if d is None:
                continue
            for var, s in cv.all_vars():
                if ctx.schema.slot(d, s) is None:
                    continue
                ok = frozenset(u for u in st.domain[var] if u == ABSENT or grounded_alone(ctx, d, s, u))
                others = [(w, s2) for o in st.calls if o is not cv for w, s2 in o.all_vars() if _shares(ctx, s, s2)]
                if s not in LOCATION_SLOTS and not others:
                    out.append((f"{cv.method}: {s} grounded", [Member((var,), ok)]))
                    continue
                prims = [AnyOf((st.is_value(var, u, excluded=True),
                                *(Member((w,), frozenset(x for x in st.domain[w]
                                                         if x != ABSENT and ctx.same(d, s, x, u)))
                                  for w, _ in others)))
                         for u in sorted(st.domain[var] - ok)]
                out.append((f"{cv.method}: {s} grounded or shared", prims))
        return out
