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

import enum
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from citewise.errors import InputError
from citewise.providers.base import (
    ExtractedPage,
    Extractor,
    ExtractResponse,
    SearchProvider,
    SearchResponse,
    SearchResult,
)
from citewise.providers.errors import ProviderError, ProviderRateLimited
from citewise.research.budget import BudgetExhausted, BudgetUsage
from citewise.research.injection import injection_flags
from citewise.research.records import Attempt, AttemptKind, Source, StopReason
from citewise.research.select import DEFAULT_EXCERPT_CHARS, select_passages
from citewise.research.urls import WEB_SCHEMES, UnusableURL, normalize_url, without_credentials

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

EXTRACT_FAILED = "extract_failed"
"""``Attempt.error_type`` of a URL the extractor reported it could not read."""
EMPTY_PAGE = "empty_page"
"""``Attempt.error_type`` of a page that came back without any text."""
MAX_WAIT_S = 5.0
"""Longest wait before retrying a rate-limited call, whatever ``retry-after`` says."""
MAX_WORKERS = 8
"""Threads for the calls of one step."""

EventHandler = Callable[[str, dict[str, Any]], None]
"""``on_event(stage, payload)``; see the module docstring."""

T = TypeVar("T")


def query_key(query: str) -> str:
    """The form under which queries are deduplicated: spacing collapsed, case folded.

    >>> query_key("  Deposit   PROTECTION ") == query_key("deposit protection")
    True
    """
    return " ".join(query.split()).casefold()


@dataclass
class CollectionState:
    """What a run has collected so far; owned and passed in by the loop, updated by each round."""

    tried_queries: set[str] = field(default_factory=set)
    """Keys (:func:`query_key`) of every query searched in the run."""
    tried_urls: set[str] = field(default_factory=set)
    """Normalised URLs of every page an extraction was attempted for."""
    sources: list[Source] = field(default_factory=list)
    """Every source of the run, in id order."""
    attempts: list[Attempt] = field(default_factory=list)
    """Every attempt of the run, in the order they were processed."""
    next_source_number: int = 1
    """The number of the next source id (``S<n>``)."""


@dataclass(frozen=True, slots=True)
class Skip:
    """A query or URL the round did not try, and why (no budget was spent on it)."""

    kind: AttemptKind
    """``search`` for a query, ``extract`` for a URL."""
    target: str
    """The query, or the URL as the search provider returned it (any ``user:password@`` removed)."""
    round: int
    """Round number."""
    reason: str
    """``empty_query``, ``already_tried`` (earlier in the run or the round) or ``unusable_url``."""
    detail: str | None = None
    """Why a URL is unusable, or which normalised URL was already tried."""
    query: str | None = None
    """For a URL: the query that found it."""


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


@dataclass(frozen=True, slots=True)
class _Outcome(Generic[T]):
    """What one provider call did."""

    value: T | None
    error: ProviderError | None
    started_at: datetime
    latency_s: float


@dataclass(frozen=True, slots=True)
class _Wanted:
    """A page chosen for extraction."""

    hit: SearchResult
    normalized_url: str

    @property
    def url(self) -> str:
        return self.hit.url.strip()


@dataclass
class _Round:
    """The working state of one round."""

    number: int
    usage: BudgetUsage
    state: CollectionState
    concurrent: bool
    sleep: Callable[[float], object]
    on_event: EventHandler | None
    attempts: list[Attempt] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    stop: StopReason | None = None

    def spend(self, kind: str, reason: StopReason) -> bool:
        """Spend one attempt of ``kind``; False (and the stop reason recorded) when none is left."""
        try:
            self.usage.spend(kind)
        except BudgetExhausted:
            self.stop = self.stop or reason
            return False
        return True

    def record(self, attempt: Attempt, **context: Any) -> None:
        self.attempts.append(attempt)
        self.state.attempts.append(attempt)
        self.emit("attempt", {"attempt": _jsonable(asdict(attempt)), **context})

    def started(self, kind: AttemptKind, target: str, **context: Any) -> None:
        """Record, before the call, that budget was spent on it: a crash during the call then still
        shows the spent attempt (and resume never repeats it)."""
        self.emit("attempt_start", {"kind": kind.value, "target": target, "round": self.number, **context})

    def skip(self, skip: Skip) -> None:
        self.skipped.append(skip)
        self.emit("skip", {"skip": _jsonable(asdict(skip))})

    def emit(self, stage: str, payload: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(stage, payload)

    def run(
        self, calls: Sequence[Callable[[], T]], each: Callable[[int, _Outcome[T]], object] | None = None
    ) -> list[_Outcome[T]]:
        """Make the calls (in a thread pool when concurrent); outcomes in the order of ``calls``.

        ``each(index, outcome)`` handles every outcome in call order: in a sequential round right after
        its call returns, so a crash during a later call loses nothing already answered.
        """
        if not self.concurrent or len(calls) < 2:
            outcomes = []
            for i, call in enumerate(calls):
                outcomes.append(_timed(call))
                if each is not None:
                    each(i, outcomes[-1])
            return outcomes
        workers = min(len(calls), MAX_WORKERS)
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="citewise-collect") as pool:
            futures = [pool.submit(_timed, call) for call in calls]
            done = [future.result() for future in futures]
        for i, outcome in enumerate(done):
            if each is not None:
                each(i, outcome)
        return done

    def wait_before_retry(self, errors: Sequence[ProviderRateLimited]) -> None:
        """One wait for a wave of retries: the longest any of them was asked for, capped."""
        waits = [min(e.retry_after if e.retry_after is not None else 1.0, MAX_WAIT_S) for e in errors]
        self.sleep(max(waits))


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
    step = _Round(round, usage, state, concurrent, sleep, on_event)
    searched = _search(step, queries, search, retry_rate_limited)
    groups = _choose_pages(step, searched, pages_per_query, getattr(extractor, "url_schemes", WEB_SCHEMES))
    pages = _extract(step, groups, extractor, retry_rate_limited)
    sources: list[Source] = []
    for (query, wanted), found in zip(groups, pages, strict=True):
        for want in wanted:
            if want.normalized_url in found:
                page, response = found[want.normalized_url]
                sources.append(_source(step, want, page, response, query, question, excerpt_chars))
    for source in sources:
        state.sources.append(source)
        step.emit("source", {"source": _jsonable(asdict(source))})
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


