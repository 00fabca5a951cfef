"""Structure-aware fuzzing of ``csp-check validate`` (docs/robustness.md), shared by ``tests/test_fuzz.py``
(hypothesis, in CI) and ``benchmarks/fuzz.py`` (thousands of cases).

A case takes a small, real-shaped corpus written here — SGD (``dialogues_001.json`` +
``schema.json``), MultiWOZ ``data.json`` with a KB, ConvLab-3 unified, our JSONL — and damages
it one way: a key deleted, a type swapped, a huge or negative number, an integer literal of
5,000 digits, nesting thousands deep, a lone surrogate or odd but valid unicode, a flipped or
invalid UTF-8 byte, truncation, a BOM, a wrong ``--format``, or the same damage to the SGD
schema or the KB. It runs the command in-process (click's ``CliRunner``) and checks the
contract (:func:`check_case`):

- the exit code is 0, 1 or 2 and agrees with the report; no traceback, no uncaught exception;
- one stderr line per ``error`` report, nothing else on stderr;
- every dialogue the damage did not touch is reported with the verdict it has in the
  undamaged corpus (:meth:`Case.expected`); none is lost.
"""

from __future__ import annotations

import copy
import json
import os
import random
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from csp_check.cli.main import main
from support.sgd import sgd_dialogue

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FORMATS = ("sgd", "multiwoz", "unified", "jsonl")
STRUCTURAL = ("delete_key", "swap_type", "extra_key", "huge_number", "huge_literal", "deep", "lone_surrogate", "odd_unicode")
BYTES = ("byte_flip", "invalid_utf8", "truncate")
FILE_LEVEL = ("bom", "wrong_format", "empty", "duplicate", "reorder")
AUX = ("schema", "kb")
KINDS = STRUCTURAL + BYTES + FILE_LEVEL + AUX

_HUGE = "__HUGE_LITERAL__"
_DEEP = "__DEEP_NESTING__"


# --- small real-shaped corpora ---------------------------------------------------------------


def _span(utterance: str, value: str) -> tuple[int, int]:
    start = utterance.index(value)
    return start, start + len(value)


SGD_SCHEMA = [
    {
        "service_name": "Restaurants_1",
        "slots": [
            {"name": "cuisine", "is_categorical": False, "possible_values": []},
            {"name": "city", "is_categorical": False, "possible_values": []},
            {"name": "price_range", "is_categorical": True, "possible_values": ["cheap", "moderate", "pricey"]},
        ],
    }
]


def unified_dialogue(dialogue_id: str, count: int) -> dict:
    """A two-turn ConvLab-3 unified restaurant search with ``db_results``; consistent when ``count`` is 2."""
    words = {2: "two", 3: "three"}
    user = "I want a cheap restaurant in the centre."
    system = f"There are {words[count]} cheap restaurants in the centre. Pizza Hut is one."

    def nc(intent: str, slot: str, value: str, text: str) -> dict:
        start, end = _span(text, value)
        return {"intent": intent, "domain": "restaurant", "slot": slot, "value": value, "start": start, "end": end}

    rows = [{"name": n, "pricerange": "cheap", "area": "centre", "food": f} for n, f in (("pizza hut", "italian"), ("golden wok", "chinese"))]
    return {
        "dataset": "multiwoz21", "data_split": "train", "dialogue_id": dialogue_id, "domains": ["restaurant"],
        "turns": [
            {"speaker": "user", "utterance": user, "utt_idx": 0,
             "dialogue_acts": {"categorical": [], "binary": [],
                               "non-categorical": [nc("inform", "price range", "cheap", user), nc("inform", "area", "centre", user)]},
             "state": {"restaurant": {"price range": "cheap", "area": "centre", "food": ""}}},
            {"speaker": "system", "utterance": system, "utt_idx": 1,
             "dialogue_acts": {"categorical": [], "binary": [],
                               "non-categorical": [nc("inform", "choice", words[count], system), nc("recommend", "name", "Pizza Hut", system)]},
             "db_results": {"restaurant": rows}},
        ],
    }  # fmt: skip


