"""How sure the reading a broken constraint instance rests on is: :func:`assess` gives the reason
an instance is *uncertain*, or ``None`` when its reading is settled. A broken uncertain instance
is reported for review (``Violation.certain`` false), not counted as an inconsistency.

Every broken instance is assessed when its dialogue's report is made
(:func:`csp_check.pipeline.report_for`), whatever its family: the rules read the variables it rests on — those of the turn that claims
(the *claim*) and those that say what was asked (the *filters*: the scope's variables of other
turns) — with the rules of English in :mod:`csp_check.language.certainty`. A family that knows
more sets ``Constraint.uncertain`` itself; the first reason found is kept.

Reading rules

- **The claim is asked, supposed or denied.** A claim variable in a question is asked, not
  stated, unless the question proposes an entity by name ("How about Idian?" still says Idian
  exists); one under "if" is supposed; an offer (C5) inside "there are no …" / "could not
  find …" denies, it does not offer. A C5 claim whose stated part alone (the instance without
  the asked, supposed or denied variables and their columns) no entity has stays certain:
  "Their address is 1991 Santa Rita Road. Shall I try for 2 at 12 pm?" states the address.
- **The amount is not exact** (C6): a vague amount ("several"), an increment ("3 more"), a rating
  ("4 out of 5"), a count of coordinated kinds ("hotels and guesthouses"), an amount with a name
  ("one guesthouse called X"), a count with no filter at all, and a count whose sentence names a
  value of the table that is no filter ("four with free entrance" where entrance fee is no
  filter): which entities are counted is not settled.
- **A filter's source is unsure.** A filter the user only asked about ("Is it cheap?"), supposed
  ("if not, then …"), said approximately ("around 20:45"), or lifted later ("anywhere is fine",
  "no preference") in a user turn before the claim; a filter only the system introduced (the
  user never said its value).
- **Surface variants** (C5): a name, phone, postcode, address or id one edit away from the value
  of an entity that has the rest of the claim ("cv11ln" for cb11ln, "265" for "365 milton
  road", "tr588" for tr5588), or equal to it but for spaces: a typo, not another entity.
- **A proposed alternative** (C5): after a failed transaction (SGD ``NOTIFY_FAILURE``), a value
  the system offers for a slot of the failed call ("I could not book it. How about 6 pm
  instead?") proposes a new try, it does not say an entity has it: with the rest of the claim
  true of some entity, the instance is uncertain. What the turn informs ("Their address is …")
  is still a claim.
- **Binding** (C5): a claim whose variables lie in different sentences of a turn that names
  more than one entity: which entity an attribute is said of is not settled.
- **A requested time** (C5): a system time equal to a time the user asked for, said after
  "after", "by" or "before": the bound repeated, not the entity's time.
- **A full result** (C6): a count above what the KB result holds, where the result is as full
  as the corpus's results get (SGD: 10, ``CorpusProfile.results_cap``): the entities left out
  may make it up ("I found 12" beside 10 results; "10" there claims "10 or more"). A count below
  what the result holds is refuted all the same.
- **Coreference across a question or an approximation** (C2): one side asked or approximate.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from csp_check.corpora import CorpusProfile, profile_for
from csp_check.families.primitives import count_matches
from csp_check.language import certainty as words
from csp_check.language.cues import approx_tolerance
from csp_check.language.normalize import normalize
from csp_check.models import CSP, ActRole, Constraint, Dialogue, Variable, VariableKind

#: The id of the KB families and of coreference, by which the rules below pick what applies.
KB_FAMILIES = frozenset({"C4", "C5", "C6"})
#: Columns whose values are written, not chosen: a one-edit difference is a typo (surface variant).
WRITTEN_COLUMNS = frozenset({"name", "phone", "postcode", "address", "trainID", "trainid", "id"})
CALLED = re.compile(r"^\s*(?:[a-z'-]+\s+){0,3}?(called|named)\b", re.I)
BOUND_WORDS = re.compile(r"\b(after|by|before|until|no later than|not later than)\s*$", re.I)
CLOCK = re.compile(r"^\d{1,2}:\d{2}$")


@dataclass
class Reading:
    """What the rules read: a dialogue, its CSP's variables, tables and assignment, its profile."""

    dialogue: Dialogue
    csp: CSP
    profile: CorpusProfile
    by_turn: dict[int, list[Variable]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, dialogue: Dialogue, csp: CSP) -> Reading:
        reading = cls(dialogue, csp, profile_for(dialogue))
        for v in csp.variables:
            reading.by_turn[v.turn].append(v)
        return reading

    @property
    def variables(self) -> list[Variable]:
        return self.csp.variables

    @property
    def kbs(self) -> dict[str, list[dict[str, str]]]:
        return self.csp.kbs

    @property
    def assignment(self) -> dict:
        return self.csp.assignment


