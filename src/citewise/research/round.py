"""The working state of one collection round, and how its provider calls are made.

:class:`Round` spends budget one attempt at a time (an :class:`AttemptStarted` event, recorded before
the call), records every outcome and skip, and runs a step's calls sequentially or in a thread pool
with outcomes always handled in call order (see :mod:`citewise.research.collect` for why).

On resume a round is run again from its start: calls whose outcome was recorded are answered from the
record (:class:`RecordedCalls`, never sent again), a call that was started but never answered is
recorded as interrupted and made again only if budget is left, and everything else runs as usual.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from citewise.audit.events import AttemptEnded, AttemptInterrupted, AttemptStarted, Event, Skipped
from citewise.providers.cached import CachedPage
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
from citewise.records.budget import BudgetExhausted
from citewise.records.providers import ExtractedPage, ExtractResponse, SearchResponse
from citewise.records.research import Attempt, AttemptError, AttemptKind, Skip, StopReason
from citewise.research.recorder import Recorder
from citewise.research.state import CollectionState, ResearchState
from citewise.retry import TRANSIENT

__all__ = [
    "CacheAnswer",
    "MAX_WORKERS",
    "Call",
    "CallInterrupted",
    "CollectionState",
    "Outcome",
    "RecordedCalls",
    "Round",
    "Skip",
    "error_kind",
    "make_attempt",
    "recorded_outcome",
    "timed",
]

MAX_WORKERS = 8
"""Threads for the calls of one step."""

T = TypeVar("T")
CacheAnswer = SearchResponse | CachedPage
"""What a cache lookup answers: a search answer, or a page with its original retrieval time."""

_BUDGET = {AttemptKind.SEARCH: "searches", AttemptKind.EXTRACT: "extractions"}
_KINDS: tuple[tuple[type[ProviderError], AttemptError], ...] = (
    (ProviderRateLimited, AttemptError.RATE_LIMITED),
    (ProviderTimeout, AttemptError.TIMEOUT),
    (ProviderUnavailable, AttemptError.UNAVAILABLE),
    (ProviderQuotaExceeded, AttemptError.QUOTA_EXCEEDED),
    (ProviderForbidden, AttemptError.FORBIDDEN),
    (ProviderAuthError, AttemptError.AUTH),
    (ProviderBadRequest, AttemptError.BAD_REQUEST),
    (ProviderInvalidResponse, AttemptError.INVALID_RESPONSE),
)


class CallInterrupted(ProviderError):
    """A call cut off by a crash that could not be made again: no budget was left for it."""


def error_kind(error: ProviderError) -> AttemptError:
    """The typed kind of a provider failure."""
    if isinstance(error, CallInterrupted):
        return AttemptError.INTERRUPTED
    return next((kind for cls, kind in _KINDS if isinstance(error, cls)), AttemptError.PROVIDER_ERROR)


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What one provider call did."""

    value: T | None
    error: ProviderError | None
    started_at: datetime
    latency_s: float
    recorded: dict[str, Attempt] = field(default_factory=dict)
    """For a call answered from the record: the recorded attempt of each target."""


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """One provider call of a step: what it is for (the targets its budget was spent on) and how."""

    kind: AttemptKind
    targets: tuple[str, ...]
    function: Callable[[], T]


class RecordedCalls:
    """The recorded outcomes of a round, by target, for answering a replayed call from the record."""

    def __init__(self, events: Iterable[Event]) -> None:
        self._ends: dict[tuple[AttemptKind, str], deque[AttemptEnded]] = defaultdict(deque)
        self._interrupted: dict[tuple[AttemptKind, str], deque[AttemptInterrupted]] = defaultdict(deque)
        self._started: set[tuple[AttemptKind, str]] = set()
        for event in events:
            if isinstance(event, AttemptEnded):
                self._ends[(event.attempt.kind, event.attempt.target)].append(event)
            elif isinstance(event, AttemptInterrupted):
                self._interrupted[(event.attempt_kind, event.target)].append(event)
            elif isinstance(event, AttemptStarted):
                self._started.add((event.attempt_kind, event.target))

    def cache_hit(self, kind: AttemptKind, target: str) -> AttemptEnded | None:
        """The recorded cache hit for ``target``, when that is what the record holds next for it."""
        queue = self._ends[(kind, target)]
        return queue.popleft() if queue and queue[0].attempt.cached else None

    def called(self, kind: AttemptKind, target: str) -> bool:
        """True when the record has a call to ``target`` (answered or cut off): replay must not
        answer it from the cache instead, or the resumed run would differ from the recorded one."""
        return bool(self._ends[(kind, target)]) or (kind, target) in self._started

    def take(self, kind: AttemptKind, targets: Sequence[str]) -> list[AttemptEnded] | None:
        """The recorded ends of a call to ``targets`` (one each), or None when it was never answered."""
        if not all(self._ends[(kind, t)] for t in targets):
            return None
        return [self._ends[(kind, t)].popleft() for t in targets]

    def interruption(self, kind: AttemptKind, target: str) -> AttemptInterrupted | None:
        """The recorded interruption of an earlier try at ``target``, if one was recorded."""
        queue = self._interrupted[(kind, target)]
        return queue.popleft() if queue else None


