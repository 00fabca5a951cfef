"""Profile prompts built from NLSI examples (issue 23): each example's user profile becomes the
agent's standing instructions, its dialogue the probe, and the ``profile`` measure checks the
agent's API calls against them by P1–P6 — the shared NLSI profiles (the release's
``old_instructions_dataset.json`` or a ``csp-check nlsi build`` file) read at run time, never
copied (``csp-check drift --nlsi FILE [--nlsi-schema PATH]``).

A prompt per example with a profile and a dialogue (at most ``limit``, in file order):

- ``system_prompt``: :data:`CALLS_PROMPT` with the schema's methods and the profile;
- ``probe``: the dialogue so far (``User: … Agent: …``) and the request to answer with calls;
- ``measure``: ``{"kind": "profile", "instructions": the profile, "request": the dialogue,
  "schema": the schema path}``;
- ``examples``: ``{"pass": the gold calls}`` when the example has them (the gold is not always
  consistent: the checker flags 10 of the release's 175, docs/evaluation-nlsi.md).
"""

from __future__ import annotations

from pathlib import Path

from csp_check.drift.suite import SuitePrompt
from csp_check.errors import InputError
from csp_check.nlsi.models import Example
from csp_check.nlsi.readers import read_examples
from csp_check.nlsi.schema import load_schema

#: The agent's system prompt of a profile prompt: ``{methods}`` and ``{profile}`` filled in.
CALLS_PROMPT = (
    "You are a booking agent. Answer every request for a service with the API calls that fulfil it, one per line, "
    'written as GetDomain(slot="value", ...) with the methods {methods}; no other text. '
    "Honour the user's standing instructions:\n{profile}"
)
PROBE = "{dialogue}\nWhich API calls answer my request? Write only the calls."


def nlsi_prompts(path: Path, schema: Path, limit: int | None = None) -> list[SuitePrompt]:
    """The profile prompts of the NLSI examples in ``path`` against ``schema`` (an NLSI release
    folder, an SGD split folder or a ``schema.json``). Raises :class:`InputError` when the file
    cannot be read, holds an unreadable example, or yields no prompt."""
    try:
        methods = ", ".join(f"Get{d}" for d in sorted(load_schema([schema]).domains))
    except (OSError, ValueError) as err:
        raise InputError(str(schema), f"not an NLSI schema: {err}") from None
    prompts: list[SuitePrompt] = []
    for item in read_examples(path):
        if not isinstance(item, Example):
            raise InputError(f"{item.path}:{item.line}", item.message)
        profile = [i.nl_instruction for i in item.all_standing_instructions if i.nl_instruction.strip()]
        if not profile or not item.user_utterance.strip():
            continue
        dialogue = " ".join(item.user_utterance.split())
        prompts.append(SuitePrompt(
            id=f"nlsi-{item.example_id}", category="profile", probe=PROBE.format(dialogue=dialogue),
            system_prompt=CALLS_PROMPT.format(methods=methods, profile="\n".join(f"- {p}" for p in profile)),
            measure={"kind": "profile", "instructions": profile, "request": dialogue, "schema": str(schema)},
            examples={"pass": "\n".join(item.api_calls)} if item.api_calls else {},
        ))  # fmt: skip
        if limit is not None and len(prompts) >= limit:
            break
    if not prompts:
        raise InputError(str(path), "no NLSI example with a profile and a dialogue")
    return prompts
