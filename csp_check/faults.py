"""Fault injection: break a consistent dialogue in one known way, to measure detection (spec §8).

Four kinds of fault, each with the constraint that must catch it:

========== ============================================================ ===============
kind       what changes                                                 expected
========== ============================================================ ===============
amount     an amount of KB instances ("I found 3") becomes another       C6
kb_swap    a value the system offers / informs becomes another value of  C5 (C4, C6)
           its slot such that no KB entity has the utterance's values
coreference one mention of a value mentioned several times becomes       C2
           another value of its slot
duplicate  a value becomes the value of another same-slot variable of     C3
           the same utterance
========== ============================================================ ===============

Two modes: ``text`` changes the utterance alone (spans re-aligned; acts' values and the
state untouched), ``annotated`` changes the act's value and canonical value with the text.
In ``annotated`` mode a coreference fault is put on a mention whose referent other
annotations also record (a user inform: the belief state; a system confirm: the state in
force), since a mention whose every annotation changes with it is a different dialogue.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel

from csp_check.check import count_matches, entity_match
from csp_check.assignment import Lexicon
from csp_check.constraints import SYSTEM_CLAIMS, build_csp, referents
from csp_check.delexicalize import delexicalize
from csp_check.models import CSP, ConstraintId, Dialogue, KnowledgeBase, Span, Variable, VariableKind
from csp_check.normalize import NUMBER_WORDS, normalize

FaultKind = Literal["amount", "kb_swap", "coreference", "duplicate"]
Mode = Literal["text", "annotated"]
KINDS: tuple[FaultKind, ...] = ("amount", "kb_swap", "coreference", "duplicate")
MODES: tuple[Mode, ...] = ("text", "annotated")
EXPECTED: dict[str, frozenset[ConstraintId]] = {
    "amount": frozenset({ConstraintId.C6}),
    "kb_swap": frozenset({ConstraintId.C4, ConstraintId.C5, ConstraintId.C6}),
    "coreference": frozenset({ConstraintId.C2}),
    "duplicate": frozenset({ConstraintId.C3}),
}


class Fault(BaseModel):
    """What :func:`inject` changed: where, from what to what, and which constraints must flag it."""

    kind: FaultKind
    mode: Mode
    dialogue_id: str
    turn: int
    variable: str
    old_text: str
    new_text: str
    expected: frozenset[ConstraintId]


def inject(
    dialogue: Dialogue, kind: FaultKind, mode: Mode, rng: random.Random, kb: KnowledgeBase | None = None
) -> tuple[Dialogue, Fault] | None:
    """A copy of ``dialogue`` with one fault of ``kind``, or ``None`` when it has no place for one.

    The target is drawn with ``rng`` among the variables where the fault is possible; ``kb`` is
    the KB the dialogue is checked against when it carries no KB results of its own (MultiWOZ).
    """
    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    allowed = None  # variables a fault may be put on; None: any explicit one
    if mode == "annotated" and kind == "coreference":
        keys = referents(dialogue, delex.variables, Lexicon.of(dialogue))
        allowed = {name for name, (_, by_state) in keys.items() if by_state}
    choices = _CHOOSERS[kind](csp, allowed)
    if not choices:
        return None
    var, new_text, new_value = rng.choice(choices)
    faulty = _rewrite(dialogue, var, new_text, new_value if mode == "annotated" else None)
    fault = Fault(
        kind=kind, mode=mode, dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
        old_text=var.text or "", new_text=new_text, expected=EXPECTED[kind],
    )
    return faulty, fault


class Trial(BaseModel):
    """One injected fault and the constraints the checker found broken in the faulty dialogue."""

    fault: Fault
    found: frozenset[ConstraintId]

    @property
    def flagged(self) -> bool:
        return bool(self.found)

    @property
    def right(self) -> bool:
        """Flagged by one of the constraints this kind of fault must break."""
        return bool(self.found & self.fault.expected)


def trial(
    dialogue: Dialogue, kind: FaultKind, mode: Mode, rng: random.Random, kb: KnowledgeBase | None = None
) -> Trial | None:
    """:func:`inject` a fault, then check the faulty dialogue; ``None`` when there is no place for it."""
    from csp_check.pipeline import check_dialogue

    injected = inject(dialogue, kind, mode, rng, kb)
    if injected is None:
        return None
    faulty, fault = injected
    return Trial(fault=fault, found=frozenset(v.constraint for v in check_dialogue(faulty, kb).violations))


Choice = tuple[Variable, str, str]


def _amount(csp: CSP, allowed: set[str] | None) -> list[Choice]:
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C6 or c.count_variable is None:
            continue
        var = by_name[c.count_variable]
        if var.span is None:
            continue
        values = [csp.assignment[n] for n in c.variables]
        sure, possible = count_matches(csp.kbs[c.kb or ""], c.columns, values)
        for new in (var.value + d for d in (1, 2, -1, -2) if isinstance(var.value, int)):
            if new >= 0 and not sure <= new <= possible:
                out.append((var, _amount_text(new, var.text or ""), str(new)))
                break
    return out


def _kb_swap(csp: CSP, allowed: set[str] | None) -> list[Choice]:
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C5:
            continue
        entities = csp.kbs[c.kb or ""]
        for i, name in enumerate(c.variables):
            var = by_name[name]
            if var.span is None or var.speaker != "system" or var.role not in SYSTEM_CLAIMS:  # not the filters
                continue
            others = [csp.assignment[n] for n in c.variables]
            for value in _other_values(csp, var):
                others[i] = value
                if not any(entity_match(e, c.columns, others)[1] for e in entities):
                    out.append((var, value, value))
                    break
    return out


def _coreference(csp: CSP, allowed: set[str] | None) -> list[Choice]:
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C2:
            continue
        for name in c.variables:
            var = by_name[name]
            if var.span is None or (allowed is not None and name not in allowed):
                continue
            for value in _other_values(csp, var):
                out.append((var, value, value))
                break
    return out


def _duplicate(csp: CSP, allowed: set[str] | None) -> list[Choice]:
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is ConstraintId.C3:
            first, second = by_name[c.variables[0]], by_name[c.variables[1]]
            out.append((second, first.text or "", str(first.value)))
    return out


_CHOOSERS = {"amount": _amount, "kb_swap": _kb_swap, "coreference": _coreference, "duplicate": _duplicate}


def _other_values(csp: CSP, var: Variable) -> list[str]:
    """Values of ``var``'s slot type other than its own, in a stable order."""
    own = csp.assignment[var.name]
    return [v for v in csp.domains.get(var.slot_type, []) if v != own and v != "dontcare"]


