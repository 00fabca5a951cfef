"""S1, annotation against text: the belief state and service calls record what the user said.

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
  reading MultiWOZ 2.1 val and SGD flags (``docs/s1-flags.md``); the classes with no claim
  (``dontcare`` in any wording, negated values, a question about an entity, a fallback, …) and
  a value recorded a turn late (a delay) are listed in S1's reading rules
  (:mod:`csp_check.families.s1_annotation_text`).
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
Artworks", the recorded value written elsewhere in the turn: :func:`_names_both`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict

from csp_check.delexicalize.assignment import Lexicon
from csp_check.language.cues import introduced_as_correction
from csp_check.models import ActRole, ApiCall, Constraint, ConstraintId, Dialogue, Span, Value, Variable, VariableKind
from csp_check.language.normalize import NUMBER_WORDS, clock_time, date_key, normalize, parse_amount
from csp_check.language.roles import PAIRS


#: Formats whose acts always carry the dataset's canonical values (SGD ``canonical_values``): a
#: call argument of a dialogue read from them is comparable with the user's words.
CANONICAL_FORMATS = frozenset({"sgd"})


def recorded_forms(lexicon: Lexicon, slot_type: str, alternatives: list[str]) -> set[str]:
    """The canonical values the recorded ``alternatives`` (surface forms of one value) stand
    for, plus their normalised text: the values a user variable may take under S1."""
    forms: set[str] = set()
    for a in alternatives:
        forms |= lexicon.lookup(slot_type, a) | {normalize(a)}
        if lexicon.today is not None and "date" in slot_type.rpartition(".")[2]:
            forms |= _day_named(a, lexicon.today)  # "3rd of March", "tomorrow": the ISO day
    for form in list(forms):  # "1" / "one": a number in digits or words ("for one person")
        n = parse_amount(form)
        if n is not None:
            forms |= {str(n)} | {w for w, m in NUMBER_WORDS.items() if m == n}
    return forms


def _day_named(text: str, today) -> set[str]:  # type: ignore[no-untyped-def]
    """The ISO day ``text`` names from ``today`` ("the 3rd of March", "tomorrow"), as a set of
    at most one (:func:`csp_check.language.dates.resolve_dates`)."""
    from csp_check.language.dates import resolve_dates

    named = resolve_dates(text, today)
    return {named[0].isoformat()} if len(named) == 1 else set()


def _relative_day(lexicon: Lexicon, v: Variable) -> bool:
    """Whether ``v``'s words name a day relative to the dialogue's known today ("this Monday":
    a day, not a reference to something said before)."""
    return lexicon.today is not None and date_key(v.text or "") == "relative"


#: Span text that refers instead of naming ("the same day", "same group of people", "the
#: places"): what it stands for is not in the words, so there is nothing to hold the state to.
_REFERRING = re.compile(r"\b(?:same|that|this|those|these|it|there|them|places?|one)\b")
#: Bounds (MultiWOZ leaveAt / arriveBy): "after 19:45" is kept by a state of 20:00.
_BOUND = re.compile(r"^(?P<op>after|later than|from|past|before|by|earlier than|no later than|until|prior to)\s+(?P<t>.+)$")
BOUND_SLOTS = frozenset({"leaveAt", "arriveBy"})
_FILLER = frozenset({"the", "a", "an", "of", "from", "restaurant", "hotel", "guesthouse", "college", "museum", "cafe"})


#: Words that give a clock time its half of the day.
_PERIOD = r"\b(?:am|pm|a\.m|p\.m|morning|evening|afternoon|night|noon|midnight)\b"


def same_meaning(said: str, recorded: str, slot: str = "", twelve_hour: bool = True) -> bool:
    """Whether the user's wording ``said`` names the recorded value ``recorded`` (both
    normalised): one word form of the other ("southern" / "southside" / "south", "colleges" /
    "college", "cheaply" / "cheap", "nightclub" / "night club", "4-stars" / "4"), or for a bound
    slot a time within the bound ("after 19:45" / "20:00"). Digits compare exactly. A time said
    without a period ("3:30") may be on the 12-hour clock (15:30) unless ``twelve_hour`` is false
    (the user's words gave the period: "half past 11 in the morning")."""
    a, b = re.sub(r"[^a-z0-9]", "", said), re.sub(r"[^a-z0-9]", "", recorded)
    if not a or not b:
        return False
    if a == b:
        return True
    words_a, words_b = set(said.split()) - _FILLER, set(recorded.split()) - _FILLER
    if words_a and words_a == words_b and not (a.isdigit() or b.isdigit()):
        return True  # "shiraz restaurant" / "shiraz": the same words but for generic ones
    glued = re.match(r"(\d{1,2}:\d\d)(?![\d:])", said)  # "16:15.get", "12:15on": text glued to a time
    said_time = clock_time(said) or (clock_time(glued[1]) if glued else None)  # "7:30 in the evening": 19:30
    if said_time and re.fullmatch(r"\d\d:\d\d", recorded):
        h, m = said_time.split(":")
        twelve = twelve_hour and not re.search(_PERIOD, said)
        if said_time == recorded or (twelve and int(h) < 12 and f"{int(h) + 12:02d}:{m}" == recorded):
            return True  # "leave by 3:30" on the 12-hour clock is 15:30
    star = re.fullmatch(r"(\d+)stars?", a)
    if star and star[1] == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and not short.isdigit() and long_.startswith(short) and len(long_) - len(short) <= 4:
        return True
    if slot in BOUND_SLOTS:
        bound, value = _BOUND.match(said), clock_time(recorded) or recorded
        t = clock_time(bound["t"]) if bound else None
        if t and re.fullmatch(r"\d\d:\d\d", value):
            later = bound["op"] in ("after", "later than", "from", "past")
            return value >= t if later else value <= t
    return False


def _names_both(utterance: str, v: Variable, forms: set[str], spans: list[Span]) -> bool:
    """Whether the utterance leaves open which value the user means: it offers a choice at the
    span ("10:15 or 9:15"), the span is part of a longer name ("the Cambridge Artworks"), or it
    also writes the recorded value elsewhere ("for 4 ... 2 star rating" with stars=2)."""
    assert v.span is not None
    before, after = utterance[: v.span.start].lower(), utterance[v.span.end :]
    if before.rstrip().endswith(" or") or after.lower().lstrip().startswith("or "):
        return True
    if re.match(r" [A-Z][a-z]", after) and utterance[v.span.start : v.span.start + 1].isupper():
        return True
    if introduced_as_correction(utterance, v.span):
        return False  # "for 2. Actually, make that 3 people": the 2 is taken back, the 3 holds
    rest = utterance
    for other in sorted(spans, key=lambda sp: -sp.start):  # text other variables stand for is theirs
        rest = rest[: other.start] + " | " + rest[other.end :]
    rest = normalize(rest)
    written = [f for f in forms if f != "dontcare" and f not in NUMBER_WORDS]  # not "one" in "that one"
    return any(re.search(rf"(?<![\w:]){re.escape(f)}(?![\w:])", rest) for f in written)


def annotation_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value]
) -> list[Constraint]:
    """The S1 instances of ``dialogue`` (module docstring), in turn order.

    ``assignment`` is what the text says (:func:`csp_check.delexicalize.assignment.read_assignment`): a turn
    whose text names two different values of one slot is ambiguous and gives no instance.
    """
    mentions = _user_mentions(variables, assignment)
    spans: dict[int, list[Span]] = defaultdict(list)  # every variable's span (incl. v's own), by turn
    for var in variables:
        if var.span is not None:
            spans[var.turn].append(var.span)
    out: list[Constraint] = []
    state_after: dict[int, dict[str, dict[str, list[str]]]] = {}
    in_force: dict[str, dict[str, list[str]]] = {}
    for turn in dialogue.turns:
        if turn.speaker == "user":
            in_force = {**in_force, **turn.state}
        state_after[turn.index] = in_force
    # Whether the annotations link surface forms to canonical values (SGD canonical_values): then
    # the user's words are read as canonical values and any call argument is comparable.
    canonical = dialogue.format in CANONICAL_FORMATS or any(
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
    return out


def confirmed_call_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value], canonical: bool = True
) -> list[Constraint]:
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
    out: list[Constraint] = []
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
        out.append(Constraint(id=ConstraintId.S1, variables=[v.name], turn=at, slot_type=v.slot_type,
                              values=sorted(forms), record=record))
    return out


