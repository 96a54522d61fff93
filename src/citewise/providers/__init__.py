"""Search providers and extractors: where the research loop finds and reads pages (SPEC 4.1).

- :mod:`~citewise.records.providers`: the records every provider returns (:class:`SearchResult`,
  :class:`ExtractedPage`, ...) and the :class:`SearchProvider` / :class:`Extractor` protocols.
- :mod:`~citewise.providers.errors`: the typed failures (:class:`ProviderError` and its subclasses).
- :mod:`~citewise.providers.registry`: providers by name (``get_search_provider("tavily")``).
- :mod:`~citewise.providers.tavily`: Tavily Search and Extract through ``tavily-python``.

A fake Tavily server for tests lives in :mod:`citewise.testing.fake_tavily`.
"""

from citewise.providers.errors import (
    ProviderAuthError,
    ProviderBadRequest,
    ProviderError,
    ProviderForbidden,
    ProviderInvalidResponse,
    ProviderQuotaExceeded,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
)
from citewise.providers.registry import (
    ProviderRegistry,
    extractor_names,
    get_extractor,
    get_search_provider,
    register_extractor,
    register_search_provider,
    search_provider_names,
)
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.records.providers import (
    CreditsSource,
    ExtractedPage,
    ExtractFailure,
    Extractor,
    ExtractResponse,
    ProviderCall,
    SearchProvider,
    SearchResponse,
    SearchResult,
)

__all__ = [
    "CreditsSource",
    "ExtractFailure",
    "ExtractResponse",
    "ExtractedPage",
    "Extractor",
    "ProviderAuthError",
    "ProviderBadRequest",
    "ProviderCall",
    "ProviderError",
    "ProviderForbidden",
    "ProviderInvalidResponse",
    "ProviderQuotaExceeded",
    "ProviderRateLimited",
    "ProviderRegistry",
    "ProviderTimeout",
    "ProviderUnavailable",
    "SearchProvider",
    "SearchResponse",
    "SearchResult",
    "TavilyConnection",
    "TavilyExtract",
    "TavilySearch",
    "TavilySettings",
    "extractor_names",
    "get_extractor",
    "get_search_provider",
    "register_extractor",
    "register_search_provider",
    "search_provider_names",
]
