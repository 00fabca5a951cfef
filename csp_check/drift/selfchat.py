"""The drift protocol (paper §3, Figure 2): a self-chat between two copies of a chat model, the
agent under test with system prompt s_B and a user with s_A, probed at every round.

One **run** of a suite prompt, with N rounds (:meth:`SelfChat.run`):

1. a conversation starter a_1 is drawn from the prompt's starters (``random.Random`` seeded by
   ``(seed, prompt id, run)``);
2. for i = 1 … N: the history is cut after round i − 1 (``s_B, a_1, b_1, …, a_{i−1}, b_{i−1}``),
   the user's turn a_i is replaced by the probe p_B, and the agent's answer b'_i is kept (round
   i's probe answer); then, for i < N, the agent answers a_i (b_i) and the user LM — which sees
   the chat from its side (:func:`user_view`: s_A with its opening a_1, the agent's turns as
   ``user``, its own as ``assistant``) — writes a_{i+1};
3. each answer b'_i is scored by the prompt's measure f_B (:func:`~csp_check.drift.task_measures.score`):
   instruction stability at round i.

Every request goes through :class:`csp_check.llm.client.ChatClient` (disk cache, retries) with
the run's seed. Finished runs are kept per prompt in ``DIR/conversations/<id>.json`` (the whole
chat and the probe answers) and reused by a later call with the same settings: a run stopped
half-way resumes at its first unfinished run, and changing a measure rescores without asking
the server again.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import socket
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from csp_check.drift.suite import SuitePrompt
from csp_check.errors import CspCheckError, ServerUnreachable
from csp_check.llm.client import ChatClient, Completion, LLMSettings

Message = dict[str, str]


class DriftRequestError(CspCheckError):
    """A request of a self-chat failed for good (after the client's retries)."""


@dataclass(frozen=True)
class DriftSettings:
    """What a drift run asks: the agent's and the user's model (the same by default: the
    paper's "two copies of the same chatbot"), ``rounds`` N ≥ 1, ``runs`` R ≥ 1 per prompt,
    ``seed``. ``agent`` carries the server, temperature, cache and concurrency."""

    agent: LLMSettings
    rounds: int
    runs: int = 1
    seed: int = 0
    user_model: str | None = None

    def user(self) -> LLMSettings:
        """The user LM's settings: the agent's with ``user_model``."""
        return replace(self.agent, model=self.user_model or self.agent.model)

    def key(self) -> dict[str, Any]:
        """What a cached conversation must match to be reused."""
        return {"base_url": self.agent.base_url.rstrip("/"), "model": self.agent.model,
                "user_model": self.user_model or self.agent.model, "temperature": self.agent.temperature,
                "rounds": self.rounds, "seed": self.seed, "max_tokens": self.agent.max_tokens}  # fmt: skip


@dataclass
class RunRecord:
    """One self-chat: its seed and starter, the chat ``a_1, b_1, …`` (role ``user`` for the
    user LM, ``assistant`` for the agent) and the probe answers b'_1 … b'_N."""

    run: int
    seed: int
    starter: str
    chat: list[Message] = field(default_factory=list)
    probe_answers: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"run": self.run, "seed": self.seed, "starter": self.starter, "chat": self.chat,
                "probe_answers": self.probe_answers}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunRecord:
        return cls(run=int(data["run"]), seed=int(data["seed"]), starter=str(data["starter"]),
                   chat=list(data["chat"]), probe_answers=[str(a) for a in data["probe_answers"]])  # fmt: skip


