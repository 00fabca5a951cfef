"""Build NLSI-style examples from SGD dialogues (spec §6, paper §3.2 and Appendix A).

For each dialogue (files and dialogues in sorted order, one random stream per dialogue seeded by
``seed`` and the dialogue id, so the output is deterministic and independent of the other
files), take the first search call of its first service:

- the *context* is the dialogue up to the 1st or 3rd user turn (fewer if the call comes sooner);
- the call's arguments the user already stated there stay in the dialogue (``sgd_state``);
- its other *instructional* arguments (not dates, times, counts, names: paper §3.2) move into the
  profile as standing instructions, and are not in the context; the rest are dropped from the
  gold call (nothing could predict them);
- a reasoning type is drawn and shaped (spec §3): NoneApplicable (moved values dropped), Plain
  (one domain-conditional instruction per moved value), MultiHop (a chain ``if s1 is v1 then
  s2 v2``), MultiPreference (a second value for one slot → a second call without the chain that
  depends on the first value), Conflict (an instruction contradicting a stated value; the
  dialogue wins), MultiDomain (a later second service: ``if D1 also D2`` plus D2's preferences,
  location-like values shared with the first call);
- distractor instructions from other domains are added (3–8), and instructions are worded by a
  template or, with probability ``paraphrase``, by one of several paraphrase templates per kind.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from csp_check.errors import UsageError, json_error_text
from csp_check.nlsi.cues import DOMAIN_CUES, slot_phrases
from csp_check.nlsi.models import ApiCall, Example, ReasoningType, StandingInstruction
from csp_check.nlsi.schema import NlsiSchema, load_schema, normalize, service_domain

LOCATION_SLOTS = {
    "city", "location", "where_to", "area", "city_of_event", "destination", "destination_city",
    "to_city", "to_location", "dest",
}

DOMAIN_TEMPLATES = ["If I ask for {D}, my preferred {s} is {v}"]
DOMAIN_PARAPHRASES = [
    "If I'm looking for {cue}, I'd rather have {v} as the {s}.",
    "When it comes to {cue}, make the {s} {v}.",
    "{v} is my go-to {s} whenever I want {cue}.",
    "Always search for {v} as the {s} when I ask about {cue}.",
    "For {cue}, please use {v} for the {s}.",
]
BOOL_PARAPHRASES = {
    "True": ["When I ask about {cue}, I want it to be {b}.", "For {cue}, make sure it is {b}."],
    "False": ["When I ask about {cue}, I'd rather it not be {b}.", "For {cue}, it should not be {b}."],
}
HOP_TEMPLATES = ["If {s1} is {v1} then look for {s2} as {v2}"]
HOP_PARAPHRASES = [
    "Whenever the {s1} is {v1}, go with {v2} as the {s2}.",
    "Look for {v2} as the {s2} if the {s1} is {v1}.",
    "When the {s1} is {v1}, search for {v2} as the {s2}.",
]
ALSO_TEMPLATES = ["If I ask for {D1}, then also look at {D2}"]
ALSO_PARAPHRASES = [
    "If I'm looking into {cue1}, I should also check out {cue2}.",
    "Whenever I ask about {cue1}, look at {cue2} too.",
    "When I want {cue1}, also search for {cue2}.",
]
#: How a paraphrase names a domain after "for", "about", "want", "looking into": noun phrases only
#: (never "For to eat," "whenever I want concert", "looking for renting a car"). Each holds one of
#: the domain's :data:`~csp_check.nlsi.cues.DOMAIN_CUES`, so the parser reads it as it reads the
#: plain template.
WORDING_CUES: dict[str, list[str]] = {
    "Alarm": ["alarms", "a wake-up alarm"],
    "Banks": ["a bank account", "a money transfer"],
    "Buses": ["buses", "a bus ticket", "a coach"],
    "Calendar": ["my calendar", "my schedule", "an appointment on my calendar"],
    "Events": ["events", "something to do", "a show", "a concert", "a game to watch"],
    "Flights": ["flights", "a plane ticket", "airfare"],
    "Homes": ["homes", "an apartment", "a place to rent", "a property visit"],
    "Hotels": ["hotels", "a hotel room", "accommodation"],
    "HouseStays": ["house stays", "a house to stay in", "a holiday rental", "a stay in a house"],
    "Media": ["a movie at home", "something to stream", "online movies", "a film to watch at home"],
    "Movies": ["movies", "the cinema", "a film at the theater", "movie tickets"],
    "Music": ["music", "songs", "a song", "something to listen to"],
    "RentalCars": ["rental cars", "a car to rent", "a car rental"],
    "Restaurants": ["restaurants", "somewhere to eat", "a place to eat", "a bite", "dinner", "lunch", "breakfast",
                    "brunch"],
    "RideSharing": ["a ride", "a cab", "a taxi"],
    "Salons": ["salons", "a haircut", "a hairdresser", "a stylist"],
    "Dentists": ["dentists", "dental care", "a dental appointment"],
    "Doctors": ["doctors", "a physician", "medical care"],
    "Services": ["a therapist", "therapy"],
    "Travel": ["places to visit", "tourist attractions", "attractions"],
    "Weather": ["the weather", "the forecast"],
    "Trains": ["trains", "a train ticket"],
    "Messaging": ["a message"],
    "Payment": ["payments", "a money transfer app"],
}
#: Second domains for MultiDomain when the SGD dialogue has no second service (paper Table 1:
#: Travel → Hotels); location-like values are shared with the first call.
PARTNERS = {
    "Travel": "Hotels", "Events": "Hotels", "Flights": "Hotels", "Buses": "Hotels", "Movies": "Restaurants",
    "Hotels": "Travel", "RentalCars": "Hotels", "Homes": "Restaurants", "Restaurants": "Movies",
    "HouseStays": "Travel", "Trains": "Hotels", "Media": "Music", "Music": "Events",
}
TYPE_LABELS = {
    ReasoningType.NONE_APPLICABLE: "none",
    ReasoningType.PLAIN: "domain_conditional",
    ReasoningType.MULTI_HOP: "chains_if_a_then_b_c",
    ReasoningType.MULTI_PREFERENCE: "multi_preference",
    ReasoningType.CONFLICT: "conflict",
    ReasoningType.MULTI_DOMAIN: "chains_domains",
}


class Wording:
    """Renders instruction kinds (domain preference, hop, also-call) as template or paraphrase."""

    def __init__(self, rng: random.Random, paraphrase: float, schema: NlsiSchema):
        self.rng, self.p, self.schema = rng, paraphrase, schema
        #: text → what it means, for measuring the parser: {"domain", "condition", "action" |
        #: "also", "paraphrase"}
        self.truth: dict[str, dict] = {}

    def _note(self, text: str, paraphrased: bool, **meaning) -> str:
        self.truth[text] = {**meaning, "paraphrase": paraphrased}
        return text

    def _cue(self, domain: str) -> str:
        """A noun phrase naming ``domain`` (:data:`WORDING_CUES`; else its first cue, plural)."""
        return self.rng.choice(WORDING_CUES.get(domain) or DOMAIN_CUES.get(domain, [domain.lower()])[:1])

    def domain_pref(self, domain: str, slot: str, value: str) -> str:
        """"If I ask for D, my preferred s is v" or a paraphrase (booleans: a slot cue)."""
        info = self.schema.slot(domain, slot)
        s = slot.replace("_", " ")
        meaning = {"domain": domain, "condition": [], "action": [slot, value]}
        if self.rng.random() < self.p:
            if info is not None and info.is_boolean and value in BOOL_PARAPHRASES:
                b = self.rng.choice(slot_phrases(domain, slot))
                return self._note(self.rng.choice(BOOL_PARAPHRASES[value]).format(cue=self._cue(domain), b=b), True, **meaning)
            if not (info is not None and info.is_boolean):
                t = self.rng.choice(DOMAIN_PARAPHRASES)
                return self._note(_cap(t.format(cue=self._cue(domain), s=s, v=value)), True, **meaning)
        return self._note(DOMAIN_TEMPLATES[0].format(D=domain, s=s, v=value), False, **meaning)

    def hop(self, s1: str, v1: str, s2: str, v2: str, domain: str = "") -> str:
        """"If s1 is v1 then look for s2 as v2" or a paraphrase."""
        a, b = s1.replace("_", " "), s2.replace("_", " ")
        para = self.rng.random() < self.p
        t = self.rng.choice(HOP_PARAPHRASES) if para else HOP_TEMPLATES[0]
        return self._note(_cap(t.format(s1=a, v1=v1, s2=b, v2=v2)), para, domain=domain,
                          condition=[[s1, v1]], action=[s2, v2])

    def also(self, d1: str, d2: str) -> str:
        """"If I ask for D1, then also look at D2" or a paraphrase."""
        if self.rng.random() < self.p:
            text = self.rng.choice(ALSO_PARAPHRASES).format(cue1=self._cue(d1), cue2=self._cue(d2))
            return self._note(_cap(text), True, domain=d1, condition=[], also=d2)
        return self._note(ALSO_TEMPLATES[0].format(D1=d1, D2=d2), False, domain=d1, condition=[], also=d2)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _rng(seed: int, key: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _calls_of(dialogue: dict[str, Any], schema: NlsiSchema) -> list[tuple[int, str, dict[str, str]]]:
    """Search (non-transactional) service calls: (turn index, service, parameters)."""
    out = []
    for i, turn in enumerate(dialogue["turns"]):
        for frame in turn.get("frames", []):
            call = frame.get("service_call")
            if call and call.get("method", "").startswith(("Find", "Search", "Get", "Lookup", "Check")):
                out.append((i, frame["service"], dict(call.get("parameters", {}))))
    return out


def _state_at(dialogue: dict[str, Any], upto: int, service: str) -> dict[str, str]:
    """Canonical slot values the user stated for ``service`` in turns ``[0, upto]``."""
    state: dict[str, str] = {}
    for turn in dialogue["turns"][: upto + 1]:
        if turn["speaker"] != "USER":
            continue
        for frame in turn.get("frames", []):
            if frame["service"] != service:
                continue
            for act in frame.get("actions", []):
                if act["act"] == "INFORM" and act.get("canonical_values"):
                    state[act["slot"]] = act["canonical_values"][0]
    return state


def _context(dialogue: dict[str, Any], upto: int) -> str:
    parts = []
    for turn in dialogue["turns"][: upto + 1]:
        parts.append(("User: " if turn["speaker"] == "USER" else "Agent: ") + turn["utterance"])
    return " ".join(parts)


class Builder:
    """Builds examples (see the module doc) with one schema and ontology."""

    def __init__(self, schema: NlsiSchema, seed: int = 0, paraphrase: float = 0.5):
        self.schema, self.seed, self.paraphrase = schema, seed, paraphrase
        self._pool = sorted(
            (d, s, v)
            for d, slots in schema.domains.items()
            for s, info in slots.items()
            if info.instructional
            for v in sorted(info.values)
            if v and normalize(v) != "dontcare"
        )

    def build(self, dialogue: dict[str, Any]) -> Example | None:
        """One example from one SGD dialogue, or None when it does not fit any reasoning type."""
        rng = _rng(self.seed, dialogue["dialogue_id"])
        words = Wording(rng, self.paraphrase, self.schema)
        calls = _calls_of(dialogue, self.schema)
        if not calls:
            return None
        turn_i, service, params = calls[0]
        domain = service_domain(service)
        user_idx = [i for i, t in enumerate(dialogue["turns"][:turn_i]) if t["speaker"] == "USER"]
        if not user_idx or domain not in self.schema.domains:
            return None
        options = []
        for k in dict.fromkeys([1, 3]):
            cut = user_idx[min(len(user_idx), k) - 1]
            options.append((cut, *self._split(dialogue, cut, service, domain, params)))
        with_moved = [o for o in options if o[3]]
        cut, text, kept, moved = rng.choice(with_moved or options)
        if not kept and not moved:
            return None
        second = next(((i, sv, p) for i, sv, p in calls[1:] if service_domain(sv) not in (domain,)), None)
        if second is None and PARTNERS.get(domain) in self.schema.domains:
            second = self._synthetic_second(rng, PARTNERS[domain], params)
        feasible = [ReasoningType.NONE_APPLICABLE] if kept else []
        if moved:
            feasible += [ReasoningType.PLAIN, ReasoningType.MULTI_PREFERENCE]
            if len(moved) >= 2 or any(self._instructional(domain, s) for s in kept):
                feasible.append(ReasoningType.MULTI_HOP)
            if any(self._instructional(domain, s) and self._alternative(rng, domain, s, v, dry=True) for s, v in kept.items()):
                feasible.append(ReasoningType.CONFLICT)
        if second is not None and self._second(domain, params, second) is not None:
            feasible.append(ReasoningType.MULTI_DOMAIN)
        if not feasible:
            return None
        target = rng.choice([r for r in ReasoningType if r is not ReasoningType.UNKNOWN])
        if target in feasible:
            rtype = target
        else:
            rest = sorted((r for r in feasible if r is not ReasoningType.NONE_APPLICABLE), key=lambda r: r.value)
            rtype = rng.choice(rest) if rest else ReasoningType.NONE_APPLICABLE
        gold: list[ApiCall] = []
        applicable: list[str] = []
        extra: list[str] = []  # profile-only (conflict) instructions
        method = f"Get{domain}"
        other_domains = {domain}
        if rtype is ReasoningType.NONE_APPLICABLE:
            gold.append(ApiCall(method=method, arguments=tuple(sorted(kept.items()))))
        else:
            chain_of: dict[str, str] = {}
            items = sorted(moved.items())
            rng.shuffle(items)
            args = dict(kept)
            if rtype is ReasoningType.MULTI_HOP:
                heads = [(s, v) for s, v in sorted(kept.items()) if self._instructional(domain, s)]
                if len(items) >= 2 and (not heads or rng.random() < 0.5):
                    s0, v0 = items[0]
                    applicable.append(words.domain_pref(domain, s0, v0))
                    prev, rest = (s0, v0), items[1:]
                else:
                    prev, rest = heads[0], items
                for s, v in rest:
                    applicable.append(words.hop(prev[0], prev[1], s, v, domain))
                    chain_of[s] = prev[0]
                    prev = (s, v)
            else:
                for s, v in items:
                    applicable.append(words.domain_pref(domain, s, v))
            args.update(moved)
            gold.append(ApiCall(method=method, arguments=tuple(sorted(args.items()))))
            if rtype is ReasoningType.MULTI_PREFERENCE:
                s0, v0 = next((s, v) for s, v in items if s not in chain_of)
                alt = self._alternative(rng, domain, s0, v0)
                if alt is None:
                    return None
                applicable.append(words.domain_pref(domain, s0, alt))
                dependent = self._dependents(s0, chain_of)
                args2 = {s: v for s, v in args.items() if s not in dependent}
                args2[s0] = alt
                gold.append(ApiCall(method=method, arguments=tuple(sorted(args2.items()))))
            if rtype is ReasoningType.CONFLICT:
                s, v = next((s, v) for s, v in sorted(kept.items()) if self._instructional(domain, s) and self._alternative(rng, domain, s, v, dry=True))
                extra.append(words.domain_pref(domain, s, self._alternative(rng, domain, s, v)))
            if rtype is ReasoningType.MULTI_DOMAIN:
                d2, shared, prefs = self._second(domain, args, second)
                applicable.append(words.also(domain, d2))
                for s, v in sorted(prefs.items()):
                    applicable.append(words.domain_pref(d2, s, v))
                gold.append(ApiCall(method=f"Get{d2}", arguments=tuple(sorted({**shared, **prefs}.items()))))
                other_domains.add(d2)
        distractors = self._distractors(rng, words, other_domains)
        profile = applicable + extra + distractors
        rng.shuffle(profile)
        ids = {t: f"{dialogue['dialogue_id']}-{i}" for i, t in enumerate(dict.fromkeys(profile))}
        def instr(t):
            return StandingInstruction(nl_instruction=t, instruction_id=ids[t], instruction_src="sgd-build")
        return Example(
            example_id=f"{dialogue['dialogue_id']}",
            user_utterance=text,
            all_standing_instructions=[instr(t) for t in dict.fromkeys(profile)],
            applicable_standing_instructions=[instr(t) for t in dict.fromkeys(applicable)],
            api_calls=[c.render() for c in gold],
            reasoning_type=rtype,
            metadata={
                "reasoning_type": rtype.value,
                "label": TYPE_LABELS[rtype],
                "dialogue_id": dialogue["dialogue_id"],
                "service": service,
                "sgd_state": {domain: dict(sorted(kept.items()))},
                "requested_domains": [domain],
                "instruction_meaning": {t: words.truth[t] for t in dict.fromkeys(profile) if t in words.truth},
                "seed": self.seed,
            },
        )

    def _split(self, dialogue, cut: int, service: str, domain: str, params: dict[str, str]):
        """Context text up to ``cut``, the call's arguments stated there, the ones to move."""
        text = _context(dialogue, cut)
        ntext = f" {normalize(text)} "
        state = _state_at(dialogue, cut, service)
        # a slot the user states at the cut keeps the stated value, even if the user later
        # changed their mind before the SGD call (the dialogue so far wins)
        kept = {s: state[s] for s in params if s in state and self.schema.slot(domain, s) is not None}
        moved = {}
        for s, v in params.items():
            info = self.schema.slot(domain, s)
            if s in kept or info is None or not info.instructional or normalize(v) == "dontcare":
                continue
            if f" {normalize(v)} " in ntext:
                continue
            moved[s] = v
        return text, kept, moved

    def _synthetic_second(self, rng: random.Random, d2: str, params: dict[str, str]):
        """A second-domain call: D2's location-like slot gets the first call's location value,
        plus one or two preferences drawn from D2's ontology."""
        slots = self.schema.domains[d2]
        loc = next((v for s, v in sorted(params.items()) if s in LOCATION_SLOTS), None)
        out: dict[str, str] = {}
        loc_slot = next((s for s in sorted(slots) if s in LOCATION_SLOTS), None)
        if loc is not None and loc_slot is not None:
            out[loc_slot] = loc
        prefs = sorted(s for s, info in slots.items() if info.instructional and s not in LOCATION_SLOTS and info.values)
        for s in rng.sample(prefs, min(len(prefs), rng.choice([1, 2]))):
            vals = sorted(v for v in slots[s].values if normalize(v) not in ("dontcare", "") and len(normalize(v)) > 1)
            if vals:
                out[s] = rng.choice(vals)
        return (None, d2 + "_synthetic", out)

    def _instructional(self, domain: str, slot: str) -> bool:
        info = self.schema.slot(domain, slot)
        return bool(info and info.instructional)

    def _alternative(self, rng: random.Random, domain: str, slot: str, value: str, dry: bool = False) -> str | None:
        info = self.schema.slot(domain, slot)
        if info is None:
            return None
        pool = sorted(v for v in info.values if normalize(v) not in (normalize(value), "dontcare") and len(normalize(v)) > 1)
        if info.is_boolean:
            pool = [v for v in info.possible_values if v.lower() != value.lower()]
        if not pool:
            return None
        return pool[0] if dry else rng.choice(pool)

    @staticmethod
    def _dependents(slot: str, chain_of: dict[str, str]) -> set[str]:
        out, frontier = set(), {slot}
        while frontier:
            nxt = {s for s, parent in chain_of.items() if parent in frontier and s not in out}
            out |= nxt
            frontier = nxt
        return out

    def _second(self, domain: str, args: dict[str, str], second) -> tuple[str, dict[str, str], dict[str, str]] | None:
        _, service2, params2 = second
        d2 = service_domain(service2.replace("_synthetic", ""))
        if d2 not in self.schema.domains:
            return None
        shared = {s: v for s, v in params2.items() if s in LOCATION_SLOTS and v in {args.get(t) for t in LOCATION_SLOTS}}
        prefs = {
            s: v for s, v in params2.items()
            if s not in shared and self._instructional(d2, s) and normalize(v) != "dontcare" and self.schema.slot(d2, s)
        }
        if not prefs:
            return None
        return d2, shared, prefs

    def _distractors(self, rng: random.Random, words: Wording, exclude: set[str]) -> list[str]:
        pool = [x for x in self._pool if x[0] not in exclude]
        out: list[str] = []
        by_domain: dict[str, list[tuple[str, str, str]]] = {}
        for d, s, v in pool:
            by_domain.setdefault(d, []).append((d, s, v))
        domains = sorted(by_domain)
        for _ in range(rng.randint(3, 8)):
            if not domains:
                break
            d = rng.choice(domains)
            kind = rng.random()
            d_, s, v = rng.choice(by_domain[d])
            if kind < 0.15 and len(domains) > 1:
                out.append(words.also(d, rng.choice([x for x in domains if x != d])))
            elif kind < 0.3:
                d2, s2, v2 = rng.choice(by_domain[d])
                if s2 != s:
                    out.append(words.hop(s, v, s2, v2, d))
                    continue
                out.append(words.domain_pref(d, s, v))
            else:
                out.append(words.domain_pref(d, s, v))
        return out


