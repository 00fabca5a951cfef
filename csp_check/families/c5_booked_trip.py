"""C5 for a booked trip's own details: a booking confirmation that names one trip by its id
("I booked TR1071 , the last train before 10:45 ( arrives 10:38 )", "TR8531 arrives at
birmingham new street station at 19:44 . The cost is 75.10 GBP per ticket") says what that
trip is, as an offer does: its times, its duration, its fare per ticket. The id names one row
of the table (``CorpusProfile.trip_id_column``), so a detail that row lacks is an error of the
text whatever was asked (issue 18's attack: a train's time or price said with its id, false for
that id).

Reading rules

- A system turn with one trip id (with a span) and a booked or informed time of the trip's
  (``CorpusProfile.trip_times``) said as a clock time, not as a bound ("arrives by 10:30":
  :func:`csp_check.language.cues.time_bound_op`), a duration, or a fare said per ticket
  ("per ticket", "each", "a ticket"; a total for the party is the fare times the party, not
  the row's): one C5 instance, the id and those details.
- The turn's other values (the booking's people, its reference, the stations' words) are no
  detail of the row here; they are checked as before.
"""

from __future__ import annotations

import re

from csp_check.families.kb_common import KbFilterInstance, TableView
from csp_check.language.cues import sentence_of, time_bound_op
from csp_check.language.normalize import clock_time
from csp_check.models import ActRole, ConstraintId, Variable, VariableKind

#: Words that say a fare is of one ticket, not the party's total.
PER_TICKET = re.compile(r"\b(?:per (?:ticket|person|seat|passenger)|each|a ticket|one ticket|a seat)\b", re.I)
#: Words that say a fare is the party's total.
TOTAL = re.compile(r"\btotal\b|\baltogether\b|\bin all\b", re.I)


def booked_trip(ctx, turn: int, kb_id: str, columns: set[str], mine: list[Variable]) -> list[KbFilterInstance]:
    """C5: the one trip id a booking turn names, with the details of its row the turn says (the
    module's rules); ``[]`` when the turn names no trip id, several, or no such detail."""
    profile = ctx.profile
    id_column = profile.trip_id_column
    if not id_column or id_column not in columns:
        return []
    ids = [v for v in mine if v.slot == id_column and v.span is not None and v.kind is VariableKind.SLOT]
    if len({str(ctx.assignment.get(v.name)) for v in ids}) != 1 or not ctx.kb_claim(kb_id, ids[0]):
        return []
    utterance = ctx.dialogue.turns[turn].utterance
    times = {c for pair in profile.trip_times for c in pair}
    details = []
    for v in mine:
        if (v.kind is not VariableKind.SLOT or v.span is None or v.role not in (ActRole.BOOKED, ActRole.INFORM)
                or v.slot not in columns or not ctx.kb_claim(kb_id, v)):
            continue
        said = ctx.assignment.get(v.name)
        if v.slot in times:
            if isinstance(said, str) and clock_time(said) and not time_bound_op(utterance, v.span):
                details.append(v)
        elif v.slot == profile.duration_column:
            details.append(v)
        elif v.slot == profile.fare_column:
            start, end = sentence_of(utterance, v.span)
            if PER_TICKET.search(utterance[start:end]) and not TOTAL.search(utterance[start:end]):
                details.append(v)
    if not details:
        return []
    group = [ids[0], *details]
    return [KbFilterInstance(
        id=ConstraintId("C5"), variables=[v.name for v in group], turn=turn, table=TableView(base=kb_id),
        columns=[v.slot for v in group], ops=["="] * len(group),
        reading=[f"the booked {id_column} {ids[0].value!r} with the details its row must have"],
    )]
