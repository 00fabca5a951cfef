"""Fault-injection benchmark on SGD: share of injected faults flagged, and flagged by the right rule.

Usage: python benchmarks/faults.py [PATH ...] [--seed N] [--limit N]
(default paths: ../shared/data/sgd/dev and ../shared/data/sgd/train)

For every gold dialogue the checker accepts, one fault of each kind is injected in each mode
(see csp_check.faults); the faulty dialogue is checked and counted as *flagged* when any
constraint fails and *right* when one of the fault kind's expected constraints fails.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

from csp_check.errors import InputError
from csp_check.faults import KINDS, MODES, Fault, trial
from csp_check.pipeline import check_dialogue, load_corpus

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"


def run(paths: list[str], seed: int = 0, limit: int | None = None) -> tuple[Counter, list[tuple[Fault, list[str]]]]:
    """Counter keyed (kind, mode, outcome) with outcome in injected / flagged / right; and misses."""
    counts: Counter = Counter()
    misses: list[tuple[Fault, list[str]]] = []
    rng = random.Random(seed)
    for n, dialogue in enumerate(load_corpus(paths)):
        if limit is not None and n >= limit:
            break
        if isinstance(dialogue, InputError) or check_dialogue(dialogue).violations:
            continue
        for kind in KINDS:
            for mode in MODES:
                t = trial(dialogue, kind, mode, rng)
                if t is None:
                    continue
                counts[(kind, mode, "injected")] += 1
                counts[(kind, mode, "flagged")] += t.flagged
                counts[(kind, mode, "right")] += t.right
                if not t.right:
                    misses.append((t.fault, sorted(c.value for c in t.found)))
    return counts, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(SHARED / "dev"), str(SHARED / "train")])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="dialogues to read at most")
    parser.add_argument("--show", type=int, default=10, help="misses to print")
    args = parser.parse_args()
    start = time.perf_counter()
    counts, misses = run(args.paths, args.seed, args.limit)
    print(f"{'kind':<12} {'mode':<10} {'injected':>8} {'flagged':>8} {'right id':>8} {'rate':>7}")
    total = Counter()
    for kind in KINDS:
        for mode in MODES:
            n = counts[(kind, mode, "injected")]
            f, r = counts[(kind, mode, "flagged")], counts[(kind, mode, "right")]
            total.update(injected=n, flagged=f, right=r)
            print(f"{kind:<12} {mode:<10} {n:>8} {f:>8} {r:>8} {r / n if n else 0:>7.2%}")
    n = total["injected"]
    print(f"{'all':<23} {n:>8} {total['flagged']:>8} {total['right']:>8} {total['right'] / n if n else 0:>7.2%}")
    print(f"({time.perf_counter() - start:.1f} s)")
    for fault, found in misses[: args.show]:
        print(f"missed: {fault.kind}/{fault.mode} {fault.dialogue_id} turn {fault.turn} "
              f"{fault.old_text!r} -> {fault.new_text!r}: found {found or 'nothing'}")
    sys.exit(0)


if __name__ == "__main__":
    main()