def run_seed(seed: int, prompt_id: str, run: int) -> int:
    """The seed of one run: a 31-bit hash of (seed, prompt id, run), stable across Pythons."""
    digest = hashlib.sha256(f"{seed}\0{prompt_id}\0{run}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def check_reachable(base_url: str, timeout: float = 5.0) -> None:
    """Raise :class:`ServerUnreachable` (naming ``base_url``) when nothing accepts a TCP
    connection at its host and port."""
    parsed = urlparse(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ServerUnreachable(f"{base_url}: not an http(s) URL")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((parsed.hostname, port), timeout=timeout):
            pass
    except OSError as err:
        raise ServerUnreachable(f"cannot reach the server at {base_url}: {err.strerror or err}") from None


class SelfChat:
    """Runs the protocol for suite prompts; ``agent`` and ``user`` are the two chat clients."""

    def __init__(self, settings: DriftSettings, agent: ChatClient | None = None, user: ChatClient | None = None):
        self.settings = settings
        self.agent = agent or ChatClient(settings.agent)
        self.user = user or (self.agent if not settings.user_model else ChatClient(settings.user()))

    def _ask(self, client: ChatClient, messages: list[Message], seed: int) -> str:
        out = client.chat(messages, seed=seed)
        if not isinstance(out, Completion):
            raise DriftRequestError(f"{client.settings.base_url}: model {client.settings.model}: {out.error}")
        return out.text

    def run(self, prompt: SuitePrompt, run: int) -> RunRecord:
        """One self-chat of ``prompt`` with its probe at every round (module docstring)."""
        seed = run_seed(self.settings.seed, prompt.id, run)
        starter = random.Random(seed).choice(prompt.starters)
        record = RunRecord(run=run, seed=seed, starter=starter)
        said: list[str] = [starter]  # a_1, b_1, a_2, b_2, …
        system = {"role": "system", "content": prompt.system_prompt}
        for i in range(1, self.settings.rounds + 1):
            history = [{"role": "user" if k % 2 == 0 else "assistant", "content": t} for k, t in enumerate(said[: 2 * (i - 1)])]
            record.probe_answers.append(self._ask(self.agent, [system, *history, {"role": "user", "content": prompt.probe}], seed))
            if i == self.settings.rounds:
                break
            said.append(self._ask(self.agent, [system, *history, {"role": "user", "content": said[-1]}], seed))
            said.append(self._ask(self.user, user_view(prompt.user_prompt, said), seed))
        record.chat = [{"role": "user" if k % 2 == 0 else "assistant", "content": t} for k, t in enumerate(said)]
        return record


def user_view(user_prompt: str, said: list[str]) -> list[Message]:
    """The chat as the user LM sees it after ``said`` = a_1, b_1, …, a_i, b_i: its system prompt
    s_A with its opening line a_1 appended, then the agent's turns as ``user`` and its own as
    ``assistant`` — so the roles alternate from a ``user`` turn, as strict chat templates
    (Llama 2's) require."""
    opening = f"{user_prompt}\n\nYou opened the conversation by saying: {said[0]}"
    turns = [{"role": "user" if k % 2 == 0 else "assistant", "content": t} for k, t in enumerate(said[1:])]
    return [{"role": "system", "content": opening}, *turns]


def _safe_name(prompt_id: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]", "_", prompt_id)[:80]
    return f"{name}-{hashlib.sha256(prompt_id.encode()).hexdigest()[:8]}" if name != prompt_id else name


class ConversationStore:
    """The finished runs of each prompt in ``directory/<id>.json``, valid for one settings
    ``key`` and one prompt text (a changed system prompt, probe or setting starts afresh);
    written atomically (a temporary file renamed) so a killed run leaves whole files."""

    def __init__(self, directory: Path, key: dict[str, Any]):
        self.directory = Path(directory)
        self.key = key
        self.lock = threading.Lock()

    def path(self, prompt: SuitePrompt) -> Path:
        return self.directory / f"{_safe_name(prompt.id)}.json"

    @staticmethod
    def _prompt_key(prompt: SuitePrompt) -> list[Any]:
        return [prompt.system_prompt, prompt.probe, prompt.user_prompt, prompt.starters]

    def load(self, prompt: SuitePrompt) -> dict[int, RunRecord]:
        """The runs kept for ``prompt`` (none when the file is missing, damaged or stale)."""
        try:
            data = json.loads(self.path(prompt).read_text(encoding="utf-8"))
            if data.get("key") != self.key or data.get("prompt") != self._prompt_key(prompt):
                return {}
            return {int(r["run"]): RunRecord.from_json(r) for r in data.get("runs", [])}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def save(self, prompt: SuitePrompt, record: RunRecord) -> None:
        """Add one finished run to the prompt's file."""
        with self.lock:
            runs = self.load(prompt)
            runs[record.run] = record
            self.directory.mkdir(parents=True, exist_ok=True)
            payload = {"id": prompt.id, "key": self.key, "prompt": self._prompt_key(prompt),
                       "runs": [runs[r].to_json() for r in sorted(runs)]}  # fmt: skip
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".part")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(payload, f, ensure_ascii=False, indent=1)
            os.replace(tmp, self.path(prompt))


def run_suite(
    prompts: list[SuitePrompt], settings: DriftSettings, store: ConversationStore,
    advance: Callable[[], None] = lambda: None, chat: SelfChat | None = None,
) -> dict[str, list[RunRecord]]:  # fmt: skip
    """Every prompt's R runs, the kept ones reused, the rest asked ``settings.agent.concurrency``
    runs at a time; ``advance`` is called once per finished run. Returns prompt id → runs in
    order. Raises :class:`DriftRequestError` at the first request that fails for good (the runs
    finished before it stay in ``store``)."""
    chat = chat or SelfChat(settings)
    done: dict[str, dict[int, RunRecord]] = {}
    todo: list[tuple[SuitePrompt, int]] = []
    for prompt in prompts:
        kept = store.load(prompt)
        done[prompt.id] = {r: kept[r] for r in range(settings.runs) if r in kept}
        todo += [(prompt, r) for r in range(settings.runs) if r not in kept]
        for _ in done[prompt.id]:
            advance()
    with ThreadPoolExecutor(max_workers=max(1, settings.agent.concurrency)) as pool:
        futures = {pool.submit(chat.run, prompt, r): prompt for prompt, r in todo}
        try:
            for future in as_completed(futures):
                prompt = futures[future]
                record = future.result()
                store.save(prompt, record)
                done[prompt.id][record.run] = record
                advance()
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return {p.id: [done[p.id][r] for r in sorted(done[p.id])] for p in prompts}
