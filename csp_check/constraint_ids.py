"""The ids of the constraint families and their groups: the bottom layer of the registry.

:class:`ConstraintId` is what :mod:`csp_check.models` validates a constraint's id with, so this
module imports nothing of csp_check. It knows each family's id and group only; the family itself
(how its instances are built, what satisfying one means, how it lowers to the encoding
primitives) is a class in :mod:`csp_check.families` (P1–P6: in :mod:`csp_check.nlsi.families`),
and registering it (:func:`csp_check.families.registry.register`) declares its id here
(:func:`declare`).

The built-in families' ids are declared below (:data:`BUILT_IN`), in the listing order (the
order :mod:`csp_check.families`, then :mod:`csp_check.nlsi.families` register them), so a report
or a ``--constraints`` option naming C1 validates without loading the families; registering a
built-in family checks that its group is the one declared here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic_core import core_schema

#: The groups a family belongs to (``csp-check constraints`` lists them).
GROUPS = ("linguistic", "dialogic", "domain", "annotation", "profile")
#: The groups of the paper's constraints C1–C6 (the experiment's tables and ablations).
PAPER_GROUPS = ("linguistic", "dialogic", "domain")
#: The groups checked on a dialogue (``--constraints``); ``profile`` families check API calls.
DIALOGUE_GROUPS = ("linguistic", "dialogic", "domain", "annotation")

#: id → group of every built-in family, in the listing order (:func:`csp_check.families.registry.families`).
BUILT_IN = (
    ("C1", "linguistic"), ("C2", "dialogic"), ("C3", "dialogic"), ("C4", "domain"), ("C5", "domain"),
    ("C6", "domain"), ("S1", "annotation"), ("S2", "annotation"),
    ("P1", "profile"), ("P2", "profile"), ("P3", "profile"), ("P4", "profile"), ("P5", "profile"), ("P6", "profile"),
)


class _RegisteredIds(type):
    """Metaclass of :class:`ConstraintId`: ``ConstraintId.C1`` and ``iter(ConstraintId)`` read the
    declared ids."""

    def __getattr__(cls, name: str) -> ConstraintId:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return cls(name)
        except ValueError:
            raise AttributeError(f"no registered constraint family {name!r}") from None

    def __iter__(cls):
        return iter(list(cls._known))


class ConstraintId(str, metaclass=_RegisteredIds):
    """The id of a registered constraint family (``"C1"`` … ``"C6"``, ``"S1"``, …).

    A ``str``; one object per id (``ConstraintId("C1") is ConstraintId.C1``). Building one from
    a string no family declared raises ``ValueError``; iterating the class gives every declared
    id in registration order.
    """

    _known: dict = {}

    def __new__(cls, value: object) -> ConstraintId:
        if isinstance(value, ConstraintId):
            return value
        known = cls._known
        found = known.get(str(value)) if isinstance(value, str) else None
        if found is None:
            raise ValueError(f"unknown constraint {value!r}; registered: {', '.join(known)}")
        return found

    @property
    def value(self) -> str:
        """The id as a plain string (as an enum member's ``value``)."""
        return str.__str__(self)

    @property
    def family(self) -> str:
        """The family's group: linguistic, dialogic, domain, annotation or profile."""
        return _GROUP[self]

    def __repr__(self) -> str:
        return f"ConstraintId({self.value!r})"

    def __reduce__(self):
        return (ConstraintId, (self.value,))

    @classmethod
    def __get_pydantic_core_schema__(cls, source, handler):

        return core_schema.no_info_after_validator_function(
            _validated, core_schema.str_schema(), serialization=core_schema.plain_serializer_function_ser_schema(str)
        )


def _validated(value: str) -> ConstraintId:
    """A validated id: the declared object, found by one look-up (a model's ``id`` field is
    validated for every constraint built); ``ValueError`` as :class:`ConstraintId` for an id no
    family declared."""
    found = ConstraintId._known.get(value)
    return found if found is not None else ConstraintId(value)


_GROUP: dict[str, str] = {}


def declare(family_id: str, group: str) -> ConstraintId:
    """Declare a family's id (idempotent) and return its id object. Raises ``ValueError`` for a
    group not in :data:`GROUPS` or an id already declared with another group."""
    if group not in GROUPS:
        raise ValueError(f"family {family_id}: group {group!r} is not one of {', '.join(GROUPS)}")
    if _GROUP.get(family_id, group) != group:
        raise ValueError(f"family {family_id} is declared in group {_GROUP[family_id]}, not {group}")
    known = ConstraintId._known
    if family_id not in known:
        known[family_id] = str.__new__(ConstraintId, family_id)
        if family_id.isidentifier() and not any(family_id in vars(k) for k in ConstraintId.__mro__):
            # ``ConstraintId.C1`` is then a class attribute, not a metaclass look-up at each use
            type.__setattr__(ConstraintId, family_id, known[family_id])
        _GROUP[family_id] = group
    return known[family_id]


def forget(family_id: str) -> None:
    """Remove a declared id (for tests registering a family of their own)."""
    gone = ConstraintId._known.pop(family_id, None)
    _GROUP.pop(family_id, None)
    if gone is not None and vars(ConstraintId).get(family_id) is gone:
        type.__delattr__(ConstraintId, family_id)


def ids(groups: Iterable[str] | None = None) -> tuple[ConstraintId, ...]:
    """Every declared id (of ``groups``, when given), in registration order."""
    wanted = None if groups is None else set(groups)
    return tuple(i for i in ConstraintId._known.values() if wanted is None or _GROUP[i] in wanted)


class RegisteredIds(Sequence):
    """The ids of the registered families of some groups (all when ``groups`` is ``None``), read
    each time it is used: a default argument of this kind sees a family registered after import."""

    def __init__(self, groups: tuple[str, ...] | None = None, name: str = "") -> None:
        self.groups, self.name = groups, name

    def _ids(self) -> tuple[ConstraintId, ...]:
        return ids(self.groups)

    def __getitem__(self, i):
        return self._ids()[i]

    def __len__(self) -> int:
        return len(self._ids())

    def __eq__(self, other: object) -> bool:
        return tuple(self) == tuple(other) if isinstance(other, (tuple, list, RegisteredIds)) else NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"{self.name or 'RegisteredIds'}{self._ids()!r}"

    def __reduce__(self):
        return (RegisteredIds, (self.groups, self.name))


for _id, _group in BUILT_IN:
    declare(_id, _group)
