"""Fault-injection benchmark on SGD: share of injected faults flagged, and flagged by the right rule.

Usage: python benchmarks/faults.py [PATH ...] [--seed N] [--limit N] [--kinds a,b]
(default paths: ../shared/data/sgd/dev and ../shared/data/sgd/train)

For every gold dialogue the checker accepts, one fault of each kind is injected in each mode
(see csp_check.faults.registry) into its SGD JSON, which the reader reads again; the faulty dialogue is
checked and counted as *flagged* when any constraint fails, *certain* when a violation with a
certain reading does (``Violation.certain``: a claim, not a reading for review), and *right*
("expected id") when one of the fault kind's expected constraints fails. Prints one row per kind x mode; with
``hedged_amount``, also how many true counts said approximately (no fault) are flagged; with
``restated_detail``, how many party sizes restated as booked (no fault) are flagged; with
``amount``, how many counts said above a full result (no fault: SGD's results stop at 10) are
flagged certain; with ``negated_unit``, how many stated 0s said by negating their unit ("has no
layovers" for "has 0 layovers", no fault) are flagged certain; and in every dialogue, a clock time
rewritten in text and ``values`` with ``canonical_values`` left (:mod:`csp_check.faults.stale_canonical`:
another time, certain; the same time in words, never; so too a confirmed number or date), and a date a system CONFIRM says reworded
in the text only (:mod:`csp_check.faults.confirm_dates`: another day, certain; the same day as
"this coming Friday" / "the 9th", never).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.errors import InputError
from csp_check.faults.booking import faithful_restatement
from csp_check.faults.confirm_dates import confirm_date_pair
from csp_check.faults.count_wordings import count_wording_twins
from csp_check.faults.counts import approximate_restatement, capped_restatement
from csp_check.faults.failure import proposed_alternative_twin
from csp_check.faults.inject import trial
from csp_check.faults.model import MODES, Fault
from csp_check.faults.negation import negated_zero_twin
from csp_check.faults.registry import KINDS, TEXT_ONLY
from csp_check.faults.stale_canonical import stale_canonical_pair, stale_confirm_pair
from csp_check.pipeline import check_dialogue, load_corpus

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"


def raw_dialogues(source: str, cache: dict[str, dict[str, dict]]) -> dict[str, dict]:
    """Dialogue id → SGD JSON of one ``dialogues_*.json`` file (read once)."""
    if source not in cache:
        cache.clear()  # files are read in order: keep one
        cache[source] = {d["dialogue_id"]: d for d in json.loads(Path(source).read_text(encoding="utf-8"))}
    return cache[source]


def run(
    paths: list[str], seed: int = 0, limit: int | None = None, kinds: tuple[str, ...] = KINDS
) -> tuple[Counter, list[tuple[Fault, list[str]]]]:
    """Counter keyed (kind, mode, outcome) with outcome in injected / flagged / right; and misses.

    Faults are made in each dialogue's SGD JSON and read back by the reader
    (:func:`csp_check.faults.inject.inject` with ``raw``)."""
    counts: Counter = Counter()
    misses: list[tuple[Fault, list[str]]] = []
    rng = random.Random(seed)
    cache: dict[str, dict[str, dict]] = {}
    for n, dialogue in enumerate(load_corpus(paths)):
        if limit is not None and n >= limit:
            break
        if isinstance(dialogue, InputError) or check_dialogue(dialogue).violations:
            continue
        raw = raw_dialogues(dialogue.source, cache).get(dialogue.id)
        for kind in kinds:
            for mode in MODES:
                if mode != "text" and kind in TEXT_ONLY:
                    continue
                t = trial(dialogue, kind, mode, rng, raw=raw)
                if t is None:
                    continue
                counts[(kind, mode, "injected")] += 1
                counts[(kind, mode, "flagged")] += t.flagged
                counts[(kind, mode, "right")] += t.right
                counts[(kind, mode, "certain")] += t.flagged_certain
                if not t.right:
                    misses.append((t.fault, sorted(c.value for c in t.found)))
        if "hedged_amount" in kinds:  # the no-fault twin: a true count said approximately
            restated = approximate_restatement(dialogue, raw)
            if restated is not None:
                counts["approx_true"] += 1
                found = check_dialogue(restated).violations
                counts["approx_true_flagged"] += bool(found)
                counts["approx_true_certain"] += any(v.certain for v in found)
        if "amount" in kinds:  # the no-fault twin: a count above a full result ("10" -> "12" beside 10 results)
            restated = capped_restatement(dialogue, raw)
            if restated is not None:
                found = check_dialogue(restated).violations
                counts["capped_true"] += 1
                counts["capped_true_certain"] += any(v.certain for v in found)
        for name, twin in count_wording_twins(dialogue, raw).items():  # no fault: the true count reworded / rated
            if name in kinds:
                counts[(name, "twin")] += 1
                counts[(name, "twin_certain")] += any(v.certain for v in check_dialogue(twin).violations)
        if "failed_inform" in kinds:  # the no-fault twin: the alternative a failure turn proposes changed
            twin = proposed_alternative_twin(dialogue, raw)
            if twin is not None:
                counts[("failed_inform", "twin")] += 1
                counts[("failed_inform", "twin_certain")] += any(v.certain for v in check_dialogue(twin).violations)
        if "negated_unit" in kinds:  # the no-fault twin: a stated 0 said by negating its unit ("no layovers")
            twin = negated_zero_twin(dialogue, raw)
            if twin is not None:
                counts[("negated_unit", "twin")] += 1
                counts[("negated_unit", "twin_certain")] += any(v.certain for v in check_dialogue(twin).violations)
        stale = stale_canonical_pair(dialogue, raw)  # a time rewritten in text and values, canonical left
        if stale is not None:
            counts["stale"] += 1
            counts["stale_certain"] += any(v.certain for v in check_dialogue(stale[0]).violations)
            counts["stale_twin_certain"] += any(v.certain for v in check_dialogue(stale[1]).violations)
        stale = stale_confirm_pair(dialogue, raw)  # a confirmed number / date rewritten, canonical left
        if stale is not None:
            counts["cstale"] += 1
            counts["cstale_certain"] += any(v.certain for v in check_dialogue(stale[0]).violations)
            counts["cstale_twin_certain"] += any(v.certain for v in check_dialogue(stale[1]).violations)
        reworded = confirm_date_pair(dialogue, raw)  # a confirmed date reworded in the text only
        if reworded is not None:
            counts["cdate"] += 1
            counts["cdate_certain"] += any(v.certain for v in check_dialogue(reworded[0]).violations)
            counts["cdate_twin_certain"] += any(v.certain for v in check_dialogue(reworded[1]).violations)
        if "restated_detail" in kinds:  # the no-fault twin: the party size restated as booked
            restated = faithful_restatement(dialogue, raw)
            if restated is not None:
                counts["restated_true"] += 1
                found = check_dialogue(restated).violations
                counts["restated_true_flagged"] += bool(found)
                counts["restated_true_certain"] += any(v.certain for v in found)
    return counts, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(SHARED / "dev"), str(SHARED / "train")])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="dialogues to read at most")
    parser.add_argument("--show", type=int, default=10, help="misses to print")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated fault kinds (default: all)")
    args = parser.parse_args()
    kinds = tuple(k for k in KINDS if k in args.kinds.split(","))
    start = time.perf_counter()
    counts, misses = run(args.paths, args.seed, args.limit, kinds)
    print(f"{'kind':<15} {'mode':<10} {'faults':>7} {'flagged':>8} {'certain':>8} {'expected id':>12}")
    total: Counter = Counter()
    for kind in kinds:
        for mode in MODES:
            if mode != "text" and kind in TEXT_ONLY:
                continue
            n = counts[(kind, mode, "injected")]
            f, r, c = counts[(kind, mode, "flagged")], counts[(kind, mode, "right")], counts[(kind, mode, "certain")]
            total.update(injected=n, flagged=f, right=r, certain=c)
            print(f"{kind:<15} {mode:<10} {n:>7} {_pct(f, n):>8} {_pct(c, n):>8} {_pct(r, n):>12}")
    n = total["injected"]
    print(f"{'all':<26} {n:>7} {_pct(total['flagged'], n):>8} {_pct(total['certain'], n):>8} {_pct(total['right'], n):>12}")
    if counts["approx_true"]:
        print(f"no fault, a true count said approximately ('10' -> 'about 11'): flagged "
              f"{counts['approx_true_flagged']}/{counts['approx_true']}, certain {counts['approx_true_certain']}")
    if counts["capped_true"]:
        print(f"no fault, a count above a full result ('10' -> '12' beside 10 results): flagged certain "
              f"{counts['capped_true_certain']}/{counts['capped_true']}")
    for name in ("reworded_count", "rated_count", "failed_inform", "negated_unit"):
        if counts[(name, "twin")]:
            print(f"no fault, {name}'s true twin: flagged certain "
                  f"{counts[(name, 'twin_certain')]}/{counts[(name, 'twin')]}")
    if counts["restated_true"]:
        print(f"no fault, the party size restated as booked (' That is for 2 people.'): flagged "
              f"{counts['restated_true_flagged']}/{counts['restated_true']}, certain {counts['restated_true_certain']}")
    if counts["stale"]:
        print(f"a time rewritten in text and values, canonical_values left ('7:00 am' -> '8:00 am'): certain "
              f"{counts['stale_certain']}/{counts['stale']}; its twin (the same time in words) certain "
              f"{counts['stale_twin_certain']}/{counts['stale']}")
    if counts["cstale"]:
        print(f"a confirmed number / date rewritten in text and values, canonical_values left ('6' -> '8', "
              f"'March 13th' -> 'March 15th'): certain {counts['cstale_certain']}/{counts['cstale']}; its twin "
              f"('six', 'the 13th of March') certain {counts['cstale_twin_certain']}/{counts['cstale']}")
    if counts["cdate"]:
        print(f"a confirmed date reworded in the text only ('next Friday' -> 'the 10th'): certain "
              f"{counts['cdate_certain']}/{counts['cdate']}; its twin (the same day: 'this coming Friday', "
              f"'the 8th') certain {counts['cdate_twin_certain']}/{counts['cdate']}")
    print(f"({time.perf_counter() - start:.1f} s)")
    for fault, found in misses[: args.show]:
        print(f"missed: {fault.kind}/{fault.mode} {fault.dialogue_id} turn {fault.turn} "
              f"{fault.old_text!r} -> {fault.new_text!r}: found {found or 'nothing'}")
    sys.exit(0)


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.2%}" if whole else "-"


if __name__ == "__main__":
    main()
