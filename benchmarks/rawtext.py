"""Raw-text benchmark: MultiWOZ 2.1 gold text read as raw text (no acts, no spans) with the DB.

Usage: python benchmarks/rawtext.py [--data val.json.zip] [--db DIR] [--limit N] [--seed N]
                                    [--show N] [--no-faults] [--verbose]
(defaults: ../shared/data/multiwoz/val.json.zip and ../shared/data/multiwoz/db)

This is what the pytest plugin sees for LLM-generated data. Every dialogue of the release is
written in the raw-text format of :mod:`csp_check.readers.text` (``### id`` then ``User:`` /
``System:`` lines; the release's tokenised text is kept as it is, line breaks inside an
utterance become spaces), read back by that reader, annotated from its text against the DB
(:mod:`csp_check.annotate`) and checked with the paper's constraints C1–C6. The data is read
from the zip at run time and never written into the repository.

It prints the dialogues read, the share flagged, flags by constraint, a seeded sample of flags to
read by hand, and then — on the dialogues the checker accepts — the share of text-only faults
flagged per kind (:func:`csp_check.faults.raw_text.inject_raw_text`): ``rate`` counts any flag
(certain or for review), ``certain`` only certain ones.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.errors import InputError
from csp_check.faults.raw_text import RAW_KINDS, inject_raw_text
from csp_check.faults.raw_twins import PAIR_KINDS, raw_pair
from csp_check.models import Dialogue, DialogueReport, KnowledgeBase
from csp_check.pipeline import check_dialogue
from csp_check.readers.kb import load_kb
from csp_check.readers.text import parse

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "multiwoz"
PAPER = ("C1", "C2", "C3", "C4", "C5", "C6")


def to_text(data: dict[str, dict], ids: list[str] | None = None) -> str:
    """MultiWOZ 2.x ``data.json`` content (dialogue id → ``{"log": [...]}``) in the raw-text
    format: one ``### id`` block per dialogue, turns alternating ``User:`` / ``System:``."""
    blocks = []
    for dialogue_id in ids if ids is not None else list(data):
        lines = [f"### {dialogue_id}"]
        for k, turn in enumerate(data[dialogue_id]["log"]):
            speaker = "User" if k % 2 == 0 else "System"
            lines.append(f"{speaker}: {' '.join(turn['text'].split())}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def read_zip(path: Path) -> dict[str, dict]:
    """The dialogues of a MultiWOZ release zip (its one ``*.json`` member, or ``data.json``)."""
    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if n.endswith(".json")]
        name = next((n for n in names if n.endswith("data.json")), names[0])
        return json.loads(z.read(name))


