"""Solver-free checker: evaluate an assignment directly against every constraint of a CSP.

This module is the executable definition of what each constraint means (spec §2, paper
§3.2); the MiniZinc model and the CP-SAT backend must agree with it. Semantics decided here:

- Values are compared after :func:`~csp_check.normalize.normalize` (the CSP stores them so).
- ``dontcare`` as a filter value matches every entity.
- A KB entity without a column is *unknown* there, and the dialogue gets the benefit of the
  doubt: C4 counts only entities that surely match, C5 accepts an entity that may match, and C6
  holds when ``sure ≤ x0 ≤ possible``.
- Amount variables (kind ``amount``) are integers in ``0..CSP.max_amount``.
- S1 (annotation against text): the user's text variable takes one of the fixed values the
  belief state / service call records for it (membership in a set of constants).
"""

from __future__ import annotations

from typing import Mapping

from csp_check.models import CSP, Constraint, ConstraintId, Value, Variable, VariableRef, Violation

DONTCARE = "dontcare"


def holds(have: str, op: str, value: Value) -> bool:
    """Whether a KB cell ``have`` satisfies a filter ``op value``: ``=`` equality; ``>=`` /
    ``<=`` a bound (``have >= value``), comparing strings in code-point order (``HH:MM`` times
    compare as times); a bound never holds against an amount (an int)."""
    if op == "=" or not op:
        return have == value
    if not isinstance(value, str):
        return False
    return have >= value if op == ">=" else have <= value


def entity_match(
    entity: Mapping[str, str], columns: list[str], values: list[Value], ops: list[str] | None = None
) -> tuple[bool, bool]:
    """(surely matches, possibly matches) for one entity against ``columns[i] ops[i] values[i]``
    (``ops`` empty or ``None``: all ``=``): a contradicted column rules the entity out; a missing
    one only makes the match unsure."""
    sure = True
    for i, (column, value) in enumerate(zip(columns, values)):
        if value == DONTCARE:
            continue
        have = entity.get(column)
        if have is None or have == "":
            sure = False
        elif not holds(have, ops[i] if ops and i < len(ops) else "=", value):
            return False, False
    return sure, True


def count_matches(
    entities: list[Mapping[str, str]], columns: list[str], values: list[Value], ops: list[str] | None = None
) -> tuple[int, int]:
    """(entities that surely match, entities that possibly match)."""
    sure = possible = 0
    for entity in entities:
        s, p = entity_match(entity, columns, values, ops)
        sure += s
        possible += p
    return sure, possible


