"""Derive the call set and the applicable instructions (spec §1 "none": the solver derives).

The consistent call sets of an example are the assignments satisfying P1–P6; :func:`derive`
builds the least one directly, as a forward-chaining interpreter of the rules:

1. called domains = the requested ones, closed under also-rules (P6);
2. per called domain, the stated values (P3); a second domain reached through an also-rule
   shares the first call's location value on its location-like slot;
3. domain-level rules fill unstated slots (P4); a slot with several preferred values gives one
   call per value (P5); chained rules then fire to a fixpoint inside each call (P4, MultiHop).

:func:`solve_count` asks CP-SAT (ortools, optional) whether the consistent choice of values per
(call, slot) is unique: the "several solutions = the profile leaves choices" of spec §4.
"""

from __future__ import annotations

import itertools

from csp_check.nlsi.families import LOCATION_SLOTS, Context
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.models import ApiCall
from csp_check.nlsi.schema import normalize

MAX_CALLS_PER_DOMAIN = 8


def derive(ctx: Context) -> tuple[list[ApiCall], list[Rule]]:
    """The derived calls (sorted arguments) and the rules that fired (profile order)."""
    g = ctx.grounding
    fired: list[Rule] = []
    order: list[tuple[str, str | None]] = [(d, None) for d in g.domains]
    seen: set[str] = set()
    calls: list[ApiCall] = []
    i = 0
    while i < len(order):
        d, source = order[i]
        i += 1
        if d in seen or d not in ctx.schema.domains:
            continue
        seen.add(d)
        base = dict(g.values.get(d, {}))
        if source is not None:
            src_loc = next((v for c in calls if ctx.domain_of(c) == source for s, v in sorted(c.arguments) if s in LOCATION_SLOTS), None)
            loc_slot = next((s for s in sorted(ctx.schema.domains[d]) if s in LOCATION_SLOTS), None)
            if src_loc is not None and loc_slot is not None and loc_slot not in base:
                base[loc_slot] = src_loc
        mine = _expand(ctx, d, base, fired)
        calls += mine
        for r in ctx.rules:
            if r.also_domain and d in r.domains and r.also_domain not in seen:
                fired.append(r)
                order.append((r.also_domain, d))
    profile_order = {id(r): k for k, r in enumerate(ctx.rules)}
    fired = sorted({id(r): r for r in fired}.values(), key=lambda r: profile_order.get(id(r), 0))
    return calls, fired


def _expand(ctx: Context, d: str, base: dict[str, str], fired: list[Rule]) -> list[ApiCall]:
    prefs: dict[str, list[Rule]] = {}
    for r in ctx.rules:
        if r.action and not r.condition and d in r.domains and r.action[0] not in base:
            vals = prefs.setdefault(r.action[0], [])
            if all(normalize(x.action[1]) != normalize(r.action[1]) for x in vals):
                vals.append(r)
    slots = sorted(prefs)
    combos = list(itertools.islice(itertools.product(*(prefs[s] for s in slots)), MAX_CALLS_PER_DOMAIN))
    if len(combos) > 1:  # one call per preferred value, not the product (paper Table 1)
        multi = [s for s in slots if len(prefs[s]) > 1]
        single = {s: prefs[s][0] for s in slots if len(prefs[s]) == 1}
        combos = []
        for s in multi:
            for r in prefs[s]:
                pick = dict(single)
                pick.update({m: prefs[m][0] for m in multi})
                pick[s] = r
                combos.append(tuple(pick[x] for x in slots))
        combos = list(dict.fromkeys(combos))
    out: list[ApiCall] = []
    for combo in combos or [()]:
        args = dict(base)
        for r in combo:
            args[r.action[0]] = r.action[1]
            fired.append(r)
        changed = True
        while changed:
            changed = False
            for r in ctx.rules:
                if not r.action or not r.condition or d not in r.domains or r.action[0] in args:
                    continue
                if all(s in args and ctx.same(d, s, args[s], v) for s, v in r.condition):
                    args[r.action[0]] = r.action[1]
                    fired.append(r)
                    changed = True
        call = ApiCall(method=f"Get{d}", arguments=tuple(sorted(args.items())))
        if call not in out:
            out.append(call)
    return out


def solve_count(ctx: Context, calls: list[ApiCall], cap: int = 2) -> int:
    """Number (up to ``cap``) of value choices for the derived calls' slots satisfying P1–P6,
    found by CP-SAT: one Boolean per (call, slot, candidate value), exactly one per (call, slot),
    and each candidate allowed only if the families accept the call set it gives.

    Candidates per (call, slot): the derived value and the values other rules give the slot.
    Raises ``ImportError`` when ortools is not installed.
    """
    from ortools.sat.python import cp_model

    from csp_check.nlsi.families import violations

    model = cp_model.CpModel()
    choice: dict[tuple[int, str], list[tuple[str, object]]] = {}
    for i, c in enumerate(calls):
        d = ctx.domain_of(c)
        for s, v in c.arguments:
            cands = [v] + [r.action[1] for r in ctx.rules if r.action and r.action[0] == s and d in r.domains and normalize(r.action[1]) != normalize(v)]
            vars_ = [(val, model.NewBoolVar(f"c{i}_{s}_{k}")) for k, val in enumerate(dict.fromkeys(cands))]
            model.AddExactlyOne(x for _, x in vars_)
            choice[(i, s)] = vars_
    # forbid each single-value change that the families reject (a local check per variable)
    for (i, s), vars_ in choice.items():
        for val, x in vars_[1:]:
            alt = list(calls)
            alt[i] = ApiCall(method=calls[i].method, arguments=tuple((a, val if a == s else b) for a, b in calls[i].arguments))
            if violations(ctx, alt):
                model.Add(x == 0)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True

    class _Count(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1
            if self.n >= cap:
                self.StopSearch()

    counter = _Count()
    solver.Solve(model, counter)
    return counter.n
