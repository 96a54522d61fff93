"""Eligibility gate (SPEC 3.3) on the real Korean statute corpus: pairs, approval, deletion, versions,
origin and usage, duplicates. Every exclusion is recorded with its reason."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from citewise.errors import InputError
from citewise.evidence import (
    ExclusionReason,
    GateOutcome,
    RetrievalPlan,
    SourceRef,
    gate,
)
from citewise.ingest.pipeline import IngestOptions, ingest_paths
from citewise.records import IngestOutcome
from citewise.review import decide
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.integration

HOUSING = "kr-law-001248"  # 주택임대차보호법: v1 = 2015 (MST166548), v2 = 2025 (MST276291)
LABOUR = "kr-law-001872"  # 근로기준법
INCOME_TAX = "kr-law-001565"  # 소득세법, 2026 version, in force from 2027-09-09
MIRROR = "mirror-kr-law-001872"  # a mirror's copy of 근로기준법 with one edit in 제2조
TODAY = date(2026, 11, 30)


def _ingest(store: EvidenceStore, pattern: str, **options: object) -> None:
    paths = sorted(KR_STATUTES.glob(pattern))
    results = ingest_paths(store, paths, IngestOptions(**options))  # type: ignore[arg-type]
    assert results and all(r.outcome is not IngestOutcome.FAILED for r in results), results


@pytest.fixture(scope="session")
def statute_store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One store with the statutes ingested (nothing approved), copied for each test."""
    base = tmp_path_factory.mktemp("statutes")
    labour = next(KR_STATUTES.glob("근로기준법__*.md"))
    mirror = base / "mirror" / labour.name
    mirror.parent.mkdir()
    text = labour.read_text(encoding="utf-8")
    assert "정신노동과 육체노동을" in text
    mirror.write_text(text.replace("정신노동과 육체노동을", "정신노동 및 육체노동을", 1), encoding="utf-8")
    path = base / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        _ingest(store, "주택임대차보호법__*.md", permitted_uses=("quote", "summarise"))
        _ingest(store, "근로기준법__*.md")
        _ingest(store, "소득세법__*.md", permitted_uses=("quote",))
        ingest_paths(store, [mirror], IngestOptions(doc_id=MIRROR, retrieval_provider="mirror"))
    return path


