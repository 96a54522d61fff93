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

A request with ``"stream": true`` gets the reply as server-sent events in Chat Completions' chunk
format (``text/event-stream``): a first chunk with ``delta.role``, the content in pieces of a few
characters paced at ``tokens_per_s``, a chunk with the ``finish_reason`` and an empty delta, with
``stream_options.include_usage`` a last chunk with no choices and the usage (every chunk before it
carrying ``"usage": null``), then ``data: [DONE]``. Errors are answered before any event, as JSON,
as the real endpoint does; ``FakeReply(cut_after=n)`` stops a stream part way (the connection
dropped, or with ``cut_error`` an error event once the stream has begun).

Only the standard library is used, so users can import this in their own tests without pytest.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from citewise.testing._loopback import LoopbackHandler, LoopbackServer, ReceivedRequest

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
    cut_after: int | None = None
    """Streamed only: send the content's pieces up to this many characters, then stop part way,
    with no finish chunk, usage or ``[DONE]``: the connection is closed mid-body (a dropped
    connection), or :attr:`cut_error` is sent first."""
    cut_error: FakeError | None = None
    """With :attr:`cut_after`: an error event sent at the cut (``data: {"error": {...}}``, as the
    endpoint reports a failure once the stream has begun), then the stream ends."""


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


class FakeOpenAIServer(LoopbackServer[Scripted]):
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
        super().__init__(_Handler, api_key=api_key, latency_s=latency_s)
        self.tokens_per_s = tokens_per_s
        self.responder: Responder | None = None

    # -- scripting (``enqueue`` and ``pending`` come from LoopbackServer) --------------------

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

    # -- lifecycle (``start``, ``close`` and the context manager come from LoopbackServer) ---

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, the value for an OpenAI client's ``base_url``."""
        return self._url("/v1")

    # -- serving (called from handler threads) -----------------------------------------------

    def _next(self, body: Any) -> Scripted:
        scripted = self._pop_scripted()
        if scripted is not None:
            return scripted
        if self.responder is None:
            return FakeError(500, "FakeOpenAIServer: no reply scripted for this request", "server_error")
        reply = self.responder(body)
        return FakeReply(reply) if isinstance(reply, str) else reply


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


_PIECE = re.compile(r"\S{1,4}|\s+")
"""A streamed piece: up to 4 characters (the server's estimate of a token), or a run of spaces."""


def _chunk(payload: Mapping[str, Any], choices: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "id": payload["id"],
        "object": "chat.completion.chunk",
        "created": payload["created"],
        "model": payload["model"],
        "system_fingerprint": None,
        "choices": choices,
        **extra,
    }


def _stream_events(payload: Mapping[str, Any], reply: FakeReply, with_usage: bool) -> list[dict[str, Any]]:
    """The chunks of a streamed reply before the usage chunk: role, content pieces, finish."""
    extra: dict[str, Any] = {"usage": None} if with_usage else {}

    def choice(delta: dict[str, Any], finish: str | None = None) -> list[dict[str, Any]]:
        return [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]

    events = [_chunk(payload, choice({"role": "assistant", "content": "", "refusal": None}), **extra)]
    events += [_chunk(payload, choice({"content": p}), **extra) for p in _PIECE.findall(reply.content or "")]
    if reply.refusal is not None:
        events.append(_chunk(payload, choice({"refusal": reply.refusal}), **extra))
    events.append(_chunk(payload, choice({}, reply.finish_reason), **extra))
    return events


class _Handler(LoopbackHandler[FakeOpenAIServer]):
    """Answers ``POST /v1/chat/completions`` in OpenAI's shape; every other path with 404."""

    def do_GET(self) -> None:
        self._read_and_record()
        self._send_json(404, _error_body(f"Invalid URL (GET {self.path})", "invalid_request_error"))

    def do_POST(self) -> None:
        fake = self.fake
        body = self._read_and_record()
        if self._route() != CHAT_PATH:
            self._send_json(404, _error_body(f"Invalid URL (POST {self.path})", "invalid_request_error"))
            return
        key = self._bearer_key()
        if key is None:
            message = "You didn't provide an API key. Send it as 'Authorization: Bearer YOUR_KEY'."
            self._send_json(401, _error_body(message, "invalid_request_error"))
            return
        if fake.api_key is not None and key != fake.api_key:
            message = "Incorrect API key provided."
            self._send_json(401, _error_body(message, "invalid_request_error", "invalid_api_key"))
            return
        if not isinstance(body, dict):
            self._send_json(
                400, _error_body("We could not parse the JSON body of your request.", "invalid_request_error")
            )
            return
        reply = fake._next(body)
        if body.get("stream") and isinstance(reply, FakeReply):
            self._stream(reply, body)
            return
        self._answer(reply, body)

    def _stream(self, reply: FakeReply, request: dict[str, Any]) -> None:
        """The reply as server-sent events (see the module docstring), paced like the whole reply."""
        fake = self.fake
        if not fake._sleep(fake.latency_s + reply.delay):
            self.close_connection = True
            return
        payload = _completion_body(reply, request, self.number)
        options = request.get("stream_options")
        usage = payload.get("usage") if isinstance(options, dict) and options.get("include_usage") else None
        content = reply.content or ""
        seconds = payload["usage"]["completion_tokens"] / fake.tokens_per_s if fake.tokens_per_s and content else 0.0
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream; charset=utf-8")
            self.send_header("transfer-encoding", "chunked")
            self.send_header("x-request-id", f"req_fake{self.number}")
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            sent = 0
            for event in _stream_events(payload, reply, usage is not None):
                piece = event.get("choices", [{}])[0].get("delta", {}).get("content") if event.get("choices") else None
                finishing = bool(event.get("choices")) and event["choices"][0].get("finish_reason") is not None
                if reply.cut_after is not None and (finishing or sent + len(piece or "") > reply.cut_after):
                    self._cut(reply.cut_error)
                    return
                if piece and not fake._sleep(seconds * len(piece) / len(content)):
                    self.close_connection = True
                    return
                sent += len(piece or "")
                self._event(json.dumps(event))
            if usage is not None:
                self._event(json.dumps(_chunk(payload, [], usage=usage)))
            self._event("[DONE]")
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            self.close_connection = True  # the client stopped reading

    def _cut(self, error: FakeError | None) -> None:
        """Stop a stream part way: an error event and a proper end, or the connection closed mid-body."""
        if error is not None:
            self._event(_error_body(error.message, error.type, error.code, error.param).decode())
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        self.close_connection = True

    def _event(self, data: str) -> None:
        """One ``data:`` event, as one HTTP chunk."""
        frame = f"data: {data}\n\n".encode()
        self.wfile.write(f"{len(frame):x}\r\n".encode() + frame + b"\r\n")
        self.wfile.flush()

    def _answer(self, reply: Scripted, request: dict[str, Any]) -> None:
        fake = self.fake
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
        self._reply_after(wait, status, body, content_type, headers)
