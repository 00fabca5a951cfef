"""Data model of the NLSI task (spec §2, paper §2): instructions, profiles, API calls, examples.

All models are pydantic v2; :class:`Example` is also the line format of our own JSONL (its JSON
Schema is ``csp_check/schema/nlsi_example.schema.json``, written by
``python -m csp_check.nlsi.readers --write-schema``).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ReasoningType(str, Enum):
    """The six reasoning types of the paper's Table 1 (spec §3); ``unknown`` when unlabelled."""

    NONE_APPLICABLE = "NoneApplicable"
    PLAIN = "Plain"
    MULTI_HOP = "MultiHop"
    MULTI_PREFERENCE = "MultiPreference"
    CONFLICT = "Conflict"
    MULTI_DOMAIN = "MultiDomain"
    UNKNOWN = "unknown"


#: Released generation labels → reasoning type (spec §3). Labels are only a hint.
GENERATION_LABELS = {
    "simple_default": ReasoningType.PLAIN,
    "domain_conditional": ReasoningType.PLAIN,
    "chains_waterfall": ReasoningType.MULTI_HOP,
    "chains_if_a_then_b_c": ReasoningType.MULTI_HOP,
    "chains_domains": ReasoningType.MULTI_DOMAIN,
}


class StandingInstruction(BaseModel):
    """One natural-language standing instruction of a profile (NLSI field names)."""

    model_config = ConfigDict(frozen=True)
    nl_instruction: str
    instruction_id: str | int | None = None
    instruction_src: str | None = None


#: About how many characters of a call a violation shows (:meth:`ApiCall.shown`).
SHOWN_CHARS = 300


class ApiCall(BaseModel):
    """One API call ``GetDomain(slot="value", ...)``: ``method`` and ordered ``arguments``.

    ``arguments`` is a list of ``(slot, value)`` pairs (a slot may repeat in malformed data;
    the families see every pair). ``text`` is the string it was parsed from, if any.
    """

    model_config = ConfigDict(frozen=True)
    method: str
    arguments: tuple[tuple[str, str], ...] = ()
    text: str | None = None

    @property
    def domain(self) -> str:
        """The method without its ``Get`` prefix (``GetHotels`` → ``Hotels``)."""
        return self.method[3:] if self.method.startswith("Get") else self.method

    def args(self) -> dict[str, str]:
        """The arguments as a dict (the last value wins when a slot repeats)."""
        return dict(self.arguments)

    def render(self) -> str:
        """``GetDomain(slot="value", ...)`` with ``"`` and ``\\`` escaped; arguments in order."""
        inner = ", ".join(f'{s}="{_escape(v)}"' for s, v in self.arguments)
        return f"{self.method}({inner})"

    def shown(self, limit: int = SHOWN_CHARS) -> str:
        """The call as a violation or an error shows it: :meth:`render` when it is at most about
        ``limit`` characters, else its first arguments and ``… (N arguments)``. Costs
        ``O(limit)`` whatever the number of arguments (a call of 20,000 arguments with a
        violation per argument stays linear)."""
        parts: list[str] = []
        length = len(self.method) + 2
        for slot, value in self.arguments:
            piece = f'{slot}="{_escape(value[:limit])}"'
            if length + len(piece) > limit:
                shown = ", ".join(parts)
                return f"{self.method}({shown}{', ' if shown else ''}… ({len(self.arguments):,} arguments))"
            parts.append(piece)
            length += len(piece) + 2
        return f"{self.method}({', '.join(parts)})"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class Example(BaseModel):
    """One NLSI example (spec §2): dialogue, profile, gold/predicted instructions and calls.

    ``api_calls`` / ``pred_api_calls`` hold the raw call strings as read; parsing them is the
    checker's job (:func:`csp_check.nlsi.calls.parse_calls`), so one malformed call does not
    lose the example. ``metadata`` may carry ``reasoning_type`` / generation labels and, for
    examples built from SGD, ``sgd_state`` (the SGD annotation of the retained turns:
    ``{domain: {slot: value}}``).
    """

    model_config = ConfigDict(extra="allow")
    example_id: str | int
    user_utterance: str
    all_standing_instructions: list[StandingInstruction] = Field(default_factory=list)
    applicable_standing_instructions: list[StandingInstruction] | None = None
    api_calls: list[str] | None = None
    pred_api_calls: list[str] | None = None
    pred_applicable_standing_instructions: list[StandingInstruction] | None = None
    reasoning_type: ReasoningType = ReasoningType.UNKNOWN
    metadata: dict[str, Any] = Field(default_factory=dict)

    def user_turns(self) -> list[str]:
        """The user's turns of ``user_utterance`` (``User:`` prefixes, repeated or not, dropped)."""
        return [text for speaker, text in split_turns(self.user_utterance) if speaker == "user"]


def split_turns(utterance: str) -> list[tuple[Literal["user", "agent"], str]]:
    """Split ``"User: hi Agent: where? User: SF"`` into ``[("user", "hi"), ("agent", "where?"), …]``.

    Repeated prefixes (``User: User:``) collapse; text before any prefix counts as the user's.
    """

    parts = re.split(r"\b(User|Agent|System)\s*:", utterance)
    turns: list[tuple[Literal["user", "agent"], str]] = []
    speaker: Literal["user", "agent"] = "user"
    if parts[0].strip():
        turns.append(("user", parts[0].strip()))
    for i in range(1, len(parts), 2):
        speaker = "user" if parts[i] == "User" else "agent"
        text = parts[i + 1].strip()
        if text:
            turns.append((speaker, text))
    return turns


FamilyId = Literal["P1", "P2", "P3", "P4", "P5", "P6"]
ALL_FAMILIES: tuple[FamilyId, ...] = ("P1", "P2", "P3", "P4", "P5", "P6")


class CallViolation(BaseModel):
    """One broken rule: family, the call (string), argument, instruction text, message."""

    family: FamilyId
    call: str | None = None
    argument: str | None = None
    instruction: str | None = None
    message: str


class CallStatus(str, Enum):
    """Verdict of one example."""

    CONSISTENT = "consistent"
    INCONSISTENT = "inconsistent"
    ERROR = "error"


class CallReport(BaseModel):
    """One line of ``csp-check calls --report``: verdict and violations of one example."""

    example_id: str | int
    source: str | None = None
    status: CallStatus
    reasoning_type: ReasoningType = ReasoningType.UNKNOWN
    violations: list[CallViolation] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    unparsed_instructions: list[str] = Field(default_factory=list)
    method_aliases: list[str] = Field(default_factory=list)  # release spellings read as a domain's method (GetDenists)
    request_markers: int = 0  # arguments slot="?" (asked, not set), left out of the check
    llm_parsed_instructions: list[str] | None = None  # with --llm-parse: read by the LLM fallback
    derived_api_calls: list[str] | None = None
    derived_instructions: list[str] | None = None
    derived_solutions: int | None = None  # derive with a solver: value choices of the derived calls (2: two or more)
