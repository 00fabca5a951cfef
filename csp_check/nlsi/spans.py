"""Free values of the dialogue by their spans, in the user's words (text grounding; issue 19).

The NLSI release's calls keep the user's own words for slots no ontology can list: dates
("March 8th", "the 10th of this month" → ``10th of this month``, "next Friday", "the 5th"),
times ("1:30 pm", "morning 9:15", "12:30 in the afternoon"), and places the user names after a
role word ("from Vancouver to Seattle", "leaving out of Long Beach"). These are read here from
the user's turns by their shape, not looked up; the schema only says which slot may hold them
(a slot of the requested domain's chosen service, :func:`csp_check.nlsi.variants.service_slots`).

- **Dates** (:func:`date_spans`): ``(next|this|coming) <weekday>``, ``<weekday> (next|this)
  week`` ("this coming Friday" too), ``(the) day after tomorrow``, ``tomorrow``, ``<Nth> of (this|next) month``,
  ``<Nth> (of) <month>``, ``<month> <N>`` (either with a year after it, "1st of March 2019"), ``the <Nth>`` (kept with "the", as the release keeps
  it), ``on <weekday>`` (with its week: "on Saturday this week" → ``Saturday this week``). A leading "the" of the others is dropped ("on the 13th of March" →
  ``13th of March``). "Today" is no date stated: it is the reference day, the schema's default
  date (intents' ``date`` default ``2019-03-01``), and is said in passing ("I'm free today").
- **Times** (:func:`time_spans`): ``H(:MM) am|pm`` and ``H:MM``, with a day-part word before
  ("morning 9:15") or after ("12:30 in the afternoon") kept; ``H in the <day part>``, ``H
  o'clock``.
- **Slots** (:func:`date_time_values`): a date goes to the domain's first date slot
  (``pickup_date``, ``check_in_date``, ``departure_date``, ``leaving_date``, ``show_date``,
  ``date``, …) unless an end word precedes it ("until", "till", "through", "return", "back",
  "drop off", "check out"; or it is the second of "from A to B"), then to the end slot
  (``dropoff_date``, ``check_out_date``, ``return_date``), or to none when the service has no
  end slot (Hotels_1 counts days: "until the 11th" is not its check-in date); a time to the domain's one
  departure / pickup / show / appointment time slot (arrival, inbound and availability times
  never). A later mention for a slot wins.
- **Names** the agent asks for or offers: a user turn that is only a title-cased name answers
  the slot the agent's question before it names ("What song?" → ``song_name``;
  :func:`answered_name`); an offer the user accepts states the offered entity, the first
  title-cased span after an offer word ("Would you like to listen to Heartbeat by …" →
  ``Heartbeat``; :func:`offered_name`), for the domain's entity-name slot. A title-cased span
  between "at" and the domain's own noun in lower case names the entity ("stay at Courtyard By
  Marriott Portland Airport hotel" → ``Courtyard By Marriott Portland Airport``; :func:`kind_names`):
  the lower-case noun is the kind, not part of the name.
- **Places** (:func:`role_places`): a capitalised span (1–4 words, "I" never) right after
  "from", "out of", "leaving", "depart"/"departing" (origin) or "to", "destination is" (destination), stopped at the
  first word not capitalised; kept as typed ("SFO", "Long Beach"), with a state or country code
  after a comma ("Anaheim, CA", the release's "Portland, OR"; a postal code typed "Ca" too).
"""

from __future__ import annotations

import re

from csp_check.language.dates import MONTHS, WEEKDAYS
from csp_check.nlsi.cues import DOMAIN_CUES

