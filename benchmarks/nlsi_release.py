"""The NLSI release's own examples: figures by half, and the release fault kinds with twins.

Usage: python benchmarks/nlsi_release.py [RELEASE_DIR] [--seed N]
(default: ../shared/data/nlsi; reads old_instructions_dataset.json, --schema = the folder)

1. Gold consistent (text grounding), and ``--derive`` exact match / slot F1 under the release's
   metric (csp_check.nlsi.metrics.release_scores), on all 175 examples and on the work and check
   halves of csp_check.score.split.half_of(example id), by reasoning type.
2. Release fault kinds (csp_check.nlsi.release_faults): for each gold call set judged consistent
   and each kind, one fault (flagged right = not consistent and the expected family among the
   violations; bar >= 95 %) and one true twin (flagged = a false alarm; bar 0).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.nlsi.calls import parse_calls, without_requests
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive
from csp_check.nlsi.metrics import release_scores
from csp_check.nlsi.models import Example
from csp_check.nlsi.readers import read_examples
from csp_check.nlsi.release_faults import RELEASE_KINDS, tally, tally_lines
from csp_check.nlsi.schema import load_schema
from csp_check.score.split import half_of

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "nlsi"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("release", nargs="?", default=str(RELEASE))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    folder = Path(args.release)
    checker = Checker(load_schema([folder]), use_annotation=False)
    examples = [e for e in read_examples(folder / "old_instructions_dataset.json") if isinstance(e, Example)]
    rng = random.Random(args.seed)
    em: dict[tuple[str, str], list[float]] = defaultdict(list)
    f1: dict[tuple[str, str], list[float]] = defaultdict(list)
    gold_ok = 0
    faults = {k: [0, 0] for k in RELEASE_KINDS}
    twins = {k: [0, 0] for k in RELEASE_KINDS}
    for ex in examples:
        ctx = checker.context(ex)
        calls = [without_requests(c) for c in parse_calls(ex.api_calls)[0]]
        ok = checker.check_calls(ex, calls, ctx).status.value == "consistent"
        gold_ok += ok
        hit, score = release_scores(derive(ctx)[0], ex.api_calls)
        for half in ("all", half_of(str(ex.example_id))):
            for rt in ("all", ex.reasoning_type.value):
                em[half, rt].append(100.0 * hit)
                f1[half, rt].append(100.0 * score)
        if not ok:
            continue
        tally(checker, ex, ctx, calls, rng, faults, twins)
    print(f"{len(examples)} release examples; gold consistent: {100 * gold_ok / len(examples):.1f}% ({gold_ok}/{len(examples)})")
    print("--derive, the release's metric: EM / slot F1 (%) by half and reasoning type")
    types = sorted({rt for _, rt in em if rt != "all"}) + ["all"]
    print(f"{'type':<18}" + "".join(f"{h:>20}" for h in ("all", "work", "check")))
    for rt in types:
        cells = []
        for h in ("all", "work", "check"):
            xs, ys = em.get((h, rt), []), f1.get((h, rt), [])
            cells.append(f"{sum(xs) / len(xs):6.1f} / {sum(ys) / len(ys):5.1f} ({len(xs):3d})" if xs else f"{'-':>20}")
        print(f"{rt:<18}" + "".join(f"{c:>20}" for c in cells))
    print("release fault kinds (flagged with the right family; bar >= 95%) and true twins (flagged = false alarm; bar 0):")
    print("\n".join(tally_lines(faults, twins)))


if __name__ == "__main__":
    main()
