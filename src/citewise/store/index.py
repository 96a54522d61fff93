"""The search index of the evidence store: BM25 over the analysed terms of every section.

citewise does the language-aware analysis itself (:mod:`citewise.text.analyze`); the database
only counts. Each backend keeps the index its own way behind one small protocol:

* SQLite: an FTS5 table whose columns hold the analysed terms (:mod:`citewise.store.index_fts5`),
  ranked by FTS5's built-in ``bm25()``;
* PostgreSQL: a postings table of (term, section, count per field) and section lengths
  (:mod:`citewise.store.index_postings`), ranked by the same BM25 formula in SQL.

Both weigh the fields alike (:data:`COLUMN_WEIGHTS`) and score a section as FTS5 does, so a query
ranks the same sections in the same order on both (``tests/store_conformance.py`` checks it).
On a large store a query of common terms matches most sections, and scoring every one of them is
what makes search slow (661 ms at 100x the statute corpus on a busy machine). Both backends then search in two
stages (:func:`plan_query`): when the query's terms have more than :data:`FULL_SCORE_POSTINGS`
postings in all, the sections its most selective terms rank best (:data:`CANDIDATES` of them)
are scored by BM25 over *all* its terms (:func:`bm25_score`, the same doubles the backend computes),
and the best of those are the answer. A section matching only the common terms, or ranked below
the candidates by the selective ones, is then not found: at 100x the statute corpus the top 10 of
43 of 49 questions stay those of the exact ranking, for a quarter of the CPU time at p95 (27 ms
instead of 114 ms; ``benchmarks/scale.py``). Below the budget (each of the 49 Korean
benchmark questions at 1x), the search is exact.

The index is derived data: the analyzer's id (with the versions of Kiwi and its model, see
:func:`~citewise.text.analyze.analyzer_id`) is stored with it, and an index built by another
analyzer — or by another Kiwi release — is rebuilt before it is used.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.store.schema import store_meta
from citewise.text.analyze import analyzer_id

__all__ = [
    "ANALYZER_KEY",
    "BM25_B",
    "BM25_K1",
    "CANDIDATES",
    "COLUMN_WEIGHTS",
    "FULL_SCORE_POSTINGS",
    "INDEX_LOCK",
    "IndexRow",
    "IndexStats",
    "QueryPlan",
    "SearchIndex",
    "TermHits",
    "bm25_score",
    "index_is_current",
    "mark_index_current",
    "plan_query",
    "rescore",
    "staged_match",
]

#: BM25 weights of the indexed fields (title, heading, body). Headings name what an article is
#: about, so a match there counts double.
COLUMN_WEIGHTS = (1.0, 2.0, 1.0)
#: BM25 parameters, FTS5's (which it does not let one change).
BM25_K1 = 1.2
BM25_B = 0.75

#: A query whose terms have at most this many postings (sections per term, summed) scores every
#: section it matches; above it, the two stages. About 20 ms of FTS5 ranking on two busy cores.
FULL_SCORE_POSTINGS = 20_000
#: Sections the selective terms put forward in the first stage (at least the search's limit).
CANDIDATES = 200

#: PostgreSQL advisory lock: shared by writers adding sections, exclusive for a rebuild.
INDEX_LOCK = 0x63_77_69_64_78  # "cwidx"
ANALYZER_KEY = "index_analyzer"


@dataclass(frozen=True, slots=True)
class IndexRow:
    """What is indexed for one stored section: its row id and its three fields, as text."""

    rowid: int
    title: str
    heading: str
    text: str


@dataclass(frozen=True, slots=True)
class IndexStats:
    """What BM25 needs to know of the whole index for one query."""

    rows: int
    """Indexed sections (N)."""
    tokens: int
    """Terms in all of them, every field (N times the mean length)."""
    hits: Mapping[str, int]
    """Sections holding each query term (its document frequency)."""

    def idf(self, term: str) -> float:
        """FTS5's idf: ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6."""
        n = self.hits.get(term, 0)
        idf = math.log((self.rows - n + 0.5) / (n + 0.5))
        return idf if idf > 0.0 else 1e-6


