"""C4 (none): where the system says it found nothing, no KB entity surely matches what it
searched for (paper §3.2, spec §2): a KB count of 0 (an entity lacking a filtered column does not
refute it). Instances are built in the KB walk of :mod:`csp_check.build.builder`.

Reading rules

- A system no-result act: no KB entity matches its values (or, without values, the search
  filters in force), in the latest KB result of its domain at or before its turn (the KB scope:
  :mod:`csp_check.build.builder`). A no-result whose search has a constraint no variable
  mentions is not checked (what found nothing is then not known).
- No C4 after a request with a constraint the filters cannot hold (:func:`unrecorded_constraint`):
  a slot the state marks as asked but unfilled (MultiWOZ 2.1's ``none``: "an expensive restaurant
  that serves light bites"), or a search value the user's last turn names that the table lacks.
  The no-result is about that whole request, which the KB cannot be asked.
- A fee said without its amount ("Neither park has an entrance fee", NoOffer Fee = "has an
  entrance fee") denotes any fee but "free": no entity with a known fee may match
  (:func:`charged_fees`).
- A no-result about a named entity is no search result (no C4). A no-result without values
  that answers a question about an entity the dialogue named ("Does the Acorn fit that?" —
  "Sorry, it doesn't. However there are 6 guesthouses that do") says that *this entity* does not
  match, not that nothing does (spec §9, "which entity"): its C4 is scoped to that entity, which
  must not match the search in force (:func:`asked_entity`). The user's turn must name exactly
  one entity named before, with every distinguishing word of its name ("the Acorn"); a pronoun
  alone does not scope it.
- A no-result without values after a user's turn that names one kind the search in force does
  not hold ("A cheap 4 star hotel that includes free parking" — "if you wanted a hotel, you'd
  need to stay in the west. There are guesthouses that meet your needs") counts the entities of
  that type alone (:func:`asked_kind`, the table :func:`~csp_check.families.kb_common.kind_table`);
  the generic "hotel" (any place to stay) only when the system turn names another kind. So does
  one under a belief state that records the generic type "hotel" (:func:`held_kind`), the
  reading under which it may hold. A no-result whose own sentence names a kind ("The only 4 star
  *hotels* are in the west and centre … nothing moderately priced", after a search for
  guesthouses) is about that kind.
- A no-result whose value the same turn offers as a choice ("I'm sorry, there isn't a downtown
  area listed. Would you like north, south, east, west or centre?") is about the word, not the
  KB: no C4.
- A no-result after a user's turn that asks for another entity *relative to one already
  offered* ("Are there any other trains closer to 10:00?" after TR4094 arriving 08:07 — "No") is
  about beating that offer (closer, earlier, cheaper than it), a relation the KB count cannot
  evaluate: no C4 (:func:`relative_request`).
- A belief state that sets a slot to ``dontcare`` the user's words never relaxed ("a moderately
  priced 4-star guesthouse … any type will do as long as it includes free parking": price and
  stars become ``dontcare``) allows two readings; a no-result is read under the tighter one, the
  value the state held before
  (:meth:`~csp_check.build.context.BuildContext.unsaid_relaxations`).
- A time the no-result names as a bound ("no trains arrive by 12:00") is a bound filter
  (``<=``), not a value; "no X in all of Cambridge" has no area filter. Parking / internet "no"
  is literal here (the DB query's reading), where an offer reads it as "not needed" (C5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from csp_check.corpora import CorpusProfile
from csp_check.families import kb_common
from csp_check.families.kb_common import KbFilterInstance, KindOf, Restriction, Rows, TableView, derived, kind_table
from csp_check.families.primitives import DONTCARE, Bound, KbCount, Primitive, count_matches
from csp_check.families.registry import Family, register
from csp_check.language.cues import sentence_of, time_bound_op
from csp_check.language.normalize import charged_fee, name_words, wording_key
from csp_check.language.scope_words import ALTERNATIVE, RELATIVE, SENTENCE_BREAK, WORD_TOKEN
from csp_check.models import CSP, ActRole, ConstraintId, Turn, Value, Variable, VariableKind


@register
class NoInstance(Family[KbFilterInstance]):
    id = "C4"
    name = "no instance"
    description = "when the system finds nothing, no KB entity matches what was searched for"
    group = "domain"
    scope_step = 3  # last at a KB scope
    instance_type = KbFilterInstance

    def build_in_scope(self, ctx, at) -> list[KbFilterInstance]:
        """The instance of a system turn at ``at`` (:class:`~csp_check.build.context.KbScope`) that
        reports no result (:func:`no_results`), unless a search constraint in force is one no
        variable mentions (what found nothing is then not known)."""
        if at.state_search and (at.turn.index, at.domain) in ctx.unlinked:
            return []
        tight = (ctx.unsaid_relaxations(at.turn.index, at.domain, at.columns)
                 if at.state_search and ctx.options.count_filter == "state" else [])
        return no_results(ctx, at.turn, at.domain, at.kb_id, at.columns, at.mine, at.filters, tight)

    def satisfied(self, constraint: KbFilterInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        sure, _ = count_matches(kb_common.entities(constraint, csp), constraint.columns,
                                kb_common.values(constraint, assignment), constraint.ops)
        return sure == 0

    def lower(self, constraint: KbFilterInstance, csp: CSP) -> list[Primitive]:
        return [KbCount(constraint.kb, kb_common.filters(constraint), lo=Bound(None, 0), hi=Bound(None, 0))]

    def explain(self, constraint: KbFilterInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        matches = kb_common.possible_matches(constraint, assignment, csp)
        kinds = constraint.table.of(KindOf)  # a no-result about one kind (asked_kind)
        kind = kinds[0].kind + constraint.table.marks_after(kinds[0]) if kinds else ""
        return (f"{kb_common.claim(constraint, by_name)} says there is no {kind or 'instance'} with "
                f"{kb_common.said(constraint, assignment, by_name)}; the KB has {len(matches)}: {kb_common.sample(matches)}")


def no_results(
    ctx, turn: Turn, domain: str, kb_id: str, columns: set[str], mine: list[Variable], filters: list[Variable],
    tight: Sequence[Variable] = (),
) -> list[KbFilterInstance]:
    """C4: no entity matches what the system says it found nothing for. ``tight``: values a
    ``dontcare`` of the state replaced without the user's words saying so
    (:meth:`~csp_check.build.context.BuildContext.unsaid_relaxations`); the no-result is read
    under them (the tighter reading), unless the turn names that slot itself."""
    if not any(a.role is ActRole.NO_RESULT and a.domain == domain for a in turn.acts):
        return []
    said = [v for v in mine if v.role is ActRole.NO_RESULT and v.kind is VariableKind.SLOT and v.slot in columns]
    asked_about = [v for v in ctx.by_turn.get(turn.index - 1, []) if v.domain == domain and v.speaker == "user"]
    profile = ctx.profile
    if not said and any(v.slot in profile.entity_columns for v in mine + asked_about):
        return []  # "Does the Acorn fit?" "No, but the Tandoori Palace does": about the entity discussed
    if said and ctx.select(turn.index, domain) and any(
            v.slot == s.slot and ctx.assignment.get(v.name) == ctx.assignment.get(s.name)
            for s in said for v in mine if v.role is ActRole.OFFER):
        return []  # "there isn't a downtown area listed. Would you like north, …, or centre?": about the word
    said_slots = {v.slot for v in said}  # what it names, within the search in force
    filters = said + [f for f in filters if f.slot not in said_slots] if said else filters
    unsaid = [v for v in tight if v.slot not in said_slots]  # "… any type will do": a dontcare nobody said
    filters = [f for f in filters if f.slot not in {v.slot for v in unsaid}] + unsaid
    entity = None if said else asked_entity(ctx, turn, domain, columns)
    if entity is not None:  # "Does the Acorn fit that?" "Sorry, it doesn't": the Acorn does not match
        filters = [f for f in filters if f.slot != entity.slot] + [entity]
    if unrecorded_constraint(ctx, turn.index, domain, kb_id, columns, filters):
        return []  # "an expensive restaurant that serves light bites": not "no expensive restaurant"
    if relative_request(ctx, turn, domain):
        return []  # "any other trains closer to 10:00?" "No": none closer than the one offered
    kind = None
    table = TableView(base=kb_id)
    where = {sentence_of(turn.utterance, v.span) for v in said if v.span is not None}
    kind_column = profile.kind_column
    own = {v.value for v in mine if v.slot == kind_column and v.kind is VariableKind.SLOT and v.span is not None
           and v.role is ActRole.INFORM and isinstance(v.value, str)
           and sentence_of(turn.utterance, v.span) in where}  # the no-result's own sentence names the kind
    if entity is None and len(own) == 1 and not any(f.slot == kind_column and f in said for f in filters):
        filters = [f for f in filters if f.slot != kind_column]  # "The only 4 star hotels are … nothing moderately priced"
        kinds = {e.get(kind_column) for e in ctx.kbs.get(kb_id) or []}
        if next(iter(own)) in kinds:
            table = kind_table(ctx, table, next(iter(own)))
    elif entity is None and not any(f.slot == kind_column for f in filters):
        kind = (None if said else asked_kind(ctx, turn, domain, kb_id, mine)) or held_kind(ctx, turn.index, domain, kb_id)
    if kind is not None:  # "A cheap 4 star hotel …" "if you wanted a hotel, … There are guesthouses": no hotel
        table = kind_table(ctx, table, kind)
    out: list[KbFilterInstance] = []
    if filters:
        out.append(charged_fees(ctx, KbFilterInstance(
            id=ConstraintId("C4"), variables=[f.name for f in filters], turn=turn.index, table=table,
            columns=[f.slot for f in filters],
            ops=[_no_result_op(profile, f, said, entity, turn.utterance) for f in filters],
        ), said))
    return out


def charged_column(fee_column: str) -> str:
    """The column a no-result compares a fee said without its amount on (:func:`charged_fees`):
    ``"entrance fee (charged)"`` for the profile's fee column ``"entrance fee"``."""
    return f"{fee_column} (charged)"


