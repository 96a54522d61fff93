"""Lexical order vs the embedding reranker over citewise's top-20 local search hits.

    python benchmarks/rerank_quality.py [--only ares|kr] [--limit N] [--weights 0.5,0.7] [--timing N]

Same sets as benchmarks/retrieval_quality.py:

* ARES NQ: the 1,446 documents ingested as a JSONL corpus into a temporary store; the 2,000
  queries whose Context_Relevance_Label is Yes (gold = their document).
* Korean statutes: ../shared/corpora/kr-statutes (all versions) and the 49 questions of
  benchmarks/data/kr_statute_questions.jsonl (article-level gold). all-MiniLM-L6-v2 is an
  English model, so no gain is expected there.

Per query, local search returns up to 20 hits; each becomes a gate candidate (the hit's own
version), and every ranker runs through ``apply_ranker``, so a contract violation would show.
R@k and MRR@10 are over the reordered top 20 (a gold passage outside the top 20 counts as a
miss for every ranker). Embeddings are memoised in memory per text for the weight sweep; the
encode time per query is measured separately, without the memo, on the first ``--timing``
queries (query + its candidates, as the reranker does it in use).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.errors import InputError  # noqa: E402
from citewise.evidence.gate import load_candidates  # noqa: E402
from citewise.evidence.rank import Ranker, apply_ranker  # noqa: E402
from citewise.evidence.rerank import EmbeddingReranker  # noqa: E402
from citewise.records.gate import Candidate  # noqa: E402
from citewise.search.embed import MiniLMEncoder  # noqa: E402

DEPTH = 20
DEFAULT_WEIGHTS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


@dataclass(frozen=True)
class Query:
    text: str
    gold: tuple[str, ...]  # "DOC" or "DOC#SECTION"; DOC may be a doc id or a title


class MemoEncoder:
    """Wraps an encoder with an in-memory memo per text (benchmark only), timing the real work."""

    def __init__(self, encoder: MiniLMEncoder) -> None:
        self.encoder = encoder
        self.memo: dict[str, npt.NDArray[np.float32]] = {}
        self.seconds = 0.0

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> npt.NDArray[np.float32]:
        new = [t for t in dict.fromkeys(texts) if t not in self.memo]
        if new:
            started = time.perf_counter()
            vectors = self.encoder.encode(new, batch_size)
            self.seconds += time.perf_counter() - started
            self.memo.update(zip(new, vectors, strict=True))
        return np.stack([self.memo[t] for t in texts])


def candidates_for(cw: Citewise, query: str) -> list[Candidate]:
    """The top-20 hits as gate candidates, one per hit (its own version), in search order."""
    try:
        hits = cw.search(query, k=DEPTH)
    except InputError:  # a query without searchable words: nothing to rerank
        return []
    loaded, _versions = load_candidates(cw.store, [replace(h, also_in_versions=()) for h in hits])
    return [c for c in loaded if isinstance(c, Candidate)]


def first_gold_rank(ranked: Sequence[Candidate], gold: Sequence[str], titles: dict[str, set[str]]) -> int | None:
    for position, c in enumerate(ranked, start=1):
        names = {c.document.doc_id, c.document.title, *titles.get(c.document.doc_id, ())}
        for entry in gold:
            document, _sep, section = entry.partition("#")
            if document in names and (not section or section == c.section.section_id):
                return position
    return None


def figures(ranks: Sequence[int | None]) -> dict[str, float]:
    out = {f"recall@{k}": baselines.recall_at(ranks, k) for k in (1, 5, 10)}
    out["mrr@10"] = baselines.mrr_at(ranks, 10)
    return out


def evaluate(
    pools: Sequence[list[Candidate]],
    queries: Sequence[Query],
    rankers: dict[str, Ranker | None],
    titles: dict[str, set[str]],
) -> dict[str, dict[str, float]]:
    """Figures per ranker (``None``: the search order as given)."""
    rows: dict[str, dict[str, float]] = {}
    for name, ranker in rankers.items():
        ranks: list[int | None] = []
        for query, pool in zip(queries, pools, strict=True):
            order: Sequence[Candidate] = pool
            if ranker is not None:
                outcome = apply_ranker(ranker, query.text, pool)
                if not outcome.accepted:
                    raise SystemExit(f"{name} broke the ranking contract: {outcome.violations}")
                order = outcome.candidates
            ranks.append(first_gold_rank(order, query.gold, titles))
        rows[name] = figures(ranks)
    return rows


def encode_seconds_per_query(
    encoder: MiniLMEncoder, queries: Sequence[Query], pools: Sequence[list[Candidate]], n: int
) -> tuple[float, float]:
    """Mean wall time of one uncached rerank (query + candidates encoded), and candidates per query."""
    reranker = EmbeddingReranker(encoder)
    chosen = [(q, p) for q, p in zip(queries, pools, strict=True) if p][:n]
    started = time.perf_counter()
    for query, pool in chosen:
        reranker.rank(query.text, pool)
    elapsed = time.perf_counter() - started
    return elapsed / max(len(chosen), 1), sum(len(p) for _q, p in chosen) / max(len(chosen), 1)


def run_set(
    title: str,
    cw: Citewise,
    queries: Sequence[Query],
    encoder: MiniLMEncoder,
    weights: Sequence[float],
    timing: int,
) -> None:
    titles: dict[str, set[str]] = {}
    for v in cw.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    started = time.perf_counter()
    pools = [candidates_for(cw, q.text) for q in queries]
    search_s = time.perf_counter() - started
    memo = MemoEncoder(encoder)
    rankers: dict[str, Ranker | None] = {"lexical (search order)": None}
    rankers.update({f"embedding w={w:g}": EmbeddingReranker(memo, w) for w in weights})
    rankers["embedding only (w=1)"] = EmbeddingReranker(memo, 1.0)
    rows = evaluate(pools, queries, rankers, titles)
    per_query, per_pool = encode_seconds_per_query(encoder, queries, pools, timing)
    _print(f"{title}: {len(queries)} queries, top {DEPTH} hits reranked", rows)
    print(
        f"\nsearch {search_s:.1f} s; {len(memo.memo)} distinct texts encoded in {memo.seconds:.1f} s; "
        f"uncached rerank {per_query * 1000:.0f} ms/query (query + {per_pool:.1f} candidates, "
        f"mean of {min(timing, sum(1 for p in pools if p))} queries)"
    )


def _print(title: str, rows: dict[str, dict[str, float]]) -> None:
    print(f"\n### {title}\n")
    print("| ranker                   | R@1   | R@5   | R@10  | MRR@10 |")
    print("|--------------------------|-------|-------|-------|--------|")
    for name, f in rows.items():
        print(f"| {name:<24} | {f['recall@1']:.3f} | {f['recall@5']:.3f} | {f['recall@10']:.3f} | {f['mrr@10']:.3f} |")


def ares(tmp: Path, limit: int | None, run: Callable[[str, Citewise, Sequence[Query]], None]) -> None:
    corpus = tmp / "ares-corpus.jsonl"
    ares_nq.write_corpus_jsonl(corpus)
    _documents, rows = ares_nq.retrieval_set()
    queries = [Query(q, (gold,)) for _id, q, gold in rows][:limit]
    with Citewise(str(tmp / "ares.sqlite")) as cw:
        cw.ingest(corpus)
        run("ARES NQ", cw, queries)


def korean(tmp: Path, limit: int | None, run: Callable[[str, Citewise, Sequence[Query]], None]) -> None:
    questions = baselines.load_questions()[:limit]
    queries = [Query(q["query"], tuple(q["gold"])) for q in questions]
    with Citewise(str(tmp / "kr.sqlite")) as cw:
        cw.ingest(baselines.KR_CORPUS_DIR)
        run("Korean statutes", cw, queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("ares", "kr"))
    parser.add_argument("--limit", type=int, help="evaluate only the first N queries of each set")
    parser.add_argument("--weights", default=",".join(f"{w:g}" for w in DEFAULT_WEIGHTS))
    parser.add_argument("--timing", type=int, default=50, help="queries timed without the memo")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",") if w.strip()]
    encoder = MiniLMEncoder()

    def run(title: str, cw: Citewise, queries: Sequence[Query]) -> None:
        run_set(title, cw, queries, encoder, weights, args.timing)

    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "kr"):
            korean(Path(tmp), args.limit, run)
        if args.only in (None, "ares"):
            ares(Path(tmp), args.limit, run)


if __name__ == "__main__":
    main()
