"""Loopback fakes of the three native search APIs, built from the real recordings (``shared/wire``).

Each speaks its provider's exact wire format — plain JSON, and the server-sent events the SDKs
stream — so the official ``openai``, ``anthropic`` and ``google-genai`` SDKs run unpatched against
it. A test scripts a body (built with :func:`openai_web_answer`, :func:`anthropic_web_answer`,
:func:`gemini_grounded_answer`, or a recorded body as it is), an error in the provider's shape, or a
raw page::

    from citewise.testing import FakeNativeServer, anthropic_web_answer

    with FakeNativeServer("anthropic") as server:
        server.enqueue_body(anthropic_web_answer(
            [("Leases run two years.", [("https://law.example/a", "Act", "A lease runs two years.")])],
            searches=[("lease term", [("https://law.example/a", "Act")])]))
        server.enqueue_error(429, "rate limited", type="rate_limit_error", headers={"retry-after": "2"})
        ...  # ANTHROPIC_API_KEY=any, CITEWISE_ANTHROPIC_BASE_URL=server.base_url

A request asking to stream gets the scripted body as that provider's event stream. The Gemini fake
also serves grounding redirects (:meth:`FakeNativeServer.redirect_to`). Only the standard library is
used.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from citewise.testing._loopback import LoopbackHandler, LoopbackServer
from citewise.testing.native_streams import anthropic_events, gemini_events, openai_events
from citewise.testing.native_wire import anthropic_web_answer, gemini_grounded_answer, openai_web_answer

__all__ = [
    "FakeNativeBody",
    "FakeNativeError",
    "FakeNativeRaw",
    "FakeNativeServer",
    "anthropic_web_answer",
    "gemini_grounded_answer",
    "openai_web_answer",
]

_PATHS = {"openai": "/v1", "anthropic": "", "gemini": ""}
_REDIRECT_PATH = "/grounding-api-redirect/"


@dataclass(frozen=True)
class FakeNativeBody:
    """A successful answer: the provider's response body (streamed when the request asks)."""

    body: Mapping[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FakeNativeError:
    """An error in the provider's own shape."""

    status: int
    message: str
    type: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FakeNativeRaw:
    """Any body at all (a recorded event stream, a gateway's HTML page)."""

    status: int
    body: str
    content_type: str = "text/html; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)


Scripted = FakeNativeBody | FakeNativeError | FakeNativeRaw


class FakeNativeServer(LoopbackServer[Scripted]):
    """A loopback server for ``provider`` (``openai``, ``anthropic`` or ``gemini``); see the module
    docstring. Without a scripted reply it answers 500 and says so."""

    def __init__(self, provider: str, *, latency_s: float = 0.0, event_delay_s: float = 0.0) -> None:
        if provider not in _PATHS:
            raise ValueError(f"unknown provider {provider!r}; valid: {', '.join(_PATHS)}")
        super().__init__(_Handler, api_key=None, latency_s=latency_s)
        self.provider = provider
        self.event_delay_s = event_delay_s
        """Seconds between the events of a streamed answer (a real model writes as it goes)."""
        self.redirects: dict[str, str] = {}
        """Redirect id -> the page it points at (Gemini grounding redirects)."""

    @property
    def base_url(self) -> str:
        """The URL to give the SDK (OpenAI's ends in ``/v1``)."""
        return self._url(_PATHS[self.provider])

    @property
    def host(self) -> str:
        """``127.0.0.1:PORT``: the redirect host of :meth:`redirect_to` URLs."""
        return self._url().removeprefix("http://")

    def enqueue_body(self, body: Mapping[str, Any], headers: Mapping[str, str] | None = None) -> None:
        """Queue a successful answer."""
        self.enqueue(FakeNativeBody(body, headers or {}))

    def enqueue_error(
        self, status: int, message: str, *, type: str | None = None, headers: Mapping[str, str] | None = None
    ) -> None:
        """Queue an error in the provider's shape (``retry-after`` in ``headers`` for a 429)."""
        self.enqueue(FakeNativeError(status, message, type, headers or {}))

    def enqueue_raw(
        self,
        status: int,
        body: str,
        content_type: str = "text/html; charset=utf-8",
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Queue any body, e.g. a recorded event stream, an HTML page, or a redirect (``location``)."""
        self.enqueue(FakeNativeRaw(status, body, content_type, headers or {}))

    def redirect_to(self, final_url: str) -> str:
        """A grounding redirect URL on this server that answers 302 to ``final_url``."""
        with self._lock:
            key = f"r{len(self.redirects) + 1}"
            self.redirects[key] = final_url
        return self._url(_REDIRECT_PATH + key)


class _Handler(LoopbackHandler[FakeNativeServer]):
    def do_HEAD(self) -> None:  # noqa: N802 - the http.server API
        self._redirect()

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        self._redirect()

    def _redirect(self) -> None:
        self._read_and_record()
        target = self.fake.redirects.get(self._route().removeprefix(_REDIRECT_PATH))
        if target is None:
            self._send_json(404, b'{"error": "no such redirect"}')
            return
        self._send(302, b"", "text/plain", {"location": target})

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        request = self._read_and_record() or {}
        scripted = self.fake._pop_scripted()
        provider = self.fake.provider
        wait = self.fake.latency_s
        if scripted is None:
            body = _error_body(provider, 500, "the fake has no scripted reply for this request", None)
            self._reply_after(wait, 500, body, "application/json", {})
        elif isinstance(scripted, FakeNativeRaw):
            self._reply_after(wait, scripted.status, scripted.body.encode(), scripted.content_type, scripted.headers)
        elif isinstance(scripted, FakeNativeError):
            body = _error_body(provider, scripted.status, scripted.message, scripted.type)
            self._reply_after(wait, scripted.status, body, "application/json", scripted.headers)
        elif self._streaming(request):
            events = {"openai": openai_events, "anthropic": anthropic_events, "gemini": gemini_events}[provider]
            pieces = [e.encode() for e in events(dict(scripted.body))]
            if self.fake._sleep(wait):
                self._stream(pieces, scripted.headers)
        else:
            self._reply_after(wait, 200, json.dumps(scripted.body).encode(), "application/json", scripted.headers)

    def _stream(self, pieces: list[bytes], headers: Mapping[str, str]) -> None:
        """Send the events one by one, ``event_delay_s`` apart."""
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(sum(len(p) for p in pieces)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            for piece in pieces:
                self.wfile.write(piece)
                self.wfile.flush()
                if not self.fake._sleep(self.fake.event_delay_s):
                    break
        except OSError:
            self.close_connection = True

    def _streaming(self, request: Any) -> bool:
        if self.fake.provider == "gemini":
            return ":streamGenerateContent" in self.path
        return bool(isinstance(request, dict) and request.get("stream"))


def _error_body(provider: str, status: int, message: str, kind: str | None) -> bytes:
    if provider == "anthropic":
        body: dict[str, Any] = {"type": "error", "error": {"type": kind or "api_error", "message": message}}
    elif provider == "gemini":
        body = {"error": {"code": status, "message": message, "status": kind or _GOOGLE_STATUS.get(status, "UNKNOWN")}}
    else:
        body = {"error": {"message": message, "type": kind or "invalid_request_error", "param": None, "code": None}}
    return json.dumps(body).encode()


_GOOGLE_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}
