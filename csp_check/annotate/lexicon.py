"""The raw-text annotator's language data: word lists, wordings and patterns (English, MultiWOZ-shaped).

Data only, compiled once; the logic modules of :mod:`csp_check.annotate` import it. Each entry says
what it is for. A KB with other columns than MultiWOZ's gets only the generic rules.
"""

from __future__ import annotations

import re

from csp_check.language.normalize import normalize

# --- KB columns the rules name ------------------------------------------------------------------

#: Columns whose value identifies an entity: a system turn that names one *offers* it.
ENTITY_COLUMNS = frozenset({"name", "trainID"})
#: Which column a span shared by several columns of one domain belongs to (then KB order).
COLUMN_PRIORITY = ("name", "trainID", "food", "type", "area", "pricerange", "departure", "destination", "day")
#: Columns of trip bounds: "leave after 17:00", "arrive by 18:30" (MultiWOZ ``leaveAt`` / ``arriveBy``).
BOUND_COLUMNS = ("leaveAt", "arriveBy")
#: Columns whose values are everyday words outside their domain (the city, a weekday): a value
#: of them counts only when its domain is in the context (named, the active domain, or cued).
CONTEXT_COLUMNS = frozenset({"departure", "destination", "day"})
#: Columns never matched as values (a row's ``id``).
SKIPPED_COLUMNS = frozenset({"id"})
#: Values never matched: yes / no / free flags and "don't care" (flags are found by keyword: FLAG_WORDS).
FLAG_VALUES = frozenset({"yes", "no", "true", "false", "free", "none", "dontcare"})
#: Values longer than this many words are never matched.
MAX_VALUE_TOKENS = 12
#: A bare number of up to four digits is no value (an amount, a time, a star rating).
SMALL_NUMBER = re.compile(r"^\d{1,4}$")

# --- wordings of values -------------------------------------------------------------------------

#: Wordings of KB values beyond the normaliser's spellings, per column (used when the KB has the value).
PARAPHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "pricerange": {
        "moderate": ("mid-range", "mid - range", "mid range", "midrange", "mid-price", "mid - price", "mid price",
                     "mid-priced", "mid - priced", "mid priced", "moderately - priced", "moderately-priced",
                     "reasonably priced", "moderate price", "moderate prices", "moderately price"),
        "cheap": ("inexpensive", "cheaply priced", "low-cost", "low cost"),
        "expensive": ("pricey", "upscale", "high-end", "high - end", "high end", "expensively priced", "luxury"),
    },
    "area": {
        "centre": ("centre of town", "center of town", "town centre", "town center", "central", "centrally located",
                   "centre of cambridge", "center of cambridge", "middle of town", "downtown"),
        "north": ("northern", "northside"), "south": ("southern", "southside"), "east": ("eastern", "eastside"),
        "west": ("western", "westside"),
    },
    "type": {
        "guesthouse": ("b&b", "b & b", "b and b", "bed and breakfasts", "guest houses"),
        "boat": ("boating", "boats", "boat tour", "boat tours"),
        "swimmingpool": ("swimming pool", "swimming pools", "pool", "pools"),
        "concerthall": ("concert hall", "concert halls", "concert venue"),
        "nightclub": ("night club", "night clubs", "nightclubs", "club", "clubs"),
        "mutliple sports": ("multiple sports", "sports", "sport", "sports centre", "sports center"),
        "theatre": ("theater", "theatres", "theaters"),
        "architecture": ("architectural",),
        "cinema": ("cinemas", "movie theater", "movie theatre"),
        "museum": ("museums",), "college": ("colleges",), "park": ("parks",), "entertainment": ("entertaining",),
    },
    "food": {
        "asian oriental": ("asian", "oriental"), "gastropub": ("gastro pub", "gastropubs"),
        "seafood": ("sea food",), "modern european": ("modern european",),
    },
}  # fmt: skip
#: Spellings the normaliser treats as one value; a KB value is also matched in the others.
SPELLINGS = (
    ("centre", "center", "city centre", "city center"),
    ("guesthouse", "guest house", "guesthouses", "guest houses", "bed and breakfast"),
    ("moderate", "moderately priced"),
)
#: Yes / no columns found by a keyword ("free parking", "wifi"): column → its keywords.
FLAG_WORDS = {"parking": ("parking",), "internet": ("wifi", "wi-fi", "wi - fi", "internet", "wireless")}
#: Trailing words a short form of an entity name may drop ("the lensfield hotel" → "lensfield").
NAME_SUFFIXES = ("restaurant", "hotel", "guest house", "guesthouse", "bed and breakfast", "b and b", "airport")
#: Phrases that name the service, not a value ("Cambridge TownInfo centre"): nothing in them is matched.
MASKED_PHRASES = ("cambridge towninfo centre", "cambridge towninfo center", "towninfo centre", "towninfo center",
                  "cambridge towninfo", "town info centre", "cambridge town info centre")