_WD = "(?:" + "|".join(WEEKDAYS) + ")"
_MON = "(?:" + "|".join(MONTHS + [m[:3] for m in MONTHS if m != "may"]) + r")\.?"
_ORDN = r"\d{1,2}(?:st|nd|rd|th)"
_YEAR = r"(?:,?\s+(?:19|20)\d{2}(?!\d))?"  # "the 1st of March 2019", "March 2nd, 2019": the year is the date's
_DATE = re.compile(
    r"\b(?:"
    rf"(?P<rel>(?:this\s+coming|next|this|coming)\s+{_WD})"
    rf"|(?P<wk>{_WD}\s+(?:next|this)\s+week)"
    r"|(?:the\s+)?(?P<dat>day\s+after\s+tomorrow)"
    rf"|(?:the\s+)?(?P<ofm>{_ORDN}\s+of\s+(?:this|next)\s+month)"
    rf"|(?:the\s+)?(?P<om>{_ORDN}\s+(?:of\s+)?{_MON}{_YEAR})"
    rf"|(?P<md>{_MON}\s+\d{{1,2}}(?:st|nd|rd|th)?{_YEAR})(?![\d:])"
    rf"|(?P<the>the\s+{_ORDN})"
    r"|(?P<tt>tomorrow)"
    rf"|on\s+(?P<wd>{_WD}(?:\s+(?:next|this)\s+week)?)"
    r")\b",
    re.IGNORECASE,
)
_PART = r"(?:morning|afternoon|evening|night)"
_TIME = re.compile(
    r"\b(?P<t>"
    rf"(?:{_PART}\s+)?\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm|a\.m\.|p\.m\.)"
    rf"(?:\s+in\s+the\s+{_PART})?"
    rf"|(?:{_PART}\s+)?\d{{1,2}}:\d{{2}}(?:\s+in\s+the\s+{_PART})?"
    rf"|\d{{1,2}}\s+in\s+the\s+{_PART}|\d{{1,2}}\s+o'clock(?:\s+in\s+the\s+{_PART})?"
    r")(?![\w:])",
    re.IGNORECASE,
)
#: Words before a date (within three words) that make it the end of a stay or rental.
END_WORDS = {"until", "till", "til", "through", "thru", "return", "returning", "back", "drop", "dropoff", "checkout"}
#: "out" ends a stay only after "check" ("check out on the 5th"; "heading out on March 1st" leaves).
_CHECK_OUT = re.compile(r"\bcheck(?:ing)?\s+out\b")
#: First slots of a date pair, by the words their names contain (checked in this order).
_START_KEYS = ("pickup", "check_in", "departure", "leaving", "show", "appointment", "event", "visit")
_END_KEYS = ("dropoff", "check_out", "return")
_NO_TIME = ("arrival", "inbound", "available", "end", "wait", "duration")


def date_spans(text: str) -> list[tuple[int, str]]:
    """``(start offset, words)`` of every date expression of ``text`` (module doc), in order."""
    out = []
    for m in _DATE.finditer(text):
        name = next(k for k, v in m.groupdict().items() if v)
        out.append((m.start(name), m.group(name)))
    return out


def time_spans(text: str) -> list[tuple[int, str]]:
    """``(start offset, words)`` of every clock time of ``text`` (module doc), in order."""
    return [(m.start("t"), m.group("t")) for m in _TIME.finditer(text)]


def _date_slots(slots: list[str]) -> tuple[str | None, str | None]:
    dates = [s for s in slots if s.endswith("date")]
    end = next((s for k in _END_KEYS for s in dates if k in s), None)
    start = next((s for k in _START_KEYS for s in dates if k in s), None)
    if start is None:
        start = next((s for s in dates if s == "date" or s != end), None)
    return start, end


def _time_slot(slots: list[str]) -> str | None:
    times = [s for s in slots if s.endswith("time") and not any(k in s for k in _NO_TIME)]
    return next((s for k in _START_KEYS for s in times if k in s), times[0] if times else None)


#: What stands between the two dates of a range ("March 10th to the 11th", "the 3rd - the 5th").
_RANGE_WORDS = {"to", "-", "through", "thru", "until", "till"}


