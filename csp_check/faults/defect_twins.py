"""Pairs for the annotation-defect classes of issue 18 (:func:`csp_check.check.value_doubts.annotation_defect`),
in the form of :mod:`csp_check.faults.twins`: ``(dialogue, kb, rng) -> (fault, twin) | None``.
The *twin* keeps the text and spoils the annotation (no error of the dialogue: it must not be
flagged certain); the *fault* keeps the annotation and writes an error into the text at the
same place (it must be flagged certain).

=============  ==========================================================================
class          twin (an annotation defect) / fault (an error of the text)
=============  ==========================================================================
defect         a stated phone / postcode / train id whose act's span is moved to words
               that are no such value (another act's words, taken from it, or a function
               word of the turn) / the value's words become another entity's
time_role      a turn's leaving and arriving times ("leaves at 17:11 and arrives at 17:58")
               annotated with the two slots swapped / the arrival an hour later in the text
=============  ==========================================================================
"""

from __future__ import annotations

import random
import re

from csp_check.families.kb_common import KbFilterInstance
from csp_check.faults.twins import Generator, Pair, edit
from csp_check.language.certainty import FUNCTION_WORDS, not_a_value, time_role
from csp_check.models import ConstraintId, Dialogue, KnowledgeBase, Span, Variable
from csp_check.pipeline import dialogue_csp

WRITTEN = ("phone", "postcode", "trainID")


def claims(csp, dialogue: Dialogue, slots) -> list[tuple[KbFilterInstance, Variable]]:
    """(C5 instance, variable) for each system value of ``slots`` a C5 instance of its turn states
    with an act of the same span."""
    by_name = {v.name: v for v in csp.variables}
    return [(c, v) for c in csp.constraints if c.id is ConstraintId.C5 and isinstance(c, KbFilterInstance)
            for i, v in ((i, by_name[n]) for i, n in enumerate(c.variables))
            if v.speaker == "system" and v.turn == c.turn and v.span is not None and v.slot in slots
            and (not c.ops or c.ops[i] == "=")
            and any(a.span == v.span and a.slot == v.slot for a in dialogue.turns[v.turn].acts)]


def defect(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A stated phone / postcode / train id: its span moved to words that are none (twin), or
    its words replaced by another entity's value of the column (fault)."""
    csp = dialogue_csp(dialogue, kb)
    found = claims(csp, dialogue, WRITTEN)
    rng.shuffle(found)
    for c, v in found:
        t = dialogue.turns[v.turn]
        others = sorted({str(e.get(v.slot)) for e in csp.kbs[c.kb] if e.get(v.slot)} - {str(csp.assignment[v.name])})
        targets = [a.span for a in t.acts if a.span is not None and a.span != v.span and not_a_value(v.slot, t.utterance[a.span.start:a.span.end])]
        targets += [Span(start=m.start(), end=m.end()) for m in re.finditer(r"[a-z]+", t.utterance)
                    if m.group(0) in FUNCTION_WORDS and not v.span.start <= m.start() < v.span.end]
        if not others or not targets:
            continue
        to = rng.choice(targets)
        twin = dialogue.model_copy(deep=True)
        acts = twin.turns[v.turn].acts
        acts[:] = [a for a in acts if a.span != to]  # the words now annotated only as the slot
        for a in acts:
            if a.span == v.span and a.slot == v.slot:
                a.span = to
        fault = edit(dialogue, v.turn, v.span, rng.choice(others).upper() if v.slot == "trainID" else rng.choice(others))
        return fault, twin
    return None


def time_role_swap(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """A turn's leaving and arriving times, each after its verb and both stated by one C5
    instance: annotated swapped (twin), or the arrival written an hour later (fault; the train
    then has another arrival)."""
    csp = dialogue_csp(dialogue, kb)
    by_instance: dict[int, dict[str, Variable]] = {}
    for c, v in claims(csp, dialogue, ("leaveAt", "arriveBy")):
        by_instance.setdefault(id(c), {})[v.slot] = v
    for times in by_instance.values():
        if len(times) < 2:
            continue
        t = dialogue.turns[times["leaveAt"].turn]
        arrive = times["arriveBy"]
        said = t.utterance[arrive.span.start:arrive.span.end]
        if (not re.fullmatch(r"\d\d:\d\d", said) or said >= "23:00"
                or any(time_role(t.utterance, v.span) != ("leave" if s == "leaveAt" else "arrive") for s, v in times.items())):
            continue
        twin = dialogue.model_copy(deep=True)
        spans = {v.span for v in times.values()}
        for a in twin.turns[t.index].acts:
            if a.slot in times and a.span in spans:
                a.slot = "arriveBy" if a.slot == "leaveAt" else "leaveAt"
        later = f"{int(said[:2]) + 1:02d}{said[2:]}"
        return edit(dialogue, t.index, arrive.span, later), twin
    return None


GENERATORS: dict[str, Generator] = {"defect": defect, "time_role": time_role_swap}
