"""Review decisions in the store: who decided what about a version or a section, and which approved
version of a document is current.

A decision, the status changes it causes and the supersession that follows are one transaction,
holding the document's lock so that two reviewers of one document are applied one after the other.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from citewise.errors import NotFoundError, ReviewError
from citewise.records import ReviewDecision, ReviewStatus
from citewise.store.records import PendingReview
from citewise.store.schema import document_versions, documents, review_decisions, sections

__all__ = ["decisions_query", "pending_reviews", "record_decision", "settle_currency"]


def _version_row(conn: Connection, doc_id: str, version: int | None) -> RowMapping | None:
    query = sa.select(document_versions).where(document_versions.c.doc_id == doc_id)
    if version is None:
        query = query.order_by(document_versions.c.version.desc()).limit(1)
    else:
        query = query.where(document_versions.c.version == version)
    return conn.execute(query).mappings().first()


def record_decision(
    conn: Connection,
    doc_id: str,
    version: int | None,
    status: ReviewStatus,
    *,
    reviewer: str,
    reason: str,
    section_id: str | None,
    at: datetime,
) -> ReviewDecision | None:
    """Apply and record one decision; None when the version does not exist (the caller says which
    versions do). ReviewError when the target is already in that state."""
    conn.execute(sa.select(documents.c.doc_id).where(documents.c.doc_id == doc_id).with_for_update())
    row = _version_row(conn, doc_id, version)
    if row is None:
        return None
    if section_id is None:
        _decide_version(conn, row, status)
    else:
        _decide_section(conn, row, section_id, status)
    conn.execute(
        sa.insert(review_decisions).values(
            version_id=row["id"],
            section_id=section_id,
            decision=status.value,
            reviewer=reviewer,
            reason=reason,
            decided_at=at.isoformat(),
        )
    )
    settle_currency(conn, doc_id)
    return ReviewDecision(doc_id, row["version"], section_id, status, reviewer, reason, at)


def _decide_version(conn: Connection, row: RowMapping, status: ReviewStatus) -> None:
    current = ReviewStatus(row["status"])
    if current is status or (current is ReviewStatus.SUPERSEDED and status is ReviewStatus.APPROVED):
        raise ReviewError(f"{row['doc_id']}@{row['version']} is already {current.value}")
    conn.execute(sa.update(document_versions).where(document_versions.c.id == row["id"]).values(status=status.value))
    # The version decision covers sections nobody decided on individually.
    conn.execute(
        sa.update(sections)
        .where(sections.c.version_id == row["id"], sections.c.status == ReviewStatus.REVIEW_REQUIRED.value)
        .values(status=status.value)
    )


def _decide_section(conn: Connection, row: RowMapping, section_id: str, status: ReviewStatus) -> None:
    query = sa.select(sections.c.id, sections.c.status).where(
        sections.c.version_id == row["id"], sections.c.section_id == section_id
    )
    found = conn.execute(query).mappings().first()
    if found is None:
        raise NotFoundError(f"{row['doc_id']}@{row['version']} has no section {section_id!r}")
    if found["status"] == status.value:
        raise ReviewError(f"section {section_id} of {row['doc_id']}@{row['version']} is already {status.value}")
    conn.execute(sa.update(sections).where(sections.c.id == found["id"]).values(status=status.value))


def settle_currency(conn: Connection, doc_id: str) -> None:
    """Of the approved versions, the newest (by promulgation date, then ingestion order) is current
    and the others are superseded.

    Rejecting the current version restores the one before it: approval was a decision about that
    version only.
    """
    query = sa.select(
        document_versions.c.id,
        document_versions.c.version,
        document_versions.c.promulgated_on,
        document_versions.c.effective_on,
        document_versions.c.status,
    ).where(
        document_versions.c.doc_id == doc_id,
        document_versions.c.status.in_([ReviewStatus.APPROVED.value, ReviewStatus.SUPERSEDED.value]),
    )
    rows = conn.execute(query).mappings().all()
    if not rows:
        return
    current = max(rows, key=lambda r: (r["promulgated_on"] or r["effective_on"] or "", r["version"]))
    for r in rows:
        wanted = ReviewStatus.APPROVED if r is current else ReviewStatus.SUPERSEDED
        if r["status"] != wanted.value:
            conn.execute(
                sa.update(document_versions).where(document_versions.c.id == r["id"]).values(status=wanted.value)
            )


def pending_reviews(conn: Connection) -> list[PendingReview]:
    """Versions needing review, and approved versions that still have pending sections."""
    pending_count = sa.func.sum(sa.case((sections.c.status == ReviewStatus.REVIEW_REQUIRED.value, 1), else_=0))
    query = (
        sa.select(
            document_versions.c.doc_id,
            document_versions.c.version,
            document_versions.c.title,
            document_versions.c.status,
            document_versions.c.section_count,
            pending_count.label("pending"),
        )
        .select_from(document_versions.outerjoin(sections, sections.c.version_id == document_versions.c.id))
        .group_by(
            document_versions.c.id,
            document_versions.c.doc_id,
            document_versions.c.version,
            document_versions.c.title,
            document_versions.c.status,
            document_versions.c.section_count,
        )
        .order_by(document_versions.c.doc_id, document_versions.c.version)
    )
    found = []
    for r in conn.execute(query).mappings():
        status, waiting = ReviewStatus(r["status"]), int(r["pending"] or 0)
        if status is ReviewStatus.REVIEW_REQUIRED or (status is ReviewStatus.APPROVED and waiting > 0):
            found.append(PendingReview(r["doc_id"], r["version"], r["title"], status, waiting, r["section_count"]))
    return found


def decisions_query(doc_id: str | None) -> sa.Select[tuple[object, ...]]:
    """Review decisions with their document and version, oldest first."""
    query = (
        sa.select(review_decisions, document_versions.c.doc_id, document_versions.c.version)
        .join(document_versions, review_decisions.c.version_id == document_versions.c.id)
        .order_by(review_decisions.c.id)
    )
    if doc_id is not None:
        query = query.where(document_versions.c.doc_id == doc_id)
    return query


def decision_from_row(r: RowMapping) -> ReviewDecision:
    """A :class:`ReviewDecision` from a row of :func:`decisions_query`."""
    return ReviewDecision(
        doc_id=r["doc_id"],
        version=r["version"],
        section_id=r["section_id"],
        decision=ReviewStatus(r["decision"]),
        reviewer=r["reviewer"],
        reason=r["reason"],
        decided_at=datetime.fromisoformat(r["decided_at"]),
    )