def date_time_values(turns: list[str], slots: list[str]) -> dict[str, str]:
    """``{slot: words}`` for the dates and times the user's ``turns`` state, over the slots of
    one domain (``slots``, its chosen service's). Empty when the domain has no such slot."""
    start, end = _date_slots(slots)
    tslot = _time_slot(slots)
    out: dict[str, str] = {}
    for turn in turns:
        dates = date_spans(turn)
        for k, (at, words) in enumerate(dates):
            before = re.findall(r"[a-z]+", turn[max(0, at - 25) : at].lower())[-3:]
            between = turn[dates[k - 1][0] + len(dates[k - 1][1]) : at].strip().lower() if k else ""
            ending = bool(set(before) & END_WORDS) or bool(_CHECK_OUT.search(turn[max(0, at - 25) : at].lower())) or (k > 0 and "to" in before and "from" in
                                                      re.findall(r"[a-z]+", turn[: dates[k - 1][0]].lower())[-2:]) \
                or between in _RANGE_WORDS  # "rental is March 10th to the 11th"
            slot = end if ending else start  # an end date is never the start ("until the 11th")
            if slot is not None:
                out[slot] = words
        if tslot is not None:
            for _, words in time_spans(turn):
                out[tslot] = words
    return out


_ORIGIN_WORDS = {"from", "leaving", "depart", "departing"}
_TOKEN = re.compile(r"[A-Za-z][\w.'&-]*|[,!?;]")
_CODE = re.compile(r"[A-Z]{2,3}|(?:[A-Z]\.){2,3}")  # a state or country code after a comma: CA, OR, UK, D.C.
#: US postal state codes that are no English word when written "Ca": a code the user types in
#: title case ("Anaheim, Ca"); "Ok", "In", "Me", "Or", "Hi", "Oh", … stay words.
_TITLE_CODES = frozenset(
    "Ca Tx Ny Nj Wa Fl Ga Az Nv Il Mi Mn Wi Ky Tn Va Nc Sc Ut Nm Ks Ia Ar Ms Ak Vt Nh Ri Ct Wv Nd Sd Mt Wy Dc".split())


def _is_code(code: str) -> bool:
    """A state or country code after a comma: upper case (:data:`_CODE`), or a postal state
    code in title case (:data:`_TITLE_CODES`)."""
    return bool(_CODE.fullmatch(code)) or code in _TITLE_CODES


def role_places(turn: str) -> list[tuple[str, str]]:
    """``(role, place)`` of the capitalised spans after a role word of one user turn (module
    doc): role ``origin`` or ``destination``, in order of appearance."""
    toks = _TOKEN.findall(turn)
    out = []
    for i, tok in enumerate(toks):
        low = tok.lower()
        role = "origin" if low in _ORIGIN_WORDS or (low == "of" and i and toks[i - 1].lower() == "out") else \
            "destination" if low == "to" or (low == "is" and i and toks[i - 1].lower() == "destination") else None
        if role is None:
            continue
        span = []
        j = i + 1
        for t in toks[i + 1 : i + 5]:
            if not t[:1].isupper() or t == "I" or t.startswith("I'") or t.lower().rstrip(".") in MONTHS + WEEKDAYS:
                break
            span.append(t.rstrip(".") if len(t) > 4 else t)
            j += 1
            if t.endswith(".") and len(t) > 4:
                break  # "Washington. I'd": the sentence ends
        if span:
            place = " ".join(span).rstrip(".")
            code = toks[j + 1].rstrip(".") if toks[j : j + 1] == [","] and j + 1 < len(toks) else ""
            if code != "OK" and _is_code(code):  # "to SFO, OK?": no code
                place += ", " + code
            elif _CODE.fullmatch(code + "."):
                place += ", " + code + "."  # "Washington, D.C."
            out.append((role, place))
    return out


_SMALL = {"of", "the", "a", "an", "and", "&"}
_OFFER_CUES = {"to", "is", "about", "called", "named", "found", "try", "at"}


