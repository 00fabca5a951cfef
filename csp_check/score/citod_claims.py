"""The CI-ToD HI label on the history's places (navigate): the last system response ``r`` takes
back what an earlier system turn claimed of the KB's places — the nearest, the only one, none of
a kind — or is about another kind of place than the history (:func:`kind_history`, whose rule is
:mod:`csp_check.score.citod`'s).

Reading rules

- **the nearest reversed**: an earlier system turn (no question) names one place and calls it the
  nearest or closest ("the nearest coffee shop is starbucks"), no negation among the three tokens
  before that word; ``r`` names that place and negates the word ("starbucks is not the nearest
  coffee shop"): HI, certain.
- **the only one reversed**: an earlier system turn claims a place is the only one (:func:`claim_of_only`:
  "stanford_childrens_health is the only hospital"); ``r`` says it is "not the only" one, or that
  there is another of its kind ("there is another hospital"): HI, certain.
- **a kind denied, then offered**: an earlier system turn denies a kind of place ("there is no
  hotel listed that is near you"); ``r`` states one of that kind, undenied ("there is a hotel
  listed that is near you"): HI, certain when ``r`` says it with every filter word the denial had
  (a distance, "near", "nearby", "close", "around", "area", "locally", :data:`FILTER_WORDS`; none,
  or the same), for review when
  the filters differ ("no hotel within 2_miles", then "a hotel 5_miles away" may both be true).

Source: CI-ToD (Qin et al., EMNLP 2021, §2: HI is a contradiction of the dialogue history, the
system's own turns included) and the paper's C2 across turns (Labruna & Magnini 2024 §3.2).
"""

from __future__ import annotations

from collections.abc import Sequence

from csp_check.score.citod_only import CLAIM_NOUNS, ROUTE_WORDS
from csp_check.score.citod_read import Mention, TurnReading
from csp_check.score.citod_weather import Check
from csp_check.score.citod_words import NEAREST

#: Words of a filter a denial of a kind may carry ("no hotel near you").
FILTER_WORDS = frozenset({"near", "nearby", "close", "around", "area", "within", "vicinity", "local", "locally",
                          "here", "range", "radius"})
#: Words by which ``r`` says there is another place ("another", "other").
OTHER_WORDS = frozenset({"another", "other", "others"})


def negated_at(t: TurnReading, at: int, span: int = 3) -> bool:
    """Whether a negation of ``t`` is among the ``span`` tokens before token ``at``."""
    return any(0 < at - d <= span for d in t.denials)


def places(t: TurnReading) -> list[Mention]:
    """The KB places turn ``t`` names, undenied."""
    return [m for m in t.mentions if m.column == "poi" and m.in_kb and not t.denied(m)]


def called_nearest(t: TurnReading) -> tuple[bool, bool]:
    """``(said, negated)``: whether ``t`` has a word of :data:`NEAREST`, and whether a negation
    is before it."""
    at = [i for i, w in enumerate(t.tokens) if w in NEAREST]
    return bool(at), any(negated_at(t, i) for i in at)


def claim_of_only(t: TurnReading) -> bool:
    """Whether ``t`` claims a place is the only one: "only" followed within three tokens by a noun
    of a claim or a kind of place, no route word near it, no negation before it."""
    if "only" not in t.tokens:
        return False
    at = t.tokens.index("only")
    kinds = [m for m in t.mentions if m.column == "poi_type" and at < m.raw_start <= at + 3]
    return bool((kinds or set(t.tokens[at + 1:at + 4]) & CLAIM_NOUNS)
                and not set(t.tokens[max(0, at - 6):at + 4]) & ROUTE_WORDS and not negated_at(t, at))


def kind_of(c: Check, place: str) -> str:
    """The KB kind of ``place`` (``""``: none)."""
    rows = c.lex.rows_of("poi", place)
    return rows[0].get("poi_type", "") if rows else ""