def assess(ctx: Reading, constraint: Constraint) -> str | None:
    """The reason ``constraint``'s reading is uncertain, or ``None`` (module doc): the family's
    own (``Constraint.uncertain``) first, then the first of :data:`RULES`'."""
    if constraint.uncertain is not None:
        return constraint.uncertain
    family = str(constraint.id)
    by_name = {v.name: v for v in ctx.variables}
    scope = [by_name[n] for n in constraint.scope if n in by_name]
    for rule in RULES:
        reason = rule(ctx, constraint, family, scope)
        if reason:
            return reason
    return None


def _utterance(ctx, v: Variable) -> str:
    return ctx.dialogue.turns[v.turn].utterance


def _claim(constraint: Constraint, scope: list[Variable]) -> list[Variable]:
    return [v for v in scope if v.turn == constraint.turn and v.span is not None]


def _filters(constraint: Constraint, scope: list[Variable]) -> list[Variable]:
    return [v for v in scope if v.turn != constraint.turn]


def claim_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """The claim is asked (without naming an entity), supposed, or — for an offer — denied."""
    if family not in KB_FAMILIES:
        return None
    claim = _claim(constraint, scope)
    names = any(v.slot in ctx.profile.entity_columns for v in claim)
    unsettled: dict[str, str] = {}
    for v in claim:
        text = _utterance(ctx, v)
        if not names and (reason := words.asked(text, v.span)):
            unsettled[v.name] = reason
        elif reason := words.supposed(text, v.span):
            unsettled[v.name] = reason
        elif family == "C5" and v.kind is VariableKind.SLOT and (reason := words.denied(text, v.span)):
            unsettled[v.name] = reason
    if not unsettled:
        return None
    if family == "C5" and not _rest_holds(ctx, constraint, set(unsettled)):
        return None  # what the turn states, without what it asks, supposes or denies, is false already
    return next(iter(unsettled.values()))


def _rest_holds(ctx, constraint: Constraint, left_out: set[str]) -> bool:
    """Whether some entity of the instance's table has every value of the instance but those of
    the variables ``left_out`` (and of the columns they fill: what was asked of them goes too)."""
    pairs = list(zip(getattr(constraint, "columns", []), constraint.variables))
    columns = {c for c, n in pairs if n in left_out}
    rest = [(c, n) for c, n in pairs if c not in columns]
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    return count_matches(rows, [c for c, _ in rest], [ctx.assignment.get(n) for _, n in rest])[1] > 0