def _user_mentions(variables: list[Variable], assignment: dict[str, Value]) -> list[Variable]:
    """Explicit user inform slot variables, less those of a turn naming two values of one slot."""
    candidates = [
        v for v in variables
        if v.speaker == "user" and v.role is ActRole.INFORM and v.kind is VariableKind.SLOT and v.span is not None
    ]
    said: dict[tuple[int, str], set[Value]] = defaultdict(set)
    for v in candidates:
        said[(v.turn, v.slot_type)].add(assignment[v.name])
    return [v for v in candidates if len(said[(v.turn, v.slot_type)]) == 1]


def _instance(
    lexicon: Lexicon, v: Variable, alternatives: list[str] | None, turn: int, record: str, said: Value,
    utterance: str, spans: list[Span],
) -> Constraint | None:
    if not alternatives or (_REFERRING.search(normalize(v.text or "")) and not _relative_day(lexicon, v)):
        return None
    forms = recorded_forms(lexicon, v.slot_type, alternatives)
    if "dontcare" in forms or _names_both(utterance, v, forms, spans):
        return None
    # the value read, and the words themselves ("after 19:45": normalising keeps only the time)
    wordings = {said, " ".join((v.text or "").lower().split())} if isinstance(said, str) else set()
    twelve_hour = not re.search(_PERIOD, (v.text or "").lower())  # "in the morning": not 23:30
    if any(same_meaning(w, f, v.slot, twelve_hour) for w in wordings if w for f in forms):
        forms.add(said)  # the user's wording is a form of the recorded value
    return Constraint(
        id=ConstraintId.S1, variables=[v.name], turn=turn, slot_type=v.slot_type, values=sorted(forms), record=record
    )