#: The same, and "your visit to Cambridge", "welcome to Cambridge", as a pattern over the lowered text.
MASK_PATTERN = re.compile(r"\bcambridge\s+towne?\s*info\w*(?:\s+cent(?:re|er))?|\btowne?\s*info\w*\s+cent(?:re|er)"
                   r"|\b(?:visit|trip|stay|time|welcome|enjoy|vacation|holiday|here)\s+(?:to\s+|in\s+)?cambridge\b")

# --- domain nouns -------------------------------------------------------------------------------

#: Domain nouns beyond each KB domain's own name (singular, plural), used only for KB domains.
DOMAIN_NOUNS = {
    "restaurant": (("eatery", "eateries"), ("place to eat", "places to eat"), ("place to dine", "places to dine"),
                   ("dining establishment", "dining establishments"), ("somewhere to eat", "somewhere to eat")),
    "hotel": (("guesthouse", "guesthouses"), ("guest house", "guest houses"), ("place to stay", "places to stay"),
              ("lodging", "lodgings"), ("accommodation", "accommodations")),
    "attraction": (("museum", "museums"), ("college", "colleges"), ("park", "parks"),
                   ("thing to do", "things to do"), ("place to go", "places to go")),
    "train": (("connection", "connections"), ("train ride", "train rides")),
    "taxi": (("cab", "cabs"),),
}  # fmt: skip
#: Words that tell which domain an utterance is about but count nothing ("2 nights" is no amount of hotels).
TOPIC_WORDS = {"restaurant": ("food", "foods", "cuisine", "cuisines", "dining", "dine", "eat"),
               "hotel": ("room", "rooms", "night", "nights")}  # fmt: skip
#: Nouns of any domain (singular, plural): "two places", "no results"; their domain comes from the context.
GENERIC_NOUNS = (("place", "places"), ("option", "options"), ("choice", "choices"), ("result", "results"),
                 ("match", "matches"), ("venue", "venues"), ("one", "ones"),
                 ("listing", "listings"))  # fmt: skip
#: Values that are everyday phrases ("the place" is a nightclub): never matched.
PLAIN_NAMES = frozenset(normalize(n) for pair in GENERIC_NOUNS for n in pair)
#: Words that make a domain noun a reference point, not the topic ("as the hotel", "near the restaurant").
REFERENCE_WORDS = frozenset({"as", "near", "than", "from", "of", "like", "to", "by", "close"})
#: Words that may stand between a reference word and its noun ("as *the* hotel", "near *my* hotel").
REFERENCE_DETERMINERS = ("the", "my", "our", "a", "your")
#: Words that may stand between a value and the noun it is said of ("a *moderately priced* 4 *star*
#: hotel", "a cheap *,* italian restaurant"): besides other values and numbers.
ATTRIBUTIVE_FILLERS = frozenset({"priced", "-", "star", "stars", "and", ",", "rated", "price", "range", "very",
                                 "really", "quite", "fairly", "nice", "good", "little", "small", "big", "great"})
#: A copula and what may stand between it and a value said of its subject ("should be *in the*
#: cheap price range", "is *really* cheap"), the auxiliaries before it ("*should* be", "*has to* be",
#: "*needs to* be") and the pronouns that, right before those, are the subject ("*it* should be cheap";
#: a relative pronoun is none: "a restaurant *which* is cheap").
COPULAS = frozenset({"is", "be", "are", "'s", "was", "were", "am", "being"})
DEGREE_WORDS = frozenset({"in", "the", "a", "an", "on", "of", "really", "very", "quite", "fairly", "relatively",
                          "rather", "somewhat", "definitely", "preferably", "ideally", "also", "still", "more",
                          "actually", "located", "situated"})
#: The prepositions of a phrase that says a value of the noun right before it ("a restaurant *in*
#: the east", "a hotel *in* the cheap price range", "a guesthouse *on* the north side").
PLACE_PREPOSITIONS = frozenset({"in", "on"})
AUXILIARIES = frozenset({"should", "must", "will", "would", "can", "could", "to", "has", "have", "had", "needs", "need",
                         "ought", "got", "might", "may", "'ll", "'d", "shall", "also", "definitely", "really",
                         "ideally", "preferably", "ll", "d", "better", "itself", "themselves", "too"})
