"""The browser layer (SPEC 4.6, issue 25): a page whose text only its scripts write is read through
Debian's Chromium, and every request the page makes passes the fetcher's guard — nothing the guard
refuses is ever connected to (the page's own loopback server sees only what was allowed)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from citewise.fetch.browser import BrowserFetcher, BrowserLimits
from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import AddressPolicy
from citewise.fetch.records import FetchOutcome, Step
from citewise.testing.fake_web import FakeWeb

pytestmark = [pytest.mark.integration, pytest.mark.slow]

APP = """<!doctype html><html><head><title>Deposit rules</title></head><body><main id="main"></main>
<script>
  fetch("/data.json").then(r => r.json()).then(d => {
    const p = document.createElement("p");
    p.textContent = d.text;
    document.getElementById("main").appendChild(p);
    const q = document.createElement("p");
    q.textContent = "It was published by the housing ministry, which keeps the register of deposits.";
    document.getElementById("main").appendChild(q);
  });
  new Image().src = "http://192.0.2.10/probe.gif";              // an address no page may make us reach
  fetch("http://198.51.100.7/metadata").catch(() => {});
  fetch("http://127.0.0.1:1/elsewhere").catch(() => {});        // loopback, but not the allowed port
  fetch("/beacon", {method: "POST", body: "x"}).catch(() => {});
  try { new WebSocket("ws://" + location.host + "/ws"); } catch (e) {}
</script></body></html>"""

DATA = (
    '{"text": "A landlord must return the deposit within one month after the lease ends, '
    'together with the interest it earned, unless the tenant owes rent."}'
)


def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("CITEWISE_REQUIRE_BROWSER") == "1":
            pytest.fail("Chromium is required here (CITEWISE_REQUIRE_BROWSER=1): apt-get install chromium")
        pytest.skip("Chromium is not installed: apt-get install chromium (scripts/test installs it)")
    pytest.importorskip("playwright", reason="the browser layer needs Playwright: pip install 'citewise[browser]'")
    return found


@pytest.fixture
def site() -> Iterator[FakeWeb]:
    with FakeWeb() as web:
        web.page("/app", APP)
        web.page("/data.json", DATA, content_type="application/json")
        yield web


@contextmanager
def _browser(web: FakeWeb, **limits: object) -> Iterator[BrowserFetcher]:
    policy = AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))
    with Fetcher(FetchSettings(respect_robots=False), policy=policy) as fetcher:
        yield BrowserFetcher(fetcher, limits=BrowserLimits(**limits), executable=_chromium())  # type: ignore[arg-type]


def test_script_written_text_is_read_and_every_request_passes_the_guard(site: FakeWeb) -> None:
    with _browser(site) as browser:
        result = browser.fetch(site.url("/app"))

    assert result.ok and result.rendered and result.outcome is FetchOutcome.READ
    assert "return the deposit within one month" in result.text
    assert result.title == "Deposit rules"
    rendered = [d for d in result.decisions if d.step is Step.RENDER]
    allowed = [d.detail for d in rendered if d.allowed]
    refused = [d.detail for d in rendered if not d.allowed]
    assert any("/app" in d for d in allowed) and any("/data.json" in d for d in allowed)
    assert any("192.0.2.10" in d for d in refused) and any("198.51.100.7" in d for d in refused)
    assert any("127.0.0.1:1" in d for d in refused)
    assert any("POST refused" in d for d in refused)
    assert any(d.startswith("websocket") for d in refused)
    # the page's server saw the two allowed requests, and nothing else reached it
    assert sorted({r.path for r in site.requests}) == ["/app", "/data.json"]


def test_a_refused_page_is_a_recorded_gap_not_text(site: FakeWeb) -> None:
    with _browser(site) as browser:
        result = browser.fetch("http://192.0.2.10/app")
    assert not result.ok and result.outcome is FetchOutcome.REFUSED_URL and result.text == ""
    assert site.requests == []


def test_the_request_limit_holds(site: FakeWeb) -> None:
    with _browser(site, max_requests=1) as browser:
        result = browser.fetch(site.url("/app"))
    assert any("past the limit of 1 requests" in d.detail for d in result.decisions if not d.allowed)
    assert site.hits("/data.json") == 0  # the data request was past the limit: the text was never written
    assert not result.ok


def test_the_browser_extractor_and_the_fetch_command_read_the_rendered_text(
    site: FakeWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from citewise.cli import app
    from citewise.providers.registry import get_extractor

    _chromium()
    monkeypatch.setenv("CITEWISE_FETCH_ALLOW", f"127.0.0.1:{site.port}")
    extractor = get_extractor("browser")
    try:
        response = extractor.extract([site.url("/app")])
    finally:
        extractor.close()  # type: ignore[attr-defined]
    assert response.provider == "browser" and [p.provider for p in response.pages] == ["browser"]
    assert "return the deposit within one month" in response.pages[0].raw_content

    done = CliRunner().invoke(app, ["fetch", site.url("/app"), "--browser"])
    assert done.exit_code == 0, done.output
    assert "rendered: yes" in done.output and "return the deposit within one month" in done.output
    assert "NO render" in done.output and "192.0.2.10" in done.output
