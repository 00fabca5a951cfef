"""Dialogue grounding (docs/nlsi.md, "Decisions"): what the user states, which domains they request.

Two sources, in order: the SGD annotation of the retained turns when the example carries it
(``metadata.sgd_state`` / ``metadata.requested_domains``, written by :mod:`.build`), otherwise
ontology matching on the user's turns with the instruction parser's ``PhraseMatcher``: each value
mention is assigned to the slot of a requested domain it belongs to (ambiguous ones are kept only
as "mentioned"), later mentions override earlier ones, and a negated mention ("actually, not
Italian") removes the value it names.

A number right before a unit word states the ``number_of_<unit>`` slot of a requested domain
("for 2 days" is ``number_of_days``, not the 2 rooms the ontology also knows), and one a few
words before a count word (:data:`~csp_check.nlsi.cues.COUNT_UNITS`) that word's count slot
("tickets for 3 people", "1 Economy class ticket", "a 1 star hotel").

Requested domains (text grounding): a domain word with a negation among the three words before
it asks for nothing ("there's no place like home"); a request cue that a domain word qualifies
asks for that domain, not the cue's ("a house rental" is HouseStays, not RentalCars); a domain
first named in the last user turn, after another was requested and the agent answered it (the
agent turn asks nothing), is a *follow-up* ("I would like to find a hotel room there" after a
weather answer): its values are grounded, it is not requested (a chain rule may still call it).

Agent offers (text grounding; SGD's state rule: a value the system offers and the user accepts
is in the state): an agent turn is *answered* by the user turn after it. Unless that turn
rejects it (:data:`~csp_check.nlsi.cues.REJECT_STARTS`, or another option asked for without
accepting first: :data:`~csp_check.nlsi.cues.REJECT_WORDS`), the agent's words count as said
("10:55 am" of an offered flight the user goes on to book); when it begins by accepting
(:data:`~csp_check.nlsi.cues.ACCEPT_CUES`: "yes", "that works", "sounds good") the categorical
values the ontology finds in the offer ("Tourist Attraction") are also stated, in dialogue order
(a later user statement wins). Names in an offer ("Heartbeat by Enrique Iglesias") are said, not
stated: which of them the user accepts, the song or its artist, the words do not tell.

"Don't care" (:func:`_dontcares`): "any kind / type / sort of <domain word>" states
``dontcare`` for the domain's one ``*_type`` slot ("any kind of movie" → ``show_type``, as
SGD annotates it; the "kind of" cue of ``genre`` does not apply inside it), and
"any <slot phrase> is fine / works / will do" for that slot ("any genre is fine"), each only if
an intent of the schema takes the slot as optional with ``dontcare`` and the user stated no
other value for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from csp_check.language.dates import reference_date, resolve_dates, resolve_years
from csp_check.nlsi.cues import (
    ACCEPT_CUES,
    BOOL_FALSE,
    COUNT_UNITS,
    DOMAIN_ALTERNATIVES,
    DOMAIN_DECIDERS,
    DOMAIN_QUALIFIERS,
    FUNCTION_WORDS,
    NEGATIONS,
    NOT_VALUE_AFTER,
    NOT_VALUE_BEFORE,
    REJECT_STARTS,
    REJECT_WORDS,
    REQUEST_CUES,
    ROLE_CUES,
    WEAK_DOMAIN_WORDS,
    slot_phrases,
    value_cues,
)
from csp_check.nlsi.instructions import InstructionParser, Rule
from csp_check.nlsi.models import Example, split_turns
from csp_check.nlsi.schema import LOCATION_SLOTS, NUMBER_WORDS, normalize, spelling
from csp_check.nlsi.spans import answered_name, date_time_values, destinations, in_places, offered_name, role_places
from csp_check.nlsi.user_words import asked_booleans, first_service_slot, head_count_values, kind_name
from csp_check.nlsi.variants import SERVICE_PRIOR, service_slots, settle


@dataclass
class Grounding:
    """``values[domain][slot]`` stated canonical values; ``domains`` requested (in order);
    ``negated[domain][slot]`` values the user rejected; ``text`` normalised user text."""

    values: dict[str, dict[str, str]] = field(default_factory=dict)
    domains: list[str] = field(default_factory=list)
    negated: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    text: str = ""
    source: str = "text"
    implied: set[str] = field(default_factory=set)  # normalised values said by a paraphrase ("affordable")
    #: requested domain → other domains the same words name (text only: "a movie" is Movies or
    #: Media, :data:`~csp_check.nlsi.cues.DOMAIN_ALTERNATIVES`); calling one of them answers it.
    alternatives: dict[str, list[str]] = field(default_factory=dict)
    #: normalised agent offers the user did not reject (their words count as said; module doc)
    offered: list[str] = field(default_factory=list)
    #: domains first named in the last user turn after the agent answered the request (module
    #: doc): their values are grounded, but they are not requested (a chain may still call them)
    followups: list[str] = field(default_factory=list)

    def grounded_domains(self) -> list[str]:
        """The requested domains, then their alternatives and the follow-up domains (values are
        grounded for each)."""
        alts = [a for d in self.domains for a in self.alternatives.get(d, [])]
        return list(dict.fromkeys(self.domains + alts + self.followups))

    def stated(self, domain: str, slot: str) -> str | None:
        """The value the user stated for ``domain.slot``, or None."""
        return self.values.get(domain, {}).get(slot)

    def said(self, value: str) -> bool:
        """Does the normalised value occur in the user's text (whole words) or in an agent offer
        the user did not reject (:attr:`offered`), or does a paraphrase of it
        (:data:`~csp_check.nlsi.cues.VALUE_CUES`) occur there?"""
        n = normalize(value)
        return bool(n) and (any(f" {n} " in f" {t} " for t in [self.text, *self.offered]) or n in self.implied)


def ground(example: Example, parser: InstructionParser, use_annotation: bool = True,
           rules: list[Rule] | None = None) -> Grounding:
    """Ground one example's dialogue (see the module doc). ``rules``: the profile's parsed
    rules, which say which service of a domain the call speaks for
    (:mod:`csp_check.nlsi.variants`). Never raises on odd text."""
    rules = list(rules or [])
    user_text = " ".join(example.user_turns())
    g = Grounding(text=normalize(user_text))
    meta = example.metadata or {}
    if use_annotation and isinstance(meta.get("sgd_state"), dict):
        g.source = "annotation"
        for domain, slots in meta["sgd_state"].items():
            if isinstance(slots, dict):
                g.values[domain] = {str(s): str(v) for s, v in slots.items()}
        g.domains = [d for d in meta.get("requested_domains") or list(g.values) if d in parser.schema.domains]
        return g
    schema = parser.schema
    mentions = []
    docs = []
    for turn in example.user_turns():
        doc, ms = parser.mentions(turn)
        docs.append(doc)
        words = [t.lower_ for t in doc]
        ms = [m for m in ms if (m.kind != "value" or (any(
            _name_cased(schema, d, *o.split("\x00"), m, words) for d, o in m.options)  # "help me" is not the song "Help"
            and not (m.end < len(words) and words[m.end] in NOT_VALUE_BEFORE.get(m.text.lower(), ()))  # "one way"
            and not set(words[m.start : m.end]) <= FUNCTION_WORDS))  # "I want to go out": no cuisine "to-go"
            and not (m.start > 0 and words[m.start - 1] in NOT_VALUE_AFTER.get(m.text.lower(), ()))]  # "find me one", "I'm free"
        mentions.append((words, ms))
    weak: list[str] = []
    named = {next(iter(m.options))[0] for _, ms in mentions for m in ms if m.kind == "domain"}
    answered = _answered_last(example)
    for k, (words, ms) in enumerate(mentions):
        for m in ms:
            if m.kind == "domain":
                d = next(iter(m.options))[0]
                if any(v.kind == "value" and v.start < m.end and m.start < v.end
                       and any(o[0] != d and o[0] in named for o in v.options) for v in ms):
                    continue  # "House songs", "Music events": a value of another named domain
                if set(words[max(0, m.start - 3) : m.start]) & NEGATIONS:
                    continue  # "there's no place like home", "no hotel": not asked for
                target = weak if m.text.lower() in WEAK_DOMAIN_WORDS else g.domains
                if answered and k == len(mentions) - 1 and g.domains and d not in g.domains and target is g.domains:
                    target = g.followups  # "… I would like to find a hotel room there" after a weather answer
                if d not in target:
                    target.append(d)
    if not g.domains:  # no domain named: words that ask for one ("I'm hungry", "call me a cab"),
        text = f" {g.text} "  # before a generic domain word ("travel by plane" asks for a flight)
        domain_words = {normalize(m.text) for _, ms in mentions for m in ms if m.kind == "domain"}
        hits = [(at, d) for d, ps in REQUEST_CUES.items() if d in schema.domains for p in ps
                if (at := text.find(f" {normalize(p)} ")) >= 0
                and not any(text[:at + 1].endswith(f" {w} ") for w in domain_words)]  # "house rental"
        found = list(dict.fromkeys(d for at, d in sorted(hits)))
        for d in list(found):  # "something fun … an attraction": the alternative named settles it
            settled = [a for a in DOMAIN_ALTERNATIVES.get(d, []) if a in found]
            if settled:
                found = settled + [x for x in found if x not in settled]
        g.domains = found[:1]
    if not g.domains:
        g.domains = weak
    for (src, dst), words_ in DOMAIN_QUALIFIERS.items():  # "a movie to stream online" is Media
        if src in g.domains and dst in schema.domains and any(f" {w} " in f" {g.text} " for w in words_):
            g.domains = list(dict.fromkeys(dst if d == src else d for d in g.domains))
    for d, alts in DOMAIN_ALTERNATIVES.items():  # "a movie" without a cinema or streaming word
        words_ = DOMAIN_DECIDERS.get(d, set())
        if d in g.domains and not any(f" {normalize(w)} " in f" {g.text} " for w in words_):
            g.alternatives[d] = [a for a in alts if a in schema.domains and a not in g.domains]
    if not g.domains:  # fall back to the domains whose values the user names most
        counts: dict[str, int] = {}
        for _words, ms in mentions:
            for m in ms:
                if m.kind == "value":
                    for d in {o[0] for o in m.options}:
                        counts[d] = counts.get(d, 0) + 1
        top = max(counts.values(), default=0)
        best = [d for d, c in counts.items() if c == top]
        if len(best) == 1:
            g.domains = best
    said = mentions
    for k, (turn, accepted) in _answered_offers(example).items():  # accepted offers, in dialogue order
        g.offered.append(normalize(turn))
        if accepted:
            doc, ms = parser.mentions(turn)
            words = [t.lower_ for t in doc]
            ms = [m for m in ms if m.kind == "value" and all(
                (i := schema.slot(d, o.split("\x00")[0])) is not None and i.is_categorical for d, o in m.options)]
            said = said[:k] + [(words, ms)] + said[k:]
    for group in [g.domains] + [[a] for a in g.grounded_domains() if a not in g.domains]:
        _stated_values(g, schema, said, group)
    _dontcares(g, schema, mentions)
    _paraphrased_values(g, schema, user_text)
    _dates(g, example, user_text)
    _locations(g, parser, docs, rules)
    if schema.user_words:
        _free_values(g, parser, example, rules)
    return g


def _free_values(g: Grounding, parser: InstructionParser, example: Example, rules: list[Rule]) -> None:
    """Names the agent asks for or offers, places after a role word (a domain with a destination
    slot and no origin one: the last place after "to", street addresses too; a domain with one place
    slot: the last capitalised place after "in", "around", "near"), head counts, then dates and times, in the user's words
    (:mod:`csp_check.nlsi.spans`), for the requested domains; stated values moved to the chosen
    service's slots (:func:`csp_check.nlsi.variants.settle`). The release's convention only
    (``NlsiSchema.user_words``): SGD-built calls hold SGD's canonical values."""
    schema = parser.schema
    turns = example.user_turns()
    _names(g, parser, example, rules)
    asked_booleans(g.values, g.domains, parser, example.user_utterance)
    for d in g.domains:
        slots = service_slots(schema, d, rules, g.values.get(d, {}))
        roles = {r: [s for s in slots if any(k in s for k in keys) and not any(x in s for x in ("station", "airport"))]
                 for r, keys in (("origin", ("origin", "from_")), ("destination", ("dest", "to_")))}
        vals = g.values.setdefault(d, {})
        if roles["destination"] and not roles["origin"]:  # a cab, a ride: the place it goes to
            dest = roles["destination"][0]
            for place in [p for turn in turns for p in destinations(turn)][-1:]:
                if not vals.get(dest) or normalize(vals[dest]) in normalize(place):
                    vals[dest] = place
        places = [p for p in slots if p in LOCATION_SLOTS or p.endswith("_city")]
        places = first_service_slot(schema, d, places) if len(places) > 1 else places
        if len(places) == 1 and not roles["origin"]:  # "the weather in Guerneville": the last place named
            said = " ".join(turns).lower()
            for place in [p for turn in turns for p in in_places(turn)][-1:]:
                held = vals.get(places[0], "")
                if not held or normalize(held) in normalize(place) or said.rfind(place.lower()) > said.rfind(held.lower()):
                    vals[places[0]] = place  # unless a place read before is named later
        if not (roles["origin"] and roles["destination"]):
            continue
        for turn in turns:
            for role, place in role_places(turn):
                other = roles["destination" if role == "origin" else "origin"]
                for s in other:
                    if normalize(vals.get(s, "")) == normalize(place):
                        del vals[s]
                for s in roles[role]:
                    vals.pop(s, None)
                vals[roles[role][0]] = place
    settle(schema, g.values, rules)
    head_count_values(g.values, g.domains, schema, turns, rules, split_turns(example.user_utterance))
    seen = False
    for d in g.domains:
        found = date_time_values(turns, service_slots(schema, d, rules, g.values.get(d, {})))
        if found and not seen:
            seen = True
            g.values.setdefault(d, {}).update(found)


