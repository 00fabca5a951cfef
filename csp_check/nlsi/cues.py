"""Cue phrases per NLSI domain and per slot (the lexicon beside the schema's value lists).

Used by the instruction parser and dialogue grounding (spaCy ``PhraseMatcher`` patterns) and by
the paraphrase templates of :mod:`csp_check.nlsi.build`. The first cue of a domain is its plain
noun; the others are free wordings ("something to do" → Events). Slot cues give free names for
slots beyond the slot name with ``_`` → space (``good_for_kids`` → "kid-friendly").
"""

from __future__ import annotations

import re

from csp_check.nlsi.schema import normalize, spellings

DOMAIN_CUES: dict[str, list[str]] = {
    "Alarm": ["alarm", "alarms", "wake-up alarm"],
    "Banks": ["bank", "banking", "bank account", "money transfer"],
    "Buses": ["bus", "buses", "bus ticket", "coach"],
    "Calendar": ["calendar", "schedule", "appointment on my calendar"],
    "Events": ["events", "event", "something to do", "a show", "concert", "game to watch"],
    "Flights": ["flight", "flights", "a plane ticket", "flying", "airfare"],
    "Homes": ["homes", "home", "an apartment", "a place to rent", "property visit"],
    "Hotels": ["hotels", "hotel", "a hotel room", "accommodation"],
    "HouseStays": ["house stays", "house", "a house to stay in", "a holiday rental", "a stay in a house"],
    "Media": ["media", "a movie at home", "something to stream", "online movies", "a film to watch at home"],
    "Movies": ["movies", "movie", "the cinema", "a film at the theater", "movie tickets"],
    "Music": ["music", "songs", "a song", "something to listen to"],
    "RentalCars": ["rental cars", "rental car", "a car to rent", "a car rental", "renting a car"],
    "Restaurants": ["restaurants", "restaurant", "somewhere to eat", "a place to eat", "dining out", "a bite",
                    "dinner", "lunch", "breakfast", "brunch", "to eat", "eat out"],
    "RideSharing": ["ride sharing", "a ride", "a cab", "a taxi"],
    "Salons": ["salons", "salon", "a haircut", "a hairdresser", "a stylist"],
    "Dentists": ["dentists", "dentist", "dental care", "a dental appointment"],
    "Doctors": ["doctors", "doctor", "a physician", "medical care"],
    "Services": ["services", "a therapist", "therapy"],
    "Travel": ["travel", "places to visit", "tourist attractions", "sightseeing", "attractions"],
    "Weather": ["weather", "the forecast"],
    "Trains": ["trains", "train", "a train ticket", "rail"],
    "Messaging": ["messaging", "a message"],
    "Payment": ["payment", "payments", "a money transfer app"],
}

