"""Faults in a count said in other words (C6): a count reworded ("I found 10" → "I came up with
12", ``reworded_count``) and a count after a rating on a scale ("It is rated 87 out of 100. I
found 12", ``rated_count``), each with a number the KB contradicts; and their no-fault twins
(:func:`count_wording_twins`): the same words with the count the KB confirms, which must not be
flagged certain (a wording read as no count keeps the annotated number; a rating's numbers read
as a count contradict it)."""

from __future__ import annotations

import re
from typing import Any

from csp_check.build.builder import build_csp
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.faults.common import spanned_counts
from csp_check.faults.counts import full_result
from csp_check.faults.model import Choice
from csp_check.faults.rewrite import rewritten
from csp_check.faults.wording import amount_text
from csp_check.models import CSP, Dialogue, KnowledgeBase, Span, Variable

#: The words of finding right before a count that a rewording replaces.
FOUND = re.compile(r"(?:\b(?:i|we)(?: have|'ve)? found|\bthere are|\bi have|\bwe have|\bi've got|\bi got)\s+$", re.I)
#: Wordings of a count (``{n}``: the number) that are no plain "I found".
WORDINGS = ("I came up with {n}", "my search came up with {n}", "I found a total of {n}", "among them I have {n}")
#: Ratings on a scale put before a count's sentence: (rating, scale).
RATINGS = ((87, 100), (4, 5), (9, 10))


def _wrong(var: Variable, sure: int, possible: int, full: bool) -> int | None:
    """The nearest number the KB count ``sure..possible`` contradicts (not above a full result)."""
    for new in (var.value + d for d in (2, 1, -1, -2, 3)):
        if new >= 0 and not sure <= new <= possible and not (full and new > possible):
            return new
    return None


def _places(csp: CSP, dialogue: Dialogue, true: bool, rated: bool) -> list[Choice]:
    out = []
    for var, sure, possible in spanned_counts(csp, with_ops=False):
        if var.amount_op != "=" or not sure <= var.value <= possible or var.value < 2:
            continue
        new = var.value if true else _wrong(var, sure, possible, full_result(csp, var, dialogue))
        if new is None:
            continue
        utterance = dialogue.turns[var.turn].utterance
        number = amount_text(new, var.text or "")
        if rated:
            if any(a.span is not None and a.span.start < var.span.start for a in dialogue.turns[var.turn].acts):
                continue  # the prefix rewritten holds no other annotated words
            rating, scale = RATINGS[var.turn % len(RATINGS)]
            text = f"It is rated {rating} out of {scale}. {utterance[: var.span.start]}{number}"
            out.append((var.model_copy(update={"span": Span(start=0, end=var.span.end)}), text, str(new)))
            continue
        m = FOUND.search(utterance[: var.span.start])
        if m is None:
            continue
        text = WORDINGS[(var.turn + var.value) % len(WORDINGS)].format(n=number)
        if utterance[: m.start()].rstrip()[-1:] in ("", ".", "!", "?"):
            text = text[0].upper() + text[1:]  # a sentence's first word
        out.append((var.model_copy(update={"span": Span(start=m.start(), end=var.span.end)}), text, str(new)))
    return out


def reworded_count_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count the KB confirms after a verb of finding ("I found 10") said in another wording
    with a number the KB contradicts ("I came up with 12", "I found a total of 12")."""
    return _places(csp, dialogue, true=False, rated=False)


def rated_count_choices(csp: CSP, allowed: set[str] | None, dialogue: Dialogue) -> list[Choice]:
    """A count the KB confirms, after a rating on a scale put before its turn ("It is rated 87
    out of 100. I found 10 …"), becomes a number the KB contradicts ("… I found 12 …")."""
    return _places(csp, dialogue, true=False, rated=True)


def count_wording_twins(
    dialogue: Dialogue, raw: dict[str, Any] | None = None, kb: KnowledgeBase | None = None
) -> dict[str, Dialogue]:
    """No fault: the first place of each kind above with the count the KB confirms ("I came up
    with 10"; "It is rated 87 out of 100. I found 10 …"), by kind; a kind with no place is left out."""
    csp = build_csp(dialogue, delexicalize(dialogue), kb)
    out = {}
    for kind, rated in (("reworded_count", False), ("rated_count", True)):
        places = _places(csp, dialogue, true=True, rated=rated)
        if places:
            var, text, _ = places[0]
            out[kind] = rewritten(dialogue, var, text, text, None, raw)
    return out
