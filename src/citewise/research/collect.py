"""One collection round: search -> normalise/dedupe -> extract -> select (SPEC 4.3, 4.5).

::

    state = ResearchState(question, BudgetUsage(Budget()))
    result = collect_round(round=1, queries=plan.queries, question=question, search=search,
                           extractor=extractor, recorder=Recorder(events.append, state))
    result.new_sources     # S1, S2, ... with page text, excerpt and provenance
    result.attempts        # every search and extraction attempt, failures included
    result.stop            # StopReason.SEARCHES_EXHAUSTED / EXTRACTIONS_EXHAUSTED, or None

The rules, in the order they apply:

1. **Queries.** Each new query is searched once: a query already tried in the run (case and spacing
   ignored) or earlier in the same round is skipped and recorded as skipped. One search attempt is
   spent from the budget *before* each call; when none is left the round records
   ``SEARCHES_EXHAUSTED`` and searches no further query. A failed search consumed its attempt.
2. **Pages.** From each query's hits, in rank order, at most ``pages_per_query`` new pages are tried:
   URLs that cannot be normalised (:mod:`citewise.research.urls`) and URLs already tried in the run
   are skipped (and recorded as skipped) without counting. One extraction attempt is spent per URL
   before the call; when none is left the round records ``EXTRACTIONS_EXHAUSTED``.
3. **Extraction.** One extract call per query with its URLs. A URL the extractor could not read, and a
   page without text, is a failed attempt (``extract_failed`` / ``empty_page``) and never a source: a
   search snippet is never passed off as page text.
4. **Sources.** Ids ``S1``, ``S2`` ... are given only to pages with usable text, after the round's
   calls, in query order and then search rank, continuing the run's numbering.
5. **Cache** (SPEC 4.5a). A query or URL is looked up in the provider's cache
   (:mod:`citewise.providers.cached`) *before* any budget is spent on it. A hit is recorded as an
   ``AttemptEnded`` whose attempt has ``cached=True`` and no ``AttemptStarted`` before it: it spends
   no search or extraction budget and no credits, and a page keeps its original retrieval time (the
   source's ``retrieved_at``). A cached page still counts towards ``pages_per_query``. On resume a
   recorded hit is answered from the record, and a recorded call is never answered from the cache.
   A query looked up before its round, as a streamed plan or review named it
   (:mod:`citewise.research.ahead`), is taken from its recorded hit and not looked up again.
6. **Rate limits.** A call answered with :class:`~citewise.providers.errors.ProviderRateLimited` is
   retried at most ``retry_rate_limited`` times, after ``min(retry_after or 1, 5)`` seconds; each retry
   is a new attempt, spent from the budget before the call and recorded.

**Concurrency without nondeterminism.** Every budget decision (which queries and URLs get an attempt)
is made sequentially, in a fixed order, *before* the calls of a step run; the calls of one step (the
searches of the round; then its extract calls; then each wave of retries) may run in a thread pool;
their outcomes are processed in the same fixed order. So budget accounting, dedupe, attempt order and
source ids are the same with ``concurrent=True`` as with ``concurrent=False``. Retries therefore
come after the step's first calls, in query order, and one wait serves every call of a retry wave.

Every step is recorded as a typed event through the :class:`~citewise.research.recorder.Recorder` as
it is processed (``AttemptStarted`` before each call, ``AttemptEnded`` with the hits or the page text
after it, ``Skipped``, ``SourceStored``), and the run's state changes only by applying those events.
A round given ``replay`` (on resume) answers the calls already recorded from the record.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from citewise.audit.events import MirrorFound, SourceStored
from citewise.errors import InputError
from citewise.providers.cached import CachedSearch
from citewise.providers.errors import ProviderRateLimited
from citewise.records.providers import Extractor, SearchProvider, SearchResponse, SearchResult
from citewise.records.research import Attempt, AttemptKind, Skip, SkipReason, Source, StopReason
from citewise.research.extraction import (
    EMPTY_PAGE,
    EXTRACT_FAILED,
    build_source,
    choose_pages,
    extract_pages,
)
from citewise.research.recorder import Recorder
from citewise.research.round import Call, Outcome, RecordedCalls, Round, make_attempt, recorded_outcome
from citewise.research.select import DEFAULT_EXCERPT_CHARS, selection_terms
from citewise.research.sites import RoundSites, SitePolicy, twin_of
from citewise.research.state import AheadSearch, CollectionState
from citewise.research.urls import WEB_SCHEMES, query_key, without_credentials
from citewise.text.domains import registrable_domain

__all__ = [
    "EMPTY_PAGE",
    "EXTRACT_FAILED",
    "CollectionState",
    "RoundResult",
    "Skip",
    "collect_round",
    "query_key",
    "recordable_search",
]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What one collection round did."""

    new_sources: tuple[Source, ...]
    """Sources collected this round, in id order."""
    attempts: tuple[Attempt, ...]
    """Every search and extraction attempt of this round, failures and retries included."""
    stop: StopReason | None
    """``SEARCHES_EXHAUSTED`` or ``EXTRACTIONS_EXHAUSTED`` when a budget ran out during the round."""
    queries_run: tuple[str, ...]
    """Queries searched this round (at least one attempt each), in order."""
    skipped: tuple[Skip, ...] = ()
    """Queries and URLs not tried, with the reason."""
    searches: tuple[SearchResponse, ...] = ()
    """The successful search answers, in query order (hits are leads, not evidence)."""


