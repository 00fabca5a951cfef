"""MultiWOZ 2.1 – 2.3 ``data.json`` reader, and the MultiWOZ naming shared by the other readers.

Input: ``data.json`` (a JSON object dialogue id → ``{goal, log}``), a single dialogue object
``{goal, log}`` (its id is the file stem) or a list of dialogues (id from ``dialogue_id``/``id``);
a ``.zip`` archive holding one such ``.json`` (the shared ``val.json.zip``), read without
unpacking; or the release's folder layout, a directory with ``data.json`` and
``valListFile.txt`` / ``testListFile.txt``, where ``split`` (``train`` / ``val`` / ``test``)
keeps the dialogues of one split (train: those in neither list).
Format: github.com/budzianowski/multiwoz (2.1 README). Each ``log[i]`` has

- ``text``; even ``i`` is the user, odd ``i`` the system;
- ``metadata`` on system turns: the belief state, ``domain → {semi: {slot: value}, book: {…}}``
  (values are strings, or lists in files converted from 2.2);
- ``dialog_act``: ``{"Restaurant-Inform": [["Food", "italian"], …]}`` (``"No Annotation"`` or
  missing in some turns: the turn then has no acts);
- ``span_info``: ``[act, slot, value, start_word, end_word]``, word indices into
  ``text.split()``, ``end_word`` inclusive.

Reading rules

- acts: see :data:`ROLES`; every act name of the 2.1 release is mapped (``OfferBook`` offers
  like ``Recommend`` / ``Select``; ``OfferBooked`` and ``Book`` report a booking); the
  ``Choice`` slot is an amount (role ``count``, slot ``choice``, ``canonical`` the amount as
  digits when it parses: ``"three"`` → ``"3"``). ``Booking-*`` acts
  get the domain being booked (the turn's other domain, else the last domain of the dialogue).
- slots: the DB column names of ``db/*_db.json`` (:func:`column`): ``Price`` → ``pricerange``,
  ``Addr`` → ``address``, ``Leave`` → ``leaveAt``, ``Ticket`` → ``price``, ``Id`` → ``trainID``,
  …; booking slots that are no DB column become ``book day`` / ``book people`` / ``book stay`` /
  ``book time``.
- values: ``"?"`` and ``"none"`` mean no value; ``dont care`` variants become ``dontcare``.
- spans: word indices become character spans of ``text`` (end exclusive), without the edge
  punctuation the whitespace tokens carry (``north?`` → ``north``, unless the value has it)
  and without text glued to the value by a comma (``10:07,would`` → ``10:07``); a span whose
  end word precedes its start word is an annotation defect: skipped (its act keeps no span)
  and listed in ``Dialogue.defects`` (the dialogue's report shows it); a span outside its
  utterance is an :class:`InputError` naming ``log[i].span_info[k]``.
- state: the system turn's ``metadata`` is the belief state after the preceding user turn and
  is given to both turns (``Turn.state`` is the state *after* a turn). ``""``, ``not
  mentioned`` and ``none`` are skipped; ``a|b`` gives alternatives ``[a, b]``. A ``semi`` slot
  whose value is ``none`` (a constraint the user said that the annotation could not fill) is
  listed in ``Turn.unfilled``.
- an act value with no span does not take the span of its sibling value ("n the centre" and
  "north of town", the span of the second: :func:`acts_of`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from csp_check.errors import InputError
from csp_check.language.normalize import normalize, parse_amount
from csp_check.models import ActRole, Dialogue, DialogueAct, Span, Turn

from .json_stream import at, head, is_index, read_items, turn_list
from .zipped import ZIP_ERRORS, OverBudget, json_members, member_head, read_member, read_small, zip_problem

NAME = "multiwoz"

#: act name (lower case, MultiWOZ and ConvLab-3 unified spelling) → role. Every act name of the
#: MultiWOZ 2.1 release is here: ``OfferBook`` ("shall I book TR3200?") offers an entity like
#: ``Recommend`` / ``Select``; ``OfferBooked`` reports a booking made; ``reqmore``, ``greet``,
#: ``bye``, ``welcome``, ``thank`` carry no domain value.
ROLES = {
    "inform": ActRole.INFORM,
    "recommend": ActRole.OFFER,
    "select": ActRole.OFFER,
    "offerbook": ActRole.OFFER,
    "nooffer": ActRole.NO_RESULT,
    "book": ActRole.BOOKED,
    "offerbooked": ActRole.BOOKED,
    "nobook": ActRole.FAILED,
    "request": ActRole.REQUEST,
    "reqmore": ActRole.OTHER,
    "greet": ActRole.OTHER,
    "bye": ActRole.OTHER,
    "welcome": ActRole.OTHER,
    "thank": ActRole.OTHER,
    # ConvLab-3 unified intents of SGD-derived data
    "offer": ActRole.OFFER,
    "confirm": ActRole.CONFIRM,
    "informcount": ActRole.COUNT,
    "notifysuccess": ActRole.BOOKED,
    "notifyfailure": ActRole.FAILED,
}
#: the MultiWOZ domains (those with a DB table, plus ``bus``).
DOMAINS = ("restaurant", "hotel", "attraction", "train", "taxi", "hospital", "police", "bus")
#: slot name (lower case, spaces and underscores removed) → DB column, for every domain.
_COLUMNS = {
    "price": "pricerange", "pricerange": "pricerange", "addr": "address", "post": "postcode",
    "leave": "leaveAt", "leaveat": "leaveAt", "arrive": "arriveBy", "arriveby": "arriveBy",
    "dest": "destination", "depart": "departure", "ticket": "price", "id": "trainID",
    "trainid": "trainID", "ref": "ref", "reference": "ref", "fee": "entrance fee",
    "entrancefee": "entrance fee", "open": "openhours", "choice": "choice",
    "people": "book people", "bookpeople": "book people", "stay": "book stay",
    "bookstay": "book stay", "day": "book day", "bookday": "book day", "time": "book time",
    "booktime": "book time",
}
#: exceptions by domain: the train table has ``day`` and ``price`` columns, and its ``Time`` is a duration.
_DOMAIN_COLUMNS = {
    "train": {"day": "day", "price": "price", "time": "duration"},
    "bus": {"day": "day"},
}
_NO_VALUE = {"", "?", "none", "not mentioned"}
_SKIP_DOMAINS = {"general", "booking"}
_LOG = re.compile(r'"log"\s*:\s*\[')
_SINGLE_KEYS = {"goal", "log", "dialogue_id", "id"}
_EDGE_PUNCT = ".,;:!?\"'()[]"


def column(domain: str, slot: str) -> str:
    """The DB column of a MultiWOZ slot name in any spelling (``Price``, ``price range``, ``leaveat``).

    Slots of other domains (SGD services in the unified format) are returned unchanged;
    MultiWOZ slots that are no known column are lower-cased. ``none`` → ``""``. Memoised for
    strings (a MultiWOZ state repeats every slot name at every system turn).
    """
    if type(domain) is str and type(slot) is str:
        return _column(domain, slot)
    return _column.__wrapped__(domain, slot)  # malformed input: fails as it always did, uncached


@functools.lru_cache(maxsize=1 << 12)
def _column(domain: str, slot: str) -> str:
    if domain not in DOMAINS and domain not in _SKIP_DOMAINS:
        return slot
    key = slot.lower().replace(" ", "").replace("_", "")
    if key == "none":
        return ""
    return _DOMAIN_COLUMNS.get(domain, {}).get(key) or _COLUMNS.get(key) or slot.lower()


def act_value(value: Any) -> str | None:
    """An act's value, or ``None`` for MultiWOZ's placeholders ``?`` / ``none`` / ``""``."""
    if value is None:
        return None
    text = str(value).strip()
    return None if text.lower() in _NO_VALUE else text


def canonical(slot: str, value: str | None, amount: bool = False) -> str | None:
    """Canonical value: amounts (slot ``choice``, or ``amount``) as digits, ``dont care`` as ``dontcare``."""
    if value is None:
        return None
    if amount or slot == "choice":
        amount = parse_amount(value)
        return value if amount is None else str(amount)
    return "dontcare" if normalize(value) == "dontcare" else value


def state_values(raw: Any) -> list[str]:
    """Alternatives of one belief-state value (string or list); empty when it says nothing."""
    items = raw if isinstance(raw, list) else [raw]
    out: list[str] = []
    for item in items:
        if not isinstance(item, (str, int, float)):
            raise TypeError(f"state value {item!r} is not a string")
        for value in _item_values(str(item)):
            if value not in out:
                out.append(value)
    return out


@functools.lru_cache(maxsize=1 << 14)
def _item_values(item: str) -> tuple[str, ...]:
    """The values of one state item's ``a|b`` parts, placeholders dropped, in order (repeats
    kept: :func:`state_values` drops them across the items); memoised, as every system turn
    repeats the state so far."""
    out = []
    for part in item.split("|"):
        value = canonical("", act_value(part))
        if value is not None and value.lower() != "not mentioned":
            out.append(value)
    return tuple(out)


def role_of(act: str, slot: str) -> ActRole:
    """The role of an act name (``inform``, ``NoOffer``, …) for a mapped ``slot``."""
    return ActRole.COUNT if slot == "choice" else ROLES.get(act.lower().replace("_", ""), ActRole.OTHER)


def word_spans(text: str) -> list[tuple[int, int]]:
    """Character ``(start, end)`` of each token of ``text.split()``."""
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def trim_span(text: str, start: int, end: int, value: str) -> tuple[int, int]:
    """``[start, end)`` without the punctuation that whitespace tokens carry (``north?`` → ``north``)
    and without words glued on by a comma or full stop in tokenised text (``10:07,would`` →
    ``10:07``, ``you.First`` → ``you``).

    A character the annotated ``value`` itself starts or ends with, or contains, is kept.
    """
    glued = re.search(r"(?<=\w)[,;.!?](?=[a-zA-Z])", text[start:end])
    if glued and glued.group() not in value:
        end = start + glued.start()
    while end - start > 1 and text[end - 1] in _EDGE_PUNCT and not value.endswith(text[end - 1]):
        end -= 1
    while end - start > 1 and text[start] in _EDGE_PUNCT and not value.startswith(text[start]):
        start += 1
    return start, end


SPLITS = ("train", "val", "test")
_LIST_FILES = {"val": "valListFile.txt", "test": "testListFile.txt"}


def sniff(path: Path) -> bool:
    """A ``.json`` file whose head shows a MultiWOZ ``log`` list, a ``.zip`` holding one, or a
    release folder (``data.json`` beside ``valListFile.txt``)."""
    if path.is_dir():
        return (path / "data.json").is_file() and (path / _LIST_FILES["val"]).is_file()
    if path.is_file() and path.suffix == ".zip":
        try:
            member = _zip_member(path)
        except ZIP_ERRORS:  # no zip archive at all
            return False
        if member is None:
            return False
        try:  # the head of the member only: never the whole of it
            return bool(_LOG.search(member_head(path, member)))
        except ZIP_ERRORS:  # encrypted, damaged: the reader says why, for this archive only
            return True
    return path.is_file() and path.suffix == ".json" and bool(_LOG.search(head(path, 1 << 20)))


def read(path: Path, split: str | None = None) -> Iterator[Dialogue | InputError]:
    """Dialogues of a MultiWOZ ``data.json`` (id → dialogue), a list of them, one dialogue
    object, a ``.zip`` holding one such file, or a release folder (the KB comes from ``--kb``).
    ``split`` keeps one split's dialogues by the ``valListFile.txt`` /
    ``testListFile.txt`` of the folder (or beside the file); :class:`InputError` when those
    lists are missing or the split is unknown."""
    text = None
    if path.is_dir():
        folder, path = path, path / "data.json"
    else:
        folder = path.parent
    archive = None
    if path.suffix == ".zip":
        try:
            member = _zip_member(path)
            if member is None:
                yield InputError(str(path), "no MultiWOZ .json file in this zip archive")
                return
            text = read_member(path, member)
        except OverBudget as err:
            yield InputError(str(path), str(err))
            return
        except ZIP_ERRORS as err:  # encrypted, an unknown compression, damaged data: this archive only
            yield InputError(str(path), f"cannot read this zip archive: {zip_problem(err)}")
            return
        archive = (path, member)
    keep = None
    if split is not None:
        try:
            keep = split_filter(folder, split, data=path.name if archive is None else archive[1], archive=archive)
        except InputError as err:
            yield err
            return
    for item in read_items(path, convert, _SINGLE_KEYS, text=text):
        if keep is None or isinstance(item, InputError) or keep(item.id):
            yield item


def split_filter(folder: Path, split: str, data: str = "data.json", archive: tuple[Path, str] | None = None):  # -> Callable[[str], bool]
    """A test ``dialogue id → in split``: ``val`` / ``test`` are the ids listed in
    ``valListFile.txt`` / ``testListFile.txt`` of ``folder`` (with or without ``.json``),
    ``train`` the ids in neither. ``data`` names the dialogue file the lists go with (for the
    message); with ``archive`` = (zip path, member name), the lists are looked for inside the zip
    beside that member first, then beside the zip. Only the lists the split needs are read.
    Raises :class:`InputError` for a missing list or split name."""
    if split not in SPLITS:
        raise InputError(str(folder), f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    lists: dict[str, set[str]] = {}
    for name, file in _LIST_FILES.items():
        if split not in ("train", name):
            continue
        text = _list_in_zip(archive, file) if archive is not None else None
        where = folder / file
        if text is None:
            if not where.is_file():
                if archive is not None:
                    inside = f"{archive[0]}:{archive[1].rsplit('/', 1)[0] + '/' if '/' in archive[1] else ''}{file}"
                    raise InputError(str(archive[0]), f"--split {split} needs the release's {file}: not inside the "
                                     f"zip beside {archive[1]} ({inside}) nor beside the zip ({where})")  # fmt: skip
                raise InputError(str(where), f"--split {split} needs the release's {file} beside {data}")
            text = where.read_text(encoding="utf-8")
        lists[name] = {_stem(line) for line in text.split() if line.strip()}
    if split == "train":
        held = lists["val"] | lists["test"]
        return lambda dialogue_id: _stem(dialogue_id) not in held
    chosen = lists[split]
    return lambda dialogue_id: _stem(dialogue_id) in chosen


def _list_in_zip(archive: tuple[Path, str], file: str) -> str | None:
    """The text of the list ``file`` inside the zip, in the folder of the dialogue member; ``None`` if absent."""
    path, member = archive
    return read_small(path, f"{member.rsplit('/', 1)[0]}/{file}" if "/" in member else file)


def _stem(dialogue_id: str) -> str:
    return dialogue_id[:-5] if dialogue_id.endswith(".json") else dialogue_id


def _zip_member(path: Path) -> str | None:
    """The name of the archive's ``data.json``, else of its only ``.json`` member; ``None`` when
    it holds no single JSON file. Raises one of :data:`~csp_check.readers.zipped.ZIP_ERRORS`."""
    names = json_members(path)
    return next((n for n in names if n.rsplit("/", 1)[-1] == "data.json"), names[0] if len(names) == 1 else None)


def convert(path: Path, dialogue_id: str, raw: Any) -> Dialogue:
    """One ``{goal, log}`` dialogue → :class:`Dialogue`; raises :class:`InputError` naming the field.
    Well-formed data (nearly all) is read as plain data validated in one call (:func:`_fields`);
    malformed data is read again model by model, each in its own ``at``, so the error names the field."""
    log = turn_list(path, dialogue_id, raw, "log")
    try:
        return Dialogue.model_validate(_fields(path, dialogue_id, raw, log))
    except Exception:  # malformed: read again below, naming the field
        pass
    turns: list[Turn] = []
    defects: list[str] = []
    last_domain = "booking"
    for i, entry in enumerate(log):
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
            raise InputError(str(path), "a turn must be an object with a string text", dialogue=dialogue_id, field=f"log[{i}].text")
        with at(path, dialogue_id, f"log[{i}]"):
            acts = _acts(path, dialogue_id, i, entry, last_domain, defects)
            last_domain = last_domain_of(acts, last_domain)
            turns.append(Turn(index=i, speaker="user" if i % 2 == 0 else "system", utterance=entry["text"], acts=acts))
        with at(path, dialogue_id, f"log[{i}].metadata"):
            state = _state(entry.get("metadata"))
        if state and i % 2 == 1:
            turns[i].state = state
            turns[i - 1].state = {d: dict(slots) for d, slots in state.items()}
        unfilled = _unfilled(entry.get("metadata"))
        if unfilled and i % 2 == 1:
            turns[i].unfilled = unfilled
            turns[i - 1].unfilled = {d: list(slots) for d, slots in unfilled.items()}
    goal = raw.get("goal") if isinstance(raw.get("goal"), dict) else {}
    seen = [d for d in DOMAINS if goal.get(d)]
    for turn in turns:
        seen += [a.domain for a in turn.acts if a.domain in DOMAINS and a.domain not in seen]
    return Dialogue(id=dialogue_id, source=str(path), format=NAME, domains=seen, turns=turns, defects=defects)


def _fields(path: Path, dialogue_id: str, raw: dict[str, Any], log: list[Any]) -> dict[str, Any]:
    """:func:`convert`'s reading as plain data (turns and acts as dicts), without naming fields:
    raises on malformed data whatever it raised (the caller then reads it model by model), so
    it accepts exactly what that reading accepts."""
    turns: list[dict[str, Any]] = []
    defects: list[str] = []
    last_domain = "booking"
    for i, entry in enumerate(log):
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
            raise TypeError("text")
        acts = _act_fields(path, dialogue_id, i, entry, last_domain, defects)
        last_domain = next((a["domain"] for a in reversed(acts) if a["domain"] not in _SKIP_DOMAINS), last_domain)
        turns.append({"index": i, "speaker": "user" if i % 2 == 0 else "system", "utterance": entry["text"], "acts": acts})
        state = _state(entry.get("metadata"))
        if state and i % 2 == 1:
            turns[i]["state"] = state
            turns[i - 1]["state"] = {d: dict(slots) for d, slots in state.items()}
        unfilled = _unfilled(entry.get("metadata"))
        if unfilled and i % 2 == 1:
            turns[i]["unfilled"] = unfilled
            turns[i - 1]["unfilled"] = {d: list(slots) for d, slots in unfilled.items()}
    goal = raw.get("goal") if isinstance(raw.get("goal"), dict) else {}
    seen = [d for d in DOMAINS if goal.get(d)]
    for turn in turns:
        seen += [a["domain"] for a in turn["acts"] if a["domain"] in DOMAINS and a["domain"] not in seen]
    return {"id": dialogue_id, "source": str(path), "format": NAME, "domains": seen, "turns": turns, "defects": defects}


def _acts(
    path: Path, dialogue_id: str, i: int, entry: dict[str, Any], last_domain: str, defects: list[str] | None = None
) -> list[DialogueAct]:
    return [DialogueAct(**fields) for fields in _act_fields(path, dialogue_id, i, entry, last_domain, defects)]


def _act_fields(
    path: Path, dialogue_id: str, i: int, entry: dict[str, Any], last_domain: str, defects: list[str] | None = None
) -> list[dict[str, Any]]:
    """The :class:`DialogueAct` fields of log entry ``i``'s ``dialog_act`` with their spans."""
    dialog_act = entry.get("dialog_act")
    if not isinstance(dialog_act, dict):  # missing or "No Annotation"
        return []
    text = entry["text"]
    tokens = word_spans(text)
    spans: list[tuple[str, str, str, Span]] = []
    for k, info in enumerate(entry.get("span_info") or []):
        where = f"log[{i}].span_info[{k}]"
        if not isinstance(info, list) or len(info) < 5:
            raise InputError(str(path), "expected [act, slot, value, start_word, end_word]", dialogue=dialogue_id, field=where)
        act, slot, value, first, last = info[:5]
        if is_index(first) and is_index(last) and 0 <= last < first < len(tokens):
            if defects is not None:  # an annotation defect: reported, the span skipped
                defects.append(f"{where}: {act} {slot}={value!r}: words [{first}, {last}] end before they start")
            continue
        if not is_index(first) or not is_index(last) or not 0 <= first <= last < len(tokens):
            raise InputError(
                str(path), f"words [{first}, {last}] are outside its utterance of {len(tokens)} words",
                dialogue=dialogue_id, field=where,
            )
        start, end = trim_span(text, tokens[first][0], tokens[last][1], str(value))
        spans.append((str(act).lower(), str(slot).lower(), str(value).lower(), Span(start=start, end=end)))
    return _fields_of_acts(dialog_act, spans, last_domain)


