"""Blind reading of flags: packets for readers who never saw the checker's reasoning, and the
precision their verdicts give.

    python benchmarks/blind.py pack FLAGS.jsonl OUT_DIR [--readers 3] [--seed 1]
    python benchmarks/blind.py score FLAGS.jsonl OUT_DIR

``pack`` shuffles the flags of ``benchmarks/flags.py --json`` (certain and for review mixed, the
certainty and its reason removed) into one packet per reader (``packet_K.md``: the flag's claim
and the dialogue up to it, numbered ``F1``, ``F2``, …) and keeps the key (``key.json``). Each reader
writes ``verdicts_K.jsonl``: one ``{"flag": "F3", "verdict": "real" | "false" | "debatable",
"why": "..."}`` per flag. ``score`` prints, for certain flags and for flags for review apart, how
many the readers judged real, false and debatable.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

VERDICTS = ("real", "false", "debatable")


def pack(flags_path: Path, out: Path, readers: int, seed: int) -> None:
    flags = [json.loads(line) for line in flags_path.read_text().splitlines() if line.strip()]
    random.Random(seed).shuffle(flags)
    out.mkdir(parents=True, exist_ok=True)
    key = {}
    for k in range(readers):
        mine = flags[k::readers]
        lines = []
        for i, f in enumerate(mine, 1):
            fid = f"F{k + 1}.{i}"
            key[fid] = {"dialogue": f["dialogue"], "constraint": f["constraint"], "certain": f["certain"],
                        "uncertain_reason": f["uncertain_reason"], "message": f["message"]}
            lines += [f"## {fid} — dialogue {f['dialogue']}, rule {f['constraint']}", "",
                      f"Claim of the checker: {f['message']}", "", "Dialogue (up to the flagged turns):", "", "```"]
            lines += f["dialogue_text"] + ["```", ""]
        (out / f"packet_{k + 1}.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "key.json").write_text(json.dumps(key, indent=1), encoding="utf-8")
    print(f"{len(flags)} flags in {readers} packets under {out}")


def score(out: Path) -> None:
    key = json.loads((out / "key.json").read_text())
    verdicts = {}
    for path in sorted(out.glob("verdicts_*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                v = json.loads(line)
                verdicts[v["flag"]] = v["verdict"].strip().lower()
    for certain in (True, False):
        ids = [f for f, k in key.items() if k["certain"] is certain]
        got = Counter(verdicts.get(f, "unread") for f in ids)
        judged = sum(got[v] for v in VERDICTS)
        share = f"{got['real'] / judged:.1%}" if judged else "-"
        print(f"{'certain' if certain else 'for review'}: {len(ids)} flags, read {judged}: real {got['real']}, "
              f"false {got['false']}, debatable {got['debatable']} (real {share} of read)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["pack", "score"])
    parser.add_argument("flags", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--readers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pack(args.flags, args.out, args.readers, args.seed) if args.command == "pack" else score(args.out)


if __name__ == "__main__":
    main()
