"""Lexical retrieval quality per analyzer: the analyzer before Kiwi against the Kiwi variants.

    python benchmarks/analyzer_quality.py [--analyzers cw-bigram-1,cw-kiwi-nbigram-1] [--only kr|ares]

For every analyzer of :data:`citewise.text.analyze.ANALYZERS` (or those named), a new SQLite
store is built with it and evaluated by ``citewise eval retrieval`` (BM25 only: nothing is
embedded), on

* the 49 questions of benchmarks/data/kr_statute_questions.jsonl, the 242 of
  benchmarks/data/kr_user_questions.jsonl and the dev halves of kr_ruling_questions.jsonl and
  kr_hard_questions.jsonl, over every file of ../shared/corpora/kr-statutes (lexical search,
  부칙 demoted as search does);
* ARES NQ (2,000 queries; English, so every analyzer should score the same there).

Also prints each analyzer's ingestion rate on the statute corpus. The analyzer's caches are emptied
before each analyzer, so the rate is that of new text (the first Kiwi analyzer also pays for
loading the model, ~2 s).
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
from citewise.eval.retrieval import evaluate, load_queries  # noqa: E402
from citewise.search.local import search  # noqa: E402
from citewise.text import analyze  # noqa: E402

KR_SETS: dict[str, tuple[Path, str | None]] = {
    "kr 49 (kr_statute_questions)": (baselines.KR_QUESTIONS, None),
    "kr 242 (kr_user_questions)": (ROOT / "benchmarks" / "data" / "kr_user_questions.jsonl", None),
    "kr ruling, dev half": (baselines.KR_RULINGS, "dev"),
    "kr hard, dev half": (baselines.KR_HARD, "dev"),
}
"""The development sets (file, split); the held-out halves are reported by retrieval_quality.py."""


def _figures(cw: Citewise, queries: Path, split: str | None = None) -> dict[str, float]:
    titles: dict[str, set[str]] = {}
    for v in cw.store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    report = evaluate(load_queries(queries, split), lambda q, k: search(cw.store, q, k, embedder=None), titles, 10)
    return {
        "recall@1": report.recall_at_1,
        "recall@5": report.recall_at_5,
        "recall@10": report.recall_at_10,
        "mrr@10": report.mrr_at_10,
    }


def korean(name: str, tmp: Path) -> tuple[dict[str, dict[str, float]], float]:
    """Figures on both Korean sets with analyzer ``name``, and the ingestion rate (sections/s)."""
    analyze.use_analyzer(name)
    analyze.clear_caches()
    with Citewise(str(tmp / f"kr-{name}.sqlite")) as cw:
        started = time.perf_counter()
        cw.ingest(baselines.KR_CORPUS_DIR, embed=False)
        elapsed = time.perf_counter() - started
        sections = sum(len(cw.store.sections(v.doc_id, v.version)) for v in cw.store.versions())
        figures = {label: _figures(cw, path, split) for label, (path, split) in KR_SETS.items() if path.exists()}
        return figures, sections / elapsed


def ares(name: str, tmp: Path) -> dict[str, float]:
    analyze.use_analyzer(name)
    corpus, queries = tmp / "ares-corpus.jsonl", tmp / "ares-queries.jsonl"
    if not corpus.exists():
        ares_nq.write_corpus_jsonl(corpus)
        ares_nq.write_queries_jsonl(queries)
    with Citewise(str(tmp / f"ares-{name}.sqlite")) as cw:
        cw.ingest(corpus, embed=False)
        return _figures(cw, queries)


def _row(analyzer: str, label: str, f: dict[str, float]) -> str:
    return (
        f"| {analyzer:<18} | {label:<28} | {f['recall@1']:.3f} | {f['recall@5']:.3f} | "
        f"{f['recall@10']:.3f} | {f['mrr@10']:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--analyzers", default=",".join(analyze.ANALYZERS))
    parser.add_argument("--only", choices=("kr", "ares"))
    args = parser.parse_args()
    names = [n.strip() for n in args.analyzers.split(",") if n.strip()]
    print("| analyzer           | set                          | R@1   | R@5   | R@10  | MRR@10 |")
    print("|--------------------|------------------------------|-------|-------|-------|--------|")
    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            if args.only in (None, "kr"):
                rows, rates[name] = korean(name, Path(tmp))
                for label, figures in rows.items():
                    print(_row(name, label, figures), flush=True)
            if args.only in (None, "ares"):
                print(_row(name, "ARES NQ (2,000)", ares(name, Path(tmp))), flush=True)
    for name, rate in rates.items():
        print(f"\n{name}: statute corpus ingested at {rate:,.0f} sections/s (new text, BM25 only)", end="")
    print()


if __name__ == "__main__":
    main()
