"""Rules of English that leave a reading unsettled: whether a sentence states, asks, supposes or
denies what a span of it says, and whether an amount is exact.

Each function looks at one utterance and a character span in it and returns a short reason (the
words that make the reading uncertain) or ``None``. :mod:`csp_check.build.certainty` applies them
to the variables a constraint rests on. They are rules of the language, not of a corpus: a
question mark, a conditional, a negator, a vague quantifier.

Reading rules

- **Sentence and clause.** A sentence ends at ``.``, ``!`` or ``?`` followed by a space (or at the
  end of the utterance), or before a capitalised auxiliary or wh-word that follows a word with no
  mark between ("… match your criteria Is American Airlines alright for you?": a run-on question); a clause ends at ``,``, ``;``, ``:`` or a dash as well.
- **Asked, not stated** (:func:`asked`): the span's sentence ends in ``?`` and the span is at or
  after the sentence's first interrogative opener ("would you like", "shall I", "do you", "how
  about", "is there", a wh-word, …), or, in a sentence with no opener that ends in ``?``, the span is in its last clause (a bare
  "5 stars?"; not the 5 of "there are 5 places, might I suggest X?"). "There are 5 hotels, would you like one in the north?": the 5 is stated (it comes
  before the question starts, with or without a comma), the north asked.
- **Asked of an entity** (:func:`asked_of_entity`): asked, in a yes/no question whose subject is
  an entity ("is it", "does that", "are they"): the value is asked of the entity, not requested.
- **Wanted** (:func:`wanted`): "I would like", "I want", "I need", "I'm looking for" before the
  span in its sentence: the speaker wants it; a system that says so states nothing of the KB.
  Not before a verb of telling or offering ("I would like to recommend X", "I'd like to let you
  know …"): that is the speaker's own act, which states.
- **Supposed** (:func:`supposed`): the span's sentence has "if", "unless", "in case",
  "otherwise" or "assuming" before the span — not a conditional on the hearer's wishes or the
  speaker's manners ("if you'd like", "if I may", "if you have no preference", "if not", "if
  possible"), which supposes nothing of the claim. An "if" after a verb of finding out ("check
  to see if I can have a table for 1", "let me see if I got it right") asks whether.
- **Denied existence** (:func:`denied`): the span's clause (not after a "but") says nothing exists ("there are no",
  "no … in", "not any", "none", "nothing", "could not find", "unable to find", "do not have",
  "do n't have", "there is not") before the span.
- **Vague amount** (:func:`vague_amount`): "several", "a few", "many", "lots", "numerous",
  "plenty", "a number of", "various", "some", "a couple", "a handful", "multiple", "dozens",
  "hundreds".
- **An increment or a rating, no total** (:func:`not_a_total`): "N more", "N additional",
  "another N", "N extra"; "N out of M", "N/M", "N stars" after a number.
- **Coordinated kinds** (:func:`coordinated`): the amount counts a coordination of nouns ("5
  hotels and guesthouses", "3 museums or galleries").
- **Generic kinds** (:func:`generic_kind`, :data:`HYPERNYMS`): "place", "attraction", "venue",
  "option", … name a place of any kind; a hypernym ("entertainment", "hotel") names several kinds
  ("a cinema" is entertainment, "a guesthouse" a hotel).
- **Relaxed** (:func:`relaxed`): an utterance that lifts a constraint ("anywhere is fine", "no
  preference", "does n't matter", "do n't care", "either is fine", "any area", "whatever"), or
  widens the search ("broaden the price search", "any one of them will do", "try a different
  price range", "check another area").
- **Not a value of the slot** (:func:`not_a_value`): words not of the slot's shape (a phone
  has five digits, a postcode, a train id and a clock time a digit or a time word), a phone
  number given a slot whose values have no such digits (a name, an address), or function
  words only ("for", "in and", "a few others", "several more").
- **A part, not a total** (:func:`not_a_total`): besides an increment ("3 more") and a rating,
  a number of a set said before ("2 of them are in the north", "three of those"): "N of them"
  after another number of its utterance ("5 hotels , 2 of them in the north") or with a
  predicate of its own ("2 of them are in the north", "2 of the hotels have wifi"). Without
  either, "of them" only names the set the number counts ("I am showing 6 of them", "all 3 of the
  expensive hotels"): a total.
- **A time's role** (:func:`time_role`): the last verb of leaving ("leaves", "departing", "pick
  you up") or of arriving ("arrives", "get to", "be there", "putting you in") before a time in
  its sentence says which it is.
- **Approximate** (:func:`approximate`): "around", "about", "roughly", "approximately", "close to",
  "closer to", "-ish" right before the span.
"""

