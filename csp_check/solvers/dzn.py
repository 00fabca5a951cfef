"""MiniZinc data (``.dzn``) of one dialogue for ``models/consistency.mzn``.

:func:`to_dzn` writes an :class:`~csp_check.solvers.encoding.IntEncoding` as the parameters the
model declares (the model's comments say what each one means). The MiniZinc backend solves with
exactly this text, and ``csp-check export-mzn`` writes it to a file, so the command line and the
Python API see the same instance.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from csp_check.models import ConstraintId
from csp_check.solvers.encoding import COUNT_OP_CODES, IntEncoding

#: The model file ``models/consistency.mzn``, through the symlink beside this module (a wheel
#: carries the file itself there, so an installed package finds it too).
MODEL_PATH = Path(__file__).parent / "consistency.mzn"

#: What to add to the model to find the most similar solution (exact VCA).
MAXIMISE_AGREEMENT = "solve maximize preference;\n"


def to_dzn(enc: IntEncoding) -> str:
    """The ``.dzn`` text of ``enc`` (MiniZinc indices are 1-based)."""
    n = len(enc.names)
    lines = [
        f"% dialogue {_comment(enc.dialogue_id)}: data for models/consistency.mzn (written by csp-check)",
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
        f"ON = {_bools(ConstraintId(f'C{k}') in enc.enabled for k in range(1, 7))};",
    ]
    c1_start, c1_var = _flatten(c.variables for c in enc.c1)
    lines += [
        f"N_C1 = {len(enc.c1)};",
        f"C1_START = {_ints(c1_start)};",
        f"C1_VAR = {_ints(v + 1 for v in c1_var)};",
        f"C1_AMOUNT = {_bools(c.allowed is None for c in enc.c1)};",
        f"C1_DOM = [{', '.join(_set(c.allowed or ()) for c in enc.c1)}];",
    ]
    for k, groups in (("C2", enc.c2), ("C3", enc.c3)):
        start, flat = _flatten(groups)
        lines += [f"N_{k} = {len(groups)};", f"{k}_START = {_ints(start)};", f"{k}_VAR = {_ints(v + 1 for v in flat)};"]
    lines += [
        f"ON_S1 = {_bools([ConstraintId.S1 in enc.enabled])[1:-1]};",
        f"N_S1 = {len(enc.s1)};",
        f"S1_VAR = {_ints(c.variable + 1 for c in enc.s1)};",
        f"S1_DOM = [{', '.join(_set(c.allowed) for c in enc.s1)}];",
    ]
    kb_start, rows = _flatten(enc.kb_rows)  # all tables stacked, row by row
    cells = [cell for row in rows for cell in row]
    q_start, filters = _flatten(q.filters for q in enc.queries)
    lines += [
        f"N_KB = {len(enc.kb_rows)};",
        f"KB_START = {_ints(kb_start)};",
        f"N_COL = {len(enc.columns)};  % columns: {_comment(', '.join(enc.columns))}",
        f"CELL = array2d(1..{kb_start[-1] - 1}, 1..{len(enc.columns)}, {_ints(cells)});",
        f"N_Q = {len(enc.queries)};",
        f"Q_KIND = {_ints(q.kind for q in enc.queries)};",
        f"Q_KB = {_ints(q.kb + 1 for q in enc.queries)};",
        f"Q_COUNT = {_ints(0 if q.count is None else q.count + 1 for q in enc.queries)};",
        f"Q_COP = {_ints(COUNT_OP_CODES[q.count_op] for q in enc.queries)};",
        f"Q_START = {_ints(q_start)};",
        f"F_VAR = {_ints(v + 1 for v, _ in filters)};",
        f"F_COL = {_ints(c + 1 for _, c in filters)};",
        f"F_OP = {_ints(q.op(f) for q in enc.queries for f in range(len(q.filters)))};",
    ]
    return "\n".join(lines) + "\n"


def _flatten(groups: Iterable[Sequence]) -> tuple[list[int], list]:
    """(1-based start offsets with a final end sentinel, concatenated members)."""
    start, flat = [1], []
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