def acts_of(dialog_act: dict[str, Any], spans: list[tuple[str, str, str, Span]], last_domain: str) -> list[DialogueAct]:
    """A turn's ``{"Domain-Act": [[slot, value], …]}`` → acts, each with its span if annotated.

    ``spans`` holds ``(act, slot, value, span)`` in lower case (consumed); ``Booking-*`` acts take
    the turn's one other domain, else ``last_domain`` (shared with MultiWOZ 2.2).
    """
    return [DialogueAct(**fields) for fields in _fields_of_acts(dialog_act, spans, last_domain)]


def _fields_of_acts(dialog_act: dict[str, Any], spans: list[tuple[str, str, str, Span]], last_domain: str) -> list[dict[str, Any]]:
    """:func:`acts_of`'s acts as their fields."""
    pairs = [(name, pair) for name, items in dialog_act.items() for pair in items]
    domains = {name.split("-", 1)[0].lower() for name, _ in pairs} - _SKIP_DOMAINS
    booking = next(iter(domains)) if len(domains) == 1 else last_domain
    items = [(name, *(list(pair) + [None, None])[:2]) for name, pair in pairs]  # (act, slot, value)
    keys = [(name.lower(), str(slot).lower(), str(value).lower()) for name, slot, value in items]
    exact = [_take_span(spans, *key, exact=True) for key in keys]  # first the spans annotated with this very value
    return [act_fields(name, str(slot), value, span or _take_span(spans, *key), booking)
            for (name, slot, value), key, span in zip(items, keys, exact)]


