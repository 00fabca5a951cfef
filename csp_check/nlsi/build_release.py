"""Build examples from SGD dialogues the way the NLSI release's generator builds them.

Source: the authors' ``conversion/create_template_dataset.py`` (nikitacs16/nlsi, read, not
copied) and its tables in the release folder (``schema_updated_v5.json`` with ``is_instruction``
and ``hierarchy``, ``slot_value_dict.json``, ``domain-value.tsv``, ``domain.txt``,
``common-slots.tsv``). Unlike :mod:`csp_check.nlsi.build` (canonical values, values moved out of
the dialogue), the gold call is the SGD dialogue *state* at the cut, so its free values are the
user's own spans, and only what the state holds but the context does not becomes an instruction:

- **single utterance** (``convert_to_standing_instructions_single_domain``): the context is the
  first user turn; the call is the state of the last user frame before the intent changes; a slot
  the first frame already holds is said (the first frame's span is replaced by the final one in
  the text, as the generator does); every other slot becomes "If I ask for D, my preferred s is
  v" ("my preference is that it s" for ``True``); a non-instructional slot (hierarchy -10) not
  said drops the dialogue;
- **two user turns** (the release's ``old_instructions_dataset.json`` holds contexts of one or
  two user turns, none longer): the context is user, agent, user; the call is the second user
  frame's state; a slot either user frame holds is said (so only a second service brings
  instructions);
- **NoneApplicable** is an example whose every slot is said; **Plain** has instructions;
- **MultiDomain** (``convert_to_standing_instructions_multiple_domain`` + ``get_api_calls``): the
  shared SGD copies hold single-service dialogues only, so the later service's frame is made up
  as SGD would annotate it: the first service's place moved to the second's place slot
  (``common-slots.tsv`` pairs marked "y" between location slots) and one or two of the second's
  instructional slots with values of ``slot_value_dict.json``. The frames merge by slot name
  (first wins) and every service gets every merged slot whose *name* it has; the second
  service's slots become instructions unless their value is said (a ``True`` always does: the
  generator's test there compares a string with ``True`` and skips every value said, which leaves
  "has wifi" uninstructed after "child-friendly"), plus "If I ask for D1, then also look at D2". Pairs: ``domain-value.tsv`` "y" and ``domain.txt`` "yes".

Dialogues with a service outside the release schema are skipped. Deterministic per ``seed`` and
dialogue id. ``dontcare`` values and request markers (``slot="?"``) are left out of the calls.
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from csp_check.nlsi.build import iter_sgd
from csp_check.nlsi.models import Example, ReasoningType, StandingInstruction
from csp_check.nlsi.schema import LOCATION_SLOTS, service_domain

#: How the generator names a service's domain in an instruction (its ``replace_domains``).
INSTRUCTION_DOMAIN = {"Hotels_2": "HouseStays", "Services_1": "Salon", "Services_2": "Dentist", "Services_3": "Doctor"}


def _rng(seed: int, key: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}:release:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _domain_word(service: str) -> str:
    return INSTRUCTION_DOMAIN.get(service, service.split("_")[0])


def preference(service: str, slot: str, value: str) -> str:
    """The generator's plain template: "If I ask for D, my preferred s is v" (``True``: "my
    preference is that it s")."""
    s = slot.replace("_", " ")
    if value == "True":
        return f"If I ask for {_domain_word(service)}, my preference is that it {s}"
    return f"If I ask for {_domain_word(service)}, my preferred {s} is {value}"


def also(first: str, second: str) -> str:
    """The generator's MultiDomain template: "If I ask for D1, then also look at D2"."""
    return f"If I ask for {first.split('_')[0]}, then also look at {second.split('_')[0]}"


