"""The CSP relexicalizer (spec §4, "ours"): a solver's solution — the upper bound.

A solvable dialogue gets one solution of its CSP (through :mod:`csp_check.solvers`), which
satisfies every enabled constraint: GCA 1.0 on solvable dialogues by construction. An
unsolvable dialogue (or a solver time-out) keeps the dialogue's own values, and the outcome is
recorded in :attr:`CspRelexicalizer.status` (dialogue id → ``satisfied`` / ``unsatisfiable`` /
``unknown``).
"""

from __future__ import annotations

import random

from csp_check.models import CSP, DelexicalizedDialogue, Value
from csp_check.solvers import get_solver
from csp_check.solvers.defaults import DEFAULT_SOLVER, DEFAULT_TIME_LIMIT

from .base import own_value


class CspRelexicalizer:
    """Fill every variable from one solution found by the solver ``solver`` (a name for
    :func:`csp_check.solvers.get_solver`, default CP-SAT) within ``time_limit`` seconds."""

    name = "csp"

    def __init__(self, solver: str = DEFAULT_SOLVER, time_limit: float = DEFAULT_TIME_LIMIT):
        self.solver_name = solver
        self.time_limit = time_limit
        self.status: dict[str, str] = {}
        self._solver = None

    def _get_solver(self):
        if self._solver is None:
            self._solver = get_solver(self.solver_name)
        return self._solver

    def relexicalize(self, csp: CSP, delex: DelexicalizedDialogue, rng: random.Random) -> dict[str, Value]:
        result = self._get_solver().satisfiable(csp, time_limit=self.time_limit)
        self.status[csp.dialogue_id] = result.status.value
        own = {v.name: own_value(csp, v) for v in csp.variables}
        if result.solution is None:
            return own
        return {**own, **result.solution}
