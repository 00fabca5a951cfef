"""The integer encoding of a CSP: the one translation both solver backends read.

CP-SAT (:mod:`csp_check.solvers.cpsat`) builds its model from an :class:`IntEncoding`, and the
MiniZinc data (:func:`csp_check.solvers.dzn.to_dzn`) is written from the same object, so the two
backends cannot drift apart. The semantics are those of :mod:`csp_check.check.evaluate` (spec §2, paper
§3.2). Each constraint is lowered by its family (:mod:`csp_check.families`) to the encoding
primitives (member of a set, all equal, all different, a KB count between bounds, a clause of
such literals: :class:`~csp_check.families.primitives.AnyOf`); the encoding holds primitives only, and ``csp_check/solvers/consistency.mzn`` states them as constraints.

**Value codes.** Every value becomes an ``int`` code so that equality of codes is equality of
:class:`~csp_check.models.Value` s (``3`` and ``"3"`` stay different, as in the checker):

- an ``int`` value (an amount) is its own code, but one above ``csp.max_amount`` (in no amount
  domain: a wrong count, "x5 = 1223364917") gets the next code after ``max_amount``, in order
  (:attr:`IntEncoding.big_ints`), so no code grows with a value;
- a ``str`` value gets a code ``>= base``, where ``base`` is larger than every int in play,
  in sorted order of the strings; ``"dontcare"`` always has a code (:attr:`IntEncoding.dontcare`);
- ``0`` in a KB cell means *missing column* (unknown; a KB cell is always a string, so it can
  never be confused with the amount ``0``);
- beside each cell, the codes of the values it is a qualified form of
  (:func:`~csp_check.families.primitives.covering_values`: ``modern european`` under
  ``european``), which an ``=`` filter *possibly* but not *surely* matches.

**Search variables and domains** (decided for csp-check; spec §3, docs/solvers.md):

- search variables are the CSP's variables with a ``span``; an implicit variable (``span`` is
  ``None``) is fixed to its value in ``csp.assignment``;
- an amount variable ranges over ``0..csp.max_amount``;
- a slot variable ranges over ``csp.domains[slot_type]`` when a family that types domains (C1:
  :attr:`~csp_check.families.registry.Family.types_domains`) is among ``families`` and has an
  instance in ``csp.constraints``, otherwise over the union of every value in ``csp.domains``
  and every slot variable's assigned value;
- ``fixed`` pins further variables (e.g. the whole assignment, to check it with a solver);
- an excluded member (``x ∉ S``) is stored as its complement among the codes of every domain.

No size depends on a value: an int outside ``0..max_amount`` (a phone number an LLM gave as a
count) is one small code, in its pinned domain only; a count bound of a pinned variable is the
constant it gives, and every bound is clamped to just past the counts it can meet (``-1`` /
the largest KB + 1, a variable's bound within ``max_amount`` more), which keeps every
comparison and keeps the numbers within a solver's integers (docs/robustness.md, "Counts").

Variables keep the order of ``csp.variables``; Python indices are 0-based (MiniZinc's are
1-based: :mod:`~csp_check.solvers.dzn` adds 1).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from csp_check import constraint_ids
from csp_check.errors import InvalidCSP
from csp_check.families import registry
from csp_check.families.primitives import DONTCARE, AllDifferent, AllEqual, AnyOf, KbCount, Member, covering_values
from csp_check.models import CSP, ConstraintId, Value, VariableKind


@dataclass(frozen=True)
class MemberInstance:
    """``x[variable] ∈ allowed`` (codes), posted when family ``family`` is on."""

    variable: int
    allowed: frozenset[int]
    family: int


@dataclass(frozen=True)
class GroupInstance:
    """All equal / all different over ``variables``, posted when family ``family`` is on."""

    variables: tuple[int, ...]
    family: int


@dataclass(frozen=True)
class CountInstance:
    """``lo ≤ |rows of KB kb matching filters| ≤ hi`` (:class:`~csp_check.families.primitives.KbCount`).

    ``filters`` are (variable, column) pairs, ``columns`` indexing :attr:`IntEncoding.columns`;
    ``ops`` per filter: OP_EQ, OP_GE (cell >= value) or OP_LE (cell <= value). A bound is
    ``(variable or None, offset)``: ``offset`` plus the value of that variable (which must then be
    an int, a code ``< base``); ``hi`` ``None``: no upper bound.
    """

    kb: int
    filters: tuple[tuple[int, int], ...]
    ops: tuple[int, ...]
    lo: tuple[int | None, int]
    hi: tuple[int | None, int] | None
    family: int

    def op(self, f: int) -> int:
        """The comparison of filter ``f``."""
        return self.ops[f] if f < len(self.ops) else OP_EQ

    @property
    def bound_variables(self) -> tuple[int, ...]:
        """The variables the bounds read (each must take an int)."""
        return tuple(dict.fromkeys(b[0] for b in (self.lo, self.hi) if b is not None and b[0] is not None))


#: Kinds of a clause literal (:class:`ClauseLiteral`).
LIT_MEMBER, LIT_EQUAL, LIT_DIFFERENT = 0, 1, 2


@dataclass(frozen=True)
class ClauseLiteral:
    """One literal of a clause: every variable in ``allowed`` (LIT_MEMBER; an excluded member
    is already the complement here), or the variables all equal (LIT_EQUAL) / pairwise different
    (LIT_DIFFERENT; ``allowed`` empty for both)."""

    kind: int
    variables: tuple[int, ...]
    allowed: frozenset[int] = frozenset()


@dataclass(frozen=True)
class ClauseInstance:
    """At least one of ``literals`` holds (:class:`~csp_check.families.primitives.AnyOf`; none:
    unsatisfiable), posted when family ``family`` is on."""

    literals: tuple[ClauseLiteral, ...]
    family: int


#: Filter comparisons (``KbFilterInstance.ops``, ``KbCount.filters``): ``=``, a lower bound (the KB cell ``>=`` the
#: variable's value) and an upper bound (``<=``). String codes are in sorted order of the
#: strings, so comparing codes compares strings (``HH:MM`` times as times), as the checker does.
OP_EQ, OP_GE, OP_LE = 0, 1, 2
OP_CODES = {"=": OP_EQ, "": OP_EQ, ">=": OP_GE, "<=": OP_LE}


@dataclass(frozen=True)
class IntEncoding:
    """A CSP with values as int codes and constraints as primitives (module docstring)."""

    dialogue_id: str
    names: tuple[str, ...]
    search: tuple[bool, ...]  # has a span: a search variable
    user: tuple[bool, ...]  # said by the user: kept first among equally similar solutions
    said: tuple[int, ...]  # code of the dialogue's own assignment, per variable
    typed_domains: tuple[tuple[int, ...], ...]  # domain when typed (sorted codes)
    open_domains: tuple[tuple[int, ...], ...]  # domain otherwise
    base: int  # codes < base are ints, codes >= base are strings
    strings: tuple[str, ...]  # strings[code - base]
    max_amount: int
    families: tuple[str, ...]  # every registered family id: the ``family`` index of an instance
    enabled: frozenset[ConstraintId]
    typed: bool  # slot variables take their typed domain (a typing family is on and has instances)
    members: tuple[MemberInstance, ...]
    equal: tuple[GroupInstance, ...]
    different: tuple[GroupInstance, ...]
    counts: tuple[CountInstance, ...]
    kb_names: tuple[str, ...]
    kb_rows: tuple[tuple[tuple[int, ...], ...], ...]  # per KB, per entity, per column: a code or 0
    columns: tuple[str, ...]
    # per KB, per entity, per column: the codes of the values the cell is a qualified form of
    # (an ``=`` filter of one possibly matches the entity; module docstring)
    kb_wider: tuple[tuple[tuple[frozenset[int], ...], ...], ...] = ()
    meta: dict[str, object] = field(default_factory=dict, compare=False)
    clauses: tuple[ClauseInstance, ...] = ()  # AnyOf instances (none in the dialogue families)
    big_ints: tuple[int, ...] = ()  # the ints above max_amount in play, sorted: codes max_amount + 1, …

    @property
    def dontcare(self) -> int:
        """Code of the ``dontcare`` filter value (matches every entity in a KB count)."""
        return self.code(DONTCARE)

    @property
    def domains(self) -> tuple[tuple[int, ...], ...]:
        """The domain each variable ranges over (codes)."""
        return self.typed_domains if self.typed else self.open_domains

    def on(self, family: int) -> bool:
        """Whether the family of index ``family`` (into :attr:`families`) is enabled."""
        return self.families[family] in self.enabled

    def code(self, value: Value) -> int:
        """The code of ``value``; ``KeyError`` if the value is not in the encoding's universe."""
        if isinstance(value, int):
            if value > self.max_amount and self.big_ints:
                return self.max_amount + 1 + _index(self.big_ints, value)
            if value >= self.base:
                raise KeyError(value)
            return value
        return self.base + _index(self.strings, value)

    def decode(self, code: int) -> Value:
        """The value a code stands for."""
        if code < self.base:
            return self.big_ints[code - self.max_amount - 1] if code > self.max_amount and self.big_ints else code
        return self.strings[code - self.base]

    def assignment(self, codes: Iterable[int]) -> dict[str, Value]:
        """Variable name → value of a solution given as codes in variable order."""
        return {name: self.decode(c) for name, c in zip(self.names, codes)}


