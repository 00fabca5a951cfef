"""Fault injection: break a consistent dialogue in one known way, to measure detection (spec §8, §9).

Seven kinds of fault, each with the constraints that must catch it:

============== ========================================================== ===========
kind           what changes                                               expected
============== ========================================================== ===========
amount         a number counting KB instances ("I found 10") becomes      C6
               another the KB contradicts ("I found 12")
kb_swap        a value the system offers / informs becomes another value  C5 (C4, C6)
               of its slot such that no KB entity has the utterance's
               values
coreference    one mention of a value mentioned several times becomes     C2
               another value of its slot
duplicate      a value becomes the value of another same-slot variable    C3
               of the same utterance ("A, B or C" → "A, A or C")
listed_unknown one of several listed entities becomes a name neither the  C1 (C5)
               KB nor the annotation knows
listed_misfit  one of several listed entities becomes another KB entity   C5
               that does not fit what the user asked for
categorical    a categorical or boolean value's words state another value C5 or C2
               ("it is free" → "it is not free", "Economy" → "Business")
               that the entity, or another mention, contradicts
booking_detail an entity detail stated in a booking confirmation ("Your     C5
               table is booked. Their number is …", "… and pets are
               allowed") becomes a value the booked entity does not have
boolean_answer a short yes/no answer stating a boolean ("Do they serve      C5 or C2
               alcohol?" "No, they do not.") answers the other way
reworded_date  a date said "March 9th" becomes another day in other words  C2, S1
               ("the 10th of March"; :func:`reword_date` with the same day
               is no fault: ``tests/test_faults.py``)                     (C1, C5)
amount_bound   a number counting KB instances becomes a bound the KB      C6
               count breaks ("I found 10" → "I found more than 10",
               "fewer than 10"; spec §2, ``Variable.amount_op``)
coordinated_   a True boolean the system affirms ("it has wifi") becomes  C5 or C2
negation       the second noun of a negated coordination ("it does not
               have free parking and wifi", "has no parking or wifi")
hedged_amount  a count the KB confirms ("I found 10") becomes an           C6
               approximation that misses it ("about 14": 14 ± 4;
               :func:`approximate_restatement` is the no-fault twin)
relative_date  a date becomes a day next to it said relative to the       C2, S1
               dialogue's today ("tomorrow" → "the day after tomorrow",   (C1, C5)
               "March 2nd" → "this Sunday"; :func:`relative_day`)
change_of_mind a user's number the state records ("for 2") taken back in  S1
               the text alone: "… Actually, make that 3 people." added
               to the turn (state and calls keep 2)
restated_      a booking turn restates the party size in words no act     C2 (C5, S1)
detail         annotates (" That is for 4 people." after booking for 2;
               text only; :func:`faithful_restatement`: the no-fault twin)
============== ========================================================== ===========

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

import copy
import random
import re
from typing import Any, Literal

from pydantic import BaseModel

from csp_check.delexicalize.assignment import Lexicon
from csp_check.check.evaluate import count_matches, entity_match, satisfied
from csp_check.build.builder import SYSTEM_CLAIMS, build_csp, referents
from csp_check.language.cues import BOOLEAN, boolean_span, read_boolean
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.models import CSP, ActRole, Constraint, ConstraintId, Dialogue, KnowledgeBase, Span, Variable, VariableKind
from csp_check.language.normalize import NUMBER_WORDS, normalize

FaultKind = Literal[
    "amount", "kb_swap", "coreference", "duplicate", "listed_unknown", "listed_misfit", "categorical", "amount_bound", "booking_detail", "boolean_answer", "reworded_date",
    "coordinated_negation", "hedged_amount", "relative_date", "change_of_mind", "restated_detail",
]
Mode = Literal["text", "annotated"]
KINDS: tuple[FaultKind, ...] = (
    "amount", "kb_swap", "coreference", "duplicate", "listed_unknown", "listed_misfit", "categorical", "amount_bound", "booking_detail", "boolean_answer", "reworded_date",
    "coordinated_negation", "hedged_amount", "relative_date", "change_of_mind", "restated_detail",
)
MODES: tuple[Mode, ...] = ("text", "annotated")
#: Kinds that exist in text only (a detail written where no act annotates it).
TEXT_ONLY: frozenset[str] = frozenset({"restated_detail"})
C1, C2, C3, C4, C5, C6 = (ConstraintId(f"C{i}") for i in range(1, 7))
EXPECTED: dict[str, frozenset[ConstraintId]] = {
    "amount": frozenset({C6}),
    "kb_swap": frozenset({C4, C5, C6}),
    "coreference": frozenset({C2}),
    "duplicate": frozenset({C3}),
    "listed_unknown": frozenset({C1, C5}),
    "listed_misfit": frozenset({C5}),
    "categorical": frozenset({C2, C5}),
    "amount_bound": frozenset({C6}),
    "booking_detail": frozenset({C5}),
    "boolean_answer": frozenset({C2, C5}),
    "reworded_date": frozenset({C1, C2, C5, ConstraintId.S1}),
    "coordinated_negation": frozenset({C2, C5}),
    "hedged_amount": frozenset({C6}),
    "relative_date": frozenset({C1, C2, C5, ConstraintId.S1}),
    "change_of_mind": frozenset({ConstraintId.S1}),
    "restated_detail": frozenset({C2, C5, ConstraintId.S1}),
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
    choices = [c for c in _CHOOSERS[kind](csp, allowed, dialogue) if not _role_ambiguous(dialogue, c[0])]
    if not choices:
        return None
    var, new_text, new_canonical = rng.choice(choices)
    canonical = new_canonical if mode == "annotated" else None
    # an annotation writes a closed slot's value or an amount as its canonical form, not as the words
    surface = new_text if var.kind is VariableKind.SLOT and var.slot_type not in dialogue.ontology else new_canonical
    if raw is not None:
        from csp_check.readers.sgd import from_raw

        faulty = from_raw(
            _rewrite_sgd(raw, var, new_text, surface, canonical), dialogue.ontology, dialogue.source,
            dialogue.slot_descriptions,
        )
    else:
        faulty = _rewrite(dialogue, var, new_text, surface, canonical)
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
    dialogue: Dialogue, kind: FaultKind, mode: Mode, rng: random.Random, kb: KnowledgeBase | None = None,
    raw: dict[str, Any] | None = None,
) -> Trial | None:
    """:func:`inject` a fault, then check the faulty dialogue; ``None`` when there is no place for it."""
    from csp_check.pipeline import check_dialogue

    injected = inject(dialogue, kind, mode, rng, kb, raw)
    if injected is None:
        return None
    faulty, fault = injected
    return Trial(fault=fault, found=frozenset(v.constraint for v in check_dialogue(faulty, kb).violations))



#: (target variable, its new text, its new canonical value as an annotation would write it)
Choice = tuple[Variable, str, str]


def _spanned_counts(csp: CSP, with_ops: bool = True):
    """Each C6 count whose amount is a spanned integer: (its amount variable, the KB count
    ``sure``, ``possible`` under the count's filters, with their bound operators when
    ``with_ops``)."""
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        if c.id is not C6 or c.count_variable is None:
            continue
        var = by_name[c.count_variable]
        if var.span is None or not isinstance(var.value, int):
            continue
        values = [csp.assignment[n] for n in c.variables]
        yield (var, *count_matches(csp.kbs[c.kb or ""], c.columns, values, *((c.ops,) if with_ops else ())))


def _amount(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    out = []
    for var, sure, possible in _spanned_counts(csp, with_ops=False):
        for new in (var.value + d for d in (2, 1, -1, -2, 3)):
            if new >= 0 and not sure <= new <= possible:
                out.append((var, _amount_text(new, var.text or ""), str(new)))
                break
    return out


#: Bound words that make a true count false: (words, holds for KB counts k in [sure, possible]).
_FALSE_BOUNDS = (("more than", lambda n, sure, possible: possible > n), ("over", lambda n, sure, possible: possible > n),
                 ("fewer than", lambda n, sure, possible: sure < n), ("under", lambda n, sure, possible: sure < n))
#: Bound words that keep a true count true ("I found 10" → "at least 10" / "up to 10").
TRUE_BOUNDS = ("at least", "up to", "no more than", "no fewer than")


def _amount_bound(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count the KB confirms said as a bound the KB count breaks: "10" → "more than 10" where
    at most 10 match, "fewer than 10" where at least 10 surely match."""
    out = []
    for var, sure, possible in _spanned_counts(csp):
        if var.amount_op != "=" or var.value < 1:
            continue
        bounds = [w for w, holds in _FALSE_BOUNDS if not holds(var.value, sure, possible)]
        if bounds:
            words = bounds[(var.turn + len(var.text or "")) % len(bounds)]
            new = f"{words} {var.text}"
            out.append((var, new, new))
    return out


