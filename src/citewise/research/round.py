"""The working state of one collection round, and how its provider calls are made.

:class:`Round` holds what a round has done so far (attempts, skips, the stop reason), spends budget
one attempt at a time, emits ``on_event`` payloads, and runs a step's calls sequentially or in a
thread pool with outcomes always handled in call order (see :mod:`citewise.research.collect` for
why). :func:`attempt_from_payload` and :func:`source_from_payload` read the emitted payloads back.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from citewise.providers.errors import ProviderError, ProviderRateLimited
from citewise.research.budget import BudgetExhausted, BudgetUsage
from citewise.research.records import Attempt, AttemptKind, Source, StopReason

__all__ = [
    "MAX_WAIT_S",
    "MAX_WORKERS",
    "CollectionState",
    "EventHandler",
    "Outcome",
    "Round",
    "Skip",
    "attempt_from_payload",
    "bind",
    "jsonable",
    "make_attempt",
    "source_from_payload",
    "timed",
]

MAX_WAIT_S = 5.0
"""Longest wait before retrying a rate-limited call, whatever ``retry-after`` says."""
MAX_WORKERS = 8
"""Threads for the calls of one step."""

EventHandler = Callable[[str, dict[str, Any]], None]
"""``on_event(stage, payload)``; see :mod:`citewise.research.collect`."""

T = TypeVar("T")


@dataclass
class CollectionState:
    """What a run has collected so far; owned and passed in by the loop, updated by each round."""

    tried_queries: set[str] = field(default_factory=set)
    """Keys (:func:`~citewise.research.collect.query_key`) of every query searched in the run."""
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
class Outcome(Generic[T]):
    """What one provider call did."""

    value: T | None
    error: ProviderError | None
    started_at: datetime
    latency_s: float


@dataclass
class Round:
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
        self.emit("attempt", {"attempt": jsonable(asdict(attempt)), **context})

    def started(self, kind: AttemptKind, target: str, **context: Any) -> None:
        """Record, before the call, that budget was spent on it: a crash during the call then still
        shows the spent attempt (and resume never repeats it)."""
        self.emit("attempt_start", {"kind": kind.value, "target": target, "round": self.number, **context})

    def skip(self, skip: Skip) -> None:
        self.skipped.append(skip)
        self.emit("skip", {"skip": jsonable(asdict(skip))})

    def emit(self, stage: str, payload: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(stage, payload)

    def run(
        self, calls: Sequence[Callable[[], T]], each: Callable[[int, Outcome[T]], object] | None = None
    ) -> list[Outcome[T]]:
        """Make the calls (in a thread pool when concurrent); outcomes in the order of ``calls``.

        ``each(index, outcome)`` handles every outcome in call order: in a sequential round right after
        its call returns, so a crash during a later call loses nothing already answered.
        """
        if not self.concurrent or len(calls) < 2:
            outcomes = []
            for i, call in enumerate(calls):
                outcomes.append(timed(call))
                if each is not None:
                    each(i, outcomes[-1])
            return outcomes
        workers = min(len(calls), MAX_WORKERS)
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="citewise-collect") as pool:
            futures = [pool.submit(timed, call) for call in calls]
            done = [future.result() for future in futures]
        for i, outcome in enumerate(done):
            if each is not None:
                each(i, outcome)
        return done

    def wait_before_retry(self, errors: Sequence[ProviderRateLimited]) -> None:
        """One wait for a wave of retries: the longest any of them was asked for, capped."""
        waits = [min(e.retry_after if e.retry_after is not None else 1.0, MAX_WAIT_S) for e in errors]
        self.sleep(max(waits))


def bind(function: Callable[[Any], T], argument: Any) -> Callable[[], T]:
    return lambda: function(argument)


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


def jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
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
