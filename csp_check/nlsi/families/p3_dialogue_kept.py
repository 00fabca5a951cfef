"""P3 dialogue kept (spec §4): every value the user states for a slot of a requested domain is
in each call of that domain, and no profile value overrides it (Conflict: the dialogue wins).

Instances: one per requested domain (it is called) and one per (domain, slot, stated value).

Lowered (:mod:`csp_check.nlsi.lower`): "some candidate call of the domain is made"; per stated
value and candidate call of its domain, "the call is not made, or the slot has the value (or,
text grounding, another slot that can hold it has it)".

Reading rules

- Every value the user states for a slot of a requested domain is in each call of that domain;
  no profile value overrides it (Conflict: the dialogue wins).
- A requested domain must be called at all (on text grounding, a domain the same words name also
  answers it: "a movie" is Movies or Media, :data:`~csp_check.nlsi.cues.DOMAIN_ALTERNATIVES`).
- With text grounding (no annotation) a stated value found in the call under another slot that
  can hold it also counts as kept: which of two slots a bare value fills is a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from csp_check.families.primitives import AnyOf, Member
from csp_check.families.registry import register
from csp_check.nlsi.families.base import ProfileFamily
from csp_check.nlsi.models import ApiCall, CallViolation


@dataclass(frozen=True)
class Instance:
    domain: str
    slot: str | None = None
    value: str | None = None


def answering(ctx, domain: str) -> list[str]:
    """The domains whose call answers a request for ``domain``: itself and, on text grounding,
    the other domains its words name (``Grounding.alternatives``: "a movie" → Movies or Media)."""
    return [domain] + ctx.grounding.alternatives.get(domain, [])


def _calls(ctx, domain, calls):
    return [c for c in calls if ctx.domain_of(c) == domain]


def _elsewhere(ctx, inst: Instance, call: ApiCall) -> bool:
    """Text grounding only: the value is in the call under another slot that can hold it
    (``Music`` as ``category`` rather than ``event_type``); the slot choice was a guess."""
    if ctx.grounding.source != "text":
        return False
    for slot, value in call.arguments:
        info = ctx.schema.slot(inst.domain, slot)
        if slot != inst.slot and info is not None and ctx.same(inst.domain, slot, value, inst.value) \
                and ctx.schema.canonical(inst.domain, slot, value) in info.values:
            return True
    return False


@register
class DialogueKept(ProfileFamily):
    """P3, dialogue kept: the family this module's docstring states."""

    id, name = "P3", "dialogue kept"
    description = "what the user states for a requested domain is in each of its calls; no profile value overrides it"

    def instances(self, ctx, calls: list[ApiCall]) -> list[Instance]:
        g = ctx.grounding
        out = [Instance(d) for d in g.domains]
        for d in g.grounded_domains():
            out += [Instance(d, s, v) for s, v in sorted(g.values.get(d, {}).items())]
        return out

    def holds(self, ctx, inst: Instance, calls: list[ApiCall]) -> bool:
        if inst.slot is None:
            return any(ctx.domain_of(c) in answering(ctx, inst.domain) for c in calls)
        mine = _calls(ctx, inst.domain, calls)
        return all(ctx.same(inst.domain, inst.slot, c.args().get(inst.slot), inst.value) or _elsewhere(ctx, inst, c)
                   for c in mine)

    def violation(self, ctx, inst: Instance, calls: list[ApiCall]) -> CallViolation:
        if inst.slot is None:
            names = " or ".join(f"Get{d}" for d in answering(ctx, inst.domain))
            return CallViolation(family=self.id, message=f"the user asks for {inst.domain} but no {names} call is made")
        for c in _calls(ctx, inst.domain, calls):
            got = c.args().get(inst.slot)
            if not ctx.same(inst.domain, inst.slot, got, inst.value):
                over = next((r.instruction for r in ctx.rules
                             if r.action and r.action[0] == inst.slot and inst.domain in r.domains
                             and got is not None and ctx.same(inst.domain, inst.slot, r.action[1], got)), None)
                what = "missing" if got is None else f"{got!r}"
                msg = f"the user states {inst.slot}={inst.value!r}; the call has {what}"
                if over:
                    msg += " (a profile value overrides the dialogue)"
                return CallViolation(family=self.id, call=c.shown(), argument=inst.slot, instruction=over, message=msg)
        return CallViolation(family=self.id, argument=inst.slot, message=f"the user states {inst.slot}={inst.value!r}")

    def lower_calls(self, ctx, st) -> list:
        """(label, primitives) per instance over the structure ``st`` (module doc)."""
        ABSENT = st.absent

        out = []
        for inst in self.instances(ctx, []):
            mine = st.of_domain(inst.domain)
            if inst.slot is None:
                called = [cv for d in answering(ctx, inst.domain) for cv in st.of_domain(d)]
                out.append((f"{inst.domain} is called", [AnyOf(tuple(st.exists(cv) for cv in called))]))
                continue
            prims = []
            for cv in mine:
                lits = [st.missing(cv)]
                if inst.slot in cv.slots:
                    lits.append(st.same(cv.slots[inst.slot], inst.domain, inst.slot, inst.value))
                if ctx.grounding.source == "text":
                    for var, slot in cv.all_vars():
                        info = ctx.schema.slot(inst.domain, slot)
                        if slot == inst.slot or info is None:
                            continue
                        ok = frozenset(u for u in st.domain[var]
                                       if u != ABSENT and ctx.same(inst.domain, slot, u, inst.value)
                                       and ctx.schema.canonical(inst.domain, slot, u) in info.values)
                        lits.append(Member((var,), ok))
                prims.append(AnyOf(tuple(lits)))
            out.append((f"{inst.domain}.{inst.slot}={inst.value!r} kept", prims))
        return out