SUBJECT_PRONOUNS = frozenset({"it", "they", "he", "she", "i", "we", "you", "this", "these", "those", "both",
                              "either", "neither", "one", "ones", "everything", "all"})

# --- places and trip times ----------------------------------------------------------------------

#: Words before a place that make it a departure / a destination ("from X", "arriving in X").
DEPARTURE_CUES = frozenset({"from", "leaving", "leave", "leaves", "depart", "departs", "departing", "departure", "out"})
DESTINATION_CUES = frozenset({"to", "into", "arriving", "arrive", "arrives", "arrival", "destination", "towards",
                              "reach", "reaching", "headed", "heading", "bound", "for"})  # fmt: skip
#: The word nearest before a clock time that makes it a departure (leaveAt) or arrival (arriveBy) bound.
LEAVE_CUES = frozenset({"leave", "leaves", "leaving", "left", "depart", "departs", "departing", "departure", "after"})
ARRIVE_CUES = frozenset({"arrive", "arrives", "arriving", "arrival", "by", "before", "reach", "reaches", "reaching"})
#: Cue words that make a time a bound, not the time of one trip ("by 18:30", "after 17:00").
BOUND_WORDS = frozenset({"by", "before", "after", "than", "until", "till", "later", "earlier", "between", "from",
                         "closest", "nearest", "around", "about", "near"})
#: A clock time ("17:00", "5.30 pm", "6pm"); group 1 is the time.
CLOCK_TIME = re.compile(r"(?<![\w:.])(\d{1,2}[:.]\d{2}(?:\s*(?:am|pm|a\.m\.|p\.m\.))?|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.))(?![\w:])")
#: A train id of the KB's form ("tr1234", lowered).
TRAIN_ID = re.compile(r"tr\d{4}")

# --- the user's request -------------------------------------------------------------------------

#: Words of a clause that negate a flag keyword ("no parking", "does n't have wifi").
NEGATIONS = frozenset({"no", "not", "n't", "without", "doesn't", "don't", "isn't", "lacks", "neither", "nor", "none",
                       "opposed", "instead", "rather", "never", "nothing"})
#: A user's "are there no cheap ones?" still asks for cheap ones.
USER_NEGATIONS = NEGATIONS - {"no", "none"}
#: Negation words that negate only with the word after them ("rather than X", "instead of X");
#: "I'd rather travel on Tuesday", "X instead" ask for X.
LINKED_NEGATIONS = {"rather": "than", "instead": "of"}
#: What rejects a value said right before it ("the east won't work for me", "expensive is not an
#: option", "Tuesday is no good"; of a system's name: "X doesn't meet your requirements", "X is
#: not a good match"), on the lowercased tokens joined by spaces, and the first words
#: of it (a value's words are skipped up to them).
REJECTIONS = re.compile(r"(?:wo n't|will not|would n't|would not|does n't|does not|do n't|do not|is not|is n't|"
                        r"are not|are n't|'s not|can not|ca n't) (?:work|do|suit|fit|meet|match|satisfy|"
                        r"be (?:good|ok|okay|suitable|possible))\b|"
                        r"(?:is|are|'s) (?:no good|not an option|n't an option|out of the question|ruled out|"
                        r"(?:not|n't) (?:what you|a (?:good |close )?(?:match|fit)))\b")
REJECTION_VERBS = frozenset({"wo", "will", "would", "does", "do", "is", "are", "'s", "can", "ca"})
#: A clause whose subject is someone's or something's other than the request ("*my sister* lives
#: in the north", "*our conference* is on Wednesday", "*my flight* was cheap") says a value of
#: that, not of what the user asks — unless its head is one of the request's own nouns
#: (:data:`REQUEST_NOUNS`: "my stay", "our table", "my price range") or the clause asks
#: (:data:`REQUEST_WORDS`: "my wife and I *need* a cheap room").
POSSESSIVES = frozenset({"my", "our", "his", "her", "their"})
REQUEST_NOUNS = frozenset({"trip", "stay", "reservation", "booking", "table", "room", "rooms", "train", "ticket",
                           "tickets", "journey", "travel", "visit", "taxi", "cab", "ride", "price", "range", "budget",
                           "area", "location", "preference", "preferences", "day", "date", "time", "arrival",
                           "departure", "destination", "hotel", "restaurant", "dinner", "lunch", "meal", "search",
                           "requirements", "request", "choice", "options", "accommodation", "lodging"})
