"""S1 (annotation against text): the value the belief state / a service call records for what
the user said is one the user's text states (spec §9, "text is the truth"). The reading of the
annotation is :mod:`csp_check.families.annotation_common`; an instance is ``x ∈ {recorded values}``, a set of
constants (``x ∈ ∅`` when the record omits a value the user gave).

Reading rules

- On by default, listed apart from C1–C6 (group ``annotation``); ``--constraints C1,…,C6``
  leaves S1 and S2 out.
- A spanned user inform's text is one of the forms of the value the belief state after its turn
  records, and of the argument of each service call made with it while the state kept that value
  (another wording added beside the user's, such as the "7:30 pm" a system confirmed, is no
  change).
- No claim for ``dontcare``, values the user never said (system proposals the user accepted), a
  later change (each mention meets the state after its own turn), text that refers ("the same
  day"), a choice ("10:15 or 9:15"), an implicit variable, or a call argument the dialogue never
  links to a surface form (ConvLab-3 unified SGD drops the canonical values).
- Word forms count as the value ("southern" / south, "colleges" / college, "4-stars" / 4,
  "after 19:45" / a leaveAt of 20:00, "3:30" / 15:30).
- Travel spans take the slot their words give ("from A to B", "to B from A", "leaving A",
  "departing from A", "going to B"; a return leg makes no claim): :mod:`csp_check.language.roles`.
- **Omissions**: a spanned user inform whose slot the belief state after its turn leaves empty
  while it tracks the domain (has another slot of it), and no later state records it before the
  user names that slot again (a value recorded a turn late is a delay, no claim), is ``x ∈ ∅``.
  Only slots the state has (MultiWOZ: its fixed ``semi`` / ``book`` slots per domain; SGD: any
  slot of the service); the user's only slot of a domain dropped from the state is one too.
- No omission claim for: ``dontcare`` in any wording ("any area", "doesn't matter"), negated
  values ("not in the north", "no Italian"), a yes/no question about an entity ("Is the Lensfield
  a 4 star hotel?", "Does it have free wifi?"; not "is there" / "do you have", which search), a
  fallback ("if the booking fails, how about 12:30"), a bare "yes" / "no" span, a name the user
  only asks about ("What is the postcode of the Curry Garden?"; a name the user chooses or books
  is claimed: "Cotto is fine", "please book the Ashley Hotel"), a name placing something else
  ("near the Cotto", "a taxi to the Golden Curry"), several names ("Churchill and Magdalene
  Colleges"), the generic "hotel" as the hotel type unless set against a guesthouse, a booking
  slot (people, day, time, stay) in a sentence that also informs another domain ("book the
  anatolia for 2 people", annotated as the train's), a value the state holds in the other role of
  the domain (departure / destination, one span annotated as both leaveAt and arriveBy) or, for a
  name, under another domain's non-name slot (a taxi's destination annotated as a restaurant
  name).
- A **stale value** ("actually, make it Tuesday" while the state keeps Monday) is a
  contradiction: each mention meets the state after its own turn. A change of mind in the text
  ("for 2. Actually, make that 3 people") gives the value S1 holds the state to.
- A **system confirmation** of a value the state lacks (SGD's default "a table for 2") meets the
  argument of the service call it leads to, or its next confirmation, unless the user names the
  slot in between.
"""

from __future__ import annotations

from typing import Mapping

from csp_check.families.primitives import Member
from csp_check.families.registry import Family, register
from csp_check.models import CSP, Constraint, Value, Variable


@register
class AnnotationText(Family):
    id = "S1"
    name = "annotation against text"
    description = "the belief state and service calls record what the user's text says"
    group = "annotation"

    def build(self, ctx) -> list[Constraint]:
        """The instances :func:`csp_check.families.annotation_common.annotation_constraints` reads off the dialogue."""
        from csp_check.families.annotation_common import annotation_constraints

        return list(annotation_constraints(ctx.dialogue, ctx.variables, ctx.lexicon, ctx.assignment))

    def satisfied(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP) -> bool:
        return all(assignment[n] in constraint.values for n in constraint.variables)

    def lower(self, constraint: Constraint, csp: CSP) -> list:
        return [Member(tuple(constraint.variables), frozenset(constraint.values))]

    def evidence_turns(self, constraint: Constraint) -> set[int]:
        """The turn whose state / call records the value."""
        return {constraint.turn} if constraint.turn is not None else set()

    def explain(self, constraint: Constraint, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        var = by_name[constraint.variables[0]]
        value, slot = assignment[var.name], var.slot_type
        span = f" [{var.span.start}:{var.span.end}] {var.text!r}" if var.span else ""
        record = constraint.record or "annotation"
        if not constraint.values:  # an omission: x ∈ ∅
            tracks = "" if record.endswith("yet,") else f"tracks {slot.split('.')[0]} but "
            return (f"turn {var.turn} the user says{span} ({slot}={value!r}); the {record} "
                    f"at turn {constraint.turn} {tracks}records no {slot}")
        recorded = " / ".join(repr(x) for x in constraint.values)
        if var.speaker == "system":  # a confirmation held to the call it leads to
            return (f"turn {var.turn} the system confirms{span} ({slot}={value!r}); the {record} "
                    f"at turn {constraint.turn} records {slot}={recorded}")
        return (f"turn {var.turn} the user says{span} ({slot}={value!r}); the {record} "
                f"at turn {constraint.turn} records {slot}={recorded}")
