"""Cost of checking one long dialogue: the time-per-turn curve (docs/scale.md).

    python benchmarks/long_dialogues.py [--turns 500,1000,2000,4000,8000,10000] [--repeat 1]

Each dialogue is a synthetic SGD dialogue (written to a temporary directory, read by the SGD
reader like any corpus file): user turns ask for a cuisine in a city (with spans, acts and the
belief state), system turns answer with a count and an offer from ``service_results``; the
values cycle through 6 cuisines and 5 cities, so every constraint family C1-C6 is built and
the number of variables grows with the turns (about 2.5 per turn). Prints, for each length:
turns, variables, seconds (read + delexicalize + build C1-C6 + check, best of ``--repeat``),
milliseconds per turn and per variable. Near-linear cost shows as a flat ms/turn column.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check import validate

CUISINES = ["Italian", "Mexican", "Chinese", "Indian", "Thai", "Greek"]
CITIES = ["San Jose", "Oakland", "Fremont", "Berkeley", "Palo Alto"]
NAMES = ["Pasta Bar", "Luigi", "Casa Roja", "Golden Wok", "Spice Hut", "Blue Door"]


def _span(utterance: str, slot: str, value: str) -> dict:
    start = utterance.index(value)
    return {"slot": slot, "start": start, "exclusive_end": start + len(value)}


def _act(act: str, slot: str, value: str) -> dict:
    return {"act": act, "slot": slot, "values": [value], "canonical_values": [value]}


def long_dialogue(turns: int, dialogue_id: str = "1_00001") -> dict:
    """A consistent SGD dialogue of ``turns`` turns (user / system alternating)."""
    out = []
    for k in range(turns):
        cuisine, city = CUISINES[(k // 2) % len(CUISINES)], CITIES[(k // 2) % len(CITIES)]
        results = [{"restaurant_name": n, "cuisine": cuisine, "city": city} for n in NAMES[:2]]
        if k % 2 == 0:
            text = f"I want {cuisine} food in {city}."
            frame = {
                "service": "Restaurants_1",
                "slots": [_span(text, "cuisine", cuisine), _span(text, "city", city)],
                "actions": [_act("INFORM", "cuisine", cuisine), _act("INFORM", "city", city)],
                "state": {"slot_values": {"cuisine": [cuisine], "city": [city]}},
            }
            out.append({"speaker": "USER", "utterance": text, "frames": [frame]})
        else:
            name = results[0]["restaurant_name"]
            text = f"I found 2 restaurants. {name} is a nice one."
            frame = {
                "service": "Restaurants_1",
                "slots": [_span(text, "restaurant_name", name)],
                "actions": [_act("INFORM_COUNT", "count", "2"), _act("OFFER", "restaurant_name", name)],
                "service_call": {"method": "FindRestaurants", "parameters": {"cuisine": cuisine, "city": city}},
                "service_results": results,
            }
            out.append({"speaker": "SYSTEM", "utterance": text, "frames": [frame]})
    return {"dialogue_id": dialogue_id, "services": ["Restaurants_1"], "turns": out}


def measure(turns: int, repeat: int, directory: Path) -> tuple[int, float, str]:
    """(variables, best seconds, status) of checking a ``turns``-turn dialogue."""
    path = directory / f"dialogues_{turns:06d}.json"
    path.write_text(json.dumps([long_dialogue(turns)]), encoding="utf-8")
    best, variables, status = float("inf"), 0, ""
    for _ in range(repeat):
        start = time.perf_counter()
        reports = list(validate([path]))
        best = min(best, time.perf_counter() - start)
        variables, status = reports[0].variables, reports[0].status.value
    return variables, best, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", default="500,1000,2000,4000,8000,10000")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print(f"{'turns':>7} {'variables':>9} {'seconds':>8} {'ms/turn':>8} {'ms/var':>7}  status")
    with tempfile.TemporaryDirectory() as tmp:
        for turns in (int(t) for t in args.turns.split(",")):
            variables, seconds, status = measure(turns, args.repeat, Path(tmp))
            print(f"{turns:>7} {variables:>9} {seconds:>8.2f} {1000 * seconds / turns:>8.3f} "
                  f"{1000 * seconds / max(variables, 1):>7.3f}  {status}")  # fmt: skip


if __name__ == "__main__":
    main()
