"""Flags of one half of a real corpus, to read by hand or blind: the figures (dialogues flagged
certain / for review) and a seeded draw of certain and uncertain flags, each with the turns it
names and the turn before them.

    python benchmarks/flags.py multiwoz --half work [--certain 40] [--uncertain 20] [--seed 1] [--json OUT]
    python benchmarks/flags.py rawtext --half check
    python benchmarks/flags.py sgd --half work [--data ../shared/data/sgd] [--split dev]

The halves are csp_check.score.split's (a fixed hash of the dialogue id): read and fix on
``work``, measure on ``check``. MultiWOZ and raw text: MultiWOZ 2.1 val with its DB, C1-C6 (the
raw text is the same dialogues' text annotated from the DB). SGD: the gold dialogues with every
family (their own service results as KB).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.models import Dialogue, Status
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.kb import load_kb
from csp_check.score.split import HALVES, half_of

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]


def dialogues(corpus: str, args) -> tuple[list[Dialogue], object, list[str] | None]:
    """The dialogues of ``corpus``'s half, its KB and the constraints to check."""
    if corpus == "sgd":
        paths = [Path(args.data or SHARED / "sgd") / s for s in args.split.split(",")]
        return [d for d in load_corpus(paths) if isinstance(d, Dialogue) and half_of(d.id) == args.half], None, None
    kb = load_kb(SHARED / "multiwoz" / "db")
    data = args.data or SHARED / "multiwoz" / "val.json.zip"
    if corpus == "multiwoz":
        items = load_corpus([data], kb=kb)
        return [d for d in items if isinstance(d, Dialogue) and half_of(d.id) == args.half], kb, PAPER
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from rawtext import raw_dialogues, read_zip  # the raw-text benchmark's reading of MultiWOZ's text

    raw = read_zip(Path(data))
    ids = sorted(i for i in raw if half_of(i) == args.half)
    return [d for d in raw_dialogues(raw, ids) if isinstance(d, Dialogue)], kb, PAPER


def context(dialogue: Dialogue, turns: list[int]) -> list[str]:
    """The named turns and the turn before the first, as ``"3 system: text"``."""
    shown = sorted(set(turns) | {min(turns) - 1} - {-1}) if turns else []
    return [f"{t} {dialogue.turns[t].speaker}: {dialogue.turns[t].utterance}" for t in shown]


def transcript(dialogue: Dialogue, upto: int) -> list[str]:
    """The turns before ``upto`` as ``"3 system: text"``, each with the KB results the system saw
    at it (SGD's service results: the call and its entities), for a reader who checks the claim."""
    out = []
    for t in dialogue.turns[:upto]:
        out.append(f"{t.index} {t.speaker}: {t.utterance}")
        for r in t.kb_results:
            call = f"{r.call.method}({json.dumps(r.call.parameters)})" if r.call else r.domain
            out.append(f"    [results of {call}: {len(r.entities)} entities]")
            out += [f"      {json.dumps(e)}" for e in r.entities]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", choices=["multiwoz", "rawtext", "sgd"])
    parser.add_argument("--half", choices=HALVES, required=True)
    parser.add_argument("--data", default=None)
    parser.add_argument("--split", default="train,dev", help="SGD splits (folders of --data)")
    parser.add_argument("--certain", type=int, default=40, help="certain flags to draw")
    parser.add_argument("--uncertain", type=int, default=20, help="uncertain flags to draw")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="write the drawn flags here (one JSON per line)")
    parser.add_argument("--quiet", action="store_true", help="figures only")
    args = parser.parse_args()
    items, kb, constraints = dialogues(args.corpus, args)
    flags: dict[bool, list] = {True: [], False: []}
    status = {s: 0 for s in Status}
    for d in items:
        report = check_dialogue(d, kb, constraints) if constraints else check_dialogue(d, kb)
        status[report.status] += 1
        for v in report.violations:
            flags[v.certain].append((d, v))
    n = len(items)
    print(f"{args.corpus} {args.half} half: {n} dialogues; flagged certain {status[Status.INCONSISTENT]} "
          f"({status[Status.INCONSISTENT] / max(n, 1):.1%}), uncertain only {status[Status.UNCERTAIN]} "
          f"({status[Status.UNCERTAIN] / max(n, 1):.1%}); flags: {len(flags[True])} certain, {len(flags[False])} "
          f"uncertain; errors {status[Status.ERROR]}")
    if args.quiet:
        return
    rng = random.Random(args.seed)
    drawn = [(True, f) for f in rng.sample(flags[True], min(args.certain, len(flags[True])))]
    drawn += [(False, f) for f in rng.sample(flags[False], min(args.uncertain, len(flags[False])))]
    out = args.json.open("w") if args.json else None
    for i, (certain, (d, v)) in enumerate(drawn, 1):
        print(f"\n{i}. {d.id} {v.constraint.value} {'certain' if certain else 'for review: ' + str(v.uncertain_reason)}")
        print(f"   {v.message}")
        for line in context(d, v.turns):
            print(f"   | {line}")
        if out:
            out.write(json.dumps({"n": i, "dialogue": d.id, "constraint": v.constraint.value, "certain": certain,
                                  "uncertain_reason": v.uncertain_reason, "message": v.message,
                                  "turns": context(d, v.turns),
                                  "dialogue_text": transcript(d, max(v.turns, default=0) + 2)}) + "\n")
    if out:
        out.close()


if __name__ == "__main__":
    main()
