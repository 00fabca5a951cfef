"""P1–P6 as a CSP over (call, slot) values, solved by the shared backends (spec §4: "the CSP's
solutions are the consistent call sets").

A **call structure** (:class:`Structure`) fixes which calls may exist (one candidate per call,
with its domain) and gives every call one variable per slot of its domain (plus any other slot
it carries) and one *method* variable:

- ``c<i>.<slot>`` takes a normalised value (:func:`~csp_check.nlsi.schema.normalize`) or
  :data:`ABSENT` (the call has no such argument);
- ``c<i>.<method>`` takes the call's method, or :data:`NONE` (the candidate call is not made).

Finite domains come from the schema, the dialogue and the profile (:meth:`Structure.candidates`):
the value the user stated for the slot, the values instructions give it (actions and chain
conditions), categorical values the user said, and, for a location-like slot, the other calls'
location candidates; a given call set adds its own values. Each family of
:mod:`csp_check.nlsi.families` lowers its instances (``lower_calls(ctx, st)``) to the primitives of
:mod:`csp_check.families.primitives` (``Member``, ``AnyOf`` clauses of member literals, and an
``AllEqual`` literal for a derive preference); :func:`build_csp` wraps them as constraints of the
registry's ``profile`` group (:class:`csp_check.nlsi.families.base.ProfileFamily`), so
:func:`csp_check.solvers.encoding.encode` turns them into the one encoding CP-SAT and
``csp_check/solvers/consistency.mzn`` read.

Uses: :func:`lowered_holds` / :func:`solver_check` decide whether a given call set is a solution
(must equal the checker's verdict: ``tests/test_nlsi_lower.py``); :func:`solve_derive` finds the
preferred solution over a derive structure (the requested domains closed under also-rules,
enough candidate calls per domain for its preferences); :func:`count_choices` counts the value
choices of a derived call set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from math import factorial, prod

from csp_check.families import registry
from csp_check.families.primitives import AllEqual, AnyOf, Member
from csp_check.models import CSP, ActRole, ConstraintId, Span, Variable
from csp_check.nlsi.families.base import LoweredConstraint
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.models import ALL_FAMILIES, ApiCall
from csp_check.nlsi.schema import LOCATION_SLOTS, normalize
from csp_check.nlsi.variants import service_slots
from csp_check.solvers import check_assignment, count_solutions, most_similar

#: Value of a slot variable when the call has no such argument (``normalize`` never yields ``<``).
ABSENT = "<absent>"
#: Value of a method variable when the candidate call is not made.
NONE = "<none>"
#: At most this many candidate calls per domain in a derive structure.
MAX_CALLS_PER_DOMAIN = 8


@dataclass
class CallVars:
    """One candidate call of a structure: its method and domain, and its variables."""

    index: int
    method: str
    domain: str | None
    slots: dict[str, str] = field(default_factory=dict)  # slot -> variable (the last occurrence)
    extra: list[tuple[str, str]] = field(default_factory=list)  # (variable, slot) of earlier repeats

    @property
    def method_var(self) -> str:
        return f"c{self.index}.<method>"

    def all_vars(self) -> list[tuple[str, str]]:
        """(variable, slot) of every argument variable, repeats included."""
        return list(self.extra) + [(v, s) for s, v in self.slots.items()]


class Structure:
    """The variables and finite domains of one example and one call structure (module doc).

    ``calls`` given: the structure of that call set (each call exists), with
    :attr:`assignment` the call set's values. Otherwise ``domains`` lists ``(domain, n)``: ``n``
    candidate calls of each domain, each free to be made or not (derive).
    """

    #: :data:`ABSENT` and :data:`NONE`, for the family modules (which do not import this one).
    absent, none = ABSENT, NONE

    def __init__(self, ctx, calls: list[ApiCall] | None = None, domains: Iterable[tuple[str, int]] = ()):
        self.ctx = ctx
        self.derive = calls is None
        self.calls: list[CallVars] = []
        self.domain: dict[str, set[str]] = {}
        self.assignment: dict[str, str] = {}
        if calls is not None:
            for i, call in enumerate(calls):
                cv = CallVars(i, call.method, ctx.domain_of(call))
                slots = list(ctx.schema.domains.get(cv.domain, {})) if cv.domain else []
                seen: dict[str, int] = {}
                for k, (s, v) in enumerate(call.arguments):
                    if s in seen:
                        name = f"c{i}.{s}#{seen[s]}"
                        cv.extra.append((name, s))
                        self.assignment[name] = self.assignment.pop(cv.slots[s])
                        self.domain[name] = self.domain.pop(cv.slots[s])
                    seen[s] = k
                    cv.slots[s] = f"c{i}.{s}"
                    self.assignment[cv.slots[s]] = normalize(v)
                    self.domain[cv.slots[s]] = {normalize(v)}
                for s in slots:
                    if s not in cv.slots:
                        cv.slots[s] = f"c{i}.{s}"
                        self.assignment[cv.slots[s]] = ABSENT
                        self.domain[cv.slots[s]] = set()
                self.assignment[cv.method_var] = call.method
                self.domain[cv.method_var] = {call.method}
                self.calls.append(cv)
        else:
            for d, n in domains:
                for _ in range(n):
                    cv = CallVars(len(self.calls), f"Get{d}", d)
                    for s in ctx.schema.domains.get(d, {}):
                        cv.slots[s] = f"c{cv.index}.{s}"
                        self.domain[cv.slots[s]] = set()
                    self.domain[cv.method_var] = {cv.method, NONE}
                    self.calls.append(cv)
        for cv in self.calls:
            if cv.domain is None:
                continue
            for name, s in cv.all_vars():
                self.domain[name] |= {ABSENT, *self.candidates(cv.domain, s)}

    # -- domains -------------------------------------------------------------------------------

    def candidates(self, d: str, s: str) -> set[str]:
        """Normalised candidate values of ``d.s``: stated, given by an instruction (action or
        chain condition), categorical values said; for a location-like slot, also the location
        candidates of the structure's other domains (a second domain shares the first's); with
        the release's carry-over (``NlsiSchema.carry_same_names``), the candidates of the same
        slot name in the other domains."""
        out = self._own(d, s)
        if s in LOCATION_SLOTS:
            for cv in self.calls:
                if cv.domain and cv.domain != d:
                    for s2 in cv.slots:
                        if s2 in LOCATION_SLOTS:
                            out |= self._own(cv.domain, s2)
        if self.ctx.schema.carry_same_names:  # the release's carry-over: the same slot name elsewhere
            for cv in self.calls:
                if cv.domain and cv.domain != d and s in cv.slots:
                    out |= self._own(cv.domain, s)
        return out

    def _own(self, d: str, s: str) -> set[str]:
        ctx, g = self.ctx, self.ctx.grounding
        out = set()
        stated = g.stated(d, s)
        if stated is not None:
            out.add(normalize(stated))
        for r in ctx.rules:
            if d in r.domains:
                out |= {normalize(v) for slot, v in list(r.condition) + ([r.action] if r.action else []) if slot == s}
        info = ctx.schema.slot(d, s)
        if info is not None and info.is_categorical:
            out |= {normalize(v) for v in info.possible_values if g.said(v)}
        return {v for v in out if v}

    def values(self, var: str) -> list[str]:
        """The domain of ``var``, sorted."""
        return sorted(self.domain[var])

    # -- literals ------------------------------------------------------------------------------

    def of_domain(self, d: str) -> list[CallVars]:
        """The candidate calls of domain ``d``."""
        return [cv for cv in self.calls if cv.domain == d]

    def exists(self, cv: CallVars) -> Member:
        """``[the call is made]``."""
        return Member((cv.method_var,), frozenset({cv.method}))

    def missing(self, cv: CallVars) -> Member:
        """``[the call is not made]`` (never, for a given call set)."""
        return Member((cv.method_var,), frozenset({NONE}))

    def same_set(self, var: str, d: str, s: str, value: str) -> frozenset[str]:
        """The values of ``var`` equal to ``value`` for ``d.s`` (``Context.same``: canonical,
        normalised); never :data:`ABSENT`."""
        return frozenset(u for u in self.domain[var] if u != ABSENT and self.ctx.same(d, s, u, value))

    def same(self, var: str, d: str, s: str, value: str) -> Member:
        """``[var has value]`` (as ``Context.same`` compares)."""
        return Member((var,), self.same_set(var, d, s, value))

    def differs(self, var: str, d: str, s: str, value: str) -> Member:
        """``[var has not value]`` (absent included)."""
        return Member((var,), self.same_set(var, d, s, value), excluded=True)

    def is_value(self, var: str, value: str, excluded: bool = False) -> Member:
        """``[var = value]`` (one value of its domain) or its negation."""
        return Member((var,), frozenset({value}), excluded)


def lowered(ctx, st: Structure, families: Iterable[str] = ALL_FAMILIES) -> list[LoweredConstraint]:
    """Every family's instances over ``st``, lowered (the families' ``lower_calls``)."""
    out = []
    for fid in families:
        for label, prims in registry.get(fid).lower_calls(ctx, st):
            variables = list(dict.fromkeys(n for p in prims for n in p.variables))
            out.append(LoweredConstraint(id=ConstraintId(fid), variables=variables, primitives=tuple(prims), label=label))
    return out


def build_csp(ctx, st: Structure, constraints: list[LoweredConstraint], search: bool = True,
              preferred: dict[str, str] | None = None, user: Iterable[str] = ()) -> CSP:
    """The CSP of ``st``: one variable per structure variable (a search variable when
    ``search``, else fixed to :attr:`Structure.assignment`), ``domains`` per variable (its own
    slot type ``c<i>.<slot>``), ``assignment`` = ``preferred`` (what MAXIMISE agrees with)."""
    said = dict(st.assignment) if preferred is None else dict(preferred)
    user = set(user)
    variables = []
    for name, dom in st.domain.items():
        group, _, slot = name.partition(".")
        value = said.get(name, st.assignment.get(name, next(iter(sorted(dom)), ABSENT)))
        variables.append(Variable(name=name, turn=0, speaker="user" if name in user else "system", domain=group,
                                  slot=slot, role=ActRole.INFORM, span=Span(start=0, end=0) if search else None,
                                  value=value))
    return CSP(dialogue_id=str(ctx.example.example_id), variables=variables,
               domains={name: sorted(dom) for name, dom in st.domain.items()}, kbs={},
               constraints=list(constraints), assignment={v.name: v.value for v in variables}, max_amount=0)


def lowered_holds(constraints: list[LoweredConstraint], assignment: dict[str, str], csp: CSP | None = None) -> bool:
    """Whether ``assignment`` satisfies every lowered instance (no solver)."""
    return all(p.holds(assignment, csp) for c in constraints for p in c.primitives)


def solver_check(ctx, calls: list[ApiCall], solver: str = "cp-sat", families: Iterable[str] = ALL_FAMILIES) -> bool:
    """Whether the call set is a solution of its structure's CSP, decided by ``solver``
    (``cp-sat`` or ``minizinc``): every variable fixed to the call set's value."""

    st = Structure(ctx, calls)
    csp = build_csp(ctx, st, lowered(ctx, st, families))
    return check_assignment(csp, st.assignment, solver=solver).status.value == "satisfied"


