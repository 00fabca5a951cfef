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


# -- annotation faults (S1 and role-aware slots) -------------------------------------------------

AnnotationFaultKind = Literal["state_value", "call_value", "role_swap", "state_omission"]
ANNOTATION_KINDS: tuple[AnnotationFaultKind, ...] = ("state_value", "call_value", "role_swap", "state_omission")
ANNOTATION_EXPECTED: dict[str, frozenset[ConstraintId]] = {
    "state_value": frozenset({ConstraintId.S1}),
    "call_value": frozenset({ConstraintId.S1}),
    "role_swap": frozenset({ConstraintId.S1, ConstraintId.C2, ConstraintId.C5}),
    "state_omission": frozenset({ConstraintId.S1}),
}


def inject_annotation(
    dialogue: Dialogue, kind: AnnotationFaultKind, rng: random.Random, kb: KnowledgeBase | None = None
) -> tuple[Dialogue, Fault] | None:
    """A copy of ``dialogue`` whose *annotation* no longer records what the user said (the text
    is untouched), or ``None`` when it has no place for the fault:

    - ``state_value``: a value the user stated (a spanned user inform the belief state records)
      is changed in the belief state, from its turn for as long as the state kept it, and in the
      service calls made with it, to another value of its slot type. Must trip S1.
    - ``call_value``: the same, in one service call's argument alone (the state still right).
    - ``role_swap``: in a user turn whose text gives a travel span its role ("from A to B",
      "leaving A", "going to B"), the origin / destination slots of the pair are swapped in the
      acts, the belief state and the calls (SGD issue 15). Must trip S1 (or C2 / C5).
    - ``state_omission``: a value the user stated (a spanned user inform the belief state
      records) is dropped from the belief state, from its turn for as long as the state kept it,
      while the state still tracks its domain (another slot of the domain has a value at that
      turn); the calls are untouched. Only where the words inform a value the state must hold
      (:func:`csp_check.annotation.informs`: not a question about an entity, a fallback, …).
      Must trip S1 (an omission: ``x ∈ ∅``).

    Returns the faulty dialogue and a :class:`Fault` (``mode="annotated"``; ``expected`` from
    :data:`ANNOTATION_EXPECTED`). ``kb`` is used to build the CSP when the dialogue has no results.
    """
    from csp_check.annotation import recorded_forms, same_meaning
    from csp_check.roles import PAIRS, text_role

    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    lexicon = Lexicon.of(dialogue)
    faulty = dialogue.model_copy(deep=True)
    if kind == "state_omission":
        from csp_check.annotation import informs

        by_name = {v.name: v for v in csp.variables}
        turn_spans: dict[int, list] = {}
        for v in csp.variables:
            if v.span is not None:
                turn_spans.setdefault(v.turn, []).append(v.span)
        places = []
        for c in csp.constraints:
            if c.id is not ConstraintId.S1:
                continue
            var = by_name[c.variables[0]]
            if c.record == "belief state" and c.values and c.turn == var.turn and len(
                dialogue.turns[var.turn].state.get(var.domain, {})
            ) > 1 and informs(dialogue, var, csp.assignment[var.name], turn_spans.get(var.turn, [])):
                places.append(var)
        if not places:
            return None
        var = rng.choice(places)
        _drop_record(faulty, var.domain, var.slot, var.turn)
        return faulty, Fault.model_construct(
            kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
            old_text=var.text or "", new_text="", expected=ANNOTATION_EXPECTED[kind],
        )
    if kind in ("state_value", "call_value"):
        state = kind == "state_value"
        s1 = [c for c in csp.constraints if c.id is ConstraintId.S1 and (c.record == "belief state") == state]
        by_name = {v.name: v for v in csp.variables}
        choices = []
        for c in s1:
            var = by_name[c.variables[0]]
            said = recorded_forms(lexicon, var.slot_type, [str(csp.assignment[var.name])])
            written = normalize(dialogue.turns[var.turn].utterance)  # not a value the user also names ("nothing 3D")
            others = [
                x for x in csp.domains.get(var.slot_type, [])
                if x not in said and x not in c.values and x != "dontcare" and x not in written
                and not any(same_meaning(f, x, var.slot) or same_meaning(x, f, var.slot) for f in said)
            ]  # not a word form of the user's value ("hotel" / "hotels")
            if others:
                choices.append((var, c, others))
        if not choices:
            return None
        var, c, others = rng.choice(choices)
        new = rng.choice(others)
        if state:
            _rewrite_record(faulty, var.domain, {var.slot: new}, var.turn)
        else:  # the call of the S1 instance: its turn's result of the domain with the slot
            for result in faulty.turns[c.turn or 0].kb_results:
                if result.call is not None and result.domain == var.domain and var.slot in result.call.parameters:
                    result.call.parameters[var.slot] = new
        return faulty, Fault.model_construct(  # a kind of its own: not one of FaultKind
            kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
            old_text=var.text or "", new_text=new, expected=ANNOTATION_EXPECTED[kind],
        )
    candidates = []
    for turn in dialogue.turns:
        if turn.speaker != "user":
            continue
        for pair in PAIRS:
            acts = {a.slot: a for a in turn.acts if a.slot in pair and a.span is not None}
            if len(acts) == 2 and len({a.domain for a in acts.values()}) == 1 and any(
                text_role(turn.utterance, a.span.start) for a in acts.values()
            ):
                candidates.append((turn.index, pair, next(iter(acts.values())).domain))
    if not candidates:
        return None
    index, (origin, destination), domain = rng.choice(candidates)
    turn = faulty.turns[index]
    for act in turn.acts:
        if act.domain == domain and act.slot in (origin, destination):
            act.slot = destination if act.slot == origin else origin
    state = turn.state.get(domain, {})
    if origin not in state or destination not in state:
        return None
    swapped = {origin: state[destination][0], destination: state[origin][0]}
    _rewrite_record(faulty, domain, swapped, index)
    return faulty, Fault.model_construct(
        kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=index, variable=f"{origin}/{destination}",
        old_text=f"{origin}={swapped[destination]}", new_text=f"{origin}={swapped[origin]}",
        expected=ANNOTATION_EXPECTED[kind],
    )


