"""S1 (annotation against text): the value the belief state / a service call records for what
the user said is one the user's text states (spec §9, "text is the truth"). The reading of the
annotation is this module's (what it shares with S2 is :mod:`csp_check.families.annotation_common`);
an instance is ``x ∈ {recorded values}``, a set of constants (``x ∈ ∅`` when the record omits
a value the user gave).

The annotations (belief state, service-call arguments) are the dialogue's record of the user's
request; the user's text is the truth (spec §9). S1 checks the record against the text: a
user who says "a table for 2" while the state and the booking call say ``party_size=1`` is an
annotation error — what MultiWOZ 2.2–2.4 corrected by hand in 2.1.

It lowers to the existing primitives: the recorded value is a constant, the user's text
variable must be one of its forms (membership in a fixed set; :func:`csp_check.check.evaluate.satisfied`,
``S1`` in ``csp_check/solvers/consistency.mzn``). Instances (:func:`annotation_constraints`):

- **state**: an explicit (spanned) user ``inform`` variable x of slot type d.s at turn t, when
  the belief state after t records d.s: x ∈ the canonical forms of its alternatives.
- **call**: a service call of domain d at turn u with argument s = p: the latest explicit user
  ``inform`` of d.s at or before u, when the state of d.s has not changed since that mention's
  turn (so the value was not a system proposal the user accepted later; another wording added
  beside the user's, such as the "7:30 pm" a system confirmed, is no change): x ∈ the forms of p.
  Only when p is comparable: the annotations link surface forms to canonical values (SGD), or p
  is one of the state's forms or a value the annotations know (a format that drops canonical
  values — ConvLab-3 unified SGD — leaves "2019-03-14" or "Indian" for the user's "March 14th"
  / "Punjabi" unlinked: no instance).

- **omission** (:func:`_omission`): an explicit user ``inform`` x of d.s at turn t whose
  slot the belief state after t leaves empty while it tracks d (has another slot of d), and no
  later state records x's value before the user names d.s again: ``x ∈ ∅`` (the state records
  nothing; MultiWOZ 2.2 added such values to 2.1's state). Only slots the state has
  (:func:`state_slots`: MultiWOZ's fixed ``semi`` / ``book`` slots per domain; other formats:
  any slot of the service), and only where the words inform (:func:`informs`). Decided by
  reading MultiWOZ 2.1 val and SGD flags (``docs/s1-flags.md``); the cases with no claim are
  listed in the reading rules below.
- **stale value**: the user changes a value ("actually, make it Tuesday") and the state keeps
  the old one: the state instance of the new mention (each mention meets the state after its
  own turn), a contradiction.

Wording: a recorded value's forms include the user's words when they are a word form of it
(:func:`same_meaning`: "southern" for south, "colleges" for college, "after 19:45" for a
leaveAt of 20:00), decided once when the CSP is built, so S1 stays membership in a fixed set.

Not S1 violations, so never instances: span text that refers instead of naming ("the same
day", "same group of people"), a ``dontcare`` state, a slot the state does not record
(except as an omission above), a value the user never said (no user variable), a later change ("actually make it 3":
each mention is compared with the state after its own turn), an implicit variable (no text to
read), a turn where the user names two different values of one slot, or where it leaves
open which one is meant (a choice "10:15 or 9:15", a span inside a longer name "the Cambridge
Artworks", the recorded value written elsewhere in the turn: :func:`names_both`).

Reading rules

- On by default, listed apart from C1–C6 (group ``annotation``); ``--constraints C1,…,C6``
  leaves S1 and S2 out.
- A spanned user inform's text is one of the forms of the value the belief state after its turn
  records, and of the argument of each service call made with it while the state kept that value
  (another wording added beside the user's, such as the "7:30 pm" a system confirmed, is no
  change).
- No claim for ``dontcare``, values the user never said (system proposals the user accepted), a
  later change (each mention meets the state after its own turn), text that refers ("the same
  day"), a choice ("10:15 or 9:15"), an implicit variable, or a call argument the dialogue never
  links to a surface form (ConvLab-3 unified SGD drops the canonical values).
- Word forms count as the value ("southern" / south, "colleges" / college, "4-stars" / 4,
  "after 19:45" / a leaveAt of 20:00, "3:30" / 15:30).
- Travel spans take the slot their words give ("from A to B", "to B from A", "leaving A",
  "departing from A", "going to B"; a return leg makes no claim): :mod:`csp_check.language.roles`.
- **Omissions**: a spanned user inform whose slot the belief state after its turn leaves empty
  while it tracks the domain (has another slot of it), and no later state records it before the
  user names that slot again (a value recorded a turn late is a delay, no claim), is ``x ∈ ∅``.
  Only slots the state has (MultiWOZ: its fixed ``semi`` / ``book`` slots per domain; SGD: any
  slot of the service); the user's only slot of a domain dropped from the state is one too.
- No omission claim for: ``dontcare`` in any wording ("any area", "doesn't matter"), negated
  values ("not in the north", "no Italian"), a yes/no question about an entity ("Is the Lensfield
  a 4 star hotel?", "Does it have free wifi?"; not "is there" / "do you have", which search), a
  fallback ("if the booking fails, how about 12:30"), a bare "yes" / "no" span, a name the user
  only asks about ("What is the postcode of the Curry Garden?"; a name the user chooses or books
  is claimed: "Cotto is fine", "please book the Ashley Hotel"), a name placing something else
  ("near the Cotto", "a taxi to the Golden Curry"), several names ("Churchill and Magdalene
  Colleges"), the generic "hotel" as the hotel type unless set against a guesthouse, a booking
  slot (people, day, time, stay) in a sentence that also informs another domain ("book the
  anatolia for 2 people", annotated as the train's), a value the state holds in the other role of
  the domain (departure / destination, one span annotated as both leaveAt and arriveBy) or, for a
  name, under another domain's non-name slot (a taxi's destination annotated as a restaurant
  name).
- A **stale value** ("actually, make it Tuesday" while the state keeps Monday) is a
  contradiction: each mention meets the state after its own turn. A change of mind in the text
  ("for 2. Actually, make that 3 people") gives the value S1 holds the state to.
- A **system confirmation** of a value the state lacks (SGD's default "a table for 2") meets the
  argument of the service call it leads to, or its next confirmation, unless the user names the
  slot in between.
- **A value no words name** (:func:`indirect_constraints`): an implicit user ``inform`` (no span)
  of a value the state gains at its turn that no utterance of the dialogue so far names in any
  known wording (:mod:`csp_check.iur.detect`) is one of two classes: **implied** (the turn's
  words point to the value: an indirect user request, "my dog comes along" for pets_allowed =
  True) is no constraint and no violation: the report lists it apart (``implied``), never as an
  inconsistency, also under ``--strict``; **unsaid** (no words point to it) is ``x ∈ ∅``, *for
  review*: an annotation error unless a wording the judge lacks says it (the judge's lexicon is
  not complete).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Mapping

from csp_check.corpora import profile_for
from csp_check.corpora.shared import TRIP_ROLES
from csp_check.delexicalize.assignment import Lexicon
from csp_check.families.annotation_common import (
    PERIOD,
    REFERRING,
    RecordedValuesInstance,
    informs,
    names_both,
    recorded_forms,
    same_meaning,
    user_mentions,
)
from csp_check.families.primitives import Member, Primitive
from csp_check.families.registry import Family, register
from csp_check.iur.detect import Candidate, implied_values
from csp_check.language.normalize import date_key, normalize
from csp_check.models import (
    CSP,
    ActRole,
    ApiCall,
    ConstraintId,
    Dialogue,
    ImpliedValue,
    Span,
    Value,
    Variable,
    VariableKind,
)

#: ``RecordedValuesInstance.record`` of an omission where the state after the turn has no slot of the domain
#: (a later state tracks it): the user's only value of the domain was dropped.
UNTRACKED = "belief state, which has no slot of the domain yet,"


@register
class AnnotationText(Family[RecordedValuesInstance]):
    id = "S1"
    name = "annotation against text"
    description = "the belief state and service calls record what the user's text says"
    group = "annotation"
    instance_type = RecordedValuesInstance

    def build(self, ctx) -> list[RecordedValuesInstance]:
        """The instances :func:`annotation_constraints` reads off the dialogue; its implied values
        (indirect requests, no instance) go to ``ctx.implied``."""
        unnamed = unnamed_values(ctx.dialogue, ctx.variables)
        ctx.implied += implied_requests(unnamed)
        return annotation_constraints(ctx.dialogue, ctx.variables, ctx.lexicon, ctx.assignment, unnamed)

    def satisfied(self, constraint: RecordedValuesInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        return all(assignment[n] in constraint.values for n in constraint.variables)

    def lower(self, constraint: RecordedValuesInstance, csp: CSP) -> list[Primitive]:
        return [Member(tuple(constraint.variables), frozenset(constraint.values))]

    def evidence_turns(self, constraint: RecordedValuesInstance) -> set[int]:
        """The turn whose state / call records the value."""
        return {constraint.turn} if constraint.turn is not None else set()

    def explain(self, constraint: RecordedValuesInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        var = by_name[constraint.variables[0]]
        value, slot = assignment[var.name], var.slot_type
        span = f" [{var.span.start}:{var.span.end}] {var.text!r}" if var.span else ""
        record = constraint.record or "annotation"
        if not constraint.values and var.span is None:  # a value no words name (indirect_constraints)
            return (f"turn {var.turn}: the {record} records {slot}={value!r}, which no words of the dialogue "
                    f"so far name ({constraint.uncertain})")
        if not constraint.values:  # an omission: x ∈ ∅
            tracks = "" if record.endswith("yet,") else f"tracks {slot.split('.')[0]} but "
            return (f"turn {var.turn} the user says{span} ({slot}={value!r}); the {record} "
                    f"at turn {constraint.turn} {tracks}records no {slot}")
        recorded = " / ".join(repr(x) for x in constraint.values)
        if var.speaker == "system":  # a confirmation held to the call it leads to
            return (f"turn {var.turn} the system confirms{span} ({slot}={value!r}); the {record} "
                    f"at turn {constraint.turn} records {slot}={recorded}")
        return (f"turn {var.turn} the user says{span} ({slot}={value!r}); the {record} "
                f"at turn {constraint.turn} records {slot}={recorded}")


def annotation_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value],
    unnamed: list[tuple[Variable, Candidate]] | None = None,
) -> list[RecordedValuesInstance]:
    """The S1 instances of ``dialogue`` (module docstring), in turn order.

    ``assignment`` is what the text says (:func:`csp_check.delexicalize.assignment.read_assignment`): a turn
    whose text names two different values of one slot is ambiguous and gives no instance.
    ``unnamed``: :func:`unnamed_values` of the dialogue, when the caller has it already.
    """
    mentions = user_mentions(variables, assignment)
    spans: dict[int, list[Span]] = defaultdict(list)  # every variable's span (incl. v's own), by turn
    for var in variables:
        if var.span is not None:
            spans[var.turn].append(var.span)
    out: list[RecordedValuesInstance] = []
    state_after: dict[int, dict[str, dict[str, list[str]]]] = {}
    in_force: dict[str, dict[str, list[str]]] = {}
    for turn in dialogue.turns:
        if turn.speaker == "user":
            in_force = {**in_force, **turn.state}
        state_after[turn.index] = in_force
    # Whether the annotations link surface forms to canonical values (SGD canonical_values): then
    # the user's words are read as canonical values and any call argument is comparable.
    canonical = profile_for(dialogue).canonical_acts or any(
        a.canonical is not None and a.value is not None and normalize(a.canonical) != normalize(a.value)
        for t in dialogue.turns for a in t.acts
    )
    by_type: dict[str, list[Variable]] = defaultdict(list)
    for v in mentions:
        by_type[v.slot_type].append(v)
        alternatives = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot)
        if not alternatives:  # omission: the state tracks the domain but not the value the user gave
            omitted = _omission(dialogue, v, lexicon, assignment, mentions, spans[v.turn])
            if omitted is not None:
                out.append(omitted)
            continue
        instance = _instance(lexicon, v, alternatives, v.turn, "belief state", assignment[v.name],
                             dialogue.turns[v.turn].utterance, spans[v.turn])
        if instance is not None:
            out.append(instance)
    for turn in dialogue.turns:
        for result in turn.kb_results:
            if result.call is None:
                continue
            for slot, value in result.call.parameters.items():
                mentioned = by_type.get(f"{result.domain}.{slot}", [])  # in turn order
                k = bisect_right(mentioned, turn.index, key=lambda m: m.turn)  # linear in the turns overall
                if not k:
                    continue
                x = mentioned[k - 1]
                then = state_after[x.turn].get(x.domain, {}).get(slot)
                now = state_after[turn.index].get(x.domain, {}).get(slot)
                if then != now and not (then and now and set(then) <= set(now)):
                    continue  # the state changed since (a proposal the user accepted, a correction); a
                    # wording added beside the user's ("7:30 pm" the system confirmed) is no change
                if not canonical and normalize(value) not in recorded_forms(lexicon, x.slot_type, now or []) and not (
                    lexicon.lookup(x.slot_type, value)
                ):
                    continue  # a back-end canonical form the dialogue never links to a surface form
                instance = _instance(lexicon, x, [value], turn.index, f"{result.call.method} call", assignment[x.name],
                                     dialogue.turns[x.turn].utterance, spans[x.turn])
                if instance is not None:
                    out.append(instance)
    out += confirmed_call_constraints(dialogue, variables, lexicon, assignment, canonical)
    out += indirect_constraints(unnamed_values(dialogue, variables) if unnamed is None else unnamed)
    return out


#: ``RecordedValuesInstance.record`` of a value no words name (:func:`indirect_constraints`).
UNNAMED = "belief state"


def unnamed_values(dialogue: Dialogue, variables: list[Variable]) -> list[tuple[Variable, Candidate]]:
    """The implicit user ``inform`` variables (the first of each turn and slot) of values the
    turn's state gains that no words of the dialogue so far name, with their detection
    (:func:`csp_check.iur.detect.implied_values`), in turn order."""
    implicit = [v for v in variables
                if v.speaker == "user" and v.role is ActRole.INFORM and v.kind is VariableKind.SLOT and v.span is None]
    found = implied_values(dialogue, {(v.turn, v.slot_type) for v in implicit})
    out: list[tuple[Variable, Candidate]] = []
    seen: set[tuple[int, str]] = set()
    for v in implicit:
        pair = (v.turn, v.slot_type)
        if pair in found and pair not in seen:
            seen.add(pair)
            out.append((v, found[pair]))
    return out


def indirect_constraints(unnamed: list[tuple[Variable, Candidate]]) -> list[RecordedValuesInstance]:
    """S1 for the *unsaid* values (:func:`unnamed_values` whose turn has no words pointing to
    them): one ``x ∈ ∅`` each, for review (the lexical judge may lack the wording). Implied
    values (indirect requests) are no instance: :func:`implied_requests` reports them."""
    return [RecordedValuesInstance(id=ConstraintId.S1, variables=[v.name], turn=v.turn, slot_type=v.slot_type,
                                   values=[], record=UNNAMED,
                                   uncertain=f"unsaid: {c.reason} (the lexical judge may lack its wording)")
            for v, c in unnamed if c.kind != "implied"]


def implied_requests(unnamed: list[tuple[Variable, Candidate]]) -> list[ImpliedValue]:
    """The *implied* values (:func:`unnamed_values` whose turn's words point to them: indirect
    user requests, IUR paper §3), reported apart from the violations (``DialogueReport.implied``),
    never a constraint."""
    return [ImpliedValue(turn=v.turn, slot=v.slot_type, value=c.value, reason=c.reason)
            for v, c in unnamed if c.kind == "implied"]


def confirmed_call_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value], canonical: bool = True
) -> list[RecordedValuesInstance]:
    """S1 for what a system turn asks the user to confirm and the state does not hold (a value
    the system fills in: SGD's party size of 2, "a table for 2"): the service call of that
    domain that the confirmation leads to records it. ``x ∈`` the forms of the call's argument,
    for an explicit system CONFIRM slot variable whose slot the user's state in force lacks,
    when a later turn calls that domain with the slot before the user names the slot, or else
    confirms it again (then its annotated value) before the user names it (a user who changes
    the value is held by the state;
    spec §9: the text is the truth, and the call is the annotation of what was confirmed).
    A confirmation that names two values of the slot, or a turn that also reports a failure
    or offers alternatives, gives none; nor, where the annotations carry no canonical values
    (``canonical`` false: ConvLab-3 unified), an argument the dialogue never links to a surface
    form ("2019-03-01" for "today")."""
    state_in_force: dict[str, dict[str, list[str]]] = {}
    in_force_at: dict[int, dict[str, dict[str, list[str]]]] = {}
    for turn in dialogue.turns:
        if turn.speaker == "user":
            state_in_force = {**state_in_force, **turn.state}
        in_force_at[turn.index] = state_in_force
    confirms = [v for v in variables if v.speaker == "system" and v.role is ActRole.CONFIRM
                and v.kind is VariableKind.SLOT and v.span is not None]
    per_turn: dict[tuple[int, str], int] = defaultdict(int)
    for v in confirms:
        per_turn[(v.turn, v.slot_type)] += 1
    out: list[RecordedValuesInstance] = []
    for v in confirms:
        if per_turn[(v.turn, v.slot_type)] != 1 or in_force_at[v.turn].get(v.domain, {}).get(v.slot):
            continue
        if any(a.role in (ActRole.FAILED, ActRole.NO_RESULT, ActRole.OFFER) for a in dialogue.turns[v.turn].acts):
            continue
        argument, at = None, None
        for turn in dialogue.turns[v.turn + 1 :]:
            if turn.speaker == "user" and any(a.domain == v.domain and a.slot == v.slot for a in turn.acts):
                break  # the user names the slot: the state holds them to it
            again = [a for a in turn.acts if turn.speaker == "system" and a.role is ActRole.CONFIRM
                     and a.domain == v.domain and a.slot == v.slot and a.value is not None]
            if again:  # confirmed again with nothing said in between: the same value, as annotated
                if len(again) == 1:
                    argument, at = ApiCall(domain=v.domain, method="confirmation", parameters={
                        v.slot: again[0].canonical or again[0].value}), turn.index
                break
            calls = [r.call for r in turn.kb_results if r.call is not None and r.domain == v.domain]
            if calls:
                if v.slot in calls[0].parameters:
                    argument, at = calls[0], turn.index
                break
        if argument is None or at is None:
            continue
        value = str(argument.parameters[v.slot])
        if not canonical and not lexicon.lookup(v.slot_type, value):
            continue
        forms = recorded_forms(lexicon, v.slot_type, [value])
        said = assignment[v.name]
        if isinstance(said, str) and any(same_meaning(w, f, v.slot) for w in {said} if w for f in forms):
            forms.add(said)
        record = "next confirmation" if argument.method == "confirmation" else f"{argument.method} call"
        out.append(RecordedValuesInstance(id=ConstraintId.S1, variables=[v.name], turn=at, slot_type=v.slot_type,
                              values=sorted(forms), record=record))
    return out


def _instance(
    lexicon: Lexicon, v: Variable, alternatives: list[str] | None, turn: int, record: str, said: Value,
    utterance: str, spans: list[Span],
) -> RecordedValuesInstance | None:
    if not alternatives or (REFERRING.search(normalize(v.text or "")) and not _relative_day(lexicon, v)):
        return None
    forms = recorded_forms(lexicon, v.slot_type, alternatives)
    if "dontcare" in forms or names_both(utterance, v, forms, spans):
        return None
    # the value read, and the words themselves ("after 19:45": normalising keeps only the time)
    wordings = {said, " ".join((v.text or "").lower().split())} if isinstance(said, str) else set()
    twelve_hour = not PERIOD.search((v.text or "").lower())  # "in the morning": not 23:30
    if isinstance(said, str) and any(same_meaning(w, f, v.slot, twelve_hour) for w in wordings if w for f in forms):
        forms.add(said)  # the user's wording is a form of the recorded value
    return RecordedValuesInstance(
        id=ConstraintId.S1, variables=[v.name], turn=turn, slot_type=v.slot_type, values=sorted(forms), record=record
    )


def _relative_day(lexicon: Lexicon, v: Variable) -> bool:
    """Whether ``v``'s words name a day relative to the dialogue's known today ("this Monday":
    a day, not a reference to something said before)."""
    return lexicon.today is not None and date_key(v.text or "") == "relative"


def state_slots(dialogue: Dialogue, domain: str) -> frozenset[str] | None:
    """The slots the belief state of ``domain`` has when the dialogue's corpus profile fixes them
    (:attr:`~csp_check.corpora.profile.CorpusProfile.state_slots`: MultiWOZ 2.x, ConvLab-3 unified),
    or ``None`` when it does not (SGD, JSONL: any slot of the service)."""
    slots = profile_for(dialogue).state_slots
    return None if slots is None else slots.get(domain)


def _omission(
    dialogue: Dialogue, v: Variable, lexicon: Lexicon, assignment: dict[str, Value], mentions: list[Variable],
    spans: list[Span],
) -> RecordedValuesInstance | None:
    """The S1 instance of an *omission* (module docstring): the user gives a value of d.s, the
    belief state after the turn tracks domain d but has no value for s, and no later state
    records it before the user mentions d.s again. ``x ∈ ∅`` (the state records nothing)."""
    said = assignment[v.name]
    state = dialogue.turns[v.turn].state
    slots = state_slots(dialogue, v.domain)
    if not isinstance(said, str) or (slots is not None and v.slot not in slots):
        return None
    if not state.get(v.domain) and not any(t.speaker == "user" and t.state.get(v.domain) for t in dialogue.turns[v.turn + 1 :]):
        return None  # the state never tracks d: nothing to compare (the user's only slot of d dropped is
        # an omission when a later state tracks d; a value recorded late is a delay, below)
    if not informs(dialogue, v, said, spans):
        return None
    forms = recorded_forms(lexicon, v.slot_type, [v.text or "", said])

    def records(values: list[str]) -> bool:
        return any(normalize(x) in forms or any(same_meaning(f, normalize(x), v.slot) for f in forms) for x in values)

    partner = {s for pair in TRIP_ROLES if v.slot in pair for s in pair} - {v.slot}
    partner |= {a.slot for a in dialogue.turns[v.turn].acts if a.span == v.span and a.domain == v.domain}  # one span, two slots
    if any(records(vals) for d, slots_ in state.items() for s, vals in slots_.items()
           if s in partner and d == v.domain or v.slot == "name" and s != "name" and d != v.domain):
        return None  # the state has it in the other role, or a name as another domain's place (taxi destination)
    later = [m.turn for m in mentions if m.slot_type == v.slot_type and m.turn > v.turn]
    until = min(later, default=len(dialogue.turns))
    untracked = not state.get(v.domain)  # the user's only slot of d: the state may pick d up when it is said again
    if untracked and _inside_other_name(dialogue.turns[v.turn].utterance, v, lexicon):
        return None  # "the cambridge punter is what I would love to go to", "cambridge" annotated as a
        # train's destination: the act's domain, not the state, is wrong
    for turn in dialogue.turns[v.turn + 1 : until + untracked]:
        if turn.speaker == "user" and records(turn.state.get(v.domain, {}).get(v.slot, [])):
            return None  # recorded a turn late: a delay, not an omission
    return RecordedValuesInstance(id=ConstraintId.S1, variables=[v.name], turn=v.turn, slot_type=v.slot_type, values=[],
                      record=UNTRACKED if untracked else "belief state")


def _inside_other_name(utterance: str, v: Variable, lexicon: Lexicon) -> bool:
    """Whether ``v``'s span lies inside the name of an entity of another domain of the attached KB
    written in ``utterance`` ("cambridge" of "the cambridge punter")."""
    if lexicon.kb is None or v.span is None:
        return False
    text = normalize(utterance)
    own = normalize(v.text or "")
    for domain, table in lexicon.kb.tables.items():
        if domain == v.domain:
            continue
        for entity in table.normalized():
            name = entity.get("name", "")
            if name and own in name and own != name and re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
                return True
    return False
