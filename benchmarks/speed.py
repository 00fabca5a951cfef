"""Speed: ``validate`` against a plain ``json.load`` of the same files, whole process, in one run.

    python benchmarks/speed.py [--repeat 3] [--only sgd,multiwoz,raw] [--jobs 2]
                                               [--no-profile] [--sampled] [--top 12]

Three inputs (seen from the project root; the data is read where it lies, never copied into the
repository):

- ``sgd``: the shared SGD train split, ``../shared/data/sgd/train`` (3,069 dialogues);
- ``multiwoz``: MultiWOZ 2.1 val, ``../shared/data/multiwoz/val.json.zip`` with its DB
  (``--kb ../shared/data/multiwoz/db``; 999 dialogues);
- ``raw``: the same MultiWOZ val written as raw text (``### id`` then ``User:`` / ``System:``
  lines, as ``benchmarks/rawtext.py`` writes it: :func:`rawtext.to_text`, sorted ids) into
  ``/tmp/csp-check-speed/multiwoz_val.txt``, read by the ``text`` reader against the DB.

Each measurement is a fresh process (interpreter start-up, imports, reading, checking, writing
the report: what a user waits for): ``parse`` is ``python -c`` loading the input's JSON files
with ``json.load`` (for ``raw`` the JSON the text was written from: the zip's member), ``check``
is ``csp-check validate INPUT [--kb DB] --report FILE --quiet``. The two alternate, ``--repeat``
times each, and the best of each counts, so a burst of other work on the machine hits both
alike. Printed per input: the best seconds of each, their ratio (``check / parse``), dialogues
per second, the check's peak memory (the process's peak RSS, ``VmHWM``, MB), and the best CPU
seconds (user + system) of each with their ratio, which a loaded machine disturbs less; with ``--jobs N`` also
``validate --jobs N`` on ``sgd`` and its speed-up over serial (best of ``--repeat``, alternated
with the serial run). Then, unless ``--no-profile``, a cProfile of one in-process ``validate``
of each input: the ``--top`` functions by own time (profiles are robust to load; absolute
times are not, and the load average is printed before and after). cProfile's cost per call
inflates small functions (a run takes 5–8× its time), so ``--sampled`` profiles instead by
sampling the stack every 2 ms of CPU (``ITIMER_PROF``): each function's share of the samples
on top of the stack (own) and anywhere in it (inclusive), at the run's own speed.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import io
import os
import pstats
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("PYTHONPATH", str(ROOT))  # the timed children run this checkout unless PYTHONPATH names another
sys.path.insert(0, str(ROOT))

from rawtext import read_zip, to_text  # noqa: E402

from csp_check.cli.main import main as cli_main  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
TMP = Path("/tmp/csp-check-speed")

_CHECK = """
import sys
from csp_check.cli.main import main
try:
    main(sys.argv[1:], standalone_mode=True)
except SystemExit as done:
    code = done.code
with open("/proc/self/status") as f:  # VmHWM: this process's peak RSS (ru_maxrss would include the parent's)
    peak = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
print("BENCH", peak, code, file=sys.stderr)
"""

_PARSE = """
import json, sys, zipfile
n = 0
for path in sys.argv[1:]:
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.endswith(".json"):
                    n += len(json.loads(z.read(name)))
    else:
        with open(path, encoding="utf-8") as f:
            n += len(json.load(f))
print(n)
"""


def inputs() -> dict[str, tuple[list[str], list[str]]]:
    """Input name → (``validate`` arguments, the JSON files ``parse`` loads)."""
    sgd = SHARED / "sgd" / "train"
    zipped = SHARED / "multiwoz" / "val.json.zip"
    db = ["--kb", str(SHARED / "multiwoz" / "db")]
    raw = TMP / "multiwoz_val.txt"
    if not raw.exists():
        TMP.mkdir(parents=True, exist_ok=True)
        data = read_zip(zipped)
        raw.write_text(to_text(data, sorted(data)), encoding="utf-8")
    return {
        "sgd": ([str(sgd)], [str(f) for f in sorted(sgd.glob("dialogues_*.json"))]),
        "multiwoz": ([str(zipped), *db], [str(zipped)]),
        "raw": ([str(raw), *db], [str(zipped)]),
    }


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stderr) of one process ``argv`` (CPU: user + system of it and
    the processes it waited for, which other work on the machine disturbs far less than the
    wall time); exits on a failed run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=os.environ)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{argv[:4]}… failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, done.stderr


def parse_run(files: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of a fresh process that ``json.load``-s ``files``."""
    return timed([sys.executable, "-P", "-c", _PARSE, *files])[:2]


