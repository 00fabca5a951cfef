"""A fake agent for the drift tests (issue 23): on the :class:`~support.openai_server.FakeOpenAI`
server it keeps its instruction for the first ``k`` rounds of a self-chat and drifts after.

A request whose system prompt and last user message are a suite prompt's system prompt and
probe is a probe; its round is 1 + the agent turns before it. The answer is the prompt's
``examples["pass"]`` up to round ``k`` and ``examples["fail"]`` (or :data:`DRIFTED`) after. Any other request (the
agent's and the user LM's chat turns) gets a chat line naming its round.
"""

from __future__ import annotations

import re

from csp_check.drift.suite import SuitePrompt

#: The drifted answer of a prompt without a ``fail`` example.
DRIFTED = "Sure, happy to help with that!"


class ObeyThenDrift:
    """``reply(messages, body)`` for FakeOpenAI: obeys for ``k`` rounds, then drifts."""

    def __init__(self, prompts: list[SuitePrompt], k: int):
        self.k = k
        self.by_probe = {(p.system_prompt, p.probe): p for p in prompts}
        self.probes: list[list[dict]] = []  # the messages of every probe request
        self.chats: list[list[dict]] = []  # the messages of every other request

    def __call__(self, messages: list[dict], body: dict) -> str:
        key = (messages[0]["content"], messages[-1]["content"]) if messages else ("", "")
        prompt = self.by_probe.get(key)
        round_ = 1 + sum(m["role"] == "assistant" for m in messages)
        if prompt is None:
            self.chats.append(messages)
            return f"chat line {len(messages)}"
        self.probes.append(messages)
        return prompt.examples["pass"] if round_ <= self.k else prompt.examples.get("fail", DRIFTED)


def fill_masks(messages: list[dict], body: dict) -> str:
    """A fake LLM relexicalizer (``csp-check experiment --base-url``): the prompt's dialogue with
    each ``[MASK]`` filled by the values of the first KB entity listed, in turn."""
    prompt = messages[-1]["content"]
    first = prompt.split("### Knowledge base:")[1].split("### Dialogue:")[0].strip().splitlines()[0]
    values = [kv.split(": ", 1)[1] for kv in first.split(" - ", 1)[1].split(", ") if ": " in kv]
    dialogue = prompt.split("### Dialogue:")[1].split("### Response:")[0].strip()
    count = iter(range(1 << 30))
    return re.sub(r"\[MASK\]", lambda m: values[next(count) % len(values)], dialogue)
