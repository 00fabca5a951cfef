"""What a profile family is: :class:`ProfileFamily`, the base class of P1–P6, and :class:`Context`,
what the families see of one example.

P1–P6 are the registry's ``profile`` group (:mod:`csp_check.families.registry`): API calls
against a user profile's standing instructions (spec §4), checked per example by
:mod:`csp_check.nlsi.check`, not per dialogue. Each is a :class:`ProfileFamily` in a module of
:mod:`csp_check.nlsi.families`, registered there with
:func:`~csp_check.families.registry.register` as C1–C6 are; it states how its instances are built
from an example and a call set (:meth:`ProfileFamily.instances`), the executable definition of
satisfying one (:meth:`ProfileFamily.holds`), the violation it reports
(:meth:`ProfileFamily.violation`) and its lowering (:meth:`ProfileFamily.lower_calls`). The
registry imports :mod:`csp_check.nlsi.families` on first need of the ``profile`` group, so
checking dialogues does not load the NLSI models.

For an example and a *call structure* (candidate calls with their domains;
:class:`csp_check.nlsi.lower.Structure`) each family's ``lower_calls`` turns its instances into
the primitives of :mod:`csp_check.families.primitives` over variables ``c<i>.<slot>`` (a
normalised value or absent) and ``c<i>.<method>`` (the method, or the call not made), with
finite domains from the schema, the dialogue and the profile: ``Member`` (and its complement)
and ``AnyOf`` clauses of member / equal literals. An instance is a
:class:`LoweredConstraint` carrying them; :meth:`ProfileFamily.lower`
returns them, so :func:`csp_check.solvers.encoding.encode`, CP-SAT and ``csp_check/solvers/consistency.mzn``
solve P1–P6 as they solve C1–C6. The solutions are the consistent call sets: the checker's
verdict on a call set equals "its assignment is a solution" (tests/test_nlsi_lower.py), and
``calls --derive --solver cp-sat|minizinc`` derives the preferred solution and counts the
solutions of its shape (several = the profile leaves choices). P1 (schema) types the
variables, so the solvers search each over its own candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from csp_check.families.primitives import Primitive
from csp_check.families.registry import Family
from csp_check.models import CSP, Constraint
from csp_check.nlsi.ground import Grounding
from csp_check.nlsi.instructions import Rule, Unparsed
from csp_check.nlsi.models import ApiCall, CallViolation, Example
from csp_check.nlsi.schema import NlsiSchema, normalize


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
        words also name other domains (``Grounding.alternatives``), the one of them for which
        the user states the most values if one does ("a movie directed by Dean DeBlois" is
        Media: only its slots hold a director), else the one the profile has instructions for
        if exactly one has; otherwise the named one."""
        out = []
        for d in self.grounding.domains:
            options = [d] + self.grounding.alternatives.get(d, [])
            said = {x: len(self.grounding.values.get(x, {})) for x in options}
            most = [x for x in options if said[x] == max(said.values())]
            ruled = [x for x in options if any(x in r.domains for r in self.rules)]
            if len(options) > 1 and len(most) == 1 and said[most[0]] > 0:
                out.append(most[0])  # "a movie directed by X": the domain whose slots hold what the user says
            else:
                out.append(ruled[0] if len(options) > 1 and len(ruled) == 1 else d)
        return list(dict.fromkeys(out))

    def instructs(self, domain: str, slot: str, unconditioned: bool = True) -> bool:
        """Whether an instruction of the profile fills ``slot`` in ``domain`` (with
        ``unconditioned``: an instruction without a condition, which holds in every call)."""
        return any(r.action and r.action[0] == slot and domain in r.domains and not (unconditioned and r.condition)
                   for r in self.rules)

    def condition_holds(self, rule: Rule, call: ApiCall) -> bool:
        """A value rule's condition in one call: its domain and every condition pair."""
        domain = self.domain_of(call)
        if domain not in rule.domains:
            return False
        args = call.args()
        return all(self.same(domain, s, args.get(s), v) for s, v in rule.condition)


class LoweredConstraint(Constraint):
    """A profile-family instance carrying its primitives (the family's lowering, built by
    :func:`csp_check.nlsi.lower.lowered` from :meth:`ProfileFamily.lower_calls`) and a label."""

    primitives: tuple[Primitive, ...] = ()
    label: str = ""


class ProfileFamily(Family[LoweredConstraint]):
    """A family over API calls (group ``profile``). Subclass it in a module of
    :mod:`csp_check.nlsi.families`, set ``id``, ``name`` and ``description``, implement the four
    methods below and :func:`~csp_check.families.registry.register` it.

    A registry instance of the family is a :class:`LoweredConstraint`: it carries the
    primitives :meth:`lower_calls` built over a call structure (:meth:`lower`)."""

    group = "profile"
    instance_type = LoweredConstraint

    def instances(self, ctx: Context, calls: list[ApiCall]) -> list:
        """The family's instances for one example (``ctx``) and call set."""
        raise NotImplementedError(f"{type(self).__name__} has no instances")

    def holds(self, ctx: Context, instance: object, calls: list[ApiCall]) -> bool:
        """Whether the call set satisfies ``instance`` (the executable definition)."""
        raise NotImplementedError(f"{type(self).__name__} does not define holds")

    def violation(self, ctx: Context, instance: object, calls: list[ApiCall]) -> CallViolation:
        """The violation of a broken ``instance``, naming the instruction, the call and the
        argument it concerns."""
        raise NotImplementedError(f"{type(self).__name__} does not explain a violation")

    def lower_calls(self, ctx: Context, st) -> list[tuple[str, list[Primitive]]]:  # type: ignore[no-untyped-def]
        """(label, primitives) per instance over the call structure ``st``
        (:class:`csp_check.nlsi.lower.Structure`, which this package does not import)."""
        raise NotImplementedError(f"{type(self).__name__} does not lower over a call structure")

    def lower(self, constraint: LoweredConstraint, csp: CSP) -> list[Primitive]:
        """The primitives the instance carries (built by :meth:`lower_calls`)."""
        return list(constraint.primitives)