def iter_sgd(paths: list[Path], errors: list[str] | None = None) -> Iterator[tuple[Path, dict[str, Any]]]:
    """SGD dialogues of the given split directories or ``dialogues_*.json`` files, sorted.

    With ``errors`` given, a file that is not a JSON list of dialogues, or a dialogue that lacks a
    field the builder reads (:func:`dialogue_problem`), is skipped and described there in one line
    naming file, dialogue and field; without it, the first such problem raises ``ValueError``."""
    files: list[Path] = []
    for path in paths:
        files += sorted(path.glob("dialogues_*.json")) if path.is_dir() else [path]
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            problem = f"{f}: invalid JSON at line {err.lineno}, column {err.colno}: {json_error_text(err.msg)}"
        except (OSError, UnicodeDecodeError) as err:
            problem = f"{f}: cannot read: {getattr(err, 'strerror', None) or err}"
        else:
            problem = None if isinstance(data, list) else f"{f}: not a list of SGD dialogues"
        if problem is not None:
            if errors is None:
                raise ValueError(problem)
            errors.append(problem)
            continue
        good = []
        for k, dialogue in enumerate(data):
            problem = dialogue_problem(dialogue)
            if problem is None:
                good.append(dialogue)
                continue
            name = dialogue.get("dialogue_id", f"#{k}") if isinstance(dialogue, dict) else f"#{k}"
            message = f"{f}: dialogue {name}: {problem}; dialogue skipped"
            if errors is None:
                raise ValueError(message)
            errors.append(message)
        yield from ((f, d) for d in sorted(good, key=lambda d: d["dialogue_id"]))


