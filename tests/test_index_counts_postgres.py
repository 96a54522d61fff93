"""PostgreSQL's kept index totals (``index_term_counts``, ``index_size_counts``) equal what counting
the postings gives, on every path that changes the index and between concurrent writers, and search
scores the same doubles as when it counted per search."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.store import index, index_counts, migrations
from citewise.store.evidence import EvidenceStore
from citewise.store.index import BM25_B, BM25_K1, COLUMN_WEIGHTS, IndexRow, IndexStats
from citewise.store.index_postings import PostingsIndex
from citewise.text.analyze import query_terms
from tests.conftest import make_doc
from tests.test_index_doc_counts import QUESTIONS, _ingest, _statutes

Totals = tuple[dict[str, int], tuple[int, int]]


@pytest.fixture
def pg_store(postgres_url: str) -> Iterator[EvidenceStore]:
    with EvidenceStore.open(postgres_url) as s:
        yield s


def _counted(conn: Connection) -> Totals:
    """The totals as counting the postings gives them."""
    terms = {t: int(n) for t, n in conn.execute(sa.text("SELECT term, count(*) FROM index_terms GROUP BY term"))}
    rows, tokens = conn.execute(sa.text("SELECT count(*), COALESCE(sum(length), 0) FROM index_sizes")).one()
    return terms, (int(rows), int(tokens))


def _kept(conn: Connection) -> Totals:
    query = sa.text("SELECT term, sum(docs) FROM index_term_counts GROUP BY term")
    return {t: int(n) for t, n in conn.execute(query)}, index_counts.size(conn)


def _both(store: EvidenceStore) -> tuple[Totals, Totals]:
    with store.engine.connect() as conn:
        return _kept(conn), _counted(conn)


def _count_rows(store: EvidenceStore) -> tuple[int, int, int]:
    """Rows of term totals, distinct terms among them, rows of size totals."""
    with store.engine.connect() as conn:
        return tuple(  # type: ignore[return-value]
            int(conn.execute(sa.text(sql)).scalar_one())
            for sql in (
                "SELECT count(*) FROM index_term_counts",
                "SELECT count(DISTINCT term) FROM index_term_counts",
                "SELECT count(*) FROM index_size_counts",
            )
        )


def test_totals_equal_the_counted_ones_after_ingest_a_changed_version_a_rebuild_and_clear(
    pg_store: EvidenceStore,
) -> None:
    assert _both(pg_store) == (({}, (0, 0)), ({}, (0, 0)))
    docs = _statutes()
    _ingest(pg_store, docs)
    kept, counted = _both(pg_store)
    assert kept == counted and len(counted[0]) > 1_000 and counted[1][0] > 10
    _ingest(pg_store, docs)  # unchanged: nothing is indexed again
    assert _both(pg_store) == (kept, counted)
    path, doc = docs[0]
    first = replace(doc.sections[0], text="전혀 새로운 조문 qwertyuiop")  # type: ignore[attr-defined]
    changed = replace(doc, text=doc.text + "\nqwertyuiop", sections=(first, *doc.sections[1:]))  # type: ignore[attr-defined, type-var]
    _ingest(pg_store, [(path, changed)])
    kept, counted = _both(pg_store)
    assert kept == counted and counted[0]["qwertyuiop"] == 1
    assert _count_rows(pg_store)[0:2] == (len(counted[0]),) * 2  # each writer folded its terms' rows
    pg_store.reindex(force=True)  # clear, then add every section again
    assert _both(pg_store) == (kept, counted)
    with pg_store.transaction() as conn:
        pg_store.index.clear(conn)
    assert _both(pg_store) == (({}, (0, 0)), ({}, (0, 0)))
    assert _count_rows(pg_store) == (0, 0, 0)


def test_a_failed_ingest_leaves_the_totals_as_they_were(
    pg_store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ingest(pg_store, _statutes(1))
    before = _both(pg_store)
    add = pg_store.index.add

    def add_then_fail(conn: Connection, rows: Iterable[IndexRow]) -> int:
        add(conn, rows)
        raise RuntimeError("disk gone")

    monkeypatch.setattr(pg_store.index, "add", add_then_fail)
    with pytest.raises(RuntimeError, match="disk gone"):
        _ingest(pg_store, [(Path("y.txt"), make_doc("doc-y", {"§ 1": "qwertyuiop 새로운 조문"}))])
    assert _both(pg_store) == before
    assert "qwertyuiop" not in before[1][0]


def test_two_writers_at_once_neither_waits_and_the_totals_add_up(postgres_url: str) -> None:
    # The first writer has indexed its sections (and holds the compaction lock) but not committed
    # when the second indexes and commits; with a locked row per term the second would wait for
    # the first, which waits for the second: the barrier's timeout would break the test.
    docs = _statutes(2)
    added, second_done = threading.Event(), threading.Event()
    failures: list[BaseException] = []
    with EvidenceStore.open(postgres_url) as first, EvidenceStore.open(postgres_url) as second:
        add = first.index.add

        def add_and_wait(conn: Connection, rows: Iterable[IndexRow]) -> int:
            count = add(conn, rows)
            added.set()
            if not second_done.wait(60):
                raise TimeoutError("the second writer did not finish while the first was open")
            return count

        first.index.add = add_and_wait  # type: ignore[method-assign]

        def run(target: Callable[[], None]) -> None:
            try:
                target()
            except BaseException as exc:  # noqa: BLE001  (reported by the main thread)
                failures.append(exc)

        def write_second() -> None:
            assert added.wait(60)
            _ingest(second, docs[1:])
            second_done.set()

        threads = [
            threading.Thread(target=run, args=(lambda: _ingest(first, docs[:1]),)),
            threading.Thread(target=run, args=(write_second,)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not failures, failures
        kept, counted = _both(first)
        assert kept == counted and counted[1][0] > 0
        rows, terms, sizes = _count_rows(first)
        assert rows > terms and sizes == 2  # the second writer could not fold: the first held the lock
        with first.transaction() as conn:
            assert index_counts.compact_counts(conn)
        assert _count_rows(first) == (terms, terms, 1)
        assert _both(first) == (kept, counted)


def test_compaction_is_skipped_while_another_writer_compacts_and_changes_no_score(
    pg_store: EvidenceStore, postgres_url: str
) -> None:
    docs = _statutes(3)
    engine = sa.create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.begin() as holder:
            holder.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": index_counts.COMPACT_LOCK})
            _ingest(pg_store, docs)
            with pg_store.transaction() as conn:
                assert not index_counts.compact_counts(conn)
    finally:
        engine.dispose()
    rows, terms, sizes = _count_rows(pg_store)
    assert rows > terms and sizes == len(docs)
    before = _both(pg_store)
    with pg_store.engine.connect() as conn:
        found = {q: pg_store.index.match(conn, query_terms(q), 10) for q in QUESTIONS}
    with pg_store.transaction() as conn:
        assert index_counts.compact_counts(conn)
    assert _count_rows(pg_store) == (terms, terms, 1)
    assert _both(pg_store) == before
    pg_store.index.forget_counts()
    with pg_store.engine.connect() as conn:
        assert {q: pg_store.index.match(conn, query_terms(q), 10) for q in QUESTIONS} == found


def test_the_migration_fills_the_totals_of_an_existing_index(pg_store: EvidenceStore) -> None:
    _ingest(pg_store, _statutes(2))
    with pg_store.transaction() as conn:
        conn.execute(sa.text("DROP TABLE index_term_counts"))
        conn.execute(sa.text("DROP TABLE index_size_counts"))
        conn.execute(sa.text("DELETE FROM schema_migrations WHERE id = 'm013_postgresql_index_counts'"))
    assert migrations.migrate(pg_store.engine) == ["m013_postgresql_index_counts"]
    kept, counted = _both(pg_store)
    assert kept == counted and len(counted[0]) > 1_000
    assert _count_rows(pg_store)[0:2] == (len(counted[0]),) * 2


# The search as it was: the totals counted from the postings and index_sizes by every query.
_COUNTED_MATCH = """
WITH query AS (
    SELECT term, ord FROM unnest(CAST(:terms AS text[])) WITH ORDINALITY AS q(term, ord)
), hits AS MATERIALIZED (
    SELECT term, row_id, :w_title * title_tf + :w_heading * heading_tf + :w_body * body_tf AS freq
    FROM index_terms WHERE term = ANY(CAST(:terms AS text[]))
), stats AS (
    SELECT count(*)::float8 AS n, COALESCE(sum(length), 0)::float8 / GREATEST(count(*), 1)::float8 AS avgdl
    FROM index_sizes
), idf AS (
    SELECT query.term, query.ord, ln((stats.n - df.hits + 0.5) / (df.hits + 0.5)) AS raw
    FROM query
    JOIN (SELECT term, count(*)::float8 AS hits FROM hits GROUP BY term) df ON df.term = query.term
    CROSS JOIN stats
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


class _CountingIndex(PostingsIndex):
    """The index as it was: every total counted by the query that needs it."""

    def stats(self, conn: Connection, terms: Sequence[str]) -> IndexStats:
        rows, tokens = conn.execute(sa.text("SELECT count(*), COALESCE(sum(length), 0) FROM index_sizes")).one()
        query = sa.text("SELECT term, count(*) FROM index_terms WHERE term = ANY(CAST(:terms AS text[])) GROUP BY term")
        found = {t: int(n) for t, n in conn.execute(query, {"terms": list(dict.fromkeys(terms))})}
        return IndexStats(int(rows), int(tokens), {t: found.get(t, 0) for t in terms})

    def _bm25(self, conn: Connection, terms: Sequence[str], limit: int, stats: IndexStats) -> list[tuple[int, float]]:
        title, heading, body = COLUMN_WEIGHTS
        names = ("w_title", "w_heading", "w_body", "k1", "b")
        query = sa.text(_COUNTED_MATCH).bindparams(*(sa.bindparam(n, type_=sa.Double()) for n in names))
        values = dict(zip(names, (title, heading, body, BM25_K1, BM25_B), strict=True))
        rows = conn.execute(query, {"terms": list(terms), "limit": limit, **values})
        return [(int(row_id), float(score)) for row_id, score in rows]


@pytest.mark.parametrize("budget", [index.FULL_SCORE_POSTINGS, 50])
def test_search_scores_the_same_doubles_as_when_it_counted(
    pg_store: EvidenceStore, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    monkeypatch.setattr(index, "FULL_SCORE_POSTINGS", budget)  # 50: every question in two stages
    _ingest(pg_store, _statutes())
    old = _CountingIndex()
    with pg_store.engine.connect() as conn:
        for question in QUESTIONS:
            terms = query_terms(question)
            assert pg_store.index.stats(conn, terms) == old.stats(conn, terms)
            found = pg_store.index.match(conn, terms, 10)
            assert found == old.match(conn, terms, 10)
            if question != QUESTIONS[-1]:
                assert found
