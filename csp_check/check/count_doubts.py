"""Doubts about which entities a count counts (C6): part of the certainty rules of
:mod:`csp_check.check.certainty`, whose module docstring states them ("Reading rules"). Each rule
is ``rule(ctx, constraint, family, scope) -> reason | None``."""

from __future__ import annotations

import re

from csp_check.check.evaluate import satisfied
from csp_check.check.reading import utterance
from csp_check.families import kb_common
from csp_check.families.primitives import DONTCARE, count_matches
from csp_check.language import certainty as words
from csp_check.language.normalize import normalize
from csp_check.models import Constraint, Variable

#: Values that say nothing of an entity's kind or place (an amenity's yes / no, a missing cell).
NO_VALUE = frozenset({"yes", "no", "dontcare", "none", "?", "free"})


def listed_values(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C6: the count's turn names the values of a search column its entities have — two or more
    values of a column that is no filter in the count's sentence ("5 guesthouses in the centre,
    east and west"), or, from the count's sentence on, values of a filter's column none of which
    is the filter's ("There are two restaurants. The Nirala which is moderate and the Royal
    Spice which is cheap" after "expensive"): the count may be of the entities with those values
    (the system lifted the filter, or narrowed by the list). Uncertain when it holds so. A value
    of another filter ("leaving for Stansted Airport" is the destination) lists nothing, and a
    count of none lists nothing either."""
    if family != "C6":
        return None
    amount = next((v for v in scope if v.name == getattr(constraint, "count_variable", None)), None)
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    if amount is None or amount.span is None or not rows:
        return None
    if ctx.assignment.get(amount.name) == 0:
        return None  # "no trains …": listing what the entities have says some exist
    text = utterance(ctx, amount)
    start, end = words.sentence(text, amount.span)
    filters = dict(zip(constraint.columns, constraint.variables))
    filtered = {str(ctx.assignment.get(n)) for n in constraint.variables}
    columns = set(ctx.profile.search_columns) or set(rows[0])
    for column in sorted(columns):
        values = {e.get(column) for e in rows} - NO_VALUE - {None, ""} - (filtered - {str(ctx.assignment.get(filters.get(column, "")))})
        said = _said(ctx, amount.turn, text, start, len(text) if column in filters else end, values)
        if column in filters:
            if not said or str(ctx.assignment.get(filters[column])) in said:
                continue
        elif len(said) < 2:
            continue  # one value that is no filter: certainty's rule of the count's sentence
        kept = [e for e in rows if e.get(column) in said]
        lifted = {filters[column]: DONTCARE} if column in filters else {}
        variant = ctx.csp.model_copy(update={"kbs": {**ctx.kbs, constraint.kb: kept}})
        if satisfied(constraint, {**ctx.assignment, **lifted}, variant):
            listed = ", ".join(sorted(said))
            return f"the count's turn names {column} {listed}: with those values the count holds"
    return None


def _said(ctx, turn: int, text: str, start: int, end: int, values: set[str]) -> set[str]:
    """The values (of at least 4 letters, no numbers) that ``text[start:end]`` says word for word,
    outside the entity names annotated in it ("Arbury Lodge Guesthouse" says no area)."""
    chars = list(text[start:end])
    for v in ctx.by_turn.get(turn, []):
        if v.span is not None and ctx.profile.names_entity(v.slot) and start <= v.span.start < end:
            chars[v.span.start - start : v.span.end - start] = " " * (min(v.span.end, end) - v.span.start)
    said = " " + " ".join(re.findall(r"[\w'&]+", normalize("".join(chars)))) + " "
    return {x for x in values if len(x) >= 4 and not x.isdigit() and f" {x} " in said}


#: The comparisons a vague amount may be said with: "over 13", "more than 20", "fewer than 5".
STRICT_BOUNDS = frozenset({">", "<"})


def vague_bound(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C6: a count said as a strict bound ("over 13", "more than 20", "under 5") where the KB's
    count is the amount itself or near it (within a tenth of it, at least 1): in speech "over
    13" often rounds "13", a vague amount, not a claim that 14 or more match. For review; a
    bound the KB misses by more ("over 287" where 252 match) stays certain, and so does every
    bound of a corpus whose system acts commit to their values (SGD: ``system_values_stated``)."""
    if family != "C6" or not hasattr(constraint, "count_variable") or ctx.profile.system_values_stated:
        return None  # a system whose acts commit to their values (SGD's) says its bounds exactly
    amount = ctx.assignment.get(constraint.count_variable)
    try:
        op = ctx.csp.variable(constraint.count_variable).amount_op
    except KeyError:
        return None
    if op not in STRICT_BOUNDS or not isinstance(amount, int) or isinstance(amount, bool):
        return None
    sure, possible = count_matches(kb_common.entities(constraint, ctx.csp), constraint.columns,
                                   kb_common.values(constraint, ctx.assignment), constraint.ops)
    slack = max(1, -(-amount // 10))
    low = sure - getattr(constraint, "count_next_day", 0)
    if low <= amount + slack and possible >= amount - slack:
        return f"a vague amount: {'over' if op == '>' else 'under'} {amount} where the KB has {sure}: about {amount}?"
    return None
