"""Delexicalizer: annotated dialogue → variables (paper §3.1, spec §1).

Every act value that names a slot value or an amount of KB instances becomes a
:class:`~csp_check.models.Variable`. Where the act has no span, the value is looked for in
the utterance by normalised matching (:func:`locate`); if it is not written there the
variable is *implicit* (``span=None``) and counted in ``DelexicalizedDialogue.implicit``.
One span gives one variable even when several acts annotate it.

Which acts give variables: every role except ``request`` without a value and ``other``;
act values of the pseudo-slot ``intent`` are not domain values and are skipped. An amount
whose text is not a number ("several") gives no amount variable (the constraint builder
still reads the act as "at least one instance").
"""

from __future__ import annotations

import re
from functools import lru_cache

from csp_check.models import ActRole, DelexicalizedDialogue, Dialogue, DialogueAct, Span, Variable, VariableKind
from csp_check.normalize import fold_aligned, normalize, parse_amount

VALUE_ROLES = frozenset(
    {ActRole.INFORM, ActRole.OFFER, ActRole.CONFIRM, ActRole.COUNT, ActRole.NO_RESULT, ActRole.BOOKED,
     ActRole.FAILED, ActRole.REQUEST}
)
SKIPPED_SLOTS = frozenset({"", "intent", "none"})


def delexicalize(dialogue: Dialogue) -> DelexicalizedDialogue:
    """Variables of ``dialogue`` in order of appearance (x1, x2, …) and its delexicalized text.

    Returns a :class:`DelexicalizedDialogue` whose ``turns`` replace each explicit variable's
    span with ``[xN]``. Never raises on well-formed :class:`Dialogue` input.
    """
    variables: list[Variable] = []
    implicit = located = 0
    for turn in dialogue.turns:
        taken: dict[tuple[int, int], Variable] = {}
        pending: list[tuple[Span | None, DialogueAct, bool]] = []
        acts = [a for a in turn.acts if a.role in VALUE_ROLES and a.value is not None and a.slot not in SKIPPED_SLOTS]
        for act in sorted(acts, key=lambda a: a.span is None):  # annotated spans first
            span, found = act.span, False
            if span is None:
                span = locate(turn.utterance, act, avoid=[s for s, _, _ in pending if s is not None])
                found = span is not None
                if span is None:  # written once but annotated twice (Inform + Recommend): one variable
                    span = _same_mention(act, pending)
            pending.append((span, act, found))
        turn_vars: list[Variable] = []
        for span, act, found in pending:
            key = (span.start, span.end) if span is not None else None
            if key is not None and key in taken:
                continue
            var = _variable(turn.index, turn.speaker, act, span, turn.utterance)
            if var is None:
                continue
            implicit += span is None
            located += found
            if key is not None:
                taken[key] = var
            turn_vars.append(var)
        turn_vars.sort(key=lambda v: (v.span is None, v.span.start if v.span else 0))
        variables.extend(turn_vars)
    by_turn: dict[int, list[Variable]] = {}  # one pass: linear in turns and variables (issue 11)
    for i, var in enumerate(variables, 1):
        var.name = f"x{i}"
        by_turn.setdefault(var.turn, []).append(var)
    return DelexicalizedDialogue(
        dialogue_id=dialogue.id,
        source=dialogue.source,
        variables=variables,
        turns=[_masked(t.utterance, by_turn.get(t.index, [])) for t in dialogue.turns],
        speakers=[t.speaker for t in dialogue.turns],
        implicit=implicit,
        located=located,
    )


def _same_mention(act: DialogueAct, pending: list[tuple[Span | None, DialogueAct, bool]]) -> Span | None:
    """The span already given to another act of the turn with the same slot and value."""
    key = (act.domain, act.slot, normalize(act.canonical or act.value or ""))
    for span, other, _ in pending:
        if span is not None and (other.domain, other.slot, normalize(other.canonical or other.value or "")) == key:
            return span
    return None


def _variable(turn: int, speaker: str, act: DialogueAct, span: Span | None, utterance: str) -> Variable | None:
    canonical = act.canonical if act.canonical is not None else act.value
    assert canonical is not None
    if act.role is ActRole.COUNT:
        amount = parse_amount(canonical)
        if amount is None:
            amount = parse_amount(act.value or "")
        if amount is None:
            return None
        value: int | str = amount
        kind = VariableKind.AMOUNT
    else:
        value = normalize(canonical)
        kind = VariableKind.SLOT
    return Variable(
        name="",
        turn=turn,
        speaker=speaker,  # type: ignore[arg-type]
        kind=kind,
        domain=act.domain,
        slot=act.slot,
        role=act.role,
        span=span,
        text=utterance[span.start : span.end] if span is not None else None,
        value=value,
    )


def locate(utterance: str, act: DialogueAct, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """The span of ``act``'s value in ``utterance`` by normalised, word-bounded matching.

    Tries the surface value, then the canonical value; for amounts also the number word or
    digits. Spans overlapping ``avoid`` are skipped. ``None`` when the value is not written.
    """
    forms = [act.value, act.canonical]
    if act.role is ActRole.COUNT:
        amount = parse_amount(act.canonical or act.value or "")
        if amount is not None:
            forms += [str(amount), *_number_words(amount)]
    folded = fold_aligned(utterance)
    for form in forms:
        if not form:
            continue
        for match in _pattern(fold_aligned(form).strip(" .,!?")).finditer(folded):
            span = Span(start=match.start(), end=match.end())
            if not any(span.start < a.end and a.start < span.end for a in avoid):
                return span
    return None


@lru_cache(maxsize=4096)
def _pattern(form: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in form.split()]
    body = r"\s*".join(words) if words else re.escape(form)
    return re.compile(rf"(?<![\w])(?<!\d[,.]){body}(?![\w])(?![,.]\d)")  # not a piece of "1,000"


def _number_words(amount: int) -> list[str]:
    from csp_check.normalize import NUMBER_WORDS

    return [w for w, n in NUMBER_WORDS.items() if n == amount and " " not in w and w not in ("no", "none")]


def _masked(utterance: str, variables: list[Variable]) -> str:
    out, pos = [], 0
    for var in sorted((v for v in variables if v.span is not None), key=lambda v: v.span.start):  # type: ignore[union-attr]
        span = var.span
        assert span is not None
        if span.start < pos:  # overlapping annotation: keep the first
            continue
        out += [utterance[pos : span.start], f"[{var.name}]"]
        pos = span.end
    out.append(utterance[pos:])
    return "".join(out)
