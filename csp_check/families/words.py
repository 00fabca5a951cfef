"""The words the families' explanations share (:meth:`~csp_check.families.registry.Family.explain`)."""

from __future__ import annotations

from typing import Iterable


def where(items: Iterable[object]) -> str:
    """``turn 3`` / ``turns 3, 5``: the turns of variables (anything with a ``turn``)."""
    turns = sorted({getattr(r, "turn") for r in items})
    return ("turn " if len(turns) == 1 else "turns ") + ", ".join(map(str, turns))
