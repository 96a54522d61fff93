"""Question by question, where citewise's lexical search and bigram BM25 rank the first gold article.

    nice -n 10 python benchmarks/lexical_misses.py [--analyzer NAME] [--store PATH]

Development halves only (the dev half of kr_hard_questions.jsonl and of kr_ruling_questions.jsonl):
the held-out halves are reported by ``benchmarks/retrieval_quality.py``, never looked into question
by question. The statute corpus is ingested into ``--store`` (a new temporary store by default;
lexical only, nothing is embedded), and for every question whose first gold article the two rank
differently, it prints both ranks and the look-up terms (:func:`citewise.text.analyze.search_terms`)
that citewise's first hit and the gold article share with the question, by field: the words, and the
bigram field (``q…``). A first hit that wins on many terms of one compound shows as one word and its
bigrams, all matching at once; this is how ``cw-kiwi-fused-1`` was seen to count each bigram inside a
word twice (``docs/retrieval-notes.md``). Bigram BM25 is ``baselines.bm25s_bigrams`` over the newest
versions' articles, as in ``retrieval_quality.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.records import SearchHit, Section  # noqa: E402
from citewise.search import local  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.text import analyze  # noqa: E402

SETS = {"hard, dev half": baselines.KR_HARD, "ruling, dev half": baselines.KR_RULINGS}
DEPTH = 40  # how deep citewise's ranking is read for the gold article


def _gold_rank(hits: list[SearchHit], gold: list[str], titles: dict[str, set[str]]) -> int | None:
    for hit in hits:
        names = {hit.doc_id, hit.title, *titles.get(hit.doc_id, ())}
        if any(g.partition("#")[0] in names and g.partition("#")[2] == hit.section_id for g in gold):
            return hit.rank
    return None


def _shared(query: str, title: str, section: Section) -> str:
    """The query's look-up terms the section holds, words first, then the bigram field's."""
    held = {t for field in analyze.index_terms_many([title, section.heading, section.text]) for t in field}
    shared = [t for t in analyze.search_terms(query) if t in held]
    words = [t for t in shared if not t.startswith(analyze.RUN_BIGRAM_MARK)]
    return f"{len(shared)} terms: {' '.join(words)} | {' '.join(t for t in shared if t not in words)}"


def _section(store: EvidenceStore, hit: SearchHit) -> Section:
    return next(s for s in store.sections(hit.doc_id, hit.version) if s.section_id == hit.section_id)


def misses(store: EvidenceStore, label: str, path: Path) -> None:
    questions = baselines.load_questions(path, "dev")
    theirs = baselines.bm25s_bigrams(baselines.kr_units(), [q["query"] for q in questions], 10)
    titles: dict[str, set[str]] = {}
    for v in store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    print(f"\n### {label}: {len(questions)} questions; ranks citewise / bigram BM25 (- : not in the top 10)\n")
    for q, bm25 in zip(questions, theirs, strict=True):
        hits = local.search(store, q["query"], DEPTH, embedder=None)
        ours = _gold_rank(hits, q["gold"], titles)
        ours = ours if ours is not None and ours <= 10 else None
        other = baselines.first_gold_rank(bm25, q["gold"])
        if ours == other:
            continue
        print(f"{q['id']}: {ours or '-'} / {other or '-'}   gold {', '.join(q['gold'])}")
        first = hits[0]
        shared = _shared(q["query"], first.title, _section(store, first))
        print(f"  first hit {first.title} {first.section_id}: {shared}")
        gold_hit = next((h for h in hits if _gold_rank([h], q["gold"], titles)), None)
        if gold_hit is not None and gold_hit is not first:
            shared = _shared(q["query"], gold_hit.title, _section(store, gold_hit))
            print(f"  gold at {gold_hit.rank} {gold_hit.title} {gold_hit.section_id}: {shared}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--analyzer", choices=tuple(analyze.ANALYZERS), help="default: citewise's own")
    parser.add_argument("--store", help="a store to ingest into and keep (default: a temporary one)")
    args = parser.parse_args()
    if args.analyzer:
        analyze.use_analyzer(args.analyzer)
    print(f"load average {os.getloadavg()}; analyzer {analyze.analyzer_id()}")
    with tempfile.TemporaryDirectory() as tmp, Citewise(args.store or str(Path(tmp) / "kr.sqlite")) as cw:
        cw.ingest(baselines.KR_CORPUS_DIR, embed=False)
        for label, path in SETS.items():
            misses(cw.store, label, path)


if __name__ == "__main__":
    main()
