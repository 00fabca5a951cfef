"""Fault generators and true twins for the classes read on the NLSI release (issue 19).

Each kind takes a :class:`~csp_check.nlsi.families.Context`, consistent gold calls and a random
stream and returns a :class:`~csp_check.nlsi.faults.CallFault` (the faulty calls and the family
that must flag them) or None when the example has nothing of the class; its *twin*
(:func:`twin`) is a call set that looks changed in the same place but is still consistent, and
must not be flagged:

- ``free_value_moved`` (P3): a date, time or place the user stated in their own words is
  replaced by another of the same shape nobody said ("March 8th" → "March 9th", "10:45" →
  "11:45"). Twin: the same words re-cased ("march 8th").
- ``count_changed`` (P2: the new count is said by nobody; P3 as well unless another slot holds
  the stated one): a count the user stated ("tickets for 3 people") is replaced by another
  number nobody said (a possible value of a categorical count). Twin: the count as its number
  word ("three"), where the schema's aliases make it the same count and the slot allows it.
- ``place_cut`` (P3): a place the user stated in several words ("Anaheim, CA", "1850 El Camino
  Real", "London, England") cut to its first word ("Anaheim"): not what the user said. Twin: the
  same words without their commas ("Anaheim CA"), the same value once normalised.
- ``name_cut`` (P3): an entity name the user stated in several words (answered, accepted, or
  given with the domain's noun: "stay at Courtyard By Marriott Portland Airport hotel") cut to
  its first word ("Courtyard"): not the name the user said. Twin: the same name re-cased.
- ``carried_changed`` (P2): a value the second call of a MultiDomain chain carries from the
  first (same slot name, or the place) is replaced by a value nobody said or instructed.
  Twin: the carried value re-cased.
- ``asked_boolean`` (P2): a boolean the user only asks about an offer ("Is this a
  child-friendly museum?") set ``True`` in the call: asked, not wanted. Twin: the slot as a
  request marker (``good_for_kids="?"``), as SGD records the question; :func:`tally` leaves
  request markers out before checking, as :meth:`Checker.check` does.

The family named is the one the checker must report (flagged right in
``benchmarks/nlsi_release.py``); a twin flagged by any family is a false alarm. On the 175
shared examples no count has a number-word twin the schema allows (counts are categorical
digits there), so ``count_changed`` twins are none.
"""

from __future__ import annotations

import random
import re

from csp_check.nlsi.calls import without_requests
from csp_check.nlsi.check import Checker
from csp_check.nlsi.cues import slot_phrases
from csp_check.nlsi.families import Context
from csp_check.nlsi.faults import CallFault
from csp_check.nlsi.ground import offer_questions
from csp_check.nlsi.models import ApiCall, Example
from csp_check.nlsi.schema import NUMBER_WORDS, normalize

RELEASE_KINDS = ("free_value_moved", "count_changed", "carried_changed", "place_cut", "name_cut", "asked_boolean")
_PLACE_SLOTS = re.compile(r"city|location|destination|origin|where_to|area")
_NAME_SLOTS = re.compile(r"_name$|^title$")
_COUNT_SLOTS = re.compile(r"passengers|travelers|group_size|number_of|party_size|seats|tickets|riders|adults")
_DIGIT_WORDS = {d: w for w, d in NUMBER_WORDS.items() if w not in ("no", "single")}


def _shifted(value: str, ctx: Context) -> str | None:
    """``value`` with its first number moved by one (a date, time or count of the same
    shape), not said in the dialogue; None when it has no number."""
    m = re.search(r"\d+", value)
    if m is None:
        return None
    for step in (1, 2, -1):
        n = int(m.group()) + step
        if n <= 0:
            continue
        out = value[: m.start()] + str(n) + value[m.end() :]
        if not ctx.grounding.said(out):
            return out
    return None