#: The belief-state slots of MultiWOZ 2.x (``metadata`` ``semi`` and ``book``, by DB column):
#: fixed per domain. A user value for any other slot (an address, a phone) has no place in the
#: state, so its absence there is no omission.
MULTIWOZ_STATE_SLOTS: dict[str, frozenset[str]] = {
    "taxi": frozenset({"leaveAt", "destination", "departure", "arriveBy"}),
    "restaurant": frozenset({"food", "pricerange", "name", "area", "book people", "book day", "book time"}),
    "hotel": frozenset({"name", "area", "parking", "pricerange", "stars", "internet", "type",
                        "book people", "book day", "book stay"}),
    "attraction": frozenset({"type", "name", "area"}),
    "train": frozenset({"leaveAt", "destination", "day", "arriveBy", "departure", "book people"}),
    "bus": frozenset({"leaveAt", "destination", "day", "arriveBy", "departure", "book people"}),
    "hospital": frozenset({"department"}),
    "police": frozenset(),
}
MULTIWOZ_FORMATS = frozenset({"multiwoz", "multiwoz22", "unified"})
#: Words before a span that negate it ("not in the north", "anything but Italian", "other than",
#: "no Italian"); a leading "No," answers the system and negates nothing.
_NEGATED = re.compile(
    r"(?:\b(?:not|never|without|except|besides|anything but|other than|rather than|instead of)|n't)"
    r"(?:\s+\w+){0,3}\s*$|\bno(?:\s+\w+)?\s*$"
)
#: Wordings of ``dontcare`` as the whole span ("any", "any part of town", "doesn't matter", "no
#: preference"): no value to record. Not a title that contains such a word ("Say Anything").
_DONTCARE = re.compile(
    r"^(?:(?:any|anything|anywhere|whatever|either)(?:\s+\w+){0,3}|not important|(?:i )?do ?n ?'?t care"
    r"|(?:it )?does ?n ?'?t matter|no (?:particular )?preference|do ?n ?'?t mind)$"
)


