"""Lexical variants the index cannot express, on an in-process copy of its BM25: the table of
``docs/retrieval-notes.md`` ("Lexical: each bigram counted once").

    nice -n 10 python benchmarks/bm25_variants.py [--store PATH]

The statute corpus is ingested (lexical only) and every section's fields are analysed by each
analyzer; BM25 is then computed here as FTS5's ``bm25()`` computes it (the title, heading and body
weights of :data:`citewise.store.index.COLUMN_WEIGHTS`, FTS5's idf, k1 1.2, b 0.75, the length of
all fields), the 부칙 demoted and identical sections collapsed as search does. The first row of each
analyzer is the index's own setting, and the script prints citewise's real lexical figures beside
it, which it must reproduce. The other rows vary BM25's k1 and b, the field weights, the idf
(Lucene's, which bigram BM25 uses) and the weight of the bigram field's terms against the words
(which FTS5, weighing columns, cannot); one more analyzer, made here, is cw-kiwi-fused-2 with the
one-syllable words kept. Development sets only: the 49, the 242 and the dev halves.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import baselines  # noqa: E402

from citewise import Citewise  # noqa: E402
from citewise.eval.retrieval import evaluate, load_queries  # noqa: E402
from citewise.records import SearchHit, SectionKind  # noqa: E402
from citewise.search import local  # noqa: E402
from citewise.store.evidence import EvidenceStore  # noqa: E402
from citewise.store.index import BM25_B, BM25_K1, COLUMN_WEIGHTS  # noqa: E402
from citewise.text import analyze  # noqa: E402
from citewise.text.articles import asks_about_addenda  # noqa: E402

SETS = {
    "49 dev": (baselines.KR_QUESTIONS, None),
    "242 user-style": (ROOT / "benchmarks" / "data" / "kr_user_questions.jsonl", None),
    "ruling dev half": (baselines.KR_RULINGS, "dev"),
    "hard dev half": (baselines.KR_HARD, "dev"),
}


@dataclass(frozen=True)
class Variant:
    """One BM25 setting."""

    label: str
    k1: float = BM25_K1
    b: float = BM25_B
    weights: tuple[float, float, float] = COLUMN_WEIGHTS
    lucene_idf: bool = False
    bigram_weight: float = 1.0
    """Multiplier of the bigram field's terms (``q…``) against the words."""


ONE_SYLLABLE_KEPT = "fused-2, one-syllable words kept"
"""A variant analyzer (not one of citewise's): cw-kiwi-fused-2's index with the one-syllable words."""

VARIANTS = {
    "cw-kiwi-fused-1": (
        Variant("cw-kiwi-fused-1"),
        Variant("k1 0.9", k1=0.9),
        Variant("k1 1.5", k1=1.5),
        Variant("b 0.6", b=0.6),
        Variant("law title not indexed", weights=(0.0, 2.0, 1.0)),
        Variant("Lucene idf", lucene_idf=True),
        Variant("bigram terms weigh double", bigram_weight=2.0),
    ),
    ONE_SYLLABLE_KEPT: (Variant(ONE_SYLLABLE_KEPT),),
    "cw-kiwi-fused-2": (
        Variant("cw-kiwi-fused-2"),
        Variant("k1 1.5", k1=1.5),
        Variant("b 0.6", b=0.6),
        Variant("bigram terms weigh 1.5", bigram_weight=1.5),
    ),
}


@dataclass(frozen=True)
class Row:
    """One indexed section."""

    hit: SearchHit
    addendum: bool
    fields: tuple[Counter[str], Counter[str], Counter[str]]
    length: int


