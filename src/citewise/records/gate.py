"""The gate's records: a passage's identity, a candidate offered as evidence, and why one was excluded.

They sit in the records layer because the audit record stores exclusions and every floor above reads
candidates; the rules that produce exclusions live in :mod:`citewise.evidence.rules`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from citewise.records import DocumentVersion, Section

__all__ = ["Candidate", "Exclusion", "ExclusionReason", "SourceRef"]


@dataclass(frozen=True, slots=True)
class SourceRef:
    """The identity of one passage: a section of one document version."""

    doc_id: str
    """Document id."""
    version: int
    """Version number within the document."""
    section_id: str
    """Section id, as the official numbering writes it."""
    content_hash: str | None = None
    """``sha256:`` of the section's normalised heading and text; None when not claimed."""

    def __str__(self) -> str:
        return f"{self.doc_id}@{self.version}:{self.section_id}"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A passage offered as evidence: a stored section with its version, as search found it."""

    document: DocumentVersion
    """The stored version the section belongs to (provenance, review status, dates)."""
    section: Section
    """The stored section (text, hash, review status, deleted/reserved flags)."""
    score: float = 0.0
    """Retrieval score (higher is better; comparable within one query only)."""
    search_rank: int = 0
    """1-based rank the search gave it (0 when it did not come from a search)."""
    duplicates: tuple[SourceRef, ...] = ()
    """Passages collapsed into this one as exact or near duplicates (their provenance is kept)."""

    @property
    def ref(self) -> SourceRef:
        """The identity of this passage."""
        s = self.section
        return SourceRef(s.doc_id, s.version, s.section_id, s.content_hash)

    @property
    def text(self) -> str:
        """The section text."""
        return self.section.text


class ExclusionReason(str, enum.Enum):
    """Why the gate excluded a candidate."""

    IDENTITY = "identity"  #: the (document, version, section) does not exist as claimed
    PAIR_NOT_PERMITTED = "pair_not_permitted"  #: not one of the plan's exact pairs
    DOCUMENT_NOT_ALLOWED = "document_not_allowed"  #: outside the plan's documents
    DOCUMENT_NOT_APPROVED = "document_not_approved"  #: the version is not approved
    SECTION_NOT_APPROVED = "section_not_approved"  #: the section itself is not approved
    ORIGIN_NOT_ALLOWED = "origin_not_allowed"  #: origin / publisher outside the plan's origins
    USE_NOT_PERMITTED = "use_not_permitted"  #: the licence does not permit a required use
    DELETED = "deleted"  #: a deleted or repealed provision
    RESERVED = "reserved"  #: a reserved placeholder without operative text
    SUPERSEDED = "superseded"  #: not the version the plan's version policy selects
    NOT_YET_IN_FORCE = "not_yet_in_force"  #: takes effect after the plan's date
    DUPLICATE = "duplicate"  #: same normalised text as a kept passage
    NEAR_DUPLICATE = "near_duplicate"  #: nearly the same text as a kept passage


@dataclass(frozen=True, slots=True)
class Exclusion:
    """One reason a candidate is not eligible, with the facts behind it."""

    reason: ExclusionReason
    """The rule that failed."""
    detail: str
    """What exactly failed, naming the values compared."""
