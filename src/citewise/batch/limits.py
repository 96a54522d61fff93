"""Limits every worker of a batch shares: provider request rates and the batch's money cap.

Both live in the store (:class:`~citewise.store.batches.BatchStore`), so worker processes on one
machine, or on several reaching one PostgreSQL store, see the same buckets and the same purse:

* **Rates**: ``tavily=5/s``, ``model=120/m``, ... (``--rate`` or ``CITEWISE_RATE_LIMITS``). Before each
  request a worker takes a token from the provider's bucket and waits when there is none, so a batch
  slows down instead of collecting 429s. A bucket holds one token: requests are spaced at least
  1/rate apart across all workers, so no second ever sees more than the rate.
* **Concurrency**: ``tavily=4`` (``--parallel`` or ``CITEWISE_CONCURRENCY_LIMITS``) allows at most that
  many calls to the provider in flight at once across all workers. A call holds a numbered slot in
  the store under a lease (:data:`SLOT_LEASE_S`), so a worker that dies holding one frees it when the
  lease runs out.
* **Money**: before each paid call a worker reserves the most it can cost (a model call at its full
  reply cap, a search at 2 Tavily credits, an extraction at 2 credits per 5 pages); a reservation the
  cap cannot take stops the call. When the call ends the reservation is settled to its real cost, so
  the cap binds on money spent, not on worst cases, and is never crossed.

The wrappers are transparent: a run sees the same provider, extractor and client interfaces, and its
own budget and caps keep working inside them.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from citewise.errors import InputError
from citewise.llm.admission import Admission, PendingRequest
from citewise.prices import PriceTable
from citewise.providers.errors import ProviderQuotaExceeded
from citewise.records.budget import BudgetExhausted
from citewise.store.batches import BatchStore, from_micro, to_micro
from citewise.store.runs import this_process

__all__ = [
    "LimitedClient",
    "LimitedExtractor",
    "LimitedSearch",
    "Purse",
    "RateLimiter",
    "limited_settings",
    "parse_concurrency",
    "parse_rates",
    "uncapped",
]

SLOT_LEASE_S = 300.0
"""How long a concurrency slot is held at most (longer than any call's timeout)."""

_RATE = re.compile(r"^\s*([a-z][a-z0-9_.-]*)\s*=\s*([0-9]*\.?[0-9]+)\s*(?:/\s*(s|sec|m|min|h))?\s*$", re.IGNORECASE)
_PER = {"s": 1.0, "sec": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


def parse_rates(specs: Sequence[str] | str | None) -> dict[str, float]:
    """Requests per second per provider from ``NAME=N[/s|/m|/h]`` items (comma-separated or a list).

    >>> parse_rates("tavily=5/s, model=120/m")
    {'tavily': 5.0, 'model': 2.0}
    """
    items = specs.split(",") if isinstance(specs, str) else list(specs or [])
    rates: dict[str, float] = {}
    for item in (i for i in items if i.strip()):
        match = _RATE.match(item)
        if not match or float(match.group(2)) <= 0:
            raise InputError(
                f"rate limit {item.strip()!r} is not NAME=N[/s|/m|/h] with N > 0 (e.g. tavily=5/s or model=60/m)"
            )
        rates[match.group(1).lower()] = float(match.group(2)) / _PER[(match.group(3) or "s").lower()]
    return rates


def parse_concurrency(specs: Sequence[str] | str | None) -> dict[str, int]:
    """Calls in flight at most per provider from ``NAME=N`` items.

    >>> parse_concurrency("tavily=4, model=8")
    {'tavily': 4, 'model': 8}
    """
    items = specs.split(",") if isinstance(specs, str) else list(specs or [])
    limits: dict[str, int] = {}
    for item in (i for i in items if i.strip()):
        name, _, count = item.strip().partition("=")
        if (
            not re.fullmatch(r"[a-z][a-z0-9_.-]*", name.strip().lower())
            or not count.strip().isdigit()
            or int(count) < 1
        ):
            raise InputError(f"concurrency limit {item.strip()!r} is not NAME=N with N >= 1 (e.g. tavily=4)")
        limits[name.strip().lower()] = int(count)
    return limits


class RateLimiter:
    """Token buckets and concurrency slots in the store, per provider name with a configured limit."""

    def __init__(
        self,
        batches: BatchStore,
        rates: Mapping[str, float],
        *,
        concurrency: Mapping[str, int] | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.batches = batches
        self.rates = dict(rates)
        self.concurrency = dict(concurrency or {})
        self._clock, self._sleep = clock, sleep
        self.waited_s = 0.0
        """Seconds this process spent waiting for tokens (for the batch summary)."""

    def acquire(self, provider: str) -> None:
        """Wait until ``provider``'s bucket gives a token (at once when it has no rate)."""
        rate = self.rates.get(provider)
        if rate is None:
            return
        while True:
            wait = self.batches.take_token(f"rate:{provider}", rate, 1, int(self._clock() * 1_000_000))
            if wait <= 0:
                return
            self.waited_s += wait
            self._sleep(wait)

    @contextmanager
    def call(self, provider: str) -> Iterator[None]:
        """Around one call to ``provider``: a concurrency slot for its duration, then a rate token."""
        with self.slot(provider):
            self.acquire(provider)
            yield

    @contextmanager
    def slot(self, provider: str) -> Iterator[None]:
        """Hold one of ``provider``'s concurrency slots while inside (waiting for one to be free);
        nothing to hold when it has no concurrency limit."""
        limit = self.concurrency.get(provider)
        if limit is None:
            yield
            return
        owner = f"{this_process()}:{threading.get_ident()}"
        while (slot := self._take_slot(provider, limit, owner)) is None:
            self.waited_s += 0.05
            self._sleep(0.05)
        try:
            yield
        finally:
            self.batches.release_slot(f"slots:{provider}", slot, owner)

    def _take_slot(self, provider: str, limit: int, owner: str) -> int | None:
        now = int(self._clock() * 1_000_000)
        return self.batches.take_slot(f"slots:{provider}", limit, owner, now, int(SLOT_LEASE_S * 1_000_000))


@dataclass
class Purse:
    """The batch's money cap, shared by every worker through the store."""

    batches: BatchStore
    batch_id: str
    prices: PriceTable | None
    cap_usd: Decimal | None

    @property
    def capped(self) -> bool:
        return self.cap_usd is not None and self.prices is not None

    def reserve(self, usd: Decimal, what: str) -> int:
        """Reserve ``usd`` before a call; raises :class:`BudgetExhausted` when the cap cannot take it.
        Returns the micro-dollars reserved (0 without a cap)."""
        if not self.capped:
            return 0
        micro = to_micro(usd)
        if not self.batches.reserve(self.batch_id, micro):
            committed = self.batches.get(self.batch_id).committed_usd
            assert self.cap_usd is not None
            raise BudgetExhausted("cost", committed, self.cap_usd, usd)
        return micro

    def settle(self, reserved_micro: int, actual_usd: Decimal) -> None:
        """Replace a reservation by the call's real cost."""
        if self.capped:
            self.batches.settle(self.batch_id, to_micro(actual_usd) - reserved_micro)

    def credits(self, count: float) -> Decimal:
        """The money of ``count`` provider credits."""
        return self.prices.tavily_credit * Decimal(str(count)) if self.prices else Decimal(0)


class _Limited:
    """A provider behind the batch's rate limit and money cap: each call reserves its worst cost in
    credits, takes a slot and a token, and settles to the credits the provider reported."""

    def __init__(self, inner: Any, limiter: RateLimiter, purse: Purse) -> None:
        self.inner, self.limiter, self.purse = inner, limiter, purse
        self.name = getattr(inner, "name", type(inner).__name__)
        self.options = getattr(inner, "options", {})

    def _paid(self, worst_credits: int, call: Callable[[], Any]) -> Any:
        reserved = _reserve_credits(self.purse, worst_credits, self.name)
        try:
            with self.limiter.call(self.name):
                response = call()
        except BaseException:
            self.purse.settle(reserved, Decimal(0))
            raise
        self.purse.settle(reserved, self.purse.credits(response.credits or 0))
        return response

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class LimitedSearch(_Limited):
    """A search provider behind the batch's rate limit and money cap."""

    WORST_CREDITS = 2  # an advanced search

    def search(self, query: str, *args: Any, **kwargs: Any) -> Any:
        return self._paid(self.WORST_CREDITS, lambda: self.inner.search(query, *args, **kwargs))


class LimitedExtractor(_Limited):
    """An extractor behind the batch's rate limit and money cap (2 credits per 5 pages at most)."""

    def extract(self, urls: Sequence[str], *args: Any, **kwargs: Any) -> Any:
        worst = 2 * math.ceil(max(1, len(urls)) / 5)
        return self._paid(worst, lambda: self.inner.extract(urls, *args, **kwargs))


def _reserve_credits(purse: Purse, credits: int, provider: str) -> int:
    if not purse.capped or purse.credits(credits) == 0:
        return 0
    try:
        return purse.reserve(purse.credits(credits), provider)
    except BudgetExhausted:
        raise ProviderQuotaExceeded(
            f"the batch's money cap (${purse.cap_usd}) is reached: no new {provider} call is made",
            provider=provider,
        ) from None


class LimitedClient:
    """A model client whose every request first reserves its worst cost from the batch's purse and
    takes a token from the ``model`` bucket; the run's own admission then decides as before."""

    def __init__(self, inner: Any, limiter: RateLimiter, purse: Purse) -> None:
        self.inner, self.limiter, self.purse = inner, limiter, purse
        self._held = threading.local()

    @contextmanager
    def admitting(self, admit: Admission) -> Iterator[None]:
        def both(request: PendingRequest) -> int:
            reserved = self._reserve(request)
            try:
                self.limiter.acquire("model")
                allowed = admit(request)
            except BaseException:
                self.purse.settle(reserved, Decimal(0))
                raise
            self._reservations().append(reserved)
            return allowed

        with self.limiter.slot("model"), self.inner.admitting(both):
            seen = len(self.inner.calls)
            try:
                yield
            finally:
                self._settle(seen)

    def _reservations(self) -> list[int]:
        if not hasattr(self._held, "micro"):
            self._held.micro = []
        held: list[int] = self._held.micro
        return held

    def _reserve(self, request: PendingRequest) -> int:
        if not self.purse.capped:
            return 0
        assert self.purse.prices is not None
        price = self.purse.prices.model(request.model)
        if price is None:  # the batch refused to start without prices for its models
            return 0
        worst = price.call_cost(request.estimated_prompt_tokens, 0, request.max_completion_tokens)
        return self.purse.reserve(worst, f"model {request.model}")

    def _settle(self, seen: int) -> None:
        reserved = self._reservations()
        if not reserved:
            return
        actual = Decimal(0)
        for record in self.inner.calls[seen:]:
            price = self.purse.prices.model(record.requested_model, record.model) if self.purse.prices else None
            if price is not None and record.usage is not None:
                actual += price.call_cost(record.usage.prompt, record.usage.cached, record.usage.completion)
            elif price is not None:  # no usage reported: keep what was reserved for it
                actual += from_micro(reserved[0]) if reserved else Decimal(0)
        self.purse.settle(sum(reserved), actual)
        reserved.clear()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def limited_settings(settings: Any, limiter: RateLimiter, purse: Purse) -> Any:
    """``settings`` (:class:`~citewise.research.settings.ResearchSettings`) with its search provider,
    extractor and model client behind ``limiter`` and ``purse``."""
    from dataclasses import replace

    client = LimitedClient(settings.client, limiter, purse) if settings.client is not None else None
    return replace(
        settings,
        search=LimitedSearch(settings.search, limiter, purse),
        extractor=LimitedExtractor(settings.extractor, limiter, purse),
        client=client,
    )


def uncapped(batches: BatchStore) -> Purse:
    """A purse with no money cap (rate and concurrency limits only)."""
    return Purse(batches, "", None, None)
