"""Domain diversity on a multi-site run, and the browser layer's cost per page (issue 25).

    python benchmarks/sites_and_browser.py [--queries 3] [--pages 5]

Part 1 — a research run against the fake Tavily and model servers where one site (a republisher)
ranks first and second for every query and each query also has a page of its own site, some of
them copies of the republisher's text: printed with the site rule on (the default: at most half, one
page per site per round while others answer) and off (rank order alone; copies still fold):
sources, distinct sites, the largest site's share, and mirrors folded into their source.

Part 2 — the browser layer rendering a script-built page from a loopback server (its scripts fetch
its text, and try two addresses the guard refuses): wall time per page (median, max) and the peak
resident memory of the browser processes.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from tests.loop_harness import Brain, Web, covered, draft_citing, page, plan_reply  # noqa: E402
from tests.test_fetch_browser import APP, DATA  # noqa: E402

from citewise.config import Secret  # noqa: E402
from citewise.fetch.browser import BrowserFetcher, chromium_path  # noqa: E402
from citewise.fetch.client import Fetcher, FetchSettings  # noqa: E402
from citewise.fetch.guard import AddressPolicy  # noqa: E402
from citewise.llm import ChatClient, ModelSettings  # noqa: E402
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings  # noqa: E402
from citewise.records.budget import Budget  # noqa: E402
from citewise.research.loop import research  # noqa: E402
from citewise.research.settings import ResearchSettings  # noqa: E402
from citewise.research.sites import SitePolicy  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.testing.fake_openai import FakeOpenAIServer  # noqa: E402
from citewise.testing.fake_tavily import FakeTavilyServer  # noqa: E402
from citewise.testing.fake_web import FakeWeb  # noqa: E402


def _world(queries: int) -> tuple[Web, list[str]]:
    web = Web()
    names = [f"deposit question {i}" for i in range(queries)]
    for i, q in enumerate(names):
        own = f"https://site{i}.example/page"
        web.hits[q] = [f"https://republisher.example/{i}a", f"https://republisher.example/{i}b", own]
        text = page(f"act {i}") + "".join(f"\n\nClause {k} of act {i}: returned in {k} months." for k in range(6))
        web.pages.update(
            {
                f"https://republisher.example/{i}a": text,
                f"https://republisher.example/{i}b": page(f"republished {i} b"),
                own: text if i % 2 == 0 else page(f"own page {i}"),  # the even ones copy the republisher
            }
        )
    return web, names


def one_run(queries: int, policy: SitePolicy) -> dict[str, object]:
    web, names = _world(queries)
    brain = Brain()
    brain.script("plan", plan_reply(queries=names))
    brain.script("review", covered)
    brain.script("write", draft_citing("S1", "S2"))
    with (
        tempfile.TemporaryDirectory() as tmp,
        EvidenceStore.open(str(Path(tmp) / "s.sqlite")) as store,
        FakeTavilyServer(api_key="tvly-b", search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key="sk-b") as model,
    ):
        model.responder = brain
        ts = TavilySettings(api_key=Secret("tvly-b"), base_url=tavily.base_url, timeout_s=10)
        ms = ModelSettings(api_key=Secret("sk-b"), base_url=model.base_url, timeout_s=10)
        with TavilyConnection(ts) as connection, ChatClient(ms) as client:
            settings = ResearchSettings(
                search=TavilySearch(connection=connection),
                extractor=TavilyExtract(connection=connection),
                budget=Budget(max_rounds=1, max_searches=queries, max_extractions=3 * queries),
                client=client,
                planner_model="planner-x",
                writer_model="writer-y",
                pages_per_query=2,
                sites=policy,
            )
            result = research(store, "How are rental deposits protected?", settings)
    domains = [s.domain for s in result.sources]
    largest = max(domains.count(d) for d in set(domains)) if domains else 0
    return {
        "sources": len(domains),
        "sites": len(set(domains)),
        "largest_share": round(largest / len(domains), 2) if domains else 0.0,
        "mirrors": sum(len(s.mirrors) for s in result.sources),
    }


def browser_pages(pages: int) -> tuple[list[float], int]:
    times = []
    with FakeWeb() as site:
        site.page("/app", APP)
        site.page("/data.json", DATA, content_type="application/json")
        policy = AddressPolicy(allow=frozenset({("127.0.0.1", site.port)}))
        with (
            Fetcher(FetchSettings(respect_robots=False), policy=policy) as fetcher,
            BrowserFetcher(fetcher, executable=chromium_path()) as browser,
        ):
            for _ in range(pages):
                started = time.perf_counter()
                result = browser.fetch(site.url("/app"))
                times.append(time.perf_counter() - started)
                assert result.ok, result.reason
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return times, peak_kb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=3, help="1 to 3 (the planner gives at most 3)")
    parser.add_argument("--pages", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| site rule | sources | distinct sites | largest site's share | mirrors folded |")
    print("|---|---|---|---|---|")
    for label, policy in (("on (the default)", SitePolicy()), ("off (rank order only)", SitePolicy(spread=False))):
        r = one_run(args.queries, policy)
        print(f"| {label} | {r['sources']} | {r['sites']} | {r['largest_share']} | {r['mirrors']} |")
    times, peak_kb = browser_pages(args.pages)
    print(
        f"browser layer: {args.pages} pages, median {statistics.median(times):.2f} s, max {max(times):.2f} s per page "
        f"(a fresh browser each); peak resident memory of a browser process {peak_kb / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()
