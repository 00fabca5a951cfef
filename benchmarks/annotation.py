"""Annotation-fault benchmark on SGD: share of faults in the belief state / calls flagged (S1).

Usage: python benchmarks/annotation.py [PATH ...] [--seed N] [--limit N] [--show N]
(default paths: ../shared/data/sgd/dev and ../shared/data/sgd/train)

For every gold dialogue the checker accepts, one fault of each kind of
:func:`csp_check.faults.inject_annotation` is injected (the text untouched): ``state_value`` (a
value the user stated changed in the state and the calls), ``call_value`` (changed in one
service call alone) and ``role_swap`` (origin /
destination swapped in the acts, state and calls of a turn whose text gives the roles). A
fault is *flagged* when any constraint fails and *right* when one of its expected ones does.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from csp_check.errors import InputError
from csp_check.faults import ANNOTATION_KINDS, annotation_trial
from csp_check.pipeline import check_dialogue, load_corpus

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(SHARED / "dev"), str(SHARED / "train")])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="dialogues to read at most")
    parser.add_argument("--show", type=int, default=10, help="misses to print")
    args = parser.parse_args()
    start = time.perf_counter()
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    misses = []
    for n, dialogue in enumerate(load_corpus(args.paths)):
        if args.limit is not None and n >= args.limit:
            break
        if isinstance(dialogue, InputError) or check_dialogue(dialogue).violations:
            continue
        for kind in ANNOTATION_KINDS:
            t = annotation_trial(dialogue, kind, rng)
            if t is None:
                continue
            counts[(kind, "injected")] += 1
            counts[(kind, "flagged")] += t.flagged
            counts[(kind, "right")] += t.right
            if not t.right:
                misses.append((t.fault, sorted(c.value for c in t.found)))
    print(f"{'kind':<12} {'injected':>8} {'flagged':>8} {'right id':>8} {'flagged %':>9} {'right %':>8}")
    for kind in ANNOTATION_KINDS:
        i, f, r = counts[(kind, "injected")], counts[(kind, "flagged")], counts[(kind, "right")]
        print(f"{kind:<12} {i:>8} {f:>8} {r:>8} {f / i if i else 0:>9.2%} {r / i if i else 0:>8.2%}")
    print(f"({time.perf_counter() - start:.1f} s)")
    for fault, found in misses[: args.show]:
        print(f"missed: {fault.kind} {fault.dialogue_id} turn {fault.turn} {fault.variable} "
              f"{fault.old_text!r} -> {fault.new_text!r}: found {found or 'nothing'}")


if __name__ == "__main__":
    main()
