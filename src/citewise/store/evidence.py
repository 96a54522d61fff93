"""The evidence store: documents, versions, sections, review decisions and the search index.

One :class:`EvidenceStore` wraps one database (SQLite by default, any SQLAlchemy URL in principle).
Writes that belong together happen in one transaction: a document version, its sections and their
index rows are stored whole or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, RowMapping

from citewise.errors import NotFoundError, StoreError
from citewise.hashing import content_hash
from citewise.records import (
    Document,
    DocumentVersion,
    Provenance,
    ReviewDecision,
    ReviewStatus,
    Section,
    SectionKind,
)
from citewise.store import migrations
from citewise.store.schema import document_versions, documents, review_decisions, sections

__all__ = ["EvidenceStore", "HashMismatch", "NewSection", "section_hash", "store_engine"]


def utcnow() -> datetime:
    """Now, in UTC (one place, so tests and records agree on the clock)."""
    return datetime.now(UTC)


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _datetime(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def section_hash(heading: str, text: str) -> str:
    """Content hash of a section: its heading and text, normalised."""
    return content_hash(f"{heading}\n{text}")


def store_engine(url: str) -> Engine:
    """An engine for ``url``: a SQLAlchemy URL, or a plain path meaning a SQLite file."""
    if "://" not in url:
        path = Path(url).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{path}"
    engine = sa.create_engine(url)
    if engine.dialect.name == "sqlite":

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cursor = dbapi_conn.cursor()
            # WAL lets readers (search, the web UI) work while an ingest writes.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

    return engine


@dataclass(frozen=True, slots=True)
class NewSection:
    """A section about to be stored (hash computed by the store)."""

    section_id: str
    heading: str
    text: str
    kind: SectionKind
    deleted: bool = False
    reserved: bool = False
    deleted_parts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HashMismatch:
    """A stored hash that no longer matches its text."""

    doc_id: str
    version: int
    section_id: str | None
    stored: str
    derived: str


class EvidenceStore:
    """Documents with provenance, their versions and sections, review state and decisions."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url

    @classmethod
    def open(cls, url: str) -> EvidenceStore:
        """Open (creating and migrating as needed) the store at ``url``."""
        engine = store_engine(url)
        try:
            migrations.migrate(engine)
        except sa.exc.DatabaseError as exc:
            engine.dispose()
            raise StoreError(f"cannot open the store at {url}: {exc.orig}") from exc
        store = cls(engine, url)
        # The search index must match the analyzer before anything is added to it or searched:
        # a fresh store is marked current, one built by an older analyzer is rebuilt now.
        from citewise.search.local import reindex

        reindex(store)
        return store

    def close(self) -> None:
        """Release database connections."""
        self.engine.dispose()

    def __enter__(self) -> EvidenceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A connection in a transaction, committed on success and rolled back on error."""
        with self.engine.begin() as conn:
            yield conn

    # -- documents and versions -------------------------------------------------------------

    def latest_version_row(self, conn: Connection, doc_id: str) -> RowMapping | None:
        """The newest stored version of ``doc_id``, or None."""
        query = (
            sa.select(document_versions)
            .where(document_versions.c.doc_id == doc_id)
            .order_by(document_versions.c.version.desc())
            .limit(1)
        )
        return conn.execute(query).mappings().first()

    def find_version_by_hash(self, conn: Connection, doc_id: str, digest: str) -> RowMapping | None:
        """A stored version of ``doc_id`` with exactly this content hash, or None."""
        query = sa.select(document_versions).where(
            document_versions.c.doc_id == doc_id, document_versions.c.content_hash == digest
        )
        return conn.execute(query).mappings().first()

    def insert_version(
        self,
        conn: Connection,
        *,
        doc_id: str,
        title: str,
        fmt: str,
        source: str,
        full_text: str,
        provenance: Provenance,
        metadata: dict[str, str],
        new_sections: Sequence[NewSection],
    ) -> tuple[int, int]:
        """Store a new version (``review_required``) with its sections; return (row id, version)."""
        now = _iso(utcnow())
        previous = self.latest_version_row(conn, doc_id)
        if previous is None:
            conn.execute(sa.insert(documents).values(doc_id=doc_id, title=title, created_at=now))
        else:
            conn.execute(sa.update(documents).where(documents.c.doc_id == doc_id).values(title=title))
        version = 1 if previous is None else previous["version"] + 1
        result = conn.execute(
            sa.insert(document_versions).values(
                doc_id=doc_id,
                version=version,
                title=title,
                content_hash=content_hash(full_text),
                format=fmt,
                status=ReviewStatus.REVIEW_REQUIRED.value,
                source=source,
                full_text=full_text,
                issuing_authority=provenance.issuing_authority,
                official_publisher=provenance.official_publisher,
                retrieval_provider=provenance.retrieval_provider,
                origin_url=provenance.origin_url,
                retrieved_at=_iso(provenance.retrieved_at),
                version_label=provenance.version_label,
                promulgated_on=_iso(provenance.promulgated_on),
                effective_on=_iso(provenance.effective_on),
                language=provenance.language,
                licence=provenance.licence,
                permitted_uses=json.dumps(list(provenance.permitted_uses)),
                metadata_json=json.dumps(metadata, ensure_ascii=False, sort_keys=True),
                section_count=len(new_sections),
                ingested_at=now,
            )
        )
        key = result.inserted_primary_key
        assert key is not None  # an INSERT always reports its key
        version_row_id = int(key[0])
        _insert_sections(conn, version_row_id, new_sections)
        return version_row_id, version

    def documents(self) -> list[Document]:
        """Every document, by id."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(documents).order_by(documents.c.doc_id)).mappings()
            return [Document(r["doc_id"], r["title"], _datetime(r["created_at"])) for r in rows]  # type: ignore[arg-type]

    def versions(self, doc_id: str | None = None, *, status: ReviewStatus | None = None) -> list[DocumentVersion]:
        """Versions, optionally of one document and/or in one review status."""
        query = sa.select(document_versions).order_by(document_versions.c.doc_id, document_versions.c.version)
        if doc_id is not None:
            query = query.where(document_versions.c.doc_id == doc_id)
        if status is not None:
            query = query.where(document_versions.c.status == status.value)
        with self.engine.connect() as conn:
            return [version_from_row(r) for r in conn.execute(query).mappings()]

    def version(self, doc_id: str, version: int | None = None) -> DocumentVersion:
        """One version (the newest when ``version`` is None); NotFoundError names what exists."""
        return version_from_row(self.version_row(doc_id, version))

    def version_row(self, doc_id: str, version: int | None = None, conn: Connection | None = None) -> RowMapping:
        """The stored row of one version."""
        query = sa.select(document_versions).where(document_versions.c.doc_id == doc_id)
        if version is None:
            query = query.order_by(document_versions.c.version.desc()).limit(1)
        else:
            query = query.where(document_versions.c.version == version)
        if conn is None:
            with self.engine.connect() as own:
                row = own.execute(query).mappings().first()
        else:
            row = conn.execute(query).mappings().first()
        if row is None:
            self._raise_not_found(doc_id, version)
        return row  # type: ignore[return-value]

    def _raise_not_found(self, doc_id: str, version: int | None) -> None:
        known = [v.version for v in self.versions(doc_id)]
        if not known:
            raise NotFoundError(f"no document {doc_id!r} in the store; see `citewise docs list`")
        raise NotFoundError(f"document {doc_id!r} has no version {version}; it has versions {known}")

    def sections(self, doc_id: str, version: int | None = None) -> list[Section]:
        """Sections of one version, in document order."""
        row = self.version_row(doc_id, version)
        query = sa.select(sections).where(sections.c.version_id == row["id"]).order_by(sections.c.ordinal)
        with self.engine.connect() as conn:
            return [section_from_row(r, row["doc_id"], row["version"]) for r in conn.execute(query).mappings()]

    def decisions(self, doc_id: str | None = None) -> list[ReviewDecision]:
        """Review decisions, oldest first."""
        query = (
            sa.select(review_decisions, document_versions.c.doc_id, document_versions.c.version)
            .join(document_versions, review_decisions.c.version_id == document_versions.c.id)
            .order_by(review_decisions.c.id)
        )
        if doc_id is not None:
            query = query.where(document_versions.c.doc_id == doc_id)
        with self.engine.connect() as conn:
            return [
                ReviewDecision(
                    doc_id=r["doc_id"],
                    version=r["version"],
                    section_id=r["section_id"],
                    decision=ReviewStatus(r["decision"]),
                    reviewer=r["reviewer"],
                    reason=r["reason"],
                    decided_at=datetime.fromisoformat(r["decided_at"]),
                )
                for r in conn.execute(query).mappings()
            ]

    # -- integrity ---------------------------------------------------------------------------

    def verify(self) -> tuple[int, list[HashMismatch]]:
        """Re-derive every stored hash; return (hashes checked, mismatches)."""
        checked = 0
        mismatches: list[HashMismatch] = []
        with self.engine.connect() as conn:
            for v in conn.execute(sa.select(document_versions)).mappings():
                checked += 1
                derived = content_hash(v["full_text"])
                if derived != v["content_hash"]:
                    mismatches.append(HashMismatch(v["doc_id"], v["version"], None, v["content_hash"], derived))
                query = sa.select(sections).where(sections.c.version_id == v["id"])
                for s in conn.execute(query).mappings():
                    checked += 1
                    derived = section_hash(s["heading"], s["text"])
                    if derived != s["content_hash"]:
                        mismatches.append(
                            HashMismatch(v["doc_id"], v["version"], s["section_id"], s["content_hash"], derived)
                        )
        return checked, mismatches


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