REQUEST_WORDS = frozenset({"want", "wants", "need", "needs", "like", "likes", "looking", "prefer", "prefers", "require",
                           "requires", "would", "should", "must", "'d", "please", "find", "book", "has", "have",
                           "can", "could", "wanted", "needed", "love", "hoping", "hope", "wish"})
CLAUSE_WORDS = frozenset({"so", "and", "but", "because", "while", "since", "though", "although", "as", "whereas"})
#: Words before a cuisine that make it another one.
CUISINE_QUALIFIERS = frozenset({"north", "south", "east", "west", "northern", "southern", "eastern", "western", "latin",
                         "central", "northeast", "southeast", "northwest", "southwest"})  # fmt: skip
#: Words before a price range that rank instead of asking ("the most expensive one").
COMPARATIVES = frozenset({"most", "least", "more", "less"})
#: "the same area / price range / day" in a user turn: the value comes from what the dialogue set before.
SAME = re.compile(r"\bsame (area|part of town|side of town|location|neighbou?rhood|price ?range|price|day|night|date)\b")
#: The slot each wording of :data:`SAME` refers to.
SAME_SLOT = {"area": "area", "part of town": "area", "side of town": "area", "location": "area", "neighborhood": "area",
             "neighbourhood": "area", "pricerange": "pricerange", "price range": "pricerange", "price": "pricerange",
             "day": "day", "night": "day", "date": "day"}  # fmt: skip
#: A system question naming a column ("What day will you be travelling?", "Do you have a preference
#: on price range?"): the column it asks is not in the search of that turn's count.
ASKED_COLUMN = re.compile(r"\b(?:what|which|any|a|your|preferred|preference (?:on|for|of)|have in mind for (?:the)?)\s+"
                          r"(?:particular |specific |preferred )?(day|date|price ?range|price|area|part of town|"
                          r"side of town|location|type of food|food type|cuisine|kind of food|star rating|stars)\b")
#: The column each wording of :data:`ASKED_COLUMN` asks.
ASKED_SLOT = {**SAME_SLOT, "type of food": "food", "food type": "food", "cuisine": "food", "kind of food": "food",
              "star rating": "stars", "stars": "stars"}  # fmt: skip
#: Price words no value matches ("affordable", "on the cheaper side"): a request that says one is
#: unread, and a count in its domain is left out (what the count is about cannot be read).
VAGUE_PRICES = re.compile(r"\b(?:affordable|inexpensive|reasonabl[ey]|budget|pricey|upscale|high[ -]end|luxur\w*|"
                          r"fancy|cheaper|pricier|less expensive|more expensive|economical|not too expensive|"
                          r"low[ -]cost|splurge)\b")
#: A comparative price word: a switch from the price range asked before ("anything cheaper ?").
COMPARATIVE_PRICES = re.compile(r"\b(?:cheaper|pricier|less expensive|more expensive|more affordable|less pricey|"
                                r"more reasonabl[ey]|lower price|higher price)\b")
#: A place given by what it is near ("near All Saints", "close to the hotel"): the area the request
#: means cannot be read.
NEAR_PLACE = re.compile(r"\b(?:near|nearby|close to|closer to|next to|walking distance|around the corner)\b")
#: Words a value is read from that may mean something else: (why, only in a user turn).
#: A clock time between one of these and a trip noun names the trip ("the 19:59 train"), no bound.
NAMING_DETERMINERS = frozenset({"the", "that", "this", "your", "my"})
TRIP_NOUNS = frozenset({"train", "trains", "one", "service", "departure", "taxi", "bus"})
#: Words after an area's word that make the two a street's name ("East Road", "North Street").
STREET_WORDS = frozenset({"road", "street", "lane", "avenue", "drive", "court", "square", "rd", "st",
                          "terrace", "crescent", "parade"})
#: Words before a kind or area word that make it part of an address or a place's name ("Cambridge
#: Business Park", "Regent Street City Centre", "the Retail Park"): no type, no area.
ADDRESS_WORDS = STREET_WORDS | frozenset({"business", "retail", "science", "industrial", "trade", "technology",
                                          "research", "car", "leisure", "shopping"})
#: Words of a compass direction: one before "of" gives a place by another ("north of the centre").
DIRECTIONS = frozenset({"north", "south", "east", "west", "northern", "southern", "eastern", "western",
                        "northeast", "northwest", "southeast", "southwest"})
