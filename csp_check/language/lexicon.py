"""English words and patterns of values: how a value is worded, as data (MultiWOZ's Cambridge
and SGD's dollars included).

The logic that reads them is in :mod:`csp_check.language.normalize` (one key per value),
:mod:`csp_check.delexicalize.assignment` (what a span's text says),
:mod:`csp_check.delexicalize.delexicalizer` (where a value is written) and
:mod:`csp_check.build.context` (which annotated values are claims). Each entry says what it is
for; patterns are compiled once, here.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1 << 14)
def literal(text: str, edge: str = r"\w") -> re.Pattern[str]:
    r"""``text`` matched literally (regex metacharacters escaped) where no character of the class
    ``edge`` touches it on either side (``r"\w"``: a whole word or phrase; ``r"\w:"``: nor a part
    of a clock time). Compiled once per value: the values of a corpus or KB are many more than
    ``re``'s own cache holds."""
    return re.compile(rf"(?<![{edge}]){re.escape(text)}(?![{edge}])")

# -- normalising text (csp_check.language.normalize) ---------------------------------------
#: Unicode dashes written as an ASCII hyphen.
DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
#: Invisible characters dropped from every value and word compared (zero-width space, non-joiner
#: and joiner, word joiner, byte-order mark, soft hyphen, left-to-right and right-to-left marks):
#: "t\u200bwo" is "two" wherever it is read.
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f"))
#: Unicode quotes (and the backtick) written as ASCII quotes.
QUOTES = {ord("\u2018"): "'", ord("\u2019"): "'", ord("\u201c"): '"', ord("\u201d"): '"', ord("`"): "'"}
#: Whole values that are another's wording: "centre" is area center, a "bed and breakfast" a
#: guesthouse, "any" dontcare (MultiWOZ's values; ``normalize`` merges them).
SYNONYMS = {
    "centre": "center",
    "city centre": "center",
    "city center": "center",
    "guest house": "guesthouse",
    "guest houses": "guesthouse",
    "guesthouses": "guesthouse",
    "bed and breakfast": "guesthouse",
    "don't care": "dontcare",
    "do n't care": "dontcare",
    "dont care": "dontcare",
    "any": "dontcare",
    "moderately priced": "moderate",
    "moderately": "moderate",
}
#: Characters stripped from both ends of a value.
EDGE_PUNCT = " \t\n.,;:!?\"'()[]{}"

# -- amounts -------------------------------------------------------------------------------
#: English number words and their numbers ("a couple" = 2, "a dozen" = 12); re-exported by
#: :mod:`csp_check.language.normalize`.
NUMBER_WORDS = {
    "no": 0, "none": 0, "zero": 0, "one": 1, "a single": 1, "single": 1, "two": 2, "a couple": 2,
    "couple": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a dozen": 12, "dozen": 12, "half a dozen": 6, "two dozen": 24, "three dozen": 36,
    "four dozen": 48,
}
#: Words for an amount that name no number ("several", "a few"): no exact count is claimed.
VAGUE_AMOUNTS = frozenset({
    "several", "many", "a few", "few", "a lot", "lots", "numerous", "multiple", "various", "plenty", "a number",
    "some", "a handful", "a bunch", "loads", "quite a few", "a variety", "a wide variety", "a range", "a wide range",
    "a couple", "couple",  # "a couple of options" where the DB has 5: used loosely, as "a few"
})

# -- clock times ---------------------------------------------------------------------------
#: A time as ``HH:MM`` with minutes 00-59 (hours unchecked: a next-day arrival is "25:06").
CLOCK_HHMM = re.compile(r"\d\d:[0-5]\d")
#: A well-formed time as MultiWOZ and SGD write one: ``HH:MM``, hours 00-24 ("24:30" is half
#: past midnight in MultiWOZ's taxi requests), minutes 00-59.
WELL_FORMED_TIME = re.compile(r"(?:[01]\d|2[0-4]):[0-5]\d")
#: An amount of pounds in any common spelling ("35.2 gbp", "£35.20"; group ``n``: the number).
MONEY = re.compile(r"^(?:£ ?)?(?P<n>\d+(?:\.\d{1,2})?) ?(?:gbp|pounds?|£)?$")
#: Number words that may name an hour ("six pm").
HOUR_WORDS = {w: n for w, n in NUMBER_WORDS.items() if 1 <= n <= 12 and " " not in w and w != "single"}
#: Words after (or before) an hour that put it after noon ("6 pm", "six in the evening").
LATE = ("pm", "p.m.", "p.m", "in the afternoon", "in the evening", "at night", "tonight", "afternoon", "evening", "night")
#: Words that put an hour before noon ("6 am", "in the morning").
EARLY = ("am", "a.m.", "a.m", "in the morning", "morning")
#: Times said by name ("noon", "midnight").
NAMED_TIMES = {"noon": "12:00", "12 noon": "12:00", "twelve noon": "12:00", "midday": "12:00", "mid-day": "12:00",
               "midnight": "00:00", "12 midnight": "00:00", "twelve midnight": "00:00"}
