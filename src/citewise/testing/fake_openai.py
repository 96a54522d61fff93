"""A fake OpenAI-compatible Chat Completions server on loopback, scriptable per test.

It speaks the exact wire format of ``POST {base}/chat/completions`` (see ``shared/wire``), so the
real ``openai`` SDK talks to it over a real socket: nothing in the client is patched. Each test
scripts what the "model" does next::

    from citewise.testing import FakeOpenAIServer

    with FakeOpenAIServer() as server:
        server.enqueue_reply('{"topics": ["a", "b"]}', usage={"prompt_tokens": 12, "cached_tokens": 4})
        server.enqueue_error(429, "slow down", type="rate_limit_error", headers={"retry-after": "2"})
        server.enqueue_reply("cut off", finish_reason="length")
        server.enqueue_delay(2.0, then="too late")      # longer than the client's timeout
        server.enqueue_html(404, "<html>Not Found</html>")
        ...  # point the client at server.base_url with any non-empty key
        assert server.requests[0].headers["authorization"] == "Bearer sk-test"

Scripted replies are served first in, first out; when none is left, ``server.responder`` (a callable
given the request's JSON body) decides, and without one the server answers 500 and says so.
``latency_s`` and ``tokens_per_s`` make every reply take realistic time, for benchmarks.

Only the standard library is used, so users can import this in their own tests without pytest.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = [
    "FakeError",
    "FakeOpenAIServer",
    "FakeRaw",
    "FakeReply",
    "ReceivedRequest",
]

CHAT_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class FakeReply:
    """A completion the fake model returns (HTTP 200)."""

    content: str | None
    """``choices[0].message.content``; ``None`` sends JSON ``null``."""
    finish_reason: str = "stop"
    """One of ``stop``, ``length``, ``tool_calls``, ``content_filter`` (not checked)."""
    usage: Mapping[str, int] | None = None
    """Token counts: ``prompt_tokens``, ``completion_tokens``, ``cached_tokens``, ``reasoning_tokens``.
    Missing counts are estimated from the text (4 characters a token)."""
    omit_usage: bool = False
    """Leave ``usage`` out of the body, as some OpenAI-compatible servers do."""
    model: str | None = None
    """The model id the server claims to be; by default the requested one."""
    refusal: str | None = None
    """``choices[0].message.refusal``."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra response headers."""
    delay: float = 0.0
    """Seconds to wait before answering (on top of the server's latency)."""


@dataclass(frozen=True)
class FakeError:
    """An error in OpenAI's shape: ``{"error": {"message", "type", "param", "code"}}``."""

    status: int
    message: str
    type: str = "invalid_request_error"
    code: str | None = None
    param: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class FakeRaw:
    """Any body at all, e.g. the HTML page a misconfigured gateway or proxy answers with."""

    status: int
    body: str
    content_type: str = "text/html; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


Scripted = FakeReply | FakeError | FakeRaw
Responder = Callable[[Any], "Scripted | str"]


@dataclass(frozen=True)
class ReceivedRequest:
    """One request the server received, for assertions."""

    method: str
    path: str
    headers: Mapping[str, str]
    """Header names lower-cased."""
    json: Any
    """The decoded JSON body (``None`` if the body was not JSON)."""