class ReleaseTables:
    """The release folder's schema (slots, ``is_instruction``, ``hierarchy``), ontology and pair
    tables. ``folder``: the release folder (``../shared/data/nlsi``); missing files raise
    ``OSError``."""

    def __init__(self, folder: Path):
        services = json.loads((folder / "schema_updated_v5.json").read_text(encoding="utf-8"))
        self.slots: dict[str, list[str]] = {}
        self.hierarchy: dict[str, dict[str, int]] = {}
        self.instructional: dict[str, set[str]] = {}
        for sv in services:
            name = sv["service_name"]
            names = [s["name"] for s in sv["slots"]]
            for intent in sv.get("intents", []):
                for key in ("required_slots", "optional_slots", "result_slots"):
                    names += [s for s in intent.get(key, []) if s not in names]
            self.slots[name] = names
            self.hierarchy[name] = {s["name"]: int(h) for s, h in zip(sv["slots"], sv.get("hierarchy", []))}
            self.instructional[name] = {s["name"] for s in sv["slots"] if str(s.get("is_instruction")) == "True"}
        self.ontology: dict[str, dict[str, list[str]]] = json.loads((folder / "slot_value_dict.json").read_text(encoding="utf-8"))
        with open(folder / "domain-value.tsv", encoding="utf-8") as fh:
            self.combos = {r["domain"]: r["value"] for r in csv.DictReader(fh, delimiter="\t")}
        self.domain_pairs = set()
        for line in (folder / "domain.txt").read_text(encoding="utf-8").splitlines():
            parts = line.strip().split("\t")
            if len(parts) == 3 and parts[2] == "yes":
                self.domain_pairs.add((parts[0], parts[1]))
        self.places: dict[tuple[str, str], list[tuple[str, str]]] = {}
        with open(folder / "common-slots.tsv", encoding="utf-8") as fh:
            for r in csv.DictReader(fh, delimiter="\t"):
                if r["value"] == "y" and r["slot_1"] in LOCATION_SLOTS and r["slot_2"] in LOCATION_SLOTS:
                    self.places.setdefault((r["domain_1"], r["domain_2"]), []).append((r["slot_1"], r["slot_2"]))

    def partners(self, service: str) -> list[str]:
        """Second services the generator pairs with ``service``: combination "y", and the
        "also look at" pair "yes" in that order."""
        out = []
        for other in self.slots:
            if other == service or "-".join(sorted([service, other])) not in self.combos:
                continue
            if self.combos["-".join(sorted([service, other]))] == "y" and (
                    service.split("_")[0], other.split("_")[0]) in self.domain_pairs:
                out.append(other)
        return out


def _user_frames(dialogue: dict[str, Any], service: str) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i, turn in enumerate(dialogue["turns"]):
        if turn["speaker"] != "USER":
            continue
        for frame in turn["frames"]:
            if frame["service"] == service and frame.get("state"):
                out.append((i, frame["state"]))
    return out


def _values(state: dict[str, Any]) -> dict[str, str]:
    return {s: v[0] for s, v in state.get("slot_values", {}).items() if v and v[0] != "dontcare"}


def _text(dialogue: dict[str, Any], upto: int) -> str:
    return "".join(("User: " if t["speaker"] == "USER" else "Agent: ") + t["utterance"] + "\n"
                   for t in dialogue["turns"][: upto + 1])


def _call(service: str, args: dict[str, str]) -> str:
    inner = ", ".join(f'{s}="{v}"' for s, v in args.items())
    return f"Get{service_domain(service)}({inner})"


