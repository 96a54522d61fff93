"""What goes into the evidence store and what comes out of it, besides the core records of
:mod:`citewise.records` (documents, versions, sections, review decisions)."""

from __future__ import annotations

from dataclasses import dataclass, field

from citewise.records import Provenance, ReviewStatus, Section, SectionKind

__all__ = ["HashMismatch", "IndexMatch", "NewSection", "NewVersion", "PendingReview", "SectionMatch"]


@dataclass(frozen=True, slots=True)
class NewSection:
    """A section about to be stored (hash computed by the store)."""

    section_id: str
    """Stable id within the document (``제3조``, ``§ 2``)."""
    heading: str
    """The heading as printed."""
    text: str
    """The section's text."""
    kind: SectionKind
    """Article, chapter, paragraph ..."""
    deleted: bool = False
    """A repealed provision: kept, never evidence."""
    reserved: bool = False
    """A reserved number without text."""
    deleted_parts: tuple[str, ...] = ()
    """Paragraphs inside the section marked deleted."""


@dataclass(frozen=True, slots=True)
class NewVersion:
    """A parsed document about to be stored: a new version unless its content is already stored."""

    doc_id: str
    """The document it is a version of."""
    title: str
    """Title of this version."""
    format: str
    """The parser that read it (``kr-statute``, ``markdown`` ...)."""
    source: str
    """Where it was read from (a path, ``path:line``)."""
    full_text: str
    """The whole text; its hash decides whether this content is already stored."""
    provenance: Provenance
    """Who issued it, who publishes it, how it came in."""
    sections: tuple[NewSection, ...]
    """Its sections, in document order."""
    metadata: dict[str, str] = field(default_factory=dict, hash=False)
    """Parser metadata (kept as given)."""
    origin_path: str | None = None
    """The absolute path of the file it was read from; with ``format`` it is the document's
    identity when the id was derived from the file name (None: not a file, identity by id)."""
    id_declared: bool = True
    """The id is one the document states or one given explicitly: any version with this id is a
    version of this document. False: derived from the file name, so a file at another path (or of
    another format) is another document and gets a disambiguated id."""


@dataclass(frozen=True, slots=True)
class HashMismatch:
    """A stored hash that no longer matches its text."""

    doc_id: str
    """Document id."""
    version: int
    """Version number."""
    section_id: str | None
    """The section, or None for the document's full text."""
    stored: str
    """The hash recorded at ingestion."""
    derived: str
    """The hash of the text as stored now."""


@dataclass(frozen=True, slots=True)
class PendingReview:
    """A version, or sections of an approved version, waiting for a reviewer."""

    doc_id: str
    """Document id."""
    version: int
    """Version number."""
    title: str
    """Title of the version."""
    status: ReviewStatus
    """The version's review status."""
    pending_sections: int
    """Sections still ``review_required``."""
    section_count: int
    """Sections in the version."""


@dataclass(frozen=True, slots=True)
class SectionMatch:
    """A stored section found by its id, with the title of its document version."""

    doc_id: str
    """Document id."""
    version: int
    """Version number."""
    title: str
    """Title of the version."""
    section_id: str
    """Section id."""
    heading: str
    """Section heading."""


@dataclass(frozen=True, slots=True)
class IndexMatch:
    """A section the search index matched, with its BM25 score and its version's state."""

    section: Section
    """The stored section (its status is the section's own review status)."""
    title: str
    """Title of the version the section belongs to."""
    version_status: ReviewStatus
    """Review status of that version."""
    score: float
    """BM25 score (higher is better); the same on every backend for the same store content."""