#: A clock time once its period words are off: "half past 6", "6:30", "six o'clock" (groups
#: ``q`` quarter words, ``h`` the hour, ``m`` the minutes).
CLOCK_CORE = re.compile(r"^(?:(?:a )?(?P<q>half past|quarter past|quarter to) )?(?P<h>\d{1,2}|[a-z]+)(?::(?P<m>\d{2}))?(?: o'clock)?$")

#: Words before a time that say how it is used, dropped to read the time ("leaving at 6 pm",
#: "no later than 18:00").
TIME_PREFIX = re.compile(r"^(?:starting at|leaving at|departing at|arriving at|at|around|about|after|before|by|until"
                         r"|no later than|no earlier than|leave after|arrive by|leaving after|arriving by) ")
#: Words that give a clock time its half of the day: a time with one is no 12-hour reading.
PERIOD_WORDS = re.compile(r"[ap]\.?m\b|morning|evening|night|afternoon")
#: A slot named as a time (SGD ``time``, ``pickup_time``; MultiWOZ ``book time``).
TIME_SLOT = re.compile(r"(?:^|[ _])time$")
# -- value wordings (wording_key) ----------------------------------------------------------
#: Words before a number that stress it is exact ("just one", "only two", "exactly three", "a total of 5").
EXACTLY = re.compile(r"^(?:(?:just|only|exactly|precisely|merely|a total of|in total|total of) )+(?=\S)")
#: Wordings of "no preference" ("doesn't matter", "any type", "no particular"): ``dontcare``.
DONTCARE_WORDS = re.compile(
    r"^(?:i )?(?:(?:do|does|did) ?n'?t|(?:do|does|did) not|dont|doesnt|not|no) ?(?:really |particularly |actually )?"
    r"(?:care|matter|mind|have a preference|preference|important|have any preference|need)\b"
    r"|^(?:any|anything|anywhere|either|either one|whatever|whichever|any area|any type|any price|any kind"
    r"|no preference|not particular|not really|no particular|no specific|doesn't matter|dont care|do nt care|none in particular)$"
)
#: Area words and the area they name ("central" = center, "northern" = north).
AREAS = {"north": "north", "south": "south", "east": "east", "west": "west", "center": "center",
         "northern": "north", "southern": "south", "eastern": "east", "western": "west", "central": "center",
         "centrally": "center", "downtown": "center", "middle": "center", "centre": "center"}
#: A part of town as people say it ("the north side", "centre of town", "in the east part of
#: the city"; group ``a`` or ``b``: the area word, a key of :data:`AREAS`).
AREA = re.compile(
    r"^(?:in |on |at )?(?:the )?(?:(?:city|town) )?(?P<a>north|south|east|west|center|centre|northern|southern|eastern"
    r"|western|central|centrally|downtown|middle)(?: ?(?:part|side|end|area|region|section|located|part of town))?"
    r"(?: (?:of|in) (?:the )?(?:town|city|cambridge|city center|town center))?$"
    r"|^(?:the )?(?:town|city) (?P<b>center|centre)$"
)
#: An area that is the whole city: "cambridge", "all of cambridge", "anywhere in town", "any area",
#: "various parts of the city", "all over town" (no area filter, like ``dontcare``).
WHOLE_CITY = re.compile(
    r"^(?:(?:in|on|at|around|across|throughout|within) )?(?:(?:all|any|every|each) (?:of |over |parts? of |areas? of |where in )?"
    r"|anywhere (?:in )?|everywhere (?:in )?|(?:various|different|all|any|many) (?:parts?|areas?|sides?) of |the whole (?:of )?"
    r"|the entire |the )?(?:the )?(?:cambridge|town|city|the city|the town|cambridge area|city of cambridge)$"
    r"|^(?:any ?where|every ?where|all areas|any area|all parts of town|around town|all over)$"
)
#: Units said after a number of a value, and the unit its key keeps ("4 stars" = 4, "38 mins" = 38 minutes).
VALUE_UNITS = {"star": "", "stars": "", "night": "", "nights": "", "people": "", "person": "", "persons": "",
              "guests": "", "guest": "", "adults": "", "adult": "", "day": "", "days": "", "tickets": "",
              "ticket": "", "minute": " minutes", "minutes": " minutes", "mins": " minutes", "min": " minutes"}
