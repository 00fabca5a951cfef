"""The CI-ToD KBI label on "the only one" claims (navigate): ``r`` calls a place the only one of
its kind, and the KB has several.

Reading rules

- a **claim** is "only" followed within three tokens by a noun of a claim ("one", "option",
  "place", "listing", "choice", "spot") or a kind of place ("the only grocery_store", "the only
  pizza place"), in a turn that is no question; "only 3_miles away", "the only route", "the route
  to X is the only one" (a route word among the six tokens before "only") claim nothing of the places;
- its **kind** is the kind named after "only" ("the only chinese_restaurant"), else the kind of the
  place ``r`` names, else of the place in focus (the latest a system turn named);
- the **filter in force** is what the user's turns (and ``r``) ask of the place: a distance "within
  N miles" ("in a 3_miles range"), a traffic to avoid ("avoid all heavy_traffic", "with no_traffic");
  the claim is broken when at least two KB places of its kind pass the filter: certain; a vague
  filter ("nearby", "close", "in the area", "local", "quick") is one no rule settles: for review.

Source: the paper's C6-like count of the KB's entities (Labruna & Magnini 2024 §3.2) and
KVRET's navigation KB (Eric et al., SIGDIAL 2017).
"""

from __future__ import annotations

from csp_check.score.citod_weather import Check
from csp_check.score.citod_words import miles

#: Nouns after "only" that make it a claim of the KB's count ("the only option").
CLAIM_NOUNS = frozenset({"one", "option", "options", "place", "listing", "choice", "spot", "location", "store",
                         "restaurant", "station", "garage", "hotel", "hospital", "mall"})
#: Words by which the claim is of a route, not a place ("the only route", "the route is the only one").
ROUTE_WORDS = frozenset({"route", "routes", "way", "path", "road", "roads"})
#: Words of a filter no rule reads as a bound ("the only one nearby", "in the area").
VAGUE_FILTERS = frozenset({"nearby", "near", "close", "closer", "area", "local", "locally", "around", "quick",
                           "quickest", "fastest", "closest", "nearest", "vicinity", "range"})
#: Words before a distance that make it a bound ("within 3_miles", "in a 3_miles range").
WITHIN = frozenset({"within", "under", "less", "range", "radius", "inside"})


def only_claim(c: Check) -> None:
    """KBI, C5 with a count: "X is the only one" while the KB has several of its kind that pass
    the filter in force (module docstring)."""
    r, lex = c.last, c.lex
    assert r is not None
    if lex.domain != "navigate" or r.question or "only" not in r.tokens:
        return
    at = r.tokens.index("only")
    window = r.tokens[at + 1:at + 4]
    kinds = [m for m in r.mentions if m.column == "poi_type" and at < m.raw_start <= at + 3]
    if not kinds and not set(window) & CLAIM_NOUNS or set(r.tokens[max(0, at - 6):at + 4]) & ROUTE_WORDS:
        return  # "the current route is the only one" counts routes, not places
    if kinds:
        kind = kinds[0].value
    else:
        named = [m.value for m in r.mentions if m.column == "poi" and m.in_kb]
        focus = named[:1] or [m.value for t in reversed(c.history) if t.speaker == "system" for m in t.mentions
                              if m.column == "poi" and m.in_kb][:1]
        rows = lex.rows_of("poi", focus[0]) if focus else []
        if not rows:
            return
        kind = rows[0].get("poi_type", "")
    places = [row for row in lex.rows if row.get("poi_type") == kind]
    user_words = [w for t in c.history if t.speaker == "user" for w in t.tokens]
    said = [*user_words, *r.tokens]
    bound = [miles(w) for i, w in enumerate(said) if w.endswith("_miles") and set(said[max(0, i - 3):i]) & WITHIN]
    limit = min((b for b in bound if b is not None), default=None)
    if limit is not None:
        places = [row for row in places if (miles(row.get("distance", "")) or 0) <= limit]
    if "heavy_traffic" in said and set(said) & {"avoid", "avoiding", "no", "without"} or "no_traffic" in user_words:
        places = [row for row in places if row.get("traffic_info") != "heavy_traffic"]
    if len(places) < 2:
        return
    doubt = "a vague filter is in force ('nearby', 'close', 'in the area'): the count may be of fewer places" \
        if set(r.words) & VAGUE_FILTERS and limit is None else None
    names = ", ".join(sorted(row.get("poi", "") for row in places))
    c.flag("kbi", "C5", kinds[:1], f"turn {r.index} claims the only {kind}; the KB has {len(places)}: {names}", doubt)


__all__ = ["CLAIM_NOUNS", "ROUTE_WORDS", "VAGUE_FILTERS", "WITHIN", "only_claim"]
