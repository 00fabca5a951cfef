"""The long fuzz run (docs/robustness.md): thousands of damaged corpora through ``csp-check validate``.

    python benchmarks/fuzz.py [--cases 5000] [--seed 0] [--hang 20]

Each case is drawn like ``tests/test_fuzz.py`` draws it (a format, a kind of damage, the
dialogue damaged, a seed; machinery in ``tests/support/fuzzing.py``) and checked against the same
contract. Prints the totals: cases, cases breaking the contract (by kind of damage), tracebacks
or uncaught exceptions, good dialogues lost (missing, or with another verdict than in the clean
corpus), hangs (a case running longer than ``--hang`` seconds is stopped by SIGALRM) and exit
codes; then the first few failing cases, to replay with ``fuzzing.make_case(fmt, kind, target, seed)``.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support import fuzzing as fz


class Hang(BaseException):
    """A case ran past ``--hang`` seconds."""


def _alarm(signum, frame):
    raise Hang


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hang", type=float, default=20.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    tmp = Path(tempfile.mkdtemp(prefix="csp-fuzz-"))
    broken, exits, failures = Counter(), Counter(), []
    tracebacks = lost = hangs = 0
    start = time.perf_counter()
    for _n in range(args.cases):
        fmt, kind, target, seed = rng.choice(fz.FORMATS), rng.choice(fz.KINDS), rng.randrange(4), rng.randrange(2**32)
        case = fz.make_case(fmt, kind, target, seed)
        signal.setitimer(signal.ITIMER_REAL, args.hang)
        try:
            outcome = fz.run_case(case, tmp / "case")
        except Hang:
            hangs += 1
            broken[kind] += 1
            failures.append((fmt, kind, target, seed, ["hang"]))
            continue
        except Exception as err:
            broken[kind] += 1
            failures.append((fmt, kind, target, seed, [f"harness: {type(err).__name__}: {err}"]))
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        exits[outcome.exit_code] += 1
        lost += outcome.lost
        tracebacks += any("traceback" in p or "uncaught" in p for p in outcome.problems)
        if outcome.problems:
            broken[kind] += 1
            failures.append((fmt, kind, target, seed, outcome.problems[:2]))
    seconds = time.perf_counter() - start
    print(f"cases: {args.cases}  ({seconds:.0f} s, {1000 * seconds / args.cases:.0f} ms per case)")
    print(f"cases breaking the contract: {sum(broken.values())}  {dict(broken)}")
    print(f"tracebacks / uncaught exceptions: {tracebacks}")
    print(f"good dialogues lost: {lost}")
    print(f"hangs (> {args.hang:g} s): {hangs}")
    print(f"exit codes: {dict(sorted(exits.items()))}")
    for failure in failures[:10]:
        print("  failing:", *failure)


if __name__ == "__main__":
    main()
