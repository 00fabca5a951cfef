"""What the KB families (C4 none, C5 some, C6 exactly n) share: their filters, the words of
their explanations, tables restricted to one kind, and the trains arriving after midnight within
an "arrive by" clock bound."""

from __future__ import annotations

from typing import Mapping

from csp_check.corpora.shared import LABEL_COLUMNS
from csp_check.families.primitives import entity_match
from csp_check.families.words import where
from csp_check.language.normalize import clock_of_day
from csp_check.models import CSP, Constraint, Value, Variable


def filters(constraint: Constraint) -> tuple[tuple[str, str, str], ...]:
    """``(variable, column, op)`` per filter (``zip``: as :func:`entity_match` reads them)."""
    ops = constraint.ops
    return tuple(
        (n, col, ops[i] if i < len(ops) and ops[i] else "=")
        for i, (n, col) in enumerate(zip(constraint.variables, constraint.columns))
    )


def values(constraint: Constraint, assignment: Mapping[str, Value]) -> list[Value]:
    return [assignment[n] for n in constraint.variables]


def entities(constraint: Constraint, csp: CSP) -> list[Mapping[str, str]]:
    return csp.kbs.get(constraint.kb or "", [])


def possible_matches(constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> list[Mapping[str, str]]:
    """The entities that possibly match the constraint's filters under ``assignment``."""
    vals = values(constraint, assignment)
    return [e for e in entities(constraint, csp) if entity_match(e, constraint.columns, vals, constraint.ops)[1]]


def said(constraint: Constraint, assignment: Mapping[str, Value], by_name: Mapping[str, Variable]) -> str:
    """``slot='value', …`` over the filter variables (not the count)."""
    return ", ".join(f"{by_name[n].slot_type}={assignment[n]!r}" for n in constraint.scope if n != constraint.count_variable)


def claim(constraint: Constraint, by_name: Mapping[str, Variable]) -> str:
    """The utterance that claims: ``turn t`` of the constraint, else its variables' turns."""
    if constraint.turn is not None:
        return f"turn {constraint.turn}"
    return where([by_name[n] for n in constraint.scope])


def sample(matches: list[Mapping[str, str]]) -> str:
    """The first three matching entities, by label, then " …" when there are more."""
    return "; ".join(entity_label(e) for e in matches[:3]) + (" …" if len(matches) > 3 else "")


def entity_label(entity: Mapping[str, str]) -> str:
    """An entity's name (the first naming column it has, :data:`~csp_check.corpora.shared.LABEL_COLUMNS`),
    else its first three cells."""
    for key in LABEL_COLUMNS:
        if key in entity:
            return entity[key]
    return ", ".join(f"{k}={v}" for k, v in list(entity.items())[:3])


#: A KB table restricted to one kind of entity: ``f"{table}{KIND_MARK}{value}"`` is the entities of
#: ``table`` whose kind (the profile's :attr:`~csp_check.corpora.CorpusProfile.kind_column`) is
#: ``value`` (:func:`kind_table`).
KIND_MARK = "|type="


def kind_table(ctx, kb_id: str, kind: str) -> str:
    """The id of table ``kb_id`` restricted to entities of kind ``kind`` (:data:`KIND_MARK`),
    added to the CSP's tables once: the checker and the solvers count the same rows."""
    table = f"{kb_id}{KIND_MARK}{kind}"
    if table not in ctx.kbs:
        column = ctx.profile.kind_column
        ctx.kbs[table] = [e for e in ctx.kbs.get(kb_id) or [] if e.get(column) == kind]
    return table


def after_midnight_within(entities, filters: list[tuple[str, str, Value]], from_hour: str, arrival: str) -> list:
    """The ``entities`` matching ``filters`` (``(column, op, value)``) but for the first "arrive
    by" bound (``arrival`` ``<=``: a corpus's :attr:`~csp_check.corpora.CorpusProfile.arrival_column`),
    whose arrival is written at ``from_hour`` or later (the next day's clock) and whose clock time
    of day meets that bound. ``[]`` without a bound."""
    first = next((i for i, (col, op, _) in enumerate(filters) if col == arrival and op == "<="), None)
    if first is None or not isinstance(filters[first][2], str):
        return []
    bound = filters[first][2]
    rest = filters[:first] + filters[first + 1 :]
    return [
        e for e in entities
        if e.get(arrival, "") >= from_hour and clock_of_day(e[arrival]) <= bound  # type: ignore[operator]
        and entity_match(e, [c for c, _, _ in rest], [v for _, _, v in rest], [o for _, o, _ in rest])[1]
    ]
