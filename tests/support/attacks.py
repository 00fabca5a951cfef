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
import resource
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def peak_child_rss_mb() -> float:
    """The largest peak RSS of the child processes waited for so far, in MiB (Linux: KiB units)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


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


class HostileServer:
    """An OpenAI-compatible ``/v1/chat/completions`` on 127.0.0.1 that misbehaves one way:

    - ``drip``: a valid answer whose body comes one byte every ``delay`` seconds;
    - ``huge``: a valid answer of ``size`` bytes (the text is that long);
    - ``echo``: HTTP 401 whose error message repeats the request's ``Authorization`` header.

    ``hits`` counts requests. Stops itself after ``lifetime`` seconds."""

    def __init__(self, mode: str, delay: float = 0.2, size: int = 8 << 20, lifetime: float = 120.0):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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
                    text = "x" * size if mode == "huge" else '{"domain": "Restaurants_1"}'
                    body = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                                       "choices": [{"index": 0, "finish_reason": "stop",
                                                    "message": {"role": "assistant", "content": text}}]}).encode()  # fmt: skip
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

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.watchdog = threading.Timer(lifetime, self.httpd.shutdown)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> HostileServer:
        self.thread.start()
        self.watchdog.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.watchdog.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()