class Bm25Copy:
    """Every section's analysed fields under the active analyzer, ranked like the index ranks them."""

    def __init__(self, store: EvidenceStore) -> None:
        self.rows: list[Row] = []
        for v in store.versions():
            sections = store.sections(v.doc_id, v.version)
            texts = [text for s in sections for text in (v.title, s.heading, s.text)]
            terms = analyze.index_terms_many(texts)
            for i, s in enumerate(sections):
                fields = (Counter(terms[3 * i]), Counter(terms[3 * i + 1]), Counter(terms[3 * i + 2]))
                hit = SearchHit(
                    rank=0, score=0.0, doc_id=s.doc_id, title=v.title, version=s.version,
                    section_id=s.section_id, heading=s.heading, snippet="", unapproved=False,
                    deleted=s.deleted, reserved=s.reserved, superseded=False, content_hash=s.content_hash,
                    also_in_versions=(), kind=s.kind,
                )  # fmt: skip
                length = sum(len(terms[3 * i + j]) for j in range(3))
                self.rows.append(Row(hit, s.kind is SectionKind.SUPPLEMENTARY, fields, length))
        self.postings: dict[str, list[int]] = {}
        for i, row in enumerate(self.rows):
            for term in set(row.fields[0]) | set(row.fields[1]) | set(row.fields[2]):
                self.postings.setdefault(term, []).append(i)
        self.mean_length = sum(r.length for r in self.rows) / len(self.rows)

    def _idf(self, term: str, lucene: bool) -> float:
        n, total = len(self.postings[term]), len(self.rows)
        if lucene:
            return math.log(1 + (total - n + 0.5) / (n + 0.5))
        idf = math.log((total - n + 0.5) / (n + 0.5))
        return idf if idf > 0.0 else 1e-6

    def search(self, query: str, k: int, variant: Variant) -> list[SearchHit]:
        scores: dict[int, float] = {}
        for term in analyze.search_terms(query):
            if term not in self.postings:
                continue
            weight = self._idf(term, variant.lucene_idf)
            if term.startswith(analyze.RUN_BIGRAM_MARK) and not term[1:].isascii():
                weight *= variant.bigram_weight
            for i in self.postings[term]:
                row = self.rows[i]
                freq = sum(w * f[term] for w, f in zip(variant.weights, row.fields, strict=True))
                norm = variant.k1 * (1 - variant.b + variant.b * row.length / self.mean_length)
                scores[i] = scores.get(i, 0.0) + weight * freq * (variant.k1 + 1) / (freq + norm)
        top = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[: k * 4]
        if top and not asks_about_addenda(query):
            values = [v for _, v in top]
            mean = sum(values) / len(values)
            spread = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
            top = [(i, v - local.ADDENDUM_DEMOTION * spread if self.rows[i].addendum else v) for i, v in top]
        best: dict[tuple[str, str, str], tuple[float, SearchHit]] = {}
        for i, value in top:
            hit = self.rows[i].hit
            key = (hit.doc_id, hit.section_id, hit.content_hash)
            if key not in best or value > best[key][0]:
                best[key] = (value, hit)
        ranked = sorted(
            best.items(), key=lambda kv: (-round(kv[1][0], 4), kv[1][1].kind is SectionKind.SUPPLEMENTARY, kv[0])
        )
        return [replace(hit, rank=n, score=v) for n, (_, (v, hit)) in enumerate(ranked[:k], start=1)]


def _figures(search: object, titles: dict[str, set[str]]) -> list[str]:
    out = []
    for path, split in SETS.values():
        report = evaluate(load_queries(path, split), search, titles, 10)  # type: ignore[arg-type]
        out.append(f"{report.recall_at_5:.3f} / {report.mrr_at_10:.3f}")
    return out


def _register_variant_analyzer() -> None:
    # cw-kiwi-fused-2 indexing every word Kiwi finds, one-syllable ones too.
    default = analyze.ANALYZERS["cw-kiwi-fused-2"]
    analyze.ANALYZERS[ONE_SYLLABLE_KEPT] = replace(
        default, name=ONE_SYLLABLE_KEPT, index_hangul=lambda run, morphemes: list(analyze._bare(morphemes))
    )


def table(store: EvidenceStore, analyzers: Sequence[str]) -> None:
    titles: dict[str, set[str]] = {}
    for v in store.versions():
        titles.setdefault(v.doc_id, set()).add(v.title)
    print("\n| variant | " + " | ".join(SETS) + " |\n|---|" + "---|" * len(SETS))
    for name in analyzers:
        analyze.use_analyzer(name)
        copy = Bm25Copy(store)
        store.reindex()  # the real index, rebuilt for this analyzer
        real = _figures(lambda q, k: local.search(store, q, k, embedder=None), titles)
        print(f"| {name}: citewise's lexical search | " + " | ".join(real) + " |")
        for variant in VARIANTS[name]:
            rows = _figures(lambda q, k, v=variant, c=copy: c.search(q, k, v), titles)
            label = variant.label if variant.label == name else f"{name}, {variant.label}"
            print(f"| {label} | " + " | ".join(rows) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a store to ingest into and keep (default: a temporary one)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    _register_variant_analyzer()
    with tempfile.TemporaryDirectory() as tmp, Citewise(args.store or str(Path(tmp) / "kr.sqlite")) as cw:
        cw.ingest(baselines.KR_CORPUS_DIR, embed=False)
        table(cw.store, tuple(VARIANTS))


if __name__ == "__main__":
    main()
