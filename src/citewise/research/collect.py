"""One collection round: search -> normalise/dedupe -> extract -> select (SPEC 4.3, 4.5).

::

    state = CollectionState()
    result = collect_round(round=1, queries=plan.queries, question=question, search=search,
                           extractor=extractor, usage=BudgetUsage(Budget()), state=state)
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
5. **Rate limits.** A call answered with :class:`~citewise.providers.errors.ProviderRateLimited` is
   retried at most ``retry_rate_limited`` times, after ``min(retry_after or 1, 5)`` seconds; each retry
   is a new attempt, spent from the budget before the call and recorded.

**Concurrency without nondeterminism.** Every budget decision (which queries and URLs get an attempt)
is made sequentially, in a fixed order, *before* the calls of a step run; the calls of one step (the
searches of the round; then its extract calls; then each wave of retries) may run in a thread pool;
their outcomes are processed in the same fixed order. So budget accounting, dedupe, attempt order and
source ids are the same with ``concurrent=True`` as with ``concurrent=False``. Retries therefore
come after the step's first calls, in query order, and one wait serves every call of a retry wave.

``on_event(stage, payload)`` is called with JSON-ready payloads as each step is processed: stage
``"attempt"`` for every attempt, ``"skip"`` for every skipped query or URL, ``"source"`` for every new
source. :func:`attempt_from_payload` and :func:`source_from_payload` read them back (for resuming).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from citewise.errors import InputError
from citewise.providers.base import Extractor, SearchProvider, SearchResponse
from citewise.providers.errors import ProviderRateLimited
from citewise.research.budget import BudgetUsage
from citewise.research.extraction import (
    EMPTY_PAGE,
    EXTRACT_FAILED,
    build_source,
    choose_pages,
    extract_pages,
)
from citewise.research.records import Attempt, AttemptKind, Source, StopReason
from citewise.research.round import (
    CollectionState,
    EventHandler,
    Round,
    Skip,
    attempt_from_payload,
    bind,
    jsonable,
    make_attempt,
    source_from_payload,
)
from citewise.research.select import DEFAULT_EXCERPT_CHARS
from citewise.research.urls import WEB_SCHEMES

__all__ = [
    "EMPTY_PAGE",
    "EXTRACT_FAILED",
    "CollectionState",
    "EventHandler",
    "RoundResult",
    "Skip",
    "attempt_from_payload",
    "collect_round",
    "query_key",
    "source_from_payload",
]


def query_key(query: str) -> str:
    """The form under which queries are deduplicated: spacing collapsed, case folded.

    >>> query_key("  Deposit   PROTECTION ") == query_key("deposit protection")
    True
    """
    return " ".join(query.split()).casefold()


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
    usage: BudgetUsage,
    state: CollectionState,
    excerpt_chars: int = DEFAULT_EXCERPT_CHARS,
    pages_per_query: int = 2,
    concurrent: bool = True,
    retry_rate_limited: int = 1,
    sleep: Callable[[float], object] = time.sleep,
    on_event: EventHandler | None = None,
) -> RoundResult:
    """Run one collection round; see the module docstring for the rules.

    ``state`` is updated in place (tried queries and URLs, attempts, sources, the next source
    number). Provider failures are recorded as failed attempts, never raised; anything else (a bug)
    propagates.
    """
    if excerpt_chars < 1 or pages_per_query < 1 or retry_rate_limited < 0:
        raise InputError("excerpt_chars and pages_per_query must be at least 1, retry_rate_limited at least 0")
    step = Round(round, usage, state, concurrent, sleep, on_event)
    searched = _search(step, queries, search, retry_rate_limited)
    groups = choose_pages(step, searched.answered, pages_per_query, getattr(extractor, "url_schemes", WEB_SCHEMES))
    pages = extract_pages(step, groups, extractor, retry_rate_limited)
    sources: list[Source] = []
    for (query, wanted), found in zip(groups, pages, strict=True):
        for want in wanted:
            if want.normalized_url in found:
                page, response = found[want.normalized_url]
                sources.append(build_source(step, want, page, response, query, question, excerpt_chars))
    for source in sources:
        state.sources.append(source)
        step.emit("source", {"source": jsonable(asdict(source))})
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


def _search(step: Round, queries: Sequence[str], provider: SearchProvider, retries: int) -> _Searched:
    chosen: list[str] = []
    for query in queries:
        key = query_key(query)
        if not key:
            step.skip(Skip(AttemptKind.SEARCH, query, step.number, "empty_query"))
            continue
        if key in step.state.tried_queries:
            step.skip(Skip(AttemptKind.SEARCH, query, step.number, "already_tried"))
            continue
        if not step.spend("searches", StopReason.SEARCHES_EXHAUSTED):
            break
        step.state.tried_queries.add(key)
        chosen.append(query.strip())
        step.started(AttemptKind.SEARCH, query.strip())
    answers: list[SearchResponse | None] = [None] * len(chosen)
    wave = list(range(len(chosen)))
    for attempt_number in range(retries + 1):
        outcomes = step.run([bind(provider.search, chosen[i]) for i in wave])
        limited: list[tuple[int, ProviderRateLimited]] = []
        for i, outcome in zip(wave, outcomes, strict=True):
            response = outcome.value
            credits = response.credits if response else None
            step.record(make_attempt(AttemptKind.SEARCH, chosen[i], step.number, outcome, credits))
            answers[i] = response
            if isinstance(outcome.error, ProviderRateLimited):
                limited.append((i, outcome.error))
        if not limited or attempt_number == retries:
            break
        wave = []
        for i, _ in limited:
            if not step.spend("searches", StopReason.SEARCHES_EXHAUSTED):
                break
            wave.append(i)
            step.started(AttemptKind.SEARCH, chosen[i])
        if not wave:
            break
        step.wait_before_retry([error for i, error in limited if i in wave])
    return _Searched(list(zip(chosen, answers, strict=True)))
