"""The paper's two baseline relexicalizers (paper §4.6): Random and Most Frequent."""

from __future__ import annotations

import random

from csp_check.models import CSP, DelexicalizedDialogue, Value

from .base import is_amount, is_fillable, kb_entities, kb_values, most_frequent, own_value, slot_candidates


class RandomRelexicalizer:
    """Each written variable gets a value drawn uniformly at random.

    - slot variable: among the distinct values the dialogue's KB gives its slot; for a slot the
      KB has no column for (date, time, party size), among V(type) (``csp.domains``);
    - amount variable: an integer uniform in ``0..csp.max_amount``;
    - implicit variable, or a slot with no candidate at all: the dialogue's own value.
    """

    name = "random"

    def relexicalize(self, csp: CSP, delex: DelexicalizedDialogue, rng: random.Random) -> dict[str, Value]:
        out: dict[str, Value] = {}
        for var in csp.variables:
            if not is_fillable(var):
                out[var.name] = own_value(csp, var)
            elif is_amount(var):
                out[var.name] = rng.randint(0, csp.max_amount)
            else:
                candidates = slot_candidates(csp, var)
                out[var.name] = rng.choice(candidates) if candidates else own_value(csp, var)
        return out


class MostFrequentRelexicalizer:
    """Each written variable gets the KB's most frequent value for its slot (ties: first seen).

    - slot the KB has no column for: the first value of V(type) in sorted order (there is no
      frequency to use);
    - amount variable: the number of KB entities (what a search with no filter would find);
    - implicit variable, or a slot with no candidate: the dialogue's own value.
    Deterministic: ``rng`` is not used.
    """

    name = "most-frequent"

    def relexicalize(self, csp: CSP, delex: DelexicalizedDialogue, rng: random.Random) -> dict[str, Value]:
        entities = kb_entities(csp)
        out: dict[str, Value] = {}
        for var in csp.variables:
            if not is_fillable(var):
                out[var.name] = own_value(csp, var)
            elif is_amount(var):
                out[var.name] = len(entities)
            else:
                best = most_frequent(kb_values(csp, var, entities))
                if best is None:
                    candidates = slot_candidates(csp, var)
                    best = candidates[0] if candidates else None
                out[var.name] = best if best is not None else own_value(csp, var)
        return out