def amount_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C6: the amount is vague, an increment, a rating, of coordinated kinds or of a named entity;
    the count has no filter; its sentence names a value that is no filter."""
    if family != "C6":
        return None
    amount = next((v for v in scope if v.name == getattr(constraint, "count_variable", None)), None)
    if amount is None or amount.span is None:
        return None
    text = _utterance(ctx, amount)
    for reason in (words.vague_amount(amount.text), words.not_a_total(text, amount.span),
                   words.coordinated(text, amount.span), words.asked(text, amount.span)):
        if reason:
            return reason
    if m := CALLED.match(text[amount.span.end :]):
        return f"a count with a name: {text[amount.span.start:amount.span.end + m.end()].strip()!r}"
    if not constraint.variables and not getattr(constraint.table, "restrictions", ()):
        return "a count of no search: what is counted is not said"
    return _unfiltered_value(ctx, constraint, amount, text)


def full_result(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C6: a count above what a full result (``CorpusProfile.results_cap``) holds."""
    cap = ctx.profile.results_cap
    if family != "C6" or cap is None:
        return None
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    amount = ctx.assignment.get(getattr(constraint, "count_variable", ""))
    if len(rows) < cap or not isinstance(amount, int):
        return None
    op = ctx.csp.variable(constraint.count_variable).amount_op
    if op in ("<", "<="):
        return None
    lowest = amount + 1 if op == ">" else amount - approx_tolerance(amount) if op == "~" else amount
    values = [ctx.assignment.get(n) for n in constraint.variables]
    _, possible = count_matches(rows, getattr(constraint, "columns", []), values, getattr(constraint, "ops", None))
    if lowest > possible:
        return f"the result is full ({len(rows)} entities, as many as a result holds): a count of {amount} is not refuted"
    return None


def _unfiltered_value(ctx, constraint: Constraint, amount: Variable, text: str) -> str | None:
    """A value of a search column of the count's table said in the count's sentence but no filter."""
    start, end = words.sentence(text, amount.span)
    said = f" {normalize(text[start:end])} "
    filtered = set(getattr(constraint, "columns", []))
    filter_values = {str(ctx.assignment.get(n)) for n in constraint.variables}
    kb_id = getattr(constraint, "kb", None)
    rows = ctx.kbs.get(getattr(constraint.table, "base", kb_id)) or []
    if not rows:
        return None
    columns = set(ctx.profile.search_columns) or set(rows[0])
    for column in sorted(columns - filtered):
        values = {e.get(column) for e in rows}
        for value in sorted(x for x in values - filter_values
                            if x and len(x) >= 4 and not x.isdigit() and x not in {"yes", "no", "dontcare", "none", "?"}):
            if f" {value} " in said:
                return f"the count's sentence says {column}={value!r}, which is no filter"
    return None


def filter_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """A filter asked, supposed, approximate, lifted later, or only the system's."""
    if family not in KB_FAMILIES:
        return None
    if family == "C5" and not _claim_exists(ctx, constraint):
        return None  # what the claim says alone no entity has: what was asked does not matter
    for v in _filters(constraint, scope):
        if v.span is None or v.speaker != "user":
            continue
        text = _utterance(ctx, v)
        for reason in (words.asked_of_entity(text, v.span), words.supposed(text, v.span),
                       words.approximate(text, v.span)):
            if reason:
                return f"filter {v.slot_type} {reason}"
    claim_turn = constraint.turn if constraint.turn is not None else len(ctx.dialogue.turns)
    first = min((v.turn for v in _filters(constraint, scope)), default=claim_turn)
    slots = {v.slot for v in _filters(constraint, scope)}
    for turn in ctx.dialogue.turns[first:claim_turn]:
        if turn.speaker == "user" and (relaxation := words.relaxed(turn.utterance)):
            reason, said = relaxation
            named = words.slots_named(said) or words.slots_named(ctx.dialogue.turns[turn.index - 1].utterance if turn.index else "")
            if slots & named:
                return f"the user {reason} at turn {turn.index}"
    for v in _filters(constraint, scope):
        if v.speaker == "system" and v.kind is VariableKind.SLOT and not _user_said(ctx, v, claim_turn):
            return f"filter {v.slot_type}={v.value!r} only the system introduced (turn {v.turn})"
    return None


def _claim_exists(ctx, constraint: Constraint) -> bool:
    """Whether some entity of the instance's table has every value the claim's turn says."""
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    said = {col: ctx.assignment.get(n) for col, n in zip(getattr(constraint, "columns", []), constraint.variables)
            if ctx.csp.variable(n).turn == constraint.turn}
    return any(all(e.get(c) in (None, x) or x == "dontcare" for c, x in said.items()) for e in rows)


