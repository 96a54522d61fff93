"""The search index of the evidence store: BM25 over the analysed terms of every section.

citewise does the language-aware analysis itself (:mod:`citewise.search.analyze`); the database
only counts. Each backend keeps the index its own way behind one small protocol:

* SQLite: an FTS5 table whose columns hold the analysed terms (:mod:`citewise.store.index_fts5`),
  ranked by FTS5's built-in ``bm25()``;
* PostgreSQL: a postings table of (term, section, count per field) and section lengths
  (:mod:`citewise.store.index_postings`), ranked by the same BM25 formula in SQL.

Both weigh the fields alike (:data:`COLUMN_WEIGHTS`) and score a section as FTS5 does, so a query
ranks the same sections in the same order on both (``tests/store_conformance.py`` checks it).
The index is derived data: the analyzer's id (with the versions of Kiwi and its model, see
:func:`~citewise.search.analyze.analyzer_id`) is stored with it, and an index built by another
analyzer — or by another Kiwi release — is rebuilt before it is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.search.analyze import analyzer_id
from citewise.store.schema import store_meta

__all__ = [
    "ANALYZER_KEY",
    "BM25_B",
    "BM25_K1",
    "COLUMN_WEIGHTS",
    "INDEX_LOCK",
    "IndexRow",
    "SearchIndex",
    "index_is_current",
    "mark_index_current",
]

#: BM25 weights of the indexed fields (title, heading, body). Headings name what an article is
#: about, so a match there counts double.
COLUMN_WEIGHTS = (1.0, 2.0, 1.0)
#: BM25 parameters, FTS5's (which it does not let one change).
BM25_K1 = 1.2
BM25_B = 0.75

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