from __future__ import annotations

import re

from csp_check.models import Span

SENTENCE_END = re.compile(
    r"[.!?]+(?=\s|$)"
    # a run-on question: "… match your criteria Is American Airlines alright?" (a capitalised auxiliary or
    # wh-word after a word of the sentence, with no mark between: a new sentence starts)
    r"|(?<=[a-z0-9])(?=\s+(?:Is|Are|Do|Does|Did|Would|Will|Can|Could|Shall|Should|May|How|What|Which|When|Where|Who)\b)"
)
CLAUSE_END = re.compile(r"[.!?,;:]+(?=\s|$)|\s[-–]\s")
OPENERS = re.compile(
    r"\b(would you|will you|do you|did you|does it|does that|do they|are you|have you|can you|could you|"
    r"shall i|shall we|should i|can i|could i|may i|might i|would it|would that|is there|are there|is that|is it|"
    r"how about|what about|what|which|when|where|who|how many|how much|how|any (?:particular|preferences?|"
    r"specific|other)|or (?:would|do|did|should|shall|is|are)|want me to|like me to)\b",
    re.I,
)
CONDITIONAL = re.compile(r"\b(if|unless|in case|otherwise|assuming)\b", re.I)
#: Conditionals on the hearer's wishes or the speaker's manners ("if you'd like", "if I may",
#: "if you have no preference"): they suppose nothing of what the sentence says.
POLITE = re.compile(
    r"^(if|in case)\s+(?:(?:you|u)\b[^,.?!]{0,30}?\b(like|want|wish|prefer|interested|need|care|have no|do n[o']t have|"
    r"please)\b|i may\b|so\b|that (works|helps|is ok|suits)|possible\b|not\b)",
    re.I,
)
#: A verb of finding out before "if": the "if" asks whether ("Check to see if I can have a table
#: for 1", "Let me see if I got everything correctly"), it supposes nothing.
WHETHER = re.compile(r"\b(?:see|check|know|ask|asking|wonder|wondering|find out|confirm|verify|tell me|look)\s+$", re.I)
DENIAL = re.compile(
    r"\b(there (?:are|is|were|was) no|there (?:are|is|were|was) not|there (?:are|is) n[o']t any|(?:are|is) n'?t any|no\b|not any|none|nothing|"
    r"could ?n[o']t find|can ?n[o']t find|cannot find|unable to find|did ?n[o']t find|do ?n[o']t (?:have|see)|"
    r"does ?n[o']t have|not (?:have|find|see))",
    re.I,
)
VAGUE = re.compile(
    r"\b(several|a few|few|many|lots?|numerous|plenty|a number of|various|some|a couple|couple|a handful|"
    r"multiple|dozens|hundreds|a bunch|tons)\b",
    re.I,
)
INCREMENT_AFTER = re.compile(r"^\s*(more|additional|extra|further|else)\b", re.I)
INCREMENT_BEFORE = re.compile(r"\b(another|an additional|a further)\s*$", re.I)
#: Words after a number that make it a part of a set said before ("2 of them are in the north", "three of those").
PART_AFTER = re.compile(r"^\s*(?:of|out of)\s+(?:them|those|these|which|the\b|its|their)", re.I)
#: A number said before the part, in its utterance: the set the part is of ("5 hotels , 2 of them").
SET_BEFORE = re.compile(r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                        r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|several|many|a few|a number of|"
                        r"a lot of|lots of|plenty of)\b", re.I)
#: The part's own predicate, a verb within three words of "of them" / "of the" ("are in the north", "hotels have").
PART_PREDICATE = re.compile(r"^\s*(?:[a-z'-]+\s+){0,3}?(are|is|were|was|have|has|had|offer|offers|serve|serves|include|"
                            r"includes|provide|provides|charge|charges|do|does|can|will|would|also)\b", re.I)
