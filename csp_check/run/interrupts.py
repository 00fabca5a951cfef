"""Clean interrupts (docs/cli.md, "Interrupts"): Ctrl-C ends a run with exit 130, one line, a valid partial
report and no process of ours left running; and a time limit per dialogue.

- :class:`InterruptFlag`: while active, SIGINT sets ``flag.hit`` and raises
  ``KeyboardInterrupt`` in the main thread. A check that swallows the ``KeyboardInterrupt``
  (a solver library that turns it into "no answer") is still recognised afterwards: the run
  looks at ``flag.hit`` after every dialogue and never reports a dialogue finished during an
  interrupt (it would be a false ``unknown``).
- :func:`kill_descendants`: ends every process descended from this one and started by the run (worker processes, the
  forkserver, MiniZinc and its solver) — SIGTERM, then SIGKILL after a grace period. Linux
  (``/proc``); elsewhere it only ends the processes ``multiprocessing`` knows.
- :func:`dialogue_deadline`: a context manager raising :class:`DialogueTimeout` after ``SEC``
  seconds of wall-clock time in the main thread (SIGALRM; a no-op elsewhere).
"""

from __future__ import annotations

import _thread
import multiprocessing
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from csp_check.errors import DialogueTimeout

#: True in the ``csp-check`` command itself (set at start-up by ``csp_check/__init__.py``): an
#: interrupted run then ends with ``os._exit`` once its report is safe (:func:`exit_now`), not
#: with a teardown that waits for, or wakes, the processes it has just ended.
AS_COMMAND = False


#: The signals an :class:`InterruptFlag` turns into an interrupt: Ctrl-C, and SIGTERM (``kill``,
#: a job scheduler, ``timeout``) so that the workers are ended just as promptly.
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class InterruptFlag:
    """Context manager: SIGINT or SIGTERM → ``self.hit = True`` and ``KeyboardInterrupt`` (main
    thread only); ``signum`` is the signal received, :attr:`exit_code` the code to exit with."""

    def __init__(self) -> None:
        self.hit = False
        self.signum = signal.SIGINT
        #: processes descended from this one before the run (not the run's to end)
        self.before: frozenset[int] = frozenset()
        self._old: dict[int, object] = {}
        self._active = False
        self._shielded = False
        self._reraised = 0
        self._old_hook = sys.unraisablehook

    @property
    def exit_code(self) -> int:
        """128 + the signal number: 130 after Ctrl-C, 143 after SIGTERM (the shell's convention)."""
        return 128 + int(self.signum)

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.hit = True
        self.signum = signal.Signals(signum)
        if not self._shielded:
            raise KeyboardInterrupt

    @contextmanager
    def shield(self) -> Iterator[None]:
        """A block that a SIGINT does not cut in two (a report counted and written together):
        the ``KeyboardInterrupt`` is raised when the block ends."""
        self._shielded = True
        try:
            yield
        finally:
            self._shielded = False
        if self.hit:
            raise KeyboardInterrupt

    def _unraisable(self, unraisable: sys.UnraisableHookArgs) -> None:
        """A ``KeyboardInterrupt`` raised where Python cannot pass it on (a ``__del__``, a
        finaliser) would print "Exception ignored in: …": say nothing, and raise it again in
        the main flow (a few times at most)."""
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and self.hit:
            if self._reraised < 3:
                self._reraised += 1
                _thread.interrupt_main()
            return
        self._old_hook(unraisable)

    def __enter__(self) -> InterruptFlag:
        try:
            self.before = frozenset(descendants())
        except OSError:
            self.before = frozenset()
        if threading.current_thread() is threading.main_thread():
            self._old = {signum: signal.signal(signum, self._handler) for signum in SIGNALS}
            self._old_hook = sys.unraisablehook
            sys.unraisablehook = self._unraisable
            self._active = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._active:
            for signum, old in self._old.items():
                default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
                signal.signal(signum, old if old is not None else default)  # type: ignore[arg-type]
            sys.unraisablehook = self._old_hook
            self._active = False


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1].isdigit():
            children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def descendants(pid: int | None = None) -> list[int]:
    """Process ids descended from ``pid`` (default: this process), parents before children."""
    pid = os.getpid() if pid is None else pid
    if not os.path.isdir("/proc"):
        return [p.pid for p in multiprocessing.active_children() if p.pid]
    tree = _children_map()
    out: list[int] = []
    todo = list(tree.get(pid, []))
    while todo:
        child = todo.pop(0)
        out.append(child)
        todo.extend(tree.get(child, []))
    return out


