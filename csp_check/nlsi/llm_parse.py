"""Optional LLM fallback of the instruction parser (spec §3): only for instructions the rule
parser reports :class:`~csp_check.nlsi.instructions.Unparsed`.

The chat model is asked, through :class:`csp_check.llm.client.ChatClient` (any OpenAI-compatible
server; answers cached on disk by prompt, model, temperature, server and seed — the prompt holds
the instruction text, so an instruction is asked once per model), for one JSON object::

    {"domain": "Events", "condition": [["event_type", "Music"]], "action": ["category", "Blues"]}
    {"domain": "Travel", "also_domain": "Hotels"}
    {"unparseable": true}

The answer is **validated against the schema, never trusted**: the domain(s) must exist, every
slot must be a slot of the domain, a categorical value must be one of its possible values and
either occur in the instruction or belong to a domain the instruction names (its name or a cue
phrase, :func:`csp_check.nlsi.cues.domain_phrases`), a free value must occur in the instruction's
own words (itself or a known surface form, after the released normalisation), an also-rule must
name both domains, and a value rule needs an action. A rejected or failed answer leaves the instruction unparsed, with the
reason (``llm: …``) appended. Rules read this way carry ``parsed_by="llm"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from csp_check.llm.client import ChatClient, CompletionError
from csp_check.nlsi.cues import domain_phrases
from csp_check.nlsi.instructions import InstructionParser, Rule, Unparsed
from csp_check.nlsi.schema import NlsiSchema, normalize

PROMPT = """You turn a user's standing instruction into a rule over an API schema.

### Schema (domain: slots; categorical slots list their values in brackets)
{schema}

### Answer format
Answer with one JSON object and nothing else:
- a preference: {{"domain": D, "condition": [[slot, value], ...], "action": [slot, value]}}
  ("condition" lists slot values that must already hold, empty when the rule applies whenever D is called);
- "also call another domain": {{"domain": D, "also_domain": E}};
- not about this schema: {{"unparseable": true}}.
Use slot names and categorical values exactly as in the schema; copy free values from the instruction.

### Instruction
{instruction}

### JSON:"""


def schema_listing(schema: NlsiSchema) -> str:
    """One line per domain: ``Domain: slot, slot [v1|v2], …`` (instructional slots only)."""
    lines = []
    for domain in sorted(schema.domains):
        parts = []
        for name, info in sorted(schema.domains[domain].items()):
            if not info.instructional:
                continue
            parts.append(f"{name} [{'|'.join(info.possible_values)}]" if info.is_categorical and info.possible_values else name)
        lines.append(f"{domain}: {', '.join(parts)}")
    return "\n".join(lines)


def _json_object(text: str) -> Any:
    """The first JSON object in ``text`` (code fences and chatter around it ignored)."""
    start = text.find("{")
    while start != -1:
        depth = 0
        for i in range(start, len(text)):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    try:
                        return json.loads(text[start : i + 1])
                    except ValueError:
                        break
        start = text.find("{", start + 1)
    raise ValueError("no JSON object in the answer")