def _title_span(tokens: list[str]) -> list[str]:
    """The leading run of title-cased words (small words inside allowed, "I" never)."""
    span: list[str] = []
    for t in tokens:
        if t[:1].isupper() and t != "I" and not t.startswith("I'"):
            span.append(t)
        elif t.lower() in _SMALL and span:
            span.append(t)
        else:
            break
    while span and span[-1].lower() in _SMALL:
        span.pop()
    return span


#: Request verbs that open an imperative answer ("Play Business Dinners"): not part of a name.
REQUEST_VERBS = {"play", "find", "book", "get", "search", "show", "reserve", "try", "put", "look"}


#: Words that open an answer without naming anything ("Yes, …", "Sure, …", "Well, …"): no name
#: before a comma.
_NO_NAME = {"yes", "yeah", "yep", "sure", "ok", "okay", "no", "nope", "thanks", "thank", "great", "perfect",
            "fine", "alright", "hi", "hello", "hey", "well", "actually", "hmm", "um", "oh", "please", "cool"}
#: Role words of a place or a time that open no name ("From SD, this Saturday": a pickup city).
_ROLE_OPENERS = {"from", "until", "till", "around", "near"}


def answered_name(answer: str) -> str | None:
    """The user's answer as a name, when the whole turn is one ("Nobody Can Save Me."), or its
    first clause is and a comment follows the comma ("Breakthrough, I hear it's good."; not an
    answer word: "Yes, …", :data:`_NO_NAME`): 1–8 title-cased words (small words inside
    allowed), a leading request verb dropped ("Play Business Dinners" → ``Business Dinners``);
    else None; never one a place's or time's role word opens ("From SD, …", :data:`_ROLE_OPENERS`)."""
    toks = _TOKEN.findall(answer.strip().rstrip(".!"))
    if len(toks) > 1 and toks[0].lower() in REQUEST_VERBS:
        toks = toks[1:]
    if "," in toks and toks.index(",") > 0 and toks[0].lower() not in _NO_NAME:
        toks = toks[: toks.index(",")]
    span = _title_span(toks)
    if span and span[0].lower() in _ROLE_OPENERS:
        return None
    return " ".join(span) if span and len(span) == len(toks) and len(span) <= 8 else None


def offered_name(offer: str) -> str | None:
    """The entity an agent offers: the first title-cased span right after an offer word ("…
    listen to Heartbeat by Enrique Iglesias" → ``Heartbeat``, "… is Sushi Boat in San Jose" →
    ``Sushi Boat``); None when there is none."""
    toks = _TOKEN.findall(offer)
    for i, t in enumerate(toks[:-1]):
        if t.lower() in _OFFER_CUES:
            span = _title_span(toks[i + 1 : i + 9])
            if span:
                return " ".join(span)
    return None


def kind_names(turn: str, domain: str) -> list[str]:
    """Names one user turn gives by their kind: a title-cased span (1–8 words, small words
    inside) right after "at" and right before the domain's plain noun in lower case ("… stay at
    Courtyard By Marriott Portland Airport hotel in Portland" → ``Courtyard By Marriott Portland
    Airport`` for Hotels; "a table at Sushi Boat restaurant" for Restaurants), in order. A span
    with no such noun after it ("at Portland Airport", "at 5 pm") is none: "at" alone also opens
    places and times."""
    kinds = {w for w in DOMAIN_CUES.get(domain, [])[:2] if " " not in w}
    kinds |= {w[:-1] for w in kinds if w.endswith("s")}
    toks = _TOKEN.findall(turn)
    out = []
    for i, t in enumerate(toks[:-1]):
        span = _title_span(toks[i + 1 : i + 9]) if t.lower() == "at" else []
        if span and toks[i + 1 + len(span) : i + 2 + len(span)] and toks[i + 1 + len(span)] in kinds:
            out.append(" ".join(span))
    return out


_NUM = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
        "nine": "9", "ten": "10"}