class TermHits:
    """Document counts of terms, kept while the index stays as it was: its rows and tokens (it only
    grows, or is rebuilt whole) and the analyzer that built it."""

    def __init__(self) -> None:
        self._hits: dict[str, int] = {}
        self._of: tuple[int, int, str] | None = None
        self._lock = threading.Lock()

    def stats(
        self, rows: int, tokens: int, terms: Sequence[str], count: Callable[[list[str]], dict[str, int]]
    ) -> IndexStats:
        """:class:`IndexStats` for ``terms``; ``count`` gives the counts not known (absent terms left out)."""
        key = (rows, tokens, analyzer_id())
        with self._lock:
            if key != self._of:
                self._hits, self._of = {}, key
            hits = {t: self._hits[t] for t in terms if t in self._hits}
        missing = [t for t in dict.fromkeys(terms) if t not in hits]
        if missing and rows:
            found = dict.fromkeys(missing, 0) | count(missing)
            hits.update(found)
            with self._lock:
                if key == self._of:
                    self._hits.update(found)
        return IndexStats(rows, tokens, hits)

    def clear(self) -> None:
        """Forget every count (as a new process would)."""
        with self._lock:
            self._hits, self._of = {}, None


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """How one query is searched: ``terms`` (those in the index, in query order) are all scored;
    ``selective`` is None when every matching section is scored, else the terms that choose the
    candidates (the rarest, in query order)."""

    terms: tuple[str, ...]
    selective: tuple[str, ...] | None


def plan_query(terms: Sequence[str], stats: IndexStats, budget: int | None = None) -> QueryPlan:
    """Drop the terms no section holds; keep the rarest terms within ``budget`` postings (default
    :data:`FULL_SCORE_POSTINGS`; at least one term) as the selective ones when all of them
    together exceed it.

    >>> stats = IndexStats(rows=1000, tokens=50_000, hits={"rare": 3, "common": 900, "mid": 40})
    >>> plan_query(["common", "absent", "rare", "mid"], stats, budget=100)
    QueryPlan(terms=('common', 'rare', 'mid'), selective=('rare', 'mid'))
    """
    budget = FULL_SCORE_POSTINGS if budget is None else budget
    present = tuple(t for t in dict.fromkeys(terms) if stats.hits.get(t, 0) > 0)
    if sum(stats.hits[t] for t in present) <= budget:
        return QueryPlan(present, None)
    chosen: set[str] = set()
    postings = 0
    for term in sorted(present, key=lambda t: (stats.hits[t], t)):
        if chosen and postings + stats.hits[term] > budget:
            break
        chosen.add(term)
        postings += stats.hits[term]
    return QueryPlan(present, tuple(t for t in present if t in chosen))


FieldCounts = tuple[int, int, int]
"""A term's count in the title, heading and body of one section."""


def bm25_score(terms: Sequence[str], stats: IndexStats, counts: Mapping[str, FieldCounts], length: int) -> float:
    """One section's BM25 for ``terms``, operation for operation as FTS5's ``bm25()`` computes it
    (same doubles): ``counts`` holds the section's field counts of the terms it has, ``length``
    its terms in all fields."""
    return _weighted_bm25(tuple((t, stats.idf(t)) for t in terms), stats.tokens / stats.rows, counts, length)


def _weighted_bm25(
    weighted: Sequence[tuple[str, float]], mean_length: float, counts: Mapping[str, FieldCounts], length: int
) -> float:
    # bm25_score's arithmetic with each term's idf computed once: (term, idf) pairs in query order.
    title_w, heading_w, body_w = COLUMN_WEIGHTS
    norm = BM25_K1 * (1 - BM25_B + BM25_B * length / mean_length)
    score = 0.0
    for term, idf in weighted:
        title, heading, body = counts.get(term, (0, 0, 0))
        freq = title_w * title + heading_w * heading + body_w * body
        score += idf * ((freq * (BM25_K1 + 1.0)) / (freq + norm))
    return score


