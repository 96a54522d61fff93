"""The fetcher's bounds hold on pages built to break it: a redirect target that does not parse is a
recorded refusal of that page, markup that hangs libxml2 and a PDF compression bomb are stopped by
the time and memory limits of reading one body, and in every case the next page is read as usual."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.guard import AddressPolicy
from citewise.fetch.records import FetchOutcome, Step
from citewise.providers.own import OwnExtractor
from citewise.testing.fake_web import FakeWeb
from citewise.testing.hostile_files import many_attributes_html, pdf_bomb

ARTICLE = (
    "<html><head><title>Deposit insurance</title></head><body><article><h1>Deposit insurance</h1><p>"
    + "The deposit insurance fund covers each depositor up to the legal limit of the scheme. " * 8
    + "</p></article></body></html>"
)
FAST = FetchSettings(connect_timeout_s=1.0, read_timeout_s=2.0, total_timeout_s=10.0, max_bytes=5_000_000)


@pytest.fixture
def web() -> Iterator[FakeWeb]:
    with FakeWeb() as server:
        server.page("/a", ARTICLE)
        yield server


def _fetcher(web: FakeWeb, settings: FetchSettings = FAST) -> Fetcher:
    return Fetcher(settings, policy=AddressPolicy(allow=frozenset({("127.0.0.1", web.port)})))


BAD_LOCATIONS = [
    "http:\\\\host\\x",  # httpx raised InvalidURL on this one, with a traceback
    "http:\\\\127.0.0.1\\x",
    "http://[::1",
    "http://[v1.x]/",
    "http://xn--/",
    "http://a..b/",
    "http://%zz/",
    "http://1.2.3.4.5/",
    "http://a:99999/",
    "http://exa mple.com/",
    "http://a\x7f/",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("location", BAD_LOCATIONS)
def test_a_redirect_that_does_not_parse_is_a_recorded_refusal_of_that_page(web: FakeWeb, location: str) -> None:
    web.page("/r", status=302, headers={"Location": location})
    with _fetcher(web) as fetcher:
        result = fetcher.fetch(web.url("/r"))
        after = fetcher.fetch(web.url("/a"))
    assert result.outcome is FetchOutcome.REFUSED_URL
    refused = [d for d in result.decisions if not d.allowed]
    assert [d.step for d in refused] == [Step.URL] and "\n" not in refused[0].detail
    assert after.ok


def test_one_bad_redirect_is_one_sources_failure_in_the_own_extractor(web: FakeWeb) -> None:
    web.page("/r", status=302, headers={"Location": "http:\\\\host\\x"})
    with _fetcher(web) as fetcher, OwnExtractor(fetcher=fetcher, concurrency=2) as extractor:
        response = extractor.extract([web.url("/r"), web.url("/a")])
    assert [p.url for p in response.pages] == [web.url("/a")]
    assert [f.url for f in response.failures] == [web.url("/r")]
    assert "refused_url" in response.failures[0].error


def test_markup_that_hangs_the_parser_is_stopped_by_the_read_time_limit(web: FakeWeb) -> None:
    web.page("/attrs", many_attributes_html())
    settings = FetchSettings(total_timeout_s=20.0, read_timeout_total_s=2.0, max_bytes=5_000_000)
    with _fetcher(web, settings) as fetcher:
        started = time.monotonic()
        result = fetcher.fetch(web.url("/attrs"))
        took = time.monotonic() - started
        after = fetcher.fetch(web.url("/a"))
    assert result.outcome is FetchOutcome.TIMEOUT and took < 6.0, (result.outcome, took)
    assert "parsing took longer than 2 s" in result.decisions[-1].detail
    assert result.text == "" and after.ok


def test_a_pdf_compression_bomb_is_stopped_by_the_read_memory_limit(web: FakeWeb) -> None:
    web.page("/bomb.pdf", pdf_bomb(300 * 2**20), content_type="application/pdf")
    settings = FetchSettings(total_timeout_s=20.0, read_max_memory_bytes=64 * 2**20, max_bytes=5_000_000)
    with _fetcher(web, settings) as fetcher:
        started = time.monotonic()
        result = fetcher.fetch(web.url("/bomb.pdf"))
        took = time.monotonic() - started
        after = fetcher.fetch(web.url("/a"))
    assert result.outcome is FetchOutcome.TOO_LARGE and "more than 64 MB of memory" in result.decisions[-1].detail
    assert took < 10.0 and after.ok
