"""Batch research (and ingest's embedding, :mod:`citewise.batch.embedding`) on Celery with a Redis
broker, over a shared (PostgreSQL) store.

With ``CITEWISE_BROKER_URL=redis://…`` set, ``citewise batch FILE`` records the batch and queues one
task per line instead of starting local workers; ``citewise worker`` (no ``--batch``) starts a Celery
worker on any machine that reaches the broker and the store (``CITEWISE_STORE``: the store URL is
never put in a message, so its password stays in the workers' own environment).

Tasks are acknowledged late and rejected when their worker is lost, so a task whose worker died is
delivered again. They are idempotent: a task claims *its* line (:meth:`BatchStore.claim_line
<citewise.store.batches.BatchStore.claim_line>`); a line already finished is a no-op, a line held by
a worker that is gone is taken over and its run resumed from the audit record (no recorded call
repeated), and a line held by a live worker is checked again later (the task retries itself), so a
redelivered copy never races the original. Rate limits and the money cap are the store's, shared by
every worker as in the embedded mode.

A worker killed whole (its main process too) cannot reject its tasks: the broker would deliver them
again only after its visibility timeout. The waiting ``citewise batch`` does not wait for that: its
:class:`Takeover` re-queues a running line as soon as the line's holder is gone (a dead process on
this host, or a lease that expired: the run's heartbeat, or the claim's, older than a lease lasts),
and a pending line that nobody holds while the broker's queue is empty (its message was taken by a
worker that died before claiming it). Re-queued copies are harmless: each task claims its line. The
visibility timeout (``CITEWISE_BROKER_VISIBILITY_S``, default 900 s) stays as the backstop for a
batch nobody is waiting on.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

from citewise.config import env, resolve_store_url
from citewise.errors import ConfigError
from citewise.records.batch import BatchItem, BatchRecord, ItemStatus

__all__ = [
    "BROKER_ENV",
    "EMBED_TASK",
    "RECHECK_S",
    "Takeover",
    "broker_url",
    "celery_app",
    "enqueue",
    "queued",
    "start_worker",
]

BROKER_ENV = "CITEWISE_BROKER_URL"
"""The Celery broker for distributed batches (``redis://HOST:PORT/DB``)."""
VISIBILITY_ENV = "CITEWISE_BROKER_VISIBILITY_S"
"""Seconds before Redis delivers an unacknowledged task again (default 900): the backstop. A lost
child's tasks come back through ``task_reject_on_worker_lost`` at once, and a whole worker's through
the waiting batch's :class:`Takeover`."""
VISIBILITY_S = 900
"""The visibility timeout when ``CITEWISE_BROKER_VISIBILITY_S`` is not set."""
QUIET_S = 10.0
"""A pending line nobody claimed while the broker's queue stayed empty this long is re-queued."""
QUEUE = "celery"
"""The broker queue the tasks go to (Celery's default)."""
RECHECK_S = 15
"""A task whose line is held by a live worker looks again after this many seconds."""
TASK = "citewise.batch.research_line"
EMBED_TASK = "citewise.batch.embed_texts"
"""Embed the texts of some content hashes (``citewise ingest --distributed``, :mod:`citewise.batch.embedding`)."""


def broker_url() -> str | None:
    """The configured broker URL, or None (embedded mode)."""
    url = env(BROKER_ENV)
    if url is not None and not url.startswith(("redis://", "rediss://")):
        raise ConfigError(f"{BROKER_ENV} must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379/0)")
    return url


def celery_app(url: str) -> Any:
    """The Celery application of citewise's batch tasks on broker ``url``."""
    try:
        from celery import Celery
    except ImportError:
        raise ConfigError("distributed batches need Celery: pip install 'citewise[distributed]'") from None
    app = Celery("citewise", broker=url)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": int(env(VISIBILITY_ENV) or VISIBILITY_S)},
        worker_hijack_root_logger=False,
    )

    @app.task(name=TASK, bind=True, max_retries=None)  # type: ignore[untyped-decorator]
    def research_line(task: Any, batch_id: str, line_no: int) -> str:
        outcome = run_line(batch_id, line_no)
        if outcome == "held":
            raise task.retry(countdown=RECHECK_S)
        return outcome

    @app.task(name=EMBED_TASK)  # type: ignore[untyped-decorator]
    def embed_texts(name: str, model_id: str, model_version: str, hashes: list[str]) -> int:
        from citewise.batch.embed_tasks import run_embed_task

        return run_embed_task(name, model_id, model_version, hashes)

    return app


