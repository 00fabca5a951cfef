"""The violations ``csp-check calls`` shows, as ``validate`` shows a dialogue's (``--show N``).

:class:`CallViolations` takes each example's report (a :class:`~csp_check.nlsi.models.CallReport`
as a JSON dict, as the workers return it), counts the violations by family and keeps the first
``show`` in input order; :meth:`CallViolations.lines` renders them::

    violations by family: P1 1, P2 1, P3 1, P4 1 (in 2 examples)
    First 2 violation(s) in full:
    1. bad P4  calls.jsonl
       the instruction applies (Doctors: if called then location=San Rafael) but the call has no location, ...
         call GetDoctors(type="Gynecologist")  argument location
         instruction: I'd like to get a Doctor in San Rafael if I can.
"""

from __future__ import annotations

from collections import Counter
from typing import Any


class CallViolations:
    """Counts by family and the first ``show`` violations (``show`` ≥ 0) of a ``calls`` run."""

    def __init__(self, show: int = 5) -> None:
        self.show = show
        self.by_family: Counter[str] = Counter()
        self.examples = 0  # examples with at least one violation
        self.kept: list[tuple[str, str | None, dict[str, Any]]] = []  # (example id, source, violation)

    def add(self, report: dict[str, Any]) -> None:
        """Count the violations of one report (``violations``: CallViolation dicts)."""
        violations = report.get("violations") or []
        if violations:
            self.examples += 1
        for violation in violations:
            self.by_family[violation["family"]] += 1
            if len(self.kept) < self.show:
                self.kept.append((str(report["example_id"]), report.get("source"), violation))

    def lines(self) -> list[str]:
        """The lines to print: none when nothing was violated."""
        if not self.by_family:
            return []
        total = sum(self.by_family.values())
        counts = ", ".join(f"{family} {n}" for family, n in sorted(self.by_family.items()))
        out = [f"violations by family: {counts} (in {self.examples} example{'s' if self.examples != 1 else ''})"]
        if not self.kept:
            return out
        if total > len(self.kept):
            out.append(f"First {len(self.kept)} of {total} violation{'' if total == 1 else 's'} in full (--show N for more):")
        else:
            out.append(f"First {len(self.kept)} violation{'' if len(self.kept) == 1 else 's'} in full:")
        for i, (example_id, source, v) in enumerate(self.kept, 1):
            out.append(f"{i}. {example_id} {v['family']}" + (f"  {source}" if source else ""))
            out.append(f"   {v['message']}")
            where = "  ".join(part for part in (f"call {v['call']}" if v.get("call") else "",
                                                f"argument {v['argument']}" if v.get("argument") else "") if part)  # fmt: skip
            if where:
                out.append(f"     {where}")
            if v.get("instruction"):
                out.append(f"     instruction: {v['instruction']}")
        return out
