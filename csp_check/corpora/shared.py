"""The column words of every corpus, for code that runs without a dialogue and so without its
profile: a KB table normalised when it is loaded, the checker's explanations and the primitives
the solvers share, the language helpers that read a slot's text. Each table is the union of the
profiles' (:data:`csp_check.corpora.PROFILES`) or says which corpus each entry is from.
"""

from __future__ import annotations

from csp_check.corpora import PROFILES


def _merged(items) -> tuple:  # type: ignore[no-untyped-def]
    """``items`` without repeats, in first-seen order."""
    return tuple(dict.fromkeys(items))


#: (departure, arrival) column pairs of one trip in any corpus (:attr:`CorpusProfile.trip_times`):
#: an arrival written earlier on the clock than its departure is on the next day.
TRIP_TIMES: tuple[tuple[str, str], ...] = _merged(pair for p in PROFILES for pair in p.trip_times)
#: The columns of a trip's departure or arrival time in any corpus: they take clock times.
TRIP_TIME_COLUMNS: frozenset[str] = frozenset(column for pair in TRIP_TIMES for column in pair)
#: The arrival columns of any corpus (:attr:`CorpusProfile.arrival_column`), compared on the clock
#: after midnight.
ARRIVAL_COLUMNS: tuple[str, ...] = _merged(p.arrival_column for p in PROFILES if p.arrival_column)

#: The slots that are bounds in any corpus (:attr:`CorpusProfile.bounds`): "after 19:45" is kept by a
#: state of 20:00 (S1 reads a bound's words without its dialogue's profile).
BOUND_SLOTS: frozenset[str] = frozenset(slot for p in PROFILES for slot in p.bounds)

#: Columns whose values name kinds of food, where a value qualified by leading words is a kind of
#: that value (``modern european`` under "European"): MultiWOZ ``food``, SGD ``cuisine``.
QUALIFIED_COLUMNS = frozenset({"food", "cuisine"})

#: The columns that give an entity's label in an explanation, the first it has: MultiWOZ's
#: (``name``, ``trainID``, the hospital's ``department``), then SGD's.
LABEL_COLUMNS: tuple[str, ...] = (
    "name", "trainID", "department",  # MultiWOZ
    "restaurant_name", "hotel_name", "title", "movie_name", "event_name", "property_name", "song_name",
    "car_name", "airlines", "attraction_name",  # SGD
)

#: (origin slot, destination slot) pairs of a trip, in the order the role words try them
#: (:mod:`csp_check.language.roles`): SGD's, MultiWOZ's ``departure`` / ``destination``, SGD's
#: rental cars.
TRIP_ROLES: tuple[tuple[str, str], ...] = (
    ("origin", "destination"),  # SGD
    ("origin_city", "destination_city"),
    ("origin_airport", "destination_airport"),
    ("origin_airport_name", "destination_airport_name"),
    ("origin_station_name", "destination_station_name"),
    ("from_location", "to_location"),
    ("from_station", "to_station"),
    ("departure", "destination"),  # MultiWOZ
    ("pickup_location", "dropoff_location"),  # SGD
)

#: The columns whose values name one entity or its address in any corpus
#: (:attr:`CorpusProfile.entity_text_columns`): a KB table indexes their words without its dialogue.
ENTITY_TEXT_COLUMNS: frozenset[str] = frozenset(c for p in PROFILES for c in p.entity_text_columns)
