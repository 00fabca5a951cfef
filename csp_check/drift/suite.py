"""The drift suite: system prompts s_B with their probe p_B and stability measure f_B (paper §3,
Table 1), one JSON object a line.

Line format (:class:`SuitePrompt`)::

    {"id": "lang-fr", "category": "language", "system_prompt": "Always answer in French.",
     "probe": "What is your favourite season?", "measure": {"kind": "language", "lang": "fr"}}

Optional keys: ``user_prompt`` (the user LM's system prompt s_A; default :data:`USER_PROMPT`),
``starters`` (conversation starters a_1 to sample from; default :data:`STARTERS`) and
``examples`` (``{"pass": answer, "fail": answer}``: an answer that keeps the instruction, scoring
≥ 0.9, and one that drifts, scoring ≤ 0.3 — the prompt's test cases as data; every bundled line
has them, and the tests score them). ``measure``
holds ``kind`` and that kind's parameters (:mod:`csp_check.drift.measures`). Categories: the
paper's five (``multiple_choice``, ``character``, ``format``, ``memorization``, ``language``) and
csp-check's ``profile`` and ``kb``; any other name is accepted and plotted as its own category.

The bundled suite (:func:`bundled_suite`, ``csp_check/drift/data/suite.jsonl``) is our own
writing; its profile prompts use SGD service slots (``data/schema.json``) and NLSI-style
standing instructions, its KB prompts small KBs written inline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from csp_check.errors import InputError

DATA = Path(__file__).resolve().parent / "data"
BUNDLED_SUITE = DATA / "suite.jsonl"
#: The paper's five categories, then csp-check's two.
CATEGORIES = ("multiple_choice", "character", "format", "memorization", "language", "profile", "kb")

#: The user LM's system prompt s_A when a suite line gives none.
USER_PROMPT = (
    "You are a curious person talking with an assistant. Keep the conversation going: answer what "
    "the assistant says in one or two sentences and ask it something new each time. Never mention "
    "that you are an AI."
)
#: Conversation starters a_1, one drawn per run (seeded).
STARTERS = (
    "Hi! What should I do this weekend?",
    "Hello, can you tell me something interesting?",
    "I'm planning a trip and could use some ideas.",
    "What do you think makes a good dinner?",
    "I have a free afternoon. Any suggestions?",
    "Can you help me find somewhere to go tonight?",
    "What's a good way to relax after work?",
    "Tell me about a place you would like to visit.",
)


class SuitePrompt(BaseModel):
    """One line of a suite: system prompt, probe and measure (``measure["kind"]`` + params)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1)
    category: str = Field(min_length=1)
    system_prompt: str = Field(min_length=1)
    probe: str = Field(min_length=1)
    measure: dict[str, Any]
    user_prompt: str = USER_PROMPT
    starters: list[str] = Field(default_factory=lambda: list(STARTERS), min_length=1)
    examples: dict[str, str] = Field(default_factory=dict, description='{"pass": …, "fail": …} answers')

    @property
    def kind(self) -> str:
        """The measure's kind (``language``, ``profile``, …)."""
        return str(self.measure.get("kind", ""))

    def params(self) -> dict[str, Any]:
        """The measure's parameters (every key but ``kind``)."""
        return {k: v for k, v in self.measure.items() if k != "kind"}


def load_suite(path: Path, kinds: frozenset[str] | None = None) -> list[SuitePrompt]:
    """The prompts of a suite file, in order.

    Raises :class:`InputError` (``FILE:LINE: what``) for a line that is not JSON, misses a key,
    repeats an id, or (when ``kinds`` is given) names a measure kind not in ``kinds``; a missing
    file is an :class:`InputError` too.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise InputError(str(path), f"cannot read the suite: {err.strerror or err}") from None
    prompts: list[SuitePrompt] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            prompt = SuitePrompt.model_validate(json.loads(line))
        except ValueError as err:
            if isinstance(err, ValidationError):
                first = err.errors()[0]
                message = f"{'.'.join(map(str, first['loc'])) or 'line'}: {first['msg']}"
            else:
                message = f"not JSON: {err}"
            raise InputError(where, message) from None
        if prompt.id in seen:
            raise InputError(where, f"id {prompt.id!r} repeats an earlier line")
        if kinds is not None and prompt.kind not in kinds:
            raise InputError(where, f"measure kind {prompt.kind!r} is unknown; known: {', '.join(sorted(kinds))}")
        seen.add(prompt.id)
        prompts.append(prompt)
    if not prompts:
        raise InputError(str(path), "the suite holds no prompt")
    return prompts


def bundled_suite() -> list[SuitePrompt]:
    """The suite shipped with csp-check (≥ 40 prompts over the seven categories)."""
    return load_suite(BUNDLED_SUITE)
