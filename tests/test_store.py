"""The store: migrations from blank and from the previous schema, versioning, hash verification."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from citewise.errors import NotFoundError, StoreError
from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.records import IngestOutcome, ReviewStatus
from citewise.search.local import search
from citewise.store import migrations
from citewise.store.evidence import EvidenceStore, section_hash, store_engine
from citewise.store.schema import metadata as schema_metadata
from tests.conftest import make_doc

pytestmark = pytest.mark.integration


def _store(store: EvidenceStore, doc, path: str = "x.txt"):  # type: ignore[no-untyped-def]
    return store_document(store, doc, Path(path), IngestOptions(), {})


def test_blank_database_gets_every_migration_recorded(tmp_path: Path) -> None:
    engine = store_engine(str(tmp_path / "blank.sqlite"))
    ran = migrations.migrate(engine)
    assert ran == [m.id for m in migrations.MIGRATIONS]
    assert migrations.applied(engine) == ran
    assert migrations.migrate(engine) == []  # idempotent
    engine.dispose()


def test_migrated_schema_matches_the_declared_tables(tmp_path: Path) -> None:
    engine = store_engine(str(tmp_path / "s.sqlite"))
    migrations.migrate(engine)
    inspector = sa.inspect(engine)
    for table in schema_metadata.sorted_tables:
        actual = {c["name"] for c in inspector.get_columns(table.name)}
        assert actual == {c.name for c in table.columns}, table.name
    engine.dispose()


@pytest.mark.parametrize("previous", [m.id for m in migrations.MIGRATIONS[:-1]])
def test_upgrade_from_previous_schema_keeps_data_and_builds_the_index(tmp_path: Path, previous: str) -> None:
    path = str(tmp_path / "old.sqlite")
    engine = store_engine(path)
    migrations.migrate(engine, upto=previous)
    assert migrations.applied(engine)[-1] == previous
    with engine.begin() as conn:  # data written by the first schema, before any index existed
        conn.execute(sa.text("INSERT INTO documents VALUES ('old-doc', 'Old', '2025-01-01T00:00:00+00:00')"))
        conn.execute(
            sa.text(
                "INSERT INTO document_versions (id, doc_id, version, title, content_hash, format, status, source, "
                "full_text, permitted_uses, metadata_json, section_count, ingested_at) VALUES "
                "(1, 'old-doc', 1, 'Old', :h, 'text', 'approved', 'old.txt', 'Tenants and landlords', '[]', '{}', 1, "
                "'2025-01-01T00:00:00+00:00')"
            ),
            {"h": "sha256:" + "0" * 64},
        )
        conn.execute(
            sa.text(
                "INSERT INTO sections (version_id, section_id, ordinal, heading, text, content_hash, kind, status, "
                "deleted, reserved, deleted_parts) VALUES (1, 's1', 0, 'Tenancy', 'Tenants and landlords', :h, "
                "'article', 'approved', 0, 0, '[]')"
            ),
            {"h": section_hash("Tenancy", "Tenants and landlords")},
        )
    engine.dispose()
    with EvidenceStore.open(path) as store:
        assert migrations.applied(store.engine)[-1] == migrations.MIGRATIONS[-1].id
        hits = search(store, "landlord", k=3)
        assert [(h.doc_id, h.section_id) for h in hits] == [("old-doc", "s1")]


def test_store_written_by_a_newer_citewise_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "new.sqlite")
    EvidenceStore.open(path).close()
    engine = store_engine(path)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO schema_migrations VALUES ('m999_future', '2030-01-01')"))
    engine.dispose()
    with pytest.raises(StoreError, match="newer version"):
        EvidenceStore.open(path)


def test_sqlite_store_runs_in_wal_mode(store: EvidenceStore) -> None:
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"


def test_identical_content_is_a_no_op(store: EvidenceStore) -> None:
    first = _store(store, make_doc())
    again = _store(store, make_doc())
    assert first.outcome is IngestOutcome.NEW_DOCUMENT and first.version == 1
    assert again.outcome is IngestOutcome.UNCHANGED and again.version == 1
    assert len(store.versions("doc-a")) == 1


def test_changed_content_is_a_new_version_needing_review_and_unchanged_sections_keep_hashes(
    store: EvidenceStore,
) -> None:
    _store(store, make_doc())
    changed = _store(store, make_doc(sections={"§ 1": "Scope of this act.", "§ 2": "Definitions, amended."}))
    assert changed.outcome is IngestOutcome.NEW_VERSION and changed.version == 2
    v1, v2 = store.sections("doc-a", 1), store.sections("doc-a", 2)
    assert v1[0].content_hash == v2[0].content_hash  # § 1 unchanged
    assert v1[1].content_hash != v2[1].content_hash
    assert store.version("doc-a").status is ReviewStatus.REVIEW_REQUIRED
    assert all(s.status is ReviewStatus.REVIEW_REQUIRED for s in v2)


def test_hashes_are_prefixed_and_formatting_noise_is_not_a_change(store: EvidenceStore) -> None:
    _store(store, make_doc(sections={"§ 1": "Scope  of this act. "}))
    same = _store(store, make_doc(sections={"§ 1": "Scope of this act."}))
    assert same.outcome is IngestOutcome.UNCHANGED
    assert store.version("doc-a").content_hash.startswith("sha256:")


def test_verify_reports_tampered_sections_and_documents(store: EvidenceStore) -> None:
    _store(store, make_doc())
    checked, mismatches = store.verify()
    assert checked == 3 and mismatches == []
    with store.transaction() as conn:
        conn.execute(sa.text("UPDATE sections SET text = 'Scope of another act.' WHERE section_id = '§ 1'"))
        conn.execute(sa.text("UPDATE document_versions SET full_text = full_text || ' extra'"))
    _, mismatches = store.verify()
    assert {(m.doc_id, m.section_id) for m in mismatches} == {("doc-a", "§ 1"), ("doc-a", None)}


def test_unknown_document_and_version_name_what_exists(store: EvidenceStore) -> None:
    _store(store, make_doc())
    with pytest.raises(NotFoundError, match="docs list"):
        store.version("nope")
    with pytest.raises(NotFoundError, match=r"versions \[1\]"):
        store.version("doc-a", 7)


def test_a_failing_document_leaves_nothing_half_written(store: EvidenceStore) -> None:
    doc = make_doc()
    broken = type(doc)(
        **{**{f: getattr(doc, f) for f in doc.__dataclass_fields__}, "sections": doc.sections + (doc.sections[0],)}
    )
    with pytest.raises(Exception, match="duplicate section id"):
        _store(store, broken)
    assert store.documents() == []
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM sections")).scalar() == 0
