"""Shared helpers of the NLSI tests: the hand-written schema and a compact example maker."""

from __future__ import annotations

from pathlib import Path

from csp_check.nlsi.models import Example, ReasoningType, StandingInstruction
from csp_check.nlsi.schema import load_schema
from support.data import SGD_DEV as SGD_DEV  # re-export: the NLSI tests build examples from it

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "nlsi"
SCHEMA_FILE = FIXTURES / "schema.json"


def schema():
    return load_schema([SCHEMA_FILE])


def example(utterance: str, profile: list[str], calls: list[str], applicable: list[str] | None = None,
            rtype: ReasoningType = ReasoningType.UNKNOWN, eid: str = "x", **meta) -> Example:
    return Example(
        example_id=eid,
        user_utterance=utterance,
        all_standing_instructions=[StandingInstruction(nl_instruction=p, instruction_id=i) for i, p in enumerate(profile)],
        applicable_standing_instructions=None if applicable is None else [StandingInstruction(nl_instruction=p) for p in applicable],
        api_calls=calls,
        reasoning_type=rtype,
        metadata=meta,
    )
