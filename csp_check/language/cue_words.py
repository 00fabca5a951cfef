"""English words that find a variable's words in the text and qualify a mention, as data: the
cues of :mod:`csp_check.language.cues` (counts, bounds, hedges, booleans, numbers of units,
corrections, what a user states) and the role words of :mod:`csp_check.language.roles` ("from A
to B"). Each entry says what it is for; patterns are compiled once, here.
"""

from __future__ import annotations

import re

from csp_check.language.lexicon import NUMBER_WORDS

# -- counts (count_spans) ------------------------------------------------------------------
#: Words after a number that make it a measure, not a count of KB entities.
UNITS = frozenset(
    """people person persons adult adults guest guests passenger passengers traveler travelers traveller
    travellers rider riders seat seats ticket tickets star stars stop stops layover layovers transfer
    transfers bag bags bed beds bedroom bedrooms bath baths bathroom bathrooms room rooms night nights week weeks month months year years hour hours hr hrs minute minutes min mins second seconds am pm
    a.m. p.m. o'clock dollars dollar bucks usd percent mile miles km kilometers kilometres pound pounds
    euro euros time times way st nd rd th kid kids child children floor floors""".split()
)
#: Words after a number that show it is no count ("one of them", "one called X", "2 at 7 pm").
NOT_NOUNS = frozenset(
    """of is are was were be called named that which who whom whose you your i we they he she it me us them
    at on in for to from by with and or but not more other another less than as so if the a an this these
    those there here what when where how do does did can could would will should may might must has have
    had am pm among though although however just only too also moment then now again yet out today tomorrow
    tonight""".split()
)
#: Words right before a number that make it a count even with no noun after it ("I found 3.").
FINDING = re.compile(
    r"(?:found|find|have|(?:i|we)'ve|got|see|saw|revealed|returned|shows?|showing|located|there\s+(?:are|is|were|was)|"
    r"here\s+(?:are|is)|there's|here's|there're|you've\s+got|i've\s+got|out\s+of|"
    r"c(?:a|o)me\s+up\s+with|coming\s+up\s+with|among(?:\s+(?:the|these|those|my|all))?|"
    r"(?:first|one|best|top|last|each|any|all|cheapest|closest)\s+of(?:\s+(?:the|these|those|my|all))?|total\s+of)"
    r"(?:\s+(?:over|about|around|nearly|almost|approximately|roughly|exactly|only|just|some|a\s+total\s+of|"
    r"(?:no\s+|not\s+)?(?:more|fewer|less)\s+than|at\s+(?:least|most)|up\s+to|under|above|below|upwards\s+of|"
    r"in\s+excess\s+of|a\s+(?:minimum|maximum)\s+of))?\s+$"
)
#: A number of a scale: "87 out of 100", "4/5" ("out of M" right after a number; M is the scale,
#: no count, unless an entity noun follows: "3 out of 10 hotels").
SCALE_BEFORE = re.compile(r"\d(?:[.,]\d+)?\s+out\s+of\s+$")
SCALE_AFTER = re.compile(r"\s*(?:out\s+of\s+\d|/\s*\d)")
#: Words right before a number that make it an attribute, not a count ("rated 4", "party of 3").
ATTRIBUTE = re.compile(r"(?:rating|rated|size|party|group|floor|number|table)(?:\s+(?:of|for|is|was))?\s+$")
#: Number words that may count entities (not "no", "none", "zero", or the loose "a couple").
COUNT_WORDS = {w: n for w, n in NUMBER_WORDS.items() if w not in ("no", "none", "zero", "couple", "a couple")}
#: A number that may count entities: digits (grouped in thousands or not) or a number word, not
#: a piece of a price, a time, a decimal or an id ("$12", "7:30", "4.5", "#3").
NUMBER = re.compile(
    r"(?<![\w$£€.,:/#-])(?:\d{1,3}(?:,\d{3})+(?![.,]\d)|\d+|" + "|".join(sorted(map(re.escape, COUNT_WORDS), key=len, reverse=True))
    + r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?)(?![\w%$£€-])(?![.,:/]\d)"
)
#: The word right after a number (its noun or unit).
WORD = re.compile(r"\s+([a-z][a-z.'-]*)")
#: The unit word after a number, also when tokenised text puts a hyphen apart ("3 -star").
UNIT_WORD = re.compile(r"\+?\s+-?\s*([a-z][a-z.'-]*)")  # "20+ hotels": a bound before its noun