#: "all" before the number: the whole set, a total ("all 3 of the expensive hotels").
ALL_BEFORE = re.compile(r"\ball\s+(?:(?:of\s+)?(?:about|around|approximately|roughly|nearly|almost)\s+)?$", re.I)
RATING_AFTER = re.compile(r"^\s*(out of\s+\d+|/\s*\d+|stars?\b|star rating|-star)", re.I)
COORDINATION_AFTER = re.compile(
    r"^\s*(?:[a-z'-]+\s+){0,2}?([a-z'-]+s)\s+(and|or|and/or)\s+(?!(?:a|an|one|the|this|that)\s)(?:[a-z'-]+\s+)?([a-z'-]+s)\b",
    re.I,
)  # "5 hotels and guesthouses"; not "9 buses and a bus" (a singular after its article)
#: Nouns that name a place of any kind, and the kinds a hypernym names ("a cinema" is "entertainment").
GENERIC_KINDS = frozenset({"place", "places", "attraction", "attractions", "venue", "venues", "spot", "spots",
                           "establishment", "option", "options", "location", "place to stay", "somewhere"})
HYPERNYMS: dict[str, frozenset[str]] = {"entertainment": frozenset({"cinema", "theatre", "nightclub", "concerthall"}),
                                        "hotel": frozenset({"guesthouse"})}
RELAXED = re.compile(
    r"\b(anywhere|any (?:area|part|price|price range|type|kind|day|time|location)|no preference|"
    r"(?:does|do|did) ?n[o']t (?:matter|care|mind)|not (?:matter|care)|either (?:is|one|will|would)|"
    r"(?:is|are|'s) ?n[o']t (?:really |that |too |very |so |all that )?(?:important|a (?:big )?(?:deal|concern|priority|factor|issue))|"
    r"not (?:really |that |too |very |so |all that )?(?:important|a (?:big )?(?:concern|priority|factor|issue))|"
    r"(?:is|are) no (?:object|concern|issue)|"
    r"(?:forget|never mind|ignore|scratch|drop|disregard) (?:about )?(?:the|my|that) "
    r"(?:area|part of town|location|price|price range|pricing|cost|type|kind|day|date|time|rating|stars?)|"
    r"whatever|i do n't care|dontcare|flexible|open to|not picky|any will do|anything (?:is|will)|"
    r"not (?:too |that |really |very |so |at all |overly )?(?:fussy|picky|particular|bothered|fussed|worried) (?:about|with|on|regarding)|"
    r"any (?:star rating|rating|stars?|number of stars|food|cuisine|price point)\b|"
    r"any (?:one )?(?:of them|one) (?:is|will|would)|broaden|widen|expand|loosen|"
    r"(?:a|another|any|some) (?:different|other) (?:area|part|price|price range|type|kind|location|star)|"
    r"(?:other|another|different) (?:area|part of town|price range|type|kind) (?:instead|then)|"
    r"(?:try|check|look at|search) (?:for )?(?:a|another|any|some) ?(?:different|other)?\s*(?:area|part|price|location|type|kind))\b",
    re.I,
)
ABOUT_ENTITY = re.compile(r"\b(is|does|are|do|has|have|was|were|will|would)\s+(it|that|this|they|these|those|either|any of them)\b", re.I)
APPROXIMATE = re.compile(r"\b(around|(?<!how )(?<!what )about|roughly|approximately|close to|closer to|near|nearly|or so)\s*$", re.I)


def _unit(utterance: str, span: Span, ends: re.Pattern[str]) -> tuple[int, int]:
    """``(start, end)`` of the unit (sentence or clause, by ``ends``) holding ``span``."""
    start, end = 0, len(utterance)
    for m in ends.finditer(utterance):
        if m.end() <= span.start:
            start = m.end()
        elif m.start() >= span.end:
            end = m.end()
            break
    return start, end


def sentence(utterance: str, span: Span) -> tuple[int, int]:
    """``(start, end)`` of the sentence of ``utterance`` holding ``span`` (its final mark included)."""
    return _unit(utterance, span, SENTENCE_END)


def clause(utterance: str, span: Span) -> tuple[int, int]:
    """``(start, end)`` of the clause of ``utterance`` holding ``span``."""
    return _unit(utterance, span, CLAUSE_END)


