"""Every figure the README prints (and the solver groups of docs/solvers.md), beside what its
command prints now: match or mismatch.

    python benchmarks/readme_figures.py                 # the cheap figures (seconds)
    python benchmarks/readme_figures.py --all           # every figure (an hour or more on 2 busy cores)
    python benchmarks/readme_figures.py --only gold solvers
    python benchmarks/readme_figures.py --all --update  # rewrite the README's figures in place
    python benchmarks/readme_figures.py --list          # the figures and their commands, run nothing

Run from anywhere (the commands run from the repository root, with this checkout's ``csp_check``
first on ``PYTHONPATH``; data in ``../shared/data``). Each figure is a row of :data:`FIGURES`: a
name, the command that prints it (as the README gives it), a regular expression that finds the
figure in the README (named groups, one per number) and a function that reads the same numbers
from the command's output. A number matches when the printed one, written the way the README
writes it (its decimals; thousands separated by commas), is the README's text. The README's
console blocks (``$ csp-check ...`` followed by what it prints, ``...`` for lines left out) are
checked the same way: each run of lines between ``...`` must be printed, in order, as it stands
(timings dropped).

``--update`` rewrites, in place, each number that does not match (only the number: the text
around it is untouched) and each console block (the printed lines at the same places); the
experiment's command then writes into ``experiments/results/`` (the committed results). A figure
whose command failed or whose text is not found is left alone and listed. Figures read by hand
(the blind readings of the flags) are not numbers a command prints: they are not checked.

Prints one line per figure: ``match`` / ``MISMATCH`` (README value -> printed value) / ``FAILED``
(the command's exit code or its last stderr line) / ``NOT FOUND``, then the seconds each command
took. Exit 0 when every figure run matches (or was updated), 1 on a mismatch, 2 when a command
failed or a figure was not found.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMING = re.compile(r"\s+\(\d+(?:\.\d+)? s, [\d.,]+ dialogues/s\)$")  # the headline's timing
Reader = Callable[[str], dict[str, str]]


@dataclass(frozen=True)
class Figure:
    """One README figure: ``readme`` finds it in the README (named groups: the numbers),
    ``command`` prints it (``{out}``: a scratch directory), ``read`` takes the same named
    numbers from the command's stdout. ``cheap``: run by default (seconds)."""

    name: str
    command: tuple[str, ...]
    readme: str
    read: Reader
    cheap: bool = False
    update_command: tuple[str, ...] | None = None  # with --update (the experiment writes its results here)
    page: str = "README.md"  # the page holding it (relative to the repository root): the README or a docs page
    not_committed: tuple[str, ...] = ()  # files the update command writes that the repository does not keep


@dataclass(frozen=True)
class Block:
    """A README console block: ``$ COMMAND`` then excerpts of what it prints."""

    name: str
    command: tuple[str, ...]
    cheap: bool = True
    page: str = "README.md"


@dataclass
class Outcome:
    """What one figure came to: ``status`` is match / MISMATCH / FAILED / NOT FOUND / updated."""

    name: str
    status: str
    seconds: float = 0.0
    details: list[str] = field(default_factory=list)


def _search(pattern: str, text: str) -> dict[str, str]:
    found = re.search(pattern, text, re.MULTILINE)
    if found is None:
        raise LookupError(f"not printed: /{pattern}/")
    return found.groupdict()


def _regex(pattern: str) -> Reader:
    return lambda out: _search(pattern, out)


def _gold(out: str) -> dict[str, str]:
    got = _search(r"^(?P<total>\d+) dialogues, (?P<rejected>\d+) rejected: gold acceptance (?P<pct>[\d.]+)%.*?; "
                  r"(?P<review>\d+) accepted for review", out)  # fmt: skip
    return {"pct": got["pct"], "accepted": str(int(got["total"]) - int(got["rejected"])), "total": got["total"],
            "review": got["review"]}  # fmt: skip