def _stated_values(g: Grounding, schema, mentions: list, group: list[str]) -> None:
    """Values the user states for the domains of ``group`` (boolean slots named, value
    mentions resolved to one slot; negated ones recorded apart)."""
    for words, ms in mentions:
        slot_mentions = {o for m in ms if m.kind == "slot" for o in m.options}
        slot_list = [m for m in ms if m.kind == "slot"]
        for m in slot_list:  # boolean slots named in the text ("child-friendly", "I'm okay to share")
            for d, s in m.options:
                info = schema.slot(d, s)
                if d in group and info is not None and info.is_boolean and not asks_about_offer(words, m.start):
                    window = set(words[max(0, m.start - 3) : m.start])
                    g.values.setdefault(d, {})[s] = "False" if window & (NEGATIONS | BOOL_FALSE) else "True"
        for m in ms:
            if m.kind != "value":
                continue
            opts = [(d, s.split("\x00")) for d, s in m.options if d in group]
            unit = _unit_slots(schema, group, m, words)
            if unit:  # "for 2 days" is number_of_days, whatever else "2" may be
                opts = [o for o in opts if (o[0], o[1][0]) in unit] or [(d, [s, NUMBER_WORDS.get(m.text.lower(), m.text)]) for d, s in unit]
            if not opts:
                continue
            near = [x for x in slot_list if -1 <= x.start - m.end <= 2 or -2 <= m.start - x.end <= 0]
            near_opts = {o for x in near for o in x.options}
            named = [o for o in opts if (o[0], o[1][0]) in near_opts] or [o for o in opts if (o[0], o[1][0]) in slot_mentions]
            cat = [o for o in opts if (i := schema.slot(o[0], o[1][0])) is not None and i.is_categorical]
            pick = named or cat or opts
            before = words[m.start - 1] if m.start else ""
            if len(pick) > 1 and before in ROLE_CUES:
                role = [o for o in pick if any(k in o[1][0] for k in ROLE_CUES[before])]
                pick = role or pick
            if len({d for d, _ in pick}) == 1 and len(pick) > 1:  # "my savings account": not the recipient's
                plain = [o for o in pick if not o[1][0].startswith(_ROLE_PREFIXES)]
                pick = plain if len(plain) == 1 else pick
            pick = _one_of_twins(schema, pick)
            if len({(d, s) for d, (s, _) in pick}) != 1:
                continue
            d, (slot, canon) = pick[0]
            window = words[max(0, m.start - 3) : m.start]
            if set(window) & NEGATIONS:
                g.negated.setdefault(d, {}).setdefault(slot, set()).add(canon)
                if g.values.get(d, {}).get(slot) == canon:
                    del g.values[d][slot]
            else:
                g.values.setdefault(d, {})[slot] = canon