def dialogue_problem(dialogue: Any) -> str | None:
    """The first field an SGD dialogue (SGD release format) lacks or holds with the wrong type,
    as ``turns[1].utterance``-style text, or ``None`` when the builder can read it."""
    if not isinstance(dialogue, dict):
        return "not a JSON object"
    if not isinstance(dialogue.get("dialogue_id"), str):
        return "field dialogue_id missing or not a string"
    if not isinstance(dialogue.get("turns"), list):
        return "field turns missing or not a list"
    for i, turn in enumerate(dialogue["turns"]):
        if not isinstance(turn, dict):
            return f"turns[{i}] is not a JSON object"
        for field, kind in (("speaker", str), ("utterance", str), ("frames", list)):
            if not isinstance(turn.get(field), kind):
                return f"field turns[{i}].{field} missing or not a {kind.__name__ if kind is list else 'string'}"
        for j, frame in enumerate(turn["frames"]):
            if not isinstance(frame, dict) or not isinstance(frame.get("service"), str):
                return f"field turns[{i}].frames[{j}].service missing or not a string"
    return None


def check_sgd_inputs(paths: list[Path]) -> None:
    """Raise :class:`~csp_check.errors.UsageError` unless every path is SGD: a split directory
    holding ``dialogues_*.json`` and ``schema.json``, or a ``dialogues_*.json`` file with
    ``schema.json`` beside it (the layout of the SGD release, which ``nlsi build`` reads)."""

    need = "nlsi build reads SGD: dialogues_*.json files (or their split directory) with schema.json beside them"
    for path in paths:
        folder = path if path.is_dir() else path.parent
        if path.is_dir() and not any(path.glob("dialogues_*.json")):
            raise UsageError(f"{path}: no dialogues_*.json in it; {need}")
        if not path.is_dir() and not (path.name.startswith("dialogues_") and path.suffix == ".json"):
            raise UsageError(f"{path}: not an SGD dialogues_*.json file; {need}")
        if not (folder / "schema.json").is_file():
            raise UsageError(f"{path}: no schema.json in {folder}; {need}")


