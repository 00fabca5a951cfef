"""Preloaded by the forkserver that starts ``--jobs`` workers: the forkserver and every worker
it forks ignore SIGINT from the start (Ctrl-C reaches the whole process group; the parent
alone handles it, so no worker prints a ``KeyboardInterrupt`` traceback). Does nothing when
imported anywhere else."""

import signal
import sys

if sys.argv[:1] == ["-c"] and "multiprocessing.forkserver" in sys.modules:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
