"""Retrieval baselines that citewise's own search is measured against.

Everything here is a pure function over a list of *units* ``(unit_key, text)``
and a list of query strings; each baseline returns, per query, the ranked unit
keys (best first, at most ``k``).

- :func:`keyword_overlap` -- distinct ``[a-z0-9]{3,}`` terms shared with the query.
- :func:`bm25s_default` -- bm25s with its out-of-the-box settings.
- :func:`recall_at` / :func:`mrr_at` -- metrics over the 1-based rank of the
  first gold hit per query (``None`` when no gold unit was returned).

Also here, for the baseline demo only: a small splitter for the Korean statute
corpus (legalize-kr Markdown) that cuts each file at ``##### 제N조`` headings and
restores branch numbers (제3조의2 ...) that old-format files write as repeated
``##### 제3조`` headings.

``python benchmarks/baselines.py`` runs both baselines on ARES NQ (units =
documents) and on ``benchmarks/data/kr_statute_questions.jsonl`` (units =
articles of the newest version of each statute) and prints the figures.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
KR_CORPUS_DIR = SHARED / "corpora" / "kr-statutes"
KR_QUESTIONS = ROOT / "benchmarks" / "data" / "kr_statute_questions.jsonl"
KR_RULINGS = ROOT / "benchmarks" / "data" / "kr_ruling_questions.jsonl"
KR_HARD = ROOT / "benchmarks" / "data" / "kr_hard_questions.jsonl"
KR_HARD2 = ROOT / "benchmarks" / "data" / "kr_hard_questions2.jsonl"
"""A second held-out hard set (split ``test2``), written after the first was used for choices."""
KR_HARD3 = ROOT / "benchmarks" / "data" / "kr_hard_questions3.jsonl"
"""A third hard set (halves ``dev`` and ``test``), calibrated against bigram BM25 while written."""
KR_LONG = ROOT / "benchmarks" / "data" / "kr_long_rulings.jsonl"
"""Ruling-length fact patterns (200-600 characters; halves ``dev`` and ``test``), for question-side changes."""
SPLITS = ("dev", "test")

Unit = tuple[str, str]

# ---------------------------------------------------------------------------
# keyword overlap
# ---------------------------------------------------------------------------

TERM_RE = re.compile(r"[a-z0-9]{3,}")


def terms(text: str) -> set[str]:
    """Distinct ``[a-z0-9]{3,}`` runs of the lower-cased text."""
    return set(TERM_RE.findall(text.lower()))


def keyword_overlap(units: Sequence[Unit], queries: Sequence[str], k: int) -> list[list[str]]:
    """Rank units by the number of distinct terms they share with each query.

    Ties are broken by unit order (earlier unit first). Units sharing no term
    with the query (score 0) are omitted, so a query can get fewer than ``k``
    keys -- or none, e.g. a Korean query, which has no ``[a-z0-9]{3,}`` term
    apart from digit runs.
    """
    if k <= 0:
        return [[] for _ in queries]
    postings: dict[str, list[int]] = {}
    for i, (_key, text) in enumerate(units):
        for term in terms(text):
            postings.setdefault(term, []).append(i)
    results: list[list[str]] = []
    for query in queries:
        scores: Counter[int] = Counter()
        for term in terms(query):
            scores.update(postings.get(term, ()))
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        results.append([units[i][0] for i, _score in ranked[:k]])
    return results


# ---------------------------------------------------------------------------
# bm25s with default settings
# ---------------------------------------------------------------------------


def bm25s_default(units: Sequence[Unit], queries: Sequence[str], k: int) -> list[list[str]]:
    """bm25s out of the box: ``bm25s.tokenize`` defaults (lower-case,
    ``\\w\\w+`` tokens, English stop words, no stemmer), ``bm25s.BM25()``
    defaults (Lucene variant, k1=1.5, b=0.75) and ``retrieve``.

    ``k`` is clamped to the number of units (bm25s refuses a larger ``k``).
    Hits with score 0 are dropped: bm25s returns arbitrary zero-score documents
    when fewer than ``k`` match, and a gold unit there would be a coin toss.
    Equal scores are ordered by unit order, for reproducible ranks.
    """
    import bm25s  # local import: bm25s is a dev/benchmark dependency only

    if not units or k <= 0:
        return [[] for _ in queries]
    if not queries:
        return []
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([text for _key, text in units], show_progress=False), show_progress=False)
    query_tokens = bm25s.tokenize(list(queries), show_progress=False)
    docs, scores = retriever.retrieve(query_tokens, k=min(k, len(units)), show_progress=False)
    return _ranked_keys(units, docs, scores)


# ---------------------------------------------------------------------------
# bm25s over character bigrams
# ---------------------------------------------------------------------------

WORD_RE = re.compile(r"\w+")


def char_bigrams(text: str) -> list[str]:
    """The character bigrams of each ``\\w+`` run of the lower-cased text (a one-character run
    stays whole): the classic CJK tokenization, with no dictionary and no stop words."""
    out: list[str] = []
    for word in WORD_RE.findall(text.lower()):
        out.extend([word] if len(word) == 1 else [word[i : i + 2] for i in range(len(word) - 1)])
    return out


def bm25s_bigrams(units: Sequence[Unit], queries: Sequence[str], k: int) -> list[list[str]]:
    """bm25s (default BM25 parameters) over :func:`char_bigrams` of units and queries; zero-score
    hits dropped and ties ordered by unit order, as in :func:`bm25s_default`."""
    import bm25s

    if not units or k <= 0:
        return [[] for _ in queries]
    if not queries:
        return []
    retriever = bm25s.BM25()
    retriever.index([char_bigrams(text) or ["\x00"] for _key, text in units], show_progress=False)
    query_tokens = [char_bigrams(q) or ["\x00"] for q in queries]
    docs, scores = retriever.retrieve(query_tokens, k=min(k, len(units)), show_progress=False)
    return _ranked_keys(units, docs, scores)


# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------


def first_gold_rank(ranked: Sequence[str], gold: Iterable[str]) -> int | None:
    """1-based rank of the first key of ``ranked`` that is in ``gold``, else None."""
    gold_set = set(gold)
    for rank, key in enumerate(ranked, start=1):
        if key in gold_set:
            return rank
    return None


def _check(ranks: Sequence[int | None], k: int) -> None:
    if not ranks:
        raise ValueError("no ranks given")
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")


def recall_at(ranks: Sequence[int | None], k: int) -> float:
    """Share of queries whose first gold hit is at rank <= k."""
    _check(ranks, k)
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def mrr_at(ranks: Sequence[int | None], k: int) -> float:
    """Mean reciprocal rank, counting only first gold hits at rank <= k."""
    _check(ranks, k)
    return sum(1.0 / r for r in ranks if r is not None and r <= k) / len(ranks)


def evaluate(
    ranked_lists: Sequence[Sequence[str]], golds: Sequence[Iterable[str]], ks: Sequence[int] = (1, 5, 10)
) -> dict[str, float]:
    """recall@k for each k in ``ks`` and MRR@max(ks)."""
    ranks = [first_gold_rank(r, g) for r, g in zip(ranked_lists, golds, strict=True)]
    out = {f"recall@{k}": recall_at(ranks, k) for k in ks}
    out[f"mrr@{max(ks)}"] = mrr_at(ranks, max(ks))
    return out


# ---------------------------------------------------------------------------
# Korean statutes: article splitter (baseline demo and question-set check)
# ---------------------------------------------------------------------------

ARTICLE_HEADING = re.compile(r"^##### 제(\d+)조(?:의(\d+))?(?:\s*\((.*)\))?\s*$")
DELETED = re.compile(r"^삭제\s*<")


@dataclass(frozen=True)
class Article:
    section_id: str  # official number: 제N조 or 제N조의M
    caption: str  # the heading's parenthesised title ("" for deleted articles)
    body: str  # text up to the next heading of any level
    deleted: bool  # body is only "삭제 <date>"


@dataclass(frozen=True)
class Statute:
    path: Path
    title: str  # 제목
    law_id: str  # 법령ID, zero padding kept
    promulgated: str  # 공포일자, ISO date string
    articles: tuple[Article, ...]


def _front_matter_field(text: str, name: str) -> str:
    m = re.search(rf"^{re.escape(name)}:\s*(.*?)\s*$", text, re.MULTILINE)
    if not m:
        raise ValueError(f"front matter has no {name!r}")
    return m.group(1).strip("'\"")


def split_articles(markdown: str) -> list[Article]:
    """Articles of one legalize-kr statute file, in order, with official numbers.

    A heading ``##### 제N조`` that repeats the previous article's number N is a
    branch article: the k-th repeat is 제N조의(k+1). Headings that already say
    ``제N조의M`` are taken as written. The body stops at the next heading of
    any level (chapter/section headings, ``## 부칙``), so 부칙 is never included.
    """
    articles: list[Article] = []
    current: tuple[str, str, list[str]] | None = None
    last_n: int | None = None
    branch = 0

    def flush() -> None:
        if current is not None:
            sid, caption, lines = current
            body = "\n".join(lines).strip()
            articles.append(Article(sid, caption, body, bool(DELETED.match(body))))

    collecting = False
    for line in markdown.splitlines():
        m = ARTICLE_HEADING.match(line)
        if m:
            flush()
            n = int(m.group(1))
            if m.group(2) is not None:
                branch = int(m.group(2))
                sid = f"제{n}조의{branch}"
            elif n == last_n:
                branch = max(branch, 1) + 1
                sid = f"제{n}조의{branch}"
            else:
                branch = 0
                sid = f"제{n}조"
            last_n = n
            current = (sid, (m.group(3) or "").strip(), [])
            collecting = True
            continue
        if line.startswith("#"):
            collecting = False
            continue
        if collecting and current is not None:
            current[2].append(line)
    flush()
    return articles


def load_statute(path: Path) -> Statute:
    text = path.read_text(encoding="utf-8")
    return Statute(
        path=path,
        title=_front_matter_field(text, "제목"),
        law_id=_front_matter_field(text, "법령ID"),
        promulgated=_front_matter_field(text, "공포일자"),
        articles=tuple(split_articles(text)),
    )


def load_statutes(corpus_dir: Path = KR_CORPUS_DIR) -> list[Statute]:
    """Every statute file of the corpus (all versions), sorted by file name."""
    return [load_statute(p) for p in sorted(corpus_dir.glob("*.md")) if p.name != "SOURCE.md"]


def newest_versions(statutes: Iterable[Statute]) -> list[Statute]:
    """The newest version (latest 공포일자) of each 법령ID."""
    best: dict[str, Statute] = {}
    for s in statutes:
        if s.law_id not in best or s.promulgated > best[s.law_id].promulgated:
            best[s.law_id] = s
    return sorted(best.values(), key=lambda s: s.path.name)


def kr_units(corpus_dir: Path = KR_CORPUS_DIR, include_deleted: bool = False) -> list[Unit]:
    """Units ``("<제목>#<section id>", "<section id> (<caption>)\\n<body>")`` for
    the articles of the newest version of each statute (so keys are unique and
    carry the newest title)."""
    units: list[Unit] = []
    for statute in newest_versions(load_statutes(corpus_dir)):
        for a in statute.articles:
            if a.deleted and not include_deleted:
                continue
            heading = f"{a.section_id} ({a.caption})" if a.caption else a.section_id
            units.append((f"{statute.title}#{a.section_id}", f"{heading}\n{a.body}"))
    return units


def load_questions(path: Path = KR_QUESTIONS, split: str | None = None) -> list[dict]:
    """The question rows of a JSONL file; with ``split``, only those whose ``"split"`` equals it."""
    with path.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    if split is None:
        return rows
    chosen = [row for row in rows if row.get("split") == split]
    if not chosen:
        raise ValueError(f"{path}: no questions with split {split!r}")
    return chosen


# ---------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------

BASELINES = {"keyword_overlap": keyword_overlap, "bm25s_default": bm25s_default, "bm25s_bigrams": bm25s_bigrams}


def run(units: Sequence[Unit], queries: Sequence[str], golds: Sequence[Iterable[str]]) -> dict[str, dict]:
    return {name: evaluate(fn(units, queries, 10), golds) for name, fn in BASELINES.items()}


def _print_table(label: str, n_units: int, n_queries: int, figures: dict[str, dict]) -> None:
    print(f"\n{label}: {n_units} units, {n_queries} queries")
    cols = list(next(iter(figures.values())))
    print(f"  {'baseline':<16}" + "".join(f"{c:>11}" for c in cols))
    for name, row in figures.items():
        print(f"  {name:<16}" + "".join(f"{row[c]:>11.3f}" for c in cols))


def main() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from benchmarks import ares_nq

    documents, queries = ares_nq.retrieval_set()
    figures = run(documents, [q for _id, q, _g in queries], [[g] for _id, _q, g in queries])
    _print_table("ARES NQ retrieval (units = documents)", len(documents), len(queries), figures)

    units = kr_units()
    questions = load_questions()
    figures = run(units, [q["query"] for q in questions], [q["gold"] for q in questions])
    _print_table("Korean statute questions (units = articles, newest versions)", len(units), len(questions), figures)


if __name__ == "__main__":
    main()


def _ranked_keys(units: Sequence[Unit], docs: Any, scores: Any) -> list[list[str]]:
    """Per query, the keys of the units bm25s retrieved: zero-score hits dropped, ties by unit order."""
    results: list[list[str]] = []
    for row_docs, row_scores in zip(docs.tolist(), scores.tolist(), strict=True):
        hits = sorted(
            ((int(d), float(s)) for d, s in zip(row_docs, row_scores, strict=True) if s > 0.0),
            key=lambda hit: (-hit[1], hit[0]),
        )
        results.append([units[d][0] for d, _s in hits])
    return results
