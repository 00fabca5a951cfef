"""Faults in the annotation, not the text (S1 and role-aware slots): the belief state or a call no
longer records what the user said. Five kinds (:data:`ANNOTATION_KINDS`), each with the
constraints that must flag it (:data:`ANNOTATION_EXPECTED`); see :func:`inject_annotation`."""

from __future__ import annotations

import random
from typing import Literal

from csp_check.build.builder import build_csp
from csp_check.delexicalize.assignment import Lexicon
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.families.annotation_common import RecordedValuesInstance, informs, recorded_forms, same_meaning
from csp_check.faults.model import Fault, Trial
from csp_check.language.normalize import normalize
from csp_check.language.roles import PAIRS, text_role
from csp_check.models import ALL_CONSTRAINTS, CSP, ConstraintId, Dialogue, KnowledgeBase, Span, Variable
from csp_check.pipeline import check_dialogue

AnnotationFaultKind = Literal["state_value", "call_value", "role_swap", "state_omission", "only_slot_omission"]
ANNOTATION_KINDS: tuple[AnnotationFaultKind, ...] = (
    "state_value", "call_value", "role_swap", "state_omission", "only_slot_omission"
)
ANNOTATION_EXPECTED: dict[str, frozenset[ConstraintId]] = {
    "state_value": frozenset({ConstraintId.S1}),
    "call_value": frozenset({ConstraintId.S1}),
    "role_swap": frozenset({ConstraintId.S1, ConstraintId.C2, ConstraintId.C5}),
    "state_omission": frozenset({ConstraintId.S1}),
    "only_slot_omission": frozenset({ConstraintId.S1}),
}


def inject_annotation(
    dialogue: Dialogue, kind: AnnotationFaultKind, rng: random.Random, kb: KnowledgeBase | None = None
) -> tuple[Dialogue, Fault] | None:
    """A copy of ``dialogue`` whose *annotation* no longer records what the user said (the text
    is untouched), or ``None`` when it has no place for the fault:

    - ``state_value``: a value the user stated (a spanned user inform the belief state records)
      is changed in the belief state, from its turn for as long as the state kept it, and in the
      service calls made with it, to another value of its slot type (not a word form of the
      user's, nor a time within the bound the user said: "after 15:00" → 16:21 is no fault).
      Must trip S1.
    - ``call_value``: the same, in one service call's argument alone (the state still right).
    - ``role_swap``: in a user turn whose text gives a travel span its role ("from A to B",
      "leaving A", "going to B"), the origin / destination slots of the pair are swapped in the
      acts, the belief state and the calls (a fault reported on SGD's GitHub tracker, #15). Must trip S1 (or C2 / C5).
    - ``state_omission``: a value the user stated (a spanned user inform the belief state
      records) is dropped from the belief state, from its turn for as long as the state kept it,
      while the state still tracks its domain (another slot of the domain has a value at that
      turn); the calls are untouched. Only where the words inform a value the state must hold
      (:func:`csp_check.families.annotation_common.informs`: not a question about an entity, a fallback, …).
      Must trip S1 (an omission: ``x ∈ ∅``).
    - ``only_slot_omission``: the same where the value is the only slot the state records for
      its domain at that turn, and a later user turn's state records another slot of the domain.

    Returns the faulty dialogue and a :class:`~csp_check.faults.model.Fault` (``mode="annotated"``;
    ``expected`` from :data:`ANNOTATION_EXPECTED`; a kind of its own, not one of ``FaultKind``).
    ``kb`` is used to build the CSP when the dialogue has no results.
    """
    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    if kind in ("state_omission", "only_slot_omission"):
        return _omitted(dialogue, csp, kind, rng)
    if kind in ("state_value", "call_value"):
        return _changed_value(dialogue, csp, kind, rng)
    return _swapped_roles(dialogue, kind, rng)