# -- derive ---------------------------------------------------------------------------------------


def derive_domains(ctx) -> list[tuple[str, int]]:
    """The derive structure: the requested domains closed under also-rules (P3, P6), each with
    as many candidate calls as the most preferred values of one of its slots need (P5), at
    least one, at most :data:`MAX_CALLS_PER_DOMAIN`."""
    order = [d for d in ctx.requested() if d in ctx.schema.domains]
    i = 0
    while i < len(order):
        for r in ctx.rules:
            if r.also_domain and order[i] in r.domains and r.also_domain in ctx.schema.domains and r.also_domain not in order:
                order.append(r.also_domain)
        i += 1
    out = []
    for d in order:
        by_slot: dict[str, set[str]] = {}
        for r in ctx.rules:
            if r.action and not r.condition and d in r.domains:
                by_slot.setdefault(r.action[0], set()).add(normalize(r.action[1]))
        need = 1 + sum(len(v) - 1 for v in by_slot.values())
        out.append((d, max(1, min(need, MAX_CALLS_PER_DOMAIN))))
    return out


def _share_preferences(ctx, st: Structure) -> tuple[list[LoweredConstraint], dict[str, str]]:
    """The derive default "a domain reached through an also-rule (not requested itself) shares
    its source call's location", the source being the first domain of the derive order with an
    also-rule to it: for the source's first location-like slot the user states or an
    instruction fills, two indicator variables preferring
    ``yes`` (each counts once in the agreement, so sharing outweighs the one argument it adds)
    and the clause ``no, or the two locations are equal and present``. The clause never rules a
    call set out (``no``)."""
    cons, preferred = [], {}
    requested = set(ctx.requested())
    order = [cv.domain for cv in st.calls]
    for target in dict.fromkeys(order):
        if target in requested:
            continue
        source = next((d for d in dict.fromkeys(order) if d != target and any(
            r.also_domain == target and d in r.domains for r in ctx.rules)), None)
        if source is None:
            continue
        src = st.of_domain(source)[0]
        release = ctx.schema.carry_same_names
        pool = set(service_slots(ctx.schema, target, ctx.rules, ctx.grounding.values.get(target, {}))) if release else None
        carried = _carry_preferences(ctx, st, source, target, src, cons, preferred) if release else set()
        for tgt in st.of_domain(target):
            s2 = next((s for s in sorted(tgt.slots) if s in LOCATION_SLOTS and (pool is None or s in pool)), None)
            if s2 is None or ctx.grounding.stated(target, s2) is not None:
                continue
            if release and (carried & LOCATION_SLOTS or any(ctx.grounding.stated(target, s) is not None for s in LOCATION_SLOTS)
                            or ctx.instructs(target, s2)):
                continue  # the release: one place, carried or stated (derive._carry_same_names)
            forced = [s for s in sorted(src.slots) if s in LOCATION_SLOTS
                      and (ctx.grounding.stated(source, s) is not None or ctx.instructs(source, s))]
            for s1 in forced[:1]:  # the source's own location (stated or preferred), never one added to share
                _prefer_equal_present(st, cons, preferred, f"share{src.index}_{tgt.index}_{s1}", src.slots[s1],
                                      tgt.slots[s2], f"prefer: {tgt.method} shares {src.method}'s {s1}")
    return cons, preferred


