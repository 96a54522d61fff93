"""The one URL key (``citewise.text.urls.url_key``, on ada-url) and what each former copy relied on.

Tavily's echo matcher, the research loop's extractor-echo matcher (``answer_key``), the cache key,
recheck, the native-engine citation check and the writer's URL filter each normalised URLs their own
way; Tavily's and the writer's with ``urlsplit``, which knows neither default ports, internationalised
hosts nor the standard's percent-encoding.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citewise.config import Secret
from citewise.providers.tavily import TavilyExtract
from citewise.providers.tavily_connection import TavilyConnection
from citewise.providers.tavily_settings import TavilySettings
from citewise.records.providers import ExtractFailure
from citewise.research.caching import page_key
from citewise.research.urls import UnusableURL
from citewise.research.writer import strip_urls
from citewise.testing.fake_tavily import FakeTavilyServer
from citewise.text.urls import url_key

pytestmark = pytest.mark.unit

KOREAN = "https://ko.wikipedia.org/wiki/주택임대차보호법"
KOREAN_ESCAPED = (
    "https://ko.wikipedia.org/wiki/%EC%A3%BC%ED%83%9D%EC%9E%84%EB%8C%80%EC%B0%A8%EB%B3%B4%ED%98%B8%EB%B2%95"
)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("HTTPS://Example.ORG/Path?q=1", "https://example.org/Path?q=1"),  # scheme and host case
        ("https://example.org:443/a", "https://example.org/a"),  # the default port
        ("https://example.org/a/#top", "https://example.org/a"),  # fragment, trailing slash
        ("https://example.org", "https://example.org/"),
        ("https://faß.de/a", "https://xn--fa-hia.de/a"),  # an internationalised host
        ("http://0x7f.1/", "http://127.0.0.1"),  # numeric IPv4 forms; a key does not judge the host
        (KOREAN, KOREAN_ESCAPED + "/"),  # the standard's percent-encoding
        (" not a url/ ", "not a url"),  # what cannot be parsed compares as written
    ],
)
def test_urls_that_name_one_page_have_one_key(a: str, b: str) -> None:
    assert url_key(a) == url_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://example.org/A", "https://example.org/a"),  # the path is the server's
        ("https://example.org/a?id=1", "https://example.org/a?id=2"),
        ("http://example.org/a", "https://example.org/a"),
        ("https://example.org:8443/a", "https://example.org/a"),
    ],
)
def test_urls_of_different_pages_have_different_keys(a: str, b: str) -> None:
    assert url_key(a) != url_key(b)


def test_an_extractor_scheme_is_keyed_opaquely() -> None:
    schemes = ("http", "https", "citewise")
    assert url_key("citewise://kr-law-001248/2/제3조/#x", schemes=schemes) == "citewise://kr-law-001248/2/제3조"
    assert url_key("citewise://kr-law-001248/2/제3조/") == "citewise://kr-law-001248/2/제3조"  # unparsed


def test_the_cache_key_refuses_what_cannot_be_collected() -> None:
    key = page_key(("http", "https"))
    assert key("https://example.org/a/") == key("HTTPS://EXAMPLE.org/a#b") == url_key("https://example.org/a")
    with pytest.raises(UnusableURL):
        key("http://127.0.0.1/admin")


def test_the_writer_keeps_a_source_url_however_a_model_writes_it() -> None:
    allowed = [KOREAN_ESCAPED, "https://www.example.org/a"]
    text = f"See {KOREAN}, www.example.org/a/ and http://WWW.EXAMPLE.org:80/a but not https://other.org/x."
    kept, removed = strip_urls(text, allowed)
    assert removed == ["https://other.org/x"]
    assert KOREAN in kept and "www.example.org/a/" in kept


@pytest.fixture
def tavily() -> Iterator[tuple[FakeTavilyServer, TavilyConnection]]:
    with FakeTavilyServer() as server:
        settings = TavilySettings(api_key=Secret("tvly-test"), base_url=server.base_url, timeout_s=5.0)
        with TavilyConnection(settings) as connection:
            yield server, connection


def test_tavily_echoing_a_url_in_another_spelling_still_answers_it(
    tavily: tuple[FakeTavilyServer, TavilyConnection],
) -> None:
    server, connection = tavily
    server.enqueue_extract(
        results=[
            {"url": KOREAN_ESCAPED, "raw_content": "# 주택임대차보호법\n\n제3조 대항력"},
            {"url": "https://example.org/a/", "raw_content": "# A"},
        ]
    )
    response = TavilyExtract(connection=connection).extract([KOREAN, "HTTPS://example.org:443/a", "https://x.org/"])
    assert len(response.pages) == 2
    assert response.failures == (ExtractFailure("https://x.org/", "not in Tavily's answer"),)
