"""The local evidence store as a search provider and an extractor, for research without any key.

::

    from citewise.providers.local import LocalExtractor, LocalSearch

    search, extractor = LocalSearch(store), LocalExtractor(store)
    hits = search.search("보증금 반환")                      # eligible sections only
    pages = extractor.extract([hit.url for hit in hits.results[:2]])

Search runs the local index and then the eligibility gate (:mod:`citewise.evidence.gate`) under the
retrieval plan, so only sections the plan permits (by default: approved, current, in force) come
back; a hit is a ``citewise://<doc_id>@<version>/<section_id>`` URL (each part percent-encoded),
titled ``<document title> <heading>``, with a snippet. The extractor reads those URLs back as the
section's full text, checking eligibility again (a URL is not trusted because it looks like ours);
any other URL is a failure with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urlsplit

from citewise.errors import InputError, NotFoundError
from citewise.evidence.gate import gate
from citewise.evidence.plan import RetrievalPlan
from citewise.providers.errors import ProviderBadRequest
from citewise.records.gate import Candidate, SourceRef
from citewise.records.providers import (
    ExtractedPage,
    ExtractFailure,
    ExtractResponse,
    SearchResponse,
    SearchResult,
)
from citewise.search.local import search as local_search
from citewise.search.local import snippet
from citewise.store.evidence import EvidenceStore
from citewise.text.analyze import query_terms

if TYPE_CHECKING:
    from citewise.providers.registry import ProviderRegistry

__all__ = ["PROVIDER", "SCHEME", "LocalExtractor", "LocalSearch", "parse_section_url", "register", "section_url"]

PROVIDER = "local"
SCHEME = "citewise"
_CANDIDATES_PER_HIT = 4  # search deeper than k: the gate may exclude many of the hits


def section_url(doc_id: str, version: int, section_id: str) -> str:
    """The URL of one stored section.

    >>> section_url("kr-law-001248", 2, "제3조의2")
    'citewise://kr-law-001248@2/%EC%A0%9C3%EC%A1%B0%EC%9D%982'
    """
    return f"{SCHEME}://{quote(doc_id, safe='')}@{version}/{quote(section_id, safe='')}"


def parse_section_url(url: str) -> SourceRef:
    """The section a :func:`section_url` names; :class:`InputError` for anything else."""
    parts = urlsplit(url.strip())
    doc, at, version = parts.netloc.rpartition("@")
    section = parts.path[1:] if parts.path.startswith("/") else ""
    if parts.scheme.lower() != SCHEME or not at or not doc or not version.isdigit() or not section or "/" in section:
        raise InputError(f"not a local evidence URL ({SCHEME}://<doc_id>@<version>/<section_id>): {url!r}")
    return SourceRef(unquote(doc), int(version), unquote(section))


class LocalSearch:
    """Search over the evidence store that returns only eligible sections (a ``SearchProvider``)."""

    name = PROVIDER

    def __init__(self, store: EvidenceStore, plan: RetrievalPlan | None = None, k: int = 5) -> None:
        if k < 1:
            raise InputError("k must be at least 1")
        self.store = store
        self.plan = plan or RetrievalPlan()
        self.k = k

    def __repr__(self) -> str:
        return f"LocalSearch(store={self.store.url!r}, k={self.k})"

    @property
    def options(self) -> Mapping[str, object]:
        return {"store": self.store.url, "k": self.k, "plan": self.plan.describe()}

    def search(self, query: str) -> SearchResponse:
        """Eligible sections for ``query``, best first (at most ``k``)."""
        try:
            hits = local_search(self.store, query, k=self.k * _CANDIDATES_PER_HIT)
        except InputError as exc:
            raise ProviderBadRequest(f"local search refused the query: {exc}", provider=PROVIDER) from exc
        eligible = gate(self.store, self.plan, hits).eligible[: self.k]
        terms = query_terms(query)
        results = tuple(
            SearchResult(
                url=section_url(c.section.doc_id, c.section.version, c.section.section_id),
                title=_title(c),
                content=snippet(c.section.text, terms),
                score=c.score,
                rank=rank,
                provider=PROVIDER,
                query=query,
            )
            for rank, c in enumerate(eligible, start=1)
        )
        return SearchResponse(query=query, results=results, provider=PROVIDER, retrieved_at=datetime.now(UTC))

    def close(self) -> None:
        """Nothing to release: the store belongs to the caller."""


class LocalExtractor:
    """Reads ``citewise://`` section URLs back from the evidence store (an ``Extractor``)."""

    name = PROVIDER
    url_schemes: tuple[str, ...] = (SCHEME,)
    """The only URLs it can read; the collector refuses others before spending budget on them."""

    def __init__(self, store: EvidenceStore, plan: RetrievalPlan | None = None) -> None:
        self.store = store
        self.plan = plan or RetrievalPlan()

    def __repr__(self) -> str:
        return f"LocalExtractor(store={self.store.url!r})"

    @property
    def options(self) -> Mapping[str, object]:
        return {"store": self.store.url, "plan": self.plan.describe()}

    def extract(self, urls: Sequence[str]) -> ExtractResponse:
        """The full text of each eligible section named; a failure for every other URL."""
        if isinstance(urls, str):
            raise InputError("extract takes a list of URLs, not one string")
        pages: list[ExtractedPage] = []
        failures: list[ExtractFailure] = []
        for url in dict.fromkeys(urls):
            result = self._read(url)
            (pages if isinstance(result, ExtractedPage) else failures).append(result)  # type: ignore[arg-type]
        return ExtractResponse(tuple(pages), tuple(failures), PROVIDER, datetime.now(UTC))

    def _read(self, url: str) -> ExtractedPage | ExtractFailure:
        try:
            ref = parse_section_url(url)
        except InputError as exc:
            return ExtractFailure(url, str(exc))
        try:
            # Gated one by one: two near-identical sections asked for together stay two pages.
            outcome = gate(self.store, self.plan, [ref])
        except NotFoundError as exc:
            return ExtractFailure(url, str(exc))
        decision = outcome.decisions[0]
        if not decision.eligible or decision.candidate is None:
            reasons = "; ".join(f"{r.reason.value}: {r.detail}" for r in decision.reasons) or "not eligible"
            return ExtractFailure(url, f"{ref} is not eligible evidence ({reasons})")
        candidate = decision.candidate
        if not candidate.section.text.strip():
            return ExtractFailure(url, f"{ref} has no text")
        return ExtractedPage(url, candidate.section.text, PROVIDER, _title(candidate))

    def close(self) -> None:
        """Nothing to release: the store belongs to the caller."""


def _title(candidate: Candidate) -> str:
    return f"{candidate.document.title} {candidate.section.heading}".strip()


def register(registry: ProviderRegistry) -> None:
    """Register ``"local"`` as a search provider and an extractor (the built-in plugin hook).

    Both need the store: ``registry.search_provider("local", store=store)``.
    """
    registry.add_search_provider(PROVIDER, LocalSearch)
    registry.add_extractor(PROVIDER, LocalExtractor)
