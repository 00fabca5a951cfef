"""C5's offers read against what was asked and what a group says (built by :func:`csp_check.families.c5_some_instance.claims`).

Reading rules

- An offer of an entity first named in its turn that states a value of a search column other
  than the user's filter of that column in force, said in the user's words ("somewhere in the
  centre" … "Frankie and Bennys is in the south"), with no no-result or failure in the turn, is
  checked against the user's filter too (:func:`against_request`): the entity must have it. After
  an earlier no-result, or under a filter the user lifted in words, the flag is for review.
- Names listed after "such as" / "including" in the sentence of a group's description ("several
  free churches in the centre , including All Saints Church , …") have the group's area and
  price range (:func:`group_values`); its kind word is looser ("churches, including … Old
  Schools") and is not given to them.
- Names coordinated in one sentence and then given a value together ("Curry Garden and Golden
  Curry are both in the centre", "X , Y and Z , all expensive"): a predicate after a coordinated
  subject is said of each (:data:`SHARED`, after the last name: "are", "both", "all", "each"),
  so each name has the sentence's values after it of :data:`SHARED_COLUMNS` (up to another name).
"""

from __future__ import annotations

import re

from csp_check.families.kb_common import KbFilterInstance, TableView
from csp_check.language.cues import sentence_of
from csp_check.models import ConstraintId, Variable, VariableKind

#: Words that introduce examples of a group just described ("churches in the centre, including X, Y").
EXAMPLES = re.compile(r"\b(?:such as|including|for example|for instance|like|e\.g\.)\s", re.I)
#: The columns a group's description gives each of its examples: where and at what price (a kind
#: word is looser: "churches, including … Old Schools").
GROUP_COLUMNS = ("area", "pricerange")
#: Words right after the last of names coordinated in a sentence that say the next values of each
#: ("X and Y are both cheap", "X and Y , both in the north", "X , Y and Z all serve indian food").
SHARED = re.compile(r"\s*,?\s*(?:(?:are|were)\s+(?:both|all|each)\b|(?:both|all|each)\b(?!\s+(?:day|week|year|night)\b)|"
                    r"are\s+(?:in|located|cheap|moderately|expensive|on)\b)", re.I)
#: The columns a value said of coordinated names gives each of them.
SHARED_COLUMNS = ("area", "pricerange", "food", "stars")
#: What joins coordinated names: a comma or "and" (with spaces).
JOINED = re.compile(r"\s*(?:,|and|, and)\s*", re.I)


def group_values(ctx, turn: int, listed: list[Variable], single: list[Variable]) -> dict[str, list[Variable]]:
    """Name variable → the values of :data:`GROUP_COLUMNS` its group's description states: names
    listed after "such as" / "including" (:data:`EXAMPLES`) in the sentence whose words before
    the marker give the value ("several free churches in the north , including All Saints
    Church , Holy Trinity Church"): each example has it (the other listed values of the turn
    are still checked with the request alone)."""
    utterance = ctx.dialogue.turns[turn].utterance
    out: dict[str, list[Variable]] = _shared(ctx, turn, utterance, listed, single)
    for v in listed:
        if v.span is None or v.turn != turn or not ctx.profile.names_entity(v.slot):
            continue
        start, _ = sentence_of(utterance, v.span)
        marker = next((m for m in EXAMPLES.finditer(utterance, start, v.span.start)), None)
        if marker is None:
            continue
        out[v.name] = [w for w in single if w.slot in GROUP_COLUMNS and w.turn == turn and w.span is not None
                       and start <= w.span.start and w.span.end <= marker.start()]
    return out


def _shared(ctx, turn: int, utterance: str, listed: list[Variable], single: list[Variable]) -> dict[str, list[Variable]]:
    """Name variable → the values said of each of names coordinated in one sentence ("X and Y are
    both in the centre": the module's rules)."""
    names = sorted(((v, v.span) for v in listed if v.span is not None and v.turn == turn and ctx.profile.names_entity(v.slot)),
                   key=lambda pair: pair[1].start)
    out: dict[str, list[Variable]] = {}
    for i in range(len(names) - 1):
        run = [names[i]]
        for w, span in names[i + 1:]:
            if not JOINED.fullmatch(utterance[run[-1][1].end : span.start]):
                break
            run.append((w, span))
        last = run[-1][1]
        if len(run) < 2 or any(n.name in out for n, _ in run) or not SHARED.match(utterance, last.end):
            continue
        _, end = sentence_of(utterance, last)
        later = [span.start for _, span in names if last.end <= span.start < end]
        stop = later[0] if later else end  # another name after: its own values
        values = [w for w in single if w.slot in SHARED_COLUMNS and w.turn == turn and w.span is not None
                  and last.end <= w.span.start and w.span.end <= stop]
        if values:
            out.update({n.name: values for n, _ in run})
    return out


def against_request(ctx, turn: int, kb_id: str, claims: list[Variable], asked: list[Variable]) -> list[KbFilterInstance]:
    """C5 of an offer against the request: a turn that names one entity first said there (an
    offer, not an answer about an entity already under discussion) and states a value of a search
    column other than the user's filter of that column in force, which a user turn's words said
    ("somewhere in the centre" … "Frankie and Bennys is in the south"): the entity must have the
    user's value too, so the instance is the name with the user's filter. Called only where the
    turn reports no no-result or failure (the offer is then an alternative); one after an earlier
    no-result, or under a filter the user lifted in words, is for review (check.certainty)."""
    profile = ctx.profile
    names = [v for v in claims if profile.names_entity(v.slot) and v.span is not None and v.turn == turn]
    if len({v.value for v in names}) != 1 or any(
            u.slot_type == names[0].slot_type and u.value == names[0].value and u.turn < turn for u in ctx.variables):
        return []
    out = []
    for v in claims:
        if (v.turn != turn or v.span is None or v.slot not in profile.search_columns or v.slot in profile.entity_columns
                or v.kind is not VariableKind.SLOT):
            continue
        for u in asked:
            if (u.slot == v.slot and u.speaker == "user" and u.span is not None and u.value != v.value
                    and u.value not in ("dontcare", "none", "") and ctx.kb_claim(kb_id, u)):
                out.append(KbFilterInstance(id=ConstraintId("C5"), variables=[names[0].name, u.name], turn=turn,
                                            table=TableView(base=kb_id), columns=[names[0].slot, u.slot], ops=["=", "="]))
    return out