#: Slots whose user value may be one end of a range ("low to moderate", "3 to 4 stars").
RANGE_SLOTS = frozenset({"pricerange", "stars"})
LOOSE_WORDS = {"downtown": ("read as the centre (the KB has no downtown)", False),
               "entertainment": ("read as the kind entertainment (a generic word for things to do)", True)}  # fmt: skip
#: Words after "or" / "and" that make a value one alternative among others ("a guesthouse or something else").
ALTERNATIVE_WORDS = ("other", "anything", "not", "whatever", "something")
#: Words before "food" / after "serves" that name no cuisine.
NOT_FOODS = frozenset({"good", "great", "nice", "fine", "tasty", "delicious", "fast", "some", "any", "food", "the",
                        "a", "an", "that", "this", "what", "which", "excellent", "cheap", "expensive", "moderate",
                        "priced", "kind", "type", "sort", "of", "local", "different", "other", "same", "your", "our",
                        "their", "its", "lunch", "dinner", "breakfast", "meals", "drinks", "it", "them", "new",
                        "another", "one", "particular", "popular", "specific", "fancy", "nearby", "best", "star",
                        "expensively", "cheaply", "moderately", "reasonably", "upscale", "pricey", "centre", "center",
                        "north", "south", "east", "west", "to", "eat", "dine", "at", "in", "for", "is", "be", "quality", "affordable", "high", "end", "range", "budget", "inexpensive", "classy",
                        "romantic", "special", "decent", "small", "big", "large", "little", "authentic",
                        "my", "hotel", "sit", "down", "family", "friendly", "town"})  # fmt: skip
#: Words after a word that make it a cuisine asked for ("Hungarian food", "corsica restaurants").
FOOD_WORDS = ("food", "cuisine", "restaurant", "restaurants", "place", "places")
#: Words before a word that make it a cuisine asked for ("serves corsica food").
SERVE_VERBS = ("serves", "serving", "serve")

# --- system turns: entities, bookings, restated searches ----------------------------------------

#: Words that refer to the entity under discussion rather than name it.
ANAPHORS = frozenset({"it", "its", "it's", "they", "their", "address", "phone", "postcode"})
#: Determiners that introduce an entity not named before ("there is also a 2 star option",
#: "another one is in the east"): the values of their sentence need not be the named entity's.
INDEFINITES = frozenset({"a", "an", "another", "other", "one"})
#: Words of a system turn about a booking (its one name is the entity under discussion).
BOOKING_WORDS = re.compile(r"\b(booked|reserved|reference|successful|successfully|confirmed|accommodate)\b", re.IGNORECASE)
#: Words of a sentence that contrast, refer or propose rather than restate the search.
NOT_RESTATING = frozenset({"only", "but", "however", "instead", "otherwise", "either", "or", "try", "both", "it",
                            "its", "it's", "they", "their", "one", "other", "another", "some", "most", "although",
                            "though", "closest", "nearest", "unfortunately", "sorry"})  # fmt: skip

# --- amounts ------------------------------------------------------------------------------------

#: Words before an amount that make it no exact count ("over 30", "more than 10"); a bound or hedge
#: the checker reads (:data:`BOUNDED_AMOUNT`) still makes a count, with its comparison.
APPROXIMATE = frozenset({"over", "than", "least", "about", "around", "nearly", "almost", "approximately", "roughly",
                         "under", "upwards", "some", "most", "maybe", "perhaps", "of"})  # fmt: skip
#: The words before an amount that make it a bound or approximation the checker reads
#: (:func:`csp_check.language.cues.amount_op`: "over 20", "more than 10", "at least 3", "about 70").
BOUNDED_AMOUNT = re.compile(r"(?:^|\s)(?:over|more than|fewer than|less than|at least|at most|under|about|around|"
                            r"approximately|roughly|nearly|almost)$")
#: Words before "one" / "1" that make it a count ("there is one", "I found 1", "only one").
EXISTENTIALS = frozenset({"is", "are", "'s", "have", "has", "found", "see", "only", "exactly", "just", "got", "show",
                          "shows", "was", "were", "located", "returned", "results"})  # fmt: skip
#: A bare count's subject and verb ("there are 7 in the centre", "I have 5 that match"): an amount
#: right after one, with no noun, counts the entities of the search in force.
BARE_COUNT_BEFORE = re.compile(r"(?:\bthere (?:are|is|'s)|\b(?:i|we) (?:have|'ve got|have got|found|show|see|can see|"
                               r"have found|'ve found)|\bthere 's)\s*$")
