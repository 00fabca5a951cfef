"""LLM relexicalization: prompt, answer alignment, and the whole path end to end against a real
OpenAI-compatible HTTP server on 127.0.0.1 (http.server in a thread) that fills the masks and
misbehaves on purpose: invalid JSON, a slow answer past the client timeout, HTTP 500 / 401, a
dropped turn, chatter around the dialogue, reformatted punctuation and case."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest

pytest.importorskip("openai")

from support.openai_server import LoopbackServer

from csp_check.check.evaluate import violations
from csp_check.families import instance
from csp_check.llm.align import UNALIGNED, align_answer, align_turns, fill_turn, parse_answer, to_value
from csp_check.llm.client import ChatClient, LLMSettings, ResponseCache
from csp_check.llm.prompt import MASK, build_prompt, masked_turns
from csp_check.models import CSP, ActRole, ConstraintId, DelexicalizedDialogue, Span, Variable, VariableKind
from csp_check.relexicalize import get_relexicalizer

KB = [
    {"name": "napoli", "area": "center", "food": "italian"},
    {"name": "mario", "area": "center", "food": "italian"},
    {"name": "beirut", "area": "east", "food": "lebanese"},
]
TURNS = [
    "Hello {marker}, I want [x1] food in the [x2].",
    "There are [x3] [x4] restaurants there. [x5] is one of them.",
    "Great, please book [x6] for me.",
    "Done, enjoy your meal!",
]
FILLS = ["Italian", "centre", "two", "Italian", "Napoli", "Napoli"]
EXPECTED = {"x1": "italian", "x2": "center", "x3": 2, "x4": "italian", "x5": "napoli", "x6": "napoli"}


def _var(name: str, turn: int, slot: str, value, kind=VariableKind.SLOT, role=ActRole.INFORM, span=True) -> Variable:
    return Variable(
        name=name, turn=turn, speaker="user" if turn % 2 == 0 else "system", kind=kind, domain="restaurant",
        slot=slot, role=role, span=Span(start=0, end=1) if span else None, text=str(value) if span else None, value=value,
    )  # fmt: skip


def make_dialogue(marker: str) -> tuple[CSP, DelexicalizedDialogue]:
    """A small hand-built dialogue: CSP (KB, domains, C1/C2/C5/C6) and its delexicalized turns."""
    variables = [
        _var("x1", 0, "food", "italian"),
        _var("x2", 0, "area", "center"),
        _var("x3", 1, "count", 2, kind=VariableKind.AMOUNT, role=ActRole.COUNT),
        _var("x4", 1, "food", "italian", role=ActRole.OFFER),
        _var("x5", 1, "name", "napoli", role=ActRole.OFFER),
        _var("x6", 2, "name", "napoli"),
        _var("x7", 3, "area", "center", role=ActRole.INFORM, span=False),  # implicit
    ]
    constraints = [
        *(instance(ConstraintId.C1, variables=[v.name], slot_type=None if v.kind is VariableKind.AMOUNT else v.slot_type)
          for v in variables),
        instance(ConstraintId.C2, variables=["x1", "x4"]),
        instance(ConstraintId.C2, variables=["x5", "x6"]),
        instance(ConstraintId.C5, variables=["x5", "x4"], table="restaurant", columns=["name", "food"]),
        instance(ConstraintId.C6, variables=["x4", "x2"], table="restaurant", columns=["food", "area"], count_variable="x3"),
    ]  # fmt: skip
    domains = {
        "restaurant.food": ["italian", "lebanese"],
        "restaurant.area": ["center", "east"],
        "restaurant.name": ["beirut", "mario", "napoli"],
    }
    csp = CSP(
        dialogue_id=f"dlg-{marker}", variables=variables, domains=domains, kbs={"restaurant": KB},
        constraints=constraints, assignment={v.name: v.value for v in variables}, max_amount=3,
    )  # fmt: skip
    delex = DelexicalizedDialogue(
        dialogue_id=csp.dialogue_id, variables=variables, turns=[t.format(marker=marker) for t in TURNS],
        speakers=["user", "system", "user", "system"],
    )  # fmt: skip
    return csp, delex


# --------------------------------------------------------------------------- prompt and alignment


def test_prompt_has_the_appendix_structure():
    csp, delex = make_dialogue("alpha")
    turns = masked_turns(delex, csp)
    prompt = build_prompt(turns, KB, "restaurant")
    sections = [m.group(1) for m in re.finditer(r"^### (.+?):$", prompt, re.M)]
    assert sections == ["Task", "Knowledge base", "Dialogue", "Response"]
    assert "Restaurant #1 - Area: center, Food: italian, Name: napoli" in prompt
    assert "Restaurant #3 - " in prompt
    assert "User: Hello alpha, I want [MASK] food in the [MASK]." in prompt
    assert "System: Done, enjoy your meal!" in prompt
    assert prompt.count(MASK) == 6 + prompt.split("### Dialogue:")[0].count(MASK)
    assert [t.masks for t in turns] == [["x1", "x2"], ["x3", "x4", "x5"], ["x6"], []]


@pytest.mark.parametrize(
    "template, answer, expected",
    [
        ("I want [MASK] food in the [MASK].", "I want Italian food in the centre.", ["Italian", "centre"]),
        ("I want [MASK] food in the [MASK].", "i want  ITALIAN food in the centre!", ["ITALIAN", "centre"]),
        ("I want [MASK] food in the [MASK] .", "I want Italian food in the centre .", ["Italian", "centre"]),
        ("There are [MASK] restaurants there.", "There're 3 restaurants there.", ["3"]),  # reworded anchor
        ("[MASK], [MASK] or [MASK]?", "Dogman, Hackers or High Life?", ["Dogman", "Hackers", "High Life"]),
        ("Book [MASK] [MASK] now", "Book Napoli today now", ["Napoli", "today"]),  # masks a space apart
        ("Book [MASK] [MASK] now", "Book Pizza Hut today now", [None, None]),  # …ambiguous without values
        ("I want [MASK] food", "I want [MASK] food", [None]),  # left unfilled
        ("I want [MASK] food", "Something else entirely", [None]),
        ("[MASK]", "Palo Alto.", ["Palo Alto"]),
    ],
)
def test_fill_turn(template, answer, expected):
    assert fill_turn(template, answer) == expected


def test_adjacent_masks_are_cut_where_the_pieces_name_known_values():
    csp, delex = make_dialogue("alpha")
    turns = masked_turns(delex, csp)
    answer = "User: Hello alpha, I want Italian food in the centre.\nSystem: There are two Italian restaurants there. Napoli is one of them."
    values, report = align_answer(turns[:2], answer, csp)
    assert values == {k: EXPECTED[k] for k in ("x1", "x2", "x3", "x4", "x5")} and report.ok
    two_words = "User: Hello alpha, I want Italian food in the centre.\nSystem: There are twenty one Italian restaurants there. Napoli is one of them."
    values, _ = align_answer(turns[:2], two_words, csp)
    assert values["x3"] == 21 and values["x4"] == "italian"


def test_parse_answer_drops_chatter_and_joins_continuations():
    turns, dropped = parse_answer("Sure! Here you go:\n\n**User:** hi there\n2. System: hello\nstill me\n\nHope it helps!")
    assert turns == [("user", "hi there"), ("system", "hello still me")]
    assert dropped == 2


def test_align_turns_skips_a_dropped_and_an_added_turn():
    csp, delex = make_dialogue("alpha")
    turns = masked_turns(delex, csp)
    answer = [
        ("user", "Hello alpha, I want Italian food in the centre."),
        ("system", "Let me check that for you."),  # added
        ("system", "There are two Italian restaurants there. Napoli is one of them."),
        ("system", "Done, enjoy your meal!"),  # the user turn before was dropped
    ]
    assert align_turns(turns, answer) == [0, 2, None, 3]


def test_to_value_maps_words_numbers_and_synonyms():
    csp, _ = make_dialogue("alpha")
    by = {v.name: v for v in csp.variables}
    assert to_value("two", by["x3"], csp) == 2
    assert to_value("about 3 of them", by["x3"], csp) == 3
    assert to_value("several", by["x3"], csp) == UNALIGNED
    assert to_value("the Centre", by["x2"], csp) == "center"
    assert to_value("Italian", by["x1"], csp) == "italian"
    assert to_value("Thai", by["x1"], csp) == "thai"  # a wrong value, not an alignment failure


def test_align_answer_never_raises_on_garbage():
    csp, delex = make_dialogue("alpha")
    turns = masked_turns(delex, csp)
    for answer in ["", "\x00\x01", "User:", "System: [MASK] [MASK]", "User: " + "x" * 5000, "{json: true}"]:
        values, report = align_answer(turns, answer, csp)
        assert set(values) == {"x1", "x2", "x3", "x4", "x5", "x6"}
        assert report.masks == 6 and report.aligned + len(report.issues) == 6


def test_cache_key_depends_on_every_setting(tmp_path):
    base = LLMSettings(base_url="http://h/v1", model="m", cache_dir=tmp_path)
    keys = {
        ResponseCache.key("p", base, 1),
        ResponseCache.key("q", base, 1),
        ResponseCache.key("p", base, 2),
        ResponseCache.key("p", LLMSettings(base_url="http://h/v1", model="m2"), 1),
        ResponseCache.key("p", LLMSettings(base_url="http://h/v1", model="m", temperature=0.0), 1),
        ResponseCache.key("p", LLMSettings(base_url="http://other/v1", model="m"), 1),
    }
    assert len(keys) == 6
    assert ResponseCache.key("p", base, 1) == ResponseCache.key("p", LLMSettings(base_url="http://h/v1/", model="m"), 1)


# --------------------------------------------------------------------------- the fake server


class FakeServer(LoopbackServer):
    """OpenAI-compatible ``POST /v1/chat/completions`` on 127.0.0.1 filling every ``[MASK]`` of
    the prompt's dialogue with :data:`FILLS`. ``plans[marker]`` lists how to answer successive
    requests for the dialogue greeting with ``marker`` (default ``ok``): ``ok``, ``bad-json``,
    ``slow``, ``500``, ``401``, ``drop-turn`` (drops the third line), ``chatter`` (prose around
    a reformatted dialogue)."""

    def __init__(self, plans: dict[str, list[str]], slow_seconds: float = 1.5, lifetime: float = 60.0):
        self.plans = {k: list(v) for k, v in plans.items()}
        self.slow_seconds = slow_seconds
        self.requests = 0
        self.by_marker: dict[str, int] = {}
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.handle(self, body)

        super().__init__(Handler, lifetime)  # stops itself whatever happens

    def handle(self, h: BaseHTTPRequestHandler, body: dict) -> None:
        prompt = body["messages"][-1]["content"]
        lines = prompt.split("### Dialogue:\n", 1)[1].split("\n\n### Response:", 1)[0].splitlines()
        marker = re.search(r"Hello (\w+)", lines[0]).group(1)
        with self.lock:
            self.requests += 1
            self.by_marker[marker] = self.by_marker.get(marker, 0) + 1
            plan = self.plans.get(marker) or []
            mode = plan.pop(0) if plan else "ok"
        if mode == "slow":
            time.sleep(self.slow_seconds)
        if mode == "500":
            return self._send(h, 500, {"error": {"message": "boom", "type": "server_error"}})
        if mode == "401":
            return self._send(h, 401, {"error": {"message": "bad key", "type": "invalid_request_error"}})
        if mode == "bad-json":
            return self._send(h, 200, None, raw=b'{"id": "x", "choices": [ {"message": ')
        fills = iter(FILLS)
        filled = [re.sub(re.escape(MASK), lambda _m: next(fills, "?"), line) for line in lines]
        if mode == "drop-turn":
            del filled[2]
        if mode == "chatter":
            filled = [line.replace(",", " ,").replace("User:", "user :").upper() if i == 0 else line for i, line in enumerate(filled)]
            filled = ["Sure! Here is the dialogue with the masks filled:", "", *filled, "", "Let me know if you need more."]
        answer = {
            "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "\n".join(filled)}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }  # fmt: skip
        self._send(h, 200, answer)

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, payload: dict | None, raw: bytes | None = None) -> None:
        data = raw if raw is not None else json.dumps(payload).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            pass


def _settings(server: FakeServer, cache_dir, **kw) -> LLMSettings:
    options = dict(
        base_url=server.base_url, model="fake-model", timeout=0.5, max_retries=2, backoff=0.01,
        concurrency=3, cache_dir=cache_dir, api_key="sk-test",
    )  # fmt: skip
    options.update(kw)
    return LLMSettings(**options)


def test_end_to_end_against_a_real_http_server(tmp_path):
    markers = ["alpha", "bravo", "charlie", "delta", "echo"]
    plans = {"bravo": ["bad-json"], "charlie": ["drop-turn"], "delta": ["chatter"], "echo": ["slow"]}
    items = [make_dialogue(m) for m in markers]
    started = time.perf_counter()
    with FakeServer(plans) as server:
        relex = get_relexicalizer("llm", settings=_settings(server, tmp_path / "cache"), progress=True)
        out = relex.relexicalize_many(items, random.Random(0))
        assert server.requests == 7  # 5 + one retry after invalid JSON + one after the timeout
        assert server.by_marker == {"alpha": 1, "bravo": 2, "charlie": 1, "delta": 1, "echo": 2}
        by_id = dict(zip(markers, out))
        reports = {m: relex.reports[f"dlg-{m}"] for m in markers}

        for m in ("alpha", "bravo", "delta", "echo"):
            assert by_id[m] == {**EXPECTED, "x7": "center"}, m
            assert reports[m].aligned == 6 and not reports[m].issues, m
        assert violations(items[0][0], by_id["alpha"]) == []
        assert reports["delta"].extra_lines == 2  # the chatter before and after

        dropped = by_id["charlie"]
        assert dropped["x6"] == UNALIGNED and {k: v for k, v in dropped.items() if k != "x6"} == {
            **{k: v for k, v in EXPECTED.items() if k != "x6"}, "x7": "center"
        }
        assert reports["charlie"].missing_turns == [2]
        assert [(i.variable, i.turn) for i in reports["charlie"].issues] == [("x6", 2)]
        assert {v.constraint for v in violations(items[2][0], dropped)} == {ConstraintId.C1, ConstraintId.C2}

        # a rerun is free and identical: every answer comes from the disk cache
        again = get_relexicalizer("llm", settings=_settings(server, tmp_path / "cache"), progress=False)
        assert again.relexicalize_many(items, random.Random(0)) == out
        assert server.requests == 7 and again.client.requests == 0 and again.client.cache_hits == 5
    assert time.perf_counter() - started < 30


def test_failures_are_reported_not_raised(tmp_path):
    plans = {"golf": ["500"] * 10, "hotel": ["401"] * 10}
    items = [make_dialogue("golf"), make_dialogue("hotel")]
    with FakeServer(plans) as server:
        relex = get_relexicalizer("llm", settings=_settings(server, tmp_path / "c"), progress=False)
        golf, hotel = relex.relexicalize_many(items, random.Random(0))
        assert server.by_marker == {"golf": 3, "hotel": 1}  # 5xx retried max_retries times; 401 not retried
    for assignment, marker in ((golf, "golf"), (hotel, "hotel")):
        assert {k: v for k, v in assignment.items() if k != "x7"} == dict.fromkeys(EXPECTED, UNALIGNED)
        assert assignment["x7"] == "center"  # implicit: keeps its value
        report = relex.reports[f"dlg-{marker}"]
        assert report.error and not report.ok and report.masks == 6
    assert "InternalServerError" in relex.reports["dlg-golf"].error
    assert "AuthenticationError" in relex.reports["dlg-hotel"].error
    assert not any((tmp_path / "c").rglob("*.json"))  # failures are not cached


def test_client_without_cache_dir_asks_every_time(tmp_path):
    with FakeServer({}) as server:
        client = ChatClient(_settings(server, None))
        prompt = build_prompt(masked_turns(make_dialogue("india")[1]), KB, "restaurant")
        first, second = client.complete(prompt, 1), client.complete(prompt, 1)
        assert first.text == second.text and not first.cached and server.requests == 2