def run_line(batch_id: str, line_no: int) -> str:
    """Research one line in this process unless it is finished or held by a live worker; returns
    ``done``, ``skipped`` (finished or cancelled already) or ``held``."""
    from citewise.batch.worker import batch_session
    from citewise.records.batch import TERMINAL
    from citewise.store.batches import BatchStore
    from citewise.store.evidence import EvidenceStore

    with EvidenceStore.open(resolve_store_url(None)) as store:
        batches = BatchStore(store)
        if batches.item(batch_id, line_no).status in TERMINAL:
            return "skipped"
        with batch_session(store, batch_id, log=lambda line: print(line, file=sys.stderr, flush=True)) as session:
            item = batches.claim_line(batch_id, line_no, session.owner, session.abandoned)
            if item is None:
                return "skipped" if batches.item(batch_id, line_no).status in TERMINAL else "held"
            session.research(item)
    return "done"


def enqueue(url: str, batch_id: str, line_numbers: list[int]) -> int:
    """Queue one task per line; returns how many were queued."""
    app = celery_app(url)
    for line_no in line_numbers:
        app.send_task(TASK, args=[batch_id, line_no])
    return len(line_numbers)


def queued(url: str) -> int:
    """Tasks waiting in the broker's queue (delivered ones, acknowledged or not, are not counted)."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.llen(QUEUE))
    finally:
        client.close()


class Takeover:
    """Re-queue the lines of a distributed batch whose worker is gone (see the module docstring).

    Called with the batch as it stands on every poll of :func:`~citewise.batch.runner.watch`; returns
    the lines it re-queued. A running line is re-queued once per holder it is lost by; a pending one
    at most once per :data:`QUIET_S` while the queue stays empty.
    """

    def __init__(
        self,
        url: str,
        abandoned: Callable[[BatchItem], bool],
        *,
        quiet_s: float = QUIET_S,
        clock: Callable[[], float] = time.monotonic,
        send: Callable[[str, list[int]], int] | None = None,
        waiting: Callable[[], int] | None = None,
    ) -> None:
        self.url = url
        self.abandoned = abandoned
        self.quiet_s = quiet_s
        self.clock = clock
        self.send = send or (lambda batch_id, lines: enqueue(url, batch_id, lines))
        self.waiting = waiting or (lambda: queued(url))
        self._lost: set[tuple[int, str | None, int]] = set()
        self._pending_since: dict[int, float] = {}

    def __call__(self, record: BatchRecord) -> list[int]:
        now = self.clock()
        lines = [i.line_no for i in record.items if i.status is ItemStatus.RUNNING and self._lost_running(i)]
        pending = [i.line_no for i in record.items if i.status is ItemStatus.PENDING]
        if pending and self.waiting() == 0:
            for line in pending:
                since = self._pending_since.setdefault(line, now)
                if now - since >= self.quiet_s:
                    lines.append(line)
                    self._pending_since[line] = now  # once more only after another quiet spell
        else:
            self._pending_since.clear()
        if lines:
            self.send(record.batch_id, sorted(lines))
        return sorted(lines)

    def _lost_running(self, item: BatchItem) -> bool:
        key = (item.line_no, item.owner, item.claims)
        if key in self._lost or not self.abandoned(item):
            return False
        self._lost.add(key)
        return True


def start_worker(url: str, concurrency: int) -> None:
    """Run a Celery worker for batch tasks in this process (until it is stopped)."""
    if env("CITEWISE_STORE") is None:
        raise ConfigError("a distributed worker needs the shared store in CITEWISE_STORE (e.g. postgresql://…)")
    app = celery_app(url)
    hostname = f"citewise-{os.getpid()}@%h"
    app.worker_main(
        [
            "worker",
            f"--concurrency={concurrency}",
            "--pool=prefork",
            "--loglevel=WARNING",
            f"--hostname={hostname}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )
