"""Tavily Search and Tavily Extract through the official ``tavily-python`` client.

::

    from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch

    with TavilyConnection() as tavily:           # TAVILY_API_KEY, CITEWISE_TAVILY_BASE_URL
        hits = TavilySearch(connection=tavily).search("deposit protection rules 2024")
        pages = TavilyExtract(connection=tavily).extract([hit.url for hit in hits.results[:2]])

The parts:

- :class:`TavilySettings` (in :mod:`citewise.providers.tavily_settings`, re-exported here): key (a
  :class:`~citewise.config.Secret`), base URL, timeout and the request options citewise uses (basic
  depth, 5 results, no answer, no raw content; Markdown extraction at basic depth).
- :class:`TavilyConnection` (in :mod:`citewise.providers.tavily_connection`, re-exported here): the
  authenticated ``tavily.TavilyClient`` and its HTTP session, shared by search and extract. It maps
  the client's exceptions onto :mod:`citewise.providers.errors` and records every request in
  :attr:`TavilyConnection.calls`.
- :class:`TavilySearch` and :class:`TavilyExtract`: the wire format, mapped to
  :mod:`citewise.records.providers` records.

What they guarantee:

- **Never keyless.** ``tavily-python`` falls back to an anonymous "keyless" mode when it has no key;
  citewise refuses to run without ``TAVILY_API_KEY`` instead, and says which variable to set.
- **No retries.** Every call is one request; ``ProviderError.retryable`` tells the caller which
  failures a bounded retry inside the budget may help with.
- **Credits per call**: Tavily's own ``usage.credits`` when it reports them (``credits_source
  "reported"``), else the documented price rule (``"estimated"``): a basic search costs 1 credit
  (advanced 2); extraction costs 1 credit per 5 successful URLs at basic depth (2 at advanced),
  rounded up per call.
- **Every requested URL is accounted for**: a page with text, or a failure with its reason (Tavily's,
  an empty page, or a URL missing from Tavily's answer).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any

from citewise.errors import ConfigError, InputError
from citewise.providers.errors import ProviderInvalidResponse
from citewise.providers.tavily_connection import PROVIDER, Operation, TavilyConnection
from citewise.providers.tavily_settings import (
    BASE_URL_ENV,
    DEFAULT_BASE_URL,
    KEY_ENV,
    MISSING_KEY_MESSAGE,
    TIMEOUT_ENV,
    TavilySettings,
)
from citewise.records.providers import (
    CreditsSource,
    ExtractedPage,
    ExtractFailure,
    ExtractResponse,
    SearchResponse,
    SearchResult,
)
from citewise.text.urls import url_key

if TYPE_CHECKING:
    from citewise.providers.registry import ProviderRegistry

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENV",
    "MAX_EXTRACT_URLS",
    "MISSING_KEY_MESSAGE",
    "PROVIDER",
    "TIMEOUT_ENV",
    "TavilyConnection",
    "TavilyExtract",
    "TavilySearch",
    "TavilySettings",
    "register",
]

MAX_EXTRACT_URLS = 20
"""Tavily Extract takes at most 20 URLs per request."""

SEARCH_CREDITS: Mapping[str, int] = {"basic": 1, "advanced": 2}
"""Credits per search by depth (Tavily's documented price rule)."""
EXTRACT_CREDITS_PER_5: Mapping[str, int] = {"basic": 1, "advanced": 2}
"""Credits per 5 successful extractions by depth (Tavily's documented price rule)."""


# -- adapters: wire format to records ---------------------------------------------------------


class _Adapter:
    name = PROVIDER

    def __init__(self, settings: TavilySettings | None = None, *, connection: TavilyConnection | None = None) -> None:
        if connection is not None and settings is not None and settings != connection.settings:
            raise ConfigError("give settings or a connection, not both with different settings")
        self._owns_connection = connection is None
        self.connection = connection if connection is not None else TavilyConnection(settings)
        """The authenticated client this adapter sends through."""

    @property
    def settings(self) -> TavilySettings:
        """The connection's settings."""
        return self.connection.settings

    def close(self) -> None:
        """Release the connection if this adapter opened it (a shared one is closed by its owner)."""
        if self._owns_connection:
            self.connection.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.settings.base_url!r})"


