"""S1 flags of a ``csp-check validate --report`` file by half and class (docs/iur.md).

Usage: python benchmarks/iur_s1.py REPORT.jsonl [REPORT.jsonl ...]

Classes: ``certain`` (an inconsistency), ``unsaid`` (for review: a value no words name and none
point to; :mod:`csp_check.iur.detect`), ``review`` (for review for another reason), and
``implied`` (indirect user requests: the report's ``implied`` list, never violations). Dialogues are keyed by (source, id): SGD dev and train share ids. Halves by
:func:`csp_check.score.split.half_of`.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.score.split import HALVES, half_of


def klass(violation: dict) -> str:
    if violation.get("certain", True):
        return "certain"
    reason = violation.get("uncertain_reason") or ""
    return "unsaid" if reason.startswith("unsaid:") else "review"


def main(paths: list[str]) -> None:
    for path in paths:
        flags: Counter[tuple[str, str]] = Counter()
        dialogues: Counter[str] = Counter()
        with open(path, encoding="utf-8") as f:
            for line in f:
                report = json.loads(line)
                half = half_of(report["dialogue_id"])
                dialogues[half] += 1
                flags[(half, "implied")] += len(report.get("implied", []))
                for v in report.get("violations", []):
                    if v.get("constraint") == "S1":
                        flags[(half, klass(v))] += 1
        print(path)
        for half in HALVES:
            row = ", ".join(f"{k} {flags[(half, k)]}" for k in ("certain", "implied", "unsaid", "review"))
            print(f"  {half}: {dialogues[half]} dialogues; S1 flags: {row}")


if __name__ == "__main__":
    main(sys.argv[1:])
