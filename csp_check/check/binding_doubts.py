"""Doubts about what ties a claim's values (C4–C6): which entity, which sentence, which domain,
and proposals after a no-result. Part of the certainty rules of :mod:`csp_check.check.certainty`,
whose module docstring states them ("Reading rules"). Each rule is
``rule(ctx, constraint, family, scope) -> reason | None``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import combinations

from csp_check.check.reading import (
    KB_FAMILIES,
    claim_of,
    excused,
    filters_of,
    rest_holds,
    said_after,
    spellings,
    utterance,
)
from csp_check.language import certainty as words
from csp_check.language.cue_words import BACK_TO
from csp_check.language.normalize import normalize
from csp_check.models import ActRole, Constraint, Span, Variable, VariableKind


def binding_unsettled(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: the claim spans sentences of a turn that names more than one entity (unless its name
    alone is no entity's: false by every binding)."""
    if family != "C5":
        return None
    claim = claim_of(constraint, scope)
    if len(claim) < 2:
        return None
    text = utterance(ctx, claim[0])
    sentences = {words.sentence(text, v.span) for v in claim}
    if len(sentences) < 2:
        return None
    named = {str(ctx.assignment.get(v.name, v.value)) for v in ctx.by_turn.get(constraint.turn, [])
             if ctx.profile.names_entity(v.slot)}
    if len(named) < 2:
        return None
    for v in [w for w in claim if ctx.profile.names_entity(w.slot)]:
        if not rest_holds(ctx, constraint, {n for n in constraint.variables if n != v.name}):
            return None  # a name no entity has is false whichever entity the rest is said of
        for other in named - {str(ctx.assignment.get(v.name))}:
            if excused(ctx, constraint, [], {v.name: other}):
                return f"attributes said in other sentences of a turn naming several entities (they fit {other!r})"
    return None


def of_another(ctx, v: Variable) -> str | None:
    """The entity a system value said in a sentence naming no entity, of a turn naming several,
    may be said of: one of the named ones that has it ("I'd recommend Pipasha . Alimentum is
    another option . It's a moderate restaurant ."); ``None`` if none."""
    if v.speaker != "system" or v.span is None or ctx.profile.names_entity(v.slot):
        return None
    text = utterance(ctx, v)
    names = [w for w in ctx.by_turn.get(v.turn, []) if ctx.profile.names_entity(w.slot) and w.span is not None]
    named = {str(ctx.assignment.get(w.name, w.value)) for w in names}
    if len(named) < 2 or any(words.sentence(text, w.span) == words.sentence(text, v.span) for w in names):
        return None
    value = str(ctx.assignment.get(v.name, v.value))
    return next((row["name"] for row in ctx.kbs.get(v.domain) or [] if row.get("name") in named and row.get(v.slot) == value), None)