@pytest.fixture
def statutes(statute_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "store.sqlite"
    shutil.copy(statute_store_file, copy)
    with EvidenceStore.open(str(copy)) as store:
        yield store


def approve(store: EvidenceStore, *targets: str) -> None:
    for target in targets:
        decide(store, target, "approve", reviewer="Kim", reason="checked against law.go.kr")


def ref(store: EvidenceStore, doc_id: str, section_id: str, version: int | None = None) -> SourceRef:
    """The exact stored identity of a section (newest version unless given)."""
    [section] = [s for s in store.sections(doc_id, version) if s.section_id == section_id]
    return SourceRef(doc_id, section.version, section_id, section.content_hash)


def reasons(outcome: GateOutcome, doc_id: str, section_id: str, version: int | None = None) -> set[ExclusionReason]:
    return {e.reason for e in outcome.decision_for(doc_id, section_id, version).reasons}


def eligible(outcome: GateOutcome) -> set[tuple[str, int, str]]:
    return {(c.section.doc_id, c.section.version, c.section.section_id) for c in outcome.eligible}


# -- exact pairs --------------------------------------------------------------------------------


def test_pairs_travel_together_a2_and_b7_permit_neither_b2_nor_a7(statutes: EvidenceStore) -> None:
    approve(statutes, f"{HOUSING}@1", f"{HOUSING}@2", LABOUR)
    plan = RetrievalPlan.from_values(statutes, pairs=[f"{HOUSING}:제2조", f"{LABOUR}:제7조"])
    refs = [
        ref(statutes, d, s) for d, s in [(HOUSING, "제2조"), (LABOUR, "제7조"), (LABOUR, "제2조"), (HOUSING, "제7조")]
    ]
    outcome = gate(statutes, plan, refs, today=TODAY)
    assert eligible(outcome) == {(HOUSING, 2, "제2조"), (LABOUR, 1, "제7조")}
    assert reasons(outcome, LABOUR, "제2조") == {ExclusionReason.PAIR_NOT_PERMITTED}
    assert reasons(outcome, HOUSING, "제7조") == {ExclusionReason.PAIR_NOT_PERMITTED}
    assert "kr-law-001872:제2조 is not a permitted pair" in outcome.decision_for(LABOUR, "제2조").reasons[0].detail


def test_search_hits_outside_the_pairs_are_excluded_however_relevant(statutes: EvidenceStore) -> None:
    approve(statutes, f"{HOUSING}@1", f"{HOUSING}@2", LABOUR)
    plan = RetrievalPlan.from_values(statutes, pairs=[f"{HOUSING}:제2조", f"{LABOUR}:제7조"])
    hits = search(statutes, "근로 강요 금지 주거용 건물 임대차 적용", k=30)
    outcome = gate(statutes, plan, hits, today=TODAY)
    assert {(d, s) for d, _, s in eligible(outcome)} <= {(HOUSING, "제2조"), (LABOUR, "제7조")}
    assert (LABOUR, 1, "제7조") in eligible(outcome)
    assert all(d.reasons for d in outcome.excluded)  # every exclusion says why
    assert len(outcome.decisions) >= len(hits)


def test_a_section_is_never_attached_to_another_document(statutes: EvidenceStore) -> None:
    approve(statutes, f"{HOUSING}@2", LABOUR)
    plan = RetrievalPlan.from_values(statutes, pairs=[f"{HOUSING}:제7조", f"{LABOUR}:제7조"])
    labour_7 = ref(statutes, LABOUR, "제7조")
    forged = SourceRef(HOUSING, 2, "제7조", labour_7.content_hash)  # 근로기준법's text under 주택's name
    missing = SourceRef(LABOUR, 1, "제999조")
    outcome = gate(statutes, plan, [forged, missing, labour_7], today=TODAY)
    assert eligible(outcome) == {(LABOUR, 1, "제7조")}
    assert reasons(outcome, HOUSING, "제7조") == {ExclusionReason.IDENTITY}
    assert "claims hash" in outcome.decision_for(HOUSING, "제7조").reasons[0].detail
    assert "has no section '제999조'" in outcome.decision_for(LABOUR, "제999조").reasons[0].detail


# -- approval -------------------------------------------------------------------------------------


def test_unapproved_document_is_excluded(statutes: EvidenceStore) -> None:
    approve(statutes, LABOUR)
    outcome = gate(
        statutes, RetrievalPlan(), [ref(statutes, HOUSING, "제2조"), ref(statutes, LABOUR, "제2조")], today=TODAY
    )
    assert eligible(outcome) == {(LABOUR, 1, "제2조")}
    assert ExclusionReason.DOCUMENT_NOT_APPROVED in reasons(outcome, HOUSING, "제2조")
    assert ExclusionReason.SECTION_NOT_APPROVED in reasons(outcome, HOUSING, "제2조")


def test_rejected_section_stays_out_of_an_approved_document(statutes: EvidenceStore) -> None:
    decide(statutes, LABOUR, "reject", reviewer="Lee", reason="garbled conversion", section_id="제7조")
    approve(statutes, LABOUR)
    outcome = gate(
        statutes, RetrievalPlan(), [ref(statutes, LABOUR, "제7조"), ref(statutes, LABOUR, "제2조")], today=TODAY
    )
    assert eligible(outcome) == {(LABOUR, 1, "제2조")}
    assert reasons(outcome, LABOUR, "제7조") == {ExclusionReason.SECTION_NOT_APPROVED}
    # Rejected stays out even when a plan does not require approval.
    lenient = gate(statutes, RetrievalPlan(approval_required=False), [ref(statutes, LABOUR, "제7조")], today=TODAY)
    assert lenient.eligible == ()


# -- deleted provisions and versions -----------------------------------------------------------------


def test_deleted_provisions_are_never_evidence(statutes: EvidenceStore) -> None:
    approve(statutes, LABOUR)
    deleted = [s for s in statutes.sections(LABOUR) if s.deleted]
    assert [s.section_id for s in deleted] == ["제35조"]
    outcome = gate(statutes, RetrievalPlan(), [ref(statutes, LABOUR, "제35조")], today=TODAY)
    assert outcome.eligible == ()
    assert reasons(outcome, LABOUR, "제35조") == {ExclusionReason.DELETED}


def test_latest_excludes_the_superseded_version_and_as_of_chooses_the_one_in_force(statutes: EvidenceStore) -> None:
    approve(statutes, f"{HOUSING}@1", f"{HOUSING}@2")
    [hit] = [h for h in search(statutes, "주거용 건물 임대차 적용 범위", k=10) if h.section_id == "제2조"]
    assert (hit.version, hit.also_in_versions) == (2, (1,))  # identical text, collapsed by search

    latest = gate(statutes, RetrievalPlan(), [hit], today=TODAY)
    assert eligible(latest) == {(HOUSING, 2, "제2조")}
    assert reasons(latest, HOUSING, "제2조", 1) == {ExclusionReason.SUPERSEDED}

    in_2020 = gate(statutes, RetrievalPlan.from_values(statutes, as_of="2020-01-01"), [hit], today=TODAY)
    assert eligible(in_2020) == {(HOUSING, 1, "제2조")}  # the 2015 version (MST166548)
    assert in_2020.eligible[0].document.provenance.version_label == "MST166548"
    assert reasons(in_2020, HOUSING, "제2조", 2) == {ExclusionReason.NOT_YET_IN_FORCE}

    before_any = gate(statutes, RetrievalPlan.from_values(as_of="2015-03-01"), [hit], today=TODAY)
    # No version was in force yet (the 2015 one took effect on 2015-07-01): the first to take effect
    # is eligible, and the outcome notes that it is not yet in force.
    assert eligible(before_any) == {(HOUSING, 1, "제2조")}
    [note] = before_any.version_notes
    assert (note.kind.value, note.version, str(note.effective_on)) == ("not_yet_in_force", 1, "2015-07-01")


def test_a_law_with_only_a_future_version_is_eligible_with_a_note(statutes: EvidenceStore) -> None:
    approve(statutes, INCOME_TAX)
    article = ref(statutes, INCOME_TAX, "제1조")
    today = gate(statutes, RetrievalPlan(), [article], today=TODAY)
    assert eligible(today) == {(INCOME_TAX, 1, "제1조")}
    [note] = today.version_notes
    assert note.kind.value == "not_yet_in_force" and str(note.effective_on) == "2027-09-09"
    assert "not yet in force on 2026-11-30; it takes effect on 2027-09-09" in note.render()
    later = gate(statutes, RetrievalPlan.from_values(as_of="2027-09-09"), [article], today=TODAY)
    assert eligible(later) == {(INCOME_TAX, 1, "제1조")} and later.version_notes == ()


# -- origin and usage ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origins", "allowed"),
    [
        (["law.go.kr"], True),  # host of the official publisher, subdomain www included
        ([KR_STATUTES.as_uri() + "/"], True),  # prefix of the origin URL
        (["https://example.org"], False),
        (["go.kr.example.org"], False),
    ],
)
def test_origin_rule(statutes: EvidenceStore, origins: list[str], allowed: bool) -> None:
    approve(statutes, LABOUR)
    outcome = gate(statutes, RetrievalPlan.from_values(origins=origins), [ref(statutes, LABOUR, "제7조")], today=TODAY)
    assert bool(outcome.eligible) is allowed
    if not allowed:
        assert reasons(outcome, LABOUR, "제7조") == {ExclusionReason.ORIGIN_NOT_ALLOWED}


