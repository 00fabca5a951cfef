"""The integer encoding of a CSP: the one translation both solver backends read.

CP-SAT (:mod:`csp_check.solvers.cpsat`) builds its model from an :class:`IntEncoding`, and the
MiniZinc data (:func:`csp_check.solvers.dzn.to_dzn`) is written from the same object, so the two
backends cannot drift apart. The semantics are those of :mod:`csp_check.check` (spec §2, paper
§3.2); ``models/consistency.mzn`` states them as constraints.

**Value codes.** Every value becomes an ``int`` code so that equality of codes is equality of
:class:`~csp_check.models.Value` s (``3`` and ``"3"`` stay different, as in the checker):

- an ``int`` value (an amount) is its own code;
- a ``str`` value gets a code ``>= base``, where ``base`` is larger than every int in play,
  in sorted order of the strings; ``"dontcare"`` always has a code (:attr:`IntEncoding.dontcare`);
- ``0`` in a KB cell means *missing column* (unknown; a KB cell is always a string, so it can
  never be confused with the amount ``0``).

**Search variables and domains** (decided for csp-check, issue 3):

- search variables are the CSP's variables with a ``span``; an implicit variable (``span`` is
  ``None``) is fixed to its value in ``csp.assignment``;
- an amount variable ranges over ``0..csp.max_amount``;
- a slot variable ranges over ``csp.domains[slot_type]`` when C1 is enabled (some C1 constraint
  in ``csp.constraints`` and C1 among ``families``), otherwise over the union of every value in
  ``csp.domains`` and every slot variable's assigned value;
- ``fixed`` pins further variables (e.g. the whole assignment, to check it with a solver).

Variables keep the order of ``csp.variables``; Python indices are 0-based (MiniZinc's are
1-based: :mod:`~csp_check.solvers.dzn` adds 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from csp_check.check import DONTCARE
from csp_check.errors import CspCheckError
from csp_check.models import ALL_CONSTRAINTS, CSP, ConstraintId, Value, VariableKind


class InvalidCSP(CspCheckError):
    """A CSP the solvers cannot encode (a constraint names an unknown variable, C6 without x0)."""


@dataclass(frozen=True)
class C1Instance:
    """C1 over ``variables``: each in ``allowed`` (codes), or an amount in 0..max when ``None``."""

    variables: tuple[int, ...]
    allowed: frozenset[int] | None


@dataclass(frozen=True)
class S1Instance:
    """S1 over one user variable: its value must be one of ``allowed`` (codes of the fixed values
    the belief state / service call records)."""

    variable: int
    allowed: frozenset[int]


@dataclass(frozen=True)
class KbQuery:
    """One C4 / C5 / C6 instance: the KB rows matching ``filters`` (variable, column) pairs.

    ``kind`` is 4, 5 or 6; ``kb`` indexes :attr:`IntEncoding.kb_rows`; ``columns`` index
    :attr:`IntEncoding.columns`; ``count`` is C6's amount variable (``None`` otherwise).
    """

    kind: int
    kb: int
    filters: tuple[tuple[int, int], ...]
    count: int | None = None
    ops: tuple[int, ...] = ()  # per filter: OP_EQ, OP_GE (cell >= value) or OP_LE (cell <= value); () = all OP_EQ
    count_op: str = "="  # C6: the KB count compared with the amount (Variable.amount_op: =, >, >=, <, <=)

    def op(self, f: int) -> int:
        """The comparison of filter ``f``."""
        return self.ops[f] if f < len(self.ops) else OP_EQ


#: Filter comparisons (``Constraint.ops``): ``=``, a lower bound (the KB cell ``>=`` the
#: variable's value) and an upper bound (``<=``). String codes are in sorted order of the
#: strings, so comparing codes compares strings (``HH:MM`` times as times), as the checker does.
OP_EQ, OP_GE, OP_LE = 0, 1, 2
OP_CODES = {"=": OP_EQ, "": OP_EQ, ">=": OP_GE, "<=": OP_LE}
#: C6 count comparisons (``Variable.amount_op``) as MiniZinc's ``Q_COP`` codes.
COUNT_OP_CODES = {"=": 0, ">": 1, ">=": 2, "<": 3, "<=": 4}


@dataclass(frozen=True)
class IntEncoding:
    """A CSP with values as int codes (see the module docstring for the rules)."""

    dialogue_id: str
    names: tuple[str, ...]
    search: tuple[bool, ...]  # has a span: a search variable
    user: tuple[bool, ...]  # said by the user: kept first among equally similar solutions
    said: tuple[int, ...]  # code of the dialogue's own assignment, per variable
    typed_domains: tuple[tuple[int, ...], ...]  # domain when C1 is on (sorted codes)
    open_domains: tuple[tuple[int, ...], ...]  # domain when C1 is off
    base: int  # codes < base are ints, codes >= base are strings
    strings: tuple[str, ...]  # strings[code - base]
    max_amount: int
    enabled: frozenset[ConstraintId]
    c1: tuple[C1Instance, ...]
    c2: tuple[tuple[int, ...], ...]
    c3: tuple[tuple[int, ...], ...]
    queries: tuple[KbQuery, ...]
    kb_names: tuple[str, ...]
    kb_rows: tuple[tuple[tuple[int, ...], ...], ...]  # per KB, per entity, per column: a code or 0
    columns: tuple[str, ...]
    s1: tuple[S1Instance, ...] = ()
    meta: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def dontcare(self) -> int:
        """Code of the ``dontcare`` filter value (matches every entity in C4–C6)."""
        return self.code(DONTCARE)

    @property
    def typed(self) -> bool:
        """Whether slot variables take their C1 (typed) domain: C1 enabled and instantiated."""
        return ConstraintId.C1 in self.enabled and bool(self.c1)

    @property
    def domains(self) -> tuple[tuple[int, ...], ...]:
        """The domain each variable ranges over (codes)."""
        return self.typed_domains if self.typed else self.open_domains

    def code(self, value: Value) -> int:
        """The code of ``value``; ``KeyError`` if the value is not in the encoding's universe."""
        if isinstance(value, int):
            if value >= self.base:
                raise KeyError(value)
            return value
        return self.base + _index(self.strings, value)

    def decode(self, code: int) -> Value:
        """The value a code stands for."""
        return code if code < self.base else self.strings[code - self.base]

    def assignment(self, codes: Iterable[int]) -> dict[str, Value]:
        """Variable name → value of a solution given as codes in variable order."""
        return {name: self.decode(c) for name, c in zip(self.names, codes)}


