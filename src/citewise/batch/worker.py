"""A batch worker: claim a line, research it, record its outcome, until nothing is left.

Every worker builds the batch's research settings itself (keys come from its own environment, never
from the store) and wraps its providers and model client in the batch's shared limits. A line's run
is created and recorded on the line before its first paid call; a line taken over from a worker
that died resumes that run from its audit record (:func:`citewise.research.loop.resume`), so no
recorded call is paid twice and no collected source is lost. One line's failure — a bad question, a
provider error, an exhausted budget — is recorded on that line and the worker goes on to the next.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from citewise.batch.limits import Purse, RateLimiter, limited_settings
from citewise.config import redact
from citewise.cost.ledger import is_accepted
from citewise.errors import CitewiseError
from citewise.records.batch import BatchItem, ItemStatus
from citewise.records.budget import Budget
from citewise.records.research import ReportStatus
from citewise.records.runs import RunKind
from citewise.records.verify import UnsupportedAction
from citewise.research.configure import research_settings
from citewise.research.settings import ResearchSettings
from citewise.store.batches import BatchStore
from citewise.store.evidence import EvidenceStore, utcnow
from citewise.store.runs import STALE_AFTER, RunStatus, RunStore, owner_alive, this_process

__all__ = ["BatchConfig", "BatchSession", "WorkerReport", "batch_session", "work"]


@dataclass(frozen=True)
class BatchConfig:
    """How every run of a batch is configured (names and limits; keys stay in each worker's
    environment)."""

    search: str | None = None
    extract: str | None = None
    planner_model: str | None = None
    writer_model: str | None = None
    no_model: bool = False
    budget: dict[str, Any] = field(default_factory=dict)
    """:class:`~citewise.records.budget.Budget` fields (rounds, searches, ... per run)."""
    prices: str | None = None
    """A price table file (for the money caps); the built-in table otherwise."""
    verify: bool = True
    unsupported: str = UnsupportedAction.REMOVE.value
    concurrent: bool = True
    rates: dict[str, float] = field(default_factory=dict)
    """Requests per second per provider, shared by all workers."""
    parallel: dict[str, int] = field(default_factory=dict)
    """Calls in flight at most per provider, across all workers."""

    def to_data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BatchConfig:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class WorkerReport:
    """What one worker did."""

    owner: str
    done: list[str] = field(default_factory=list)
    """Item ids researched to an outcome."""
    failed: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)
    """Item ids taken over from a worker that died (their runs resumed)."""
    waited_s: float = 0.0
    """Seconds spent waiting for rate-limit tokens."""


def work(
    store: EvidenceStore,
    batch_id: str,
    *,
    owner: str | None = None,
    log: Callable[[str], None] | None = None,
    max_items: int | None = None,
) -> WorkerReport:
    """Research lines of ``batch_id`` until none is left to start (or ``max_items`` were taken)."""
    say = log or (lambda line: print(line, file=sys.stderr, flush=True))
    with batch_session(store, batch_id, owner=owner, log=say) as session:
        while max_items is None or len(session.report.done) + len(session.report.failed) < max_items:
            item = session.batches.claim(batch_id, session.owner, session.abandoned)
            if item is None:
                break
            session.research(item)
    return session.report


@dataclass
class BatchSession:
    """One process's settings for a batch's runs (limits applied), and what it did with them."""

    store: EvidenceStore
    batches: BatchStore
    runs: RunStore
    settings: ResearchSettings
    owner: str
    report: WorkerReport
    say: Callable[[str], None]

    def abandoned(self, item: BatchItem) -> bool:
        """True when the worker holding ``item`` is gone (see :func:`line_abandoned`)."""
        return line_abandoned(self.runs, item)

    def research(self, item: BatchItem) -> None:
        """Research a line this process holds, and record its outcome on the line."""
        _research(self.store, self.batches, self.runs, item, self.settings, self.owner, self.report, self.say)


@contextmanager
def batch_session(
    store: EvidenceStore, batch_id: str, *, owner: str | None = None, log: Callable[[str], None] | None = None
) -> Iterator[BatchSession]:
    """The batch's research settings, built here (keys from this process's environment), wrapped in the
    batch's shared rate limits and money cap; connections closed on leaving."""
    batches, runs = BatchStore(store), RunStore(store)
    record = batches.get(batch_id)
    config = BatchConfig.from_data(record.settings)
    report = WorkerReport(owner or this_process())
    with research_settings(
        store,
        search=config.search,
        extract=config.extract,
        planner_model=config.planner_model,
        writer_model=config.writer_model,
        no_model=config.no_model,
        budget=Budget(**config.budget),
        concurrent=config.concurrent,
        prices=config.prices,
        verify=config.verify,
        unsupported=UnsupportedAction(config.unsupported),
    ) as base:
        limiter = RateLimiter(batches, config.rates, concurrency=config.parallel)
        purse = Purse(batches, batch_id, _prices(base, config), record.max_cost_usd)
        say = log or (lambda line: print(line, file=sys.stderr, flush=True))
        try:
            yield BatchSession(store, batches, runs, limited_settings(base, limiter, purse), report.owner, report, say)
        finally:
            report.waited_s = limiter.waited_s