def claims_history(c: Check) -> None:
    """HI, C2 across turns: ``r`` takes back a claim of an earlier system turn (module docstring)."""
    r = c.last
    assert r is not None
    if c.lex.domain != "navigate":
        return
    mine = {m.value for m in places(r)}
    _, near_negated = called_nearest(r)
    found: list[tuple[list[Mention], str, str | None]] = []
    for t in c.history:
        if t.speaker != "system" or t.question:
            continue
        theirs = {m.value for m in places(t)}
        said, negated = called_nearest(t)
        if len(theirs) == 1 and said and not negated and near_negated and theirs <= mine and not r.question:
            (x,) = theirs
            found.append(([], f"turn {r.index} says {x!r} is not the nearest; turn {t.index} called it the nearest", None))
        if len(theirs) == 1 and claim_of_only(t):
            (x,) = theirs
            kind = kind_of(c, x)
            at = r.tokens.index("only") if "only" in r.tokens else -1
            taken_back = at >= 0 and negated_at(r, at, 2)
            others = [i for i, w in enumerate(r.tokens) if w in OTHER_WORDS and not negated_at(r, i)]
            another = any(m.column == "poi_type" and m.value == kind and any(0 < m.raw_start - i <= 2 for i in others)
                          for m in r.mentions)  # "there is another hospital"
            if (taken_back and x in mine) or another:
                found.append(([], f"turn {r.index} says {x!r} is not the only {kind or 'one'}; turn {t.index} "
                              "said it was", None))
        if r.question:
            continue
        denied = {m.value for m in t.mentions if m.column == "poi_type" and t.denied(m)}
        stated = [m for m in r.mentions if m.column == "poi_type" and m.value in denied and not r.denied(m)]
        if stated:
            filters = ({w for w in t.tokens if w in FILTER_WORDS or w.endswith("_miles")},
                       {w for w in r.tokens if w in FILTER_WORDS or w.endswith("_miles")})
            doubt = None if filters[0] <= filters[1] and {w for w in filters[1] if w.endswith("_miles")} <= filters[0] \
                else "the filters differ: the denial may be of places nearer or of another kind of filter"
            found.append((stated[:1], f"turn {r.index} states a {stated[0].value}; turn {t.index} said there is none",
                          doubt))
    if found:  # a certain reading first: a for-review one of an earlier turn does not hold it back
        mentions, message, doubt = next((x for x in found if x[2] is None), found[0])
        c.flag("hi", "C2", mentions, message, doubt)


def kind_history(c: Check, before_query: Sequence[TurnReading], settled: set[str]) -> None:
    """HI and QI, C2 across turns: the kind of place ``r`` names ("the nearest parking_garage")
    is the kind the history is about (the kinds the user asked for, the settled entities'),
    when the user's query names no kind of its own."""
    r, u = c.last, c.user
    assert r is not None
    if c.lex.domain != "navigate" or u is None or any(m.column == "poi_type" for m in u.mentions) or u.other:
        return
    kinds = {m.value for t in before_query if t.speaker == "user" for m in t.mentions if m.column == "poi_type"}
    kinds |= {row.get("poi_type", "") for e in settled for row in c.lex.rows_of("poi", e)}
    if not kinds:
        return
    entities = [m for m in r.mentions if m.column == "poi" and m.in_kb and not r.denied(m)]
    entity_kinds = {row.get("poi_type", "") for m in entities for row in c.lex.rows_of("poi", m.value)}
    for m in r.mentions:
        if m.column == "poi_type" and m.how == "value" and m.value not in kinds and not r.denied(m):
            for label in ("hi", "qi"):
                c.flag(label, "C2", [m], f"turn {r.index} is about a {m.value}; the history is about "
                       f"{', '.join(sorted(kinds))}")
            return
    if entities and not entity_kinds & kinds:
        for label in ("hi", "qi"):
            c.flag(label, "C2", entities[:1], f"turn {r.index} is about {entities[0].value!r} "
                   f"({', '.join(sorted(entity_kinds))}); the history is about {', '.join(sorted(kinds))}")


__all__ = ["FILTER_WORDS", "OTHER_WORDS", "called_nearest", "claim_of_only", "claims_history", "kind_history", "kind_of",
           "negated_at", "places"]
