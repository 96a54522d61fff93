"""SQLite's kept term document counts (``index_doc_counts``) equal FTS5's own (``fts5vocab``) on
every path that changes the index, and search scores as it did when it asked fts5vocab."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.ingest.registry import get_parser
from citewise.store import index, migrations
from citewise.store.evidence import EvidenceStore
from citewise.store.index import IndexRow, IndexStats
from citewise.store.index_fts5 import Fts5Index
from citewise.text.analyze import query_terms
from tests.conftest import KR_STATUTES, make_doc

_VOCAB = "CREATE VIRTUAL TABLE IF NOT EXISTS temp.test_vocab USING fts5vocab(main, section_index, row)"
QUESTIONS = (
    "보증금을 돌려받으려면 어떻게 해야 하나요",
    "임대차 계약의 갱신 요구",
    "근로자의 연차 유급휴가",
    "scope of this act",
)


def _vocab(conn: Connection) -> dict[str, int]:
    conn.execute(sa.text(_VOCAB))
    return {t: int(n) for t, n in conn.execute(sa.text("SELECT term, doc FROM temp.test_vocab"))}


def _kept(conn: Connection) -> dict[str, int]:
    return {t: int(n) for t, n in conn.execute(sa.text("SELECT term, docs FROM index_doc_counts"))}


def _both(store: EvidenceStore) -> tuple[dict[str, int], dict[str, int]]:
    with store.engine.connect() as conn:
        return _kept(conn), _vocab(conn)


def _statutes(count: int = 3) -> list[tuple[Path, object]]:
    parser = get_parser("kr-statute")
    files = sorted(KR_STATUTES.glob("*__*.md"))[:count]
    return [(f, doc) for f in files for doc in parser.parse(f, f.read_bytes())]


def _ingest(store: EvidenceStore, docs: Iterable[tuple[Path, object]]) -> None:
    for path, doc in docs:
        store_document(store, doc, path, IngestOptions(), {})  # type: ignore[arg-type]


class _VocabIndex(Fts5Index):
    """The index as it was: each term's count from an fts5vocab table."""

    def stats(self, conn: Connection, terms: Sequence[str]) -> IndexStats:
        rows, tokens = index_fts5_size(conn)
        conn.execute(sa.text(_VOCAB))
        query = sa.text("SELECT term, doc FROM temp.test_vocab WHERE term IN :terms").bindparams(
            sa.bindparam("terms", expanding=True)
        )
        found = {t: int(n) for t, n in conn.execute(query, {"terms": list(dict.fromkeys(terms))})}
        return IndexStats(rows, tokens, {t: found.get(t, 0) for t in terms})


def index_fts5_size(conn: Connection) -> tuple[int, int]:
    from citewise.store.index_fts5 import _size

    return _size(conn)


def test_counts_equal_fts5s_after_ingest_a_changed_version_and_a_rebuild(store: EvidenceStore) -> None:
    assert _both(store) == ({}, {})
    docs = _statutes()
    _ingest(store, docs)
    kept, vocab = _both(store)
    assert kept == vocab and len(vocab) > 1_000
    _ingest(store, docs)  # unchanged: nothing is indexed again
    assert _both(store) == (kept, vocab)
    path, doc = docs[0]
    first = replace(doc.sections[0], text="전혀 새로운 조문 qwertyuiop")  # type: ignore[attr-defined]
    changed = replace(doc, text=doc.text + "\nqwertyuiop", sections=(first, *doc.sections[1:]))  # type: ignore[attr-defined, type-var]
    _ingest(store, [(path, changed)])
    kept, vocab = _both(store)
    assert kept == vocab and vocab["qwertyuiop"] == 1
    store.reindex(force=True)  # clear, then add every section again
    assert _both(store) == (kept, vocab)
    with store.transaction() as conn:
        store.index.clear(conn)
    assert _both(store) == ({}, {})


def test_a_term_in_every_field_of_a_section_counts_that_section_once(store: EvidenceStore) -> None:
    doc = make_doc(sections={"echo": "echo echo echo", "other": "nothing here echo"}, title="echo")
    _ingest(store, [(Path("x.txt"), doc)])
    kept, vocab = _both(store)
    assert kept == vocab and kept["echo"] == 2


def test_a_failed_ingest_leaves_index_and_counts_as_they_were(
    store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ingest(store, _statutes(1))
    before = _both(store)
    add = store.index.add

    def add_then_fail(conn: Connection, rows: Iterable[IndexRow]) -> int:
        add(conn, rows)
        raise RuntimeError("disk gone")

    monkeypatch.setattr(store.index, "add", add_then_fail)
    with pytest.raises(RuntimeError, match="disk gone"):
        _ingest(store, [(Path("y.txt"), make_doc("doc-y", {"§ 1": "qwertyuiop 새로운 조문"}))])
    assert _both(store) == before
    assert "qwertyuiop" not in before[1]


def test_the_migration_fills_the_counts_of_an_existing_index(store: EvidenceStore) -> None:
    _ingest(store, _statutes(2))
    with store.transaction() as conn:
        conn.execute(sa.text("DROP TABLE index_doc_counts"))
        conn.execute(sa.text("DELETE FROM schema_migrations WHERE id = 'm012_index_doc_counts'"))
    assert migrations.migrate(store.engine) == ["m012_index_doc_counts"]
    kept, vocab = _both(store)
    assert kept == vocab and len(vocab) > 1_000


@pytest.mark.parametrize("budget", [index.FULL_SCORE_POSTINGS, 50])
def test_search_scores_the_same_doubles_as_with_fts5vocab_counts(
    store: EvidenceStore, monkeypatch: pytest.MonkeyPatch, budget: int
) -> None:
    monkeypatch.setattr(index, "FULL_SCORE_POSTINGS", budget)  # 50: every question in two stages
    _ingest(store, _statutes())
    old = _VocabIndex()
    with store.engine.connect() as conn:
        for question in QUESTIONS:
            terms = query_terms(question)
            new_stats, old_stats = store.index.stats(conn, terms), old.stats(conn, terms)
            assert new_stats == old_stats
            found = store.index.match(conn, terms, 10)
            assert found == old.match(conn, terms, 10)
            if question != QUESTIONS[-1]:
                assert found


def test_forgotten_counts_and_questions_are_read_again(store: EvidenceStore) -> None:
    from citewise.text import analyze

    _ingest(store, [(Path("x.txt"), make_doc(sections={"§ 1": "echo once", "§ 2": "nothing"}))])
    with store.engine.connect() as conn:
        assert store.index.stats(conn, ["echo"]).hits == {"echo": 1}
    with store.transaction() as conn:
        conn.execute(sa.text("UPDATE index_doc_counts SET docs = 2 WHERE term = 'echo'"))
    with store.engine.connect() as conn:
        assert store.index.stats(conn, ["echo"]).hits == {"echo": 1}  # cached while the index is as it was
        store.index.forget_counts()
        assert store.index.stats(conn, ["echo"]).hits == {"echo": 2}
    query_terms("echo once")
    assert analyze._query_terms.cache_info().currsize > 0
    analyze.forget_queries()
    assert analyze._query_terms.cache_info().currsize == 0
