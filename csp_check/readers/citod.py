"""CI-ToD (Qin et al., EMNLP 2021, arXiv 2109.11292): KVRET's in-car dialogues (calendar,
navigate, weather) with consistency labels for the last system response.

Format: one JSON list per file; each item::

    {"id": 474,
     "dialogue": [{"turn": "driver", "utterance": "…"}, {"turn": "assistant", "utterance": "…"}, …],
     "scenario": {"kb": {"items": [{column: value, …}, …]}, "qi": "0", "hi": "1", "kbi": "0"},
     "HIPosition": [1]}

``driver`` → user, ``assistant`` → system. The text is lower-cased and a multi-word value is one
token joined by ``_`` (``5_miles``, ``the_10th``); the reader keeps it as it is. The item's own
KB (``scenario.kb.items``, ``null`` or ``[]`` for a task with none: a calendar scheduling) is
the first turn's :class:`~csp_check.models.KbResult`, its domain the CI-ToD domain the columns
name (``poi`` → ``navigate``, ``event`` → ``calendar``, ``location`` → ``weather``; a KB-less
item takes its file's name: ``calendar_dev.json``). Weather rows are one per location and day.
``dialogue_id`` is the item's ``id`` as a string (ids repeat across and within the files: a
report names its file too).

The gold labels (``qi`` / ``hi`` / ``kbi``, ``HIPosition``) are no part of a dialogue: they are
read by :func:`items` for ``csp-check benchmark citod``. CI-ToD's ``entities.json`` beside the
file (every value of each column in the corpus) is each dialogue's ``ontology``
(``domain.column`` → values): it names the places, events and cities no item's KB holds. A file sniffs as CI-ToD when it is a
``.json`` whose head holds a list whose first item has ``dialogue`` and ``scenario``.
An item that is no object, has no ``dialogue`` list, a turn that is neither ``driver`` nor
``assistant`` or no string ``utterance`` gives one :class:`InputError` naming the file, the item's
index and id and the field; the other items are read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from csp_check.errors import InputError, NoDialogues
from csp_check.models import Dialogue, KbResult, Turn

NAME = "citod"
SPEAKERS = {"driver": "user", "assistant": "system"}
DOMAINS = ("calendar", "navigate", "weather")
#: A column that only one CI-ToD domain's KB has → the domain.
_DOMAIN_COLUMN = {"poi": "navigate", "event": "calendar", "location": "weather"}
_HEAD = re.compile(rb'^\s*\[\s*\{.*?"(dialogue|scenario)"', re.DOTALL)
LABELS = ("qi", "hi", "kbi")


def sniff(path: Path) -> bool:
    """A ``.json`` file whose head (4 KB) opens a list of objects with ``dialogue`` / ``scenario``
    and names a ``driver`` turn or a ``kb`` (KVRET's vocabulary)."""
    if not path.is_file() or path.suffix != ".json":
        return False
    with open(path, "rb") as f:
        head = f.read(4096)
    return bool(_HEAD.match(head)) and b'"scenario"' in head and (b'"driver"' in head or b'"kb"' in head)


@dataclass(frozen=True)
class Gold:
    """The gold labels of one item: is its last system response inconsistent with the user's
    query (``qi``), the dialogue history (``hi``), the KB (``kbi``); ``hi_position``: the history
    turns it contradicts (CI-ToD's ``HIPosition``)."""

    qi: bool
    hi: bool
    kbi: bool
    hi_position: tuple[int, ...] = ()

    def triple(self) -> tuple[bool, bool, bool]:
        """``(qi, hi, kbi)``."""
        return (self.qi, self.hi, self.kbi)


def read(path: Path) -> Iterator[Dialogue | InputError]:
    """The dialogues of a CI-ToD file in order (an :class:`InputError` per broken item)."""
    for item in items(path):
        yield item[0]


def items(path: Path) -> Iterator[tuple[Dialogue | InputError, Gold | None]]:
    """``(dialogue, gold labels)`` of each item of a CI-ToD file, in order; a broken item is
    ``(InputError, None)``, an item without readable labels ``(dialogue, None)``. An unreadable
    file is one ``(InputError, None)``."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        empty = isinstance(err, json.JSONDecodeError) and not err.doc.strip()
        yield (NoDialogues(str(path), "the file is empty") if empty else
               InputError(str(path), f"cannot read as CI-ToD JSON: {err}")), None  # fmt: skip
        return
    if data == []:
        yield NoDialogues(str(path), "an empty JSON list"), None
        return
    if not isinstance(data, list):
        yield InputError(str(path), "a CI-ToD file is a JSON list of items"), None
        return
    fallback = next((d for d in DOMAINS if path.name.startswith(d)), "")
    ontology = load_ontology(path.parent / ONTOLOGY_FILE)
    for index, raw in enumerate(data):
        try:
            yield _dialogue(path, index, raw, fallback, ontology), _gold(raw)
        except _Bad as bad:
            ident = raw.get("id") if isinstance(raw, dict) else None
            yield InputError(f"{path}:item {index}", str(bad), dialogue=None if ident is None else str(ident)), None


class _Bad(ValueError):
    """An item that is no CI-ToD item (the message names the field)."""


def _dialogue(path: Path, index: int, raw: object, fallback: str, ontology: dict[str, list[str]]) -> Dialogue:
    if not isinstance(raw, dict):
        raise _Bad("an item is a JSON object")
    turns_raw = raw.get("dialogue")
    if not isinstance(turns_raw, list) or not turns_raw:
        raise _Bad("dialogue: expected a non-empty list of turns")
    turns: list[Turn] = []
    for i, t in enumerate(turns_raw):
        if not isinstance(t, dict) or t.get("turn") not in SPEAKERS:
            raise _Bad(f"dialogue[{i}].turn: expected 'driver' or 'assistant'")
        if not isinstance(t.get("utterance"), str):
            raise _Bad(f"dialogue[{i}].utterance: expected a string")
        turns.append(Turn(index=i, speaker=SPEAKERS[t["turn"]], utterance=t["utterance"].strip()))  # type: ignore[arg-type]
    scenario = raw.get("scenario")
    kb = scenario.get("kb") if isinstance(scenario, dict) else None
    rows = (kb.get("items") if isinstance(kb, dict) else None) or []
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise _Bad("scenario.kb.items: expected a list of objects")
    entities = [{str(k): "" if v is None else str(v) for k, v in r.items()} for r in rows]
    domain = domain_of(entities) or fallback
    turns[0].kb_results = [KbResult(domain=domain, entities=entities)]
    return Dialogue(id=str(raw.get("id", index)), source=str(path), format=NAME, domains=[domain] if domain else [],
                    turns=turns, ontology=ontology)


#: CI-ToD's ontology beside its files: column → every value of the corpus (``entities.json``).
ONTOLOGY_FILE = "entities.json"
#: Column → its CI-ToD domain, for the ontology's ``domain.column`` keys.
COLUMN_DOMAIN = {
    **dict.fromkeys(("poi", "address", "distance", "traffic_info", "poi_type"), "navigate"),
    **dict.fromkeys(("event", "date", "time", "party", "room", "agenda"), "calendar"),
    **dict.fromkeys(("location", "weather_attribute", "high_temperature", "low_temperature"), "weather"),
}


def load_ontology(path: Path) -> dict[str, list[str]]:
    """``domain.column`` → the values of CI-ToD's ``entities.json`` at ``path`` (``{}`` when the
    file is absent or unreadable: the labels then know only the dialogue's own KB values).
    Columns of no CI-ToD domain are skipped."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {f"{COLUMN_DOMAIN[k]}.{k}": [str(v) for v in vs if isinstance(v, str)]
            for k, vs in data.items() if k in COLUMN_DOMAIN and isinstance(vs, list)}


def domain_of(entities: list[dict[str, str]]) -> str:
    """The CI-ToD domain a KB's columns name (``""`` for no row)."""
    for row in entities:
        for column, domain in _DOMAIN_COLUMN.items():
            if column in row:
                return domain
    return ""


def kb_rows(dialogue: Dialogue) -> list[dict[str, str]]:
    """The item's own KB rows (``scenario.kb.items``), as the reader put them on the first turn."""
    return [row for result in dialogue.turns[0].kb_results for row in result.entities] if dialogue.turns else []


def _gold(raw: dict) -> Gold | None:
    scenario = raw.get("scenario")
    if not isinstance(scenario, dict) or any(str(scenario.get(k)) not in ("0", "1") for k in LABELS):
        return None
    position = raw.get("HIPosition") or []
    qi, hi, kbi = (str(scenario[k]) == "1" for k in LABELS)
    return Gold(qi, hi, kbi, hi_position=tuple(p for p in position if isinstance(p, int)))
