"""Faults in raw text (no acts, no spans): what the pytest plugin sees for generated data.

The places come from annotating the text against the KB (:func:`csp_check.annotate.annotate`,
what the checker itself sees); the faulty copy is raw text again, so the checker must find the
fault by reading the text. Four kinds, each with the constraints that must flag it
(:data:`RAW_EXPECTED`): ``amount`` (C6), ``attribute`` (C5 / C2), ``name_swap`` (C5 / C2),
``duplicate`` (C3); see :func:`inject_raw_text`.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel

from csp_check.annotate import annotate
from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.lexicon import ENTITY_COLUMNS, FLAG_VALUES, FLAG_WORDS
from csp_check.build.builder import SYSTEM_CLAIMS, build_csp
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.families.kb_common import KbFilterInstance
from csp_check.faults.common import misfit, spanned_counts
from csp_check.faults.wording import amount_text
from csp_check.faults.words import CONTACT_COLUMNS
from csp_check.language.normalize import normalize
from csp_check.models import CSP, ConstraintId, Dialogue, KnowledgeBase, Variable

RawKind = Literal["amount", "attribute", "name_swap", "duplicate"]
RAW_KINDS: tuple[RawKind, ...] = ("amount", "attribute", "name_swap", "duplicate")
RAW_EXPECTED: dict[str, frozenset[ConstraintId]] = {
    "amount": frozenset({ConstraintId.C6}),
    "attribute": frozenset({ConstraintId.C2, ConstraintId.C5}),
    "name_swap": frozenset({ConstraintId.C2, ConstraintId.C5}),
    "duplicate": frozenset({ConstraintId.C3}),
}


class RawFault(BaseModel):
    """What :func:`inject_raw_text` changed in a raw-text dialogue, and what must flag it."""

    kind: RawKind
    dialogue_id: str
    turn: int
    old_text: str
    new_text: str
    expected: frozenset[ConstraintId]


def inject_raw_text(
    dialogue: Dialogue, kind: RawKind, rng: random.Random, kb: KnowledgeBase
) -> tuple[Dialogue, RawFault] | None:
    """A copy of the raw-text ``dialogue`` (no acts) with one fault of ``kind`` in its text alone,
    or ``None`` when it has no place for one.

    The places come from annotating the text against ``kb`` (:func:`csp_check.annotate.annotate`,
    what the checker itself sees); the faulty copy is raw text again (no acts), so the checker
    must find the fault by reading the text. Kinds: ``amount`` — a count ("5 hotels") becomes a
    number the KB contradicts (C6); ``attribute`` — a value the system states about an offered
    entity becomes another value of its column that no entity has together with the request and
    the rest of the utterance (C5 / C2); ``name_swap`` — an offered entity's name becomes the name
    of another DB entity of the domain that does not fit the utterance and the request (C5 / C2);
    ``duplicate`` — in a system turn listing several entities, one name becomes another's (C3).
    """
    if any(turn.acts for turn in dialogue.turns):
        raise ValueError("inject_raw_text takes raw text: a dialogue without acts")
    annotated = annotate(dialogue, kb)
    csp = build_csp(annotated, delexicalize(annotated), kb)
    choices = _CHOOSERS[kind](csp, kb)
    if kind == "duplicate":  # a list is one sentence
        choices = [(v, t) for v, t in choices if _one_sentence(dialogue.turns[v.turn].utterance, csp, v, t)]
    if not choices:
        return None
    var, new_text = rng.choice(choices)
    assert var.span is not None
    faulty = dialogue.model_copy(deep=True)
    turn = faulty.turns[var.turn]
    turn.utterance = turn.utterance[: var.span.start] + new_text + turn.utterance[var.span.end :]
    fault = RawFault(
        kind=kind, dialogue_id=dialogue.id, turn=var.turn, old_text=var.text or "", new_text=new_text,
        expected=RAW_EXPECTED[kind],
    )  # fmt: skip
    return faulty, fault


def _amount(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    """Counts of two or more changed to another number of two or more (the noun stays plural)
    outside what the KB allows under the count's filters."""
    out = []
    for var, sure, possible in spanned_counts(csp, with_ops=False):
        if var.value < 2:
            continue
        for new in (var.value + d for d in (1, 2, -1, -2, 3)):
            if new >= 2 and not sure <= new <= possible:
                out.append((var, amount_text(new, var.text or "")))
                break
    return out


def _claims(csp: CSP, columns: set[str] | None, exclude: set[str]) -> list[tuple[KbFilterInstance, int, Variable]]:
    """(C5 constraint, position, variable) of the system's explicit stated values."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C5 or not isinstance(c, KbFilterInstance):
            continue
        for i, name in enumerate(c.variables):
            var = by_name[name]
            if var.span is None or var.speaker != "system" or var.role not in SYSTEM_CLAIMS:
                continue
            if (columns is None and var.slot not in exclude) or (columns is not None and var.slot in columns):
                out.append((c, i, var))
    return out


def _attribute(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    return _misfits(csp, kb, _claims(csp, None, set(ENTITY_COLUMNS) | set(FLAG_WORDS) | CONTACT_COLUMNS))


def _name_swap(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    return _misfits(csp, kb, _claims(csp, set(ENTITY_COLUMNS), set()))


def _misfits(
    csp: CSP, kb: KnowledgeBase, claims: list[tuple[KbFilterInstance, int, Variable]]
) -> list[tuple[Variable, str]]:
    """For each claimed variable (``(constraint, position, variable)``), the first KB value of its
    slot that makes its claim match no entity: the fault's new value."""
    out = []
    for c, i, var in claims:
        new = misfit(csp, c, i, _values(kb, var), lambda value: value)
        if new is not None:
            out.append((var, new))
    return out


def _duplicate(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    """In a system sentence listing three or more entities ("A, B or C"), one name becomes another's."""
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C3:
            continue
        listed = [v for v in csp.variables if v.name in c.variables]
        first, second = listed[0], listed[1]
        if len(listed) >= 3 and first.slot in ENTITY_COLUMNS and first.speaker == "system" and first.span and second.span:
            out.append((second, first.text or ""))
    return out


def _one_sentence(utterance: str, csp: CSP, var: Variable, text: str) -> bool:
    """Whether the entity ``text`` names earlier in ``var``'s utterance is in ``var``'s sentence."""
    assert var.span is not None
    before = utterance[: var.span.start]
    at = before.lower().rfind(text.lower())
    return at >= 0 and not any(ch in ".?!;" for ch in before[at + len(text) :])


def _values(kb: KnowledgeBase, var: Variable) -> list[str]:
    """The KB's other values of ``var``'s column, as the KB writes them, in a stable order."""
    table = kb.tables.get(var.domain)
    if table is None:
        return []
    known = annotator_for(kb, {}).canonical.get((var.domain, var.slot), {})
    seen = {normalize(var.text or ""), str(var.value)}
    out = []
    for entity in table.entities:
        value = entity.get(var.slot)
        if value is None or normalize(value) in FLAG_VALUES or normalize(value) not in known:
            continue  # a value the text could not be read as (yes / no, a description)
        if normalize(value) not in seen and len(value.split()) <= 6:
            seen.add(normalize(value))
            out.append(value)
    return sorted(out)


_CHOOSERS = {"amount": _amount, "attribute": _attribute, "name_swap": _name_swap, "duplicate": _duplicate}