def _annotation(out: str) -> dict[str, str]:
    rows = re.findall(r"^\S+\s+(\d+)\s+\d+\s+\d+\s+([\d.]+)%\s+[\d.]+%$", out, re.MULTILINE)
    if not rows:
        raise LookupError("no per-kind rows printed")
    shares = [float(pct) for _, pct in rows]
    return {"low": f"{min(shares):.2f}", "high": f"{max(shares):.2f}", "faults": str(sum(int(n) for n, _ in rows))}


def _rawtext(out: str) -> dict[str, str]:
    flagged = _search(r"^flagged: \d+ \((?P<flagged>[\d.]+)%\) with C1-C6", out)
    table = out.partition("\ntext-only faults on")[2]  # its kind rows, then the all row
    faults = _search(r"^all\s+(?P<faults>\d+)\s+\d+\s+(?P<rate>[\d.]+)%\s+(?P<certain>[\d.]+)%$", table)
    return {**flagged, **faults}


def _solvers(out: str) -> dict[str, str]:
    return {**_search(r"exact VCA (?P<vca>[\d.]+) \(", out),
            **_search(r"^CP-SAT vs MiniZinc on the sample: (?P<agree>\d+)/(?P<sample>\d+) agree", out)}  # fmt: skip


def _experiment(out: str) -> dict[str, str]:
    row = r"^\| {} \| (?P<{}>[\d.]+) \|"
    return {**_search(row.format("Random", "random"), out), **_search(row.format("Most Frequent", "frequent"), out),
            **_search(row.format(r"CSP \(solver\)", "csp"), out)}  # fmt: skip


def _nlsi(out: str) -> dict[str, str]:
    first, _, second = out.partition("\x00")  # the two runs' outputs (with and without the annotation)
    return {"annotated": _search(r"^gold consistent: (?P<p>[\d.]+)%", first)["p"],
            "text_only": _search(r"^gold consistent: (?P<p>[\d.]+)%", second)["p"]}  # fmt: skip


def _groups(out: str) -> dict[str, str]:
    got = {}
    for label, key in (("1", "one"), ("2-10", "few"), ("11-100", "many"), ("101+", "most")):
        row = _search(rf"^  {re.escape(label)}\s+(?P<d>\d+)\s+(?P<v>\d+)\s+(?P<g>[\d.]+)\s+[\d.]+$", out)
        got.update({f"{key}_dialogues": row["d"], f"{key}_variables": row["v"], f"{key}_gca": row["g"]})
    return got


def _citod(out: str) -> dict[str, str]:
    got = {}
    for prefix, header in (("", "== dev, overall"), ("u_", "== dev, untouched together")):
        section = out.partition(header)[2]
        row = re.search(r"^csp-check\s+(.*)$", section, re.MULTILINE)
        if not section or row is None:
            raise LookupError(f"no {header!r} table printed")
        cells = row.group(1).split()  # P R F1 for QI, HI, KBI, then the overall accuracy
        got.update({f"{prefix}qi": cells[2], f"{prefix}hi": cells[5], f"{prefix}kbi": cells[8], f"{prefix}acc": cells[9]})
    return got


def _fuzz(out: str) -> dict[str, str]:
    return {**_search(r"^cases breaking the contract: (?P<broken>\d+)", out), **_search(r"^cases: (?P<cases>\d+)", out)}


def _attacks(out: str) -> dict[str, str]:
    return _search(r"^(?P<cases>\d+) attacks run, (?P<broken>\d+) breaking the contract", out)


def _release(out: str) -> dict[str, str]:
    return {**_search(r"^(?P<total>\d+) examples: (?P<consistent>\d+) consistent", out),
            **_search(r"exact match (?P<em>[\d.]+) % under the release's metric", out)}


def _tests(out: str) -> dict[str, str]:
    return _search(r"^(?P<tests>\d+) tests? collected", out)


PY = sys.executable
ROW = r"^\| {what}[^\n]*?\| "  # a row of the README's figure table, up to its figure cell