def _search(step: _Round, queries: Sequence[str], provider: SearchProvider, retries: int) -> _Searched:
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
        outcomes = step.run([_bind(provider.search, chosen[i]) for i in wave])
        limited: list[tuple[int, ProviderRateLimited]] = []
        for i, outcome in zip(wave, outcomes, strict=True):
            response = outcome.value
            step.record(
                _attempt(AttemptKind.SEARCH, chosen[i], step.number, outcome, response.credits if response else None)
            )
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


# -- choosing and extracting pages ------------------------------------------------------------


def _choose_pages(
    step: _Round, searched: _Searched, per_query: int, schemes: Sequence[str]
) -> list[tuple[str, list[_Wanted]]]:
    """Which URLs each query gets (budget spent here, in query then rank order)."""
    groups: list[tuple[str, list[_Wanted]]] = []
    for query, response in searched.answered:
        wanted: list[_Wanted] = []
        for hit in response.results:
            if len(wanted) >= per_query:
                break
            try:
                normalized = normalize_url(hit.url, schemes=schemes)
            except UnusableURL as exc:
                target = without_credentials(hit.url)  # a URL's password is never recorded
                step.skip(Skip(AttemptKind.EXTRACT, target, step.number, "unusable_url", str(exc), query))
                continue
            if normalized in step.state.tried_urls:
                step.skip(Skip(AttemptKind.EXTRACT, hit.url, step.number, "already_tried", normalized, query))
                continue
            if not step.spend("extractions", StopReason.EXTRACTIONS_EXHAUSTED):
                break
            step.state.tried_urls.add(normalized)
            wanted.append(_Wanted(hit, normalized))
            step.started(AttemptKind.EXTRACT, hit.url, normalized_url=normalized)
        if wanted:
            groups.append((query, wanted))
        if step.stop is StopReason.EXTRACTIONS_EXHAUSTED:
            break
    return groups


Found = dict[str, tuple[ExtractedPage, ExtractResponse]]


def _extract(step: _Round, groups: list[tuple[str, list[_Wanted]]], extractor: Extractor, retries: int) -> list[Found]:
    """Pages with usable text per group, keyed by normalised URL."""
    found: list[Found] = [{} for _ in groups]
    wave = [(g, wanted) for g, (_, wanted) in enumerate(groups)]
    schemes = getattr(extractor, "url_schemes", WEB_SCHEMES)
    for attempt_number in range(retries + 1):
        limited: list[tuple[int, list[_Wanted], ProviderRateLimited]] = []
        current = list(wave)

        def handle(
            index: int,
            outcome: _Outcome[ExtractResponse],
            current: list[tuple[int, list[_Wanted]]] = current,
            limited: list[tuple[int, list[_Wanted], ProviderRateLimited]] = limited,
        ) -> None:
            g, wanted = current[index]
            query = groups[g][0]
            if outcome.value is None:
                for want in wanted:
                    step.record(_attempt(AttemptKind.EXTRACT, want.url, step.number, outcome), **_context(want, query))
                if isinstance(outcome.error, ProviderRateLimited):
                    limited.append((g, wanted, outcome.error))
                return
            found[g].update(_read_pages(step, wanted, outcome, query, schemes))

        step.run([_bind(extractor.extract, [w.url for w in wanted]) for _, wanted in current], handle)
        if not limited or attempt_number == retries:
            break
        wave = []
        for g, wanted, _ in limited:
            granted = []
            for want in wanted:
                if not step.spend("extractions", StopReason.EXTRACTIONS_EXHAUSTED):
                    break
                granted.append(want)
                step.started(AttemptKind.EXTRACT, want.hit.url, normalized_url=want.normalized_url)
            if granted:
                wave.append((g, granted))
            if step.stop is StopReason.EXTRACTIONS_EXHAUSTED:
                break
        if not wave:
            break
        step.wait_before_retry([error for g, _, error in limited if any(g == w for w, _ in wave)])
    return found


