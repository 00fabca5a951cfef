"""Scale: ``validate`` serial, with ``--jobs 2`` and on Ray, in one run, with identical reports.

    python benchmarks/scale.py [PATH...] [--jobs 2] [--big-mb 120] [--no-ray] [--repeat 2]

PATHs default to the shared SGD train and dev splits (``../shared/data/sgd/{train,dev}`` seen
from the project root). Each run is ``csp-check validate PATH... --report FILE --quiet`` in a
process of its own (start-up, reading, checking, writing the report: what a user waits for):

- ``serial``: ``--jobs 1``; ``jobs``: ``--jobs N``; ``ray``: ``--engine ray --jobs N`` (a local
  Ray started by the run, start-up included); ``serial --vca`` and ``jobs --vca``;
- ``big serial`` / ``big jobs``: a ``--big-mb`` MB SGD-style JSON file with ids unlike SGD's
  (``conv-…``), generated into ``/tmp`` from the same dialogues (``--format auto``).

Each of the first five runs ``--repeat`` times, interleaved, the best time counting (Ray once).
Prints dialogues per second, the main process's peak memory (max RSS, MB), and the CPU seconds of
the run's processes (sampled from ``/proc`` every 0.1 s: workers included) of each run, the
``--jobs`` speed-up, the ``--vca`` overhead (its time over the plain check's), and whether
every run's report is byte-identical to the serial one (timing fields aside). The machine's CPU
count and load average are printed before and after: other work on the machine slows the
parallel runs most, so the figures only compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"
DEFAULT = [SHARED / "train", SHARED / "dev"]
TMP = Path("/tmp/csp-check-scale")
ROOT = Path(__file__).resolve().parents[1]  # the children run this checkout's csp_check, not an installed one

_CHILD = """
import resource, sys, time
from csp_check.cli.main import main
start = time.perf_counter()
try:
    main(sys.argv[1:], standalone_mode=True)
except SystemExit as done:
    code = done.code
print("BENCH", time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code, file=sys.stderr)
"""


def _tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds (user + system) so far of ``root`` and every process below it (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    out = {}
    for pid in cpu:
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            out[pid] = cpu[pid]
    return out


def run(name: str, paths: list[Path], extra: list[str]) -> dict:
    """One ``csp-check validate`` in a fresh process: seconds, dialogues, peak RSS (MB), exit
    code, and the CPU seconds of its main process and of all its processes (sampled)."""
    report = TMP / f"{name.replace(' ', '-')}.jsonl"
    report.unlink(missing_ok=True)
    args = ["validate", *map(str, paths), "--report", str(report), "--quiet", *extra]
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))})  # fmt: skip
    seen: dict[int, float] = {}
    while proc.poll() is None:
        seen.update(_tree_cpu(proc.pid))  # a process's CPU only grows: keep its last reading
        time.sleep(0.1)
    stdout, stderr = proc.communicate()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    line = next((x for x in done.stderr.splitlines() if x.startswith("BENCH ")), None)
    if line is None:
        raise SystemExit(f"{name}: the run failed:\n{done.stderr[-2000:]}")
    seconds, rss, code = line.split()[1:]
    lines = report.read_text(encoding="utf-8").splitlines()
    return {"name": name, "seconds": float(seconds), "dialogues": len(lines), "rss_mb": int(rss) / 1024,
            "exit": int(code), "report": _canonical(lines), "main_cpu": seen.get(proc.pid, 0.0),
            "cpu": sum(seen.values())}  # fmt: skip


def _canonical(lines: list[str]) -> list[str]:
    """Report lines without the solver's wall time (the one field that differs run to run)."""
    return [re.sub(r'"solve_seconds":[0-9.e-]+', '"solve_seconds":0', line) for line in lines]


