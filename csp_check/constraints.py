"""Constraint builder (stub being written)."""
from typing import Literal
from pydantic import BaseModel
from csp_check.models import ALL_CONSTRAINTS, CSP, ConstraintId, DelexicalizedDialogue, Dialogue, KnowledgeBase


class BuildOptions(BaseModel):
    enabled: frozenset[ConstraintId] = frozenset(ALL_CONSTRAINTS)
    count_filter: Literal["state", "utterance"] = "state"


def build_csp(dialogue: Dialogue, delex: DelexicalizedDialogue, kb: KnowledgeBase | None, options: BuildOptions) -> CSP:
    return CSP(dialogue_id=dialogue.id, variables=delex.variables, domains={}, kbs={}, constraints=[], assignment={}, max_amount=10)
