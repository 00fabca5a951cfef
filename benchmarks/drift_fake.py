"""The drift protocol end to end on a fake agent that keeps its instruction for k rounds and then
drifts (issue 23): the bundled suite against an OpenAI-compatible server on 127.0.0.1
(``tests/support/openai_server.py``, the agent of ``tests/support/drift_agent.py``).

Usage: python benchmarks/drift_fake.py [--k 3] [--rounds 8] [--runs 2] [--out DIR]
(default DIR: a temporary folder; drift.json, drift.csv, drift.png and the conversations there)

It prints ``csp-check drift``'s table: the stability per round of each category and the mean,
which must be 1 up to round k and fall after it (the share measures ``length`` keep a little:
a too-long answer scores max / n, not 0).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's csp_check, not an installed one
sys.path.insert(0, str(ROOT / "tests"))

from click.testing import CliRunner  # noqa: E402
from support.drift_agent import ObeyThenDrift  # noqa: E402
from support.openai_server import FakeOpenAI  # noqa: E402

from csp_check.cli.main import main  # noqa: E402
from csp_check.drift.suite import bundled_suite  # noqa: E402


def run(k: int, rounds: int, runs: int, out: Path) -> int:
    agent = ObeyThenDrift(bundled_suite(), k)
    with FakeOpenAI(agent, lifetime=600) as server:
        result = CliRunner().invoke(main, ["drift", "--base-url", server.base_url, "--model", "fake-agent", "--rounds",
                                           str(rounds), "--runs", str(runs), "--out", str(out), "--cache-dir",
                                           str(out / "cache")])  # fmt: skip
    print(f"fake agent obeying for k = {k} rounds; {len(bundled_suite())} prompts x {runs} runs x {rounds} rounds")
    print(result.stdout, end="")
    if result.exit_code:
        print(result.output, file=sys.stderr)
    return result.exit_code


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="drift-fake-"))
    sys.exit(run(args.k, args.rounds, args.runs, out))
