"""Page render time of ``citewise serve``: p50/p95 of whole HTTP requests (routing, store reads,
templates, security headers) for

* the run page of a research run with 40 sources and 60 claims (and its HTML export);
* the runs list (first page, and a search) over a store of 10,000 runs.

    python benchmarks/web_render.py [--runs 10000] [--repeat 30]

The run is recorded by the real loop over the real Tavily client against the loopback fake, with
the deterministic planner and writer; the 10,000 runs are created through the run store. Requests go
through Starlette's test client in-process (no socket). Prints the load average with the figures:
the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("CITEWISE_EMBEDDER", "none")

from dataclasses import replace  # noqa: E402

from starlette.testclient import TestClient  # noqa: E402
from tests.web_runs import TOKEN, page_text, record_run  # noqa: E402

from citewise.audit.events import PlanMade, ReportMade, RunConfigured, SourceStored, Verified  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.runs import RunStatus, RunStore  # noqa: E402
from citewise.verify.service import verify_run  # noqa: E402
from citewise.web.app import create_app  # noqa: E402


def _timed(client: TestClient, path: str, repeat: int) -> tuple[float, float, int]:
    client.get(path)  # warm: templates compiled, caches filled
    times = []
    size = 0
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        size = len(response.content)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]
    return statistics.median(times), p95, size


def _big_run(store: EvidenceStore, sources: int = 40, claims: int = 60) -> str:
    """A recorded research run with ``sources`` stored pages and a report of ``claims`` cited claims,
    verified by the real verifier. The events are those of a real run (its settings, plan, a source)
    with more sources and a longer report appended the way the loop records them."""
    runs = RunStore(store)
    template = runs.get(record_run(store, sources=1, hostile=False))
    (first,) = template.of(SourceStored)
    run_id = runs.create("research", "How are rental deposits protected, rule by rule?")
    for recorded in template.events:
        if isinstance(recorded.event, (RunConfigured, PlanMade)):
            runs.append(run_id, recorded.event)
    for i in range(1, sources + 1):
        text = page_text(i)
        source = replace(
            first.source,
            source_id=f"S{i}",
            url=f"https://web{i}.example/deposits",
            normalized_url=f"https://web{i}.example/deposits",
            title=f"Deposit rule {i}",
            page_text=text,
            content=text,
            page_text_hash=None,
            content_hash=None,
        )
        runs.append(run_id, SourceStored(source))
    lines = ["## Deposits, rule by rule", ""]
    for k in range(claims):
        i = k % sources + 1
        fact = [
            f"Rental deposits rule {i} is protected under section {i} of the deposit act.",
            f"Tenants under rule {i} may claim {i}% interest on deposits.",
        ][k // sources % 2]
        lines.append(f"- {fact} [S{i}]")
    body = "\n".join(lines)
    report = template.last(ReportMade)
    assert report is not None
    runs.append(run_id, replace(report, markdown=f"# Deposits\n\n{body}\n", body=body, verified=False))
    runs.finish(run_id, status=RunStatus.FINISHED, outcome="report")
    verify_run(store, run_id)
    record = runs.get(run_id)
    verified = record.last(Verified)
    claims = len(verified.entries) if verified else 0
    print(f"run: {len(record.of(SourceStored))} sources, {claims} claims, {len(record.events)} events")
    return run_id


def _many_runs(store: EvidenceStore, count: int) -> None:
    runs = RunStore(store)
    started = time.perf_counter()
    for i in range(count):
        run_id = runs.create("ask" if i % 3 else "research", f"question {i} about deposits and leases")
        runs.finish(run_id, status=RunStatus.FINISHED, outcome="deterministic_evidence_fallback")
    print(f"created {count} runs in {time.perf_counter() - started:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite")
        with EvidenceStore.open(path) as store:
            run_id = _big_run(store)
            with TestClient(create_app(path, token=TOKEN), base_url="http://127.0.0.1:8765") as client:
                figures = [
                    ("run page (40 sources)", f"/runs/{run_id}"),
                    ("HTML export (40 sources)", f"/runs/{run_id}/export.html"),
                ]
                measured = [(name, *_timed(client, p, args.repeat)) for name, p in figures]
            _many_runs(store, args.runs)
            with TestClient(create_app(path, token=TOKEN), base_url="http://127.0.0.1:8765") as client:
                for name, p in (
                    (f"runs list ({args.runs + 1} runs), page 1", "/"),
                    (f"runs list ({args.runs + 1} runs), search", "/?q=question+999&kind=ask"),
                    (f"runs list ({args.runs + 1} runs), page 20", "/?page=20"),
                ):
                    measured.append((name, *_timed(client, p, args.repeat)))
    print(
        f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
        f"{args.repeat} requests each"
    )
    print(f"{'page':<40} {'p50 ms':>8} {'p95 ms':>8} {'bytes':>9}")
    for name, p50, p95, size in measured:
        print(f"{name:<40} {p50:8.1f} {p95:8.1f} {size:9d}")


if __name__ == "__main__":
    main()
