"""Attacks on csp-check (issue 21; docs/robustness.md "Attacks"), shared by ``tests/test_hardening.py``,
``tests/test_attacks.py`` (a small sample in CI) and ``benchmarks/attack.py`` (the full run).

Each attack writes hostile input — a damaged or encrypted zip, a zip bomb, a huge first line,
a link cycle, a call with thousands of arguments, a server that drips, floods or echoes the
key — beside good dialogues, runs ``csp-check`` on it in a child process (the code of this
checkout: ``PYTHONPATH``) and checks the contract: no traceback, a non-crash exit code, every
good dialogue reported, within a time and memory bound (the child's peak RSS).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from support.openai_server import LoopbackServer
from support.sgd import sgd_dialogue

ROOT = Path(__file__).resolve().parents[2]
#: The code the child processes run: this checkout, or ``$CSP_CHECK_CODE_ROOT`` (another checkout,
#: e.g. main before a fix, to see a test fail there).
CODE = Path(os.environ.get("CSP_CHECK_CODE_ROOT") or ROOT)


def run_cli(args: list[str], cwd: Path | None = None, stdout: Any = subprocess.PIPE, timeout: float = 60,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:  # fmt: skip
    """``csp-check ARGS`` as a child process running this checkout's code; stdout / stderr text."""
    full = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(CODE), **(env or {})}
    full.pop("CSP_CHECK_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "csp_check.cli.main", *args], cwd=cwd or CODE, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=timeout, env=full)  # fmt: skip


# --- hostile files -------------------------------------------------------------------------


def bad_zip(path: Path, kind: str, data: bytes, name: str = "data.json") -> Path:
    """A zip holding ``data`` as ``name``, damaged one way: ``encrypted`` (the flag set: Python
    asks for a password), ``lzma_broken`` (an LZMA member whose data is not LZMA),
    ``deflate_damaged`` (deflate data flipped), ``not_a_zip`` (a ``.zip`` of text)."""
    if kind == "not_a_zip":
        path.write_bytes(b"this is no zip archive\n")
        return path
    method = zipfile.ZIP_DEFLATED if kind == "deflate_damaged" else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as archive:
        archive.writestr(name, data)
    raw = bytearray(path.read_bytes())
    central = raw.find(b"PK\x01\x02")
    if kind == "encrypted":
        raw[6] |= 1
        raw[central + 8] |= 1
    elif kind == "lzma_broken":
        raw[8] = raw[central + 10] = zipfile.ZIP_LZMA
    elif kind == "deflate_damaged":
        for k in range(30 + len(name) + 20, min(30 + len(name) + 200, central)):
            raw[k] ^= 0x55
    else:
        raise ValueError(f"unknown kind {kind!r}")
    path.write_bytes(bytes(raw))
    return path


def zip_bomb(path: Path, size: int) -> Path:
    """A deflated ``data.json`` of ``size`` bytes (a MultiWOZ object whose one dialogue's log is
    white space): a few KB on disk per MiB expanded."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, archive.open("data.json", "w") as member:
        member.write(b'{"SNG1.json": {"goal": {}, "log": [')
        left = size - 40
        block = b" " * (1 << 20)
        while left > 0:
            member.write(block[: min(left, len(block))])
            left -= len(block)
        member.write(b"]}}")
    return path


def sparse_json(path: Path, size: int) -> Path:
    """A ``.json`` file of ``size`` bytes that is one line of NUL bytes (sparse: no disk used)."""
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def link_cycle(folder: Path, data: bytes) -> Path:
    """A folder with one MultiWOZ file and links back up (``up -> ..``, ``self -> .``) and a
    loop of two dangling links."""
    inner = folder / "a"
    inner.mkdir(parents=True)
    (inner / "d.json").write_bytes(data)
    (inner / "up").symlink_to("..")
    (inner / "self").symlink_to(".")
    (folder / "loop1").symlink_to("loop2")
    (folder / "loop2").symlink_to("loop1")
    return folder


def sgd_folder(folder: Path, n: int, name: str = "dialogues_001.json") -> Path:
    """``n`` small SGD dialogues in ``folder/name`` (every third inconsistent); returns the file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps([sgd_dialogue(f"1_{i:05d}", 3 if i % 3 == 0 else 2) for i in range(1, n + 1)]),
                    encoding="utf-8")  # fmt: skip
    return path


