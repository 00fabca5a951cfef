"""Delexicalizer: annotated dialogue → variables (paper §3.1, spec §1).

Every act value that names a slot value or an amount of KB instances becomes a
:class:`~csp_check.models.Variable` with its span; the text gets ``[xN]`` placeholders. The
variable's value is then read from the text at its span (:mod:`csp_check.delexicalize.assignment`).

Reading rules

- **Which acts give variables** (spec §9: structure from the annotation, values from the
  text): every act value of an inform / offer / confirm / count / no-result / booked / failed /
  request act (every role except ``request`` without a value and ``other``); act values of the
  pseudo-slot ``intent`` are not domain values and are skipped.
- **Spans**: every annotated span is one variable whose slot is the span's. A multi-valued act
  (``OFFER movie_name [A, B, C]``) aligns with its spans by text and then in order (readers), so
  a span whose text matches no act value is kept, and two spans with equal text are two
  variables ("A, A or C" gives C3 three variables). One span annotated by several acts gives one
  variable.
- **A value without a span** is located by what it is, not by searching for the annotated value
  (:mod:`csp_check.language.cues`): an amount as a number counting entities
  (:func:`csp_check.language.cues.count_spans`: "I found 12" where the act says 10 is the variable
  and reads 12); a True/False slot by its cue words and their negation
  (:func:`csp_check.language.cues.boolean_span`); a closed numeric slot by its unit ("1 stop",
  "a table for 2"); any other closed (categorical) value as the longest value of the slot's
  schema list written there (:func:`_closed_value`: "Premium Economy", not its "Economy";
  "Business" where the act says Economy; in user turns not a value rejected, echoed outside a
  request, or said of the offer: "not on TV", "That's pretty expensive"); other values by
  normalised, word-bounded matching (:func:`locate`).
- **Word boundaries**: a span (or a located value) whose boundary falls inside a word — a
  letter or digit on both sides — is widened to the word's edge where the variable's text is
  read (:func:`word_bounded`), and an act value that is the cut text takes the whole word:
  MultiWOZ's "0210 Millers Yard in the City Centre" for "40210 Millers Yard …" reads 40210, "rey
  Skoda" reads "Grey Skoda" (a value of two or more words cut short is located inside the word;
  a short one, "east" in "northeast", is not); an act value cut inside its last word where the
  span is whole ("coldhams business par") takes the text's word. Exact spans (SGD's, MultiWOZ's
  word-indexed ones) are never changed.
- **Implicit**: if nothing is found the variable is *implicit* (``span=None``, value from the
  annotation), counted in ``DelexicalizedDialogue.implicit`` and reported. An amount whose text
  is not a number ("several") gives no amount variable (the constraint builder still reads the
  act as "at least one instance").
- **Restated details**: a system turn confirming or reporting a booking that writes a closed
  numeric detail of the state in force with no act ("That is for 4 people") gets a variable for
  it (:func:`_restated`), held to the state in force.
"""

from __future__ import annotations

import re
from functools import lru_cache

from csp_check.corpora import CorpusProfile, profile_for
from csp_check.language.cues import (
    AMENITIES,
    BOOLEAN,
    amenity_span,
    amount_op,
    answer_span,
    boolean_span,
    bound_number,
    corrected,
    count_spans,
    measure_spans,
    sentence_of,
    unit_after,
    user_states,
)
from csp_check.language.lexicon import INFLECTIONS, PARTY_BEFORE
from csp_check.language.negated_units import negated_amount, negated_unit_spans, negation_doubt
from csp_check.language.normalize import NUMBER_WORDS, fold_aligned, normalize, parse_amount
from csp_check.models import ActRole, DelexicalizedDialogue, Dialogue, DialogueAct, Span, Variable, VariableKind

#: The roles of the acts whose values become variables (module docstring).
VALUE_ROLES = frozenset(
    {ActRole.INFORM, ActRole.OFFER, ActRole.CONFIRM, ActRole.COUNT, ActRole.NO_RESULT, ActRole.BOOKED,
     ActRole.FAILED, ActRole.REQUEST}
)
#: Pseudo-slots whose act values are no domain values (an intent, MultiWOZ's "none").
SKIPPED_SLOTS = frozenset({"", "intent", "none"})


