"""Stored rows to core records and back: ISO text for dates and times, JSON for lists and maps."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

from sqlalchemy.engine import RowMapping

from citewise.hashing import content_hash
from citewise.records import DocumentVersion, Provenance, ReviewStatus, Section, SectionKind

__all__ = ["iso", "section_from_row", "section_hash", "utcnow", "version_from_row"]


def utcnow() -> datetime:
    """Now, in UTC (one place, so tests and records agree on the clock)."""
    return datetime.now(UTC)


def iso(value: datetime | date | None) -> str | None:
    """A date or time as stored (ISO 8601 text), or None."""
    return value.isoformat() if value is not None else None


def _date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _datetime(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def section_hash(heading: str, text: str) -> str:
    """Content hash of a section: its heading and text, normalised."""
    return content_hash(f"{heading}\n{text}")


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
