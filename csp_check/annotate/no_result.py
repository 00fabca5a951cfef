"""No-result statements in system turns (the package docstring's **No result**).

:func:`no_result_scope` finds the sentence a negative cue makes a no-result statement;
:func:`no_result_request`, :func:`unreadable_denials` and :func:`alternatives` decide what such a
statement denies: the request in force, nothing when the request is unread ("Hungarian food",
noted by :func:`note_unread_request`), an alternative's search when the turn offers an entity.
"""

from __future__ import annotations

import re

from csp_check.annotate.amounts import gap_word
from csp_check.annotate.lexicon import (
    ANY_WORDS,
    BARE_NEGATIVES,
    CONTRASTS,
    CUE_LINKS,
    DENIED_THINGS,
    ENTITY_COLUMNS,
    FINDING_VERBS,
    FLAG_WORDS,
    FOOD_WORDS,
    MAX_GAP,
    NEGATIONS,
    NEGATIVE_CUES,
    NOT_FOODS,
    OTHER_WORDS,
    PLAIN_WORDS,
    PRAISE_WORDS,
    SENTENCE_END,
    SERVE_VERBS,
)
from csp_check.annotate.memory import Memory, State
from csp_check.annotate.mentions import Found, implicit
from csp_check.language.normalize import NUMBER_WORDS
from csp_check.models import ActRole, DialogueAct

#: The shape of a word naming a people or its cooking ("eritrean", "hungarian", "cantonese",
#: "cornish"): one the KB has no value for leaves the food of the request unread.
DEMONYM = re.compile(r"^(?!(?:finish|publish|establish|cheese)$)[a-z]{3,}(?:ean|ian|can|ese|ish)$")
#: Words of a turn that asks for a place to eat (a demonym there may be the food asked).
EATING_WORDS = frozenset({"restaurant", "restaurants", "eat", "eating", "food", "cuisine", "dine", "dining", "serves", "serving"})


def no_result_scope(cues, doc, nouns: dict[int, tuple[str, bool]], found: list[Found]) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    """The token range (the sentence) of a no-result statement, if the utterance makes one:
    a negative cue (``cues``: the matcher of :data:`NEGATIVE_CUES`; "any" / a verb of finding after
    a negation of its own sentence) before a domain noun or a value, or ending its clause; not one
    of praise ("nothing beats X": :data:`~csp_check.annotate.lexicon.PRAISE_WORDS`). A statement
    that refers back ("nothing like that", :data:`BACK_REFERENCE`) takes in the sentence before it. A sentence that also names something no KB value matches ("no
    eritrean restaurants") is left out: what it denies cannot be read."""
    starts = set(nouns) | {f.start for f in found if not f.amount and f.slot not in FLAG_WORDS}  # not "no parking"
    covered = {i for f in found for i in range(f.start, f.end)}
    spans = [(start, end) for _, start, end in cues(doc)]
    lowers = [t.lower_ for t in doc]  # the tokens made once (a slice of doc makes each anew)
    for i, low in enumerate(lowers):  # "it does n't appear there are any cinemas", "could not find a guesthouse"
        if low in ANY_WORDS and _negated_before(lowers, i, 5):
            spans.append((i, i + 1))
        elif low in FINDING_VERBS and _negated_before(lowers, i, 3):
            spans.append((i, i + 1))
        elif low == "nothing":
            spans.append((i, i + 1))
    for start, end in sorted(spans):
        hit = False
        bare_no = doc[start:end].text.lower() in BARE_NEGATIVES or doc[start].lower_ in FINDING_VERBS
        if any(t.lower_ in OTHER_WORDS for t in doc[end : end + 3]):
            continue  # "no other options": none besides the one offered, not none at all
        if end < len(doc) and doc[end].lower_ in PRAISE_WORDS:
            continue  # "nothing beats the acorn guest house": praise of an entity offered, no denial
        if any(t.lower_ in DENIED_THINGS for t in doc[end : end + 2]):
            continue  # "no fee for X", "no tables available at X": denies a thing of the booking or price
        for tok in doc[end : end + MAX_GAP + 1]:  # "no [cheap] restaurants", not "no need to call X"
            if tok.i in starts:
                hit = True
                break
            if not gap_word(tok) and (bare_no or tok.lower_ not in CUE_LINKS):
                break
        if not hit and not (not bare_no and (end == len(doc) or (doc[end].is_punct and doc[end].text != "-"))):
            continue
        first = max([0] + [i + 1 for i in range(start) if doc[i].text in SENTENCE_END])
        last = next((i + 1 for i in range(end, len(doc)) if doc[i].text in SENTENCE_END
                     or doc[i].lower_ in CONTRASTS), len(doc))  # fmt: skip
        if _unread(doc, first, last, nouns, covered):
            return None
        return _with_referent(doc, first, last, found), last
    return None


