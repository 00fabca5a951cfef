"""Fault injection: break a consistent dialogue in one known way, to measure detection (spec §8, §9).

:func:`inject` puts one fault of a kind of :mod:`csp_check.faults.registry` into a dialogue;
:func:`trial` checks the faulty dialogue and records which constraints flagged it.

Two modes: ``text`` changes the utterance alone (spans re-aligned; acts' values and the state
untouched: an act value without a span stays without one), ``annotated`` changes the act's
value and canonical value with the text. In ``annotated`` mode a coreference or categorical
fault caught by C2 is put on a mention whose referent other annotations also record (a user
inform: the belief state; a system confirm: the state in force), since a mention whose every
annotation changes with it is a different dialogue.

No fault is put on a closed value whose utterance has an act of another slot with the same
value set (``account_type`` / ``recipient_account_type``): telling them apart is a matter of
roles ("from … to …"), not of reading values.

Given the dialogue's source JSON (``raw``, SGD), the edit is made there (the utterance, the
frames' ``slots`` offsets and, annotated, the ``actions`` values) and the dialogue is read again
by the reader, so the reader's own alignment of acts with spans is under test too.
"""

from __future__ import annotations

import random
from typing import Any

from csp_check.build.builder import build_csp, referents
from csp_check.delexicalize.assignment import Lexicon
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.faults.model import Fault, FaultKind, Mode, Trial
from csp_check.faults.registry import REGISTRY
from csp_check.faults.rewrite import rewritten
from csp_check.models import Dialogue, KnowledgeBase, Variable, VariableKind
from csp_check.pipeline import check_dialogue


def inject(
    dialogue: Dialogue, kind: FaultKind, mode: Mode, rng: random.Random, kb: KnowledgeBase | None = None,
    raw: dict[str, Any] | None = None,
) -> tuple[Dialogue, Fault] | None:
    """A copy of ``dialogue`` with one fault of ``kind``, or ``None`` when it has no place for one.

    The target is drawn with ``rng`` among the variables where the fault is possible; ``kb`` is
    the KB the dialogue is checked against when it carries no KB results of its own (MultiWOZ).
    ``raw``: the dialogue's SGD JSON; the edit is then made there and the result read again
    with :func:`csp_check.readers.sgd.from_raw`.
    """
    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    allowed = None  # variables whose C2 survives an annotated change; None: any explicit one
    if mode == "annotated":
        keys = referents(dialogue, delex.variables, Lexicon.of(dialogue))
        allowed = {name for name, (_, by_state) in keys.items() if by_state}
    choices = [c for c in REGISTRY[kind].choose(csp, allowed, dialogue) if not role_ambiguous(dialogue, c[0])]
    if not choices:
        return None
    var, new_text, new_canonical = rng.choice(choices)
    canonical = new_canonical if mode == "annotated" else None
    # an annotation writes a closed slot's value or an amount as its canonical form, not as the words
    surface = new_text if var.kind is VariableKind.SLOT and var.slot_type not in dialogue.ontology else new_canonical
    faulty = rewritten(dialogue, var, new_text, surface, canonical, raw)
    fault = Fault(
        kind=kind, mode=mode, dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
        old_text=var.text or "", new_text=new_text, expected=REGISTRY[kind].expected,
    )
    return faulty, fault


def trial(
    dialogue: Dialogue, kind: FaultKind, mode: Mode, rng: random.Random, kb: KnowledgeBase | None = None,
    raw: dict[str, Any] | None = None,
) -> Trial | None:
    """:func:`inject` a fault, then check the faulty dialogue; ``None`` when there is no place for it."""
    injected = inject(dialogue, kind, mode, rng, kb, raw)
    if injected is None:
        return None
    faulty, fault = injected
    found = check_dialogue(faulty, kb).violations
    return Trial(fault=fault, found=frozenset(v.constraint for v in found),
                 certain=frozenset(v.constraint for v in found if v.certain))


def role_ambiguous(dialogue: Dialogue, var: Variable) -> bool:
    """Whether ``var`` is a closed value without a span whose utterance also has an act of
    another slot with the same value set ("from your checking account to their savings
    account"): which words are whose is a matter of roles (from / to), not of this checker's
    value reading, so no fault is put there."""
    closed = dialogue.ontology.get(var.slot_type)
    if not closed or any(a.span is not None for a in dialogue.turns[var.turn].acts if a.slot == var.slot):
        return False
    return any(
        a.domain == var.domain and a.slot != var.slot and dialogue.ontology.get(f"{a.domain}.{a.slot}") == closed
        for a in dialogue.turns[var.turn].acts
    )