def _prices(settings: ResearchSettings, config: BatchConfig) -> Any:
    if settings.prices is not None:
        return settings.prices
    from citewise.prices import load_prices

    return load_prices(config.prices)


def line_abandoned(runs: RunStore, item: BatchItem) -> bool:
    """True when the worker holding ``item`` is gone: dead on this host, or its run (or, before the
    run started, its claim) shows no sign of life for longer than a lease lasts."""
    alive = owner_alive(item.owner)
    if alive is not None:
        return not alive
    if item.run_id is not None:
        return runs.get(item.run_id).status is not RunStatus.RUNNING
    claimed = item.claimed_at or datetime.min.replace(tzinfo=utcnow().tzinfo)
    return utcnow() - claimed > STALE_AFTER + timedelta(seconds=30)


def _research(
    store: EvidenceStore,
    batches: BatchStore,
    runs: RunStore,
    item: BatchItem,
    settings: ResearchSettings,
    owner: str,
    report: WorkerReport,
    say: Callable[[str], None],
) -> None:
    from citewise.research.loop import research, resume

    try:
        if item.run_id is None:
            run_id = runs.create(RunKind.RESEARCH, item.question)
            if not batches.attach_run(item, run_id, owner):
                runs.finish(
                    run_id, status=RunStatus.FAILED, outcome=None
                )  # never started: another worker holds the line
                return
            result = research(store, item.question, settings, run_id=run_id)
        else:
            run = runs.get(item.run_id)
            if run.status is RunStatus.FINISHED:  # its worker died after the run ended
                batches.finish_item(item, owner, ItemStatus.DONE, outcome=_outcome(runs, run.run_id))
                report.done.append(item.item_id)
                return
            report.resumed.append(item.item_id)
            say(f"{item.item_id}: resuming run {item.run_id} (its worker stopped)")
            result = resume(store, item.run_id, settings)
    except (CitewiseError, ValueError, OSError) as exc:  # this line fails alone; the worker goes on
        reason = redact(f"{type(exc).__name__}: {exc}".splitlines()[0])[:300]
        batches.finish_item(item, owner, ItemStatus.FAILED, error=reason)
        report.failed.append(item.item_id)
        say(f"{item.item_id}: failed: {reason}")
        return
    outcome = _outcome(runs, result.run_id)
    batches.finish_item(item, owner, ItemStatus.DONE, outcome=outcome)
    report.done.append(item.item_id)
    say(f"{item.item_id}: {outcome} ({result.run_id})")


def _outcome(runs: RunStore, run_id: str) -> str:
    """``accepted``, ``not_accepted`` (a report verification did not accept), or the run's outcome
    (``no_evidence``, ``rejected``)."""
    record = runs.get(run_id)
    if is_accepted(record):
        return "accepted"
    if record.outcome is ReportStatus.REPORT:
        return "not_accepted"
    return record.outcome.value if record.outcome is not None else "unknown"


def spent(store: EvidenceStore, batch_id: str) -> Decimal:
    """Money committed by the batch so far (reservations settled to real costs)."""
    return BatchStore(store).get(batch_id).committed_usd