def test_usage_rule_requires_every_use_in_the_licence(statutes: EvidenceStore) -> None:
    approve(statutes, f"{HOUSING}@2", LABOUR)
    refs = [ref(statutes, HOUSING, "제2조"), ref(statutes, LABOUR, "제2조")]
    quote = gate(statutes, RetrievalPlan.from_values(require_use="quote"), refs, today=TODAY)
    assert eligible(quote) == {(HOUSING, 2, "제2조")}
    assert reasons(quote, LABOUR, "제2조") == {ExclusionReason.USE_NOT_PERMITTED}
    redistribute = gate(statutes, RetrievalPlan.from_values(require_use=["quote", "redistribute"]), refs, today=TODAY)
    assert redistribute.eligible == ()
    assert "does not permit ['redistribute']" in redistribute.decision_for(HOUSING, "제2조").reasons[0].detail


# -- duplicates -------------------------------------------------------------------------------------


def test_exact_duplicates_across_statutes_collapse_keeping_both_provenances(statutes: EvidenceStore) -> None:
    approve(statutes, LABOUR, INCOME_TAX)
    labour, income = ref(statutes, LABOUR, "부칙-22"), ref(statutes, INCOME_TAX, "부칙-98")
    outcome = gate(statutes, RetrievalPlan.from_values(as_of="2027-09-10"), [labour, income], today=TODAY)
    [kept] = outcome.eligible
    assert kept.ref == labour and kept.duplicates == (income,)
    assert reasons(outcome, INCOME_TAX, "부칙-98") == {ExclusionReason.DUPLICATE}
    assert str(labour) in outcome.decision_for(INCOME_TAX, "부칙-98").reasons[0].detail
    assert outcome.decision_for(LABOUR, "부칙-22").candidate == kept


def test_a_mirror_copy_collapses_exactly_or_nearly(statutes: EvidenceStore) -> None:
    approve(statutes, LABOUR, MIRROR)
    refs = [ref(statutes, LABOUR, "제2조"), ref(statutes, MIRROR, "제2조"), ref(statutes, LABOUR, "제7조")]
    refs.append(ref(statutes, MIRROR, "제7조"))
    outcome = gate(statutes, RetrievalPlan(), refs, today=TODAY)
    assert eligible(outcome) == {(LABOUR, 1, "제2조"), (LABOUR, 1, "제7조")}
    assert reasons(outcome, MIRROR, "제2조") == {ExclusionReason.NEAR_DUPLICATE}  # one edited phrase
    assert reasons(outcome, MIRROR, "제7조") == {ExclusionReason.DUPLICATE}
    by_section = {c.section.section_id: c for c in outcome.eligible}
    assert by_section["제2조"].duplicates == (refs[1],)
    assert by_section["제7조"].duplicates == (refs[3],)
    assert "Jaccard" in outcome.decision_for(MIRROR, "제2조").reasons[0].detail
    strict = gate(statutes, RetrievalPlan(near_duplicate_threshold=1.0), refs, today=TODAY)
    assert (MIRROR, 1, "제2조") in eligible(strict)


def test_ineligible_passages_never_absorb_eligible_ones(statutes: EvidenceStore) -> None:
    approve(statutes, MIRROR)  # the original is unapproved: the mirror's copy survives on its own
    refs = [ref(statutes, LABOUR, "제7조"), ref(statutes, MIRROR, "제7조")]
    outcome = gate(statutes, RetrievalPlan(), refs, today=TODAY)
    assert eligible(outcome) == {(MIRROR, 1, "제7조")}
    assert outcome.eligible[0].duplicates == ()


# -- rules are data ---------------------------------------------------------------------------------


def test_unknown_rule_name_fails_listing_the_valid_ones(statutes: EvidenceStore) -> None:
    with pytest.raises(InputError, match=r"unknown gate rule\(s\) \['freshness'\]; valid rules: identity, pair"):
        RetrievalPlan.from_values(statutes, rules=["identity", "freshness"])


def test_a_plan_may_run_a_subset_of_rules(statutes: EvidenceStore) -> None:
    approve(statutes, LABOUR)
    plan = RetrievalPlan.from_values(statutes, rules=["identity", "pair"], pairs=[f"{LABOUR}:제35조"])
    outcome = gate(statutes, plan, [ref(statutes, LABOUR, "제35조")], today=TODAY)
    assert eligible(outcome) == {(LABOUR, 1, "제35조")}  # the deleted rule was not asked for
