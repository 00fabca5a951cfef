"""The paper's metrics, defined once: GCA, VCA and constraint coverage (paper §4, Tables 2–5;
spec §3; docs/metrics.md).

Reading rules

- **GCA** (global consistency accuracy) = consistent dialogues / checked dialogues.
- **VCA** (variable consistency accuracy) = Σ variables agreeing with the most similar solution
  / Σ variables, over the dialogues scored. The variables are the *search* variables (those
  with a span, what a relexicalizer fills; implicit variables, annotated but not written, are
  fixed context and count on neither side); a CSP without a solution adds 0 agreeing.
- **coverage** of a constraint = variables in the scope of at least one of its instances /
  all variables, each variable counted once per dialogue and constraint. Which variables count
  is the caller's *scope* (:class:`CoverageScope`): ``validate`` counts every variable of the
  CSP (implicit ones too: a corpus check sees them all), the experiment's Table 2 counts the
  paper's variables only, the masked spans (:attr:`CoverageScope.SEARCH`).

Every ratio is ``None`` when its denominator is 0 (nothing to measure).
"""

from __future__ import annotations

from enum import Enum

from csp_check.models import CSP


class CoverageScope(str, Enum):
    """Which variables a coverage figure counts (numerator and denominator alike)."""

    ALL = "all"  # every variable of the CSP, implicit ones included (csp-check validate)
    SEARCH = "search"  # the variables with a span: the paper's masks (the experiment's Table 2)


def ratio(part: int | float, whole: int | float) -> float | None:
    """``part / whole``; ``None`` when ``whole`` is 0."""
    return part / whole if whole else None


def gca(consistent: int, checked: int) -> float | None:
    """Global consistency accuracy: ``consistent / checked`` dialogues (``None`` if none checked)."""
    return ratio(consistent, checked)


def vca(agreeing: int, variables: int) -> float | None:
    """Variable consistency accuracy: ``agreeing / variables`` (``None`` without variables)."""
    return ratio(agreeing, variables)


def coverage(covered: int, variables: int) -> float | None:
    """The share of ``variables`` under a constraint (``None`` without variables)."""
    return ratio(covered, variables)


def scope_variables(csp: CSP, scope: CoverageScope = CoverageScope.ALL) -> set[str]:
    """The names of the variables ``scope`` counts in ``csp``."""
    if scope is CoverageScope.SEARCH:
        return {v.name for v in csp.variables if v.span is not None}
    return {v.name for v in csp.variables}


def constraint_coverage(csp: CSP, scope: CoverageScope = CoverageScope.ALL) -> dict[str, int]:
    """Constraint id → number of distinct variables of ``scope`` under any of its instances.

    Sorted by id; a constraint with instances but none of its variables in ``scope`` maps to 0.
    """
    counted = scope_variables(csp, scope)
    covered: dict[str, set[str]] = {}
    for c in csp.constraints:
        covered.setdefault(c.id.value, set()).update(n for n in c.scope if n in counted)
    return {cid: len(names) for cid, names in sorted(covered.items())}
