"""Wall time of the evaluation experiments, sequential against concurrent, and per-cell overhead.

    python benchmarks/eval_experiments.py [--questions 6] [--writers 2] [--model-latency 0.5]

Against the loopback fake Tavily and model servers with a fixed latency per call: the evidence packs
are collected once, then `eval same-evidence` runs every (question, contender) cell at concurrency 1
and 4, then `eval end-to-end` with citewise's own loop at 1 and 4. citewise's own time per cell (sequential
runs) is wall time minus the fakes' answering time (calls x mean latency).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.loop_harness import Brain, Web, covered, draft_citing, plan_reply  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from citewise.cli import app  # noqa: E402
from citewise.testing.fake_openai import FakeOpenAIServer  # noqa: E402
from citewise.testing.fake_tavily import FakeTavilyServer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=6)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--model-latency", type=float, default=0.5)
    parser.add_argument("--search-latency", type=float, default=0.3)
    args = parser.parse_args()
    web, brain = Web(), Brain()
    brain.script("plan", lambda data: plan_reply(queries=(f"evidence {data['question'][-12:]}",)))
    brain.script("review", covered)
    brain.script("write", draft_citing("S1"))
    rows = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        FakeTavilyServer(
            api_key="tvly-bench",
            latency_s=args.search_latency,
            search_responder=web.search,
            extract_responder=web.extract,
        ) as tavily,
        FakeOpenAIServer(api_key="sk-bench", latency_s=args.model_latency) as model,
    ):
        model.responder = brain
        os.environ.update(
            CITEWISE_STORE=str(Path(tmp) / "s.sqlite"),
            TAVILY_API_KEY="tvly-bench",
            CITEWISE_TAVILY_BASE_URL=tavily.base_url,
            COMETAPI_KEY="sk-bench",
            CITEWISE_LLM_BASE_URL=model.base_url,
            PLANNER_MODEL="planner-x",
            WRITER_MODEL="writer-y",
            CITEWISE_EMBEDDER="none",
        )
        qfile = Path(tmp) / "q.jsonl"
        qfile.write_text(
            "".join(
                json.dumps(
                    {
                        "id": f"q{i}",
                        "question": f"How are deposits protected, case {i}?",
                        "category": "technical",
                        "required_subquestions": ["Which law protects deposits?"],
                    }
                )
                + "\n"
                for i in range(args.questions)
            ),
            encoding="utf-8",
        )
        runner = CliRunner()
        writers = ",".join(f"writer-{i}" for i in range(args.writers))

        def timed(*cli: str) -> tuple[float, dict]:
            calls = len(brain.seen) + len(tavily.requests)
            started = time.perf_counter()
            result = runner.invoke(app, [*cli, "--json"])
            wall = time.perf_counter() - started
            assert result.exit_code == 0, result.output[-2000:]
            made = len(brain.seen) + len(tavily.requests) - calls
            return wall, {"calls": made, "out": json.loads(result.stdout)}

        wall, first = timed(
            "eval", "same-evidence", "--questions", str(qfile), "--writers", writers, "--concurrency", "1"
        )
        rows.append(("same-evidence (packs collected)", 1, wall, first["calls"], len(first["out"]["cells"])))
        one_run_per_question = {c["question_id"]: c["score"]["run_id"] for c in first["out"]["cells"] if c["score"]}
        evidence = [a for run_id in one_run_per_question.values() for a in ("--evidence", run_id)]
        for concurrency in (1, 4):
            wall, got = timed(
                "eval",
                "same-evidence",
                "--questions",
                str(qfile),
                "--writers",
                writers,
                "--concurrency",
                str(concurrency),
                *evidence,
            )
            rows.append(("same-evidence", concurrency, wall, got["calls"], len(got["out"]["cells"])))
        for concurrency in (1, 4):
            wall, got = timed(
                "eval",
                "end-to-end",
                "--questions",
                str(qfile),
                "--engines",
                "citewise",
                "--concurrency",
                str(concurrency),
            )
            rows.append(("end-to-end (citewise)", concurrency, wall, got["calls"], len(got["out"]["cells"])))
    latency = (args.model_latency + args.search_latency) / 2
    print(
        f"load average {os.getloadavg()[0]:.1f}; fake latency model {args.model_latency}s, "
        f"search {args.search_latency}s; {args.questions} questions, {args.writers} writers"
    )
    print("| experiment | concurrency | cells | wall s | provider calls | s per cell | own s per cell (sequential) |")
    print("|---|---|---|---|---|---|---|")
    for name, concurrency, wall, calls, cells in rows:
        per = wall / max(1, cells)
        overhead = f"{max(0.0, (wall - calls * latency) / max(1, cells)):.2f}" if concurrency == 1 else ""
        print(f"| {name} | {concurrency} | {cells} | {wall:.1f} | {calls} | {per:.2f} | {overhead} |")


if __name__ == "__main__":
    main()
