"""The relexicalization prompt (structure of the paper's Appendix A, our own wording).

Shape: a one-line preamble, then ``### Task``, ``### Knowledge base`` (one numbered entity a
line: ``Restaurant #1 - City: San Jose, Cuisine: American, …``), ``### Dialogue`` (one turn a
line, ``User: …`` / ``System: …``, every written variable shown as ``[MASK]``) and
``### Response:`` for the model to continue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from csp_check.models import CSP, DelexicalizedDialogue

MASK = "[MASK]"
PLACEHOLDER = re.compile(r"\[(x\d+)\]")
SPEAKER_LABEL = {"user": "User", "system": "System"}

PREAMBLE = (
    "You are given a task, a knowledge base with the facts to use, and a dialogue between a user "
    "and a system. Write a response that carries out the task."
)
TASK = (
    "Each [MASK] in the dialogue stands for a missing value: a name, an attribute of an entity, a "
    "date, a time, or a number of entities. Replace every [MASK] with a value that agrees with the "
    "knowledge base and with the rest of the dialogue. Give back the whole dialogue, one turn per "
    'line, each line starting with "User:" or "System:" exactly as in the input. Change nothing '
    "but the [MASK] placeholders: keep every other word and punctuation mark, keep turns without a "
    "[MASK] as they are, and do not add, merge or drop turns."
)


@dataclass
class MaskedTurn:
    """One dialogue turn as shown to the model: its text with ``[MASK]`` placeholders and the
    names of the variables behind them, in order."""

    index: int
    speaker: str
    template: str
    masks: list[str] = field(default_factory=list)

    @property
    def line(self) -> str:
        return f"{SPEAKER_LABEL.get(self.speaker, self.speaker.title())}: {self.template}"


def masked_turns(delex: DelexicalizedDialogue, csp: CSP | None = None) -> list[MaskedTurn]:
    """The delexicalized turns with each ``[xN]`` placeholder turned into ``[MASK]``.

    A placeholder whose name is not a variable of ``csp`` (when given) is written back as the
    variable's own text if known, else kept as a mask. Newlines inside a turn become spaces
    (the prompt is one turn a line).
    """
    names = {v.name for v in csp.variables} if csp is not None else None
    texts = {v.name: v.text for v in csp.variables} if csp is not None else {}
    out = []
    for i, (text, speaker) in enumerate(zip(delex.turns, delex.speakers)):
        masks: list[str] = []

        def repl(m: re.Match[str]) -> str:
            name = m.group(1)
            if names is not None and name not in names and texts.get(name):
                return texts[name] or ""
            masks.append(name)  # noqa: B023 (repl runs within this iteration)
            return MASK

        template = PLACEHOLDER.sub(repl, " ".join(text.split()))
        out.append(MaskedTurn(index=i, speaker=speaker, template=template, masks=masks))
    return out


def entity_label(domain: str) -> str:
    """``Restaurants_1`` → ``Restaurant``; ``restaurant`` → ``Restaurant``."""
    base = re.sub(r"_\d+$", "", domain).replace("_", " ").strip() or "Entity"
    if base.endswith("s") and not base.endswith("ss"):
        base = base[:-1]
    return base[:1].upper() + base[1:]


def column_label(column: str) -> str:
    """``price_range`` → ``Price range``."""
    text = column.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def format_kb(entities: list[dict[str, str]], label: str) -> str:
    """The KB as a numbered list, one entity a line (columns in sorted order)."""
    if not entities:
        return "(no entities)"
    lines = []
    for i, entity in enumerate(entities, 1):
        attrs = ", ".join(f"{column_label(k)}: {v}" for k, v in sorted(entity.items()))
        lines.append(f"{label} #{i} - {attrs}")
    return "\n".join(lines)


def build_prompt(turns: list[MaskedTurn], entities: list[dict[str, str]], domain: str) -> str:
    """The full prompt text (see module doc); deterministic for equal inputs (cache key)."""
    dialogue = "\n".join(t.line for t in turns)
    return (
        f"{PREAMBLE}\n\n### Task:\n{TASK}\n\n### Knowledge base:\n{format_kb(entities, entity_label(domain))}"
        f"\n\n### Dialogue:\n{dialogue}\n\n### Response:\n"
    )