def state_slots(dialogue: Dialogue, domain: str) -> frozenset[str] | None:
    """The slots the belief state of ``domain`` has (MultiWOZ: fixed, :data:`MULTIWOZ_STATE_SLOTS`),
    or ``None`` when the format does not fix them (SGD, JSONL: any slot of the service)."""
    if dialogue.format in MULTIWOZ_FORMATS and domain in MULTIWOZ_STATE_SLOTS:
        return MULTIWOZ_STATE_SLOTS[domain]
    return None


def _omission(
    dialogue: Dialogue, v: Variable, lexicon: Lexicon, assignment: dict[str, Value], mentions: list[Variable],
    spans: list[Span],
) -> Constraint | None:
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

    partner = {s for pair in PAIRS if v.slot in pair for s in pair} - {v.slot}
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
    return Constraint(id=ConstraintId.S1, variables=[v.name], turn=v.turn, slot_type=v.slot_type, values=[],
                      record=UNTRACKED if untracked else "belief state")


#: ``Constraint.record`` of an omission where the state after the turn has no slot of the domain
#: (a later state tracks it): the user's only value of the domain was dropped.
UNTRACKED = "belief state, which has no slot of the domain yet,"
#: A yes/no question about an entity's attribute ("Is the Lensfield a 4 star hotel?", "Does it
#: have free wifi?", "Do either of them have 4 stars?"): it asks, it does not constrain. Not
#: a search ("is there", "do you have any", "is it possible to").
_ASKS_WHETHER = re.compile(r"(?:^|, )(?:is|are|does|do|has|have|was|were)\b(?!\s+(?:there|you|is|it possible|any)\b)")
#: A value given as a fallback, after the first choice fails ("if the booking fails how about
#: 12:30", "if not, ...", "otherwise"); not a condition the user sets ("only if it leaves on
#: Thursday").
_CONDITIONAL = re.compile(
    r"\bif (?:that |this |it |there |the \w+ )?(?:fails|not|(?:is|'s|was) (?:not|n't)|isn't|does ?n ?'?t|can ?n ?'?t"
    r"|cannot|(?:is |'s )?(?:full|unavailable|booked))(?!\w)|\b(?:otherwise|alternatively)\b"
)
#: A name used to place something else ("a restaurant near the Cityroomz", "a taxi to Cotto").
_PLACES = re.compile(r"\b(?:near|close to|next to|around|from|to|between|by|and)(?:\s+the)?\s*$")
#: Asking to book or choosing: a name so given is the entity the user wants.
_CHOOSES = re.compile(
    r"\b(?:book|booking|reserve|reservation|table at|room at|sounds (?:good|great|nice|fine|perfect|lovely|wonderful)"
    r"|is fine|is perfect|will do|i 'll take|i'll take|go with)\b"
)
#: Slots every bookable domain has: a sentence that also informs another domain leaves open
#: which one the value is for (an act annotation may name the wrong one).
SHARED_SLOTS = frozenset({"book people", "book day", "book time", "book stay", "day"})
_SENTENCE = re.compile(r"(?<=[.?!])\s+")


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


