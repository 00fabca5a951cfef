"""Accuracy of the instruction parser against what the builder meant (``metadata.instruction_meaning``).

A parse is *right* when it is a rule whose domains include the meant domain, whose condition and
action (or also-domain) equal the meant ones after normalisation. Counted separately for template
and paraphrase wordings.
"""

from __future__ import annotations

from collections import Counter

from csp_check.nlsi.instructions import InstructionParser, Rule
from csp_check.nlsi.models import Example
from csp_check.nlsi.schema import normalize


def matches(rule: object, meaning: dict) -> bool:
    """Does a parse result equal the meant rule? (see the module doc)"""
    if not isinstance(rule, Rule) or meaning["domain"] not in rule.domains:
        return False
    def norm(pairs):
        return sorted((s, normalize(v)) for s, v in pairs)
    if norm(rule.condition) != norm(meaning.get("condition", [])):
        return False
    if "also" in meaning:
        return rule.also_domain == meaning["also"]
    return rule.action is not None and norm([rule.action]) == norm([meaning["action"]])


def parser_accuracy(parser: InstructionParser, examples: list[Example]) -> tuple[Counter, list[str]]:
    """Counter keyed ``(wording, "n"|"right")`` with wording ``template`` or ``paraphrase``;
    and up to 20 wrong parses as one-line strings."""
    counts: Counter = Counter()
    wrong: list[str] = []
    seen: set[str] = set()
    for e in examples:
        for text, meaning in (e.metadata.get("instruction_meaning") or {}).items():
            if text in seen:
                continue
            seen.add(text)
            kind = "paraphrase" if meaning.get("paraphrase") else "template"
            counts[kind, "n"] += 1
            out = parser.parse(text)
            if matches(out, meaning):
                counts[kind, "right"] += 1
            elif len(wrong) < 20:
                wrong.append(f"{text!r} -> {out.describe() if isinstance(out, Rule) else out.reason}")
    return counts, wrong