def delexicalize(dialogue: Dialogue) -> DelexicalizedDialogue:
    """Variables of ``dialogue`` in order of appearance (x1, x2, …) and its delexicalized text.

    Returns a :class:`DelexicalizedDialogue` whose ``turns`` replace each explicit variable's
    span with ``[xN]``. Never raises on well-formed :class:`Dialogue` input.
    """
    variables: list[Variable] = []
    implicit = located = 0
    profile = profile_for(dialogue)
    for turn in dialogue.turns:
        taken: dict[tuple[int, int], Variable] = {}
        pending: list[tuple[Span | None, DialogueAct, bool]] = []
        acts = [a for a in turn.acts if a.role in VALUE_ROLES and a.value is not None and a.slot not in SKIPPED_SLOTS]
        acts += _amenities(profile, turn, acts)
        acts += _restated(dialogue, turn, acts)
        # annotated spans first, then values searched for, then the words found by their form
        for act in sorted(acts, key=lambda a: 0 if a.span is not None else 2 if _by_form(a) else 1):
            span, found = act.span, False
            if span is None:
                avoid = [s for s, _, _ in pending if s is not None]
                if act.role is ActRole.COUNT:
                    span = next(iter(count_spans(turn.utterance, avoid)), None)
                elif _by_form(act):
                    span = boolean_span(turn.utterance, act.slot, avoid)
                    if span is None and act.role is not ActRole.COUNT and turn.speaker == "system" and turn.index:
                        span = answer_span(turn.utterance, dialogue.turns[turn.index - 1].utterance, act.slot, avoid)
                else:
                    slot_type = f"{act.domain}.{act.slot}"
                    closed = dialogue.ontology.get(slot_type)
                    described = dialogue.slot_descriptions.get(slot_type, "")
                    before = dialogue.turns[turn.index - 1].utterance if turn.index else ""
                    span = _closed_value(turn.utterance, act, closed, avoid, turn.speaker, described, before)
                    if span is not None and negated_amount(words := turn.utterance[span.start : span.end], act.slot, described) == 0:
                        act = act.model_copy(update={"doubt": act.doubt or negation_doubt(words)})
                    if span is None:
                        span = locate(turn.utterance, act, avoid=avoid, inside_words=not closed)
                        if span is not None and closed and unit_after(turn.utterance, span):
                            span = None  # "1" of "1 bath" is not a number of bedrooms
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
    by_turn: dict[int, list[Variable]] = {}  # one pass: linear in turns and variables (benchmarks/long_dialogues.py)
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


def _amenities(profile: CorpusProfile, turn, acts: list[DialogueAct]) -> list[DialogueAct]:  # type: ignore[no-untyped-def]
    """System acts on a yes/no amenity (MultiWOZ ``internet`` / ``parking``) that carry no value
    (``none``: "it has free wifi", "offers no parking"): their words are found by form
    (:func:`csp_check.language.cues.amenity_span`) and the text says yes or no, when the
    sentence names an entity (the ``profile``'s name column)."""
    if turn.speaker != "system":
        return []
    have = {(a.domain, a.slot) for a in acts}
    taken = [a.span for a in acts if a.span is not None]
    names = [a.span for a in acts if a.span is not None and a.slot == profile.name_column]
    out = []
    for a in turn.acts:
        if (a.slot in AMENITIES and a.value is None and a.role in (ActRole.INFORM, ActRole.OFFER)
                and (a.domain, a.slot) not in have):
            span = amenity_span(turn.utterance, a.slot, taken)
            # only about one named entity: not "none of those have parking", "one has no parking"
            if span is None or not (any(sentence_of(turn.utterance, n) == sentence_of(turn.utterance, span) for n in names)
                                    or _refers_back(turn.utterance, span, names)):
                continue
            have.add((a.domain, a.slot))
            taken.append(span)
            out.append(a.model_copy(update={"value": "yes", "canonical": "yes", "span": span}))
    return out


#: A sentence opening with a pronoun or a definite kind ("it 's moderately priced and has free parking",
#: "The hotel offers wifi"): it speaks of the entity named before it.
REFERS_BACK = re.compile(r"\s*(?:it|it 's|it's|its|they|they 're|the (?:hotel|guesthouse|place|restaurant))\b", re.I)


def _refers_back(utterance: str, span: Span, names: list[Span]) -> bool:
    """Whether the sentence of ``span`` opens with a pronoun (:data:`REFERS_BACK`) after a
    sentence of a turn whose names are of one entity: the amenity is that entity's ("I would
    recommend the Lovell Lodge . It 's moderately priced and does not have free parking .")."""
    start = sentence_of(utterance, span)[0]
    said = {normalize(utterance[n.start : n.end]) for n in names}
    return (len(said) == 1 and all(n.end <= start for n in names)
            and REFERS_BACK.match(utterance, start) is not None)


