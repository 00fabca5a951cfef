"""S1, annotation against text: the belief state and service calls record what the user said.

The annotations (belief state, service-call arguments) are the dialogue's record of the user's
request; the user's text is the truth (spec §9). S1 checks the record against the text: a
user who says "a table for 2" while the state and the booking call say ``party_size=1`` is an
annotation error — what MultiWOZ 2.2–2.4 corrected by hand in 2.1.

It lowers to the existing primitives: the recorded value is a constant, the user's text
variable must be one of its forms (membership in a fixed set; :func:`csp_check.check.satisfied`,
``S1`` in ``models/consistency.mzn``). Instances (:func:`annotation_constraints`):

- **state**: an explicit (spanned) user ``inform`` variable x of slot type d.s at turn t, when
  the belief state after t records d.s: x ∈ the canonical forms of its alternatives.
- **call**: a service call of domain d at turn u with argument s = p: the latest explicit user
  ``inform`` of d.s at or before u, when the state of d.s has not changed since that mention's
  turn (so the value was not a system proposal the user accepted later): x ∈ the forms of p.
  Only when p is comparable: one of the state's forms, or a value the dialogue's annotations
  know (a format that drops canonical values — ConvLab-3 unified SGD — leaves "2019-03-14" or
  "Indian" for the user's "March 14th" / "Punjabi" unlinked: no instance).

Not S1 violations, so never instances: a ``dontcare`` state, a slot the state does not record
(yet), a value the user never said (no user variable), a later change ("actually make it 3":
each mention is compared with the state after its own turn), an implicit variable (no text to
read), and a turn where the user names two different values of one slot ("2 or 3").
"""

from __future__ import annotations

from collections import defaultdict

from csp_check.assignment import Lexicon
from csp_check.models import ActRole, Constraint, ConstraintId, Dialogue, Value, Variable, VariableKind
from csp_check.normalize import NUMBER_WORDS, normalize, parse_amount


def recorded_forms(lexicon: Lexicon, slot_type: str, alternatives: list[str]) -> set[str]:
    """The canonical values the recorded ``alternatives`` (surface forms of one value) stand
    for, plus their normalised text: the values a user variable may take under S1."""
    forms: set[str] = set()
    for a in alternatives:
        forms |= lexicon.lookup(slot_type, a) | {normalize(a)}
    for form in list(forms):  # "1" / "one": a number in digits or words ("for one person")
        n = parse_amount(form)
        if n is not None:
            forms |= {str(n)} | {w for w, m in NUMBER_WORDS.items() if m == n}
    return forms


def annotation_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value]
) -> list[Constraint]:
    """The S1 instances of ``dialogue`` (module docstring), in turn order.

    ``assignment`` is what the text says (:func:`csp_check.assignment.read_assignment`): a turn
    whose text names two different values of one slot is ambiguous and gives no instance.
    """
    mentions = _user_mentions(variables, assignment)
    out: list[Constraint] = []
    state_after: dict[int, dict[str, dict[str, list[str]]]] = {}
    in_force: dict[str, dict[str, list[str]]] = {}
    for turn in dialogue.turns:
        if turn.speaker == "user":
            in_force = {**in_force, **turn.state}
        state_after[turn.index] = in_force
    by_type: dict[str, list[Variable]] = defaultdict(list)
    for v in mentions:
        by_type[v.slot_type].append(v)
        alternatives = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot)
        instance = _instance(lexicon, v, alternatives, v.turn, "belief state")
        if instance is not None:
            out.append(instance)
    for turn in dialogue.turns:
        for result in turn.kb_results:
            if result.call is None:
                continue
            for slot, value in result.call.parameters.items():
                said = [m for m in by_type.get(f"{result.domain}.{slot}", []) if m.turn <= turn.index]
                if not said:
                    continue
                x = said[-1]
                then = state_after[x.turn].get(x.domain, {}).get(slot)
                now = state_after[turn.index].get(x.domain, {}).get(slot)
                if then != now:
                    continue  # the state changed since (a proposal the user accepted, a correction)
                if normalize(value) not in recorded_forms(lexicon, x.slot_type, now or []) and not lexicon.lookup(
                    x.slot_type, value
                ):
                    continue  # a back-end canonical form the dialogue never links to a surface form
                instance = _instance(lexicon, x, [value], turn.index, f"{result.call.method} call")
                if instance is not None:
                    out.append(instance)
    return out


def _user_mentions(variables: list[Variable], assignment: dict[str, Value]) -> list[Variable]:
    """Explicit user inform slot variables, less those of a turn naming two values of one slot."""
    candidates = [
        v for v in variables
        if v.speaker == "user" and v.role is ActRole.INFORM and v.kind is VariableKind.SLOT and v.span is not None
    ]
    said: dict[tuple[int, str], set[Value]] = defaultdict(set)
    for v in candidates:
        said[(v.turn, v.slot_type)].add(assignment[v.name])
    return [v for v in candidates if len(said[(v.turn, v.slot_type)]) == 1]


def _instance(
    lexicon: Lexicon, v: Variable, alternatives: list[str] | None, turn: int, record: str
) -> Constraint | None:
    if not alternatives:
        return None
    forms = recorded_forms(lexicon, v.slot_type, alternatives)
    if "dontcare" in forms:
        return None
    return Constraint(
        id=ConstraintId.S1, variables=[v.name], turn=turn, slot_type=v.slot_type, values=sorted(forms), record=record
    )
