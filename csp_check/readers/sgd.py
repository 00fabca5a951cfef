"""Schema-Guided Dialogue (DSTC8) reader.

Input: a ``dialogues_*.json`` file (a list of dialogues) or a directory of them, with the
split's ``schema.json`` beside them (used for the categorical slots' possible values: the
slot ontology). Format: github.com/google-research-datasets/dstc8-schema-guided-dialogue.

Mapping: ``frames[].actions`` → :class:`DialogueAct` (one per value, with its canonical
value and its frame ``slots`` span: :func:`align_spans`), ``INFORM_COUNT`` → ``count``
acts, user ``state.slot_values`` → ``Turn.state``, ``service_call`` + ``service_results`` →
:class:`KbResult` (the KB the system saw at that turn).
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from csp_check.errors import InputError, SkippedInput
from csp_check.language.dates import SGD_TODAY, resolve_dates
from csp_check.language.lexicon import PERIOD_WORDS
from csp_check.language.normalize import clock_time, date_key, dollars, fold, normalize
from csp_check.models import ActRole, ApiCall, Dialogue, DialogueAct, KbResult, Span, Turn

from .empty import nothing_in
from .json_stream import (
    DECODER,
    Window,
    at,
    check_span,
    head,
    is_large,
    json_windows,
    read_items,
    read_text,
    safe,
    skip_ws,
    turn_list,
)

NAME = "sgd"

ROLES = {
    "INFORM": ActRole.INFORM,
    "SELECT": ActRole.INFORM,
    "OFFER": ActRole.OFFER,
    "CONFIRM": ActRole.CONFIRM,
    "INFORM_COUNT": ActRole.COUNT,
    "NOTIFY_SUCCESS": ActRole.BOOKED,
    "NOTIFY_FAILURE": ActRole.FAILED,
    "REQUEST": ActRole.REQUEST,
}
SGD_ID = re.compile(r'"dialogue_id"\s*:\s*"\d+_\d+"')


_MWOZ_ID = re.compile(r"[A-Za-z]+\d+\.json")


def sniff(path: Path) -> bool:
    """A directory holding ``dialogues_*.json``, or a ``.json`` file, whose first dialogue is
    SGD-shaped: SGD-style ids (``1_00000``), or by structure whatever the ids — a
    ``dialogue_id`` and ``turns`` with a ``speaker``, an ``utterance`` and ``frames`` naming a
    ``service`` — unless it is MultiWOZ 2.2 (the same layout with ``domain-slot`` names and
    ``PMUL1234.json`` ids)."""
    files = dialogue_files(path)
    if not files:
        return False
    text = head(files[0], 1 << 20)  # past a huge first item
    return bool(SGD_ID.search(text)) or _sgd_shaped(text)


def _sgd_shaped(text: str) -> bool:
    """Whether the first item of a JSON array (the head of a file) is an SGD dialogue by its
    structure (:func:`sniff`). A first item larger than ``text`` is judged by its keys."""

    pos = skip_ws(text, 0)
    if not text.startswith("[", pos):
        return False
    try:
        first, _ = DECODER.raw_decode(text, skip_ws(text, pos + 1))
    except (ValueError, RecursionError):  # cut off by the head: the keys must be there
        keys = ('"dialogue_id"', '"turns"', '"speaker"', '"utterance"', '"frames"', '"service"')
        return all(k in text for k in keys) and not re.search(r'"slot_values"\s*:\s*\{\s*"[a-z]+-[a-z]', text)
    if not isinstance(first, dict) or not isinstance(first.get("dialogue_id"), str):
        return False
    turns = first.get("turns")
    if not isinstance(turns, list) or not turns or _MWOZ_ID.fullmatch(first["dialogue_id"]):
        return False
    for turn in turns:
        if not isinstance(turn, dict) or not {"speaker", "utterance"} <= turn.keys():
            return False
        frames = turn.get("frames")
        if not isinstance(frames, list) or not all(isinstance(f, dict) and "service" in f for f in frames):
            return False
        for frame in frames:
            state = frame.get("state")
            names = [*(state.get("slot_values") or {} if isinstance(state, dict) else {}),
                     *(s.get("slot", "") for s in frame.get("slots") or [] if isinstance(s, dict))]  # fmt: skip
            if any(isinstance(n, str) and "-" in n for n in names):  # restaurant-food: MultiWOZ 2.2
                return False
    return True


class SplitFiles(NamedTuple):
    """The ``dialogues_*.json`` files of a split, in name order: those that hold dialogues, and
    those that hold none (empty, ``[]``, ``{}``) with the reason :func:`~.empty.nothing_in` gives."""

    files: list[Path]
    empty: list[tuple[Path, str]]


def split_files(path: Path) -> SplitFiles:
    """One pass over a directory's ``dialogues_*.json`` (the layout SGD and MultiWOZ 2.2 share):
    which hold dialogues and which hold none. A ``.json`` file is ``[path]`` with none empty."""
    if not path.is_dir():
        return SplitFiles([path] if path.suffix == ".json" and path.is_file() else [], [])
    files: list[Path] = []
    empty: list[tuple[Path, str]] = []
    for file in sorted(path.glob("dialogues_*.json")):
        why = nothing_in(file)
        if why is None:
            files.append(file)
        else:
            empty.append((file, why))
    return SplitFiles(files, empty)


def dialogue_files(path: Path) -> list[Path]:
    """The ``dialogues_*.json`` files of a directory that hold dialogues, or ``[path]`` for a
    ``.json`` file. A directory's files that hold none are left out, as in any folder
    (:func:`split_files`)."""
    return split_files(path).files


def warn_empty(empty: list[tuple[Path, str]]) -> None:
    """One :class:`~csp_check.errors.SkippedInput` warning per file of :attr:`SplitFiles.empty`
    (``FILE: no dialogues (the file is empty)``): skipped, the rest of the split is read."""
    for file, why in empty:
        warnings.warn(SkippedInput(str(file), why), stacklevel=3)


def load_ontology(schema_path: Path) -> dict[str, list[str]]:
    """``service.slot`` → possible values of every categorical slot in ``schema.json``.

    Raises ``ValueError`` (with the field) when the schema is not a list of services with
    ``slots`` lists of objects and string ``possible_values``; ``OSError`` / ``RecursionError``
    pass through (the caller reports the schema once and reads the dialogues without it).
    """

    services = json.loads(read_text(schema_path))
    if not isinstance(services, list):
        raise ValueError("not a list of services")
    ontology: dict[str, list[str]] = {}
    for i, service in enumerate(services):
        if not isinstance(service, dict) or not isinstance(service.get("service_name"), str):
            raise ValueError(f"[{i}]: a service must be an object with a service_name")
        slots = service.get("slots", [])
        if not isinstance(slots, list):
            raise ValueError(f"[{i}].slots: not a list")
        for k, slot in enumerate(slots):
            if not isinstance(slot, dict) or not isinstance(slot.get("name"), str):
                raise ValueError(f"[{i}].slots[{k}]: a slot must be an object with a name")
            if slot.get("is_categorical"):
                values = slot.get("possible_values")
                if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                    raise ValueError(f"[{i}].slots[{k}].possible_values: not a list of strings")
                ontology[f"{service['service_name']}.{slot['name']}"] = list(values)
    return ontology


def load_descriptions(schema_path: Path) -> dict[str, str]:
    """``service.slot`` → the slot's ``description`` in ``schema.json`` ("Number of layovers in
    the flight"): it names the unit of a numeric slot (:mod:`csp_check.language.cues`). Call it after
    :func:`load_ontology` accepted the file (which checks its shape)."""

    return {
        f"{service['service_name']}.{slot['name']}": str(slot.get("description") or "")
        for service in json.loads(read_text(schema_path))
        for slot in service.get("slots", [])
    }


def read(path: Path, *, window: Window | None = None, schema_errors: bool = True) -> Iterator[Dialogue | InputError]:
    """Dialogues of an SGD file or directory (SGD carries its own KB results).

    A file larger than :data:`~csp_check.readers.json_stream.LARGE_FILE` is streamed window by window
    (never read whole). ``window``: only that part of the file ``path`` (a shard,
    :mod:`csp_check.run.shards`); ``schema_errors``: say that ``schema.json`` is unreadable (once
    per run: only the first shard of a directory does).
    """
    files, empty = split_files(path)
    if not files:
        yield InputError(str(path), "no dialogues_*.json files here")
        return
    warn_empty(empty)
    said: set[Path] = set()
    for file in files:
        schema = file.parent / "schema.json"
        ontology, described, problem = schema_of(schema)
        if problem is not None and schema_errors and schema not in said:
            yield InputError(str(schema), problem)
        said.add(schema)

        memo: dict = {}  # the file's dialogues share its schema: its subsets by services

        def convert(f: Path, i: str, raw: Any, onto: dict = ontology, desc: dict = described,
                    subsets: dict = memo) -> Dialogue:
            return _dialogue(f, i, raw, onto, desc, subsets)

        if window is not None:
            yield from read_items(file, convert, window=window)
        elif is_large(file) and (windows := json_windows(file)) is not None:
            for part in windows:
                yield from read_items(file, convert, window=part)
        else:
            yield from read_items(file, convert)


def schema_of(schema: Path) -> tuple[dict[str, list[str]], dict[str, str], str | None]:
    """(slot ontology, slot descriptions, why unreadable or ``None``) of a ``schema.json``
    (empty when it does not exist); read once per process while the file stays the same."""
    try:
        stat = schema.stat()
    except OSError:
        return {}, {}, None
    return _schema(schema, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _schema(schema: Path, mtime_ns: int, size: int) -> tuple[dict[str, list[str]], dict[str, str], str | None]:
    try:
        return load_ontology(schema), load_descriptions(schema), None
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as err:
        reason = "nested too deeply" if isinstance(err, RecursionError) else " ".join(str(err).split())
        return {}, {}, f"unreadable schema (dialogues read without its slot ontology): {safe(reason)}"


def from_raw(
    raw: dict[str, Any], ontology: dict[str, list[str]], source: str = "", descriptions: dict[str, str] | None = None
) -> Dialogue:
    """One SGD dialogue (a ``dialogues_*.json`` list item) → :class:`Dialogue`, as :func:`read`
    gives it; ``ontology`` and ``descriptions`` as :func:`load_ontology` and
    :func:`load_descriptions` return them. Raises :class:`InputError` or ``KeyError`` /
    ``TypeError`` on malformed input. Used to re-read a dialogue after editing its JSON
    (:mod:`csp_check.faults.rewrite`)."""
    return _dialogue(Path(source), str(raw["dialogue_id"]), raw, ontology, descriptions or {})


def _dialogue(
    file: Path, dialogue_id: str, raw: Any, ontology: dict[str, list[str]], descriptions: dict[str, str],
    subsets: dict[tuple[str, ...], tuple[dict[str, list[str]], dict[str, str]]] | None = None,
) -> Dialogue:
    """``subsets``: a memo of the ontology and descriptions of each tuple of services (the
    dialogues of one file share its schema; the model copies what it is given)."""
    turns_raw = turn_list(file, dialogue_id, raw)
    services = list(raw.get("services") or [])
    key = tuple(services) if all(isinstance(x, str) for x in services) else None
    found = subsets.get(key) if subsets is not None and key is not None else None
    if found is None:
        found = ({k: v for k, v in ontology.items() if k.split(".", 1)[0] in services},
                 {k: v for k, v in descriptions.items() if k.split(".", 1)[0] in services})
        if subsets is not None and key is not None:
            subsets[key] = found
    onto, described = found
    try:  # well-formed data (nearly all): its fields as plain data, validated in one call
        fields = [_turn_fields(i, t) for i, t in enumerate(turns_raw)]
        return Dialogue.model_validate({
            "id": dialogue_id, "source": str(file), "format": NAME, "domains": services, "turns": fields,
            "ontology": onto, "slot_descriptions": described,
        })
    except Exception:  # malformed: read again, each model built in its own `at`, so the error names the field
        turns = []
        for i, t in enumerate(turns_raw):
            with at(file, dialogue_id, f"turns[{i}]"):
                turns.append(_turn(file, dialogue_id, i, t))
    return Dialogue(
        id=dialogue_id, source=str(file), format=NAME, domains=services, turns=turns, ontology=onto,
        slot_descriptions=described,
    )


def _turn_fields(i: int, raw: dict[str, Any]) -> dict[str, Any]:
    """Turn ``i``'s fields as plain data (acts, results and calls as dicts, spans as
    :class:`Span`), for one validation of the whole dialogue: :func:`_turn`'s reading without
    naming fields. Raises on malformed data (whatever it raised: the caller reads the dialogue
    again with :func:`_turn`, whose error names the field), so it accepts exactly what
    :func:`_turn` accepts."""
    utterance = raw["utterance"]
    if not isinstance(utterance, str):
        raise TypeError("utterance")
    acts: list[dict[str, Any]] = []
    state: dict[str, dict[str, list[str]]] = {}
    results: list[dict[str, Any]] = []
    for frame in raw.get("frames") or []:
        service = frame["service"]
        spans: list[tuple[str, Span]] = []
        for s in frame.get("slots") or []:
            start, end = s.get("start"), s.get("exclusive_end")
            if type(start) is not int or type(end) is not int or not 0 <= start <= end <= len(utterance):
                raise ValueError("span")  # check_span's cases, named by _turn
            spans.append((s["slot"], Span(start=start, end=end)))
        for action in frame.get("actions") or []:
            acts.extend(_act_fields(service, action, utterance, spans))
        if "state" in frame:
            state[service] = {k: list(v) for k, v in frame["state"].get("slot_values", {}).items()}
        if "service_call" in frame:
            call = frame["service_call"]
            results.append({
                "domain": service, "entities": frame.get("service_results") or [],
                "call": {"domain": service, "method": call["method"], "parameters": call.get("parameters", {})},
            })
    return {"index": i, "speaker": str(raw["speaker"]).lower(), "utterance": utterance, "acts": acts, "state": state,
            "kb_results": results}


def _turn(file: Path, dialogue_id: str, i: int, raw: dict[str, Any]) -> Turn:
    """Turn ``i`` of a dialogue, each model built inside
    :func:`~csp_check.readers.json_stream.at` so that malformed data's error names its field
    (the second, slow read of a dialogue :func:`_turn_fields` could not read). Raises
    :class:`InputError`."""
    guard = at
    where = f"turns[{i}]"
    utterance = raw["utterance"]
    if not isinstance(utterance, str):
        raise InputError(str(file), "utterance must be a string", dialogue=dialogue_id, field=f"{where}.utterance")
    speaker = str(raw["speaker"]).lower()
    acts: list[DialogueAct] = []
    state: dict[str, dict[str, list[str]]] = {}
    results: list[KbResult] = []
    for j, frame in enumerate(raw.get("frames") or []):
        fwhere = f"{where}.frames[{j}]"
        with guard(file, dialogue_id, fwhere):
            service = frame["service"]
        spans: list[tuple[str, Span]] = []
        for k, s in enumerate(frame.get("slots") or []):
            with guard(file, dialogue_id, f"{fwhere}.slots[{k}]"):
                check_span(file, dialogue_id, f"{fwhere}.slots[{k}]", utterance, s.get("start"), s.get("exclusive_end"))
                spans.append((s["slot"], Span(start=s["start"], end=s["exclusive_end"])))
        for k, action in enumerate(frame.get("actions") or []):
            with guard(file, dialogue_id, f"{fwhere}.actions[{k}]"):
                acts.extend(DialogueAct(**fields) for fields in _act_fields(service, action, utterance, spans))
        with guard(file, dialogue_id, f"{fwhere}.state"):
            if "state" in frame:
                state[service] = {k: list(v) for k, v in frame["state"].get("slot_values", {}).items()}
        with guard(file, dialogue_id, f"{fwhere}.service_call"):
            if "service_call" in frame:
                call = frame["service_call"]
                results.append(
                    KbResult(
                        domain=service,
                        call=ApiCall(domain=service, method=call["method"], parameters=call.get("parameters", {})),
                        entities=frame.get("service_results") or [],
                    )
                )
    return Turn(index=i, speaker=speaker, utterance=utterance, acts=acts, state=state, kb_results=results)


def _act_fields(service: str, action: dict[str, Any], utterance: str, spans: list[tuple[str, Span]]) -> list[dict[str, Any]]:
    """The :class:`DialogueAct` fields of one SGD action (one act per value) of a frame whose
    ``spans`` are (slot, span) pairs."""
    act = action["act"]
    role = ROLES.get(act, ActRole.OTHER)
    slot = action.get("slot") or ""
    values = action.get("values") or []
    canonical = action.get("canonical_values") or values
    if len(canonical) != len(values):
        canonical = values
    canonical = [trusted_canonical(value, canon) for value, canon in zip(values, canonical)]
    if role is ActRole.COUNT:
        slot = "count"
    if not values or slot == "intent":
        return [{"role": role, "act": act, "domain": service, "slot": slot}]
    candidates = sorted((span for name, span in spans if name == slot), key=lambda s: s.start)
    aligned = align_spans(utterance, values, candidates)
    return [
        {"role": role, "act": act, "domain": service, "slot": slot, "value": value, "canonical": canon, "span": span}
        for value, canon, span in zip(values, canonical, aligned)
    ]


@functools.lru_cache(maxsize=1 << 16)
def trusted_canonical(value: str, canonical: str) -> str:
    """An act's canonical value, unless its own ``value`` says another one: "the text is the
    truth", and ``values`` is the annotation of the text, ``canonical_values`` a rewriting of it
    that an edit of the text and values can leave stale. A value that is wholly a clock time
    said with its period or on the 24-hour clock ("8:00 am", "half past 7 in the evening",
    "19:30") or an amount of dollars ("$40", "forty dollars") reads as one canonical form
    (``HH:MM``, the number); so does a number in digits ("8") over a number canonical, and a
    date said with its day ("March 9th", "the 9th": :func:`csp_check.language.normalize.date_key`,
    a day alone in the canonical's month) over an ISO canonical ("2019-03-09"); where the canonical
    is another, the value's reading is kept; a relative day ("next Sunday") is read from SGD's
    today, Friday 2019-03-01 (:data:`csp_check.language.dates.SGD_TODAY`, so all the relative
    dates of SGD dev + train read).
    "7:30" without am / pm may be 19:30 (its canonical decides), and any value of another
    shape keeps its canonical.

    >>> trusted_canonical("8:00 am", "07:00"), trusted_canonical("7:30", "19:30")
    ('08:00', '19:30')
    >>> trusted_canonical("8", "6"), trusted_canonical("March 18th", "2019-03-13")
    ('8', '2019-03-18')
    """
    folded = fold(value)
    said = clock_time(normalize(value))
    if said is not None and re.fullmatch(r"\d\d:\d\d", canonical):
        definite = PERIOD_WORDS.search(folded) or int(said[:2]) >= 13 or said[:2] == "00"
        return said if definite and said != canonical else canonical
    amount = dollars(normalize(value)) if "$" in value or "dollar" in folded or "usd" in folded else None
    if amount is not None and re.fullmatch(r"\d+(?:\.\d+)?", canonical) and float(amount) != float(canonical):
        return amount
    if re.fullmatch(r"\d{1,4}", value.strip()) and re.fullmatch(r"\d{1,4}", canonical):
        return str(int(value)) if int(value) != int(canonical) else canonical  # "8" over a stale "6"
    if re.fullmatch(r"\d{4}-\d\d-\d\d", canonical):
        key = date_key(value, int(canonical[5:7]))  # "March 9th", "the 9th" (in the canonical's month)
        if key is not None and key != "relative" and key != canonical[5:]:
            return f"{canonical[:4]}-{key}"
        named = resolve_dates(value, SGD_TODAY) if key == "relative" else []  # SGD's today (3,235 of 3,235 so)
        if len(named) == 1 and named[0].isoformat() != canonical:
            return named[0].isoformat()
    return canonical


def align_spans(utterance: str, values: list[str], spans: list[Span]) -> list[Span | None]:
    """The span of each of an act's ``values`` among the frame's ``spans`` of its slot (spec §9).

    A span whose text equals a value (normalised) goes to that value, each span at most once;
    the values left then take the spans left in text order. So a span whose text no longer
    matches any act value ("12" where the act says 10, "A, A or C" where the act lists A, B, C)
    is still a variable, and two spans with equal text are two variables. Several acts of one
    slot (INFORM and CONFIRM of one mention) align with the same spans independently: one span
    annotated by several acts stays one variable (the delexicalizer keys variables by span).
    Returns one entry per value; ``None`` when there are more values than spans.
    """
    out: list[Span | None] = [None] * len(values)
    free = list(spans)
    for i, value in enumerate(values):
        key = normalize(value)
        for span in free:
            if normalize(utterance[span.start : span.end]) == key:
                out[i] = span
                free.remove(span)
                break
    left = [i for i, span in enumerate(out) if span is None]
    for i, span in zip(left, free):
        out[i] = span
    return out
