"""Retrieval quality of citewise's local search against two baselines.

    python benchmarks/retrieval_quality.py [--only ares|kr]

* ARES NQ: the 1,446 distinct documents are ingested as a JSONL corpus; the 2,000 queries whose
  Context_Relevance_Label is Yes are evaluated through ``citewise eval retrieval`` (gold = their
  document).
* Korean statutes: every file of ../shared/corpora/kr-statutes is ingested (all versions); the
  49 questions of benchmarks/data/kr_statute_questions.jsonl are evaluated with article-level gold.

Baselines (benchmarks/baselines.py): keyword overlap of ``[a-z0-9]{3,}`` terms, and bm25s with its
default settings. Prints one table per set.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.records import IngestOutcome  # noqa: E402


def _row(name: str, figures: dict[str, float]) -> str:
    return (
        f"| {name:<24} | {figures['recall@1']:.3f} | {figures['recall@5']:.3f} | "
        f"{figures['recall@10']:.3f} | {figures['mrr@10']:.3f} |"
    )


def _citewise_figures(cw: Citewise, queries: Path) -> dict[str, float]:
    report = cw.eval_retrieval(queries, k=10)
    return {
        "recall@1": report.recall_at_1,
        "recall@5": report.recall_at_5,
        "recall@10": report.recall_at_10,
        "mrr@10": report.mrr_at_10,
    }


def _print(title: str, rows: dict[str, dict[str, float]]) -> None:
    print(f"\n### {title}\n")
    print("| system                   | R@1   | R@5   | R@10  | MRR@10 |")
    print("|--------------------------|-------|-------|-------|--------|")
    for name, figures in rows.items():
        print(_row(name, figures))


@dataclass(frozen=True)
class CitewiseRun:
    """citewise's local search on one question set, in one store."""

    figures: dict[str, float]
    """recall@1/5/10 and mrr@10."""
    inputs: int
    """Inputs stored (a file, or a line of a JSONL corpus)."""
    queries: int
    """Queries evaluated."""
    ingest_s: float
    """Wall time of the ingestion."""
    search_s: float
    """Wall time of the evaluation (one search per query)."""


def citewise_ares(tmp: Path, store_url: str | None = None, limit: int | None = None) -> CitewiseRun:
    """Ingest the ARES NQ corpus and evaluate its retrieval queries (the first ``limit`` of them).

    The store is a new SQLite file in ``tmp`` unless ``store_url`` names another, empty, store.
    """
    corpus, queries = tmp / "ares-corpus.jsonl", tmp / "ares-queries.jsonl"
    ares_nq.write_corpus_jsonl(corpus)
    count = ares_nq.write_queries_jsonl(queries)
    if limit is not None and limit < count:
        lines = queries.read_text(encoding="utf-8").splitlines(keepends=True)[:limit]
        queries.write_text("".join(lines), encoding="utf-8")
        count = limit
    return _citewise_run(store_url or str(tmp / "ares.sqlite"), corpus, queries, count)


def citewise_korean(tmp: Path, store_url: str | None = None) -> CitewiseRun:
    """Ingest every file of the statute corpus and evaluate the Korean questions (article-level gold).

    The store is a new SQLite file in ``tmp`` unless ``store_url`` names another, empty, store.
    """
    count = len(baselines.load_questions())
    return _citewise_run(store_url or str(tmp / "kr.sqlite"), baselines.KR_CORPUS_DIR, baselines.KR_QUESTIONS, count)


def _citewise_run(store: str, corpus: Path, queries: Path, count: int) -> CitewiseRun:
    with Citewise(store) as cw:
        started = time.perf_counter()
        results = cw.ingest(corpus)
        ingest_s = time.perf_counter() - started
        started = time.perf_counter()
        figures = _citewise_figures(cw, queries)
        search_s = time.perf_counter() - started
    stored = sum(1 for r in results if r.outcome is not IngestOutcome.FAILED)
    return CitewiseRun(figures, stored, count, ingest_s, search_s)


def ares(tmp: Path) -> None:
    documents, qs = ares_nq.retrieval_set()
    rows = baselines.run(documents, [q for _i, q, _g in qs], [[g] for _i, _q, g in qs])
    run = citewise_ares(tmp)
    rows["citewise (local search)"] = run.figures
    _print(f"ARES NQ: {len(documents)} documents, {len(qs)} queries", rows)
    print(f"\ncitewise ingest {run.ingest_s:.1f} s, {len(qs)} searches {run.search_s:.1f} s")


def korean(tmp: Path) -> None:
    units = baselines.kr_units()
    questions = baselines.load_questions()
    rows = baselines.run(units, [q["query"] for q in questions], [q["gold"] for q in questions])
    rows["citewise (local search)"] = citewise_korean(tmp).figures
    _print(f"Korean statutes: {len(questions)} questions, {len(units)} articles (baselines: newest versions)", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("ares", "kr"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "kr"):
            korean(Path(tmp))
        if args.only in (None, "ares"):
            ares(Path(tmp))


if __name__ == "__main__":
    main()
