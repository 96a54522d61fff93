"""Writing a document version: one transaction that decides new document / new version / unchanged
and stores the version, its sections and their index rows whole or not at all.

Several ingests may store the same document at once. The document's row is inserted if missing
(``ON CONFLICT DO NOTHING``) and then locked (``FOR UPDATE``; on SQLite the write transaction
already excludes other writers), so the check "is this content stored?" and the insert that
follows it are never interleaved with another writer's: identical content is stored once, and
version numbers never collide.

Which document a version belongs to is decided under the same lock (:func:`claim_doc_id`). An id
the document declares (or one given explicitly) names the document wherever the file lies. An id
derived from a file name is only a proposal: the document is the one first stored under it from
the same path in the same format; a different file with the same stem (``a/notes.md`` and
``b/notes.md``, ``good.md`` and ``good.pdf``) becomes another document, ``notes-2``, and the result
says so. Documents stored before origins were recorded are matched by their latest version's
sources and formats, and get their origin recorded then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, RowMapping

from citewise.errors import StoreError
from citewise.hashing import content_hash
from citewise.records import IngestOutcome, IngestResult, ReviewStatus
from citewise.store.connect import advisory_lock
from citewise.store.index import INDEX_LOCK, IndexRow, SearchIndex
from citewise.store.records import NewSection, NewVersion
from citewise.store.rows import iso, section_hash, utcnow
from citewise.store.schema import document_versions, documents, sections

__all__ = ["claim_doc_id", "lock_document", "write_version"]

#: Documents that may share one file-name stem (``notes``, ``notes-2`` ... ``notes-1000``).
MAX_SAME_STEM = 1000


def lock_document(
    conn: Connection, doc_id: str, title: str, origin_path: str | None = None, origin_format: str | None = None
) -> bool:
    """Make sure ``doc_id`` has a row and hold its lock until the transaction ends; return whether
    the row was created now (with the origin given)."""
    values = {
        "doc_id": doc_id,
        "title": title,
        "created_at": iso(utcnow()),
        "origin_path": origin_path,
        "origin_format": origin_format,
    }
    dialect_insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    insert = dialect_insert(documents).values(**values).on_conflict_do_nothing(index_elements=["doc_id"])
    created = conn.execute(insert).rowcount == 1
    conn.execute(sa.select(documents.c.doc_id).where(documents.c.doc_id == doc_id).with_for_update())
    return created


def claim_doc_id(conn: Connection, new: NewVersion) -> tuple[str, str | None]:
    """The id ``new`` is stored under (locked until the transaction ends), and a note when it is
    not the proposed one because another file holds that."""
    first_owner = None
    for n in range(1, MAX_SAME_STEM + 1):
        candidate = new.doc_id if n == 1 else f"{new.doc_id}-{n}"
        if lock_document(conn, candidate, new.title, new.origin_path, new.format):
            break
        if new.id_declared or new.origin_path is None:
            return candidate, None
        same, owner = _same_origin(conn, candidate, new)
        if same:
            break
        first_owner = first_owner or owner
    else:
        raise StoreError(
            f"{MAX_SAME_STEM} documents already have ids made from the name {new.doc_id!r}; give this one an id"
        )
    if candidate == new.doc_id:
        return candidate, None
    return candidate, (
        f"id {new.doc_id!r} belongs to another file ({first_owner}), so this one is {candidate!r}; "
        "to choose the id, state it in the document (front matter 'id:'), in a manifest entry or with --doc-id"
    )


def _same_origin(conn: Connection, doc_id: str, new: NewVersion) -> tuple[bool, str]:
    """Whether stored document ``doc_id`` came from ``new``'s file and format; and where it came from."""
    row = conn.execute(
        sa.select(documents.c.origin_path, documents.c.origin_format).where(documents.c.doc_id == doc_id)
    ).one()
    if row.origin_path is not None:
        same = row.origin_path == new.origin_path and row.origin_format == new.format
        return same, f"{row.origin_path} read as {row.origin_format}"
    # Stored before origins were: any version read from this file in this format makes it the same
    # document. Where two same-stem files became versions of one document, the first of them to be
    # ingested again is matched and its origin recorded; the other then becomes a document of its own.
    stored = conn.execute(
        sa.select(document_versions.c.source, document_versions.c.format)
        .where(document_versions.c.doc_id == doc_id)
        .order_by(document_versions.c.version.desc())
    ).all()
    if not stored:
        return True, doc_id
    same = any(row.format == new.format and _same_path(row.source, new) for row in stored)
    if same:
        conn.execute(
            sa.update(documents)
            .where(documents.c.doc_id == doc_id)
            .values(origin_path=new.origin_path, origin_format=new.format)
        )
    return same, f"{stored[0].source} read as {stored[0].format}"


def _same_path(source: str, new: NewVersion) -> bool:
    """A source recorded before origins were (the path as it was given) names ``new``'s file."""
    if source in (new.source, new.origin_path):
        return True
    try:
        return str(Path(source).resolve()) == new.origin_path
    except (OSError, ValueError):
        return False


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
    doc_id, note = claim_doc_id(conn, new)
    digest = content_hash(new.full_text)
    same = _same_content(conn, doc_id, digest)
    if same is not None:
        return IngestResult(
            new.source, IngestOutcome.UNCHANGED, doc_id, same["version"], same["section_count"], note=note
        )
    version = _next_version(conn, doc_id)
    conn.execute(sa.update(documents).where(documents.c.doc_id == doc_id).values(title=new.title))
    row_id = _insert_version_row(conn, new, doc_id, version, digest)
    _insert_sections(conn, row_id, new.sections)
    advisory_lock(conn, INDEX_LOCK, shared=True)  # no rebuild runs while these rows join the index
    stored = conn.execute(
        sa.select(sections.c.id, sections.c.heading, sections.c.text).where(sections.c.version_id == row_id)
    )
    index.add(conn, (IndexRow(r.id, new.title, r.heading, r.text) for r in stored))
    outcome = IngestOutcome.NEW_DOCUMENT if version == 1 else IngestOutcome.NEW_VERSION
    return IngestResult(new.source, outcome, doc_id, version, len(new.sections), note=note)


def _insert_version_row(conn: Connection, new: NewVersion, doc_id: str, version: int, digest: str) -> int:
    p = new.provenance
    result = conn.execute(
        sa.insert(document_versions)
        .values(
            doc_id=doc_id,
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