def check_run(name: str, args: list[str], extra: list[str] = ()) -> tuple[float, float, int, float]:
    """(wall seconds, CPU seconds, dialogues reported, peak RSS in MB: ``VmHWM``) of a fresh
    ``csp-check validate`` process."""
    report = TMP / f"{name}.jsonl"
    # -P: csp_check from PYTHONPATH (the tree measured), not from the working directory
    seconds, cpu, stderr = timed([sys.executable, "-P", "-c", _CHECK, "validate", *args, "--report", str(report), "--quiet", *extra])
    line = next(x for x in stderr.splitlines() if x.startswith("BENCH "))
    with open(report, encoding="utf-8") as f:
        dialogues = sum(1 for _ in f)
    return seconds, cpu, dialogues, int(line.split()[1]) / 1024


def profile(args: list[str], top: int) -> str:
    """The ``top`` functions by own time of one in-process ``validate`` of ``args`` (cProfile)."""
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        cli_main(["validate", *args, "--report", str(TMP / "profile.jsonl"), "--quiet"], standalone_mode=False)
    except SystemExit:
        pass  # the exit code says whether a dialogue is inconsistent; the profile is what counts here
    finally:
        profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    return "\n".join(line.replace(str(Path.cwd()) + "/", "") for line in lines[start:] if line.strip())


def sampled(args: list[str], top: int, every: float = 0.002) -> str:
    """The ``top`` functions by share of CPU-time samples of one in-process ``validate`` of
    ``args``, on top of the stack (own) and anywhere in it (inclusive): the stack is read every
    ``every`` seconds of CPU (``SIGPROF``), which costs the run about nothing per call."""
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    root = str(Path.cwd()) + "/"

    def sample(signum, frame) -> None:  # type: ignore[no-untyped-def]
        seen = set()
        while frame is not None:
            code = frame.f_code
            key = f"{code.co_filename.replace(root, '')}:{code.co_firstlineno}({code.co_name})"
            if not seen:
                own[key] += 1
            if key not in seen:
                seen.add(key)
                inclusive[key] += 1
            frame = frame.f_back

    previous = signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, every, every)
    try:
        cli_main(["validate", *args, "--report", str(TMP / "profile.jsonl"), "--quiet"], standalone_mode=False)
    except SystemExit:
        pass  # as in profile()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, previous)
    total = max(1, sum(own.values()))
    lines = [f"{sum(own.values())} samples; own %, then inclusive %:"]
    lines += [f"{100 * n / total:6.2f}  {key}" for key, n in own.most_common(top)]
    lines += ["inclusive:"] + [f"{100 * n / total:6.2f}  {key}" for key, n in inclusive.most_common(2 * top)]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (the best counts)")
    parser.add_argument("--only", default="sgd,multiwoz,raw", help="comma-separated inputs")
    parser.add_argument("--jobs", type=int, default=2, help="also time validate --jobs N on sgd (0: skip)")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--sampled", action="store_true", help="profile by sampling the stack, not with cProfile")
    parser.add_argument("--top", type=int, default=12, help="functions listed per profile")
    args = parser.parse_args()
    TMP.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    table = inputs()
    chosen = args.only.split(",")
    print(f"{'input':<10}{'parse s':>9}{'check s':>9}{'ratio':>8}{'dialogues':>11}{'dialogues/s':>13}{'peak MB':>9}"
          f"{'parse cpu':>11}{'check cpu':>11}{'cpu ratio':>11}")  # fmt: skip
    for name in chosen:
        validate_args, files = table[name]
        parse = check = parse_cpu = check_cpu = float("inf")
        rss, dialogues = 0.0, 0
        for _ in range(args.repeat):  # alternated: load hits both alike
            wall, cpu = parse_run(files)
            parse, parse_cpu = min(parse, wall), min(parse_cpu, cpu)
            wall, cpu, dialogues, peak = check_run(name, validate_args)
            check, check_cpu, rss = min(check, wall), min(check_cpu, cpu), max(rss, peak)
        print(f"{name:<10}{parse:>9.2f}{check:>9.2f}{check / parse:>7.1f}x{dialogues:>11,}"
              f"{dialogues / check:>13,.0f}{rss:>9.0f}{parse_cpu:>11.2f}{check_cpu:>11.2f}{check_cpu / parse_cpu:>10.1f}x",
              flush=True)  # fmt: skip
    if args.jobs > 1 and "sgd" in chosen:
        serial = parallel = float("inf")
        for _ in range(args.repeat):
            serial = min(serial, check_run("sgd-serial", table["sgd"][0])[0])
            parallel = min(parallel, check_run("sgd-jobs", table["sgd"][0], ["--jobs", str(args.jobs)])[0])
        print(f"sgd --jobs {args.jobs}: {parallel:.2f} s against {serial:.2f} s serial: {serial / parallel:.2f}x")
    print(f"load average {os.getloadavg()[0]:.2f} at the end of the timed runs", flush=True)
    if not args.no_profile:
        for name in chosen:
            print(f"\nprofile of {name} (top {args.top} by own time{', sampled' if args.sampled else ''}):")
            print((sampled if args.sampled else profile)(table[name][0], args.top), flush=True)


if __name__ == "__main__":
    main()
