"""Drive an earlier revision's research loop (the seed loop) against servers another process runs.

:mod:`research_loop` runs this file in a subprocess whose ``PYTHONPATH`` is that revision's ``src``
(unpacked with ``git archive``), so every ``citewise`` import below is the earlier code. It starts no
server: the fake Tavily and model servers, with their pages, scripted judgements and latencies, live
in the parent (:mod:`research_world`), so both revisions meet the same world. It prints one JSON
object on its last line.

    PYTHONPATH=<seed>/src python benchmarks/research_seed.py prompts
    PYTHONPATH=<seed>/src python benchmarks/research_seed.py run --tavily URL --model URL --store PATH

The seed's API (2026-11-30): ``research(store, question, settings)`` with ``ResearchSettings(search,
extractor, client, planner_model, writer_model, concurrent)``; run events as ``stage``/``payload``
dicts (``attempt``, ``model_call``). Only this driver adapts to it; the seed's code runs unchanged.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any


def _prompts() -> dict[str, Any]:
    from citewise.research import prompts

    return {"plan": prompts.PLAN_SYSTEM_PROMPT[:200], "review": prompts.REVIEW_SYSTEM_PROMPT[:200]}


def _figures(record: Any) -> dict[str, Any]:
    """Critical-path floor, model calls and output tokens from the seed's ``stage``/``payload`` events."""
    floor = 0.0
    per_round: dict[int, dict[str, float]] = {}
    calls = out = 0
    for event in record.events:
        if event.stage == "attempt":
            a = event.payload["attempt"]
            slot = per_round.setdefault(a["round"], {"search": 0.0, "extract": 0.0})
            slot[a["kind"]] = max(slot.get(a["kind"], 0.0), a["latency_s"] or 0.0)
        elif event.stage == "model_call":
            calls += 1
            floor += event.payload["latency_s"] or 0.0
            out += event.payload["completion_tokens"] or 0
    floor += sum(r["search"] + r["extract"] for r in per_round.values())
    return {"floor_s": floor, "calls": calls, "out_tokens": out}


def _run(tavily_url: str, model_url: str, store_url: str, concurrent: bool, question: str) -> dict[str, Any]:
    from citewise.config import Secret
    from citewise.llm import ChatClient, ModelSettings
    from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
    from citewise.research.loop import research
    from citewise.research.settings import ResearchSettings
    from citewise.store.evidence import EvidenceStore
    from citewise.store.runs import RunStore

    connection = TavilyConnection(TavilySettings(api_key=Secret("tvly-bench"), base_url=tavily_url))
    client = ChatClient(ModelSettings(api_key=Secret("sk-bench"), base_url=model_url, timeout_s=60))
    with connection, client, EvidenceStore.open(store_url) as store:
        settings = ResearchSettings(
            search=TavilySearch(connection=connection),
            extractor=TavilyExtract(connection=connection),
            client=client,
            planner_model="planner",
            writer_model="writer",
            concurrent=concurrent,
        )
        started = time.perf_counter()
        result = research(store, question, settings)
        wall = time.perf_counter() - started
        figures = _figures(RunStore(store).get(result.run_id))
    return {
        "wall_s": wall,
        "rounds": len(result.reviews),
        "sources": len(result.sources),
        "stop": result.stop_reason.value,
        "status": str(result.status),
        "coverage": [[str(getattr(i.status, "value", i.status)) for i in r.items] for r in result.reviews],
        **figures,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("prompts", "run"))
    parser.add_argument("--tavily", help="base URL of the fake Tavily server")
    parser.add_argument("--model", help="base URL of the fake model server")
    parser.add_argument("--store", help="store URL or SQLite path for the run")
    parser.add_argument("--question", default="")
    parser.add_argument("--sequential", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "prompts":
        print(json.dumps(_prompts()))
        return
    if not (args.tavily and args.model and args.store and args.question):
        parser.error("run needs --tavily, --model, --store and --question")
    print(json.dumps(_run(args.tavily, args.model, args.store, not args.sequential, args.question)))


if __name__ == "__main__":
    main()