def _read_pages(
    step: _Round, wanted: list[_Wanted], outcome: _Outcome[ExtractResponse], query: str, schemes: Sequence[str]
) -> Found:
    """Match the extractor's answer to the URLs asked for; record one attempt per URL."""
    response = outcome.value
    assert response is not None
    pages: dict[str, ExtractedPage] = {}
    failures: dict[str, str] = {}
    for page in response.pages:
        pages.setdefault(_answer_key(page.url, schemes), page)
    for failure in response.failures:
        failures.setdefault(_answer_key(failure.url, schemes), failure.error)
    share = response.credits / len(wanted) if response.credits is not None else None
    usable: Found = {}
    for want in wanted:
        key = _answer_key(want.url, schemes)
        answer = pages.get(key)
        if answer is not None and answer.raw_content.strip():
            usable[want.normalized_url] = (answer, response)
            error_type = error = None
        elif answer is not None:
            error_type, error = EMPTY_PAGE, "the extractor returned no text for this page"
        else:
            error_type, error = EXTRACT_FAILED, failures.get(key, "not in the extractor's answer")
        step.record(
            _attempt(AttemptKind.EXTRACT, want.url, step.number, outcome, share, error_type, error),
            **_context(want, query),
        )
    return usable


def _answer_key(url: str, schemes: Sequence[str]) -> str:
    """How an extractor's echo of a URL is matched to the URL asked for: normalised, and
    insensitive to a trailing slash (extractors add or drop it)."""
    try:
        normalized = normalize_url(url, schemes=schemes)
    except UnusableURL:
        normalized = url.strip()
    head, sep, query = normalized.partition("?")
    return head.rstrip("/") + sep + query


def _source(
    step: _Round,
    want: _Wanted,
    page: ExtractedPage,
    response: ExtractResponse,
    query: str,
    question: str,
    excerpt_chars: int,
) -> Source:
    number = step.state.next_source_number
    step.state.next_source_number += 1
    return Source(
        source_id=f"S{number}",
        url=want.hit.url,
        normalized_url=want.normalized_url,
        title=page.title or want.hit.title,
        query=query,
        retrieved_at=response.retrieved_at,
        page_text=page.raw_content,
        content=select_passages(page.raw_content, question, query, excerpt_chars),
        provider=response.provider,
        round=step.number,
        published_at=None,  # not verified here: never guessed from retrieval time or rank
        publication_date_source=None,
        injection_flags=injection_flags(page.raw_content),
    )


# -- helpers ----------------------------------------------------------------------------------


def _bind(function: Callable[[Any], T], argument: Any) -> Callable[[], T]:
    return lambda: function(argument)


def _timed(call: Callable[[], T]) -> _Outcome[T]:
    started_at, started = datetime.now(UTC), time.perf_counter()
    try:
        value = call()
    except ProviderError as error:
        return _Outcome(None, error, started_at, time.perf_counter() - started)
    return _Outcome(value, None, started_at, time.perf_counter() - started)


def _attempt(
    kind: AttemptKind,
    target: str,
    round_number: int,
    outcome: _Outcome[Any],
    credits: float | None = None,
    error_type: str | None = None,
    error: str | None = None,
) -> Attempt:
    if outcome.error is not None:
        error_type, error = type(outcome.error).__name__, str(outcome.error)
    return Attempt(
        kind=kind,
        target=target,
        round=round_number,
        ok=error_type is None,
        started_at=outcome.started_at,
        error_type=error_type,
        error=error,
        credits=credits,
        latency_s=round(outcome.latency_s, 4),
    )


def _context(want: _Wanted, query: str) -> dict[str, Any]:
    return {"query": query, "normalized_url": want.normalized_url, "rank": want.hit.rank}


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def attempt_from_payload(data: Mapping[str, Any]) -> Attempt:
    """The :class:`Attempt` of an ``"attempt"`` event's ``payload["attempt"]``."""
    values = dict(data)
    values["kind"] = AttemptKind(values["kind"])
    values["started_at"] = datetime.fromisoformat(values["started_at"])
    return Attempt(**values)


def source_from_payload(data: Mapping[str, Any]) -> Source:
    """The :class:`Source` of a ``"source"`` event's ``payload["source"]``."""
    values = dict(data)
    values["retrieved_at"] = datetime.fromisoformat(values["retrieved_at"])
    values["injection_flags"] = tuple(values.get("injection_flags") or ())
    return Source(**values)