# -- amounts said as bounds ("over 70", "at least 3", "up to 5", "3 or more") -----------------
#: Words before a number that make it a bound on the KB count, and the comparison they state:
#: the count ``op`` the number. Longer phrases first ("no more than" is no "more than").
BOUND_PHRASES = (
    ("no more than", "<="), ("not more than", "<="), ("no fewer than", ">="), ("no less than", ">="),
    ("not less than", ">="), ("not fewer than", ">="), ("at least", ">="), ("a minimum of", ">="),
    ("minimum of", ">="), ("at most", "<="), ("up to", "<="), ("a maximum of", "<="), ("maximum of", "<="),
    ("more than", ">"), ("over", ">"), ("above", ">"), ("in excess of", ">"), ("upwards of", ">"),
    ("fewer than", "<"), ("less than", "<"), ("under", "<"), ("below", "<"),
)
#: Any of :data:`BOUND_PHRASES` right before a number (group 1: the phrase).
BOUND_BEFORE = re.compile(
    r"(?<![\w'])(" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w, _ in BOUND_PHRASES) + r")\s+$"
)
#: A bound phrase → the comparison it states.
BOUND_OPS = {w: op for w, op in BOUND_PHRASES}
#: Spans of time after "over N": "over 3 days" is across them, not more than 3.
SPREAD = re.compile(r"\s+(?:different\s+|separate\s+|consecutive\s+)?(?:days?|nights?|weeks?|weekends?|months?|years?|dates?)\b")
#: Words after a number (and its noun) that make it a bound: "3 or more", "10 hotels or fewer", "20+".
BOUND_AFTER = re.compile(r"(?:\+|(?:\s+[a-z][a-z'-]*){0,2}?\s+or\s+(more|over|above|greater|fewer|less|under|below))(?![\w-])")

# -- amounts said as approximations ("about 70", "roughly a dozen", "40 or so") ----------------
#: Words before a number that make it approximate (spec §2: the count lies within
#: :func:`~csp_check.language.cues.approx_tolerance` of it). Longer phrases first.
HEDGES = ("in the region of", "in the neighborhood of", "in the neighbourhood of", "somewhere around",
          "close to", "approximately", "approx.", "approx", "roughly", "around", "about", "nearly", "almost",
          "circa", "some", "an estimated", "estimated")
#: Any of :data:`HEDGES` right before a number (group 1: the hedge).
HEDGE_BEFORE = re.compile(
    r"(?<![\w'])(" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in HEDGES) + r")\s+$"
)
#: An approximation's words at the start of a span that holds the number too ("about 10 options").
HEDGE_AT_START = re.compile(r"\s*(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in HEDGES) + r")\s+\S")
#: Words after a number (and its noun) that make it approximate: "40 or so", "70 trains give or take", "30-ish".
HEDGE_AFTER = re.compile(r"(?:-?ish\b|(?:\s+[a-z][a-z'-]*){0,2}?\s+(?:or\s+so|give\s+or\s+take|or\s+thereabouts)\b)")

# -- clock times said as bounds ("arrives by 10:30", "leaves after 17:00") ----------------------
#: Words right before a clock time that make it a bound on an entity's time (group 1: the words).
TIME_BOUND = re.compile(r"\b(after|later than|from|before|by|until|till|earlier than|no later than)\s*$")