def asked(utterance: str, span: Span) -> str | None:
    """Why the span is asked rather than stated, or ``None`` (module doc, "Asked, not stated")."""
    start, end = sentence(utterance, span)
    text = utterance[start:end].rstrip()
    if not text.endswith("?"):
        return None
    first = OPENERS.search(utterance, start, end)
    if first is None:  # "…, might I suggest X?", "5 stars?": the clause before the mark is the question
        clause_start, _ = clause(utterance, Span(start=max(start, end - 2), end=max(start, end - 1)))
        return f"asked: {utterance[clause_start:end].strip()!r}" if clause_start <= span.start else None
    if first.start() <= span.start:
        return f"asked: {utterance[first.start():end].strip()!r}"
    return None  # "There are 46 places to choose from do you want …?": the question starts after the span


def asked_of_entity(utterance: str, span: Span) -> str | None:
    """Why the span is a value the speaker asks an entity has ("Is it in the cheap price range?",
    "Does it have free parking?"), or ``None``. A request phrased as a question ("Can you find a
    place in the north?", "Are there any guesthouses …?") sets the value: ``None``."""
    if words := asked(utterance, span):
        start, end = sentence(utterance, span)
        if ABOUT_ENTITY.search(utterance, start, end):
            return words
    return None


WANTED = re.compile(r"\bi\s*(?:would like|'d like|want|need|am looking for|'m looking for|am interested in|prefer)\b", re.I)


#: A verb of telling or offering after "I would like to": the speaker's own act ("I would like to recommend X").
TELLING = re.compile(r"\s+to\s+(?:recommend|suggest|offer|propose|inform|tell|let you know|remind|mention|point out|confirm)\b", re.I)


def wanted(utterance: str, span: Span) -> str | None:
    """Why the span is something its speaker wants, not states ("I would like a guesthouse with
    free parking"), or ``None``: the span's sentence has "I would like", "I want", "I need", "I'm
    looking for", … before it."""
    start, _ = sentence(utterance, span)
    m = WANTED.search(utterance, start, span.start)
    if m and TELLING.match(utterance, m.end(), span.start):
        return None  # "I would like to recommend X": a recommendation, stated
    return f"wanted, not stated: {utterance[m.start():span.end].strip()!r}" if m else None


def supposed(utterance: str, span: Span) -> str | None:
    """Why the span is only supposed (a conditional), or ``None``. An "if" after a verb of finding
    out ("check if", "see if", "know if") asks whether: no supposition."""
    start, _ = sentence(utterance, span)
    for m in CONDITIONAL.finditer(utterance, start, span.start):
        if m.group(1).lower() == "if" and WHETHER.search(utterance, start, m.start()):
            continue  # "see if there is a table": an embedded question, no supposition
        if not POLITE.match(utterance[m.start() :]):
            return f"a conditional: {utterance[m.start():span.end].strip()!r}"
    return None


def denied(utterance: str, span: Span) -> str | None:
    """Why the span's clause denies that what it names exists, or ``None``."""
    start, _ = clause(utterance, span)
    m = DENIAL.search(utterance, start, span.start)
    if m and re.search(r"\b(but|however|though|although)\b", utterance[m.end() : span.start], re.I):
        return None  # "no X, but Y": Y is not denied
    return f"said not to exist: {utterance[m.start():span.end].strip()!r}" if m else None


def vague_amount(text: str | None) -> str | None:
    """Why an amount's words are vague ("several", "a few"), or ``None``."""
    m = VAGUE.search(text or "")
    return f"a vague amount: {m.group(0)!r}" if m else None


def not_a_total(utterance: str, span: Span) -> str | None:
    """Why a number is an increment, a rating or a part of a set said before ("2 of them" after
    another number or with its own predicate: module doc) rather than a count of entities, or ``None``."""
    after, before = utterance[span.end :], utterance[: span.start]
    if m := INCREMENT_AFTER.match(after):
        return f"an increment, not a total: {utterance[span.start:span.end + m.end()].strip()!r}"
    if m := INCREMENT_BEFORE.search(before):
        return f"an increment, not a total: {m.group(0).strip()} {utterance[span.start:span.end]}"
    if m := RATING_AFTER.match(after):
        return f"a rating, not a count: {utterance[span.start:span.end + m.end()].strip()!r}"
    if ((m := PART_AFTER.match(after)) and not ALL_BEFORE.search(before)
            and (SET_BEFORE.search(before) or PART_PREDICATE.match(after[m.end() :]))):
        return f"a part of a set, not a total: {utterance[span.start:span.end + m.end()].strip()!r}"
    return None


