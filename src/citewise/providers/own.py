"""``own``: citewise's own fetcher as an extractor (SPEC 4.1, 4.6), the same shape as Tavily Extract.

Each URL is fetched by :class:`~citewise.fetch.client.Fetcher` (several at a time); a page read with
text becomes an :class:`~citewise.records.providers.ExtractedPage` carrying the publication date the page
itself states, and anything else — refused, failed, a wall — an
:class:`~citewise.records.providers.ExtractFailure` whose ``error`` names the outcome and the deciding
rule, e.g. ``could not read (login_wall): a password field stands where the text should be``. The
fetcher never raises for a page, so an extract call never fails as a whole. Unbilled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from citewise.fetch.browser import BrowserFetcher
from citewise.fetch.client import Fetcher, FetchSettings
from citewise.fetch.records import FetchResult
from citewise.records.providers import ExtractedPage, ExtractFailure, ExtractResponse

if TYPE_CHECKING:
    from citewise.providers.registry import ProviderRegistry

__all__ = ["BROWSER", "PROVIDER", "OwnExtractor", "failure_text", "register"]

PROVIDER = "own"
BROWSER = "browser"
"""The extractor that renders pages in Chromium first (:mod:`citewise.fetch.browser`)."""


def failure_text(result: FetchResult) -> str:
    """The one-line reason a fetch gave no text, as recorded on the failed attempt."""
    return f"could not read ({result.outcome.value}): {result.reason}"


class OwnExtractor:
    """Reads pages with citewise's own fetcher; see the module docstring.

    ``fetcher`` may be given (tests inject one with a resolver and policy); otherwise one is built
    from ``settings`` (default :meth:`FetchSettings.from_env`) and closed with the extractor.
    """

    def __init__(
        self,
        *,
        fetcher: Fetcher | BrowserFetcher | None = None,
        settings: FetchSettings | None = None,
        concurrency: int = 4,
        render: bool = False,
    ) -> None:
        self._owned = fetcher is None
        if fetcher is None:
            fetcher = BrowserFetcher(settings=settings) if render else Fetcher(settings)
        self.fetcher = fetcher
        self.concurrency = max(1, concurrency if not isinstance(fetcher, BrowserFetcher) else min(concurrency, 2))

    @property
    def name(self) -> str:
        return BROWSER if isinstance(self.fetcher, BrowserFetcher) else PROVIDER

    @property
    def options(self) -> Mapping[str, object]:
        s = self.fetcher.settings
        return {
            "max_bytes": s.max_bytes,
            "total_timeout_s": s.total_timeout_s,
            "max_redirects": s.max_redirects,
            "robots": s.respect_robots,
        }

    def extract(self, urls: Sequence[str]) -> ExtractResponse:
        """Fetch and read every URL; each ends up a page or a failure."""
        if len(urls) > 1 and self.concurrency > 1:
            with ThreadPoolExecutor(max_workers=min(self.concurrency, len(urls))) as pool:
                results = list(pool.map(self.fetcher.fetch, urls))
        else:
            results = [self.fetcher.fetch(url) for url in urls]
        pages: list[ExtractedPage] = []
        failures: list[ExtractFailure] = []
        for url, result in zip(urls, results, strict=True):
            if result.ok:
                pages.append(
                    ExtractedPage(
                        url=url,
                        raw_content=result.text,
                        provider=self.name,
                        title=result.title,
                        published_at=result.published_at,
                        updated_at=result.updated_at,
                        publication_date_source=result.publication_date_source,
                    )
                )
            else:
                failures.append(ExtractFailure(url, failure_text(result)))
        return ExtractResponse(tuple(pages), tuple(failures), self.name, datetime.now(UTC))

    def close(self) -> None:
        if self._owned:
            self.fetcher.close()

    def __enter__(self) -> OwnExtractor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _browser(**options: Any) -> OwnExtractor:
    return OwnExtractor(render=True, **options)


def register(registry: ProviderRegistry) -> None:
    """Register ``"own"`` and ``"browser"`` (the own fetcher behind Chromium) as extractors (the
    built-in plugin hook)."""
    registry.add_extractor(PROVIDER, OwnExtractor)
    registry.add_extractor(BROWSER, _browser)