def last_domain_of(acts: list[DialogueAct], previous: str) -> str:
    """The last domain (not ``general`` / ``booking``) the acts talk about, else ``previous``."""
    return next((a.domain for a in reversed(acts) if a.domain not in _SKIP_DOMAINS), previous)


def make_act(name: str, slot_raw: str, value_raw: Any, span: Span | None, booking: str = "booking") -> DialogueAct:
    """One ``Domain-Act`` / slot / value annotation → :class:`DialogueAct` (shared with MultiWOZ 2.2)."""
    return DialogueAct(**act_fields(name, slot_raw, value_raw, span, booking))


def act_fields(name: str, slot_raw: str, value_raw: Any, span: Span | None, booking: str = "booking") -> dict[str, Any]:
    """:func:`make_act`'s act as its fields."""
    domain, _, act = name.partition("-")
    domain = domain.lower()
    if domain == "booking":
        domain = booking
    slot = column(domain, slot_raw)
    value = act_value(value_raw)
    role = role_of(act, slot)
    if role is ActRole.COUNT and value is None:
        role = role_of(act, "")
    return {"role": role, "act": name, "domain": domain, "slot": slot, "value": value, "canonical": canonical(slot, value),
            "span": span if value else None}


def _take_span(spans: list[tuple[str, str, str, Span]], act: str, slot: str, value: str,
               exact: bool = False) -> Span | None:
    """The span annotated for this act value (removed from ``spans`` so each is used once): one
    annotated with the same value, else (unless ``exact``) the only one left of the act and slot.
    :func:`acts_of` takes the exact ones first, so an act value without a span ("n the centre",
    a clipped word) does not take the span of its sibling ("north of town")."""
    for k, (a, s, v, span) in enumerate(spans):
        if a == act and s == slot and v == value:
            del spans[k]
            return span
    if exact:
        return None
    same = [k for k, (a, s, _, _) in enumerate(spans) if a == act and s == slot]
    if len(same) == 1:
        return spans.pop(same[0])[3]
    return None


