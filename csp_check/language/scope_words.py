"""English words that say what a claim is about, as data: the cues the build context and the KB
families (C4 none, C5 some, C6 exactly n) read to scope a claim (a revision, a bound repeated,
a part of a counted set, "other" entities, a count per day, an alternative relative to an offer).

The logic that reads them is in :mod:`csp_check.build.context` and the family modules
(:mod:`csp_check.families.c4_no_instance`, :mod:`csp_check.families.c5_some_instance`,
:mod:`csp_check.families.c6_scope`). Each entry says what it is for; patterns are compiled once,
here.
"""

from __future__ import annotations

import re

# -- the build context ---------------------------------------------------------------------
#: Words that ask for another value than the one in force: "how about a [hotel] instead",
#: "are there [hotels] that meet that criteria?", "try [2] nights then?", "what about [Friday]".
REVISION_BEFORE = re.compile(r"\b(?:how about|what about|instead|are there|is there|try|switch|change|"
                             r"let 's|let's|actually)\b[^.!?]*$", re.I)
#: The same, after the value ("a [hotel] instead", "[2] nights then").
REVISION_AFTER = re.compile(r"^[^.!?]*\b(?:instead|then)\b", re.I)
#: Words right before a system time that make it a bound repeated ("trains leaving *after* 10:00").
RESTATED_BOUND = re.compile(r"\b(?:after|before|by|until|later than|earlier than)\s*$", re.I)

# -- C4: what a no-result is about -----------------------------------------------------------
#: A word as a no-result's kind words are read ("guest house", "b&b's": letters, apostrophes, hyphens).
WORD_TOKEN = re.compile(r"[\w'-]+")
#: Where a user turn splits into sentences (after . ? !).
SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+")
#: A request for an alternative ("other", "another", "different", "anything else") ...
ALTERNATIVE = re.compile(r"\b(?:other|another|different|else)\b", re.I)
#: ... compared with what was offered ("closer to 10:00", "earlier", "a bit cheaper", "nearer").
RELATIVE = re.compile(
    r"\b(?:closer|nearer|earlier|later|sooner|cheaper|pricier|dearer|(?:more|less) (?:expensive|costly)"
    r"|shorter|quicker|faster)\b", re.I)

# -- C5: what an offer or an inform claims ---------------------------------------------------
#: A negated copula right after a name: the sentence denies the entity something ("the lensfield
#: hotel is not a guesthouse", "Queen 's College is n't in the centre of town"), MultiWOZ's
#: tokenised "is n't" included; not a hedge that affirms ("is not only cheap", "is not far").
DENIED = re.compile(
    r"\s*,?\s*(?:(?:actually|unfortunately|however|also)\s*,?\s*)?(?:is|are|was|were)\s*(?:not\b|n\s?'\s?t\b)"
    r"(?!\s+(?:only|just|far|too|very|that|so|bad|merely)\b)", re.I
)
#: Words right before a value that negate it in its clause ("is n't in the [centre]", "not a [guesthouse]").
NEGATED_BEFORE = re.compile(r"(?:\bnot|n\s?'\s?t|\bnever|\bno)(?:\s+[\w']+){0,3}\s*$", re.I)
#: What joins two alternatives in one utterance: "or", maybe with a hedge and an article ("the
#: Vue cinema *or maybe a* museum", "Cherry Hinton *or perhaps the* Botanic Gardens").
EITHER_OR = re.compile(r"\s*,?\s*or\s+(?:else\s+)?(?:maybe\s+|perhaps\s+|possibly\s+|even\s+)?(?:a\s+|an\s+|the\s+|some\s+)?", re.I)
#: Words right before a value that make it what a question proposes to look for ("Would you like me
#: to look elsewhere for *something* free?", "are you looking for *anything in the* centre?").
PROPOSED = re.compile(r"\b(?:something|anything|somewhere|someplace)(?:\s+(?:that(?:'s| is)|which is|in|on|with|at|a bit|more))*\s+$", re.I)
#: Words of a slot's name that make it the booking's own value, no detail of the booked entity:
#: a total, a date, a time (``total_price``, ``date``, ``pickup_time``).
BOOKING_SLOT = re.compile(r"price|fee|cost|fare|total|date|time|day")
#: Words of a slot's name that make it a total a booking confirmation informs (``total_price``).
TOTAL_SLOT = re.compile(r"price|fee|cost|fare|total")

