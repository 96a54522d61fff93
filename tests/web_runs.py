"""Recorded research runs for the web UI and HTML export tests and benchmark: the real loop over the
real Tavily client against the loopback fake, with the deterministic planner and writer.

``hostile`` pages carry markup an attacker would plant: a script, an image whose error handler
runs code, ``javascript:`` and ``data:`` links, and a ``</textarea>`` breakout.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from citewise.config import Secret
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.records.budget import Budget
from citewise.research.loop import research
from citewise.research.settings import ResearchSettings
from citewise.store.evidence import EvidenceStore
from citewise.testing.fake_tavily import FakeExtractReply, FakeSearchReply, FakeTavilyServer

__all__ = ["HOSTILE", "HOSTILE_TITLE", "QUESTION", "TOKEN", "Watched", "browser_or_skip", "record_run", "serving"]

QUESTION = "How are rental deposits protected?"
HOSTILE = (
    "Rental deposits are protected by the deposit act <script>alert('s1')</script> with "
    "<img src=x onerror=alert('img')> and [the form](javascript:alert('md')) and "
    "<a href=\"javascript:alert('a')\">this link</a> and [data](data:text/html;base64,PHNjcmlwdD4=) "
    "</textarea><script>alert('ta')</script> since 2020. "
    "The landlord returns the deposit within 30 days of the end of the lease."
)
HOSTILE_TITLE = "Deposit act <script>alert('title')</script>"
KEY = "tvly-web-test-5e1c"


def page_text(i: int) -> str:
    return (
        f"# Deposit rule {i}\n\nRental deposits rule {i} is protected under section {i} of the deposit act. "
        f"The deposit rule {i} applies to leases signed after {2000 + i % 20}. "
        f"Tenants under rule {i} may claim {i}% interest on deposits."
    )


def record_run(
    store: EvidenceStore,
    *,
    sources: int = 2,
    hostile: bool = True,
    question: str = QUESTION,
    hostile_title: str = HOSTILE_TITLE,
    hostile_text: str = HOSTILE,
) -> str:
    """Record one research run with ``sources`` extracted pages (the first hostile); returns its id."""
    urls = [f"https://web{i}.example/deposits" for i in range(sources)]
    pages = {u: page_text(i) for i, u in enumerate(urls)}
    titles = {u: f"Deposit rule {i}" for i, u in enumerate(urls)}
    if hostile and urls:
        pages[urls[0]] = hostile_text
        titles[urls[0]] = hostile_title

    def search(body: Any) -> FakeSearchReply:
        return FakeSearchReply([{"url": u, "title": titles[u], "content": "snippet"} for u in urls])

    def extract(body: Any) -> FakeExtractReply:
        found = [{"url": u, "raw_content": pages[u], "title": titles[u]} for u in body["urls"] if u in pages]
        return FakeExtractReply(found, [])

    with FakeTavilyServer(api_key=KEY, search_responder=search, extract_responder=extract) as tavily:
        tavily_settings = TavilySettings(api_key=Secret(KEY), base_url=tavily.base_url, timeout_s=10)
        with TavilyConnection(tavily_settings) as connection:
            settings = ResearchSettings(
                search=TavilySearch(connection=connection),
                extractor=TavilyExtract(connection=connection),
                budget=Budget(max_rounds=1, max_searches=4, max_extractions=sources),
                pages_per_query=sources,
                sleep=lambda seconds: None,
            )
            return research(store, question, settings).run_id


# -- a real server and a real browser -------------------------------------------------------------

TOKEN = "serve-token-for-tests-3f9a1c"
CHROMIUM = "/usr/bin/chromium"


@contextmanager
def serving(store_url: str) -> Iterator[str]:
    """``citewise serve``'s app on a free loopback port in a thread; yields its base URL."""
    import uvicorn

    from citewise.web.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(store_url, token=TOKEN), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def browser_or_skip() -> Any:
    """Debian's Chromium driven by Playwright (never a downloaded browser). Where none is installed the
    tests skip saying so — except with ``CITEWISE_REQUIRE_BROWSER=1`` (scripts/test, CI), where they fail."""
    import pytest

    if not os.path.exists(CHROMIUM):
        reason = f"!! no Chromium at {CHROMIUM}: `apt-get install chromium` to run the browser tests"
        if os.environ.get("CITEWISE_REQUIRE_BROWSER") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    return sync_playwright(), CHROMIUM


@dataclass
class Watched:
    """What a page did that it must not: dialogs opened, console errors, uncaught errors."""

    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> Any:
        def on_dialog(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page
