"""The annotator's entry point: :func:`annotate` reads a raw-text dialogue turn by turn."""

from __future__ import annotations

from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.belief import user_acts
from csp_check.annotate.memory import Memory, remember
from csp_check.annotate.system_turn import system_acts
from csp_check.models import Dialogue, KnowledgeBase, Turn


def annotate(dialogue: Dialogue, kb: KnowledgeBase) -> Dialogue:
    """A copy of ``dialogue`` whose turns carry acts with character spans found in their text.

    Every turn's ``acts`` (and ``state``: the belief state after each user turn; on a system
    turn that counts, the search its count is about) are replaced by what matching ``kb`` (and
    ``dialogue.ontology``) against the utterances finds; see the :mod:`csp_check.annotate`
    docstring for the rules and limits (spec §5, raw text). ``kb_results`` are kept; ``domains``
    is filled from the acts when empty. Never raises on a well-formed dialogue; a dialogue whose
    text names nothing comes back with no acts.
    """
    annotator = annotator_for(kb, dialogue.ontology)
    memory = Memory()
    turns: list[Turn] = []
    for turn in dialogue.turns:
        acts, bounds = annotator.acts_in_context(turn.utterance, turn.speaker, memory)
        if turn.speaker == "system":
            acts, new_state = system_acts(annotator, turn.utterance, acts, bounds, memory, turns)
        else:
            acts, new_state = user_acts(annotator, turn.utterance, acts, memory)
        remember(acts, memory, turn.speaker, turn.utterance)
        turns.append(turn.model_copy(update={"acts": acts, "state": new_state}))
    domains = dialogue.domains or list(dict.fromkeys(a.domain for t in turns for a in t.acts))
    return dialogue.model_copy(update={"turns": turns, "domains": domains})