def _amount_text(amount: int, old: str) -> str:
    if old.strip().isdigit():
        return str(amount)
    words = [w for w, n in NUMBER_WORDS.items() if n == amount and " " not in w and w not in ("no", "none")]
    return words[0] if words else str(amount)


def _rewrite(dialogue: Dialogue, var: Variable, new_text: str, new_value: str | None) -> Dialogue:
    """Replace ``var``'s span with ``new_text``, shift later spans, re-align the target acts."""
    assert var.span is not None
    faulty = dialogue.model_copy(deep=True)
    turn = faulty.turns[var.turn]
    start, end = var.span.start, var.span.end
    delta = len(new_text) - (end - start)
    turn.utterance = turn.utterance[:start] + new_text + turn.utterance[end:]
    for act in turn.acts:
        target = act.domain == var.domain and act.slot == var.slot and (
            act.span == var.span or (act.span is None and _same_value(act.canonical or act.value, var))
        )
        if target:
            act.span = Span(start=start, end=start + len(new_text))
            if new_value is not None:
                act.value = new_text
                act.canonical = new_value
        elif act.span is not None and act.span.start >= end:
            act.span = Span(start=act.span.start + delta, end=act.span.end + delta)
    return faulty


def _same_value(value: str | None, var: Variable) -> bool:
    if value is None:
        return False
    if var.kind is VariableKind.AMOUNT:
        return normalize(value) == str(var.value)
    return normalize(value) == var.value


# --- raw text (no acts, no spans): what the pytest plugin sees for generated data -------------
from csp_check.models import Constraint  # noqa: E402  (kept beside the raw-text faults)

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
    from csp_check.annotate import annotate

    if any(turn.acts for turn in dialogue.turns):
        raise ValueError("inject_raw_text takes raw text: a dialogue without acts")
    annotated = annotate(dialogue, kb)
    csp = build_csp(annotated, delexicalize(annotated), kb)
    choices = _RAW_CHOOSERS[kind](csp, kb)
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


def _raw_amount(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    """Counts of two or more changed to another number of two or more (the noun stays plural)
    outside what the KB allows under the count's filters."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C6 or c.count_variable is None:
            continue
        var = by_name[c.count_variable]
        if var.span is None or not isinstance(var.value, int) or var.value < 2:
            continue
        sure, possible = count_matches(csp.kbs[c.kb or ""], c.columns, [csp.assignment[n] for n in c.variables])
        for new in (var.value + d for d in (1, 2, -1, -2, 3)):
            if new >= 2 and not sure <= new <= possible:
                out.append((var, _amount_text(new, var.text or "")))
                break
    return out


def _raw_claims(csp: CSP, columns: set[str] | None, exclude: set[str]) -> list[tuple[Constraint, int, Variable]]:
    """(C5 constraint, position, variable) of the system's explicit stated values."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C5:
            continue
        for i, name in enumerate(c.variables):
            var = by_name[name]
            if var.span is None or var.speaker != "system" or var.role not in SYSTEM_CLAIMS:
                continue
            if (columns is None and var.slot not in exclude) or (columns is not None and var.slot in columns):
                out.append((c, i, var))
    return out


def _raw_attribute(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    from csp_check.annotate import ENTITY_COLUMNS, FLAG_WORDS

    out = []
    for c, i, var in _raw_claims(csp, None, set(ENTITY_COLUMNS) | set(FLAG_WORDS) | {"address", "phone", "postcode"}):
        values = [csp.assignment[n] for n in c.variables]
        for new in _raw_values(kb, var):
            values[i] = new
            if not any(entity_match(e, c.columns, values)[1] for e in csp.kbs[c.kb or ""]):
                out.append((var, new))
                break
    return out


def _raw_name_swap(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    from csp_check.annotate import ENTITY_COLUMNS

    out = []
    for c, i, var in _raw_claims(csp, set(ENTITY_COLUMNS), set()):
        values = [csp.assignment[n] for n in c.variables]
        for new in _raw_values(kb, var):
            values[i] = new
            if not any(entity_match(e, c.columns, values)[1] for e in csp.kbs[c.kb or ""]):
                out.append((var, new))
                break
    return out


def _raw_duplicate(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    """In a system sentence listing three or more entities ("A, B or C"), one name becomes another's."""
    from csp_check.annotate import ENTITY_COLUMNS

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


def _raw_values(kb: KnowledgeBase, var: Variable) -> list[str]:
    """The KB's other values of ``var``'s column, as the KB writes them, in a stable order."""
    table = kb.tables.get(var.domain)
    if table is None:
        return []
    from csp_check.annotate import FLAG_VALUES, _annotator

    known = _annotator(kb, {}).canonical.get((var.domain, var.slot), {})
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


_RAW_CHOOSERS = {"amount": _raw_amount, "attribute": _raw_attribute, "name_swap": _raw_name_swap,
                 "duplicate": _raw_duplicate}  # fmt: skip
