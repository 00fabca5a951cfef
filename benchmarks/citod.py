"""CI-ToD benchmark: csp-check's QI / HI / KBI labels against the gold ones, zero-shot.

Usage: python benchmarks/citod.py [--data DIR] [--tuned] [--disagreements FILE] [--sample N]
(default: ../shared/data/citod; the *_test.json files are never read)

``--tuned`` prints only the parts tuned on (train, the weather work half) and the faults on their
consistent dialogues: what is printed while rules are being written, the untouched parts never.

Prints, each as ``csp-check benchmark citod`` prints it (P / R / F1 per label, overall accuracy,
ms per dialogue, beside the published BART / BERT / human test figures):

- dev, overall: calendar_dev + navigate_dev + weather_new_dev (319 dialogues);
- dev, untouched: calendar_dev + navigate_dev (tuned on train only) and the check half of
  weather_new_dev (csp_check/score/split.py ``half_of``: weather has no train file, its work half
  was read while tuning, its check half never);
- weather_new_dev, work half (what weather was tuned on);
- train: calendar_train + navigate_train (what calendar and navigate were tuned on);
- the fault generators of csp_check/faults/citod.py on the consistent dialogues: the share of
  faults whose label is set and of true twins with any label set.

``--disagreements FILE`` writes N (default 30) dev dialogues whose labels differ from the gold
ones, sampled by a fixed hash, for a blind reader (docs/citod.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.score.citod_bench import Benchmark, disagreements, disagreements_markdown, fault_rates, run, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared/data/citod")
    parser.add_argument("--disagreements", type=Path, default=None)
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--tuned", action="store_true", help="only the parts tuned on (train, weather work half)")
    args = parser.parse_args()
    d = args.data
    dev = [d / "calendar_dev.json", d / "navigate_dev.json", d / "weather_new_dev.json"]
    train = [d / "calendar_train.json", d / "navigate_train.json"]
    if args.tuned:
        tuned(d)
        return
    parts = [
        ("dev, overall (319)", dev, None),
        ("dev, untouched: calendar + navigate dev", dev[:2], None),
        ("dev, untouched: weather check half", dev[2:], "check"),
        ("weather work half (tuned on)", dev[2:], "work"),
        ("train: calendar + navigate (tuned on)", train, None),
    ]
    untouched = []
    for title, paths, half in parts:
        bench = run(paths, half)  # type: ignore[arg-type]
        print(f"== {title}: csp-check benchmark citod {' '.join(p.name for p in paths)}"
              + (f" --half {half}" if half else ""))
        print(table(bench))
        print()
        if title.startswith("dev, untouched"):
            untouched.append(bench)
        if title.startswith("dev, overall") and args.disagreements is not None:
            chosen = disagreements(bench, args.sample)
            args.disagreements.write_text(disagreements_markdown(chosen), encoding="utf-8")
            print(f"{len(chosen)} disagreements written to {args.disagreements}\n")
    both = untouched[0]
    both.scored += untouched[1].scored
    both.seconds += untouched[1].seconds
    print("== dev, untouched together: calendar + navigate dev and the weather check half")
    print(table(both))
    print()
    consistent = Benchmark()
    for paths in (dev, train):
        consistent.scored += run(paths).scored
    faults(consistent, "dev + train")


def faults(consistent: Benchmark, where: str) -> None:
    """Print the fault / twin table of the consistent dialogues of ``consistent``."""
    print(f"== faults and true twins (csp_check/faults/citod.py) on the {where} dialogues labelled consistent "
          "by gold and by csp-check: fault caught (its label set) / twin flagged (any label set)")
    for kind, (pairs, caught, twins) in fault_rates(consistent).items():
        print(f"{kind:12} {pairs:5} pairs   caught {caught / max(pairs, 1):6.1%}   twins flagged {twins / max(pairs, 1):6.1%}")


def tuned(d: Path) -> None:
    """Only the parts tuned on: the weather work half and train, and the faults on them."""
    consistent = Benchmark()
    for title, paths, half in (("weather work half (tuned on)", [d / "weather_new_dev.json"], "work"),
                               ("train: calendar + navigate (tuned on)",
                                [d / "calendar_train.json", d / "navigate_train.json"], None)):
        bench = run(paths, half)  # type: ignore[arg-type]
        print(f"== {title}: csp-check benchmark citod {' '.join(p.name for p in paths)}"
              + (f" --half {half}" if half else ""))
        print(table(bench))
        print()
        consistent.scored += bench.scored
    faults(consistent, "weather work half + train")


if __name__ == "__main__":
    main()
