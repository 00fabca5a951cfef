"""ConvLab-3 "unified" format reader (MultiWOZ, SGD, … converted by ConvLab-3).

Input: a JSON list of dialogues (ConvLab-3 ``data/unified_datasets/*/data.zip:data.json``), a
single dialogue object, or an object dialogue id → dialogue. Format:
github.com/ConvLab/ConvLab-3, ``data/unified_datasets/README.md``. A dialogue has
``dialogue_id``, ``domains`` and ``turns[]`` with ``speaker``, ``utterance``,
``dialogue_acts`` = ``{categorical: [{intent, domain, slot, value}], non-categorical: [{…,
start, end}] (char offsets, end exclusive), binary: [{intent, domain, slot}]}``, user ``state``
(domain → slot → value string) and, on system turns, ``db_results`` (domain → entities) and
``service_call`` (domain → ``{method, parameters}``).

Mapping: intents as :data:`csp_check.readers.multiwoz.ROLES` (``inform``; ``recommend`` /
``select`` / ``offer`` → offer; ``nooffer`` → no_result; ``book`` / ``notify_success`` →
booked; ``nobook`` / ``notify_failure`` → failed; ``request``; ``confirm``; slot ``choice`` and
intent ``inform_count`` → count). Domains are kept as given (``restaurant``, ``Restaurants_1``);
slots of MultiWOZ domains become DB columns (``price range`` → ``pricerange``, ``leave at`` →
``leaveAt``), other slots are kept. State values ``""`` are skipped, ``a|b`` gives
alternatives; a system turn's state is the preceding user turn's. ``db_results`` →
:class:`KbResult` with values as strings (:func:`csp_check.readers.kb.entity_strings`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from csp_check.errors import InputError
from csp_check.models import ApiCall, Dialogue, DialogueAct, KbResult, Span, Turn
from csp_check.readers.kb import entity_strings

from . import multiwoz as mw
from .json_stream import at, check_span, head, read_items, turn_list

NAME = "unified"

_ACTS = re.compile(r'"dialogue_acts"\s*:\s*\{')
_SINGLE_KEYS = {"dataset", "data_split", "dialogue_id", "original_id", "domains", "goal", "turns"}


def sniff(path: Path) -> bool:
    """A ``.json`` file whose head shows turns with a ``dialogue_acts`` object."""
    if not (path.is_file() and path.suffix == ".json"):
        return False
    text = head(path, 1 << 20)  # past a huge first item
    return '"utterance"' in text and bool(_ACTS.search(text))


def read(path: Path) -> Iterator[Dialogue | InputError]:
    """Dialogues of a unified-format file (a list, or one dialogue object); ``db_results`` are
    kept per turn."""
    return read_items(path, convert, _SINGLE_KEYS)


def convert(path: Path, dialogue_id: str, raw: Any) -> Dialogue:
    """One unified dialogue → :class:`Dialogue`; raises :class:`InputError` naming the field."""
    turns_raw = turn_list(path, dialogue_id, raw)
    turns: list[Turn] = []
    state: dict[str, dict[str, list[str]]] = {}
    for i, t in enumerate(turns_raw):
        where = f"turns[{i}]"
        with at(path, dialogue_id, where):
            utterance = t["utterance"]
            if not isinstance(utterance, str):
                raise TypeError("utterance must be a string")
            speaker = str(t["speaker"]).lower()
            acts = _acts(path, dialogue_id, where, utterance, t.get("dialogue_acts") or {})
            if "state" in t:
                state = _state(t["state"] or {})
            results = _results(t.get("db_results") or {}, t.get("service_call") or {})
            copy = {d: dict(s) for d, s in state.items()}
            turns.append(Turn(index=i, speaker=speaker, utterance=utterance, acts=acts, state=copy, kb_results=results))
    domains = [str(d) for d in raw.get("domains") or [] if d != "general"]
    return Dialogue(id=dialogue_id, source=str(path), format=NAME, domains=domains, turns=turns)


def _acts(path: Path, dialogue_id: str, where: str, utterance: str, dialogue_acts: dict[str, Any]) -> list[DialogueAct]:
    acts = []
    for kind in ("categorical", "non-categorical", "binary"):
        for k, a in enumerate(dialogue_acts.get(kind) or []):
            span = None
            if kind == "non-categorical" and "start" in a:
                check_span(path, dialogue_id, f"{where}.dialogue_acts.{kind}[{k}]", utterance, a["start"], a.get("end"))
                span = Span(start=a["start"], end=a["end"])
            domain = str(a.get("domain") or "")
            slot = mw.column(domain, str(a.get("slot") or ""))
            value = mw.act_value(a.get("value")) if kind != "binary" else None
            role = mw.role_of(str(a["intent"]), slot if value is not None else "")
            acts.append(
                DialogueAct(
                    role=role, act=str(a["intent"]), domain=domain, slot=slot, value=value,
                    canonical=mw.canonical(slot, value, amount=role.value == "count"), span=span if value else None,
                )
            )
    return acts


def _state(raw: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    state: dict[str, dict[str, list[str]]] = {}
    for domain, slots in raw.items():
        for slot, value in (slots or {}).items():
            values = mw.state_values(value)
            if values:
                state.setdefault(str(domain), {})[mw.column(str(domain), str(slot))] = values
    return state


def _results(db_results: dict[str, Any], service_call: dict[str, Any]) -> list[KbResult]:
    out = []
    for domain, entities in db_results.items():
        call = service_call.get(domain)
        api = None
        if isinstance(call, dict) and call.get("method"):
            params = {str(k): str(v) for k, v in (call.get("parameters") or {}).items()}
            api = ApiCall(domain=str(domain), method=str(call["method"]), parameters=params)
        out.append(KbResult(domain=str(domain), call=api, entities=[entity_strings(e) for e in entities or []]))
    return out