#: The figures, in the README's order. The commands are the README's (``python`` is this one).
FIGURES: tuple[Figure, ...] = (
    Figure("tests", (PY, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"),
           r"runs the whole test suite \((?P<tests>[\d,]+) tests", _tests),
    Figure("gold", (PY, "benchmarks/gold.py"),
           ROW.format(what="gold SGD accepted") + r"\*\*(?P<pct>[\d.]+) %\*\* \((?P<accepted>[\d,]+) / (?P<total>[\d,]+); "
           r"(?P<review>\d+) more for review\)", _gold),  # fmt: skip
    Figure("multiwoz", (PY, "benchmarks/multiwoz.py", "--seed", "9"),
           ROW.format(what="gold MultiWOZ 2.1 val flagged certain") + r"\*\*(?P<flagged>[\d,]+) of (?P<total>[\d,]+) "
           r"\((?P<pct>[\d.]+) %\)\*\*", _regex(r"^dialogues: (?P<total>\d+), flagged: (?P<flagged>\d+) \((?P<pct>[\d.]+)%\)")),  # fmt: skip
    Figure("s1-multiwoz", (PY, "benchmarks/annotation.py", "--multiwoz"),
           ROW.format(what="MultiWOZ 2.1 val flagged by S1") + r"\*\*(?P<flagged>[\d,]+) of (?P<total>[\d,]+) "
           r"\((?P<pct>[\d.]+) %\)\*\*", _regex(r"^S1 on (?P<total>\d+) dialogues: (?P<flagged>\d+) flagged \((?P<pct>[\d.]+)%\)")),  # fmt: skip
    Figure("faults", (PY, "benchmarks/faults.py", "../shared/data/sgd/dev"),
           ROW.format(what="injected faults flagged") + r"\*\*(?P<flagged>[\d.]+) %\*\* of (?P<faults>[\d,]+) "
           r"\(\*\*(?P<certain>[\d.]+) %\*\* certain; (?P<expected>[\d.]+) % by the expected constraint\)",
           _regex(r"^all\s+(?P<faults>\d+)\s+(?P<flagged>[\d.]+)%\s+(?P<certain>[\d.]+)%\s+(?P<expected>[\d.]+)%$")),  # fmt: skip
    Figure("attack-sgd", (PY, "benchmarks/attack_sgd.py", "--all"),
           ROW.format(what="adversarial edits flagged") + r"\*\*(?P<flagged>[\d.]+) %\*\* of (?P<faults>[\d,]+) "
           r"\((?P<twins_flagged>[\d.]+) % of (?P<twins>[\d,]+)\)",
           _regex(r"^all\s+(?P<faults>\d+)\s+(?P<flagged>[\d.]+)%\s+[\d.]+%\s+\|\s+(?P<twins>\d+)\s+(?P<twins_flagged>[\d.]+)%$")),  # fmt: skip
    Figure("annotation", (PY, "benchmarks/annotation.py"),
           ROW.format(what="annotation faults flagged by S1") + r"\*\*(?P<low>[\d.]+)–(?P<high>[\d.]+) %\*\* per kind "
           r"\((?P<faults>[\d,]+) faults\)", _annotation),  # fmt: skip
    Figure("rawtext", (PY, "benchmarks/rawtext.py"),
           ROW.format(what="MultiWOZ val as raw text") + r"(?P<flagged>[\d.]+) % \(.*?\); \*\*(?P<rate>[\d.]+) %\*\* of "
           r"(?P<faults>[\d,]+) \((?P<certain>[\d.]+) %\)", _rawtext),  # fmt: skip
    Figure("solvers", (PY, "benchmarks/solvers.py"),
           ROW.format(what="gold SGD dev: exact VCA") + r"\*\*(?P<vca>[\d.]+)\*\*; (?P<agree>\d+) / (?P<sample>\d+)", _solvers),
    Figure("solver-groups", (PY, "benchmarks/solvers.py"),
           r"^- \*\*Solution groups\*\* \(cap 101\): 1 solution (?P<one_dialogues>[\d,]+) dialogues \((?P<one_variables>[\d,]+) "
           r"variables\), 2–10 (?P<few_dialogues>[\d,]+) \((?P<few_variables>[\d,]+)\),\s+11–100 (?P<many_dialogues>[\d,]+) "
           r"\((?P<many_variables>[\d,]+)\), 101\+ (?P<most_dialogues>[\d,]+) \((?P<most_variables>[\d,]+)\); GCA by group "
           r"(?P<one_gca>[\d.]+), (?P<few_gca>[\d.]+), (?P<many_gca>[\d.]+), (?P<most_gca>[\d.]+)\.", _groups,
           page="docs/solvers.md"),  # fmt: skip
    Figure("experiment", ("experiments/run_sgd_restaurants.sh", "{out}"),
           ROW.format(what="experiment, SGD Restaurants_1") + r"(?P<random>[\d.]+) / (?P<frequent>[\d.]+) / "
           r"\*\*(?P<csp>[\d.]+)\*\*", _experiment,  # fmt: skip
           update_command=("experiments/run_sgd_restaurants.sh", "experiments/results/sgd_restaurants_1"),
           not_committed=("experiments/results/sgd_restaurants_1/results.jsonl",)),  # 1.2 MB: not kept
    Figure("nlsi", (PY, "benchmarks/nlsi.py", "&&", PY, "benchmarks/nlsi.py", "--no-annotation"),
           ROW.format(what="NLSI gold calls consistent") + r"\*\*(?P<annotated>[\d.]+) %\*\* \((?P<text_only>[\d.]+) %\)", _nlsi),
    Figure("citod", (PY, "benchmarks/citod.py"),
           ROW.format(what="CI-ToD dev, zero-shot") + r"\*\*(?P<qi>[\d.]+) / (?P<hi>[\d.]+) / (?P<kbi>[\d.]+), (?P<acc>[\d.]+)\*\*; "
           r"untouched parts (?P<u_qi>[\d.]+) / (?P<u_hi>[\d.]+) / (?P<u_kbi>[\d.]+), (?P<u_acc>[\d.]+)", _citod),  # fmt: skip
    Figure("fuzz", (PY, "benchmarks/fuzz.py", "--cases", "5000"),
           ROW.format(what="damaged inputs breaking") + r"\*\*(?P<broken>[\d,]+) of (?P<cases>[\d,]+)\*\*", _fuzz),
    Figure("attacks", (PY, "benchmarks/attack.py"),
           ROW.format(what="hostile inputs") + r"\*\*(?P<broken>\d+) of (?P<cases>\d+)\*\* attacks", _attacks),
    Figure("nlsi-release", ("csp-check", "calls", "../shared/data/nlsi/old_instructions_dataset.json", "--schema",
                            "../shared/data/nlsi", "--derive"),
           ROW.format(what="NLSI release") + r"\*\*(?P<consistent>\d+) / (?P<total>\d+)\*\*; \*\*(?P<em>[\d.]+)\*\*", _release),
)

#: The README's console blocks: ``$ COMMAND`` and excerpts of its output.
BLOCKS: tuple[Block, ...] = (
    Block("example", ("csp-check", "validate", "examples/dialogues.jsonl", "--kb", "kb/restaurants.json")),
    Block("multiwoz-example", ("csp-check", "validate", "../shared/data/multiwoz/val.json.zip", "--kb",
                               "../shared/data/multiwoz/db"), cheap=False),  # fmt: skip
)


def like(readme: str, printed: str) -> str:
    """``printed`` (``"99.353%"``, ``"3812"``) written as ``readme`` writes its number: the same
    decimals, thousands separated by commas (``"99.35"``, ``"3,812"``)."""
    value = float(printed.replace(",", "").rstrip("%"))
    decimals = len(readme.partition(".")[2])
    return f"{value:,.{decimals}f}" if abs(value) >= 1000 else f"{value:.{decimals}f}"


def run(command: tuple[str, ...], timeout: float | None) -> tuple[int, str, str, float]:
    """Run ``command`` (``&&`` joins two) from the repository root with this checkout first on
    ``PYTHONPATH``: (exit code, stdout, stderr, seconds). Two commands' stdouts are joined by NUL."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
           "COLUMNS": "200", "PYTHONHASHSEED": "0"}  # fmt: skip
    parts: list[list[str]] = [[]]
    for arg in command:
        parts.append([]) if arg == "&&" else parts[-1].append(arg)
    start, outs, errs = time.perf_counter(), [], []
    for part in parts:
        proc = subprocess.run(part, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        outs.append(proc.stdout)
        errs.append(proc.stderr)
        if proc.returncode not in (0, 1):  # 1: a validate run that found inconsistencies
            return proc.returncode, "\x00".join(outs), "".join(errs), time.perf_counter() - start
    return 0, "\x00".join(outs), "".join(errs), time.perf_counter() - start


def check_figure(fig: Figure, text: str, output: str) -> tuple[list[str], list[tuple[int, int, str]]]:
    """Compare ``fig`` in README ``text`` with ``output``: (mismatch lines, edits (start, end,
    new text) that would make the README match). Raises ``LookupError`` when either side lacks it."""
    found = re.search(fig.readme, text, re.MULTILINE)
    if found is None:
        raise LookupError(f"not in {fig.page}: /{fig.readme}/")
    printed = fig.read(output)
    mismatches, edits = [], []
    for group, readme_value in found.groupdict().items():
        want = like(readme_value, printed[group])
        if want != readme_value:
            mismatches.append(f"{group}: README {readme_value} -> printed {want}")
            edits.append((found.start(group), found.end(group), want))
    return mismatches, edits


def block_span(text: str, block: Block) -> tuple[int, int]:
    """Character offsets of the lines after ``$ COMMAND`` up to the block's closing fence."""
    head = "$ " + " ".join(block.command) + "\n"
    start = text.find(head)
    if start < 0:
        raise LookupError(f"no console block `{head.strip()}` in the README")
    start += len(head)
    return start, text.index("```", start)


def excerpt(wanted: list[str], printed: list[str]) -> tuple[list[str], list[str]]:
    """Check README block lines ``wanted`` (runs separated by ``...``) against ``printed`` (the
    command's lines, timing dropped): (problems, the block rewritten from ``printed``: each run
    replaced by the printed lines found at its first line's place, as many as the run holds, or up
    to the next numbered violation when the run is one)."""
    runs: list[list[str]] = [[]]
    for line in wanted:
        runs.append([]) if line.strip() == "..." else runs[-1].append(line)
    problems, rewritten, at = [], [], 0
    for i, block_run in enumerate(runs):
        if i:
            rewritten.append("...")
        if not block_run:
            continue
        key = _key(block_run[0])
        where = next((j for j in range(at, len(printed)) if _key(printed[j]) == key), None)
        if where is None:
            problems.append(f"not printed: {block_run[0]!r}")
            rewritten.extend(block_run)
            continue
        end = where + len(block_run)
        if re.match(r"\d+\. ", block_run[0]):  # a violation in full: up to the next one
            end = next((j for j in range(where + 1, len(printed)) if re.match(r"\d+\. ", printed[j])), len(printed))
        got = printed[where:end]
        if got != block_run:
            problems.append(f"lines {block_run[0][:40]!r}...: README {len(block_run)} line(s) differ from the printed {len(got)}")
        rewritten.extend(got)
        at = end
    return problems, rewritten


def _key(line: str) -> str:
    """What finds a README line among the printed ones: its first word (``GCA:``, ``1.``, the count)."""
    return line.split()[0] if line.split() else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every figure, the heavy ones too")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these figures (see --list)")
    parser.add_argument("--update", action="store_true", help="rewrite the README's figures that differ")
    parser.add_argument("--list", action="store_true", help="list the figures and their commands")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md", help="the README to check")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per command (default: none)")
    args = parser.parse_args(argv)
    every = [*BLOCKS, *FIGURES]
    if args.list:
        for item in every:
            print(f"{item.name:<17} {'cheap' if item.cheap else 'heavy'}  {item.page:<16} {' '.join(map(_shown, item.command))}")
        return 0
    names = {item.name for item in every}
    if args.only and set(args.only) - names:
        parser.error(f"unknown figure(s) {', '.join(sorted(set(args.only) - names))}; choose from {', '.join(sorted(names))}")
    chosen = [item for item in every if (item.name in args.only if args.only else args.all or item.cheap)]
    paths = {item.page: args.readme if item.page == "README.md" else ROOT / item.page for item in chosen}
    texts = {page: path.read_text(encoding="utf-8") for page, path in paths.items()}
    outcomes, runs = [], {}  # runs: one run per command (solvers.py prints two figures)
    with tempfile.TemporaryDirectory(prefix="readme-figures-") as scratch:
        for item in chosen:
            outcome, texts[item.page] = _one(item, texts[item.page], args.update, scratch, args.timeout, runs)
            outcomes.append(outcome)
            print(f"{item.name:<17} {outcome.status:<9} {outcome.seconds:7.1f} s  {' '.join(map(_shown, item.command))}")
            for line in outcome.details:
                print(f"    {line}")
            sys.stdout.flush()
    for item, outcome in zip(chosen, outcomes):
        if args.update and outcome.status == "updated":
            paths[item.page].write_text(texts[item.page], encoding="utf-8")
    for page in {item.page for item, o in zip(chosen, outcomes) if args.update and o.status == "updated"}:
        print(f"rewrote {paths[page]}")
    statuses = {o.status for o in outcomes}
    return 2 if statuses & {"FAILED", "NOT FOUND"} else 1 if "MISMATCH" in statuses else 0