#: An entrance fee that is none ("free", "free of charge", "free to enter").
FREE = re.compile(r"^(?:it is |it's |they are |is )?(?:free|free of charge|no charge|no entrance fee|no fee|"
                  r"free (?:entrance|admission|entry|to enter|to get in|to visit)|(?:entrance|admission|entry) is free)$")
#: Street abbreviations in names and addresses ("Regent St" = Regent Street).
ABBREVIATIONS = {"st": "street", "rd": "road", "ave": "avenue", "ln": "lane", "sq": "square"}
#: Wordings of a value by another word ("inexpensive" = cheap, "mid-range" = moderate, "punting" = boat).
ADVERBS = {"cheaply": "cheap", "inexpensive": "cheap", "low-cost": "cheap", "low cost": "cheap", "budget": "cheap",
           "cheaply priced": "cheap", "expensively priced": "expensive",
           "moderately priced": "moderate", "moderately - priced": "moderate", "moderately-priced": "moderate",
           "mid-priced": "moderate", "mid priced": "moderate", "mid-range": "moderate", "mid range": "moderate",
           "reasonably priced": "moderate", "reasonably - priced": "moderate", "reasonably-priced": "moderate",
           "pricey": "expensive", "upscale": "expensive", "high-end": "expensive", "high end": "expensive",
           "boating": "boat",
           "punting": "boat"}
#: No fee: a negated fee ("no entrance fee", "it has no fee") or a fee under a negated verb ("does n't
#: have an entrance fee", "there is n't a charge"); not a fee said alone ("has an entrance fee":
#: :data:`CHARGED`).
NO_FEE = re.compile(r"^(?:(?:there is |it has |has )?(?:no|not an?)|(?:it )?(?:does n't|doesn't|does not) have (?:an?|any)"
                    r"|there (?:is n't|isn't|is not) (?:an?|any)) ?(?:entrance |entry |admission )?(?:fee|charge)$")
#: A fee said without its amount ("has an entrance fee", "there is a charge", "charges admission", "not
#: free"): the entity charges some fee, whichever (:func:`~csp_check.language.normalize.charged_fee`).
CHARGED = re.compile(r"^(?:(?:there is |it has |has |they have |have |with |charges? )?(?:an?|some) (?:entrance |entry |admission )?"
                     r"(?:fee|charge)|charges? (?:an? )?(?:entrance |entry )?(?:fee|admission)|(?:is |are )?not free"
                     r"|(?:is |are )?n't free)$")
#: A number of dollars ("3,150", "12.50"), as a pattern to build :data:`DOLLARS` with.
NUMBER_PATTERN = r"\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?"
#: An amount of US dollars in any common spelling ("$3,150", "3150 bucks", "USD 3150"; groups
#: ``a``, ``b``, ``c``: the number).
DOLLARS = re.compile(
    rf"^(?:us ?)?\$ ?(?P<a>{NUMBER_PATTERN})(?: ?(?:usd|dollars?))?$|^(?:usd|us\$) ?(?P<b>{NUMBER_PATTERN})$"
    rf"|^(?P<c>{NUMBER_PATTERN}|[a-z]+(?:[- ][a-z]+)?) (?:us )?(?:dollars?|bucks|usd)$"
)
#: A rating said with its scale ("4.5 stars", "6.2 out of 10"; group ``n``: the number).
RATED = re.compile(r"^(?:rated |a rating of |rating of )?(?P<n>\d+(?:\.\d)?)"
                   r"(?:[ -]stars?| out of (?:5|10|five|ten)(?: stars)?|(?P<slash> ?/ ?(?:5|10)))$")