# -- C6: what a count counts ---------------------------------------------------------------
#: "doesn't need (to have) free parking": the amenity the user rules out of the search, or not
#: (group 1: the amenity's word, a key of the profile's ``amenities``).
NOT_NEEDED = re.compile(r"\b(?:does|do|did)\s*(?:n't|n’t|not|nt)\s+(?:really\s+)?need\s+(?:to\s+(?:have|include)\s+)?"
                        r"(?:a\s+|any\s+)?(?:free\s+)?(parking|wifi|internet)\b", re.I)
#: A count said per day: "3 trains a day", "five trains per day", "runs 10 times daily".
PER_DAY = re.compile(r"^[\w\s-]{0,30}?\b(?:a|per|each|every) day\b|^[\w\s-]{0,30}?\bdaily\b", re.I)
#: A part of the counted set before a value in its sentence: "nine *of which* are guesthouses",
#: "3 of them", "some of which", "most of them", "mostly", "all but one".
PART_BEFORE = re.compile(
    r"\b(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|some|most|many|several|a few|few|half)"
    r"\s+of\s+(?:which|them|these|those)|most(?:ly)?|all\s+(?:but|except)\s+(?:\d+|one|two|three|a few))\b", re.I)
#: "all" before a value: with :data:`ALL_BUT_AFTER` after it, the value holds for all but some.
ALL_WORD = re.compile(r"\ball\b", re.I)
#: "All of them are 4 star *with the exception of one*", "all … except two": the value holds for all but some.
ALL_BUT_AFTER = re.compile(
    r"\b(?:except(?:\s+for)?|but|with\s+the\s+exception\s+of|other\s+than|save\s+for)\s+"
    r"(?:\d+|one|two|three|four|five|a\s+few|a\s+couple)\b", re.I)
#: Words before "one" that make it a count ("only one", "just one", "there is one", "exactly one").
COUNTED_ONE = re.compile(r"\b(?:only|just|exactly|single|there\s*(?:is|are|'s|was)|is|are)\s*$", re.I)
#: Words right after "one" that make it one of the matches, not a count ("one that arrives at
#: 19:07", "one called …", "one ticket", "one night").
ONE_OF_THEM_AFTER = re.compile(
    r"\s*(?:that|which|of|available|option that|leaving|departing|arriving|called|named|tickets?|person|people|night|room)\b")
#: An article right before "one" ("a great one called …"): one of them, not a count.
ONE_AFTER_ARTICLE = re.compile(r"\ba(?: \w+)?\s*$", re.I)
#: A sentence or clause break between an amount and a name (punctuation, a dash between spaces).
CLAUSE_BREAK = re.compile(r"[.,;:!?()]|\s[-–—]+\s")
#: Words that make an amount a count of *other* entities: "2 other places", "3 others", "4 more",
#: "2 additional", "2 further", "6 earlier (options)", "3 later", "2 … else"; not "more than 4" /
#: "4 or more" (bounds). Matched right after the amount.
OTHERS_AFTER = re.compile(r"\s+(?:other|others|more(?!\s+than)|additional|further|earlier|later)\b|\s+(?:[a-z-]+\s+){0,2}else\b", re.I)
#: The same before the amount: "another 2", "the other 3", "an additional 4".
OTHERS_BEFORE = re.compile(r"\b(?:another|other|an\s+additional)\s*$", re.I)
#: The one to four words right after an amount, where its noun is ("5 4-star *guesthouses*").
WORDS_AFTER = re.compile(r"((?:\s+[\w-]+){1,4})")
#: Text of words, spaces and hyphens only: nothing but words between an amount and its noun.
WORDS_ONLY = re.compile(r"[\s\w-]*")
#: A second kind joined to the first ("guesthouses *and hotels*", "hotels *or guest houses*"):
#: group 1 is its one or two words.
JOINED_KIND = re.compile(r"\s*(?:and|or|&|/)\s+([\w-]+(?:\s+[\w-]+)?)")
#: Another number in a count's sentence (a digit or a number word up to twelve): a breakdown.
ANOTHER_NUMBER = re.compile(r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.I)
