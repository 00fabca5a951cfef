"""Faults between mentions of one utterance or dialogue: one mention of a value mentioned several
times becomes another value (``coreference``: C2); a value becomes that of another same-slot
variable of its utterance, "A, B or C" → "A, A or C" (``duplicate``: C3)."""

from __future__ import annotations

from csp_check.families.c2_coreference import CoreferenceInstance
from csp_check.faults.common import other_values
from csp_check.faults.model import Choice
from csp_check.faults.wording import render
from csp_check.models import CSP, ConstraintId, Dialogue


def coreference_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A spanned mention of a C2 (one referent said several times) becomes the first other value
    of its slot that can be written there (in annotated mode: a mention in ``allowed`` only)."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C2 or not isinstance(c, CoreferenceInstance):
            continue
        for name in c.variables:
            var = by_name[name]
            if var.span is None or (allowed is not None and name not in allowed) or name in c.alternatives:
                continue  # a user's "10:15 or 9:15": another value there is one more alternative, no fault
            for value in other_values(csp, var):
                rendered = render(dialogue, var, value)
                if rendered:
                    out.append((var, *rendered))
                    break
    return out


def duplicate_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """The last value of a C3 (values of one slot an utterance lists) becomes its first."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is ConstraintId.C3:
            first, second = by_name[c.variables[0]], by_name[c.variables[-1]]
            out.append((second, first.text or "", str(first.value)))
    return out