_ENDS = {".", "!", "?"}


def asks_about_offer(words: list[str], at: int) -> bool:
    """Is the word at ``at`` inside a yes/no question about something offered ("Is this a
    child-friendly museum?", "Does it have wifi?")? The user asks what the offer holds; SGD's
    state records no constraint for it (a request). ``words``: one user turn's lower-cased tokens."""
    start = max((k + 1 for k in range(at) if words[k] in _ENDS), default=0)
    end = next((k for k in range(at, len(words)) if words[k] in _ENDS), None)
    return (end is not None and words[end] == "?" and start + 1 < len(words)
            and words[start] in {"is", "are", "does", "do"} and words[start + 1] in {"it", "this", "that", "they"})


def offer_questions(user_text: str) -> str:
    """The user's yes/no questions about an offer (:func:`asks_about_offer`) in ``user_text``,
    normalised and padded with spaces (" is this a child friendly museum "); " " when none."""
    questions = [q for q in re.findall(r"[^.!?]*[.!?]?", user_text)
                 if q.strip() and asks_about_offer([w.lower() for w in re.findall(r"[\w'-]+|[.!?]", q)], 0)]
    return " " + normalize(" ".join(questions)) + " "


def _one_of_twins(schema, pick: list) -> list:
    """One value read into twin slots of one domain (the same slot under two services' names,
    ``common-domain-slots.tsv``: RentalCars ``type`` / ``car_type`` both list "Compact") is said
    once: kept in the slot of the domain's prior service (:data:`~csp_check.nlsi.variants.SERVICE_PRIOR`)
    when it is one of them, else the first service's (:func:`~csp_check.nlsi.user_words.first_service_slot`,
    never the options' order); :func:`~csp_check.nlsi.variants.settle` then moves it
    to the chosen service's twin. Anything else is returned as given."""
    if len(pick) < 2 or len({(d, v) for d, (_, v) in pick}) != 1:
        return pick
    d = pick[0][0]
    pairs = schema.same_slots.get(d, [])
    slots = [s for _, (s, _) in pick]
    if not all((a, b) in pairs or (b, a) in pairs for a in slots for b in slots if a != b):
        return pick
    prior = schema.service_slots.get(SERVICE_PRIOR.get(d, ""), [])
    keep = [s for s in slots if s in prior][:1] or first_service_slot(schema, d, slots)
    return [o for o in pick if o[1][0] == keep[0]][:1] if len(keep) == 1 else pick