#: Words that make a count approximate (:func:`csp_check.language.cues.amount_op` reads them as ``~``).
HEDGES = ("about", "around", "roughly", "approximately", "nearly")


def hedged_beyond(sure: int, possible: int) -> int | None:
    """The amount nearest the KB count ``sure..possible`` whose approximation ("about M": M ±
    :func:`csp_check.language.cues.approx_tolerance`) still misses every count there: the first M above
    ``possible`` whose range starts above it, else the last one below ``sure`` whose range ends
    below it (``None`` when none is 1 or more)."""
    from csp_check.language.cues import approx_tolerance

    m = possible + 1
    while m - approx_tolerance(m) <= possible:
        m += 1
    below = next((k for k in range(sure - 1, 0, -1) if k + approx_tolerance(k) < sure), None)
    return m if m - possible <= 2 * max(1, sure - (below or 0)) or below is None else below


def _hedged_amount(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count the KB confirms ("I found 10 hotels") said as an approximation of an amount
    outside its tolerance ("I found about 14 hotels" where 10 match: 14 ± 4 misses 10;
    :func:`hedged_beyond`), so C6 must fail even with the count read as a range."""
    out = []
    for var, sure, possible in _spanned_counts(csp):
        if var.amount_op != "=":
            continue
        if not sure <= var.value <= possible:
            continue
        new = hedged_beyond(sure, possible)
        if new is not None:
            hedge = HEDGES[(var.turn + var.value) % len(HEDGES)]
            out.append((var, f"{hedge} {_amount_text(new, var.text or '')}", str(new)))
    return out


def approximate_restatement(
    dialogue: Dialogue, raw: dict[str, Any] | None = None, kb: KnowledgeBase | None = None
) -> Dialogue | None:
    """No fault: the first exact count the KB confirms said as an approximation that holds ("I
    found 10 hotels" → "I found about 11 hotels", within the tolerance of 11), text only; a
    checker that reads "about" as exact flags it. ``None`` when the dialogue has no such count."""
    from csp_check.language.cues import approx_tolerance

    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        var = by_name.get(c.count_variable or "")
        if c.id is not C6 or var is None or var.span is None or not isinstance(var.value, int) or var.amount_op != "=":
            continue
        sure, possible = count_matches(csp.kbs[c.kb or ""], c.columns, [csp.assignment[n] for n in c.variables], c.ops)
        new = var.value + 1
        if not sure <= var.value <= possible or new - approx_tolerance(new) > var.value:
            continue
        text = f"{HEDGES[var.turn % len(HEDGES)]} {_amount_text(new, var.text or '')}"
        if raw is not None:
            from csp_check.readers.sgd import from_raw

            return from_raw(_rewrite_sgd(raw, var, text, text, None), dialogue.ontology, dialogue.source,
                            dialogue.slot_descriptions)
        return _rewrite(dialogue, var, text, text, None)
    return None


def _booking_detail(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A detail a booking confirmation informs (not the booking's own date, time, party size or
    total) changed to a value of its slot the booked entity (the turn's one KB result) lacks."""
    out = []
    for var in csp.variables:
        turn = dialogue.turns[var.turn]
        if (var.span is None or var.speaker != "system" or var.role is not ActRole.INFORM or var.kind is not VariableKind.SLOT
                or not any(a.role is ActRole.BOOKED for a in turn.acts)
                or re.search(r"name|price|fee|cost|fare|total|date|time|day|people|size|seats|tickets|number_of", var.slot)):
            continue
        if any(r.call is not None and var.slot in r.call.parameters for r in turn.kb_results):
            continue  # a value the booking was made with ("from Union Station"): the booking's own
        booked = csp.kbs.get(f"turn{var.turn}:{var.domain}") or []
        if len(booked) != 1 or var.slot not in booked[0] or booked[0][var.slot] != csp.assignment[var.name]:
            continue
        for value in _other_values(csp, var):
            rendered = _render(dialogue, var, value) if value != booked[0][var.slot] else None
            if rendered:
                out.append((var, *rendered))
                break
    return out


_MONTH_NAMES = "January February March April May June July August September October November December".split()


def reword_date(value: str, shift: int = 0) -> str | None:
    """An ISO date ``value`` said as "the 9th of March" (``shift`` days later, in the month)."""
    m = re.fullmatch(r"\d{4}-(\d\d)-(\d\d)", value)
    if m is None:
        return None
    month, day = int(m[1]), int(m[2]) + shift
    if not 1 <= day <= 28:
        return None
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"the {day}{suffix} of {_MONTH_NAMES[month - 1]}"


def _reworded_date(csp: CSP, dialogue: Dialogue, shift: int) -> list[Choice]:
    """A date written with its month and day ("March 9th") said in other words as another day
    (``shift`` days later: "the 10th of March"), where a C2, C5 or S1 then holds it to its day."""
    from csp_check.language.normalize import date_key

    out = []
    for var in csp.variables:
        value = csp.assignment[var.name]
        if var.span is None or not isinstance(value, str) or date_key(var.text or "") != value[5:]:
            continue
        text = reword_date(value, shift)
        if text is not None:
            out.append((var, text, f"{value[:8]}{int(value[8:]) + shift:02d}"))
    return out


def relative_day(day: str, today: Any) -> str | None:
    """Words naming ISO ``day`` relative to ``today`` (a ``datetime.date``): "tomorrow", "the
    day after tomorrow", "this Friday", "next Monday", as :func:`csp_check.language.dates.resolve_dates`
    reads them; ``None`` when none of these names it."""
    from csp_check.language.dates import WEEKDAYS, resolve_dates

    from datetime import date

    weekday = WEEKDAYS[date.fromisoformat(day).weekday()].title()
    for words in ("tomorrow", "the day after tomorrow", f"this {weekday}", f"next {weekday}"):
        if [d.isoformat() for d in resolve_dates(words, today)] == [day]:
            return words
    return None


def _relative_date(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A date (said in any words) said relative to the dialogue's today (:func:`csp_check.delexicalize.assignment.dialogue_today`)
    as a day next to it ("March 2nd" / "tomorrow" → "the day after tomorrow", "this Sunday"),
    where a C2, C5 or S1 then holds it to its day (with the annotation changed too: only where
    another annotation records its referent, as for coreference faults, or a C5 fails)."""
    from datetime import date, timedelta

    today = Lexicon.of(dialogue).today
    if today is None:
        return []
    out = []
    for var in csp.variables:
        value = csp.assignment[var.name]
        if var.span is None or not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d\d-\d\d", value):
            continue
        for shift in (1, -1, 2):
            other = (date.fromisoformat(value) + timedelta(days=shift)).isoformat()
            words = relative_day(other, today)
            if words is None or normalize(words) == normalize(var.text or ""):
                continue
            if allowed is None or var.name in allowed or _breaks(csp, var, other, allowed):
                utterance = dialogue.turns[var.turn].utterance
                if var.span is not None and utterance[: var.span.start].lower().endswith("the ") and not (
                        any(v.span is not None and v.turn == var.turn and v.span.end == var.span.start - 4
                            for v in csp.variables)):  # "on the 3rd" → "on this Monday", not "on the this Monday"
                    var = var.model_copy(update={"span": Span(start=var.span.start - 4, end=var.span.end),
                                                 "text": utterance[var.span.start - 4 : var.span.end]})
                out.append((var, words, other))
                break
    return out


def _change_of_mind(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A user's number of a closed numeric slot the belief state records ("a table for 2")
    taken back in the text alone: " Actually, make that 3 people." appended to the turn
    (:func:`csp_check.language.cues.corrected`), while the state and the calls keep 2: S1. The target
    variable's span becomes the empty end of the utterance (the words are added there)."""
    from csp_check.language.cues import measure_spans, unit_after

    recorded = {n for c in csp.constraints if c.id is ConstraintId.S1 for n in c.variables}
    out = []
    for var in csp.variables:
        closed = dialogue.ontology.get(var.slot_type) or []
        value = csp.assignment[var.name]
        if (var.speaker != "user" or var.span is None or var.name not in recorded or not closed
                or not all(v.isdigit() for v in closed) or not str(value).isdigit()):
            continue
        utterance = dialogue.turns[var.turn].utterance.rstrip()
        new = next((v for v in (str(int(value) + 1), str(int(value) - 1)) if v in closed and v != "0"), None)
        if new is None:
            continue
        unit = unit_after(utterance, var.span)
        sentence = f" Actually, make that {new} {unit}." if unit else f" Actually, make it {new}."
        changed = utterance + ("" if utterance.endswith((".", "!", "?")) else ".") + sentence
        spans = measure_spans(changed, var.slot, [], dialogue.slot_descriptions.get(var.slot_type, ""))
        if not spans or changed[spans[-1].start : spans[-1].end] != new:
            continue  # the added words do not read as the slot's number
        end = len(dialogue.turns[var.turn].utterance)
        at_end = var.model_copy(update={"span": Span(start=end, end=end), "text": ""})
        out.append((at_end, changed[end:], new))
    return out


def _restatement_places(dialogue: Dialogue) -> list[tuple[Variable, list[str]]]:
    """(a variable standing for the empty end of a system booking turn, the closed values of its
    slot) for each party-size slot (closed numeric, people) the state in force records that a
    turn confirming or reporting a booking does not state: where a restated detail can be added."""
    from csp_check.language.cues import _unit_words, measure_spans

    out = []
    for turn in dialogue.turns:
        if turn.speaker != "system" or not turn.index:
            continue
        state = dialogue.turns[turn.index - 1].state
        for domain in dict.fromkeys(a.domain for a in turn.acts if a.role in (ActRole.CONFIRM, ActRole.BOOKED)):
            for slot, values in state.get(domain, {}).items():
                closed = dialogue.ontology.get(f"{domain}.{slot}") or []
                if (len(values or []) != 1 or not closed or not all(v.isdigit() for v in closed)
                        or not values[0].isdigit() or not _unit_words(slot)[1]
                        or any(a.domain == domain and a.slot == slot for a in turn.acts)
                        or measure_spans(turn.utterance, slot)):
                    continue
                end = len(turn.utterance)
                var = Variable(name="", turn=turn.index, speaker="system", kind=VariableKind.SLOT, domain=domain, slot=slot,
                               role=ActRole.CONFIRM, span=Span(start=end, end=end), text="", value=values[0])
                out.append((var, closed))
    return out


def _restated_detail(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A system turn confirming or reporting a booking restates the party size in words no act
    annotates (" That is for 4 people." added where the state and the booking say 2): text only
    (``allowed`` set: annotated mode, no place). Must trip C2 with the user's mention (or C5 /
    S1). :func:`faithful_restatement` is the no-fault twin."""
    if allowed is not None:
        return []
    out = []
    for var, closed in _restatement_places(dialogue):
        n = int(str(var.value))
        new = next((str(m) for m in (n + 2, n + 1, n - 1) if str(m) in closed and m > 0), None)
        if new is not None:
            out.append((var, f" That is for {new} people.", new))
    return out


def faithful_restatement(dialogue: Dialogue, raw: dict[str, Any] | None = None) -> Dialogue | None:
    """No fault: the first place of :func:`_restated_detail` with the party size the state
    records (" That is for 2 people."), text only; ``None`` when there is none."""
    places = _restatement_places(dialogue)
    if not places:
        return None
    var, _ = places[0]
    text = f" That is for {var.value} people."
    if raw is not None:
        from csp_check.readers.sgd import from_raw

        return from_raw(_rewrite_sgd(raw, var, text, text, None), dialogue.ontology, dialogue.source,
                        dialogue.slot_descriptions)
    return _rewrite(dialogue, var, text, text, None)


def _boolean_answer(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A boolean stated by a short answer at the start of a system turn (``cues.answer_span``:
    "No, they do not.") answered the other way ("Yes, they do."), where a C5 or C2 then fails."""
    out = []
    for var in csp.variables:
        said = csp.assignment[var.name]
        if (var.span is None or var.span.start != 0 or var.speaker != "system" or said not in BOOLEAN
                or boolean_span(dialogue.turns[var.turn].utterance, var.slot) is not None):
            continue
        text, value = ("Yes, they do", "True") if said == "false" else ("No, they do not", "False")
        if read_boolean(text) != said and _breaks(csp, var, value.lower(), allowed):
            out.append((var, text, value))
    return out


#: The verb that gives an amenity ("has free wifi", "offers outdoor seating", "with wifi").
_HAVING = re.compile(r"(?i)\b(has|have|offers?|includes?|provides?|features?|with)\s+(?:(?:free|complimentary)\s+)?$")


def negated_coordination(utterance: str, span: Span, other: str, form: int) -> tuple[Span, str] | None:
    """An amenity the text affirms ("it has free wifi") said as the second noun of a negated
    coordination: the span from the having verb to the amenity's words becomes one of four
    forms (``form`` mod 4), with ``other`` as the first noun: "does not have {other} and
    wifi", "has no {other} or wifi", "doesn't offer {other} nor wifi", "has neither {other}
    nor wifi" ("with": "with no {other} or wifi", "without {other} and wifi"). Returns (the
    span replaced, its new words); ``None`` when no having verb stands right before the words
    or they carry a negation already. The negation then scopes over both nouns (spec §9)."""
    words = utterance[span.start : span.end]
    if read_boolean(words) == "false":
        return None
    verb = _HAVING.search(utterance, 0, span.start)
    if verb is None:
        return None
    cue = re.sub(r"(?i)^(?:free|complimentary)\s+", "", words)
    head = verb.group(1).lower()
    if head == "with":
        new = (f"with no {other} or {cue}", f"without {other} and {cue}")[form % 2]
    else:
        plural = head in ("have", "offer", "include", "provide", "feature")
        do, has = ("do", "have") if plural else ("does", "has")
        new = (f"{do} not have {other} and {cue}", f"{has} no {other} or {cue}", f"{do}n't offer {other} nor {cue}",
               f"{has} neither {other} nor {cue}")[form % 4]
    if verb.group(1)[0].isupper():
        new = new[0].upper() + new[1:]
    return Span(start=verb.start(), end=span.end), new


def _coordinated_negation(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A True boolean the system affirms ("The hotel has wifi") said as the second noun of a
    negated coordination ("The hotel does not have free parking and wifi"; :func:`negated_coordination`),
    where a C5 or C2 then fails. The target variable's span is widened to the verb."""
    out = []
    for var in csp.variables:
        said = csp.assignment[var.name]
        if (var.span is None or var.speaker != "system" or said != "true" or var.kind is not VariableKind.SLOT
                or var.role not in SYSTEM_CLAIMS or not _breaks(csp, var, "false", allowed)):
            continue
        utterance = dialogue.turns[var.turn].utterance
        other = "free breakfast" if "parking" in (var.text or "").lower() else "free parking"
        found = negated_coordination(utterance, var.span, other, var.turn + var.span.start)
        if found is None:
            continue
        span, new = found
        if any(v.turn == var.turn and v is not var and v.span is not None and v.span.start < span.end
               and span.start < v.span.end for v in csp.variables):
            continue  # another variable's words inside the widened span
        wide = var.model_copy(update={"span": span, "text": utterance[span.start : span.end]})
        out.append((wide, new, "False"))
    return out


def _kb_swap(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    out = []
    for var, constraint, i in _claims(csp):
        found = _misfit(csp, constraint, i, _other_values(csp, var), lambda value, var=var: _render(dialogue, var, value))
        if found is not None:
            out.append((var, *found))
    return out


def _misfit(csp: CSP, constraint: Constraint, i: int, candidates: Any, render: Any) -> Any:
    """``render(value)`` of the first of ``candidates`` that, put at position ``i`` of a KB claim
    (C5 ``constraint``), makes it match no entity; ``None`` when none does (or none renders).
    Shared by the KB-swap, listed-misfit and raw-text fault generators."""
    entities = csp.kbs[constraint.kb or ""]
    values = [csp.assignment[n] for n in constraint.variables]
    for value in candidates:
        values[i] = value
        rendered = render(value)
        if rendered and not any(entity_match(e, constraint.columns, values)[1] for e in entities):
            return rendered
    return None


def _coreference(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not C2:
            continue
        for name in c.variables:
            var = by_name[name]
            if var.span is None or (allowed is not None and name not in allowed) or name in c.alternatives:
                continue  # a user's "10:15 or 9:15": another value there is one more alternative, no fault
            for value in _other_values(csp, var):
                rendered = _render(dialogue, var, value)
                if rendered:
                    out.append((var, *rendered))
                    break
    return out


def _duplicate(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is C3:
            first, second = by_name[c.variables[0]], by_name[c.variables[-1]]
            out.append((second, first.text or "", str(first.value)))
    return out


def _listed_unknown(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """One of several listed values becomes a name no KB entity and no annotation has: the
    first word of one known value with the last word of another ("Dogman" + "High Life" →
    "Dogman Life")."""
    known = Lexicon.of(dialogue)
    out = []
    for var in _listed(csp):
        values = csp.domains.get(var.slot_type, [])
        own = (var.text or "").split()
        for other in values:
            words = other.split()
            if not own or not words:
                continue
            name = f"{own[0]} {words[-1].title()}"
            if normalize(name) not in values and not known.lookup(var.slot_type, name):
                out.append((var, name, name))
                break
    return out


def _listed_misfit(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """One of several listed values becomes another KB entity's value that no entity has
    together with what the user asked for (the C5 of that listed value fails)."""
    listed = {v.name for v in _listed(csp)}
    out = []
    for var, constraint, i in _claims(csp):
        if var.name not in listed or len(constraint.variables) < 2:
            continue  # a listed value checked without the user's request cannot misfit it
        entities = csp.kbs[constraint.kb or ""]
        column = constraint.columns[i]
        in_kb = sorted({e[column] for e in entities if column in e})
        same_turn = {csp.assignment[v.name] for v in csp.variables if v.turn == var.turn and v.slot_type == var.slot_type}
        candidates = [value for value in in_kb if value not in same_turn]
        found = _misfit(csp, constraint, i, candidates, lambda value, var=var: _render(dialogue, var, value))
        if found is not None:
            out.append((var, *found))
    return out


def _categorical(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A categorical value's words state another value of its closed set (a boolean's polarity
    flipped) where a C5 or C2 containing it then fails."""
    out = []
    for var in csp.variables:
        closed = dialogue.ontology.get(var.slot_type)
        if var.span is None or not closed or var.kind is not VariableKind.SLOT:
            continue
        said = csp.assignment[var.name]
        if said in BOOLEAN:
            flipped = "false" if said == "true" else "true"
            text = _flip(var.text or "", str(said))
            options = [(text, flipped.title())] if text and _reads_as(dialogue, var, text, flipped) else []
        else:
            options = [(v, v) for v in closed if normalize(v) != said and not v.isdigit() and v != "None"]
        for text, canonical in options:
            if _breaks(csp, var, normalize(canonical), allowed):
                out.append((var, text, canonical))
                break
    return out


_CHOOSERS = {
    "amount_bound": _amount_bound, "booking_detail": _booking_detail, "boolean_answer": _boolean_answer,
    "reworded_date": lambda csp, allowed, dialogue: _reworded_date(csp, dialogue, shift=1),
    "coordinated_negation": _coordinated_negation, "hedged_amount": _hedged_amount, "relative_date": _relative_date,
    "change_of_mind": _change_of_mind, "restated_detail": _restated_detail,
    "amount": _amount, "kb_swap": _kb_swap, "coreference": _coreference, "duplicate": _duplicate,
    "listed_unknown": _listed_unknown, "listed_misfit": _listed_misfit, "categorical": _categorical,
}


def _role_ambiguous(dialogue: Dialogue, var: Variable) -> bool:
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


def _claims(csp: CSP):
    """(variable, C5 constraint, its index there) for every explicit system claim of a C5."""
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        if c.id is not C5:
            continue
        for i, name in enumerate(c.variables):
            var = by_name[name]
            if var.span is not None and var.speaker == "system" and var.role in SYSTEM_CLAIMS and var.turn == c.turn:
                yield var, c, i


def _listed(csp: CSP) -> list[Variable]:
    """System offer / inform variables with a span that share their utterance and slot type
    with another one: the entities of a list ("Dogman, Hackers or High Life")."""
    groups: dict[tuple[int, str], list[Variable]] = {}
    for v in csp.variables:
        if v.span is not None and v.kind is VariableKind.SLOT and v.speaker == "system" and v.role in SYSTEM_CLAIMS:
            groups.setdefault((v.turn, v.slot_type), []).append(v)
    return [v for vs in groups.values() if len(vs) > 1 for v in vs]


def _breaks(csp: CSP, var: Variable, value: str, allowed: set[str] | None) -> bool:
    """Whether ``var`` taking ``value`` breaks a C5 or (where its referent is kept) a C2."""
    assignment = dict(csp.assignment)
    assignment[var.name] = value
    for c in csp.constraints:
        if var.name not in c.variables or c.id not in (C2, C5):
            continue
        if c.id is C2 and allowed is not None and var.name not in allowed:
            continue
        if c.id is C5 and var.speaker != "system":
            continue
        if not satisfied(c, assignment, csp):
            return True
    return False


def _reads_as(dialogue: Dialogue, var: Variable, text: str, value: str) -> bool:
    """Whether the utterance with ``text`` in place of ``var``'s words states boolean ``value``
    (the words around can still negate: "no outdoor seating nor …" → "outdoor seating nor …")."""
    assert var.span is not None
    utterance = dialogue.turns[var.turn].utterance
    changed = utterance[: var.span.start] + text + utterance[var.span.end :]
    span = boolean_span(changed, var.slot)
    return span is not None and read_boolean(changed[span.start : span.end]) == value


def _flip(text: str, value: str) -> str | None:
    """Words stating the other polarity of a boolean: "free" → "not free", "no live music" →
    "live music", "non-refundable" → "refundable"; ``None`` when the result does not read so."""
    if value == "true":
        new = "not " + text
    else:
        new = re.sub(r"\b(?:not|no|never)\s+", "", text, flags=re.I)
        new = re.sub(r"n't\b", "", new)
        new = re.sub(r"\bnon[-\s]?|\bun(?=\w+(?:able|ed)\b)", "", new, flags=re.I)
        new = re.sub(r"\bwithout\b", "with", new, flags=re.I)
    return new if new.strip() and read_boolean(new) != value else None


def _render(dialogue: Dialogue, var: Variable, value: str) -> tuple[str, str] | None:
    """(words, canonical value) that state ``value`` in place of ``var``'s words: a boolean's
    polarity flipped (:func:`_flip`), a closed slot's value as its schema spells it (a number
    as a word where the text had a word), any other value as it is; ``None`` when it cannot be
    written so."""
    if value in BOOLEAN:
        text = _flip(var.text or "", "false" if value == "true" else "true")
        return (text, value.title()) if text and _reads_as(dialogue, var, text, value) else None
    closed = dialogue.ontology.get(var.slot_type)
    if closed:
        spelled = next((v for v in closed if normalize(v) == value), value)
        if spelled.isdigit() and not (var.text or "").strip().isdigit():
            return _amount_text(int(spelled), var.text or ""), spelled
        return spelled, spelled
    return value, value


def _other_values(csp: CSP, var: Variable) -> list[str]:
    """Values of ``var``'s slot type other than its own, in a stable order."""
    own = csp.assignment[var.name]
    return [v for v in csp.domains.get(var.slot_type, []) if v != own and v != "dontcare"]


def _amount_text(amount: int, old: str) -> str:
    if old.strip().isdigit():
        return str(amount)
    words = [w for w, n in NUMBER_WORDS.items() if n == amount and " " not in w and w not in ("no", "none", "single")]
    return words[0] if words else str(amount)


def _rewrite(
    dialogue: Dialogue, var: Variable, new_text: str, new_value: str, new_canonical: str | None
) -> Dialogue:
    """Replace ``var``'s span with ``new_text``; spans after it shift, spans on it are
    re-aligned to the new words, acts without a span keep none. With ``new_canonical``
    (annotated mode) the acts that gave ``var`` take the new value too (``new_value`` as the
    act's surface value)."""
    assert var.span is not None
    faulty = dialogue.model_copy(deep=True)
    turn = faulty.turns[var.turn]
    start, end = var.span.start, var.span.end
    delta = len(new_text) - (end - start)
    turn.utterance = turn.utterance[:start] + new_text + turn.utterance[end:]
    changed = False
    for act in turn.acts:
        on_target = act.span == var.span or (
            act.span is not None and start <= act.span.start and act.span.end <= end and act.slot == var.slot
        )  # a span inside a widened edit ("the 3rd" over "3rd") is on the new words
        if on_target:
            act.span = Span(start=start, end=start + len(new_text))
        elif act.span is not None and act.span.start >= end:
            act.span = Span(start=act.span.start + delta, end=act.span.end + delta)
        elif act.span is not None and act.span.start <= start and act.span.end >= end and not start == end == act.span.end:
            act.span = Span(start=act.span.start, end=act.span.end + delta)
        mine = act.domain == var.domain and act.slot == var.slot and (
            on_target or (act.span is None and _same_value(act.canonical or act.value, var))
        )
        if new_canonical is not None and mine and (on_target or not changed):
            act.value, act.canonical = new_value, new_canonical
            changed = changed or not on_target
    return faulty


def _rewrite_sgd(
    raw: dict[str, Any], var: Variable, new_text: str, new_value: str, new_canonical: str | None
) -> dict[str, Any]:
    """:func:`_rewrite` on an SGD dialogue's JSON: the utterance, every frame's ``slots``
    offsets, and (annotated) the first value of each act of ``var``'s slot that names it."""
    assert var.span is not None
    raw = copy.deepcopy(raw)
    turn = raw["turns"][var.turn]
    start, end = var.span.start, var.span.end
    delta = len(new_text) - (end - start)
    turn["utterance"] = turn["utterance"][:start] + new_text + turn["utterance"][end:]
    for frame in turn.get("frames") or []:
        for slot in frame.get("slots") or []:
            if slot["start"] >= end:
                slot["start"] += delta
                slot["exclusive_end"] += delta
            elif slot["start"] <= start and slot["exclusive_end"] >= end and not start == end == slot["exclusive_end"]:
                slot["exclusive_end"] += delta  # (words added right after a span are not in it)
            elif slot["start"] >= start and slot["exclusive_end"] <= end:  # inside a widened edit: its new words
                slot["start"], slot["exclusive_end"] = start, start + len(new_text)
        if new_canonical is None or frame.get("service") != var.domain:
            continue
        for action in frame.get("actions") or []:
            slot_name = "count" if action["act"] == "INFORM_COUNT" else action.get("slot")
            if slot_name != var.slot:
                continue
            values = action.get("values") or []
            canonical = action.get("canonical_values") or list(values)
            for i, (value, canon) in enumerate(zip(values, canonical)):
                if _same_value(canon, var) or _same_value(value, var):
                    values[i], canonical[i] = new_value, new_canonical
                    action["values"], action["canonical_values"] = values, canonical
                    break
    return raw


def _same_value(value: str | None, var: Variable) -> bool:
    if value is None:
        return False
    if var.kind is VariableKind.AMOUNT:
        return normalize(value) == str(var.value)
    return normalize(value) == var.value


# --- raw text (no acts, no spans): what the pytest plugin sees for generated data -------------

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
    out = []
    for var, sure, possible in _spanned_counts(csp, with_ops=False):
        if var.value < 2:
            continue
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
    from csp_check.annotate.lexicon import ENTITY_COLUMNS, FLAG_WORDS

    return _raw_misfits(csp, kb, _raw_claims(csp, None, set(ENTITY_COLUMNS) | set(FLAG_WORDS) | {"address", "phone", "postcode"}))


def _raw_name_swap(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    from csp_check.annotate.lexicon import ENTITY_COLUMNS

    return _raw_misfits(csp, kb, _raw_claims(csp, set(ENTITY_COLUMNS), set()))


def _raw_misfits(
    csp: CSP, kb: KnowledgeBase, claims: list[tuple[Constraint, int, Variable]]
) -> list[tuple[Variable, str]]:
    """For each claimed variable (``(constraint, position, variable)``), the first KB value of its
    slot that makes its claim match no entity: the fault's new value."""
    out = []
    for c, i, var in claims:
        new = _misfit(csp, c, i, _raw_values(kb, var), lambda value: value)
        if new is not None:
            out.append((var, new))
    return out


def _raw_duplicate(csp: CSP, kb: KnowledgeBase) -> list[tuple[Variable, str]]:
    """In a system sentence listing three or more entities ("A, B or C"), one name becomes another's."""
    from csp_check.annotate.lexicon import ENTITY_COLUMNS

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
    from csp_check.annotate.annotator import annotator_for
    from csp_check.annotate.lexicon import FLAG_VALUES

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


_RAW_CHOOSERS = {"amount": _raw_amount, "attribute": _raw_attribute, "name_swap": _raw_name_swap,
                 "duplicate": _raw_duplicate}  # fmt: skip


# -- annotation faults (S1 and role-aware slots) -------------------------------------------------

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

    Returns the faulty dialogue and a :class:`Fault` (``mode="annotated"``; ``expected`` from
    :data:`ANNOTATION_EXPECTED`). ``kb`` is used to build the CSP when the dialogue has no results.
    """
    from csp_check.families.annotation_common import recorded_forms, same_meaning
    from csp_check.language.roles import PAIRS, text_role

    delex = delexicalize(dialogue)
    csp = build_csp(dialogue, delex, kb)
    lexicon = Lexicon.of(dialogue)
    faulty = dialogue.model_copy(deep=True)
    if kind in ("state_omission", "only_slot_omission"):
        from csp_check.families.annotation_common import informs

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
        _drop_record(faulty, var.domain, var.slot, var.turn)
        return faulty, Fault.model_construct(
            kind=kind, mode="annotated", dialogue_id=dialogue.id, turn=var.turn, variable=var.name,
            old_text=var.text or "", new_text="", expected=ANNOTATION_EXPECTED[kind],
        )
    if kind in ("state_value", "call_value"):
        state = kind == "state_value"
        s1 = [c for c in csp.constraints if c.id is ConstraintId.S1 and (c.record or "").startswith("belief state") == state]
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
