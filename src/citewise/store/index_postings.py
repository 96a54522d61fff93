"""The PostgreSQL search index: postings of analysed terms, ranked by BM25 computed as FTS5 does.

Tables (created by migration m006): ``index_terms`` holds one row per (term, section) with the
term's count in the title, heading and body; ``index_sizes`` holds each section's length in terms
(all three fields). The number of sections, their total length and each term's document count are
kept beside them (:mod:`citewise.store.index_counts`, migration m013), not counted per search.
For a query of terms q₁…qₙ, a section D scores

    Σᵢ idf(qᵢ) · f(qᵢ, D) · (k1 + 1) / (f(qᵢ, D) + k1 · (1 − b + b · |D| / avgdl))

with f the field-weighted count (title ×1, heading ×2, body ×1), |D| the section's length, avgdl
the mean length, idf = ln((N − n + 0.5) / (n + 0.5)) floored at 1e-6 (n sections contain the term,
N sections in all), k1 = 1.2 and b = 0.75 — term for term what SQLite's ``bm25()`` computes, so
the two backends rank alike. A query with many postings is searched in two stages
(:func:`~citewise.store.index.plan_query`): this query over the selective terms picks the
candidates, and their postings of all the terms score them (:func:`~citewise.store.index.rescore`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.store import index_counts
from citewise.store.index import (
    BM25_B,
    BM25_K1,
    COLUMN_WEIGHTS,
    FieldCounts,
    IndexRow,
    IndexStats,
    QueryPlan,
    TermHits,
    staged_match,
)
from citewise.text.analyze import analyze_many
from citewise.text.analyze import index_terms as indexed_terms

__all__ = ["PostingsIndex"]

_meta = sa.MetaData()
index_terms = sa.Table(
    "index_terms",
    _meta,
    sa.Column("term", sa.String(200), primary_key=True),
    sa.Column("row_id", sa.Integer, primary_key=True),
    sa.Column("title_tf", sa.Integer, nullable=False),
    sa.Column("heading_tf", sa.Integer, nullable=False),
    sa.Column("body_tf", sa.Integer, nullable=False),
)
index_sizes = sa.Table(
    "index_sizes",
    _meta,
    sa.Column("row_id", sa.Integer, primary_key=True),
    sa.Column("length", sa.Integer, nullable=False),
)

_TERM_COLUMNS = "term, row_id, title_tf, heading_tf, body_tf"
_FLOATS = ("w_title", "w_heading", "w_body", "k1", "b")

# Every operation in the order FTS5's fts5Bm25Function does it, in float8, and the per-term
# contributions summed in query-term order: scores are then the same doubles as SQLite's, so
# ties (identical sections) break the same way (by row id) on both backends.
_MATCH = """
WITH query AS (
    SELECT term, ord, hits
    FROM unnest(CAST(:terms AS text[]), CAST(:hits AS float8[])) WITH ORDINALITY AS q(term, hits, ord)
), hits AS MATERIALIZED (
    SELECT term, row_id, :w_title * title_tf + :w_heading * heading_tf + :w_body * body_tf AS freq
    FROM index_terms WHERE term = ANY(CAST(:terms AS text[]))
), stats AS (
    SELECT CAST(:n AS float8) AS n, CAST(:tokens AS float8) / GREATEST(CAST(:n AS float8), 1.0) AS avgdl
), idf AS (
    SELECT query.term, query.ord, ln((stats.n - query.hits + 0.5) / (query.hits + 0.5)) AS raw
    FROM query CROSS JOIN stats
)
SELECT h.row_id,
       sum(CASE WHEN idf.raw <= 0 THEN 1e-6 ELSE idf.raw END
           * ((h.freq * (:k1 + 1.0)) / (h.freq + :k1 * (1.0 - :b + :b * z.length / stats.avgdl)))
           ORDER BY idf.ord) AS score
FROM hits h
JOIN idf ON idf.term = h.term
JOIN index_sizes z ON z.row_id = h.row_id
CROSS JOIN stats
GROUP BY h.row_id
ORDER BY score DESC, h.row_id
LIMIT :limit
"""
_MATCH_QUERY = sa.text(_MATCH).bindparams(*(sa.bindparam(name, type_=sa.Double()) for name in _FLOATS))


def _postings(row: IndexRow) -> tuple[list[tuple[str, int, int, int, int]], tuple[int, int]]:
    """One section's postings (term, row, title tf, heading tf, body tf) and its (row, length)."""
    fields = (Counter(indexed_terms(row.title)), Counter(indexed_terms(row.heading)), Counter(indexed_terms(row.text)))
    title, heading, body = fields
    postings = [(t, row.rowid, title[t], heading[t], body[t]) for t in sorted(set().union(*fields))]
    return postings, (row.rowid, sum(sum(c.values()) for c in fields))


def _batches(rows: Iterable[IndexRow], size: int = 500) -> Iterable[list[IndexRow]]:
    batch: list[IndexRow] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


#: Refresh the planner's statistics when the index grew by more than this share since they were taken.
ANALYZE_GROWTH = 0.2


