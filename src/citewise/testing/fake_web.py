"""A fake web site on loopback, for tests of citewise's own fetcher (and users' own tests).

::

    with FakeWeb() as web:
        web.page("/a", "<html>...</html>")                      # text/html
        web.page("/r", status=302, headers={"Location": "/a"})  # a redirect
        web.page("/slow", b"x" * 100, drip_s=0.5)               # one byte every half second
        web.page("/huge", stream_bytes=2 * 1024**3)              # 2 GiB of zeros, streamed
        url = web.url("/a")                                      # http://127.0.0.1:PORT/a

Unknown paths answer 404 (so ``/robots.txt`` is absent unless a page is set for it). Every request
is logged in :attr:`requests`. Only the standard library is used.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from citewise.testing._loopback import LoopbackHandler, LoopbackServer, ReceivedRequest

__all__ = ["FakeWeb", "WebPage"]


@dataclass(frozen=True)
class WebPage:
    """What a path answers with."""

    body: bytes = b""
    status: int = 200
    content_type: str | None = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    drip_s: float = 0.0
    """Seconds between bytes: a slow drip of the body."""
    stream_bytes: int = 0
    """Stream this many zero bytes instead of ``body`` (with a matching Content-Length)."""
    declare_length: bool = True


class FakeWeb(LoopbackServer[Any]):
    """Serves the pages set with :meth:`page`; see the module docstring."""

    def __init__(self) -> None:
        super().__init__(_WebHandler, api_key=None, latency_s=0.0)
        self.pages: dict[str, WebPage] = {}
        self._pages_lock = threading.Lock()

    def page(self, path: str, body: bytes | str = b"", **options: Any) -> str:
        """Serve ``body`` at ``path`` (options as :class:`WebPage`); the page's full URL."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        with self._pages_lock:
            self.pages[path] = WebPage(data, **options)
        return self.url(path) if self._httpd is not None else path

    def url(self, path: str = "/") -> str:
        """``http://127.0.0.1:PORT`` + ``path``."""
        return self._url(path)

    @property
    def port(self) -> int:
        """The port served on."""
        return int(self._url().rsplit(":", 1)[1])

    def hits(self, path: str) -> int:
        """How many requests asked for ``path``."""
        return sum(1 for r in self.requests if r.path.split("?")[0] == path)

    def _find(self, path: str) -> WebPage | None:
        with self._pages_lock:
            return self.pages.get(path) or self.pages.get(path.split("?")[0])


class _WebHandler(LoopbackHandler[FakeWeb]):
    def do_GET(self) -> None:
        self.fake._record(ReceivedRequest("GET", self.path, {k.lower(): v for k, v in self.headers.items()}, None))
        page = self.fake._find(self.path)
        if page is None:
            self._send(404, b"not found", "text/plain", {})
            return
        try:
            self._serve(page)
        except OSError:
            self.close_connection = True  # the client hung up (a limit stopped it): expected

    def _serve(self, page: WebPage) -> None:
        self.send_response(page.status)
        if page.content_type:
            self.send_header("content-type", page.content_type)
        size = page.stream_bytes or len(page.body)
        if page.declare_length:
            self.send_header("content-length", str(size))
        else:
            self.close_connection = True
        for name, value in page.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if page.stream_bytes:
            block = b"\0" * 65536
            sent = 0
            while sent < page.stream_bytes and not self.fake._closing.is_set():
                piece = block[: min(len(block), page.stream_bytes - sent)]
                self.wfile.write(piece)
                sent += len(piece)
            return
        if page.drip_s:
            for i in range(len(page.body)):
                if not self.fake._sleep(page.drip_s):
                    return
                self.wfile.write(page.body[i : i + 1])
                self.wfile.flush()
            return
        self.wfile.write(page.body)