def _free_stated(ctx: Context, call: ApiCall) -> list[str]:
    """Arguments of ``call`` the user stated for a free (non-categorical) slot, in their words,
    or for a count slot (categorical or not)."""
    d = ctx.domain_of(call)
    out: list[str] = []
    if d is None:
        return out
    for s, v in call.arguments:
        info = ctx.schema.slot(d, s)
        if info is not None and (not info.is_categorical or _COUNT_SLOTS.search(s)) \
                and ctx.same(d, s, ctx.grounding.stated(d, s), v):
            out.append(s)
    return out


def _carried(ctx: Context, calls: list[ApiCall]) -> list[tuple[int, str]]:
    """(call index, slot) of values a later call shares with the first call of another domain
    (same slot name, or a location the first call holds) that the user did not state for it
    and no instruction of its domain gives."""
    out = []
    first = ctx.domain_of(calls[0]) if calls else None
    src = {normalize(v) for _, v in calls[0].arguments} if calls else set()
    for i, c in enumerate(calls[1:], 1):
        d = ctx.domain_of(c)
        if d is None or d == first:
            continue
        for s, v in c.arguments:
            instructed = any(d in r.domains and r.action and r.action[0] == s for r in ctx.rules)
            if normalize(v) in src and ctx.grounding.stated(d, s) is None and not instructed:
                out.append((i, s))
    return out


def _with(calls: list[ApiCall], i: int, slot: str, value: str) -> list[ApiCall]:
    out = list(calls)
    out[i] = ApiCall(method=calls[i].method, arguments=tuple((s, value if s == slot else v) for s, v in calls[i].arguments))
    return out


def _added(calls: list[ApiCall], i: int, slot: str, value: str) -> list[ApiCall]:
    out = list(calls)
    out[i] = ApiCall(method=calls[i].method, arguments=tuple(sorted(calls[i].arguments + ((slot, value),))))
    return out


def _site(kind: str, ctx: Context, calls: list[ApiCall], rng: random.Random) -> tuple[int, str] | None:
    """Where ``kind`` applies: a (call index, slot) drawn with ``rng``, or None."""
    sites: list[tuple[int, str]] = []
    if kind == "carried_changed":
        sites = _carried(ctx, calls)
    elif kind == "asked_boolean":
        asked = offer_questions(" ".join(ctx.example.user_turns()))
        for i, c in enumerate(calls):
            d = ctx.domain_of(c)
            for s, info in sorted(ctx.schema.domains.get(d or "", {}).items()):
                if info.is_boolean and s not in c.args() and any(f" {normalize(p)} " in asked for p in slot_phrases(d or "", s)):
                    sites.append((i, s))
    elif kind == "place_cut":
        sites = [(i, s) for i, c in enumerate(calls) for s in _free_stated(ctx, c)
                 if _PLACE_SLOTS.search(s) and len(c.args()[s].replace(",", " ").split()) > 1]
    elif kind == "name_cut":
        sites = [(i, s) for i, c in enumerate(calls) for s in _free_stated(ctx, c)
                 if _NAME_SLOTS.search(s) and len(c.args()[s].split()) > 1]
    else:
        for i, c in enumerate(calls):
            for s in _free_stated(ctx, c):
                count = bool(_COUNT_SLOTS.search(s)) and c.args()[s].isdigit()
                if (kind == "count_changed") == count and re.search(r"\d", c.args()[s]):
                    sites.append((i, s))
    return rng.choice(sites) if sites else None