def _carry_preferences(ctx, st: Structure, source: str, target: str, src: CallVars,
                       cons: list[LoweredConstraint], preferred: dict[str, str]) -> set[str]:
    """The release's carry-over as a derive preference (the interpreter's
    ``derive._carry_same_names``): per slot of the target's chosen service
    (:func:`csp_check.nlsi.variants.service_slots`) that the source states or an instruction of
    the source fills, and that the target neither states nor fills by an unconditioned
    instruction, two indicators preferring "the target's slot equals the source's, present".
    Returns the slots so carried."""
    own = set(service_slots(ctx.schema, target, ctx.rules, ctx.grounding.values.get(target, {})))
    carried: set[str] = set()
    for tgt in st.of_domain(target):
        for s in sorted(set(src.slots) & set(tgt.slots) & own):
            if ctx.grounding.stated(target, s) is not None or ctx.instructs(target, s):
                continue
            if ctx.grounding.stated(source, s) is None and not ctx.instructs(source, s, unconditioned=False):
                continue  # the source's own value (stated or instructed), never one added to share
            carried.add(s)
            _prefer_equal_present(st, cons, preferred, f"carry{src.index}_{tgt.index}_{s}", src.slots[s], tgt.slots[s],
                                  f"prefer: {tgt.method} carries {src.method}'s {s}")
    return carried