def validate_answer(schema: NlsiSchema, instruction: str, answer: Any, instruction_id=None) -> Rule | str:
    """A :class:`Rule` from a decoded answer, or the reason it is rejected (a string).

    Checks: see the module doc. Values are returned in their canonical schema form.
    """
    if not isinstance(answer, dict):
        return "answer is not a JSON object"
    if answer.get("unparseable") is True:
        return "the model found no rule"
    domain = answer.get("domain")
    if not isinstance(domain, str) or domain not in schema.domains:
        return f"unknown domain {domain!r}"
    also = answer.get("also_domain")
    words = f" {normalize(instruction)} "

    def said(d: str) -> bool:  # the instruction names the domain (or one of its cue words)

        return any(f" {normalize(p)} " in words for p in [d, *domain_phrases(d)] if normalize(p))

    if also is not None:
        if not isinstance(also, str) or also not in schema.domains or also == domain:
            return f"unknown or same also_domain {also!r}"
        if not (said(domain) and said(also)):
            return f"the instruction does not name both {domain} and {also}"
        return Rule(instruction, (domain,), also_domain=also, instruction_id=instruction_id, parsed_by="llm")

    def pair(item: Any) -> tuple[str, str] | str:
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(x, (str, int, float, bool)) for x in item)):
            return f"not a [slot, value] pair: {item!r}"
        slot, value = str(item[0]), str(item[1])
        info = schema.slot(domain, slot)
        if info is None:
            return f"{domain} has no slot {slot!r}"
        if info.is_categorical and info.possible_values:
            if not schema.value_ok(domain, slot, value) or normalize(value) == "dontcare":
                return f"{value!r} is not a value of {domain}.{slot}"
            canon = next(v for v in info.possible_values if normalize(v) == normalize(value))
        else:
            canon = schema.canonical(domain, slot, value)
        forms = {normalize(value), *schema.surface_forms(domain, slot, canon)}
        if any(f and f" {f} " in words for f in forms) and not info.is_boolean:
            return slot, canon
        if info.is_categorical and info.possible_values and said(domain):
            return slot, canon  # a closed value set, in a domain the instruction names
        return f"value {value!r} does not occur in the instruction" + ("" if said(domain) else f" and it does not name {domain}")

    cond_raw = answer.get("condition") or []
    if not isinstance(cond_raw, list):
        return "condition is not a list"
    condition = []
    for item in cond_raw:
        got = pair(item)
        if isinstance(got, str):
            return got
        condition.append(got)
    if answer.get("action") is None:
        return "no action"
    action = pair(answer["action"])
    if isinstance(action, str):
        return action
    if action[0] in {s for s, _ in condition}:
        return f"slot {action[0]} is both condition and action"
    return Rule(instruction, (domain,), condition=tuple(condition), action=action, instruction_id=instruction_id, parsed_by="llm")


@dataclass
class LlmFallbackParser:
    """The rule parser, and for what it cannot parse, a chat model whose answer is validated.

    ``settings``: :class:`csp_check.llm.client.LLMSettings`. ``accepted`` / ``rejected`` (of
    which ``failed``: no answer at all) count what the fallback did (the client's own cache counts are on ``client``).
    """

    parser: InstructionParser
    settings: Any
    accepted: int = 0
    rejected: int = 0
    failed: int = 0  # of the rejected, those whose request failed (no answer: the server is down or refuses)
    _cache: dict[str, Rule | Unparsed] = field(default_factory=dict, repr=False)
    _client: Any = field(default=None, repr=False)
    _listing: str | None = field(default=None, repr=False)

    @property
    def client(self):
        """The :class:`~csp_check.llm.client.ChatClient` (created on first use)."""
        if self._client is None:
            self._client = ChatClient(self.settings)
        return self._client

    def prompt(self, instruction: str) -> str:
        """The prompt for one instruction (schema listing + format + instruction)."""
        if self._listing is None:
            self._listing = schema_listing(self.parser.schema)
        return PROMPT.format(schema=self._listing, instruction=instruction.strip())

    def parse(self, text: str, instruction_id=None) -> Rule | Unparsed:
        """The rule parser's answer; for :class:`Unparsed`, the validated LLM reading instead
        (or the :class:`Unparsed` with the LLM's failure appended to its reason)."""
        out = self.parser.parse(text, instruction_id)
        if not isinstance(out, Unparsed):
            return out
        if text not in self._cache:
            self._cache[text] = self._ask(out)
        got = self._cache[text]
        return type(got)(**{**got.__dict__, "instruction_id": instruction_id})

    def _ask(self, unparsed: Unparsed) -> Rule | Unparsed:

        answer = self.client.complete(self.prompt(unparsed.instruction))
        if isinstance(answer, CompletionError):
            self.rejected += 1
            self.failed += 1
            return Unparsed(unparsed.instruction, f"{unparsed.reason}; llm: request failed: {answer.error}")
        try:
            decoded = _json_object(answer.text)
        except ValueError as err:
            self.rejected += 1
            return Unparsed(unparsed.instruction, f"{unparsed.reason}; llm: {err}")
        got = validate_answer(self.parser.schema, unparsed.instruction, decoded)
        if isinstance(got, str):
            self.rejected += 1
            return Unparsed(unparsed.instruction, f"{unparsed.reason}; llm answer rejected: {got}")
        self.accepted += 1
        return got