# -- booleans --------------------------------------------------------------------------------
#: Slot-name words that say how a boolean slot is phrased, not what it is about.
FRAME_WORDS = frozenset(
    "has have is are offers offer serves serve good for allowed allows welcome options option services service "
    "entry seating arrives ride flag".split()
)
#: Words that negate a boolean cue ("not", "no", "doesn't", "non-", "unfurnished").
NEGATORS = re.compile(
    r"\b(?:not|no|never|without|minus|nor|neither|cannot|cant|isnt|doesnt|dont|arent|wont|don|doesn|isn|aren|didn|wasn|weren|hasn|haven|non|prohibited|forbidden|banned)\b"
    r"|n't\b|\bnon-?\w|\bun\w+(?:able|ed)\b"
)
#: A negator before these words says "either is fine", not "false" ("I don't mind a shared ride").
INDIFFERENT = re.compile(r"\s*(?:mind|matter|care|preference|problem|issue|restriction|worries|concern)\b")
#: "or not" after a cue: either value is fine ("a shared ride or not").
EITHER = re.compile(r"\bor\s+not\b")
#: Where a cue's clause ends (punctuation, a conjunction): a negation does not reach past it.
CLAUSE_END = re.compile(r"[.;!?,:]|\b(?:but|and|however|although|while|though|if)\b")
#: The values of a boolean slot, as normalised.
BOOLEAN = ("true", "false")
#: Other words for a boolean slot's cue (by the stems :func:`boolean_cue` keeps): the same
#: feature in everyday words ("smoke" for smoking, "children" for kids, "patio" for outdoor
#: seating, "furniture" for furnished, "internet" for wifi). Only words that name the feature
#: itself, so their negation negates it ("no furniture", "you can't smoke").
CUE_SYNONYMS = {
    "kid": r"child(?:ren)?|famil(?:y|ies)",
    "smoking": r"smok(?:e|es|er|ers)",
    "outdoor": r"outside|patio|(?:on|at) the terrace",
    "furnished": r"furniture|furnishings?",
    "wifi": r"wi-fi|internet|wireless",
    "alcohol": r"alcoholic|liquor|booze",
    "vegetarian": r"veggie",
    "refundable": r"refund(?:s|ed)?",
    "live music": r"live\s+(?:band|bands|concerts?|performances?)",
}
#: MultiWOZ's yes/no hotel columns (``internet``, ``parking``) and the words that name them in text.
AMENITIES = {"internet": re.compile(r"(?<![\w-])(?:wi-?fi|wifi|internet|wireless(?: internet)?)(?![\w])"),
             "parking": re.compile(r"(?<![\w-])(?:parking|car park|place to park)(?![\w])")}
#: A short yes/no answer at the start of a turn ("No, they do not.", "Yes, it is.", "Unfortunately they don't").
ANSWER = re.compile(
    r"(?:(?:yes|yeah|yep|yup|no|nope|sorry|unfortunately|indeed|actually|sadly|luckily|fortunately)\b[ ,!]*)*"
    r"(?:(?:they|it|he|she|there|this|that|the \w+)(?:\s+|(?=')))?(?:do|does|did|is|are|was|were|has|have|can|will|'s|'re)"
    r"(?:\s*n't|\s+not)?\b|(?:yes|yeah|yep|yup|no|nope)\b"
)
#: The second of two coordinated nouns, right after the "and" / "or" that joins it to the first
#: (an article between at most: "parking and wifi", "wifi or any parking"); group 1 is the end
#: of the first noun.
CONJOINED = re.compile(r"([\w-])\s+(?:and|or)\s+(?:(?:a|an|any)\s+)?$")

# -- numbers of units (closed numeric slots: party size, stops, star rating) -------------------
#: Nouns that count people ("3 people", "2 tickets"): a party size's unit.
PEOPLE = frozenset("people person persons adult adults guest guests passenger passengers traveler travelers "
                   "rider riders seat seats ticket tickets".split())
