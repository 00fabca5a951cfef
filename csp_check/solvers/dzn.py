"""MiniZinc data (``.dzn``) of one dialogue for ``csp_check/solvers/consistency.mzn``.

:func:`to_dzn` writes an :class:`~csp_check.solvers.encoding.IntEncoding` as the parameters the
model declares (the model's comments say what each one means). The MiniZinc backend solves with
exactly this text, and ``csp-check export-mzn`` writes it to a file, so the command line and the
Python API see the same instance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from csp_check.solvers.encoding import IntEncoding

#: The model file ``csp_check/solvers/consistency.mzn``, beside this module (package data: an installed
#: package finds it too).
MODEL_PATH = Path(__file__).parent / "consistency.mzn"

#: What to add to the model to find the most similar solution (exact VCA).
MAXIMISE_AGREEMENT = "solve maximize preference;\n"


def to_dzn(enc: IntEncoding) -> str:
    """The ``.dzn`` text of ``enc`` (MiniZinc indices are 1-based)."""
    n = len(enc.names)
    lines = [
        f"% dialogue {_comment(enc.dialogue_id)}: data for csp_check/solvers/consistency.mzn (written by csp-check)",
        f"BASE = {enc.base};",
        f"DONTCARE = {enc.dontcare};",
        f"MAX_AMOUNT = {enc.max_amount};",
        f"STRING = array1d(0..{len(enc.strings) - 1}, {_strings(enc.strings)});",
        f"N_VAR = {n};",
        f"NAME = {_strings(enc.names)};",
        f"SEARCH = {_bools(enc.search)};",
        f"USER = {_bools(enc.user)};",
        f"SAID = {_ints(enc.said)};",
        f"TYPED_DOM = [{', '.join(_set(d) for d in enc.typed_domains)}];",
        f"OPEN_DOM = [{', '.join(_set(d) for d in enc.open_domains)}];",
        f"TYPED = {'true' if enc.typed else 'false'};",
        f"N_FAMILY = {len(enc.families)};  % families: {_comment(', '.join(enc.families))}",
        f"ON = {_bools(enc.on(k) for k in range(len(enc.families)))};",
        f"N_MEM = {len(enc.members)};",
        f"MEM_FAMILY = {_ints(m.family + 1 for m in enc.members)};",
        f"MEM_VAR = {_ints(m.variable + 1 for m in enc.members)};",
        f"MEM_DOM = [{', '.join(_set(m.allowed) for m in enc.members)}];",
    ]
    for k, groups in (("EQ", enc.equal), ("DIFF", enc.different)):
        start, flat = _flatten(g.variables for g in groups)
        lines += [
            f"N_{k} = {len(groups)};",
            f"{k}_FAMILY = {_ints(g.family + 1 for g in groups)};",
            f"{k}_START = {_ints(start)};",
            f"{k}_VAR = {_ints(v + 1 for v in flat)};",
        ]
    kb_start, rows = _flatten(enc.kb_rows)  # all tables stacked, row by row
    cells = [cell for row in rows for cell in row]
    wider = [w for table in enc.kb_wider for row in table for w in row] if enc.kb_wider else [()] * len(cells)
    q_start, filters = _flatten(q.filters for q in enc.counts)
    lines += [
        f"N_KB = {len(enc.kb_rows)};",
        f"KB_START = {_ints(kb_start)};",
        f"N_COL = {len(enc.columns)};  % columns: {_comment(', '.join(enc.columns))}",
        f"CELL = array2d(1..{kb_start[-1] - 1}, 1..{len(enc.columns)}, {_ints(cells)});",
        f"WIDER = array2d(1..{kb_start[-1] - 1}, 1..{len(enc.columns)}, [{', '.join(_set(w) for w in wider)}]);",
        f"N_Q = {len(enc.counts)};",
        f"Q_FAMILY = {_ints(q.family + 1 for q in enc.counts)};",
        f"Q_KB = {_ints(q.kb + 1 for q in enc.counts)};",
        f"Q_LO_VAR = {_ints(0 if q.lo[0] is None else q.lo[0] + 1 for q in enc.counts)};",
        f"Q_LO = {_ints(q.lo[1] for q in enc.counts)};",
        f"Q_HAS_HI = {_bools(q.hi is not None for q in enc.counts)};",
        f"Q_HI_VAR = {_ints(0 if q.hi is None or q.hi[0] is None else q.hi[0] + 1 for q in enc.counts)};",
        f"Q_HI = {_ints(0 if q.hi is None else q.hi[1] for q in enc.counts)};",
        f"Q_START = {_ints(q_start)};",
        f"F_VAR = {_ints(v + 1 for v, _ in filters)};",
        f"F_COL = {_ints(c + 1 for _, c in filters)};",
        f"F_OP = {_ints(q.op(f) for q in enc.counts for f in range(len(q.filters)))};",
    ]
    or_start, lits = _flatten(c.literals for c in enc.clauses)
    lit_start, lit_vars = _flatten(lit.variables for lit in lits)
    lines += [
        f"N_OR = {len(enc.clauses)};",
        f"OR_FAMILY = {_ints(c.family + 1 for c in enc.clauses)};",
        f"OR_START = {_ints(or_start)};",
        f"N_LIT = {len(lits)};",
        f"LIT_KIND = {_ints(lit.kind for lit in lits)};",
        f"LIT_START = {_ints(lit_start)};",
        f"LIT_VAR = {_ints(v + 1 for v in lit_vars)};",
        f"LIT_DOM = [{', '.join(_set(lit.allowed) for lit in lits)}];",
    ]
    return "\n".join(lines) + "\n"


def _flatten(groups: Iterable[Sequence]) -> tuple[list[int], list]:
    """(1-based start offsets with a final end sentinel, concatenated members)."""
    start: list[int] = [1]
    flat: list = []
    for g in groups:
        flat.extend(g)
        start.append(start[-1] + len(g))
    return start, flat


def _ints(xs: Iterable[int]) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def _bools(xs: Iterable[bool]) -> str:
    return "[" + ", ".join("true" if x else "false" for x in xs) + "]"


def _set(xs: Iterable[int]) -> str:
    return "{" + ", ".join(str(x) for x in sorted(xs)) + "}"


def _strings(xs: Iterable[str]) -> str:
    return "[" + ", ".join(_string(x) for x in xs) + "]"


def _string(s: str) -> str:
    """A MiniZinc string literal; other control characters become spaces (labels only)."""
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + "".join(" " if ord(ch) < 32 else ch for ch in s) + '"'


def _comment(s: str) -> str:
    return " ".join(s.split())
