"""Write ``examples/dialogues.jsonl`` from the compact dialogues below, and verify every span.

Run ``python examples/make_examples.py``: it computes each act's character span from the
surface text it names (its first occurrence in the utterance, or the ``nth`` one), checks that
``utterance[start:end]`` is that surface, validates every line as a ``Dialogue`` and checks the
KB facts the dialogues rely on against ``kb/restaurants.json``. ``--check`` only verifies the
committed file (exit 1 on any mismatch).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "dialogues.jsonl"
KB = HERE.parent / "kb" / "restaurants.json"

# act: (role, act name, slot, value, canonical, surface-or-None); a turn: (speaker, text, acts, state)
D = "restaurant"


def act(role, name, slot="", value=None, canonical=None, surface=None):
    return (role, name, slot, value, canonical if canonical is not None else value, surface)


DIALOGUES = {
    "consistent-spanish-count": [
        ("user", "I'd like a spanish restaurant.", [act("inform", "inform", "food", "spanish", surface="spanish")], {"food": ["spanish"]}),
        (
            "system",
            "There are two spanish restaurants. Any price range?",
            [act("count", "inform_count", "choice", "two", "2", "two"), act("inform", "inform", "food", "spanish", surface="spanish"), act("request", "request", "pricerange")],
            {"food": ["spanish"]},
        ),
        ("user", "Something cheap, please.", [act("inform", "inform", "pricerange", "cheap", surface="cheap")], {"food": ["spanish"], "pricerange": ["cheap"]}),
        (
            "system",
            "El Farolito is a cheap spanish place in the west.",
            [
                act("offer", "recommend", "name", "el farolito", surface="El Farolito"),
                act("offer", "recommend", "pricerange", "cheap", surface="cheap"),
                act("offer", "recommend", "food", "spanish", surface="spanish"),
                act("offer", "recommend", "area", "west", surface="west"),
            ],
            {"food": ["spanish"], "pricerange": ["cheap"]},
        ),
        ("user", "Great, what is their phone number?", [act("request", "request", "phone")], {"food": ["spanish"], "pricerange": ["cheap"]}),
        ("system", "It is 01632960102.", [act("inform", "inform", "phone", "01632960102", surface="01632960102")], {"food": ["spanish"], "pricerange": ["cheap"]}),
    ],
    "consistent-no-result": [
        (
            "user",
            "Is there a lebanese restaurant in the north?",
            [act("inform", "inform", "food", "lebanese", surface="lebanese"), act("inform", "inform", "area", "north", surface="north")],
            {"food": ["lebanese"], "area": ["north"]},
        ),
        (
            "system",
            "Sorry, there is no lebanese restaurant in the north.",
            [act("no_result", "nooffer", "food", "lebanese", surface="lebanese"), act("no_result", "nooffer", "area", "north", surface="north")],
            {"food": ["lebanese"], "area": ["north"]},
        ),
        ("user", "What about the centre?", [act("inform", "inform", "area", "centre", surface="centre")], {"food": ["lebanese"], "area": ["centre"]}),
        (
            "system",
            "Cedar Garden serves lebanese food in the centre.",
            [
                act("offer", "recommend", "name", "cedar garden", surface="Cedar Garden"),
                act("offer", "recommend", "food", "lebanese", surface="lebanese"),
                act("offer", "recommend", "area", "centre", surface="centre"),
            ],
            {"food": ["lebanese"], "area": ["centre"]},
        ),
    ],
    "consistent-italian-address": [
        (
            "user",
            "I want cheap italian food.",
            [act("inform", "inform", "pricerange", "cheap", surface="cheap"), act("inform", "inform", "food", "italian", surface="italian")],
            {"pricerange": ["cheap"], "food": ["italian"]},
        ),
        (
            "system",
            "There is one cheap italian restaurant: Trattoria Bellini, in the centre.",
            [
                act("count", "inform_count", "choice", "one", "1", "one"),
                act("inform", "inform", "pricerange", "cheap", surface="cheap"),
                act("inform", "inform", "food", "italian", surface="italian"),
                act("offer", "recommend", "name", "trattoria bellini", surface="Trattoria Bellini"),
                act("inform", "inform", "area", "centre", surface="centre"),
            ],
            {"pricerange": ["cheap"], "food": ["italian"]},
        ),
        ("user", "What is the address?", [act("request", "request", "address")], {"pricerange": ["cheap"], "food": ["italian"]}),
        (
            "system",
            "Trattoria Bellini is at 22 Weaver Street.",
            [act("inform", "inform", "name", "trattoria bellini", surface="Trattoria Bellini"), act("inform", "inform", "address", "22 weaver street", surface="22 Weaver Street")],
            {"pricerange": ["cheap"], "food": ["italian"]},
        ),
    ],
    "inconsistent-amount": [
        ("user", "I'm looking for a spanish restaurant.", [act("inform", "inform", "food", "spanish", surface="spanish")], {"food": ["spanish"]}),
        (
            "system",
            "There are three spanish restaurants. What price range would you like?",
            [act("count", "inform_count", "choice", "three", "3", "three"), act("inform", "inform", "food", "spanish", surface="spanish"), act("request", "request", "pricerange")],
            {"food": ["spanish"]},
        ),
    ],
    "inconsistent-offer": [
        ("user", "I would like spanish food, please.", [act("inform", "inform", "food", "spanish", surface="spanish")], {"food": ["spanish"]}),
        (
            "system",
            "How about Cedar Garden? It serves lebanese food.",
            [act("offer", "offer", "name", "cedar garden", surface="Cedar Garden"), act("offer", "offer", "food", "lebanese", surface="lebanese")],
            {"food": ["spanish"]},
        ),
    ],
    "inconsistent-coreference": [
        ("user", "I need a cheap restaurant.", [act("inform", "inform", "pricerange", "cheap", surface="cheap")], {"pricerange": ["cheap"]}),
        (
            "system",
            "So you want an expensive restaurant, right?",
            # The annotation says cheap (coreferent with turn 0); the text at its span drifted.
            [act("confirm", "confirm", "pricerange", "cheap", "cheap", "expensive")],
            {"pricerange": ["cheap"]},
        ),
    ],
    "review-asked-count": [
        ("user", "I'm looking for a spanish restaurant.", [act("inform", "inform", "food", "spanish", surface="spanish")], {"food": ["spanish"]}),
        (
            "system",
            # The count is asked, not stated: a reading no rule settles (for review, not inconsistent).
            "Would you like one of the three spanish restaurants in the centre?",
            [act("count", "inform_count", "choice", "three", "3", "three"), act("inform", "inform", "food", "spanish", surface="spanish"),
             act("inform", "inform", "area", "centre", surface="centre")],
            {"food": ["spanish"]},
        ),
    ],
}


def build() -> list[dict]:
    out = []
    for dialogue_id, turns in DIALOGUES.items():
        turn_list = []
        for i, (speaker, text, acts, state) in enumerate(turns):
            acts_out = []
            for role, name, slot, value, canonical, surface in acts:
                a = {"role": role, "act": name, "domain": D, "slot": slot}
                if value is not None:
                    a.update(value=value, canonical=canonical)
                if surface is not None:
                    start = text.index(surface)
                    a["span"] = {"start": start, "end": start + len(surface)}
                acts_out.append(a)
            turn_list.append({"index": i, "speaker": speaker, "utterance": text, "acts": acts_out, "state": {D: state}})
        out.append({"id": dialogue_id, "domains": [D], "turns": turn_list})
    return out


def verify(lines: list[dict]) -> list[str]:
    """Problems found: a span whose text is not its act's surface, or a line the model rejects."""
    from csp_check.models import Dialogue

    problems = []
    surfaces = {(d, i, j): a[5] for d, turns in DIALOGUES.items() for i, t in enumerate(turns) for j, a in enumerate(t[2])}
    for line in lines:
        dialogue = Dialogue.model_validate(line)
        for turn in dialogue.turns:
            for j, a in enumerate(turn.acts):
                if a.span is None:
                    continue
                got = turn.utterance[a.span.start : a.span.end]
                if got != surfaces.get((dialogue.id, turn.index, j)):
                    problems.append(f"{dialogue.id} turn {turn.index} act {j}: span text {got!r}")
    entities = json.loads(KB.read_text())["entities"]
    count = lambda **kw: sum(all(e[k] == v for k, v in kw.items()) for e in entities)  # noqa: E731
    facts = {
        "two spanish places": count(food="spanish") == 2,
        "el farolito is cheap spanish west": count(name="el farolito", food="spanish", pricerange="cheap", area="west") == 1,
        "no lebanese in the north, cedar garden in the centre": count(food="lebanese", area="north") == 0 and count(name="cedar garden", area="centre") == 1,
        "one cheap italian: trattoria bellini": count(food="italian", pricerange="cheap") == 1 and count(name="trattoria bellini", pricerange="cheap") == 1,
        "cedar garden is not spanish": count(name="cedar garden", food="spanish") == 0,
        "one spanish place in the centre": count(food="spanish", area="centre") == 1,
    }
    problems += [f"KB fact fails: {k}" for k, ok in facts.items() if not ok]
    return problems


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        lines = [json.loads(line) for line in OUT.read_text(encoding="utf-8").splitlines() if line.strip()]
        if lines != build():
            print(f"{OUT} differs from make_examples.py: rerun it")
            return 1
    else:
        lines = build()
        OUT.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    problems = verify(lines)
    for p in problems:
        print(p)
    print(f"{len(lines)} dialogues, {'OK' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
