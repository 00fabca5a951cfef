"""What a fault is: its kind and mode, the record of one injected fault, and one trial of it.

A *chooser* (one per kind, in the kind modules of :mod:`csp_check.faults`) lists the places a
fault of its kind can be put in a dialogue's CSP, as :data:`Choice` triples;
:func:`csp_check.faults.inject.inject` draws one and writes it into the dialogue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

from csp_check.models import CSP, ConstraintId, Dialogue, Variable

FaultKind = Literal[
    "amount", "kb_swap", "coreference", "duplicate", "listed_unknown", "listed_misfit", "categorical", "amount_bound",
    "booking_detail", "boolean_answer", "reworded_date", "coordinated_negation", "hedged_amount", "relative_date",
    "change_of_mind", "restated_detail", "reworded_count", "rated_count",
    "failed_inform", "negated_unit",
]
#: ``text``: the utterance alone changes; ``annotated``: the act's value changes with it.
Mode = Literal["text", "annotated"]
MODES: tuple[Mode, ...] = ("text", "annotated")

#: (target variable, its new text, its new canonical value as an annotation would write it)
Choice = tuple[Variable, str, str]
#: The places of one kind of fault in a CSP: ``(csp, allowed, dialogue)`` → choices. ``allowed``:
#: in annotated mode, the variables whose C2 survives an annotated change; ``None`` in text mode.
Chooser = Callable[[CSP, "set[str] | None", Dialogue], list[Choice]]


class Fault(BaseModel):
    """What :func:`~csp_check.faults.inject.inject` changed: where, from what to what, and which
    constraints must flag it."""

    kind: FaultKind
    mode: Mode
    dialogue_id: str
    turn: int
    variable: str
    old_text: str
    new_text: str
    expected: frozenset[ConstraintId]


class Trial(BaseModel):
    """One injected fault and the constraints the checker found broken in the faulty dialogue."""

    fault: Fault
    found: frozenset[ConstraintId]
    #: the constraints found broken with a certain reading (``Violation.certain``)
    certain: frozenset[ConstraintId] = frozenset()

    @property
    def flagged(self) -> bool:
        return bool(self.found)

    @property
    def right(self) -> bool:
        """Flagged by one of the constraints this kind of fault must break."""
        return bool(self.found & self.fault.expected)

    @property
    def flagged_certain(self) -> bool:
        """Flagged by a certain violation: a claim, not a reading for review."""
        return bool(self.certain)
