"""The version in force by effective date (issue 10, point 1), on the shared statute corpus.

외국인근로자의고용등에관한법률: v1 promulgated 2003-08-16, effective 2004-08-17; v2 promulgated
2004-12-31, effective 2005-07-01; v3 promulgated 2026-06-09, effective 2026-12-10.
주택임대차보호법: v1 effective 2015-07-01; v2 effective 2026-01-02. All approved, so the review
status marks every version but the newest ``superseded``; the gate goes by the dates.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest

from citewise.answer.ask import ask
from citewise.answer.result import AskSettings
from citewise.evidence import RetrievalPlan, SourceRef, gate
from citewise.ingest.pipeline import ingest_paths
from citewise.records import ReviewStatus
from citewise.records.answer import AskOutcome
from citewise.records.versions import VersionNoteKind
from citewise.review import decide
from citewise.search.local import search
from citewise.store.evidence import EvidenceStore
from citewise.store.known_versions import KnownVersions
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.integration

FOREIGN = "kr-law-009542"
HOUSING = "kr-law-001248"
INCOME_TAX = "kr-law-001565"
TODAY = date(2026, 12, 1)
DAY = timedelta(days=1)

# (effective date, version in force from it, the next version or None)
FOREIGN_STEPS = [(date(2004, 8, 17), 1), (date(2005, 7, 1), 2), (date(2026, 12, 10), 3)]
HOUSING_STEPS = [(date(2015, 7, 1), 1), (date(2026, 1, 2), 2)]


@pytest.fixture(scope="module")
def versions_store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("versions") / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        files = [*sorted(KR_STATUTES.glob("외국인근로자*.md")), *sorted(KR_STATUTES.glob("주택임대차보호법__*.md"))]
        ingest_paths(store, [*files, *KR_STATUTES.glob("소득세법__*.md")])
        for target in [f"{FOREIGN}@1", f"{FOREIGN}@2", f"{FOREIGN}@3", f"{HOUSING}@1", f"{HOUSING}@2", INCOME_TAX]:
            decide(store, target, "approve", reviewer="Kim", reason="checked against law.go.kr")
    return path


@pytest.fixture
def statutes(versions_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "store.sqlite"
    shutil.copy(versions_store_file, copy)
    with EvidenceStore.open(str(copy)) as store:
        yield store


def _every_version(store: EvidenceStore, doc_id: str, section_id: str) -> list[SourceRef]:
    refs = []
    for v in store.versions(doc_id):
        for s in store.sections(doc_id, v.version):
            if s.section_id == section_id:
                refs.append(SourceRef(doc_id, v.version, section_id, s.content_hash))
    return refs


def _cases(steps: list[tuple[date, int]]) -> list[tuple[date, int, int | None]]:
    """For each effective date: the day before, the day itself and the day after, with the version
    in force then and the next version to come (None when none is newer)."""
    cases = []
    for i, (starts, version) in enumerate(steps):
        before = steps[i - 1][1] if i else steps[0][1]  # before the first: the first, not yet in force
        following = steps[i + 1][1] if i + 1 < len(steps) else None
        cases.append((starts - DAY, before, version))
        cases.append((starts, version, following))
        cases.append((starts + DAY, version, following))
    return cases


@pytest.mark.parametrize(
    ("doc_id", "on", "in_force", "upcoming"),
    [(FOREIGN, *c) for c in _cases(FOREIGN_STEPS)] + [(HOUSING, *c) for c in _cases(HOUSING_STEPS)],
)
def test_the_version_in_force_on_each_side_of_every_effective_date(
    statutes: EvidenceStore, doc_id: str, on: date, in_force: int, upcoming: int | None
) -> None:
    refs = _every_version(statutes, doc_id, "제1조")
    assert len(refs) == len(statutes.versions(doc_id))
    for plan in (RetrievalPlan.from_values(as_of=on.isoformat()), RetrievalPlan()):
        outcome = gate(statutes, plan, refs, today=on)  # --as-of DATE and "today is DATE" agree
        assert [c.document.version for c in outcome.eligible] == [in_force]
        notes = {n.version: n for n in outcome.version_notes}
        if upcoming is None or upcoming == in_force:
            assert upcoming is None or notes[in_force].kind is VersionNoteKind.NOT_YET_IN_FORCE
        else:
            assert notes[upcoming].kind is VersionNoteKind.UPCOMING
            assert notes[upcoming].in_force_version == in_force


def test_approving_a_version_not_yet_in_force_hides_nothing(statutes: EvidenceStore) -> None:
    statuses = [v.status for v in statutes.versions(FOREIGN)]
    assert statuses == [ReviewStatus.SUPERSEDED, ReviewStatus.SUPERSEDED, ReviewStatus.APPROVED]
    outcome = gate(statutes, RetrievalPlan(), _every_version(statutes, FOREIGN, "제1조"), today=TODAY)
    assert [c.document.version for c in outcome.eligible] == [2]  # superseded by status, in force by date
    reasons = {d.ref.version: [r.reason.value for r in d.reasons] for d in outcome.excluded}
    assert reasons == {1: ["superseded"], 3: ["not_yet_in_force"]}
    [note] = outcome.version_notes
    assert note.render() == (
        "외국인근로자의 고용 등에 관한 법률: a newer approved version (MST286817) takes effect on 2026-12-10; "
        "this answer cites version 2, the one in force on 2026-12-01."
    )


def test_ask_answers_from_the_version_in_force_and_notes_the_coming_one(statutes: EvidenceStore) -> None:
    question = "외국인근로자의 취업활동 기간은 얼마인가요"
    result = ask(statutes, question, RetrievalPlan(), AskSettings(today=TODAY))
    assert result.outcome is AskOutcome.FALLBACK, result.text
    assert {(e.doc_id, e.version) for e in result.evidence if e.doc_id == FOREIGN} == {(FOREIGN, 2)}
    assert any(n.doc_id == FOREIGN and str(n.effective_on) == "2026-12-10" for n in result.version_notes)
    after = ask(statutes, question, RetrievalPlan(), AskSettings(today=date(2026, 12, 10)))
    assert {e.version for e in after.evidence if e.doc_id == FOREIGN} == {3}
    assert not [n for n in after.version_notes if n.doc_id == FOREIGN]


def test_a_future_only_law_is_cited_with_a_note_that_it_is_not_yet_in_force(statutes: EvidenceStore) -> None:
    outcome = gate(statutes, RetrievalPlan(), _every_version(statutes, INCOME_TAX, "제1조"), today=TODAY)
    assert [c.document.version for c in outcome.eligible] == [1]
    [note] = outcome.version_notes
    assert note.kind is VersionNoteKind.NOT_YET_IN_FORCE and note.in_force_version is None
    assert "not yet in force on 2026-12-01; it takes effect on 2027-09-09" in note.render()


def _flags(store: EvidenceStore, query: str, on: date) -> dict[int, set[tuple[bool, bool]]]:
    hits = search(store, query, k=40, embedder=None, on=on)
    flags: dict[int, set[tuple[bool, bool]]] = {}
    for h in hits:
        if h.doc_id == FOREIGN:
            flags.setdefault(h.version, set()).add((h.superseded, h.not_yet_in_force))
    return flags


def test_search_flags_follow_the_version_in_force_not_the_review_status(statutes: EvidenceStore) -> None:
    query = "외국인근로자 취업활동 기간 사업장 변경"
    # 2026-12-01: v2 in force (its status says superseded), v1 superseded, v3 approved but not yet in force.
    before = _flags(statutes, query, TODAY)
    assert before.get(2) == {(False, False)}
    assert before.get(1, {(True, False)}) == {(True, False)}
    assert before.get(3) == {(False, True)}
    # From v3's effective date on, v3 is in force and v2 is superseded.
    after = _flags(statutes, query, date(2026, 12, 10))
    assert after.get(3) == {(False, False)}
    assert after.get(2) == {(True, False)}


def test_a_collapsed_hit_shows_the_version_in_force(statutes: EvidenceStore) -> None:
    # 제1조 (purpose) reads the same in v1 and v2: the one hit names whichever is in force.
    for on, shown, other in ((TODAY, 2, 1), (date(2005, 1, 1), 1, 2)):
        hits = search(statutes, "외국인근로자 고용 목적", k=10, embedder=None, on=on)
        [hit] = [h for h in hits if h.doc_id == FOREIGN and h.section_id == "제1조" and h.also_in_versions]
        assert (hit.version, hit.also_in_versions) == (shown, (other,))
        assert not hit.superseded and not hit.not_yet_in_force and not hit.unapproved


def test_known_versions_are_read_again_after_a_decision_and_never_shared_with_callers(
    statutes: EvidenceStore,
) -> None:
    known = KnownVersions(max_documents=1)  # past one document a store's entry starts again
    first = known.of(statutes, [FOREIGN, HOUSING, "kr-law-no-such", FOREIGN])
    assert first == {FOREIGN: statutes.versions(FOREIGN), HOUSING: statutes.versions(HOUSING), "kr-law-no-such": []}
    first[FOREIGN].clear()  # the caller's list, not the kept one
    assert known.of(statutes, [FOREIGN]) == {FOREIGN: statutes.versions(FOREIGN)}
    decide(statutes, f"{FOREIGN}@3", "reject", reviewer="Kim", reason="not yet promulgated here")
    after = known.of(statutes, [FOREIGN])[FOREIGN]
    assert [v.status for v in after] == [ReviewStatus.SUPERSEDED, ReviewStatus.APPROVED, ReviewStatus.REJECTED]