def informs(dialogue: Dialogue, v: Variable, said: Value, spans: list[Span]) -> bool:
    """Whether the words of the user's span ``v`` (reading ``said``) give a value the belief
    state must hold, so that its absence is an omission (module docstring): not ``dontcare`` in
    any wording, not referring ("same day"), not negated ("not in the north"), not a choice
    ("10:15 or 9:15"), not inside a yes/no question about an entity ("Is the Lensfield a 4 star
    hotel?"), not a fallback ("if it fails, 12:30"), not a name the user only asks about, uses
    to place something else ("near the Cotto") or names with another ("Churchill and Magdalene
    Colleges"), and not the generic word "hotel" for the hotel type unless the user sets it
    against a guesthouse. ``spans``: every variable's span in the turn."""
    assert v.span is not None
    utterance = dialogue.turns[v.turn].utterance
    text = normalize(v.text or "")
    before = utterance[: v.span.start].lower()
    if (not isinstance(said, str) or said == "dontcare" or _REFERRING.search(text) or _DONTCARE.match(text)
            or _NEGATED.search(before) or _names_both(utterance, v, set(), spans)):
        return False
    start = 0
    for sentence in _SENTENCE.split(utterance):
        start = utterance.index(sentence, start)
        if start + len(sentence) >= v.span.end:
            break
        start += len(sentence)
    lead = utterance[start : v.span.start].lower()
    sentence_text = sentence.lower().strip()
    if _ASKS_WHETHER.search(lead) or _CONDITIONAL.search(lead) or text in ("yes", "no"):
        return False  # "yes" / "no" alone answers; it does not name the slot
    end = start + len(sentence)
    if v.slot in SHARED_SLOTS and any(
        a.domain != v.domain and a.span is not None and start <= a.span.start < end
        for a in dialogue.turns[v.turn].acts if a.role is ActRole.INFORM
    ):
        return False  # "book the anatolia for 2 people on Saturday": which domain's booking is it?
    if v.slot == "type" and v.domain == "hotel" and said == "hotel":
        return bool(re.search(r"guest ?house", utterance.lower()))
    if v.slot == "name":
        asks = any(a.role is ActRole.REQUEST and a.domain == v.domain for a in dialogue.turns[v.turn].acts)
        after = utterance[v.span.end :].lower()
        if _PLACES.search(lead) or after.lstrip().startswith("and ") or re.search(r"\bboth\b", lead):
            return False
        if not _CHOOSES.search(sentence_text) and (asks or "?" in sentence_text):
            return False
    return True


#: Words right before a span that rule its value out: "anything but", "other than", "except",
#: "rather than", "instead of", "not (in the)", "don't want". Not the looser cues of
#: :data:`_NEGATED`: "why don't we try turkish", "are there no cheap ones?", "I haven't had
#: eritrean in forever", "I can't leave until after 16:45" all ask for the value.
_RULED_OUT = re.compile(
    r"(?:\b(?:anything|something|somewhere|any\s+\w+)\s+(?:but|other\s+than|except)|\bother\s+than|\bexcept(?:\s+for)?"
    r"|\brather\s+than|\binstead\s+of|\bnot(?:\s+(?:be|in|at|a|an|the|in\s+the))?"
    r"|\b(?:do|does|would)\s*(?:n't|n ?'t|not)\s+(?:want|like)(?:\s+\w+){0,2})\s*$"
)
#: Values that are yes / no: "without subtitles" is the value False said in words, not a ruled-out True.
_YES_NO = frozenset({"true", "false", "yes", "no"})


def ruled_out_constraints(
    dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon, assignment: dict[str, Value]
) -> list[Constraint]:
    """The S2 instances of ``dialogue``: an explicit user ``inform`` x whose words rule its value
    out ("anything but Country", "not in the north", "I don't want Italian": :data:`_RULED_OUT`
    right before the span, in its sentence), while the belief state after that turn records the
    value: ``x ∉`` the recorded forms. Not for yes / no values (the negation is the value), a
    span that refers instead of naming, or ``dontcare``. Spec §9: the annotation must record what
    the user said, and a user who rules a value out did not ask for it."""
    out: list[Constraint] = []
    for v in _user_mentions(variables, assignment):
        said = assignment[v.name]
        if not isinstance(said, str) or normalize(said) in _YES_NO | {"dontcare"} or v.span is None:
            continue
        utterance = dialogue.turns[v.turn].utterance
        before = _SENTENCE.split(utterance[: v.span.start])[-1].lower()
        if not _RULED_OUT.search(before):
            continue
        if _REFERRING.search(normalize(v.text or "")):
            continue
        alternatives = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot)
        if not alternatives:
            continue
        forms = recorded_forms(lexicon, v.slot_type, alternatives)
        if "dontcare" in forms or said not in forms:
            continue
        out.append(Constraint(id=ConstraintId("S2"), variables=[v.name], turn=v.turn, slot_type=v.slot_type,
                              values=sorted(forms), record="belief state"))
    return out