def _prefer_equal_present(st: Structure, cons: list[LoweredConstraint], preferred: dict[str, str], name: str,
                          source: str, target: str, label: str) -> None:
    """Two yes/no indicators ``NAME.0``, ``NAME.1``, preferred "yes": "yes" means the target
    variable equals the source's, and the source's is present (not ``ABSENT``)."""
    for k in range(2):
        z = f"{name}.{k}"
        st.domain[z] = {"yes", "no"}
        preferred[z] = "yes"
        prims = (AnyOf((st.is_value(z, "no"), AllEqual((source, target)))),
                 AnyOf((st.is_value(z, "no"), st.is_value(source, ABSENT, excluded=True))))
        cons.append(LoweredConstraint(id=ConstraintId("P2"), variables=[z, source, target], primitives=prims, label=label))


@dataclass
class Derived:
    """A derived call set: the calls, the rules that fired, the solver's status."""

    calls: list[ApiCall]
    rules: list[Rule]
    status: str
    assignment: dict[str, str] = field(default_factory=dict)


def solve_derive(ctx, solver: str = "cp-sat", time_limit: float = 10.0) -> Derived:
    """The preferred consistent call set over the derive structure (:func:`derive_domains`):
    the solution agreeing most with "no call made, no argument given, a stated value in the slot
    the grounding read it for" plus the location-sharing preference, i.e. the fewest calls and
    arguments P1–P6 require (MAXIMISE of the backends).
    Values are rendered in their stated or instruction wording."""

    st = Structure(ctx, domains=derive_domains(ctx))
    cons = lowered(ctx, st)
    share, pref = _share_preferences(ctx, st)
    preferred = {name: (NONE if name.endswith(".<method>") else ABSENT) for name in st.domain}
    for cv in st.calls:  # a stated value is preferred in the slot the grounding read it for
        for s, var in cv.slots.items():
            stated = ctx.grounding.stated(cv.domain, s)
            if stated is not None and normalize(stated) in st.domain[var]:
                preferred[var] = normalize(stated)
    preferred.update(pref)
    csp = build_csp(ctx, st, cons + share, preferred=preferred)
    res = most_similar(csp, solver=solver, time_limit=time_limit)
    if res.solution is None:
        return Derived([], [], res.status.value)
    calls = decode(ctx, st, res.solution)
    return Derived(calls, fired(ctx, calls), res.status.value, dict(res.solution))


