"""Solver lookup by name, in one registry (modelled on CPMpy's ``SolverLookup``).

A name is ``family`` or ``family:subsolver``: ``cp-sat`` (OR-Tools CP-SAT, in-process),
``minizinc:gecode``, ``minizinc:chuffed``, or ``minizinc:<any solver id or tag that
``minizinc --solvers`` lists>``. ``minizinc`` alone means its default subsolver (Gecode);
``ortools`` and ``cpsat`` are aliases of ``cp-sat``. A backend is added with :func:`register`
(see ``TEMPLATE.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from csp_check.errors import SolverUnavailable, UsageError
from csp_check.solvers.base import Solver
from csp_check.solvers.defaults import DEFAULT_SOLVER


@dataclass(frozen=True)
class SolverFamily:
    """One registered backend family.

    ``factory`` builds the backend: called with no argument for a family without subsolvers,
    with the subsolver's id otherwise. ``subsolvers`` are the ids listed in ``--solver``'s help
    (any other id is passed to the factory too); ``default_subsolver`` is used for the bare
    family name (``None``: the family has no subsolvers).
    """

    name: str
    factory: Callable[..., Solver]
    subsolvers: tuple[str, ...] = ()
    default_subsolver: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The full names this family lists: ``cp-sat``; ``minizinc:gecode``, ``minizinc:chuffed``."""
        if self.default_subsolver is None:
            return (self.name,)
        return tuple(f"{self.name}:{sub}" for sub in self.subsolvers)


_FAMILIES: dict[str, SolverFamily] = {}
_ALIASES: dict[str, str] = {}
_INSTANCES: dict[str, Solver] = {}


def register(
    name: str,
    factory: Callable[..., Solver],
    *,
    subsolvers: tuple[str, ...] = (),
    default_subsolver: str | None = None,
    aliases: tuple[str, ...] = (),
) -> None:
    """Make ``get_solver(name)`` (and ``name:<subsolver>`` when ``default_subsolver`` is given)
    build a backend with ``factory``; ``aliases`` are other names for the same family.

    Registering a name again replaces the family (and drops its cached backends). Raises
    ``ValueError`` for a name holding ``:``.
    """
    if ":" in name:
        raise ValueError(f"a solver family name cannot hold ':' ({name!r}); subsolvers follow it")
    _FAMILIES[name] = SolverFamily(name, factory, tuple(subsolvers), default_subsolver)
    for alias in aliases:
        _ALIASES[alias] = name
    for cached in [n for n in _INSTANCES if n == name or n.startswith(name + ":")]:
        del _INSTANCES[cached]


def unregister(name: str) -> None:
    """Remove the family ``name``, its aliases and its cached backends (no error if absent)."""
    _FAMILIES.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        del _ALIASES[alias]
    for cached in [n for n in _INSTANCES if n == name or n.startswith(name + ":")]:
        del _INSTANCES[cached]


def canonical_name(name: str) -> str:
    """``name`` with its family's alias resolved and its default subsolver filled in.

    ``ortools`` → ``cp-sat``; ``minizinc`` → ``minizinc:gecode``; ``MiniZinc:Chuffed`` keeps the
    subsolver's spelling. Raises :class:`~csp_check.errors.UsageError` for an unknown family, a
    subsolver given to a family without any, or an empty subsolver.
    """
    family_name, sep, sub = name.partition(":")
    family_name = _ALIASES.get(family_name, family_name)
    family = _FAMILIES.get(family_name)
    if family is None:
        raise UsageError(f"unknown solver {name!r}; choose one of {listing()}")
    if family.default_subsolver is None:
        if sep:
            raise UsageError(f"solver {family.name!r} has no subsolvers (got {name!r})")
        return family.name
    if sep and not sub:
        raise UsageError(f"solver {name!r}: name a subsolver after ':', e.g. {family.names[0]}")
    return f"{family.name}:{sub or family.default_subsolver}"


def get_solver(name: str = DEFAULT_SOLVER) -> Solver:
    """The backend called ``name`` (cached per process).

    Raises :class:`~csp_check.errors.UsageError` for an unknown name and
    :class:`~csp_check.errors.SolverUnavailable` (with how to install it) when the solver is not
    installed.
    """
    full = canonical_name(name)
    if full in _INSTANCES:
        return _INSTANCES[full]
    family_name, _, sub = full.partition(":")
    family = _FAMILIES[family_name]
    solver = family.factory(sub) if family.default_subsolver is not None else family.factory()
    solver.ensure_available()
    _INSTANCES[full] = solver
    return solver


def solver_names() -> tuple[str, ...]:
    """Every listed full name (``cp-sat``, ``minizinc:gecode``, ``minizinc:chuffed``, then any
    registered family's), installed or not."""
    return tuple(n for family in _FAMILIES.values() for n in family.names)


def listing() -> str:
    """The valid ``--solver`` names as an error message lists them, aliases beside their family:
    ``cp-sat (or ortools, cpsat), minizinc:gecode, minizinc:chuffed (or minizinc:<solver>)``."""
    parts = []
    for family in _FAMILIES.values():
        aliases = [alias for alias, target in _ALIASES.items() if target == family.name]
        names = list(family.names)
        if aliases:
            names[0] += f" (or {', '.join(aliases)})"
        parts += names
    subsolvers = [f"{family.name}:<solver>" for family in _FAMILIES.values() if family.default_subsolver is not None]
    return ", ".join(parts) + (f" (or {', '.join(subsolvers)})" if subsolvers else "")


def available_solvers() -> list[str]:
    """The names of :func:`solver_names` that can run here."""
    names = []
    for name in solver_names():
        try:
            get_solver(name)
        except (SolverUnavailable, UsageError):
            continue
        names.append(name)
    return names
