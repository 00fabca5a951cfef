"""C6's breakdowns: a system turn with several counts of one domain, a total and its parts ("there
are 10, 4 in the north and 6 in the centre", "3 mediterranean restaurants in the centre. One falls
in a cheap price range"), is read count by count (:func:`breakdown`), not skipped whole.

Reading rules

- A turn's one whole-number amount beside a vague count act ("several hotels and 11
  guesthouses"; not "another": "one arrives at 17:23 and another at 18:23") is a breakdown too: the amount is a part, under its own clause's values.
- The first amount of the turn is the *total* when no count act comes before it ("several"), its value is at least each later one's and its
  own clause (up to the next amount or the end of its sentence) gives no value of a slot a later
  amount's own words give: the total is checked under the search in force, its parts' values
  being no filter of it. When its clause does give such a value ("2 that are moderate priced and
  1 that is cheap", "three cheap chinese restaurants in the centre and one in the south"), every
  amount is a part, none the total.
- A part is checked under the search in force with the values of its own clause (from its amount
  to the next amount or the end of its sentence: "4 *in the north*", "2 are *guesthouses*") in
  place of the search's values of those slots. A part whose clause gives no value (its filter
  cannot be told: "2 charge an entrance fee", "the other 2") is not checked; nor is one not
  written as a plain number ("all 3", "all but 1", "most"; "about 12" is one, a range), nor one that introduces an entity
  ("one departs at 05:36": no count, :func:`~csp_check.families.c6_scope.introduces_entity`).
- A clause also ends where the text coordinates another number with a predicate of its own
  ("2 are guesthouses and 2 are hotels" with the second 2 not annotated: :data:`NEXT_PART`): the
  values after it are that number's, not the part's ("with 4 stars" ends nothing).
- A part's value more than three words after its amount ("one is, as you asked, cheap") may be
  about something else: the part's count is then *uncertain* (for review), its reason said.
- That the parts fit the total (their sum at most the total) is not checked: parts under
  different filters need not partition it ("3 cheap chinese in the centre and one in the south").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from csp_check.language.certainty import vague_amount
from csp_check.language.cues import bound_number, sentence_of
from csp_check.language.normalize import NUMBER_WORDS
from csp_check.models import DialogueAct, Span, Variable, VariableKind

#: Words between a part's amount and its value past which the value may be about something else.
NEAR_WORDS = 3
#: Another number coordinated in the text with a predicate of its own: a part's clause ends there
#: ("2 are guesthouses and 2 are hotels", ", 3 of which are cheap", "while one is in the north").
NEXT_PART = re.compile(r"(?:\band|,|\bwhile|\bbut|\bwhereas)\s+(?:the\s+other\s+|another\s+)?(?:\d+|one|two|three|four|five|six|"
                       r"seven|eight|nine|ten|eleven|twelve)\s+(?:of\s+(?:them|which|those)\s+)?(?:are|is|have|has|serve|serves|"
                       r"offer|offers|charge|charges|in\b|that\b|which\b)", re.I)


@dataclass
class Part:
    """One amount of a breakdown: its values (its own clause's) and why its reading is unsure."""

    amount: Variable
    values: list[Variable] = field(default_factory=list)
    uncertain: str | None = None


@dataclass
class Breakdown:
    """A turn's counts read apart: the ``total`` (``None``: every amount is a part) and the parts."""

    total: Variable | None
    parts: list[Part]
    values: set[str] = field(default_factory=set)
    """The names of the values spanned in the parts' clauses (no filter or word of the total),
    also where a part's own value cannot be told."""


def plain_number(text: str | None) -> bool:
    """Whether an amount is written as a plain number ("4", "two"), hedged or bounded or not
    ("about 12", "more than 4": its op says how the count compares), not "all 3" or "most"."""
    words = bound_number(text or "").strip().lower()
    return words.isdigit() or words in NUMBER_WORDS and words not in ("a", "an", "single")


def _span(v: Variable) -> Span:
    """The span of a variable known to have one (the amounts and values read here all do)."""
    assert v.span is not None
    return v.span


def _clause_values(ctx, turn: int, amount: Variable, end: int, columns: set[str], mine: list[Variable]) -> list[Variable]:
    """The system's search values of ``columns`` spanned in the clause from ``amount`` to ``end``."""
    assert amount.span is not None
    profile = ctx.profile
    return sorted((v for v in mine
                   if v.kind is VariableKind.SLOT and v.span is not None and v.turn == turn and v.speaker == "system"
                   and v.slot in columns and v.slot in profile.search_columns and v.slot not in profile.entity_columns
                   and _span(amount).end <= v.span.start and v.span.end <= end), key=lambda v: _span(v).start)


def breakdown(ctx, turn: int, kb_id: str, columns: set[str], amounts: list[Variable], mine: list[Variable],
              counted: list[DialogueAct]) -> Breakdown | None:
    """The turn's amounts read as a total and its parts (module doc); ``None`` when they cannot be
    (an amount without a span or a whole number). A clause also ends where another of the turn's
    count acts ``counted`` is spanned ("the other 2", which is no whole number)."""
    if not amounts or any(a.span is None or not isinstance(a.value, int) for a in amounts):
        return None
    utterance = ctx.dialogue.turns[turn].utterance
    if len(amounts) == 1 and not any(x.span is not None and x.span != amounts[0].span
                                     and vague_amount(utterance[x.span.start : x.span.end]) for x in counted):
        return None  # one amount is a breakdown only beside a vague count ("several hotels and 11 guesthouses"),
        # not beside "another" ("one arrives at 17:23 and another at 18:23": entities, no count)
    ordered = sorted(amounts, key=lambda a: _span(a).start)
    opening = min((x.span.start for x in counted if x.span is not None), default=_span(ordered[0]).start)
    clauses: list[list[Variable]] = []
    for a in ordered:
        end = min([sentence_of(utterance, _span(a))[1]]
                  + [x.span.start for x in counted if x.span is not None and x.span.start > _span(a).start]
                  + [m.start() for m in NEXT_PART.finditer(utterance, _span(a).end)])
        clauses.append(_clause_values(ctx, turn, a, end, columns, mine))
    later_slots = {v.slot for vs in clauses[1:] for v in vs}
    first = ordered[0]
    total = first if _span(first).start <= opening and all(int(first.value) >= int(a.value) for a in ordered[1:]) and not any(
        v.slot in later_slots for v in clauses[0]) else None  # a count after a vague one ("several …") is a part
    parts: list[Part] = []
    said = {v.name for a, vs in zip(ordered, clauses) if a is not total for v in vs}
    after = _span(total).end if total is not None else -1
    for x in counted:  # "the other 2 are expensive": a count act with no whole number has its clause too
        if x.span is not None and x.span.start >= after and not any(a.span == x.span for a in ordered):
            end = min([sentence_of(utterance, x.span)[1]] + [y.span.start for y in counted
                                                              if y.span is not None and y.span.start > x.span.start])
            said |= {v.name for v in mine if v.span is not None and v.turn == turn and v.kind is VariableKind.SLOT
                     and x.span.end <= v.span.start and v.span.end <= end}
    for m in NEXT_PART.finditer(utterance, max(after, 0)):  # "… and one in the centre": that number's values,
        end = sentence_of(utterance, Span(start=m.start(), end=m.end()))[1]  # no filter of the total either
        said |= {v.name for v in mine if v.span is not None and v.turn == turn and v.kind is VariableKind.SLOT
                 and m.start() <= v.span.start and v.span.end <= end}
    for a, values in zip(ordered, clauses):
        if len({v.value for v in values}) < len(values) or len({v.slot for v in values}) < len(values):
            values = []  # "one is cheap or moderate": which value is the part's is not said
        if a is total:
            continue
        if not all(v.value in ctx.vocab(kb_id, v.slot) for v in values):
            values = []  # "one is old schools": a name annotated as a type, no value of the KB
        if not values or not plain_number(a.text):
            parts.append(Part(a))  # its filter cannot be told: not checked
            continue
        gap = len(utterance[_span(a).end : _span(values[0]).start].split())
        reason = (f"the part's value {values[0].slot}={values[0].value!r} is {gap} words after its amount {a.text!r}: "
                  "it may be about something else") if gap > NEAR_WORDS else None
        parts.append(Part(a, values, reason))
    return Breakdown(total, parts, said)


def part_values(ctx, turn: int, kb_id: str, columns: set[str], amounts: list[Variable], mine: list[Variable],
                counted: list[DialogueAct]) -> set[str]:
    """The names of the values the parts of the turn's breakdown give (none when there is none,
    or one count): no filter of its total."""
    found = breakdown(ctx, turn, kb_id, columns, amounts, mine, counted) if len(counted) > 1 else None
    return found.values if found is not None else set()


def part_filters(filters: list[Variable], part: Part) -> list[Variable]:
    """The search in force with the part's own values in place of its values of those slots."""
    slots = {v.slot for v in part.values}
    return [f for f in filters if f.slot not in slots] + part.values
