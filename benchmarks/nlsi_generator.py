"""Generator-style examples from SGD (csp_check.nlsi.build_release): gold consistency and --derive
exact match by reasoning type, under the release's metric and schema, and the release fault kinds
(csp_check.nlsi.release_faults) with their twins on the consistent gold sets.

Usage: python benchmarks/nlsi_generator.py [SGD_PATH ...] [--release DIR] [--seed N] [--misses K]
(default: ../shared/data/sgd/dev, release tables ../shared/data/nlsi). The release's own dialogue
ids are left out, so building from SGD train never rebuilds a release example. ``--misses K``
prints K derive misses per reasoning type (SGD data of our own: fine to read).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.nlsi.build_release import build_release_style
from csp_check.nlsi.calls import parse_calls, without_requests
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive
from csp_check.nlsi.metrics import release_scores
from csp_check.nlsi.release_faults import RELEASE_KINDS, tally, tally_lines
from csp_check.nlsi.schema import load_schema

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(SHARED / "sgd" / "dev")])
    ap.add_argument("--release", default=str(SHARED / "nlsi"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--misses", type=int, default=0)
    args = ap.parse_args()
    release = Path(args.release)
    skip = {e["dialogue_id"] for e in json.loads((release / "old_instructions_dataset.json").read_text(encoding="utf-8"))}
    examples = build_release_style([Path(p) for p in args.paths], release, seed=args.seed, skip_ids=skip, limit=args.limit)
    checker = Checker(load_schema([release]), use_annotation=False)
    em: dict[str, list[float]] = defaultdict(list)
    f1: dict[str, list[float]] = defaultdict(list)
    gold_ok = 0
    shown: dict[str, int] = defaultdict(int)
    rng = random.Random(args.seed)
    faults = {k: [0, 0] for k in RELEASE_KINDS}
    twins = {k: [0, 0] for k in RELEASE_KINDS}
    for ex in examples:
        ctx = checker.context(ex)
        calls = [without_requests(c) for c in parse_calls(ex.api_calls)[0]]
        ok = checker.check_calls(ex, calls, ctx).status.value == "consistent"
        gold_ok += ok
        if ok:
            tally(checker, ex, ctx, calls, rng, faults, twins)
        derived = derive(ctx)[0]
        hit, score = release_scores(derived, ex.api_calls)
        for rt in ("all", ex.reasoning_type.value):
            em[rt].append(100.0 * hit)
            f1[rt].append(100.0 * score)
        rt = ex.reasoning_type.value
        if not hit and shown[rt] < args.misses:
            shown[rt] += 1
            print(f"--- {ex.example_id} {rt} ({ex.metadata.get('style')})\n{ex.user_utterance.strip()}")
            print("  profile:", [i.nl_instruction for i in ex.all_standing_instructions])
            print("  gold:   ", ex.api_calls)
            print("  derived:", [c.render() for c in derived])
    print(f"{len(examples)} generator-style examples from {', '.join(args.paths)} (seed {args.seed}); "
          f"gold consistent: {100 * gold_ok / max(1, len(examples)):.1f}% ({gold_ok}/{len(examples)})")
    print("--derive, the release's metric: EM / slot F1 (%) by reasoning type")
    for rt in sorted(k for k in em if k != "all") + ["all"]:
        print(f"  {rt:<18} {sum(em[rt]) / len(em[rt]):6.1f} / {sum(f1[rt]) / len(f1[rt]):5.1f} ({len(em[rt])})")
    print("release fault kinds on the consistent gold sets (flagged with the right family; bar >= 95%) and true twins (bar 0):")
    print("\n".join(tally_lines(faults, twins)))


if __name__ == "__main__":
    main()