KB = {
    "domain": "restaurant",
    "entities": [
        {"name": "casa del sol", "area": "centre", "food": "spanish", "pricerange": "moderate"},
        {"name": "el farolito", "area": "west", "food": "spanish", "pricerange": "cheap"},
        {"name": "pizza hut", "area": "centre", "food": "italian", "pricerange": "cheap"},
    ],
}


@dataclass
class Corpus:
    """A base corpus: its dialogue items, how they are laid out in the main file, and other files."""

    fmt: str
    items: list[tuple[str, Any]]  # (dialogue id, raw item)
    layout: str  # "list", "object" (id → item) or "lines"
    main: str  # the dialogue file's name
    extra: dict[str, Any] = field(default_factory=dict)  # other JSON files (schema.json, kb.json)
    args: tuple[str, ...] = ()


@cache
def corpora() -> dict[str, Corpus]:
    """The four base corpora (4 dialogues each, consistent and inconsistent ones)."""
    sgd = [(f"1_0000{i}", sgd_dialogue(f"1_0000{i}", 2 + (i % 2))) for i in range(1, 5)]
    mwoz = json.loads((FIXTURES / "multiwoz" / "data.json").read_text(encoding="utf-8"))
    unified = [(f"u-{i}", unified_dialogue(f"u-{i}", 2 + (i % 2))) for i in range(1, 5)]
    return {
        "sgd": Corpus("sgd", sgd, "list", "dialogues_001.json", {"schema.json": SGD_SCHEMA}),
        "multiwoz": Corpus("multiwoz", list(mwoz.items()), "object", "data.json", {"kb.json": KB}, ("--kb", "kb.json")),
        "unified": Corpus("unified", unified, "list", "unified.json"),
        "jsonl": Corpus("jsonl", _jsonl_items(sgd), "lines", "dialogues.jsonl"),
    }


