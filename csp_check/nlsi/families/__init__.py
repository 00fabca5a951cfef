"""Constraint families P1–P6 over API calls (spec §4), one module per family.

Each module exposes ``ID``, ``TITLE``, ``instances(ctx, calls)`` (how its instances are built
from an example and a call set), ``holds(ctx, instance, calls)`` (the executable definition of
satisfying one instance) and ``explain(ctx, instance, calls)`` (a violation naming the
instruction, the call and the argument). :func:`violations` runs them all. They are the
``profile`` group of the constraint registry (:mod:`csp_check.families.profile`), which
:func:`module` maps to their modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

from csp_check.nlsi.ground import Grounding
from csp_check.nlsi.instructions import Rule, Unparsed
from csp_check.nlsi.models import ApiCall, CallViolation, Example
from csp_check.nlsi.schema import LOCATION_SLOTS, NlsiSchema, normalize  # noqa: F401  (LOCATION_SLOTS re-exported)


@dataclass
class Context:
    """What the families see of one example: schema, parsed rules, grounding."""

    example: Example
    schema: NlsiSchema
    rules: list[Rule]
    unparsed: list[Unparsed] = field(default_factory=list)
    grounding: Grounding = field(default_factory=Grounding)

    def domain_of(self, call: ApiCall) -> str | None:
        """The schema domain of a call's method, or None if the method is unknown."""
        return self.schema.method_domain(call.method)

    def same(self, domain: str, slot: str, a: str | None, b: str | None) -> bool:
        """Equal after canonicalisation and the released normalisation."""
        if a is None or b is None:
            return False
        return normalize(self.schema.canonical(domain, slot, a)) == normalize(self.schema.canonical(domain, slot, b))

    def requested(self) -> list[str]:
        """The domains to call for the request (derive): each requested domain, or, when its
        words also name other domains (``Grounding.alternatives``), the one of them the
        profile has instructions for if exactly one has; otherwise the named one."""
        out = []
        for d in self.grounding.domains:
            options = [d] + self.grounding.alternatives.get(d, [])
            ruled = [x for x in options if any(x in r.domains for r in self.rules)]
            out.append(ruled[0] if len(options) > 1 and len(ruled) == 1 else d)
        return list(dict.fromkeys(out))

    def condition_holds(self, rule: Rule, call: ApiCall) -> bool:
        """A value rule's condition in one call: its domain and every condition pair."""
        domain = self.domain_of(call)
        if domain not in rule.domains:
            return False
        args = call.args()
        return all(self.same(domain, s, args.get(s), v) for s, v in rule.condition)


def module(family_id: str) -> ModuleType:
    """The module of the ``profile`` family ``family_id`` (its ``ID``): ``instances``, ``holds``,
    ``explain``. Raises :class:`~csp_check.families.UnknownFamily` when no module here has it."""
    from csp_check.families import UnknownFamily
    from csp_check.nlsi.families import (
        p1_schema, p2_grounded, p3_dialogue_kept, p4_instruction_honoured, p5_one_call_per_preference, p6_domain_chain,
    )

    for m in (p1_schema, p2_grounded, p3_dialogue_kept, p4_instruction_honoured, p5_one_call_per_preference,
              p6_domain_chain):
        if m.ID == family_id:
            return m
    raise UnknownFamily(f"profile family {family_id!r} has no module in csp_check.nlsi.families")


def all_families() -> list[ModuleType]:
    """The family modules P1–P6, in registry order (:mod:`csp_check.families.profile`)."""
    from csp_check.families import families

    return [module(f.id) for f in families(("profile",))]


def violations(ctx: Context, calls: list[ApiCall], families: tuple[str, ...] | None = None) -> list[CallViolation]:
    """Every violated instance of the selected families (every registered family of the
    ``profile`` group by default: :mod:`csp_check.families.profile`), family by family."""
    out: list[CallViolation] = []
    for fam in all_families():
        if families and fam.ID not in families:
            continue
        for inst in fam.instances(ctx, calls):
            if not fam.holds(ctx, inst, calls):
                out.append(fam.explain(ctx, inst, calls))
    return out
