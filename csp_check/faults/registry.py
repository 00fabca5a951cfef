"""The kinds of fault injected into annotated dialogues: one table, name → what finds its places
(a chooser in a kind module) and the constraints that must catch it.

====================  ===================================================  =================  =======================
kind                  what changes                                         expected           module
====================  ===================================================  =================  =======================
amount                a number counting KB instances ("I found 10")        C6                 :mod:`.counts`
                      becomes another the KB contradicts ("I found 12")
kb_swap               a value the system offers / informs becomes another  C5 (C4, C6)        :mod:`.kb_swaps`
                      value of its slot such that no KB entity has the
                      utterance's values
coreference           one mention of a value mentioned several times       C2                 :mod:`.mentions`
                      becomes another value of its slot
duplicate             a value becomes the value of another same-slot       C3                 :mod:`.mentions`
                      variable of the same utterance ("A, B or C" →
                      "A, A or C")
listed_unknown        one of several listed entities becomes a name        C1 (C5)            :mod:`.kb_swaps`
                      neither the KB nor the annotation knows
listed_misfit         one of several listed entities becomes another KB    C5                 :mod:`.kb_swaps`
                      entity that does not fit what the user asked for
categorical           a categorical or boolean value's words state         C5 or C2           :mod:`.categorical`
                      another value ("it is free" → "it is not free",
                      "Economy" → "Business") that the entity, or another
                      mention, contradicts
amount_bound          a number counting KB instances becomes a bound the   C6                 :mod:`.counts`
                      KB count breaks ("I found 10" → "I found more than
                      10", "fewer than 10"; spec §2, ``Variable.amount_op``)
booking_detail        an entity detail stated in a booking confirmation    C5                 :mod:`.booking`
                      ("Your table is booked. Their number is …", "… and
                      pets are allowed") becomes a value the booked entity
                      does not have
boolean_answer        a short yes/no answer stating a boolean ("Do they    C5 or C2           :mod:`.categorical`
                      serve alcohol?" "No, they do not.") answers the
                      other way
reworded_date         a date said "March 9th" becomes another day in       C2, S1 (C1, C5)    :mod:`.dates`
                      other words ("the 10th of March";
                      :func:`~.dates.reword_date` with the same day is no
                      fault: ``tests/test_faults.py``)
coordinated_negation  a True boolean the system affirms ("it has wifi")    C5 or C2           :mod:`.negation`
                      becomes the second noun of a negated coordination
                      ("it does not have free parking and wifi", "has no
                      parking or wifi")
hedged_amount         a count the KB confirms ("I found 10") becomes an    C6                 :mod:`.counts`
                      approximation that misses it ("about 14": 14 ± 4;
                      :func:`~.counts.approximate_restatement` is the
                      no-fault twin)
relative_date         a date becomes a day next to it said relative to     C2, S1 (C1, C5)    :mod:`.dates`
                      the dialogue's today ("tomorrow" → "the day after
                      tomorrow", "March 2nd" → "this Sunday";
                      :func:`~.dates.relative_day`)
change_of_mind        a user's number the state records ("for 2") taken    S1                 :mod:`.change_of_mind`
                      back in the text alone: "… Actually, make that 3
                      people." added to the turn (state and calls keep 2)
restated_detail       a booking turn restates the party size in words no   C2 (C5, S1)        :mod:`.booking`
                      act annotates (" That is for 4 people." after
                      booking for 2; text only;
                      :func:`~.booking.faithful_restatement`: the no-fault
                      twin)
reworded_count        a count after a verb of finding ("I found 10") said  C6                 :mod:`.count_wordings`
                      in another wording with a number the KB
                      contradicts ("I came up with 12"; the true number:
                      :func:`~.count_wordings.count_wording_twins`)
rated_count           a rating on a scale put before a count's turn ("It   C6                 :mod:`.count_wordings`
                      is rated 87 out of 100. I found 12"): the count
                      changes, the rating's numbers are no count (the
                      true count: the no-fault twin)
failed_inform         in a turn reporting a failed transaction, a value    C5                 :mod:`.failure`
                      it informs of the entity ("Their address is …")
                      becomes one no entity has (the alternative it
                      proposes changed: the no-fault twin,
                      :func:`~.failure.proposed_alternative_twin`)
negated_unit          a number the system states with its unit ("has 1     C5 or C2           :mod:`.negation`
                      layover") said by negating the unit ("has no
                      layovers": 0; "has no layovers" for a stated 0 is
                      the no-fault twin, :func:`~.negation.negated_zero_twin`)
====================  ===================================================  =================  =======================

:func:`csp_check.faults.inject.inject` puts one of these into a dialogue. Raw-text faults
(:mod:`.raw_text`) and annotation faults (:mod:`.annotation`) have tables of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from csp_check.faults import (
    booking,
    categorical,
    change_of_mind,
    count_wordings,
    counts,
    dates,
    failure,
    kb_swaps,
    mentions,
    negation,
)
from csp_check.faults.model import Chooser, FaultKind
from csp_check.models import ConstraintId

C1, C2, C3, C4, C5, C6, S1 = (ConstraintId(i) for i in ("C1", "C2", "C3", "C4", "C5", "C6", "S1"))


@dataclass(frozen=True)
class Kind:
    """One kind of fault: its name, what lists its places in a CSP, the constraints one of which
    must flag it, and whether it exists in text only (a detail written where no act annotates it)."""

    name: FaultKind
    choose: Chooser
    expected: frozenset[ConstraintId]
    text_only: bool = False


#: Every kind, in the order benchmarks and tests run them.
REGISTRY: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("amount", counts.amount_choices, frozenset({C6})),
    Kind("kb_swap", kb_swaps.kb_swap_choices, frozenset({C4, C5, C6})),
    Kind("coreference", mentions.coreference_choices, frozenset({C2})),
    Kind("duplicate", mentions.duplicate_choices, frozenset({C3})),
    Kind("listed_unknown", kb_swaps.listed_unknown_choices, frozenset({C1, C5})),
    Kind("listed_misfit", kb_swaps.listed_misfit_choices, frozenset({C5})),
    Kind("categorical", categorical.categorical_choices, frozenset({C2, C5})),
    Kind("amount_bound", counts.amount_bound_choices, frozenset({C6})),
    Kind("booking_detail", booking.booking_detail_choices, frozenset({C5})),
    Kind("boolean_answer", categorical.boolean_answer_choices, frozenset({C2, C5})),
    Kind("reworded_date", dates.reworded_date_choices, frozenset({C1, C2, C5, S1})),
    Kind("coordinated_negation", negation.coordinated_negation_choices, frozenset({C2, C5})),
    Kind("hedged_amount", counts.hedged_amount_choices, frozenset({C6})),
    Kind("relative_date", dates.relative_date_choices, frozenset({C1, C2, C5, S1})),
    Kind("change_of_mind", change_of_mind.change_of_mind_choices, frozenset({S1})),
    Kind("restated_detail", booking.restated_detail_choices, frozenset({C2, C5, S1}), text_only=True),
    Kind("reworded_count", count_wordings.reworded_count_choices, frozenset({C6})),
    Kind("rated_count", count_wordings.rated_count_choices, frozenset({C6})),
    Kind("failed_inform", failure.failed_inform_choices, frozenset({C5})),
    Kind("negated_unit", negation.negated_unit_choices, frozenset({C2, C5})),
)}

KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
#: Kinds that exist in text only (a detail written where no act annotates it).
TEXT_ONLY: frozenset[str] = frozenset(name for name, kind in REGISTRY.items() if kind.text_only)
EXPECTED: dict[str, frozenset[ConstraintId]] = {name: kind.expected for name, kind in REGISTRY.items()}
