"""Faults in a turn reporting a failed transaction (SGD ``NOTIFY_FAILURE``): a value the turn
informs of the entity swapped for one no entity has with the rest of the claim
(``failed_inform``: C5, certain); and the no-fault twin (:func:`proposed_alternative_twin`):
the alternative the turn proposes for a slot of the failed call ("How about 6 pm instead?")
becomes another value of its slot — a new try proposed, no claim of an entity, never certain
(:func:`csp_check.check.certainty.proposed_alternative`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from csp_check.build.builder import build_csp
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.families.kb_common import KbFilterInstance
from csp_check.faults.common import claims, misfit, other_values
from csp_check.faults.model import Choice
from csp_check.faults.rewrite import rewritten
from csp_check.faults.wording import render
from csp_check.models import CSP, ActRole, ConstraintId, Dialogue, KnowledgeBase, Variable


def failed_call_slots(dialogue: Dialogue, turn: int) -> set[str] | None:
    """The slots of the call that failed at ``turn`` (its own call, else the latest before);
    ``None`` when the turn reports no failed transaction."""
    t = dialogue.turns[turn]
    if not any(a.role is ActRole.FAILED for a in t.acts):
        return None
    calls = t.kb_results or next((u.kb_results for u in reversed(dialogue.turns[:turn]) if u.kb_results), [])
    return {p for r in calls for p in r.call.parameters}


def _failure_claims(csp: CSP, dialogue: Dialogue, proposed: bool) -> Iterator[tuple[Variable, KbFilterInstance, int]]:
    for var, constraint, i in claims(csp):
        slots = failed_call_slots(dialogue, var.turn)
        if slots is not None and (var.role is ActRole.OFFER and var.slot in slots) == proposed:
            yield var, constraint, i


def failed_inform_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """In a turn reporting a failed transaction, a value it informs of the entity ("Their
    address is …", "they serve alcohol") becomes one no entity has with the rest of the claim."""
    out = []
    for var, constraint, i in _failure_claims(csp, dialogue, proposed=False):
        found = misfit(csp, constraint, i, other_values(csp, var), lambda value, var=var: render(dialogue, var, value))
        if found is not None:
            out.append((var, *found))
    return out


def proposed_alternative_twin(
    dialogue: Dialogue, raw: dict[str, Any] | None = None, kb: KnowledgeBase | None = None
) -> Dialogue | None:
    """No fault: the first alternative a failure turn proposes for a slot of the failed call
    ("How about today at 6 pm …?") said as another value of its slot that no entity of the KB
    has with the rest of the claim (text only), where no later mention refers to it (no C2)
    and the failed call returned no entity (else the proposal states the call's alternative);
    ``None`` when the dialogue has none."""
    csp = build_csp(dialogue, delexicalize(dialogue), kb)
    referred = {n for c in csp.constraints if c.id is ConstraintId.C2 for n in c.variables}
    for var, constraint, i in _failure_claims(csp, dialogue, proposed=True):
        if any(r.call is not None and r.entities for r in dialogue.turns[var.turn].kb_results):
            continue  # the failed call returned the alternative (SGD): changing the proposal is a fault
        if var.name in referred:
            continue  # a proposal taken up later ("Yes, 6 pm works"): changing it alone is a fault
        found = misfit(csp, constraint, i, other_values(csp, var), lambda value, var=var: render(dialogue, var, value))
        if found is not None:
            return rewritten(dialogue, var, found[0], found[0], None, raw)
    return None