class ReleaseBuilder:
    """Builds generator-style examples (module doc) from single-service SGD dialogues."""

    def __init__(self, tables: ReleaseTables, seed: int = 0, multi_domain: float = 0.3):
        self.t, self.seed, self.multi_domain = tables, seed, multi_domain

    def build(self, dialogue: dict[str, Any]) -> Example | None:
        """One example, or None (a service outside the schema, no state, a non-instructional
        slot the context does not hold)."""
        if len(dialogue.get("services", [])) != 1 or dialogue["services"][0] not in self.t.slots:
            return None
        service = dialogue["services"][0]
        rng = _rng(self.seed, dialogue["dialogue_id"])
        frames = _user_frames(dialogue, service)
        if not frames:
            return None
        intent = frames[0][1].get("active_intent")
        same = [(i, st) for i, st in frames if st.get("active_intent") == intent]
        single = len(same) < 2 or rng.random() < 0.5
        last_i, last = same[-1] if single else same[1]
        state = _values(last)
        if not state:
            return None
        if single:
            first_i, first = frames[0]
            said = set(_values(first))
            text = _text(dialogue, first_i)
            for s, v in _values(first).items():
                if s in state and v != state[s]:
                    text = text.replace(v, state[s])
        else:
            said = {s for i, st in frames if i <= last_i for s in _values(st)}
            text = _text(dialogue, last_i)
        applicable: list[str] = []
        for s, v in state.items():
            if s in said:
                continue
            if s not in self.t.instructional[service] or self.t.hierarchy[service].get(s) == -10:
                return None
            applicable.append(preference(service, s, v))
        calls = [_call(service, state)]
        rtype = ReasoningType.PLAIN if applicable else ReasoningType.NONE_APPLICABLE
        partners = self.t.partners(service)
        if partners and rng.random() < self.multi_domain:
            second = rng.choice(sorted(partners))
            extra = self._second_frame(rng, service, second, state)
            if extra is not None:
                merged = dict(state)
                for s, v in extra.items():
                    merged.setdefault(s, v)
                calls = [_call(sv, {s: v for s, v in merged.items() if s in self.t.slots[sv]}) for sv in (service, second)]
                said_values = {v for s, v in state.items() if s in said}
                for s, v in extra.items():
                    if s not in state and (v not in said_values or v == "True"):
                        applicable.append(preference(second, s, v))
                applicable.append(also(service, second))
                rtype = ReasoningType.MULTI_DOMAIN
        called = {c[3 : c.index("(")] for c in calls}  # no distractor for a domain called
        profile = applicable + self._distractors(rng, called)
        rng.shuffle(profile)
        profile = list(dict.fromkeys(profile))

        def instr(k: int, t: str) -> StandingInstruction:
            return StandingInstruction(nl_instruction=t, instruction_id=f"{dialogue['dialogue_id']}-{k}", instruction_src="release-build")
        ids = {t: k for k, t in enumerate(profile)}
        return Example(
            example_id=dialogue["dialogue_id"], user_utterance=text,
            all_standing_instructions=[instr(k, t) for k, t in enumerate(profile)],
            applicable_standing_instructions=[instr(ids[t], t) for t in dict.fromkeys(applicable)],
            api_calls=calls, reasoning_type=rtype,
            metadata={"reasoning_type": rtype.value, "dialogue_id": dialogue["dialogue_id"], "service": service,
                      "style": "single utterance" if single else "two user turns", "seed": self.seed},
        )

    def _second_frame(self, rng: random.Random, first: str, second: str, state: dict[str, str]) -> dict[str, str] | None:
        """The second service's frame as SGD would hold it: the first's place in the paired
        slot, and one or two instructional slots of the second with ontology values (not a slot
        the first call holds under the same name)."""
        out: dict[str, str] = {}
        for s1, s2 in self.t.places.get((first, second), []) + [(b, a) for a, b in self.t.places.get((second, first), [])]:
            if s1 in state and s2 in self.t.slots[second]:
                out.setdefault(s2, state[s1])
        values = self.t.ontology.get(service_domain(second).replace("HouseStays", "Hotels"), {})
        pool = sorted(s for s in self.t.instructional[second]
                      if s not in state and s not in LOCATION_SLOTS and s not in out and values.get(s)
                      and self.t.hierarchy[second].get(s) != -10)
        if not pool:
            return None
        for s in rng.sample(pool, min(len(pool), rng.choice([1, 2]))):
            out[s] = rng.choice(sorted(v for v in values[s] if v not in ("dontcare", "?")) or ["True"])
        return out

    def _distractors(self, rng: random.Random, exclude: set[str]) -> list[str]:
        pool = sorted((sv, s) for sv, slots in self.t.instructional.items() if service_domain(sv) not in exclude
                      for s in slots if self.t.ontology.get(service_domain(sv), {}).get(s))
        out = []
        for sv, s in rng.sample(pool, min(len(pool), rng.randint(3, 6))):
            vals = sorted(v for v in self.t.ontology[service_domain(sv)][s] if v not in ("dontcare", "?"))
            if vals:
                out.append(preference(sv, s, rng.choice(vals)))
        return out


def build_release_style(paths: list[Path], release: Path, seed: int = 0, skip_ids: set[str] | None = None,
                        limit: int | None = None) -> list[Example]:
    """Generator-style examples from SGD ``paths`` (split directories or dialogue files) with the
    release folder's tables; dialogues whose id is in ``skip_ids`` are left out (the release's
    own dialogues, when building from SGD train)."""
    builder = ReleaseBuilder(ReleaseTables(release), seed=seed)
    out = []
    for _, dialogue in iter_sgd(paths):
        if skip_ids and dialogue["dialogue_id"] in skip_ids:
            continue
        ex = builder.build(dialogue)
        if ex is not None:
            out.append(ex)
            if limit and len(out) >= limit:
                break
    return out
