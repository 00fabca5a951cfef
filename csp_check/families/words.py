"""The words the families' explanations share (:meth:`~csp_check.families.registry.Family.explain`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class HasTurn(Protocol):
    """Anything said at a turn (a variable)."""

    @property
    def turn(self) -> int: ...


def where(items: Iterable[HasTurn]) -> str:
    """``turn 3`` / ``turns 3, 5``: the turns of variables (anything with a ``turn``)."""
    turns = sorted({r.turn for r in items})
    return ("turn " if len(turns) == 1 else "turns ") + ", ".join(map(str, turns))