def coordinated(utterance: str, span: Span) -> str | None:
    """Why an amount counts a coordination of kinds ("5 hotels and guesthouses"), or ``None``."""
    m = COORDINATION_AFTER.match(utterance[span.end :])
    return f"a count of coordinated kinds: {utterance[span.start:span.end + m.end()].strip()!r}" if m else None


def coordinated_kinds(utterance: str, span: Span) -> tuple[str, str] | None:
    """The two plural nouns a coordinated count counts ("hotels", "guesthouses"), or ``None``."""
    m = COORDINATION_AFTER.match(utterance[span.end :])
    return (m.group(1).lower(), m.group(3).lower()) if m else None


def singulars(noun: str) -> tuple[str, ...]:
    """The singular forms a plural noun may have ("guesthouses" → "guesthouse", "churches" → "church")."""
    return tuple(dict.fromkeys(x for x in (noun[:-2] if noun.endswith("es") else "", noun[:-1] if noun.endswith("s") else noun) if x))


def generic_kind(text: str | None) -> str | None:
    """Why a kind's words name no kind in particular ("place", "attraction", "venue"), or ``None``."""
    return f"a generic word for a kind: {text!r}" if (text or "").strip().lower() in GENERIC_KINDS else None


def relaxed(utterance: str) -> tuple[str, str] | None:
    """``(reason, words)``: why an utterance lifts a constraint ("no preference") and the words
    that say which: the relaxation itself where it names its slot ("any area", "anywhere": the
    rest of its clause, "… in any area that serves Spanish food", keeps its filters), else its
    clause; ``None`` if it lifts none. The first of :func:`relaxations`."""
    return next(((reason, said) for reason, said, _ in relaxations(utterance)), None)


def relaxations(utterance: str) -> list[tuple[str, str, int]]:
    """``(reason, words, offset)`` of each relaxation of an utterance, in order (see
    :func:`relaxed`; ``offset``: where the relaxation starts): "I don't care either way . I want
    it cheap . On second thought , the price is not important ." has two."""
    out = []
    for m in RELAXED.finditer(utterance):
        if slots_named(m.group(0)):
            out.append((f"relaxed: {m.group(0)!r}", m.group(0), m.start()))
            continue
        start, end = clause(utterance, Span(start=m.start(), end=m.end()))
        out.append((f"relaxed: {m.group(0)!r}", utterance[start:end], m.start()))
    return out


def approximate(utterance: str, span: Span) -> str | None:
    """Why the span's value is only approximate ("around 20:45"), or ``None``."""
    m = APPROXIMATE.search(utterance[: span.start])
    return f"approximate: {utterance[m.start():span.end].strip()!r}" if m else None


#: Words that name a slot of a search, by the column they name (MultiWOZ's and SGD's columns share
#: these English words): a relaxation ("no preference") lifts the slots its clause, or the question
#: it answers, names.
SLOT_WORDS: dict[str, tuple[str, ...]] = {
    "area": ("area", "part of town", "side of town", "location", "where", "anywhere", "side", "part"),
    "pricerange": ("price", "cost", "cheap", "expensive", "moderate", "budget", "range"),
    "type": ("type", "kind", "sort"),
    "stars": ("star", "rating"),
    "food": ("food", "cuisine"),
    "internet": ("wifi", "internet"),
    "parking": ("parking", "park"),
    "day": ("day", "date", "when"),
    "leaveAt": ("time", "leave", "depart", "when"),
    "arriveBy": ("time", "arrive", "when"),
    "departure": ("leaving from", "departing from", "departure", "depart", "where from"),
    "destination": ("going to", "destination", "heading", "where to", "travel to"),
}


def slots_named(utterance: str) -> set[str]:
    """The columns whose words (:data:`SLOT_WORDS`) ``utterance`` says."""
    text = f" {utterance.lower()} "
    return {slot for slot, names in SLOT_WORDS.items() if any(re.search(rf"\b{re.escape(n)}", text) for n in names)}


