"""Batch research on Celery with a Redis broker, over a shared (PostgreSQL) store.

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
"""

from __future__ import annotations

import os
import sys
from typing import Any

from citewise.config import env, resolve_store_url
from citewise.errors import ConfigError

__all__ = ["BROKER_ENV", "RECHECK_S", "broker_url", "celery_app", "enqueue", "start_worker"]

BROKER_ENV = "CITEWISE_BROKER_URL"
"""The Celery broker for distributed batches (``redis://HOST:PORT/DB``)."""
VISIBILITY_ENV = "CITEWISE_BROKER_VISIBILITY_S"
"""Seconds before Redis delivers an unacknowledged task again (default 3600; a lost worker's tasks
come back through ``task_reject_on_worker_lost`` at once)."""
RECHECK_S = 15
"""A task whose line is held by a live worker looks again after this many seconds."""
TASK = "citewise.batch.research_line"


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
        broker_transport_options={"visibility_timeout": int(env(VISIBILITY_ENV) or 3600)},
        worker_hijack_root_logger=False,
    )

    @app.task(name=TASK, bind=True, max_retries=None)  # type: ignore[untyped-decorator]
    def research_line(task: Any, batch_id: str, line_no: int) -> str:
        outcome = run_line(batch_id, line_no)
        if outcome == "held":
            raise task.retry(countdown=RECHECK_S)
        return outcome

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
