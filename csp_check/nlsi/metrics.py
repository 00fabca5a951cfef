"""Metrics of the NLSI paper §5.1 and Appendix B (spec §5), by reasoning type.

Interpretation: *exact match* — the predicted call set equals the gold one after the released
normalisation (lower case, punctuation removed, arguments compared as sets) and the numbers of
calls are equal; *slot F1* — F1 of the ``(method, slot, value)`` triple sets per example,
averaged. Selection: exact match and F1 of the predicted instruction set (lower-cased), counting
only predicted instructions present in the profile; *hallucination* — the share of predicted
instructions not in the profile.

*The release's metric* (the NLSI release's own scorer), the headline of ``calls --derive``:
each call set is lower-cased and flattened to a set of ``domain_slot=value`` items, calls
without arguments are ignored; exact match is set equality (``rel_em``), and ``rel_f1`` the F1 of
the item sets. Request markers ``slot="?"`` stay items, as in the scorer. In both metrics a
release method spelling (``GetDenists``, :data:`~csp_check.nlsi.schema.METHOD_ALIASES`) is read
as its domain, so a call spelled either way is the same call. Paper figures (test set, GPT-4, Table 2) are in :data:`PAPER`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.schema import METHOD_ALIASES, normalize

#: Paper Table 2, GPT-4 (interpretation EM / slot F1; selection EM / instruction F1).
PAPER = {
    "Direct": {"em": 42.0, "slot_f1": 67.9},
    "Select-And-Interpret": {"em": 40.2, "slot_f1": 73.2, "sel_em": 46.5, "sel_f1": 67.6},
    "ICL selection + interpretation": {"em": 44.7, "slot_f1": 75.5, "sel_em": 50.7, "sel_f1": 67.7},
    "BM25 selection": {"em": 11.8, "slot_f1": 40.8, "sel_em": 17.3, "sel_f1": 3.0},
    "Oracle instructions": {"em": 58.5, "slot_f1": 84.1},
}
#: Paper Table 5 (GPT-4) exact match per reasoning type: Oracle and ICL.
PAPER_BY_TYPE = {
    "NoneApplicable": {"oracle": 68.2, "icl": 62.6},
    "Plain": {"oracle": 77.9, "icl": 65.0},
    "MultiHop": {"oracle": 65.5, "icl": 57.9},
    "MultiPreference": {"oracle": 55.8, "icl": 38.2},
    "MultiDomain": {"oracle": 30.9, "icl": 7.6},
    "Conflict": {"oracle": 70.2, "icl": 22.3},
}


def call_key(text_or_call) -> tuple[str, frozenset[tuple[str, str]]]:
    """Normalised ``(method, {(slot, value)})`` of one call (string or ApiCall)."""
    call = text_or_call
    if isinstance(call, str):
        calls, _ = parse_calls([call])
        if not calls:
            return (normalize(call), frozenset())
        call = calls[0]
    return (normalize(_method(call.method)), frozenset((normalize(s), normalize(v)) for s, v in call.arguments))


def _method(method: str) -> str:
    """The method with a release spelling read as its domain's (``GetDenists`` → ``GetDentists``)."""
    return f"Get{METHOD_ALIASES[method]}" if method in METHOD_ALIASES else method


def _parsed(calls: list) -> list:
    out = []
    for c in calls:
        out += parse_calls([c])[0] if isinstance(c, str) else [c]
    return out


def release_items(calls: list) -> set[str]:
    """The release scorer's view of a call set: lower-cased ``domain_slot=value`` items; calls
    without arguments add nothing."""
    items = set()
    for c in _parsed(calls):
        method = _method(c.method)
        domain = method[3:] if method.startswith("Get") else method
        items |= {f"{domain}_{s}={v}".lower() for s, v in c.arguments}
    return items


def release_scores(pred: list, gold: list) -> tuple[bool, float]:
    """(exact match, F1) of two call sets under the release's metric (:func:`release_items`)."""
    p, g = release_items(pred), release_items(gold)
    return p == g, f1(p, g)


def _keys(calls: list) -> list:
    out = []
    for c in calls:
        if isinstance(c, str):
            parsed, _ = parse_calls([c])
            out += [call_key(p) for p in parsed] or [call_key(c)]
        else:
            out.append(call_key(c))
    return out


def exact_match(pred: list, gold: list) -> bool:
    """Same number of calls and the same set of normalised calls (paper App. B)."""
    p, g = _keys(pred), _keys(gold)
    return len(p) == len(g) and set(p) == set(g)


def triples(calls: list) -> set[tuple[str, str, str]]:
    """``(method, slot, value)`` triples of the calls, normalised."""
    return {(m, s, v) for m, args in _keys(calls) for s, v in args}


def f1(pred: set, gold: set) -> float:
    """F1 of two sets; 1.0 when both are empty."""
    if not pred and not gold:
        return 1.0
    tp = len(pred & gold)
    if not tp:
        return 0.0
    p, r = tp / len(pred), tp / len(gold)
    return 2 * p * r / (p + r)


def selection_scores(pred: list[str], gold: list[str], profile: list[str]) -> tuple[bool, float, float]:
    """(exact match, F1, hallucination share) of a predicted instruction selection."""
    prof = {normalize(x) for x in profile}
    p_all = [normalize(x) for x in pred]
    halluc = sum(x not in prof for x in p_all) / len(p_all) if p_all else 0.0
    p = {x for x in p_all if x in prof}
    g = {normalize(x) for x in gold}
    return p == g, f1(p, g), halluc


@dataclass
class Scores:
    """Running sums per reasoning type (and ``all``)."""

    n: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    sums: dict[str, dict[str, float]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))

    def add(self, rtype: str, **values: float) -> None:
        """Add one example's values (``rel_em``, ``rel_f1``, ``em``, ``slot_f1``, ``sel_em``, ``sel_f1``, ``halluc``)."""
        for key in (rtype, "all"):
            self.n[key] += 1
            for k, v in values.items():
                self.sums[key][k] += float(v)

    def table(self) -> dict[str, dict[str, float]]:
        """``{type: {metric: percent}}`` with ``n``."""
        return {t: {"n": self.n[t], **{k: round(100 * v / self.n[t], 1) for k, v in self.sums[t].items()}} for t in self.n}


def render_table(table: dict[str, dict[str, float]]) -> str:
    """A plain-text table by reasoning type with the paper's Table 5 figures beside ours."""
    cols = ["n", "rel_em", "rel_f1", "em", "slot_f1", "sel_em", "sel_f1", "halluc"]
    lines = [f"{'type':16} " + " ".join(f"{c:>7}" for c in cols) + "   paper EM (GPT-4 Oracle / ICL)"]
    order = [t for t in PAPER_BY_TYPE if t in table] + [t for t in table if t not in PAPER_BY_TYPE and t != "all"] + ["all"]
    for t in order:
        if t not in table:
            continue
        row = table[t]
        paper = PAPER_BY_TYPE.get(t)
        ref = f"{paper['oracle']:.1f} / {paper['icl']:.1f}" if paper else ("58.5 / 44.7 (Table 2; slot F1 84.1 / 75.5)" if t == "all" else "")
        lines.append(f"{t:16} " + " ".join(f"{row.get(c, float('nan')):>7}" for c in cols) + f"   {ref}")
    return "\n".join(lines)