def _shown(arg: str) -> str:
    return "python" if arg == PY else "OUT" if arg == "{out}" else arg


def _one(item: Figure | Block, text: str, update: bool, scratch: str, timeout: float | None,
         runs: dict[tuple[str, ...], tuple[int, str, str, float]]) -> tuple[Outcome, str]:  # fmt: skip
    """Run one figure or block (a command already run in ``runs`` is not run again), compare,
    and (``update``) return its page's text rewritten."""
    command = item.update_command if update and isinstance(item, Figure) and item.update_command else item.command
    command = tuple(arg.replace("{out}", str(Path(scratch) / item.name)) for arg in command)
    try:
        if command not in runs:
            runs[command] = run(command, timeout)
            for name in item.not_committed if isinstance(item, Figure) and command == item.update_command else ():
                (ROOT / name).unlink(missing_ok=True)
        code, out, err, seconds = runs[command]
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Outcome(item.name, "FAILED", details=[str(exc)]), text
    if code != 0:
        last = (err.strip().splitlines() or ["no stderr"])[-1]
        return Outcome(item.name, "FAILED", seconds, [f"exit {code}: {last}"]), text
    try:
        if isinstance(item, Block):
            start, end = block_span(text, item)
            printed = [TIMING.sub("", line) for line in out.splitlines()]
            problems, rewritten = excerpt(text[start:end].splitlines(), printed)
            edits = [(start, end, "\n".join(rewritten) + "\n")] if problems else []
        else:
            problems, edits = check_figure(item, text, out)
    except LookupError as exc:
        return Outcome(item.name, "NOT FOUND", seconds, [str(exc)]), text
    if not problems:
        return Outcome(item.name, "match", seconds), text
    if not update:
        return Outcome(item.name, "MISMATCH", seconds, problems), text
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return Outcome(item.name, "updated", seconds, problems), text


if __name__ == "__main__":
    sys.exit(main())
