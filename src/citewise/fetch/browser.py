"""The browser layer (SPEC 4.6): a page whose text only its scripts write, rendered in Debian's
Chromium through Playwright, under the same guard as the own fetcher.

::

    with BrowserFetcher() as browser:
        result = browser.fetch("https://example.org/app")
        result.ok, result.rendered, result.text, result.decisions

Chromium never reaches the network itself. Every request the page makes — the document, scripts,
styles, XHR/fetch, images, frames, redirects — is intercepted and answered by citewise's own
:class:`~citewise.fetch.client.Fetcher`: the URL rules, the address guard on the resolved address
(no rebinding), the size and time limits, and robots.txt for the page itself. A request the guard
refuses is aborted and recorded, so is a request of another method than GET, one past the request or
byte limit, and every WebSocket. As a backstop the browser is started behind a proxy that does not
exist, with loopback not exempt, so anything that escaped interception would fail rather than
connect. Each page gets a fresh context: no service workers, no downloads, no permissions, no
storage shared with another page; the JavaScript heap is capped.

The rendered DOM is read like a fetched HTML page (main text, title, dates, walls), and the result
says it was rendered (``rendered``), keeping every decision and the exact text read. A page that
cannot be rendered (Chromium missing, a crash, the time limit) is a recorded outcome, never text.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any, Self

from citewise.errors import ConfigError
from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.content import read_body
from citewise.fetch.records import Decision, FetchOutcome, FetchRefused, FetchResult, Step

__all__ = ["CHROMIUM_ENV", "BrowserFetcher", "BrowserLimits", "chromium_path"]

CHROMIUM_ENV = "CITEWISE_CHROMIUM"
"""The Chromium executable to render with (default: ``chromium`` on the PATH, Debian's package)."""
_DEAD_PROXY = "http://127.0.0.1:9"
"""Where an escaped request would go: the discard port, where nothing listens."""


@dataclass(frozen=True, slots=True)
class BrowserLimits:
    """Bounds of one rendered page."""

    total_s: float = 30.0
    """Wall time for the whole page: start, every request, scripts, reading."""
    max_requests: int = 80
    """Requests the page may make (the document included); the rest are aborted."""
    max_bytes: int = 12_000_000
    """Bytes of all responses together."""
    settle_ms: int = 1500
    """How long to wait for the network to go quiet after the page loaded (scripts writing text)."""
    heap_mb: int = 256
    """The JavaScript heap of the page's renderer."""


def chromium_path() -> str:
    """The Chromium to run, or a :class:`ConfigError` saying how to install it."""
    named = os.environ.get(CHROMIUM_ENV, "").strip()
    found = named or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        raise ConfigError(
            "the browser layer needs Chromium: apt-get install chromium (or set CITEWISE_CHROMIUM to its path)"
        )
    return found


class _Page:
    """What one rendering saw: every request decided, with the counts the limits apply to."""

    def __init__(self, fetcher: Fetcher, limits: BrowserLimits, url: str) -> None:
        self.fetcher = fetcher
        self.limits = limits
        self.url = url
        self.log: list[Decision] = []
        self.requests = 0
        self.bytes = 0
        self.document: FetchRefused | None = None

    def answer(self, route: Any, request: Any) -> None:
        """Route handler: answer ``request`` through the fetcher, or abort it and say why."""
        self.requests += 1
        url, kind = request.url, request.resource_type
        main = request.is_navigation_request() and request.frame.parent_frame is None
        refusal = self._refusal(request.method, url)
        if refusal is None:
            try:
                status, headers, body = self.fetcher.resource(url, robots=main, limit=self._room())
            except FetchRefused as exc:
                refusal = exc.detail
                if main:
                    self.document = exc
        if refusal is not None:
            self.log.append(Decision(Step.RENDER, False, f"{kind} {url[:300]}: {refusal}"))
            route.abort("blockedbyclient")
            return
        self.bytes += len(body)
        self.log.append(Decision(Step.RENDER, True, f"{kind} {url[:300]}: HTTP {status}, {len(body)} bytes"))
        route.fulfill(status=status, headers=headers, body=body)

    def _refusal(self, method: str, url: str) -> str | None:
        if self.requests > self.limits.max_requests:
            return f"past the limit of {self.limits.max_requests} requests"
        if method != "GET":
            return f"{method} refused: a page being read only makes GET requests"
        if self._room() <= 0:
            return f"past the limit of {self.limits.max_bytes} bytes"
        return None

    def _room(self) -> int:
        return min(self.fetcher.settings.max_bytes, self.limits.max_bytes - self.bytes)

    def web_socket(self, ws: Any) -> None:
        """WebSocket handler: never connected."""
        self.log.append(Decision(Step.RENDER, False, f"websocket {ws.url[:300]}: refused, never connected"))
        ws.close()


class BrowserFetcher:
    """Renders pages under the rules of the module docstring; the same ``fetch(url)`` as
    :class:`~citewise.fetch.client.Fetcher`. ``fetcher`` answers the page's requests (tests inject
    one with a resolver and policy); otherwise one is built from ``settings`` and closed with this.
    Each call starts its own browser, so it may be called from several threads."""

    def __init__(
        self,
        fetcher: Fetcher | None = None,
        *,
        settings: FetchSettings | None = None,
        limits: BrowserLimits | None = None,
        executable: str | None = None,
    ) -> None:
        self._owned = fetcher is None
        self.fetcher = fetcher or Fetcher(settings)
        self.limits = limits or BrowserLimits()
        self.executable = executable

    @property
    def settings(self) -> FetchSettings:
        """The answering fetcher's settings."""
        return self.fetcher.settings

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the answering fetcher when this made it."""
        if self._owned:
            self.fetcher.close()

    def fetch(self, url: str) -> FetchResult:
        """Render and read ``url``; the result says what was read (``rendered``) or why nothing was."""
        started = time.monotonic()
        try:
            from playwright.sync_api import Error as PlaywrightError
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise ConfigError("the browser layer needs Playwright: pip install 'citewise[browser]'") from None
        page = _Page(self.fetcher, self.limits, url)
        executable = self.executable or chromium_path()
        try:
            with sync_playwright() as pw:
                html, final, title = self._render(pw, executable, page)
        except (PlaywrightError, FetchRefused) as exc:
            outcome, detail = _failure(exc, page)
            page.log.append(Decision(Step.RENDER, False, detail))
            result = FetchResult(url, None, outcome, rendered=True)
            return replace(result, elapsed_s=round(time.monotonic() - started, 4), decisions=tuple(page.log))
        reading = read_body(html.encode("utf-8"), "text/html", "utf-8", final)
        read = reading.outcome is FetchOutcome.READ
        page.log.append(
            Decision(Step.CONTENT, read, reading.note or f"{len(reading.text)} characters of rendered text")
        )
        dates = reading.dates
        return FetchResult(
            url,
            final,
            reading.outcome,
            text=reading.text if read else "",
            title=reading.title or title or None,
            content_type="text/html",
            status_code=200,
            published_at=dates.published_at,
            updated_at=dates.updated_at,
            publication_date_source=dates.source,
            bytes_read=page.bytes,
            elapsed_s=round(time.monotonic() - started, 4),
            decisions=tuple(page.log),
            rendered=True,
        )

    def _render(self, pw: Any, executable: str, page: _Page) -> tuple[str, str, str]:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        limits = self.limits
        browser = pw.chromium.launch(
            executable_path=executable,
            headless=True,
            timeout=limits.total_s * 1000,
            args=[
                f"--proxy-server={_DEAD_PROXY}",
                "--proxy-bypass-list=<-loopback>",
                f"--js-flags=--max-old-space-size={limits.heap_mb}",
                "--disable-background-networking",
                "--disable-extensions",
                "--no-first-run",
            ],
        )
        try:
            context = browser.new_context(
                service_workers="block",
                accept_downloads=False,
                user_agent=self.fetcher.settings.user_agent,
            )
            context.route("**/*", page.answer)
            tab = context.new_page()
            tab.route_web_socket("**/*", page.web_socket)
            deadline = time.monotonic() + limits.total_s
            tab.goto(page.url, wait_until="load", timeout=limits.total_s * 1000)
            if page.document is not None:
                raise page.document
            quiet = min(limits.settle_ms, max(0.0, (deadline - time.monotonic()) * 1000))
            try:
                tab.wait_for_load_state("networkidle", timeout=quiet)
            except PlaywrightTimeout:  # a page still talking when the time is up is read as it stands
                page.log.append(
                    Decision(Step.RENDER, True, f"network not idle after {quiet:.0f} ms; read as it stands")
                )
            return tab.content(), tab.url, tab.title()
        finally:
            browser.close()


def _failure(exc: Exception, page: _Page) -> tuple[FetchOutcome, str]:
    if page.document is not None:
        return page.document.outcome, page.document.detail
    text = str(exc).splitlines()[0][:300]
    if "Timeout" in type(exc).__name__ or "Timeout" in text:
        return FetchOutcome.TIMEOUT, f"rendering timed out: {text}"
    return FetchOutcome.RENDER_FAILED, f"rendering failed: {text}"