_N = r"(\d{1,2}|" + "|".join(_NUM) + r")"
#: Words after "for N" that leave N a head count ("a cab for two, please"; "a table for 2 at 6 pm").
_AFTER_FOR = r"(?:$|[,.!?;]|\s+(?:please|to|at|on|from|and|in|heading|going|leaving|tomorrow|today|tonight|this|next)\b)"
_COUNT = re.compile(
    rf"\b{_N}\s+(?:people|persons|person|passengers|passenger|adults|adult|guests|guest|riders|rider|travell?ers|"
    rf"travell?er|of\s+us)\b"
    rf"|\bfor\s+{_N}(?={_AFTER_FOR})"
    rf"|\b(?:we\s+are|we're|we\s+will\s+be|we'll\s+be)\s+{_N}\b",
    re.IGNORECASE,
)


def head_counts(turn: str) -> list[str]:
    """How many people one user turn names, as digits, in order: ``N`` (or a number word) before
    a person word ("three people", "2 adults", "two of us"), ``for N`` closing a phrase ("a cab
    for one please", "a table for 2 at 6 pm"; not "for 2 days", "for 3 pm"), "we're N"."""
    out = []
    for m in _COUNT.finditer(turn):
        n = next(g for g in m.groups() if g)
        out.append(_NUM.get(n.lower(), n))
    return out


_PIECE = r"(?:\d+[A-Za-z]{0,2}|#\s?\d+|[A-Z][\w'&.-]*)"
#: Street words typed in lower case inside an address ("One Ferry building #35", "Main street").
_STREET = r"(?:building|street|avenue|road|boulevard|drive|lane|plaza|suite|station)"
_DEST = re.compile(
    rf"\b(?:to(?:\s+the\s+(?:place|address)\s+at)?|visit|address\s+is)"
    rf"\s+(?P<p>{_PIECE}(?:\s+(?:{_PIECE}|of|the|de|and|&|{_STREET}))*(?:,\s+{_PIECE}(?:\s+{_PIECE})*)?)"
)


def destinations(turn: str) -> list[str]:
    """Places one user turn names after "to" ("to the place at"), "visit" or "the address is", street addresses included
    ("going to 5434 Ygnacio Valley Road #90", "a cab for 1 to Lers Ros Thai", "to 1538 Third Ave,
    East 86th Street"): digits, ``#N`` and capitalised words (small words inside), a part after
    a comma that goes on the same way, lower-case street words and "&" inside ("One Ferry building
    #35", "Chili's Grill & Bar");
    not a time ("to 5 pm") nor a date, nor "I"."""
    out = []
    for m in _DEST.finditer(turn):
        words = re.split(r"(?<=[a-z0-9])[.!?]\s", m.group("p"))[0].split()  # "… Real. For 1 person": the sentence ends
        while words and words[-1].lower() in ("of", "the", "de", "and", "&"):
            words.pop()
        place = " ".join(words).rstrip(".,")
        first = words[0].lower().rstrip(".") if words else ""
        if not place or words[0] == "I" or words[0].startswith("I'") or first in MONTHS + WEEKDAYS:
            continue
        if _TIME.match(place) or _DATE.match(place) or place.isdigit():
            continue
        out.append(place)
    return out


_UNIT = re.compile(
    r"\b(\d{1,2}|" + "|".join(_NUM) + r"|single)\s+(?:[a-z]+\s+)?"
    r"(room|day|night|bed|bath|bedroom|bathroom)s?\b", re.IGNORECASE)
_UNIT_SLOT = {"bedroom": "bed", "bathroom": "bath", "night": "day"}


