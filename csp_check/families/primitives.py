"""The encoding primitives every constraint family lowers to, and what each means on an assignment.

A family (:mod:`csp_check.families.registry`) states its meaning once and *lowers* each of its
instances to a few primitives (as CPMpy's global constraints decompose); the CP-SAT backend and
``csp_check/solvers/consistency.mzn`` implement these primitives only:

- :class:`Member` — each variable takes one of a set of values (``x ∈ S``);
- :class:`AllEqual` — the variables take one value;
- :class:`AllDifferent` — the variables take pairwise different values;
- :class:`KbCount` — the number of KB entities matching filters lies between two bounds;
- :class:`AnyOf` — at least one of some :class:`Member` / :class:`AllEqual` /
  :class:`AllDifferent` literals holds (a clause: with ``Member(excluded=True)`` as the negation
  of a membership, it states implications such as "if this call exists and its condition holds,
  then …"; the profile families P1–P6 lower to it, :mod:`csp_check.families.profile`).

Reading rules

**KB matching** (spec §2; the semantics the checker, CP-SAT and MiniZinc share): a filter
``column op variable`` holds for an entity when the variable is ``dontcare``, or the entity's
cell satisfies ``op`` (``=``; ``>=`` / ``<=``: a bound, comparing strings in code-point order, so
``HH:MM`` times compare as times; a bound never holds against an int). An entity without the
column is *unknown* there: it *possibly* matches but does not *surely* match. The true number
of matches ``n`` is then only known to lie in ``sure..possible``, and a :class:`KbCount` holds
when some such ``n`` lies within its bounds (the dialogue gets the benefit of the doubt):
C4 counts only entities that surely match, C5 accepts an entity that may match, C6 holds when
``sure ≤ amount ≤ possible``. ``dontcare`` as a filter matches every entity.

**Qualified forms** (spec §9, "text is the truth"): in a column
that names a kind of food (:data:`~csp_check.corpora.shared.QUALIFIED_COLUMNS`), a cell whose final words are the stated
value is a qualified form of it — MultiWOZ's ``modern european`` under "European",
``north american`` under "American", ``asian oriental`` under "Oriental" — and may or may not
be meant by it ("8 European restaurants" counts 4 european and 4 modern european ones; "4
European restaurants" counts the european ones alone). Such an entity *possibly* matches an
``=`` filter of the stated value but does not *surely* match it, as an unknown cell
(:func:`qualified_form`; both backends read the same relation through
:func:`covering_values`). Not the reverse (a ``european`` restaurant is no "modern European"
one), and not other columns: SGD's ``Theme Park`` is no "Park", ``south san francisco`` no
"San Francisco". A count between the two readings (6 for 4 + 4) is accepted too: the
interval, not either reading, is what is checked. MultiWOZ's list gives three such pairs, each a
genuine sub-kind; the CP-SAT and MiniZinc models read the same relation (the encoding's
``kb_wider``, the model's ``WIDER``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from csp_check.corpora.shared import QUALIFIED_COLUMNS
from csp_check.models import CSP, IndexedRows, Value

DONTCARE = "dontcare"
#: Filter comparisons a :class:`KbCount` accepts (entity cell ``op`` variable value).
FILTER_OPS = ("=", ">=", "<=")


def qualified_form(column: str, have: str, value: Value) -> bool:
    """Whether KB cell ``have`` of ``column`` is a qualified form of the stated ``value``: a
    :data:`~csp_check.corpora.shared.QUALIFIED_COLUMNS` cell whose final words are ``value`` (``modern european`` for
    ``european``). Values are compared normalised (lower case, single spaces), as the CSP stores them."""
    return (column in QUALIFIED_COLUMNS and isinstance(value, str) and value != DONTCARE and bool(value)
            and have.endswith(" " + value))


def covering_values(column: str, have: str) -> tuple[str, ...]:
    """The stated values KB cell ``have`` of ``column`` is a qualified form of (its final words,
    shorter than itself): ``("european",)`` for ``modern european``; ``()`` outside
    :data:`~csp_check.corpora.shared.QUALIFIED_COLUMNS`. The inverse of :func:`qualified_form`, which the solver encoding reads."""
    if column not in QUALIFIED_COLUMNS:
        return ()
    words = have.split(" ")
    return tuple(" ".join(words[k:]) for k in range(1, len(words)) if words[k])


def holds(have: str, op: str, value: Value) -> bool:
    """Whether a KB cell ``have`` satisfies a filter ``op value``: ``=`` equality; ``>=`` /
    ``<=`` a bound (``have >= value``), comparing strings in code-point order (``HH:MM`` times
    compare as times); a bound never holds against an amount (an int)."""
    if op == "=" or not op:
        return have == value
    if not isinstance(value, str):
        return False
    return have >= value if op == ">=" else have <= value


def entity_match(
    entity: Mapping[str, str], columns: Sequence[str], values: Sequence[Value], ops: Sequence[str] | None = None
) -> tuple[bool, bool]:
    """(surely matches, possibly matches) for one entity against ``columns[i] ops[i] values[i]``
    (``ops`` empty or ``None``: all ``=``): a contradicted column rules the entity out; a missing
    one, or a cell that is a qualified form of an ``=`` value (:func:`qualified_form`), only
    makes the match unsure."""
    sure = True
    for i, (column, value) in enumerate(zip(columns, values)):
        if value == DONTCARE:
            continue
        have = entity.get(column)
        op = ops[i] if ops and i < len(ops) else "="
        if have is None or have == "":
            sure = False
        elif not holds(have, op, value):
            if op in ("=", "") and qualified_form(column, have, value):
                sure = False
                continue
            return False, False
    return sure, True


def count_matches(
    entities: Sequence[Mapping[str, str]], columns: Sequence[str], values: Sequence[Value],
    ops: Sequence[str] | None = None,
) -> tuple[int, int]:
    """(entities that surely match, entities that possibly match). On a ``--kb`` table's rows
    (:class:`~csp_check.models.IndexedRows`) a look-up: the rows of each filter are found once per
    table (:func:`filter_masks`) and the count is the intersection's size; elsewhere a scan."""
    if isinstance(entities, IndexedRows):
        sure = possible = (1 << len(entities)) - 1
        for i, (column, value) in enumerate(zip(columns, values)):
            op = ops[i] if ops and i < len(ops) else "="
            s, p = filter_masks(entities, column, op, value)
            sure &= s
            possible &= p
        return sure.bit_count(), possible.bit_count()
    sure = possible = 0
    for entity in entities:
        s, p = entity_match(entity, columns, values, ops)
        sure += s
        possible += p
    return sure, possible


