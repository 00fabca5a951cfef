"""Values a user turn's belief state gains that no words of the dialogue so far name: the
corpus's candidates for indirect user requests (the paper's "around 500 out of over 10,000 user
utterances in the SGD dataset do not contain an explicit mention of the target slot value", §1).

For each user turn t and each value its state (after t) holds that the state in force before t
did not (a *gained* value; ``dontcare`` aside, which says no value; and a service call's argument
whose slot the state in force lacks, charged to the user turn before the call), the value is a
**candidate** when no utterance of turns 0…t names any of its alternatives in any known wording
(:func:`csp_check.iur.lexical.names_loosely`: the value, its spellings, word forms, numbers,
clock times, a true / false slot's cue in either polarity, the annotator's paraphrases, a name's
distinctive words, a one-letter typo) and no act of those turns gives it a span. A system's
offer the user accepts ("Yes, book it") is named by the system's turn and is no candidate.

A candidate is of **kind** ``implied`` when turn t's own words point to it
(:func:`csp_check.iur.lexical.evidence`: a hyponym or synonym swap, an elaboration of a party
size; the strategy is reported), and ``unsaid`` when nothing does: the annotation records a
value the user never gave (S1's business). The candidate's ``reason`` says which.

:func:`implied_values` is what S1 (:mod:`csp_check.families.s1_annotation_text`) reads; this
module imports nothing from :mod:`csp_check.families`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel, Field

from csp_check.corpora import profile_for
from csp_check.iur.lexical import evidence, is_boolean, names_loosely, strategies
from csp_check.language.normalize import normalize
from csp_check.models import Dialogue
from csp_check.score.split import half_of

Kind = Literal["implied", "unsaid"]
NO_VALUE = frozenset({"dontcare", "none", "not mentioned", "?", ""})


class Candidate(BaseModel):
    """A gained state value no words name (module docstring)."""

    dialogue_id: str
    source: str = Field("", description="the file the dialogue was read from")
    half: str = Field(description="work / check half of the dialogue id (csp_check.score.split)")
    turn: int
    domain: str
    slot: str
    value: str = Field(description="the state's value (its first alternative)")
    kind: Kind
    utterance: str
    previous: list[str] = Field(default_factory=list, description="the two turns before, 'speaker: text'")
    evidence: list[dict] = Field(default_factory=list, description="phrases of the turn pointing to the value")
    strategies: list[str] = Field(default_factory=list)
    reason: str = ""

    @property
    def slot_type(self) -> str:
        return f"{self.domain}.{self.slot}"


def gained(dialogue: Dialogue) -> Iterator[tuple[int, str, str, list[str]]]:
    """(turn, domain, slot, alternatives) of each value a user turn's state gains (module
    docstring), and of each service-call argument whose slot the state in force lacks (a call
    made at a system turn, charged to the user turn before it: what the system read from it)."""
    in_force: dict[str, dict[str, list[str]]] = {}
    last_user: int | None = None
    for turn in dialogue.turns:
        if turn.speaker != "user":
            for result in turn.kb_results:
                call = result.call
                if call is None or last_user is None:
                    continue
                for slot, value in call.parameters.items():
                    if not in_force.get(call.domain, {}).get(slot) and normalize(str(value)) not in NO_VALUE:
                        yield last_user, call.domain, slot, [str(value)]
                        in_force = {**in_force, call.domain: {**in_force.get(call.domain, {}), slot: [str(value)]}}
            continue
        last_user = turn.index
        for domain, slots in turn.state.items():
            for slot, values in slots.items():
                before = {normalize(v) for v in in_force.get(domain, {}).get(slot, [])}
                now = [v for v in values if normalize(v) not in NO_VALUE]
                if now and not ({normalize(v) for v in now} & before):
                    yield turn.index, domain, slot, now
        in_force = {**in_force, **{d: {**in_force.get(d, {}), **s} for d, s in turn.state.items()}}


def named_before(dialogue: Dialogue, turn: int, domain: str, slot: str, alternatives: list[str]) -> str | None:
    """The words of turns 0…``turn`` that name one of ``alternatives`` (module docstring), or ``None``."""
    forms = {normalize(a) for a in alternatives}
    values = dialogue.ontology.get(f"{domain}.{slot}", [])
    boolean = is_boolean(values) or forms <= {"true", "false", "yes", "no", "free"}
    for t in dialogue.turns[: turn + 1]:
        for act in t.acts:
            if act.domain == domain and act.slot == slot and act.span is not None and (
                    normalize(act.value or "") in forms or normalize(act.canonical or "") in forms):
                return t.utterance[act.span.start : act.span.end]
        for alt in alternatives:
            keys = ["True", "False"] if boolean else [alt]  # a true / false slot's cue in either polarity
            for key in keys:
                said = names_loosely(t.utterance, key, slot)
                if said is not None:
                    return said
    return None


def candidates(dialogue: Dialogue, only: set[tuple[int, str]] | None = None) -> list[Candidate]:
    """The dialogue's candidates (module docstring), in turn order; ``only``: just those of these
    (turn, slot type) pairs (S1 asks for its implicit variables' only)."""
    out: list[Candidate] = []
    half = half_of(dialogue.id)
    today = profile_for(dialogue).today
    for index, domain, slot, alternatives in gained(dialogue):
        if only is not None and (index, f"{domain}.{slot}") not in only:
            continue
        if named_before(dialogue, index, domain, slot, alternatives) is not None:
            continue
        turn = dialogue.turns[index]
        slot_type = f"{domain}.{slot}"
        values = dialogue.ontology.get(slot_type) or alternatives
        if normalize(alternatives[0]) == "free" and is_boolean(values):
            alternatives = ["yes"]
        year = today.year if today is not None else None
        found = evidence(turn.utterance, slot, list(values), dialogue.slot_descriptions.get(slot_type, ""), year)
        forms = {normalize(a) for a in alternatives}
        pointing = [e for e in found if {normalize(v) for v in e.values} & forms]
        kind: Kind = "implied" if pointing else "unsaid"
        if pointing:
            reason = "; ".join(f"{e.strategy}: {e.words!r} points to {alternatives[0]}" for e in pointing)
        else:
            reason = f"no words of turns 0-{index} name {alternatives[0]!r} and none of turn {index} point to it"
        previous = [f"{t.speaker}: {t.utterance}" for t in dialogue.turns[max(0, index - 2) : index]]
        out.append(Candidate(
            dialogue_id=dialogue.id, source=dialogue.source, half=half, turn=index, domain=domain, slot=slot, value=alternatives[0], kind=kind,
            utterance=turn.utterance, previous=previous,
            evidence=[{"words": e.words, "values": sorted(e.values), "strategy": e.strategy} for e in pointing],
            strategies=strategies(turn.utterance) if pointing else [], reason=reason,
        ))
    return out


def implied_values(dialogue: Dialogue, only: set[tuple[int, str]] | None = None) -> dict[tuple[int, str], Candidate]:
    """(turn, slot type) → candidate of the dialogue (of the pairs ``only``, when given), for S1:
    implied ones are reported for review with their reason, unsaid ones as values no text gives."""
    if only is not None and not only:
        return {}
    return {(c.turn, c.slot_type): c for c in candidates(dialogue, only)}