#: Words of a denial that refer back to what was said before it ("nothing like that", "no such place").
BACK_REFERENCE = re.compile(r"\b(?:like that|like those|such|of that kind|that kind|of those)\b")


def _with_referent(doc, first: int, last: int, found: list[Found]) -> int:  # type: ignore[no-untyped-def]
    """The first token of a no-result statement: its sentence's, or the sentence's before it when
    the statement refers back to it ("Korean food ? I have nothing like that in the centre": the
    food is denied too) and that sentence names no entity."""
    if first == 0 or not BACK_REFERENCE.search(doc[first:last].text.lower()):
        return first
    before = max([0] + [i + 1 for i in range(first - 1) if doc[i].text in SENTENCE_END])
    if any(f.slot in ENTITY_COLUMNS for f in found if before <= f.start < first):
        return first
    return before


def _negated_before(lowers: list[str], i: int, width: int) -> bool:
    """Whether a negation stands within ``width`` tokens before token ``i`` in its own sentence
    ("No problem . Any guesthouse would do ?" negates nothing of the second sentence)."""
    for w in reversed(lowers[max(0, i - width) : i]):
        if w in SENTENCE_END or w in ("!",):
            return False
        if w in NEGATIONS:
            return True
    return False


def _unread(doc, first: int, last: int, nouns: dict[int, tuple[str, bool]], covered: set[int]) -> bool:  # type: ignore[no-untyped-def]
    """A word right before a domain noun of the sentence that is no KB value and no plain word."""
    for i in range(first + 1, last):
        if i in nouns or doc[i].lower_ in ("food", "cuisine"):
            prev = doc[i - 1]
            if prev.is_alpha and prev.i not in covered and prev.lower_ not in PLAIN_WORDS and prev.lower_ not in NUMBER_WORDS:
                if not any(prev.lower_ == c for c in NEGATIVE_CUES):
                    return True
    return False


def note_unread_request(doc, found: list[Found], memory: Memory, columns: dict[str, set[str]]) -> None:  # type: ignore[no-untyped-def]
    """Note a user request for a food no KB value matches ("Hungarian cuisine", "serves
    corsica food", or a word of a people's shape — :data:`DEMONYM` — in a turn that asks for a
    place to eat: "I haven't had eritrean in forever … a restaurant that serves it"); a later
    food the KB has clears it. ``columns``: domain → its KB columns."""
    domains = [d for d in columns if "food" in columns[d]]
    if not domains:
        return
    if any(f.slot == "food" for f in found):
        memory.unread.discard(domains[0])
        return
    covered = {i for f in found for i in range(f.start, f.end)}
    eating = any(t.lower_ in EATING_WORDS for t in doc)
    for i, tok in enumerate(doc):
        nxt = doc[i + 1].lower_ if i + 1 < len(doc) else ""
        before = doc[i - 1].lower_ if i > 0 else ""
        if tok.is_alpha and i not in covered and tok.lower_ not in PLAIN_WORDS and tok.lower_ not in NUMBER_WORDS:
            if nxt in FOOD_WORDS or before in SERVE_VERBS or eating and DEMONYM.search(tok.lower_):
                if tok.lower_ not in NOT_FOODS:
                    memory.unread.add(domains[0])
                    return