# --- processes -------------------------------------------------------------------------------


def wait_for(condition: Callable[[], bool], timeout: float = 60) -> bool:
    """Poll ``condition`` every 20 ms until it holds (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def process_group(pgid: int) -> list[int]:
    """Live processes of process group ``pgid`` (a run started in its own session)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2 :].split()
            if fields[0] not in "ZX" and int(fields[2]) == pgid:
                out.append(int(entry))
    return out


# --- hostile servers ---------------------------------------------------------------------------


class HostileServer(LoopbackServer):
    """An OpenAI-compatible ``/v1/chat/completions`` on 127.0.0.1 that misbehaves one way:

    - ``drip``: a valid answer whose body comes one byte every ``delay`` seconds;
    - ``huge``: a valid answer of ``size`` bytes (the text is that long);
    - ``echo``: HTTP 401 whose error message repeats the request's ``Authorization`` header.

    ``hits`` counts requests. Stops itself after ``lifetime`` seconds."""

    def __init__(self, mode: str, delay: float = 0.2, size: int = 8 << 20, lifetime: float = 120.0):
        self.hits = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.hits += 1
                try:
                    if mode == "echo":
                        body = json.dumps({"error": {"message": f"invalid key; you sent Authorization: "
                                                                f"{self.headers.get('Authorization')}"}}).encode()  # fmt: skip
                        self._head(401, len(body))
                        self.wfile.write(body)
                        return
                    text = "@" if mode == "huge" else '{"domain": "Restaurants_1"}'
                    body = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                                       "choices": [{"index": 0, "finish_reason": "stop",
                                                    "message": {"role": "assistant", "content": text}}]}).encode()  # fmt: skip
                    if mode == "huge":  # the text is `size` bytes of "x", sent block by block (never built whole)
                        before, after = body.split(b"@")
                        self._head(200, len(before) + size + len(after))
                        self.wfile.write(before)
                        block = b"x" * (1 << 20)
                        for sent in range(0, size, len(block)):
                            self.wfile.write(block[: min(len(block), size - sent)])
                        self.wfile.write(after)
                        return
                    self._head(200, len(body))
                    if mode == "drip":
                        for k in range(len(body)):
                            self.wfile.write(body[k : k + 1])
                            self.wfile.flush()
                            time.sleep(delay)
                    else:
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _head(self, status: int, length: int) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(length))
                self.end_headers()

        super().__init__(Handler, lifetime)


# --- the attack suite ------------------------------------------------------------------------

MWOZ_FIXTURE = ROOT / "tests" / "fixtures" / "multiwoz" / "data.json"
NLSI_SCHEMA = ROOT / "tests" / "fixtures" / "nlsi" / "schema.json"
SECRET = "sk-attack-0123456789abcdef"
#: An instruction the rule parser cannot read (no slot value): ``--llm-parse`` asks the server.
UNPARSABLE = "Whenever it is my birthday I want somewhere festive"


@dataclass
class Setup:
    """What an attack runs: the command's arguments, the good dialogues it must still report
    (report ``source`` ending → how many non-error lines), the bounds (seconds, MiB of peak
    RSS), extra environment, and a server to run meanwhile (``HostileServer`` or ``None``)."""

    args: list[str]
    good: dict[str, int] = field(default_factory=dict)
    seconds: float = 60.0
    rss_mb: float = 700.0
    env: dict[str, str] = field(default_factory=dict)
    server: Any = None
    secret: str | None = None
    report: Path | None = None
    cwd: Path | None = None  # the working directory (default: the code's checkout)
    lines: int | None = None  # the report must have exactly this many lines (no duplicates)
    sigterm_after: float | None = None  # send SIGTERM this many seconds in; exit 143, no process left