def _index(strings: tuple[str, ...], value: str) -> int:
    from bisect import bisect_left

    i = bisect_left(strings, value)
    if i == len(strings) or strings[i] != value:
        raise KeyError(value)
    return i


def encode(
    csp: CSP,
    fixed: Mapping[str, Value] | None = None,
    families: Iterable[ConstraintId | str] = ALL_CONSTRAINTS,
) -> IntEncoding:
    """Encode ``csp`` as ints (module docstring), with ``fixed`` variables pinned to values.

    ``families`` switches constraint families on (the others stay in the data, switched off:
    the ``on`` flags of ``models/consistency.mzn``). Raises :class:`InvalidCSP` when a
    constraint names a variable the CSP does not have, or a C6 has no count variable.
    """
    fixed = dict(fixed or {})
    enabled = frozenset(ConstraintId(f) for f in families)
    index = {v.name: i for i, v in enumerate(csp.variables)}
    said_values = [csp.assignment.get(v.name, v.value) for v in csp.variables]
    pinned: dict[int, Value] = {i: said_values[i] for i, v in enumerate(csp.variables) if v.span is None}
    for name, value in fixed.items():
        if name not in index:
            raise InvalidCSP(f"dialogue {csp.dialogue_id}: cannot fix unknown variable {name!r}")
        pinned[index[name]] = value

    def var(name: str, constraint: str) -> int:
        if name not in index:
            raise InvalidCSP(f"dialogue {csp.dialogue_id}: {constraint} names unknown variable {name!r}")
        return index[name]

    kb_names: list[str] = []
    columns: list[str] = []
    raw_queries: list[tuple[int, str, list[tuple[int, str]], int | None, tuple[int, ...]]] = []
    c1_raw: list[tuple[tuple[int, ...], str | None]] = []
    c2: list[tuple[int, ...]] = []
    c3: list[tuple[int, ...]] = []
    s1_raw: list[tuple[int, list[str]]] = []
    for c in csp.constraints:
        ids = tuple(var(n, c.id.value) for n in c.variables)
        if c.id is ConstraintId.S1:  # explicit: no KB query (the catch-all below)
            s1_raw.extend((i, c.values) for i in ids)
        elif c.id is ConstraintId.C1:
            c1_raw.append((ids, c.slot_type))
        elif c.id is ConstraintId.C2:
            c2.append(ids)
        elif c.id is ConstraintId.C3:
            c3.append(ids)
        else:
            kb = c.kb or ""
            if kb not in kb_names:
                kb_names.append(kb)
            filters = list(zip(ids, c.columns))  # zip: as check.entity_match does
            for _, col in filters:
                if col not in columns:
                    columns.append(col)
            count = None
            if c.id is ConstraintId.C6:
                if not c.count_variable:
                    raise InvalidCSP(f"dialogue {csp.dialogue_id}: C6 without a count variable")
                count = var(c.count_variable, "C6")
            ops = tuple(OP_CODES[c.ops[i] if i < len(c.ops) else "="] for i in range(len(filters)))
            raw_queries.append((int(c.id.value[1]), kb, filters, count, ops))

    # The universe of values: domains, assignment, fixed values, KB cells in used columns.
    slot_said = [said_values[i] for i, v in enumerate(csp.variables) if v.kind is VariableKind.SLOT]
    all_domain_values = sorted({x for vals in csp.domains.values() for x in vals})
    universe: set[Value] = {DONTCARE, *all_domain_values, *said_values, *pinned.values()}
    universe.update(x for _, values in s1_raw for x in values)
    universe.update(e[col] for kb in kb_names for e in csp.kbs.get(kb, []) for col in columns if e.get(col))
    strings = tuple(sorted(x for x in universe if isinstance(x, str)))
    ints = [x for x in universe if isinstance(x, int)]
    base = max([csp.max_amount, *ints]) + 1
    enc_strings = {s: base + i for i, s in enumerate(strings)}

    def code(value: Value) -> int:
        return value if isinstance(value, int) else enc_strings[value]

    amounts = tuple(range(0, csp.max_amount + 1))
    open_slot = tuple(sorted({code(x) for x in [*all_domain_values, *slot_said]}))
    typed_domains: list[tuple[int, ...]] = []
    open_domains: list[tuple[int, ...]] = []
    for i, v in enumerate(csp.variables):
        if i in pinned:
            typed = opened = (code(pinned[i]),)
        elif v.kind is VariableKind.AMOUNT:
            typed = opened = amounts
        else:
            typed = tuple(sorted({code(x) for x in csp.domains.get(v.slot_type, [])}))
            opened = open_slot
        typed_domains.append(typed)
        open_domains.append(opened)

    kb_rows = tuple(
        tuple(tuple(code(e[col]) if e.get(col) else 0 for col in columns) for e in csp.kbs.get(kb, []))
        for kb in kb_names
    )
    queries = tuple(
        KbQuery(kind, kb_names.index(kb), tuple((v, columns.index(col)) for v, col in filters), count, ops,
                csp.variables[count].amount_op if count is not None else "=")
        for kind, kb, filters, count, ops in raw_queries
    )
    c1 = tuple(
        C1Instance(ids, None if st is None else frozenset(code(x) for x in csp.domains.get(st, [])))
        for ids, st in c1_raw
    )
    s1 = tuple(S1Instance(i, frozenset(code(x) for x in values)) for i, values in s1_raw)
    return IntEncoding(
        dialogue_id=csp.dialogue_id,
        names=tuple(v.name for v in csp.variables),
        search=tuple(i not in pinned for i in range(len(csp.variables))),
        user=tuple(v.speaker == "user" for v in csp.variables),
        said=tuple(code(x) for x in said_values),
        typed_domains=tuple(typed_domains),
        open_domains=tuple(open_domains),
        base=base,
        strings=strings,
        max_amount=csp.max_amount,
        enabled=enabled,
        c1=c1,
        c2=tuple(c2),
        c3=tuple(c3),
        queries=queries,
        kb_names=tuple(kb_names),
        kb_rows=kb_rows,
        columns=tuple(columns),
        s1=s1,
    )
