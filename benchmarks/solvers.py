"""Benchmark the solver backends on SGD dev: per-dialogue solve times, GCA, exact VCA, groups.

    python benchmarks/solvers.py [PATH ...] [--mzn-sample N] [--cap 101] [--time-limit S]
                                 [--constraints C1,...,C6] [--fault KIND] [--seed 0] [--json FILE]

PATH defaults to ``../shared/data/sgd/dev``. For every dialogue the CSP is built once
(:func:`csp_check.pipeline.dialogue_csp`), then CP-SAT computes satisfiability, the solution
count (cap 101: groups exact) and the most similar solution (exact VCA, spec §3). MiniZinc/Gecode
runs the same three operations in the same process on a seeded sample of ``--mzn-sample``
dialogues (0 = all; about 0.15 s per call, so all of SGD dev takes several minutes), and the
script checks the two backends agree there. Printed:

- corpus size, CSP build time, variables;
- per operation, mean / median / p95 seconds per dialogue for CP-SAT (all dialogues and the
  sample) and MiniZinc (sample), and the ratio MiniZinc / CP-SAT on the sample;
- the wall time of exact VCA over all dialogues on CP-SAT;
- GCA (share of dialogues whose assignment satisfies every constraint, spec §3) and exact VCA;
- the solution-group table (paper Table 1 and §5's by-group GCA / VCA).

Gold SGD is consistent (GCA = VCA = 1). ``--fault amount|kb_swap|coreference|duplicate|mixed``
first injects one text-only fault per dialogue (:mod:`csp_check.faults.inject`, seeded; dialogues with
no place for it stay gold), which gives non-trivial VCA and repairs; the script then also
reports how often the minimal repair edits exactly the faulted variable.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.check import evaluate as check  # noqa: E402
from csp_check.faults.inject import inject  # noqa: E402
from csp_check.faults.registry import KINDS  # noqa: E402
from csp_check.models import ALL_CONSTRAINTS, CSP, ConstraintId, Dialogue  # noqa: E402
from csp_check.pipeline import dialogue_csp, load_corpus  # noqa: E402
from csp_check.solvers import (  # noqa: E402
    DEFAULT_CAP,
    DEFAULT_TIME_LIMIT,
    CountResult,
    OptimumResult,
    SolutionGroup,
    SolveResult,
    SolverUnavailable,
    SolveStatus,
    get_solver,
)

SGD_DEV = ROOT.parent / "shared" / "data" / "sgd" / "dev"
OPERATIONS = ("satisfiable", "count", "vca")


@dataclass(frozen=True)
class Ops:
    """The typed results of the three operations on one CSP."""

    sat: SolveResult
    counted: CountResult
    best: OptimumResult

    def seconds(self, op: str) -> float:
        """Solve time of ``op`` (one of :data:`OPERATIONS`)."""
        return {"satisfiable": self.sat, "count": self.counted, "vca": self.best}[op].solve_seconds

    def answer(self) -> tuple[object, ...]:
        """What two backends must agree on: status, count, capped, agreement, agreeing."""
        return (self.sat.status, self.counted.count, self.counted.capped, self.best.agreement, self.best.agreeing)

    def timed_out(self) -> bool:
        return SolveStatus.UNKNOWN in (self.sat.status, self.counted.status, self.best.status)

    def json(self) -> dict[str, object]:
        return {
            "seconds": {op: self.seconds(op) for op in OPERATIONS}, "status": self.sat.status.value,
            "count": self.counted.count, "capped": self.counted.capped,
            "group": self.counted.group.value if self.counted.group else None, "count_status": self.counted.status.value,
            "agreement": self.best.agreement, "agreeing": self.best.agreeing, "variables": self.best.variables,
            "vca_status": self.best.status.value,
        }  # fmt: skip


def run_ops(solver_name: str, csp: CSP, cap: int, time_limit: float) -> Ops:
    """The three operations on one CSP: results and seconds each."""
    solver = get_solver(solver_name)
    return Ops(
        sat=solver.satisfiable(csp, time_limit=time_limit),
        counted=solver.count_solutions(csp, cap, time_limit=time_limit),
        best=solver.most_similar(csp, time_limit=time_limit),
    )


def describe(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    mean, median = 1000 * statistics.fmean(xs), 1000 * statistics.median(xs)
    return f"mean {mean:8.2f} ms  median {median:8.2f} ms  p95 {1000 * p95:8.2f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path, default=[SGD_DEV])
    ap.add_argument("--mzn-sample", type=int, default=100, help="dialogues solved by MiniZinc too (0 = all)")
    ap.add_argument("--cap", type=int, default=DEFAULT_CAP)
    ap.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per solver call")
    ap.add_argument("--constraints", default=",".join(c.value for c in ALL_CONSTRAINTS))
    ap.add_argument("--fault", choices=["none", "amount", "kb_swap", "coreference", "duplicate", "mixed"],
                    default="none", help="inject one text-only fault per dialogue first")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="write every per-dialogue result as JSON")
    args = ap.parse_args(argv)
    families = [ConstraintId(c.strip().upper()) for c in args.constraints.split(",") if c.strip()]

    start = time.perf_counter()
    dialogues = [d for d in load_corpus(args.paths) if isinstance(d, Dialogue)]
    read_s = time.perf_counter() - start
    faults: dict[int, object] = {}
    if args.fault != "none":
        rng = random.Random(args.seed)
        for i, d in enumerate(dialogues):
            kind = rng.choice(KINDS) if args.fault == "mixed" else args.fault
            injected = inject(d, kind, "text", rng)
            if injected is not None:
                dialogues[i], faults[i] = injected
        print(f"{args.fault} faults injected (text only) into {len(faults)}/{len(dialogues)} dialogues")
    start = time.perf_counter()
    csps = [dialogue_csp(d, constraints=families) for d in dialogues]
    build_s = time.perf_counter() - start
    n_vars = sum(len(c.variables) for c in csps)
    print(f"{len(csps)} dialogues from {', '.join(map(str, args.paths))}: {n_vars} variables "
          f"({sum(1 for c in csps for v in c.variables if v.span is None)} implicit); "
          f"read {read_s:.1f} s, CSPs built in {build_s:.1f} s; constraints {','.join(f.value for f in families)}")

    # CP-SAT on everything; exact VCA timed as its own pass
    get_solver("cp-sat")
    start = time.perf_counter()
    vca_all = [get_solver("cp-sat").most_similar(c, time_limit=args.time_limit) for c in csps]
    vca_wall = time.perf_counter() - start
    cp = [run_ops("cp-sat", c, args.cap, args.time_limit) for c in csps]

    # MiniZinc/Gecode on a seeded sample, in the same run
    sample = list(range(len(csps)))
    if 0 < args.mzn_sample < len(csps):
        sample = sorted(random.Random(args.seed).sample(sample, args.mzn_sample))
    try:
        get_solver("minizinc:gecode")
        mzn = {i: run_ops("minizinc:gecode", csps[i], args.cap, args.time_limit) for i in sample}
    except SolverUnavailable as err:
        print(f"MiniZinc skipped: {err}")
        mzn = {}

    print(f"\nPer-dialogue solve time (wall, incl. model building; MiniZinc on {len(mzn)} dialogues):")
    for op in OPERATIONS:
        cp_all = [r.seconds(op) for r in cp]
        cp_s = [cp[i].seconds(op) for i in mzn]
        mz_s = [r.seconds(op) for r in mzn.values()]
        print(f"  {op:<11} CP-SAT all     {describe(cp_all)}")
        if mzn:
            ratio = statistics.fmean(mz_s) / statistics.fmean(cp_s)
            print(f"  {'':<11} CP-SAT sample  {describe(cp_s)}")
            print(f"  {'':<11} MiniZinc       {describe(mz_s)}   ratio MiniZinc/CP-SAT {ratio:6.1f}x")
    print(f"\nExact VCA over all {len(csps)} dialogues on CP-SAT (one process): {vca_wall:.2f} s")

    disagree = [dialogues[i].id for i, r in mzn.items() if r.answer() != cp[i].answer()]
    unknown = sum(1 for r in cp if r.timed_out())
    print(f"CP-SAT vs MiniZinc on the sample: {len(mzn) - len(disagree)}/{len(mzn)} agree"
          + (f"; differ: {', '.join(disagree[:10])}" if disagree else "") + f"; CP-SAT timeouts: {unknown}")

    consistent = [not check.violations(c) for c in csps]
    solver_consistent = [get_solver("cp-sat").check_assignment(c).status.value == "satisfied" for c in csps]
    mismatch = sum(a != b for a, b in zip(consistent, solver_consistent))
    agreeing = sum(r.agreeing for r in vca_all)
    vca_vars = sum(r.variables for r in vca_all)  # variables with a span: implicit ones are fixed context
    print(f"\nGCA {sum(consistent) / len(csps):.4f} ({sum(consistent)}/{len(csps)}; checker and CP-SAT differ on "
          f"{mismatch})   exact VCA {agreeing / max(vca_vars, 1):.4f} ({agreeing}/{vca_vars} variables with a span)")

    print(f"\nSolution groups (cap {args.cap}):")
    print(f"  {'group':<8} {'dialogues':>9} {'variables':>9} {'GCA':>6} {'VCA':>6}")
    groups = [*SolutionGroup, None]
    for g in groups:
        idx = [i for i, r in enumerate(cp) if r.counted.group is g]
        if not idx and g is None:
            continue
        nv = sum(len(csps[i].variables) for i in idx)
        searched = sum(vca_all[i].variables for i in idx)
        gca = sum(consistent[i] for i in idx) / len(idx) if idx else 0.0
        vca = sum(vca_all[i].agreeing for i in idx) / searched if searched else 0.0
        label = g.value if g else "unknown"
        print(f"  {label:<8} {len(idx):>9} {nv:>9} {gca:>6.2f} {vca:>6.2f}")

    if faults:
        from csp_check.solvers.repair import repair

        exact = fixed = 0
        for i, fault in faults.items():
            result = repair(csps[i], time_limit=args.time_limit)
            names = [e.variable for e in result.edits]
            exact += names == [fault.variable]
            fixed += fault.variable in names
        print(f"\nMinimal repair of the {len(faults)} faulted dialogues: edits exactly the faulted variable in "
              f"{exact} ({exact / len(faults):.1%}); touches it in {fixed} ({fixed / len(faults):.1%})")

    if args.json:
        rows = [{"dialogue": dialogues[i].id, "cp_sat": r.json(), "minizinc": mzn[i].json() if i in mzn else None}
                for i, r in enumerate(cp)]  # fmt: skip
        args.json.write_text(json.dumps(rows, indent=1))
    return 1 if disagree or mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
