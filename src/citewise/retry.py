"""The one retry policy: how often a transient failure is tried again, and how long to wait first.

A failure worth repeating — a rate limit, a server error, a timeout, a database another writer has
locked — is tried again a bounded number of times. Before each retry citewise waits what the
service asked for (its ``Retry-After``, :mod:`citewise.retry_after`) or, when it said nothing, a
backoff that starts at :attr:`RetryPolicy.base_s` and grows by :attr:`RetryPolicy.growth` each
retry; either way never longer than :attr:`RetryPolicy.max_wait_s`, so a service cannot stall a
run by asking for an hour. With :attr:`RetryPolicy.jitter` the backoff is spread between half and
one and a half times itself, so concurrent writers that failed together do not retry together.

Every model call, native-engine call and wave of search or extraction calls retries by
:data:`TRANSIENT` (one retry, 1 s unless told otherwise, at most 5 s; the research loop's
``retries`` setting may allow provider calls more); the store's writes by their own policy of
quick, growing, jittered waits (:mod:`citewise.store.connect`).

>>> TRANSIENT.wait_s(1), TRANSIENT.wait_s(1, asked=2.0), TRANSIENT.wait_s(1, asked=3600)
(1.0, 2.0, 5.0)
>>> writes = RetryPolicy(retries=5, base_s=0.1, growth=2.0, max_wait_s=2.0)
>>> [writes.wait_s(n) for n in range(1, 6)]
[0.1, 0.2, 0.4, 0.8, 1.6]
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeVar

__all__ = ["TRANSIENT", "RetryPolicy"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How many times a transient failure is retried, and the bounded wait before each retry."""

    retries: int
    """Retries after the first attempt (0: the call is made once)."""
    base_s: float = 1.0
    """The wait before the first retry when the service did not say how long."""
    growth: float = 1.0
    """Factor by which that wait grows with each further retry (1: the same every time)."""
    max_wait_s: float = 5.0
    """The longest wait, whatever the service asked for or the backoff reached."""
    jitter: bool = False
    """Spread the backoff at random between 0.5 and 1.5 times itself (an asked-for wait is kept)."""

    def __post_init__(self) -> None:
        if self.retries < 0 or self.base_s < 0 or self.growth < 1 or self.max_wait_s < 0:
            raise ValueError(f"not a retry policy: {self!r}")

    @property
    def attempts(self) -> int:
        """Calls made at most: the first and every retry."""
        return self.retries + 1

    def wait_s(self, retry: int, asked: float | None = None, *, rand: Callable[[], float] = random.random) -> float:
        """Seconds to wait before retry number ``retry`` (1 for the first); ``asked`` is what the
        service asked for (``Retry-After``), None when it did not say."""
        if asked is not None:
            return min(max(0.0, asked), self.max_wait_s)
        wait = min(self.max_wait_s, self.base_s * self.growth ** max(0, retry - 1))
        return wait * (0.5 + rand()) if self.jitter else wait

    def call(
        self,
        work: Callable[[], T],
        *,
        retryable: Callable[[Exception], bool],
        asked: Callable[[Exception], float | None] = lambda _: None,
        sleep: Callable[[float], None],
        before_retry: Callable[[Exception, float], object] | None = None,
    ) -> T:
        """``work()``, called again after a wait while it raises what ``retryable`` accepts and
        retries are left; the last failure (or any other exception) propagates unchanged.

        ``asked`` reads the wait a failure asks for; ``before_retry`` sees each failure and the
        wait about to be slept (to record it).

        >>> calls, slept = [], []
        >>> def flaky() -> str:
        ...     calls.append(1)
        ...     if len(calls) < 3:
        ...         raise TimeoutError("slow")
        ...     return "ok"
        >>> RetryPolicy(retries=2).call(flaky, retryable=lambda e: isinstance(e, TimeoutError), sleep=slept.append)
        'ok'
        >>> slept
        [1.0, 1.0]
        """
        for retry in range(1, self.attempts + 1):
            try:
                return work()
            except Exception as exc:
                if retry == self.attempts or not retryable(exc):
                    raise
                wait = self.wait_s(retry, asked(exc))
                if before_retry is not None:
                    before_retry(exc, wait)
                sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


TRANSIENT: Final = RetryPolicy(retries=1)
"""One retry after a transient failure of a model, engine or provider call: the wait the service
asked for, else one second, at most five."""