def _analyze_if_grown(conn: Connection, *, added: int) -> None:
    """ANALYZE the index tables when their statistics are missing or stale.

    Without statistics (a new store, a large ingest) the planner scans every posting instead of
    the query terms' postings: 75 ms instead of 12 ms per search at twice the statute corpus.
    Autovacuum would catch up, but only a minute or so later.
    """
    known = conn.execute(sa.text("SELECT reltuples FROM pg_class WHERE oid = 'index_sizes'::regclass")).scalar()
    rows, _tokens = index_counts.size(conn)  # the kept total, not a count of index_sizes
    if added and (known is None or known <= 0 or rows > (1 + ANALYZE_GROWTH) * known):
        for table in ("index_terms", "index_sizes", "index_term_counts"):
            conn.execute(sa.text(f"ANALYZE {table}"))


class PostingsIndex:
    """BM25 over a postings table (PostgreSQL)."""

    def __init__(self) -> None:
        self._hits = TermHits()

    def add(self, conn: Connection, rows: Iterable[IndexRow]) -> int:
        """Index ``rows`` in the caller's transaction; return how many.

        Postings go in by COPY: a section has a few hundred distinct terms (Hangul bigrams), and
        row-by-row INSERTs made ingesting the statute corpus three times slower than on SQLite.
        """
        driver: Any = conn.connection.dbapi_connection  # psycopg, inside the caller's transaction
        sizes: list[tuple[int, int]] = []
        docs: Counter[str] = Counter()
        with driver.cursor() as cursor:
            with cursor.copy(f"COPY index_terms ({_TERM_COLUMNS}) FROM STDIN") as copy:
                for batch in _batches(rows):
                    analyze_many([text for r in batch for text in (r.title, r.heading, r.text)])  # Kiwi, batched
                    for row in batch:
                        postings, size = _postings(row)
                        for posting in postings:
                            copy.write_row(posting)
                        docs.update(posting[0] for posting in postings)
                        sizes.append(size)
            with cursor.copy("COPY index_sizes (row_id, length) FROM STDIN") as copy:
                for size in sizes:
                    copy.write_row(size)
        index_counts.add_counts(conn, docs, len(sizes), sum(length for _, length in sizes))
        _analyze_if_grown(conn, added=len(sizes))
        return len(sizes)

    def clear(self, conn: Connection) -> None:
        """Empty both tables."""
        # DELETE, not TRUNCATE: searches keep reading the old index until the rebuild commits.
        conn.execute(sa.delete(index_terms))
        conn.execute(sa.delete(index_sizes))
        index_counts.clear_counts(conn)

    def match(self, conn: Connection, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Best ``limit`` sections for any of ``terms`` by BM25, higher is better (in two stages when
        the terms have many postings, see :mod:`citewise.store.index`)."""
        return staged_match(self, conn, terms, limit)

    def stats(self, conn: Connection, terms: Sequence[str]) -> IndexStats:
        """The index's size and the document count of each of ``terms`` (sums of the kept totals,
        see :mod:`citewise.store.index_counts`)."""
        rows, tokens = index_counts.size(conn)
        return self._hits.stats(rows, tokens, terms, lambda missing: index_counts.term_counts(conn, missing))

    def forget_counts(self) -> None:
        """Drop the cached document counts (the next search of any term reads them again)."""
        self._hits.clear()

    def _bm25(self, conn: Connection, terms: Sequence[str], limit: int, stats: IndexStats) -> list[tuple[int, float]]:
        # ``terms`` are those some section holds (plan_query drops the others), each once.
        title, heading, body = COLUMN_WEIGHTS
        parameters = {"w_title": title, "w_heading": heading, "w_body": body, "k1": BM25_K1, "b": BM25_B}
        totals = {"n": stats.rows, "tokens": stats.tokens, "hits": [float(stats.hits[t]) for t in terms]}
        rows = conn.execute(_MATCH_QUERY, {"terms": list(terms), "limit": limit, **parameters, **totals})
        return [(int(row_id), float(score)) for row_id, score in rows]

    def _counts(
        self, conn: Connection, plan: QueryPlan, row_ids: Sequence[int]
    ) -> list[tuple[int, dict[str, FieldCounts], int]]:
        """Each candidate's postings of the plan's terms and its length."""
        if not row_ids:
            return []
        ids = {"rows": list(row_ids)}
        lengths = conn.execute(
            sa.text("SELECT row_id, length FROM index_sizes WHERE row_id = ANY(CAST(:rows AS integer[]))"), ids
        ).all()
        postings = conn.execute(
            sa.text(
                f"SELECT {_TERM_COLUMNS} FROM index_terms "
                "WHERE row_id = ANY(CAST(:rows AS integer[])) AND term = ANY(CAST(:terms AS text[]))"
            ),
            {**ids, "terms": list(plan.terms)},
        )
        counts: dict[int, dict[str, FieldCounts]] = {int(row_id): {} for row_id, _ in lengths}
        for term, row_id, title, heading, body in postings:
            counts[int(row_id)][term] = (int(title), int(heading), int(body))
        return [(int(row_id), counts[int(row_id)], int(length)) for row_id, length in lengths]
