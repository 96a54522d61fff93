"""How a run's providers get the store's cache (SPEC 4.5a): the time-to-live from ``--cache-ttl`` /
``CITEWISE_CACHE_TTL`` (default 24 h; ``0`` or ``--no-cache`` turn it off), and the wrappers of
:mod:`citewise.providers.cached` around every provider that calls out.

The local evidence store is never cached: reading it costs nothing, and a cached copy would go stale
the moment a document is ingested or reviewed. ``--extract none`` reads nothing, so nothing is cached.
With the cache off, nothing is read from it *and* nothing is written to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from citewise.config import env
from citewise.providers.cached import (
    CACHE_TTL_ENV,
    DEFAULT_CACHE_TTL,
    CachedExtractor,
    CachedSearch,
    parse_duration,
)
from citewise.research.urls import WEB_SCHEMES, normalize_url, query_key
from citewise.store.cache import ProviderCache
from citewise.store.evidence import EvidenceStore
from citewise.text.urls import url_key

__all__ = ["UNCACHED_PROVIDERS", "cache_ttl", "cached_extractor", "cached_providers", "page_key"]

UNCACHED_PROVIDERS = frozenset({"local", "none"})
"""Providers whose answers are never cached (see the module docstring)."""


def cache_ttl(given: timedelta | str | None = None, *, no_cache: bool = False) -> timedelta:
    """The time-to-live of a run's cache: ``timedelta(0)`` means off. ``given`` (an option) wins over
    ``CITEWISE_CACHE_TTL``, which wins over the default of 24 h.

    >>> cache_ttl("30m"), cache_ttl("2h", no_cache=True)
    (datetime.timedelta(seconds=1800), datetime.timedelta(0))
    """
    if no_cache:
        return timedelta(0)
    if isinstance(given, timedelta):
        if given < timedelta(0):
            raise ValueError("a cache time-to-live cannot be negative")
        return given
    if given is not None:
        return parse_duration(given)
    configured = env(CACHE_TTL_ENV)
    if configured is not None:
        return parse_duration(configured, what=CACHE_TTL_ENV)
    return DEFAULT_CACHE_TTL


def page_key(schemes: Sequence[str]) -> Any:
    """How a URL is keyed in the cache: normalised (:func:`~citewise.research.urls.normalize_url`)
    and insensitive to the trailing slash extractors add or drop, as answers are matched."""

    def key(url: str) -> str:
        return url_key(normalize_url(url, schemes=schemes), schemes=schemes)

    return key


def cached_extractor(store: EvidenceStore, extractor: Any, ttl: timedelta) -> Any:
    """``extractor`` reading and writing the store's cache, or itself when it is not cached."""
    if ttl <= timedelta(0) or getattr(extractor, "name", "") in UNCACHED_PROVIDERS:
        return extractor
    if isinstance(extractor, CachedExtractor):
        return extractor
    schemes = tuple(getattr(extractor, "url_schemes", WEB_SCHEMES))
    return CachedExtractor(extractor, ProviderCache(store), ttl=ttl, target_key=page_key(schemes))


def cached_providers(store: EvidenceStore, search: Any, extractor: Any, ttl: timedelta) -> tuple[Any, Any]:
    """The search provider and extractor of a run, each wrapped in the store's cache unless the cache
    is off (``ttl`` zero) or the provider is never cached."""
    wanted = ttl > timedelta(0) and getattr(search, "name", "") not in UNCACHED_PROVIDERS
    if wanted and not isinstance(search, CachedSearch):
        search = CachedSearch(search, ProviderCache(store), ttl=ttl, target_key=query_key)
    return search, cached_extractor(store, extractor, ttl)
