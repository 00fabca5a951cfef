"""A corpus profile: what is particular to one corpus (MultiWOZ, SGD, ConvLab-3, our JSONL, raw
text), as data the checks read instead of naming a corpus.

The build context carries the profile of the dialogue it builds
(:attr:`csp_check.build.context.BuildContext.profile`, picked by
:func:`csp_check.corpora.profile_for`); the families, the builder and the assignment read the
columns, bounds and conventions they need from it. A profile holds two kinds of knowledge:

- **conventions of a format**: whether its acts carry canonical values, which belief-state slots
  it fixes per domain, where it keeps the results the system saw, its "today";
- **a column vocabulary**: which columns are time bounds, name an entity, are searched by,
  describe one entity, name a kind, and the words that name kinds.

This module imports nothing of csp_check: the language helpers below the build read the
profiles too (:mod:`csp_check.corpora`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

_EMPTY: Mapping = MappingProxyType({})


@dataclass(frozen=True)
class CorpusProfile:
    """The conventions and column vocabulary of one corpus (module docstring). Frozen: a profile
    is shared by every dialogue of its corpus (its tables are read-only mappings); a variant is
    :func:`dataclasses.replace` of another."""

    name: str
    """The profile's name: ``multiwoz``, ``convlab``, ``sgd``, ``jsonl``, ``text``."""
    formats: frozenset[str]
    """The readers (:data:`csp_check.readers.READERS` names, ``Dialogue.format``) whose
    dialogues get this profile."""

    # -- conventions of the format -----------------------------------------------------------
    today: date | None = None
    """The day a dialogue takes as "today" when its own acts anchor none (or tie with it):
    SGD's Friday 2019-03-01; ``None``: a relative day ("tomorrow") is then no claim
    (:func:`csp_check.delexicalize.assignment.dialogue_today`)."""
    canonical_acts: bool = False
    """Whether the format's acts always carry the dataset's canonical values (SGD
    ``canonical_values``), so a call argument is comparable with the user's words (S1)."""
    state_slots: Mapping[str, frozenset[str]] | None = None
    """Domain → the slots the format's belief state has, when the format fixes them (MultiWOZ
    2.x ``semi`` and ``book``); ``None``: any slot of the service (S1: a user value for another
    slot has no place in the state)."""
    own_results: str | None = None
    """Where the format carries the KB results the system saw (``service_results``,
    ``db_results``, ``turns[].kb_results``); ``None``: the format has none (``--kb`` needed)."""
    results_cap: int | None = None
    """How many entities a result holds at most (SGD's ``service_results``: 10): a result that
    full may have left entities out, so a count above it ("I found 12") is not refuted by it."""
    system_values_stated: bool = False
    """Whether a value a system act gives is stated even when its sentence asks ("How about United
    Airlines?", "Would you like to fly with United?"): SGD's OFFER and CONFIRM acts commit the system
    to a result's values whatever the wording (the schema-guided annotation). MultiWOZ's wizards ask
    about values they have not checked ("would you like one in the north?"), so not there."""

    # -- the column vocabulary -----------------------------------------------------------------
    lower_bounds: frozenset[str] = frozenset()
    """Search slots whose value is a lower bound on the entity's time, not a value to match:
    MultiWOZ ``leaveAt`` ("leave after 17:00": entity >= 17:00)."""
    upper_bounds: frozenset[str] = frozenset()
    """Search slots whose value is an upper bound on the entity's time: MultiWOZ ``arriveBy``
    ("arrive by 12:00": entity <= 12:00)."""
    entity_columns: frozenset[str] = frozenset()
    """Columns that name one entity (MultiWOZ ``name``, ``trainID``): no equality filter of a
    search, they pick one entity."""
    entity_name_suffix: str = ""
    """The ending of a column that names one entity (SGD ``restaurant_name``, ``movie_name``)."""
    place_name_suffixes: tuple[str, ...] = ()
    """Endings of ``entity_name_suffix`` columns that name a place a trip goes through, not the
    entity (SGD ``origin_airport_name``, ``*_station_name``)."""
    search_columns: frozenset[str] = frozenset()
    """The columns a search filters by, closed sets of values (what a count or a no-result can be
    about); the other columns (phone, postcode, price, …) are open."""
    domain_search: Mapping[str, frozenset[str]] = field(default_factory=lambda: _EMPTY)
    """Domain → the columns its searches use: a count's own words may name them before the
    belief state does ("three options: British")."""
    detail_columns: frozenset[str] = frozenset()
    """Columns that describe one entity rather than a search: given alone, they are about the
    entity under discussion ("its postcode is cb58sx")."""
    identifying_columns: frozenset[str] = frozenset()
    """Open columns whose value identifies one entity: exactly another domain's value is that
    entity's (an address, a phone, a postcode)."""
    entity_text_columns: frozenset[str] = frozenset()
    """Columns whose values name one entity or its address, so a part of the value names it too
    ("the Gonville" = "gonville hotel")."""
    name_column: str = ""
    """The column of an entity's name (its words name kinds: "four churches")."""
    address_column: str = ""
    """The column of an entity's street address."""
    postcode_column: str = ""
    """The column of an entity's postcode (written with its address or apart)."""
    postcode_pattern: str = ""
    """A regular expression (full match) for a postcode written where the address is annotated
    (MultiWOZ's Cambridge ``cb`` codes)."""
    kind_column: str = ""
    """The column that says which kind an entity is (MultiWOZ ``type``: hotel, guesthouse,
    museum, …); a table restricted to one kind is :func:`csp_check.families.kb_common.kind_table`."""
    generic_kinds: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """Domain → the kind value that is also the word for any entity of the domain (MultiWOZ's
    hotel type "hotel": "29 hotels" counts guesthouses too), so as a filter it filters nothing."""
    hypernyms: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """A word for a kind → the other kind it also names ("hotel" for a guesthouse)."""
    listed_columns: frozenset[str] = frozenset()
    """Columns whose values a count's sentence may list to count any of them ("in the centre and
    north", "cheap or moderate"); listed kinds are examples, not a restriction."""
    amenities: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    """A word for a yes/no amenity → its column ("wifi" → ``internet``): what a user "doesn't
    need" (no filter) or a "no" that means not needed."""
    part_column: str = ""
    """The column that names an entity as a part of a place (MultiWOZ's hospital
    ``department``): a detail said with no part named is the place's own."""
    arrival_column: str = ""
    """The column of a trip's arrival time, compared on the clock when it is after midnight
    (MultiWOZ ``arriveBy``)."""
    trip_times: tuple[tuple[str, str], ...] = ()
    """(departure, arrival) column pairs of one trip: an arrival written earlier on the clock
    than its departure is on the next day."""
    trip_id_column: str = ""
    """The column of a trip's id (MultiWOZ ``trainID``)."""
    trip_id_pattern: str = ""
    """A regular expression (full match, normalised text) for an id of the KB's form."""
    day_column: str = ""
    """The column of the day an entity runs on (a count "a day" is of one day's entities)."""
    area_column: str = ""
    """The column of the part of town (an area the whole city overrides)."""
    fee_column: str = ""
    """The column of an entrance fee (a fee said without its amount is "charged")."""
    priced_columns: frozenset[str] = frozenset()
    """Columns whose values are amounts of money (a wording that is no amount is no claim)."""
    fare_column: str = ""
    """The column of a ticket's price (a total for the party is read per ticket)."""
    duration_column: str = ""
    """The column of a trip's duration in minutes."""
    number_slots: frozenset[str] = frozenset()
    """Slots whose values are numbers: an annotated number word is its number ("four" stars)."""
    party_slots: tuple[str, ...] = ()
    """Slots of a party size, in the order a booking's size is looked up."""
    booked_numbers: frozenset[str] = frozenset()
    """Booking slots whose confirmed number is the one asked for (party size, length of stay)."""

    # -- readings of the vocabulary ------------------------------------------------------------
    @property
    def bounds(self) -> frozenset[str]:
        """Search slots that are bounds (:attr:`lower_bounds` and :attr:`upper_bounds`)."""
        return self.lower_bounds | self.upper_bounds

    @property
    def not_filters(self) -> frozenset[str]:
        """Belief-state slots that are no equality filter of a search: the entity columns (a name
        picks one entity) and the bounds ("leave after 12:45")."""
        return self.entity_columns | self.bounds

    def search_op(self, slot: str) -> str:
        """How a search filter on ``slot`` compares the entity's value with its own: ``>=`` for
        a lower bound, ``<=`` for an upper bound, else ``=``."""
        return ">=" if slot in self.lower_bounds else "<=" if slot in self.upper_bounds else "="

    def names_entity(self, slot: str) -> bool:
        """Whether column ``slot`` names one entity: an :attr:`entity_columns` column, or one
        ending in :attr:`entity_name_suffix` but in no :attr:`place_name_suffixes`."""
        return slot in self.entity_columns or (
            bool(self.entity_name_suffix) and slot.endswith(self.entity_name_suffix)
            and not slot.endswith(self.place_name_suffixes))

    def is_generic(self, domain: str, slot: str, value: object) -> bool:
        """Whether ``value`` of ``domain.slot`` is the generic kind of the domain
        (:attr:`generic_kinds`): as a filter it filters nothing."""
        return slot == self.kind_column and domain in self.generic_kinds and value == self.generic_kinds[domain]
