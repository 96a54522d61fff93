"""Choosing, extracting and reading pages, and turning usable pages into sources.

The page, extraction and source rules of a collection round (rules 2-4 in
:mod:`citewise.research.collect`): budget is spent per URL in query then rank order before any
call, an extractor's answer is matched back to the URLs asked for, and only a page with text becomes
a :class:`~citewise.records.research.Source`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from citewise.audit.events import AttemptEnded, ExtractFellBack
from citewise.hashing import content_hash
from citewise.providers.cached import CachedExtractor, CachedPage
from citewise.providers.errors import ProviderRateLimited
from citewise.records.providers import ExtractedPage, Extractor, ExtractResponse, SearchResponse, SearchResult
from citewise.records.research import AttemptError, AttemptKind, Skip, SkipReason, Source, StopReason
from citewise.research.injection import injection_flags
from citewise.research.round import Call, Outcome, Round, make_attempt
from citewise.research.select import select_passages
from citewise.research.sites import RoundSites
from citewise.research.urls import WEB_SCHEMES, UnusableURL, normalize_url, without_credentials
from citewise.text.domains import registrable_domain
from citewise.text.urls import url_key

__all__ = [
    "EMPTY_PAGE",
    "EXTRACT_FAILED",
    "Found",
    "Wanted",
    "build_source",
    "choose_pages",
    "extract_pages",
]

EXTRACT_FAILED = AttemptError.EXTRACT_FAILED.value
"""``Attempt.error_type`` of a URL the extractor reported it could not read."""
EMPTY_PAGE = AttemptError.EMPTY_PAGE.value
"""``Attempt.error_type`` of a page that came back without any text."""


@dataclass(frozen=True, slots=True)
class Wanted:
    """A page chosen for extraction."""

    hit: SearchResult
    normalized_url: str
    cached: AttemptEnded | None = None
    """The cache hit that answered it (recorded, no budget spent), or None: it gets a call."""

    @property
    def url(self) -> str:
        return self.hit.url.strip()


def choose_pages(
    step: Round,
    answered: Sequence[tuple[str, SearchResponse]],
    per_query: int,
    schemes: Sequence[str],
    extractor: Extractor | None = None,
    sites: RoundSites | None = None,
) -> list[tuple[str, list[Wanted]]]:
    """Which URLs each query gets (budget spent here, in query then rank order). A URL the
    extractor's cache answers is taken from it and spends no budget (it still counts towards
    ``per_query``: it is a page tried for that query). With ``sites``, a hit whose site already
    gives enough while others answer is passed over (:mod:`citewise.research.sites`)."""
    groups: list[tuple[str, list[Wanted]]] = []
    primary = getattr(extractor, "primary", extractor)  # with --extract-fallback: the first extractor's cache
    lookup = primary.lookup if isinstance(primary, CachedExtractor) else None
    for query, response in answered:
        wanted: list[Wanted] = []
        answering = RoundSites.answering(h.url for h in response.results) if sites is not None else frozenset()
        for hit in response.results:
            if len(wanted) >= per_query:
                break
            try:
                normalized = normalize_url(hit.url, schemes=schemes)
            except UnusableURL as exc:
                target = without_credentials(hit.url)  # a URL's password is never recorded
                step.skip(Skip(AttemptKind.EXTRACT, target, step.number, SkipReason.UNUSABLE_URL, str(exc), query))
                continue
            if normalized in step.collection.tried_urls:
                skip = Skip(AttemptKind.EXTRACT, hit.url, step.number, SkipReason.ALREADY_TRIED, normalized, query)
                step.skip(skip)
                continue
            domain = registrable_domain(normalized)
            if sites is not None and not sites.allows(domain, answering):
                detail = f"{domain} already gives enough of the sources while other sites answer"
                step.skip(Skip(AttemptKind.EXTRACT, hit.url, step.number, SkipReason.SAME_SITE, detail, query))
                continue
            url = hit.url.strip()
            found = step.from_cache(
                AttemptKind.EXTRACT, url, _bound_lookup(lookup, url), **_context(Wanted(hit, normalized), query)
            )
            if found is not None and found.page is not None:
                wanted.append(Wanted(hit, normalized, found))
                if sites is not None:
                    sites.take(domain)
                continue
            exhausted = StopReason.EXTRACTIONS_EXHAUSTED
            if not step.begin(AttemptKind.EXTRACT, url, exhausted, normalized, query):
                break
            wanted.append(Wanted(hit, normalized))
            if sites is not None:
                sites.take(domain)
        if wanted:
            groups.append((query, wanted))
        if step.stop is StopReason.EXTRACTIONS_EXHAUSTED:
            break
    return groups


Found = dict[str, tuple[ExtractedPage, ExtractResponse]]


def extract_pages(
    step: Round, groups: list[tuple[str, list[Wanted]]], extractor: Extractor, retries: int
) -> list[Found]:
    """Pages with usable text per group, keyed by normalised URL (cache hits first, without a call).

    When ``extractor`` carries a ``fallback`` extractor (:class:`~citewise.research.configure.WithFallback`),
    every URL the first could not read is tried once more with the fallback: a new attempt, spent
    from the budget before the call and recorded like any other."""
    found: list[Found] = [_from_cache(wanted) for _, wanted in groups]
    live = [(g, [w for w in wanted if w.cached is None]) for g, (_, wanted) in enumerate(groups)]
    wave = [(g, wanted) for g, wanted in live if wanted]
    for attempt_number in range(retries + 1):
        limited = _run_wave(step, groups, wave, extractor, found)
        if not limited or attempt_number == retries:
            break
        wave = _granted(step, groups, [(g, wanted) for g, wanted, _ in limited])
        if not wave:
            break
        step.wait_before_retry([error for g, _, error in limited if any(g == w for w, _ in wave)], attempt_number + 1)
    fallback = getattr(extractor, "fallback", None)
    if fallback is not None and step.stop is not StopReason.EXTRACTIONS_EXHAUSTED:
        unread = [(g, [w for w in wanted if w.normalized_url not in found[g]]) for g, (_, wanted) in enumerate(groups)]
        wave = _granted(step, groups, [(g, wanted) for g, wanted in unread if wanted])
        if wave:
            urls = tuple(w.url for _, wanted in wave for w in wanted)
            step.recorder.record(ExtractFellBack(step.number, extractor.name, fallback.name, urls))
            _run_wave(step, groups, wave, fallback, found)
    return found


def _granted(
    step: Round, groups: list[tuple[str, list[Wanted]]], asked: list[tuple[int, list[Wanted]]]
) -> list[tuple[int, list[Wanted]]]:
    """The URLs of ``asked`` given a new attempt, in order, until the page budget runs out."""
    wave = []
    for g, wanted in asked:
        granted = []
        for want in wanted:
            reason = StopReason.EXTRACTIONS_EXHAUSTED
            if not step.begin(AttemptKind.EXTRACT, want.url, reason, want.normalized_url, query_of(groups, g)):
                break
            granted.append(want)
        if granted:
            wave.append((g, granted))
        if step.stop is StopReason.EXTRACTIONS_EXHAUSTED:
            break
    return wave


def _run_wave(
    step: Round,
    groups: list[tuple[str, list[Wanted]]],
    current: list[tuple[int, list[Wanted]]],
    extractor: Extractor,
    found: list[Found],
) -> list[tuple[int, list[Wanted], ProviderRateLimited]]:
    """One extract call per group of ``current``; pages go into ``found``; rate-limited groups returned."""
    limited: list[tuple[int, list[Wanted], ProviderRateLimited]] = []
    schemes = getattr(extractor, "url_schemes", WEB_SCHEMES)

    def handle(index: int, outcome: Outcome[ExtractResponse]) -> None:
        g, wanted = current[index]
        query = groups[g][0]
        if outcome.value is None:
            for want in wanted:
                attempt = make_attempt(AttemptKind.EXTRACT, want.url, step.number, outcome)
                step.end(attempt, **_context(want, query))
            if isinstance(outcome.error, ProviderRateLimited):
                limited.append((g, wanted, outcome.error))
            return
        found[g].update(_read_pages(step, wanted, outcome, query, schemes))

    calls = [
        Call(AttemptKind.EXTRACT, tuple(w.url for w in wanted), _bound(extractor, [w.url for w in wanted]))
        for _, wanted in current
    ]
    step.run(calls, handle)
    return limited


def _read_pages(
    step: Round, wanted: list[Wanted], outcome: Outcome[ExtractResponse], query: str, schemes: Sequence[str]
) -> Found:
    """Match the extractor's answer to the URLs asked for; record one attempt per URL."""
    response = outcome.value
    assert response is not None
    pages: dict[str, ExtractedPage] = {}
    failures: dict[str, str] = {}
    for page in response.pages:
        pages.setdefault(url_key(page.url, schemes=schemes), page)
    for failure in response.failures:
        failures.setdefault(url_key(failure.url, schemes=schemes), failure.error)
    share = response.credits / len(wanted) if response.credits is not None else None
    usable: Found = {}
    for want in wanted:
        key = url_key(want.url, schemes=schemes)
        answer = pages.get(key)
        error: tuple[AttemptError, str] | None = None
        if answer is not None and answer.raw_content.strip():
            usable[want.normalized_url] = (answer, response)
        elif answer is not None:
            error = (AttemptError.EMPTY_PAGE, "the extractor returned no text for this page")
        else:
            error = (AttemptError.EXTRACT_FAILED, failures.get(key, "not in the extractor's answer"))
        attempt = make_attempt(AttemptKind.EXTRACT, want.url, step.number, outcome, share, error)
        read = usable.get(want.normalized_url) if attempt.ok else None
        if read is None:
            usable.pop(want.normalized_url, None)  # a recorded failure stays a failure
        if read is None:
            step.end(attempt, **_context(want, query))
        else:
            step.end(attempt, page=read[0], answered_at=response.retrieved_at, **_context(want, query))
    return usable