def filter_masks(rows: IndexedRows, column: str, op: str, value: Value) -> tuple[int, int]:
    """(sure, possible) bit masks of ``rows`` (row ``i`` is bit ``i``) for the one filter
    ``column op value`` (:func:`entity_match` of each row), computed once per table and filter.
    An entity matches several filters when it matches each (a contradicted filter rules it
    out, an unsure one leaves it possible), so a conjunction's masks are these masks ANDed."""
    key = (column, op, value)
    masks = rows.matches.get(key)
    if masks is None:
        by_value, missing = rows.cells(column)
        if value == DONTCARE:
            masks = ((1 << len(rows)) - 1,) * 2
        elif op in ("=", ""):  # equality: the value's own rows, and those of its qualified forms unsure
            sure = by_value.get(value, 0) if isinstance(value, str) else 0
            possible = sure | missing
            if column in QUALIFIED_COLUMNS:
                for have, mask in by_value.items():
                    if qualified_form(column, have, value):
                        possible |= mask
            masks = (sure, possible)
        elif op in (">=", "<=") and isinstance(value, str):  # a bound: the cells on its side, in order
            values, at_most, at_least = rows.ordered(column)
            if op == ">=":
                k = bisect_left(values, value)
                sure = at_least[k] if k < len(values) else 0
            else:
                k = bisect_right(values, value)
                sure = at_most[k - 1] if k > 0 else 0
            masks = (sure, sure | missing)
        else:  # each distinct cell read once, as entity_match reads it
            sure, possible = 0, missing
            for have, mask in by_value.items():
                s, p = entity_match({column: have}, (column,), (value,), (op,))
                sure |= mask if s else 0
                possible |= mask if p else 0
            masks = (sure, possible)
        rows.matches[key] = masks
    return masks


