"""Search results and extracted pages kept for a while, so repeated runs do not pay twice (SPEC 4.5a).

:class:`CachedSearch` and :class:`CachedExtractor` wrap another provider. Every answer the wrapped
provider gives is written to a :class:`ResponseCache` (the store's ``provider_cache`` table, shared
by every process and worker of the store); :meth:`CachedSearch.lookup` / :meth:`CachedExtractor.lookup`
read it back while it is younger than the time-to-live. Reading is a separate step on purpose: the
research loop looks a query or URL up *before* it spends budget on a call, so a hit costs no search
or extraction budget and no credits (it is recorded as an attempt with ``cached=True``, see
:mod:`citewise.research.collect`)::

    search = CachedSearch(TavilySearch(), ProviderCache(store), ttl=timedelta(hours=24), target_key=query_key)
    search.lookup("deposit protection")   # None: nothing cached yet
    search.search("deposit protection")   # a real call; the answer is cached
    search.lookup("Deposit  protection")  # the cached answer, with its original retrieved_at

An entry is keyed by the provider's registry name, its result-shaping settings (``options``, with
anything that looks like a credential left out) and the normalised query or URL; the age that the
time-to-live is compared with is counted from the original retrieval time, and a hit keeps that
time. Only answers are cached: a failed call, a page that could not be read and an empty page are
not. An entry that cannot be read back (written by another version, damaged) is a miss.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Generic, Protocol, TypeVar

from citewise.errors import InputError
from citewise.hashing import canonical_json, hash_json
from citewise.records.cache import CacheKind, CacheRecord
from citewise.records.providers import ExtractedPage, Extractor, ExtractResponse, SearchProvider, SearchResponse
from citewise.serial import SerialError, from_data, to_data

__all__ = [
    "CACHE_TTL_ENV",
    "DEFAULT_CACHE_TTL",
    "CachedExtractor",
    "CachedPage",
    "CachedSearch",
    "ResponseCache",
    "cache_key",
    "parse_duration",
]

DEFAULT_CACHE_TTL = timedelta(hours=24)
"""How long a cached answer is used when no time-to-live is given."""
CACHE_TTL_ENV = "CITEWISE_CACHE_TTL"
"""The environment variable (or ``.env`` line) that sets the time-to-live; ``--cache-ttl`` wins."""
KEY_VERSION = 1
"""Part of every key: a change to what an entry holds makes old entries misses, never misreads."""

# Settings named like credentials never become part of a key (they would be stored in it as text).
_SECRET_NAME = re.compile(r"key|token|secret|password|authori[sz]ation|credential", re.IGNORECASE)
_CREDENTIALS_IN_URL = re.compile(r"(://)[^/@\s]*@")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|s)", re.IGNORECASE)
_UNITS = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


@dataclass(frozen=True, slots=True)
class CachedPage:
    """An extracted page read back from the cache."""

    page: ExtractedPage
    """The page as the extractor first returned it."""
    retrieved_at: datetime
    """When it was first extracted (it stays the source's ``retrieved_at``)."""


class ResponseCache(Protocol):
    """Where cached answers live (:class:`citewise.store.cache.ProviderCache` in the store)."""

    def take(self, key: str, *, not_before: datetime) -> CacheRecord | None:
        """The entry under ``key`` retrieved at or after ``not_before``, counted as a hit; else None."""
        ...

    def put(self, record: CacheRecord) -> None:
        """Store ``record``, replacing any entry under its key."""
        ...

    def forget(self, key: str) -> None:
        """Delete the entry under ``key``, if there is one."""
        ...


def cache_key(kind: CacheKind, provider: str, options: Mapping[str, object], target: str) -> tuple[str, str]:
    """``(key, settings JSON)`` of an entry: the key hashes kind, provider, settings and target.

    >>> key, settings = cache_key("search", "tavily", {"depth": "basic", "api_key": "tvly-x"}, "q")
    >>> key.startswith("sha256:"), settings
    (True, '{"depth":"basic"}')
    """
    settings = canonical_json(_settings(options))
    return hash_json([KEY_VERSION, kind, provider, settings, target]), settings


def _settings(options: Mapping[str, object]) -> dict[str, str]:
    return {
        str(name): _CREDENTIALS_IN_URL.sub(r"\1", str(value))
        for name, value in options.items()
        if not _SECRET_NAME.search(str(name))
    }


def parse_duration(text: str, *, what: str = "--cache-ttl") -> timedelta:
    """``24h``, ``30m``, ``90s``, ``7d``, ``1h30m`` or ``0`` (off) as a duration; an
    :class:`~citewise.errors.InputError` naming ``what`` otherwise.

    >>> parse_duration("1h30m"), parse_duration("0")
    (datetime.timedelta(seconds=5400), datetime.timedelta(0))
    """
    cleaned = text.strip().lower()
    if cleaned in ("0", "off"):
        return timedelta(0)
    parts = _DURATION.findall(cleaned)
    if not parts or _DURATION.sub("", cleaned).strip():
        raise InputError(f"{what} must be a duration such as 24h, 30m, 90s, 7d or 0 (off), got {text!r}")
    return timedelta(seconds=sum(float(n) * _UNITS[unit] for n, unit in parts))


def _now() -> datetime:
    return datetime.now(UTC)


P = TypeVar("P", SearchProvider, Extractor)


class _Cached(Generic[P]):
    """What both wrappers share: the wrapped provider (whose name and settings a cached answer
    carries), the cache, the time-to-live and how targets are normalised."""

    kind: CacheKind

    def __init__(
        self,
        inner: P,
        cache: ResponseCache,
        *,
        ttl: timedelta = DEFAULT_CACHE_TTL,
        target_key: Callable[[str], str],
        clock: Callable[[], datetime] = _now,
    ) -> None:
        if ttl <= timedelta(0):
            raise InputError("a cache needs a positive time-to-live (a zero --cache-ttl turns the cache off)")
        self.inner: P = inner
        self.cache = cache
        self.ttl = ttl
        self._target_key = target_key
        self._clock = clock

    @property
    def name(self) -> str:
        """The wrapped provider's name (a cached answer is that provider's answer)."""
        return self.inner.name

    @property
    def options(self) -> Mapping[str, object]:
        """The wrapped provider's settings."""
        return self.inner.options

    def close(self) -> None:
        """Close the wrapped provider."""
        self.inner.close()

    def _key(self, name: str, options: Mapping[str, object], target: str) -> tuple[str, str, str] | None:
        try:
            normalised = self._target_key(target)
        except InputError:  # a URL that cannot be collected is never cached
            return None
        key, settings = cache_key(self.kind, name, options, normalised)
        return key, settings, normalised

    def _take(self, name: str, options: Mapping[str, object], target: str) -> CacheRecord | None:
        found = self._key(name, options, target)
        if found is None:
            return None
        return self.cache.take(found[0], not_before=self._clock() - self.ttl)

    def _put(self, name: str, options: Mapping[str, object], target: str, payload: object, at: datetime) -> None:
        found = self._key(name, options, target)
        if found is None:
            return
        key, settings, normalised = found
        body = canonical_json(to_data(payload))
        self.cache.put(CacheRecord(key, self.kind, name, settings, normalised, body, at.astimezone(UTC)))


class CachedSearch(_Cached[SearchProvider]):
    """A search provider whose answers are cached; see the module docstring."""

    kind: CacheKind = "search"

    def lookup(self, query: str) -> SearchResponse | None:
        """The cached answer to ``query`` while fresh (counted as a hit), else None. It carries the
        original ``retrieved_at`` and no credits: nothing was spent on it now."""
        record = self._take(self.name, self.options, query)
        if record is None:
            return None
        try:
            response = from_data(SearchResponse, _json(record.payload))
        except SerialError:
            return None
        return replace(response, credits=None, credits_source=None)

    def search(self, query: str) -> SearchResponse:
        """Search with the wrapped provider and cache the answer."""
        response = self.inner.search(query)
        self._put(self.name, self.options, query, response, response.retrieved_at)
        return response


class CachedExtractor(_Cached[Extractor]):
    """An extractor whose pages are cached one URL at a time; see the module docstring.

    ``target_key`` must map a URL and every form an extractor echoes it in (a trailing slash added
    or dropped) to one key, so a page is found again under the URL it was asked for."""

    kind: CacheKind = "extract"

    @property
    def url_schemes(self) -> tuple[str, ...]:
        """The URL schemes the wrapped extractor reads."""
        return tuple(getattr(self.inner, "url_schemes", ("http", "https")))

    def lookup(self, url: str) -> CachedPage | None:
        """The cached page of ``url`` while fresh (counted as a hit), else None."""
        record = self._take(self.name, self.options, url)
        if record is None:
            return None
        try:
            page = from_data(ExtractedPage, _json(record.payload))
        except SerialError:
            return None
        if not page.raw_content.strip():
            return None
        return CachedPage(page, record.retrieved_at)

    def forget(self, url: str) -> None:
        """Drop the cached page of ``url`` (it is gone: a later lookup must not bring it back)."""
        found = self._key(self.name, self.options, url)
        if found is not None:
            self.cache.forget(found[0])

    def extract(self, urls: Sequence[str]) -> ExtractResponse:
        """Extract with the wrapped extractor and cache every page that has text."""
        response = self.inner.extract(urls)
        asked = {found[2] for url in urls if (found := self._key(self.name, self.options, url)) is not None}
        for page in response.pages:
            # Only a page matched to a URL asked for: an answer about some other URL is not kept.
            found = self._key(self.name, self.options, page.url)
            if page.raw_content.strip() and found is not None and found[2] in asked:
                self._put(self.name, self.options, page.url, page, response.retrieved_at)
        return response


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise SerialError(f"a cache entry is not JSON: {exc}") from exc