@dataclass
class Outcome:
    """How an attack went: exit code, wall seconds, peak RSS (MiB), the problems found (empty: held)."""

    name: str
    code: int
    seconds: float
    rss_mb: float
    problems: list[str]
    lost: int = 0
    tracebacks: int = 0
    seconds_bound: float = 0.0
    rss_bound: float = 0.0


def _good_mwoz(folder: Path) -> Path:
    path = folder / "good.json"
    path.write_bytes(MWOZ_FIXTURE.read_bytes())
    return path


def _calls_file(path: Path, calls: list[str], instructions: list[str] | str = "['If I ask for restaurants, look for Italian ones.']") -> Path:
    good = {"example_id": "good", "utterance": "find me a restaurant in San Jose",
            "all_standing_instructions": ["If I ask for restaurants, look for Italian ones."],
            "api_calls": ['GetRestaurants(city="San Jose", cuisine="Italian")']}  # fmt: skip
    bad = {**good, "example_id": "attack", "all_standing_instructions": instructions, "api_calls": calls}
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    return path


def _validate(folder: Path, *inputs: Path, extra: tuple[str, ...] = (), good: dict[str, int] | None = None, **kw: Any) -> Setup:
    report = folder / "report.jsonl"
    return Setup(["validate", *map(str, inputs), "--quiet", "--report", str(report), *extra],
                 good={"good.json": 4} if good is None else good, report=report, **kw)  # fmt: skip


def _zip_attack(kind: str) -> Callable[[Path, bool], Setup]:
    def build(folder: Path, full: bool) -> Setup:
        return _validate(folder, bad_zip(folder / f"{kind}.zip", kind, MWOZ_FIXTURE.read_bytes()), _good_mwoz(folder))
    return build


def _bad_utf8_member(folder: Path, full: bool) -> Setup:
    damaged = MWOZ_FIXTURE.read_bytes().replace(b'"text": "', b'"text": "\xff', 1)
    with zipfile.ZipFile(folder / "good.zip", "w") as archive:
        archive.writestr("data.json", damaged)
    return _validate(folder, folder / "good.zip", good={"good.zip": 3})


def _zip_bomb(folder: Path, full: bool) -> Setup:  # 1 GiB at the default budget; 64 MiB over a 16 MiB one
    bomb = zip_bomb(folder / "bomb.zip", (1 << 30) if full else (64 << 20))
    return _validate(folder, bomb, _good_mwoz(folder), extra=() if full else ("--max-unzipped-mb", "16"), seconds=30, rss_mb=400)


def _sparse(folder: Path, full: bool) -> Setup:
    return _validate(folder, sparse_json(folder / "huge.json", (2 << 30) if full else (256 << 20)), _good_mwoz(folder),
                     seconds=30, rss_mb=400)  # fmt: skip


def _white_space(folder: Path, full: bool) -> Setup:
    items = json.loads(MWOZ_FIXTURE.read_text(encoding="utf-8"))
    pad = " " * (1 << 20)
    path = folder / "good.json"
    with open(path, "w", encoding="utf-8") as f:  # written run by run: the parent stays small
        for k, (key, value) in enumerate(items.items()):
            f.write("{" if k == 0 else ", ")
            for _ in range(16 if full else 4):  # MiB of white space before each dialogue
                f.write(pad)
            f.write(f"{json.dumps(key)}: {json.dumps(value)}")
        f.write("}")
    return _validate(folder, path, seconds=60, rss_mb=1000 if full else 700)


def _link_cycle(folder: Path, full: bool) -> Setup:
    return _validate(folder, link_cycle(folder / "walk", MWOZ_FIXTURE.read_bytes()), good={"d.json": 4}, seconds=30)


def _many_arguments(folder: Path, full: bool) -> Setup:
    n = 20000 if full else 2000
    call = "GetRestaurants(" + ", ".join(f'a{i}="x"' for i in range(n)) + ")"
    report = folder / "report.jsonl"
    return Setup(["calls", str(_calls_file(folder / "calls.jsonl", [call])), "--schema", str(NLSI_SCHEMA), "--quiet",
                  "--report", str(report)], good={"good": 1}, report=report, seconds=60 if full else 30, rss_mb=1500)  # fmt: skip


