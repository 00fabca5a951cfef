"""Dialogue grounding (docs/nlsi.md, "Decisions"): what the user states, which domains they request.

Two sources, in order: the SGD annotation of the retained turns when the example carries it
(``metadata.sgd_state`` / ``metadata.requested_domains``, written by :mod:`.build`), otherwise
ontology matching on the user's turns with the instruction parser's ``PhraseMatcher``: each value
mention is assigned to the slot of a requested domain it belongs to (ambiguous ones are kept only
as "mentioned"), later mentions override earlier ones, and a negated mention ("actually, not
Italian") removes the value it names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from csp_check.nlsi.cues import BOOL_FALSE, NEGATIONS, ROLE_CUES, WEAK_DOMAIN_WORDS
from csp_check.nlsi.instructions import InstructionParser
from csp_check.nlsi.models import Example
from csp_check.nlsi.schema import normalize


@dataclass
class Grounding:
    """``values[domain][slot]`` stated canonical values; ``domains`` requested (in order);
    ``negated[domain][slot]`` values the user rejected; ``text`` normalised user text."""

    values: dict[str, dict[str, str]] = field(default_factory=dict)
    domains: list[str] = field(default_factory=list)
    negated: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    text: str = ""
    source: str = "text"

    def stated(self, domain: str, slot: str) -> str | None:
        """The value the user stated for ``domain.slot``, or None."""
        return self.values.get(domain, {}).get(slot)

    def said(self, value: str) -> bool:
        """Does the normalised value occur in the user's text (whole words)?"""
        n = normalize(value)
        return bool(n) and f" {n} " in f" {self.text} "


def ground(example: Example, parser: InstructionParser, use_annotation: bool = True) -> Grounding:
    """Ground one example's dialogue (see the module doc). Never raises on odd text."""
    user_text = " ".join(example.user_turns())
    g = Grounding(text=normalize(user_text))
    meta = example.metadata or {}
    if use_annotation and isinstance(meta.get("sgd_state"), dict):
        g.source = "annotation"
        for domain, slots in meta["sgd_state"].items():
            if isinstance(slots, dict):
                g.values[domain] = {str(s): str(v) for s, v in slots.items()}
        g.domains = [d for d in meta.get("requested_domains") or list(g.values) if d in parser.schema.domains]
        return g
    schema = parser.schema
    mentions = []
    for turn in example.user_turns():
        doc, ms = parser.mentions(turn)
        words = [t.lower_ for t in doc]
        mentions.append((words, ms))
    weak: list[str] = []
    for words, ms in mentions:
        for m in ms:
            if m.kind == "domain":
                d = next(iter(m.options))[0]
                target = weak if m.text.lower() in WEAK_DOMAIN_WORDS else g.domains
                if d not in target:
                    target.append(d)
    if not g.domains:
        g.domains = weak
    if not g.domains:  # fall back to the domains whose values the user names most
        counts: dict[str, int] = {}
        for words, ms in mentions:
            for m in ms:
                if m.kind == "value":
                    for d in {o[0] for o in m.options}:
                        counts[d] = counts.get(d, 0) + 1
        top = max(counts.values(), default=0)
        best = [d for d, c in counts.items() if c == top]
        if len(best) == 1:
            g.domains = best
    for words, ms in mentions:
        slot_mentions = {o for m in ms if m.kind == "slot" for o in m.options}
        slot_list = [m for m in ms if m.kind == "slot"]
        for m in slot_list:  # boolean slots named in the text ("child-friendly", "I'm okay to share")
            for d, s in m.options:
                info = schema.slot(d, s)
                if d in g.domains and info is not None and info.is_boolean:
                    window = set(words[max(0, m.start - 3) : m.start])
                    g.values.setdefault(d, {})[s] = "False" if window & (NEGATIONS | BOOL_FALSE) else "True"
        for m in ms:
            if m.kind != "value":
                continue
            opts = [(d, s.split("\x00")) for d, s in m.options if d in g.domains]
            if not opts:
                continue
            near = [x for x in slot_list if -1 <= x.start - m.end <= 2 or -2 <= m.start - x.end <= 0]
            near_opts = {o for x in near for o in x.options}
            named = [o for o in opts if (o[0], o[1][0]) in near_opts] or [o for o in opts if (o[0], o[1][0]) in slot_mentions]
            cat = [o for o in opts if (i := schema.slot(o[0], o[1][0])) is not None and i.is_categorical]
            pick = named or cat or opts
            before = words[m.start - 1] if m.start else ""
            if len(pick) > 1 and before in ROLE_CUES:
                role = [o for o in pick if any(k in o[1][0] for k in ROLE_CUES[before])]
                pick = role or pick
            if len({(d, s) for d, (s, _) in pick}) != 1:
                continue
            d, (slot, canon) = pick[0]
            window = words[max(0, m.start - 3) : m.start]
            if set(window) & NEGATIONS:
                g.negated.setdefault(d, {}).setdefault(slot, set()).add(canon)
                if g.values.get(d, {}).get(slot) == canon:
                    del g.values[d][slot]
            else:
                g.values.setdefault(d, {})[slot] = canon
    return g