#: Extra phrases for slots, (domain or "*", slot) → phrases. Boolean slots need them most.
SLOT_CUES: dict[tuple[str, str], list[str]] = {
    ("*", "good_for_kids"): ["kid friendly", "kid-friendly", "child friendly", "good for kids", "family friendly",
                             "for kids", "for children", "with kids", "with children", "child attractions",
                             "take my kids", "take my children"],
    ("*", "has_seating_outdoors"): ["outdoor seating", "outdoor seats", "seating outdoors"],
    ("*", "has_vegetarian_options"): ["vegetarian options", "vegetarian friendly", "vegetarian food"],
    ("*", "serves_alcohol"): ["serves alcohol", "alcohol"],
    ("*", "has_live_music"): ["live music"],
    ("*", "pets_allowed"): ["pets allowed", "pet friendly", "pet-friendly", "allows pets", "allow pets", "allowing pets",
                            "pets are allowed", "pets are welcome"],
    ("*", "has_wifi"): ["wifi", "wi-fi"],
    ("*", "has_laundry_service"): ["laundry service", "laundry"],
    ("*", "smoking_allowed"): ["smoking allowed", "smoking"],
    ("*", "in_unit_laundry"): ["in-unit laundry", "in unit laundry"],
    ("*", "furnished"): ["furnished"],
    ("*", "offers_cosmetic_services"): ["cosmetic services", "cosmetic", "cosmetic options", "cosmetic dentistry"],
    ("*", "is_unisex"): ["unisex"],
    ("*", "refundable"): ["refundable"],
    ("*", "add_insurance"): ["insurance"],
    ("*", "private_visibility"): ["private"],
    ("*", "theater_name"): ["theater", "theatre", "cinema"],
    ("*", "average_rating"): ["rating", "rated", "stars", "star rating"],
    ("*", "star_rating"): ["stars", "star rating", "rated"],
    ("*", "rating"): ["rated", "rating"],
    ("*", "price_range"): ["price range", "priced", "budget"],
    ("*", "airlines"): ["airline", "airlines", "carrier"],
    ("*", "seating_class"): ["seating class", "cabin class", "class"],
    ("*", "category"): ["category", "kind"],
    ("*", "event_type"): ["event type", "type of event"],
    ("*", "genre"): ["genre", "kind of"],
    ("*", "cuisine"): ["cuisine", "food"],
    ("*", "type"): ["type", "specialist"],
    ("*", "car_type"): ["car type", "type of car"],
    ("*", "ride_type"): ["ride type", "type of ride"],
    ("*", "where_to"): ["where to", "destination"],
    ("*", "directed_by"): ["directed by", "director"],
    ("*", "starring"): ["starring", "actor", "with"],
    ("*", "number_of_beds"): ["bedroom", "bedrooms", "beds", "bed"],
    ("*", "number_of_baths"): ["bathroom", "bathrooms", "baths", "bath"],
    ("*", "number_of_rooms"): ["room", "rooms"],
    ("*", "travelers"): ["person", "people", "tickets", "travelers"],
    ("*", "number_of_riders"): ["person", "people", "riders", "seats"],
    ("*", "number_of_seats"): ["people", "seats", "persons"],
    ("*", "party_size"): ["people", "persons"],
    ("*", "passengers"): ["people", "passengers", "seats"],
    ("*", "group_size"): ["people", "persons"],
    ("*", "number_checked_bags"): ["bags", "bag", "checked bags", "luggage"],
    ("*", "number_of_adults"): ["adults", "people"],
    ("*", "free_entry"): ["free entry", "free to enter", "free admission", "free", "without an entry fee", "no entry fee",
                          "without entry fees", "no entry fees", "without an entrance fee"],
    ("*", "shared_ride"): ["shared ride", "share", "shared", "sharing"],
}
#: Domain words too generic to name a request on their own ("I'm going to travel" on a flight).
WEAK_DOMAIN_WORDS = {"travel", "music", "media", "services", "events", "event", "home", "homes", "payment", "messaging",
                     "house"}

BOOL_TRUE = {"true", "yes"}
BOOL_FALSE = {"false", "no"}
NEGATIONS = {"not", "no", "n't", "never", "without", "nothing", "don't", "dont", "avoid"}
ALSO_WORDS = {"also", "too", "additionally", "plus"}
#: Prepositions before a value that point to the slot's role (``to SFO`` → a destination slot).
#: Unit words a count is said with ("tickets for 3 people", "1 Economy class ticket", "a 1 star
#: hotel") → the count slots they name, in order of preference (the first one the domain has
#: wins; :func:`csp_check.nlsi.variants.settle` then moves it to the chosen service's twin).
COUNT_UNITS: dict[str, tuple[str, ...]] = {
    "ticket": ("passengers", "travelers", "group_size", "number_of_tickets", "number_of_seats"),
    "seat": ("number_of_seats", "number_of_tickets", "passengers", "travelers", "group_size"),
    **{w: ("passengers", "travelers", "group_size", "party_size", "number_of_adults", "number_of_riders",
           "number_of_seats", "number_of_tickets")
       for w in ("person", "people", "adult", "passenger", "traveler", "traveller", "rider", "guest")},
    "star": ("star_rating", "average_rating"),
}
ROLE_CUES = {
    "to": ("dest", "to_", "where_to"), "into": ("dest", "to_"), "towards": ("dest", "to_"),
    "from": ("origin", "from_", "departure", "pickup", "leaving"), "out": ("origin", "from_", "departure"),
}
CONDITION_WORDS = {"if", "when", "whenever", "once", "anytime", "while"}
#: How a user turn that answers an agent's offer begins when it accepts it (SGD: a value the
#: system offers and the user accepts enters the dialogue state): "yes", "that works", ….
ACCEPT_CUES = ("yes", "yeah", "yep", "sure", "ok", "okay", "perfect", "great", "fine", "that works", "sounds good",
               "sounds great", "that sounds", "that one", "that is fine", "that s fine", "i like that", "i love that",
               "that would be", "i d like that", "alright", "all right")
#: How a user turn rejects the agent's offer: it begins with one of the first words, or, not
#: beginning with an acceptance cue, asks for another option anywhere.
REJECT_STARTS = ("no", "nope", "not", "none", "neither", "nah")
REJECT_WORDS = {"another", "other", "else", "different", "instead", "others"}


def slot_phrases(domain: str, slot: str) -> list[str]:
    """Phrases naming ``slot`` of ``domain``: the name with ``_`` → space, plus :data:`SLOT_CUES`."""
    phrases = [slot.replace("_", " ")]
    phrases += SLOT_CUES.get(("*", slot), []) + SLOT_CUES.get((domain, slot), [])
    return list(dict.fromkeys(phrases))


def domain_phrases(domain: str) -> list[str]:
    """Phrases naming ``domain``: the name (``RentalCars`` → "rental cars"), then its cues."""

    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", domain).lower()
    return list(dict.fromkeys([domain.lower(), spaced] + DOMAIN_CUES.get(domain, [])))

#: Paraphrases of categorical values, (domain or "*", slot) → [(canonical candidates, phrases)]:
#: the first candidate that is a value of the slot is what the phrases say (:func:`value_cues`;
#: read by dialogue grounding only, so instruction wordings keep their domain cues). "affordable" → moderate, "a concert" → Music, "intermediate" → Standard.
VALUE_CUES: dict[tuple[str, str], list[tuple[tuple[str, ...], list[str]]]] = {
    ("*", "price_range"): [
        (("moderate",), ["affordable", "afforadable", "reasonably priced", "reasonable price", "moderately priced",
                         "mid-priced", "mid priced", "mid-range", "average priced", "average price", "intermediate priced"]),
        (("inexpensive", "cheap"), ["cheap", "inexpensive", "low cost", "low-cost", "low priced", "economical", "cheaply"]),
        (("expensive", "pricey"), ["pricey", "expensive", "upscale", "high-end", "high end", "costly", "costly priced"]),
        (("very expensive", "ultra high-end"), ["very expensive", "very pricey", "very costly", "luxurious", "extremely expensive"]),
    ],
    ("Events", "event_type"): [
        (("Music",), ["concert", "concerts", "gig", "gigs", "musical event", "music event"]),
        (("Sports",), ["game", "games", "match", "matches", "sporting event", "sports event", "sport"]),
        (("Theater",), ["play", "plays", "theatre", "theater"]),
    ],
    ("*", "car_type"): [
        (("Standard",), ["intermediate", "mid-size", "midsize", "mid size", "standard", "medium-sized", "medium sized",
                         "medium size", "mid-sized"]),
        (("Compact",), ["compact", "small car"]),
        (("Full-size",), ["full size", "fullsize", "full-sized", "large car", "big car"]),
    ],
    ("*", "ride_type"): [(("Luxury",), ["luxury", "luxurious"]), (("Regular",), ["regular", "normal"])],
    ("*", "show_type"): [(("3d",), ["3-d", "3 d", "three d"]), (("regular",), ["regular", "normal", "standard"])],
    ("*", "playback_device"): [(("TV",), ["television", "tv"])],
}
VALUE_CUES[("Events", "category")] = VALUE_CUES[("Events", "event_type")]
VALUE_CUES[("*", "type")] = VALUE_CUES[("*", "car_type")]

#: A value word followed by one of these words is no value ("a one way flight" says no passenger
#: count, "a business trip" no seating class): ``{value word: next words}``.
NOT_VALUE_BEFORE: dict[str, set[str]] = {
    "one": {"way", "-", "stop", "of", "more", "day", "thing"},
    "business": {"trip", "meeting", "tour", "travel", "conference", "dinner", "lunch"},
}

#: Words of everyday phrasing: a dialogue value mention made only of them ("to go" for the
#: cuisine "to-go" in "I want to go out") is the phrasing, no value.
FUNCTION_WORDS = {"to", "go", "out", "in", "on", "at", "up", "the", "a", "an", "do", "get", "me", "my", "it", "for",
                  "of", "and", "or", "with", "all", "so", "be", "is", "are", "i", "you", "we", "just", "going"}

#: A value or slot word after one of these words is a pronoun, no value ("find me one", "a good one",
#: "the best one" say no count), or the speaker's state ("I'm free" names no free entry):
#: ``{word: previous words}``.
NOT_VALUE_AFTER: dict[str, set[str]] = {
    "one": {"me", "us", "the", "a", "an", "any", "good", "nice", "best", "great", "cheap", "another", "this", "that",
            "which", "each", "every", "other", "new", "right", "perfect", "fine", "decent", "first"},
    "free": {"am", "'m", "'re", "m", "re"},  # "I am free for some days": the speaker's time, no free entry
}

#: Words that ask for a domain in a dialogue though they name none of its cue phrases; read by
#: dialogue grounding only when the user names no domain at all ("I'm hungry", "call me a cab").
REQUEST_CUES: dict[str, list[str]] = {
    "Restaurants": ["dine", "dine in", "dining", "eating place", "hungry", "a meal", "eat", "food", "eatery", "eateries",
                    "meal", "place to eat"],
    "Music": ["song", "listen to", "play a"],
    "Events": ["activities", "activity", "happening", "something interesting", "things to do", "something fun",
               "do something",
               "concert", "concerts", "match", "matches", "sports game", "games", "going on", "entertainment", "gig"],
    "Movies": ["film", "films", "theatre", "theater", "cinema"],
    "Flights": ["plane ticket", "oneway ticket", "one way ticket", "plane", "airline", "airlines", "fly"],
    "RideSharing": ["cab", "taxi", "ride to"],
    "RentalCars": ["rent a car", "car for rent", "car rental", "a car", "rental", "rent a", "car", "vehicle"],
    "Hotels": ["a room", "stay the night", "place to stay"],
    "Homes": ["apartment", "apartments", "residence", "place to live", "lease", "condo", "property to rent"],
    "Banks": ["balance", "my account", "checking account", "savings account", "bank balance"],
    "Travel": ["attraction", "tourist", "landmark", "museum", "places to see", "places to go", "place to go",
               "places to visit", "place to visit", "destinations to visit", "view point", "viewpoint", "sightseeing"],
    "Services": ["therapist", "psychiatrist", "psychologist", "counselor", "counsellor", "counseling"],
    "Weather": ["rain", "raining", "rainy", "sunny", "temperature", "humidity", "humid", "windy", "forecast"],
    "Dentists": ["teeth", "tooth", "dental"],
    "Salons": ["haircut", "hair cut", "hair stylist", "hair salon"],
}

#: A domain read as another when the same turn carries one of the words: a *movie* to stream
#: online is a Media request, not a cinema one. ``{(from, to): words}``.
DOMAIN_QUALIFIERS: dict[tuple[str, str], set[str]] = {
    ("Movies", "Media"): {"online", "stream", "streaming", "internet", "net", "web", "netflix", "at home", "subscription"},
}

#: A domain the same words also name ("a movie to watch" is a cinema film or one to stream or rent:
#: SGD's Movies and Media services both find movies by genre and director; "something fun to
#: do" is an event or an attraction), unless a word of
#: :data:`DOMAIN_DECIDERS` (or of :data:`DOMAIN_QUALIFIERS`) settles it; text grounding then
#: accepts a call of either. ``{named domain: alternatives}``.
DOMAIN_ALTERNATIVES: dict[str, list[str]] = {"Movies": ["Media"], "Events": ["Travel"]}
#: Words that settle a request for the named domain itself: a film at the cinema.
DOMAIN_DECIDERS: dict[str, set[str]] = {
    "Movies": {"theater", "theaters", "theatre", "theatres", "cinema", "cinemas", "showtime", "showtimes", "show time",
               "imax", "3d", "ticket", "tickets", "box office"},
    # "something fun to do" is an event or an attraction; these words name an event
    "Events": {"event", "events", "concert", "concerts", "gig", "gigs", "game", "games", "match", "matches", "show", "shows",
               "sports", "sport", "music", "play", "plays", "theater", "theatre", "ticket", "tickets", "festival"},
}


def value_cues(schema, domain: str, slot: str) -> list[tuple[str, list[str]]]:
    """``[(canonical value, phrases)]`` of :data:`VALUE_CUES` for one categorical slot of
    ``schema`` (an :class:`~csp_check.nlsi.schema.NlsiSchema`): each entry's first candidate that
    is a value of the slot; entries with none are dropped."""
    info = schema.slot(domain, slot)
    entries = VALUE_CUES.get((domain, slot)) or VALUE_CUES.get(("*", slot))
    if info is None or not entries or not info.is_categorical:
        return []
    values = spellings(info.values)
    out = []
    for candidates, phrases in entries:
        canon = next((values[normalize(c)] for c in candidates if normalize(c) in values), None)
        if canon is not None:
            out.append((canon, phrases))
    return out
