"""How to install an optional part, worded exactly as the README says it (one place for every
error message that gives the hint)."""

from __future__ import annotations

#: Debian's MiniZinc with Gecode (README, first lines).
MINIZINC = "apt-get update && apt-get install -y minizinc"


def pip_extra(extra: str) -> str:
    """The README's command installing the extra ``extra`` from the csp-check folder:
    ``pip install -e ".[solvers]"``."""
    return f'pip install -e ".[{extra}]"'
