"""The review workflow: a person approves or rejects what ingestion staged.

Discovery, ingestion and approval are distinct steps. Ingestion stores a version as
``review_required``; only a decision recorded here (who, when, why) makes it approved. Approval of a
version covers its sections that are still pending; a section can also be decided on its own. When a
version is approved, older approved versions of the same document become ``superseded`` (versions
are ordered by promulgation date, then by ingestion order).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import yaml

from citewise.errors import InputError, NotFoundError, ReviewError
from citewise.records import ReviewDecision, ReviewStatus
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import PendingReview

__all__ = ["PendingReview", "apply_manifest", "decide", "parse_target", "pending"]

_DECISIONS = {"approve": ReviewStatus.APPROVED, "reject": ReviewStatus.REJECTED}


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


def pending(store: EvidenceStoreProtocol) -> list[PendingReview]:
    """Versions needing review, and approved versions that still have pending sections."""
    return store.pending_reviews()


def decide(
    store: EvidenceStoreProtocol,
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
    return store.record_decision(
        doc_id, version, _DECISIONS[decision], reviewer=reviewer.strip(), reason=reason.strip(), section_id=section_id
    )


def apply_manifest(store: EvidenceStoreProtocol, path: Path) -> list[ReviewDecision]:
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
    store: EvidenceStoreProtocol, doc_id: str, version: int, entry: dict, reviewer: str, reason: str
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


def _resolve_doc(store: EvidenceStoreProtocol, name: str) -> str:
    docs = store.documents()
    if any(d.doc_id == name for d in docs):
        return name
    matches = sorted({v.doc_id for v in store.versions() if v.title == name})
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputError(f"title {name!r} names several documents ({', '.join(matches)}); use an id")
    raise NotFoundError(f"no document with id or title {name!r}")


def _manifest_versions(store: EvidenceStoreProtocol, doc_id: str, spec: object) -> Sequence[int]:
    versions = [v.version for v in store.versions(doc_id)]
    if spec in (None, "latest"):
        return versions[-1:]
    if spec == "all":
        return versions
    if isinstance(spec, int) and spec in versions:
        return [spec]
    raise InputError(f"version {spec!r} of {doc_id}: expected a number in {versions}, 'latest' or 'all'")