def _omitted(
    dialogue: Dialogue, csp: CSP, kind: AnnotationFaultKind, rng: random.Random
) -> tuple[Dialogue, Fault] | None:
    """``state_omission`` / ``only_slot_omission``: a user's value dropped from the belief state."""
    by_name = {v.name: v for v in csp.variables}
    turn_spans: dict[int, list[Span]] = {}
    for v in csp.variables:
        if v.span is not None:
            turn_spans.setdefault(v.turn, []).append(v.span)
    places: list[Variable] = []
    for c in csp.constraints:
        if c.id is not ConstraintId.S1 or not isinstance(c, RecordedValuesInstance):
            continue
        var = by_name[c.variables[0]]
        tracked = len(dialogue.turns[var.turn].state.get(var.domain, {}))
        if kind == "only_slot_omission":  # the user's only slot of d, where a later state tracks d anyway
            fits = tracked == 1 and any(
                t.speaker == "user" and set(t.state.get(var.domain, {})) - {var.slot}
                for t in dialogue.turns[var.turn + 1 :]
            )
        else:
            fits = tracked > 1
        if c.record == "belief state" and c.values and c.turn == var.turn and fits and informs(
            dialogue, var, csp.assignment[var.name], turn_spans.get(var.turn, [])
        ):
            places.append(var)
    if not places:
        return None
    var = rng.choice(places)
    faulty = dialogue.model_copy(deep=True)
    drop_record(faulty, var.domain, var.slot, var.turn)
    return faulty, Fault.model_construct(
        kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
        old_text=var.text or "", new_text="", expected=ANNOTATION_EXPECTED[kind],
    )


def _changed_value(
    dialogue: Dialogue, csp: CSP, kind: AnnotationFaultKind, rng: random.Random
) -> tuple[Dialogue, Fault] | None:
    """``state_value`` / ``call_value``: a user's value changed in the belief state (and the calls
    made with it) or in one call alone."""
    lexicon = Lexicon.of(dialogue)
    state = kind == "state_value"
    s1 = [c for c in csp.constraints if c.id is ConstraintId.S1 and isinstance(c, RecordedValuesInstance)
          and (c.record or "").startswith("belief state") == state]
    by_name = {v.name: v for v in csp.variables}
    choices = []
    for c in s1:
        var = by_name[c.variables[0]]
        said = recorded_forms(lexicon, var.slot_type, [str(csp.assignment[var.name])])
        written = normalize(dialogue.turns[var.turn].utterance)  # not a value the user also names ("nothing 3D")
        words = " ".join((var.text or "").lower().split())  # "after 15:00": a state of 16:21 keeps the bound
        others = [
            x for x in csp.domains.get(var.slot_type, [])
            if x not in said and x not in c.values and x != "dontcare" and x not in written
            and not any(same_meaning(f, x, var.slot) or same_meaning(x, f, var.slot) for f in said | {words} if f)
        ]  # not a word form of the user's value ("hotel" / "hotels"), nor within the bound the user said
        if others:
            choices.append((var, c, others))
    if not choices:
        return None
    var, c, others = rng.choice(choices)
    new = rng.choice(others)
    faulty = dialogue.model_copy(deep=True)
    if state:
        rewrite_record(faulty, var.domain, {var.slot: new}, var.turn)
    else:  # the call of the S1 instance: its turn's result of the domain with the slot
        for result in faulty.turns[c.turn or 0].kb_results:
            if result.call is not None and result.domain == var.domain and var.slot in result.call.parameters:
                result.call.parameters[var.slot] = new
    return faulty, Fault.model_construct(  # a kind of its own: not one of FaultKind
        kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
        old_text=var.text or "", new_text=new, expected=ANNOTATION_EXPECTED[kind],
    )


def _swapped_roles(dialogue: Dialogue, kind: AnnotationFaultKind, rng: random.Random) -> tuple[Dialogue, Fault] | None:
    """``role_swap``: the origin / destination slots of a user turn swapped in its acts, the
    belief state and the calls."""
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
    faulty = dialogue.model_copy(deep=True)
    turn = faulty.turns[index]
    for act in turn.acts:
        if act.domain == domain and act.slot in (origin, destination):
            act.slot = destination if act.slot == origin else origin
    state = turn.state.get(domain, {})
    if origin not in state or destination not in state:
        return None
    swapped = {origin: state[destination][0], destination: state[origin][0]}
    rewrite_record(faulty, domain, swapped, index)
    return faulty, Fault.model_construct(
        kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=index, variable=f"{origin}/{destination}",
        old_text=f"{origin}={swapped[destination]}", new_text=f"{origin}={swapped[origin]}",
        expected=ANNOTATION_EXPECTED[kind],
    )


def rewrite_record(dialogue: Dialogue, domain: str, new: dict[str, str], start: int) -> None:
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


def drop_record(dialogue: Dialogue, domain: str, slot: str, start: int) -> None:
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
    injected = inject_annotation(dialogue, kind, rng, kb)
    if injected is None:
        return None
    faulty, fault = injected
    report = check_dialogue(faulty, kb, constraints or ALL_CONSTRAINTS)
    return Trial.model_construct(fault=fault, found=frozenset(v.constraint for v in report.violations))
