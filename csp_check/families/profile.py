"""P1–P6 in the registry (group ``profile``): API calls against a user profile's standing
instructions (spec §4), checked per example by :mod:`csp_check.nlsi.check`, not per dialogue.

Each family's meaning is one module of :mod:`csp_check.nlsi.families` (instances from an example
and a call set, the executable definition ``holds``, the explanation, and ``lower``), which sits
above the registry: the NLSI checker iterates the registry's ``profile`` group and runs each
family's module (:func:`csp_check.nlsi.families.module`), so checking dialogues does not load the
NLSI models. This module declares them (id, name, one line) so that ``csp-check constraints``
lists them, and gives them to the solver backends like C1–C6:

For an example and a *call structure* (candidate calls with their domains;
:class:`csp_check.nlsi.lower.Structure`) each family module's ``lower`` turns its instances into
the primitives of :mod:`csp_check.families.primitives` over variables ``c<i>.<slot>`` (a
normalised value or absent) and ``c<i>.<method>`` (the method, or the call not made), with
finite domains from the schema, the dialogue and the profile: ``Member`` (and its complement)
and ``AnyOf`` clauses of member / equal literals. An instance is a
:class:`csp_check.nlsi.lower.LoweredConstraint` carrying them; :meth:`ProfileFamily.lower`
returns them, so :func:`csp_check.solvers.encoding.encode`, CP-SAT and ``csp_check/solvers/consistency.mzn``
solve P1–P6 as they solve C1–C6. The solutions are the consistent call sets: the checker's
verdict on a call set equals "its assignment is a solution" (tests/test_nlsi_lower.py), and
``calls --derive --solver cp-sat|minizinc`` derives the preferred solution and counts the
solutions of its shape (several = the profile leaves choices). :class:`Schema` (P1) types the
variables, so the solvers search each over its own candidates.
"""

from __future__ import annotations

from csp_check.families.registry import Family, register


class ProfileFamily(Family):
    """A family over API calls; its meaning is the module of :mod:`csp_check.nlsi.families` with
    the family's ``ID``. An instance is a :class:`csp_check.nlsi.lower.LoweredConstraint`: it
    carries the primitives its family module's ``lower`` built over a call structure."""

    group = "profile"

    def lower(self, constraint, csp) -> list:
        """The primitives the instance carries (built by the family module's ``lower``)."""
        prims = getattr(constraint, "primitives", None)
        if prims is None:
            raise ValueError(f"{self.id} instance without primitives: build it with csp_check.nlsi.lower.lowered")
        return list(prims)


@register
class Schema(ProfileFamily):
    id, name = "P1", "schema"
    types_domains = True  # its instances type every (call, slot) variable: search over its candidates
    description = "a call's method exists and its arguments are slots and values of its domain"


@register
class Grounded(ProfileFamily):
    id, name = "P2", "grounded"
    description = "every argument value is said in the dialogue or given by an applicable instruction"


@register
class DialogueKept(ProfileFamily):
    id, name = "P3", "dialogue kept"
    description = "what the user states for a requested domain is in each of its calls; no profile value overrides it"


@register
class InstructionHonoured(ProfileFamily):
    id, name = "P4", "instruction honoured"
    description = "an instruction whose condition holds in a call puts its value in the call"


@register
class OneCallPerPreference(ProfileFamily):
    id, name = "P5", "one call per preference"
    description = "several applicable values for one slot give one call with each value"


@register
class DomainChain(ProfileFamily):
    id, name = "P6", "domain chain"
    description = "'if D1 then also D2' with D1 called: a D2 call exists"
