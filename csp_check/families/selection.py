"""Which dialogue constraint families a user names: ``"C1,c6"`` (the CLI's ``--constraints``),
a list of ids (the Python API, the pytest plugin), one rule and one message for all three.

The dialogue families are those of groups linguistic, dialogic, domain and annotation
(:data:`~csp_check.constraint_ids.DIALOGUE_GROUPS`: C1–C6, S1–S2, and any family registered in
them); the profile families P1–P6 check API calls (``csp-check calls``), not dialogues.
"""

from __future__ import annotations

from collections.abc import Iterable

from csp_check import constraint_ids
from csp_check.constraint_ids import DIALOGUE_GROUPS, GROUPS
from csp_check.errors import UsageError
from csp_check.families.registry import families, label
from csp_check.models import ConstraintId


def grouped_ids(groups: tuple[str, ...]) -> str:
    """Every declared constraint id of ``groups``, by group: ``linguistic C1, dialogic C2-C3, …``
    (the registry's ids, :func:`csp_check.constraint_ids.ids`, also of a family of your own)."""
    return ", ".join(f"{group} {label(found)}" for group in groups if (found := constraint_ids.ids((group,))))


def dialogue_constraints(constraints: str | Iterable[ConstraintId | str]) -> tuple[ConstraintId, ...]:
    """The ids of dialogue constraint families that ``constraints`` names (a comma- or
    space-separated string, or ids), case-insensitively, each once, in the order given.

    Raises :class:`~csp_check.errors.UsageError` for an empty list; for a profile family
    ("P3 is a profile family: it checks API calls (csp-check calls), not dialogues; …"); for an
    unknown id, listing every registered id by group."""
    if isinstance(constraints, str):
        constraints = constraints.replace(",", " ").split()
    known = {f.id.upper(): f.id for f in families(DIALOGUE_GROUPS)}
    keys = [str(c).strip().upper() for c in constraints if str(c).strip()]
    if not keys:
        raise UsageError(f"give at least one of {grouped_ids(DIALOGUE_GROUPS)}")
    bad = next((k for k in keys if k not in known), None)
    if bad is not None:
        declared = {i.upper(): i for i in constraint_ids.ids()}
        if bad in declared:  # a family of another group: P1-P6 check API calls
            group = ConstraintId(declared[bad]).family
            raise UsageError(f"{declared[bad]} is a {group} family: it checks API calls (csp-check calls), "
                             f"not dialogues; choose from {grouped_ids(DIALOGUE_GROUPS)}")  # fmt: skip
        others = tuple(g for g in GROUPS if g not in DIALOGUE_GROUPS)
        raise UsageError(f"unknown constraint {bad!r}; the registered ones are, for dialogues, "
                         f"{grouped_ids(DIALOGUE_GROUPS)}; for API calls (csp-check calls), {grouped_ids(others)} "
                         "(csp-check constraints describes them)")  # fmt: skip
    return tuple(dict.fromkeys(ConstraintId(known[k]) for k in keys))