#: Words of a system turn saying a booking failed ("booking was unsuccessful", "fully booked").
BOOKING_FAILED = re.compile(
    r"\b(unsuccessful|fully booked|booked up|(?:could|can|was|were) ?n[o']t (?:be )?(?:able to )?(?:book|reserve)|"
    r"(?:unable|not able) to (?:book|reserve|make (?:the|a|that) (?:booking|reservation))|cannot (?:book|reserve)|"
    r"(?:booking|reservation) (?:failed|did ?n[o']t go through|was not)|no availability|unavailable|"
    r"(?:not|no longer|n't) available)\b",
    re.I,
)
#: Words of a user turn asking for a booking.
BOOKING_ASKED = re.compile(r"\b(book|booking|reserve|reservation|rooms? for|a table for|tickets? for)\b", re.I)


def booking_failures(acts: list[DialogueAct], utterance: str, asked: str) -> list[DialogueAct]:
    """A no-result in a system turn that reports a failed booking ("I'm sorry, booking was
    unsuccessful", "no rooms available"), or that answers a booking request (``asked``: the user
    turn before) with what is not "available", may say the booking failed, not that no entity
    matches (a DB without availability cannot settle it): its acts carry a doubt."""
    if not any(a.role is ActRole.NO_RESULT for a in acts):
        return acts
    failed = BOOKING_FAILED.search(utterance)
    if failed is None and BOOKING_ASKED.search(asked) and re.search(r"\bavailab|\bopen(?:ings?)?\b|\bleft\b", utterance, re.I):
        failed = re.search(r"\bavailab\w*|\bopen\w*|\bleft\b", utterance, re.I)
    if failed is None:
        return acts
    doubt = f"a booking's failure may be meant, not a search's: {failed.group(0)!r}"
    return [a.model_copy(update={"doubt": a.doubt or doubt}) if a.role is ActRole.NO_RESULT else a for a in acts]


def unreadable_denials(acts: list[DialogueAct], unread: set[str]) -> list[DialogueAct]:
    """A no-result statement in a domain whose request names a value no KB has ("Hungarian
    food") denies what cannot be read: it makes no no-result claim; its values are informs."""
    named = {a.domain for a in acts if a.role is ActRole.NO_RESULT and a.slot == "food"}
    out = []
    for a in acts:
        if a.role is ActRole.NO_RESULT and a.domain in unread - named:
            if not a.slot:
                continue
            a = a.model_copy(update={"role": ActRole.INFORM, "act": "inform"})
        out.append(a)
    return out


def no_result_request(acts: list[DialogueAct], state: State, columns: dict[str, set[str]]) -> list[DialogueAct]:
    """A no-result statement is about the request in force ("no matching restaurants in the
    north"): the user's search values it does not repeat (of ``columns``: domain → its KB
    columns) join it as implicit no-result values."""
    out = []
    for domain in {a.domain for a in acts if a.role is ActRole.NO_RESULT and not a.slot}:
        said = {a.slot for a in acts if a.domain == domain and a.role is ActRole.NO_RESULT}
        for slot, values in state.get(domain, {}).items():
            if slot in said or slot in ENTITY_COLUMNS or len(values) != 1:
                continue  # a bound joins as its value: none at exactly that time is implied by none after it
            if slot in columns.get(domain, ()):
                out.append(implicit(ActRole.NO_RESULT, "nooffer", domain, slot, values[0]))
    return out


def alternatives(acts: list[DialogueAct], state: State) -> State:
    """A system turn that reports no result and offers an entity offers an alternative outside
    the request ("no moderate hotels in the east; there is an expensive one, X"): that turn's
    search is what it offers, so the request is not added to its offer. A no-result that is a
    guess ("booking was unsuccessful : there are no hotels …": a booking's failure may be meant)
    leaves the turn's search the request."""
    guessed = {a.domain for a in acts if a.role is ActRole.NO_RESULT and a.doubt}
    failed = {a.domain for a in acts if a.role is ActRole.NO_RESULT} - guessed
    out = {d: dict(slots) for d, slots in state.items()}
    for domain in failed:
        offered = [a for a in acts if a.domain == domain and a.role is ActRole.OFFER and a.span is not None]
        if any(a.slot in ENTITY_COLUMNS for a in offered):
            out[domain] = {a.slot: [a.canonical or ""] for a in offered}
    return out if out != state else state
