"""Faults in the places issue 18 found unchecked, each with its no-fault twin: text-only edits of a
MultiWOZ dialogue (the acts and the state keep what they said).

=================  ==============================================================  ==========
kind               what changes                                                    expected
=================  ==============================================================  ==========
implicit_count     a count whose search holds a belief-state value the text never   C6
                   says (:mod:`csp_check.families.c6_implicit`) becomes a number no
                   reading of the search allows: with the state's value, without
                   it, or with the user's own value
booked_misfit      the entity a booking confirmation names first ("I have booked    C5
                   the Gonville Hotel") becomes another entity of the KB that does
                   not fit the search in force
breakdown_count    a total or a part of a breakdown ("there are 10, 4 in the north  C6
                   and 6 in the centre": :mod:`csp_check.families.c6_breakdown`)
                   becomes a number its filters' KB count does not allow
address_part       a part of an address given over several acts ("kingfisher way ,    C5
                   hinchinbrook business park , huntingdon":
                   :mod:`csp_check.families.c5_address`) becomes a piece of another
                   entity's address that no entity fitting the turn's other values has
=================  ==============================================================  ==========

Twins (no fault, must not be flagged certain): ``implicit_count`` → the count written as the KB
count under the implicit filter, in the other wording (digits ↔ a number word);
``booked_misfit`` → the booked name becomes another entity that fits the search in force and
the turn's other claims about it, one the dialogue names nowhere else; ``breakdown_count`` → the
total or part written as its KB count in the other wording; ``address_part`` → two of the
address's parts swapped (the address re-ordered).
"""

from __future__ import annotations

from csp_check.check.certainty import Reading, assess
from csp_check.check.evaluate import count_matches, entity_match
from csp_check.families.c5_address import AddressParts, pieces
from csp_check.families.c6_implicit import StateValue
from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.kb_common import KbFilterInstance
from csp_check.faults.rewrite import rewrite
from csp_check.language.normalize import NUMBER_WORDS, refers
from csp_check.models import CSP, ConstraintId, Dialogue, KnowledgeBase, Variable
from csp_check.pipeline import dialogue_csp

PAPER = ("C1", "C2", "C3", "C4", "C5", "C6")


def _rows(csp: CSP, c: CountInstance, keep_state: bool) -> list:
    """The count's table, with or without its :class:`StateValue` steps."""
    rows = csp.kbs.get(c.table.base) or []
    for step in c.table.restrictions:
        if keep_state or not isinstance(step, StateValue):
            rows = step.rows(rows)
    return rows


def _range(csp: CSP, rows: list, c: CountInstance) -> tuple[int, int]:
    sure, possible = count_matches(rows, c.columns, [csp.assignment[n] for n in c.variables], c.ops)
    return sure - c.count_excluded - c.count_next_day, possible + c.count_excluded + c.count_next_day


def _other_wording(n: int, old: str) -> str:
    """``n`` in the other wording of ``old``: a word for digits, digits for a word."""
    if old.strip().isdigit():
        words = [w for w, k in NUMBER_WORDS.items() if k == n and " " not in w and w not in ("a", "an", "single")]
        return words[0] if words else str(n)
    return str(n)


def settled(dialogue: Dialogue, csp: CSP, c) -> bool:
    """Whether the reading ``c`` rests on is settled (:func:`~csp_check.check.certainty.assess`):
    a fault is put only where a broken instance would be a claim, not one for review."""
    return assess(Reading.of(dialogue, csp), c) is None


def implicit_counts(csp: CSP, dialogue: Dialogue | None = None) -> list[tuple[Variable, CountInstance]]:
    """Each C6 count with an implicit filter and an exact, spanned amount (its reading settled,
    given the ``dialogue``)."""
    return _settled_counts(csp, dialogue, lambda c: bool(c.table.of(StateValue)))


def breakdown_counts(csp: CSP, dialogue: Dialogue | None = None) -> list[tuple[Variable, CountInstance]]:
    """Each C6 count of a breakdown's total or part (:mod:`csp_check.families.c6_breakdown`) with
    an exact, spanned amount (its reading settled, given the ``dialogue``)."""
    return _settled_counts(csp, dialogue, lambda c: any("of a breakdown" in r for r in c.reading))


