"""Faults in what the system claims of KB entities: a claimed value swapped for one no entity has
with the rest of the claim (``kb_swap``: C5), one of several listed entities renamed to a name
nobody knows (``listed_unknown``: C1) or to another entity that does not fit the request
(``listed_misfit``: C5)."""

from __future__ import annotations

from csp_check.delexicalize.assignment import Lexicon
from csp_check.faults.common import claims, listed, misfit, other_values
from csp_check.faults.model import Choice
from csp_check.faults.wording import render
from csp_check.language.normalize import normalize
from csp_check.models import CSP, Dialogue


def kb_swap_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A value the system offers / informs becomes another value of its slot such that no KB
    entity has the utterance's values (the claim's C5 fails)."""
    out = []
    for var, constraint, i in claims(csp):
        found = misfit(csp, constraint, i, other_values(csp, var), lambda value, var=var: render(dialogue, var, value))
        if found is not None:
            out.append((var, *found))
    return out


def listed_unknown_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """One of several listed values becomes a name no KB entity and no annotation has: the
    first word of one known value with the last word of another ("Dogman" + "High Life" →
    "Dogman Life")."""
    known = Lexicon.of(dialogue)
    out = []
    for var in listed(csp):
        values = csp.domains.get(var.slot_type, [])
        own = (var.text or "").split()
        for other in values:
            words = other.split()
            if not own or not words:
                continue
            name = f"{own[0]} {words[-1].title()}"
            if normalize(name) not in values and not known.lookup(var.slot_type, name):
                out.append((var, name, name))
                break
    return out


def listed_misfit_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """One of several listed values becomes another KB entity's value that no entity has
    together with what the user asked for (the C5 of that listed value fails)."""
    names = {v.name for v in listed(csp)}
    out = []
    for var, constraint, i in claims(csp):
        if var.name not in names or len(constraint.variables) < 2:
            continue  # a listed value checked without the user's request cannot misfit it
        entities = csp.kbs[constraint.kb]
        column = constraint.columns[i]
        in_kb = sorted({e[column] for e in entities if column in e})
        same_turn = {csp.assignment[v.name] for v in csp.variables if v.turn == var.turn and v.slot_type == var.slot_type}
        candidates = [value for value in in_kb if value not in same_turn]
        found = misfit(csp, constraint, i, candidates, lambda value, var=var: render(dialogue, var, value))
        if found is not None:
            out.append((var, *found))
    return out