def satisfied(constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
    """Whether ``assignment`` (variable name → value) satisfies ``constraint``."""
    values = [assignment[name] for name in constraint.variables]
    cid = constraint.id
    if cid is ConstraintId.C1:
        if constraint.slot_type is None:  # an amount
            return all(isinstance(v, int) and 0 <= v <= csp.max_amount for v in values)
        allowed = csp.domains.get(constraint.slot_type, ())
        return all(v in allowed for v in values)
    if cid is ConstraintId.C2:
        return len(set(values)) <= 1
    if cid is ConstraintId.C3:
        return len(set(values)) == len(values)
    if cid is ConstraintId.S1:  # x ∈ the values the annotation records
        return all(v in constraint.values for v in values)
    entities = csp.kbs.get(constraint.kb or "", [])
    sure, possible = count_matches(entities, constraint.columns, values, constraint.ops)
    if cid is ConstraintId.C4:
        return sure == 0
    if cid is ConstraintId.C5:
        return possible > 0
    amount = assignment[constraint.count_variable or ""]
    return isinstance(amount, int) and count_holds(amount_op(csp, constraint.count_variable or ""), amount, sure, possible)


_BOUNDS: list = [None, {}]  # the last CSP asked about and its amount variables' ops (linear in its size)


def amount_op(csp: CSP, name: str) -> str:
    """The comparison the amount variable ``name`` states (``Variable.amount_op``; ``=`` if unknown)."""
    if _BOUNDS[0] is not csp:
        _BOUNDS[:] = [csp, {v.name: v.amount_op for v in csp.variables if v.amount_op != "="}]
    return _BOUNDS[1].get(name, "=")


def count_holds(op: str, amount: int, sure: int, possible: int) -> bool:
    """C6 with a bound: some KB count k with ``sure <= k <= possible`` has ``k op amount``
    ("over 70": ``possible > 70``; "up to 5": ``sure <= 5``; ``=``: ``sure <= amount <= possible``)."""
    if op == ">":
        return possible > amount
    if op == ">=":
        return possible >= amount
    if op == "<":
        return sure < amount
    if op == "<=":
        return sure <= amount
    return sure <= amount <= possible


def violations(csp: CSP, assignment: Mapping[str, Value] | None = None) -> list[Violation]:
    """Every constraint of ``csp`` that ``assignment`` (default: the dialogue's own) breaks."""
    assignment = csp.assignment if assignment is None else assignment
    by_name = {v.name: v for v in csp.variables}
    return [
        explain(c, assignment, csp, by_name) for c in csp.constraints if not satisfied(c, assignment, csp)
    ]


def explain(
    constraint: Constraint, assignment: Mapping[str, Value], csp: CSP, by_name: Mapping[str, Variable]
) -> Violation:
    """A :class:`Violation` for a constraint ``assignment`` breaks, with its evidence in words."""
    refs = [_ref(by_name[n], assignment[n]) for n in constraint.scope]
    cid = constraint.id
    recorded_at = {constraint.turn} if cid is ConstraintId.S1 and constraint.turn is not None else set()
    turns = sorted({r.turn for r in refs} | recorded_at)
    said = ", ".join(f"{r.slot}={r.value!r}" for r in refs if r.name != constraint.count_variable)
    where = _where(refs)
    claim = f"turn {constraint.turn}" if constraint.turn is not None else where  # the utterance that claims
    if cid is ConstraintId.C1:
        r = refs[0]
        kind = "an amount" if constraint.slot_type is None else f"a {constraint.slot_type} value"
        msg = f"{where} says {r.value!r}, which is not {kind}"
    elif cid is ConstraintId.C2:
        msg = f"{where} should name the same {refs[0].slot}, but the text says " + " / ".join(
            f"{r.value!r} (turn {r.turn})" for r in refs
        )
    elif cid is ConstraintId.C3:
        msg = f"{where} names the same {refs[0].slot} twice in one utterance: {said}"
    elif cid is ConstraintId.S1:
        r = refs[0]
        span = f" [{r.span.start}:{r.span.end}] {r.text!r}" if r.span else ""
        recorded = " / ".join(repr(x) for x in constraint.values)
        msg = (f"turn {r.turn} the user says{span} ({r.slot}={r.value!r}); the {constraint.record or 'annotation'} "
               f"at turn {constraint.turn} records {r.slot}={recorded}")
        if not constraint.values:  # an omission: x ∈ ∅
            tracks = "" if (constraint.record or "").endswith("yet,") else f"tracks {r.slot.split('.')[0]} but "
            msg = (f"turn {r.turn} the user says{span} ({r.slot}={r.value!r}); the {constraint.record or 'annotation'} "
                   f"at turn {constraint.turn} {tracks}records no {r.slot}")
    else:
        entities = csp.kbs.get(constraint.kb or "", [])
        values = [assignment[n] for n in constraint.variables]
        matches = [e for e in entities if entity_match(e, constraint.columns, values, constraint.ops)[1]]
        sample = "; ".join(_entity_label(e) for e in matches[:3])
        if cid is ConstraintId.C4:
            msg = f"{claim} says there is no instance with {said}; the KB has {len(matches)}: {sample}"
        elif cid is ConstraintId.C5:
            msg = _no_instance(constraint, assignment, entities, by_name)
        else:
            amount = assignment[constraint.count_variable or ""]
            sure, possible = count_matches(entities, constraint.columns, values, constraint.ops)
            have = str(sure) if sure == possible else f"{sure}-{possible}"
            op = amount_op(csp, constraint.count_variable or "")
            msg = f"{claim} says {'' if op == '=' else op + ' '}{amount} with {said or 'no filter'}; the KB has {have}"
            if sample:
                msg += f": {sample}" + (" …" if len(matches) > 3 else "")
    return Violation(constraint=cid, turns=turns, variables=refs, message=msg)


def _no_instance(
    constraint: Constraint, assignment: Mapping[str, Value], entities: list[Mapping[str, str]],
    by_name: Mapping[str, Variable],
) -> str:
    """Why a C5 fails: no entity has what the utterance states, or one has but not with the
    values the user asked for earlier (named one by one)."""
    ops = [constraint.ops[i] if i < len(constraint.ops) else "=" for i in range(len(constraint.columns))]
    pairs = list(zip(constraint.variables, constraint.columns, ops))
    own = [(n, col, op) for n, col, op in pairs if by_name[n].turn == constraint.turn and op == "="]
    asked = [(n, col, op) for n, col, op in pairs if (n, col, op) not in own]
    stated = ", ".join(f"{col}={assignment[n]!r}" for n, col, _ in own)
    own_cols, own_vals, own_ops = [c for _, c, _ in own], [assignment[n] for n, _, _ in own], [o for _, _, o in own]
    if not asked or not any(entity_match(e, own_cols, own_vals, own_ops)[1] for e in entities):
        return f"turn {constraint.turn} states {stated or 'an entity'}; no KB entity ({len(entities)}) has this"
    clash = [
        f"{col}{'' if op == '=' else ' ' + op + ' '}={assignment[n]!r} (turn {by_name[n].turn})".replace(" =", " ", 1) if op != "=" else f"{col}={assignment[n]!r} (turn {by_name[n].turn})"
        for n, col, op in asked
        if not any(entity_match(e, [*own_cols, col], [*own_vals, assignment[n]], [*own_ops, op])[1] for e in entities)
    ] or [", ".join(f"{col}{op}{assignment[n]!r}" for n, col, op in asked) + " together"]
    return f"turn {constraint.turn} offers {stated}, which the KB has, but not with what was asked: {'; '.join(clash)}"


def _ref(var: Variable, value: Value) -> VariableRef:
    return VariableRef(name=var.name, turn=var.turn, slot=var.slot_type, span=var.span, text=var.text, value=value)


def _where(refs: list[VariableRef]) -> str:
    turns = sorted({r.turn for r in refs})
    return ("turn " if len(turns) == 1 else "turns ") + ", ".join(map(str, turns))


def _entity_label(entity: Mapping[str, str]) -> str:
    for key in ("name", "trainID", "department", "restaurant_name", "hotel_name", "title", "movie_name",
                "event_name", "property_name", "song_name", "car_name", "airlines", "attraction_name"):
        if key in entity:
            return entity[key]
    return ", ".join(f"{k}={v}" for k, v in list(entity.items())[:3])