def _restated(dialogue: Dialogue, turn, acts: list[DialogueAct]) -> list[DialogueAct]:  # type: ignore[no-untyped-def]
    """A number of a closed numeric slot (a party size: "your table for 4") that a system turn
    confirming or reporting a booking (a CONFIRM or BOOKED act of the domain) writes without an
    act for it, where the belief state in force records the slot: the words are found by form
    (:func:`csp_check.language.cues.measure_spans`, exactly one such number with its unit noun or after
    "for", and not a number another act of the turn states) and give a variable whose
    annotated value is the state's, so the text is held to it (spec §9: a restated detail
    without a span is still a claim)."""
    if turn.speaker != "system" or not turn.index:
        return []
    have = {(a.domain, a.slot) for a in acts}
    taken = [a.span for a in acts if a.span is not None]
    state = dialogue.turns[turn.index - 1].state
    out = []
    for role in (ActRole.CONFIRM, ActRole.BOOKED):
        for domain in dict.fromkeys(a.domain for a in turn.acts if a.role is role):
            for slot, values in state.get(domain, {}).items():
                closed = dialogue.ontology.get(f"{domain}.{slot}") or []
                if ((domain, slot) in have or len(values or []) != 1 or not closed
                        or not all(v.isdigit() for v in closed) or not values[0].isdigit()):
                    continue
                spans = measure_spans(turn.utterance, slot, taken, dialogue.slot_descriptions.get(f"{domain}.{slot}", ""))
                spans = [sp for sp in spans if unit_after(turn.utterance, sp)
                         or PARTY_BEFORE.search(turn.utterance[: sp.start].lower())]
                others = {normalize(a.canonical or a.value or "") for a in turn.acts if a.slot != slot}
                if len(spans) != 1 or normalize(turn.utterance[spans[0].start : spans[0].end]) in others:
                    continue  # "the number of stops is 1": another act's number
                have.add((domain, slot))
                taken.append(spans[0])
                out.append(DialogueAct(role=role, act=f"restated {role.value}", domain=domain, slot=slot, value=values[0], canonical=values[0],
                                       span=spans[0]))
    return out


def _by_form(act: DialogueAct) -> bool:
    """An act whose words are found by their form, not by its value: amounts and booleans."""
    return act.role is ActRole.COUNT or normalize(act.canonical or act.value or "") in BOOLEAN


def _closed_value(
    utterance: str, act: DialogueAct, values: list[str] | None, avoid: list[Span], speaker: str, description: str = "",
    previous: str = "",
) -> Span | None:
    """The words stating a closed (categorical) slot's value, found by form, not by the
    annotated value: a numeric slot's number by its unit (:func:`csp_check.language.cues.measure_spans`:
    "1 stop", "a table for 2"); otherwise, in a system turn, the longest value of the slot's
    closed set written there ("Premium Economy", not the "Economy" inside it; "Business" where
    the act says Economy). In a user turn a value rejected by the words before it ("not on TV",
    "instead of Compact") is none, and so are one that echoes the previous system turn outside a
    request ("You licked the TV?" after "… on the TV") and one in a sentence describing the offer
    ("That's pretty expensive"); the annotated value is preferred where several are written."""
    if not values:
        return None
    if all((n := parse_amount(v)) is not None and n <= 100 for v in values):  # not years
        spans = measure_spans(utterance, act.slot, avoid, description)
        if not spans and "0" in values:  # "no layovers", "a non-stop flight": 0 (language.negated_units)
            spans = negated_unit_spans(utterance, act.slot, avoid, description)
        own = parse_amount(act.canonical or act.value or "")
        if speaker == "user" and (changed := corrected(utterance, spans)) is not None:
            return changed  # "for 2. Actually, make that 3 people": the value the user settles on
        # several: the one that states the annotated value ("not 1 room: 2 rooms"), else the first
        return next((s for s in spans if parse_amount(utterance[s.start : s.end]) == own), spans[0] if spans else None)
    found: list[tuple[Span, str]] = []
    for value in sorted(values, key=len, reverse=True):
        number = parse_amount(value)
        if (number is not None and number <= 100) or normalize(value) in BOOLEAN:
            continue  # small numbers are found by their unit above; years ("2015") as written
        taken = avoid + [s for s, _ in found]
        span = written_at(fold_aligned(utterance), value, taken) if value else None  # as locate() finds an inform of it
        if span is not None:
            found.append((span, normalize(value)))
    own = normalize(act.canonical or act.value or "")
    if speaker != "system":  # a user names values to reject ("not on TV") or comments ("That's expensive")
        found = [(s, v) for s, v in found if v == own or user_states(utterance, s, previous)]
    for span, value in found:
        if value == own:
            return span
    return min(found, key=lambda f: f[0].start)[0] if found else None


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
        if amount is None:  # "over 200": a bound (cues.amount_op)
            amount = parse_amount(bound_number(canonical))
        if amount is None:
            return None
        value: int | str = amount
        kind = VariableKind.AMOUNT
    else:
        value = normalize(canonical)
        kind = VariableKind.SLOT
    if span is not None:  # a cut word is read whole; an annotated value that is the cut text, too
        wide = word_bounded(utterance, span)  # ``span`` itself when no word is cut
        if wide is not span and kind is VariableKind.SLOT and normalize(utterance[span.start : span.end]) in (
                value, normalize(act.value or "")):
            value = normalize(utterance[wide.start : wide.end])
        elif wide is span and kind is VariableKind.SLOT and isinstance(value, str) and value[-1:].isalpha():
            said = normalize(utterance[span.start : span.end])  # the value cut where its span is whole:
            rest = said[len(value):]  # "coldhams business par" at "… park"; not an inflection ("church" at "churches")
            if said.startswith(value) and rest.isalpha() and rest not in INFLECTIONS:
                value = said
        span = wide
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
        amount_op=amount_op(utterance, span) if kind is VariableKind.AMOUNT and span is not None else "=",
        doubt=act.doubt,
    )