#: Slot-name words of a slot that counts people (``party_size``, ``number_of_riders``).
PEOPLE_SLOTS = frozenset("size party group passengers travelers riders adults seats tickets people guests".split())
#: Words right before a number that reject it ("instead of two tickets", "not 4 people").
REJECTED = re.compile(r"(?:instead of|rather than|\bnot|\bno longer|\bchange from|\bfrom)\s+$")
#: English words for one unit: "1 stop" = "1 layover", "2 baths" = "2 bathrooms".
UNIT_SYNONYMS = {
    "stop": ("layover", "connection", "transfer"), "layover": ("stop", "connection", "transfer"),
    "transfer": ("stop", "layover", "connection"), "bed": ("bedroom",), "bath": ("bathroom",),
    "bag": ("suitcase", "luggage"),
}
#: Words that may follow a bare party size ("for 2 please", "for 4 today").
AFTER_PARTY = frozenset("available please today tomorrow tonight next this".split())
#: Words before a bare number of people: "a table for 2", "get me 1", "the number of tickets is 3".
PEOPLE_BEFORE = re.compile(r"(?:\bfor|\bparty of|\bgroup of|\bget me|\bbook|\bbuy|\breserve|\bneed|\bwant|\bare|\bis|"
                           r"\bmake it|\bto)\s+$")
#: Slot-name words that name no unit (``number_of_tickets`` → tickets).
SLOT_FILLER = frozenset("number num of the in to for".split())
#: Words that take back what was just said and give the value that holds now ("Actually, make
#: that 3 people", "on second thought, 4", "change it to 2", "2 tickets, no wait, 3", "the east .
#: Sorry , I meant the north").
CORRECTION = re.compile(
    r"\b(?:actually|on second thought|make (?:that|it)|change (?:that|it|this) to|(?:no\s*,?\s*)?wait|rather|"
    r"instead|scratch that|i mean|i meant|my mistake|i got that wrong|correction)\b[^.!?]*$"
)
#: Words with which a system takes back what it said before ("Sorry, I made a mistake, the
#: train ID is actually TR5678", "my apologies for the confusion", "I gave you the wrong
#: postcode"): a value of the slot said after them, in that turn, replaces the earlier one.
SELF_CORRECTION = re.compile(
    r"\b(?:made (?:a|an) (?:mistake|error)|my (?:mistake|bad|error)|i misspoke|i was (?:wrong|mistaken|incorrect)|"
    r"(?:apologi[sz]e|apologies|sorry) (?:for|about) (?:the|my|that|any) (?:mistake|error|confusion|mix ?-? ?up)|"
    r"i gave you the wrong|that was (?:wrong|incorrect|a mistake)|i (?:had|got) (?:that|it) wrong|let me correct|"
    r"correction\s*[:,])", re.I
)
#: Words with which a user returns to an entity offered before ("let's go back to the first one",
#: "I'll take the one you suggested first", "the first place sounds better after all"); group
#: ``first`` is set where the words name the first one offered.
BACK_TO = re.compile(
    r"(?i)\b(?:go(?:ing)? back to|back to (?:the|my)|(?P<first>the first (?:one|place|option|suggestion|choice|hotel|"
    r"restaurant|guest ?house|attraction)|(?:one|place|option) you (?:suggested|mentioned|recommended|offered) first)|"
    r"(?:one|place|option) you (?:suggested|mentioned|recommended|offered) (?:before|earlier)|"
    r"the (?:previous|earlier|original|other) (?:one|place|option|suggestion|choice)|after all)\b"
)
#: Words right before a value that say it is the one being replaced: "6 tickets rather than
#: [one]", "instead of [Monday]", "not just [1]", "no longer [2]", "changed from [4]".
REPLACED = re.compile(
    r"(?:\brather than|\binstead of|\bnot just|\bnot only|\bno longer|\b(?:chang|mov|switch)(?:e|ed|ing) (?:it )?from)"
    r"\s+(?:the\s+)?$"
)