def _long_instruction(folder: Path, full: bool) -> Setup:
    text = "If I ask for restaurants, look for " + " and ".join(["Italian food in San Jose"] * (8000 if full else 2000)) + "."
    report = folder / "report.jsonl"
    return Setup(["calls", str(_calls_file(folder / "calls.jsonl", ["GetRestaurants()"], [text])), "--schema",
                  str(NLSI_SCHEMA), "--quiet", "--report", str(report)], good={"good": 1}, report=report, seconds=40)  # fmt: skip


def _llm(mode: str) -> Callable[[Path, bool], Setup]:
    def build(folder: Path, full: bool) -> Setup:
        report = folder / "report.jsonl"
        server = HostileServer(mode, delay=0.5 if full else 0.3, size=(300 << 20) if full else (16 << 20))
        return Setup(["calls", str(_calls_file(folder / "calls.jsonl", ["GetRestaurants()"], [UNPARSABLE])), "--schema",
                      str(NLSI_SCHEMA), "--llm-parse", "--base-url", "@", "--request-timeout", "3", "--retries", "1",
                      "--cache-dir", str(folder / "cache"), "--quiet", "--report", str(report)],
                     good={"good": 1}, report=report, seconds=30, server=server, secret=SECRET,
                     env={"OPENAI_API_KEY": SECRET})  # fmt: skip
    return build


