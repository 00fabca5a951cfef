"""Negations the reading must follow (spec §9).

- Negated coordination (``coordinated_negation``: C5 or C2): a True boolean the system affirms
  ("it has wifi") said as the second noun of a negated coordination ("it does not have free
  parking and wifi", "has no parking or wifi"), where the negation scopes over both nouns.
- A negated unit (``negated_unit``: C5 or C2): a closed numeric value of 1 or more the system
  states with its unit ("has 1 layover") said by negating the unit ("has no layovers", "does not
  have any layovers", "with no layovers", "without any layovers"), which reads 0
  (:mod:`csp_check.language.negated_units`). Its no-fault twin (:func:`negated_zero_twin`): a
  stated 0 ("has 0 layovers") said so ("has no layovers")."""

from __future__ import annotations

import re
from typing import Any

from csp_check.build.builder import SYSTEM_CLAIMS, build_csp
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.faults.common import breaks
from csp_check.faults.model import Choice
from csp_check.faults.rewrite import rewritten
from csp_check.faults.words import FREE, HAVING, OTHER_AMENITY, OTHER_THAN_PARKING, PLURAL_HAVING
from csp_check.language.cues import WORD, read_boolean, unit_words
from csp_check.models import CSP, Dialogue, KnowledgeBase, Span, Variable, VariableKind


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
    verb = HAVING.search(utterance, 0, span.start)
    if verb is None:
        return None
    cue = FREE.sub("", words)
    head = verb.group(1).lower()
    if head == "with":
        new = (f"with no {other} or {cue}", f"without {other} and {cue}")[form % 2]
    else:
        plural = head in PLURAL_HAVING
        do, has = ("do", "have") if plural else ("does", "has")
        new = (f"{do} not have {other} and {cue}", f"{has} no {other} or {cue}", f"{do}n't offer {other} nor {cue}",
               f"{has} neither {other} nor {cue}")[form % 4]
    if verb.group(1)[0].isupper():
        new = new[0].upper() + new[1:]
    return Span(start=verb.start(), end=span.end), new


def coordinated_negation_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A True boolean the system affirms ("The hotel has wifi") said as the second noun of a
    negated coordination ("The hotel does not have free parking and wifi"; :func:`negated_coordination`),
    where a C5 or C2 then fails. The target variable's span is widened to the verb."""
    out = []
    for var in csp.variables:
        said = csp.assignment[var.name]
        if (var.span is None or var.speaker != "system" or said != "true" or var.kind is not VariableKind.SLOT
                or var.role not in SYSTEM_CLAIMS or not breaks(csp, var, "false", allowed)):
            continue
        utterance = dialogue.turns[var.turn].utterance
        other = OTHER_THAN_PARKING if "parking" in (var.text or "").lower() else OTHER_AMENITY
        found = negated_coordination(utterance, var.span, other, var.turn + var.span.start)
        if found is None:
            continue
        span, new = found
        if _covers_another(csp, var, span):
            continue
        wide = var.model_copy(update={"span": span, "text": utterance[span.start : span.end]})
        out.append((wide, new, "False"))
    return out


def _covers_another(csp: CSP, var: Variable, span: Span) -> bool:
    """Whether the widened ``span`` of ``var``'s turn takes in another variable's words."""
    return any(v.turn == var.turn and v is not var and v.span is not None and v.span.start < span.end
               and span.start < v.span.end for v in csp.variables)


def negated_unit(utterance: str, span: Span, form: int) -> tuple[Span, str] | None:
    """The number at ``span`` with its unit noun after it ("1 layover") said by negating the
    unit, in one of two forms (``form`` mod 2) by the word before it: "with" → "with no
    layovers" / "without any layovers"; "has" / "have" → "has no layovers" / "does not have any
    layovers"; otherwise "no layovers". Returns (the span replaced, its new words); ``None``
    when no unit noun follows."""
    noun = WORD.match(utterance.lower(), span.end)
    if noun is None:
        return None
    unit = noun.group(1).strip(".'")
    plural = unit if unit.endswith("s") else f"{unit}s"
    end = noun.start(1) + len(unit)
    before = re.search(r"\b(with|has|have)\s+$", utterance[: span.start], re.I)
    if before is None:
        return Span(start=span.start, end=end), f"no {plural}"
    head = before.group(1).lower()
    if head == "with":
        new = (f"with no {plural}", f"without any {plural}")[form % 2]
    else:
        new = (f"{head} no {plural}", f"{'does' if head == 'has' else 'do'} not have any {plural}")[form % 2]
    return Span(start=before.start(), end=end), new


def _unit_places(csp: CSP, dialogue: Dialogue, zero: bool) -> list[tuple[Variable, Span, str]]:
    """System claims of a closed numeric slot whose values hold 0, said as a number before a
    unit noun of the slot ("1 layover"): those saying 0 (``zero``) or not; each with the span
    its negation replaces and the new words (:func:`negated_unit`)."""
    out = []
    for var in csp.variables:
        said = str(csp.assignment.get(var.name))
        closed = dialogue.ontology.get(var.slot_type) or []
        if (var.span is None or var.speaker != "system" or var.kind is not VariableKind.SLOT or var.role not in SYSTEM_CLAIMS
                or "0" not in closed or not said.isdigit() or (said == "0") != zero):
            continue
        utterance = dialogue.turns[var.turn].utterance
        stems, people = unit_words(var.slot, dialogue.slot_descriptions.get(var.slot_type, ""))
        noun = WORD.match(utterance.lower(), var.span.end)
        unit = noun.group(1).strip(".'") if noun else ""
        if people or not unit or (unit[:-1] if unit.endswith("s") and len(unit) > 3 else unit) not in stems:
            continue
        found = negated_unit(utterance, var.span, var.turn + var.span.start)
        if found is None:
            continue
        span, new = found
        if _covers_another(csp, var, span):
            continue
        out.append((var.model_copy(update={"span": span, "text": utterance[span.start : span.end]}), span, new))
    return out


def negated_unit_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A number of 1 or more the system states with its unit ("has 1 layover") said by negating
    the unit ("has no layovers": 0, :func:`negated_unit`), where a C5 or C2 then fails."""
    return [(wide, new, "0") for wide, _, new in _unit_places(csp, dialogue, zero=False)
            if breaks(csp, next(v for v in csp.variables if v.name == wide.name), "0", allowed)]


def negated_zero_twin(dialogue: Dialogue, raw: dict[str, Any] | None = None, kb: KnowledgeBase | None = None,
                      ) -> Dialogue | None:
    """No fault: the first 0 the system states with its unit ("has 0 layovers") said by negating
    the unit ("has no layovers", text only); ``None`` when the dialogue has none."""
    csp = build_csp(dialogue, delexicalize(dialogue), kb)
    for wide, _, new in _unit_places(csp, dialogue, zero=True):
        return rewritten(dialogue, wide, new, "0", None, raw)
    return None