#: Slot-name prefixes of a second party or a second leg (``recipient_account_type``,
#: ``return_date``): a value that fits such a slot and a plain one of the same domain, with no
#: role word before it, is the plain slot's.
_ROLE_PREFIXES = ("recipient_", "return_", "inbound_", "dropoff_")
_ANY_KIND = {"kind", "type", "sort", "kinds", "types", "sorts"}
_IS_FINE = {"fine", "ok", "okay", "works", "work", "do", "good"}


def _dontcares(g: Grounding, schema, mentions: list) -> None:
    """``dontcare`` for the slots the user leaves open (module doc, "Don't care")."""
    grounded = set(g.grounded_domains())
    for words, ms in mentions:
        kinds = {m.start - 3: m for m in ms if m.kind == "domain" and m.start >= 3 and words[m.start - 3] == "any"
                 and words[m.start - 2] in _ANY_KIND and words[m.start - 1] == "of"}
        for m in ms:
            targets: list[tuple[str, str]] = []
            if m in kinds.values():
                d = next(iter(m.options))[0]
                types = [s for s, i in schema.domains.get(d, {}).items() if i.dontcare and s.endswith("_type")]
                targets = [(d, types[0])] if len(types) == 1 else []
            elif m.kind == "slot" and m.start >= 1 and words[m.start - 1] == "any" and m.start - 1 not in kinds \
                    and set(words[m.end : m.end + 3]) & _IS_FINE:
                targets = [(d, s) for d, s in m.options if (i := schema.slot(d, s)) is not None and i.dontcare]
            for d, s in targets:
                if d in grounded and s not in g.values.get(d, {}):
                    g.values.setdefault(d, {})[s] = "dontcare"