def _settled_counts(csp: CSP, dialogue: Dialogue | None, keep) -> list[tuple[Variable, CountInstance]]:
    """Each certain-built C6 count ``keep`` picks whose reading is settled (given the ``dialogue``)
    and whose amount is exact, spanned and read as annotated."""
    by_name = {v.name: v for v in csp.variables}
    reading = Reading.of(dialogue, csp) if dialogue is not None else None  # once per dialogue, not per count
    out = []
    for c in csp.constraints:
        if not isinstance(c, CountInstance) or c.uncertain is not None or not keep(c):
            continue
        if reading is not None and assess(reading, c) is not None:
            continue
        amount = by_name[c.count_variable]
        if amount.span is not None and isinstance(amount.value, int) and amount.amount_op == "=" \
                and csp.assignment.get(amount.name) == amount.value:
            out.append((amount, c))
    return out


def implicit_count(dialogue: Dialogue, kb: KnowledgeBase, twin: bool = False, found=implicit_counts) -> Dialogue | None:
    """The first implicit-filter count of ``dialogue`` (``found``: the counts to choose from) made
    wrong under every reading (a fault), or (``twin``) written as the KB count in the other
    wording; ``None``: no such count."""
    csp = dialogue_csp(dialogue, kb, PAPER)
    for amount, c in found(csp, dialogue):
        with_state = _range(csp, _rows(csp, c, True), c)
        plain = _range(csp, _rows(csp, c, False), c)
        if twin:
            sure, possible = count_matches(_rows(csp, c, True), c.columns, [csp.assignment[n] for n in c.variables], c.ops)
            if sure == possible and c.count_excluded == c.count_next_day == 0:
                return rewrite(dialogue, amount, _other_wording(sure, amount.text or ""), str(sure), None)
            continue
        readings = [with_state, plain]
        if found is breakdown_counts:  # a breakdown's count: also wrong without any one of its filters
            for i in range(len(c.variables)):
                rest = c.model_copy(update={"variables": c.variables[:i] + c.variables[i + 1:],
                                            "columns": c.columns[:i] + c.columns[i + 1:], "ops": (c.ops[:i] + c.ops[i + 1:])})
                readings.append(_range(csp, _rows(csp, rest, True), rest))
        for d in (2, 1, -1, -2, 3, -3, 4, 5, 6):
            new = amount.value + d
            if new >= 0 and not any(lo <= new <= hi for lo, hi in readings):
                text = str(new) if (amount.text or "").strip().isdigit() else _other_wording(new, "0")
                return rewrite(dialogue, amount, text, str(new), None)
    return None


def booked_entities(csp: CSP, dialogue: Dialogue | None = None) -> list[tuple[Variable, KbFilterInstance]]:
    """Each C5 built for a booked entity (:func:`~csp_check.families.c5_some_instance.booked_entity`):
    its name variable and the instance."""
    by_name = {v.name: v for v in csp.variables}
    return [(by_name[c.variables[0]], c) for c in csp.constraints
            if isinstance(c, KbFilterInstance) and c.id is ConstraintId.C5 and any("the booked" in r for r in c.reading)
            and (dialogue is None or settled(dialogue, csp, c))]


def booked_misfit(dialogue: Dialogue, kb: KnowledgeBase, twin: bool = False) -> Dialogue | None:
    """The first name a booking confirmation names first, replaced by a KB entity that does not
    fit the search in force (a fault) or (``twin``) that fits it and every other C5 of the name;
    ``None``: no such place."""
    csp = dialogue_csp(dialogue, kb, PAPER)
    text = " ".join(t.utterance.lower() for t in dialogue.turns)
    for name, c in booked_entities(csp, dialogue):
        if not any(a.span == name.span for a in dialogue.turns[name.turn].acts):
            continue  # found by text matching, not annotated there
        rows = csp.kbs.get(c.kb) or []
        values = [csp.assignment[n] for n in c.variables]
        others = [x for x in csp.constraints if x.id is ConstraintId.C5 and name.name in x.variables
                  and isinstance(x, KbFilterInstance) and x is not c]
        for e in sorted(rows, key=lambda e: e.get(name.slot, "")):
            new = e.get(name.slot)
            if not new or new == name.value or refers(new) or new in text or len(new) < 4:
                continue
            fits = entity_match(e, c.columns[1:], values[1:], c.ops[1:])[1]
            if twin:
                rest_fit = all(entity_match(e, x.columns, [new if n == name.name else csp.assignment[n] for n in x.variables],
                                            x.ops)[1] for x in others)
                if fits and rest_fit:
                    return rewrite(dialogue, name, new, new, None)
            elif not entity_match(e, c.columns[1:], values[1:], c.ops[1:])[0] and not fits:
                return rewrite(dialogue, name, new, new, None)
    return None


