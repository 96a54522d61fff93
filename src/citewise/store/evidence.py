"""The evidence store: documents, versions, sections, review decisions and the search index.

One :class:`EvidenceStore` wraps one database, SQLite or PostgreSQL, through SQLAlchemy; what
differs between them (the search index, locking) sits behind small pieces of :mod:`citewise.store`.
It implements :class:`~citewise.store.protocol.EvidenceStoreProtocol`, and
``tests/store_conformance.py`` runs the same tests against both databases.

Writes that belong together happen in one short transaction — a document version, its sections and
their index rows are stored whole or not at all — retried a bounded number of times when another
writer got in the way (see :mod:`citewise.store.connect`).

>>> with EvidenceStore.open("sqlite://") as store:
...     store.documents()
[]
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, RowMapping

from citewise.errors import NotFoundError, StoreError
from citewise.hashing import content_hash
from citewise.records import (
    Document,
    DocumentVersion,
    IngestResult,
    ReviewDecision,
    ReviewStatus,
    Section,
    SectionKind,
)
from citewise.store import embeddings, migrations
from citewise.store.connect import (
    advisory_lock,
    describe_error,
    redact,
    store_engine,
    write_retrying,
    write_transaction,
)
from citewise.store.index import INDEX_LOCK, IndexRow, SearchIndex, index_is_current, mark_index_current
from citewise.store.index_fts5 import Fts5Index
from citewise.store.index_postings import PostingsIndex
from citewise.store.records import HashMismatch, IndexMatch, NewSection, NewVersion, PendingReview, SectionMatch
from citewise.store.reviews import decision_from_row, decisions_query, pending_reviews, record_decision
from citewise.store.rows import section_from_row, section_hash, utcnow, version_from_row
from citewise.store.schema import document_versions, documents, review_decisions, sections
from citewise.store.text_places import first_section_ids
from citewise.store.versions import write_version

__all__ = [
    "EvidenceStore",
    "HashMismatch",
    "NewSection",
    "NewVersion",
    "section_from_row",
    "section_hash",
    "store_engine",
    "utcnow",
    "version_from_row",
]


def _index_for(dialect: str) -> SearchIndex:
    """The search index of a database dialect: FTS5 on SQLite, postings elsewhere (PostgreSQL)."""
    return Fts5Index() if dialect == "sqlite" else PostingsIndex()


class EvidenceStore:
    """Documents with provenance, their versions and sections, review state and decisions, and the
    search index over them."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = redact(url)
        """Where the store is, password hidden (safe to show and to record)."""
        self._url = url
        self.index = _index_for(engine.dialect.name)

    @classmethod
    def open(cls, url: str) -> EvidenceStore:
        """Open (creating and migrating as needed) the store at ``url``; StoreError in one line
        when it cannot be used."""
        engine = store_engine(url)
        store = cls(engine, url)
        try:
            migrations.migrate(engine)
            # The index must match the analyzer before anything is added to it or searched:
            # a fresh store is marked current, one built by an older analyzer is rebuilt now.
            store.reindex()
        except sa.exc.DBAPIError as exc:
            engine.dispose()
            raise StoreError(describe_error(exc, url)) from exc
        except BaseException:
            engine.dispose()
            raise
        return store

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def close(self) -> None:
        """Release database connections."""
        self.engine.dispose()

    def __enter__(self) -> EvidenceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A connection in a write transaction, committed on success and rolled back on error."""
        with write_transaction(self.engine) as conn:
            yield conn

    def migrations(self) -> list[str]:
        """Ids of the schema migrations this store has, in the order they were applied."""
        return migrations.applied(self.engine)

    # -- documents and versions -------------------------------------------------------------

    def store_version(self, new: NewVersion) -> IngestResult:
        """Store ``new`` as a new version (``review_required``) with its sections and index rows, or
        report it ``unchanged`` when this exact content is already a version of the document."""
        return write_retrying(self.engine, lambda conn: write_version(conn, new, self.index), url=self._url)

    def documents(self) -> list[Document]:
        """Every document, by id."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(documents).order_by(documents.c.doc_id)).mappings()
            return [Document(r["doc_id"], r["title"], datetime.fromisoformat(r["created_at"])) for r in rows]

    def versions(self, doc_id: str | None = None, *, status: ReviewStatus | None = None) -> list[DocumentVersion]:
        """Versions, optionally of one document and/or in one review status."""
        query = sa.select(*_VERSION_COLUMNS).order_by(document_versions.c.doc_id, document_versions.c.version)
        if doc_id is not None:
            query = query.where(document_versions.c.doc_id == doc_id)
        if status is not None:
            query = query.where(document_versions.c.status == status.value)
        with self.engine.connect() as conn:
            return [version_from_row(r) for r in conn.execute(query).mappings()]

    def versions_of(self, doc_ids: Sequence[str]) -> dict[str, list[DocumentVersion]]:
        """The versions of each of ``doc_ids``, by number, read in one query (an id the store does
        not hold maps to an empty list): what search needs to flag its hits' versions."""
        wanted = list(dict.fromkeys(doc_ids))
        found: dict[str, list[DocumentVersion]] = {doc_id: [] for doc_id in wanted}
        if not wanted:
            return found
        query = (
            sa.select(*_VERSION_COLUMNS)
            .where(document_versions.c.doc_id.in_(wanted))
            .order_by(document_versions.c.doc_id, document_versions.c.version)
        )
        with self.engine.connect() as conn:
            for row in conn.execute(query).mappings():
                found[row["doc_id"]].append(version_from_row(row))
        return found

    def versions_marker(self) -> tuple[int, int]:
        """Changes whenever a version is stored or a review decision is recorded (the only writes
        that add a version or change one's status): the number of each. Neither is ever deleted, so
        a count only grows, and a commit that was late to take its row id still changes it."""
        count_versions = sa.select(sa.func.count()).select_from(document_versions).scalar_subquery()
        count_decisions = sa.select(sa.func.count()).select_from(review_decisions).scalar_subquery()
        with self.engine.connect() as conn:
            versions, decisions = conn.execute(sa.select(count_versions, count_decisions)).one()
        return int(versions), int(decisions)

    def version(self, doc_id: str, version: int | None = None) -> DocumentVersion:
        """One version (the newest when ``version`` is None); NotFoundError names what exists."""
        return version_from_row(self._version_row(doc_id, version))

    def _version_row(self, doc_id: str, version: int | None) -> RowMapping:
        query = sa.select(document_versions).where(document_versions.c.doc_id == doc_id)
        if version is None:
            query = query.order_by(document_versions.c.version.desc()).limit(1)
        else:
            query = query.where(document_versions.c.version == version)
        with self.engine.connect() as conn:
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
        row = self._version_row(doc_id, version)
        query = sa.select(sections).where(sections.c.version_id == row["id"]).order_by(sections.c.ordinal)
        with self.engine.connect() as conn:
            return [section_from_row(r, row["doc_id"], row["version"]) for r in conn.execute(query).mappings()]

    def find_sections(
        self, section_ids: Sequence[str], *, status: ReviewStatus = ReviewStatus.APPROVED
    ) -> list[SectionMatch]:
        """Sections (not deleted) with one of these ids, in versions of this status, by document."""
        if not section_ids:
            return []
        query = (
            sa.select(
                document_versions.c.doc_id,
                document_versions.c.version,
                document_versions.c.title,
                sections.c.section_id,
                sections.c.heading,
            )
            .join(sections, sections.c.version_id == document_versions.c.id)
            .where(
                sections.c.section_id.in_(list(section_ids)),
                document_versions.c.status == status.value,
                sections.c.deleted.is_(False),
            )
            .order_by(document_versions.c.doc_id, document_versions.c.version, sections.c.ordinal)
        )
        with self.engine.connect() as conn:
            return [SectionMatch(*row) for row in conn.execute(query)]

    # -- review ------------------------------------------------------------------------------

    def record_decision(
        self,
        doc_id: str,
        version: int | None,
        decision: ReviewStatus,
        *,
        reviewer: str,
        reason: str,
        section_id: str | None = None,
    ) -> ReviewDecision:
        """Approve or reject a version (the newest when ``version`` is None) or one of its sections,
        record who, when and why, and settle which approved version is current.

        ReviewError when the target is already in that state; NotFoundError names what exists.
        """
        if decision not in (ReviewStatus.APPROVED, ReviewStatus.REJECTED):
            raise ValueError(f"a review decision is approved or rejected, not {decision.value}")
        at = utcnow()
        made = write_retrying(
            self.engine,
            lambda conn: record_decision(
                conn, doc_id, version, decision, reviewer=reviewer, reason=reason, section_id=section_id, at=at
            ),
            url=self._url,
        )
        if made is None:
            self._raise_not_found(doc_id, version)
        return made  # type: ignore[return-value]

    def decisions(self, doc_id: str | None = None) -> list[ReviewDecision]:
        """Review decisions, oldest first."""
        with self.engine.connect() as conn:
            return [decision_from_row(r) for r in conn.execute(decisions_query(doc_id)).mappings()]

    def pending_reviews(self) -> list[PendingReview]:
        """Versions needing review, and approved versions that still have pending sections."""
        with self.engine.connect() as conn:
            return pending_reviews(conn)

    # -- search index ------------------------------------------------------------------------

    def search(self, terms: Sequence[str], limit: int) -> list[IndexMatch]:
        """The ``limit`` best-scoring sections (BM25) for analysed query ``terms``, best first."""
        with self.engine.connect() as conn:
            ranked = self.index.match(conn, terms, limit)
            if not ranked:
                return []
            rows = _match_rows(conn, [row_id for row_id, _ in ranked])
        by_id = {r.id: r for r in rows}
        return [_index_match(by_id[row_id], score) for row_id, score in ranked if row_id in by_id]

    def term_sections(self, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """How many sections the index holds, and how many of them hold each of the analysed
        ``terms`` (0 for a term none holds)."""
        with self.engine.connect() as conn:
            stats = self.index.stats(conn, list(dict.fromkeys(terms)))
        return stats.rows, {t: stats.hits.get(t, 0) for t in terms}

    def sections_with_hashes(self, scored: Sequence[tuple[str, float]], limit: int | None = None) -> list[IndexMatch]:
        """The stored sections whose content hash is one of ``scored`` (hash, score), in that order,
        each with its hash's score, at most ``limit`` of them (dense search finds texts; this finds
        where they are — a text repeated in many documents must not flood the result).

        Only the sections that can be among the first ``limit`` are read, without counting any hash's
        sections (:func:`~citewise.store.text_places.first_section_ids`).
        """
        if not scored:
            return []
        with self.engine.connect() as conn:
            by_id: dict[int, Any] = {}  # row id -> row of _MATCH_COLUMNS
            held: dict[str, list[int]] = {}
            if limit is not None and limit > 0:
                # The first text's first sections are read whole, not as ids and then rows: in a
                # corpus of copies they are all the sections wanted, and then that is the only read.
                nearest = scored[0][0]
                first = conn.execute(_FIRST_ROWS_OF_ONE, {"content_hash": nearest, "cap": limit}).all()
                by_id.update((row.id, row) for row in first)
                held[nearest] = [row.id for row in first]
            placed = first_section_ids(conn, scored, limit, held)
            wanted = [row_id for row_id in dict.fromkeys(i for i, _ in placed) if row_id not in by_id]
            by_id.update((row.id, row) for row in (_match_rows(conn, wanted) if wanted else []))
        return [_index_match(by_id[row_id], score) for row_id, score in placed if row_id in by_id]

    # -- dense vectors -----------------------------------------------------------------------

    def texts_to_embed(
        self, model_id: str, model_version: str, among: Sequence[str] | None = None
    ) -> list[tuple[str, str]]:
        """(content hash, text) of every distinct section text this model has no vector for (only
        hashes ``among`` the given ones, when given)."""
        with self.engine.connect() as conn:
            return embeddings.texts_to_embed(conn, model_id, model_version, among)

    def vectors_among(self, model_id: str, model_version: str, hashes: Sequence[str]) -> int:
        """How many of ``hashes`` have a vector of this model."""
        with self.engine.connect() as conn:
            return embeddings.vectors_among(conn, model_id, model_version, hashes)

    def add_vectors(self, model_id: str, model_version: str, dim: int, rows: Sequence[tuple[str, bytes]]) -> int:
        """Store (content hash, float32 bytes) vectors of one model; return how many were new."""
        at = utcnow().isoformat()
        return write_retrying(
            self.engine,
            lambda conn: embeddings.add_vectors(conn, model_id, model_version, dim, rows, at),
            url=self._url,
        )

    def vectors(self, model_id: str, model_version: str) -> embeddings.StoredVectors:
        """Every stored vector of one model."""
        with self.engine.connect() as conn:
            return embeddings.vectors(conn, model_id, model_version)

    def vectors_marker(self, model_id: str, model_version: str) -> int:
        """Changes whenever a vector of this model is added (0: none stored)."""
        with self.engine.connect() as conn:
            return embeddings.vectors_marker(conn, model_id, model_version)

    def embedding_sets(self) -> list[embeddings.EmbeddingSet]:
        """Which models have stored vectors, and how many."""
        with self.engine.connect() as conn:
            return embeddings.embedding_sets(conn)

    def reindex(self, *, force: bool = False) -> int:
        """Rebuild the index when another analyzer built it (or ``force``); return rows indexed."""
        if not force:
            with self.engine.connect() as conn:
                if index_is_current(conn):
                    return 0
        return write_retrying(self.engine, lambda conn: self._rebuild(conn, force), url=self._url)

    def _rebuild(self, conn: Connection, force: bool) -> int:
        advisory_lock(conn, INDEX_LOCK)  # waits for writers adding rows; keeps new ones out
        if not index_is_current(conn, lock=True) or force:
            self.index.clear(conn)
            query = sa.select(sections.c.id, document_versions.c.title, sections.c.heading, sections.c.text).join(
                document_versions, sections.c.version_id == document_versions.c.id
            )
            count = self.index.add(conn, (IndexRow(*row) for row in conn.execute(query)))
            mark_index_current(conn)
            return count
        return 0

    # -- integrity ---------------------------------------------------------------------------

    def verify(self) -> tuple[int, list[HashMismatch]]:
        """Re-derive every stored hash; return (hashes checked, mismatches)."""
        checked = 0
        mismatches: list[HashMismatch] = []
        with self.engine.connect() as conn:
            versions = conn.execute(sa.select(document_versions).order_by(document_versions.c.id)).mappings().all()
            for v in versions:
                checked += 1
                derived = content_hash(v["full_text"])
                if derived != v["content_hash"]:
                    mismatches.append(HashMismatch(v["doc_id"], v["version"], None, v["content_hash"], derived))
                query = sa.select(sections).where(sections.c.version_id == v["id"]).order_by(sections.c.ordinal)
                for s in conn.execute(query).mappings():
                    checked += 1
                    derived = section_hash(s["heading"], s["text"])
                    if derived != s["content_hash"]:
                        mismatches.append(
                            HashMismatch(v["doc_id"], v["version"], s["section_id"], s["content_hash"], derived)
                        )
        return checked, mismatches


# Everything a DocumentVersion holds: not the full text, which can be a whole statute and was most
# of the time search spent flagging its hits' versions.
_VERSION_COLUMNS = tuple(c for c in document_versions.c if c.name != "full_text")


def _match_rows(conn: Connection, ids: Sequence[int]) -> list[sa.Row[Any]]:
    """The sections of row ``ids`` with their versions' ids and states (one statement, built once:
    search reads these rows twice a hybrid search). Plain rows, unpacked by :func:`_index_match`
    (dense search reads 80 after the question's vector: mappings cost ~0.2 ms of it)."""
    return list(conn.execute(_MATCH_ROWS, {"ids": list(ids)}))


_MATCH_COLUMNS = (
    sections.c.id,
    sections.c.section_id,
    sections.c.ordinal,
    sections.c.heading,
    sections.c.text,
    sections.c.content_hash,
    sections.c.kind,
    sections.c.status,
    sections.c.deleted,
    sections.c.reserved,
    sections.c.deleted_parts,
    document_versions.c.doc_id,
    document_versions.c.version,
    document_versions.c.title.label("version_title"),
    document_versions.c.status.label("version_status"),
)
_MATCH_ROWS = (
    sa.select(*_MATCH_COLUMNS)
    .join(document_versions, sections.c.version_id == document_versions.c.id)
    .where(sections.c.id.in_(sa.bindparam("ids", expanding=True)))
)
_FIRST_ROWS_OF_ONE = (
    sa.select(*_MATCH_COLUMNS)
    .join(document_versions, sections.c.version_id == document_versions.c.id)
    .where(sections.c.content_hash == sa.bindparam("content_hash"))
    .order_by(sections.c.id)
    .limit(sa.bindparam("cap"))
)
"""The first ``cap`` sections of one text by row id, as :data:`_MATCH_ROWS` reads them
(:meth:`EvidenceStore.sections_with_hashes`)."""


def _index_match(row: Sequence[Any], score: float) -> IndexMatch:
    # section_from_row's fields, unpacked in _MATCH_ROWS's order (a third cheaper than by name)
    (_id, section_id, ordinal, heading, text, text_hash, kind, status, deleted, reserved, parts, *version) = row
    doc_id, number, title, version_status = version
    section = Section(
        doc_id=doc_id,
        version=number,
        section_id=section_id,
        ordinal=ordinal,
        heading=heading,
        text=text,
        content_hash=text_hash,
        kind=SectionKind(kind),
        status=ReviewStatus(status),
        deleted=bool(deleted),
        reserved=bool(reserved),
        deleted_parts=() if parts == "[]" else tuple(json.loads(parts)),
    )
    return IndexMatch(section=section, title=title, version_status=ReviewStatus(version_status), score=score)