def collect_round(
    *,
    round: int,
    queries: Sequence[str],
    question: str,
    search: SearchProvider,
    extractor: Extractor,
    recorder: Recorder,
    excerpt_chars: int = DEFAULT_EXCERPT_CHARS,
    pages_per_query: int = 2,
    concurrent: bool = True,
    retry_rate_limited: int = 1,
    sleep: Callable[[float], object] = time.sleep,
    replay: RecordedCalls | None = None,
    sites: SitePolicy | None = None,
) -> RoundResult:
    """Run one collection round; see the module docstring for the rules.

    The run's state (``recorder.state``) changes by the events the round records. Provider failures
    are recorded as failed attempts, never raised; anything else (a bug) propagates.
    """
    if excerpt_chars < 1 or pages_per_query < 1 or retry_rate_limited < 0:
        raise InputError("excerpt_chars and pages_per_query must be at least 1, retry_rate_limited at least 0")
    step = Round(round, recorder.state, recorder, concurrent, sleep, replay)
    searched = _search(step, queries, search, retry_rate_limited)
    schemes = getattr(extractor, "url_schemes", WEB_SCHEMES)
    spread = RoundSites(step.collection.sources, sites) if sites is not None else None
    groups = choose_pages(step, searched.answered, pages_per_query, schemes, extractor, spread)
    pages = extract_pages(step, groups, extractor, retry_rate_limited)
    sources: list[Source] = []
    for (query, wanted), found in zip(groups, pages, strict=True):
        terms = selection_terms(question, query) if any(w.normalized_url in found for w in wanted) else ()
        for want in wanted:
            if want.normalized_url in found:
                page, response = found[want.normalized_url]
                twin = twin_of(page.raw_content, step.collection.sources) if sites is not None else None
                if twin is not None:  # the same text on another site: one source, both URLs
                    recorder.record(
                        MirrorFound(twin[0].source_id, want.hit.url, registrable_domain(want.normalized_url), twin[1])
                    )
                    continue
                number = step.collection.next_source_number
                source = build_source(step, number, want, page, response, query, question, excerpt_chars, terms)
                recorder.record(SourceStored(source))
                sources.append(source)
    return RoundResult(
        new_sources=tuple(sources),
        attempts=tuple(step.attempts),
        stop=step.stop,
        queries_run=tuple(query for query, _ in searched.run),
        skipped=tuple(step.skipped),
        searches=tuple(response for _, response in searched.answered),
    )


# -- searching --------------------------------------------------------------------------------


@dataclass
class _Searched:
    run: list[tuple[str, SearchResponse | None]]
    """Every query given an attempt, with its answer (None when every attempt failed)."""

    @property
    def answered(self) -> list[tuple[str, SearchResponse]]:
        return [(query, response) for query, response in self.run if response is not None]


@dataclass
class _Chosen:
    """The queries of a round given a search: to call, answered from the cache, or answered ahead."""

    chosen: list[str]
    """Queries whose budget is spent (called now, or searched ahead of the round), in order."""
    cached: dict[str, SearchResponse]
    order: list[str]
    """Every query given an answer, in the order given."""
    early: dict[int, Outcome[SearchResponse]]
    """Index in :attr:`chosen` -> the recorded answer of a search made ahead of the round."""


def _search(step: Round, queries: Sequence[str], provider: SearchProvider, retries: int) -> _Searched:
    picked = _choose(step, queries, provider.lookup if isinstance(provider, CachedSearch) else None)
    answers = _call(step, provider, retries, picked.chosen, picked.early)
    called = dict(zip(picked.chosen, answers, strict=True))
    return _Searched([(q, picked.cached[q] if q in picked.cached else called[q]) for q in picked.order])


