"""``citewise ingest --distributed``: embedding on Celery workers, with a real Redis (broker) and a real
PostgreSQL (store) started by the fixtures, the workers as separate processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from citewise.batch.embedding import EmbeddingStalled, enqueue_embedding, wait_for_vectors
from citewise.cli import app
from citewise.ingest.pipeline import ingest_paths
from citewise.search.embedders import EMBEDDERS
from citewise.store.evidence import EvidenceStore
from citewise.testing.embedder import HashingEmbedder
from citewise.testing.redis import redis_url  # noqa: F401  (fixture)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

pytest.importorskip("celery", reason="distributed embedding needs Celery: pip install 'citewise[distributed]'")

REPO = Path(__file__).resolve().parent.parent
NAME = "hashing-slow"
"""The test embedder's name, registered in this process and in every worker."""
DELAY_S = 0.08
"""Seconds per text in the workers: a task of 8 texts takes most of a second, so one can be killed
while it embeds."""

# A Celery worker whose embedder is the hashing one, slowed down, logging "pid first-text" per call.
WORKER = f"""
import os, sys, time
from citewise.search.embedders import EMBEDDERS
from citewise.testing.embedder import HashingEmbedder

class Slow(HashingEmbedder):
    def embed(self, texts, *, query=False):
        with open(os.environ["EMBED_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{{os.getpid()}} {{texts[0][:40]!r}}\\n")
        time.sleep({DELAY_S} * len(texts))
        return super().embed(texts, query=query)

EMBEDDERS[{NAME!r}] = lambda _arg: Slow()
from citewise.batch.distributed import start_worker
start_worker(os.environ["CITEWISE_BROKER_URL"], int(sys.argv[1]))
"""


def _corpus(root: Path, files: int = 3, sections: int = 12) -> Path:
    root.mkdir()
    for f in range(files):
        parts = [f"# Document {f}\n"]
        for s in range(sections):
            parts.append(f"## Part {f}.{s}\n\nSection {s} of document {f} says rule {f * 100 + s} applies.\n")
        (root / f"doc{f}.md").write_text("\n".join(parts), encoding="utf-8")
    return root


