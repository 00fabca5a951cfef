"""Annotation-fault benchmark (S1): share of faults in the belief state / calls flagged, on SGD
or MultiWOZ; and, on MultiWOZ, the S1 rate of the gold data with a seeded sample of its flags.

Usage:
  python benchmarks/annotation.py [PATH ...] [--seed N] [--limit N] [--show N]
      (default paths: ../shared/data/sgd/dev and ../shared/data/sgd/train)
  python benchmarks/annotation.py --multiwoz [PATH] [--kb DIR] [--sample 30] [--sample-seed 2026]
      (default: ../shared/data/multiwoz/val.json.zip, read from the zip, and its db/)

For every gold dialogue the checker accepts (on MultiWOZ: accepts under S1, as C1–C6 flag
many gold dialogues there), one fault of each kind of :func:`csp_check.faults.annotation.inject_annotation`
is injected (the text untouched): ``state_value`` (a value the user stated changed in the state
and the calls), ``call_value`` (changed in one service call alone), ``role_swap`` (origin /
destination swapped in the acts, state and calls of a turn whose text gives the roles) and
``state_omission`` (a value the user stated dropped from the state of a domain it still
tracks). A fault is *flagged* when any enabled constraint fails and *right* when one of its
expected ones does. With ``--multiwoz`` it first prints the share of gold dialogues S1 flags and
``--sample`` S1 flags drawn with ``random.Random(--sample-seed).sample`` (read by hand:
``docs/s1-flags.md``).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.errors import InputError
from csp_check.faults.annotation import ANNOTATION_KINDS, annotation_trial
from csp_check.models import ConstraintId
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SHARED = DATA / "sgd"
S1_ONLY = (ConstraintId.S1,)


def unzipped(path: str, tmp: str) -> str:
    """``path``, or its one JSON member extracted to ``tmp`` when it is a zip archive."""
    if not path.endswith(".zip"):
        return path
    with zipfile.ZipFile(path) as archive:
        member = next(n for n in archive.namelist() if n.endswith(".json"))
        return archive.extract(member, tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=None)
    parser.add_argument("--multiwoz", action="store_true", help="MultiWOZ 2.x with its DB: S1 rate, sample, faults")
    parser.add_argument("--kb", default=str(DATA / "multiwoz" / "db"), help="MultiWOZ DB directory")
    parser.add_argument("--sample", type=int, default=30, help="S1 flags to draw (--multiwoz)")
    parser.add_argument("--sample-seed", type=int, default=2026)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="dialogues to read at most")
    parser.add_argument("--show", type=int, default=10, help="misses to print")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        if args.multiwoz:
            paths = [unzipped(p, tmp) for p in (args.paths or [str(DATA / "multiwoz" / "val.json.zip")])]
            kb, constraints = load_kb(args.kb), S1_ONLY
        else:
            paths, kb, constraints = args.paths or [str(SHARED / "dev"), str(SHARED / "train")], None, None
        dialogues = []
        for n, dialogue in enumerate(load_corpus(paths)):
            if args.limit is not None and n >= args.limit:
                break
            dialogues.append(dialogue)
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    misses = []
    flags = []
    checked = 0
    for dialogue in dialogues:
        if isinstance(dialogue, InputError):
            continue
        checked += 1
        report = check_dialogue(dialogue, kb, constraints or tuple(ConstraintId))
        if args.multiwoz:
            flags.extend((dialogue.id, v) for v in report.violations if v.constraint is ConstraintId.S1)
        if report.violations:
            continue
        for kind in ANNOTATION_KINDS:
            t = annotation_trial(dialogue, kind, rng, kb, constraints)
            if t is None:
                continue
            counts[(kind, "injected")] += 1
            counts[(kind, "flagged")] += t.flagged
            counts[(kind, "right")] += t.right
            if not t.right:
                misses.append((t.fault, sorted(c.value for c in t.found)))
    if args.multiwoz:
        flagged = len({d for d, _ in flags})
        omissions = sum(1 for _, v in flags if "records no" in v.message)
        print(f"S1 on {checked} dialogues: {flagged} flagged ({flagged / max(checked, 1):.1%}), {len(flags)} flags "
              f"({omissions} omissions, {len(flags) - omissions} contradictions)")
        sample = random.Random(args.sample_seed).sample(flags, min(args.sample, len(flags)))
        for i, (dialogue_id, v) in enumerate(sample, 1):
            print(f"{i:>2}. {dialogue_id}: {v.message}")
    print(f"{'kind':<14} {'injected':>8} {'flagged':>8} {'right id':>8} {'flagged %':>9} {'right %':>8}")
    for kind in ANNOTATION_KINDS:
        i, f, r = counts[(kind, "injected")], counts[(kind, "flagged")], counts[(kind, "right")]
        print(f"{kind:<14} {i:>8} {f:>8} {r:>8} {f / i if i else 0:>9.2%} {r / i if i else 0:>8.2%}")
    print(f"({time.perf_counter() - start:.1f} s)")
    for fault, found in misses[: args.show]:
        print(f"missed: {fault.kind} {fault.dialogue_id} turn {fault.turn} {fault.variable} "
              f"{fault.old_text!r} -> {fault.new_text!r}: found {found or 'nothing'}")


if __name__ == "__main__":
    main()