def _resume_elsewhere(folder: Path, full: bool) -> Setup:
    n = 3000 if full else 300
    sgd_folder(folder / "one" / "corpus", n)
    report = folder / "report.jsonl"
    first = run_cli(["validate", "corpus", "--report", str(report), "--quiet"], cwd=folder / "one", timeout=600)
    assert first.returncode in (0, 1), first.stderr
    lines = report.read_text().splitlines(keepends=True)
    report.write_text("".join(lines[: n // 3]))
    (folder / "elsewhere").mkdir()
    return Setup(["validate", "../one/corpus", "--report", str(report), "--resume", "--quiet"], cwd=folder / "elsewhere",
                 good={"dialogues_001.json": n}, report=report, lines=n, seconds=120)  # fmt: skip


def _sigterm(folder: Path, full: bool) -> Setup:
    corpus = sgd_folder(folder / "c", 20000 if full else 3000)
    report = folder / "report.jsonl"
    return Setup(["validate", str(corpus), "--jobs", "2", "--report", str(report), "--quiet"], report=report,
                 sigterm_after=4.0, seconds=30)  # fmt: skip


#: attack name → (issue 21 item, builder(folder, full) → :class:`Setup`).
ATTACKS: dict[str, tuple[int, Callable[[Path, bool], Setup]]] = {
    "zip_encrypted": (1, _zip_attack("encrypted")),
    "zip_lzma_broken": (1, _zip_attack("lzma_broken")),
    "zip_deflate_damaged": (1, _zip_attack("deflate_damaged")),
    "zip_not_a_zip": (1, _zip_attack("not_a_zip")),
    "zip_bad_utf8_member": (1, _bad_utf8_member),
    "zip_bomb": (3, _zip_bomb),
    "sparse_huge_first_line": (3, _sparse),
    "white_space_megabytes": (3, _white_space),
    "call_of_many_arguments": (3, _many_arguments),
    "long_instruction": (3, _long_instruction),
    "llm_huge_answer": (3, _llm("huge")),
    "llm_drip": (3, _llm("drip")),
    "resume_from_elsewhere": (2, _resume_elsewhere),
    "link_cycle": (4, _link_cycle),
    "sigterm_mid_run": (4, _sigterm),
    "llm_echoes_the_key": (5, _llm("echo")),
}


def run_measured(args: list[str], folder: Path, env: dict[str, str], timeout: float, cwd: Path | None = None,
                 sigterm_after: float | None = None) -> tuple[int, str, str, float, float]:  # fmt: skip
    """Run ``csp-check ARGS`` (output kept in ``folder``): (exit code, stdout, stderr, wall
    seconds, peak RSS MiB of the child, its ``VmHWM`` polled every 20 ms). A run past ``timeout`` is killed (exit
    code -9); ``sigterm_after``: SIGTERM sent that many seconds in (then the process group is
    checked for leftovers: a leftover is killed and makes the exit code -15)."""
    full = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(CODE), **env}
    full.pop("CSP_CHECK_DEBUG", None)
    out, err = folder / ".stdout", folder / ".stderr"
    start = time.perf_counter()
    with open(out, "w") as o, open(err, "w") as e:
        proc = subprocess.Popen([sys.executable, "-m", "csp_check.cli.main", *args], cwd=cwd or CODE, stdout=o, stderr=e,
                                env=full, start_new_session=True)  # fmt: skip
        sent = False
        peak = 0.0
        while True:
            peak = max(peak, _high_water_mb(proc.pid))
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if sigterm_after is not None and not sent and time.perf_counter() - start > sigterm_after:
                proc.send_signal(signal.SIGTERM)
                sent = True
            if time.perf_counter() - start > timeout:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if sigterm_after is not None and not wait_for(lambda: not process_group(proc.pid), 5):
        os.killpg(proc.pid, signal.SIGKILL)
        proc.returncode = -15
    return proc.returncode, out.read_text(errors="replace"), err.read_text(errors="replace"), time.perf_counter() - start, peak


def _high_water_mb(pid: int) -> float:
    """The peak RSS of process ``pid`` so far (``VmHWM``, MiB; 0 when gone). Not ``wait4``'s
    ``ru_maxrss``: Linux counts the parent's RSS at fork in it."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def run_attack(name: str, folder: Path, full: bool = False) -> Outcome:
    """Build attack ``name`` in ``folder``, run it and check the contract (module docstring)."""
    folder.mkdir(parents=True, exist_ok=True)
    setup = ATTACKS[name][1](folder, full)
    if setup.server is not None:
        setup.server.__enter__()
        setup.args = [setup.server.base_url if a == "@" else a for a in setup.args]
    try:
        code, out, err, seconds, rss = run_measured(setup.args, folder, setup.env, timeout=setup.seconds * 3, cwd=setup.cwd,
                                                    sigterm_after=setup.sigterm_after)  # fmt: skip
    finally:
        if setup.server is not None:
            setup.server.__exit__(None, None, None)
    problems = []
    tracebacks = int("Traceback" in out + err or "internal error" in err)
    if tracebacks:
        problems.append("a traceback or an internal error")
    if code not in ((143,) if setup.sigterm_after is not None else (0, 1, 2)):
        problems.append(f"exit code {code}" + (" (processes left after SIGTERM)" if code == -15 else ""))
    if seconds > setup.seconds:
        problems.append(f"{seconds:.1f} s over the bound of {setup.seconds:g} s")
    if rss > setup.rss_mb:
        problems.append(f"{rss:.0f} MiB over the bound of {setup.rss_mb:g} MiB")
    lines = setup.report.read_text(errors="replace").splitlines() if setup.report and setup.report.is_file() else []
    reports = [json.loads(line) for line in lines if line.strip()]
    lost = 0
    for ending, n in setup.good.items():
        kept = sum(1 for r in reports if r.get("status") != "error"
                   and (str(r.get("source", "")).endswith(ending) or r.get("example_id") == ending))  # fmt: skip
        lost += max(0, n - kept)
    if lost:
        problems.append(f"{lost} good dialogue(s) lost")
    if setup.lines is not None and len(reports) != setup.lines:
        problems.append(f"{len(reports)} report lines for {setup.lines} dialogues")
    if setup.secret and setup.secret in out + err + "\n".join(lines):
        problems.append("the API key reached the output")
    return Outcome(name, code, seconds, rss, problems, lost, tracebacks, setup.seconds, setup.rss_mb)
