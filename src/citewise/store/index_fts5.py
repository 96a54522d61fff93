"""The SQLite search index: an FTS5 table (created by migration m002) of analysed terms.

The columns (title, heading, body) hold the space-joined terms citewise's analyzer produced, so
FTS5's own tokenizer only splits them again; ``bm25()`` does the ranking with
:data:`~citewise.store.index.COLUMN_WEIGHTS`. A query with many postings is searched in two
stages (:func:`~citewise.store.index.plan_query`): FTS5 ranks the candidates by the selective
terms, and they are scored over all terms from their stored columns, as ``bm25()`` would.

What the two stages need of the whole index is read from FTS5's own tables: the row count and
total size from its averages record (``section_index_data``, id 1: varints, FTS5's documented
file format), each section's size from ``section_index_docsize`` and its terms from
``section_index_content``. Each term's document count is kept in ``index_doc_counts`` (created by
migration m012), updated by :meth:`Fts5Index.add` and :meth:`Fts5Index.clear` in the transaction
that changes the index, so it always equals what an ``fts5vocab`` table would count: reading it is
a primary-key look-up a term, where ``fts5vocab`` walks the term's whole doclist (~4 ms, at most
~12, for a question's terms at 100x the statute corpus). The counts read are also cached until
the index changes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.store.index import (
    COLUMN_WEIGHTS,
    FieldCounts,
    IndexRow,
    IndexStats,
    QueryPlan,
    TermHits,
    staged_match,
)
from citewise.text.analyze import index_terms_many

__all__ = ["Fts5Index", "varints"]

_ADD_COUNTS = (
    "INSERT INTO index_doc_counts (term, docs) VALUES (?, ?) "
    "ON CONFLICT (term) DO UPDATE SET docs = docs + excluded.docs"
)
_COUNTS = sa.text("SELECT term, docs FROM index_doc_counts WHERE term IN :terms").bindparams(
    sa.bindparam("terms", expanding=True)
)


_CANDIDATE_COLUMNS = sa.text(
    "SELECT c.id, c.c0, c.c1, c.c2, d.sz FROM section_index_content AS c "
    "JOIN section_index_docsize AS d ON d.id = c.id WHERE c.id IN (SELECT value FROM json_each(:ids))"
)


def _match_expression(terms: Sequence[str]) -> str:
    # Terms are letters and digits only (see analyze), so double quotes make them safe literals.
    return " OR ".join(f'"{t}"' for t in terms)


def varints(data: bytes) -> list[int]:
    """The SQLite varints (big-endian, 7 bits a byte, the ninth byte whole) packed in ``data``.

    >>> varints(bytes([0x05, 0x81, 0x00, 0x7F]))
    [5, 128, 127]
    """
    values: list[int] = []
    i = 0
    while i < len(data):
        value = 0
        for n in range(9):
            byte = data[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return values


def _document_counts(fields: Sequence[list[str]]) -> Counter[str]:
    """How many sections hold each term, in any field (as ``fts5vocab`` counts: the terms are
    letters and digits only, so FTS5's tokenizer splits the columns where they were joined);
    ``fields`` holds each section's title, heading and body terms in turn."""
    docs: Counter[str] = Counter()
    for i in range(0, len(fields), 3):
        docs.update(set(fields[i]).union(fields[i + 1], fields[i + 2]))
    return docs


def _size(conn: Connection) -> tuple[int, int]:
    block = conn.execute(sa.text("SELECT block FROM section_index_data WHERE id = 1")).scalar_one_or_none()
    if not block:
        return 0, 0
    rows, *columns = varints(bytes(block))
    return rows, sum(columns)


class Fts5Index:
    """BM25 by SQLite FTS5."""

    def __init__(self) -> None:
        self._hits = TermHits()

    def add(self, conn: Connection, rows: Iterable[IndexRow]) -> int:
        """Index ``rows`` in the caller's transaction; return how many."""
        rows = list(rows)
        fields = index_terms_many([text for r in rows for text in (r.title, r.heading, r.text)])
        batch = [
            {
                "rowid": r.rowid,
                "title": " ".join(fields[3 * i]),
                "heading": " ".join(fields[3 * i + 1]),
                "body": " ".join(fields[3 * i + 2]),
            }
            for i, r in enumerate(rows)
        ]
        if batch:
            conn.execute(
                sa.text(
                    "INSERT INTO section_index (rowid, title, heading, body) VALUES (:rowid, :title, :heading, :body)"
                ),
                batch,
            )
            # The driver's own cursor, in the same transaction: SQLAlchemy's handling of each
            # parameter set cost more than the upserts (a few thousand terms a document).
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            try:
                cursor.executemany(_ADD_COUNTS, list(_document_counts(fields).items()))
            finally:
                cursor.close()
        return len(batch)

    def clear(self, conn: Connection) -> None:
        """Empty the FTS5 table and its terms' document counts."""
        conn.execute(sa.text("DELETE FROM section_index"))
        conn.execute(sa.text("DELETE FROM index_doc_counts"))

    def match(self, conn: Connection, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Best ``limit`` rows for any of ``terms``, higher is better (in two stages when the terms
        have many postings, see :mod:`citewise.store.index`)."""
        return staged_match(self, conn, terms, limit)

    def stats(self, conn: Connection, terms: Sequence[str]) -> IndexStats:
        """The index's size and the document count of each of ``terms``."""
        rows, tokens = _size(conn)

        def count(missing: list[str]) -> dict[str, int]:
            return {t: int(n) for t, n in conn.execute(_COUNTS, {"terms": missing})}

        return self._hits.stats(rows, tokens, terms, count)

    def forget_counts(self) -> None:
        """Drop the cached document counts (the next search of any term reads them again)."""
        self._hits.clear()

    def _bm25(self, conn: Connection, terms: Sequence[str], limit: int, stats: IndexStats) -> list[tuple[int, float]]:
        # FTS5's bm25 is negative: lower is better (it reads its own totals, not ``stats``).
        title_w, heading_w, body_w = COLUMN_WEIGHTS
        sql = sa.text(
            f"SELECT rowid, bm25(section_index, {title_w}, {heading_w}, {body_w}) AS rank FROM section_index "
            "WHERE section_index MATCH :match ORDER BY rank, rowid LIMIT :limit"
        )
        rows = conn.execute(sql, {"match": _match_expression(terms), "limit": limit})
        return [(int(rowid), -float(rank)) for rowid, rank in rows]

    def _counts(
        self, conn: Connection, plan: QueryPlan, rowids: Sequence[int]
    ) -> list[tuple[int, dict[str, FieldCounts], int]]:
        """Each candidate's field counts of the plan's terms (from its stored columns) and size."""
        if not rowids:
            return []
        # One statement, the same text every time (the row ids go in as one JSON array): FTS5's
        # content table and sizes are plain row id look-ups, not the virtual table's.
        rows = conn.execute(_CANDIDATE_COLUMNS, {"ids": json.dumps(list(rowids))}).all()
        terms = plan.terms
        known: dict[tuple[str, str, str], dict[str, FieldCounts]] = {}  # sections of identical text
        lengths: dict[bytes, int] = {}
        found = []
        for rowid, title, heading, body, sz in rows:
            key = (title, heading, body)
            counts = known.get(key)
            if counts is None:
                fields = (Counter(title.split()), Counter(heading.split()), Counter(body.split()))
                counts = known[key] = {
                    t: (fields[0][t], fields[1][t], fields[2][t]) for t in terms if any(t in f for f in fields)
                }
            size = bytes(sz)
            length = lengths.get(size)
            if length is None:
                length = lengths[size] = sum(varints(size))
            found.append((int(rowid), counts, length))
        return found
