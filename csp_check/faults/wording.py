"""How a fault generator writes a value in place of a variable's words: a boolean's polarity
flipped, a closed slot's value as its schema spells it, an amount as a digit or a word."""

from __future__ import annotations

from csp_check.faults.words import CONTRACTED_NOT, NEGATING_PREFIX, NEGATOR, NOT_COUNT_WORDS, WITHOUT
from csp_check.language.cues import BOOLEAN, boolean_span, read_boolean
from csp_check.language.normalize import NUMBER_WORDS, normalize
from csp_check.models import Dialogue, Variable


def amount_text(amount: int, old: str) -> str:
    """``amount`` written as ``old`` wrote its number: digits for digits, else a number word
    (digits when no single word names it)."""
    if old.strip().isdigit():
        return str(amount)
    words = [w for w, n in NUMBER_WORDS.items() if n == amount and " " not in w and w not in NOT_COUNT_WORDS]
    return words[0] if words else str(amount)


def flip(text: str, value: str) -> str | None:
    """Words stating the other polarity of a boolean: "free" → "not free", "no live music" →
    "live music", "non-refundable" → "refundable"; ``None`` when the result does not read so."""
    if value == "true":
        new = "not " + text
    else:
        new = NEGATOR.sub("", text)
        new = CONTRACTED_NOT.sub("", new)
        new = NEGATING_PREFIX.sub("", new)
        new = WITHOUT.sub("with", new)
    return new if new.strip() and read_boolean(new) != value else None


def reads_as(dialogue: Dialogue, var: Variable, text: str, value: str) -> bool:
    """Whether the utterance with ``text`` in place of ``var``'s words states boolean ``value``
    (the words around can still negate: "no outdoor seating nor …" → "outdoor seating nor …")."""
    assert var.span is not None
    utterance = dialogue.turns[var.turn].utterance
    changed = utterance[: var.span.start] + text + utterance[var.span.end :]
    span = boolean_span(changed, var.slot)
    return span is not None and read_boolean(changed[span.start : span.end]) == value


def render(dialogue: Dialogue, var: Variable, value: str) -> tuple[str, str] | None:
    """(words, canonical value) that state ``value`` in place of ``var``'s words: a boolean's
    polarity flipped (:func:`flip`), a closed slot's value as its schema spells it (a number
    as a word where the text had a word), any other value as it is; ``None`` when it cannot be
    written so."""
    if value in BOOLEAN:
        text = flip(var.text or "", "false" if value == "true" else "true")
        return (text, value.title()) if text and reads_as(dialogue, var, text, value) else None
    closed = dialogue.ontology.get(var.slot_type)
    if closed:
        spelled = next((v for v in closed if normalize(v) == value), value)
        if spelled.isdigit() and not (var.text or "").strip().isdigit():
            return amount_text(int(spelled), var.text or ""), spelled
        return spelled, spelled
    return value, value