def _user_said(ctx, v: Variable, before: int) -> bool:
    return any(u.speaker == "user" and u.slot_type == v.slot_type and u.value == v.value and u.turn <= before
               for u in ctx.variables)


def surface_variant(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: a written value one edit from an entity's that has the rest of the claim."""
    if family != "C5":
        return None
    columns, names = getattr(constraint, "columns", []), constraint.variables
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    said = {col: str(ctx.assignment.get(n, "")) for col, n in zip(columns, names)}
    for column in [c for c in columns if c in WRITTEN_COLUMNS]:
        mine = said[column]
        rest = {c: x for c, x in said.items() if c != column}
        if not rest and column in ctx.profile.entity_columns and len(mine) < 7:
            continue  # a short id alone ("tr8912"): its one-edit neighbours are other entities
        for e in rows:
            if all(e.get(c) in (None, x) for c, x in rest.items()) and _near(mine, e.get(column) or ""):
                return f"{column} {mine!r} is a surface variant of {e.get(column)!r}"
    return None


def _near(a: str, b: str) -> bool:
    """Equal but for spaces and punctuation, or one edit apart (a substitution, insertion,
    deletion or swap of neighbours), for values of at least 4 characters."""
    a, b = (re.sub(r"[\s.,'-]", "", s.lower()) for s in (a, b))
    if a == b:
        return bool(a)
    if min(len(a), len(b)) < 4:
        return False
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def proposed_alternative(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: values offered for the failed call's slots after a failed transaction, the rest true."""
    if family != "C5" or constraint.turn is None:
        return None
    turn = ctx.dialogue.turns[constraint.turn]
    if not any(a.role is ActRole.FAILED for a in turn.acts):
        return None
    calls = turn.kb_results or next((t.kb_results for t in reversed(ctx.dialogue.turns[: turn.index]) if t.kb_results), [])
    slots = {p for r in calls for p in r.call.parameters}
    proposed = [v for v in _claim(constraint, scope) if v.role is ActRole.OFFER and v.slot in slots]
    if not proposed:
        return None
    if _rest_holds(ctx, constraint, {v.name for v in proposed}):
        said = ", ".join(f"{v.slot}={v.text!r}" for v in proposed)
        return f"a proposed alternative after a failed transaction (turn {turn.index}): {said}"
    return None


def binding_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: the claim spans sentences of a turn that names more than one entity."""
    if family != "C5":
        return None
    claim = _claim(constraint, scope)
    if len(claim) < 2:
        return None
    text = _utterance(ctx, claim[0])
    sentences = {words.sentence(text, v.span) for v in claim}
    if len(sentences) < 2:
        return None
    named = {str(v.value) for v in ctx.by_turn.get(constraint.turn, []) if v.slot in ctx.profile.entity_columns}
    return "attributes said in other sentences of a turn naming several entities" if len(named) > 1 else None


def requested_time(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: a system time that repeats the user's bound ("the first train after 17:45")."""
    if family != "C5":
        return None
    for v in _claim(constraint, scope):
        value = str(ctx.assignment.get(v.name, v.value))
        if not CLOCK.match(value) or not BOUND_WORDS.search(_utterance(ctx, v)[: v.span.start]):
            continue
        if any(u.speaker == "user" and str(ctx.assignment.get(u.name, u.value)) == value for u in ctx.variables if u.turn < v.turn):
            return f"the time {value} repeats the user's bound"
    return None


def coreference_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: a side of the coreference asked or approximate."""
    if family != "C2":
        return None
    for v in scope:
        if v.span is None:
            continue
        text = _utterance(ctx, v)
        for reason in (words.asked(text, v.span), words.approximate(text, v.span), words.supposed(text, v.span)):
            if reason:
                return f"turn {v.turn} {reason}"
    return None


Rule = Callable[..., str | None]
#: The rules :func:`assess` applies, in order; the first reason found is the instance's.
RULES: Iterable[Rule] = (claim_unsettled, amount_unsettled, full_result, filter_unsettled, surface_variant,
                         proposed_alternative, binding_unsettled,
                         requested_time, coreference_unsettled)
