"""Write a fault into a dialogue: a variable's words replaced, the spans re-aligned, and (in
annotated mode) the acts' values changed with them — on the read :class:`Dialogue`, or on an SGD
dialogue's JSON that the reader then reads again (so its alignment of acts and spans is under test
too)."""

from __future__ import annotations

import copy
from typing import Any

from csp_check.language.normalize import normalize
from csp_check.models import Dialogue, Span, Variable, VariableKind
from csp_check.readers.sgd import from_raw


def rewritten(
    dialogue: Dialogue, var: Variable, new_text: str, new_value: str, new_canonical: str | None,
    raw: dict[str, Any] | None = None,
) -> Dialogue:
    """``dialogue`` with ``var``'s words replaced (:func:`rewrite`); given the dialogue's SGD JSON
    ``raw``, the edit is made there (:func:`rewrite_sgd`) and read again with
    :func:`csp_check.readers.sgd.from_raw`."""
    if raw is not None:
        return from_raw(rewrite_sgd(raw, var, new_text, new_value, new_canonical), dialogue.ontology, dialogue.source,
                        dialogue.slot_descriptions)
    return rewrite(dialogue, var, new_text, new_value, new_canonical)


def rewrite(
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
            on_target or (act.span is None and same_value(act.canonical or act.value, var))
        )
        if new_canonical is not None and mine and (on_target or not changed):
            act.value, act.canonical = new_value, new_canonical
            changed = changed or not on_target
    return faulty


def reword_span(raw: dict[str, Any], ti: int, span: dict[str, Any], new: str) -> dict[str, Any]:
    """A copy of the SGD dialogue JSON ``raw`` with ``new`` over the slot span ``span``
    (``start`` / ``exclusive_end``) of turn ``ti``: the text only, acts untouched; the span itself
    takes ``new``'s length, later spans of the turn are shifted."""
    out = copy.deepcopy(raw)
    turn = out["turns"][ti]
    start, end = span["start"], span["exclusive_end"]
    delta = len(new) - (end - start)
    turn["utterance"] = turn["utterance"][:start] + new + turn["utterance"][end:]
    for frame in turn.get("frames") or []:
        for s in frame.get("slots") or []:
            if s["start"] >= end:
                s["start"] += delta
                s["exclusive_end"] += delta
            elif s["start"] == start and s["exclusive_end"] == end:
                s["exclusive_end"] = start + len(new)
    return out


def rewrite_sgd(
    raw: dict[str, Any], var: Variable, new_text: str, new_value: str, new_canonical: str | None
) -> dict[str, Any]:
    """:func:`rewrite` on an SGD dialogue's JSON: the utterance, every frame's ``slots``
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
                if same_value(canon, var) or same_value(value, var):
                    values[i], canonical[i] = new_value, new_canonical
                    action["values"], action["canonical_values"] = values, canonical
                    break
    return raw


def same_value(value: str | None, var: Variable) -> bool:
    """Whether an act's ``value`` is ``var``'s value (an amount compared as its digits)."""
    if value is None:
        return False
    if var.kind is VariableKind.AMOUNT:
        return normalize(value) == str(var.value)
    return normalize(value) == var.value
