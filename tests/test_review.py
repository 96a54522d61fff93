"""Review workflow: staged -> approved/rejected, section-level decisions, supersession, manifests."""

from __future__ import annotations

from pathlib import Path

import pytest

from citewise.errors import InputError, NotFoundError, ReviewError
from citewise.ingest.pipeline import IngestOptions, store_document
from citewise.records import ReviewStatus
from citewise.review import apply_manifest, decide, parse_target, pending
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from tests.conftest import make_doc

pytestmark = pytest.mark.integration


def _ingest(store: EvidenceStore, doc) -> None:  # type: ignore[no-untyped-def]
    store_document(store, doc, Path("x.txt"), IngestOptions(), {})


def test_new_material_waits_for_review_and_approval_is_recorded_with_who_when_why(store: EvidenceStore) -> None:
    _ingest(store, make_doc())
    assert [(p.doc_id, p.version, p.status) for p in pending(store)] == [("doc-a", 1, ReviewStatus.REVIEW_REQUIRED)]
    made = decide(store, "doc-a", "approve", reviewer="Kim", reason="checked against the gazette")
    assert made.decision is ReviewStatus.APPROVED and made.decided_at.tzinfo is not None
    assert store.version("doc-a").status is ReviewStatus.APPROVED
    assert all(s.status is ReviewStatus.APPROVED for s in store.sections("doc-a"))
    [recorded] = store.decisions("doc-a")
    assert (recorded.reviewer, recorded.reason, recorded.section_id) == ("Kim", "checked against the gazette", None)
    assert pending(store) == []


def test_section_level_rejection_survives_document_approval(store: EvidenceStore) -> None:
    _ingest(store, make_doc())
    decide(store, "doc-a@1", "reject", reviewer="Lee", reason="garbled", section_id="§ 2")
    decide(store, "doc-a@1", "approve", reviewer="Kim", reason="rest is fine")
    statuses = {s.section_id: s.status for s in store.sections("doc-a")}
    assert statuses == {"§ 1": ReviewStatus.APPROVED, "§ 2": ReviewStatus.REJECTED}
    hits = {h.section_id: h for h in search(store, "definitions scope", k=5)}
    assert hits["§ 2"].unapproved and not hits["§ 1"].unapproved


def test_section_approval_alone_does_not_approve_the_document(store: EvidenceStore) -> None:
    _ingest(store, make_doc())
    decide(store, "doc-a", "approve", reviewer="Kim", reason="this one checked", section_id="§ 1")
    assert store.version("doc-a").status is ReviewStatus.REVIEW_REQUIRED
    hit = next(h for h in search(store, "scope", k=5) if h.section_id == "§ 1")
    assert hit.unapproved  # the document itself is still unreviewed
    [item] = pending(store)
    assert item.pending_sections == 1


def test_approving_a_newer_version_supersedes_the_older_and_rejection_restores_it(store: EvidenceStore) -> None:
    _ingest(store, make_doc(promulgated="2015-01-06"))
    decide(store, "doc-a@1", "approve", reviewer="Kim", reason="ok")
    _ingest(
        store,
        make_doc(sections={"§ 1": "Scope, amended.", "§ 2": "Definitions used in this act."}, promulgated="2025-10-01"),
    )
    assert store.version("doc-a", 1).status is ReviewStatus.APPROVED  # until the new one is approved
    decide(store, "doc-a@2", "approve", reviewer="Kim", reason="ok")
    assert [v.status for v in store.versions("doc-a")] == [ReviewStatus.SUPERSEDED, ReviewStatus.APPROVED]
    hit = next(h for h in search(store, "scope", k=5) if h.version == 1)
    assert hit.superseded and not hit.unapproved
    decide(store, "doc-a@2", "reject", reviewer="Park", reason="wrong file")
    assert [v.status for v in store.versions("doc-a")] == [ReviewStatus.APPROVED, ReviewStatus.REJECTED]


def test_an_older_version_ingested_later_does_not_supersede_the_newer(store: EvidenceStore) -> None:
    _ingest(store, make_doc(promulgated="2025-10-01"))
    _ingest(store, make_doc(sections={"§ 1": "Old scope."}, promulgated="2015-01-06"))
    decide(store, "doc-a@1", "approve", reviewer="Kim", reason="ok")
    decide(store, "doc-a@2", "approve", reviewer="Kim", reason="ok")
    assert [v.status for v in store.versions("doc-a")] == [ReviewStatus.APPROVED, ReviewStatus.SUPERSEDED]


def test_review_errors_are_clear(store: EvidenceStore) -> None:
    _ingest(store, make_doc())
    with pytest.raises(InputError, match="--reviewer"):
        decide(store, "doc-a", "approve", reviewer=" ", reason="x")
    with pytest.raises(InputError, match="--reason"):
        decide(store, "doc-a", "approve", reviewer="Kim", reason="")
    with pytest.raises(InputError, match="positive number"):
        parse_target("doc-a@x")
    with pytest.raises(NotFoundError, match="no section"):
        decide(store, "doc-a", "approve", reviewer="Kim", reason="x", section_id="§ 9")
    decide(store, "doc-a", "approve", reviewer="Kim", reason="x")
    with pytest.raises(ReviewError, match="already approved"):
        decide(store, "doc-a", "approve", reviewer="Kim", reason="x")


def test_review_manifest_by_title_all_versions_and_reapplying_is_a_no_op(store: EvidenceStore, tmp_path: Path) -> None:
    _ingest(store, make_doc(promulgated="2015-01-06"))
    _ingest(store, make_doc(sections={"§ 1": "New."}, promulgated="2025-01-01"))
    manifest = tmp_path / "review.yaml"
    manifest.write_text(
        "reviewer: Kim\nreason: bundled sample\ndecisions:\n  - doc: Document A\n    version: all\n",
        encoding="utf-8",
    )
    made = apply_manifest(store, manifest)
    assert [(d.version, d.decision) for d in made] == [(1, ReviewStatus.APPROVED), (2, ReviewStatus.APPROVED)]
    assert [v.status for v in store.versions("doc-a")] == [ReviewStatus.SUPERSEDED, ReviewStatus.APPROVED]
    assert apply_manifest(store, manifest) == []
    manifest.write_text("reviewer: Kim\ndecisions:\n  - doc: Nope\n", encoding="utf-8")
    with pytest.raises(NotFoundError, match="Nope"):
        apply_manifest(store, manifest)