class FakeOpenAIServer:
    """A threaded loopback server speaking OpenAI Chat Completions; see the module docstring.

    ``api_key``: when given, any other bearer token is answered with 401 (a missing
    ``Authorization: Bearer`` header always is). ``latency_s``: seconds before every reply;
    ``tokens_per_s``: additionally wait ``completion_tokens / tokens_per_s`` seconds.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        latency_s: float = 0.0,
        tokens_per_s: float | None = None,
    ) -> None:
        self.api_key = api_key
        self.latency_s = latency_s
        self.tokens_per_s = tokens_per_s
        self.responder: Responder | None = None
        self.requests: list[ReceivedRequest] = []
        self._script: deque[Scripted] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._counter = 0
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------

    def enqueue(self, reply: Scripted) -> None:
        """Queue any scripted reply."""
        with self._lock:
            self._script.append(reply)

    def enqueue_reply(
        self,
        content: str | None,
        finish_reason: str = "stop",
        usage: Mapping[str, int] | None = None,
        **options: Any,
    ) -> None:
        """Queue a completion; ``options`` are the other :class:`FakeReply` fields."""
        self.enqueue(FakeReply(content, finish_reason=finish_reason, usage=usage, **options))

    def enqueue_error(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Queue an error response in OpenAI's JSON error shape."""
        self.enqueue(FakeError(status, message, type, code, param, dict(headers or {}), delay))

    def enqueue_delay(self, seconds: float, then: Scripted | str = "late reply") -> None:
        """Queue a reply that only comes after ``seconds`` (to make clients time out)."""
        reply = FakeReply(then) if isinstance(then, str) else then
        self.enqueue(_with_delay(reply, seconds))

    def enqueue_html(self, status: int, body: str, *, headers: Mapping[str, str] | None = None) -> None:
        """Queue an HTML page instead of JSON (a wrong base URL, a proxy's error page)."""
        self.enqueue(FakeRaw(status, body, headers=dict(headers or {})))

    @property
    def pending(self) -> int:
        """Scripted replies not yet served."""
        with self._lock:
            return len(self._script)

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, the value for an OpenAI client's ``base_url``."""
        if self._httpd is None:
            raise RuntimeError("the fake server is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._httpd.server_port}/v1"

    def start(self) -> FakeOpenAIServer:
        """Bind an ephemeral port on 127.0.0.1 and serve in a background thread."""
        if self._httpd is not None:
            return self
        self._closing.clear()
        self._httpd = _Server(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, cut open connections and wake delayed replies, then join every thread."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._closing.set()
        httpd.shutdown()
        httpd.drop_connections()
        httpd.server_close()  # joins the handler threads
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- serving (called from handler threads) -----------------------------------------------

    def _record(self, request: ReceivedRequest) -> int:
        with self._lock:
            self.requests.append(request)
            self._counter += 1
            return self._counter

    def _next(self, body: Any) -> Scripted:
        with self._lock:
            if self._script:
                return self._script.popleft()
        if self.responder is None:
            return FakeError(500, "FakeOpenAIServer: no reply scripted for this request", "server_error")
        reply = self.responder(body)
        return FakeReply(reply) if isinstance(reply, str) else reply

    def _sleep(self, seconds: float) -> bool:
        """Wait, but give up as soon as the server closes. False when closing."""
        if seconds <= 0:
            return not self._closing.is_set()
        return not self._closing.wait(seconds)


def _with_delay(reply: Scripted, seconds: float) -> Scripted:
    return replace(reply, delay=reply.delay + seconds)


def _error_body(message: str, type_: str, code: str | None = None, param: str | None = None) -> bytes:
    return json.dumps({"error": {"message": message, "type": type_, "param": param, "code": code}}).encode()


def _estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


def _completion_body(reply: FakeReply, request: Any, number: int) -> dict[str, Any]:
    messages = request.get("messages", []) if isinstance(request, dict) else []
    prompt_text = "".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))
    counts = dict(reply.usage or {})
    prompt = counts.get("prompt_tokens", _estimate_tokens(prompt_text))
    completion = counts.get("completion_tokens", _estimate_tokens(reply.content or ""))
    requested = request.get("model") if isinstance(request, dict) else None
    body: dict[str, Any] = {
        "id": f"chatcmpl-fake{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or requested or "fake-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": reply.finish_reason,
                "logprobs": None,
                "message": {"role": "assistant", "content": reply.content, "refusal": reply.refusal},
            }
        ],
        "system_fingerprint": None,
    }
    if not reply.omit_usage:
        body["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": counts.get("cached_tokens", 0)},
            "completion_tokens_details": {"reasoning_tokens": counts.get("reasoning_tokens", 0)},
        }
    return body


class _Server(ThreadingHTTPServer):
    # Handler threads are joined on close (no thread outlives the server); connections are cut
    # first so a kept-alive connection cannot hold the join up.
    daemon_threads = False
    block_on_close = True

    def __init__(self, address: tuple[str, int], handler: type[_Handler], fake: FakeOpenAIServer) -> None:
        self.fake = fake
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, handler)

    def drop_connections(self) -> None:
        with self.connections_lock:
            open_connections = list(self.connections)
        for connection in open_connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out and hung up is expected here, not a failure worth a traceback.
        return


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    timeout = 30  # a stuck client cannot keep a handler thread forever
    disable_nagle_algorithm = True  # headers and body go out as separate writes; no 40 ms stalls

    def setup(self) -> None:
        super().setup()
        with self.server.connections_lock:
            self.server.connections.add(self.connection)

    def finish(self) -> None:
        with self.server.connections_lock:
            self.server.connections.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._read_and_record()
        self._send_json(404, _error_body(f"Invalid URL (GET {self.path})", "invalid_request_error"))

    def do_POST(self) -> None:
        fake = self.server.fake
        body = self._read_and_record()
        if self.path.split("?")[0].rstrip("/") != CHAT_PATH:
            self._send_json(404, _error_body(f"Invalid URL (POST {self.path})", "invalid_request_error"))
            return
        auth = self.headers.get("authorization", "")
        if not auth.startswith("Bearer ") or not auth.removeprefix("Bearer ").strip():
            message = "You didn't provide an API key. Send it as 'Authorization: Bearer YOUR_KEY'."
            self._send_json(401, _error_body(message, "invalid_request_error"))
            return
        if fake.api_key is not None and auth.removeprefix("Bearer ").strip() != fake.api_key:
            message = "Incorrect API key provided."
            self._send_json(401, _error_body(message, "invalid_request_error", "invalid_api_key"))
            return
        if not isinstance(body, dict):
            self._send_json(
                400, _error_body("We could not parse the JSON body of your request.", "invalid_request_error")
            )
            return
        if body.get("stream"):
            self._send_json(400, _error_body("FakeOpenAIServer does not stream", "invalid_request_error"))
            return
        self._answer(fake._next(body), body)

    def _read_and_record(self) -> Any:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.number = self.server.fake._record(
            ReceivedRequest(
                method=self.command,
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                json=body,
            )
        )
        return body

    def _answer(self, reply: Scripted, request: dict[str, Any]) -> None:
        fake = self.server.fake
        request_id = {"x-request-id": f"req_fake{self.number}"}
        wait = fake.latency_s + reply.delay
        if isinstance(reply, FakeReply):
            payload = _completion_body(reply, request, self.number)
            if fake.tokens_per_s and "usage" in payload:
                wait += payload["usage"]["completion_tokens"] / fake.tokens_per_s
            status, body, content_type = 200, json.dumps(payload).encode(), "application/json"
            headers = {**request_id, **reply.headers}
        elif isinstance(reply, FakeError):
            status, content_type = reply.status, "application/json"
            body = _error_body(reply.message, reply.type, reply.code, reply.param)
            headers = {**request_id, **reply.headers}
        else:
            status, body, content_type = reply.status, reply.body.encode(), reply.content_type
            headers = dict(reply.headers)
        if not fake._sleep(wait):
            self.close_connection = True  # the server is closing; the client gets no answer
            return
        self._send(status, body, content_type, headers)

    def _send_json(self, status: int, body: bytes, headers: Mapping[str, str] | None = None) -> None:
        self._send(status, body, "application/json", headers or {})

    def _send(self, status: int, body: bytes, content_type: str, headers: Mapping[str, str]) -> None:
        try:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            # The client gave up (its timeout) before the reply was ready.
            self.close_connection = True
