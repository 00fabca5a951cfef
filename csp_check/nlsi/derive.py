"""Derive the call set and the applicable instructions (spec §1 "none": the solver derives).

The consistent call sets of an example are the assignments satisfying P1–P6; :func:`derive`
builds the least one directly, as a forward-chaining interpreter of the rules:

1. called domains = the requested ones (:meth:`Context.requested`), closed under also-rules (P6);
2. per called domain, the stated values (P3); a second domain reached through an also-rule
   shares the first call's location value on its location-like slot, unless an instruction of
   its own fills that slot (P4); with a release schema (``NlsiSchema.carry_same_names``) it
   first gets every value of the first call whose slot its service has by the same name, as
   the release's generator distributes a merged frame (``date`` of Events → ``date`` of
   Restaurants, not ``pickup_date`` of RentalCars), and the location only when it has no
   place yet, on a location slot of its chosen service;
3. domain-level rules fill unstated slots (P4); a slot with several preferred values gives one
   call per value (P5); chained rules then fire to a fixpoint inside each call (P4, MultiHop).

The same least call set is also a solver's answer: :func:`derive_with` takes ``interpreter``
(this module, the fast path) or a backend name (``cp-sat``, ``minizinc``), which solves the
lowered P1–P6 over a derive structure (:func:`csp_check.nlsi.lower.solve_derive`); both derive
the same calls on the data built from SGD dev and train (``benchmarks/nlsi.py --solver``).
:func:`solve_count` asks a solver whether the consistent choice of values per (call, slot) is
unique: the "several solutions = the profile leaves choices" of spec §4.
"""

from __future__ import annotations

import itertools

from csp_check.nlsi.families import Context
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.lower import count_choices, solve_derive
from csp_check.nlsi.models import ApiCall
from csp_check.nlsi.schema import LOCATION_SLOTS, normalize
from csp_check.nlsi.variants import service_slots

MAX_CALLS_PER_DOMAIN = 8
#: ``--solver`` value of the forward-chaining interpreter (:func:`derive`).
INTERPRETER = "interpreter"


def derive(ctx: Context) -> tuple[list[ApiCall], list[Rule]]:
    """The derived calls (sorted arguments) and the rules that fired (profile order)."""
    g = ctx.grounding
    fired: list[Rule] = []
    order: list[tuple[str, str | None]] = [(d, None) for d in ctx.requested()]
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
            release = ctx.schema.carry_same_names
            if release:
                _carry_same_names(ctx, source, d, calls, base)
            pool = service_slots(ctx.schema, d, ctx.rules, g.values.get(d, {})) if release else ctx.schema.domains[d]
            src_loc = next((v for c in calls if ctx.domain_of(c) == source for s, v in sorted(c.arguments) if s in LOCATION_SLOTS), None)
            loc_slot = next((s for s in sorted(pool) if s in LOCATION_SLOTS), None)
            ruled = loc_slot is not None and ctx.instructs(d, loc_slot)
            placed = release and any(s in LOCATION_SLOTS for s in base)  # the release: one place, carried or stated
            if src_loc is not None and loc_slot is not None and loc_slot not in base and not ruled and not placed:  # P4 wins
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


def _carry_same_names(ctx: Context, source: str, d: str, calls: list[ApiCall], base: dict[str, str]) -> None:
    """The release's carry-over (``NlsiSchema.carry_same_names``): fill ``base`` (the call of
    ``d`` reached from ``source``) with the first source call's values of the slots the chosen
    service of ``d`` also has by name (:func:`csp_check.nlsi.variants.service_slots`), except
    slots ``d`` states or an unconditioned instruction of ``d`` fills (P3, P4 win)."""
    src = next((c for c in calls if ctx.domain_of(c) == source), None)
    if src is None:
        return
    own = set(service_slots(ctx.schema, d, ctx.rules, base))
    for s, v in src.arguments:
        ruled = ctx.instructs(d, s)
        if s in own and s not in base and not ruled:
            base[s] = v


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


def derive_with(ctx: Context, solver: str = "interpreter") -> tuple[list[ApiCall], list[Rule]]:
    """:func:`derive` (``interpreter``), or the preferred solution of a solver backend
    (``cp-sat``, ``minizinc``, ``minizinc:gecode``; :func:`csp_check.nlsi.lower.solve_derive`:
    no call set when the lowered CSP has no solution). Raises
    :class:`~csp_check.errors.SolverUnavailable` when the backend is not installed."""
    if solver == INTERPRETER:
        return derive(ctx)

    out = solve_derive(ctx, solver=solver)
    return out.calls, out.rules


def solve_count(ctx: Context, calls: list[ApiCall], cap: int = 2, solver: str = "cp-sat") -> int:
    """Number (up to ``cap``) of consistent value choices for the arguments of ``calls``,
    counted by ``solver`` over the lowered P1–P6 (:func:`csp_check.nlsi.lower.count_choices`:
    methods and filled slots kept, each argument over its slot's candidates). Raises
    :class:`~csp_check.errors.SolverUnavailable` when the backend is not installed."""

    return count_choices(ctx, calls, solver=solver, cap=cap)
