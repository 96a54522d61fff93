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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402

from citewise import Citewise  # noqa: E402


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


def ares(tmp: Path) -> None:
    corpus, queries = tmp / "ares-corpus.jsonl", tmp / "ares-queries.jsonl"
    ares_nq.write_corpus_jsonl(corpus)
    ares_nq.write_queries_jsonl(queries)
    documents, qs = ares_nq.retrieval_set()
    rows = baselines.run(documents, [q for _i, q, _g in qs], [[g] for _i, _q, g in qs])
    with Citewise(str(tmp / "ares.sqlite")) as cw:
        started = time.perf_counter()
        cw.ingest(corpus)
        ingest_s = time.perf_counter() - started
        started = time.perf_counter()
        rows["citewise (local search)"] = _citewise_figures(cw, queries)
        search_s = time.perf_counter() - started
    _print(f"ARES NQ: {len(documents)} documents, {len(qs)} queries", rows)
    print(f"\ncitewise ingest {ingest_s:.1f} s, {len(qs)} searches {search_s:.1f} s")


def korean(tmp: Path) -> None:
    units = baselines.kr_units()
    questions = baselines.load_questions()
    rows = baselines.run(units, [q["query"] for q in questions], [q["gold"] for q in questions])
    with Citewise(str(tmp / "kr.sqlite")) as cw:
        cw.ingest(baselines.KR_CORPUS_DIR)
        rows["citewise (local search)"] = _citewise_figures(cw, baselines.KR_QUESTIONS)
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
