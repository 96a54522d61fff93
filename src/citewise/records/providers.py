"""What every search provider and extractor returns, and the protocols they implement.

A search provider turns a query into ranked :class:`SearchResult` hits (a URL, a title and a
*snippet*); an extractor turns URLs into :class:`ExtractedPage` texts. The two are kept apart
(SPEC 4.1, 4.3): a snippet is never a read page, and only an extracted page can become a source.

Providers are looked up by name in :mod:`citewise.providers.registry`; failures raise the typed
errors of :mod:`citewise.providers.errors`. Every record here is immutable and carries the
provider's name, so the audit store can say which channel each hit and page came through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

__all__ = [
    "CreditsSource",
    "ExtractFailure",
    "ExtractResponse",
    "ExtractedPage",
    "Extractor",
    "ProviderCall",
    "SearchProvider",
    "SearchResponse",
    "SearchResult",
]

CreditsSource = Literal["reported", "estimated"]
"""Where a credit count came from: the provider's own ``usage`` figure, or citewise's estimate
from the provider's documented price rule (when the provider did not report usage)."""


@dataclass(frozen=True)
class SearchResult:
    """One hit of a search: where to look, not what the page says."""

    url: str
    """The result's URL exactly as the provider returned it (normalisation happens later)."""
    title: str
    """The page title the provider reported; empty when it gave none."""
    content: str
    """The provider's snippet for this hit. Never evidence on its own: only extracted page text is."""
    score: float | None
    """The provider's relevance score (Tavily: 0..1), ``None`` when it gave none. Scores of
    different providers are not comparable."""
    rank: int
    """1-based position in the provider's answer."""
    provider: str
    """The search provider's registry name, e.g. ``"tavily"``."""
    query: str
    """The query that discovered this hit, as citewise sent it."""


@dataclass(frozen=True)
class SearchResponse:
    """The answer to one search call."""

    query: str
    """The query as citewise sent it."""
    results: tuple[SearchResult, ...]
    """The hits, best first (``rank`` 1, 2, ...); empty when nothing was found."""
    provider: str
    """The search provider's registry name."""
    retrieved_at: datetime
    """When the answer arrived (UTC)."""
    credits: float | None = None
    """Provider billing units this call cost (Tavily credits); ``None`` for unbilled providers."""
    credits_source: CreditsSource | None = None
    """Whether ``credits`` was reported by the provider or estimated by citewise."""
    request_id: str | None = None
    """The provider's id for this request, for support tickets."""
    response_time: float | None = None
    """Seconds the provider says it took (its own figure, not our round trip)."""


@dataclass(frozen=True)
class ExtractedPage:
    """The text of one page an extractor read."""

    url: str
    """The URL as the extractor returned it."""
    raw_content: str
    """The page's full extracted text (Tavily: Markdown). Never empty: an empty extraction is an
    :class:`ExtractFailure`."""
    provider: str
    """The extractor's registry name, e.g. ``"tavily"``."""
    title: str | None = None
    """The page title, when the extractor reported one."""
    published_at: str | None = None
    """The original publication date (``YYYY-MM-DD``) the page itself states; ``None`` when the
    extractor read no such signal (Tavily reports none) or the signals conflict."""
    updated_at: str | None = None
    """The update date the page states, kept apart from ``published_at``."""
    publication_date_source: str | None = None
    """The signal ``published_at`` came from (e.g. ``json-ld datePublished``)."""


@dataclass(frozen=True)
class ExtractFailure:
    """A URL that could not be read. Recorded, never silently dropped (STYLE: a failed extraction is
    an event, not a smaller evidence set)."""

    url: str
    """The URL as requested (or as the extractor echoed it)."""
    error: str
    """Why it failed, in the extractor's words or citewise's (e.g. empty content, not returned)."""


@dataclass(frozen=True)
class ExtractResponse:
    """The answer to one extract call: every requested URL ends up in ``pages`` or ``failures``."""

    pages: tuple[ExtractedPage, ...]
    """Pages with usable text, in the extractor's order."""
    failures: tuple[ExtractFailure, ...]
    """URLs that yielded no usable text, with the reason."""
    provider: str
    """The extractor's registry name."""
    retrieved_at: datetime
    """When the answer arrived (UTC)."""
    credits: float | None = None
    """Provider billing units this call cost (Tavily credits); ``None`` for unbilled extractors."""
    credits_source: CreditsSource | None = None
    """Whether ``credits`` was reported by the provider or estimated by citewise."""
    request_id: str | None = None
    """The provider's id for this request."""
    response_time: float | None = None
    """Seconds the provider says it took."""


@dataclass(frozen=True)
class ProviderCall:
    """One request to a provider, successful or not, for the audit and cost ledgers."""

    provider: str
    """The provider's registry name."""
    operation: Literal["search", "extract"]
    """Which endpoint was called."""
    started_at: datetime
    """When the request was sent (UTC)."""
    latency_s: float
    """Seconds until the answer (or the failure)."""
    outcome: str
    """``"ok"``, or the name of the :class:`~citewise.providers.errors.ProviderError` raised."""
    credits: float | None = None
    """Billing units spent; ``None`` when unknown (failed calls)."""
    credits_source: CreditsSource | None = None
    """Whether ``credits`` was reported or estimated."""
    status_code: int | None = None
    """The HTTP status, when there was a response."""
    request_id: str | None = None
    """The provider's request id, when it sent one."""


@runtime_checkable
class SearchProvider(Protocol):
    """Anything that answers a query with ranked hits.

    ``search`` raises a :class:`~citewise.providers.errors.ProviderError` when the call fails; it
    never retries on its own (retries happen in citewise, inside the budget). ``close`` releases
    connections; providers are also context managers where they hold any.
    """

    @property
    def name(self) -> str:
        """The registry name, recorded on every result."""
        ...

    @property
    def options(self) -> Mapping[str, object]:
        """The settings that shape the results (depth, result count, endpoint), part of a cache key
        (SPEC 4.5a). Never contains secrets."""
        ...

    def search(self, query: str) -> SearchResponse:
        """Search once for ``query``."""
        ...

    def close(self) -> None:
        """Release connections; a no-op for providers without any."""
        ...


@runtime_checkable
class Extractor(Protocol):
    """Anything that reads pages: every requested URL comes back as a page or a failure."""

    @property
    def name(self) -> str:
        """The registry name, recorded on every page."""
        ...

    @property
    def options(self) -> Mapping[str, object]:
        """The settings that shape the extracted text (depth, format, endpoint); never secrets."""
        ...

    def extract(self, urls: Sequence[str]) -> ExtractResponse:
        """Read ``urls`` in one call."""
        ...

    def close(self) -> None:
        """Release connections; a no-op for extractors without any."""
        ...
