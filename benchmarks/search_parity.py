"""Do SQLite (FTS5) and PostgreSQL (postings) rank alike? Hit by hit, on the benchmark query sets.

    python benchmarks/search_parity.py [--only kr|ares] [--k 10]

Each corpus is ingested into a new SQLite store and a new database on a throwaway PostgreSQL
server (:mod:`citewise.testing.postgres`); every query is searched on both and the top-k hit lists
(document, version, section, score) are compared. Prints, per set: queries whose lists are
identical, whose hits are the same but in another order, and whose hits differ; the largest score
difference; how many queries get bit-identical raw index candidates (unrounded BM25 doubles); and
recall@5 / MRR@10 on each backend (``citewise eval retrieval``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.testing.postgres import PostgresCluster  # noqa: E402
from citewise.text.analyze import search_terms  # noqa: E402

Hit = tuple[str, int, str, float]


@dataclass(frozen=True)
class Parity:
    """How the two backends' rankings of one query set compare."""

    queries: int
    identical: int
    reordered: int
    different: int
    max_score_diff: float
    bit_identical: int  # queries whose raw index candidates (4k, unrounded scores) are the same doubles
    figures: dict[str, tuple[float, float]]  # backend -> (recall@5, mrr@10)


def _rankings(url: str, corpus: Path, queries: Sequence[str], query_file: Path, k: int) -> tuple[list, list, tuple]:
    with Citewise(url) as cw:
        cw.ingest(corpus)
        hits = [[(h.doc_id, h.version, h.section_id, h.score) for h in cw.search(q, k)] for q in queries]
        raw = [[(m.section.doc_id, m.section.version, m.section.section_id, m.score)
                for m in cw.store.search(search_terms(q), 4 * k)] for q in queries]  # fmt: skip
        report = cw.eval_retrieval(query_file, k=10)
    return hits, raw, (report.recall_at_5, report.mrr_at_10)


def compare(a: Sequence[Sequence[Hit]], b: Sequence[Sequence[Hit]]) -> tuple[int, int, int, float]:
    """(identical, same hits reordered, different hits, largest score difference of a shared hit)."""
    identical = reordered = different = 0
    worst = 0.0
    for left, right in zip(a, b, strict=True):
        if left == right:
            identical += 1
        elif {h[:3] for h in left} == {h[:3] for h in right}:
            reordered += 1
        else:
            different += 1
        scores = {h[:3]: h[3] for h in right}
        worst = max([worst, *(abs(h[3] - scores[h[:3]]) for h in left if h[:3] in scores)])
    return identical, reordered, different, worst


def parity(cluster: PostgresCluster, tmp: Path, name: str, corpus: Path, query_file: Path, k: int) -> Parity:
    """Ingest ``corpus`` on both backends and compare the rankings of ``query_file``'s queries."""
    queries = [json.loads(line)["query"] for line in query_file.read_text(encoding="utf-8").splitlines() if line]
    lite, lite_raw, lite_figures = _rankings(str(tmp / f"{name}.sqlite"), corpus, queries, query_file, k)
    pg, pg_raw, pg_figures = _rankings(cluster.create_database(f"parity_{name}"), corpus, queries, query_file, k)
    identical, reordered, different, worst = compare(lite, pg)
    bit_identical = sum(a == b for a, b in zip(lite_raw, pg_raw, strict=True))
    figures = {"SQLite": lite_figures, "PostgreSQL": pg_figures}
    return Parity(len(queries), identical, reordered, different, worst, bit_identical, figures)


def _print(title: str, p: Parity, k: int) -> None:
    print(f"\n### {title}: {p.queries} queries, top {k}\n")
    print(f"identical lists {p.identical}, same hits reordered {p.reordered}, different hits {p.different}")
    print(f"largest score difference of a hit found by both: {p.max_score_diff:.2e}")
    print(f"raw index candidates (top {4 * k}, unrounded scores) bit-identical: {p.bit_identical}")
    for backend, (r5, mrr) in p.figures.items():
        print(f"{backend:<10} R@5 {r5:.3f}  MRR@10 {mrr:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("kr", "ares"))
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_dir, PostgresCluster.start() as cluster:
        tmp = Path(tmp_dir)
        if args.only in (None, "kr"):
            kr = parity(cluster, tmp, "kr", baselines.KR_CORPUS_DIR, baselines.KR_QUESTIONS, args.k)
            _print("Korean statutes", kr, args.k)
        if args.only in (None, "ares"):
            corpus, queries = tmp / "ares-corpus.jsonl", tmp / "ares-queries.jsonl"
            ares_nq.write_corpus_jsonl(corpus)
            ares_nq.write_queries_jsonl(queries)
            _print("ARES NQ", parity(cluster, tmp, "ares", corpus, queries, args.k), args.k)


if __name__ == "__main__":
    main()