# -- what a user states --------------------------------------------------------------------
#: Words right before a value a user rejects ("not on TV", "instead of Compact", "other than").
REJECTING = re.compile(
    r"(?:\bnot|\bno|n't|\bnever|instead of|rather than|other than|except|\bnor)\s+(?:[\w']+\s+){0,2}$"
)
#: A user sentence that asks for something (or asks a question).
REQUEST = re.compile(
    r"\b(?:want|wanna|need|like|prefer|looking|look|find|search|book|reserve|play|get|show|go|give|make|rent|buy|"
    r"set|use|change|switch|rather|would|could|can|please|interested|about|maybe|perhaps|try|instead|let's|check|"
    r"choose|pick|select|opt|tell|how|what|which|where|when)\b", re.I
)
#: A user sentence about the entity offered ("That's pretty expensive"), not a request.
DESCRIBING = re.compile(r"\s*(?:that|it|this|these|those)(?:'s|\s+is|\s+was|\s+are|\s+sounds|\s+seems)\b", re.I)

# -- where a statement is about -----------------------------------------------------------
#: The whole city as the place a statement is about, said outside any annotated span ("colleges
#: in Cambridge would be a good bet", "the best museum in town", "all over town"); not the city
#: centre ("in the city centre", "in town centre") nor the start of a name ("in Cambridge
#: Belfry", which is a span).
WHOLE_CITY_WORDS = re.compile(
    r"\b(?:in|around|across|throughout|anywhere in|everywhere in|all over|all around)\s+(?:all\s+of\s+)?"
    r"(?:cambridge|town|the\s+city|the\s+town|the\s+whole\s+(?:city|town))\b(?!\s*(?:'s\s+)?(?:cent(?:re|er)|area|-))",
    re.IGNORECASE,
)


# -- the role of a trip's place ("from A to B": csp_check.language.roles) -------------------
# Only unambiguous role words: departure verbs ("leaving (from)", "departing from"), "from A to
# B" / "to B from A", "going to". A bare "from X", "travelling from X" or "a flight to X" is
# where SGD's paraphrasing crowd workers most often wrote the reverse of what the dialogue
# meant ("I am going from Seattle" for the destination): no claim.
#: Words right before a place that make it the trip's origin ("leaving from", "pick me up at").
ORIGIN_BEFORE = re.compile(
    r"\b(?:(?:leaving|leave|leaves|departing|departs|depart|starting|start) from|"
    r"out of|leaving|departing|pick(?:ed)? (?:me |us )?up (?:at|from)|pickup (?:at|from))(?: the)?\s+$"
)
#: "to B from |A": the other end must be a name (capitalised), not "to fly".
TO_FROM = re.compile(r"\b[Tt]o [A-Z][^,.;!?]{1,40}? from $")
#: "from A to |B".
FROM_TO = re.compile(r"\b[Ff]rom [A-Z][^,.;!?]{1,40}? to (?:the )?$")
#: Words right before a place that make it the trip's destination ("going to", "arriving in", "drop me off at").
DESTINATION_BEFORE = re.compile(
    r"\b(?:(?:going|heading|headed|go|get|fly(?:ing)?|travel(?:l?ing)?) to|arriving (?:in|at)|arrive (?:in|at)|"
    r"bound for|drop(?:ped)? (?:me |us )?off (?:at|in)|drop-?off (?:at|in))(?: the)?\s+$"
)
#: After "from |A": "… to B", the other end of the trip named in the same phrase.
TO_NAME_AFTER = re.compile(r"[^,.;!?]{2,40}? to (?:the )?[A-Z]")
#: After "to |B": "… from A".
FROM_NAME_AFTER = re.compile(r"[^,.;!?]{2,40}? from [A-Z]")
#: A capitalised word right after a span: the span is part of a longer name ("to the |Cambridge| Artworks").
NAME_GOES_ON = re.compile(r" [A-Z][a-z]")
#: Words of a round trip's return leg: its place words name the leg, not the trip.
RETURN_LEG = re.compile(r"\b(?:return|returning|come back|coming back|back from|back to|be home)")
#: Where a sentence ends (a role word does not reach past it).
SENTENCE_END = re.compile(r"[.!?;]\s")
