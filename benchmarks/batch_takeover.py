"""A Celery worker killed whole in a distributed batch: how soon its lines are taken over, and what
it costs in provider calls.

    python benchmarks/batch_takeover.py [--questions 8] [--search-latency 0.3] [--model-latency 0.3]

Starts a throwaway Redis (the broker) and PostgreSQL (the store), the loopback fake Tavily and model
servers, and two `citewise worker` processes. One clean batch gives the provider calls a batch needs;
then, for each kill point, a new batch runs and one worker is killed with SIGKILL — its main process
and its children, so it rejects no task — when the first line reaches that point. The broker's
visibility timeout is an hour, so every line finished in time was taken over by the waiting
`citewise batch` (issue 23). Printed per kill point: lines finished, seconds from the kill until the
killed worker's line was claimed again and until the batch finished, and the searches, extractions
and model calls against the clean batch's (a resumed run repeats no recorded call, so the extra ones
are the calls the killed worker had in flight).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.loop_harness import Brain, Web, covered, draft_citing, plan_reply  # noqa: E402
from tests.test_batch_research import MODEL_KEY, TAVILY_KEY, query_for  # noqa: E402

from citewise.audit.events import ModelCallStarted, SourceStored  # noqa: E402
from citewise.records.batch import BatchItem, ItemStatus  # noqa: E402
from citewise.store.batches import BatchStore  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.runs import RunStore  # noqa: E402
from citewise.testing.fake_openai import FakeOpenAIServer  # noqa: E402
from citewise.testing.fake_tavily import FakeTavilyServer  # noqa: E402
from citewise.testing.postgres import PostgresCluster  # noqa: E402
from citewise.testing.redis import RedisServer  # noqa: E402

Point = Callable[[RunStore, BatchItem], bool]

KILL_POINTS: dict[str, Point] = {
    "line claimed": lambda runs, item: True,
    "source stored": lambda runs, item: item.run_id is not None and bool(runs.get(item.run_id).of(SourceStored)),
    "second model call": lambda runs, item: (
        item.run_id is not None and len(runs.get(item.run_id).of(ModelCallStarted)) >= 2
    ),
}


def _calls(tavily: FakeTavilyServer, model: FakeOpenAIServer) -> tuple[int, int, int]:
    paths = [r.path.rstrip("/") for r in tavily.requests]
    return paths.count("/search"), paths.count("/extract"), len(model.requests)


def _victim(store_url: str, point: Point, timeout: float = 120) -> BatchItem:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with EvidenceStore.open(store_url) as s:
            runs = RunStore(s)
            for item in (i for b in BatchStore(s).list(1) for i in b.items):
                if item.status is ItemStatus.RUNNING and item.owner and point(runs, item):
                    return item
        time.sleep(0.05)
    raise SystemExit("no line reached the kill point in time")


def _claimed_again(store_url: str, item: BatchItem, timeout: float = 300) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with EvidenceStore.open(store_url) as s:
            now = BatchStore(s).item(item.batch_id, item.line_no)
        if now.claims > item.claims or now.status is not ItemStatus.RUNNING:
            return time.monotonic()
        time.sleep(0.1)
    return float("nan")


def batch(args: argparse.Namespace, broker: str, store_url: str, kill: Point | None) -> dict[str, object]:
    web, brain = Web(), Brain()
    brain.script("plan", lambda data: plan_reply(queries=(query_for(data["question"]),)))
    brain.script("review", covered)
    brain.script("write", draft_citing("S1"))
    with (
        tempfile.TemporaryDirectory() as tmp,
        FakeTavilyServer(
            api_key=TAVILY_KEY,
            latency_s=args.search_latency,
            search_responder=web.search,
            extract_responder=web.extract,
        ) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY, latency_s=args.model_latency) as model,
    ):
        model.responder = brain
        qfile = Path(tmp) / "q.jsonl"
        qfile.write_text(
            "".join(
                json.dumps({"id": f"q{i}", "question": f"How are deposits protected, case {i}?"}) + "\n"
                for i in range(args.questions)
            ),
            encoding="utf-8",
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEWISE_", "TAVILY", "COMETAPI"))}
        env.update(
            TAVILY_API_KEY=TAVILY_KEY,
            CITEWISE_TAVILY_BASE_URL=tavily.base_url,
            COMETAPI_KEY=MODEL_KEY,
            CITEWISE_LLM_BASE_URL=model.base_url,
            PLANNER_MODEL="planner-x",
            WRITER_MODEL="writer-y",
            CITEWISE_EMBEDDER="none",
            CITEWISE_BROKER_URL=broker,
            CITEWISE_STORE=store_url,
            CITEWISE_BROKER_VISIBILITY_S="3600",
            PYTHONPATH=os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]),
        )
        worker = [sys.executable, "-m", "citewise", "worker", "--concurrency", "2"]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        pool = [subprocess.Popen(worker, env=env, start_new_session=True, **quiet) for _ in range(2)]
        command = [sys.executable, "-m", "citewise", "batch", str(qfile), "--json"]
        started = time.monotonic()
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        takeover_s = None
        killed_at = started
        if kill is not None:
            item = _victim(store_url, kill)
            owner_pid = int(str(item.owner).rpartition(":")[2])
            victim = next(w for w in pool if os.getpgid(w.pid) == os.getpgid(owner_pid))
            killed_at = time.monotonic()
            os.killpg(victim.pid, signal.SIGKILL)
            takeover_s = round(_claimed_again(store_url, item) - killed_at, 1)
        out, _ = proc.communicate(timeout=900)
        finished_s = round(time.monotonic() - killed_at, 1)
        for w in pool:
            if w.poll() is None:
                os.killpg(w.pid, signal.SIGTERM)
                w.wait(timeout=60)
        summary = json.loads(out)
        return {
            "done": summary["counts"]["done"],
            "takeover_s": takeover_s,
            "finished_s": finished_s,
            "calls": _calls(tavily, model),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=8)
    parser.add_argument("--search-latency", type=float, default=0.3)
    parser.add_argument("--model-latency", type=float, default=0.3)
    args = parser.parse_args()
    with RedisServer.start() as broker, PostgresCluster.start() as cluster:
        clean = batch(args, broker.url, cluster.create_database(), None)
        rows = [
            (name, batch(args, broker.url, cluster.create_database(), point)) for name, point in KILL_POINTS.items()
        ]
    s, e, m = clean["calls"]  # type: ignore[misc]
    print(
        f"load average {os.getloadavg()[0]:.1f}; {args.questions} lines, 2 workers of concurrency 2; "
        f"visibility timeout 3600 s; clean batch: {clean['done']} done in {clean['finished_s']} s, "
        f"calls search/extract/model {s}/{e}/{m}"
    )
    print("| killed at | lines done | kill -> takeover s | kill -> finished s | search/extract/model calls (clean) |")
    print("|---|---|---|---|---|")
    for name, r in rows:
        rs, re_, rm = r["calls"]  # type: ignore[misc]
        print(
            f"| {name} | {r['done']}/{args.questions} | {r['takeover_s']} | {r['finished_s']} "
            f"| {rs}/{re_}/{rm} ({s}/{e}/{m}) |"
        )


if __name__ == "__main__":
    main()
