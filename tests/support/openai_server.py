"""A scriptable OpenAI-compatible chat server on 127.0.0.1 for the tests of the LLM paths
(drift self-chats, indirect-request judging and generation, …).

``FakeOpenAI(reply)`` serves ``POST /v1/chat/completions``: each request's JSON body goes to
``reply(messages, body)``, which returns the assistant's text (a ``str``), or a
:class:`Status` for an HTTP error. Every request body is kept in ``server.requests``. The server
stops itself after ``lifetime`` seconds whatever the test does.

    with FakeOpenAI(lambda messages, body: "hello") as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="x")
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Status:
    """An HTTP error answer: ``code`` (e.g. 500, 401) and the error message."""

    code: int
    message: str = "error"


Reply = Callable[[list[dict], dict], "str | Status"]


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1 serving ``handler`` (a ``BaseHTTPRequestHandler``
    class), started by ``with``; it stops itself after ``lifetime`` seconds whatever the test does."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], lifetime: float = 120.0):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.watchdog = threading.Timer(lifetime, self.httpd.shutdown)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self):
        self.thread.start()
        self.watchdog.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.watchdog.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeOpenAI(LoopbackServer):
    """OpenAI-compatible ``/v1/chat/completions`` answering with ``reply(messages, body)``."""

    def __init__(self, reply: Reply, lifetime: float = 120.0):
        self.reply = reply
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests.append(body)
                answer = server.reply(body.get("messages", []), body)
                if isinstance(answer, Status):
                    payload = {"error": {"message": answer.message, "type": "server_error"}}
                    return self.send(answer.code, payload)
                self.send(200, {
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": answer}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                })  # fmt: skip

            def send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        super().__init__(Handler, lifetime)


def unused_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (for the unreachable-server paths)."""
    probe = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = probe.server_address[1]
    probe.server_close()
    return f"http://127.0.0.1:{port}/v1"