def version_from_row(r: RowMapping) -> DocumentVersion:
    """A :class:`DocumentVersion` from a stored row."""
    provenance = Provenance(
        issuing_authority=r["issuing_authority"],
        official_publisher=r["official_publisher"],
        retrieval_provider=r["retrieval_provider"],
        origin_url=r["origin_url"],
        retrieved_at=_datetime(r["retrieved_at"]),
        version_label=r["version_label"],
        promulgated_on=_date(r["promulgated_on"]),
        effective_on=_date(r["effective_on"]),
        language=r["language"],
        licence=r["licence"],
        permitted_uses=tuple(json.loads(r["permitted_uses"])),
    )
    return DocumentVersion(
        doc_id=r["doc_id"],
        version=r["version"],
        title=r["title"],
        content_hash=r["content_hash"],
        format=r["format"],
        provenance=provenance,
        status=ReviewStatus(r["status"]),
        ingested_at=datetime.fromisoformat(r["ingested_at"]),
        section_count=r["section_count"],
        metadata=json.loads(r["metadata_json"]),
    )


def section_from_row(r: RowMapping, doc_id: str, version: int) -> Section:
    """A :class:`Section` from a stored row."""
    return Section(
        doc_id=doc_id,
        version=version,
        section_id=r["section_id"],
        ordinal=r["ordinal"],
        heading=r["heading"],
        text=r["text"],
        content_hash=r["content_hash"],
        kind=SectionKind(r["kind"]),
        status=ReviewStatus(r["status"]),
        deleted=bool(r["deleted"]),
        reserved=bool(r["reserved"]),
        deleted_parts=tuple(json.loads(r["deleted_parts"])),
    )