def breakdown_count(dialogue: Dialogue, kb: KnowledgeBase, twin: bool = False) -> Dialogue | None:
    """The first count of a breakdown made wrong under its filters (a fault), or (``twin``)
    written as its KB count in the other wording; ``None``: no such count."""
    return implicit_count(dialogue, kb, twin, breakdown_counts)


def _settled_as_said(dialogue: Dialogue, csp: CSP, c) -> bool:
    """:func:`settled`, but a value "a surface variant" of the very value an entity has (the
    reading of an instance that holds) does not unsettle it: the fault's new words are no typo."""
    reason = assess(Reading.of(dialogue, csp), c)
    if reason is None:
        return True
    said, _, kb = reason.partition(" is a surface variant of ")
    return bool(kb) and said.endswith(kb)


def address_claims(csp: CSP, dialogue: Dialogue | None = None) -> list[tuple[list[Variable], KbFilterInstance]]:
    """Each C5 of an address given over several acts (:mod:`csp_check.families.c5_address`):
    its part variables, in text order, and the instance (its reading settled, given the
    ``dialogue``)."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if not isinstance(c, KbFilterInstance) or c.id is not ConstraintId.C5 or not c.table.of(AddressParts):
            continue
        if dialogue is not None and not _settled_as_said(dialogue, csp, c):
            continue
        step = c.table.of(AddressParts)[0]
        parts = [by_name[n] for n, col in zip(c.variables, c.columns) if col.startswith(f"{step.address} part ")]
        out.append((parts, c))
    return out


def address_part(dialogue: Dialogue, kb: KnowledgeBase, twin: bool = False) -> Dialogue | None:
    """The first address given over several acts with one part replaced by a comma-separated
    piece of another entity's address that no entity fitting the instance's other values has
    among its pieces (a fault), or (``twin``) its first two parts of different words swapped;
    ``None``: no such address."""
    csp = dialogue_csp(dialogue, kb, PAPER)
    for parts, c in address_claims(csp, dialogue):
        if twin:
            later = next((p for p in parts[1:] if (p.text or "").lower() != (parts[0].text or "").lower()), None)
            if later is None or parts[0].text is None or later.text is None:
                continue
            swapped = rewrite(dialogue, later, parts[0].text, parts[0].text, None)
            return rewrite(swapped, parts[0], later.text, later.text, None)
        step = c.table.of(AddressParts)[0]
        rows = csp.kbs.get(c.table.base) or []
        rest = [(n, col) for n, col in zip(c.variables, c.columns) if not col.startswith(f"{step.address} part ")]
        fitting = [e for e in rows if entity_match(e, [col for _, col in rest], [csp.assignment[n] for n, _ in rest])[1]]
        taken = set().union(*(pieces(e, step.address, step.postcode) for e in fitting)) if fitting else set()
        text = " ".join(t.utterance.lower() for t in dialogue.turns)
        for e in sorted(rows, key=lambda e: e.get(step.address, "")):
            for piece in (p.strip() for p in (e.get(step.address) or "").split(",")[1:]):
                if len(piece) >= 6 and piece not in taken and piece not in text and not refers(piece):
                    return rewrite(dialogue, parts[len(parts) // 2], piece, piece, None)
    return None


#: kind → the generator (``(dialogue, kb, twin)`` → the edited dialogue or ``None``).
GENERATORS = {"implicit_count": implicit_count, "booked_misfit": booked_misfit, "breakdown_count": breakdown_count,
              "address_part": address_part}