def schema_for(paths: list[Path]) -> NlsiSchema:
    """The schema and ontology of the SGD split directories (or of files' parent directories)."""
    dirs = list(dict.fromkeys(p if p.is_dir() else p.parent for p in paths))
    return load_schema(dirs)


def build_examples(paths: list[Path], seed: int = 0, paraphrase: float = 0.5, limit: int | None = None,
                   errors: list[str] | None = None) -> tuple[NlsiSchema, list[Example]]:
    """Build examples from SGD ``paths`` (split directories or dialogue files); see module doc.
    Unreadable files and dialogues go to ``errors`` (one line each) when it is given
    (:func:`iter_sgd`); the others are still built. A dialogue the builder fails on is reported
    the same way."""
    schema = schema_for(paths)
    builder = Builder(schema, seed=seed, paraphrase=paraphrase)
    out = []
    for f, dialogue in iter_sgd(paths, errors):
        try:
            ex = builder.build(dialogue)
        except (KeyError, TypeError, ValueError, IndexError) as err:
            if errors is None:
                raise
            errors.append(f"{f}: dialogue {dialogue['dialogue_id']}: {type(err).__name__}: {err}; dialogue skipped")
            continue
        if ex is not None:
            out.append(ex)
            if limit and len(out) >= limit:
                break
    return schema, out
