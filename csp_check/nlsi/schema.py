"""The API schema of NLSI calls (spec §2): domains, their slots, categorical values, an ontology.

Built from SGD-style ``schema.json`` files (a list of services with ``slots`` and ``intents``).
The NLSI domain of an SGD service is its name without ``_N``, except ``Services_1`` → Salons,
``Services_2`` → Dentists, ``Services_3`` → Doctors, ``Hotels_2`` → HouseStays (spec §2, paper
App. A). A domain's slots are the union of its services' slots; a slot is categorical when every
service declaring it is. The *ontology* (values per domain slot, surface aliases → canonical
value) comes from ``possible_values`` and, for an SGD directory, from the dialogues' annotated
acts (``values`` → ``canonical_values``). :func:`normalize` is the released evaluation's
normalisation (paper §5.1, App. B).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SPECIAL_DOMAINS = {"Services_1": "Salons", "Services_2": "Dentists", "Services_3": "Doctors", "Hotels_2": "HouseStays"}
#: Slots whose values change on every request (dates, times, counts, names of one-off items):
#: never turned into standing instructions (paper §3.2 "non-instructional slots").
NON_INSTRUCTIONAL = re.compile(
    r"date|time|day|number_of|party_size|travelers|group_size|passengers|amount|balance|price|fare|"
    r"_name$|title|address|phone|^count|rating_count|song|track|album|^name$|artist_name|recipient|"
    r"temperature|humidity|wind|precipitation|duration|distance|ride_fare|approximate|total"
)

#: Number words a count slot's digit value may be said as ("two people"): aliases of the value.
NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "single": "1", "no": "0",
}
#: Slots whose values a second-domain call may share with the first (paper §3.1 MultiDomain).
#: The NLSI release's own method spellings (``old_instructions_dataset.json``: ``GetDenists``
#: for Dentists, ``GetRentalcars``, ``GetHouses`` for HouseStays): accepted as aliases of the
#: domain's method and reported apart (:meth:`NlsiSchema.method_alias`).
METHOD_ALIASES = {"GetDenists": "Dentists", "GetRentalcars": "RentalCars", "GetHouses": "HouseStays"}
#: The release's schema and ontology file names (a release folder holds them instead of SGD's
#: ``schema.json``).
RELEASE_SCHEMA, RELEASE_ONTOLOGY = "schema_updated_v5.json", "slot_value_dict.json"
#: The release's table of same-meaning slots of one domain's services (``domain``, ``slot_1``,
#: ``slot_2``, ``value`` "y"/"n"; ``origin_city`` of Flights_1 is ``origin`` of Flights_2).
RELEASE_DOMAIN_SLOTS = "common-domain-slots.tsv"
LOCATION_SLOTS = frozenset({
    "city", "location", "where_to", "area", "city_of_event", "destination", "destination_city",
    "to_city", "to_location", "dest",
})


def service_domain(service: str) -> str:
    """NLSI domain of an SGD service name (``Restaurants_1`` → ``Restaurants``; spec §2)."""
    return SPECIAL_DOMAINS.get(service, re.sub(r"_\d+$", "", service))


def normalize(value: str) -> str:
    """The released evaluation's normalisation: NFKC, lower case, quotes unified, ``vs`` →
    ``versus``, punctuation removed, whitespace collapsed (paper §5.1, App. B)."""
    s = unicodedata.normalize("NFKC", str(value)).lower()
    s = re.sub(r"\bvs\b\.?", "versus", s)
    s = re.sub(r"[^\w\s]|_", " ", s)
    return " ".join(s.split())


def _spelling_key(form: str) -> tuple[int, int, int, str]:
    """Sort key of :func:`spelling`: fewer capitals inside a word ("San DIego" has one), then more
    words begun with a capital ("New York" before "new york"), then the punctuation kept ("St.
    Louis" before "St Louis": the longer), then the text itself."""
    words = form.split()
    inner = sum(ch.isupper() for w in words for ch in w[1:])
    return (inner, -sum(w[:1].isupper() for w in words), -len(form), form)


def spelling(forms: Iterable[str], said: str | None = None) -> str:
    """The one spelling of a value written several ways that normalise alike ("San Diego", "San
    DIego"), chosen by rule, never by a set's hash order: the user's own spelling ``said`` when
    it is one of ``forms``; else the ordinary spelling (:func:`_spelling_key`: no capital inside a
    word, words capitalised, punctuation kept, then alphabetical). Raises ``ValueError`` for no forms."""
    forms = list(forms)
    if not forms:
        raise ValueError("no spelling to choose from")
    if said is not None and said in forms:
        return said
    return min(forms, key=_spelling_key)


def spellings(values: Iterable[str]) -> dict[str, str]:
    """``{normalised value: its spelling}`` (:func:`spelling`) of a set of values."""
    groups: dict[str, list[str]] = {}
    for v in values:
        groups.setdefault(normalize(v), []).append(v)
    return {n: spelling(forms) for n, forms in groups.items()}


@dataclass
class SlotInfo:
    """One slot of a domain: categorical or not, its possible values, values seen in data."""

    name: str
    is_categorical: bool = False
    possible_values: list[str] = field(default_factory=list)
    values: set[str] = field(default_factory=set)  # canonical values (possible + seen)
    description: str = ""
    dontcare: bool = False  # an intent of the schema takes the slot as optional with "dontcare"

    @property
    def is_boolean(self) -> bool:
        """True for a ``True``/``False`` categorical slot."""
        return self.is_categorical and {v.lower() for v in self.possible_values} <= {"true", "false"}

    @property
    def instructional(self) -> bool:
        """May this slot hold a standing preference (paper §3.2)? Heuristic on the slot name."""
        return not NON_INSTRUCTIONAL.search(self.name)


@dataclass
class NlsiSchema:
    """Domains → slots, with an ontology of values and aliases (``alias norm`` → canonical)."""

    domains: dict[str, dict[str, SlotInfo]] = field(default_factory=dict)
    aliases: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    services: dict[str, str] = field(default_factory=dict)  # SGD service → domain
    #: SGD service → its slot names, in schema order (a domain merges its services' slots)
    service_slots: dict[str, list[str]] = field(default_factory=dict)
    #: domain → pairs of its slots that mean the same in two of its services (the release's
    #: ``common-domain-slots.tsv`` rows marked "y"); empty without the table
    same_slots: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: MultiDomain carry-over as the release's generator does it (a release folder schema): a
    #: call reached through an also-rule gets every value of its source call whose slot *name*
    #: its service has too (the merged SGD frame's values go to every service declaring the
    #: slot); False (an SGD folder, our builder): it shares the source's location only
    carry_same_names: bool = False
    #: The release's value convention (a release folder schema): its calls keep the user's own
    #: words for free slots (dates, times, places: SGD's state spans), so the text grounding
    #: reads them by their shape (:mod:`csp_check.nlsi.spans`); False (an SGD folder, our
    #: builder): SGD's canonical values (ISO dates), matched through the ontology only
    user_words: bool = False
    _canon: dict[tuple[str, str], tuple[int, dict[str, list[str]]]] = field(default_factory=dict, repr=False)
    _reverse: dict[tuple[str, str], tuple[int, dict[str, list[str]]]] = field(default_factory=dict, repr=False)

    # -- lookups -----------------------------------------------------------------------------
    def method_domain(self, method: str) -> str | None:
        """The domain of ``GetX`` when ``X`` is a domain of the schema (exact), or of a release
        spelling (:data:`METHOD_ALIASES`), else None."""
        if method.startswith("Get") and method[3:] in self.domains:
            return method[3:]
        alias = METHOD_ALIASES.get(method)
        return alias if alias in self.domains else None

    def method_alias(self, method: str) -> bool:
        """Is ``method`` a release spelling (``GetDenists``) rather than ``Get`` + a domain?"""
        return not (method.startswith("Get") and method[3:] in self.domains) and self.method_domain(method) is not None

    def slot(self, domain: str, slot: str) -> SlotInfo | None:
        """The slot ``slot`` of ``domain``, or None."""
        return self.domains.get(domain, {}).get(slot)

    def canonical(self, domain: str, slot: str, value: str, said: str | None = None) -> str:
        """The canonical form of ``value`` for the slot (alias lookup on normalised text): a value
        of the slot is its own, in the spelling :func:`spelling` chooses among the slot's values
        that normalise alike (``said``, the words the user or the instruction wrote, when they
        are one of them)."""
        n = normalize(value)
        forms = self.forms(domain, slot, value)
        if forms:
            return spelling(forms, said=said)
        return self.aliases.get((domain, slot), {}).get(n, value)

    def forms(self, domain: str, slot: str, value: str) -> list[str]:
        """The slot's values that normalise like ``value`` (its spellings, sorted), or []."""
        info = self.slot(domain, slot)
        if info is None:
            return []
        index = self._canon.get((domain, slot))
        if index is None or index[0] != len(info.values):
            groups: dict[str, list[str]] = {}
            for v in sorted(info.values):
                groups.setdefault(normalize(v), []).append(v)
            index = self._canon[(domain, slot)] = (len(info.values), groups)
        return index[1].get(normalize(value), [])

    def surface_forms(self, domain: str, slot: str, value: str) -> list[str]:
        """Every normalised alias of ``value``'s canonical form for the slot (itself included)."""
        canon = normalize(self.canonical(domain, slot, value))
        table = self.aliases.get((domain, slot), {})
        key = (domain, slot)
        rev = self._reverse.get(key)
        if rev is None or rev[0] != len(table):
            index: dict[str, list[str]] = {}
            for alias, c in table.items():
                index.setdefault(normalize(c), []).append(alias)
            rev = self._reverse[key] = (len(table), index)
        return list(dict.fromkeys([canon] + rev[1].get(canon, [])))

    def value_ok(self, domain: str, slot: str, value: str) -> bool:
        """Is ``value`` allowed for a categorical slot (after normalisation)? Free slots: True."""
        info = self.slot(domain, slot)
        if info is None or not info.is_categorical or normalize(value) == "dontcare":
            return True
        return normalize(value) in {normalize(v) for v in info.possible_values}

    # -- building ----------------------------------------------------------------------------
    def add_service(self, service: dict[str, Any]) -> None:
        """Merge one SGD service (``service_name``, ``slots``) into its domain."""
        name = service["service_name"]
        domain = service.get("nlsi_domain") or service_domain(name)
        self.services[name] = domain
        self.service_slots[name] = [str(s["name"]) for s in service.get("slots", [])]
        slots = self.domains.setdefault(domain, {})
        for s in service.get("slots", []):
            cat = bool(s.get("is_categorical"))
            pv = [str(v) for v in s.get("possible_values", [])]
            info = slots.get(s["name"])
            if info is None:
                info = slots[s["name"]] = SlotInfo(s["name"], cat, list(pv), description=s.get("description", ""))
            else:
                info.is_categorical = info.is_categorical and cat
                info.possible_values = sorted(set(info.possible_values) | set(pv)) if info.is_categorical else []
            info.values.update(pv)
            info.dontcare = info.dontcare or bool(s.get("dontcare"))
            info.values.update(str(v) for v in s.get("values_seen", []))
            for alias, canon in (s.get("aliases") or {}).items():
                self.add_value(domain, s["name"], canon, alias)
        for intent in service.get("intents", []):
            for slot, default in (intent.get("optional_slots") or {}).items():
                if normalize(str(default)) == "dontcare" and slot in slots:
                    slots[slot].dontcare = True

    def add_value(self, domain: str, slot: str, canonical: str, surface: str | None = None) -> None:
        """Record a value of a slot seen in data, and ``surface`` as an alias of it."""
        info = self.slot(domain, slot)
        if info is None or not canonical or canonical == "dontcare":
            return
        info.values.add(canonical)
        table = self.aliases.setdefault((domain, slot), {})
        table.setdefault(normalize(canonical), canonical)
        if canonical.isdigit() and not info.is_boolean:
            for word, digit in NUMBER_WORDS.items():
                if digit == canonical and word != "no":
                    table.setdefault(word, canonical)
        if surface and normalize(surface):
            table.setdefault(normalize(surface), canonical)

    def add_dialogues(self, dialogues: Iterable[dict[str, Any]]) -> None:
        """Collect values and aliases from SGD dialogues' annotated acts and service calls."""
        for dialogue in dialogues:
            for turn in dialogue.get("turns") or []:
                for frame in (turn.get("frames") or []) if isinstance(turn, dict) else []:
                    domain = self.services.get(frame.get("service", ""), service_domain(frame.get("service", "")))
                    for act in frame.get("actions", []):
                        canon = act.get("canonical_values") or []
                        for i, v in enumerate(act.get("values") or []):
                            self.add_value(domain, act.get("slot", ""), canon[i] if i < len(canon) else v, v)
                    call = frame.get("service_call")
                    if call:
                        for slot, v in call.get("parameters", {}).items():
                            self.add_value(domain, slot, v)

    def add_release_ontology(self, table: dict[str, Any]) -> None:
        """Add the release's ``slot_value_dict.json`` (``{domain: {slot: [values]}}``): a release
        domain is the NLSI domain of every SGD service named ``DOMAIN_N`` (Services → Salons,
        Dentists, Doctors); values go only to slots the domain has."""
        for key, slots in table.items():
            if not isinstance(slots, dict):
                continue
            targets = {d for svc, d in self.services.items() if re.sub(r"_\d+$", "", svc) == key} or {key}
            for domain in sorted(targets):
                for slot, values in slots.items():
                    for v in values if isinstance(values, list) else []:
                        if isinstance(v, str) and v.strip():
                            self.add_value(domain, slot, v)

    def add_domain_slots(self, text: str) -> None:
        """Read the release's ``common-domain-slots.tsv`` (tab-separated, a header row; CRLF
        lines): the rows marked "y" pair two slots of one domain (:attr:`same_slots`)."""
        for line in text.splitlines()[1:]:
            cells = [c.strip().strip('"') for c in line.split("\t")]
            if len(cells) == 4 and cells[3].lower() == "y" and (cells[1], cells[2]) not in self.same_slots.get(cells[0], []):
                self.same_slots.setdefault(cells[0], []).append((cells[1], cells[2]))

    def to_json(self) -> list[dict[str, Any]]:
        """SGD-style schema (one service per domain) with ``values_seen`` and ``aliases`` per slot."""
        out = []
        for domain, slots in sorted(self.domains.items()):
            out.append({
                "service_name": domain,
                "nlsi_domain": domain,
                "slots": [
                    {
                        "name": s.name,
                        "description": s.description,
                        "is_categorical": s.is_categorical,
                        "possible_values": s.possible_values,
                        "dontcare": s.dontcare,
                        "values_seen": sorted(s.values),
                        "aliases": {a: c for a, c in sorted(self.aliases.get((domain, s.name), {}).items()) if a != normalize(c)},
                    }
                    for s in slots.values()
                ],
                "intents": [],
            })
        return out


def load_schema(paths: Iterable[Path]) -> NlsiSchema:
    """Load a schema from ``schema.json`` files and/or SGD split directories.

    A directory contributes its ``schema.json`` and the ontology of its ``dialogues_*.json``;
    a directory of the NLSI release (``schema_updated_v5.json``, no ``schema.json``) contributes
    that schema, the ontology ``slot_value_dict.json`` and the same-meaning slot pairs of
    ``common-domain-slots.tsv`` (:attr:`NlsiSchema.same_slots`);
    a file is an SGD-style service list (ours adds ``values_seen`` / ``aliases``). Raises
    ``FileNotFoundError`` for a missing path and ``ValueError`` for a file that is not a list of
    services.
    """
    schema = NlsiSchema()
    dirs, ontologies = [], []
    for path in paths:
        path = Path(path)
        if path.is_dir() and not (path / "schema.json").exists() and (path / RELEASE_SCHEMA).exists():
            files = [path / RELEASE_SCHEMA]
            if (path / RELEASE_ONTOLOGY).exists():
                ontologies.append(path / RELEASE_ONTOLOGY)
            schema.carry_same_names = schema.user_words = True
            if (path / RELEASE_DOMAIN_SLOTS).exists():
                schema.add_domain_slots((path / RELEASE_DOMAIN_SLOTS).read_text(encoding="utf-8"))
        elif path.is_dir():
            files = [path / "schema.json"]
            dirs.append(path)
        else:
            files = [path]
        for f in files:
            data = json.loads(f.read_text(encoding="utf-8"))
            if not isinstance(data, list) or not all(isinstance(s, dict) and "service_name" in s for s in data):
                raise ValueError(f"{f}: not an SGD-style schema (a list of services)")
            for service in data:
                schema.add_service(service)
    for f in ontologies:
        table = json.loads(f.read_text(encoding="utf-8"))
        if not isinstance(table, dict):
            raise ValueError(f"{f}: not the release's ontology (a JSON object of domains)")
        schema.add_release_ontology(table)
    for d in dirs:
        for f in sorted(d.glob("dialogues_*.json")):
            try:
                dialogues = json.loads(f.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, ValueError):
                continue  # an unreadable dialogue file adds no values; its reader reports it
            if isinstance(dialogues, list):
                schema.add_dialogues(d for d in dialogues if isinstance(d, dict))
    return schema
