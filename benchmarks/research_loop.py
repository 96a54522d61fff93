"""Wall time of a three-round research run against fake servers with realistic latencies.

    python benchmarks/research_loop.py

Latencies: search 0.8 s, extract 1.5 s per call, model 3 s plus output tokens at 50 per second. The
scripted reviewer always leaves one topic missing with a new follow-up query, so the run uses all
three rounds at the default budgets (8 searches, 12 page extractions). Reports, for the concurrent and
the sequential run: wall time, the critical-path floor (the plan call plus, per round, the slowest
search + the slowest extraction + the review call + the draft call, from the recorded latencies), the
ratio of the two, and the non-network overhead (wall time minus the floor).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from citewise.audit.events import AttemptEnded, ModelCallEnded  # noqa: E402
from citewise.config import Secret  # noqa: E402
from citewise.llm import ChatClient, ModelSettings  # noqa: E402
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings  # noqa: E402
from citewise.research import prompts  # noqa: E402
from citewise.research.loop import research  # noqa: E402
from citewise.research.records import AttemptKind  # noqa: E402
from citewise.research.settings import ResearchSettings  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.runs import RunRecord, RunStore  # noqa: E402
from citewise.testing import FakeOpenAIServer, FakeReply, FakeTavilyServer  # noqa: E402
from citewise.testing.fake_tavily import FakeExtractReply, FakeSearchReply  # noqa: E402

QUESTION = "How did deposit protection rules for tenants change, and what do they cost landlords?"
TOPICS = ["What changed in deposit protection rules?", "What do the rules cost landlords?", "When did they apply?"]


@dataclass(frozen=True)
class Latencies:
    """How long the fake servers take to answer."""

    search_s: float = 0.8
    """Per search call."""
    extract_s: float = 1.5
    """Per extraction call."""
    model_s: float = 3.0
    """Per model call, before the output tokens."""
    tokens_per_s: float = 50.0
    """Model output speed."""

    def scaled(self, factor: float) -> Latencies:
        """Every wait multiplied by ``factor`` (a quick run keeps the shape of a real one)."""
        return Latencies(
            self.search_s * factor, self.extract_s * factor, self.model_s * factor, self.tokens_per_s / factor
        )


class _Web:
    """Five results per search; every page says the same two things."""

    def __init__(self, latencies: Latencies) -> None:
        self.latencies = latencies

    def search(self, request: Any) -> FakeSearchReply:
        query = str(request.get("query", ""))
        slug = "-".join(query.lower().split())[:48]
        results = [
            {
                "url": f"https://news.example/{slug}/{n}",
                "title": f"{query} {n}",
                "content": f"snippet {n}",
                "score": 0.9,
            }
            for n in range(1, 6)
        ]
        return FakeSearchReply(results, delay=self.latencies.search_s)

    def extract(self, request: Any) -> FakeExtractReply:
        urls = request.get("urls", [])
        pages = [
            {
                "url": u,
                "raw_content": f"# Report\n\nDeposit protection rules changed in 2024 for {u}.\n\nLandlords pay a fee.",
            }
            for u in urls
        ]
        return FakeExtractReply(pages, delay=self.latencies.extract_s)


class _Model:
    """Plans, reviews (one topic always missing, with a new follow-up) and writes."""

    def __init__(self, latencies: Latencies) -> None:
        self.reviews = 0
        self.delay = latencies.model_s

    def __call__(self, request: Any) -> FakeReply:
        system = request["messages"][0]["content"]
        data = json.loads(request["messages"][-1]["content"])
        if system.startswith(prompts.PLAN_SYSTEM_PROMPT[:200]) and "topics" not in data:
            body: Any = {"topics": TOPICS, "queries": ["deposit protection 2024", "landlord fee", "tenant rules"]}
        elif system.startswith(prompts.REVIEW_SYSTEM_PROMPT[:200]):
            self.reviews += 1
            source = data["sources"][0]
            quote = source["content"].splitlines()[-1][:40]
            body = {
                "topics": [
                    {
                        "topic": t,
                        "status": "covered",
                        "source_ids": [source["id"]],
                        "quotes": [{"source_id": source["id"], "quote": quote}],
                        "gap": None,
                        "follow_up_query": None,
                    }
                    for t in TOPICS[:-1]
                ]
                + [
                    {
                        "topic": TOPICS[-1],
                        "status": "missing",
                        "source_ids": [],
                        "quotes": [],
                        "gap": "no date",
                        "follow_up_query": f"deposit rules effective date {self.reviews}",
                    }
                ]
            }
        else:
            return FakeReply("Deposit protection changed in 2024 [S1]. Landlords pay a fee [S2].", delay=self.delay)
        return FakeReply(json.dumps(body), delay=self.delay)


def _floor(record: RunRecord) -> tuple[float, float]:
    """(critical-path floor, total network wait) from the recorded latencies."""
    floor = total = 0.0
    per_round: dict[int, dict[AttemptKind, float]] = {}
    for recorded in record.events:
        event = recorded.event
        if isinstance(event, AttemptEnded):
            a = event.attempt
            slot = per_round.setdefault(a.round, {AttemptKind.SEARCH: 0.0, AttemptKind.EXTRACT: 0.0})
            slot[a.kind] = max(slot.get(a.kind, 0.0), a.latency_s or 0.0)
            total += a.latency_s or 0.0
        elif isinstance(event, ModelCallEnded):
            floor += event.latency_s or 0.0
            total += event.latency_s or 0.0
    floor += sum(r[AttemptKind.SEARCH] + r[AttemptKind.EXTRACT] for r in per_round.values())
    return floor, total


def run_once(
    concurrent: bool, tmp: Path, store_url: str | None = None, latencies: Latencies = Latencies()
) -> dict[str, Any]:
    """One research run; the store is a new SQLite file in ``tmp`` unless ``store_url`` names another."""
    web = _Web(latencies)
    with FakeTavilyServer() as tavily, FakeOpenAIServer(tokens_per_s=latencies.tokens_per_s) as model:
        tavily.search_responder, tavily.extract_responder = web.search, web.extract
        model.responder = _Model(latencies)
        connection = TavilyConnection(TavilySettings(api_key=Secret("tvly-bench"), base_url=tavily.base_url))
        client = ChatClient(ModelSettings(api_key=Secret("sk-bench"), base_url=model.base_url, timeout_s=60))
        url = store_url or str(tmp / f"bench-{concurrent}.sqlite")
        with connection, client, EvidenceStore.open(url) as store:
            settings = ResearchSettings(
                search=TavilySearch(connection=connection),
                extractor=TavilyExtract(connection=connection),
                client=client,
                planner_model="planner",
                writer_model="writer",
                concurrent=concurrent,
            )
            started = time.perf_counter()
            result = research(store, QUESTION, settings)
            wall = time.perf_counter() - started
            floor, network = _floor(RunStore(store).get(result.run_id))
    return {
        "wall_s": wall,
        "floor_s": floor,
        "network_s": network,
        "rounds": len(result.reviews),
        "sources": len(result.sources),
        "stop": result.stop_reason.value,
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        concurrent = run_once(True, Path(tmp))
        sequential = run_once(False, Path(tmp))
    print("| run | rounds | sources | stop | wall s | critical-path floor s | wall / floor | overhead s |")
    print("|-----|--------|---------|------|--------|-----------------------|--------------|------------|")
    for name, r in (("concurrent", concurrent), ("sequential", sequential)):
        print(
            f"| {name} | {r['rounds']} | {r['sources']} | {r['stop']} | {r['wall_s']:.2f} | {r['floor_s']:.2f} | "
            f"{r['wall_s'] / r['floor_s']:.3f} | {r['wall_s'] - r['floor_s']:.2f} |"
        )
    print(f"\nsequential / concurrent wall time: {sequential['wall_s'] / concurrent['wall_s']:.2f}")
    print(
        f"non-network overhead (concurrent run, wall minus floor): {concurrent['wall_s'] - concurrent['floor_s']:.2f} s"
    )


if __name__ == "__main__":
    main()
