"""The PostgreSQL index's kept totals: each term's document count and the index's size.

Counting a term's postings (``count(*) ... GROUP BY term``) and the sections' lengths (a scan of
``index_sizes``) on every search costs more as the index grows. The totals are kept instead, in two
insert-only tables (migration m013): every batch of indexed sections adds one row per term it holds
(``index_term_counts``: term, sections) and one row of its size (``index_size_counts``: sections,
terms), and a search sums the rows of its terms. Writers only insert, so concurrent ingests never
wait on one another's rows (an upsert of a common term's single row would serialise them).

Rows are folded together opportunistically: a writer that gets the advisory lock
:data:`COMPACT_LOCK` without waiting (``pg_try_advisory_xact_lock``) replaces the rows of the terms
it just indexed by one row each, in its own transaction, and the size rows by one. It deletes only
the rows it sees and inserts their sum, so a concurrent writer's rows (not yet visible) are kept,
and a failed ingest takes its compaction back with it. Sums are integers: the scores computed from
them are the doubles that counting the postings gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

__all__ = ["COMPACT_LOCK", "add_counts", "clear_counts", "compact_counts", "size", "term_counts"]

#: PostgreSQL advisory lock (transaction level) held by the one writer folding count rows together.
COMPACT_LOCK = 0x63_77_63_6E_74  # "cwcnt"

_SIZE = sa.text("SELECT COALESCE(sum(sections), 0), COALESCE(sum(tokens), 0) FROM index_size_counts")
_TERMS = sa.text("SELECT term, sum(docs) FROM index_term_counts WHERE term = ANY(CAST(:terms AS text[])) GROUP BY term")
_COMPACT_TERMS = sa.text(
    "WITH gone AS (DELETE FROM index_term_counts WHERE term = ANY(CAST(:terms AS text[])) RETURNING term, docs) "
    "INSERT INTO index_term_counts (term, docs) SELECT term, sum(docs)::bigint FROM gone GROUP BY term"
)
_COMPACT_ALL_TERMS = sa.text(
    "WITH gone AS (DELETE FROM index_term_counts RETURNING term, docs) "
    "INSERT INTO index_term_counts (term, docs) SELECT term, sum(docs)::bigint FROM gone GROUP BY term"
)
_COMPACT_SIZE = sa.text(
    "WITH gone AS (DELETE FROM index_size_counts RETURNING sections, tokens) "
    "INSERT INTO index_size_counts (sections, tokens) "
    "SELECT sum(sections)::bigint, sum(tokens)::bigint FROM gone HAVING count(*) > 0"
)


def size(conn: Connection) -> tuple[int, int]:
    """Sections indexed and their terms in all fields."""
    sections, tokens = conn.execute(_SIZE).one()
    return int(sections), int(tokens)


def term_counts(conn: Connection, terms: Sequence[str]) -> dict[str, int]:
    """Sections holding each of ``terms`` (terms no section holds left out)."""
    return {t: int(n) for t, n in conn.execute(_TERMS, {"terms": list(terms)}) if n}


def add_counts(conn: Connection, docs: dict[str, int], sections: int, tokens: int) -> None:
    """Record a batch of indexed sections: ``docs`` of them hold each term; ``sections`` sections of
    ``tokens`` terms in all. Then fold the rows of these terms together when no other writer is."""
    if not sections:
        return
    driver: Any = conn.connection.dbapi_connection  # psycopg, inside the caller's transaction
    with driver.cursor() as cursor, cursor.copy("COPY index_term_counts (term, docs) FROM STDIN") as copy:
        for term, n in docs.items():
            copy.write_row((term, n))
    conn.execute(
        sa.text("INSERT INTO index_size_counts (sections, tokens) VALUES (:s, :t)"), {"s": sections, "t": tokens}
    )
    if _try_compact_lock(conn):
        conn.execute(_COMPACT_TERMS, {"terms": list(docs)})
        conn.execute(_COMPACT_SIZE)


def compact_counts(conn: Connection) -> bool:
    """Fold every term's rows (and the size rows) into one, unless another writer is folding them;
    return whether it was done."""
    if not _try_compact_lock(conn):
        return False
    conn.execute(_COMPACT_ALL_TERMS)
    conn.execute(_COMPACT_SIZE)
    return True


def clear_counts(conn: Connection) -> None:
    """Forget every total (the index is emptied)."""
    conn.execute(sa.text("DELETE FROM index_term_counts"))
    conn.execute(sa.text("DELETE FROM index_size_counts"))


def _try_compact_lock(conn: Connection) -> bool:
    return bool(conn.execute(sa.text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": COMPACT_LOCK}).scalar())
