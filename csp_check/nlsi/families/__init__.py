"""Constraint families P1–P6 over API calls (spec §4), one module per family.

=====  ==================================  =========================================
id     module                              checks
=====  ==================================  =========================================
P1     :mod:`.p1_schema`                   the method and arguments exist in the schema
P2     :mod:`.p2_grounded`                 every argument value is said or instructed
P3     :mod:`.p3_dialogue_kept`            what the user states is in the calls
P4     :mod:`.p4_instruction_honoured`     an applicable instruction's value is in the call
P5     :mod:`.p5_one_call_per_preference`  several preferences give one call each
P6     :mod:`.p6_domain_chain`             "if D1 then also D2": a D2 call exists
=====  ==================================  =========================================

Each module declares its family, a :class:`~csp_check.nlsi.families.base.ProfileFamily`
registered with :func:`~csp_check.families.registry.register` (group ``profile``) as C1–C6 are:
how its instances are built from an example and a call set (``instances``), the executable
definition of satisfying one (``holds``), the violation naming the instruction, the call and the
argument (``violation``) and its lowering over a call structure (``lower_calls``). Importing this
package registers them, in the order below (the listing order); the registry imports it on first
need of the ``profile`` group (:data:`csp_check.families.registry.HOMES`). :func:`violations`
runs them all.
"""

from __future__ import annotations

from csp_check.families.registry import families as registered
from csp_check.nlsi.families import (  # noqa: F401  (registration order is the listing order)
    p1_schema,
    p2_grounded,
    p3_dialogue_kept,
    p4_instruction_honoured,
    p5_one_call_per_preference,
    p6_domain_chain,
)
from csp_check.nlsi.families.base import Context, ProfileFamily
from csp_check.nlsi.models import ApiCall, CallViolation

__all__ = ["Context", "ProfileFamily", "violations"]


def violations(ctx: Context, calls: list[ApiCall], families: tuple[str, ...] | None = None) -> list[CallViolation]:
    """Every violated instance of the selected families (every registered family of the
    ``profile`` group by default), family by family."""
    out: list[CallViolation] = []
    for fam in registered(("profile",)):
        if families and fam.id not in families:
            continue
        for inst in fam.instances(ctx, calls):
            if not fam.holds(ctx, inst, calls):
                out.append(fam.violation(ctx, inst, calls))
    return out
