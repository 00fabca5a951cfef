"""C4 (none): where the system says it found nothing, no KB entity surely matches what it
searched for (paper §3.2, spec §2): a KB count of 0 (an entity lacking a filtered column does not
refute it). Instances are built in the KB walk of :mod:`csp_check.constraints`.

A no-result without values that answers a question about a named entity ("Does the Acorn fit
that?" — "Sorry, it doesn't. However there are 6 guesthouses that do") says that *this entity*
does not match, not that nothing does (spec §9, "which entity"): its C4 is scoped to that
entity (:func:`asked_entity`): no entity with that name matches the search in force.

A no-result after a request with a constraint the annotation could not record ("an expensive
restaurant that serves light bites", state food ``none``) is about that whole request, which
the KB cannot be asked: it has no C4 (:func:`unrecorded_constraint`)."""

from __future__ import annotations

from typing import Mapping

from csp_check.build_context import BOUNDS, NOT_FILTERS, SEARCH_COLUMNS, names_entity, search_op
from csp_check.families import kb_common
from csp_check.families.primitives import DONTCARE, Bound, KbCount, count_matches
from csp_check.families.registry import Family, register
from csp_check.models import CSP, ActRole, Constraint, ConstraintId, Turn, Value, Variable, VariableKind
from csp_check.cues import time_bound_op
from csp_check.normalize import name_words


@register
class NoInstance(Family):
    id = "C4"
    name = "no instance"
    description = "when the system finds nothing, no KB entity matches what was searched for"
    group = "domain"
    scope_step = 3  # last at a KB scope

    def build_in_scope(self, ctx, at) -> list[Constraint]:
        """The instance of a system turn at ``at`` (:class:`~csp_check.build_context.KbScope`) that
        reports no result (:func:`no_results`), unless a search constraint in force is one no
        variable mentions (what found nothing is then not known)."""
        if at.params is None and (at.turn.index, at.domain) in ctx.unlinked:
            return []
        return no_results(ctx, at.turn, at.domain, at.kb_id, at.columns, at.mine, at.filters)

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        sure, _ = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                kb_common.values(constraint, assignment), constraint.ops)
        return sure == 0

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [KbCount(constraint.kb or "", kb_common.filters(constraint), lo=Bound(None, 0), hi=Bound(None, 0))]

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        matches = kb_common.possible_matches(constraint, assignment, csp)
        return (f"{kb_common.claim(constraint, by_name)} says there is no instance with "
                f"{kb_common.said(constraint, assignment, by_name)}; the KB has {len(matches)}: {kb_common.sample(matches)}")


def no_results(
    ctx, turn: Turn, domain: str, kb_id: str, columns: set[str], mine: list[Variable], filters: list[Variable]
) -> list[Constraint]:
    """C4: no entity matches what the system says it found nothing for."""
    if not any(a.role is ActRole.NO_RESULT and a.domain == domain for a in turn.acts):
        return []
    said = [v for v in mine if v.role is ActRole.NO_RESULT and v.kind is VariableKind.SLOT and v.slot in columns]
    asked_about = [v for v in ctx.by_turn.get(turn.index - 1, []) if v.domain == domain and v.speaker == "user"]
    if not said and any(v.slot in NOT_FILTERS - BOUNDS for v in mine + asked_about):
        return []  # "Does the Acorn fit?" "No, but the Tandoori Palace does": about the entity discussed
    said_slots = {v.slot for v in said}  # what it names, within the search in force
    filters = said + [f for f in filters if f.slot not in said_slots] if said else filters
    entity = None if said else asked_entity(ctx, turn, domain, columns)
    if entity is not None:  # "Does the Acorn fit that?" "Sorry, it doesn't": the Acorn does not match
        filters = [f for f in filters if f.slot != entity.slot] + [entity]
    if unrecorded_constraint(ctx, turn.index, domain, kb_id, columns, filters):
        return []  # "an expensive restaurant that serves light bites": not "no expensive restaurant"
    out: list[Constraint] = []
    if filters:
        out.append(
            Constraint(
                id=ConstraintId("C4"), variables=[f.name for f in filters], turn=turn.index, kb=kb_id,
                columns=[f.slot for f in filters],
                ops=[_no_result_op(f, said, entity, turn.utterance) for f in filters],
            )
        )
    return out


def _no_result_op(f: Variable, said: list[Variable], entity: Variable | None, utterance: str) -> str:
    """How a no-result filter compares: a value the turn names is what was not found ("=") unless
    it is a time said as a bound ("no trains arrive by 12:00": ``<=``); a leaveAt / arriveBy the
    no-result carries without words in the text is the search's bound (:func:`search_op`), as
    the state's filters are."""
    if f is entity:
        return "="
    if f in said and f.slot in BOUNDS:
        return search_op(f) if f.span is None else time_bound_op(utterance, f.span) or "="
    return "=" if f in said else search_op(f)


def asked_entity(ctx, turn: Turn, domain: str, columns: set[str]) -> Variable | None:
    """The entity of ``domain`` the user turn before ``turn`` names, when it names exactly one
    the dialogue has named before (every distinguishing word of its name is in the user's text:
    "Does the Acorn fit that?" names "acorn guest house"), as its latest slot variable; else
    ``None``. A no-result without values after such a question is about that entity."""
    users = [t for t in ctx.dialogue.turns[: turn.index] if t.speaker == "user"]
    if not users:
        return None
    said = name_words(users[-1].utterance)  # the user's words, as names' words are compared
    found: dict[str, Variable] = {}
    for v in ctx.variables:
        if (v.turn < turn.index and v.domain == domain and names_entity(v.slot) and v.slot in columns
                and v.kind is VariableKind.SLOT and isinstance(v.value, str)):  # fmt: skip
            words = name_words(v.value)
            if words and words <= said:
                found[v.value] = v  # the latest mention of each entity
    return next(iter(found.values())) if len(found) == 1 else None


def unrecorded_constraint(
    ctx, turn: int, domain: str, kb_id: str, columns: set[str], filters: list[Variable]
) -> Variable | str | None:
    """A constraint of ``domain`` the user said before a no-result at ``turn`` that its filters
    do not hold, so the no-result is not about the filters alone: a KB column the turn's state
    marks as asked but unfilled (``Turn.unfilled``, MultiWOZ 2.1's ``none``: "serves light
    bites", food ``none``; returned as the column name), or a search value the user's last turn
    names (a span of a search column) that the table does not have, of a slot no filter holds
    (returned as its variable). ``None``: the request is what the filters say."""
    slots = {f.slot for f in filters}
    for slot in ctx.dialogue.turns[turn].unfilled.get(domain, []):
        if slot in columns and slot not in slots:
            return slot
    users = [t for t in ctx.dialogue.turns[:turn] if t.speaker == "user"]
    if not users:
        return None
    for v in ctx.by_turn.get(users[-1].index, []):
        if (v.domain == domain and v.kind is VariableKind.SLOT and v.slot in columns and v.slot in SEARCH_COLUMNS
                and isinstance(v.value, str) and v.value != DONTCARE and v.slot not in slots
                and v.value not in ctx.vocab(kb_id, v.slot)):  # fmt: skip
            return v
    return None