class Charged(Restriction):
    """A copy of the table with column ``charged`` (:func:`charged_column` of the fee column
    ``fee``) added: ``reading`` (a fee said without its amount) for an entity whose known fee is
    not "free", "free" for a free one, none where the fee is unknown (:func:`charged_fees`)."""

    fee: str
    charged: str
    reading: str

    def rows(self, entities: Rows) -> Rows:
        return [{**e, self.charged: "free" if e[self.fee] == "free" else self.reading} if e.get(self.fee) else e
                for e in entities]

    def mark(self) -> str:
        return f"|{self.charged}={self.reading}"


def charged_fees(ctx, constraint: KbFilterInstance, said: list[Variable]) -> KbFilterInstance:
    """``constraint`` (a C4) with each entrance fee its turn names without an amount ("Neither
    park has an entrance fee", NoOffer Fee = "has an entrance fee":
    :func:`~csp_check.language.normalize.charged_fee`) compared as what it denotes, a fee of any amount:
    the no-result says no entity charges one. Such a value is no cell of the table, so compared
    as written it would match nothing and the C4 would hold whatever the KB says. The filter then
    reads the table's copy (registered under its own id, so the solvers read the same) with
    column :func:`charged_column`: that value for an entity whose known fee is not "free", "free"
    for a free one (so a value "free" there still means free), none where the fee is unknown.
    Any other constraint is returned as is. Spec §9 (text is the truth: the words' meaning)."""
    fee = ctx.profile.fee_column
    charged = charged_column(fee)
    idx = [i for i, n in enumerate(constraint.variables)
           if constraint.columns[i] == fee and any(v.name == n for v in said)
           and isinstance(ctx.assignment.get(n), str) and charged_fee(ctx.assignment[n])]
    if not idx:
        return constraint
    reading = ctx.assignment[constraint.variables[idx[0]]]
    table = derived(ctx, constraint.table, Charged(fee=fee, charged=charged, reading=reading))
    columns = [charged if i in idx else col for i, col in enumerate(constraint.columns)]
    return constraint.model_copy(update={"table": table, "columns": columns})