def _rewrite_record(dialogue: Dialogue, domain: str, new: dict[str, str], start: int) -> None:
    """Set ``new`` (slot → value) in the belief state of ``domain`` from turn ``start`` on, for
    as long as each slot keeps the value it had at ``start``, and in the calls made meanwhile."""
    first = dialogue.turns[start].state.get(domain, {})
    old = {slot: list(first.get(slot, [])) for slot in new}
    live = set(new)
    for turn in dialogue.turns[start:]:
        slots = turn.state.get(domain)
        if turn.speaker == "user" and slots is not None:
            live = {s for s in live if slots.get(s) == old[s]}
            for s in live:
                slots[s] = [new[s]]
        for result in turn.kb_results:
            if result.call is not None and result.domain == domain:
                for s in live:
                    if s in result.call.parameters:
                        result.call.parameters[s] = new[s]
        if not live:
            break


def _drop_record(dialogue: Dialogue, domain: str, slot: str, start: int) -> None:
    """Remove ``slot`` from the belief state of ``domain`` from turn ``start`` on, for as long as
    it keeps the value it had at ``start`` (every turn carrying a state: user turns, and system
    turns in formats that copy the state to them)."""
    old = dialogue.turns[start].state.get(domain, {}).get(slot)
    for turn in dialogue.turns[start:]:
        slots = turn.state.get(domain)
        if not slots:  # a turn without this domain's state (SGD system turns, another service)
            continue
        if not set(slots.get(slot) or []) & set(old or []):
            break  # changed or dropped by the user (more surface forms of the same value: kept)
        del slots[slot]


def annotation_trial(
    dialogue: Dialogue, kind: AnnotationFaultKind, rng: random.Random, kb: KnowledgeBase | None = None,
    constraints: tuple[ConstraintId, ...] | None = None,
) -> Trial | None:
    """:func:`inject_annotation`, then check the faulty dialogue (with ``constraints``, default
    all); ``None`` when there is no place."""
    from csp_check.models import ALL_CONSTRAINTS
    from csp_check.pipeline import check_dialogue

    injected = inject_annotation(dialogue, kind, rng, kb)
    if injected is None:
        return None
    faulty, fault = injected
    report = check_dialogue(faulty, kb, constraints or ALL_CONSTRAINTS)
    return Trial.model_construct(fault=fault, found=frozenset(v.constraint for v in report.violations))