def _jsonl_items(sgd: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Our JSONL dialogues: the SGD ones as the reader reads them (a real ``Dialogue`` each)."""
    from csp_check.readers.sgd import from_raw

    out = []
    for dialogue_id, raw in sgd:
        dialogue = from_raw({**raw, "dialogue_id": dialogue_id}, {}, source="x.json")
        data = json.loads(dialogue.model_dump_json())
        data.pop("source"), data.pop("format")
        out.append((f"j{dialogue_id}", {**data, "id": f"j{dialogue_id}"}))
    return out


# --- serialising with item byte ranges -------------------------------------------------------


def _dump(value: Any, ascii_only: bool = False) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


def serialise(corpus: Corpus, items: list[tuple[str, Any]], ascii_item: int | None = None, deep: int = 3000) -> tuple[bytes, list[tuple[int, int]]]:
    """The main file's bytes and each item's byte range in it."""
    parts: list[bytes] = []
    spans: list[tuple[int, int]] = []
    if corpus.layout == "lines":
        head, sep, tail = b"", b"\n", b"\n"
    elif corpus.layout == "list":
        head, sep, tail = b"[\n", b",\n", b"\n]\n"
    else:
        head, sep, tail = b"{\n", b",\n", b"\n}\n"
    pos = len(head)
    for k, (key, item) in enumerate(items):
        text = _dump(item, ascii_only=k == ascii_item)
        text = text.replace(f'"{_HUGE}"', "9" * 5000).replace(f'"{_DEEP}"', "[" * deep + "]" * deep)
        data = (f"{_dump(key)}: " if corpus.layout == "object" else "").encode() + text.encode("utf-8")
        if k:
            parts.append(sep)
            pos += len(sep)
        spans.append((pos, pos + len(data)))
        parts.append(data)
        pos += len(data)
    return head + b"".join(parts) + tail, spans


def write(corpus: Corpus, directory: Path, main: bytes, extra: dict[str, bytes] | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, value in corpus.extra.items():
        (directory / name).write_bytes((extra or {}).get(name) or json.dumps(value).encode())
    path = directory / corpus.main
    path.write_bytes(main)
    return path


# --- mutations -------------------------------------------------------------------------------


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys / indices) into a JSON value, the root included."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, prefix + (i,))
    return out


def _get(value: Any, path: tuple) -> Any:
    for p in path:
        value = value[p]
    return value


def _set(root: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


SWAPS = [None, True, False, "3", "", "x", 3, 0, -1, 1.5, [], {}, ["a"], {"a": 1}]
ODD = ["", " ", "\u0000", "e\u0301", "\u202eevil", "😀" * 3, "\ufeff", "a\u2028b", "ß" * 50, "\U0010ffff"]


def mutate_value(rng: random.Random, kind: str, value: Any) -> tuple[Any, bool]:
    """``value`` damaged structurally by ``kind``; also whether it needs an ASCII dump (a lone surrogate)."""
    value = copy.deepcopy(value)
    paths = _paths(value)
    if kind == "delete_key":
        keyed = [p for p in paths if p and isinstance(_get(value, p[:-1]), dict)]
        if keyed:
            path = rng.choice(keyed)
            del _get(value, path[:-1])[path[-1]]
        return value, False
    if kind == "swap_type":
        return _set(value, rng.choice(paths), rng.choice(SWAPS)), False
    if kind == "extra_key":
        objects = [p for p in paths if isinstance(_get(value, p), dict)]
        if objects:
            _get(value, rng.choice(objects))[rng.choice(["x", "id", "turns", "start", "", "€"])] = rng.choice(SWAPS)
        return value, False
    if kind == "huge_number":
        return _set(value, rng.choice(paths), rng.choice([10**30, -(10**30), -1, -(2**63), 2**64, 1e308, -0.0])), False
    if kind == "huge_literal":
        return _set(value, rng.choice(paths), _HUGE), False
    if kind == "deep":
        return _set(value, rng.choice(paths), _DEEP), False
    strings = [p for p in paths if isinstance(_get(value, p), str)] or paths
    path = rng.choice(strings)
    old = _get(value, path)
    old = old if isinstance(old, str) else ""
    if kind == "lone_surrogate":
        cut = rng.randint(0, len(old))
        return _set(value, path, old[:cut] + rng.choice(["\udc80", "\ud800", "\udfff"]) + old[cut:]), True
    if kind == "odd_unicode":
        return _set(value, path, rng.choice([rng.choice(ODD), old + rng.choice(ODD), rng.choice(ODD) + old])), False
    raise ValueError(kind)


@dataclass
class Case:
    """One damaged corpus: what to run and which dialogues must come out as in the clean corpus."""

    fmt: str
    kind: str
    target: int
    seed: int
    files: dict[str, bytes]
    args: tuple[str, ...]
    good: set[str]  # dialogue ids that must be reported with their clean verdict
    present: set[str] = field(default_factory=set)  # ids that must be reported, any non-error verdict
    refused: bool = False  # the whole file must be refused (exit 2, no verdict)
    kb_damaged: bool = False


STRUCT_BYTES = set(b'[]{}",\\')


def make_case(fmt: str, kind: str, target: int, seed: int) -> Case:
    """The case ``kind`` of corpus ``fmt``, damaging dialogue ``target`` (mod 4), choices by ``seed``."""
    rng = random.Random(seed)
    corpus = corpora()[fmt]
    items = [(k, copy.deepcopy(v)) for k, v in corpus.items]
    target %= len(items)
    ids = [k for k, _ in items]  # the id each dialogue is reported under
    all_ids = set(ids)
    others = all_ids - {ids[target]}
    args = tuple(corpus.args)
    extra: dict[str, bytes] = {}
    good, present, refused, kb_damaged = set(others), set(), False, False
    ascii_item = None
    if kind in STRUCTURAL:
        new, ascii_only = mutate_value(rng, kind, items[target][1])
        items[target] = (items[target][0], new)
        ascii_item = target if ascii_only else None
    elif kind == "duplicate" and corpus.layout != "object":  # the same dialogue twice: both reported
        items.insert(target, items[target])
        good = all_ids
    elif kind == "reorder":
        rng.shuffle(items)
        good = all_ids
    main, spans = serialise(corpus, items, ascii_item, deep=rng.choice([50, 3000, 100_000]))
    start, end = spans[target]
    if kind == "byte_flip":
        at = rng.randrange(start, end)
        old, new = main[at], rng.randrange(256)
        main = main[:at] + bytes([new]) + main[at + 1 :]
        if corpus.layout != "lines" and (old in STRUCT_BYTES or new in STRUCT_BYTES):
            good = set(ids[:target])  # the items after may be lost with the structure
    elif kind == "invalid_utf8":
        at = rng.randrange(start, end)
        main = main[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]) + main[at:]
    elif kind == "truncate":
        main = main[: rng.randrange(start, end)]
        good = set(ids[:target])
    elif kind == "bom":
        main = b"\xef\xbb\xbf" + main
        good = all_ids
    elif kind == "wrong_format":
        args += ("--format", rng.choice([f for f in FORMATS if f != fmt]))
        good, refused = set(), True
    elif kind == "empty":
        main = rng.choice([b"", b"null", b"[]", b"{}", b"\n\n", b"3", b'"x"'])
        good = set()
    elif kind in AUX:
        name = "schema.json" if fmt == "sgd" else "kb.json"
        if name in corpus.extra:
            good, present = set(), all_ids if name == "schema.json" else set()
            kb_damaged = name == "kb.json"
            extra[name] = _damaged_json(rng, corpus.extra[name])
        else:
            good = all_ids  # nothing to damage: the clean corpus
    files = {corpus.main: main, **{n: extra.get(n) or json.dumps(v).encode() for n, v in corpus.extra.items()}}
    return Case(fmt, kind, target, seed, files, args, good, present, refused, kb_damaged)


def _damaged_json(rng: random.Random, value: Any) -> bytes:
    """A schema or KB damaged: structurally, by bytes, or replaced by a wrong shape."""
    how = rng.choice(["struct", "struct", "flip", "truncate", "shape", "deep"])
    if how == "struct":
        new, ascii_only = mutate_value(rng, rng.choice(STRUCTURAL), value)
        text = json.dumps(new, ensure_ascii=ascii_only)
        return text.replace(f'"{_HUGE}"', "9" * 5000).replace(f'"{_DEEP}"', "[" * 3000 + "]" * 3000).encode("utf-8")
    data = json.dumps(value).encode()
    if how == "flip":
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if how == "truncate":
        return data[: rng.randrange(len(data))]
    if how == "shape":
        return rng.choice([b'["x"]', b"[1, 2]", b"{}", b"null", b'"schema"', b"[[]]", b'[{"service_name": 3}]'])
    return b"[" * 5000 + b"]" * 5000


# --- running and checking --------------------------------------------------------------------


@cache
def clean_verdicts(fmt: str, directory: str) -> dict[str, str]:
    """Dialogue id → status of the undamaged corpus ``fmt`` (written under ``directory``)."""
    corpus = corpora()[fmt]
    main, _ = serialise(corpus, corpus.items)
    path = write(corpus, Path(directory) / f"clean-{fmt}", main)
    report = path.parent / "report.jsonl"
    result = invoke_in(path.parent, ["validate", path.name, "--report", "report.jsonl", "--quiet", *corpus.args])
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    return {r["dialogue_id"]: r["status"] for r in map(json.loads, filter(None, report.read_text().split("\n")))}


def invoke_in(directory: Path, args: list[str]) -> Any:
    """``csp-check ARGS`` run in-process (click's ``CliRunner``) with ``directory`` as working directory."""
    old = os.getcwd()
    os.chdir(directory)
    try:
        return CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    finally:
        os.chdir(old)


@dataclass
class Outcome:
    exit_code: int
    stderr: list[str]
    reports: list[dict]
    problems: list[str]
    lost: int


def run_case(case: Case, directory: Path, extra_args: tuple[str, ...] = ()) -> Outcome:
    """Write the case under ``directory``, run ``csp-check validate`` in-process, check the contract."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        (directory / name).write_bytes(data)
    report = directory / "report.jsonl"
    report.unlink(missing_ok=True)
    corpus = corpora()[case.fmt]
    result = invoke_in(directory, ["validate", corpus.main, "--report", "report.jsonl", "--json", *case.args, *extra_args])
    return check_case(case, result, report, clean_verdicts(case.fmt, str(directory.parent)))


def check_case(case: Case, result: Any, report: Path, clean: dict[str, str]) -> Outcome:
    """The contract of the module docstring; ``problems`` lists what broke it, ``lost`` counts good
    dialogues missing or with another verdict than in the clean corpus."""
    problems: list[str] = []
    stderr = [line for line in result.stderr.splitlines() if line.strip()]
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        problems.append(f"uncaught {type(result.exception).__name__}: {result.exception}")
    if "Traceback" in result.stderr or "Traceback" in result.stdout:
        problems.append("traceback printed")
    if result.exit_code not in (0, 1, 2):
        problems.append(f"exit code {result.exit_code}")
    # JSONL lines end at "\n" only: a report may hold U+2028 or U+001C, where str.splitlines also splits
    text = report.read_text(encoding="utf-8") if report.exists() else ""
    reports = []
    for line in filter(None, text.split("\n")):
        try:
            reports.append(json.loads(line))
        except ValueError:
            problems.append(f"report line is no JSON: {line[:80]!r}")
    errors = [r for r in reports if r["status"] == "error"]
    if case.kb_damaged and not report.exists():  # an unloadable --kb: the whole run is a usage error
        if result.exit_code != 2 or len(stderr) != 1 or not stderr[0].startswith("csp-check: error: --kb"):
            problems.append(f"unloadable KB: exit {result.exit_code}, stderr {stderr[:3]}")
        return Outcome(result.exit_code, stderr, reports, problems, 0)
    # a path with no dialogue is an error report of its own ("no dialogues in PATH"); the run's line
    # "no dialogues in PATH..." without any report comes only when there is no report at all
    no_dialogues = [line for line in stderr if line.startswith("csp-check: error: no dialogues in")] if not reports else []
    if len(stderr) - len(no_dialogues) != len(errors):
        problems.append(f"{len(stderr)} stderr lines for {len(errors)} error reports: {stderr[:4]}")
    statuses = {r["status"] for r in reports}
    expected_exit = 2 if errors or not reports else (1 if statuses & {"inconsistent", "unknown"} else 0)
    if result.exit_code != expected_exit:
        problems.append(f"exit code {result.exit_code}, the report says {expected_exit}")
    if case.refused and statuses - {"error"}:
        problems.append(f"a named format that does not fit gave verdicts {statuses}")
    by_id: dict[str, list[str]] = {}
    for r in reports:
        by_id.setdefault(r["dialogue_id"], []).append(r["status"])
    lost = 0
    for dialogue_id in sorted(case.good):
        if clean[dialogue_id] not in by_id.get(dialogue_id, []):
            lost += 1
            problems.append(f"good dialogue {dialogue_id} lost: clean {clean[dialogue_id]}, got {by_id.get(dialogue_id)}")
    for dialogue_id in sorted(case.present):
        if not set(by_id.get(dialogue_id, [])) - {"error"}:
            lost += 1
            problems.append(f"dialogue {dialogue_id} not checked: got {by_id.get(dialogue_id)}")
    return Outcome(result.exit_code, stderr, reports, problems, lost)
