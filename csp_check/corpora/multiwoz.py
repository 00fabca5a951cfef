"""MultiWOZ 2.x (readers ``multiwoz``, ``multiwoz22``): Cambridge restaurants, hotels,
attractions, trains and taxis, searched by the belief state against the MultiWOZ DB (``--kb``).

Its column vocabulary is the one the checks were written against; the other profiles carry it
too (each says why), so this module is where MultiWOZ's words live.
"""

from __future__ import annotations

from types import MappingProxyType

from csp_check.corpora.profile import CorpusProfile

#: The belief-state slots of MultiWOZ 2.x (``metadata`` ``semi`` and ``book``, by DB column):
#: fixed per domain. A user value for any other slot (an address, a phone) has no place in the
#: state, so its absence there is no omission (S1).
STATE_SLOTS = MappingProxyType({
    "taxi": frozenset({"leaveAt", "destination", "departure", "arriveBy"}),
    "restaurant": frozenset({"food", "pricerange", "name", "area", "book people", "book day", "book time"}),
    "hotel": frozenset({"name", "area", "parking", "pricerange", "stars", "internet", "type",
                        "book people", "book day", "book stay"}),
    "attraction": frozenset({"type", "name", "area"}),
    "train": frozenset({"leaveAt", "destination", "day", "arriveBy", "departure", "book people"}),
    "bus": frozenset({"leaveAt", "destination", "day", "arriveBy", "departure", "book people"}),
    "hospital": frozenset({"department"}),
    "police": frozenset(),
})

MULTIWOZ = CorpusProfile(
    name="multiwoz",
    formats=frozenset({"multiwoz", "multiwoz22"}),
    state_slots=STATE_SLOTS,
    lower_bounds=frozenset({"leaveAt"}),  # "leave after 12:45"
    upper_bounds=frozenset({"arriveBy"}),  # "arrive by 17:00"
    entity_columns=frozenset({"name", "trainID"}),
    # SGD's naming columns (restaurant_name, movie_name; not the airports and stations a trip
    # passes): every format names entities both ways today (ConvLab-3 unified also holds SGD)
    entity_name_suffix="_name",
    place_name_suffixes=("airport_name", "station_name"),
    search_columns=frozenset({"area", "type", "food", "pricerange", "stars", "internet", "parking", "day",
                              "departure", "destination"}),
    domain_search=MappingProxyType({
        "attraction": frozenset({"area", "type"}), "restaurant": frozenset({"area", "food", "pricerange"}),
        "hotel": frozenset({"area", "type", "pricerange", "stars", "internet", "parking"}),
        "train": frozenset({"day", "departure", "destination"}),
    }),
    detail_columns=frozenset({"address", "phone", "postcode", "entrance fee", "openhours", "price", "duration"}),
    identifying_columns=frozenset({"address", "phone", "postcode"}),
    entity_text_columns=frozenset({"name", "address"}),
    name_column="name",
    address_column="address",
    postcode_column="postcode",
    postcode_pattern=r"cb\s?\d{1,2}\s?\d?\s?[a-z]{2}",  # Cambridge's postcodes, "cb21ug", "CB23 6BW"
    kind_column="type",
    generic_kinds=MappingProxyType({"hotel": "hotel"}),  # "29 hotels" counting guesthouses: the word for any place to stay
    hypernyms=MappingProxyType({"hotel": "guesthouse"}),  # "a hotel" said of a guesthouse
    listed_columns=frozenset({"area", "pricerange"}),  # where, at what price ("in the centre and north")
    amenities=MappingProxyType({"parking": "parking", "wifi": "internet", "internet": "internet"}),
    part_column="department",  # the hospital's departments
    arrival_column="arriveBy",
    trip_times=(("leaveAt", "arriveBy"),),  # the train table: TR6219 leaves 23:21, arrives "01:06"
    trip_id_column="trainID",
    trip_id_pattern=r"tr\d{4}",  # one row per run: "tr" + 4 digits
    day_column="day",
    area_column="area",
    fee_column="entrance fee",
    priced_columns=frozenset({"entrance fee", "price"}),
    fare_column="price",
    duration_column="duration",
    number_slots=frozenset({"stars", "book people", "book stay"}),
    party_slots=("book people", "people"),
    booked_numbers=frozenset({"book people", "book stay"}),
)
