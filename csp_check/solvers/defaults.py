"""The solver defaults, defined once: which backend, how long per call, where counting stops.

Every entry point (``csp-check validate --solver``, ``csp-check experiment``, the Python API,
the relexicalizers) takes its defaults from here (docs/cli.md; spec §3 for the cap).
"""

from __future__ import annotations

#: The backend used when none is named (``--vca`` / ``--count-solutions`` / ``--repair`` alone).
DEFAULT_SOLVER = "cp-sat"
#: Seconds per solver call when none is given.
DEFAULT_TIME_LIMIT = 10.0
#: Count cap that makes every solution-count group exact: 101 solutions is already "101+"
#: (paper §4, Table 1; spec §3).
DEFAULT_CAP = 101