def _choose(step: Round, queries: Sequence[str], lookup: Callable[[str], SearchResponse | None] | None) -> _Chosen:
    """Which queries are searched: each counted before its call; skips and cache hits recorded."""
    picked = _Chosen([], {}, [], {})
    for query in queries:
        key = query_key(query)
        if not key:
            step.skip(Skip(AttemptKind.SEARCH, query, step.number, SkipReason.EMPTY_QUERY))
            continue
        ahead = _ahead(step, key, picked.chosen)
        hit = ahead.ended if ahead is not None and ahead.ended is not None and ahead.ended.attempt.cached else None
        if ahead is not None and hit is not None and hit.search is not None:
            # answered from the cache ahead of the round (recorded then): no budget spent, not looked up again
            step.attempts.append(hit.attempt)
            picked.cached[ahead.target] = hit.search
            picked.order.append(ahead.target)
            continue
        if ahead is not None:
            if ahead.ended is not None:  # searched ahead of the round: its budget is spent, its answer recorded
                picked.early[len(picked.chosen)] = recorded_outcome(AttemptKind.SEARCH, [ahead.ended])
            else:  # started ahead, cut off by a crash: made again only inside the budget
                step.interrupt(AttemptKind.SEARCH, ahead.target)
                if not step.begin(AttemptKind.SEARCH, ahead.target, StopReason.SEARCHES_EXHAUSTED):
                    break
            picked.chosen.append(ahead.target)
            picked.order.append(ahead.target)
            continue
        if key in step.collection.tried_queries:
            step.skip(Skip(AttemptKind.SEARCH, query, step.number, SkipReason.ALREADY_TRIED))
            continue
        target = query.strip()
        hit = step.from_cache(AttemptKind.SEARCH, target, _bound_lookup(lookup, target))
        if hit is not None and hit.search is not None:  # answered from the cache: no budget spent
            picked.cached[target] = hit.search
            picked.order.append(target)
            continue
        if not step.begin(AttemptKind.SEARCH, target, StopReason.SEARCHES_EXHAUSTED):
            break
        picked.chosen.append(target)
        picked.order.append(target)
    return picked


def _call(
    step: Round,
    provider: SearchProvider,
    retries: int,
    chosen: Sequence[str],
    early: dict[int, Outcome[SearchResponse]],
) -> list[SearchResponse | None]:
    """Each chosen query's answer: the ahead ones as recorded, the rest called in one wave, then
    rate-limited ones again in later waves, each retry counted before its call."""
    answers: list[SearchResponse | None] = [None] * len(chosen)
    wave = [i for i in range(len(chosen)) if i not in early]
    for attempt_number in range(retries + 1):
        calls = [Call(AttemptKind.SEARCH, (chosen[i],), _bound(provider, chosen[i])) for i in wave]
        outcomes = step.run(calls)
        limited: list[tuple[int, ProviderRateLimited]] = []
        for i, recorded in early.items():  # the first wave's answers that came ahead of the round
            step.attempts.append(make_attempt(AttemptKind.SEARCH, chosen[i], step.number, recorded))
            answers[i] = recorded.value
            if isinstance(recorded.error, ProviderRateLimited):
                limited.append((i, recorded.error))
        early = {}
        for i, outcome in zip(wave, outcomes, strict=True):
            response = outcome.value
            credits = response.credits if response else None
            attempt = make_attempt(AttemptKind.SEARCH, chosen[i], step.number, outcome, credits)
            step.end(attempt, search=recordable_search(response))
            answers[i] = response
            if isinstance(outcome.error, ProviderRateLimited):
                limited.append((i, outcome.error))
        if not limited or attempt_number == retries:
            break
        wave = []
        for i, _ in sorted(limited, key=lambda item: item[0]):
            if not step.begin(AttemptKind.SEARCH, chosen[i], StopReason.SEARCHES_EXHAUSTED):
                break
            wave.append(i)
        if not wave:
            break
        step.wait_before_retry([error for i, error in limited if i in wave], attempt_number + 1)
    return answers


def _ahead(step: Round, key: str, chosen: Sequence[str]) -> AheadSearch | None:
    """The search started ahead of this round for the query ``key`` (once a round)."""
    ahead = step.collection.ahead.get(key)
    if ahead is None or ahead.round != step.number or any(query_key(q) == key for q in chosen):
        return None
    return ahead


def recordable_search(response: SearchResponse | None) -> SearchResponse | None:
    """The answer as the audit record keeps it: a hit's ``user:password@`` is never recorded (such a
    URL stays unusable when a resumed run reads the hits back, so it is skipped the same way)."""
    if response is None:
        return None
    hits = tuple(_without_secret(hit) for hit in response.results)
    return replace(response, results=hits)


def _without_secret(hit: SearchResult) -> SearchResult:
    safe = without_credentials(hit.url)
    if safe == hit.url:
        return hit
    # Such a hit is never read; its title and snippet may repeat the URL, so they are not kept.
    return replace(hit, url=safe, title="", content="")


def _bound(provider: SearchProvider, query: str) -> Callable[[], SearchResponse]:
    return lambda: provider.search(query)


def _bound_lookup(
    lookup: Callable[[str], SearchResponse | None] | None, query: str
) -> Callable[[], SearchResponse | None] | None:
    if lookup is None:
        return None
    return lambda: recordable_search(lookup(query))