#: The name of a clock-time slot (MultiWOZ's ``leaveAt`` / ``arriveBy`` / ``book time``, SGD's ``*_time``).
TIME_SLOT = re.compile(r"^(leaveat|arriveby)$|(^|[ _])time$", re.I)
#: What a written value of a slot looks like, by a word of the slot's name: a phone number has
#: digits (five at least), a postcode a digit, a train id "TR" and its digits (MultiWOZ's ids are
#: TR + 4 digits; "tr588" is a typo of one, "1097" or "15:45" none), a clock time a digit or a time word.
SHAPES: tuple[tuple[re.Pattern[str], re.Pattern[str], str], ...] = (
    (re.compile(r"phone", re.I), re.compile(r"(?:\d\D{0,2}){5}"), "a phone number"),
    (re.compile(r"postcode|postal|zip", re.I), re.compile(r"\d"), "a postcode"),
    (re.compile(r"^train_?id$", re.I), re.compile(r"(?i)\btr\s?\d{3,5}\b"), "a train id (TR and its digits)"),
    (TIME_SLOT,
     re.compile(r"\d|\b(noon|midday|midnight|morning|afternoon|evening|night|o'?clock|half|quarter|hour|day|one|two|"
                r"three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I), "a time"),
)
#: A phone number's shape (seven digits at least, nothing but digits and separators), and the
#: slots whose values may be such digits (a date's "2019-03-01" too): as the value of any other
#: slot ("01223365068" as a name) the words are no value of it.
PHONE_SHAPE = re.compile(r"^\+?(?:\d[\s().-]{0,2}){7,}$")
NUMERIC_SLOT = re.compile(r"phone|number|ref|(^|_)id$|trainid|code|zip|postal|price|fee|cost|fare|time|date|count|choice|"
                          r"people|stars|stay|duration|amount|total|balance|account|card|rating|num", re.I)
#: Words that name no value of any slot: articles, prepositions, conjunctions, pronouns, and the
#: words of a vague amount or a list's rest ("a few others", "several more").
FUNCTION_WORDS = frozenset(
    "a an the this that these those it its they them their there here for in into on at by to from of with "
    "and or but nor as than then so if is are was were be been do does did have has had i you we me us my "
    "your our he she his her few several some many more most other others another else rest any all each "
    "both such same lot lots".split()
)


def not_a_value(slot: str, text: str | None) -> str | None:
    """Why the words ``text`` at a span annotated for ``slot`` cannot be a value of it, or
    ``None``: they are not of the slot's shape (:data:`SHAPES`: "cb21ab" or "yes" as a phone, "v"
    as a train id), they are a phone number given a slot of no digits (:data:`PHONE_SHAPE`,
    :data:`NUMERIC_SLOT`: "01223365068" as a name), or they are function words only (:data:`FUNCTION_WORDS`: "for", "in and", "a
    few others" as a name). Such a span is an annotation defect (a value given the wrong slot,
    offsets gone stale), not a value the dialogue says."""
    said = (text or "").strip()
    if not said:
        return None
    for name, shape, what in SHAPES:
        if name.search(slot) and not shape.search(said):
            return f"the span's words {said!r} are not {what}: annotation defect"
    if PHONE_SHAPE.match(said) and not NUMERIC_SLOT.search(slot):
        return f"the span's words {said!r} are a phone number, no {slot}: annotation defect"
    tokens = re.findall(r"[a-z']+|\d+", said.lower())
    if tokens and all(t in FUNCTION_WORDS for t in tokens):
        return f"the span's words {said!r} are no {slot} (function words): annotation defect"
    return None


#: Verbs of leaving and of arriving ("leaves at", "putting you in Cambridge at", "be there by",
#: "arrive to pick you up" is a pick-up: leaving).
LEAVE_VERB = r"leav\w*|depart\w*|left|pick(?:s|ing|ed)?\s+(?:you\s+)?up|set(?:s|ting)?\s+off"
ARRIVE_VERB = (r"arriv\w*|reach\w*|get(?:s|ting)?\s+(?:you\s+)?(?:to|there|in)\b|got\s+(?:to|there|in)\b|be\s+(?:there|in)\b|"
               r"put(?:s|ting)?\s+you|land\w*")
TRIP_VERB = re.compile(rf"\b(?:(?P<leave>{LEAVE_VERB})|(?P<arrive>{ARRIVE_VERB}))", re.I)


def time_role(utterance: str, span: Span) -> str | None:
    """``"leave"`` / ``"arrive"``: what the last verb of leaving or arriving before the span in
    its sentence says the time is ("leaves at 09:39 and arrives … at 11:07": 11:07 arrives),
    else ``None`` (no such verb: "the 16:01 train")."""
    start, _ = sentence(utterance, span)
    last = next(iter(reversed(list(TRIP_VERB.finditer(utterance, start, span.start)))), None)
    if last is None:
        return None
    return "leave" if last.group("leave") else "arrive"
