"""How ingestion and search cost grow: the statute corpus at 1x, 10x and 100x.

    python benchmarks/scale.py [--sizes 1,10,100] [--queries 200]

Larger sizes replicate every statute file under new document ids (``kr-law-XXXXXX-rN``), so the
index really grows: every copy is parsed, hashed, stored and indexed like new material. Prints
sections per second for ingestion and p50/p95 search latency over the Korean question set (cycled
to ``--queries`` searches), plus the store size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines  # noqa: E402

from citewise.ingest.base import ParsedDocument  # noqa: E402
from citewise.ingest.pipeline import IngestOptions, store_document  # noqa: E402
from citewise.ingest.registry import get_parser  # noqa: E402
from citewise.search.local import search  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402


def _parsed_corpus() -> list[tuple[Path, ParsedDocument]]:
    parser = get_parser("kr-statute")
    files = sorted(baselines.KR_CORPUS_DIR.glob("*__*.md"))
    return [(f, doc) for f in files for doc in parser.parse(f, f.read_bytes())]


def run_size(
    factor: int, queries: list[str], n_queries: int, tmp: Path, store_url: str | None = None
) -> dict[str, float | None]:
    """Ingest the corpus ``factor`` times into a new store, then time ``n_queries`` searches.

    The store is a new SQLite file in ``tmp`` unless ``store_url`` names another, empty, store (then
    ``store_mb`` is None).
    """
    corpus = _parsed_corpus()
    db = None if store_url else tmp / f"scale-{factor}.sqlite"
    sections = 0
    with EvidenceStore.open(store_url or str(db)) as store:
        started = time.perf_counter()
        for copy in range(factor):
            for path, doc in corpus:
                renamed = doc if copy == 0 else replace(doc, doc_id=f"{doc.doc_id}-r{copy}")
                result = store_document(store, renamed, path, IngestOptions(), {})
                sections += result.section_count
        ingest_s = time.perf_counter() - started
        latencies = []
        for i in range(n_queries):
            started = time.perf_counter()
            search(store, queries[i % len(queries)], k=10)
            latencies.append((time.perf_counter() - started) * 1000)
    latencies.sort()
    return {
        "factor": factor,
        "sections": sections,
        "ingest_s": round(ingest_s, 2),
        "sections_per_s": round(sections / ingest_s, 1),
        "search_p50_ms": round(statistics.median(latencies), 1),
        "search_p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
        "store_mb": round(db.stat().st_size / 2**20, 1) if db else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    queries = [q["query"] for q in baselines.load_questions()]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for factor in (int(s) for s in args.sizes.split(",")):
            rows.append(run_size(factor, queries, args.queries, Path(tmp)))
            print(f"  done {factor}x", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| size | sections | ingest s | sections/s | search p50 ms | search p95 ms | store MB |")
    print("|------|----------|----------|------------|---------------|---------------|----------|")
    for r in rows:
        print(
            f"| {r['factor']}x | {r['sections']} | {r['ingest_s']} | {r['sections_per_s']} | "
            f"{r['search_p50_ms']} | {r['search_p95_ms']} | {r['store_mb']} |"
        )


if __name__ == "__main__":
    main()