def locate(utterance: str, act: DialogueAct, avoid: list[Span] = (), inside_words: bool = False) -> Span | None:  # type: ignore[assignment]
    """The span of ``act``'s value in ``utterance`` by normalised, word-bounded matching.

    Tries the surface value, then the canonical value; for amounts also the number word or
    digits. Spans overlapping ``avoid`` are skipped. ``None`` when the value is not written.
    With ``inside_words`` (an open slot: no closed value set), a value of two or more words
    written nowhere whole is then looked for cut inside a word ("0210 Millers Yard" in "40210
    Millers Yard"; :func:`word_bounded` widens it where it is read); a closed value is a word of
    its set, never part of a longer one ("kitchen speaker" is not in "kitchen speakers").
    """
    forms = [act.value, act.canonical]
    if act.role is ActRole.COUNT:
        amount = parse_amount(act.canonical or act.value or "")
        if amount is not None:
            forms += [str(amount), *_number_words(amount)]
    folded = fold_aligned(utterance)
    for form in forms:
        if form and (span := written_at(folded, form, avoid)) is not None:
            return span
    for form in forms if inside_words else ():  # a value cut inside a word ("0210 Millers Yard" of "40210 …")
        words = fold_aligned(form or "").strip(" .,!?").split()
        if act.role is ActRole.COUNT or len(words) < 2 or len(" ".join(words)) < 8:
            continue  # a short value inside a longer word is another word ("east" of "northeast")
        for match in re.finditer(r"\s*".join(re.escape(w) for w in words), folded):
            span = word_bounded(utterance, Span(start=match.start(), end=match.end()))
            if not any(span.start < a.end and a.start < span.end for a in avoid):
                return Span(start=match.start(), end=match.end())  # widened where it is read (_variable)
    return None


def written_at(folded: str, form: str, avoid: list[Span] = ()) -> Span | None:  # type: ignore[assignment]
    """The first span of ``form`` in ``folded`` (an utterance as :func:`fold_aligned` gives it)
    by normalised, word-bounded matching that overlaps none of ``avoid``; ``None`` if none."""
    key = fold_aligned(form).strip(" .,!?")
    first = key.split(maxsplit=1)
    if first and first[0] not in folded:  # every match holds the form's first word as it is
        return None
    for match in _pattern(key).finditer(folded):
        span = Span(start=match.start(), end=match.end())
        if not any(span.start < a.end and a.start < span.end for a in avoid):
            return span
    return None


def word_bounded(utterance: str, span: Span) -> Span:
    """``span`` widened to whole words where a boundary falls inside one (a letter or digit on
    both sides: "0210 Millers Yard" annotated in "40210 Millers Yard" reads "40210 Millers
    Yard"); exact spans are returned as they are. The text is the truth (spec §9): a cut word is
    read whole, never as the shorter value it happens to spell."""
    start, end = span.start, span.end
    while 0 < start < len(utterance) and utterance[start - 1].isalnum() and utterance[start].isalnum():
        start -= 1
    while 0 < end < len(utterance) and utterance[end - 1].isalnum() and utterance[end].isalnum():
        end += 1
    return span if (start, end) == (span.start, span.end) else Span(start=start, end=end)


@lru_cache(maxsize=4096)
def _pattern(form: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in form.split()]
    body = r"\s*".join(words) if words else re.escape(form)
    return re.compile(rf"(?<![\w])(?<!\d[,.]){body}(?![\w])(?![,.]\d)")  # not a piece of "1,000"


def _number_words(amount: int) -> list[str]:
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
