"""Chat completions from any OpenAI-compatible server: disk cache, retries, bounded concurrency.

The ``openai`` package is imported lazily (extra ``csp-check[llm]``). One prompt is one user
message (:meth:`ChatClient.complete`), or a whole chat is a list of ``{"role", "content"}``
messages (:meth:`ChatClient.chat`: the drift self-chats); the answer is the first choice's
message text.

- **Cache.** Every answer is stored under ``cache_dir`` (default ``~/.cache/csp-check``) in a
  file named by the SHA-256 of (prompt, model, temperature, base URL, seed) — for a chat, of its
  messages — : a rerun with the same settings makes no HTTP request and gets the same text
  (reproducible even at T = 0.9).
- **Retries.** Connection errors, timeouts, HTTP 429 / 5xx and malformed answers (invalid JSON,
  no choices, no text) are retried with exponential backoff (``backoff · 2^k`` seconds,
  ``max_retries`` times); other HTTP errors (401, 400, …) are not. A request that still fails
  yields a :class:`CompletionError`, never an exception out of :meth:`ChatClient.complete_many`.
- **Concurrency.** ``complete_many`` runs at most ``concurrency`` requests at a time in a thread
  pool, with a rich progress bar on a terminal (rich is imported only then: ``--quiet`` runs and
  pipes never load it).
- **Budgets.** ``timeout`` is a total deadline per HTTP request (connection, headers and the
  whole body), not reset by every byte a slow server drips; an answer larger than
  ``max_response_bytes`` (default 4 MiB) is refused unread past the cap, not retried and never
  cached (:class:`ResponseTooLarge`).
- **Secrets.** An error a server sends back is shown with ``Authorization`` values, bearer
  tokens, ``sk-…`` keys and the configured key itself redacted (:func:`redact`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from csp_check.errors import MalformedResponse
from csp_check.install import pip_extra

DEFAULT_CACHE_DIR = Path("~/.cache/csp-check")
#: The largest answer body accepted, in bytes (``LLMSettings.max_response_bytes``).
MAX_RESPONSE_BYTES = 4 << 20
DUMMY_KEY = "sk-no-key-needed"  # local servers (vLLM, llama.cpp, Ollama) accept any key


@dataclass(frozen=True)
class LLMSettings:
    """Where and how to ask. ``temperature`` 0.9 as in the paper (§4.5); ``timeout``: the total
    deadline of one HTTP request in seconds (the whole answer, however slowly it comes);
    ``max_response_bytes``: the largest answer body accepted; ``seed`` is sent to the server
    (servers may ignore it) and is part of the cache key; ``api_key`` defaults to
    ``$OPENAI_API_KEY``, else a dummy key."""

    base_url: str
    model: str
    temperature: float = 0.9
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 4
    backoff: float = 1.0
    concurrency: int = 4
    cache_dir: Path | str | None = DEFAULT_CACHE_DIR
    max_tokens: int | None = None
    max_response_bytes: int = MAX_RESPONSE_BYTES


class ResponseTooLarge(MalformedResponse):
    """An answer body over ``max_response_bytes``: not retried (it would come again), not cached."""


class DeadlineExceeded(TimeoutError):
    """A request ran past its total deadline (``LLMSettings.timeout``) while the body dripped in."""


_SECRETS = [
    re.compile(r"(?i)(authorization[\"']?\s*[:=]\s*[\"']?)(?:bearer\s+)?[^\s\"',}]+"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+"),
    re.compile(r"()\bsk-[A-Za-z0-9_-]{8,}"),
]


def redact(text: str, key: str | None = None) -> str:
    """``text`` (an error a server sent back) without secrets: ``Authorization`` values, bearer
    tokens, ``sk-…`` keys, and ``key`` (the configured API key, when it is 6 characters or more)
    wherever it appears, each as ``[redacted]``."""
    if key and len(key) >= 6:
        text = text.replace(key, "[redacted]")
    for pattern in _SECRETS:
        text = pattern.sub(lambda m: m.group(1) + "[redacted]", text)
    return text


@dataclass
class Completion:
    """An answer: ``text``, whether it came from the cache, HTTP attempts made for it."""

    text: str
    cached: bool = False
    attempts: int = 0


@dataclass
class CompletionError:
    """A request that failed for good: the last error, attempts made; ``unreachable``: nothing
    answered at the server's address (connection refused, no route, an unknown host), or the
    request was not sent because of that (:meth:`ChatClient.complete_many`)."""

    error: str
    attempts: int = 0
    unreachable: bool = False


class ResponseCache:
    """Answers on disk, one JSON file per key (``<dir>/<key[:2]>/<key>.json``), written
    atomically so concurrent runs never read half a file."""

    def __init__(self, directory: Path | str):
        self.directory = Path(directory).expanduser()

    @staticmethod
    def key(prompt: str, settings: LLMSettings, seed: int | None) -> str:
        payload = json.dumps(
            [prompt, settings.model, settings.temperature, settings.base_url.rstrip("/"), seed, settings.max_tokens],
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    @staticmethod
    def chat_key(messages: Sequence[dict[str, str]], settings: LLMSettings, seed: int | None) -> str:
        """The key of a whole chat: as :meth:`key`, over the messages (role and content, in order)."""
        payload = json.dumps(
            ["chat", [[m["role"], m["content"]] for m in messages], settings.model, settings.temperature,
             settings.base_url.rstrip("/"), seed, settings.max_tokens],
            ensure_ascii=False,
        )  # fmt: skip
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        text = data.get("text") if isinstance(data, dict) else None
        return text if isinstance(text, str) else None

    def put(self, key: str, text: str, meta: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"text": text, **meta}, f, ensure_ascii=False)
        os.replace(tmp, path)


@dataclass
class ChatClient:
    """Sends prompts to ``settings.base_url``; counts HTTP attempts in ``requests``."""

    settings: LLMSettings
    requests: int = 0
    cache_hits: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _client: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.cache = ResponseCache(self.settings.cache_dir) if self.settings.cache_dir else None

    def api_key(self) -> str:
        """The key sent: ``settings.api_key``, else ``$OPENAI_API_KEY``, else a dummy key."""
        return self.settings.api_key or os.environ.get("OPENAI_API_KEY") or DUMMY_KEY

    def _openai(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError as err:  # pragma: no cover - depends on the environment
                raise RuntimeError(f"the LLM relexicalizer needs the openai package: {pip_extra('llm')}") from err
            key = self.api_key()
            self._client = openai.OpenAI(
                base_url=self.settings.base_url, api_key=key, timeout=self.settings.timeout, max_retries=0
            )
        return self._client

    def complete(self, prompt: str, seed: int | None = None) -> Completion | CompletionError:
        """The answer to one prompt (cached, retried). Never raises for server-side failures."""
        key = ResponseCache.key(prompt, self.settings, seed)
        return self._ask([{"role": "user", "content": prompt}], seed, key)

    def chat(self, messages: Sequence[dict[str, str]], seed: int | None = None) -> Completion | CompletionError:
        """The next assistant message after ``messages`` (``{"role": "system" | "user" |
        "assistant", "content": str}``, in order), cached and retried as :meth:`complete`."""
        return self._ask(list(messages), seed, ResponseCache.chat_key(messages, self.settings, seed))

    def _ask(self, messages: list[dict[str, str]], seed: int | None, key: str) -> Completion | CompletionError:
        if self.cache is not None:
            text = self.cache.get(key)
            if text is not None:
                with self._lock:
                    self.cache_hits += 1
                return Completion(text=text, cached=True)
        client = self._openai()
        attempts = 0
        last = ""
        unreachable = False
        for attempt in range(self.settings.max_retries + 1):
            if attempt:
                time.sleep(self.settings.backoff * 2 ** (attempt - 1))
            attempts += 1
            with self._lock:
                self.requests += 1
            try:
                text = self._request(client, messages, seed)
            except Exception as err:  # classified below: retry or give up
                last = redact(" ".join(f"{type(err).__name__}: {err}".split())[:2000], self.api_key())
                unreachable = _unreachable(err)
                if not _retryable(err):
                    return CompletionError(error=last, attempts=attempts, unreachable=unreachable)
                continue
            if self.cache is not None:
                self.cache.put(key, text, {"model": self.settings.model, "temperature": self.settings.temperature, "seed": seed})
            return Completion(text=text, attempts=attempts)
        return CompletionError(error=f"gave up after {attempts} attempt{'' if attempts == 1 else 's'}: {last}", attempts=attempts, unreachable=unreachable)

    def _request(self, client: Any, messages: list[dict[str, str]], seed: int | None) -> str:
        kwargs: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "temperature": self.settings.temperature,
        }
        if seed is not None:
            kwargs["seed"] = seed
        if self.settings.max_tokens:
            kwargs["max_tokens"] = self.settings.max_tokens
        text_body = self._read_body(client, kwargs)
        try:
            response = json.loads(text_body)
        except ValueError as err:  # a 2xx body that is not JSON
            raise MalformedResponse(f"invalid JSON: {err}") from err
        try:
            text = response["choices"][0]["message"]["content"]
        except (AttributeError, IndexError, KeyError, TypeError) as err:
            raise MalformedResponse(f"no choices / message in {text_body[:200]!r}") from err
        if not isinstance(text, str):
            raise MalformedResponse(f"message content is {type(text).__name__}, not text")
        return text

    def _read_body(self, client: Any, kwargs: dict[str, Any]) -> str:
        """The answer body, read chunk by chunk within the total deadline and the size cap.
        Raises :class:`DeadlineExceeded`, :class:`ResponseTooLarge` or the client's errors."""
        deadline = time.monotonic() + self.settings.timeout
        cap = self.settings.max_response_bytes
        chunks: list[bytes] = []
        size = 0
        late = DeadlineExceeded(f"no whole answer within {self.settings.timeout:g} s (--request-timeout)")
        with client.chat.completions.with_streaming_response.create(**kwargs, timeout=self.settings.timeout) as response:
            watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), response.close)  # a stalled drip
            watchdog.daemon = True
            watchdog.start()
            try:
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > cap:
                        raise ResponseTooLarge(f"the answer is larger than {cap:,} bytes (max_response_bytes)")
                    chunks.append(chunk)
                    if time.monotonic() > deadline:
                        raise late
            except (ResponseTooLarge, DeadlineExceeded):
                raise
            except Exception:
                if time.monotonic() >= deadline:  # closed by the watchdog
                    raise late from None
                raise
            finally:
                watchdog.cancel()
            if time.monotonic() > deadline:
                raise late
        return b"".join(chunks).decode("utf-8", "replace")

    def complete_many(
        self, prompts: Sequence[tuple[str, int | None]], progress: bool = True, description: str = "LLM",
        on_done: Callable[[int, Completion | CompletionError], None] | None = None,
    ) -> list[Completion | CompletionError]:
        """Answers to ``(prompt, seed)`` pairs, in order, ``settings.concurrency`` at a time.

        ``on_done(i, answer)`` is called in the calling thread as each answer arrives (in the
        order they come: a caller writes its partial results then). When the server is
        unreachable (:attr:`CompletionError.unreachable`) before any answer came, the requests
        not yet sent are not sent: each is a ``CompletionError`` saying so, at once."""  # fmt: skip
        results: list[Completion | CompletionError | None] = [None] * len(prompts)
        workers = max(1, self.settings.concurrency)
        answered = stopped = False
        with _progress(progress, description, len(prompts)) as advance:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(self.complete, p, s): i for i, (p, s) in enumerate(prompts)}
                for future in as_completed(futures):
                    i = futures[future]
                    result: Completion | CompletionError
                    if future.cancelled():
                        result = CompletionError(error=f"not sent: the server at {self.settings.base_url} is unreachable",
                                                 unreachable=True)  # fmt: skip
                    else:
                        try:
                            result = future.result()
                        except Exception as err:  # a bug or a missing package: report, do not crash
                            result = CompletionError(error=redact(f"{type(err).__name__}: {err}", self.api_key()))
                    answered = answered or isinstance(result, Completion)
                    if isinstance(result, CompletionError) and result.unreachable and not answered and not stopped:
                        stopped = True  # nothing answers there: do not wait for every retry of every request
                        for other in futures:
                            other.cancel()
                    results[i] = result
                    if on_done is not None:
                        on_done(i, result)
                    advance()
        return [r if r is not None else CompletionError(error="not run") for r in results]


