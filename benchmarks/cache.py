"""Cache hit latency, and a research run cold vs within the cache's time-to-live.

    python benchmarks/cache.py                       # SQLite store, 300 lookups, latencies x0.2
    python benchmarks/cache.py --postgres            # also on a throwaway PostgreSQL server
    python benchmarks/cache.py --lookups 1000 --scale 1

Part 1 — lookups: ``--lookups`` cached search answers (10 hits each) and pages (~20 kB each) are
written through :class:`~citewise.providers.cached.CachedSearch` / ``CachedExtractor``, then looked
up: median and p95 milliseconds of a hit (a read, the hit counted on its row in a write transaction,
the answer decoded) and of a miss (one read).

Part 2 — a research run: the deterministic loop against the fake Tavily with realistic latencies
(search 0.8 s, extract 1.5 s per call, multiplied by ``--scale``), once cold and once again within the
time-to-live: wall time and requests that reached the provider. The machine is shared, so the load
average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from citewise.config import Secret  # noqa: E402
from citewise.providers.cached import CachedExtractor, CachedSearch  # noqa: E402
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings  # noqa: E402
from citewise.records.providers import ExtractedPage, ExtractResponse, SearchResponse, SearchResult  # noqa: E402
from citewise.research.caching import cached_providers, page_key  # noqa: E402
from citewise.research.loop import research  # noqa: E402
from citewise.research.settings import ResearchSettings  # noqa: E402
from citewise.research.urls import query_key  # noqa: E402
from citewise.store.cache import ProviderCache  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.testing.fake_tavily import FakeExtractReply, FakeSearchReply, FakeTavilyServer  # noqa: E402

TTL = timedelta(hours=24)
KEY = "tvly-benchmark"
PARAGRAPH = "Deposits are protected by the scheme for the whole tenancy, and returned within ten days. "


class _Offline:
    """A provider that answers at once (part 1 measures the cache, not a network)."""

    name = "bench"
    options = {"depth": "basic"}
    url_schemes = ("http", "https")

    def search(self, query: str) -> SearchResponse:
        hits = tuple(
            SearchResult(f"https://site{n}.example/{query_key(query)}", f"Hit {n}", PARAGRAPH, 0.9, n, "bench", query)
            for n in range(1, 11)
        )
        return SearchResponse(query, hits, "bench", datetime.now(UTC))

    def extract(self, urls: Any) -> ExtractResponse:
        pages = tuple(ExtractedPage(u, f"# {u}\n\n" + PARAGRAPH * 220, "bench") for u in urls)
        return ExtractResponse(pages, (), "bench", datetime.now(UTC))

    def close(self) -> None:
        """Nothing to release."""


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered) * 1000:6.2f} ms  p95 {p95 * 1000:6.2f} ms"


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def lookups(store: EvidenceStore, count: int) -> None:
    cache = ProviderCache(store)
    search = CachedSearch(_Offline(), cache, ttl=TTL, target_key=query_key)
    pages = CachedExtractor(_Offline(), cache, ttl=TTL, target_key=page_key(("http", "https")))
    queries = [f"deposit protection question {n}" for n in range(count)]
    urls = [f"https://law{n}.example/act" for n in range(count)]
    write = [_timed(lambda q=q: search.search(q)) for q in queries]
    write += [_timed(lambda u=u: pages.extract([u])) for u in urls]
    hit_search = [_timed(lambda q=q: search.lookup(q)) for q in queries]
    hit_page = [_timed(lambda u=u: pages.lookup(u)) for u in urls]
    miss = [_timed(lambda q=q: search.lookup(q + " unseen")) for q in queries]
    stats = cache.stats()
    print(f"  {stats.entries} entries, {stats.size_bytes / 1e6:.1f} MB, {stats.hits} hits recorded")
    print(f"  write-through (call + store)   {_ms(write)}")
    print(f"  hit: search answer (10 hits)   {_ms(hit_search)}")
    print(f"  hit: page (~20 kB)             {_ms(hit_page)}")
    print(f"  miss                           {_ms(miss)}")


def research_run(store: EvidenceStore, scale: float) -> None:
    def search_reply(body: Any) -> FakeSearchReply:
        slug = "-".join(str(body["query"]).lower().split())[:40]
        urls = [f"https://site{n}.example/{slug}" for n in (1, 2)]
        return FakeSearchReply([{"url": u, "title": u, "content": "snippet"} for u in urls], delay=0.8 * scale)

    def extract_reply(body: Any) -> FakeExtractReply:
        text = "# Deposits\n\n" + PARAGRAPH * 40
        return FakeExtractReply([{"url": u, "raw_content": text} for u in body["urls"]], delay=1.5 * scale)

    with FakeTavilyServer(api_key=KEY, search_responder=search_reply, extract_responder=extract_reply) as tavily:
        settings_ = TavilySettings(api_key=Secret(KEY), base_url=tavily.base_url, timeout_s=30)
        with TavilyConnection(settings_) as connection:
            search, extractor = cached_providers(
                store, TavilySearch(connection=connection), TavilyExtract(connection=connection), TTL
            )
            settings = ResearchSettings(search=search, extractor=extractor, cache_ttl=TTL)
            for label in ("cold", "within the TTL"):
                before = len(tavily.requests)
                started = time.perf_counter()
                result = research(store, "How are tenants' rental deposits protected?", settings)
                wall = time.perf_counter() - started
                print(
                    f"  {label:15s} {wall:6.2f} s  provider requests {len(tavily.requests) - before}  "
                    f"searches {result.usage.searches}  pages {result.usage.extractions}  sources {len(result.sources)}"
                )


def _stores(postgres: bool) -> Iterator[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        yield "sqlite", str(Path(tmp) / "cache.sqlite")
        if postgres:
            from citewise.testing.postgres import PostgresCluster

            with PostgresCluster.start() as cluster:
                yield "postgresql", cluster.create_database()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lookups", type=int, default=300)
    parser.add_argument("--scale", type=float, default=0.2, help="multiplies the fake provider's latencies")
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway PostgreSQL server")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    for backend, url in _stores(args.postgres):
        print(f"{backend}: {args.lookups} lookups of each kind")
        with EvidenceStore.open(url) as store:
            lookups(store, args.lookups)
        print(f"{backend}: a research run (latencies x{args.scale})")
        with EvidenceStore.open(url) as store:
            ProviderCache(store).clear()
            research_run(store, args.scale)
    print(f"load average {os.getloadavg()[0]:.2f} (after)")


if __name__ == "__main__":
    main()
