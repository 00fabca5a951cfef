"""The CI-ToD labels of a weather dialogue's last system response: against the KB rows of the
city and day said (KBI), against the history's weather statements and the attribute the history
asked for (HI). The checks of :mod:`csp_check.score.citod` that only weather has.

Reading rules

- **KBI, C5**: a value ``r`` states is the row's of the city nearest it (else the history's
  latest city) on the weekday said (else the one the user asked, else some day of the city's week
  must fit: "today" is not known); a temperature is the row's low or high, a weather word fits by
  its stem or group (:func:`csp_check.score.citod_values.weather_agree`). A denied value ("no
  hail this sunday") is refuted only on its day, or on any day of the week when ``r`` speaks of
  the whole week ("it will not be cloudy at all this week"); certain when one clause scopes the
  negation (:func:`csp_check.score.citod_values.clearly_negated`). A decade ("highs in the
  70s") no temperature of the city falls in: for review (a decade is vague).
- **HI, C2 across turns**: a weather statement of ``r`` (an attribute of a city on a day) agrees
  with what an earlier system turn stated of that city on that day: another attribute of the
  closed set, or the same one negated, is a contradiction (certain when each turn names one city
  and at most one day; a week-long denial is refuted by any earlier day's statement).
  Near attributes (:data:`csp_check.score.citod_values.WEATHER_NEAR`: "drizzle" after "rain")
  are for review. A city after "the same with" / "same for" ("not cloudy at all this week, which
  is the same with downtown_chicago") takes the statement said before it; a week-long denial is
  refuted by an earlier turn that states one attribute and no denial of the city on any day,
  whichever its days are ("cloudy on wednesday in atherton and on friday in downtown_chicago").
  Of the earlier turns ``r`` contradicts, a certain reading is flagged before a for-review one:
  an earlier turn naming several cities does not hold back a later one naming one (as for
  temperatures below).
- **HI, temperatures across turns**: a temperature ``r`` gives a city on a day (its role, high or
  low, by "high" / "low" before it or a range "40f-60f") is the one an earlier system turn gave
  that city and day: another of the same role, or neither of the low and high it gave, is a
  contradiction (certain when each turn names one city and one day).
- **HI and QI, the day the history settled**: the one day an earlier user turn asked about (a
  weekday, "today" / "tomorrow"; "tonight", "currently", "right now" are today; not a span: "this
  week", "the 7 day forecast"), for a query naming no day, is the day of ``r``'s weather; ``r``
  naming only other days switches it: certain between two weekdays or two relative days, for
  review between a weekday and "today" / "tomorrow" (the KB does not say which weekday today is).
- **HI, the attribute the history asked**: a follow-up query that asks for no attribute of its own
  ("what about boston", "and on tuesday") carries the attribute the user's earlier turn asked for
  (rain, a temperature); ``r`` that states only other columns swaps it: certain.

Source: CI-ToD (Qin et al., EMNLP 2021, §2: HI is a contradiction of the dialogue history) and
KVRET's weather KB (one row per city and day: one attribute, a low and a high).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Protocol

from csp_check.corpora.citod import WEEKDAYS
from csp_check.language.number_words import decades
from csp_check.score.citod_read import Lexicon, Mention, TurnReading
from csp_check.score.citod_values import clearly_negated, weather_agree, weather_near
from csp_check.score.citod_words import fits, stem, weather_text

#: Words by which a weather statement is about the whole week ("not cloudy at all this week").
WHOLE_WEEK = frozenset({"week", "weekly", "all", "everyday", "anytime"})
#: The weather columns.
WEATHER_COLUMNS = ("weather_attribute", "high_temperature", "low_temperature")
#: Day words that are no weekday but name the same day in every turn of a dialogue → that day
#: ("tonight", "currently" are today; "right now" too: :func:`relative_days`).
RELATIVE_DAYS = MappingProxyType({"today": "today", "tonight": "today", "currently": "today", "tomorrow": "tomorrow"})
#: Words that give a temperature its role ("a high of 70f", "lows of 40f").
TEMPERATURE_ROLES = MappingProxyType({"high": "high", "highs": "high", "highest": "high", "hottest": "high",
                                      "low": "low", "lows": "low", "lowest": "low", "coldest": "low"})
#: The words between "same" and the city it extends a statement to ("the same with boston").
SAME_LINKS = frozenset({"with", "for", "in", "at", "as"})
#: Words by which a query follows up on the one before ("what about boston", "how about tuesday").
FOLLOW_UP = frozenset({"about", "and", "also", "then"})


class Check(Protocol):
    """What the weather checks read of the labelling run (:class:`csp_check.score.citod` ``_Check``)."""

    lex: Lexicon
    last: TurnReading | None
    history: list[TurnReading]
    user: TurnReading | None

    def flag(self, label: str, constraint: str, mentions: Sequence[Mention], message: str,
             doubt: str | None = None) -> None: ...


def weather_kb(c: Check) -> None:
    """C5 on the weather row of the city and day said (module docstring)."""
    r = c.last
    assert r is not None
    said_before = {m.value for t in c.history for m in t.mentions}
    for m in r.mentions:
        if m.column == "location" and not m.in_kb and m.value not in said_before:
            c.flag("kbi", "C5", [m], f"turn {r.index} names the city {m.value!r}; the KB has no row of it")
    history_city = [v for t in reversed(c.history) for v in t.values("location")][:1]
    days = [w for w in r.words if w in WEEKDAYS]
    asked_days = [w for w in c.user.words if w in WEEKDAYS] if c.user else []
    for i, m in enumerate(r.mentions):
        if m.column not in ("weather_attribute", "high_temperature", "low_temperature"):
            continue
        before = [x.value for x in r.mentions[:i] if x.column == "location"]
        after = [x.value for x in r.mentions[i + 1:] if x.column == "location"]
        cities = before[-1:] or after[:1] or history_city
        if not cities:
            continue
        city = cities[0]
        day_before = [w for w in r.words[:m.start] if w in WEEKDAYS]
        day_after = [w for w in r.words[m.end:] if w in WEEKDAYS]
        if days:
            day = days[0] if len(days) == 1 else (day_after[:1] or day_before[-1:])[0]
            rows = c.lex.weekday_rows(city, day)
            where = f"on {day}"
        elif len(set(asked_days)) == 1:
            day = asked_days[0]
            rows = c.lex.weekday_rows(city, day)
            where = f"on {day} (the day the user asked about)"
        else:  # today, tomorrow, this week: the day is not known; some day of the city must fit
            rows = c.lex.rows_of("location", city)
            where = "on any day of the KB's week"
        if not rows:
            continue
        denied = r.denied(m) or clearly_negated(r.tokens, m.raw_start, r.denials)
        fitting = [row for row in rows if fits(row, m) != denied]
        if denied and len(rows) > 1:
            if days or not set(r.words) & WHOLE_WEEK:
                continue  # "no hail on friday" is refuted by friday's row; "no hail" by no one day
            if len(fitting) < len(rows):  # "it will not be cloudy at all this week": any day refutes it
                kb = "; ".join(sorted(weather_text(row) for row in rows if fits(row, m)))
                scope = None if clearly_negated(r.tokens, m.raw_start, r.denials) else \
                    "the negation's scope is not one clause: it may deny something else"
                c.flag("kbi", "C5", [m], f"turn {r.index} says no {m.value!r} for {city} all week; the KB "
                       f"has {kb}", scope)
            continue
        if not fitting:
            kb = "; ".join(sorted({weather_text(row) for row in rows}))
            doubt = None if len(days) <= 1 else "several days in the turn: the value may be another day's"
            c.flag("kbi", "C5", [m], f"turn {r.index} says {'no ' if denied else ''}{m.value!r} for {city} "
                   f"{where}; the KB has {kb}", doubt)


def vague_temperatures(c: Check) -> None:
    """KBI for review: a decade ("highs in the 70s", "lows in the sixties") that no temperature of
    the city's rows (on the day said, else the week) falls in. A decade is vague — "in the 70s"
    may round, or speak of most days — so no rule settles it: never certain."""
    r = c.last
    assert r is not None
    cities = [m.value for m in r.mentions if m.column == "location"] or \
        [v for t in reversed(c.history) for v in t.values("location")][:1]
    if len(set(cities)) != 1:
        return
    days = [w for w in r.words if w in WEEKDAYS]
    rows = c.lex.weekday_rows(cities[0], days[0]) if len(set(days)) == 1 else c.lex.rows_of("location", cities[0])
    for at, low in decades(r.words):
        lead = set(r.words[max(0, at - 3):at])
        columns = [col for col, words in (("high_temperature", {"high", "highs"}), ("low_temperature", {"low", "lows"}))
                   if lead & words] or ["high_temperature", "low_temperature"]
        temps = [int(row[col][:-1]) for row in rows for col in columns if row.get(col, "")[:-1].isdigit()]
        if temps and not any(low <= t <= low + 9 for t in temps):
            c.flag("kbi", "C5", [], f"turn {r.index} says {' / '.join(columns)} in the {low}s for {cities[0]}; the KB "
                   f"has {', '.join(sorted({f'{t}f' for t in temps}))}",
                   "a decade is vague ('in the 70s'): it may round or speak of most days")
            return


def statements(t: TurnReading, turns: Sequence[TurnReading]) -> list[tuple[Mention, str, str | None, bool, bool]]:
    """The weather attributes turn ``t`` states: ``(mention, city, day, denied, sure)``. The city
    is the one ``t`` names nearest before the attribute (else after it, else the latest of the
    turns before ``t``); the day the weekday after it (else before it; else "today" /
    "tomorrow"; else ``None``); ``sure`` when ``t`` names at most one city and one day. A city
    after "the same with" / "same for" / "same in" ("not cloudy at all this week, which is the
    same with downtown_chicago") takes the statements said before it, as said of it."""
    out: list[tuple[Mention, str, str | None, bool, bool]] = []
    earlier = _earlier_city(t, turns)
    same = same_cities(t)
    located = [m for m in t.mentions if m.column == "location" and m not in same]
    cities = {m.value for m in located}
    weekdays = [w for w in t.words if w in WEEKDAYS]
    relative = relative_days(t.words)
    for m in t.mentions:
        if m.column != "weather_attribute":
            continue
        city, day = _city_and_day(t, m, located, earlier, relative)
        denied = t.denied(m) or clearly_negated(t.tokens, m.raw_start, t.denials)
        sure = len(cities) <= 1 and len(set(weekdays)) <= 1 and len(set(relative)) <= 1
        if city:
            out.append((m, city, day, denied, sure))
            out += [(m, x.value, day, denied, sure) for x in same if x.start > m.start and x.value != city]
    return out


def _earlier_city(t: TurnReading, turns: Sequence[TurnReading]) -> list[str]:
    """The city the latest turn before ``t`` names (``[]``: none did)."""
    return [v for x in reversed(turns) if x.index < t.index for v in x.values("location")][:1]


def _city_and_day(t: TurnReading, m: Mention, located: list[Mention], earlier: list[str],
                  relative: list[str]) -> tuple[str, str | None]:  # fmt: skip
    """The city and day mention ``m`` of turn ``t`` is said of: the city of ``located`` nearest
    before it, else after it, else ``earlier`` (``""``: none); the weekday after it, else before
    it, else the first of ``relative`` (``None``: no day)."""
    before = [x.value for x in located if x.start < m.start]
    after = [x.value for x in located if x.start > m.start]
    city = (before[-1:] or after[:1] or earlier or [""])[0]
    named_day = ([w for w in t.words[m.end:] if w in WEEKDAYS][:1] or [w for w in t.words[:m.start] if w in WEEKDAYS][-1:]
                 or relative[:1])  # fmt: skip
    return city, named_day[0] if named_day else None


def one_attribute(t: TurnReading) -> bool:
    """Whether turn ``t`` states one weather attribute and denies nothing: what it says of each
    city it names is that attribute, on some day ("cloudy on wednesday in atherton and on friday
    in downtown_chicago")."""
    return not t.negated and sum(m.column == "weather_attribute" for m in t.mentions) == 1


def said_of_cities(t: TurnReading, turns: Sequence[TurnReading]) -> list[tuple[Mention, str, str | None, bool, bool]]:
    """:func:`statements` of ``t``, and, when ``t`` states one attribute (:func:`one_attribute`),
    that attribute of every other city ``t`` names, on a day not known (``sure`` false: only a
    week-long denial, which any day refutes, reads it as certain)."""
    out = statements(t, turns)
    if one_attribute(t) and out:
        m, city, day, denied, _ = out[0]
        out += [(m, x.value, day, denied, False) for x in t.mentions if x.column == "location" and x.value != city]
    return out


def same_cities(t: TurnReading) -> list[Mention]:
    """The cities ``t`` names right after "same" and a preposition ("the same with boston", "same
    goes for boston", "same in boston"): they take what was said of another city before them."""
    out = []
    for m in t.mentions:
        lead = t.words[max(0, m.start - 3):m.start]
        if (m.column == "location" and "same" in lead and lead[-1] in SAME_LINKS
                and not set(t.words[max(0, m.start - 5):m.start]) & {"not", "t", "isn", "no"}):  # "not the same with"
            out.append(m)
    return out


def relative_days(words: list[str]) -> list[str]:
    """The days ``words`` name relative to the dialogue's own day, as "today" / "tomorrow":
    "tonight", "currently", "right now" are "today" (:data:`RELATIVE_DAYS`)."""
    out = [RELATIVE_DAYS[w] for w in words if w in RELATIVE_DAYS]
    out += ["today" for a, b in zip(words, words[1:], strict=False) if (a, b) == ("right", "now")]
    return out


def days_of(t: TurnReading) -> list[str]:
    """The days turn ``t`` names: its weekdays and its relative days ("today", "tomorrow")."""
    return [w for w in t.words if w in WEEKDAYS] + relative_days(t.words)


def weather_history(c: Check) -> None:
    """HI, C2 across turns: ``r``'s weather statements agree with the earlier system turns' of
    the same city and day (module docstring)."""
    r = c.last
    assert r is not None
    if r.question:
        return
    turns = [*c.history, r]
    week = bool(set(r.words) & WHOLE_WEEK)
    found: list[tuple[list[Mention], str, str | None]] = []
    for m, city, day, denied, sure in statements(r, turns):
        for t in c.history:
            if t.speaker != "system" or t.question:
                continue
            for h, h_city, h_day, h_denied, h_sure in said_of_cities(t, turns):
                if h_city != city:
                    continue
                agree = weather_agree(stem(h.value), stem(m.value))
                if day is not None and h_day == day:
                    broken = (not denied and not h_denied and not agree) or (denied != h_denied and agree)
                elif day is None and denied and week and not h_denied and h_day is not None:
                    broken = agree  # "not cloudy at all this week" after "cloudy on friday"
                    h_sure = h_sure or one_attribute(t)  # any of its days refutes the week: which one is moot
                else:
                    broken = False
                if broken:
                    doubt = None if sure and h_sure else "a turn names several cities or days: the statements " \
                        "may be of different ones"
                    if weather_near(stem(h.value), stem(m.value)):
                        doubt = f"{h.value!r} and {m.value!r} are near: one may describe the other"
                    found.append(([h, m], f"turn {r.index} says {'no ' if denied else ''}{m.value!r} for "
                                  f"{city} {('on ' + day) if day else 'all week'}; turn {t.index} said "
                                  f"{'no ' if h_denied else ''}{h.value!r} {('on ' + h_day) if h_day else ''}", doubt))
    _flag_surest(c, found)


def _flag_surest(c: Check, found: list[tuple[list[Mention], str, str | None]]) -> None:
    """Flag one HI contradiction of ``found`` (``(mentions, message, doubt)``): the first certain
    one, else the first for review. A for-review pair (an earlier turn naming several cities) does
    not hold back a certain one a later turn makes."""
    if found:
        mentions, message, doubt = next((x for x in found if x[2] is None), found[0])
        c.flag("hi", "C2", mentions, message, doubt)


def temperatures(t: TurnReading, turns: Sequence[TurnReading]) -> list[tuple[Mention, str, str | None, str | None]]:
    """The temperatures turn ``t`` states: ``(mention, city, day, role)``, the city and day bound
    as :func:`statements` binds them; the role ``high`` or ``low`` by a word of
    :data:`TEMPERATURE_ROLES` among the three before it, else by a range ("40f-60f", "40f to
    60f", "between 40f and 60f": the first the low, the second the high), else ``None``."""
    out: list[tuple[Mention, str, str | None, str | None]] = []
    earlier = _earlier_city(t, turns)
    located = [m for m in t.mentions if m.column == "location"]
    temps = [m for m in t.mentions if m.column in ("high_temperature", "low_temperature")]
    relative = relative_days(t.words)
    for k, m in enumerate(temps):
        city, day = _city_and_day(t, m, located, earlier, relative)
        lead = t.words[max(0, m.start - 3):m.start]
        roles = [TEMPERATURE_ROLES[w] for w in lead if w in TEMPERATURE_ROLES]
        role = roles[-1] if roles else None
        if role is None:
            nxt = temps[k + 1] if k + 1 < len(temps) else None
            prev = temps[k - 1] if k else None
            if nxt is not None and t.words[m.end:nxt.start] in (["-"], ["to"], ["and"]):
                role = "low"
            elif prev is not None and t.words[prev.end:m.start] in (["-"], ["to"], ["and"]):
                role = "high"
        if city and not t.denied(m):
            out.append((m, city, day, role))
    return out


def temperature_history(c: Check) -> None:
    """HI, C2 across turns: a temperature ``r`` gives a city on a day is the one an earlier system
    turn gave it (module docstring): another of the same role, or, when the earlier turn gave
    both the low and the high, one that is neither."""
    r = c.last
    assert r is not None
    if r.question:
        return
    turns = [*c.history, r]
    mine = temperatures(r, turns)
    found: list[tuple[list[Mention], str, str | None]] = []
    for t in c.history:
        if t.speaker != "system" or t.question:
            continue
        theirs = temperatures(t, turns)
        for m, city, day, role in mine:
            same = [(h, h_role) for h, h_city, h_day, h_role in theirs if h_city == city and h_day == day and day]
            both = {h_role for _, h_role in same} == {"low", "high"}
            broken = [h for h, h_role in same if (role and h_role == role and h.value != m.value)]
            if not broken and both and m.value not in {h.value for h, _ in same}:
                broken = [h for h, _ in same]
            if broken:
                sure = all(len({x.value for x in x_turn.mentions if x.column == "location"}) <= 1
                           and len(set(days_of(x_turn))) <= 1 for x_turn in (r, t))
                found.append(([broken[0], m], f"turn {r.index} gives {city} {m.value} on {day}"
                              f"{' as its ' + role if role else ''}; turn {t.index} gave "
                              f"{', '.join(sorted({h.value for h, _ in same}))}",
                              None if sure else "a turn names several cities or days: the temperatures may be of "
                              "different ones"))
    _flag_surest(c, found)


def day_switch(c: Check) -> None:
    """HI and QI, C2 across turns: the day an earlier user turn settled ("will it rain in boston
    on monday"), for a query naming none ("what about in boston"), is the day ``r``'s weather is
    of: ``r`` naming only other days switches it. A weekday against "today" / "tomorrow" is for
    review: the KB does not say which weekday today is."""
    r, u = c.last, c.user
    assert r is not None
    if u is None or r.question or days_of(u) or not any(m.column in WEATHER_COLUMNS for m in r.mentions):
        return
    earlier = next((x for x in reversed(c.history) if x.speaker == "user" and x.index < u.index and days_of(x)), None)
    said = set(days_of(r))
    day = settled_day(earlier) if earlier is not None else None
    if day is None or not said or day in said:
        return
    kinds = {d in WEEKDAYS for d in said | {day}}
    doubt = None if len(kinds) == 1 else "a weekday and a day relative to today: the KB does not say which " \
        "weekday today is"
    for label in ("hi", "qi"):
        c.flag(label, "C2", [], f"turn {r.index} is about {', '.join(sorted(said))}; turn {earlier.index} "
               f"asked about {day} and the query names no day", doubt)


def settled_day(t: TurnReading) -> str | None:
    """The one day user turn ``t`` asks about (a weekday, "today", "tomorrow"), ``None`` when it
    names several or speaks of a span ("this week", "the weekend", "the 7 day forecast")."""
    days = set(days_of(t))
    if len(days) != 1 or set(t.words) & (WHOLE_WEEK | {"days", "weekend", "next_week"}) \
            or any(a.isdigit() and b == "day" for a, b in zip(t.words, t.words[1:], strict=False)):
        return None
    return days.pop()


def weather_follow_up(c: Check) -> None:
    """HI: a follow-up query asking for no weather column of its own carries the one the user's
    earlier turn asked for; ``r`` stating only other columns swaps it (module docstring)."""
    r, u = c.last, c.user
    assert r is not None
    if u is None or r.question or u.requests & set(WEATHER_COLUMNS):
        return
    if not (set(u.words) & FOLLOW_UP or any(m.column == "location" for m in u.mentions)
            or set(u.words) & set(WEEKDAYS)):
        return
    earlier = next((x for x in reversed(c.history) if x.speaker == "user" and x.index < u.index
                    and x.requests & set(WEATHER_COLUMNS)), None)
    if earlier is None:
        return
    asked = earlier.requests & set(WEATHER_COLUMNS)
    if asked == set(WEATHER_COLUMNS):
        return  # "what is the weather": every column answers it
    stated = [m for m in r.mentions if m.column in WEATHER_COLUMNS]
    if stated and not any(m.column in asked for m in stated):
        c.flag("hi", "C2", stated[:1], f"turn {r.index} states {', '.join(sorted({m.column for m in stated}))}; "
               f"turn {earlier.index} asked for {', '.join(sorted(asked))} and the query asks for nothing else")


__all__ = ["RELATIVE_DAYS", "SAME_LINKS", "TEMPERATURE_ROLES", "day_switch", "days_of", "relative_days",
           "same_cities", "settled_day", "temperature_history", "temperatures", "WEATHER_COLUMNS", "WHOLE_WEEK", "Check", "statements", "vague_temperatures",
           "weather_follow_up", "weather_history", "weather_kb"]