@dataclass
class Round:
    """The working state of one round."""

    number: int
    state: ResearchState
    recorder: Recorder
    concurrent: bool
    sleep: Callable[[float], object]
    replay: RecordedCalls | None = None
    attempts: list[Attempt] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    stop: StopReason | None = None
    _replayed_starts: set[tuple[AttemptKind, str]] = field(default_factory=set)

    @property
    def collection(self) -> CollectionState:
        return self.state.collection

    def begin(
        self,
        kind: AttemptKind,
        target: str,
        reason: StopReason,
        normalized_url: str | None = None,
        query: str | None = None,
    ) -> bool:
        """Spend one attempt before the call (recorded, so a crash during the call still shows it);
        False, with the stop reason noted, when none is left."""
        try:
            self.state.usage.check_before(_BUDGET[kind])
        except BudgetExhausted:
            self.stop = self.stop or reason
            return False
        new = self.recorder.record(AttemptStarted(kind, target, self.number, normalized_url, query))
        if not new:
            self._replayed_starts.add((kind, target))
        return True

    def end(self, attempt: Attempt, **details: Any) -> None:
        """Record an attempt's outcome (with what it returned, for resume)."""
        self.attempts.append(attempt)
        self.recorder.record(AttemptEnded(attempt, **details))

    def skip(self, skip: Skip) -> None:
        self.skipped.append(skip)
        self.recorder.record(Skipped(skip))

    def from_cache(
        self, kind: AttemptKind, target: str, lookup: Callable[[], CacheAnswer | None] | None, **details: Any
    ) -> AttemptEnded | None:
        """Answer ``target`` from the cache, before any budget is spent on it: the recorded hit when
        replaying, else ``lookup()``. A hit is recorded as an attempt with ``cached=True`` (no start
        event, so no budget is spent; no credits) and returned; None means "make the call"."""
        if self.replay is not None:
            recorded = self.replay.cache_hit(kind, target)
            if recorded is not None:
                self.attempts.append(recorded.attempt)
                self.recorder.record(recorded)
                return recorded
            if self.replay.called(kind, target):
                return None
        if lookup is None:
            return None
        outcome = timed(lookup)
        answer = outcome.value
        if answer is None:
            return None
        attempt = replace(make_attempt(kind, target, self.number, outcome), cached=True)
        if isinstance(answer, SearchResponse):
            ended = AttemptEnded(attempt, search=answer, **details)
        else:
            ended = AttemptEnded(attempt, page=answer.page, answered_at=answer.retrieved_at, **details)
        self.attempts.append(attempt)
        self.recorder.record(ended)
        return ended

    def run(
        self, calls: Sequence[Call[T]], each: Callable[[int, Outcome[T]], object] | None = None
    ) -> list[Outcome[T]]:
        """Make the calls (in a thread pool when concurrent); outcomes in the order of ``calls``.

        ``each(index, outcome)`` handles every outcome in call order: in a sequential round right after
        its call returns, so a crash during a later call loses nothing already answered.
        """
        prepared = [self._prepare(call) for call in calls]
        live = [i for i, p in enumerate(prepared) if not isinstance(p, Outcome)]
        outcomes: list[Outcome[T] | None] = [p if isinstance(p, Outcome) else None for p in prepared]
        if not self.concurrent or len(live) < 2:
            for i in range(len(calls)):
                if outcomes[i] is None:
                    outcomes[i] = timed(calls[i].function)
                if each is not None:
                    each(i, outcomes[i])  # type: ignore[arg-type]
            return [o for o in outcomes if o is not None]
        with ThreadPoolExecutor(max_workers=min(len(live), MAX_WORKERS), thread_name_prefix="citewise-collect") as pool:
            futures = {i: pool.submit(timed, calls[i].function) for i in live}
            for i, future in futures.items():
                outcomes[i] = future.result()
        done = [o for o in outcomes if o is not None]
        for i, outcome in enumerate(done):
            if each is not None:
                each(i, outcome)
        return done

    def _prepare(self, call: Call[T]) -> Outcome[T] | Call[T]:
        """A recorded outcome for a replayed call, an interrupted one made again (or not), or the call."""
        if self.replay is None:
            return call
        ends = self.replay.take(call.kind, call.targets)
        if ends is not None:
            for target in call.targets:
                self._replayed_starts.discard((call.kind, target))
                interruption = self.replay.interruption(call.kind, target)
                if interruption is not None:  # replay the interruption and the try that followed it
                    self.recorder.record(interruption)
                    start = AttemptStarted(call.kind, target, self.number, interruption.normalized_url)
                    self.recorder.record(start)
            return recorded_outcome(call.kind, ends)
        interrupted = [t for t in call.targets if (call.kind, t) in self._replayed_starts]
        if not interrupted:
            return call
        now = datetime.now(UTC)
        for target in interrupted:
            self._replayed_starts.discard((call.kind, target))
            self.recorder.record(AttemptInterrupted(call.kind, target, self.number, now))
        budget = _BUDGET[call.kind]
        if self.state.usage.remaining(budget) < len(interrupted):
            self.stop = self.stop or (
                StopReason.SEARCHES_EXHAUSTED if call.kind is AttemptKind.SEARCH else StopReason.EXTRACTIONS_EXHAUSTED
            )
            error = CallInterrupted("the run stopped during this call and no budget is left to repeat it", provider="-")
            return Outcome(None, error, now, 0.0)
        for target in interrupted:
            self.recorder.record(AttemptStarted(call.kind, target, self.number))
        return call

    def interrupt(self, kind: AttemptKind, target: str) -> None:
        """Record that a call to ``target`` started before this round (ahead of it) never ended: the
        process died during it (the interruption already recorded, when replaying)."""
        recorded = self.replay.interruption(kind, target) if self.replay is not None else None
        self.recorder.record(recorded or AttemptInterrupted(kind, target, self.number, datetime.now(UTC)))

    def wait_before_retry(self, errors: Sequence[ProviderRateLimited], retry: int = 1) -> None:
        """One wait for a wave of retries (``retry`` 1 for the first): the longest any of them was
        asked for, capped (:data:`~citewise.retry.TRANSIENT`)."""
        self.sleep(max(TRANSIENT.wait_s(retry, e.retry_after) for e in errors))


