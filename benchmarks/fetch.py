"""citewise's own fetcher: throughput, memory, extraction time, and URL handling by the standard.

    python benchmarks/fetch.py [--pages 200] [--only fetch|extract|urls]

* **fetch**: a loopback site (:class:`citewise.testing.fake_web.FakeWeb`) serves 200 realistic
  article pages (the news fixture, each page's text made different); the ``own`` extractor fetches
  and reads all of them with 1, 4 and 16 concurrent fetches (robots.txt included, read once).
  Prints pages/s and the process's peak RSS.
* **extract**: time to read one page once fetched (trafilatura + dates for HTML, pypdf for PDF).
* **urls**: on the table tests/fixtures/urls/whatwg_cases.json, how many invalid inputs
  ``normalize_url`` accepts, and how many valid ones get a host other than the standard's (or are
  refused because the host is not public, as intended). Run it with another tree first on
  ``PYTHONPATH`` to measure that tree's normaliser.

The machine is shared: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
PAGES = ROOT / "tests" / "fixtures" / "pages"
TABLE = ROOT / "tests" / "fixtures" / "urls" / "whatwg_cases.json"


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_fetch(pages: int) -> None:
    from citewise.fetch.client import Fetcher, FetchSettings
    from citewise.fetch.guard import AddressPolicy
    from citewise.providers.own import OwnExtractor
    from citewise.testing.fake_web import FakeWeb

    template = (PAGES / "news_article.html").read_text(encoding="utf-8")
    with FakeWeb() as web:
        web.page("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
        urls = []
        for i in range(pages):
            body = template.replace("the first increase in 23 years", f"the first increase in 23 years (page {i})")
            urls.append(web.page(f"/economy/2024/11/18/story-{i}", body))
        policy = AddressPolicy(allow=frozenset({("127.0.0.1", web.port)}))
        print(f"fetch + read {pages} HTML pages from a loopback server ({_load()})")
        for concurrency in (1, 4, 16):
            with Fetcher(FetchSettings(), policy=policy, max_connections=concurrency) as fetcher:
                extractor = OwnExtractor(fetcher=fetcher, concurrency=concurrency)
                started = time.perf_counter()
                response = extractor.extract(urls)
                elapsed = time.perf_counter() - started
            read = len(response.pages)
            print(
                f"  {concurrency:>2} concurrent: {read}/{pages} read, {pages / elapsed:6.1f} pages/s, "
                f"{elapsed:5.2f} s; peak RSS so far {_rss_mib():.0f} MiB"
            )


def bench_extract(rounds: int = 40) -> None:
    from citewise.fetch.content import read_body

    html = (PAGES / "news_article.html").read_bytes()
    pdf = (PAGES / "report.pdf").read_bytes()
    print(f"read one fetched page ({_load()})")
    for label, body, media in (("HTML", html, "text/html"), ("PDF", pdf, "application/pdf")):
        read_body(body, media, None, "https://news.example/a")  # warm up imports and caches
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            read_body(body, media, None, "https://news.example/a")
            times.append(time.perf_counter() - started)
        print(
            f"  {label:<4} ({len(body):>5} bytes): median {statistics.median(times) * 1000:6.2f} ms, "
            f"max {max(times) * 1000:6.2f} ms over {rounds}"
        )


def _host(normalized: str) -> str:
    netloc = urlsplit(normalized).netloc
    if netloc.startswith("["):
        return netloc[: netloc.index("]") + 1]
    return netloc.rsplit(":", 1)[0] if ":" in netloc else netloc


def bench_urls() -> None:
    from citewise.research.urls import UnusableURL, normalize_url

    table = json.loads(TABLE.read_text(encoding="utf-8"))
    accepted = []
    for url in table["invalid"]:
        with contextlib.suppress(UnusableURL):
            accepted.append((url, normalize_url(url)))
    wrong, refused = [], []
    for url, host in table["valid"]:
        try:
            got = _host(normalize_url(url))
        except UnusableURL as exc:
            refused.append((url, str(exc)))
            continue
        if got != host:
            wrong.append((url, got, host))
    print(f"normalize_url from {sys.modules['citewise.research.urls'].__file__}")
    print(f"  invalid inputs accepted: {len(accepted)} of {len(table['invalid'])}")
    print(f"  valid inputs with another host than the standard's: {len(wrong)} of {len(table['valid'])}")
    print(f"  valid inputs refused (host not public, or a parse failure): {len(refused)} of {len(table['valid'])}")
    for url, got, host in wrong[:8]:
        print(f"    {url!r}: {got!r}, the standard says {host!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--only", choices=("fetch", "extract", "urls"))
    args = parser.parse_args()
    if args.only in (None, "urls"):
        bench_urls()
    if args.only in (None, "extract"):
        bench_extract()
    if args.only in (None, "fetch"):
        bench_fetch(args.pages)


if __name__ == "__main__":
    main()
