"""Batch research end to end: `citewise batch` on worker processes against the fake Tavily and model
servers (real clients, real sockets), with a worker killed mid-run, shared rate limits, a batch money
cap, and a resume after everything was killed."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from citewise.audit.events import AttemptInterrupted, ModelCallStarted, RunResumed, SourceStored
from citewise.records.batch import ItemStatus
from citewise.store.batches import BatchStore
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.testing.fake_openai import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyServer
from tests.conftest import REPO
from tests.loop_harness import Brain, Web, covered, draft_citing, plan_reply

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TAVILY_KEY = "tvly-batch-5c1e2d"
MODEL_KEY = "sk-batch-8a7f3b"


def query_for(question: str) -> str:
    return "deposit law " + hashlib.sha256(question.encode()).hexdigest()[:8]


@dataclass
class World:
    tavily: FakeTavilyServer
    model: FakeOpenAIServer
    web: Web
    brain: Brain
    tavily_times: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEWISE_", "TAVILY", "COMETAPI"))}
        env.update(
            TAVILY_API_KEY=TAVILY_KEY,
            CITEWISE_TAVILY_BASE_URL=self.tavily.base_url,
            COMETAPI_KEY=MODEL_KEY,
            CITEWISE_LLM_BASE_URL=self.model.base_url,
            PLANNER_MODEL="planner-x",
            WRITER_MODEL="writer-y",
            CITEWISE_EMBEDDER="none",
            PYTHONPATH=os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]),
        )
        env.update(extra)
        return env

    def searched(self) -> list[str]:
        return [r.json["query"] for r in self.tavily.requests if r.path.rstrip("/") == "/search"]

    def extracted(self) -> list[str]:
        return [u for r in self.tavily.requests if r.path.rstrip("/") == "/extract" for u in r.json["urls"]]


@pytest.fixture
def world() -> Iterator[World]:
    web, brain = Web(), Brain()
    holder: list[World] = []

    def timed(answer: Any) -> Any:
        def respond(body: Any) -> Any:
            with holder[0].lock:
                holder[0].tavily_times.append(time.monotonic())
            return answer(body)

        return respond

    with (
        FakeTavilyServer(
            api_key=TAVILY_KEY, latency_s=0.05, search_responder=timed(web.search), extract_responder=timed(web.extract)
        ) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY, latency_s=0.05) as model,
    ):
        model.responder = brain
        brain.script("plan", lambda data: plan_reply(queries=(query_for(data["question"]),)))
        brain.script("review", covered)
        brain.script("write", draft_citing("S1"))
        holder.append(World(tavily, model, web, brain))
        yield holder[0]


def questions(path: Path, n: int, *, bad: bool = False) -> Path:
    rows = [
        json.dumps({"id": f"q{i:02d}", "question": f"How are rental deposits protected in case {i}?"}) for i in range(n)
    ]
    if bad:
        rows.insert(3, "{broken")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def batch(world: World, store: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "citewise", "batch", *args, "--store", store, "--json"]
    return subprocess.Popen(command, env=env or world.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(proc: subprocess.Popen[str], timeout: float = 240) -> dict[str, Any]:
    out, err = proc.communicate(timeout=timeout)
    assert out.strip(), err[-3000:]
    summary: dict[str, Any] = json.loads(out)
    assert "error" not in summary, (summary, err[-3000:])
    summary["stderr"] = err
    return summary


def no_recorded_call_repeated(world: World, store_url: str) -> None:
    """Every search, extraction and plan call was sent once, unless the run recorded it as cut off."""
    with EvidenceStore.open(store_url) as store:
        runs = RunStore(store)
        records = [runs.get(i.run_id) for b in BatchStore(store).list() for i in b.items if i.run_id]
    cut = [a for r in records for a in r.of(AttemptInterrupted)]
    for query in set(world.searched()):
        allowed = 1 + sum(1 for a in cut if a.target == query)
        assert world.searched().count(query) <= allowed, query
    for url in set(world.extracted()):
        allowed = 1 + sum(1 for a in cut if a.target == url)
        assert world.extracted().count(url) <= allowed, url
    plans = [data["question"] for purpose, data in world.brain.seen if purpose == "plan"]
    for record in records:
        started = sum(1 for e in record.of(ModelCallStarted) if e.purpose == "plan")
        assert plans.count(record.question) <= max(1, started), record.question


def test_twenty_questions_on_four_workers_finish_within_the_shared_rate_limit(world: World, tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    summary = finished(
        batch(
            world, store, str(questions(tmp_path / "q.jsonl", 20, bad=True)), "--workers", "4", "--rate", "tavily=8/s"
        )
    )
    assert summary["total"] == 21 and summary["counts"]["done"] == 20 and summary["counts"]["failed"] == 1
    (bad,) = [i for i in summary["items"] if i["status"] == "failed"]
    assert bad["line_no"] == 4 and bad["error"].startswith("line 4: not JSON")  # it failed alone
    assert summary["accepted"] == 20
    assert len(world.searched()) == 20  # one search per question, none repeated
    times = sorted(world.tavily_times)
    assert len(times) == 40  # a search and an extraction per question
    # A bucket of 8 tokens a second, burst 1: any 9 requests in a row span at least a second at the
    # moment their tokens are taken. They are timed where the fake receives them, which a busy
    # machine delays by a scheduling slice or two, so 0.15 s is allowed for that; over all 40 the
    # rate holds within the same allowance.
    for i in range(len(times) - 8):
        assert times[i + 8] - times[i] >= 1.0 - 0.15, (i, times[i : i + 9])
    assert times[-1] - times[0] >= (len(times) - 1) / 8 - 0.15
    no_recorded_call_repeated(world, store)


def test_a_worker_killed_mid_run_loses_nothing_and_repeats_no_recorded_call(world: World, tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    world.tavily.latency_s = 0.3  # runs long enough to be caught in the middle
    world.model.latency_s = 0.3  # and still running after its first source: review and report to go
    proc = batch(world, store, str(questions(tmp_path / "q.jsonl", 8)), "--workers", "3")
    victim = _wait_for_a_run_with_a_source(store)
    os.kill(victim, signal.SIGKILL)
    summary = finished(proc)
    assert summary["counts"]["done"] == 8, summary["stderr"][-2000:]
    taken = [i for i in summary["items"] if i["claims"] > 1]
    assert taken, "the killed worker's line was taken over"
    with EvidenceStore.open(store) as s:
        runs = RunStore(s)
        for item in taken:
            record = runs.get(item["run_id"])
            assert record.of(RunResumed)  # the same run went on, not a new one
            assert len({e.source.url for e in record.of(SourceStored)}) == len(record.of(SourceStored)) >= 1
        assert len(runs.list(100)) == 8  # one run per line
    no_recorded_call_repeated(world, store)


def test_a_batch_money_cap_stops_new_calls_across_workers(world: World, tmp_path: Path) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text(
        "models:\n  planner-x: {input: 10.0, output: 10.0}\n  writer-y: {input: 10.0, output: 10.0}\n"
        "tavily_credit: 0.008\nextraction_per_page: 0\n"
        "assumptions: {infrastructure_per_run: 0, maintenance_per_month: 0, runs_per_month: 1, "
        "human_review_seconds_per_run: 0, human_review_rate_per_hour: 0}\n",
        encoding="utf-8",
    )
    store = str(tmp_path / "s.sqlite")
    args = [str(questions(tmp_path / "q.jsonl", 12)), "--workers", "3", "--max-cost", "0.3", "--prices", str(prices)]
    summary = finished(batch(world, store, *args))
    assert summary["counts"]["done"] + summary["counts"]["failed"] == 12
    assert float(summary["cost_usd"]) <= 0.3  # measured from the runs' recorded usage
    assert float(summary["committed_usd"]) <= 0.3
    assert 1 <= summary["accepted"] < 12  # some reports were paid for; then the cap stopped the rest
    plans = [p for p, _ in world.brain.seen if p == "plan"]
    assert len(plans) < 12  # later lines made no model call at all


def test_resume_after_everything_was_killed_continues_where_it_stopped(world: World, tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    world.tavily.latency_s = 0.3
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "citewise",
            "batch",
            str(questions(tmp_path / "q.jsonl", 6)),
            "--workers",
            "2",
            "--store",
            store,
            "--json",
        ],
        env=world.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    _wait_for_a_run_with_a_source(store)
    os.killpg(proc.pid, signal.SIGKILL)  # the runner and every worker
    proc.communicate(timeout=30)
    with EvidenceStore.open(store) as s:
        (record,) = BatchStore(s).list()
    assert record.count(ItemStatus.DONE) < 6
    world.tavily.latency_s = 0.05
    summary = finished(batch(world, store, "resume", record.batch_id, "--workers", "2"))
    assert summary["counts"]["done"] == 6 and summary["accepted"] == 6
    no_recorded_call_repeated(world, store)


def _wait_for_a_run_with_a_source(store_url: str, timeout: float = 120) -> int:
    """The pid of a worker whose line's run has stored a source and not finished yet."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.1)
        if not Path(store_url).exists():
            continue
        try:
            with EvidenceStore.open(store_url) as s:
                batches = BatchStore(s).list()
                runs = RunStore(s)
                for item in (i for b in batches for i in b.items):
                    if item.status is ItemStatus.RUNNING and item.run_id and item.owner:
                        record = runs.get(item.run_id)
                        if record.of(SourceStored) and record.outcome is None:
                            return int(item.owner.rpartition(":")[2])
        except Exception:  # noqa: BLE001 - the store may be mid-creation; look again
            continue
    raise AssertionError("no run reached a stored source in time")


def test_the_python_api_runs_a_keyless_batch_on_the_local_store(sample_store_file: Path, tmp_path: Path) -> None:
    import shutil

    from citewise import Citewise

    store = tmp_path / "s.sqlite"
    shutil.copy(sample_store_file, store)
    qfile = tmp_path / "q.jsonl"
    qfile.write_text(
        json.dumps({"id": "deposit", "question": "임대차 기간이 끝났는데 보증금을 돌려받지 못하면 어떻게 하나요"})
        + "\n{oops\n",
        encoding="utf-8",
    )
    with Citewise(store=str(store)) as cw:
        summary = cw.batch(qfile, workers=1, search="local", no_model=True)
        assert cw.batch_status(summary.batch_id).counts == summary.counts
    assert summary.counts["done"] == 1 and summary.counts["failed"] == 1 and summary.accepted == 1
    assert summary.cost_per_accepted_usd == 0  # keyless: nothing paid