def make_release(kind: str, ctx: Context, calls: list[ApiCall], rng: random.Random) -> CallFault | None:
    """One fault of ``kind`` (module table) on consistent ``calls``, or None when not applicable."""
    site = _site(kind, ctx, calls, rng)
    if site is None:
        return None
    i, slot = site
    if kind == "asked_boolean":
        return CallFault(kind, _added(calls, i, slot, "True"), "P2", f"{calls[i].method}: {slot}='True' only asked")
    old = calls[i].args()[slot]
    d = ctx.domain_of(calls[i])
    if d is None:
        return None
    if kind == "carried_changed":  # the drawn site first, then the others: a slot with a value to change to
        sites = [(i, slot)] + [x for x in _carried(ctx, calls) if x != (i, slot)]
        new = None
        for i, slot in sites:
            d, old = ctx.domain_of(calls[i]) or d, calls[i].args()[slot]
            info = ctx.schema.slot(d, slot)
            pool = sorted(v for v in (info.values if info is not None else ())
                          if not ctx.grounding.said(v) and normalize(v) != normalize(old)
                          and not any(ctx.same(d, slot, v, w) for c in calls for _, w in c.arguments)
                          and not any(r.action and ctx.same(d, slot, r.action[1], v) for r in ctx.rules))
            if pool:
                new = rng.choice(pool)
                break
        family = "P2"
    elif kind in ("place_cut", "name_cut"):
        new, family = old.replace(",", " ").split()[0], "P3"
    else:
        new = _shifted(old, ctx)
        info = ctx.schema.slot(d, slot)
        if new is not None and info is not None and not ctx.schema.value_ok(d, slot, new):
            new = next((v for v in sorted(info.possible_values) if normalize(v) != normalize(old) and not ctx.grounding.said(v)), None)
        family = "P2" if kind == "count_changed" else "P3"
    if new is None:
        return None
    return CallFault(kind, _with(calls, i, slot, new), family, f"{calls[i].method}: {slot} {old!r} -> {new!r}")


def twin(kind: str, ctx: Context, calls: list[ApiCall], rng: random.Random) -> list[ApiCall] | None:
    """The consistent twin of ``kind`` (module table) on ``calls``, or None when not applicable."""
    site = _site(kind, ctx, calls, rng)
    if site is None:
        return None
    i, slot = site
    if kind == "asked_boolean":
        return _added(calls, i, slot, "?")
    old = calls[i].args()[slot]
    if kind == "count_changed":  # the number word, where the schema's aliases make it the same count
        word = _DIGIT_WORDS.get(old)
        d = ctx.domain_of(calls[i])
        ok = word and d and ctx.same(d, slot, word, old) and ctx.schema.value_ok(d, slot, word)
        return _with(calls, i, slot, word) if ok and word else None
    if kind == "place_cut":
        return _with(calls, i, slot, " ".join(old.replace(",", " ").split()))
    flipped = old.lower() if old != old.lower() else old.upper()
    return _with(calls, i, slot, flipped)


def tally(checker: Checker, example: Example, ctx: Context, calls: list[ApiCall], rng: random.Random,
          faults: dict[str, list[int]], twins: dict[str, list[int]]) -> None:
    """Inject each of :data:`RELEASE_KINDS` into one consistent gold call set ``calls`` and count:
    ``faults[kind]`` += [made, flagged inconsistent by the fault's family], ``twins[kind]`` +=
    [made, flagged inconsistent] (a flagged twin is a false alarm). What the release benchmarks
    (``benchmarks/nlsi_release.py``, ``benchmarks/nlsi_generator.py``) print."""
    for kind in RELEASE_KINDS:
        fault = make_release(kind, ctx, calls, rng)
        if fault is not None:
            report = checker.check_calls(example, fault.calls, ctx)
            faults[kind][0] += 1
            faults[kind][1] += report.status.value != "consistent" and any(
                v.family == fault.family for v in report.violations)
        good = twin(kind, ctx, calls, rng)
        if good is not None:
            twins[kind][0] += 1
            good = [without_requests(c) for c in good]  # a request marker is asked, not set: left out, as Checker.check does
            twins[kind][1] += checker.check_calls(example, good, ctx).status.value != "consistent"


def tally_lines(faults: dict[str, list[int]], twins: dict[str, list[int]]) -> list[str]:
    """One line per kind of :func:`tally`'s counts: share of faults flagged, twins flagged."""
    lines = []
    for kind in RELEASE_KINDS:
        (n, k), (tn, tk) = faults[kind], twins[kind]
        lines.append(f"  {kind:<18} flagged {100 * k / n if n else float('nan'):5.1f}% (n={n})   twins flagged {tk}/{tn}")
    return lines
