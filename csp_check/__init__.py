"""csp-check: task-oriented dialogue consistency as a constraint satisfaction problem.

The Python API (the same code the CLI runs)::

    from csp_check import load_corpus, check_dialogue, validate, CorpusSummary
    from csp_check.readers.kb import load_kb

Names are imported on first use (PEP 562), so importing a submodule — as the pytest plugin
does at pytest start-up — does not load the whole pipeline.
"""

from __future__ import annotations

import os
import signal
import sys
from importlib import import_module
from typing import Any

_ARGV = getattr(sys, "orig_argv", sys.argv)
if (sys.argv and os.path.basename(sys.argv[0]) == "csp-check") or any(
    flag == "-m" and module in ("csp_check", "csp_check.cli.main") for flag, module in zip(_ARGV, _ARGV[1:])
):  # the command starting up (console script or python -m csp_check.cli.main)
    from csp_check.run import interrupts

    interrupts.AS_COMMAND = True
    signal.signal(signal.SIGINT, interrupts.startup_handler)  # Ctrl-C before the run: one line, exit 130

__version__ = "0.1.0"

_API = {
    "check_dialogue": "csp_check.pipeline",
    "dialogue_csp": "csp_check.pipeline",
    "load_corpus": "csp_check.pipeline",
    "validate": "csp_check.run.runner",
    "CorpusSummary": "csp_check.score.corpus",
    "load_kb": "csp_check.readers.kb",
}
__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'csp_check' has no attribute {name!r}")
