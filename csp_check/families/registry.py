"""The registry of constraint families: declared once, lowered to primitives per backend.

A *family* is one kind of constraint (C1 "type", C2 "coreference", …). It is a subclass of
:class:`Family` in a module of its own, registered with :func:`register`; it states

- how its instances are built from a dialogue (:meth:`Family.build`, reading the
  :class:`~csp_check.build.context.BuildContext`; a domain family, at each KB scope of the
  dialogue: :meth:`Family.build_in_scope`);
- what satisfying an instance means on an assignment (:meth:`Family.satisfied`: the executable
  definition the solvers must agree with);
- how a broken instance is explained in words (:meth:`Family.explain`);
- how an instance lowers to the encoding primitives of :mod:`csp_check.families.primitives`
  (:meth:`Family.lower`), which the solver backends implement.

Modelled on CPMpy's global constraints (a meaning plus a decomposition) and pandera's registered
checks (declared once, implemented per backend). Every list of constraint ids in csp-check
(CLI, reports, tables) is read from here, in registration order (the built-in families: the
order :mod:`csp_check.constraint_ids` declares them in); an unknown id is an error.

The families of the dialogue groups are the modules of :mod:`csp_check.families`; a group whose
families live elsewhere has a home module (:data:`HOMES`: the profile families P1–P6 are
:mod:`csp_check.nlsi.families`), imported the first time the group or one of its ids is asked
for, so that building and checking dialogues does not load the NLSI models.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from csp_check import constraint_ids
from csp_check.constraint_ids import DIALOGUE_GROUPS, GROUPS, PAPER_GROUPS  # noqa: F401  (re-exported)
from csp_check.families.primitives import Primitive
from csp_check.models import CSP, Constraint, ConstraintId, Value, Variable


class UnknownFamily(ValueError):
    """A constraint id no registered family has."""


#: The instance type of a family (:class:`Family` is generic in it).
InstanceT = TypeVar("InstanceT", bound=Constraint)


class Family(Generic[InstanceT]):
    """One constraint family. Subclass it as ``Family[ItsInstance]``, where ``ItsInstance`` is
    the :class:`~csp_check.models.Constraint` subclass holding the family's own fields (defined
    in the family's module, or beside the families sharing its shape), set the four class
    attributes, implement :meth:`lower` (and, for a family of its own meaning, :meth:`satisfied`
    and :meth:`explain`), and :func:`register` it. The methods receive the family's own
    instances (the builder only gives a family what it built)."""

    id: ClassVar[str]
    name: ClassVar[str]
    description: ClassVar[str]  # one line
    group: ClassVar[str]
    #: Whether the family's instances give slot variables their typed domain V(type) (C1):
    #: solvers then search slot variables over V(type) instead of every known value.
    types_domains: ClassVar[bool] = False
    #: The family's instance type (what :meth:`build` returns and the other methods receive):
    #: a :class:`~csp_check.models.Constraint` subclass with the family's own fields, or
    #: ``Constraint`` itself for a family that needs none. Code that makes an instance of a
    #: family named by id (tests, generators) calls it.
    instance_type: ClassVar[type[Constraint]] = Constraint

    def build(self, ctx: object) -> list[InstanceT]:
        """The family's instances for one dialogue, from a
        :class:`~csp_check.build.context.BuildContext` (default: none)."""
        return []

    #: The order the domain group's :meth:`build_in_scope` run in at one KB scope (lower first).
    scope_step: ClassVar[int] = 0

    def build_in_scope(self, ctx: object, at: object) -> list[InstanceT]:
        """The family's instances at one KB scope (a system turn and domain with its KB table:
        :class:`~csp_check.build.context.KbScope`), for families of the ``domain`` group, which
        the builder (:func:`csp_check.build.builder.build_instances`) calls during its one walk over
        the dialogue's KB scopes (:meth:`~csp_check.build.context.BuildContext.kb_scopes`;
        default: none)."""
        return []

    def lower(self, constraint: InstanceT, csp: CSP) -> list[Primitive]:
        """The primitives whose conjunction is ``constraint`` (its decomposition)."""
        raise NotImplementedError(f"{type(self).__name__} does not lower to primitives")

    def satisfied(self, constraint: InstanceT, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """Whether ``assignment`` (variable name → value) satisfies ``constraint``; by default,
        whether it satisfies every primitive of :meth:`lower`."""
        return all(p.holds(assignment, csp) for p in self.lower(constraint, csp))

    def explain(
        self, constraint: InstanceT, assignment: Mapping[str, Value], csp: CSP, by_name: Mapping[str, Variable]
    ) -> str:
        """Why ``assignment`` breaks ``constraint``, in words (by default the family's name and
        the values its variables take)."""
        said = ", ".join(f"{by_name[n].slot_type}={assignment[n]!r} (turn {by_name[n].turn})" for n in constraint.scope)
        return f"{self.name}: {self.description.rstrip('.')}; the text says {said}"

    def evidence_turns(self, constraint: InstanceT) -> set[int]:
        """Turns a violation names besides its variables' (default none)."""
        return set()