def raw_dialogues(data: dict[str, dict], ids: list[str]) -> Iterator[Dialogue | InputError]:
    """The dialogues ``ids`` of ``data`` as the text reader reads their raw text."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "multiwoz.txt"
        path.write_text(to_text(data, ids), encoding="utf-8")
        yield from parse(path)


def check(dialogue: Dialogue, kb: KnowledgeBase) -> DialogueReport:
    """The report of one raw-text dialogue under C1–C6."""
    return check_dialogue(dialogue, kb, constraints=PAPER)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(SHARED / "val.json.zip"))
    parser.add_argument("--db", default=str(SHARED / "db"))
    parser.add_argument("--limit", type=int, default=None, help="dialogues to check at most (sorted ids)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=30, help="flags to print (seeded sample)")
    parser.add_argument("--no-faults", action="store_true", help="skip the fault injection")
    parser.add_argument("--verbose", action="store_true", help="print the sampled dialogues' text")
    parser.add_argument("--no-pairs", action="store_true", help="skip the fault / true-twin pairs")
    args = parser.parse_args()
    if not Path(args.data).exists():
        sys.exit(f"no data at {args.data}")
    start = time.perf_counter()
    kb = load_kb(args.db)
    data = read_zip(Path(args.data))
    ids = sorted(data)[: args.limit]
    total = flagged = errors = 0
    by_constraint: Counter = Counter()
    flags = []
    accepted: list[Dialogue] = []
    for dialogue in raw_dialogues(data, ids):
        if isinstance(dialogue, InputError):
            errors += 1
            print(f"error: {dialogue}")
            continue
        total += 1
        report = check(dialogue, kb)
        if report.violations:
            flagged += 1
            by_constraint.update({v.constraint.value for v in report.violations})
            flags += [(dialogue, v) for v in report.violations]
        else:
            accepted.append(dialogue)
    elapsed = time.perf_counter() - start
    print(f"{total} dialogues read as raw text ({errors} errors), {elapsed:.1f} s")
    print(f"flagged: {flagged} ({flagged / max(total, 1):.1%}) with C1-C6; {len(flags)} flags")
    print("dialogues flagged by constraint: " + ", ".join(f"{c} {by_constraint[c]}" for c in PAPER))
    rng = random.Random(args.seed)
    sample = rng.sample(flags, min(args.show, len(flags)))
    print(f"\n{len(sample)} flags drawn at random (seed {args.seed}):")
    for dialogue, v in sample:
        print(f"- {dialogue.id} {v.constraint.value}: {v.message}")
        if args.verbose:
            for t in sorted(set(v.turns) | {max(v.turns) - 1} - {-1}):
                print(f"    {t} {dialogue.turns[t].speaker}: {dialogue.turns[t].utterance}")
    if args.no_faults:
        return
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    missed: list[tuple[str, str, str]] = []
    for dialogue in accepted:
        for kind in RAW_KINDS:
            injected = inject_raw_text(dialogue, kind, rng, kb)
            if injected is None:
                continue
            faulty, fault = injected
            counts[(kind, "injected")] += 1
            found = check(faulty, kb).violations
            if found:
                counts[(kind, "flagged")] += 1
            if any(v.certain for v in found):
                counts[(kind, "certain")] += 1
            else:
                missed.append((kind, dialogue.id, f"turn {fault.turn}: {fault.old_text!r} -> {fault.new_text!r}"))
    print(f"\ntext-only faults on the {len(accepted)} accepted dialogues:")
    print(f"{'kind':<12} {'injected':>8} {'flagged':>8} {'rate':>7} {'certain':>8}")
    all_in = all_fl = all_ce = 0
    for kind in RAW_KINDS:
        n, f, c = counts[(kind, "injected")], counts[(kind, "flagged")], counts[(kind, "certain")]
        all_in, all_fl, all_ce = all_in + n, all_fl + f, all_ce + c
        print(f"{kind:<12} {n:>8} {f:>8} {f / max(n, 1):>7.1%} {c / max(n, 1):>8.1%}")
    print(f"{'all':<12} {all_in:>8} {all_fl:>8} {all_fl / max(all_in, 1):>7.1%} {all_ce / max(all_in, 1):>8.1%}")
    for kind, dialogue_id, what in rng.sample(missed, min(10, len(missed))):
        print(f"  missed {kind} {dialogue_id} {what}")
    if not args.no_pairs:
        pairs(accepted, kb, args.seed)


def certain(dialogue: Dialogue, kb: KnowledgeBase) -> bool:
    """Whether the checker flags ``dialogue`` with a certain violation."""
    return any(v.certain for v in check(dialogue, kb).violations)


def pairs(accepted: list[Dialogue], kb: KnowledgeBase, seed: int) -> None:
    """Per reading class (:mod:`csp_check.faults.raw_twins`): faults flagged certain (should be
    all) and true twins flagged certain (should be none), on the accepted dialogues."""
    rng = random.Random(seed)
    print(f"\nfault / true-twin pairs on the {len(accepted)} accepted dialogues (flagged certain):")
    print(f"{'class':<14} {'pairs':>6} {'faults':>7} {'twins':>6}")
    for kind in PAIR_KINDS:
        n = faults = twins = 0
        for dialogue in accepted:
            pair = raw_pair(dialogue, kind, rng, kb)
            if pair is None:
                continue
            n += 1
            faults += certain(pair[0], kb)
            twins += certain(pair[1], kb)
        print(f"{kind:<14} {n:>6} {faults / max(n, 1):>7.1%} {twins / max(n, 1):>6.1%}")


if __name__ == "__main__":
    main()
