"""A closed numeric slot stated by a negation of its unit: "no layovers", "without any stops",
"a non-stop flight", "it does not have any layovers" say the number is 0 (spec §9: the text
is the truth, also where it says a value by denying its unit).

Reading rules

- **Where**: only for a slot whose closed values hold 0 (``number_stops``: 0, 1; a party size
  has no 0): the negation of its unit noun (:func:`csp_check.language.cues.unit_words`:
  "stop", "layover", "connection", "transfer") reads 0. A number said with the unit ("1
  layover", :func:`csp_check.language.cues.measure_spans`) comes first.
- **Scope settled** (:func:`negation_doubt` gives ``None``): the unit noun is the negation's
  direct object or complement in its clause: "no layovers", "no intermediate
  stops", "without (any) layovers", "not any stops", "doesn't have / include / make any
  layovers", "hasn't got any stops", "non-stop" / "nonstop".
- **Scope unsettled** (a doubt, for review): a negator earlier in the unit's clause (six words
  at most, no number between) that does not govern it directly ("it isn't a flight with
  layovers", "I don't think it has layovers"): the text may read 0, or say something else
  (what is denied may be another word of the clause).
- **No reading**: "don't mind layovers", "no preference on stops" (either is fine), a
  sentence-initial "No" answering a question before other words ("No it has layovers"), a
  negation past a clause boundary ("no, but it has layovers").
"""

from __future__ import annotations

import re

from csp_check.language.cue_words import CLAUSE_END, INDIFFERENT, NUMBER
from csp_check.language.cues import unit_words
from csp_check.language.normalize import fold_aligned
from csp_check.models import Span

#: Words between a settled negation and its unit noun that change nothing ("no intermediate stops").
MODIFIERS = r"(?:intermediate|additional|extra|further|other)"
#: A negation that governs the noun right after it: its determiner, "without", "not any", a
#: negated verb of having with "any" (the noun its direct object).
SETTLED = re.compile(
    r"(?:\bno|\bwithout(?:\s+any)?|\bnot\s+any|(?:n't|\bnot)\s+(?:have|has|had|make|makes|include|includes|"
    r"involve|involves|got)\s+any|(?:hasn't|haven't|has\s+not|have\s+not)\s+got\s+any)"
    rf"\s+(?:{MODIFIERS}\s+)?$"
)
#: A word that negates what follows it in its clause (not :data:`~csp_check.language.cue_words.NEGATORS`'
#: "un…ed" prefix, which would take "United" for one).
NEGATOR = re.compile(r"(?:\b(?:not|no|never|none|neither|nor|without|cannot)|n't)$")
#: The unit with a negating prefix: "non-stop", "nonstop".
PREFIXED = re.compile(r"\bnon[-\s]?(\w+)")


def negated_unit_spans(utterance: str, slot: str, avoid: list[Span] = (), description: str = "",  # type: ignore[assignment]
                       ) -> list[Span]:
    """Spans of ``utterance`` that state ``slot`` as 0 by negating its unit noun (module doc),
    each from the negator to the noun's end, in text order; a span overlapping ``avoid`` is none."""
    stems, people = unit_words(slot, description)
    if people:
        return []  # "no people": no party size is 0
    folded = fold_aligned(utterance)
    out = []
    for m in re.finditer(r"[a-z][a-z'-]*", folded):
        noun = m.group(0)
        prefixed = PREFIXED.fullmatch(noun)
        if prefixed and _names(prefixed.group(1), stems):
            span = Span(start=m.start(), end=m.end())  # "non-stop", "nonstop"
        elif _names(noun, stems):
            start = _negator(folded, m.start())
            if start is None:
                continue
            span = Span(start=start, end=m.end())
        else:
            continue
        if not any(span.start < a.end and a.start < span.end for a in avoid):
            out.append(span)
    return out


def negation_doubt(text: str) -> str | None:
    """Why the negated unit ``text`` (a span of :func:`negated_unit_spans`) may not say 0:
    ``None`` when the negation governs the unit directly ("no layovers", "doesn't have any
    stops", "non-stop"), else the reason (a negation of unsettled scope, for review)."""
    folded = fold_aligned(text).strip()
    head = re.search(r"[a-z][a-z'-]*$", folded)
    if head is None or PREFIXED.fullmatch(head.group(0)) or SETTLED.search(folded[: head.start()]):
        return None
    return f"a negation whose scope may not reach the unit: {text!r}"


def negated_amount(text: str, slot: str, description: str = "") -> int | None:
    """0 when ``text`` states ``slot`` by negating its unit (a span of :func:`negated_unit_spans`:
    a negator or "non-" first, the unit noun last), else ``None``."""
    stems, people = unit_words(slot, description)
    said = re.findall(r"[a-z][a-z'-]*", fold_aligned(text))
    if people or not said:
        return None
    if len(said) == 1:
        prefixed = PREFIXED.fullmatch(said[0])  # "non-stop"
        return 0 if prefixed and _names(prefixed.group(1), stems) else None
    return 0 if _names(said[-1], stems) and NEGATOR.search(said[0]) else None


def _negator(folded: str, start: int) -> int | None:
    """Where the negator before the unit noun at ``start`` begins: a settled one right before
    it, else one of the six words before it in its clause with no number between; ``None``
    when there is none, or it says either is fine ("don't mind layovers")."""
    clause = max((c.end() for c in CLAUSE_END.finditer(folded, 0, start)), default=0)
    before = folded[clause:start]
    settled = SETTLED.search(before)
    if settled is not None:
        at = clause + settled.start() + (len(settled.group(0)) - len(settled.group(0).lstrip()))
        return len(folded[:at].rstrip("abcdefghijklmnopqrstuvwxyz'-"))  # "doesn't have any": from the word's start
    words = list(re.finditer(r"\S+", before))[-6:]
    for w in words:
        if not NEGATOR.search(w.group(0).strip(".,;:!?")):
            continue
        offset = clause + w.start()
        rest = folded[offset + len(w.group(0)) : start]
        if INDIFFERENT.match(folded, offset + len(w.group(0))) or NUMBER.search(rest):
            return None
        if w.group(0) in ("no", "nope") and rest.strip() and re.fullmatch(r"(?:.*[.!?]\s*)?\s*", folded[:offset], re.S):
            return None  # "No it has layovers": an answer, the negation is not of the unit
        return offset
    return None


def _names(noun: str, stems: frozenset[str]) -> bool:
    """Whether ``noun`` is a unit noun of the slot (its stem among ``stems``)."""
    stem = noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
    return stem in stems
