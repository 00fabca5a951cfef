"""Twins and faults of the false-alarm classes of issue 18 on MultiWOZ 2.1 val
(:mod:`csp_check.faults.twins`, the annotation defects of :mod:`csp_check.faults.reading_twins` and
the attack's misses of :mod:`csp_check.faults.offer_twins`, round 31's of :mod:`csp_check.faults.detail_twins`): per class and half, the pairs injected into accepted dialogues,
the faults flagged certain (target >= 97 %) and the twins flagged certain (target 0 %), and a
seeded sample of pairs of the work half (the check half gives figures only).

    python benchmarks/twins.py [--data ../shared/data/multiwoz/val.json.zip] [--seed 18] [--sample 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.faults.detail_twins import GENERATORS as DETAILS
from csp_check.faults.offer_twins import GENERATORS as OFFERS
from csp_check.faults.reading_twins import GENERATORS as DEFECTS
from csp_check.faults.twins import GENERATORS
from csp_check.models import Status
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb
from csp_check.score.split import HALVES, half_of

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "multiwoz"


def certain(report) -> bool:
    """Whether a report has a certain violation (the dialogue is inconsistent)."""
    return report.status is Status.INCONSISTENT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(SHARED / "val.json.zip"))
    parser.add_argument("--kb", default=str(SHARED / "db"))
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--sample", type=int, default=1, help="pairs of the work half to print per class")
    parser.add_argument("--misses", action="store_true", help="print the work half's misses (ids, reasons)")
    args = parser.parse_args()
    kb = load_kb(args.kb)
    accepted = {half: [] for half in HALVES}
    for d in load_corpus([args.data], kb=kb):
        if not isinstance(d, Exception) and check_dialogue(d, kb).status is Status.CONSISTENT:
            accepted[half_of(d.id)].append(d)
    print("| class | half | accepted | injected | faults certain | twins certain |\n| --- | --- | --- | --- | --- | --- |")
    samples = []
    for name, generate in {**GENERATORS, **DEFECTS, **OFFERS, **DETAILS}.items():
        for half in HALVES:
            rng = random.Random(f"{args.seed}-{name}-{half}")
            injected = faults = twins = 0
            for d in accepted[half]:
                pair = generate(d, kb, rng)
                if pair is None:
                    continue
                injected += 1
                fault, twin = (check_dialogue(x, kb) for x in pair)
                faults += certain(fault)
                twins += certain(twin)
                if half == "work" and args.misses and (not certain(fault) or certain(twin)):
                    which = "fault not certain" if not certain(fault) else "twin certain"
                    shown = fault if which.startswith("fault") else twin
                    print(f"  miss {name} {d.id} {which}: " + "; ".join(
                        f"{v.constraint.value} {v.message} [{v.uncertain_reason}]" for v in shown.violations)[:600])
                if half == "work" and len([s for s in samples if s[0] == name]) < args.sample:
                    samples.append((name, d.id, pair))
            share = (f"{faults / injected:.1%} | {twins / injected:.1%}" if injected else "- | -")
            print(f"| {name} | {half} | {len(accepted[half])} | {injected} | {share} |")
    print(f"\nseeded sample (seed {args.seed}, work half):")
    for name, dialogue_id, (fault, twin) in samples:
        for label, d in (("fault", fault), ("twin", twin)):
            changed = [t for t, o in zip(d.turns, next(x for x in accepted["work"] if x.id == dialogue_id).turns)
                       if t.utterance != o.utterance]
            for t in changed:
                print(f"  {name} {dialogue_id} {label} turn {t.index}: {t.utterance}")


if __name__ == "__main__":
    main()