def _unfilled(metadata: Any) -> dict[str, list[str]]:
    """``metadata`` → ``Turn.unfilled``: per domain, the ``semi`` slots (as DB columns) whose value
    is ``none``, MultiWOZ 2.1's mark for a constraint the user named that the annotation could
    not fill ("an expensive restaurant that serves light bites": food ``none``)."""
    out: dict[str, list[str]] = {}
    if not isinstance(metadata, dict):
        return out
    for domain_raw, parts in metadata.items():
        semi = parts.get("semi") if isinstance(parts, dict) else None
        if not isinstance(semi, dict):
            continue
        slots = [column(str(domain_raw).lower(), slot) for slot, raw in semi.items()
                 if isinstance(raw, str) and raw.strip().lower() == "none"]  # fmt: skip
        if slots:
            out[str(domain_raw).lower()] = slots
    return out


def _state(metadata: Any) -> dict[str, dict[str, list[str]]]:
    """``metadata`` → ``Turn.state`` (``semi`` slots by DB column, ``book`` slots as ``book …``)."""
    state: dict[str, dict[str, list[str]]] = {}
    if not isinstance(metadata, dict):
        return state
    for domain_raw, parts in metadata.items():
        domain = str(domain_raw).lower()
        if not isinstance(parts, dict):
            raise TypeError(f"metadata.{domain_raw} is not an object")
        slots: dict[str, list[str]] = {}
        for part in ("semi", "book"):
            for slot, raw in (parts.get(part) or {}).items():
                if slot == "booked":
                    continue
                name = column(domain, slot if part == "semi" else f"book{slot}")
                values = state_values(raw)
                if values:
                    slots[name] = values
        if slots:
            state[domain] = slots
    return state
