"""The words and patterns the fault generators write or look for (language data, no logic).

A generator states a fault in these words ("more than 10", "about 14", "the 10th of March",
"does not have free parking and wifi", " Actually, make that 3 people."); the checker must read
them as :mod:`csp_check.language.cues` does.
"""

from __future__ import annotations

import re

# -- counts (csp_check.faults.counts) -------------------------------------------------------------

#: Bound words that make a true count false, with the side of the KB count they need: ``">"``
#: holds where more than the amount may match (``possible > n``), ``"<"`` where fewer than the
#: amount surely match (``sure < n``).
FALSE_BOUNDS: tuple[tuple[str, str], ...] = (("more than", ">"), ("over", ">"), ("fewer than", "<"), ("under", "<"))
#: Bound words that keep a true count true ("I found 10" → "at least 10" / "up to 10").
TRUE_BOUNDS = ("at least", "up to", "no more than", "no fewer than")
#: Words that make a count approximate (:func:`csp_check.language.cues.amount_op` reads them as ``~``).
HEDGES = ("about", "around", "roughly", "approximately", "nearly")
#: Number words a count is never written as ("no hotels", "a single hotel" read otherwise).
NOT_COUNT_WORDS = ("no", "none", "single")

# -- dates (csp_check.faults.dates) ---------------------------------------------------------------

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")
#: An ISO date: ``YYYY-MM-DD``.
ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
#: An ISO date with its month and day as groups.
ISO_MONTH_DAY = re.compile(r"\d{4}-(\d\d)-(\d\d)")
#: Words that name a day relative to today, ``{weekday}`` titled ("this Friday"), nearest first.
RELATIVE_DAYS = ("tomorrow", "the day after tomorrow", "this {weekday}", "next {weekday}")

# -- booleans (csp_check.faults.categorical, csp_check.faults.negation) ----------------------------

#: Negating words removed to state a boolean's other polarity: "no live music" → "live music".
NEGATOR = re.compile(r"\b(?:not|no|never)\s+", re.IGNORECASE)
#: A contracted "not": "doesn't" → "does".
CONTRACTED_NOT = re.compile(r"n't\b")
#: A negating prefix: "non-refundable" → "refundable", "unlocked" → "locked".
NEGATING_PREFIX = re.compile(r"\bnon[-\s]?|\bun(?=\w+(?:able|ed)\b)", re.IGNORECASE)
WITHOUT = re.compile(r"\bwithout\b", re.IGNORECASE)
#: The short answers that state a boolean at the start of a system turn, with their canonical value.
YES_ANSWER = ("Yes, they do", "True")
NO_ANSWER = ("No, they do not", "False")
#: The verb that gives an amenity ("has free wifi", "offers outdoor seating", "with wifi").
HAVING = re.compile(r"(?i)\b(has|have|offers?|includes?|provides?|features?|with)\s+(?:(?:free|complimentary)\s+)?$")
#: Having verbs of a plural subject ("they have", not "it has").
PLURAL_HAVING = ("have", "offer", "include", "provide", "feature")
#: "free" / "complimentary" before an amenity's words (dropped in a negated coordination).
FREE = re.compile(r"(?i)^(?:free|complimentary)\s+")
#: The first noun of a negated coordination, and the one used when the amenity is parking.
OTHER_AMENITY, OTHER_THAN_PARKING = "free parking", "free breakfast"

# -- booking turns (csp_check.faults.booking) ------------------------------------------------------

#: Slots a booking confirmation states as the booking's own (its date, time, party size, total)
#: or as the entity's name or price: no booking-detail fault is put there.
BOOKING_OWN_SLOT = re.compile(r"name|price|fee|cost|fare|total|date|time|day|people|size|seats|tickets|number_of")
#: A party size restated in a booking turn, in words no act annotates.
RESTATEMENT = " That is for {n} people."

# -- change of mind (csp_check.faults.change_of_mind) ----------------------------------------------

#: A user's number taken back at the end of the turn, with its unit noun, and without one.
CHANGE_OF_MIND = " Actually, make that {new} {unit}."
CHANGE_OF_MIND_BARE = " Actually, make it {new}."
#: What ends a sentence (else a "." is added before the change of mind).
SENTENCE_ENDS = (".", "!", "?")

# -- raw text (csp_check.faults.raw_text) ----------------------------------------------------------

#: Columns an ``attribute`` fault leaves alone besides names and flags (contact details).
CONTACT_COLUMNS = frozenset({"address", "phone", "postcode"})
#: The hours of a clock in words, 1 to 12 (:mod:`.stale_canonical` writes "seven o'clock in the morning").
HOUR_NAMES = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