#: The words that may follow a bare count ("7 in the centre", "5 that match", "3 available"); one
#: ending its sentence ("we have 21 .") is left out: what it answers may be a question's, not the search.
BARE_COUNT_AFTER = frozenset({"that", "which", "matching", "in", "available", "to", "listed", "fitting"})
#: Words allowed between an amount and its noun ("three cheap italian restaurants").
MAX_GAP = 4
#: Words that end the gap between an amount or a negative cue and its noun ("two in the centre").
GAP_STOPS = frozenset({"in", "at", "on", "for", "to", "from", "with", "and", "or", "but", "than", "by", "near", "of"})
#: Words after an amount that make it count the rest, not the search ("two other guesthouses").
REST_WORDS = ("other", "others", "more", "additional")
#: Words after a counted noun that make the amount a frequency, not a count ("two trains an hour").
FREQUENCY = re.compile(r"^(?:an|a|per|every|each) (?:hour|day|week|night|minute)s?\b")
#: Superlatives before an amount in its sentence: it picks from the results, it does not count them
#: ("the closest arrival time I show is 1 train").
SUPERLATIVES = frozenset({"closest", "nearest", "earliest", "latest", "last", "first", "cheapest", "soonest",
                          "best", "next"})  # fmt: skip

# --- no result ----------------------------------------------------------------------------------

#: Phrases that open a no-result statement ("there are no", "couldn't find any").
NEGATIVE_CUES = ("no", "none", "there is no", "there are no", "there's no", "there isn't any", "there aren't any",
                 "couldn't find any", "could not find any", "can't find any", "cannot find any",
                 "unable to find any", "don't have any", "do not have any", "could n't find any",
                 "ca n't find any", "do n't have any", "there is n't any", "there are n't any", "there is n't",
                 "there are n't", "there isn't", "there aren't")  # fmt: skip
#: Verbs a negation turns into a no-result cue ("could not find a …", "do n't have …").
FINDING_VERBS = frozenset({"find", "found", "have", "see", "locate", "show", "get", "offer"})
#: Cues that are one word of a negation ("no", or "any" after one): a noun or value must follow them.
BARE_NEGATIVES = ("no", "any", "anything", "anywhere")
#: Words a negation before them makes a no-result cue ("it does n't appear there are any cinemas").
ANY_WORDS = ("any", "anything", "anywhere")
#: Words right after a negative cue that make it praise or a comparison, no denial ("nothing beats
#: the acorn guest house", "nothing compares to X", "none better than X").
PRAISE_WORDS = frozenset({"beats", "beat", "compares", "compare", "better", "tops", "surpasses", "rivals"})
#: Words right after a negative cue that make it none besides the one offered ("no other options").
OTHER_WORDS = ("other", "else", "more", "additional", "further")
#: Words allowed between a phrase cue and its noun ("there are no options *in* the north").
CUE_LINKS = ("in", "at", "near", "with", "for", "of", "on")
#: Nouns right after a negative cue that deny a thing of the booking or the price, not entities
#: ("there is no fee for X", "no tables available at X", "no rooms left"): no no-result statement.
DENIED_THINGS = frozenset({"fee", "fees", "charge", "charges", "cost", "entrance", "admission", "table", "tables",
                           "room", "rooms", "ticket", "tickets", "seat", "seats", "availability", "vacancy",
                           "vacancies", "booking", "bookings", "reservation", "reservations", "space", "need",
                           "problem", "record", "information", "info"})  # fmt: skip
#: Words that end a no-result sentence ("no cheap ones, but …").
CONTRASTS = ("but", "however", "although")
#: Describing words a no-result sentence may use beside its domain noun without naming a value.
PLAIN_WORDS = frozenset({"matching", "other", "such", "any", "more", "available", "suitable", "good", "nice", "great",
                         "open", "similar", "particular", "specific", "kind", "type", "many", "few", "the", "a", "an",
                         "that", "those", "these", "some", "of", "in", "with", "for", "free", "all", "results",
                         "options", "entries", "listings", "local", "your", "criteria", "star", "stars",
                         "rated", "priced", "currently", "really", "certain", "exact", "exactly", "to", "do", "see",
                         "visit", "go", "eat", "stay", "which", "who", "is", "are", "be", "at", "on", "by"})  # fmt: skip

# --- sentences ----------------------------------------------------------------------------------

#: Tokens that end a sentence.
SENTENCE_END = frozenset({".", "?", "!", ";"})
