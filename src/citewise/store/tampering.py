"""What the store conformance tests (:mod:`citewise.testing.store_conformance`) do beneath the store
protocol: build a database at an older schema, write as a newer citewise would, tamper with stored
text, and compare the migrated schema with the declared one. Only tests call these; they live here
because only the store speaks SQL.
"""

from __future__ import annotations

import sqlalchemy as sa

from citewise.hashing import content_hash
from citewise.store import migrations
from citewise.store.evidence import EvidenceStore, section_hash, store_engine
from citewise.store.schema import metadata

__all__ = [
    "OLD_DOCUMENT",
    "mark_index_built_by",
    "mark_written_by_a_newer_citewise",
    "migrate_blank",
    "schema_differences",
    "store_at_schema",
    "tamper_with_texts",
]

OLD_DOCUMENT = ("old-doc", "s1")
"""The (document, section) :func:`store_at_schema` writes, approved, as the first schema stored it."""


def migrate_blank(store_url: str) -> tuple[list[str], list[str], list[str]]:
    """Migrate a blank database twice, directly: (applied the first time, recorded, applied the second)."""
    engine = store_engine(store_url)
    try:
        first = migrations.migrate(engine)
        recorded = migrations.applied(engine)
        return first, recorded, migrations.migrate(engine)
    finally:
        engine.dispose()


def store_at_schema(store_url: str, migration_id: str) -> list[str]:
    """Migrate a blank database at ``store_url`` up to ``migration_id`` and write one document as that
    schema would have; returns the migrations applied."""
    engine = store_engine(store_url)
    try:
        migrations.migrate(engine, upto=migration_id)
        with engine.begin() as conn:
            _write_old_document(conn)
        return migrations.applied(engine)
    finally:
        engine.dispose()


def mark_written_by_a_newer_citewise(store_url: str) -> None:
    """Record a migration this citewise does not know, as a newer version would."""
    engine = store_engine(store_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO schema_migrations VALUES ('m999_future', '2030-01-01')"))
    finally:
        engine.dispose()


def tamper_with_texts(store: EvidenceStore, section_id: str, text: str) -> None:
    """Change a stored section's text and every version's full text behind the store's back."""
    with store.transaction() as conn:
        conn.execute(sa.text("UPDATE sections SET text = :t WHERE section_id = :s"), {"t": text, "s": section_id})
        conn.execute(sa.text("UPDATE document_versions SET full_text = full_text || ' extra'"))


def mark_index_built_by(store: EvidenceStore, analyzer: str) -> None:
    """Make the store's index look built by another analyzer (and drop its postings)."""
    with store.transaction() as conn:
        conn.execute(sa.text("UPDATE store_meta SET value = :a WHERE key = 'index_analyzer'"), {"a": analyzer})
        store.index.clear(conn)


def schema_differences(store: EvidenceStore) -> list[tuple[str, set[str], set[str]]]:
    """Tables whose migrated columns differ from the declared ones: (table, actual, declared)."""
    inspector = sa.inspect(store.engine)
    found = []
    for table in metadata.sorted_tables:
        actual = {c["name"] for c in inspector.get_columns(table.name)}
        declared = {c.name for c in table.columns}
        if actual != declared:
            found.append((table.name, actual, declared))
    return found


def _write_old_document(conn: sa.Connection) -> None:
    """One approved document with one section, as the first schema stored it."""
    text = "Tenants and landlords"
    conn.execute(
        sa.text(
            "INSERT INTO documents (doc_id, title, created_at) VALUES ('old-doc', 'Old', '2025-01-01T00:00:00+00:00')"
        )
    )
    version_id = conn.execute(
        sa.text(
            "INSERT INTO document_versions (doc_id, version, title, content_hash, format, status, source, "
            "full_text, permitted_uses, metadata_json, section_count, ingested_at) VALUES "
            "('old-doc', 1, 'Old', :h, 'text', 'approved', 'old.txt', :text, '[]', '{}', 1, "
            "'2025-01-01T00:00:00+00:00') RETURNING id"
        ),
        {"h": content_hash(text), "text": text},
    ).scalar_one()
    conn.execute(
        sa.text(
            "INSERT INTO sections (version_id, section_id, ordinal, heading, text, content_hash, kind, status, "
            "deleted, reserved, deleted_parts) VALUES (:v, 's1', 0, 'Tenancy', :text, :h, 'article', 'approved', "
            ":no, :no, '[]')"
        ),
        {"v": version_id, "text": text, "h": section_hash("Tenancy", text), "no": False},
    )
