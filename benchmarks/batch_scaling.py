"""How batch research scales with workers, and where a shared rate limit binds.

    python benchmarks/batch_scaling.py [--questions 16] [--workers 1,2,4,8] [--rate tavily=4/s]
        [--search-latency 0.4] [--model-latency 0.8] [--celery]

Runs `citewise batch` (embedded mode: worker processes over one SQLite store; with ``--celery`` also
the distributed mode: Celery workers on a throwaway Redis and PostgreSQL) against the loopback
fake Tavily and model servers with realistic latencies, once per worker count, and prints questions
per minute, wall time, cost per accepted report (fake models priced at $1/$4 per million tokens)
and the time workers spent waiting for the shared rate limit. Runs are I/O bound on the providers,
so throughput should grow about linearly with workers until the rate limit (or the machine's cores,
for the CPU citewise spends per run) binds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.loop_harness import Brain, Web, covered, draft_citing, plan_reply  # noqa: E402
from tests.test_batch_research import MODEL_KEY, TAVILY_KEY, query_for  # noqa: E402

from citewise.testing.fake_openai import FakeOpenAIServer  # noqa: E402
from citewise.testing.fake_tavily import FakeTavilyServer  # noqa: E402

PRICES = """models:
  planner-x: {input: 1.0, output: 4.0}
  writer-y: {input: 1.0, output: 4.0}
tavily_credit: 0.008
extraction_per_page: 0
assumptions: {infrastructure_per_run: 0, maintenance_per_month: 0, runs_per_month: 1,
  human_review_seconds_per_run: 0, human_review_rate_per_hour: 0}
"""


def one(
    workers: int,
    questions: int,
    rate: str | None,
    search_latency: float,
    model_latency: float,
    celery: tuple[str, str] | None = None,
) -> dict:
    """One batch on ``workers`` workers; ``celery``: (broker URL, PostgreSQL store URL) for the
    distributed mode (``workers`` Celery worker processes), else the embedded mode on SQLite."""
    web, brain = Web(), Brain()
    brain.script("plan", lambda data: plan_reply(queries=(query_for(data["question"]),)))
    brain.script("review", covered)
    brain.script("write", draft_citing("S1"))
    with (
        tempfile.TemporaryDirectory() as tmp,
        FakeTavilyServer(
            api_key=TAVILY_KEY, latency_s=search_latency, search_responder=web.search, extract_responder=web.extract
        ) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY, latency_s=model_latency) as model,
    ):
        model.responder = brain
        qfile = Path(tmp) / "q.jsonl"
        qfile.write_text(
            "".join(
                json.dumps({"id": f"q{i}", "question": f"How are deposits protected, case {i}?"}) + "\n"
                for i in range(questions)
            ),
            encoding="utf-8",
        )
        (Path(tmp) / "prices.yaml").write_text(PRICES, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CITEWISE_", "TAVILY", "COMETAPI"))}
        env.update(
            TAVILY_API_KEY=TAVILY_KEY,
            CITEWISE_TAVILY_BASE_URL=tavily.base_url,
            COMETAPI_KEY=MODEL_KEY,
            CITEWISE_LLM_BASE_URL=model.base_url,
            PLANNER_MODEL="planner-x",
            WRITER_MODEL="writer-y",
            CITEWISE_EMBEDDER="none",
            CITEWISE_PRICES=str(Path(tmp) / "prices.yaml"),
            PYTHONPATH=os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]),
        )
        store = celery[1] if celery else str(Path(tmp) / "s.sqlite")
        command = [sys.executable, "-m", "citewise", "batch", str(qfile), "--workers", str(workers), "--store", store]
        command += ["--json", *(["--rate", rate] if rate else [])]
        pool = []
        if celery:
            env.update(CITEWISE_BROKER_URL=celery[0], CITEWISE_STORE=celery[1])
            worker = [sys.executable, "-m", "citewise", "worker", "--concurrency", "1"]
            pool = [subprocess.Popen(worker, env=env, stderr=subprocess.DEVNULL) for _ in range(workers)]
        started = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
        wall = time.perf_counter() - started
        for proc in pool:
            proc.terminate()
            proc.wait(timeout=60)
        summary = json.loads(done.stdout)
        waited = sum(float(w) for w in re.findall(r"([0-9.]+) s\s+waiting for rate limits", done.stderr))
    return {
        "mode": "celery" if celery else "embedded",
        "workers": workers,
        "questions": questions,
        "accepted": summary["accepted"],
        "wall_s": round(wall, 1),
        "questions_per_min": round(questions / wall * 60, 1),
        "cost_per_accepted_usd": summary["cost_per_accepted_usd"],
        "rate_wait_s": round(waited, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=16)
    parser.add_argument("--workers", default="1,2,4,8")
    parser.add_argument("--rate", default=None, help="e.g. tavily=4/s: where does it bind?")
    parser.add_argument("--search-latency", type=float, default=0.4)
    parser.add_argument("--model-latency", type=float, default=0.8)
    parser.add_argument("--celery", action="store_true", help="also run the distributed mode (Redis + PostgreSQL)")
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    rows = [one(w, args.questions, args.rate, args.search_latency, args.model_latency) for w in counts]
    if args.celery:
        from citewise.testing.postgres import PostgresCluster
        from citewise.testing.redis import RedisServer

        with RedisServer.start() as broker, PostgresCluster.start() as cluster:
            for w in counts:
                infra = (broker.url, cluster.create_database())
                rows.append(one(w, args.questions, args.rate, args.search_latency, args.model_latency, infra))
    print(
        f"load average {os.getloadavg()[0]:.1f}; rate limit {args.rate or 'none'}; "
        f"latency search {args.search_latency}s, model {args.model_latency}s"
    )
    print("| mode | workers | questions | accepted | wall s | questions/min | cost per accepted USD | rate wait s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['mode']} | {r['workers']} | {r['questions']} | {r['accepted']} | {r['wall_s']} "
            f"| {r['questions_per_min']} | {r['cost_per_accepted_usd']} | {r['rate_wait_s']} |"
        )


if __name__ == "__main__":
    main()