def _no_result_op(profile: CorpusProfile, f: Variable, said: list[Variable], entity: Variable | None,
                  utterance: str) -> str:
    """How a no-result filter compares: a value the turn names is what was not found ("=") unless
    it is a time said as a bound ("no trains arrive by 12:00": ``<=``); a bound (leaveAt /
    arriveBy) the no-result carries without words in the text is the search's bound
    (:meth:`~csp_check.corpora.CorpusProfile.search_op`), as the state's filters are."""
    if f is entity:
        return "="
    if f in said and f.slot in profile.bounds:
        return profile.search_op(f.slot) if f.span is None else time_bound_op(utterance, f.span) or "="
    return "=" if f in said else profile.search_op(f.slot)


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
        if (v.turn < turn.index and v.domain == domain and ctx.profile.names_entity(v.slot) and v.slot in columns
                and v.kind is VariableKind.SLOT and isinstance(v.value, str)):  # fmt: skip
            words = name_words(v.value)
            if words and words <= said:
                found[v.value] = v  # the latest mention of each entity
    return next(iter(found.values())) if len(found) == 1 else None


def asked_kind(ctx, turn: Turn, domain: str, kb_id: str, mine: list[Variable]) -> str | None:
    """The kind (``type`` value of table ``kb_id``) the user's turn before a no-result without
    values names when the search in force has no type: "A cheap 4 star hotel that includes free
    parking" — "if you wanted a hotel, you'd need to stay in the west. There are guesthouses that
    meet your needs": nothing of *that kind* matches. Exactly one kind named, outside the spans
    of names ("the Gonville Hotel"). MultiWOZ's "hotel" may mean any place to stay
    (:meth:`~csp_check.corpora.CorpusProfile.is_generic`), so it scopes the no-result only when the
    system turn names another kind (a type variable or word: "guesthouses"). ``None`` otherwise."""
    profile = ctx.profile
    column = profile.kind_column
    entities = ctx.kbs.get(kb_id) or []
    kinds = {e[column] for e in entities if e.get(column)}
    users = [t for t in ctx.dialogue.turns[: turn.index] if t.speaker == "user"]
    if len(kinds) < 2 or not users:
        return None
    named = [v.span for v in ctx.by_turn.get(users[-1].index, []) if profile.names_entity(v.slot) and v.span is not None]
    found = _kinds_said(users[-1].utterance, column, kinds, named)
    if len(found) != 1:
        return None
    kind = next(iter(found))
    if profile.is_generic(domain, column, kind):
        system = ({v.value for v in mine if v.slot == column and isinstance(v.value, str)}
                  | _kinds_said(turn.utterance, column, kinds, []))
        if not system - {kind}:
            return None
    return kind


