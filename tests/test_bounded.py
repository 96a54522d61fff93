"""The bounded child (:mod:`citewise.ingest.bounded`): results and exceptions come back as they were,
and the time and memory limits stop work that no checkpoint reaches, naming the bound."""

from __future__ import annotations

import time

import pytest

from citewise.errors import ParseError
from citewise.ingest.bounded import Bound, BoundExceeded, can_isolate, run_bounded

pytestmark = pytest.mark.skipif(not can_isolate(), reason="needs fork")


def _add(a: int, b: int) -> int:
    return a + b


def _raise() -> None:
    raise ParseError("bad table at line 3", path="x.md")


def _spin() -> None:
    while True:
        pass


def _hog() -> bytes:
    return b"x" * (512 * 2**20)


def _die() -> None:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_result_and_an_exception_come_back_as_they_were() -> None:
    assert run_bounded(_add, 2, 3, seconds=10, memory_bytes=None) == 5
    with pytest.raises(ParseError) as caught:
        run_bounded(_raise, seconds=10, memory_bytes=None)
    assert caught.value.path == "x.md" and str(caught.value) == "x.md: bad table at line 3"


def test_work_stuck_past_its_time_is_killed_and_named() -> None:
    started = time.monotonic()
    with pytest.raises(BoundExceeded) as caught:
        run_bounded(_spin, seconds=0.5, memory_bytes=None, where="spin.html", grace=0.2)
    assert time.monotonic() - started < 5
    assert caught.value.bound is Bound.TIME
    assert str(caught.value).startswith("spin.html: parsing took longer than 0.5 s")


def test_work_past_its_memory_is_stopped_and_named() -> None:
    with pytest.raises(BoundExceeded) as caught:
        run_bounded(_hog, seconds=30, memory_bytes=64 * 2**20, where="big.pdf")
    assert caught.value.bound is Bound.MEMORY and "more than 64 MB of memory" in str(caught.value)


def test_a_child_that_dies_is_a_failure_of_that_work() -> None:
    with pytest.raises(BoundExceeded) as caught:
        run_bounded(_die, seconds=10, memory_bytes=None, where="crash.pdf")
    assert caught.value.bound is Bound.CRASH and "signal 9" in str(caught.value)


def _pid() -> int:
    import os

    return os.getpid()


def test_a_worker_forks_once_for_many_calls_and_again_after_one_it_stopped() -> None:
    import os

    from citewise.ingest.bounded import BoundedWorker

    with BoundedWorker(256 * 2**20, max_calls=10) as worker:
        first = [worker.run(_pid, seconds=10) for _ in range(5)]
        assert len(set(first)) == 1 and first[0] != os.getpid()  # one child, not this process
        with pytest.raises(BoundExceeded):
            worker.run(_spin, seconds=0.3)
        after = worker.run(_pid, seconds=10)
        assert after != first[0]  # the stuck child was killed; the next call has a new one
        with pytest.raises(BoundExceeded) as caught:
            worker.run(_hog, seconds=30)  # 512 MB against a 256 MB bound
        assert caught.value.bound is Bound.MEMORY
        assert worker.run(_add, 1, 2, seconds=10) == 3
        assert len({worker.run(_pid, seconds=10) for _ in range(12)}) >= 2  # retired after max_calls