def _index(strings: tuple, value: Value) -> int:

    i = bisect_left(strings, value)
    if i == len(strings) or strings[i] != value:
        raise KeyError(value)
    return i


def encode(
    csp: CSP,
    fixed: Mapping[str, Value] | None = None,
    families: Iterable[ConstraintId | str] | None = None,
) -> IntEncoding:
    """Encode ``csp`` as ints (module docstring), with ``fixed`` variables pinned to values.

    ``families`` switches constraint families on (default: every registered one; the others
    stay in the data, switched off: the ``ON`` flags of ``csp_check/solvers/consistency.mzn``). Raises
    :class:`InvalidCSP` when a constraint names a variable the CSP does not have, or a family
    cannot lower an instance (a C6 without its count variable);
    :class:`~csp_check.families.UnknownFamily` for an unregistered constraint id.
    """
    fixed = dict(fixed or {})
    # every family id (its index is an instance's ``family``), also of a group not imported yet
    registered = tuple(i.value for i in constraint_ids.ids())
    enabled = frozenset(ConstraintId(f) for f in (registered if families is None else families))
    fam_index = {fid: k for k, fid in enumerate(registered)}
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
    members_raw: list[tuple[int, frozenset, int, bool]] = []
    equal: list[GroupInstance] = []
    different: list[GroupInstance] = []
    counts_raw: list[tuple[KbCount, int]] = []
    clauses_raw: list[tuple[AnyOf, int, str]] = []
    typed = False
    for c in csp.constraints:
        family = registry.get(c.id)
        k = fam_index[family.id]
        for n in c.scope:
            var(n, c.id.value)
        try:
            primitives = family.lower(c, csp)
        except ValueError as e:
            raise InvalidCSP(str(e)) from None
        for p in primitives:
            if isinstance(p, Member):
                members_raw.extend((var(n, c.id.value), p.allowed, k, p.excluded) for n in p.variables)
                typed = typed or (family.types_domains and family.id in enabled)
            elif isinstance(p, AllEqual):
                equal.append(GroupInstance(tuple(var(n, c.id.value) for n in p.variables), k))
            elif isinstance(p, AllDifferent):
                different.append(GroupInstance(tuple(var(n, c.id.value) for n in p.variables), k))
            elif isinstance(p, KbCount):
                if p.kb not in kb_names:
                    kb_names.append(p.kb)
                for _, col, op in p.filters:
                    if col not in columns:
                        columns.append(col)
                    if op not in OP_CODES:
                        raise InvalidCSP(f"dialogue {csp.dialogue_id}: {c.id.value} has an unknown filter op {op!r}")
                counts_raw.append((p, k))
            elif isinstance(p, AnyOf):
                for part in p.parts:
                    if not isinstance(part, (Member, AllEqual, AllDifferent)):
                        raise InvalidCSP(f"dialogue {csp.dialogue_id}: {c.id.value} has a clause literal {part!r}")
                    for n in part.variables:
                        var(n, c.id.value)
                clauses_raw.append((p, k, c.id.value))
            else:
                raise InvalidCSP(f"dialogue {csp.dialogue_id}: {c.id.value} lowers to an unknown primitive {p!r}")

    # The universe of values: domains, assignment, fixed values, member sets, KB cells in used columns.
    slot_said = [said_values[i] for i, v in enumerate(csp.variables) if v.kind is VariableKind.SLOT]
    all_domain_values = sorted({x for vals in csp.domains.values() for x in vals})
    universe: set[Value] = {DONTCARE, *all_domain_values, *said_values, *pinned.values()}
    universe.update(x for _, allowed, _, _ in members_raw for x in allowed)
    universe.update(x for p, _, _ in clauses_raw for part in p.parts if isinstance(part, Member) for x in part.allowed)
    universe.update(e[col] for kb in kb_names for e in csp.kbs.get(kb, []) for col in columns if e.get(col))
    strings = tuple(sorted(x for x in universe if isinstance(x, str)))
    big_ints = tuple(sorted(x for x in universe if isinstance(x, int) and x > csp.max_amount))
    big_codes = {x: csp.max_amount + 1 + i for i, x in enumerate(big_ints)}
    base = csp.max_amount + 1 + len(big_ints)
    enc_strings = {s: base + i for i, s in enumerate(strings)}

    def code(value: Value) -> int:
        return big_codes.get(value, value) if isinstance(value, int) else enc_strings[value]

    amounts = tuple(range(0, csp.max_amount + 1))
    open_slot = tuple(sorted({code(x) for x in [*all_domain_values, *slot_said]}))
    typed_domains: list[tuple[int, ...]] = []
    open_domains: list[tuple[int, ...]] = []
    for i, v in enumerate(csp.variables):
        typed_dom: tuple[int, ...]
        opened: tuple[int, ...]
        if i in pinned:
            typed_dom = opened = (code(pinned[i]),)
        elif v.kind is VariableKind.AMOUNT:
            typed_dom = opened = amounts
        else:
            typed_dom = tuple(sorted({code(x) for x in csp.domains.get(v.slot_type, [])}))
            opened = open_slot
        typed_domains.append(typed_dom)
        open_domains.append(opened)

    kb_rows = tuple(
        tuple(tuple(code(e[col]) if e.get(col) else 0 for col in columns) for e in csp.kbs.get(kb, []))
        for kb in kb_names
    )
    kb_wider = tuple(
        tuple(tuple(frozenset(enc_strings[w] for w in covering_values(col, e.get(col) or "") if w in enc_strings)
                    for col in columns) for e in csp.kbs.get(kb, []))
        for kb in kb_names
    )

    rows = max([0, *(len(r) for r in kb_rows)])

    def lower_bound(b) -> tuple[int | None, int]:
        """A bound (module docstring): a pinned int variable's is a constant; clamped."""
        i = None if b.variable is None else var(b.variable, "a count bound")
        value = pinned.get(i) if i is not None else 0
        if i is None or isinstance(value, int) and not isinstance(value, bool):
            return None, min(max(b.offset + (value or 0), -1), rows + 1)
        reach = csp.max_amount + rows + 1
        return i, min(max(b.offset, -reach), reach)

    def bound(b) -> tuple[int | None, int] | None:
        return None if b is None else lower_bound(b)

    counts = tuple(
        CountInstance(
            kb_names.index(p.kb), tuple((var(n, "a count"), columns.index(col)) for n, col, _ in p.filters),
            tuple(OP_CODES[op] for _, _, op in p.filters), lower_bound(p.lo), bound(p.hi), k,
        )
        for p, k in counts_raw
    )
    # "not in a set" is "in its complement" among the codes a variable can take: every domain's
    # (not ``range(base + …)``: ``base`` follows the largest int in play, a phone number read as
    # a count would make that set a billion codes; docs/robustness.md "Counts")
    every_code = frozenset().union(*typed_domains, *open_domains)
    members = tuple(
        MemberInstance(i, every_code - {code(x) for x in allowed} if excluded else frozenset(code(x) for x in allowed), k)
        for i, allowed, k, excluded in members_raw
    )

    def literal(part) -> ClauseLiteral:
        vs = tuple(index[n] for n in part.variables)
        if isinstance(part, Member):
            allowed = frozenset(code(x) for x in part.allowed)
            return ClauseLiteral(LIT_MEMBER, vs, every_code - allowed if part.excluded else allowed)
        return ClauseLiteral(LIT_EQUAL if isinstance(part, AllEqual) else LIT_DIFFERENT, vs)

    clauses = tuple(ClauseInstance(tuple(literal(part) for part in p.parts), k) for p, k, _ in clauses_raw)
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
        families=registered,
        enabled=enabled,
        typed=typed,
        members=members,
        equal=tuple(equal),
        different=tuple(different),
        counts=counts,
        kb_names=tuple(kb_names),
        kb_rows=kb_rows,
        columns=tuple(columns),
        kb_wider=kb_wider,
        clauses=clauses,
        big_ints=big_ints,
    )
