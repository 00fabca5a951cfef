"""The full attack run (docs/robustness.md "Attacks"): every attack of ``tests/support/attacks.py``
at full scale through ``csp-check``, each checked against the contract.

    python benchmarks/attack.py [--small] [--only NAME ...] [--code DIR]

Full scale: a 1 GiB zip bomb (1 MB on disk) at the default budget, a 2 GiB sparse ``.json``
(one line of NUL bytes), 64 MiB runs of white space between dialogues, a call of 20,000
arguments, an instruction of 8,000 clauses, a 300 MB LLM answer, a server dripping one byte
every 0.5 s, a server echoing the API key, encrypted / LZMA / damaged zips, a bad byte inside a
zipped member, a folder with links back up, a resume from another working directory, SIGTERM
mid-run with two workers. ``--small``: the sizes of the CI sample. ``--code DIR``: run another
checkout's code (e.g. main before the fixes) to see the attacks break it.

Prints one line per attack (issue-21 item, exit code, seconds and peak RSS against their
bounds, problems), then the totals: attacks run, attacks breaking the contract, tracebacks,
good dialogues lost, time and memory bounds held.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="the CI sample's sizes")
    parser.add_argument("--only", nargs="*", default=None, help="attack names (default: all)")
    parser.add_argument("--code", type=Path, default=None, help="run this checkout's code")
    args = parser.parse_args()
    if args.code is not None:
        os.environ["CSP_CHECK_CODE_ROOT"] = str(args.code.resolve())
    from support import attacks  # after CSP_CHECK_CODE_ROOT is set

    names = args.only or list(attacks.ATTACKS)
    tmp = Path(tempfile.mkdtemp(prefix="csp-attack-"))
    broken = tracebacks = lost = time_held = memory_held = 0
    print(f"{'attack':<26} item  exit  seconds (bound)   peak MiB (bound)  problems")
    for name in names:
        item = attacks.ATTACKS[name][0]
        try:
            outcome = attacks.run_attack(name, tmp / name, full=not args.small)
        except Exception as err:  # a setup that failed (e.g. the first run of a resume) is a broken case
            print(f"{name:<26} {item:>4}  setup failed: {type(err).__name__}: {err}")
            broken += 1
            continue
        time_held += not any(" s over the bound" in p for p in outcome.problems)
        memory_held += not any("MiB over the bound" in p for p in outcome.problems)
        broken += bool(outcome.problems)
        tracebacks += outcome.tracebacks
        lost += outcome.lost
        print(f"{name:<26} {item:>4}  {outcome.code:>4}  {outcome.seconds:7.1f} {f'({outcome.seconds_bound:g})':>9}  "
              f"{outcome.rss_mb:8.0f} {f'({outcome.rss_bound:g})':>9}  {'; '.join(outcome.problems) or 'held'}")
    total = len(names)  # a setup that failed counts as broken, not as a bound held
    print(f"\n{total} attacks run, {broken} breaking the contract, {tracebacks} tracebacks, {lost} good dialogues lost, "
          f"time bound held in {time_held}/{total}, memory bound held in {memory_held}/{total}")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
