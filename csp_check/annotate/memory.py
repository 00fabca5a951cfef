"""What the annotator carries from turn to turn (:class:`Memory`), and its update after each turn."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from csp_check.annotate.lexicon import ENTITY_COLUMNS
from csp_check.language.cue_words import BACK_TO
from csp_check.models import DialogueAct

#: A belief state: domain → slot → values.
State = dict[str, dict[str, list[str]]]


@dataclass
class Memory:
    """What the annotator carries from turn to turn: the user's belief state, the active domain,
    the entity under discussion per domain, the domains in order of mention and the last day named."""

    state: State = field(default_factory=dict)
    active: str | None = None
    entity: dict[str, str | None] = field(default_factory=dict)  # domain → canonical name, None if several
    recent: list[str] = field(default_factory=list)  # domains, least recent first
    last_day: str | None = None
    unread: set[str] = field(default_factory=set)  # domains whose request names a value no KB has
    vague: dict[str, set[str]] = field(default_factory=dict)  # domain → columns its request words no value reads
    maybe: dict[str, tuple[str, str]] = field(default_factory=dict)  # domain → (column, value) its noun may mean
    named: set[str] = field(default_factory=set)  # domains whose entity the last user turn named
    searched: set[str] = field(default_factory=set)  # domains the last user turn gave a search value of
    entity_turn: dict[str, int] = field(default_factory=dict)  # domain → turn its entity was last named
    turn: int = 0
    names: dict[str, set[str]] = field(default_factory=dict)  # domain → every entity named so far
    offered: dict[str, list[str]] = field(default_factory=dict)  # domain → entities named one to a system turn, in order

    def touch(self, domain: str) -> None:
        """Make ``domain`` the most recently mentioned."""
        if domain in self.recent:
            self.recent.remove(domain)
        self.recent.append(domain)


def remember(acts: list[DialogueAct], memory: Memory, speaker: str, utterance: str = "") -> None:
    """Update the entity under discussion (a turn naming several entities of a domain leaves it
    open; a user turn going back to an earlier offer, :data:`BACK_TO`, makes it that offer: the
    first one offered, or the one before the current) and the domains' recency."""
    named: dict[str, set[str]] = defaultdict(set)
    for a in acts:
        if a.slot in ENTITY_COLUMNS and a.canonical and a.span is not None:
            named[a.domain].add(a.canonical)
        if a.span is not None:
            memory.touch(a.domain)
    for domain, names in named.items():
        memory.entity[domain] = next(iter(names)) if len(names) == 1 else None
        memory.entity_turn[domain] = memory.turn
        memory.names.setdefault(domain, set()).update(names)
        order = memory.offered.setdefault(domain, [])
        if speaker == "system" and len(names) == 1 and next(iter(names)) not in order:
            order.append(next(iter(names)))
    if speaker == "user" and (back := BACK_TO.search(utterance)):
        domain = next((d for d in reversed(memory.recent) if len(memory.offered.get(d, [])) > 1 and d not in named), None)
        if domain is not None:
            order, now = memory.offered[domain], memory.entity.get(domain)
            earlier = order[0] if back.group("first") else next((e for e in reversed(order) if e != now), None)
            memory.entity[domain] = earlier
    memory.turn += 1