@dataclass(frozen=True)
class Member:
    """Each of ``variables`` takes a value in ``allowed`` (with ``excluded``: a value not in it)."""

    variables: tuple[str, ...]
    allowed: frozenset[Value]
    excluded: bool = False

    def holds(self, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """Whether ``assignment`` satisfies the primitive."""
        return all((_plain(assignment[n]) in self.allowed) != self.excluded for n in self.variables)


@dataclass(frozen=True)
class AllEqual:
    """``variables`` all take one value."""

    variables: tuple[str, ...]

    def holds(self, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """Whether ``assignment`` satisfies the primitive."""
        return len({assignment[n] for n in self.variables}) <= 1


@dataclass(frozen=True)
class AllDifferent:
    """``variables`` take pairwise different values (a variable listed twice cannot)."""

    variables: tuple[str, ...]

    def holds(self, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """Whether ``assignment`` satisfies the primitive."""
        return len({assignment[n] for n in self.variables}) == len(self.variables)


@dataclass(frozen=True)
class Bound:
    """An integer bound: ``offset``, plus the value of the amount variable ``variable`` when
    given (that variable must then take an int)."""

    variable: str | None = None
    offset: int = 0

    def value(self, assignment: Mapping[str, Value]) -> int | None:
        """The bound under ``assignment``; ``None`` when its variable holds no int."""
        if self.variable is None:
            return self.offset
        x = assignment[self.variable]
        return x + self.offset if isinstance(x, int) and not isinstance(x, bool) else None


@dataclass(frozen=True)
class KbCount:
    """``lo ≤ |entities of KB table kb matching filters| ≤ hi`` (``hi`` ``None``: no upper bound).

    ``filters`` are ``(variable, column, op)`` with ``op`` in :data:`FILTER_OPS`. With unknown
    cells the count is ``sure..possible`` (module docstring): the primitive holds when
    ``max(sure, lo) ≤ min(possible, hi)``.
    """

    kb: str
    filters: tuple[tuple[str, str, str], ...]
    lo: Bound = Bound()
    hi: Bound | None = None

    def holds(self, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """Whether ``assignment`` satisfies the primitive."""
        lo = self.lo.value(assignment)
        hi = None if self.hi is None else self.hi.value(assignment)
        if lo is None or (self.hi is not None and hi is None):
            return False
        sure, possible = count_matches(
            csp.kbs.get(self.kb, []), [c for _, c, _ in self.filters], [assignment[n] for n, _, _ in self.filters],
            [op for _, _, op in self.filters],
        )
        return max(sure, lo) <= (possible if hi is None else min(possible, hi))

    @property
    def variables(self) -> tuple[str, ...]:
        """Every variable the primitive reads: the filters', then the bounds'."""
        bound_vars = [b.variable for b in (self.lo, self.hi) if b is not None and b.variable is not None]
        return tuple(n for n, _, _ in self.filters) + tuple(dict.fromkeys(bound_vars))


@dataclass(frozen=True)
class AnyOf:
    """At least one of ``parts`` holds (a disjunction; no parts: never holds). Each part is a
    :class:`Member`, :class:`AllEqual` or :class:`AllDifferent` literal."""

    parts: tuple[Member | AllEqual | AllDifferent, ...]

    def holds(self, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """Whether ``assignment`` satisfies the primitive."""
        return any(p.holds(assignment, csp) for p in self.parts)

    @property
    def variables(self) -> tuple[str, ...]:
        """Every variable a part reads (first occurrence order)."""
        return tuple(dict.fromkeys(n for p in self.parts for n in p.variables))


Primitive = Member | AllEqual | AllDifferent | KbCount | AnyOf


def _plain(value: Value) -> Value:
    """``True`` is no amount: keep a bool out of an int set (``True in {1}`` is true in Python)."""
    return repr(value) if isinstance(value, bool) else value
