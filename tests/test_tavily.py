"""Tavily Search and Extract against a fake Tavily server on loopback.

The real ``tavily-python`` client runs unpatched; only the server is fake, and it speaks the
recorded wire format (``tests/data/wire/pydantic-ai/test_tavily__*.yaml``). Every failure the product
promises to type is scripted here: 400/401/403/429/432/433/5xx, a timeout, a refused connection,
an HTML page, a body of the wrong shape; and a keyless run is refused before any request.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import closing
from datetime import timedelta
from typing import Any

import pytest
import yaml

from citewise.config import Secret
from citewise.errors import ConfigError, InputError, RunError
from citewise.providers import (
    ExtractedPage,
    ExtractFailure,
    Extractor,
    ProviderAuthError,
    ProviderBadRequest,
    ProviderError,
    ProviderForbidden,
    ProviderInvalidResponse,
    ProviderQuotaExceeded,
    ProviderRateLimited,
    ProviderRegistry,
    ProviderTimeout,
    ProviderUnavailable,
    SearchProvider,
    SearchResponse,
    SearchResult,
    TavilyConnection,
    TavilyExtract,
    TavilySearch,
    TavilySettings,
    extractor_names,
    get_extractor,
    get_search_provider,
    search_provider_names,
)
from citewise.testing.fake_tavily import FakeSearchReply, FakeTavilyServer, synthetic_extract, synthetic_search
from tests.corpora import WIRE as SHIPPED_WIRE

pytestmark = pytest.mark.integration

KEY = "tvly-test-8c1f2e9d4b7a6350"
WIRE = SHIPPED_WIRE / "pydantic-ai"

HITS = [
    {
        "url": "https://www.fss.or.kr/deposit-protection",
        "title": "Deposit protection",
        "content": "Deposits are protected up to 50 million won per bank.",
        "score": 0.91,
    },
    {
        "url": "https://www.kdic.or.kr/limit",
        "title": "KDIC limit",
        "content": "The limit rises to 100 million won in 2025.",
        "score": 0.87,
    },
]


@pytest.fixture
def server() -> Iterator[FakeTavilyServer]:
    with FakeTavilyServer() as fake:
        yield fake


def settings_for(server: FakeTavilyServer, **options: Any) -> TavilySettings:
    return TavilySettings(api_key=Secret(KEY), base_url=server.base_url, **{"timeout_s": 5.0, **options})


@pytest.fixture
def tavily(server: FakeTavilyServer) -> Iterator[TavilyConnection]:
    with TavilyConnection(settings_for(server)) as connection:
        yield connection


def wire_body(name: str) -> dict[str, Any]:
    cassette = yaml.safe_load((WIRE / f"test_tavily__{name}.yaml").read_text(encoding="utf-8"))
    body: dict[str, Any] = cassette["interactions"][0]["response"]["parsed_body"]
    return body


def assert_keyless(value: object) -> None:
    assert KEY not in str(value)
    assert KEY not in repr(value)


# -- search -----------------------------------------------------------------------------------


def test_search_sends_citewise_parameters_with_the_bearer_key(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    server.enqueue_search(HITS, credits=1)

    TavilySearch(connection=tavily).search("deposit protection limit")

    [request] = server.requests
    assert request.method == "POST" and request.path == "/search"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.json == {
        "query": "deposit protection limit",
        "search_depth": "basic",
        "max_results": 5,
        "include_answer": False,
        "include_raw_content": False,
        "include_usage": True,
    }


def test_search_results_are_mapped_ranked_and_credits_recorded(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    server.enqueue_search(HITS, credits=1, response_time=0.73)

    response = TavilySearch(connection=tavily).search("deposit protection limit")

    assert isinstance(response, SearchResponse)
    assert response.results == (
        SearchResult(
            url="https://www.fss.or.kr/deposit-protection",
            title="Deposit protection",
            content="Deposits are protected up to 50 million won per bank.",
            score=0.91,
            rank=1,
            provider="tavily",
            query="deposit protection limit",
        ),
        SearchResult(
            url="https://www.kdic.or.kr/limit",
            title="KDIC limit",
            content="The limit rises to 100 million won in 2025.",
            score=0.87,
            rank=2,
            provider="tavily",
            query="deposit protection limit",
        ),
    )
    assert (response.credits, response.credits_source) == (1.0, "reported")
    assert response.request_id == "00000000-0000-0000-0000-000000000001"
    assert response.response_time == 0.73
    assert response.retrieved_at.utcoffset() == timedelta(0)
    [call] = tavily.calls
    assert (call.operation, call.outcome, call.credits, call.credits_source, call.status_code) == (
        "search",
        "ok",
        1.0,
        "reported",
        200,
    )
    assert call.request_id == response.request_id
    assert tavily.credits == 1.0


def test_a_recorded_tavily_answer_maps_and_its_credits_are_estimated(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    body = wire_body("test_basic_search")  # recorded without include_usage: no usage block
    server.enqueue_search(body)

    response = TavilySearch(connection=tavily).search("What is Pydantic AI?")

    assert [r.url for r in response.results] == [r["url"] for r in body["results"]]
    assert [r.rank for r in response.results] == [1, 2, 3, 4, 5]
    assert response.results[1].title == "Pydantic AI - Pydantic AI"
    assert response.results[0].score == pytest.approx(0.9999875)
    assert response.request_id == "3b2f7385-b01d-479e-9825-1ce0f8c59b93"
    assert (response.credits, response.credits_source) == (1.0, "estimated")


def test_advanced_search_is_estimated_at_two_credits(server: FakeTavilyServer) -> None:
    server.enqueue_search(wire_body("test_search_with_include_domains"))

    with TavilySearch(settings_for(server, search_depth="advanced")) as search:
        response = search.search("transformer architectures")

    assert server.requests[0].json["search_depth"] == "advanced"
    assert len(response.results) == 5
    assert (response.credits, response.credits_source) == (2.0, "estimated")


def test_an_empty_answer_is_an_empty_result_not_an_error(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    server.enqueue_search([])

    response = TavilySearch(connection=tavily).search("nothing matches this")

    assert response.results == ()
    assert response.credits == 1.0


def test_an_empty_query_is_refused_before_any_request(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    with pytest.raises(InputError):
        TavilySearch(connection=tavily).search("   ")
    assert server.requests == []


# -- extract ----------------------------------------------------------------------------------

PAGE_A = "https://www.fss.or.kr/deposit-protection"
PAGE_B = "https://www.kdic.or.kr/limit"
PAYWALLED = "https://news.example.com/paywalled"


def test_extract_sends_markdown_basic_and_maps_pages(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    server.enqueue_extract(
        results=[
            {"url": PAGE_A, "raw_content": "# Deposit protection\n\nUp to 50 million won."},
            {"url": PAGE_B, "raw_content": "# Limit\n\n100 million won from 2025.", "title": "KDIC"},
        ],
        credits=1,
    )

    response = TavilyExtract(connection=tavily).extract([PAGE_A, PAGE_B])

    [request] = server.requests
    assert request.path == "/extract"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.json["urls"] == [PAGE_A, PAGE_B]
    assert (request.json["extract_depth"], request.json["format"], request.json["include_usage"]) == (
        "basic",
        "markdown",
        True,
    )
    assert response.pages == (
        ExtractedPage(PAGE_A, "# Deposit protection\n\nUp to 50 million won.", "tavily"),
        ExtractedPage(PAGE_B, "# Limit\n\n100 million won from 2025.", "tavily", title="KDIC"),
    )
    assert response.failures == ()
    assert (response.credits, response.credits_source) == (1.0, "reported")


def test_every_requested_url_is_a_page_or_a_recorded_failure(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    missing = "https://gone.example.org/page"
    empty = "https://empty.example.org/"
    server.enqueue_extract(
        results=[{"url": PAGE_A, "raw_content": "# Deposit protection"}, {"url": empty, "raw_content": "  \n"}],
        failed=[{"url": PAYWALLED, "error": "Failed to fetch url: 403 Forbidden"}],
    )

    response = TavilyExtract(connection=tavily).extract([PAGE_A, PAYWALLED, empty, missing])

    assert [page.url for page in response.pages] == [PAGE_A]
    assert response.failures == (
        ExtractFailure(empty, "no text extracted (empty page)"),
        ExtractFailure(PAYWALLED, "Failed to fetch url: 403 Forbidden"),
        ExtractFailure(missing, "not in Tavily's answer"),
    )


def test_extract_credits_are_estimated_per_five_successful_urls(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    urls = [f"https://example.org/{n}" for n in range(7)]
    server.enqueue_extract(
        results=[{"url": url, "raw_content": f"page {url}"} for url in urls[:6]], failed=urls[6:], omit_usage=True
    )

    response = TavilyExtract(connection=tavily).extract(urls)

    assert len(response.pages) == 6 and len(response.failures) == 1
    assert (response.credits, response.credits_source) == (2.0, "estimated")  # ceil(6 / 5) x 1


def test_extract_of_no_urls_makes_no_request(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    response = TavilyExtract(connection=tavily).extract([])

    assert (response.pages, response.failures, response.credits) == ((), (), 0.0)
    assert server.requests == [] and tavily.calls == []


def test_extract_refuses_more_than_twenty_urls(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    with pytest.raises(InputError, match="at most 20"):
        TavilyExtract(connection=tavily).extract([f"https://example.org/{n}" for n in range(21)])
    assert server.requests == []


# -- errors -----------------------------------------------------------------------------------

STATUS_ERRORS = [
    (400, "Invalid search depth.", ProviderBadRequest),
    (401, "Unauthorized: missing or invalid API key.", ProviderAuthError),
    (403, "This endpoint is not available on your plan.", ProviderForbidden),
    (432, "This request exceeds your plan's set usage limit.", ProviderQuotaExceeded),
    (433, "This request exceeds the pay-as-you-go limit.", ProviderQuotaExceeded),
    (500, "Internal server error.", ProviderUnavailable),
    (503, "Service unavailable.", ProviderUnavailable),
]


@pytest.mark.parametrize(("status", "message", "error_type"), STATUS_ERRORS)
@pytest.mark.parametrize("operation", ["search", "extract"])
def test_each_error_status_is_typed(
    server: FakeTavilyServer,
    tavily: TavilyConnection,
    operation: str,
    status: int,
    message: str,
    error_type: type[ProviderError],
) -> None:
    server.enqueue_error(status, message)

    with pytest.raises(error_type) as caught:
        if operation == "search":
            TavilySearch(connection=tavily).search("deposit protection")
        else:
            TavilyExtract(connection=tavily).extract([PAGE_A])

    error = caught.value
    assert type(error) is error_type
    assert isinstance(error, RunError)
    assert (error.provider, error.status_code, error.detail) == ("tavily", status, message)
    assert message in str(error) and f"HTTP {status}" in str(error)
    assert error.retryable is (status >= 500)
    assert error.__cause__ is not None  # mapped with raise ... from
    assert_keyless(error)
    [call] = tavily.calls
    assert (call.operation, call.outcome, call.status_code, call.credits) == (
        operation,
        error_type.__name__,
        status,
        None,
    )


def test_forbidden_and_quota_are_told_apart() -> None:
    assert issubclass(ProviderQuotaExceeded, ProviderForbidden)
    assert not ProviderQuotaExceeded.retryable


def test_a_bad_key_names_the_variable_to_check() -> None:
    with (
        FakeTavilyServer(api_key="tvly-the-right-one") as strict,
        TavilySearch(settings_for(strict)) as search,
        pytest.raises(ProviderAuthError, match="TAVILY_API_KEY") as caught,
    ):
        search.search("anything")
    assert_keyless(caught.value)


def test_rate_limit_carries_retry_after(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    server.enqueue_error(429, "Rate limit exceeded. Please slow down.", headers={"retry-after": "2"})
    server.enqueue_error(429, "Rate limit exceeded.")

    with pytest.raises(ProviderRateLimited) as first:
        TavilySearch(connection=tavily).search("deposit protection")
    with pytest.raises(ProviderRateLimited) as second:
        TavilySearch(connection=tavily).search("deposit protection")

    assert first.value.retry_after == 2.0 and "retry after 2 s" in str(first.value)
    assert first.value.retryable and first.value.status_code == 429
    assert second.value.retry_after is None


def test_a_slow_answer_times_out(server: FakeTavilyServer) -> None:
    server.enqueue_delay(5.0)

    started = time.perf_counter()
    with TavilySearch(settings_for(server, timeout_s=0.3)) as search, pytest.raises(ProviderTimeout) as caught:
        search.search("deposit protection")

    assert time.perf_counter() - started < 3
    assert caught.value.retryable and caught.value.timeout_s == 0.3
    assert "0.3 s" in str(caught.value)
    assert search.connection.calls[0].outcome == "ProviderTimeout"


def test_a_refused_connection_is_unavailable() -> None:
    with FakeTavilyServer() as gone:
        settings = settings_for(gone)
    with TavilySearch(settings) as search, pytest.raises(ProviderUnavailable, match="cannot reach Tavily") as caught:
        search.search("deposit protection")
    assert caught.value.retryable and caught.value.status_code is None
    assert_keyless(caught.value)


def test_an_html_page_means_a_wrong_base_url(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    server.enqueue_raw(200, "<html><title>Welcome</title></html>")
    server.enqueue_raw(404, "<html><title>Not Found</title></html>")

    with pytest.raises(ProviderInvalidResponse, match="CITEWISE_TAVILY_BASE_URL"):
        TavilySearch(connection=tavily).search("deposit protection")
    with pytest.raises(ProviderInvalidResponse, match="CITEWISE_TAVILY_BASE_URL") as caught:
        TavilySearch(connection=tavily).search("deposit protection")
    assert caught.value.status_code == 404


def test_an_answer_of_the_wrong_shape_is_invalid(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    server.enqueue_search({"query": "q", "results": "none"})
    server.enqueue_search({"results": [{"title": "no url"}]})
    server.enqueue_raw(200, "[]", content_type="application/json")
    server.enqueue_extract(response={"results": [{"raw_content": "text without a url"}], "failed_results": []})

    for _ in range(3):
        with pytest.raises(ProviderInvalidResponse):
            TavilySearch(connection=tavily).search("q")
    with pytest.raises(ProviderInvalidResponse, match="result 1 has no url"):
        TavilyExtract(connection=tavily).extract([PAGE_A])
    assert [call.outcome for call in tavily.calls] == ["ProviderInvalidResponse"] * 4


def test_a_gateway_error_page_is_unavailable_and_summarised(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    server.enqueue_raw(502, "<html><head><title>502 Bad Gateway</title></head><body>...</body></html>")

    with pytest.raises(ProviderUnavailable) as caught:
        TavilySearch(connection=tavily).search("q")

    assert caught.value.retryable and caught.value.status_code == 502
    assert caught.value.detail == "a text/html body titled '502 Bad Gateway'"


# -- keys -------------------------------------------------------------------------------------


def test_keyless_runs_are_refused_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)

    with pytest.raises(ConfigError, match="TAVILY_API_KEY") as caught:
        TavilySettings.from_env()
    assert "--search local" in str(caught.value)
    with pytest.raises(ConfigError, match="TAVILY_API_KEY"):
        get_search_provider("tavily")
    with pytest.raises(ConfigError, match="TAVILY_API_KEY"):
        get_extractor("tavily")


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, server: FakeTavilyServer) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", server.base_url + "/")
    monkeypatch.setenv("CITEWISE_TAVILY_TIMEOUT", "7.5")
    server.enqueue_search(HITS)

    settings = TavilySettings.from_env()
    with closing(get_search_provider("tavily")) as search:
        response = search.search("deposit protection")

    assert settings.base_url == server.base_url and settings.timeout_s == 7.5
    assert settings.api_key.reveal() == KEY and settings.search_depth == "basic" and settings.max_results == 5
    assert len(response.results) == 2
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"


def test_the_default_base_url_is_the_official_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.delenv("CITEWISE_TAVILY_BASE_URL", raising=False)
    assert TavilySettings.from_env().base_url == "https://api.tavily.com"


@pytest.mark.parametrize(
    ("variable", "value", "complaint"),
    [
        ("CITEWISE_TAVILY_BASE_URL", "https://user:pw@api.tavily.com", "user:password"),
        ("CITEWISE_TAVILY_BASE_URL", "api.tavily.com", "http(s) URL"),
        ("CITEWISE_TAVILY_TIMEOUT", "soon", "number of seconds"),
        ("CITEWISE_TAVILY_TIMEOUT", "0", "positive"),
    ],
)
def test_bad_settings_are_config_errors(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, complaint: str
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError, match=complaint.replace("(", r"\(").replace(")", r"\)")) as caught:
        TavilySettings.from_env()
    assert_keyless(caught.value)


def test_the_key_never_appears_in_reprs_errors_or_records(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    # A server that echoes the key back in its error message must not get it into citewise's.
    server.enqueue_error(401, f"Unauthorized: invalid API key {KEY}")
    server.enqueue_search(HITS)
    search, extract = TavilySearch(connection=tavily), TavilyExtract(connection=tavily)

    with pytest.raises(ProviderAuthError) as caught:
        search.search("deposit protection")
    response = search.search("deposit protection")

    assert "<redacted>" in str(caught.value)
    for value in (caught.value, caught.value.detail, tavily, tavily.settings, search, extract, response, tavily.calls):
        assert_keyless(value)
    assert search.options == {
        "base_url": server.base_url,
        "search_depth": "basic",
        "max_results": 5,
        "include_answer": False,
        "include_raw_content": False,
    }
    assert extract.options == {"base_url": server.base_url, "extract_depth": "basic", "format": "markdown"}


# -- shared connection and protocols ----------------------------------------------------------


def test_search_and_extract_share_one_connection_and_its_ledger(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    server.enqueue_search(HITS, credits=1)
    server.enqueue_extract(results=[{"url": PAGE_A, "raw_content": "text"}], credits=1)
    search, extract = TavilySearch(connection=tavily), TavilyExtract(connection=tavily)

    hits = search.search("deposit protection")
    pages = extract.extract([hit.url for hit in hits.results[:1]])
    search.close()  # does not close a connection it was given
    extract.close()
    server.enqueue_search([])
    search.search("still open")

    assert pages.pages[0].url == PAGE_A
    assert [call.operation for call in tavily.calls] == ["search", "extract", "search"]
    assert tavily.credits == 3.0


def test_tavily_adapters_satisfy_the_protocols(server: FakeTavilyServer, tavily: TavilyConnection) -> None:
    assert isinstance(TavilySearch(connection=tavily), SearchProvider)
    assert isinstance(TavilyExtract(connection=tavily), Extractor)
    assert TavilySearch(connection=tavily).name == TavilyExtract(connection=tavily).name == "tavily"


# -- registry ---------------------------------------------------------------------------------


def test_unknown_provider_names_fail_listing_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown search provider 'bing'; valid names: .*tavily"):
        get_search_provider("bing")
    with pytest.raises(ConfigError, match=r"unknown extractor 'firecrawl'; valid names: .*tavily"):
        get_extractor("firecrawl")
    assert "tavily" in search_provider_names() and "tavily" in extractor_names()


class _LocalSearch:
    name = "local"
    options: dict[str, object] = {}

    def search(self, query: str) -> SearchResponse:
        raise NotImplementedError

    def close(self) -> None:
        return None


class _LocalPlugin:
    @staticmethod
    def register(registry: ProviderRegistry) -> None:
        registry.add_search_provider("local", _LocalSearch)


def test_plugins_register_like_the_builtins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "fake_local_plugin", _LocalPlugin)
    registry = ProviderRegistry(("citewise.providers.tavily", "fake_local_plugin"), entry_point_group=None)

    assert registry.search_provider_names() == ("local", "tavily")
    assert registry.extractor_names() == ("tavily",)
    assert isinstance(registry.search_provider("LOCAL"), _LocalSearch)
    with pytest.raises(ConfigError, match="two plugins register the search provider 'local'"):
        registry.add_search_provider("local", lambda: _LocalSearch())
    registry.add_search_provider("local", lambda: _LocalSearch(), replace=True)


def test_a_broken_plugin_fails_every_lookup_with_its_name() -> None:
    registry = ProviderRegistry(("citewise.providers.no_such_module",), entry_point_group=None)
    for _ in range(2):
        with pytest.raises(ConfigError, match="citewise.providers.no_such_module"):
            registry.search_provider_names()


# -- the fake itself --------------------------------------------------------------------------


def test_the_fake_answers_unscripted_requests_with_500_saying_so(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    with pytest.raises(ProviderUnavailable, match="no reply scripted"):
        TavilySearch(connection=tavily).search("deposit protection")


def test_the_fake_refuses_a_reply_scripted_for_the_other_endpoint(
    server: FakeTavilyServer, tavily: TavilyConnection
) -> None:
    server.enqueue(FakeSearchReply(HITS))
    with pytest.raises(ProviderUnavailable, match="FakeSearchReply was scripted but POST /extract came"):
        TavilyExtract(connection=tavily).extract([PAGE_A])


def test_the_fake_accepts_the_key_in_the_body_as_older_clients_send_it(server: FakeTavilyServer) -> None:
    import json
    import urllib.request

    server.enqueue_search(HITS)
    request = urllib.request.Request(
        server.base_url + "/search",
        data=json.dumps({"query": "q", "api_key": KEY, "include_usage": True}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        body = json.load(answer)

    assert list(body) == [
        "query",
        "follow_up_questions",
        "answer",
        "images",
        "results",
        "response_time",
        "usage",
        "request_id",
    ]
    assert list(body["results"][0]) == ["url", "title", "content", "score", "raw_content"]
    assert body["usage"] == {"credits": 1}


def test_responders_and_latency_serve_benchmarks() -> None:
    with (
        FakeTavilyServer(
            latency_s=0.05, search_responder=synthetic_search, extract_responder=synthetic_extract
        ) as server,
        TavilyConnection(settings_for(server)) as tavily,
    ):
        started = time.perf_counter()
        hits = TavilySearch(connection=tavily).search("deposit protection")
        pages = TavilyExtract(connection=tavily).extract([hit.url for hit in hits.results[:2]])
        elapsed = time.perf_counter() - started

    assert len(hits.results) == 5
    assert [page.url for page in pages.pages] == [hit.url for hit in hits.results[:2]]
    assert elapsed >= 0.1
