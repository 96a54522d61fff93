"""Distributed batches: real Redis (broker) and real PostgreSQL (store), started by the fixtures, with
Celery workers as separate processes and the fake Tavily and model servers behind them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citewise.records.batch import ItemStatus
from citewise.store.batches import BatchStore
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.testing.redis import redis_url  # noqa: F401  (fixture)
from tests.test_batch_research import World, finished, no_recorded_call_repeated, questions, world  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.slow]

pytest.importorskip("celery", reason="distributed batches need Celery: pip install 'citewise[distributed]'")


@pytest.fixture
def celery_env(world: World, redis_url: str, postgres_url: str) -> Iterator[dict[str, str]]:  # noqa: F811
    env = world.env(CITEWISE_BROKER_URL=redis_url, CITEWISE_STORE=postgres_url)
    with EvidenceStore.open(postgres_url):
        pass  # the schema exists before workers and the batch command race to create it
    yield env
    # a fresh queue for the next test
    subprocess.run([sys.executable, "-c", f"import redis; redis.Redis.from_url({redis_url!r}).flushall()"], check=True)


def _workers(env: dict[str, str], n: int, log: Path) -> list[subprocess.Popen[bytes]]:
    command = [sys.executable, "-m", "citewise", "worker", "--concurrency", "2"]
    with log.open("ab") as out:  # each child keeps its own descriptor
        return [subprocess.Popen(command, env=env, start_new_session=True, stderr=out) for _ in range(n)]


def _stop(workers: list[subprocess.Popen[bytes]]) -> None:
    for w in workers:
        if w.poll() is None:
            os.killpg(w.pid, signal.SIGTERM)
    for w in workers:
        try:
            w.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(w.pid, signal.SIGKILL)
            w.wait()


def test_a_distributed_batch_finishes_on_celery_workers_and_survives_a_killed_worker(
    world: World,  # noqa: F811
    celery_env: dict[str, str],
    tmp_path: Path,
) -> None:
    world.tavily.latency_s = 0.3
    # A line picked as the victim has stored a source; its review and report calls still take 0.3 s
    # each, so it is still running when it is killed (without this, on a busy machine the line
    # could finish between being picked and the kill, and nothing would be taken over).
    world.model.latency_s = 0.3
    store = celery_env["CITEWISE_STORE"]
    workers = _workers(celery_env, 2, tmp_path / "workers.log")
    try:
        command = [sys.executable, "-m", "citewise", "batch", str(questions(tmp_path / "q.jsonl", 8)), "--json"]
        proc = subprocess.Popen(command, env=celery_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        victim = _running_owner(store)
        os.kill(victim, signal.SIGKILL)  # one worker process, mid-run
        summary = finished(proc, timeout=300)
    finally:
        _stop(workers)
    log = (tmp_path / "workers.log").read_text(errors="replace")
    assert summary["counts"]["done"] == 8 and summary["accepted"] == 8, log[-3000:]
    assert any(i["claims"] > 1 for i in summary["items"])  # the killed process's line was taken over
    with EvidenceStore.open(store) as s:
        assert len(RunStore(s).list(100)) == 8  # one run per line, the interrupted one resumed
    no_recorded_call_repeated(world, store)


def _running_owner(store_url: str, timeout: float = 120) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.2)
        with EvidenceStore.open(store_url) as s:
            runs = RunStore(s)
            for item in (i for b in BatchStore(s).list() for i in b.items):
                if item.status is ItemStatus.RUNNING and item.run_id and item.owner:
                    from citewise.audit.events import SourceStored

                    if runs.get(item.run_id).of(SourceStored):
                        return int(item.owner.rpartition(":")[2])
    raise AssertionError("no distributed run reached a stored source in time")


def test_a_worker_killed_whole_has_its_lines_taken_over_by_lease_not_by_the_broker_timeout(
    world: World,  # noqa: F811
    celery_env: dict[str, str],
    tmp_path: Path,
) -> None:
    # The whole worker dies (its main process and children), so nothing rejects its tasks: Redis
    # would deliver them again only after the visibility timeout, set to an hour here. The waiting
    # batch re-queues the lines instead.
    world.tavily.latency_s = 0.3
    world.model.latency_s = 0.3
    env = {**celery_env, "CITEWISE_BROKER_VISIBILITY_S": "3600"}
    store = env["CITEWISE_STORE"]
    workers = _workers(env, 2, tmp_path / "workers.log")
    try:
        command = [sys.executable, "-m", "citewise", "batch", str(questions(tmp_path / "q.jsonl", 8)), "--json"]
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        child = _running_owner(store)
        victim = next(w for w in workers if os.getpgid(w.pid) == os.getpgid(child))
        killed_at = time.monotonic()
        os.killpg(victim.pid, signal.SIGKILL)  # main process and children: no task is rejected
        out, err = proc.communicate(timeout=300)
        took = time.monotonic() - killed_at
    finally:
        _stop(workers)
    log = (tmp_path / "workers.log").read_text(errors="replace")
    assert proc.returncode == 0, err[-3000:] + log[-2000:]
    summary = json.loads(out)
    assert summary["counts"]["done"] == 8 and summary["accepted"] == 8, err[-3000:]
    assert "re-queued line" in err and "the worker holding it stopped" in err
    assert took < 240  # far inside the broker's hour
    assert any(i["claims"] > 1 for i in summary["items"])
    no_recorded_call_repeated(world, store)