_NOT_ENTITY = ("recipient_account_name", "origin_station_name", "destination_station_name")


def _names(g: Grounding, parser: InstructionParser, example: Example, rules: list[Rule]) -> None:
    """Names in the user's words (:func:`~csp_check.nlsi.spans.answered_name`,
    :func:`~csp_check.nlsi.spans.offered_name`) for the requested domains' free slots not
    stated yet: the slot an agent question names, answered by a user turn that is only a name;
    the entity-name slot (the first ``*_name`` / ``title`` slot of the chosen service) of an
    offer the user accepts, when one domain is requested (whose offer it is, several do not
    tell); a name the user gives with the domain's noun (:func:`~csp_check.nlsi.user_words.kind_name`)."""
    schema = parser.schema
    turns = split_turns(example.user_utterance)
    for d in g.domains:
        slots = service_slots(schema, d, rules, g.values.get(d, {}))
        free = [s for s in slots if (i := schema.slot(d, s)) is not None and not i.is_categorical]
        entity = next((s for s in free if (s.endswith("_name") or s == "title") and s not in _NOT_ENTITY), None)
        vals = g.values.setdefault(d, {})
        named = kind_name(turns, d)
        if entity is not None and named and not vals.get(entity):
            vals[entity] = named
        for k in range(len(turns) - 1):
            (who, text), (nxt, answer) = turns[k], turns[k + 1]
            if who != "agent" or nxt != "user":
                continue
            asked = {s for m in parser.mentions(text)[1] if m.kind == "slot" for dd, s in m.options if dd == d and s in free}
            words = set(normalize(text).split())
            asked |= {s for s in free if s.split("_")[0] in words and s.endswith(("_name", "title"))}  # "What song?"
            name = answered_name(answer)
            if "?" in text and len(asked) == 1 and name is not None and not vals.get(next(iter(asked))):
                vals[next(iter(asked))] = name
            accepts = len(g.domains) == 1 and any(f" {normalize(answer)} ".startswith(f" {c} ") for c in ACCEPT_CUES)
            offered = offered_name(text) if accepts and entity is not None else None
            if offered is not None and not vals.get(entity or ""):
                vals[entity or ""] = offered


#: Number words that are no head count before a unit ("no tickets", "a single room", "zero").
_NOT_COUNT_WORDS = {"no", "single", "zero"}


def _unit_slots(schema, group: list[str], m, words: list[str]) -> list[tuple[str, str]]:
    """The count slots of ``group`` a number names by a unit word: right after it, the
    ``number_of_<unit>`` slot ("2 days" → ``number_of_days``, "1 room" → ``number_of_rooms``);
    within three words after it, the first slot of :data:`~csp_check.nlsi.cues.COUNT_UNITS`
    each domain has ("tickets for 3 people" → ``travelers``, "1 Economy class ticket" →
    ``passengers``, "a 1 star hotel" → ``star_rating``); [] otherwise. A number word ("one" …
    "ten") counts only with its unit right after it ("one ticket" → ``travelers``, "two rooms"),
    not across words ("a one way ticket" names no head count)."""
    word = m.text.lower() in NUMBER_WORDS and m.text.lower() not in _NOT_COUNT_WORDS
    if not (m.text.isdigit() or word) or m.end >= len(words):
        return []
    unit = words[m.end].rstrip("s")
    out = [(d, s) for d in group for s in schema.domains.get(d, {})
           if s.startswith("number_of_") and s[len("number_of_"):].rstrip("s") == unit]
    if out:
        return out
    for w in words[m.end : m.end + (1 if word else 3)]:
        if w.isdigit() or not w.isalpha():
            break
        slots = COUNT_UNITS.get(w if w in COUNT_UNITS else w.rstrip("s"), ())
        if slots:
            return [(d, s) for d in group for s in [next((x for x in slots if x in schema.domains.get(d, {})), None)] if s]
    return []


def _answered_last(example: Example) -> bool:
    """Is the user's last turn an answer to an agent turn that answered (it asks nothing: no
    "?")? A domain first named there, after another was requested, is a follow-up beyond the
    example's request (the release's calls stop at the answered request)."""
    turns = split_turns(example.user_utterance)
    users = [k for k, (speaker, _) in enumerate(turns) if speaker == "user"]
    if len(users) < 2 or users[-1] == 0 or turns[users[-1] - 1][0] != "agent":
        return False
    return "?" not in turns[users[-1] - 1][1]


def _answered_offers(example: Example) -> dict[int, tuple[str, bool]]:
    """Agent turns the next user turn does not reject (module doc): ``{number of user turns
    before it: (agent text, accepted)}``; ``accepted`` when the answer begins with an
    acceptance cue. The user's own words are no offer of theirs, so these only add."""
    turns = split_turns(example.user_utterance)
    out: dict[int, tuple[str, bool]] = {}
    before = 0
    for k, (speaker, text) in enumerate(turns):
        if speaker == "user":
            before += 1
            continue
        if k + 1 >= len(turns) or turns[k + 1][0] != "user":
            continue
        answer = f" {normalize(turns[k + 1][1])} "
        accepts = any(answer.startswith(f" {c} ") for c in ACCEPT_CUES)
        rejects = any(answer.startswith(f" {c} ") for c in REJECT_STARTS) or (
            not accepts and bool(set(answer.split()) & REJECT_WORDS))
        if not rejects:
            out[before] = (text, accepts)
    return out


def _dates(g: Grounding, example: Example, user_text: str) -> None:
    """Dates the user names relatively or partially ("next Friday", "the 3rd", "tomorrow";
    :func:`csp_check.language.dates.resolve_dates` against the example's reference day) count as
    said in ISO form, years ("'15", "two years ago"; ``resolve_years``) as four digits. They are not *stated*: a date said in passing ("I'm tired today") is not a
    request, and dates stated by the ontology's own aliases stay as they were."""

    today = reference_date(example.metadata)
    g.implied |= {normalize(d.isoformat()) for d in resolve_dates(user_text, today)}
    g.implied |= {str(y) for y in resolve_years(user_text, today)}


def _name_cased(schema, domain: str, slot: str, canon: str, m, words: list[str]) -> bool:
    """A value of a name or title slot (free, non-instructional: ``song_name``, ``event_name``)
    whose canonical form is capitalised counts only when the user capitalised a word of it too,
    the sentence-initial word and "I" aside: ordinary phrases ("find me", "I would like",
    "friends") are also song and event titles."""
    info = schema.slot(domain, slot)
    if info is None or info.is_categorical or info.instructional or not any(ch.isupper() for ch in canon):
        return True
    toks = m.text.split()
    initial = m.start == 0 or words[m.start - 1] in {".", "!", "?", ":", ";", "|"}
    return any(t[:1].isupper() and t != "I" and not (k == 0 and initial) for k, t in enumerate(toks))


def _paraphrased_values(g: Grounding, schema, user_text: str) -> None:
    """Categorical values said by a paraphrase (:func:`~csp_check.nlsi.cues.value_cues`:
    "affordable" → moderate, "a concert" → Music): each counts as said; it is also *stated* when
    it is the one value found for a slot of a requested domain, the only slot of that domain it
    fits, and the user stated nothing else there. A boolean slot not yet stated is True when one
    of its phrases occurs however it is hyphenated ("child-friendly"). A negated paraphrase
    ("not costly") says nothing, nor does a boolean asked about an offer ("Is this a
    child-friendly museum?": :func:`_asks_about_offer`). ``user_text``: the user's turns."""
    text = f" {g.text} "
    words = g.text.split()
    asked_text = offer_questions(user_text)
    for d in g.grounded_domains():
        found: dict[str, set[str]] = {}
        for slot, info in schema.domains.get(d, {}).items():
            cues = value_cues(schema, d, slot)
            if info.is_boolean and g.values.get(d, {}).get(slot) is None:  # "child-friendly", "wi fi"
                cues = [("True", slot_phrases(d, slot))]
            for canon, phrases in cues:
                for p in phrases:
                    n = normalize(p)
                    at = text.find(f" {n} ")
                    if not n or at < 0 or (info.is_boolean and f" {n} " in asked_text):
                        continue
                    k = len(text[:at].split())
                    if not set(words[max(0, k - 3) : k]) & NEGATIONS and words[k - 1 : k] not in [[w] for w in NOT_VALUE_AFTER.get(n, ())]:
                        found.setdefault(slot, set()).add(canon)
        for slot, canons in found.items():
            g.implied |= {normalize(c) for c in canons}
            holders = [s for s, cs in found.items() if cs & canons]
            if len(canons) == 1 and holders == [slot] and g.values.get(d, {}).get(slot) is None:
                g.values.setdefault(d, {})[slot] = next(iter(canons))


