"""MultiWOZ 2.2 reader (``dialogues_*.json`` in the SGD-like layout of MultiWOZ 2.2).

Input: a ``dialogues_*.json`` file (a list of dialogues) or a directory of them. Format:
github.com/budzianowski/multiwoz, ``data/MultiWOZ_2.2/README.md``. A dialogue has
``dialogue_id`` (``"PMUL4398.json"``), ``services`` and ``turns[]`` with ``speaker``
(``USER`` / ``SYSTEM``), ``utterance`` and ``frames[]``: ``service``, ``slots[]`` (``slot``
``"restaurant-food"``, ``start`` / ``exclusive_end`` char offsets, or ``copy_from``), user
``state.slot_values`` (``{"restaurant-food": ["italian"]}``) and, in some releases, ``actions``.

Acts come from ``dialog_acts.json`` when it is beside the file or one directory up (the
release layout ``MultiWOZ_2.2/{train,dev,test}/dialogues_*.json`` + ``MultiWOZ_2.2/dialog_acts.json``):
``{dialogue_id: {turn_id: {"dialog_act": {"Restaurant-Inform": [["food", "italian"]]},
"span_info": [[act, slot, value, start_char, exclusive_end_char]]}}}``. Without it, SGD-style
frame ``actions`` (``act``, ``slot``, ``values``) are used if present. Acts, slots and values
map as in :mod:`csp_check.readers.multiwoz` (DB column names: ``restaurant-pricerange`` →
``state["restaurant"]["pricerange"]``, ``bookday`` → ``book day``, ``leaveat`` → ``leaveAt``);
an act value without its own span takes a frame ``slots`` span of the same column whose text
normalises to the value. A system turn's state is the preceding user turn's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from csp_check.errors import InputError
from csp_check.models import Dialogue, DialogueAct, Span, Turn
from csp_check.readers.sgd import align_spans

from . import multiwoz as mw
from .json_stream import at, check_span, head, read_items, read_text, turn_list
from .sgd import SGD_ID, dialogue_files, split_files, warn_empty

NAME = "multiwoz22"

_MWOZ_MARK = re.compile(r'"dialogue_id"\s*:\s*"[A-Za-z]+\d+(\.json)?"|"slot_values"\s*:\s*\{\s*"[a-z]+-[a-z]')


def sniff(path: Path) -> bool:
    """A ``dialogues_*.json`` file (or a directory of them) with frames and MultiWOZ ids / slot names."""
    files = dialogue_files(path)
    if not files:
        return False
    text = head(files[0], 1 << 15)
    return '"frames"' in text and not SGD_ID.search(text) and bool(_MWOZ_MARK.search(text))


def load_dialog_acts(file: Path) -> tuple[Path | None, dict[str, Any]]:
    """``dialog_acts.json`` beside ``file`` or one directory up: (its path, its content) or (None, {})."""
    for candidate in (file.parent / "dialog_acts.json", file.parent.parent / "dialog_acts.json"):
        if candidate.is_file():
            data = json.loads(read_text(candidate))
            if not isinstance(data, dict):
                raise ValueError("not an object of dialogues")
            return candidate, data
    return None, {}


def read(path: Path) -> Iterator[Dialogue | InputError]:
    """Dialogues of a MultiWOZ 2.2 file or directory."""
    files, empty = split_files(path)
    if not files:
        yield InputError(str(path), "no dialogues_*.json files here")
        return
    warn_empty(empty)
    loaded: dict[Path, tuple[Path | None, dict[str, Any]]] = {}
    for file in files:
        if file.parent not in loaded:
            try:
                loaded[file.parent] = load_dialog_acts(file)
            except (OSError, ValueError, RecursionError) as err:
                yield InputError(str(file.parent / "dialog_acts.json"), f"unreadable dialogue acts: {err}")
                loaded[file.parent] = (None, {})
        acts_file, all_acts = loaded[file.parent]
        yield from read_items(
            file, lambda f, i, raw, acts_file=acts_file, all_acts=all_acts: convert(f, i, raw, acts_file, all_acts.get(i))
        )


def convert(file: Path, dialogue_id: str, raw: Any, acts_file: Path | None, turn_acts: Any) -> Dialogue:
    """One MultiWOZ 2.2 dialogue → :class:`Dialogue`; ``turn_acts`` is its ``dialog_acts.json`` entry."""
    turns_raw = turn_list(file, dialogue_id, raw)
    turns: list[Turn] = []
    last_domain = "booking"
    state: dict[str, dict[str, list[str]]] = {}
    for i, t in enumerate(turns_raw):
        where = f"turns[{i}]"
        with at(file, dialogue_id, where):
            utterance = t["utterance"]
            if not isinstance(utterance, str):
                raise TypeError("utterance must be a string")
            speaker = str(t["speaker"]).lower()
            frame_spans = _frame_spans(file, dialogue_id, where, utterance, t.get("frames") or [])
            acts = _turn_acts(file, dialogue_id, i, t, utterance, acts_file, turn_acts, last_domain)
            _attach_spans(acts, utterance, frame_spans)
            last_domain = mw.last_domain_of(acts, last_domain)
            if speaker == "user":
                state = _state(t.get("frames") or [])
            copy = {d: dict(s) for d, s in state.items()}
            turns.append(Turn(index=i, speaker=speaker, utterance=utterance, acts=acts, state=copy))
    domains = [str(s).lower() for s in raw.get("services") or []]
    return Dialogue(id=dialogue_id, source=str(file), format=NAME, domains=domains, turns=turns)


def _frame_spans(file: Path, dialogue_id: str, where: str, utterance: str, frames: list[Any]) -> list[tuple[str, str, Span]]:
    """(domain, column, span) of every frame slot with a character span (``copy_from`` slots have none)."""
    out = []
    for j, frame in enumerate(frames):
        for k, slot in enumerate(frame.get("slots") or []):
            if "start" not in slot:
                continue
            check_span(file, dialogue_id, f"{where}.frames[{j}].slots[{k}]", utterance, slot["start"], slot.get("exclusive_end"))
            domain, _, name = str(slot["slot"]).partition("-")
            out.append((domain, mw.column(domain, name), Span(start=slot["start"], end=slot["exclusive_end"])))
    return out


def _turn_acts(
    file: Path, dialogue_id: str, i: int, t: dict[str, Any], utterance: str,
    acts_file: Path | None, turn_acts: Any, last_domain: str,
) -> list[DialogueAct]:
    if isinstance(turn_acts, dict):
        entry = turn_acts.get(str(t.get("turn_id", i)))
        if not isinstance(entry, dict):
            return []  # a turn without act annotation
        spans = []
        for k, info in enumerate(entry.get("span_info") or []):
            field = f"{dialogue_id}.{t.get('turn_id', i)}.span_info[{k}]"
            act, slot, value, start, end = info[:5]
            check_span(acts_file or file, dialogue_id, field, utterance, start, end)
            spans.append((str(act).lower(), str(slot).lower(), str(value).lower(), Span(start=start, end=end)))
        dialog_act = entry.get("dialog_act", entry.get("dialogue_acts")) or {}
        return mw.acts_of(dialog_act, spans, last_domain)
    acts = []
    for frame in t.get("frames") or []:
        for action in frame.get("actions") or []:
            acts.extend(_sgd_style(str(frame["service"]).lower(), action))
    return acts


def _sgd_style(service: str, action: dict[str, Any]) -> list[DialogueAct]:
    """An SGD-style frame action ``{act, slot, values}`` → acts (no spans yet)."""
    domain, _, name = str(action.get("slot") or "").rpartition("-")
    domain = domain or service
    slot = mw.column(domain, name)
    role = mw.role_of(str(action["act"]), slot)
    values = [mw.act_value(v) for v in action.get("values") or []] or [None]
    return [
        DialogueAct(role=role, act=str(action["act"]), domain=domain, slot=slot, value=v, canonical=mw.canonical(slot, v))
        for v in values
    ]


def _attach_spans(acts: list[DialogueAct], utterance: str, frame_spans: list[tuple[str, str, Span]]) -> None:
    """Give the act values without a span the frame slot spans of their column: a span whose
    text matches a value goes to it, the values left take the spans left in text order (spec
    §9: a span whose text no longer matches its value is still a variable;
    :func:`csp_check.readers.sgd.align_spans`)."""

    columns = {(a.domain, a.slot) for a in acts if a.span is None and a.value is not None}
    for domain, column in columns:
        spans = sorted((s for d, c, s in frame_spans if d == domain and c == column), key=lambda s: s.start)
        mine = [a for a in acts if a.span is None and a.value is not None and (a.domain, a.slot) == (domain, column)]
        for act, span in zip(mine, align_spans(utterance, [a.value or "" for a in mine], spans)):
            act.span = span


def _state(frames: list[Any]) -> dict[str, dict[str, list[str]]]:
    """User frames' ``state.slot_values`` → ``Turn.state`` by DB column."""
    state: dict[str, dict[str, list[str]]] = {}
    for frame in frames:
        for key, raw in ((frame.get("state") or {}).get("slot_values") or {}).items():
            domain, _, name = str(key).partition("-")
            values = mw.state_values(raw)
            if values:
                state.setdefault(domain, {})[mw.column(domain, name)] = values
    return state