_FAMILIES: dict[str, Family[Any]] = {}

#: group → the module whose import registers the group's families, for the groups whose families
#: do not live in :mod:`csp_check.families` (imported on first need: :func:`families` of the group,
#: :func:`get` of one of its ids).
HOMES: Mapping[str, str] = {"profile": "csp_check.nlsi.families"}


def _load(groups: Iterable[str]) -> None:
    """Import the home module of each of ``groups`` that has one (:data:`HOMES`)."""
    for group in groups:
        if group in HOMES:
            importlib.import_module(HOMES[group])


FamilyT = TypeVar("FamilyT", bound=Family[Any])


def register(cls: type[FamilyT]) -> type[FamilyT]:
    """Register a family class (usable as a decorator); its id becomes a valid
    :class:`~csp_check.models.ConstraintId` (:func:`csp_check.constraint_ids.declare`). Raises
    ``ValueError`` for a group not in :data:`GROUPS` (or not the one a built-in id is declared
    with), a missing attribute or an id registered twice."""
    for attr in ("id", "name", "description", "group"):
        if not isinstance(getattr(cls, attr, None), str) or not getattr(cls, attr):
            raise ValueError(f"family {cls.__name__} lacks a {attr}")
    if cls.id in _FAMILIES:
        raise ValueError(f"family {cls.id} is registered twice")
    constraint_ids.declare(cls.id, cls.group)
    _FAMILIES[cls.id] = cls()
    return cls


def unregister(family_id: str) -> None:
    """Remove a family (for tests registering a family of their own)."""
    _FAMILIES.pop(family_id, None)
    constraint_ids.forget(family_id)


def get(family_id: str) -> Family[Any]:
    """The registered family of ``family_id`` (importing its group's home, :data:`HOMES`, the
    first time); :class:`UnknownFamily` if there is none."""
    fid = str(family_id)
    if fid not in _FAMILIES and fid in constraint_ids.ids():
        _load((ConstraintId(fid).family,))
    try:
        return _FAMILIES[fid]
    except KeyError:
        known = ", ".join(constraint_ids.ids())  # every family's id, also of a group not imported yet
        raise UnknownFamily(f"unknown constraint {family_id!r}; registered: {known}") from None


def families(groups: Iterable[str] | None = None) -> list[Family[Any]]:
    """Every registered family of ``groups``, in registration order; the groups named import
    their home first (:data:`HOMES`). ``groups`` ``None``: every family registered so far — the
    dialogue groups' always, the ``profile`` group's once it has been asked for; pass
    :data:`GROUPS` for every family of every group."""
    wanted = None if groups is None else set(groups)
    if wanted is not None:
        _load(sorted(wanted))
    return [_FAMILIES[i] for i in constraint_ids.ids(wanted) if i in _FAMILIES]


def instance(family_id: str, **fields: Any) -> Constraint:
    """An instance of family ``family_id`` (its :attr:`Family.instance_type`) with ``fields``,
    for code that names a family by its id (tests, generators of CSPs)."""
    return get(family_id).instance_type(id=ConstraintId(str(family_id)), **fields)


def ids(groups: Iterable[str] | None = None) -> tuple[ConstraintId, ...]:
    """The ids of :func:`families`."""
    return tuple(ConstraintId(f.id) for f in families(groups))


def label(family_ids: Iterable[str]) -> str:
    """A short label for some ids: runs of one prefix with consecutive numbers are joined
    (``C1, C2, C3, S1`` → ``C1-C3, S1``)."""
    parts: list[list[tuple[str, int | None, str]]] = []
    for fid in family_ids:
        m = re.fullmatch(r"(.*?)(\d+)", str(fid))
        key = (m.group(1), int(m.group(2)), str(fid)) if m else (str(fid), None, str(fid))
        last = parts[-1][-1] if parts else None
        if last and m and last[1] is not None and last[0] == key[0] and last[1] + 1 == key[1]:
            parts[-1].append(key)
        else:
            parts.append([key])
    return ", ".join(run[0][2] if len(run) == 1 else f"{run[0][2]}-{run[-1][2]}" for run in parts)
