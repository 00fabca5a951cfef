"""MultiWOZ 2.1 val (shared) with C1-C6: dialogues, flagged share, errors, flags by constraint and
by class, and a seeded draw of 30 flags to read by hand (docs/multiwoz-flags.md).

    python benchmarks/multiwoz.py [--data ../shared/data/multiwoz/val.json.zip] [--seed 7] [--draw 30]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.kb import load_kb
from csp_check.models import Status
from csp_check.pipeline import check_dialogue, load_corpus

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "multiwoz"


def flag_class(constraint: str, message: str) -> str:
    """A coarse class of a flag from its message: what kind of claim broke."""
    if constraint == "C5":
        return "C5 offer vs request" if "not with what was asked" in message else "C5 no such entity"
    if constraint == "C6":
        return "C6 count" + (" (bounded)" if re.search(r"leaveAt|arriveBy", message) else "")
    if constraint == "C2":
        slot = re.search(r"same ([\w.]+(?: \w+)?)", message)
        return f"C2 {slot.group(1).split('.')[-1] if slot else ''}".strip()
    return constraint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(SHARED / "val.json.zip"))
    parser.add_argument("--kb", default=str(SHARED / "db"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--draw", type=int, default=30)
    args = parser.parse_args()
    kb = load_kb(args.kb)
    reports = [check_dialogue(d, kb, ["C1", "C2", "C3", "C4", "C5", "C6"]) if not isinstance(d, Exception) else d
               for d in load_corpus([args.data], kb=kb)]  # fmt: skip
    errors = sum(1 for r in reports if isinstance(r, Exception) or r.status is Status.ERROR)
    for r in reports:
        if isinstance(r, Exception):
            print(f"error: {r}", file=sys.stderr)
    checked = [r for r in reports if not isinstance(r, Exception)]
    flagged = [r for r in checked if r.status is Status.INCONSISTENT]
    print(f"dialogues: {len(reports)}, flagged: {len(flagged)} ({len(flagged) / len(reports):.1%}), errors: {errors}, "
          f"annotation defects: {sum(len(r.defects) for r in checked)}")  # fmt: skip
    flags = [(r.dialogue_id, v) for r in checked for v in r.violations]
    by_c, dial_c = Counter(v.constraint.value for _, v in flags), Counter()
    for r in flagged:
        dial_c.update({v.constraint.value for v in r.violations})
    print("\n| constraint | flags | dialogues |\n| --- | --- | --- |")
    for c in sorted(by_c):
        print(f"| {c} | {by_c[c]} | {dial_c[c]} |")
    by_class = Counter(flag_class(v.constraint.value, v.message) for _, v in flags)
    print("\n| class | flags |\n| --- | --- |")
    for k, n in by_class.most_common():
        print(f"| {k} | {n} |")
    print(f"\nseeded draw ({args.draw} flags, seed {args.seed}):")
    for i, (dialogue_id, v) in enumerate(random.Random(args.seed).sample(flags, min(args.draw, len(flags))), 1):
        print(f"{i}. {dialogue_id} {v.constraint.value} turns {v.turns}: {v.message}")
        for ref in v.variables:
            print(f"     {ref.name} turn {ref.turn} {ref.slot} {ref.text!r} = {ref.value!r}")


if __name__ == "__main__":
    main()
