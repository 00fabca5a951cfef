"""The relexicalizer interface and the KB look-ups every relexicalizer shares (paper §4.6, spec §4).

A relexicalizer fills a delexicalized dialogue's variables with values: it returns an
*assignment* ``{variable name: value}`` for **every** variable of the CSP. Implicit variables
(``span is None``: annotated but not written in the text) are not re-lexicalized; they keep the
dialogue's own value, since nothing in the text could change them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from csp_check.models import CSP, DelexicalizedDialogue, Value, Variable, VariableKind

#: The value of a variable whose filler could not be recovered (LLM answer not aligned). It
#: lies outside every domain (not an int, not a normalised slot value), so it breaks C1 and
#: never agrees with a solution: an unaligned variable counts as wrong (spec §4).
UNALIGNED = "<unaligned>"


@runtime_checkable
class Relexicalizer(Protocol):
    """Anything with a ``name`` and ``relexicalize(csp, delex, rng) -> assignment``.

    ``csp`` is the dialogue's CSP (its variables, V(type) domains and KB tables); ``delex`` the
    delexicalized dialogue (turn texts with ``[xN]`` placeholders); ``rng`` the only source of
    randomness, so a seeded run is reproducible. The result maps every variable name of
    ``csp.variables`` to a value (``str`` slot value, normalised like ``csp.domains``; ``int``
    amount; or :data:`UNALIGNED`).
    """

    name: str

    def relexicalize(self, csp: CSP, delex: DelexicalizedDialogue, rng: random.Random) -> dict[str, Value]: ...


def relexicalize_many(
    relexicalizer: Relexicalizer, items: Sequence[tuple[CSP, DelexicalizedDialogue]], rng: random.Random
) -> list[dict[str, Value]]:
    """Assignments for many dialogues, in order. Uses the relexicalizer's own batch method
    (``relexicalize_many``, e.g. the LLM's concurrent requests) when it has one."""
    batch = getattr(relexicalizer, "relexicalize_many", None)
    if batch is not None:
        return batch(items, rng)
    return [relexicalizer.relexicalize(csp, delex, rng) for csp, delex in items]


def own_value(csp: CSP, var: Variable) -> Value:
    """What the dialogue itself says for ``var`` (its assignment, else its annotated value)."""
    return csp.assignment.get(var.name, var.value)


def kb_entities(csp: CSP) -> list[dict[str, str]]:
    """The distinct entities of all the CSP's KB tables (a dialogue KB is usually one table,
    repeated per turn in SGD's per-turn results: duplicates would skew frequencies)."""
    seen: set[tuple[tuple[str, str], ...]] = set()
    out = []
    for entities in csp.kbs.values():
        for entity in entities:
            key = tuple(sorted(entity.items()))
            if key not in seen:
                seen.add(key)
                out.append(entity)
    return out


def kb_values(csp: CSP, var: Variable, entities: Iterable[dict[str, str]] | None = None) -> list[str]:
    """The values the KB gives ``var``'s slot, one per entity that has it (with repeats)."""
    entities = kb_entities(csp) if entities is None else entities
    return [e[var.slot] for e in entities if e.get(var.slot) not in (None, "")]


def slot_candidates(csp: CSP, var: Variable) -> list[str]:
    """Distinct candidate values of a slot variable: the KB's values for its slot, else
    V(type) (``csp.domains``) for slots the KB has no column for (date, time, …)."""
    values = sorted(set(kb_values(csp, var)))
    return values or list(csp.domains.get(var.slot_type, []))


def is_fillable(var: Variable) -> bool:
    """Whether a relexicalizer chooses this variable's value (it is written in the text)."""
    return var.span is not None


def is_amount(var: Variable) -> bool:
    return var.kind is VariableKind.AMOUNT


def most_frequent(values: Iterable[str]) -> str | None:
    """The most frequent value; ties go to the value seen first (deterministic)."""
    counts = Counter(values)
    if not counts:
        return None
    best = max(counts.values())
    return next(v for v in counts if counts[v] == best)
