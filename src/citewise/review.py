"""The review workflow: a person approves or rejects what ingestion staged.

Discovery, ingestion and approval are distinct steps. Ingestion stores a version as
``review_required``; only a decision recorded here (who, when, why) makes it approved. Approval of a
version covers its sections that are still pending; a section can also be decided on its own. When a
version is approved, older approved versions of the same document become ``superseded`` (versions
are ordered by promulgation date, then by ingestion order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
import yaml
from sqlalchemy.engine import Connection

from citewise.errors import InputError, NotFoundError, ReviewError
from citewise.records import ReviewDecision, ReviewStatus
from citewise.store.evidence import EvidenceStore, utcnow
from citewise.store.schema import document_versions, review_decisions, sections

__all__ = ["PendingReview", "apply_manifest", "decide", "parse_target", "pending"]

_DECISIONS = {"approve": ReviewStatus.APPROVED, "reject": ReviewStatus.REJECTED}


@dataclass(frozen=True, slots=True)
class PendingReview:
    """A version, or sections of an approved version, waiting for a reviewer."""

    doc_id: str
    version: int
    title: str
    status: ReviewStatus
    pending_sections: int
    section_count: int


def parse_target(target: str) -> tuple[str, int | None]:
    """``DOC`` or ``DOC@VERSION`` -> (doc id, version or None)."""
    doc_id, sep, version = target.partition("@")
    if not doc_id:
        raise InputError(f"bad review target {target!r}: expected DOC or DOC@VERSION")
    if not sep:
        return doc_id, None
    if not version.isdigit() or int(version) < 1:
        raise InputError(f"bad version in {target!r}: expected a positive number after @")
    return doc_id, int(version)


def pending(store: EvidenceStore) -> list[PendingReview]:
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
        .group_by(document_versions.c.id)
        .order_by(document_versions.c.doc_id, document_versions.c.version)
    )
    with store.engine.connect() as conn:
        rows = conn.execute(query).mappings().all()
    return [
        PendingReview(
            r["doc_id"], r["version"], r["title"], ReviewStatus(r["status"]), r["pending"] or 0, r["section_count"]
        )
        for r in rows
        if r["status"] == ReviewStatus.REVIEW_REQUIRED.value or (r["pending"] or 0) > 0 and r["status"] == "approved"
    ]


def decide(
    store: EvidenceStore,
    target: str,
    decision: str,
    *,
    reviewer: str,
    reason: str,
    section_id: str | None = None,
) -> ReviewDecision:
    """Record ``approve`` or ``reject`` for ``DOC[@VERSION]`` (or one section of it)."""
    if decision not in _DECISIONS:
        raise InputError(f"unknown decision {decision!r}; valid: approve, reject")
    if not reviewer.strip():
        raise InputError("a review needs --reviewer NAME")
    if not reason.strip():
        raise InputError("a review needs --reason TEXT saying why")
    doc_id, version = parse_target(target)
    status = _DECISIONS[decision]
    now = utcnow()
    with store.transaction() as conn:
        row = store.version_row(doc_id, version, conn)
        if section_id is None:
            _decide_version(conn, row, status)
        else:
            _decide_section(conn, row, section_id, status)
        conn.execute(
            sa.insert(review_decisions).values(
                version_id=row["id"],
                section_id=section_id,
                decision=status.value,
                reviewer=reviewer.strip(),
                reason=reason.strip(),
                decided_at=now.isoformat(),
            )
        )
        _settle_currency(conn, doc_id)
    return ReviewDecision(doc_id, row["version"], section_id, status, reviewer.strip(), reason.strip(), now)


def _decide_version(conn: Connection, row: sa.RowMapping, status: ReviewStatus) -> None:
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


def _decide_section(conn: Connection, row: sa.RowMapping, section_id: str, status: ReviewStatus) -> None:
    query = sa.select(sections.c.id, sections.c.status).where(
        sections.c.version_id == row["id"], sections.c.section_id == section_id
    )
    found = conn.execute(query).mappings().first()
    if found is None:
        raise NotFoundError(f"{row['doc_id']}@{row['version']} has no section {section_id!r}")
    if found["status"] == status.value:
        raise ReviewError(f"section {section_id} of {row['doc_id']}@{row['version']} is already {status.value}")
    conn.execute(sa.update(sections).where(sections.c.id == found["id"]).values(status=status.value))


def _settle_currency(conn: Connection, doc_id: str) -> None:
    # Of the approved versions, the newest (by promulgation date, then ingestion order) is
    # current and the others are superseded. Rejecting the current version restores the one
    # before it: approval was a decision about that version only.
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


def apply_manifest(store: EvidenceStore, path: Path) -> list[ReviewDecision]:
    """Apply a review manifest (YAML or JSON).

    Format::

        reviewer: Jane Reviewer
        reason: Checked against the official publisher
        decisions:
          - doc: kr-law-001248        # a document id or its exact title
            version: all              # a number, "latest" (default) or "all"
            decision: approve         # approve | reject
            section: 제3조            # optional: one section only
            reason: ...               # optional: overrides the top-level reason

    Versions already in the requested state are skipped, so a manifest can be re-applied.
    """
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"cannot read review manifest {path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), list):
        raise InputError(f"review manifest {path} needs a 'decisions' list")
    reviewer = str(data.get("reviewer") or "")
    made: list[ReviewDecision] = []
    for i, entry in enumerate(data["decisions"], start=1):
        if not isinstance(entry, dict) or "doc" not in entry:
            raise InputError(f"review manifest {path}: decision {i} needs a 'doc'")
        doc_id = _resolve_doc(store, str(entry["doc"]))
        for version in _manifest_versions(store, doc_id, entry.get("version", "latest")):
            made.extend(
                _apply_entry(
                    store, doc_id, version, entry, reviewer, str(entry.get("reason") or data.get("reason") or "")
                )
            )
    return made


def _apply_entry(
    store: EvidenceStore, doc_id: str, version: int, entry: dict, reviewer: str, reason: str
) -> list[ReviewDecision]:
    try:
        return [
            decide(
                store,
                f"{doc_id}@{version}",
                str(entry.get("decision", "approve")),
                reviewer=reviewer,
                reason=reason,
                section_id=entry.get("section"),
            )
        ]
    except ReviewError:
        return []  # already in that state: re-applying a manifest is a no-op


def _resolve_doc(store: EvidenceStore, name: str) -> str:
    docs = store.documents()
    if any(d.doc_id == name for d in docs):
        return name
    matches = sorted({v.doc_id for v in store.versions() if v.title == name})
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(f"title {name!r} names several documents ({', '.join(matches)}); use an id")
    raise NotFoundError(f"no document with id or title {name!r}")


def _manifest_versions(store: EvidenceStore, doc_id: str, spec: object) -> Sequence[int]:
    versions = [v.version for v in store.versions(doc_id)]
    if spec in (None, "latest"):
        return versions[-1:]
    if spec == "all":
        return versions
    if isinstance(spec, int) and spec in versions:
        return [spec]
    raise InputError(f"version {spec!r} of {doc_id}: expected a number in {versions}, 'latest' or 'all'")
