"""CI-ToD (reader ``citod``): KVRET's in-car dialogues, each with its own KB, labelled for the
consistency of the last system response (Qin et al., EMNLP 2021).

The profile carries the conventions every profile shares (the column vocabulary the checks
apply to every format is MultiWOZ's; KVRET's columns are none of its, so the shared tables do not
change): the KB rows are the dialogue's own (``turns[0].kb_results``). What is particular to
KVRET — its columns, which of them name an entity, the words that ask for a column, its day
words — is below, read by the CI-ToD labels (:mod:`csp_check.score.citod_read`).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from csp_check.corpora.multiwoz import MULTIWOZ

CITOD = replace(MULTIWOZ, name="citod", formats=frozenset({"citod"}), state_slots=None,
                own_results="turns[0].kb_results")

#: Domain → the column that names one entity of the KB (KVRET): a place, an event, a city.
ENTITY_COLUMN = MappingProxyType({"navigate": "poi", "calendar": "event", "weather": "location"})
#: Domain → the columns that describe one entity (its attributes), the entity column excluded.
ATTRIBUTE_COLUMNS = MappingProxyType({
    "navigate": ("address", "distance", "traffic_info", "poi_type"),
    "calendar": ("date", "time", "party", "room", "agenda"),
    "weather": ("weather_attribute", "high_temperature", "low_temperature"),
})
#: The days of a weather KB (one row per location and day).
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: The word KVRET's KB writes for "no value" (a calendar row without room or agenda).
NO_VALUE = "-"
