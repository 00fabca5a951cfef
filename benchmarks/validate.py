"""Throughput of ``validate`` against the cost of merely parsing the same JSON.

    python benchmarks/validate.py [PATH] [--jobs 1,2] [--repeat 3] [--solver cp-sat]

PATH defaults to ``../shared/data/sgd/train`` (seen from the project root): a directory of SGD
``dialogues_*.json`` files. Measured, best of ``--repeat`` runs each:

- ``json.load``: parse every ``dialogues_*.json`` file (the floor: no tool can read faster);
- ``read``: the readers only (JSON → :class:`~csp_check.models.Dialogue`);
- ``validate -j N``: the whole pipeline (read, delexicalize, build C1–C6, check, score), as
  ``csp-check validate`` runs it, for each N of ``--jobs``; with ``--solver NAME`` also with
  that solver's VCA and solution counts (``--vca --count-solutions``).

Prints dialogues per second for each and the ratio of its time to the ``json.load`` time. The
machine's CPU count and load average are printed too: the figures only compare on one machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check import CorpusSummary, load_corpus, validate
from csp_check.errors import CspCheckError
from csp_check.run.runner import SolverSettings
from csp_check.solvers import get_solver

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd" / "train"


def best_of(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """(best wall time in seconds, the count ``run`` returned)."""
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
    return best, count


def parse_only(files: list[Path]) -> int:
    n = 0
    for file in files:
        with open(file, encoding="utf-8") as f:
            n += len(json.load(f))
    return n


def read_only(path: Path) -> int:
    return sum(1 for _ in load_corpus([path]))


def validate_all(path: Path, jobs: int, solver: SolverSettings | None = None) -> int:
    summary = CorpusSummary()
    for report in validate([path], jobs=jobs, solver=solver):
        summary.add(report)
    return summary.dialogues


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--solver", help="also time validate with this solver (VCA + solution counts)")
    args = parser.parse_args()
    if args.solver:  # a wrong name is an error now, not after the work
        try:
            get_solver(args.solver)
        except CspCheckError as err:
            parser.error(f"--solver {args.solver}: {err}")
    files = sorted(args.path.glob("dialogues_*.json"))
    if not files:
        raise SystemExit(f"{args.path}: no dialogues_*.json files")

    print(f"{args.path}: {len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    base, n = best_of(args.repeat, lambda: parse_only(files))
    rows = [("json.load", base, n)]
    rows.append(("read (readers only)", *best_of(args.repeat, lambda: read_only(args.path))))
    for jobs in (int(j) for j in args.jobs.split(",")):
        rows.append((f"validate --jobs {jobs}", *best_of(args.repeat, lambda jobs=jobs: validate_all(args.path, jobs))))
    if args.solver:
        solver = SolverSettings(name=args.solver, vca=True, count=True)
        for jobs in (int(j) for j in args.jobs.split(",")):
            rows.append((f"  + {args.solver} -j {jobs}", *best_of(args.repeat, lambda jobs=jobs: validate_all(args.path, jobs, solver))))

    print(f"{'stage':<22}{'seconds':>9}{'dialogues':>11}{'dialogues/s':>13}{'× json.load':>13}")
    for name, seconds, count in rows:
        print(f"{name:<22}{seconds:>9.2f}{count:>11,}{count / seconds:>13,.0f}{seconds / base:>13.1f}")


if __name__ == "__main__":
    main()
