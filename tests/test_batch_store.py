"""Batch bookkeeping on both store backends: reading question files, claims, the money purse, and
the shared rate buckets, under real concurrency (threads with their own store connections)."""

from __future__ import annotations

import json
import threading
from decimal import Decimal
from pathlib import Path

import pytest

from citewise.batch.limits import RateLimiter, parse_rates
from citewise.batch.questions import read_questions
from citewise.errors import InputError, NotFoundError
from citewise.records.batch import BatchLine, BatchStatus, ItemStatus
from citewise.store.batches import BatchStore
from citewise.store.evidence import EvidenceStore


def _lines(n: int) -> list[BatchLine]:
    return [BatchLine(i, f"q{i}", f"question {i}?") for i in range(1, n + 1)]


def test_a_bad_line_fails_alone_and_every_good_line_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    rows = [
        json.dumps({"id": "a", "question": "What is a deposit?", "category": "technical"}),
        "",
        "{not json",
        json.dumps(["a list"]),
        json.dumps({"id": "b"}),
        json.dumps({"id": "a", "question": "again?"}),
        "[" * 100_000,
        json.dumps({"question": "no id here?"}),
        json.dumps({"id": "c", "question": "bad \x00 byte"}),
    ]
    path.write_text("\n".join(rows), encoding="utf-8")
    lines = read_questions(path)
    assert [(line.line_no, line.item_id, line.error is None) for line in lines] == [
        (1, "a", True),
        (3, "line-3", False),
        (4, "line-4", False),
        (5, "b", False),
        (6, "a", False),
        (7, "line-7", False),
        (8, "line-8", True),
        (9, "c", False),
    ]
    errors = {line.line_no: line.error for line in lines}
    assert errors[3] is not None and errors[3].startswith("line 3: not JSON")
    assert errors[6] == "line 6: id 'a' repeats an earlier line"
    assert errors[5] == 'line 5: no "question" (a non-empty string)'
    assert errors[7] is not None and "line 7" in errors[7]


