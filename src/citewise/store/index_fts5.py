"""The SQLite search index: an FTS5 table (created by migration m002) of analysed terms.

The columns (title, heading, body) hold the space-joined terms citewise's analyzer produced, so
FTS5's own tokenizer only splits them again; ``bm25()`` does the ranking with
:data:`~citewise.store.index.COLUMN_WEIGHTS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.search.analyze import analyze_many
from citewise.store.index import COLUMN_WEIGHTS, IndexRow

__all__ = ["Fts5Index"]


def _match_expression(terms: Sequence[str]) -> str:
    # Terms are letters and digits only (see analyze), so double quotes make them safe literals.
    return " OR ".join(f'"{t}"' for t in terms)


class Fts5Index:
    """BM25 by SQLite FTS5."""

    def add(self, conn: Connection, rows: Iterable[IndexRow]) -> int:
        """Index ``rows`` in the caller's transaction; return how many."""
        rows = list(rows)
        fields = analyze_many([text for r in rows for text in (r.title, r.heading, r.text)])
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
        return len(batch)

    def clear(self, conn: Connection) -> None:
        """Empty the FTS5 table."""
        conn.execute(sa.text("DELETE FROM section_index"))

    def match(self, conn: Connection, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Best ``limit`` rows for any of ``terms`` (FTS5's bm25 is negative: lower is better)."""
        if not terms:
            return []
        title_w, heading_w, body_w = COLUMN_WEIGHTS
        sql = sa.text(
            f"SELECT rowid, bm25(section_index, {title_w}, {heading_w}, {body_w}) AS rank FROM section_index "
            "WHERE section_index MATCH :match ORDER BY rank, rowid LIMIT :limit"
        )
        rows = conn.execute(sql, {"match": _match_expression(terms), "limit": limit})
        return [(int(rowid), -float(rank)) for rowid, rank in rows]
