"""Gold acceptance on SGD: share of gold dialogues the checker accepts, and why it rejects the rest.

Usage: python benchmarks/gold.py [PATH ...]   (default: ../shared/data/sgd/dev and .../train)

A dialogue is *accepted* unless it has a certain violation (status ``inconsistent``): one whose
violations are all uncertain (status ``uncertain``, for review) is accepted and counted apart.
Rows name the dialogue's half (:func:`csp_check.score.split.half_of`): read only the work half's.
For each rejected dialogue and each violation it prints a cause: for a C5 whether the values the
system states match no entity of the dialogue's results at all, or match one only when the user's
search filters are left out (the system offered something outside what the user asked for).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.check.evaluate import entity_match
from csp_check.errors import InputError
from csp_check.families.kb_common import KbFilterInstance
from csp_check.models import ConstraintId, Status
from csp_check.pipeline import dialogue_csp, load_corpus, report_for
from csp_check.score.split import half_of

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"


def cause(csp, violation) -> str:
    """A short diagnosis of one violation of a gold dialogue."""
    if violation.constraint is not ConstraintId.C5:
        return violation.message
    names = [r.name for r in violation.variables]
    constraint = next(c for c in csp.constraints
                      if c.id is ConstraintId.C5 and isinstance(c, KbFilterInstance) and c.variables == names)
    by_name = {v.name: v for v in csp.variables}
    said = [(n, col) for n, col in zip(constraint.variables, constraint.columns) if by_name[n].turn == constraint.turn]
    entities = csp.kbs[constraint.kb]
    values = [csp.assignment[n] for n, _ in said]
    claim = ", ".join(f"{col}={csp.assignment[n]!r}" for n, col in said)
    if not any(entity_match(e, [c for _, c in said], values)[1] for e in entities):
        return f"turn {constraint.turn}: the system states {claim}; no entity in the dialogue's results has these values"
    asked = [(n, col) for n, col in zip(constraint.variables, constraint.columns) if (n, col) not in said]
    broken = [
        f"{col}={csp.assignment[n]!r}"
        for n, col in asked
        if not any(entity_match(e, [c for _, c in said] + [col], values + [csp.assignment[n]])[1] for e in entities)
    ]
    return f"turn {constraint.turn}: the system offers {claim}, which exists but not with the user's {', '.join(broken)}"


def main() -> None:
    paths = sys.argv[1:] or [str(SHARED / "dev"), str(SHARED / "train")]
    start = time.perf_counter()
    total = rejected = review = 0
    sizes: Counter = Counter()
    counts: Counter = Counter()
    lines = []
    for dialogue in load_corpus(paths):
        if isinstance(dialogue, InputError):
            print(f"error: {dialogue}")
            continue
        total += 1
        sizes[half_of(dialogue.id)] += 1
        csp = dialogue_csp(dialogue)
        report = report_for(csp, dialogue)
        review += report.status is Status.UNCERTAIN
        if report.status is Status.INCONSISTENT:
            rejected += 1
            counts[half_of(dialogue.id)] += 1
            where = "/".join(Path(dialogue.source).parts[-2:])
            for v in (v for v in report.violations if v.certain):
                lines.append(f"| {dialogue.id} | {half_of(dialogue.id)} | {where} | {v.constraint.value} | {cause(csp, v)} |")
    print(f"{total} dialogues, {rejected} rejected: gold acceptance {(total - rejected) / total:.2%} "
          f"({time.perf_counter() - start:.1f} s); {review} accepted for review (all violations uncertain); by half: "
          + ", ".join(f"{h} {counts[h]} of {sizes[h]} rejected" for h in sorted(sizes)))
    print("| dialogue | half | file | rule | cause |\n|---|---|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
