"""Per-dialogue KBs the paper's way (paper §4.3, spec §4): the pertinent instance(s) plus ``n``
random instances of the domain, ``n`` uniform in ``0..8``, seeded.

For SGD a domain is a service (``Restaurants_1``). Its instances are the entities its *search*
calls returned anywhere in the corpus (``service_results`` of non-transactional intents such as
``FindRestaurants``; the ``ReserveRestaurant`` results add booking fields, not restaurants).
An instance's columns are those of the search results.

- **Pertinent instances** of a dialogue: the entities its own results show for each restaurant
  the system offers, confirms, informs about or books (matched by the service's name column,
  e.g. ``restaurant_name``, and, when two share a name, by the other values the system stated in
  that turn). The paper speaks of one; SGD systems often offer several in turn, and each is part
  of what the dialogue is about, so all are kept.
- **A DB instead of results** (MultiWOZ: ``--kb`` directory of ``*_db.json``): the pool is the
  DB table of the domain, restricted to the columns the selected dialogues' acts mention (plus
  the name column), and a dialogue's pertinent instances are the DB entities the system names.
- **Random instances**: ``n ~ U{0..max_random}`` distinct entities of the corpus pool that are
  not pertinent, drawn with ``random.Random(f"{seed}:{dialogue_id}")``: a dialogue's KB does
  not depend on which other dialogues are in the run or on their order.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from csp_check.language.normalize import normalize
from csp_check.models import ActRole, Dialogue, KbTable, KnowledgeBase

QUERY_PREFIXES = ("find", "search", "get", "lookup", "check")
NAMED = (ActRole.OFFER, ActRole.CONFIRM, ActRole.INFORM, ActRole.BOOKED)


def transactional_methods(dialogues: Iterable[Dialogue]) -> set[str]:
    """Intent names marked ``is_transactional`` in the ``schema.json`` beside each dialogue's
    source file (SGD); empty when there is no schema (then :func:`is_query` guesses by name)."""
    out: set[str] = set()
    for schema in {Path(d.source).parent / "schema.json" for d in dialogues if d.source}:
        try:
            services = json.loads(schema.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for service in services if isinstance(services, list) else []:
            for intent in service.get("intents", []):
                if intent.get("is_transactional"):
                    out.add(intent["name"])
    return out


def is_query(method: str, transactional: set[str]) -> bool:
    """Whether a call searches the KB (its results are instances of the domain)."""
    if transactional:
        return method not in transactional
    return method.lower().startswith(QUERY_PREFIXES)


def _key(entity: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, normalize(str(v))) for k, v in entity.items()))


@dataclass
class DomainPool:
    """Every distinct instance of one domain in a corpus, and its columns."""

    domain: str
    entities: list[dict[str, str]] = field(default_factory=list)
    columns: set[str] = field(default_factory=set)
    name_column: str | None = None

    @classmethod
    def of(cls, dialogues: Iterable[Dialogue], domain: str, transactional: set[str] | None = None) -> DomainPool:
        """The pool of ``domain`` over ``dialogues`` (search results only)."""
        dialogues = list(dialogues)
        transactional = transactional_methods(dialogues) if transactional is None else transactional
        pool = cls(domain=domain)
        seen: set[tuple[tuple[str, str], ...]] = set()
        for dialogue in dialogues:
            for turn in dialogue.turns:
                for result in turn.kb_results:
                    if result.domain != domain or (result.call and not is_query(result.call.method, transactional)):
                        continue
                    for entity in result.entities:
                        pool.columns.update(entity)
                        key = _key(entity)
                        if key not in seen:
                            seen.add(key)
                            pool.entities.append(dict(entity))
        names = sorted(c for c in pool.columns if c == "name" or c.endswith("_name"))
        pool.name_column = names[0] if names else None
        return pool

    @classmethod
    def of_table(cls, table: KbTable, dialogues: Iterable[Dialogue]) -> DomainPool:
        """The pool of a DB table (MultiWOZ ``*_db.json``): its entities, restricted to the
        columns the acts of ``dialogues`` mention in ``table.domain`` and the ``name`` column."""
        mentioned = {a.slot for d in dialogues for t in d.turns for a in t.acts if a.domain == table.domain}
        columns = {c for e in table.entities for c in e}
        name = "name" if "name" in columns else None
        keep = (mentioned & columns) | ({name} if name else set())
        pool = cls(domain=table.domain, columns=keep, name_column=name)
        seen: set[tuple[tuple[str, str], ...]] = set()
        for entity in table.entities:
            row = {k: str(v) for k, v in entity.items() if k in keep}
            key = _key(row)
            if key not in seen:
                seen.add(key)
                pool.entities.append(row)
        return pool

    def restrict(self, entity: dict[str, str]) -> dict[str, str]:
        """``entity`` with only the pool's columns (drops booking fields of a reservation)."""
        return {k: v for k, v in entity.items() if k in self.columns}


def pertinent_instances(dialogue: Dialogue, pool: DomainPool) -> list[dict[str, str]]:
    """The instances the dialogue is about: see the module doc. In order of first mention."""
    if pool.name_column is None:
        return []
    shown: list[dict[str, str]] = []  # every entity the dialogue's own results show
    for turn in dialogue.turns:
        for result in turn.kb_results:
            if result.domain == pool.domain:
                shown.extend(pool.restrict(e) for e in result.entities)
    if not shown:  # no results in the dialogue (MultiWOZ): the DB pool itself
        shown = pool.entities
    out: list[dict[str, str]] = []
    keys: set[tuple[tuple[str, str], ...]] = set()
    for turn in dialogue.turns:
        if turn.speaker != "system":
            continue
        said = {a.slot: normalize(a.value) for a in turn.acts if a.domain == pool.domain and a.value and a.role in NAMED}
        name = said.get(pool.name_column)
        if name is None:
            continue
        matches = [e for e in shown if normalize(e.get(pool.name_column, "")) == name]
        best = sorted(matches, key=lambda e: -sum(normalize(e.get(k, "")) == v for k, v in said.items()))
        if best:
            key = _key(best[0])
            if key not in keys:
                keys.add(key)
                out.append(best[0])
    return out


def sample_kb(
    dialogue: Dialogue, pool: DomainPool, seed: int = 0, max_random: int = 8
) -> tuple[KnowledgeBase, int, int]:
    """``(kb, pertinent, random)``: the dialogue's KB (one table named ``pool.domain``), how many
    instances are pertinent and how many random (``n ~ U{0..max_random}``)."""
    rng = random.Random(f"{seed}:{dialogue.id}")
    pertinent = pertinent_instances(dialogue, pool)
    taken = {_key(e) for e in pertinent}
    n = rng.randint(0, max_random)
    others = sorted((e for e in pool.entities if _key(e) not in taken), key=_key)  # pool order is irrelevant
    extra = rng.sample(others, min(n, len(others)))
    entities = pertinent + extra
    rng.shuffle(entities)  # the pertinent instance is not always first in the prompt
    table = KbTable(domain=pool.domain, entities=entities)
    return KnowledgeBase(tables={pool.domain: table}), len(pertinent), len(extra)


def with_kb_only(dialogue: Dialogue) -> Dialogue:
    """A copy of ``dialogue`` without its own KB results, so every domain constraint reads the
    KB passed to the builder (the sampled one) — the experiment's setting, not the checker's
    default SGD scope (spec §6)."""
    turns = [t.model_copy(update={"kb_results": []}) for t in dialogue.turns]
    return dialogue.model_copy(update={"turns": turns})