def make_big(target_mb: int, sources: list[Path]) -> Path:
    """A ``target_mb`` MB SGD-style JSON file (one array, indented) of the ``sources``' dialogues
    over and over, with ids unlike SGD's; written item by item (never held whole)."""
    path = TMP / f"sgd-style-{target_mb}mb.json"
    if path.exists() and path.stat().st_size >= target_mb << 20:
        return path
    files = sorted(f for s in sources for f in (s.glob("dialogues_*.json") if s.is_dir() else [s]))
    written, n = 0, 0
    with open(path, "w", encoding="utf-8") as out:
        out.write("[\n")
        while written < target_mb << 20:
            for file in files:
                for dialogue in json.loads(file.read_text(encoding="utf-8")):
                    dialogue["dialogue_id"] = f"conv-{n:07d}"
                    text = ("" if n == 0 else ",\n") + json.dumps(dialogue, indent=2)
                    out.write(text)
                    written += len(text)
                    n += 1
                if written >= target_mb << 20:
                    break
        out.write("\n]\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--big-mb", type=int, default=120, help="size of the generated file (0: none)")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each mode (the best counts)")
    args = parser.parse_args()
    TMP.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    j = ["--jobs", str(args.jobs)]
    plan = [("serial", []), ("jobs", j), ("serial --vca", ["--vca"]), ("jobs --vca", [*j, "--vca"])]
    if not args.no_ray:
        plan.append(("ray", ["--engine", "ray", *j]))
    runs: dict[str, dict] = {}
    for rep in range(args.repeat):  # interleaved: a burst of other work hits every mode alike
        for name, extra in plan:
            if name == "ray" and rep:
                continue  # Ray's start-up dominates its spread; once is enough
            r = run(name, args.paths, extra)
            _show(r)
            if name not in runs or r["seconds"] < runs[name]["seconds"]:
                runs[name] = r
    if args.repeat > 1:
        print(f"best of {args.repeat}:")
        for name, _ in plan:
            _show(runs[name])
    if args.big_mb:
        big = make_big(args.big_mb, args.paths)
        print(f"generated {big} ({big.stat().st_size / 2**20:.0f} MB)", flush=True)
        for name, extra in [("big serial", []), ("big jobs", j)]:
            runs[name] = run(name, [big], extra)
            _show(runs[name])
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    serial, jobs = runs["serial"], runs["jobs"]
    print(f"--jobs {args.jobs} speed-up: {serial['seconds'] / jobs['seconds']:.2f}x; CPU: serial {serial['cpu']:.1f} s, "
          f"--jobs {args.jobs} {jobs['cpu']:.1f} s of which the main process {jobs['main_cpu']:.1f} s "
          f"(on {args.jobs} free cores at best {serial['cpu'] / max(jobs['main_cpu'], (jobs['cpu']) / args.jobs):.2f}x)")
    print(f"--vca overhead: {runs['serial --vca']['seconds'] / serial['seconds']:.2f}x serial, "
          f"{runs['jobs --vca']['seconds'] / jobs['seconds']:.2f}x with --jobs {args.jobs}")  # fmt: skip
    if "ray" in runs:
        print(f"Ray speed-up over serial: {serial['seconds'] / runs['ray']['seconds']:.2f}x (Ray start-up included)")
    same = all(runs[n]["report"] == serial["report"] and runs[n]["exit"] == serial["exit"] for n in ("jobs", "ray") if n in runs)
    same_vca = runs["jobs --vca"]["report"] == runs["serial --vca"]["report"]
    same_big = "big jobs" not in runs or runs["big jobs"]["report"] == runs["big serial"]["report"]
    print(f"reports identical to serial (and exit codes): {same}; with --vca: {same_vca}; big file: {same_big}")
    if not (same and same_vca and same_big):
        sys.exit(1)


def _show(r: dict) -> None:
    print(f"{r['name']:<14} {r['dialogues']:>6} dialogues {r['seconds']:7.2f} s {r['dialogues'] / r['seconds']:7.1f} dialogues/s "
          f"peak RSS {r['rss_mb']:4.0f} MB  exit {r['exit']}  CPU {r['cpu']:6.1f} s (main {r['main_cpu']:5.1f} s)",
          flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