def test_an_empty_or_unreadable_question_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="holds no questions"):
        read_questions(tmp_path / "empty.jsonl")
    with pytest.raises(InputError, match="cannot read the question file"):
        read_questions(tmp_path / "missing.jsonl")
    (tmp_path / "latin.jsonl").write_bytes('{"question": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        read_questions(tmp_path / "latin.jsonl")


def test_concurrent_claims_never_give_one_line_to_two_workers(backend_url: str) -> None:
    with EvidenceStore.open(backend_url) as store:
        batch_id = BatchStore(store).create("q.jsonl", _lines(24), {})
    taken: dict[str, list[int]] = {}
    errors: list[BaseException] = []

    def claimer(owner: str) -> None:
        try:
            with EvidenceStore.open(backend_url) as own:
                batches = BatchStore(own)
                while (item := batches.claim(batch_id, owner, lambda _i: False)) is not None:
                    taken.setdefault(owner, []).append(item.line_no)
                    assert batches.finish_item(item, owner, ItemStatus.DONE, outcome="accepted")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=claimer, args=(f"w{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    claimed = sorted(n for lines in taken.values() for n in lines)
    assert claimed == list(range(1, 25))  # every line once, none twice
    with EvidenceStore.open(backend_url) as store:
        record = BatchStore(store).get(batch_id)
    assert record.status is BatchStatus.FINISHED and all(i.claims == 1 for i in record.items)


def test_a_line_held_by_a_dead_worker_is_taken_over_once_and_the_old_holder_can_no_longer_close_it(
    backend_url: str,
) -> None:
    with EvidenceStore.open(backend_url) as store:
        batches = BatchStore(store)
        batch_id = batches.create("q.jsonl", _lines(1), {})
        first = batches.claim(batch_id, "host:1", lambda _i: False)
        assert first is not None and batches.attach_run(first, "research-x", "host:1")
        assert batches.claim(batch_id, "host:2", lambda _i: False) is None  # held, holder alive
        second = batches.claim(batch_id, "host:2", lambda i: i.owner == "host:1")
        assert second is not None and second.run_id == "research-x" and second.claims == 2
        assert not batches.finish_item(first, "host:1", ItemStatus.DONE)  # the dead holder lost it
        assert batches.finish_item(second, "host:2", ItemStatus.DONE, outcome="accepted")
        assert batches.get(batch_id).items[0].owner == "host:2"


def test_cancel_stops_new_lines_and_resume_reopens_them(backend_url: str) -> None:
    with EvidenceStore.open(backend_url) as store:
        batches = BatchStore(store)
        batch_id = batches.create("q.jsonl", _lines(3), {})
        running = batches.claim(batch_id, "w", lambda _i: False)
        assert running is not None
        assert batches.cancel(batch_id) == 2
        assert batches.claim(batch_id, "w", lambda _i: False) is None
        assert batches.get(batch_id).status is BatchStatus.CANCELLED
        assert batches.finish_item(running, "w", ItemStatus.DONE)  # a running line still finishes
        assert batches.reopen(batch_id) == 2
        assert batches.get(batch_id).status is BatchStatus.OPEN
        with pytest.raises(NotFoundError, match="no batch 'nope'"):
            batches.get("nope")


def test_concurrent_reservations_never_cross_the_batch_cap(backend_url: str) -> None:
    with EvidenceStore.open(backend_url) as store:
        batch_id = BatchStore(store).create("q.jsonl", _lines(1), {}, max_cost_usd=0.01)
    granted: list[int] = []

    def spender() -> None:
        with EvidenceStore.open(backend_url) as own:
            batches = BatchStore(own)
            for _ in range(10):
                if batches.reserve(batch_id, 700):  # $0.0007 each
                    granted.append(700)

    threads = [threading.Thread(target=spender) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    with EvidenceStore.open(backend_url) as store:
        batches = BatchStore(store)
        record = batches.get(batch_id)
        assert sum(granted) == 14 * 700 and record.committed_usd == Decimal("0.0098")  # 14 fit under $0.01
        batches.settle(batch_id, -700 * 4)  # four calls cost nothing in the end: room again
        assert batches.reserve(batch_id, 2000) and not batches.reserve(batch_id, 1001)  # 9000 + 1001 > 10000


def test_the_rate_bucket_spaces_requests_by_the_rate() -> None:
    assert parse_rates("tavily=5/s, model=120/m") == {"tavily": 5.0, "model": 2.0}
    with pytest.raises(InputError, match="NAME=N"):
        parse_rates("tavily=fast")


def test_rate_tokens_are_shared_and_never_exceed_the_rate(tmp_path: Path) -> None:
    with EvidenceStore.open(str(tmp_path / "s.sqlite")) as store:
        batches = BatchStore(store)
        now = [1000.0]
        waits: list[float] = []

        def sleep(seconds: float) -> None:
            waits.append(seconds)
            now[0] += seconds

        a = RateLimiter(batches, {"tavily": 4.0}, clock=lambda: now[0], sleep=sleep)
        b = RateLimiter(batches, {"tavily": 4.0}, clock=lambda: now[0], sleep=sleep)
        times = []
        for limiter in [a, b] * 6:
            limiter.acquire("tavily")
            times.append(now[0])
            limiter.acquire("other")  # no rate configured: never waits
        gaps = [round(y - x, 6) for x, y in zip(times, times[1:], strict=False)]
        assert all(g >= 0.25 for g in gaps[1:]), gaps  # 4/s across both limiters: a quarter second apart
        assert a.waited_s + b.waited_s == pytest.approx(sum(waits))


def test_concurrency_slots_bound_calls_in_flight_across_workers_and_a_dead_holder_frees_its_slot(
    backend_url: str,
) -> None:
    from citewise.batch.limits import parse_concurrency

    assert parse_concurrency("tavily=4, model=8") == {"tavily": 4, "model": 8}
    with pytest.raises(InputError, match="NAME=N"):
        parse_concurrency("tavily=0")
    with EvidenceStore.open(backend_url):
        pass  # schema first
    in_flight, peak, lock = [0], [0], threading.Lock()

    def caller() -> None:
        with EvidenceStore.open(backend_url) as own:
            limiter = RateLimiter(BatchStore(own), {}, concurrency={"tavily": 2})
            for _ in range(3):
                with limiter.call("tavily"):
                    with lock:
                        in_flight[0] += 1
                        peak[0] = max(peak[0], in_flight[0])
                    threading.Event().wait(0.05)
                    with lock:
                        in_flight[0] -= 1

    threads = [threading.Thread(target=caller) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert peak[0] == 2  # used, and never more than the limit
    with EvidenceStore.open(backend_url) as store:
        batches = BatchStore(store)
        assert batches.take_slot("slots:x", 1, "dead:1", now_us=0, lease_us=1_000_000) == 0
        assert batches.take_slot("slots:x", 1, "live:2", now_us=500_000, lease_us=1_000_000) is None  # still leased
        assert batches.take_slot("slots:x", 1, "live:2", now_us=2_000_000, lease_us=1_000_000) == 0  # lease ran out