#: "centre" inside a value ("city centre north"): the area word center.
CENTRE = re.compile(r"\bcentre\b")
#: Words after a price that say it is per person or ticket ("7.84 gbp per passenger", "£5 each").
PER_UNIT = re.compile(r"\s*(?:per (?:passenger|person|ticket|adult|head)|each|a ticket|a person)$")
#: Wordings of a yes/no amenity that say yes ("free parking", "wifi", "included").
AMENITY_YES = ("free", "free parking", "free wifi", "free internet", "wifi", "included")
#: Articles dropped before a value's words ("a museum" = museum).
ARTICLES = ("a", "an", "the")
#: A train id in any wording: "train 4708", "TR 4708", "id 4708" (group 1: its digits).
TRAIN_ID = re.compile(r"(?:(?:train|tr) ?#? ?|(?:train )?id )?(\d{3,4})")
# -- names and references ------------------------------------------------------------------
#: Words that name a kind of place, not one place: dropped when comparing entity names.
GENERIC_NAME_WORDS = frozenset(
    {"the", "restaurant", "hotel", "guesthouse", "guest", "house", "b&b", "b", "and", "bed", "breakfast", "cambridge",
     "a", "of", "&", "on", "in", "at"}
)
#: The kind words dropped from a name made of common words only ("a and b guest house").
KIND_NAME_WORDS = ("the", "guest", "house", "guesthouse", "hotel", "restaurant")
#: Words that follow a street in an address ("Regent St City Centre"), not a saint's name.
AFTER_STREET = frozenset({"city", "centre", "center", "cambridge", "north", "south", "east", "west", "and"})
#: Words that refer back to a value instead of naming it ("same area", "that day", "the place").
REFERS = re.compile(r"\b(?:same|that|this|there|those|these|it|its|then)\b|^(?:the )?(?:place|one)$")
#: A plural common noun as the whole text ("the places", "both restaurants"): it refers to
#: entities named before and names none itself (MultiWOZ annotates such spans as a name; "the
#: place" alone is a nightclub's name).
SEVERAL = re.compile(
    r"^\s*(?:the|both|these|those|all|all the|the two|both the)?\s*(?:two\s+)?"
    r"(?:places|ones|restaurants|hotels|guesthouses|attractions|colleges|museums|trains|locations|venues)\s*$",
    re.IGNORECASE,
)
#: A comparative or superlative of a quality: "cheaper", "the cheapest", "pricier", "nicer",
#: "closer", "more expensive", "less pricey", "most moderately priced" (not "more than 2": a bound).
#: A comparative of a price word with the scale's noun ("the cheaper side", "in the more expensive
#: price range"): the end of the scale it names, not an order between entities (the value, by its word).
SCALE_END = re.compile(r"^(?:(?:on|in|at|towards?)\s+)?(?:the\s+)?(cheaper|less expensive|lower|more expensive|pricier|"
                       r"costlier|higher)\s+(?:side|end|price range|range|prices?)$")
SCALE_ENDS = {"cheaper": "cheap", "less expensive": "cheap", "lower": "cheap", "more expensive": "expensive",
              "pricier": "expensive", "costlier": "expensive", "higher": "expensive"}
#: The scale's noun right after a comparative span ("cheaper| side", "more expensive| price range").
SCALE_NOUN_AFTER = re.compile(r"^\s+(side|end|price range|range|prices?)\b", re.I)
COMPARATIVE = re.compile(
    r"\b(?:cheaper|cheapest|pricier|priciest|costlier|costliest|nicer|nicest|closer|closest|nearer|nearest|"
    r"fancier|fanciest|better|best|further|farther|furthest|farthest|higher|highest|lower|lowest|"
    r"(?:more|less|most|least) (?!than\b|of\b)[a-z])")  # not "most of which are free"

# -- dates said in other words ("the 9th of March" = "March 9th" = 2019-03-09) ------------------
#: Month names and their abbreviations ("mar", "sept") → the month's number.
MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9
#: Ordinal words of a day of the month ("ninth", "twenty-first") → the day.
ORDINAL_WORDS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), 1)}
ORDINAL_WORDS.update({"twenty-first": 21, "twenty-second": 22, "twenty-third": 23, "twenty-fourth": 24,
                      "twenty-fifth": 25, "twenty-sixth": 26, "twenty-seventh": 27, "twenty-eighth": 28,
                      "twenty-ninth": 29, "thirtieth": 30, "thirty-first": 31})
