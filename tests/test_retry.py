"""The one retry policy (``citewise.retry``) and what each former retry loop relied on.

Model calls (research/steps), native-engine calls (engines/run), waves of search and extraction
calls (research/round) and store writes (store/connect) each wrote their loop and their wait; they
now share :class:`RetryPolicy`: a bounded number of retries, the wait the service asked for or a
backoff, never longer than the cap.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.errors import StoreError
from citewise.retry import TRANSIENT, RetryPolicy
from citewise.store import connect

pytestmark = pytest.mark.unit


def test_the_wait_is_what_was_asked_or_the_backoff_and_never_above_the_cap() -> None:
    policy = RetryPolicy(retries=4, base_s=0.5, growth=2.0, max_wait_s=3.0)
    assert [policy.wait_s(n) for n in range(1, 5)] == [0.5, 1.0, 2.0, 3.0]
    assert policy.wait_s(1, asked=2.5) == 2.5 and policy.wait_s(1, asked=86_400) == 3.0
    assert policy.wait_s(1, asked=-1) == 0.0
    jittered = RetryPolicy(retries=1, base_s=1.0, jitter=True)
    assert jittered.wait_s(1, rand=lambda: 0.0) == 0.5
    assert jittered.wait_s(1, rand=lambda: 0.999) == pytest.approx(1.499)
    assert jittered.wait_s(1, asked=2.0, rand=lambda: 0.0) == 2.0  # an asked-for wait is kept as asked


def test_transient_failures_of_calls_get_one_retry_of_at_most_five_seconds() -> None:
    assert (TRANSIENT.attempts, TRANSIENT.wait_s(1), TRANSIENT.wait_s(1, asked=2.0), TRANSIENT.wait_s(1, 60)) == (
        2,
        1.0,
        2.0,
        5.0,
    )


def test_call_retries_only_what_is_retryable_and_reraises_the_last_failure() -> None:
    seen: list[tuple[str, float]] = []
    slept: list[float] = []
    failures = [TimeoutError("first"), TimeoutError("second"), TimeoutError("third")]

    def work() -> str:
        raise failures.pop(0)

    policy = RetryPolicy(retries=2, base_s=1.0, growth=3.0, max_wait_s=10.0)
    with pytest.raises(TimeoutError, match="third"):
        policy.call(
            work,
            retryable=lambda e: isinstance(e, TimeoutError),
            asked=lambda e: 0.25 if str(e) == "second" else None,
            sleep=slept.append,
            before_retry=lambda e, wait: seen.append((str(e), wait)),
        )
    assert seen == [("first", 1.0), ("second", 0.25)] and slept == [1.0, 0.25]

    slept.clear()
    with pytest.raises(ValueError):
        policy.call(lambda: int("x"), retryable=lambda e: isinstance(e, TimeoutError), sleep=slept.append)
    assert slept == []  # not retryable: raised at once
    with pytest.raises(ValueError, match="not a retry policy"):
        RetryPolicy(retries=-1)


def _locked() -> sa.exc.OperationalError:
    return sa.exc.OperationalError("UPDATE t", {}, sqlite3.OperationalError("database is locked"))


def test_a_store_write_retries_a_lock_with_growing_jittered_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slept: list[float] = []
    monkeypatch.setattr(connect.time, "sleep", slept.append)
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'w.sqlite'}")
    tries: list[int] = []

    def work(conn: sa.Connection) -> str:
        tries.append(1)
        if len(tries) < 4:
            raise _locked()
        return "written"

    assert connect.write_retrying(engine, work, url="sqlite:///w") == "written"
    assert len(tries) == 4 and len(slept) == 3
    for wait, backoff in zip(slept, [0.1, 0.2, 0.4], strict=True):
        assert 0.5 * backoff <= wait <= 1.5 * backoff

    tries.clear()

    def always_locked(conn: sa.Connection) -> None:
        tries.append(1)
        raise _locked()

    with pytest.raises(StoreError):
        connect.write_retrying(engine, always_locked, url="x")
    assert len(tries) == connect.WRITE_ATTEMPTS  # bounded

    tries.clear()

    def broken(conn: sa.Connection) -> None:
        tries.append(1)
        raise sa.exc.OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: t"))

    with pytest.raises(StoreError):
        connect.write_retrying(engine, broken, url="x")
    assert tries == [1]  # not a conflict: no retry
    engine.dispose()
