"""The evidence side of the store as a protocol: what every backend offers the stages above it.

Stages (ingest, review, search, the gate, answers) hand the store typed records and get typed
records back; none of them writes SQL. :class:`~citewise.store.evidence.EvidenceStore` implements
this protocol on SQLite and on PostgreSQL, and ``tests/store_conformance.py`` is the one test
class that every backend must pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from citewise.records import Document, DocumentVersion, IngestResult, ReviewDecision, ReviewStatus, Section
from citewise.store.embeddings import EmbeddingSet, StoredVectors
from citewise.store.records import HashMismatch, IndexMatch, NewVersion, PendingReview, SectionMatch

__all__ = ["EvidenceStoreProtocol"]


@runtime_checkable
class EvidenceStoreProtocol(Protocol):
    """Documents, versions and sections with provenance; review decisions; the search index."""

    url: str
    """Where the store is, with any password hidden."""

    def close(self) -> None:
        """Release the database."""
        ...

    def migrations(self) -> list[str]:
        """Ids of the schema migrations applied, in order."""
        ...

    # documents and versions
    def store_version(self, new: NewVersion) -> IngestResult:
        """A new version (``review_required``), or ``unchanged`` for content already stored."""
        ...

    def documents(self) -> list[Document]:
        """Every document, by id."""
        ...

    def versions(self, doc_id: str | None = None, *, status: ReviewStatus | None = None) -> list[DocumentVersion]:
        """Versions, by document and number."""
        ...

    def versions_of(self, doc_ids: Sequence[str]) -> dict[str, list[DocumentVersion]]:
        """The versions of each of ``doc_ids`` in one read (unknown ids: empty lists)."""
        ...

    def versions_marker(self) -> tuple[int, int]:
        """Changes whenever a version is stored or a version's review status may have changed."""
        ...

    def version(self, doc_id: str, version: int | None = None) -> DocumentVersion:
        """One version (the newest by default); NotFoundError names what exists."""
        ...

    def sections(self, doc_id: str, version: int | None = None) -> list[Section]:
        """Sections of one version, in document order."""
        ...

    def find_sections(
        self, section_ids: Sequence[str], *, status: ReviewStatus = ReviewStatus.APPROVED
    ) -> list[SectionMatch]:
        """Sections (not deleted) with one of these ids in versions of ``status``."""
        ...

    # review
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
        """Approve or reject a version or a section; superseded versions follow."""
        ...

    def decisions(self, doc_id: str | None = None) -> list[ReviewDecision]:
        """Recorded decisions, oldest first."""
        ...

    def pending_reviews(self) -> list[PendingReview]:
        """What waits for a reviewer."""
        ...

    # search index
    def search(self, terms: Sequence[str], limit: int) -> list[IndexMatch]:
        """Best sections for analysed terms by BM25, best first."""
        ...

    def reindex(self, *, force: bool = False) -> int:
        """Rebuild the index if stale (or ``force``); rows indexed."""
        ...

    def sections_with_hashes(self, scored: Sequence[tuple[str, float]], limit: int | None = None) -> list[IndexMatch]:
        """Sections whose content hash is one of ``scored`` (hash, score), in that order (at most ``limit``)."""
        ...

    # dense vectors
    def texts_to_embed(self, model_id: str, model_version: str) -> list[tuple[str, str]]:
        """(content hash, text) of every distinct section text this model has no vector for."""
        ...

    def add_vectors(self, model_id: str, model_version: str, dim: int, rows: Sequence[tuple[str, bytes]]) -> int:
        """Store (content hash, float32 bytes) vectors of one model; how many were new."""
        ...

    def vectors(self, model_id: str, model_version: str) -> StoredVectors:
        """Every stored vector of one model."""
        ...

    def vectors_marker(self, model_id: str, model_version: str) -> int:
        """Changes whenever a vector of this model is added (0: none stored)."""
        ...

    def embedding_sets(self) -> list[EmbeddingSet]:
        """Which models have stored vectors, and how many."""
        ...

    # integrity
    def verify(self) -> tuple[int, list[HashMismatch]]:
        """Re-derive every hash: (checked, mismatches)."""
        ...