#: A day of the month as digits or an ordinal word (a pattern to build the date forms with).
DAY_PATTERN = r"(\d{1,2})(?:st|nd|rd|th)?|(" + "|".join(sorted(map(re.escape, ORDINAL_WORDS), key=len, reverse=True)) + ")"
#: A month name, maybe abbreviated with a dot (a pattern to build the date forms with).
MONTH_PATTERN = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
#: A date said with a day and a month, in either order.
DATE_FORMS = (
    re.compile(rf"^(?:on )?(?:the )?(?:{DAY_PATTERN}) (?:of )?{MONTH_PATTERN}(?:,? \d{{4}})?$"),  # the 9th of march
    re.compile(rf"^(?:on )?{MONTH_PATTERN} (?:the )?(?:{DAY_PATTERN})(?:,? \d{{4}})?$"),  # march 9th
)
#: Day words whose date depends on a "today" the dialogue does not give.
RELATIVE_DAY = re.compile(
    r"^(?:on )?(?:(?:next|this coming|this|coming|the coming|following|the following|upcoming|later this) )?"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week ?end|week)$"
    r"|^(?:on )?(?:this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) coming$"
    r"|^(?:today|tonight|tomorrow|the day after tomorrow|day after tomorrow|this evening|tomorrow night)$"
)
#: A weekday before a date ("Saturday, March 9th"): dropped.
WEEKDAY_BEFORE = re.compile(r"^(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),? (?=\S)")
#: A date written month/day ("3/9", "3/9/2019").
US_DATE = re.compile(r"^(?:on )?(\d{1,2})/(\d{1,2})(?:/(?:\d{2}|\d{4}))?$")
#: A day of the month alone ("the 12th", or after a weekday): read in the month the date should name.
DAY_ONLY = re.compile(rf"^(?:on )?the (?:{DAY_PATTERN})$")


# -- forms of a value ----------------------------------------------------------------------
#: A time as four digits, ``HH:MM`` (any minutes): a bound a KB time can be compared with.
HH_MM = re.compile(r"\d\d:\d\d")
#: A duration in minutes as the KB writes it ("38 minutes").
MINUTES = re.compile(r"^\d+ minutes$")
#: A fee or fare's wording key that is an amount of pounds ("4.50pounds").
POUNDS_KEY = re.compile(r"\d+\.\d\dpounds")
#: Runs of characters that are no word character (a wording compared by its words alone).
NON_WORDS = re.compile(r"\W+")

# -- values that are lists or say nothing --------------------------------------------------
#: A value that joins several ("efes restaurant or anatolia", "indian/chinese").
LIST_WORDS = re.compile(r"\b(?:or|and)\b|/")
#: Where a list of values splits into its parts.
LIST_SPLIT = re.compile(r"\s*(?:\bor\b|\band\b|/|,)\s*")
#: Words of an annotated value that say the information is missing, not what it is.
NOT_LISTED = re.compile(r"\b(?:not?|n't) (?:currently |yet )?(?:have (?:\w+ ){0,3})?(?:listed|available|known|on file)\b"
                        r"|\b(?:unknown|unlisted|no information)\b")

# -- dates, postcodes and prices -----------------------------------------------------------
#: An ISO date as SGD's canonical values write one ("2019-03-09").
ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
#: A UK postcode at the start or end of an address span ("5 Jordans Yard Bridge Street City Centre
#: cb21ug"; MultiWOZ writes one O for a zero, "cb3ojg"): no part of the address.
EDGE_POSTCODE = re.compile(r"^(?P<lead>[a-z]{1,2}\d[a-z\d]?\s?[\do][a-z]{2})\b[\s,.]*(?P<rest_l>.*)$"
                           r"|^(?P<rest_t>.*?)[\s,.]*\b(?P<trail>[a-z]{1,2}\d[a-z\d]?\s?[\do][a-z]{2})[\s.]*$")
#: A bare amount of money, no unit ("50.50", "12").
BARE_AMOUNT = re.compile(r"\d+(?:\.\d{1,2})?")
#: Words in a price's sentence that make it the party's total: "50.50 pounds total", "in total",
#: "the total fee is", "altogether", "for all of you", "for 5 people", "for four tickets" (group
#: ``n``: the party's size, when said).
TOTAL = re.compile(
    r"\b(?:total|in all|altogether|all together|combined|for (?:all|both|everyone|everybody|the (?:group|party|whole party))\b"
    r"|for (?:all )?(?P<n>\d+|[a-z]+(?:-[a-z]+)?) (?:people|persons|tickets|passengers|adults|guests|travell?ers|seats"
    r"|of (?:you|us|them))\b)", re.I)
#: Words after a price that make it per ticket ("10.10 pounds each", "per person").
EACH = re.compile(r"\s*(?:each|apiece|per (?:passenger|person|ticket|adult|head|seat)|a (?:ticket|person|head|seat))\b", re.I)

# -- where a value is written --------------------------------------------------------------
#: Words right before a bare number of people ("a table *for* 4", "a *party of* 3").
PARTY_BEFORE = re.compile(r"\b(?:for|party of|group of)\s+$")
#: Endings that inflect a word ("church" at "churches", "book" at "booked"): a value spelled as
#: the start of a longer word with one of these is that word, not cut short.
INFLECTIONS = ("s", "es", "ing", "ed", "d", "er", "ers", "ly")
