"""Immutable core records of the evidence layer.

These are the values that travel between stages (ingest -> store -> search -> review). They are
frozen dataclasses: a stage that wants a different value makes a new record. Every field is
documented because these records are what the audit trail is made of.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date, datetime

__all__ = [
    "Document",
    "DocumentVersion",
    "IngestOutcome",
    "IngestResult",
    "Provenance",
    "ReviewDecision",
    "ReviewStatus",
    "SearchHit",
    "Section",
    "SectionKind",
]


class ReviewStatus(str, enum.Enum):
    """Where a document version or a section stands in review.

    Discovery, ingestion and approval are distinct steps: everything ingested starts as
    ``review_required`` and only a reviewer moves it on.
    """

    REVIEW_REQUIRED = "review_required"
    APPROVED = "approved"
    REJECTED = "rejected"
    #: an approved version that a later approved version replaced (versions only)
    SUPERSEDED = "superseded"


class SectionKind(str, enum.Enum):
    """What a section is within its document."""

    ARTICLE = "article"  #: a numbered provision (제5조, § 2, Article 7, 555.11)
    SUPPLEMENTARY = "supplementary"  #: supplementary provisions (부칙) of a statute
    HEADING = "heading"  #: a part of a generic document split by headings
    PAGE = "page"  #: one page of a PDF
    BODY = "body"  #: the whole text of a document that has no finer structure


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a document version came from. Authority, publisher and channel are kept apart:
    delivery through an API or a mirror never decides who issued a text."""

    issuing_authority: str | None = None
    """Who issued the text (e.g. 법무부, Alcohol and Tobacco Tax and Trade Bureau). Never inferred
    from the retrieval provider."""
    official_publisher: str | None = None
    """Where the authoritative copy lives (e.g. https://www.law.go.kr/법령/주택임대차보호법)."""
    retrieval_provider: str | None = None
    """The channel the text came through (an API, a mirror, a crawl, a local path)."""
    origin_url: str | None = None
    """The URL or path the bytes were read from."""
    retrieved_at: datetime | None = None
    """When the bytes were read, in UTC."""
    version_label: str | None = None
    """The publisher's own label for this version (e.g. MST276291, 2018 edition)."""
    promulgated_on: date | None = None
    """Promulgation / publication date, where the source states one."""
    effective_on: date | None = None
    """Date from which this version is in force, where the source states one."""
    language: str | None = None
    """BCP 47 language tag of the text (``ko``, ``en``)."""
    licence: str | None = None
    """Licence or legal status of the text (e.g. ``public-domain (KR Copyright Act art. 7)``)."""
    permitted_uses: tuple[str, ...] = ()
    """Uses the licence allows (e.g. ``quote``, ``summarise``, ``redistribute``)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A document across all its versions, identified by a stable id."""

    doc_id: str
    """Stable identifier (e.g. ``kr-law-001248`` for every version of 주택임대차보호법)."""
    title: str
    """Title of the newest version."""
    created_at: datetime
    """When the first version was ingested (UTC)."""


@dataclass(frozen=True, slots=True)
class DocumentVersion:
    """One ingested version of a document, with its provenance and review state."""

    doc_id: str
    """The document this version belongs to."""
    version: int
    """1, 2, ... in order of ingestion."""
    title: str
    """Title as this version states it (titles can change between versions)."""
    content_hash: str
    """``sha256:`` of the normalised full text of this version."""
    format: str
    """Parser that read it (``kr-statute``, ``uslm``, ``markdown``, ``pdf``, ...)."""
    provenance: Provenance
    """Authority, publisher, channel, dates, language, licence."""
    status: ReviewStatus
    """Review state of the version as a whole."""
    ingested_at: datetime
    """When this version was stored (UTC)."""
    section_count: int = 0
    """Number of sections, deleted and reserved ones included."""
    metadata: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    """Format-specific facts kept verbatim (e.g. 법령MST, 법령ID, USLM identifier)."""


@dataclass(frozen=True, slots=True)
class Section:
    """A section of one document version: the unit that search returns and answers cite."""

    doc_id: str
    """Document id."""
    version: int
    """Version number within the document."""
    section_id: str
    """Identifier matching the official numbering (``제3조의2``, ``부칙-1``, ``555.11``, ``p3``)."""
    ordinal: int
    """Position of the section in its document, from 0."""
    heading: str
    """Heading as written (e.g. ``제3조의2 (보증금의 회수)``)."""
    text: str
    """Full text of the section (paragraphs included)."""
    content_hash: str
    """``sha256:`` of the normalised heading and text."""
    kind: SectionKind
    """Article, supplementary provisions, page, ..."""
    status: ReviewStatus
    """Review state of the section itself (document approval covers sections still pending)."""
    deleted: bool = False
    """A deleted or repealed provision: it exists, and is never evidence."""
    reserved: bool = False
    """A reserved placeholder with no operative text (USLM ``[Reserved]``)."""
    deleted_parts: tuple[str, ...] = ()
    """Markers of deleted paragraphs inside a live section (e.g. ``("③",)``): never evidence."""


@dataclass(frozen=True, slots=True)
class ReviewDecision:
    """A reviewer's decision, stored with who, when and why."""

    doc_id: str
    """Document reviewed."""
    version: int
    """Version reviewed."""
    section_id: str | None
    """Section reviewed, or ``None`` for the whole version."""
    decision: ReviewStatus
    """``approved`` or ``rejected``."""
    reviewer: str
    """Who decided."""
    reason: str
    """Why."""
    decided_at: datetime
    """When (UTC)."""


class IngestOutcome(str, enum.Enum):
    """What ingesting one file did."""

    NEW_DOCUMENT = "new_document"
    NEW_VERSION = "new_version"
    UNCHANGED = "unchanged"  #: identical content already stored: a no-op
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class IngestResult:
    """The result of ingesting one input (a file, or one line of a JSONL corpus)."""

    source: str
    """The path (and line, for JSONL) that was read."""
    outcome: IngestOutcome
    """New document, new version, unchanged, or failed."""
    doc_id: str | None = None
    """Document id, when parsing got that far."""
    version: int | None = None
    """Version stored (or matched, when unchanged)."""
    section_count: int = 0
    """Sections in that version."""
    error: str | None = None
    """Why it failed, naming what was wrong."""
    note: str | None = None
    """Something the user should know about a stored document (e.g. its id was disambiguated)."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One section returned by local search, with the status flags the gate will act on."""

    rank: int
    """1-based rank."""
    score: float
    """Relevance score (higher is better; comparable within one query only)."""
    doc_id: str
    """Document id."""
    title: str
    """Title of the hit's version."""
    version: int
    """Version the section belongs to."""
    section_id: str
    """Section id."""
    heading: str
    """Section heading."""
    snippet: str
    """A short passage of the section around the query terms."""
    unapproved: bool
    """The version or the section is not approved."""
    deleted: bool
    """A deleted provision."""
    reserved: bool
    """A reserved placeholder."""
    superseded: bool
    """A later reviewed version of the document is in force on the search's date (by effective date,
    not by review status: an approved version not yet in effect supersedes nothing)."""
    content_hash: str
    """Content hash of the section."""
    also_in_versions: tuple[int, ...] = ()
    """Other versions holding identical text for this section (collapsed into this hit)."""
    not_yet_in_force: bool = False
    """The hit's version takes effect after the search's date."""
    kind: SectionKind = SectionKind.ARTICLE
    """What the section is (an article, a 부칙 ...), as stored at ingest: search ranks supplementary
    provisions after the provisions of comparable score unless the query asks about them."""