def rescore(
    plan: QueryPlan, stats: IndexStats, sections: Iterable[tuple[int, Mapping[str, FieldCounts], int]], limit: int
) -> list[tuple[int, float]]:
    """The ``limit`` best (row id, score) of candidate (row id, field counts, length) by BM25 over
    all the plan's terms, ties by row id.

    Each term's idf is computed once, and candidates given the same counts object and length (the
    backend's sections of identical text) are scored once: the doubles are :func:`bm25_score`'s.
    """
    weighted = tuple((t, stats.idf(t)) for t in plan.terms)
    mean_length = stats.tokens / stats.rows
    # Keyed by the counts object's id; the object is kept beside its scores, so no id is reused.
    known: dict[int, tuple[Mapping[str, FieldCounts], dict[int, float]]] = {}
    scored = []
    for rowid, counts, length in sections:
        _kept, by_length = known.setdefault(id(counts), (counts, {}))
        score = by_length.get(length)
        if score is None:
            score = by_length[length] = _weighted_bm25(weighted, mean_length, counts, length)
        scored.append((rowid, score))
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:limit]


class _StagedIndex(Protocol):
    def stats(self, conn: Connection, terms: Sequence[str]) -> IndexStats: ...

    def _bm25(
        self, conn: Connection, terms: Sequence[str], limit: int, stats: IndexStats
    ) -> list[tuple[int, float]]: ...

    def _counts(
        self, conn: Connection, plan: QueryPlan, rowids: Sequence[int]
    ) -> list[tuple[int, dict[str, FieldCounts], int]]: ...


def staged_match(index: _StagedIndex, conn: Connection, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
    """Best ``limit`` rows for any of ``terms`` by BM25, higher is better: in one stage (the
    backend's own BM25 over every matching row) when the terms' postings fit the budget, else in two
    (the rarest terms pick :data:`CANDIDATES` rows, which are then scored over every term)."""
    if not terms:
        return []
    stats = index.stats(conn, terms)
    plan = plan_query(terms, stats)
    if not plan.terms:
        return []
    if plan.selective is None:
        return index._bm25(conn, plan.terms, limit, stats)
    candidates = [rowid for rowid, _ in index._bm25(conn, plan.selective, max(CANDIDATES, limit), stats)]
    return rescore(plan, stats, index._counts(conn, plan, candidates), limit)


class SearchIndex(Protocol):
    """One backend's index. Every method works inside the caller's transaction."""

    def add(self, conn: Connection, rows: Iterable[IndexRow]) -> int:
        """Index ``rows`` (analysing their text); return how many."""
        ...

    def clear(self, conn: Connection) -> None:
        """Remove every indexed row."""
        ...

    def match(self, conn: Connection, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Up to ``limit`` (section row id, BM25 score) pairs sharing a term with ``terms``, best
        first (higher is better; ties by row id)."""
        ...

    def stats(self, conn: Connection, terms: Sequence[str]) -> IndexStats:
        """The index's size and the document count of each of ``terms`` (what :func:`plan_query` needs)."""
        ...

    def forget_counts(self) -> None:
        """Drop the document counts cached by :meth:`stats` (they are read again)."""
        ...


def index_is_current(conn: Connection, *, lock: bool = False) -> bool:
    """Whether the index was built by the current analyzer (``lock``: keep its row locked until the
    transaction ends, so one rebuild runs at a time)."""
    query = sa.select(store_meta.c.value).where(store_meta.c.key == ANALYZER_KEY)
    if lock:
        query = query.with_for_update()
    return conn.execute(query).scalar_one_or_none() == analyzer_id()


def mark_index_current(conn: Connection) -> None:
    """Record that the index matches the current analyzer."""
    conn.execute(sa.update(store_meta).where(store_meta.c.key == ANALYZER_KEY).values(value=analyzer_id()))
