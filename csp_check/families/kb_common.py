"""What the KB families (C4 none, C5 some, C6 exactly n) share: their instance type
(:class:`KbFilterInstance`), the tables they read (:class:`TableView`: a table of the CSP, or
one derived from it by typed :class:`Restriction` steps), their filters, the words of their
explanations, tables restricted to one kind, and the trains arriving after midnight within an
"arrive by" clock bound."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from csp_check.build.context import BuildContext
from csp_check.corpora.shared import LABEL_COLUMNS
from csp_check.families.primitives import entity_match
from csp_check.families.words import where
from csp_check.language.normalize import clock_of_day
from csp_check.models import CSP, Constraint, IndexedRows, Value, Variable

#: A table's rows: entities mapping a column to a value.
Rows = list[dict[str, str]]


class Restriction(BaseModel):
    """One step from a KB table to a table derived from it (the entities of one kind, a copy
    with a column added, …). A family that derives a table subclasses it (beside the family)
    with the fields that say what the step keeps, and implements :meth:`rows` and :meth:`mark`."""

    model_config = ConfigDict(frozen=True)

    def rows(self, entities: Rows) -> Rows:
        """The derived table's rows, from the rows of the table it restricts."""
        raise NotImplementedError(f"{type(self).__name__} does not derive rows")

    def mark(self) -> str:
        """What the step appends to the id of the table it restricts: the derived table's id in
        :attr:`~csp_check.models.CSP.kbs`, which the solver encodings and the MiniZinc export
        name (an id only: nothing reads the step back from it)."""
        raise NotImplementedError(f"{type(self).__name__} has no mark")


R = TypeVar("R", bound=Restriction)


class TableView(BaseModel):
    """The KB table a C4–C6 instance counts in: ``base``, a table of the CSP as the builder's
    KB walk gives it (a ``--kb`` domain, a call's results, the dialogue's results), narrowed by
    ``restrictions`` in order. Its rows are in :attr:`~csp_check.models.CSP.kbs` under
    :attr:`name` (:func:`derived` puts them there)."""

    model_config = ConfigDict(frozen=True)

    base: str
    restrictions: tuple[Restriction, ...] = ()

    @property
    def name(self) -> str:
        """The table's id in :attr:`~csp_check.models.CSP.kbs`: ``base`` and each step's
        :meth:`~Restriction.mark`."""
        return self.base + "".join(r.mark() for r in self.restrictions)

    def of(self, kind: type[R]) -> list[R]:
        """The restrictions of type ``kind``, in order."""
        return [r for r in self.restrictions if isinstance(r, kind)]

    def marks_after(self, step: Restriction, until: type[Restriction] | None = None) -> str:
        """The marks of the steps after ``step`` (as :attr:`name` writes them), up to the first
        step of type ``until`` if given. An explanation that names a step's value (C4's kind,
        C6's listed values) has always carried the steps after it in these words ("no
        park|entrance fee (charged)=…"), and still does: its wording is behaviour, kept
        byte-identical."""
        marks = []
        for r in self.restrictions[self.restrictions.index(step) + 1 :]:
            if until is not None and isinstance(r, until):
                break
            marks.append(r.mark())
        return "".join(marks)

    def restricted(self, restriction: Restriction) -> TableView:
        """This view narrowed by one more step (its rows not computed: :func:`derived` does)."""
        return TableView(base=self.base, restrictions=(*self.restrictions, restriction))


def derived(ctx: BuildContext, table: TableView, restriction: Restriction) -> TableView:
    """``table`` narrowed by ``restriction``, its rows added to the CSP's tables (``ctx.kbs``,
    under the view's :attr:`~TableView.name`) once: the checker and the solvers count the same
    rows."""
    view = table.restricted(restriction)
    if view.name not in ctx.kbs:
        base = ctx.kbs.get(table.name) or []
        if isinstance(base, IndexedRows):  # of a --kb table: derived (and indexed) once per run
            key = (type(restriction).__name__, repr(restriction))  # every field of the step
            if key not in base.derived:
                base.derived[key] = IndexedRows(restriction.rows(base))
            ctx.kbs[view.name] = base.derived[key]
        else:
            ctx.kbs[view.name] = restriction.rows(base)
    return view


class KbFilterInstance(Constraint):
    """A C4 / C5 instance: over the KB table ``table``, no (C4) / some (C5) entity has
    ``entity[columns[i]] == variables[i]`` for every i (``ops[i]`` ``>=`` / ``<=`` make filter i
    a bound: ``entity[columns[i]] >= variables[i]``; strings compare in code-point order, so
    ``HH:MM`` times compare as times). C6's :class:`~csp_check.families.c6_instance_count.CountInstance`
    extends it with its amount."""

    table: TableView
    columns: list[str] = Field(default_factory=list)
    ops: list[str] = Field(
        default_factory=list,
        description="per filter: '=' (entity[column] == value), '>=' (entity[column] >= value: a lower "
        "bound, 'leave after 17:00') or '<=' (an upper bound, 'arrive by 18:00'); empty: all '='",
    )

    @field_validator("table", mode="before")
    @classmethod
    def _plain_table(cls, value: object) -> object:
        """A table id alone is that table of the CSP, unrestricted."""
        return TableView(base=value) if isinstance(value, str) else value

    @property
    def kb(self) -> str:
        """The id of the instance's table in :attr:`~csp_check.models.CSP.kbs` (:attr:`TableView.name`)."""
        return self.table.name