def decode(ctx, st: Structure, solution: dict[str, str]) -> list[ApiCall]:
    """The calls a solution makes, arguments sorted, values in their stated / instruction
    wording (the first raw form normalising to the value)."""
    raw = _raw_forms(ctx)
    out: list[ApiCall] = []
    for cv in st.calls:
        if solution.get(cv.method_var) == NONE:
            continue
        args = tuple(sorted((s, raw.get((cv.domain, s, solution[v]), raw.get((None, None, solution[v]), solution[v])))
                            for s, v in cv.slots.items() if solution.get(v, ABSENT) != ABSENT))
        call = ApiCall(method=cv.method, arguments=args)
        if call not in out:
            out.append(call)
    return out


def _raw_forms(ctx) -> dict[tuple, str]:
    out: dict[tuple, str] = {}
    g = ctx.grounding
    for d, slots in g.values.items():
        for s, v in slots.items():
            out.setdefault((d, s, normalize(v)), v)
            out.setdefault((None, None, normalize(v)), v)
    for r in ctx.rules:
        for s, v in list(r.condition) + ([r.action] if r.action else []):
            for d in r.domains:
                out.setdefault((d, s, normalize(v)), v)
            out.setdefault((None, None, normalize(v)), v)
    for d, slots in ctx.schema.domains.items():
        for s, info in slots.items():
            for v in info.possible_values:
                out.setdefault((d, s, normalize(v)), v)
    return out


def fired(ctx, calls: list[ApiCall]) -> list[Rule]:
    """The rules a call set applies, in profile order: a value rule whose condition holds in a
    call that carries its value; an also-rule whose source domain and target are both called."""
    called = {ctx.domain_of(c) for c in calls}
    out = []
    for r in ctx.rules:
        if r.also_domain:
            if set(r.domains) & called and r.also_domain in called:
                out.append(r)
        elif r.action and any(ctx.condition_holds(r, c) and ctx.same(ctx.domain_of(c), r.action[0], c.args().get(r.action[0]), r.action[1])
                              for c in calls):
            out.append(r)
    return out


def count_choices(ctx, calls: list[ApiCall], solver: str = "cp-sat", cap: int = 2) -> int:
    """Number (up to ``cap``) of consistent call sets with the methods and filled slots of
    ``calls``: each argument ranges over its slot's candidates (:meth:`Structure.candidates`, and
    its own value), absent slots stay absent. 0 = ``calls`` itself is no solution's shape; one =
    the profile and the dialogue determine the values; several = the profile leaves choices
    (spec §4). Counted by the solver's enumeration (COUNT) of assignments: calls of one method
    with the same filled slots are interchangeable, so the ``p`` orderings of ``calls`` are one
    call set; more than ``p`` assignments means another call set (at least 2; beyond that the
    count is ``⌈assignments / p⌉``, exact when the other call sets have distinct calls too)."""

    st = Structure(ctx, calls)
    csp = build_csp(ctx, st, lowered(ctx, st))
    variables = []
    for v in csp.variables:
        present = st.assignment[v.name] != ABSENT and not v.name.endswith(".<method>")
        variables.append(v if present else v.model_copy(update={"span": None}))
    domains = {k: [x for x in vals if x != ABSENT] if st.assignment.get(k) != ABSENT else vals for k, vals in csp.domains.items()}
    csp = csp.model_copy(update={"variables": variables, "domains": domains})
    shapes = Counter((c.method, tuple(sorted({s for s, _ in c.arguments}))) for c in calls)
    rows = Counter((c.method, tuple(sorted((s, normalize(v)) for s, v in c.arguments))) for c in calls)
    perms = prod(factorial(n) for n in shapes.values()) // prod(factorial(n) for n in rows.values())
    total = count_solutions(csp, cap=perms * cap, solver=solver).count
    if total == 0:
        return 0
    return 1 if total <= perms else min(cap, max(2, -(-total // perms)))
