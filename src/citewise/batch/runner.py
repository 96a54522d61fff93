"""Starting a batch on this machine: create it, start N worker processes, watch them, sum it up.

The workers are ordinary processes (``python -m citewise worker --batch ID``) over the same store, so
the embedded mode needs no broker: the store is the queue. The runner only watches: a worker it
sees die while lines remain is replaced (at most as many times as there are workers), and the lines
that worker held are taken over by the others. Killing the runner leaves the batch as it stands;
``citewise batch resume BATCH`` starts workers again and they continue where it stopped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from citewise.batch.questions import read_questions
from citewise.batch.worker import BatchConfig
from citewise.cost.ledger import is_accepted, ledger_for_run
from citewise.errors import InputError
from citewise.prices import PriceTable, load_prices
from citewise.records.batch import BatchRecord, BatchStatus, ItemStatus
from citewise.records.budget import Budget
from citewise.research.configure import priced_models
from citewise.store.batches import BatchStore
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore

__all__ = ["BatchSummary", "ItemSummary", "create_batch", "run_workers", "summarize", "watch"]

MAX_WORKERS = 64


@dataclass(frozen=True, slots=True)
class ItemSummary:
    """One line of a batch, summed up."""

    line_no: int
    item_id: str
    status: ItemStatus
    outcome: str | None
    run_id: str | None
    cost_usd: Decimal | None
    """What the line's run cost (None before it started)."""
    error: str | None
    claims: int


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """A batch's outcome: counts, money, cost per accepted report, and every line."""

    batch_id: str
    status: BatchStatus
    total: int
    counts: dict[str, int]
    """Lines by status (pending, running, done, failed, cancelled)."""
    accepted: int
    cost_usd: Decimal
    """Measured cost of every run of the batch (failed runs included)."""
    cost_per_accepted_usd: Decimal | None
    """Total cost / accepted reports; None when none was accepted."""
    max_cost_usd: Decimal | None
    committed_usd: Decimal
    items: tuple[ItemSummary, ...]


def create_batch(store: EvidenceStore, path: Path, config: BatchConfig, max_cost_usd: float | None = None) -> str:
    """Read ``path`` and record a batch of its lines; a money cap needs prices for the models."""
    if max_cost_usd is not None and not max_cost_usd > 0:
        raise InputError("--max-cost must be a positive amount of US dollars")
    lines = read_questions(path)
    if max_cost_usd is not None and not config.no_model:
        models = (
            config.planner_model or os.environ.get("PLANNER_MODEL"),
            config.writer_model or os.environ.get("WRITER_MODEL"),
        )
        priced_models(Budget(max_cost_usd=max_cost_usd), config.prices, models)
    return BatchStore(store).create(str(path), lines, config.to_data(), max_cost_usd)


def worker_command(store_url: str, batch_id: str) -> list[str]:
    """The command line of one worker process."""
    return [sys.executable, "-m", "citewise", "worker", "--batch", batch_id, "--store", store_url]


def run_workers(
    store: EvidenceStore,
    store_url: str,
    batch_id: str,
    workers: int,
    on_update: Callable[[BatchRecord], None] | None = None,
    poll_s: float = 0.5,
) -> BatchRecord:
    """Start ``workers`` worker processes on the batch and wait for them; returns the batch as it
    stands then. Workers' own lines go to stderr."""
    if not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"--workers must be between 1 and {MAX_WORKERS} (got {workers})")
    batches = BatchStore(store)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    procs = [subprocess.Popen(worker_command(store_url, batch_id), env=env) for _ in range(workers)]
    spare = workers
    try:
        while procs:
            time.sleep(poll_s)
            record = batches.get(batch_id)
            if on_update is not None:
                on_update(record)
            alive = []
            for proc in procs:
                code = proc.poll()  # reaps a dead worker, so its lines read as abandoned
                if code is None:
                    alive.append(proc)
                elif code != 0 and spare > 0 and record.status is BatchStatus.OPEN:
                    spare -= 1
                    alive.append(subprocess.Popen(worker_command(store_url, batch_id), env=env))
            procs = alive
    except KeyboardInterrupt:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
        raise
    return batches.get(batch_id)


def watch(
    store: EvidenceStore,
    batch_id: str,
    on_update: Callable[[BatchRecord], None] | None = None,
    poll_s: float = 1.0,
    takeover: Callable[[BatchRecord], list[int]] | None = None,
    on_takeover: Callable[[list[int]], None] | None = None,
) -> BatchRecord:
    """Wait until every line of the batch is finished (distributed mode: the workers are elsewhere).

    ``takeover`` sees the batch on every poll and re-queues the lines whose worker is gone
    (:class:`~citewise.batch.distributed.Takeover`); ``on_takeover`` hears which."""
    batches = BatchStore(store)
    while True:
        record = batches.get(batch_id)
        if on_update is not None:
            on_update(record)
        if record.status is not BatchStatus.OPEN and not record.count(ItemStatus.RUNNING):
            return record
        if takeover is not None and (requeued := takeover(record)) and on_takeover is not None:
            on_takeover(requeued)
        time.sleep(poll_s)


def summarize(store: EvidenceStore, batch_id: str, prices: PriceTable | None = None) -> BatchSummary:
    """Counts, cost and cost per accepted report of a batch, from its lines and their runs."""
    table = prices or load_prices(BatchStore(store).get(batch_id).settings.get("prices"))
    record = BatchStore(store).get(batch_id)
    runs = RunStore(store)
    items: list[ItemSummary] = []
    total = Decimal(0)
    accepted = 0
    for item in record.items:
        cost: Decimal | None = None
        if item.run_id is not None:
            run = runs.get(item.run_id)
            cost = ledger_for_run(run, table).measured
            total += cost
            accepted += is_accepted(run)
        items.append(
            ItemSummary(
                item.line_no, item.item_id, item.status, item.outcome, item.run_id, cost, item.error, item.claims
            )
        )
    counts = {s.value: record.count(s) for s in ItemStatus}
    return BatchSummary(
        batch_id=batch_id,
        status=record.status,
        total=len(record.items),
        counts=counts,
        accepted=accepted,
        cost_usd=total,
        cost_per_accepted_usd=(total / accepted) if accepted else None,
        max_cost_usd=record.max_cost_usd,
        committed_usd=record.committed_usd,
        items=tuple(items),
    )