def held_kind(ctx, turn: int, domain: str, kb_id: str) -> str | None:
    """The generic kind the belief state in force at ``turn`` records as the type (MultiWOZ's
    "hotel", :meth:`~csp_check.corpora.CorpusProfile.is_generic`), which the search filters leave
    out because it may mean any place to stay. A no-result holds under one reading of it: no
    entity of type hotel matches (the dialogue gets the benefit of the doubt, as with unknown
    cells), so its C4 counts that kind alone. ``None``: the state records no such type."""
    column = ctx.profile.kind_column
    held = ctx.state(turn, domain).get(column)
    if held is None:
        return None
    kind = ctx.lexicon.canon(f"{domain}.{column}", held)
    kinds = {e.get(column) for e in ctx.kbs.get(kb_id) or []}
    return kind if ctx.profile.is_generic(domain, column, kind) and kind in kinds and len(kinds) > 1 else None


def _kinds_said(utterance: str, column: str, kinds: set[str], avoid: list) -> set[str]:
    """The values of ``kinds`` (of the kind ``column``) whose wording (one or two words: "guest
    house", "museums") ``utterance`` has outside the spans ``avoid``."""
    keys = {wording_key(column, k): k for k in kinds}
    found: set[str] = set()
    words = [(m.start(), m.end(), m[0]) for m in WORD_TOKEN.finditer(utterance)
             if not any(sp.start <= m.start() < sp.end for sp in avoid)]
    for i, (_, _, word) in enumerate(words):
        pair = f"{word} {words[i + 1][2]}" if i + 1 < len(words) else None
        if pair is not None and wording_key(column, pair) in keys:
            found.add(keys[wording_key(column, pair)])
        elif wording_key(column, word) in keys:
            found.add(keys[wording_key(column, word)])
    return found


def relative_request(ctx, turn: Turn, domain: str) -> bool:
    """Whether the user's turn before the no-result at ``turn`` asks for an alternative relative
    to an entity of ``domain`` the system offered earlier: a word of an alternative
    (:data:`~csp_check.language.scope_words.ALTERNATIVE`: "any other trains") and a comparative
    (:data:`~csp_check.language.scope_words.RELATIVE`: "closer to 10:00", "earlier", "cheaper")
    in one sentence, after a system turn named an entity
    (:meth:`~csp_check.corpora.CorpusProfile.names_entity`: "TR4094"). Its answer "No" says no
    alternative beats the offer, which the KB count of the search cannot tell (spec §9,
    "which entity")."""
    users = [t for t in ctx.dialogue.turns[: turn.index] if t.speaker == "user"]
    if not users:
        return False
    offered = any(v.turn < users[-1].index and v.speaker == "system" and v.domain == domain
                  and ctx.profile.names_entity(v.slot) and v.kind is VariableKind.SLOT for v in ctx.variables)
    sentences = SENTENCE_BREAK.split(users[-1].utterance)
    return offered and any(ALTERNATIVE.search(s) and RELATIVE.search(s) for s in sentences)


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
        if (v.domain == domain and v.kind is VariableKind.SLOT and v.slot in columns and v.slot in ctx.profile.search_columns
                and isinstance(v.value, str) and v.value != DONTCARE and v.slot not in slots
                and v.value not in ctx.vocab(kb_id, v.slot)):  # fmt: skip
            return v
    return None