def _unreachable(err: Exception) -> bool:
    """Whether ``err`` says nothing answers at the server's address (a connection error that is
    not a timeout: a server that accepts and is slow is reachable)."""
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    return isinstance(err, openai.APIConnectionError) and not isinstance(err, openai.APITimeoutError)


def _retryable(err: Exception) -> bool:
    if isinstance(err, ResponseTooLarge):
        return False
    if isinstance(err, (MalformedResponse, DeadlineExceeded)):
        return True
    try:
        import openai
    except ImportError:  # pragma: no cover
        return False
    if isinstance(err, (openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError)):
        return True  # APITimeoutError is an APIConnectionError
    if isinstance(err, openai.APIStatusError):
        return err.status_code >= 500 or err.status_code in (408, 409, 429)
    return isinstance(err, openai.APIResponseValidationError)


class _progress:
    """A rich progress bar as a context manager giving an ``advance()`` callable (no-op if off)."""

    def __init__(self, enabled: bool, description: str, total: int):
        self.enabled, self.description, self.total = enabled, description, total
        self.bar: Any = None

    def __enter__(self):
        if not self.enabled or not sys.stderr.isatty():  # stdout is the command's output; only on a terminal
            return lambda: None
        from rich.console import Console  # start-up time: only for a bar that is shown
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(stderr=True)
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=console, transient=True)  # fmt: skip
        self.bar.start()
        task = self.bar.add_task(self.description, total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
