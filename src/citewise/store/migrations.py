"""Append-only schema migrations, each recorded by id in ``schema_migrations``.

Never edit or reorder a migration that has shipped: add a new one. Each migration is plain,
portable SQL (or a function for dialect-specific parts) so the same history runs on SQLite and
PostgreSQL. :func:`migrate` applies whatever a database lacks, in order, each in its own
transaction; :func:`applied` reports what a database has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from citewise.errors import StoreError

__all__ = ["MIGRATIONS", "Migration", "applied", "migrate"]


@dataclass(frozen=True)
class Migration:
    """One schema change: a unique id and what it does."""

    id: str
    apply: Callable[[Connection], None]


def _run(*statements: str) -> Callable[[Connection], None]:
    def apply(conn: Connection) -> None:
        for statement in statements:
            conn.execute(sa.text(statement))

    return apply


_m001_evidence_store = _run(
    """CREATE TABLE documents (
        doc_id VARCHAR(200) PRIMARY KEY,
        title TEXT NOT NULL,
        created_at VARCHAR(40) NOT NULL)""",
    """CREATE TABLE document_versions (
        id INTEGER PRIMARY KEY,
        doc_id VARCHAR(200) NOT NULL REFERENCES documents(doc_id),
        version INTEGER NOT NULL,
        title TEXT NOT NULL,
        content_hash VARCHAR(80) NOT NULL,
        format VARCHAR(40) NOT NULL,
        status VARCHAR(20) NOT NULL,
        source TEXT NOT NULL,
        full_text TEXT NOT NULL,
        issuing_authority TEXT,
        official_publisher TEXT,
        retrieval_provider TEXT,
        origin_url TEXT,
        retrieved_at VARCHAR(40),
        version_label TEXT,
        promulgated_on VARCHAR(10),
        effective_on VARCHAR(10),
        language VARCHAR(20),
        licence TEXT,
        permitted_uses TEXT NOT NULL,
        metadata_json TEXT NOT NULL,
        section_count INTEGER NOT NULL,
        ingested_at VARCHAR(40) NOT NULL,
        UNIQUE (doc_id, version))""",
    """CREATE TABLE sections (
        id INTEGER PRIMARY KEY,
        version_id INTEGER NOT NULL REFERENCES document_versions(id),
        section_id VARCHAR(200) NOT NULL,
        ordinal INTEGER NOT NULL,
        heading TEXT NOT NULL,
        text TEXT NOT NULL,
        content_hash VARCHAR(80) NOT NULL,
        kind VARCHAR(20) NOT NULL,
        status VARCHAR(20) NOT NULL,
        deleted BOOLEAN NOT NULL,
        reserved BOOLEAN NOT NULL,
        deleted_parts TEXT NOT NULL,
        UNIQUE (version_id, section_id))""",
    "CREATE INDEX ix_sections_hash ON sections (content_hash)",
    """CREATE TABLE review_decisions (
        id INTEGER PRIMARY KEY,
        version_id INTEGER NOT NULL REFERENCES document_versions(id),
        section_id VARCHAR(200),
        decision VARCHAR(20) NOT NULL,
        reviewer TEXT NOT NULL,
        reason TEXT NOT NULL,
        decided_at VARCHAR(40) NOT NULL)""",
    "CREATE INDEX ix_review_version ON review_decisions (version_id)",
)


def _m002_search_index(conn: Connection) -> None:
    # The search index is derived data: analysed tokens of every section, rebuilt on demand.
    # SQLite gets an FTS5 table (BM25 built in); other databases get a plain table that a
    # future backend indexes its own way.
    conn.execute(sa.text("CREATE TABLE store_meta (key VARCHAR(100) PRIMARY KEY, value TEXT NOT NULL)"))
    if conn.dialect.name == "sqlite":
        conn.execute(
            sa.text(
                "CREATE VIRTUAL TABLE section_index USING fts5("
                "title, heading, body, tokenize = 'unicode61 remove_diacritics 0')"
            )
        )
    else:
        conn.execute(
            sa.text(
                "CREATE TABLE section_index (rowid INTEGER PRIMARY KEY, "
                "title TEXT NOT NULL, heading TEXT NOT NULL, body TEXT NOT NULL)"
            )
        )
    conn.execute(sa.text("INSERT INTO store_meta (key, value) VALUES ('index_analyzer', 'none')"))


_m003_runs = _run(
    # The audit store: one row per run (ask, research) and its append-only events, written as
    # they happen so a crash loses nothing already collected.
    """CREATE TABLE runs (
        id VARCHAR(64) PRIMARY KEY,
        kind VARCHAR(20) NOT NULL,
        question TEXT NOT NULL,
        mode VARCHAR(20) NOT NULL,
        status VARCHAR(20) NOT NULL,
        outcome VARCHAR(40),
        created_at VARCHAR(40) NOT NULL,
        finished_at VARCHAR(40),
        retrieval_json TEXT NOT NULL,
        answer_json TEXT NOT NULL,
        result_json TEXT NOT NULL)""",
    """CREATE TABLE run_events (
        id INTEGER PRIMARY KEY,
        run_id VARCHAR(64) NOT NULL REFERENCES runs(id),
        seq INTEGER NOT NULL,
        stage VARCHAR(40) NOT NULL,
        payload TEXT NOT NULL,
        at VARCHAR(40) NOT NULL,
        UNIQUE (run_id, seq))""",
    "CREATE INDEX ix_runs_created ON runs (created_at)",
)


_m004_claim_ledger = _run(
    # One row per verification of a run (history kept: re-running verify adds a row), and every
    # human override of a claim decision with who, when and why.
    """CREATE TABLE claim_ledgers (
        id INTEGER PRIMARY KEY,
        run_id VARCHAR(64) NOT NULL REFERENCES runs(id),
        verifier_version VARCHAR(40) NOT NULL,
        created_at VARCHAR(40) NOT NULL,
        entries_json TEXT NOT NULL,
        conflicts_json TEXT NOT NULL,
        acceptance_json TEXT NOT NULL)""",
    "CREATE INDEX ix_claim_ledgers_run ON claim_ledgers (run_id)",
    """CREATE TABLE claim_reviews (
        id INTEGER PRIMARY KEY,
        run_id VARCHAR(64) NOT NULL REFERENCES runs(id),
        claim_id VARCHAR(20) NOT NULL,
        decision VARCHAR(20) NOT NULL,
        reviewer TEXT NOT NULL,
        reason TEXT NOT NULL,
        decided_at VARCHAR(40) NOT NULL)""",
    "CREATE INDEX ix_claim_reviews_run ON claim_reviews (run_id)",
)


MIGRATIONS: tuple[Migration, ...] = (
    Migration("m001_evidence_store", _m001_evidence_store),
    Migration("m002_search_index", _m002_search_index),
    Migration("m003_runs", _m003_runs),
    Migration("m004_claim_ledger", _m004_claim_ledger),
)


def _ensure_migrations_table(conn: Connection) -> None:
    conn.execute(
        sa.text(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "id VARCHAR(100) PRIMARY KEY, applied_at VARCHAR(40) NOT NULL)"
        )
    )


def applied(engine: Engine) -> list[str]:
    """Ids of the migrations this database has, in the order they were applied."""
    with engine.begin() as conn:
        _ensure_migrations_table(conn)
        rows = conn.execute(sa.text("SELECT id FROM schema_migrations ORDER BY applied_at, id"))
        return [row[0] for row in rows]


def migrate(engine: Engine, *, upto: str | None = None) -> list[str]:
    """Apply missing migrations in order (stopping after ``upto`` if given); return their ids."""
    known = {m.id for m in MIGRATIONS}
    done = set(applied(engine))
    unknown = done - known
    if unknown:
        raise StoreError(
            f"the store has migrations this citewise does not know ({', '.join(sorted(unknown))}): "
            "it was written by a newer version; upgrade citewise"
        )
    ran: list[str] = []
    for migration in MIGRATIONS:
        if migration.id not in done:
            with engine.begin() as conn:
                migration.apply(conn)
                conn.execute(
                    sa.text("INSERT INTO schema_migrations (id, applied_at) VALUES (:id, :at)"),
                    {"id": migration.id, "at": datetime.now(UTC).isoformat()},
                )
            ran.append(migration.id)
        if migration.id == upto:
            break
    return ran
