"""Value normalisation (spec §6): the one place where two spellings become one value.

``normalize("Centre")`` → ``"center"``; ``normalize("Guest House")`` → ``"guesthouse"``;
unicode dashes and quotes become ASCII; case and surrounding punctuation are dropped.
``parse_amount("three")`` → ``3``. The words and patterns read here are data of their own
(:mod:`csp_check.language.lexicon`); the trip columns of a KB table are every corpus's
(:mod:`csp_check.corpora.shared`: a table is normalised without its dialogue).

Reading rules

- **Normalisation**: case, unicode dashes and quotes, invisible characters (a zero-width space
  inside "t\\u200bwo": dropped on every path, values, amounts and raw text alike), edge
  punctuation, tokenised spacing, a leading "the"; ``centre`` / ``center``, ``guest house`` / ``guesthouse`` / ``bed and
  breakfast``, ``don't care`` / ``dontcare`` / ``any``; clock times in any common spelling →
  ``HH:MM`` ("six pm", "half past 11 in the morning", "evening 6:30", "noon", "a quarter to
  eight"); money → ``N.NN pounds`` ("35.2 GBP", "£35.20"); amounts from digits or number words
  ("three", "twenty-one").
- **Wording keys** (:func:`wording_key`; MultiWOZ with a DB): "centre of town" / "town centre"
  → center, "does n't matter" → dontcare, "4-star" / "four stars" → 4, "five nights" → 5, "38
  minute" → 38 minutes, "free entrance" → free, "museums" → museum, "night club" → nightclub,
  "2.50" → 2.50 pounds, "train 4708" or a bare "1097" as a train id → tr4708 / tr1097, "01223 332
  360" → 01223332360; "in all of cambridge", "anywhere in town" as an area → dontcare (no area
  filter); prices in words ("45 bucks" = "$45") and ratings with their scale ("4.5 out of 5",
  SGD's "4.30" = "4.3").
- A comparative or superlative ("the cheaper option", "more expensive", "less pricey", "the
  closest", "nicer": :func:`comparative`) states an order between entities, not a value: read as
  itself (never "cheap"), whatever the act says, it claims nothing in C5 or C2 (the order
  against the other entities offered is not checked).
- A fee said without its amount ("has an entrance fee", "charges an admission fee", "there is
  a charge") is one value that denotes any fee but "free" (:func:`charged_fee`); "no entrance
  fee" is free.
- A train arriving after midnight ("01:06" for a train leaving 23:21, KB normalisation:
  :func:`next_day_arrival`) arrives on the next day for every bound.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

from csp_check.corpora.shared import TRIP_TIME_COLUMNS, TRIP_TIMES
from csp_check.language.lexicon import (
    ABBREVIATIONS,
    ADVERBS,
    AFTER_STREET,
    AMENITY_YES,
    AREA,
    AREAS,
    ARTICLES,
    CENTRE,
    CHARGED,
    CLOCK_CORE,
    CLOCK_HHMM,
    COMPARATIVE,
    DASHES,
    DATE_FORMS,
    DAY_ONLY,
    DOLLARS,
    DONTCARE_WORDS,
    EARLY,
    EDGE_PUNCT,
    EXACTLY,
    FREE,
    GENERIC_NAME_WORDS,
    HOUR_WORDS,
    INVISIBLE,
    KIND_NAME_WORDS,
    LATE,
    MONEY,
    MONTHS,
    NAMED_TIMES,
    NO_FEE,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    PER_UNIT,
    PERIOD_WORDS,
    QUOTES,
    RATED,
    REFERS,
    RELATIVE_DAY,
    SCALE_END,
    SCALE_ENDS,
    SEVERAL,
    SYNONYMS,
    TIME_PREFIX,
    TIME_SLOT,
    TRAIN_ID,
    US_DATE,
    VAGUE_AMOUNTS,
    VALUE_UNITS,
    WEEKDAY_BEFORE,
    WELL_FORMED_TIME,
    WHOLE_CITY,
)


def fold(text: str) -> str:
    r"""Unicode-fold and lower-case, keeping every character position-aligned where possible;
    invisible characters (:data:`~csp_check.language.lexicon.INVISIBLE`: "t\u200bwo") are dropped,
    so a value, an amount and a word of the text read alike."""
    if text.isascii():  # NFKC keeps ASCII, and of the tables only QUOTES has an ASCII key (the backtick)
        return (text.replace("`", "'") if "`" in text else text).lower()
    text = unicodedata.normalize("NFKC", text).translate(INVISIBLE).translate(DASHES).translate(QUOTES)
    return text.lower()


@lru_cache(maxsize=1 << 12)
def fold_aligned(text: str) -> str:
    """Like :func:`fold` but guaranteed to keep length, so offsets into it are offsets into ``text``."""
    out = text.translate(DASHES).translate(QUOTES).lower()
    return out if len(out) == len(text) else text.translate(DASHES).translate(QUOTES)


_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.!?'])")


@lru_cache(maxsize=1 << 17)
def normalize(value: str) -> str:
    """Canonical comparison key of a slot value: folded, trimmed, single-spaced, synonyms merged;
    a clock time in any common spelling becomes ``HH:MM`` ("six pm", "evening 6:30", "18:00")."""
    text = fold(value).strip(EDGE_PUNCT)
    text = _SPACES.sub(" ", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)  # MultiWOZ tokenised text: "restaurant ,"
    if text.startswith("the ") and len(text) > 4:  # "the all saints church" = "all saints church"
        text = text[4:]
    text = SYNONYMS.get(text, text)
    text = CENTRE.sub("center", text)
    return clock_time(text) or money(text) or text


def normalized_entities(entities: Iterable[Mapping[str, object]]) -> list[dict[str, str]]:
    """KB entities with every value normalised like a variable's value; empty values dropped
    (a missing column is unknown, see :mod:`csp_check.check.evaluate`); an arrival after midnight
    written on the clock ("01:06" for a train leaving 23:21) on the next day's clock, "25:06"
    (:func:`next_day_arrival`)."""
    return [next_day_arrival({k: normalize(str(v)) for k, v in e.items() if v is not None and str(v) != ""})
            for e in entities]


def next_day_arrival(entity: dict[str, str]) -> dict[str, str]:
    """``entity`` (normalised values, changed in place and returned) with an arrival
    (:data:`~csp_check.corpora.shared.TRIP_TIMES`, every corpus's) that is earlier on the clock
    than its departure written on the next
    day's clock, hours 24-47: TR6219 leaves at 23:21 and arrives at "01:06", which becomes
    "25:06"; the MultiWOZ DB writes other such arrivals "24:06" already. Bounds then compare
    on the right day ("arrive by 21:00" is not met by "25:06"; ``HH:MM`` strings compare as
    times), in the checker and the solvers alike, which read the same normalised tables. A text
    saying "01:06" meets "25:06" through :func:`wording_key` (spec §9, bounds)."""
    for leave, arrive in TRIP_TIMES:
        dep, arr = entity.get(leave), entity.get(arrive)
        if dep and arr and CLOCK_HHMM.fullmatch(dep) and CLOCK_HHMM.fullmatch(arr) and arr < dep and int(arr[:2]) < 24:
            entity[arrive] = f"{int(arr[:2]) + 24:02d}{arr[2:]}"
    return entity


def clock_of_day(value: str) -> str:
    """A next-day time ``HH:MM`` with hours 24-47 as the clock shows it ("25:06" → "01:06",
    "24:08" → "00:08"); any other text unchanged."""
    if CLOCK_HHMM.fullmatch(value) and 24 <= int(value[:2]) < 48:
        return f"{int(value[:2]) - 24:02d}{value[2:]}"
    return value


def clock_slot(slot: str) -> bool:
    """Whether ``slot`` (a slot or DB column name) takes clock times: MultiWOZ ``leaveAt`` /
    ``arriveBy`` / ``book time``, SGD ``time`` / ``pickup_time`` / ``*_time``: a trip's time
    column of any corpus (:data:`~csp_check.corpora.shared.TRIP_TIME_COLUMNS`) or a slot named
    as a time (:data:`~csp_check.language.lexicon.TIME_SLOT`)."""
    return slot in TRIP_TIME_COLUMNS or bool(TIME_SLOT.search(slot))


def well_formed_time(value: object) -> bool:
    """Whether ``value`` is a well-formed clock time (:data:`~csp_check.language.lexicon.WELL_FORMED_TIME`): every one is a
    value of a clock slot's type (C1), whether or not the KB has it ("leave after 18:45" where no
    train leaves at 18:45); "25:70" or "after lunch" is none."""
    return isinstance(value, str) and bool(WELL_FORMED_TIME.fullmatch(value))


def money(text: str) -> str | None:
    """``N.NN pounds`` for an amount of pounds in any common spelling ("35.2 gbp", "£35.20"),
    else ``None``. A bare number is not money."""
    match = MONEY.match(text)
    if not match or text.replace(".", "", 1).isdigit():
        return None
    return f"{float(match['n']):.2f} pounds"


#: The period words of :func:`clock_time`, longest first ("in the evening" before "evening").
_PERIODS = tuple(sorted(LATE + EARLY, key=len, reverse=True))


@lru_cache(maxsize=1 << 16)
def clock_time(text: str) -> str | None:
    """``HH:MM`` for a string that is wholly a clock time, else ``None``.

    >>> clock_time("half past 6 in the evening"), clock_time("twelve in the afternoon")
    ('18:30', '12:00')
    """
    text = TIME_PREFIX.sub("", text)
    period = ""
    for word in _PERIODS:
        if text.endswith(" " + word) or (text.endswith(word) and word[0] in "ap" and text[: -len(word)][-1:].isdigit()):
            period, text = word, text[: -len(word)].strip()
            break
        if text.startswith(word + " "):
            period, text = word, text[len(word) + 1 :]
            break
    if text in NAMED_TIMES and period == "":  # "noon", "12 noon", "midnight"
        return NAMED_TIMES[text]
    match = CLOCK_CORE.match(text)
    if not match or (not period and match["m"] is None):
        return None  # "5" alone is not a time; "5:30" and "5 pm" are
    h = match["h"]
    hour = int(h) if h.isdigit() else HOUR_WORDS.get(h, -1)
    minute = int(match["m"] or 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    if match["q"] == "half past":
        minute = 30
    elif match["q"] == "quarter past":
        minute = 15
    elif match["q"] == "quarter to":  # on the 12-hour clock: "quarter to 1 pm" is 12:45 pm
        hour, minute = (hour - 1) or 12, 45
    if period in LATE and 1 <= hour < 12:
        hour += 12
    elif period in EARLY and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


def _amount_key(text: str) -> str:
    """``text`` normalised, a trailing "of" dropped ("a dozen of", "a couple of")."""
    key = normalize(text)
    return key[:-3] if key.endswith(" of") else key


def vague_amount(text: str) -> bool:
    """Whether ``text`` is a quantity word naming no number (:data:`~csp_check.language.lexicon.VAGUE_AMOUNTS`)."""
    return _amount_key(text) in VAGUE_AMOUNTS


@lru_cache(maxsize=1 << 16)
def parse_amount(text: str) -> int | None:
    """An amount written as digits or an English number word; ``None`` when it is neither, or a
    quantity word naming no exact number (:data:`~csp_check.language.lexicon.VAGUE_AMOUNTS`: "several", "a couple of")."""
    key = EXACTLY.sub("", _amount_key(text))  # "just one", "only two": the number itself
    if key in VAGUE_AMOUNTS:  # "a couple of options" where there are 5: no exact amount
        return None
    if key.isdigit():
        return int(key)
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", key):  # "1,200": digits grouped in thousands
        return int(key.replace(",", ""))
    if key in NUMBER_WORDS:
        return NUMBER_WORDS[key]
    parts = key.replace("-", " ").split()
    if len(parts) == 2 and parts[0] in NUMBER_WORDS and parts[1] in NUMBER_WORDS:
        tens, units = NUMBER_WORDS[parts[0]], NUMBER_WORDS[parts[1]]
        if tens >= 20 and tens % 10 == 0 and units < 10:
            return tens + units
    return None


#: A number written in digits has at most this many when it counts entities: five or more
#: ("01223 364917", "50210") are a phone number, a postcode or an id
#: (:func:`parse_count`; the annotator's reading of a count, :mod:`csp_check.annotate.amounts`).
COUNT_DIGITS = 4
#: The largest count a digit string can write (:data:`COUNT_DIGITS`): a larger number is no count
#: (:func:`parse_count`), and the bound on an amount beyond the KB's own sizes
#: (:func:`csp_check.build.builder.amount_bound`).
MAX_COUNT = 10**COUNT_DIGITS - 1
#: The characters a phone number is written with: digits, spaces, ``( ) . + -`` ("01223 332 360").
PHONE_SHAPE = re.compile(r"[\d\s().+-]+")


@lru_cache(maxsize=1 << 16)
def parse_count(text: str) -> int | None:
    """An amount that can count entities: :func:`parse_amount`, but ``None`` for a number
    written like a phone number, a postcode or an id — only digits and the marks of
    :data:`PHONE_SHAPE`, more than :data:`COUNT_DIGITS` digits ("01223364917", "01223 332 360",
    "50210") — and for one above :data:`MAX_COUNT` ("10,000,000"). "1,200" (thousands grouped)
    and "twenty-one" stay counts."""
    amount = None if phone_like(text) else parse_amount(text)
    return None if amount is None or amount > MAX_COUNT else amount


def phone_like(text: str) -> bool:
    """Whether ``text`` is written like a phone number, a postcode or an id, not a count: only
    digits and the marks of :data:`PHONE_SHAPE`, more than :data:`COUNT_DIGITS` digits."""
    key = EXACTLY.sub("", _amount_key(text))
    return bool(PHONE_SHAPE.fullmatch(key)) and sum(ch.isdigit() for ch in key) > COUNT_DIGITS


# -- MultiWOZ wording (spec §9): how people word one value ------------------------------------
#
# ``wording_key(slot, text)`` is a comparison key under which the wordings of one value meet:
# "centre of town" / "town centre" / "central" → area "center"; "does n't matter" → "dontcare";
# "4-star" / "four stars" → stars "4"; "five nights" → "5"; "38 minute" → "38 minutes";
# "free entrance" → "free"; "museums" → "museum"; "night club" / "nightclub" → "nightclub".
# ``variant_of`` says whether a span's text is a wording of a given value (a short name, a part
# of an address, a value inside a longer phrase, a word that refers back to it).


def dollars(text: str) -> str | None:
    """The number of an amount of US dollars in any common spelling, as SGD's canonical values
    write it ("$3,150" / "3150 bucks" / "USD 3150" / "3,150 dollars" → "3150"; "forty-five
    dollars" → "45"; "$12.50" → "12.50"), else ``None``. ``text`` is normalised (lower case)."""
    m = DOLLARS.match(text)
    if not m:
        return None
    number = (m["a"] or m["b"] or m["c"]).replace(",", "")
    if not re.fullmatch(r"\d+(?:\.\d{1,2})?", number):
        n = parse_amount(number)
        if n is None or m["c"] is None:
            return None
        return str(n)
    if "." in number:
        whole, cents = number.split(".")
        return whole if int(cents) == 0 else f"{whole}.{cents.ljust(2, '0')}"
    return number


def rated(text: str) -> str | None:
    """The number of a rating said with its scale ("4.5 stars", "4.5-star", "6.2 out of 10",
    "4.5/5", "4/5" → "4.5" / "6.2" / "4.5" / "4"), else ``None``; a whole number with "stars" is
    read by :func:`wording_key` already. ``text`` is normalised. A slash is a scale, never a
    decimal point: "4/5" is 4, not 4.5."""
    m = RATED.match(text)
    return m["n"] if m and ("." in m["n"] or m["slash"]) else None


@lru_cache(maxsize=1 << 16)
def _singular(word: str) -> str:
    """The singular of the noun ``word`` ("museums" → "museum"). A word with a digit is a code
    or a number, never a plural: a postcode "cb58bs" keeps its s, written "CB5 8BS" or not."""
    if len(word) <= 3 or word.endswith("ss") or word.endswith("us") or any(c.isdigit() for c in word):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def charged_fee(text: str) -> bool:
    """Whether ``text`` says an entrance fee is charged without saying how much ("has an entrance
    fee", "there is a charge", "not free"; :data:`~csp_check.language.lexicon.CHARGED`): a value no KB cell has, which
    denotes every known fee but "free". "no entrance fee" is ``False`` (it is "free",
    :func:`wording_key`)."""
    return bool(CHARGED.match(normalize(text)))


@lru_cache(maxsize=1 << 16)
def wording_key(slot: str, text: str) -> str:
    """The comparison key of ``text`` as a value of ``slot`` (a DB column or ``book …`` slot):
    wordings of one value (module comment above) get one key; other text keeps its own.
    Keys are compact (no spaces or punctuation) and singular."""
    t = clock_of_day(normalize(text))  # "25:06", a next-day arrival (next_day_arrival), is said "01:06"
    if t == "dontcare" or DONTCARE_WORDS.search(t):
        return "dontcare"
    if slot == "area":
        if WHOLE_CITY.match(t):  # "in all of cambridge", "anywhere in town": no area filter
            return "dontcare"
        m = AREA.match(t)
        if m:
            return AREAS[m["a"] or m["b"]]
    t = dollars(t) or rated(t) or t  # "45 bucks" = "$45" = 45; "4.5 stars" = "4.5 out of 5" = 4.5
    if slot == "entrance fee" and (FREE.match(t) or NO_FEE.match(t)):
        return "free"
    if slot == "entrance fee" and CHARGED.match(t):  # "has an admission fee", "charges an entrance fee"
        return "charged"
    if slot in ("entrance fee", "price"):  # "2.50", "7.84 gbp per passenger", "£5 each"
        amount = PER_UNIT.sub("", t)
        if re.fullmatch(r"\d+(?:\.\d{1,2})?", amount):
            return f"{float(amount):.2f}pounds"
        if money(amount):
            return (money(amount) or "").replace(" ", "")
    if slot == "phone" and PHONE_SHAPE.fullmatch(t):  # "01223 332 360": digits, leading zero kept
        return re.sub(r"\D", "", t)
    if slot in ("parking", "internet") and t in AMENITY_YES:
        return "yes"
    if re.fullmatch(r"\d+\.\d*0", t):  # a decimal with trailing zeros: "4.30" = "4.3" (SGD's ratings)
        t = t.rstrip("0").rstrip(".")
    if slot == "pricerange" and (end := SCALE_END.match(t)):  # "the cheaper side": cheap, the scale's end
        return SCALE_ENDS[end.group(1)]
    if slot not in ("name", "address") and comparative(t):  # "cheaper" is no price range (spec §9)
        return re.sub(r"[^0-9a-z&]", "", t)
    t = ADVERBS.get(t, t)
    words = t.replace("-", " ").split()
    if words and words[0] in ARTICLES and len(words) > 1:
        words = words[1:]
    if slot == "trainID":  # "train 4708", "TR 4708", a bare "4708" (no amount)
        m = TRAIN_ID.fullmatch(" ".join(words))
        if m:
            return f"tr{m[1]}"
    if len(words) in (1, 2) and (len(words) == 1 or words[1] in VALUE_UNITS):
        n = parse_amount(words[0])
        if n is not None:
            unit = VALUE_UNITS.get(words[1], "") if len(words) == 2 else (" minutes" if slot == "duration" else "")
            return f"{n}{unit}".replace(" ", "")
    if slot == "duration" and len(words) == 2 and words[1] in VALUE_UNITS and words[0].isdigit():
        return f"{words[0]}minutes"
    if words:  # a plural is the head noun, the last word ("swimming pools"; not "kings lynn")
        words[-1] = _singular(words[-1])
    return re.sub(r"[^0-9a-z&]", "", " ".join(words))


@lru_cache(maxsize=1 << 16)
def name_words(text: str) -> frozenset[str]:
    """The distinguishing words of an entity name: normalised, singular, without
    :data:`~csp_check.language.lexicon.GENERIC_NAME_WORDS` ("The Meze Bar Restaurant" → {meze, bar})."""
    words = re.sub(r"[^0-9a-z ]", " ", normalize(text).replace("'s", "s").replace("-", " ").replace("&", " and ")).split()
    words = [  # "St" before a name is Saint ("Great St Mary's Church"), elsewhere Street ("Regent St")
        "saint" if w == "st" and i + 1 < len(words) and words[i + 1] not in AFTER_STREET else ABBREVIATIONS.get(w, w)
        for i, w in enumerate(words)
    ]
    kept = [w for w in words if w not in GENERIC_NAME_WORDS]
    if not kept:  # a name made of common words only ("a and b guest house"): keep them but the kind
        kept = [w for w in words if w not in KIND_NAME_WORDS]
    return frozenset(_singular(w) for w in kept)


def refers_to_several(text: str) -> bool:
    """Whether ``text`` is a plural reference that names no one entity ("a taxi between the
    places"); see :data:`~csp_check.language.lexicon.SEVERAL`."""
    return bool(SEVERAL.match(text))


@lru_cache(maxsize=1 << 16)
def comparative(text: str) -> bool:
    """Whether ``text`` compares ("the cheaper option", "more expensive", "the closest"): it
    states an order between entities, not a value of the slot, so it is read as no value
    (no ``cheap`` for "cheaper"; spec §9; docs/rules.md)."""
    return bool(COMPARATIVE.search(normalize(text)))


@lru_cache(maxsize=1 << 16)
def refers(text: str) -> bool:
    """Whether ``text`` refers back to a value instead of naming it ("same area", "that day",
    "same price range as the Lovell Lodge", "at that time")."""
    return bool(REFERS.search(normalize(text)))


def contains_words(text: str, value: str) -> bool:
    """Whether the normalised words of ``value`` occur, in order and whole, in ``text``
    ("south part of town" contains "south"; "more moderate" contains "moderate")."""
    t = " " + " ".join(_singular(w) for w in re.sub(r"[^0-9a-z:.& ]", " ", normalize(text)).split()) + " "
    v = " ".join(_singular(w) for w in re.sub(r"[^0-9a-z:.& ]", " ", normalize(value)).split())
    return bool(v) and f" {v} " in t


def one_typo(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one edit (a letter added, dropped, changed, or two
    neighbours swapped): "ashely" / "ashley", "petersborough" / "peterborough"."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[i:] == long_[i + 1 :]


def edit_distance(a: str, b: str, limit: int) -> int:
    """The Levenshtein distance of ``a`` and ``b`` (letters added, dropped or changed), or
    ``limit + 1`` as soon as it must exceed ``limit`` ("gardina" / "gardenia": 2)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return min(prev[-1], limit + 1)


@lru_cache(maxsize=1 << 16)
def same_clock(text: str, value: str) -> bool:
    """Whether ``text`` is the 12-hour reading of the ``HH:MM`` time ``value`` ("3:30" or "6:30"
    for 15:30 / 18:30, written without am / pm; spec §9 case 14)."""
    said = clock_time(normalize(text))
    if said is None or not re.fullmatch(r"\d\d:\d\d", value) or PERIOD_WORDS.search(fold(text)):
        return False
    return said[3:] == value[3:] and (int(said[:2]) % 12) == (int(value[:2]) % 12)


@lru_cache(maxsize=1 << 16)
def date_key(text: str, month: int | None = None) -> str | None:
    """``MM-DD`` of a date said with a month and a day ("the 9th of March", "March 9th", "Mar.
    9", "the ninth of March", "3/9", "3/9/2019"; a weekday before it is dropped: "Saturday,
    March 9th"), ``"relative"`` for a day said relative to an unknown today ("next
    Tuesday", "this weekend", "this coming Friday", "Friday coming", "tomorrow"), else ``None``.
    With ``month`` (the month of the date the text should name: the dialogue's date in force),
    a day said without a month ("the 12th", "Tuesday the 12th") is read in that month."""
    t = said = re.sub(r"\s+", " ", fold(text).strip(EDGE_PUNCT))
    bare = WEEKDAY_BEFORE.sub("", t)
    m = DAY_ONLY.match(bare)
    if m and month is not None:
        day = int(m[1]) if m[1] else ORDINAL_WORDS[m[2]]
        return f"{month:02d}-{day:02d}" if 1 <= day <= 31 else None
    t = bare
    m = US_DATE.match(t)
    if m:
        mo, day = int(m[1]), int(m[2])
        return f"{mo:02d}-{day:02d}" if 1 <= mo <= 12 and 1 <= day <= 31 else None
    for pattern in DATE_FORMS:
        m = pattern.match(t)
        if m:
            groups = [g for g in m.groups() if g]
            month = next(MONTHS[g] for g in groups if g in MONTHS)
            day_word = next(g for g in groups if g not in MONTHS)
            day = int(day_word) if day_word.isdigit() else ORDINAL_WORDS[day_word]
            return f"{month:02d}-{day:02d}" if 1 <= day <= 31 else None
    return "relative" if RELATIVE_DAY.match(t) or RELATIVE_DAY.match(said) else None  # "Friday coming"
