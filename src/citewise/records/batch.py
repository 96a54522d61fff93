"""The records of a batch of questions: its lines, their status, and the batch as a whole.

The store keeps them (:mod:`citewise.store.batches`); the batch runner, the workers and the CLI read them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

__all__ = ["TERMINAL", "BatchItem", "BatchLine", "BatchRecord", "BatchStatus", "ItemStatus"]


class ItemStatus(str, enum.Enum):
    """Where one question of a batch stands."""

    PENDING = "pending"  #: not claimed yet
    RUNNING = "running"  #: a worker holds it (its run may be under way)
    DONE = "done"  #: its run finished (accepted or not: see the outcome)
    FAILED = "failed"  #: the line was bad, or its run failed; the reason is kept
    CANCELLED = "cancelled"  #: the batch was cancelled before it started


TERMINAL = frozenset({ItemStatus.DONE, ItemStatus.FAILED, ItemStatus.CANCELLED})


class BatchStatus(str, enum.Enum):
    """Where a batch stands (derived from its lines, unless it was cancelled)."""

    OPEN = "open"  #: lines remain to be researched
    FINISHED = "finished"  #: every line is done or failed
    CANCELLED = "cancelled"  #: cancelled: no new line starts (running ones finish)


@dataclass(frozen=True, slots=True)
class BatchLine:
    """One line of a question file, read."""

    line_no: int
    """1, 2, ... in the file."""
    item_id: str
    """The line's ``id`` (or ``line-N`` when it had none)."""
    question: str
    """The question ("" for a bad line)."""
    error: str | None = None
    """Why the line cannot be researched, when it is bad (it fails alone)."""


@dataclass(frozen=True, slots=True)
class BatchItem:
    """One question of a batch, as stored."""

    batch_id: str
    line_no: int
    item_id: str
    question: str
    status: ItemStatus
    run_id: str | None
    """The research run of this line, once one was started."""
    owner: str | None
    """The worker (``host:pid``) holding it."""
    claimed_at: datetime | None
    finished_at: datetime | None
    outcome: str | None
    """The run's report status (``accepted``, ``not_accepted``, ``no_evidence``, ...)."""
    error: str | None
    """Why it failed, in one line."""
    claims: int
    """How many times a worker took it (more than 1: taken over from a worker that died)."""


@dataclass(frozen=True, slots=True)
class BatchRecord:
    """A batch with its lines."""

    batch_id: str
    source: str
    """The question file it came from, as given."""
    created_at: datetime
    status: BatchStatus
    settings: dict[str, Any]
    """The research settings every run of the batch uses (names and limits; never keys)."""
    max_cost_usd: Decimal | None
    committed_usd: Decimal
    """Money reserved or spent by the batch's calls so far (settled to real costs as calls end)."""
    items: tuple[BatchItem, ...]

    def count(self, status: ItemStatus) -> int:
        """Lines in ``status``."""
        return sum(1 for i in self.items if i.status is status)
