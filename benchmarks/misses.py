"""Issue 18's misses on MultiWOZ 2.1 val: per kind of :mod:`csp_check.faults.misses`, faults
injected into the accepted dialogues and how many are flagged certain, twins made and how many
are flagged certain (must be none); and the instances the new rules build on each half.

    python benchmarks/misses.py [--data ../shared/data/multiwoz/val.json.zip] [--half all|work|check]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.faults.misses import (
    GENERATORS,
    PAPER,
    address_claims,
    booked_entities,
    breakdown_counts,
    implicit_counts,
)
from csp_check.models import Dialogue, Status
from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus
from csp_check.readers.kb import load_kb
from csp_check.score.split import half_of

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "multiwoz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(SHARED / "val.json.zip"))
    parser.add_argument("--kb", default=str(SHARED / "db"))
    parser.add_argument("--half", default="all", choices=["all", "work", "check"])
    parser.add_argument("--show", action="store_true", help="print each missed fault / certain twin (work half only)")
    parser.add_argument("--kinds", nargs="*", default=None, help="only these kinds (default: all)")
    args = parser.parse_args()
    kb = load_kb(args.kb)
    items = [d for d in load_corpus([args.data], kb=kb) if isinstance(d, Dialogue)
             and (args.half == "all" or half_of(d.id) == args.half)]
    built: Counter = Counter()
    accepted = []
    for d in items:
        csp = dialogue_csp(d, kb, PAPER)
        built["implicit_count"] += len(implicit_counts(csp))
        built["booked_misfit"] += len(booked_entities(csp))
        built["breakdown_count"] += len(breakdown_counts(csp))
        built["address_part"] += len(address_claims(csp))
        if check_dialogue(d, kb, PAPER).status is Status.CONSISTENT:
            accepted.append(d)
    print(f"{len(items)} dialogues ({args.half}), {len(accepted)} accepted; instances the new rules build: {dict(built)}")
    print("| kind | faults injected | flagged certain | twins | twins flagged certain |\n| --- | --- | --- | --- | --- |")
    for kind, generate in GENERATORS.items():
        if args.kinds and kind not in args.kinds:
            continue
        n = hit = tn = thit = 0
        for d in accepted:
            for twin in (False, True):
                edited = generate(d, kb, twin)
                if edited is None:
                    continue
                report = check_dialogue(edited, kb, PAPER)
                certain = [v for v in report.violations if v.certain]
                if twin:
                    tn += 1
                    thit += bool(certain)
                else:
                    n += 1
                    hit += bool(certain)
                if args.show and half_of(d.id) == "work" and bool(certain) == twin:
                    print(f"  {kind} {'twin' if twin else 'fault'} {d.id}:",
                          [(v.constraint.value, v.message, v.uncertain_reason) for v in report.violations])
        print(f"| {kind} | {n} | {hit} ({hit / max(n, 1):.1%}) | {tn} | {thit} |")


if __name__ == "__main__":
    main()
