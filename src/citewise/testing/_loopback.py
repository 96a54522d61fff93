"""The server machinery the loopback fakes share; each fake adds only its provider's wire format.

:class:`LoopbackServer` owns the lifecycle (an ephemeral port on 127.0.0.1 served from a background
thread; a close that stops serving, cuts open connections, wakes delayed replies and joins every
thread), the request log and the scripted queue. :class:`LoopbackHandler` reads and records each
request and writes the replies. A fake subclasses both, passes its handler to the server, and its
handler decides what each request is answered with.

Only the standard library is used, so users can import the fakes in their own tests without pytest.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

__all__ = ["LoopbackHTTPServer", "LoopbackHandler", "LoopbackServer", "ReceivedRequest"]

ScriptedT = TypeVar("ScriptedT")
FakeT = TypeVar("FakeT", bound="LoopbackServer[Any]")


@dataclass(frozen=True)
class ReceivedRequest:
    """One request the server received, for assertions."""

    method: str
    path: str
    headers: Mapping[str, str]
    """Header names lower-cased."""
    json: Any
    """The decoded JSON body (``None`` if the body was not JSON)."""


class LoopbackServer(Generic[ScriptedT]):
    """A threaded loopback server with a request log and a first-in, first-out script of replies.

    ``handler`` is the subclass's :class:`LoopbackHandler`, which answers each request; subclasses
    define ``base_url``. ``api_key`` and ``latency_s`` are kept for the handler to apply.
    """

    def __init__(self, handler: type[LoopbackHandler[Any]], *, api_key: str | None, latency_s: float) -> None:
        self._handler = handler
        self.api_key = api_key
        self.latency_s = latency_s
        self.requests: list[ReceivedRequest] = []
        """Every request received, in order (header names lower-cased)."""
        self._script: deque[ScriptedT] = deque()
        self._lock = threading.Lock()  # guards the script, the request log and the counter
        self._closing = threading.Event()
        self._counter = 0
        self._httpd: LoopbackHTTPServer[Any] | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------

    def enqueue(self, reply: ScriptedT) -> None:
        """Queue any scripted reply."""
        with self._lock:
            self._script.append(reply)

    @property
    def pending(self) -> int:
        """Scripted replies not yet served."""
        with self._lock:
            return len(self._script)

    # -- lifecycle ---------------------------------------------------------------------------

    def _url(self, path: str = "") -> str:
        """``http://127.0.0.1:PORT`` followed by ``path``; only while running."""
        if self._httpd is None:
            raise RuntimeError("the fake server is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._httpd.server_port}{path}"

    def start(self) -> Self:
        """Bind an ephemeral port on 127.0.0.1 and serve in a background thread."""
        if self._httpd is not None:
            return self
        self._closing.clear()
        self._httpd = LoopbackHTTPServer(("127.0.0.1", 0), self._handler, self)
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

    def __enter__(self) -> Self:
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
        """Log ``request``; its number, counting from 1 (for ids in replies)."""
        with self._lock:
            self.requests.append(request)
            self._counter += 1
            return self._counter

    def _pop_scripted(self) -> ScriptedT | None:
        """The next scripted reply, or ``None`` when the script is used up."""
        with self._lock:
            return self._script.popleft() if self._script else None

    def _sleep(self, seconds: float) -> bool:
        """Wait, but give up as soon as the server closes. False when closing."""
        if seconds <= 0:
            return not self._closing.is_set()
        return not self._closing.wait(seconds)


class LoopbackHTTPServer(ThreadingHTTPServer, Generic[FakeT]):
    """The HTTP server behind a :class:`LoopbackServer`, tracking its open connections."""

    # Handler threads are joined on close (no thread outlives the server); connections are cut
    # first so a kept-alive connection cannot hold the join up.
    daemon_threads = False
    block_on_close = True

    def __init__(self, address: tuple[str, int], handler: type[LoopbackHandler[FakeT]], fake: FakeT) -> None:
        self.fake = fake
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, handler)

    def drop_connections(self) -> None:
        """Shut down every open connection, so handler threads blocked on them return."""
        with self.connections_lock:
            open_connections = list(self.connections)
        for connection in open_connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet: a client that timed out and hung up is expected, not a failure worth a traceback."""
        return


class LoopbackHandler(BaseHTTPRequestHandler, Generic[FakeT]):
    """Base request handler: keeps the connection registry, reads and records requests, writes replies.

    Subclasses implement ``do_GET`` / ``do_POST``; ``self.number`` is the request's number once
    :meth:`_read_and_record` has run.
    """

    protocol_version = "HTTP/1.1"
    server: LoopbackHTTPServer[FakeT]
    timeout = 30  # a stuck client cannot keep a handler thread forever
    disable_nagle_algorithm = True  # headers and body go out as separate writes; no 40 ms stalls
    number: int

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

    @property
    def fake(self) -> FakeT:
        """The fake this request is served for."""
        return self.server.fake

    def _route(self) -> str:
        """The request path without its query string or a trailing slash."""
        return self.path.split("?")[0].rstrip("/")

    def _read_and_record(self) -> Any:
        """Read the body, log the request with the fake, and return the decoded JSON (or ``None``)."""
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.number = self.fake._record(
            ReceivedRequest(
                method=self.command,
                path=self.path,
                headers={k.lower(): v for k, v in self.headers.items()},
                json=body,
            )
        )
        return body

    def _bearer_key(self) -> str | None:
        """The token of ``Authorization: Bearer TOKEN``, or ``None`` when missing or blank."""
        auth = self.headers.get("authorization", "")
        if auth.startswith("Bearer ") and auth.removeprefix("Bearer ").strip():
            return auth.removeprefix("Bearer ").strip()
        return None

    def _reply_after(
        self, wait: float, status: int, body: bytes, content_type: str, headers: Mapping[str, str]
    ) -> None:
        """Send the reply after ``wait`` seconds (latency, scripted delays), unless the server closes first."""
        if not self.fake._sleep(wait):
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
