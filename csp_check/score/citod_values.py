"""The closed value sets of KVRET's KB columns, by the words speakers use for them, and the scope of
a negation over a stated value.

Reading rules

- a **paraphrase** of a closed value names that value of its column: "jammed", "congested", "bad
  traffic" → ``heavy_traffic``; "clear roads", "traffic free" → ``no_traffic``; "sunny" → the
  weather attribute ``clear``; "showers", "drizzling" → ``drizzle`` (:data:`PARAPHRASES`, keyed by
  the column's values, not by any dialogue's words);
- two **weather attributes agree** when they are one by their stem ("raining" and "rain") or of
  one group of :data:`WEATHER_GROUPS` ("clear", "skies" and "sunny"); any other two differ, near
  ones too ("drizzle" and "rain", "misty" and "foggy"), though near ones
  (:data:`WEATHER_NEAR`) said in two turns contradict no certain reading of the history;
- a **negation's scope is clear** over a value when the negation is among the four tokens before
  it in one clause with only the words of a predicate between (:data:`SCOPE_FILLERS`: "it is not
  5_miles away", "there is no heavy_traffic", "it won t rain"); a denial of a wider scope ("i don t
  think the route to X has heavy_traffic") is a negation no rule settles: for review.

Source: KVRET's KB columns (Eric et al., SIGDIAL 2017: ``traffic_info`` and ``weather_attribute``
take values of small closed sets) and the English words for traffic and weather.
"""

from __future__ import annotations

from types import MappingProxyType

#: Column → value → the phrases that name the value (closed value sets of KVRET's KB).
PARAPHRASES = MappingProxyType({
    "traffic_info": {
        "heavy_traffic": ("jammed", "jam", "jams", "congested", "congestion", "bad traffic", "lots of traffic",
                          "a lot of traffic", "heavy congestion", "bumper to bumper", "gridlock"),
        "no_traffic": ("clear roads", "clear road", "road is clear", "roads are clear", "route is clear",
                       "way is clear", "traffic free", "no congestion", "free of traffic", "without traffic",
                       "no traffic"),
        "moderate_traffic": ("moderate congestion", "some traffic", "medium traffic"),
        "road_block_nearby": ("road block", "roadblock", "road closure", "road closed", "blocked road"),
        "car_collision_nearby": ("accident", "car accident", "collision", "crash", "car crash"),
    },
    "weather_attribute": {
        "clear": ("sunny", "sunshine", "sun", "clear skies", "clear sky"),
        "drizzle": ("drizzling", "showers", "shower", "sprinkles", "drizzles"),
        "rain": ("rainy", "rains", "downpour"),
        "stormy": ("storm", "storms", "thunderstorm", "thunderstorms"),
        "snow": ("snowy", "snowing", "snowfall", "snows"),
        "cloudy": ("clouds", "cloud"),
        "foggy": ("fog",),
        "misty": ("mist",),
        "windy": ("wind", "winds", "breezy", "gusty"),
        "humid": ("humidity", "muggy"),
    },
})
#: Groups of weather attributes that agree (one is no contradiction of another), by their stems
#: (:func:`csp_check.score.citod_words.stem`: "skies" → "skie", "foggy" → "fogg").
#: Only KVRET's "clear skies" (written ``clear`` or ``skies``) and "sunny" are one: the KB's other
#: values are a closed set whose members contradict each other, near ones too (CI-ToD labels
#: "raining" against a KB's ``drizzle`` and "foggy" against ``misty`` inconsistent).
WEATHER_GROUPS = (frozenset({"clear", "skie", "sunn"}),)
#: Groups of weather attributes near enough that one may describe the other ("drizzle" is light
#: rain; "overcast" is cloudy), by their stems: across turns, one said after the other is no
#: certain contradiction (for review), though each differs from the KB's value (CI-ToD's KBI).
WEATHER_NEAR = (frozenset({"drizzle", "rain", "storm"}), frozenset({"fogg", "fog", "mist"}),
                frozenset({"overcast", "cloud"}), frozenset({"snow", "blizzard"}), frozenset({"hot", "warm"}),
                frozenset({"frost", "snow"}))
#: The words a clear negation may put between itself and the value it negates ("is not
#: 5_miles", "won t be any heavy_traffic", "there is no rain expected").
SCOPE_FILLERS = frozenset({"be", "is", "are", "was", "have", "has", "any", "a", "an", "the", "there", "t", "s",
                           "going", "to", "gonna", "really", "currently", "expected", "predicted", "it", "will",
                           "much", "more", "than", "only", "exactly", "even"})
#: Words that end a clause: a negation before them has no scope over what follows.
CLAUSE_ENDS = frozenset({"but", "and", "or", "so", "while", "because", "though", ",", ".", "?", "then", "which",
                         "that"})


def clearly_negated(tokens: list[str], start: int, negations: list[int]) -> bool:
    """Whether a negation at one of ``negations`` (token positions) is among the four tokens before
    ``start`` with only :data:`SCOPE_FILLERS` between (module docstring)."""
    return any(0 < start - i <= 4 and all(w in SCOPE_FILLERS for w in tokens[i + 1:start]) for i in negations)


def weather_agree(a: str, b: str) -> bool:
    """Whether the weather attributes of stems ``a`` and ``b`` agree (module docstring)."""
    return a == b or any(a in g and b in g for g in WEATHER_GROUPS)


def weather_near(a: str, b: str) -> bool:
    """Whether the weather attributes of stems ``a`` and ``b`` differ but are near
    (:data:`WEATHER_NEAR`: "drizzle" and "rain")."""
    return not weather_agree(a, b) and any(a in g and b in g for g in WEATHER_NEAR)


__all__ = ["CLAUSE_ENDS", "PARAPHRASES", "SCOPE_FILLERS", "WEATHER_GROUPS", "WEATHER_NEAR", "clearly_negated",
           "weather_agree", "weather_near"]
