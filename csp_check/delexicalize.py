"""Delexicalizer (stub being written)."""
from csp_check.models import DelexicalizedDialogue, Dialogue


def delexicalize(dialogue: Dialogue) -> DelexicalizedDialogue:
    return DelexicalizedDialogue(dialogue_id=dialogue.id, source=dialogue.source, variables=[],
                                 turns=[t.utterance for t in dialogue.turns], speakers=[t.speaker for t in dialogue.turns])