def unit_counts(turn: str) -> list[tuple[str, str]]:
    """``(unit, digits)`` for a count before its unit word, one word between allowed ("one
    hotel room" → ``("room", "1")``, "two bedrooms" → ``("bed", "2")``, "3 days"); "single"
    counts 1 only right before the unit. People are :func:`head_counts`' ("a room" is no count:
    SGD's state holds none for it)."""
    out = []
    for m in _UNIT.finditer(turn):
        n, unit = m.group(1).lower(), m.group(2).lower()
        if n == "single" and len(m.group(0).split()) > 2:
            continue
        out.append((_UNIT_SLOT.get(unit, unit), _NUM.get(n, "1" if n == "single" else n)))
    return out


_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:[a-z]+\s+)?(room|day|night|bed|bath|bedroom|bathroom)s?\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w:$.])(\d{1,2}|" + "|".join(_NUM) + r")(?![\w:])", re.IGNORECASE)


def answered_counts(turns: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(unit, digits)`` for an agent question "how many <unit>?" (a unit of :func:`unit_counts`)
    that the next user turn answers with one number and no unit or time after it ("How many
    bedrooms?" "I think two is fine" → ``("bed", "2")``); ``turns``: ``(speaker, text)`` in order
    (:func:`~csp_check.nlsi.models.split_turns`). An answer with two numbers, or one a unit, a
    time or a date follows, is left to the other readings."""
    out = []
    for (who, question), (nxt, answer) in zip(turns, turns[1:]):
        asked = _HOW_MANY.search(question) if who == "agent" and nxt == "user" else None
        nums = _NUMBER.findall(answer) if asked else []
        if not asked or len(nums) != 1 or unit_counts(answer) or head_counts(answer):
            continue
        after = answer[answer.lower().find(nums[0].lower()) + len(nums[0]):].split()[:1]
        if after and after[0].lower().strip(".,!?") in ("am", "pm", "o'clock", "in", "of", *MONTHS):
            continue
        unit = asked.group(1).lower()
        out.append((_UNIT_SLOT.get(unit, unit), _NUM.get(nums[0].lower(), nums[0])))
    return out


_IN_WORDS = {"in", "around", "near"}
#: Words that open a new clause after a comma ("in Paris, Please book it"): no part of a place.
_OPENERS = {"please", "thanks", "thank", "can", "could", "would", "will", "what", "how", "and", "but", "also", "is",
            "are", "do", "does", "i", "that", "this", "it", "there", "yes", "no", "ok", "okay", "sure", "then"}


def in_places(turn: str) -> list[str]:
    """Capitalised spans (1–4 words, "I", months and weekdays never) right after "in",
    "around", "near", "area of" or "weather for" / "forecast for" in one user turn, with a place after a comma that is
    capitalised too ("in Olema, California", "in Nairobi, Kenya", "in Fresno, CA"), in order.
    The place of a domain with one place slot ("the weather in Guerneville")."""
    toks = _TOKEN.findall(turn)
    out = []
    for i, tok in enumerate(toks):
        low = tok.lower()
        if not (low in _IN_WORDS or (low == "of" and i and toks[i - 1].lower() == "area")
                or (low == "for" and i and toks[i - 1].lower() in ("weather", "forecast"))):
            continue
        span, j = _caps(toks, i + 1)
        if not span:
            continue
        if toks[j : j + 1] == [","]:
            more, _ = _caps(toks, j + 1)
            if 0 < len(more) <= 2 and (_is_code(more[0].rstrip(".")) or len(more[0]) > 3) \
                    and more[0].lower() not in _OPENERS:
                span += [","] + more
        place = " ".join(span).replace(" ,", ",")
        out.append(place if re.search(r"\b(?:[A-Z]\.){2,3}$", place) else place.rstrip("."))  # "D.C." keeps its dot
    return out


def _caps(toks: list[str], start: int) -> tuple[list[str], int]:
    span, j = [], start
    for t in toks[start : start + 4]:
        if not t[:1].isupper() or t == "I" or t.startswith("I'") or t.lower().rstrip(".") in MONTHS + WEEKDAYS:
            break
        span.append(t)
        j += 1
        if t.endswith(".") and len(t) > 4:
            break
    return span, j