@pytest.fixture
def shared(
    redis_url: str,  # noqa: F811
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> Iterator[dict[str, str]]:
    """The environment of workers and of the ingesting process: broker, shared store, the log."""
    monkeypatch.setitem(EMBEDDERS, NAME, lambda _arg: HashingEmbedder())
    env = {
        **os.environ,
        "CITEWISE_BROKER_URL": redis_url,
        "CITEWISE_STORE": postgres_url,
        "EMBED_LOG": str(tmp_path / "embed.log"),
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
    }
    monkeypatch.setenv("CITEWISE_BROKER_URL", redis_url)
    with EvidenceStore.open(postgres_url):
        pass  # the schema exists before workers and ingest race to create it
    yield env
    subprocess.run([sys.executable, "-c", f"import redis; redis.Redis.from_url({redis_url!r}).flushall()"], check=True)


def _worker(env: dict[str, str], concurrency: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-c", WORKER, str(concurrency)], env=env, cwd=REPO, start_new_session=True, stderr=out
        )


def _stop(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


def _embedding_pid(log: Path, not_pid: int, timeout: float = 120) -> int:
    """A worker child (not the worker's main process) that has begun a task."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists():
            pids = [int(line.split()[0]) for line in log.read_text(encoding="utf-8").splitlines() if line]
            if pids and pids[-1] != not_pid:
                return pids[-1]
        time.sleep(0.05)
    raise AssertionError("no worker began embedding in time")


def _assert_every_vector_once_and_right(store_url: str, hashes: tuple[str, ...]) -> None:
    model = HashingEmbedder().model
    with EvidenceStore.open(store_url) as store:
        stored = store.vectors(model.model_id, model.version)
        texts = dict(store.texts_to_embed("never-embedded/model", "0"))  # every text, by hash
    assert sorted(stored.content_hashes) == sorted(set(hashes))  # one row per hash, none twice
    matrix = np.frombuffer(stored.data, dtype=np.float32).reshape(len(stored.content_hashes), stored.dim)
    expected = HashingEmbedder().embed([texts[h] for h in stored.content_hashes])
    assert np.allclose(matrix, expected, atol=1e-6)  # what one process computes


def test_workers_embed_every_text_once_and_a_killed_workers_task_is_delivered_again(
    shared: dict[str, str], tmp_path: Path
) -> None:
    url, store_url = shared["CITEWISE_BROKER_URL"], shared["CITEWISE_STORE"]
    with EvidenceStore.open(store_url) as store:
        ingest_paths(store, [_corpus(tmp_path / "docs")])
        job = enqueue_embedding(url, store, NAME, HashingEmbedder(), per_task=8)
    assert len(job.hashes) == 3 * 13 and job.tasks == 5  # each file's title section and its 12 parts
    worker = _worker(shared, 2, tmp_path / "worker.log")
    try:
        victim = _embedding_pid(Path(shared["EMBED_LOG"]), not_pid=worker.pid)
        os.kill(victim, signal.SIGKILL)  # one worker process, mid-task
        with EvidenceStore.open(store_url) as store:
            state = wait_for_vectors(url, store, job, quiet_s=60, poll_s=0.2)
    finally:
        _stop(worker)
    log = (tmp_path / "worker.log").read_text(errors="replace")
    assert state.done == state.total == len(job.hashes), log[-2000:]
    assert state.requeued == 0  # the broker delivered the lost task again, not the waiting ingest
    calls = Path(shared["EMBED_LOG"]).read_text(encoding="utf-8").splitlines()
    firsts = [line.split(" ", 1)[1] for line in calls]
    assert len(firsts) > len(set(firsts)), calls  # the killed process's task was begun twice
    _assert_every_vector_once_and_right(store_url, job.hashes)


def test_tasks_lost_with_a_whole_worker_are_queued_again_by_the_waiting_ingest(
    shared: dict[str, str], tmp_path: Path
) -> None:
    url, store_url = shared["CITEWISE_BROKER_URL"], shared["CITEWISE_STORE"]
    with EvidenceStore.open(store_url) as store:
        ingest_paths(store, [_corpus(tmp_path / "docs", files=2, sections=5)])
        job = enqueue_embedding(url, store, NAME, HashingEmbedder(), per_task=4)
    # The messages vanish as if a worker had taken them and died whole (nothing rejects them, and
    # the broker would deliver them again only after its visibility timeout).
    subprocess.run([sys.executable, "-c", f"import redis; redis.Redis.from_url({url!r}).flushall()"], check=True)
    worker = _worker(shared, 1, tmp_path / "worker.log")
    try:
        with EvidenceStore.open(store_url) as store:
            state = wait_for_vectors(url, store, job, quiet_s=1.0, poll_s=0.2)
    finally:
        _stop(worker)
    assert state.done == state.total == len(job.hashes) and state.requeued == 1
    _assert_every_vector_once_and_right(store_url, job.hashes)


def test_ingest_distributed_waits_for_the_workers_and_reports_texts_per_second(
    shared: dict[str, str], tmp_path: Path
) -> None:
    store_url = shared["CITEWISE_STORE"]
    worker = _worker(shared, 2, tmp_path / "worker.log")
    try:
        docs = _corpus(tmp_path / "docs", files=2, sections=6)
        args = ["ingest", str(docs), "--store", store_url, "--distributed", "--embedder", NAME, "--per-task", "4"]
        result = CliRunner().invoke(app, args)
        again = CliRunner().invoke(app, args)  # nothing new: nothing queued
    finally:
        _stop(worker)
    assert result.exit_code == 0, result.output
    assert "14 section texts queued for the workers in 4 tasks" in result.output
    assert "14 section texts embedded on the workers" in result.output and "/s)" in result.output
    assert again.exit_code == 0, again.output
    assert "nothing queued" in again.output
    with EvidenceStore.open(store_url) as store:
        every = [h for h, _t in store.texts_to_embed("never-embedded/model", "0")]
        assert store.vectors_among(HashingEmbedder().model.model_id, "1", every) == 14


def test_ingest_no_wait_queues_and_returns(shared: dict[str, str], tmp_path: Path) -> None:
    docs = _corpus(tmp_path / "docs", files=1, sections=3)
    args = ["ingest", str(docs), "--store", shared["CITEWISE_STORE"], "--distributed", "--no-wait", "--embedder", NAME]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "4 section texts queued for the workers in 1 tasks" in result.output and "not waiting" in result.output


def test_distributed_refuses_a_sqlite_store_before_ingesting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITEWISE_BROKER_URL", "redis://127.0.0.1:1/0")
    db = tmp_path / "local.sqlite"
    result = CliRunner().invoke(
        app, ["ingest", str(_corpus(tmp_path / "docs", 1, 1)), "--store", str(db), "--distributed"]
    )
    assert result.exit_code == 2, result.output
    assert "--distributed needs a shared store" in result.output and "SQLite" in result.output
    with EvidenceStore.open(str(db)) as store:
        assert store.documents() == []  # said before anything was ingested


def test_distributed_says_in_one_line_when_the_broker_is_missing_or_does_not_answer(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = str(_corpus(tmp_path / "docs", 1, 1))
    monkeypatch.delenv("CITEWISE_BROKER_URL", raising=False)
    missing = CliRunner().invoke(app, ["ingest", docs, "--store", postgres_url, "--distributed"])
    assert missing.exit_code == 2 and "--distributed needs the broker in CITEWISE_BROKER_URL" in missing.output
    with socket_closed_port() as port:
        monkeypatch.setenv("CITEWISE_BROKER_URL", f"redis://127.0.0.1:{port}/0")
        down = CliRunner().invoke(app, ["ingest", docs, "--store", postgres_url, "--distributed"])
    assert down.exit_code == 2, down.output
    assert f"the broker redis://127.0.0.1:{port}/0 (CITEWISE_BROKER_URL) does not answer" in down.output
    with EvidenceStore.open(postgres_url) as store:
        assert store.documents() == []


def test_distributed_says_in_one_line_when_the_store_is_unreachable(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    with socket_closed_port() as port:
        store = f"postgresql://citewise@127.0.0.1:{port}/citewise"
        result = CliRunner().invoke(
            app,
            ["ingest", str(_corpus(tmp_path / "docs", 1, 1)), "--store", store, "--distributed"],
            env={"CITEWISE_BROKER_URL": redis_url},
        )
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert any("127.0.0.1" in line and ("refused" in line or "connect" in line) for line in lines), result.output
    assert "Traceback" not in result.output


class socket_closed_port:
    """A loopback port nothing listens on (bound, then released)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_worker_of_another_model_refuses_and_the_wait_gives_up_in_one_line(
    shared: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, store_url = shared["CITEWISE_BROKER_URL"], shared["CITEWISE_STORE"]
    other = HashingEmbedder(model_id="citewise-testing/another-model")
    monkeypatch.setitem(EMBEDDERS, NAME, lambda _arg: other)  # here; the worker's is the default model
    with EvidenceStore.open(store_url) as store:
        ingest_paths(store, [_corpus(tmp_path / "docs", files=1, sections=2)])
        job = enqueue_embedding(url, store, NAME, other, per_task=8)
    worker = _worker(shared, 1, tmp_path / "worker.log")
    try:
        with EvidenceStore.open(store_url) as store, pytest.raises(EmbeddingStalled) as stalled:
            wait_for_vectors(url, store, job, quiet_s=1.0, requeues=1, poll_s=0.2)
    finally:
        _stop(worker)
    assert "3 of 3 texts still have no vector after 1 re-queues" in str(stalled.value)
    assert "\n" not in str(stalled.value)
    assert "citewise-testing/hashing-bigrams 1, the job's citewise-testing/another-model" in (
        tmp_path / "worker.log"
    ).read_text(errors="replace")
    with EvidenceStore.open(store_url) as store:
        assert not store.embedding_sets()  # nothing stored under either model


def test_the_wait_says_when_tasks_sit_in_the_queue_and_no_worker_takes_them(
    shared: dict[str, str], tmp_path: Path
) -> None:
    url, store_url = shared["CITEWISE_BROKER_URL"], shared["CITEWISE_STORE"]
    notes: list[str] = []

    class Stop(Exception):
        pass

    def sleep(_s: float) -> None:
        if notes:
            raise Stop
        time.sleep(0.1)

    with EvidenceStore.open(store_url) as store:
        ingest_paths(store, [_corpus(tmp_path / "docs", files=1, sections=2)])
        job = enqueue_embedding(url, store, NAME, HashingEmbedder(), per_task=2)
        with pytest.raises(Stop):
            wait_for_vectors(url, store, job, note=notes.append, quiet_s=0.5, sleep=sleep)
    assert len(notes) == 1 and "2 tasks wait in the queue" in notes[0] and "citewise worker" in notes[0]
