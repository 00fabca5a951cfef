"""The words and small readings the CI-ToD labels (:mod:`csp_check.score.citod`) rest on: which
words thank, ask, command, compare, call a place the nearest; a KVRET distance's miles; whether a
weather row has a value.

Source: KVRET's in-car dialogues (Eric et al., SIGDIAL 2017) as CI-ToD keeps them (Qin et al.,
EMNLP 2021).
"""

from __future__ import annotations

from csp_check.score.citod_read import Mention
from csp_check.score.citod_values import weather_agree

#: Words by which a user thanks (a "you are welcome" answers them, and nothing else).
THANKS = frozenset({"thank", "thanks", "thx", "appreciate", "great", "perfect", "bye", "goodbye", "end", "awesome",
                    "nope", "cool"})
#: Words by which a user's turn that is no question asks for something ("give me the address").
ASKING = frozenset({"give", "tell", "find", "show", "send", "check", "know", "need", "want", "get", "what", "where",
                    "which", "when", "who", "how", "confirm", "look", "search", "locate", "list"})
#: The words of a user's turn that only accepts what the system's question offered ("yes please",
#: "yes sounds great").
ACCEPTING = frozenset({"yes", "yeah", "yep", "sure", "ok", "okay", "please", "sounds", "great", "good", "that",
                       "would", "be", "perfect", "fine", "thanks", "thank", "you", "it", "s", "do", "i", "it's",
                       "that's", "alright", "awesome", ".", "!", ","})
#: Word pairs by which a system turn offers something ("do you want its address", "would you like
#: the route", "shall i send"): what follows is what a "yes" accepts.
OFFERS = frozenset({("do", "you"), ("would", "you"), ("shall", "i"), ("should", "i"), ("want", "me"),
                    ("like", "me"), ("need", "the")})
#: Words of a navigation command ("set the gps", "direct me there", "let s go").
COMMANDS = frozenset({"set", "direct", "navigate", "take", "go", "gps", "drive", "bring", "plot", "highlight"})
#: Words by which a command also asks for information (then an attribute may answer it).
ASKED_INFO = frozenset({"address", "where", "far", "distance", "traffic", "details", "info", "information"})
#: Stems of the words of an answer that performs a navigation command ("navigating", "directing
#: you", "going to", "sent on your screen").
ROUTE_STEMS = ("navigat", "direct", "going", "goin", "taking", "head", "set", "sent", "send", "plot", "map", "rout",
               "gps", "guid", "program", "driv", "way", "screen", "okay", "ok", "sure", "alright", "let")
#: Words by which a query compares the entities offered ("which one is the closest").
COMPARING = frozenset({"which", "closest", "nearest", "closer", "quickest", "fastest", "both", "two", "either"})
#: Words by which the system calls an entity the nearest of its kind.
NEAREST = frozenset({"nearest", "closest", "closer", "nearer"})
#: Words that say the entity named is the only one ("it is the only one", "still").
ONLY_WORDS = frozenset({"only", "still", "same", "sorry", "just"})


#: Verbs by which an entity named right before them is the subject of its own clause ("chevron is
#: the closest", "teavana has moderate_traffic").
CLAUSE_VERBS = frozenset({"is", "s", "has", "was", "are"})
#: Words that govern the entity after them (a preposition, a naming verb, a copula): an entity after
#: them is no clause's subject ("away from X is it okay", "the name of it is X").
GOVERNORS = frozenset({"from", "to", "at", "of", "for", "towards", "toward", "named", "called", "is", "s", "are",
                       "near", "in", "by", "via", "reach", "with", "than", "about", "like", "the", "reaching"})
#: Pronouns that, as a clause's subject, refer back to an entity of the history ("it s 4_miles away").
ANAPHORS = frozenset({"it", "it's", "its", "that", "that's", "they", "they're", "this"})
#: Words that end a clause (a subject before them is not the next clause's).
CLAUSE_BREAKS = frozenset({",", ".", ";", "!", "?", "and", "but", "so", "while", "because", "also", "yes", "ok",
                           "okay", "sure"})


def opens_clause(words: list[str], start: int, end: int) -> bool:
    """Whether the entity at words ``[start, end)`` is the subject of a clause of its own: a verb of
    :data:`CLAUSE_VERBS` follows it and no word of :data:`GOVERNORS` governs it ("4_miles away
    chevron is the closest"; not "away from chevron is it okay", "the name of it is philz")."""
    return words[end:end + 1] != [] and words[end] in CLAUSE_VERBS and not (start and words[start - 1] in GOVERNORS)


def anaphoric(words: list[str], start: int) -> bool:
    """Whether the clause of the word at ``start`` has a pronoun of :data:`ANAPHORS` for its
    subject before it ("it s 4_miles away"): the words since the last clause break hold one."""
    head = words[:start]
    cut = max((k for k, w in enumerate(head) if w in CLAUSE_BREAKS), default=-1)
    return bool(set(head[cut + 1:]) & ANAPHORS)


def miles(distance: str) -> int | None:
    """The miles of a KVRET distance (``3_miles`` → 3), ``None`` for another form."""
    head = distance.split("_", 1)[0]
    return int(head) if head.isdigit() else None


def fits(row: dict[str, str], m: Mention) -> bool:
    """Whether the weather row has the value ``m`` states: its attribute by stem or group
    (:func:`csp_check.score.citod_values.weather_agree`), a temperature as its low or its high."""
    if m.column == "weather_attribute":
        return weather_agree(stem(row.get("weather_attribute", "")), stem(m.value))
    return m.value in (row.get("high_temperature"), row.get("low_temperature"))


def weather_text(row: dict[str, str]) -> str:
    """A weather row in a message: ``monday overcast 40f-60f``."""
    return f"{row.get('date')} {row.get('weather_attribute')} {row.get('low_temperature')}-{row.get('high_temperature')}"


def stem(word: str) -> str:
    """A weather word's stem ("raining", "rain" → "rain"; "snowy" → "snow")."""
    for ending in ("ing", "y", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)]
    return word


__all__ = ["ACCEPTING", "ANAPHORS", "ASKED_INFO", "CLAUSE_BREAKS", "CLAUSE_VERBS", "GOVERNORS", "ASKING", "COMMANDS", "COMPARING", "NEAREST", "OFFERS", "ONLY_WORDS", "ROUTE_STEMS", "THANKS", "anaphoric", "fits", "miles", "opens_clause", "stem", "weather_text"]