class TavilySearch(_Adapter):
    """Tavily Search as a :class:`~citewise.records.providers.SearchProvider`.

    Without ``settings`` or ``connection`` it reads :meth:`TavilySettings.from_env`.
    """

    @property
    def options(self) -> Mapping[str, object]:
        s = self.settings
        return {
            "base_url": s.base_url,
            "search_depth": s.search_depth,
            "max_results": s.max_results,
            "include_answer": False,
            "include_raw_content": False,
        }

    def __enter__(self) -> TavilySearch:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def search(self, query: str) -> SearchResponse:
        """One Tavily search: basic depth, 5 results, no answer, no raw content (by default)."""
        query = query.strip()
        if not query:
            raise InputError("a search query must not be empty")
        params = {
            "query": query,
            "search_depth": self.settings.search_depth,
            "max_results": self.settings.max_results,
            "include_answer": False,
            "include_raw_content": False,
            "include_usage": True,
        }
        return self.connection.call("search", params, lambda body: self._parse(body, query))

    def _parse(self, body: Mapping[str, Any], query: str) -> SearchResponse:
        raw_results = body.get("results")
        if not isinstance(raw_results, list):
            raise _invalid("search", "no results list")
        results = []
        for rank, item in enumerate(raw_results, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("url"), str) or not item["url"]:
                raise _invalid("search", f"result {rank} has no url")
            results.append(
                SearchResult(
                    url=item["url"],
                    title=_text(item.get("title")),
                    content=_text(item.get("content")),
                    score=_number(item.get("score")),
                    rank=rank,
                    provider=PROVIDER,
                    query=query,
                )
            )
        credits, source = _credits(body, estimate=SEARCH_CREDITS[self.settings.search_depth])
        return SearchResponse(
            query=query,
            results=tuple(results),
            provider=PROVIDER,
            retrieved_at=datetime.now(UTC),
            credits=credits,
            credits_source=source,
            request_id=_str_or_none(body.get("request_id")),
            response_time=_number(body.get("response_time")),
        )


class TavilyExtract(_Adapter):
    """Tavily Extract as an :class:`~citewise.records.providers.Extractor`.

    Without ``settings`` or ``connection`` it reads :meth:`TavilySettings.from_env`.
    """

    @property
    def options(self) -> Mapping[str, object]:
        s = self.settings
        return {"base_url": s.base_url, "extract_depth": s.extract_depth, "format": s.extract_format}

    def __enter__(self) -> TavilyExtract:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def extract(self, urls: Sequence[str]) -> ExtractResponse:
        """Read up to 20 URLs in one Tavily Extract call (basic depth, Markdown, by default).

        No URLs, no call: the answer is empty and costs nothing.
        """
        if isinstance(urls, str):
            raise InputError("extract takes a list of URLs, not one string")
        wanted = list(dict.fromkeys(url.strip() for url in urls))
        if any(not url for url in wanted):
            raise InputError("an empty URL cannot be extracted")
        if len(wanted) > MAX_EXTRACT_URLS:
            raise InputError(f"Tavily Extract takes at most {MAX_EXTRACT_URLS} URLs per call, got {len(wanted)}")
        if not wanted:
            return ExtractResponse((), (), PROVIDER, datetime.now(UTC), credits=0.0, credits_source="estimated")
        params = {
            "urls": wanted,
            "extract_depth": self.settings.extract_depth,
            "format": self.settings.extract_format,
            "include_usage": True,
        }
        return self.connection.call("extract", params, lambda body: self._parse(body, wanted))

    def _parse(self, body: Mapping[str, Any], wanted: list[str]) -> ExtractResponse:
        raw_results, raw_failed = body.get("results"), body.get("failed_results", [])
        if not isinstance(raw_results, list) or not isinstance(raw_failed, list):
            raise _invalid("extract", "no results / failed_results lists")
        pages: list[ExtractedPage] = []
        failures: list[ExtractFailure] = []
        for number, item in enumerate(raw_results, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("url"), str):
                raise _invalid("extract", f"result {number} has no url")
            text = _text(item.get("raw_content"))
            if text.strip():
                pages.append(ExtractedPage(item["url"], text, PROVIDER, _str_or_none(item.get("title"))))
            else:
                failures.append(ExtractFailure(item["url"], "no text extracted (empty page)"))
        for number, item in enumerate(raw_failed, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("url"), str):
                raise _invalid("extract", f"failed result {number} has no url")
            failures.append(ExtractFailure(item["url"], _text(item.get("error")) or "extraction failed"))
        answered = {url_key(p.url) for p in pages} | {url_key(f.url) for f in failures}
        failures.extend(ExtractFailure(url, "not in Tavily's answer") for url in wanted if url_key(url) not in answered)
        per_5 = EXTRACT_CREDITS_PER_5[self.settings.extract_depth]
        credits, source = _credits(body, estimate=math.ceil(len(raw_results) / 5) * per_5)
        return ExtractResponse(
            pages=tuple(pages),
            failures=tuple(failures),
            provider=PROVIDER,
            retrieved_at=datetime.now(UTC),
            credits=credits,
            credits_source=source,
            request_id=_str_or_none(body.get("request_id")),
            response_time=_number(body.get("response_time")),
        )


def _invalid(operation: Operation, what: str) -> ProviderInvalidResponse:
    return ProviderInvalidResponse(
        f"Tavily's {operation} answer is not in the expected shape ({what}); check {BASE_URL_ENV}",
        provider=PROVIDER,
        status_code=200,
    )


def _credits(body: Mapping[str, Any], *, estimate: float) -> tuple[float, CreditsSource]:
    usage = body.get("usage")
    reported = _number(usage.get("credits")) if isinstance(usage, dict) else None
    if reported is not None:
        return reported, "reported"
    return float(estimate), "estimated"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


# -- registration -----------------------------------------------------------------------------


def register(registry: ProviderRegistry) -> None:
    """Register ``"tavily"`` as a search provider and an extractor (the built-in plugin hook)."""
    registry.add_search_provider(PROVIDER, TavilySearch)
    registry.add_extractor(PROVIDER, TavilyExtract)
