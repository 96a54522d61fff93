"""Writing a document version: one transaction that decides new document / new version / unchanged
and stores the version, its sections and their index rows whole or not at all.

Several ingests may store the same document at once. The document's row is inserted if missing
(``ON CONFLICT DO NOTHING``) and then locked (``FOR UPDATE``; on SQLite the write transaction
already excludes other writers), so the check "is this content stored?" and the insert that
follows it are never interleaved with another writer's: identical content is stored once, and
version numbers never collide.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, RowMapping

from citewise.hashing import content_hash
from citewise.records import IngestOutcome, IngestResult, ReviewStatus
from citewise.store.connect import advisory_lock
from citewise.store.index import INDEX_LOCK, IndexRow, SearchIndex
from citewise.store.records import NewSection, NewVersion
from citewise.store.rows import iso, section_hash, utcnow
from citewise.store.schema import document_versions, documents, sections

__all__ = ["lock_document", "write_version"]


def lock_document(conn: Connection, doc_id: str, title: str) -> bool:
    """Make sure ``doc_id`` has a row and hold its lock until the transaction ends; return whether
    the row was created now."""
    values = {"doc_id": doc_id, "title": title, "created_at": iso(utcnow())}
    dialect_insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    insert = dialect_insert(documents).values(**values).on_conflict_do_nothing(index_elements=["doc_id"])
    created = conn.execute(insert).rowcount == 1
    conn.execute(sa.select(documents.c.doc_id).where(documents.c.doc_id == doc_id).with_for_update())
    return created


def _same_content(conn: Connection, doc_id: str, digest: str) -> RowMapping | None:
    query = sa.select(document_versions.c.version, document_versions.c.section_count).where(
        document_versions.c.doc_id == doc_id, document_versions.c.content_hash == digest
    )
    return conn.execute(query.limit(1)).mappings().first()


def _next_version(conn: Connection, doc_id: str) -> int:
    latest = conn.execute(
        sa.select(sa.func.max(document_versions.c.version)).where(document_versions.c.doc_id == doc_id)
    ).scalar()
    return int(latest or 0) + 1


def write_version(conn: Connection, new: NewVersion, index: SearchIndex) -> IngestResult:
    """Store ``new`` as the next version of its document, or report the identical one stored."""
    lock_document(conn, new.doc_id, new.title)
    digest = content_hash(new.full_text)
    same = _same_content(conn, new.doc_id, digest)
    if same is not None:
        return IngestResult(new.source, IngestOutcome.UNCHANGED, new.doc_id, same["version"], same["section_count"])
    version = _next_version(conn, new.doc_id)
    conn.execute(sa.update(documents).where(documents.c.doc_id == new.doc_id).values(title=new.title))
    row_id = _insert_version_row(conn, new, version, digest)
    _insert_sections(conn, row_id, new.sections)
    advisory_lock(conn, INDEX_LOCK, shared=True)  # no rebuild runs while these rows join the index
    stored = conn.execute(
        sa.select(sections.c.id, sections.c.heading, sections.c.text).where(sections.c.version_id == row_id)
    )
    index.add(conn, (IndexRow(r.id, new.title, r.heading, r.text) for r in stored))
    outcome = IngestOutcome.NEW_DOCUMENT if version == 1 else IngestOutcome.NEW_VERSION
    return IngestResult(new.source, outcome, new.doc_id, version, len(new.sections))


def _insert_version_row(conn: Connection, new: NewVersion, version: int, digest: str) -> int:
    p = new.provenance
    result = conn.execute(
        sa.insert(document_versions)
        .values(
            doc_id=new.doc_id,
            version=version,
            title=new.title,
            content_hash=digest,
            format=new.format,
            status=ReviewStatus.REVIEW_REQUIRED.value,
            source=new.source,
            full_text=new.full_text,
            issuing_authority=p.issuing_authority,
            official_publisher=p.official_publisher,
            retrieval_provider=p.retrieval_provider,
            origin_url=p.origin_url,
            retrieved_at=iso(p.retrieved_at),
            version_label=p.version_label,
            promulgated_on=iso(p.promulgated_on),
            effective_on=iso(p.effective_on),
            language=p.language,
            licence=p.licence,
            permitted_uses=json.dumps(list(p.permitted_uses)),
            metadata_json=json.dumps(new.metadata, ensure_ascii=False, sort_keys=True),
            section_count=len(new.sections),
            ingested_at=iso(utcnow()),
        )
        .returning(document_versions.c.id)
    )
    return int(result.scalar_one())


def _insert_sections(conn: Connection, version_row_id: int, new_sections: Sequence[NewSection]) -> None:
    """Store a version's sections, each ``review_required`` with its content hash."""
    if not new_sections:
        return
    conn.execute(
        sa.insert(sections),
        [
            {
                "version_id": version_row_id,
                "section_id": s.section_id,
                "ordinal": ordinal,
                "heading": s.heading,
                "text": s.text,
                "content_hash": section_hash(s.heading, s.text),
                "kind": s.kind.value,
                "status": ReviewStatus.REVIEW_REQUIRED.value,
                "deleted": s.deleted,
                "reserved": s.reserved,
                "deleted_parts": json.dumps(list(s.deleted_parts), ensure_ascii=False),
            }
            for ordinal, s in enumerate(new_sections)
        ],
    )