def _location_pool(parser) -> dict[str, list[str]]:
    """Normalised place name → its capitalised spellings, from every location-like slot of every
    domain (a city the restaurants' ontology lacks is often a value of the flights' one); an
    alias ("sf") → its canonical value's. Which spelling a call gets is
    :func:`~csp_check.nlsi.schema.spelling`'s rule, never a set's hash order."""
    pool = getattr(parser, "_nlsi_location_pool", None)
    if pool is None:
        values: dict[str, set[str]] = {}
        aliases: dict[str, set[str]] = {}
        schema = parser.schema
        for d, slots in schema.domains.items():
            for slot, info in slots.items():
                if slot not in LOCATION_SLOTS and not slot.endswith("_city"):
                    continue
                for v in info.values:
                    if any(ch.isupper() for ch in v):
                        values.setdefault(normalize(v), set()).add(v)
                for alias, canon in schema.aliases.get((d, slot), {}).items():
                    if any(ch.isupper() for ch in canon):
                        aliases.setdefault(alias, set()).add(schema.canonical(d, slot, canon))
        pool = {n: sorted(forms) for n, forms in {**aliases, **values}.items()}
        parser._nlsi_location_pool = pool
    return pool


def _locations(g: Grounding, parser, docs: list, rules: list[Rule]) -> None:
    """A requested domain with no stated place gets a capitalised place name the user says that
    is a place value of any domain (:func:`_location_pool`): the slot is the domain's only place
    slot, or the one a preposition points to ("to SD" → destination, :data:`ROLE_CUES`), or the
    one whose ontology holds the value; otherwise none. A place already stated for another slot
    of the domain (the origin) is not taken again. With a release schema the slots are those of
    the domain's chosen service (:func:`csp_check.nlsi.variants.service_slots`)."""
    schema = parser.schema
    todo = {}
    for d in g.grounded_domains():
        own = service_slots(schema, d, rules, g.values.get(d, {})) if schema.user_words else list(schema.domains.get(d, {}))
        slots = [s for s in own if s in LOCATION_SLOTS or s.endswith("_city")]
        if slots and not any(g.values.get(d, {}).get(s) for s in slots):
            todo[d] = slots
    if not todo:
        return
    pool = _location_pool(parser)
    found: list[tuple[str, str]] = []  # (preposition before, canonical)
    for toks in docs:
        k = 0
        while k < len(toks):
            for n in (4, 3, 2, 1):
                span = toks[k : k + n]
                if len(span) < n or not span[0].text[:1].isupper() or span[0].text == "I":
                    continue
                low = span.text.lower()
                forms = pool.get(low) if low.replace(" ", "").isalnum() else pool.get(normalize(low))
                if forms:
                    found.append((toks[k - 1].lower_ if k else "", spelling(forms, said=span.text)))
                    k += n - 1
                    break
            k += 1
    for d, slots in todo.items():
        taken = {normalize(v) for v in g.values.get(d, {}).values()}
        for prep, canon in reversed(found):  # the latest mention wins
            if normalize(canon) in taken:
                continue  # "a bus from Sacramento": the origin, not also the destination
            if len(slots) == 1:
                pick = slots
            else:
                role = [s for s in slots if prep in ROLE_CUES and any(c in s for c in ROLE_CUES[prep])]
                held = [s for s in slots if canon in schema.domains[d][s].values]
                pick = ([s for s in role if s in held] or role) if role else held
                pick = first_service_slot(schema, d, pick) if len(pick) > 1 else pick
            if len(pick) == 1:
                g.values.setdefault(d, {})[pick[0]] = canon
                break