def build_source(
    step: Round,
    number: int,
    want: Wanted,
    page: ExtractedPage,
    response: ExtractResponse,
    query: str,
    question: str,
    excerpt_chars: int,
    terms: Sequence[str] | None = None,
) -> Source:
    excerpt = select_passages(page.raw_content, question, query, excerpt_chars, terms=terms)
    return Source(
        domain=registrable_domain(want.normalized_url),
        source_id=f"S{number}",
        url=want.hit.url,
        normalized_url=want.normalized_url,
        title=page.title or want.hit.title,
        query=query,
        retrieved_at=response.retrieved_at,
        page_text=page.raw_content,
        content=excerpt,
        provider=response.provider,
        round=step.number,
        # Only what the page itself states (the extractor read it); never the retrieval time or rank.
        published_at=page.published_at,
        publication_date_source=page.publication_date_source if page.published_at else None,
        injection_flags=injection_flags(page.raw_content),
        page_text_hash=content_hash(page.raw_content),
        content_hash=content_hash(excerpt),
    )


def _context(want: Wanted, query: str) -> dict[str, Any]:
    return {"query": query, "normalized_url": want.normalized_url, "rank": want.hit.rank}


def query_of(groups: list[tuple[str, list[Wanted]]], index: int) -> str:
    return groups[index][0]


def _bound(extractor: Extractor, urls: list[str]) -> Callable[[], ExtractResponse]:
    return lambda: extractor.extract(urls)


def _bound_lookup(
    lookup: Callable[[str], CachedPage | None] | None, url: str
) -> Callable[[], CachedPage | None] | None:
    return (lambda: lookup(url)) if lookup is not None else None


def _from_cache(wanted: list[Wanted]) -> Found:
    """The pages of ``wanted`` the cache answered, each as a response of its original retrieval."""
    found: Found = {}
    for want in wanted:
        hit = want.cached
        if hit is not None and hit.page is not None:
            at = hit.answered_at or hit.attempt.started_at
            found[want.normalized_url] = (hit.page, ExtractResponse((hit.page,), (), hit.page.provider, at))
    return found
