"""P1–P6 in the registry (group ``profile``): API calls against a user profile's standing
instructions (spec §4), checked per example by :mod:`csp_check.nlsi.check`, not per dialogue.

Each family's meaning is one module of :mod:`csp_check.nlsi.families` (instances from an example
and a call set, the executable definition ``holds``, the explanation), which sits above the
registry: the NLSI checker iterates the registry's ``profile`` group and runs each family's module
(:func:`csp_check.nlsi.families.module`), so checking dialogues does not load the NLSI models.
This module declares them (id, name, one line) so that ``csp-check constraints`` lists them.
They are not lowered to the encoding primitives (their variables are call arguments, not
dialogue spans): no solver backend reads them yet.
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