def exit_now(code: int) -> None:
    """Flush stdout / stderr and leave: ``os._exit(code)`` in the command (:data:`AS_COMMAND`),
    ``sys.exit(code)`` elsewhere (a test's ``CliRunner``, an embedding program)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if AS_COMMAND:
        os._exit(code)
    sys.exit(code)


def kill_descendants(grace: float = 1.0, keep: set[int] | frozenset[int] = frozenset()) -> int:
    """End every process descended from this one except those in ``keep`` (processes that ran
    before the run started, e.g. a forkserver shared with other work in this process; their
    new descendants are still ended); returns how many were ended.

    The whole tree is listed first (an orphan would escape to init), then sent SIGTERM; what
    is still alive after ``grace`` seconds gets SIGKILL. Zombies are reaped where they are our
    own children.
    """
    pids = [pid for pid in descendants() if pid not in keep]
    # multiprocessing's helpers (forkserver, resource tracker) go last, at once: a worker left
    # alive would relaunch a killed resource tracker, and a tracker that outlives the run prints
    # tracebacks about half-done work. They are shared by the whole process, so only the
    # command, which is leaving, ends them.
    helpers = [pid for pid in pids if _is_mp_helper(pid)]
    if not AS_COMMAND:
        pids = [pid for pid in pids if pid not in helpers]
        helpers = []
    alive = [pid for pid in pids if pid not in helpers]
    for pid in alive:
        _send(pid, signal.SIGTERM if grace > 0 else signal.SIGKILL)
    deadline = time.monotonic() + grace
    while alive and time.monotonic() < deadline:
        _reap()
        alive = [pid for pid in alive if _alive(pid)]
        if alive:
            time.sleep(0.02)
    for pid in alive:
        _send(pid, signal.SIGKILL)
    if helpers:
        _silence_resource_tracker()
    for pid in helpers:
        _send(pid, signal.SIGKILL)
    _reap()
    return len(pids)


def _silence_resource_tracker() -> None:
    """Before multiprocessing's helpers are killed (the command is leaving: ``os._exit``
    follows), make what the killed pool's teardown says from here on silent; it is noise, not
    news. This process stops talking to the resource tracker and never relaunches it: a
    semaphore finalised afterwards (a pool's queue, dropped on the way out) would otherwise start
    a new tracker, which prints a ``KeyError`` traceback for every name the old one registered,
    and a process started on the way out would relaunch it with a warning. A queue's finaliser
    run by the garbage collector ("Exception ignored in: <Finalize object, dead>") and a pool
    thread's traceback are silenced too. The semaphores are still unlinked by their finalisers."""

    sys.unraisablehook = lambda *args: None
    threading.excepthook = lambda *args: None
    warnings.simplefilter("ignore")
    try:
        from multiprocessing import resource_tracker
    except ImportError:
        return
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    for method in ("_send", "ensure_running"):
        if tracker is not None and hasattr(tracker, method):
            setattr(tracker, method, lambda *args, **kwargs: None)


def _is_mp_helper(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read()
    except OSError:
        return False
    return b"multiprocessing.resource_tracker" in cmdline or b"multiprocessing.forkserver" in cmdline


def _send(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().decode("ascii", "replace")
        return state[state.rfind(")") + 2 :][:1] not in ("Z", "X")
    except OSError:
        try:
            os.kill(pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class Deadline:
    """What :func:`dialogue_deadline` yields: ``expired`` once the time is up (also when the
    :class:`DialogueTimeout` it raised was swallowed on the way, e.g. in a finaliser)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.start = time.monotonic()

    @property
    def expired(self) -> bool:
        return bool(self.seconds) and time.monotonic() - self.start >= self.seconds  # type: ignore[operator]


@contextmanager
def dialogue_deadline(seconds: float | None) -> Iterator[Deadline]:
    """Raise :class:`DialogueTimeout` in the block after ``seconds`` (``None``: no limit).

    Uses ``SIGALRM`` / ``setitimer``, so it works in the main thread of a process (the CLI, a
    worker process); elsewhere only :attr:`Deadline.expired` tells (the caller checks it when
    the block ends). Code inside C extensions is interrupted when it next returns to Python
    (the solvers have their own ``--time-limit``).
    """
    deadline = Deadline(seconds)
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield deadline
        return

    def _expired(signum: int, frame: FrameType | None) -> None:
        raise DialogueTimeout(seconds)

    old_hook = sys.unraisablehook

    def _quiet(unraisable: sys.UnraisableHookArgs) -> None:  # swallowed in a finaliser: `expired` tells
        if not isinstance(unraisable.exc_value, DialogueTimeout):
            old_hook(unraisable)

    old = signal.signal(signal.SIGALRM, _expired)
    sys.unraisablehook = _quiet
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield deadline
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        sys.unraisablehook = old_hook


def startup_handler(signum: int, frame: FrameType | None) -> None:
    """SIGINT while the command starts (imports): one line, exit 130, nothing written yet."""
    try:
        os.write(2, b"csp-check: interrupted\n")
    finally:
        os._exit(130)


def worker_ignores_sigint() -> None:
    """Ctrl-C is the parent's to handle: worker processes ignore SIGINT (set before anything runs)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
