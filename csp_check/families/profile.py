"""P1–P6 in the registry (group ``profile``): API calls against a user profile's standing
instructions (spec §4), checked per example by :mod:`csp_check.nlsi.check`, not per dialogue.

Each family is one module of :mod:`csp_check.nlsi.families` (instances from an example and a
call set, the executable definition ``holds``, the explanation); it is imported when first used,
so checking dialogues does not load the NLSI models. This module declares them (id, name, one
line) so that ``csp-check constraints`` lists them and the NLSI checker iterates the registry.
They are not lowered to the encoding primitives (their variables are call arguments, not
dialogue spans): no solver backend reads them yet.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import ClassVar

from csp_check.families.registry import Family, register


class ProfileFamily(Family):
    """A family over API calls whose meaning is the module ``csp_check.nlsi.families.<module_name>``."""

    group = "profile"
    module_name: ClassVar[str]

    @property
    def module(self) -> ModuleType:
        """The family's module (``ID``, ``TITLE``, ``instances``, ``holds``, ``explain``)."""
        return importlib.import_module(f"csp_check.nlsi.families.{self.module_name}")

    def instances(self, ctx, calls: list) -> list:
        """The instances for one example (``ctx``: :class:`csp_check.nlsi.families.Context`) and call set."""
        return self.module.instances(ctx, calls)

    def holds(self, ctx, instance, calls: list) -> bool:
        """Whether the call set satisfies ``instance``."""
        return self.module.holds(ctx, instance, calls)

    def explain_call(self, ctx, instance, calls: list):
        """The :class:`~csp_check.nlsi.models.CallViolation` of a broken instance."""
        return self.module.explain(ctx, instance, calls)


@register
class Schema(ProfileFamily):
    id, name, module_name = "P1", "schema", "p1_schema"
    description = "a call's method exists and its arguments are slots and values of its domain"


@register
class Grounded(ProfileFamily):
    id, name, module_name = "P2", "grounded", "p2_grounded"
    description = "every argument value is said in the dialogue or given by an applicable instruction"


@register
class DialogueKept(ProfileFamily):
    id, name, module_name = "P3", "dialogue kept", "p3_dialogue_kept"
    description = "what the user states for a requested domain is in each of its calls; no profile value overrides it"


@register
class InstructionHonoured(ProfileFamily):
    id, name, module_name = "P4", "instruction honoured", "p4_instruction_honoured"
    description = "an instruction whose condition holds in a call puts its value in the call"


@register
class OneCallPerPreference(ProfileFamily):
    id, name, module_name = "P5", "one call per preference", "p5_one_call_per_preference"
    description = "several applicable values for one slot give one call with each value"


@register
class DomainChain(ProfileFamily):
    id, name, module_name = "P6", "domain chain", "p6_domain_chain"
    description = "'if D1 then also D2' with D1 called: a D2 call exists"
