"""Takeover of a distributed batch's lines by lease, not by the broker's visibility timeout: the
decision, driven by a clock and a queue the test controls (the real Redis run is in
tests/test_batch_celery.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from citewise.batch.distributed import QUIET_S, Takeover
from citewise.records.batch import BatchItem, BatchRecord, BatchStatus, ItemStatus

pytestmark = pytest.mark.unit

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _item(line: int, status: ItemStatus, owner: str | None = None, claims: int = 0) -> BatchItem:
    return BatchItem(
        batch_id="b",
        line_no=line,
        item_id=f"q{line}",
        question=f"question {line}",
        status=status,
        owner=owner,
        run_id=None,
        outcome=None,
        error=None,
        claims=claims,
        claimed_at=None,
        finished_at=None,
    )


def _batch(*items: BatchItem) -> BatchRecord:
    return BatchRecord("b", "q.jsonl", NOW, BatchStatus.OPEN, {}, None, Decimal(0), items)


class World:
    def __init__(self) -> None:
        self.t = 0.0
        self.queue = 0
        self.gone: set[str] = set()
        self.sent: list[list[int]] = []
        self.takeover = Takeover(
            "redis://127.0.0.1:1/0",
            lambda item: item.owner in self.gone,
            clock=lambda: self.t,
            send=lambda batch_id, lines: self.sent.append(lines) or len(lines),
            waiting=lambda: self.queue,
        )


def test_a_running_line_whose_holder_is_gone_is_requeued_once() -> None:
    w = World()
    batch = _batch(_item(1, ItemStatus.RUNNING, "h:1", 1), _item(2, ItemStatus.RUNNING, "h:2", 1))
    assert w.takeover(batch) == []  # both holders alive
    w.gone.add("h:1")
    assert w.takeover(batch) == [1]
    assert w.takeover(batch) == []  # sent once for that holder, not on every poll
    taken_again = _batch(_item(1, ItemStatus.RUNNING, "h:3", 2), _item(2, ItemStatus.RUNNING, "h:2", 1))
    w.gone.add("h:3")
    assert w.takeover(taken_again) == [1]  # lost again by its new holder: sent again
    assert w.sent == [[1], [1]]


def test_a_pending_line_is_requeued_only_after_the_queue_stayed_empty() -> None:
    w = World()
    batch = _batch(_item(1, ItemStatus.PENDING), _item(2, ItemStatus.DONE, "h:1", 1))
    w.queue = 3
    assert w.takeover(batch) == []  # its task is still waiting in the queue
    w.queue = 0
    assert w.takeover(batch) == []  # the queue just emptied: a live worker may be about to claim it
    w.t += QUIET_S - 1
    assert w.takeover(batch) == []
    w.t += 1
    assert w.takeover(batch) == [1]  # nobody claimed it through a quiet spell: its message was lost
    w.t += 1
    assert w.takeover(batch) == []  # not again at once
    w.t += QUIET_S
    assert w.takeover(batch) == [1]


def test_finished_lines_and_live_holders_are_left_alone() -> None:
    w = World()
    w.gone.add("h:9")
    batch = _batch(_item(1, ItemStatus.DONE, "h:9", 1), _item(2, ItemStatus.FAILED, "h:9", 1))
    w.t = 100.0
    assert w.takeover(batch) == [] and w.sent == []