def recorded_outcome(kind: AttemptKind, ends: Sequence[AttemptEnded]) -> Outcome[Any]:
    """The outcome of a call as recorded by ``ends`` (one per target)."""
    first = ends[0].attempt
    recorded = {e.attempt.target: e.attempt for e in ends}
    at, latency = first.started_at, first.latency_s or 0.0
    if first.error_kind is not None and first.error_kind not in (AttemptError.EXTRACT_FAILED, AttemptError.EMPTY_PAGE):
        return Outcome(None, _rebuilt_error(first), at, latency, recorded)
    if kind is AttemptKind.SEARCH:
        return Outcome(ends[0].search, None, at, latency, recorded)
    pages: tuple[ExtractedPage, ...] = tuple(e.page for e in ends if e.page is not None)
    provider = pages[0].provider if pages else "-"
    answered = next((e.answered_at for e in ends if e.answered_at is not None), at)
    return Outcome(ExtractResponse(pages, (), provider, answered), None, at, latency, recorded)


def _rebuilt_error(attempt: Attempt) -> ProviderError:
    message = attempt.error or "recorded failure"
    if attempt.error_kind is AttemptError.RATE_LIMITED:
        return ProviderRateLimited(message, provider="-", retry_after=attempt.retry_after)
    if attempt.error_kind is AttemptError.INTERRUPTED:
        return CallInterrupted(message, provider="-")
    return ProviderError(message, provider="-")


def timed(call: Callable[[], T]) -> Outcome[T]:
    started_at, started = datetime.now(UTC), time.perf_counter()
    try:
        value = call()
    except ProviderError as error:
        return Outcome(None, error, started_at, time.perf_counter() - started)
    return Outcome(value, None, started_at, time.perf_counter() - started)


def make_attempt(
    kind: AttemptKind,
    target: str,
    round_number: int,
    outcome: Outcome[Any],
    credits: float | None = None,
    error: tuple[AttemptError, str] | None = None,
) -> Attempt:
    """The attempt an outcome makes for ``target`` (the recorded one, for a call answered from the record).

    ``error`` is a failure found in an answer (an unreadable or empty page): kind and description."""
    if target in outcome.recorded:
        return outcome.recorded[target]
    kind_of_error: AttemptError | None = None
    error_type = description = None
    retry_after = None
    if outcome.error is not None:
        kind_of_error, error_type = error_kind(outcome.error), type(outcome.error).__name__
        description = str(outcome.error)
        retry_after = outcome.error.retry_after if isinstance(outcome.error, ProviderRateLimited) else None
    elif error is not None:
        kind_of_error, description = error
        error_type = kind_of_error.value
    return Attempt(
        kind=kind,
        target=target,
        round=round_number,
        ok=kind_of_error is None,
        started_at=outcome.started_at,
        error_type=error_type,
        error=description,
        credits=credits,
        latency_s=round(outcome.latency_s, 4),
        error_kind=kind_of_error,
        retry_after=retry_after,
    )