def filters(constraint: KbFilterInstance) -> tuple[tuple[str, str, str], ...]:
    """``(variable, column, op)`` per filter (``zip``: as :func:`entity_match` reads them)."""
    ops = constraint.ops
    return tuple(
        (n, col, ops[i] if i < len(ops) and ops[i] else "=")
        for i, (n, col) in enumerate(zip(constraint.variables, constraint.columns))
    )


def values(constraint: KbFilterInstance, assignment: Mapping[str, Value]) -> list[Value]:
    """The values the instance's filter variables take under ``assignment``."""
    return [assignment[n] for n in constraint.variables]


def entities(constraint: KbFilterInstance, csp: CSP) -> Sequence[Mapping[str, str]]:
    """The rows of the instance's table."""
    return csp.kbs.get(constraint.kb, [])


def possible_matches(constraint: KbFilterInstance, assignment: Mapping[str, Value], csp: CSP) -> list[Mapping[str, str]]:
    """The entities that possibly match the constraint's filters under ``assignment``."""
    vals = values(constraint, assignment)
    return [e for e in entities(constraint, csp) if entity_match(e, constraint.columns, vals, constraint.ops)[1]]


def said(constraint: KbFilterInstance, assignment: Mapping[str, Value], by_name: Mapping[str, Variable]) -> str:
    """``slot='value', …`` over the filter variables (not a count's amount)."""
    return ", ".join(f"{by_name[n].slot_type}={assignment[n]!r}" for n in constraint.variables)


def claim(constraint: Constraint, by_name: Mapping[str, Variable]) -> str:
    """The utterance that claims: ``turn t`` of the constraint, else its variables' turns."""
    if constraint.turn is not None:
        return f"turn {constraint.turn}"
    return where([by_name[n] for n in constraint.scope])


def sample(matches: Sequence[Mapping[str, str]]) -> str:
    """The first three matching entities, by label, then " …" when there are more."""
    return "; ".join(entity_label(e) for e in matches[:3]) + (" …" if len(matches) > 3 else "")


def entity_label(entity: Mapping[str, str]) -> str:
    """An entity's name (the first naming column it has, :data:`~csp_check.corpora.shared.LABEL_COLUMNS`),
    else its first three cells."""
    for key in LABEL_COLUMNS:
        if key in entity:
            return entity[key]
    return ", ".join(f"{k}={v}" for k, v in list(entity.items())[:3])


#: What :class:`KindOf` appends to a table's id: ``f"{table}{KIND_MARK}{kind}"``.
KIND_MARK = "|type="


class KindOf(Restriction):
    """The entities whose kind (``column``: the profile's
    :attr:`~csp_check.corpora.CorpusProfile.kind_column`) is ``kind``."""

    column: str
    kind: str

    def rows(self, entities: Rows) -> Rows:
        return [e for e in entities if e.get(self.column) == self.kind]

    def mark(self) -> str:
        return f"{KIND_MARK}{self.kind}"


def kind_table(ctx: BuildContext, table: TableView, kind: str) -> TableView:
    """Table ``table`` restricted to entities of kind ``kind`` (:class:`KindOf`), added to the
    CSP's tables once (:func:`derived`)."""
    return derived(ctx, table, KindOf(column=ctx.profile.kind_column, kind=kind))


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
    columns, values, ops = [c for c, _, _ in rest], [v for _, _, v in rest], [o for _, o, _ in rest]
    return [
        e for e in _arriving_from(entities, arrival, from_hour)
        if clock_of_day(e[arrival]) <= bound and entity_match(e, columns, values, ops)[1]  # type: ignore[operator]
    ]


def _arriving_from(entities, arrival: str, from_hour: str) -> list:
    """The ``entities`` whose ``arrival`` is ``from_hour`` or later (a non-empty ``HH:MM``), in
    order: on a ``--kb`` table's rows (:class:`~csp_check.models.IndexedRows`) one bisect of its
    ordered column, elsewhere a scan."""
    if not isinstance(entities, IndexedRows) or not from_hour:
        return [e for e in entities if e.get(arrival, "") >= from_hour]
    ordered, _, at_least = entities.ordered(arrival)
    k = bisect_left(ordered, from_hour)
    return entities.rows_of(at_least[k] if k < len(ordered) else 0)