def bound_to_another(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2: a system value that may be said of another entity of its turn (:func:`of_another`):
    it need not restate what the user asked; C5 / C6: such a value as a later claim's filter,
    where the claim holds without it. A value none of the named entities has is a misstatement
    by every reading (certain)."""
    if family == "C2":
        for v in scope:
            if (other := of_another(ctx, v)) is not None:
                return f"turn {v.turn} names several entities and says {v.text!r} in a sentence of none: it fits {other!r}"
    if family in ("C5", "C6"):
        for v in filters_of(constraint, scope):
            if (other := of_another(ctx, v)) is not None and excused(ctx, constraint, [v.name]):
                return f"the filter {v.text!r} of turn {v.turn} may be said of {other!r}"
    return None


def denied_in_the_turn(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5: a claim's value said again, denied, in the sentence of another of its values ("There is
    international food in the east and centre. The south has many cuisines but no international
    food."): the turn says the two do not go together; uncertain where the rest holds without it."""
    if family != "C5":
        return None
    claim = claim_of(constraint, scope)
    for v in claim:
        text = utterance(ctx, v)
        start, end = words.sentence(text, v.span)
        for w in claim:
            if w is v or not w.text or start <= w.span.start < end:
                continue
            for m in re.finditer(rf"\b{re.escape(w.text)}\b", text[start:end], re.I):
                at = Span(start=start + m.start(), end=start + m.end())
                if (reason := words.denied(text, at)) and rest_holds(ctx, constraint, {w.name}):
                    return f"the sentence of {v.text!r} denies {w.text!r}: {reason}"
    return None


def alternative_after_no_result(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5 / C6: an offer or a count in a system turn that says, or follows a turn that said, that
    nothing matches: it proposes alternatives, under a search with one of the filters lifted."""
    if family not in ("C5", "C6") or constraint.turn is None or not scope:
        return None
    domain = scope[0].domain
    turns = [t for t in (constraint.turn, constraint.turn - 2) if 0 <= t < len(ctx.dialogue.turns)]
    refused = next((t for t in turns if any(a.role in (ActRole.NO_RESULT, ActRole.FAILED) and a.domain == domain
                                            for a in ctx.dialogue.turns[t].acts)), None)
    if refused is None:
        return None
    failed = {a.slot for a in ctx.dialogue.turns[refused].acts if a.domain == domain and a.slot}
    asked = filters_of(constraint, scope)
    lifts = [[v] for v in asked] + [[a, b] for i, a in enumerate(asked) for b in asked[i + 1 :]]
    for lift in lifts:  # "Do you want to broaden your search?": one or two of what failed lifted
        if failed & {v.slot for v in lift} and excused(ctx, constraint, [v.name for v in lift]):
            lifted = ", ".join(f"{v.slot_type}={v.value!r}" for v in lift)
            return f"an alternative after the no-result of turn {refused}: it holds without {lifted}"
    return None


STREET_AFTER = re.compile(r"^\s*(road|street|lane|way|avenue|close|drive|park|court|square|rd|st)\b", re.I)


def bound_in_the_turn(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C5 / C6: what ties the claim's values is not settled — a count's filter said in another
    sentence of its turn (any one or more of them may be no filter: "21 options . There is
    vietnamese food in the west . The centre has … no vietnamese food"), a claim whose own values fit another entity than the one named in an
    earlier turn (or resolved to it: a name the turn does not say) when the user searched anew
    since, a value that is the first word of a street's name ("east road")."""
    if family not in ("C5", "C6"):
        return None
    claim = claim_of(constraint, scope)
    for v in claim:
        text = utterance(ctx, v)
        if v.kind is VariableKind.SLOT and STREET_AFTER.match(text[v.span.end :]) and excused(ctx, constraint, [v.name]):
            return f"{v.text!r} is part of a street's name: {text[v.span.start:v.span.end + 8].strip()!r}"
    if family == "C6":
        amount = next((v for v in claim if v.name == getattr(constraint, "count_variable", None)), None)
        if amount is None:
            return None
        text = utterance(ctx, amount)
        apart = [v.name for v in claim if v is not amount and words.sentence(text, v.span) != words.sentence(text, amount.span)]
        lifts = [list(c) for n in range(1, min(len(apart), 3) + 1) for c in combinations(apart, n)]
        if any(excused(ctx, constraint, lifted) for lifted in lifts):  # any of them may be no filter of the count
            return "a filter said in another sentence of the count's turn; without it the count holds"
        return None
    named = [v for v in scope if ctx.profile.names_entity(v.slot)]
    earlier = [v for v in named if v.turn != constraint.turn]
    for v in [v for v in named if v.turn == constraint.turn and v.span is None]:  # a name resolved, not said
        said = [u for u in ctx.variables if u.slot_type == v.slot_type and u.span is not None and u.turn < v.turn
                and ctx.assignment.get(u.name) == ctx.assignment.get(v.name)]
        if said:
            named, earlier = [u for u in named if u is not v], [*earlier, max(said, key=lambda u: u.turn)]
    if earlier and not [v for v in named if v.turn == constraint.turn]:
        own = [v for v in claim if not ctx.profile.names_entity(v.slot)]
        searched = any(u.speaker == "user" and u.domain == earlier[0].domain and earlier[0].turn < u.turn < constraint.turn
                       and u.slot in ctx.profile.search_columns for u in ctx.variables)  # "How about a nightclub …?"
        left_out = {v.name for v in earlier} | {v.name for v in scope if v.turn == constraint.turn and v.span is None
                                                and ctx.profile.names_entity(v.slot)}
        if own and searched and rest_holds(ctx, constraint, left_out):
            return f"the turn's values fit another entity than {earlier[0].text or earlier[0].value!r} (named at turn {earlier[0].turn})"
    return None


def other_domain_kind(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C4 / C5 / C6: the claim's sentence names a kind of another domain and none of its own
    ("there are no night clubs on the west" read as hotels; a count's sentence, "There are 9
    restaurants" annotated for attractions; a no-result's whole turn where it says no value): which
    domain the values are of is not settled (the act's domain label is wrong, not the text)."""
    if family not in KB_FAMILIES:
        return None
    worded = bool(scope) and scope[0].domain in ctx.profile.domain_search  # domains that are words (MultiWOZ's),
    count = getattr(constraint, "count_variable", None)  # not services (SGD's): a count's amount is its claim
    claim = [v for v in ctx.by_turn.get(constraint.turn, []) if worded and v.name == count and v.span is not None] \
        or claim_of(constraint, scope)
    turn = ctx.dialogue.turns[constraint.turn] if 0 <= constraint.turn < len(ctx.dialogue.turns) else None
    if claim:
        domain, text = claim[0].domain, utterance(ctx, claim[0])
        start, end = words.sentence(text, claim[0].span)
    elif worded and family == "C4" and turn is not None and (acts := [a for a in turn.acts if a.role is ActRole.NO_RESULT]):
        domain, text = acts[0].domain, turn.utterance  # a no-result with no value said: its whole turn
        start, end = 0, len(text)
    else:
        return None
    chars = list(text[start:end])  # a kind word inside a name or an address ("Cambridge Lodge Hotel 139 …") names none
    for v in ctx.by_turn.get(constraint.turn, []) if worded else ():
        if (v.span is not None and start <= v.span.start < end
                and (ctx.profile.names_entity(v.slot) or v.slot in ctx.profile.entity_text_columns)):
            chars[v.span.start - start : min(v.span.end, end) - start] = " " * (min(v.span.end, end) - v.span.start)
    said = normalize("".join(chars))
    said = " " + " ".join((re.sub(r"[^\w\s'&-]", " ", said) if worded else said).split()) + " "  # "trains ," too
    squashed = said.replace(" ", "")
    kinds = _kinds(ctx, ctx.profile.domain_search if worded else ())  # "restaurants", "trains" name their domain
    mine = any(_names(k, said, squashed) for k in kinds.get(domain, set()) | {domain})
    other = next((d for d, ks in kinds.items() if d != domain and any(_names(k, said, squashed) for k in ks | {d})), None)
    return f"the sentence names a {other} kind, not a {domain} one" if other and not mine else None


def filter_of_another_domain(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C4 / C5 / C6: a user's filter said in a sentence that names a kind of another domain and
    none of its own ("What kind of attraction is that? I also need a cheap hotel" read as a cheap
    attraction) or right before such a kind ("… a restaurant called X I also need a expensive
    hotel"), or in a sentence naming no kind that answers a question naming one ("What price
    range would you like the persian restaurant to be?" — "Also expensive." read for a hotel):
    which domain the value is of is not settled; uncertain when the instance holds without it. A
    kind after "as the", "near the" ("the same price range as the hotel") is a reference point."""
    if family not in KB_FAMILIES:
        return None
    kinds = _kinds(ctx, {t.split("|")[0] for t in ctx.kbs} | set(ctx.dialogue.domains) | set(ctx.profile.state_slots or ()))
    for v in filters_of(constraint, scope):
        if v.span is None or v.speaker != "user":
            continue
        text = utterance(ctx, v)
        start, end = words.sentence(text, v.span)
        other = _other_kind(kinds, v.domain, text[start:end]) or _kind_after(kinds, v.domain, text[v.span.end : end])
        if other is None and v.turn > 0 and not _other_kind(kinds, "", text[start:end], any_kind=True):
            before = ctx.dialogue.turns[v.turn - 1].utterance.rstrip()
            if before.endswith("?"):
                asked = words.sentence(before, Span(start=len(before) - 1, end=len(before)))
                other = _other_kind(kinds, v.domain, before[asked[0]:asked[1]])
        if other and excused(ctx, constraint, [v.name]):
            return f"filter {v.slot_type}={v.value!r} is said in words of the {other} domain (turn {v.turn}), not of {v.domain}"
    return None


def lifted_later(ctx, constraint: Constraint, scope: list[Variable], claim_turn: int) -> str | None:
    """C4–C6 (:func:`~csp_check.check.certainty.filter_unsettled`): a user turn from the first
    filter's on, before the claim, lifts a filter's slot ("anywhere is fine", "forget about the
    price"; every relaxation of the turn, :func:`~csp_check.language.certainty.relaxations`): the
    slots its words name, else those the system turn before asked. Not a filter said after it (a
    later sentence or turn asks anew), nor one of a domain other than the one the relaxation's
    clause names ("the hotel in the north , but for the restaurant any area is fine" lifts no
    hotel's area). Uncertain when
    the instance holds with the lifted filters unsaid."""
    filters = filters_of(constraint, scope)
    first = min((v.turn for v in filters), default=claim_turn)
    slots = {v.slot for v in filters if ctx.assignment.get(v.name) != "dontcare"}  # a dontcare: relaxed already
    kinds = _kinds(ctx, {t.split("|")[0] for t in ctx.kbs} | set(ctx.dialogue.domains) | set(ctx.profile.domain_search)
                   | {v.domain for v in filters})  # fmt: skip
    for turn in ctx.dialogue.turns[first:claim_turn]:
        for reason, said, at in words.relaxations(turn.utterance) if turn.speaker == "user" else ():
            named = words.slots_named(said) or words.slots_named(ctx.dialogue.turns[turn.index - 1].utterance if turn.index else "")
            start, end = words.clause(turn.utterance, Span(start=at, end=at + 1))
            lifted = [v.name for v in filters if v.slot in named and not said_after(v, turn, at)
                      and not _other_kind(kinds, v.domain, turn.utterance[start:end])]  # fmt: skip
            if slots & named and lifted and excused(ctx, constraint, lifted):
                return f"the user {reason} at turn {turn.index}"
    return None


#: Words after which a kind is a reference point, not what the sentence's values are of ("the
#: same area as the hotel", "near the museum", "close to the restaurant").
REFERENCE = re.compile(r"\b(?:as|near|close to|next to|nearby)\s+(?:the|my|our|that|this|your)\b", re.I)


def _other_kind(kinds: dict[str, set[str]], domain: str, sentence: str, any_kind: bool = False) -> str | None:
    """The other domain a sentence names a kind of when it names none of ``domain``'s (with
    ``any_kind``: any domain whose kind it names)."""
    sentence = REFERENCE.split(sentence, maxsplit=1)[0]  # "the same price range as the hotel": a reference
    said = " " + " ".join(normalize(sentence).split()) + " "
    squashed = said.replace(" ", "")
    named = [d for d, ks in sorted(kinds.items()) if any(_names(k, said, squashed) for k in ks | {d})]
    if any_kind:
        return named[0] if named else None
    return None if domain in named else next(iter(named), None)


#: The two words right after a value: the noun it modifies ("expensive| hotel", "cheap| place to stay").
NEXT_WORDS = re.compile(r"^\s*((?:[a-z'-]+\s+)?[a-z'-]+)", re.I)


def _kind_after(kinds: dict[str, set[str]], domain: str, after: str) -> str | None:
    """The other domain whose kind the value modifies, said in the two words after it ("… called
    nandos city centre I also need a expensive hotel": the sentence names a restaurant too, but
    "expensive" is of the hotel)."""
    m = NEXT_WORDS.match(after)
    return _other_kind(kinds, domain, m.group(1)) if m else None


def _kinds(ctx, named: Iterable[str] = ()) -> dict[str, set[str]]:
    """domain → its kinds: the values V(domain.kind column) of the dialogue's CSP (the profile's kind
    column), less those the domain's KB table never has ("hotel" annotated as a restaurant's type);
    each domain of ``named`` too, with no kinds, though the dialogue has none of it (a domain
    names itself: "hotel", "restaurants")."""
    column = ctx.profile.kind_column
    out: dict[str, set[str]] = {}
    for slot_type, values in ctx.csp.domains.items():
        domain, _, slot = slot_type.partition(".")
        if column and slot == column:
            rows = ctx.kbs.get(domain)
            known = {str(e.get(column)) for e in rows} if rows else None
            out[domain] = {v for v in values if v and v != "dontcare" and (known is None or v in known)}
    for domain in named:
        out.setdefault(domain, set())
    return out


def _names(kind: str, said: str, squashed: str) -> bool:
    """Whether a sentence (normalised, and with its spaces removed) names ``kind`` or its plural."""
    return any(f" {k} " in said for k in (kind, kind + "s", kind + "es")) or (len(kind) > 5 and kind in squashed)


#: Words that mark a system's offer as other than what was asked ("It is in the north , though";
#: "I 'm afraid"; "but", "instead"): said with a value the user did not ask, the offer is an alternative.
CONTRAST = re.compile(r"(?i)\b(?:though|although|however|but|afraid|unfortunately|sorry|instead|alternatively|closest|nearest)\b")


def alternative_said(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2, C5: a system value that differs from what the user asked earlier, is the KB's value of
    the one entity its turn names (same domain), and is said as a difference — its sentence marks
    a contrast (:data:`CONTRAST`: "Acorn Guest House is in the north , not the south , I 'm
    afraid"), denies the asked value ("not the south"), or its turn says nothing of the domain
    matches: the system offers an alternative as one, with no claim that it fits. C2 only where
    the instance's system values are that one value (two system values that disagree stay certain);
    C5 only where the claim holds without the asked values, and of the claim's turn or an earlier
    one offering its entity so (the user went on with the alternative: a later offer of it repeats
    it, no claim that it fits what was asked before)."""
    if family not in ("C2", "C5"):
        return None
    if family == "C5":  # the claim turn's values (in the claim or not), and those of earlier turns offering its entity
        entity = {str(ctx.assignment.get(v.name)) for v in scope if v.turn == constraint.turn and ctx.profile.names_entity(v.slot)}
        turns = [t for t in range(constraint.turn or 0, -1, -1) if t == constraint.turn or entity & _named(ctx, t, scope[0].domain)]
        said_in = [v for t in turns for v in ctx.by_turn.get(t, []) if v.domain == scope[0].domain] if entity else []
    else:
        said_in = scope
        if len({str(ctx.assignment.get(v.name)) for v in scope if v.speaker == "system"}) != 1:
            return None
    for v in said_in:
        if v.speaker != "system" or v.span is None or ctx.profile.names_entity(v.slot):
            continue
        said = str(ctx.assignment.get(v.name, v.value))
        asked = [u for u in scope if u.speaker == "user" and u.turn < v.turn and u.slot_type == v.slot_type
                 and str(ctx.assignment.get(u.name)) != said]  # fmt: skip
        names = _named(ctx, v.turn, v.domain)
        if not asked or len(names) != 1 or family == "C5" and names != entity:
            continue
        if any(u.speaker == "user" and v.turn < u.turn < (constraint.turn or 0) and u.slot_type == v.slot_type
               and str(ctx.assignment.get(u.name)) != said for u in scope):
            continue  # the user asked again after the alternative
        row = next((r for r in ctx.kbs.get(v.domain) or [] if r.get("name") in names), None)
        if row is None or said not in spellings(str(row.get(v.slot, ""))) or not _marked(ctx, v, asked):
            continue
        if family == "C5" and not excused(ctx, constraint, [u.name for u in asked]):
            continue
        return (f"turn {v.turn} says {next(iter(names))!r} has {v.slot}={said!r}, not the asked {asked[0].text!r},"
                f" as a difference: an alternative offered as one")
    return None


def _named(ctx, turn: int, domain: str) -> set[str]:
    """The entities of ``domain`` a turn names (their values as the assignment has them)."""
    return {str(ctx.assignment.get(w.name, w.value)) for w in ctx.by_turn.get(turn, [])
            if w.domain == domain and ctx.profile.names_entity(w.slot)}  # fmt: skip


def _marked(ctx, v: Variable, asked: list[Variable]) -> bool:
    """Whether ``v``'s sentence marks a contrast, denies an asked value, or its turn a no-result (:func:`alternative_said`)."""
    turn = ctx.dialogue.turns[v.turn]
    text = turn.utterance
    start, end = words.sentence(text, v.span)
    if CONTRAST.search(text[start:end]) or any(a.role is ActRole.NO_RESULT and a.domain == v.domain for a in turn.acts):
        return True
    for u in asked:
        for m in re.finditer(rf"\b{re.escape(u.text or str(u.value))}\b", text, re.I) if (u.text or u.value) else ():
            if words.denied(text, Span(start=m.start(), end=m.end())) or re.search(r"\bnot\s+(?:in\s+)?(?:the\s+)?$", text[: m.start()], re.I):
                return True
    return False


def went_back(ctx, constraint: Constraint, family: str, scope: list[Variable]) -> str | None:
    """C2, C5: the claim's entity (C5; C2: the one entity the system turn of a value names, that
    value its KB value) was offered by the system before the user asked the value it breaks, and
    a user turn after that ask returns to it (:data:`BACK_TO`: "let's go back to the first one"):
    the later offer is of what the user went back to, not of the search asked in between. C5 only
    where the claim holds without the values asked in between; C2 only where every value unlike
    the claim's is said in between."""
    if family not in ("C2", "C5") or not scope:
        return None
    if family == "C5":
        claims = [(constraint.turn or 0, {str(ctx.assignment.get(v.name)) for v in scope
                                          if v.turn == constraint.turn and ctx.profile.names_entity(v.slot)})]  # fmt: skip
        asked = filters_of(constraint, scope)
    else:
        claims = [(v.turn, names) for v in scope if v.speaker == "system" and v.span is not None
                  and len(names := _named(ctx, v.turn, v.domain)) == 1
                  and _kb_value(ctx, v, names) == str(ctx.assignment.get(v.name))]  # fmt: skip
        asked = scope
    domain = scope[0].domain
    for turn, entity in claims:
        offered = next((t for t in range(turn) if ctx.dialogue.turns[t].speaker == "system"
                        and entity & _named(ctx, t, domain)), None) if entity else None  # fmt: skip
        if offered is None:
            continue
        said = {str(ctx.assignment.get(v.name)) for v in scope if v.turn == turn and v.speaker == "system"}
        since = [u for u in asked if offered < u.turn < turn and (family == "C5" or str(ctx.assignment.get(u.name)) not in said)]
        back = next((t for t in range(max((u.turn for u in since), default=turn) + 1, turn)
                     if ctx.dialogue.turns[t].speaker == "user" and BACK_TO.search(ctx.dialogue.turns[t].utterance)), None)  # fmt: skip
        if back is None or family == "C5" and not excused(ctx, constraint, [u.name for u in since]):
            continue
        if family == "C2" and any(str(ctx.assignment.get(u.name)) not in said and not offered < u.turn < back for u in scope):
            continue  # a value unlike the claim's said outside the detour: a contradiction all the same
        return f"turn {back} goes back to {next(iter(entity))!r}, offered in turn {offered} before what was asked since"
    return None


def _kb_value(ctx, v: Variable, names: set[str]) -> str | None:
    """The KB's value of ``v``'s slot for the one entity of ``names`` (as the text spells it), or ``None``."""
    row = next((r for r in ctx.kbs.get(v.domain) or [] if r.get("name") in names), None)
    if row is None:
        return None
    said = str(ctx.assignment.get(v.name))
    return said if said in spellings(str(row.get(v.slot, ""))) else str(row.get(v.slot))
