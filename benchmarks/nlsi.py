"""NLSI benchmark: gold consistency, fault detection by family, --derive scores, throughput.

Usage: python benchmarks/nlsi.py [SGD_PATH ...] [--seed N] [--limit N] [--no-annotation]
[--solver cp-sat|minizinc [--solver-every K]]  (default path: ../shared/data/sgd/dev)

1. Builds NLSI-style examples from SGD (csp_check.nlsi.build, seeded).
2. Gold consistent %: share of gold call sets the checker accepts (bar >= 99%).
3. Faults (csp_check.nlsi.faults): for each accepted gold example and each fault kind, one
   faulty call set; *flagged right* = not consistent and the expected family among the
   violations (bar >= 99% per kind).
4. --derive: exact match, slot F1, instruction EM/F1 by reasoning type vs gold, beside the
   paper's GPT-4 figures.
5. Throughput (examples/s) of checking and of checking + deriving, single process.
6. With --solver: derive again through that backend over the lowered P1-P6 (every K-th
   example): exact-match agreement with the interpreter, EM / slot F1 vs gold, the solution
   count of the derived calls (1 = determined, 2 = the profile leaves a choice), throughput.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.errors import CspCheckError
from csp_check.nlsi.build import build_examples
from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.faults import KINDS, make
from csp_check.nlsi.metrics import Scores, exact_match, f1, render_table, selection_scores, triples
from csp_check.solvers import get_solver

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(SHARED / "dev")])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--no-annotation", action="store_true", help="ground dialogues on text only")
    ap.add_argument("--solver", default=None, help="also derive through this backend (cp-sat, minizinc)")
    ap.add_argument("--solver-every", type=int, default=1, help="with --solver: every K-th example only")
    args = ap.parse_args()
    if args.solver:  # a wrong name is an error now, not after the work
        try:
            get_solver(args.solver)
        except CspCheckError as err:
            ap.error(f"--solver {args.solver}: {err}")
    schema, examples = build_examples([Path(p) for p in args.paths], seed=args.seed, limit=args.limit)
    import spacy  # noqa: F401  (imported before timing, so both timed runs pay the same costs)

    checker = Checker(schema, use_annotation=not args.no_annotation)
    print(f"{len(examples)} examples built from {', '.join(args.paths)} (seed {args.seed}); "
          f"grounding: {'text only' if args.no_annotation else 'SGD annotation'}")

    from csp_check.nlsi.parser_eval import parser_accuracy

    acc, wrong = parser_accuracy(Checker(schema).parser, examples)
    for kind in ("template", "paraphrase"):
        if acc[kind, "n"]:
            print(f"instruction parser, {kind} wordings: {100 * acc[kind, 'right'] / acc[kind, 'n']:.1f}% right "
                  f"({acc[kind, 'right']}/{acc[kind, 'n']} distinct instructions)")
    for w in wrong[:3]:
        print(f"      wrong {w}")

    t0 = time.perf_counter()
    reports = [checker.check(e) for e in examples]  # cold: includes building the matchers
    t_check = time.perf_counter() - t0
    ok = [e for e, r in zip(examples, reports) if r.status.value == "consistent"]
    print(f"gold consistent: {100 * len(ok) / len(examples):.1f}% ({len(ok)}/{len(examples)})  [bar >= 99%]")
    fams = Counter(v.family for r in reports for v in r.violations)
    if fams:
        print("  violations on gold by family:", dict(sorted(fams.items())))

    rng = random.Random(args.seed)
    counts: Counter = Counter()
    misses: dict[str, list[str]] = {}
    for e in ok:
        ctx = checker.context(e)
        gold, _ = parse_calls(e.api_calls)
        for kind in KINDS:
            fault = make(kind, ctx, gold, rng)
            if fault is None:
                continue
            counts[kind, "injected"] += 1
            rep = checker.check_calls(e, fault.calls, ctx)
            got = {v.family for v in rep.violations}
            if rep.status.value != "consistent":
                counts[kind, "flagged"] += 1
            if rep.status.value != "consistent" and fault.family in got:
                counts[kind, "right"] += 1
            else:
                misses.setdefault(kind, []).append(f"{e.example_id}: {fault.detail} -> {sorted(got)}")
    print("faults (flagged with the right family)  [bar >= 99%]:")
    for kind in KINDS:
        n = counts[kind, "injected"]
        if n:
            print(f"  {kind:18} {100 * counts[kind, 'right'] / n:6.1f}%  flagged {100 * counts[kind, 'flagged'] / n:6.1f}%  (n={n})")
            for m in misses.get(kind, [])[:2]:
                print(f"      miss {m}")

    t0 = time.perf_counter()
    checker = Checker(schema, use_annotation=not args.no_annotation)  # cold: matchers built again
    derived = [checker.check(e, derive_calls=True) for e in examples]
    t_derive = time.perf_counter() - t0
    scores = Scores()
    for e, r in zip(examples, derived):
        gold, _ = parse_calls(e.api_calls)
        profile = [i.nl_instruction for i in e.all_standing_instructions]
        gold_i = [i.nl_instruction for i in e.applicable_standing_instructions or []]
        sel_em, sel_f1, halluc = selection_scores(r.derived_instructions, gold_i, profile)
        scores.add(e.reasoning_type.value, em=exact_match(r.derived_api_calls, gold),
                   slot_f1=f1(triples(r.derived_api_calls), triples(gold)), sel_em=sel_em, sel_f1=sel_f1, halluc=halluc)
    print("--derive vs gold (%), paper's GPT-4 exact match beside (Table 5 Oracle / ICL):")
    print(render_table(scores.table()))
    try:
        from csp_check.nlsi.selection import Bm25Selector

        for top in (1, 2, 4):
            sel = Bm25Selector(examples, top=top)
            bm = Scores()
            for e in examples:
                gold_i = [i.nl_instruction for i in e.applicable_standing_instructions or []]
                profile = [i.nl_instruction for i in e.all_standing_instructions]
                em_, f1_, h_ = selection_scores(sel.select(e), gold_i, profile)
                bm.add("all", sel_em=em_, sel_f1=f1_)
            row = bm.table()["all"]
            print(f"BM25 selection top-{top}: EM {row['sel_em']:.1f}  F1 {row['sel_f1']:.1f}   "
                  f"(paper BM25 N=4: 17.3 / 3.0; derived selection above: "
                  f"{scores.table()['all']['sel_em']:.1f} / {scores.table()['all']['sel_f1']:.1f})")
    except ImportError as err:
        print(f"BM25 baseline skipped: {err}")
    print(f"throughput: calls {len(examples) / t_check:.0f} examples/s; calls --derive {len(examples) / t_derive:.0f} examples/s "
          f"(one process, each run includes building the matchers)")
    if args.solver:
        picked = list(range(0, len(examples), args.solver_every))
        solver_checker = Checker(schema, use_annotation=not args.no_annotation, solver=args.solver)
        t0 = time.perf_counter()
        by_solver = {i: solver_checker.check(examples[i], derive_calls=True) for i in picked}
        t_solver = time.perf_counter() - t0
        agree = sum(sorted(by_solver[i].derived_api_calls) == sorted(derived[i].derived_api_calls) for i in picked)
        sc = Scores()
        for i in picked:
            gold, _ = parse_calls(examples[i].api_calls)
            pred = by_solver[i].derived_api_calls
            sc.add(examples[i].reasoning_type.value, em=exact_match(pred, gold), slot_f1=f1(triples(pred), triples(gold)))
        counts = Counter(by_solver[i].derived_solutions for i in picked)
        row = sc.table()["all"]
        print(f"--derive --solver {args.solver} ({len(picked)} examples): same calls as the interpreter "
              f"{100 * agree / len(picked):.1f}%; EM {row['em']:.1f} slot F1 {row['slot_f1']:.1f}; "
              f"solution count of the derived calls {dict(sorted(counts.items(), key=str))}; "
              f"{len(picked) / t_solver:.1f} examples/s (derive + count)")


if __name__ == "__main__":
    main()
