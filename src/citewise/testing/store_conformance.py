"""The one conformance test class every evidence-store backend must pass.

Modelled on haystack's ``testing/document_store.py``: :class:`StoreConformance` holds the tests and
asks for a ``store_url`` fixture (the URL of a new, empty database); a backend's test class
subclasses it and provides that fixture (``tests/test_store_backends.py`` does so for SQLite and
PostgreSQL; a third-party backend does the same in its own suite). Everything here goes through
:class:`~citewise.store.protocol.EvidenceStoreProtocol` except where a test must reach under it
(tampering with a stored text, building an old schema): :mod:`citewise.store.tampering` does that.
Unlike the fakes, it needs pytest.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterator
from datetime import date

import pytest

from citewise.errors import NotFoundError, ReviewError, StoreError
from citewise.records import IngestOutcome, Provenance, ReviewStatus, SectionKind
from citewise.search.local import search
from citewise.store import index, migrations
from citewise.store.evidence import EvidenceStore, section_hash
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import NewSection, NewVersion
from citewise.store.tampering import (
    OLD_DOCUMENT,
    mark_index_built_by,
    mark_written_by_a_newer_citewise,
    migrate_blank,
    schema_differences,
    store_at_schema,
    tamper_with_texts,
)

APPROVED, REJECTED = ReviewStatus.APPROVED, ReviewStatus.REJECTED

#: A small corpus whose BM25 scores were computed by SQLite FTS5; every backend must reproduce them.
RANKING_CORPUS = {
    "lease-act": {
        "Deposit": "The landlord returns the deposit when the lease ends.",
        "Repairs": "The landlord keeps the house in repair; the tenant reports damage.",
        "Notice": "Either party gives notice of two months before the lease ends.",
    },
    "deposit-guide": {
        "Landlord duties": "Return the deposit within one month.",
        "Tenant duties": "Pay the rent and keep the deposit receipt.",
    },
    "주택임대차보호법": {
        "제3조의3(임차권등기명령)": (
            "임대차가 끝난 후 보증금이 반환되지 아니한 경우 임차인은 임차권등기명령을 신청할 수 있다."
        ),
        "제8조(보증금 중 일정액의 보호)": (
            "임차인은 보증금 중 일정액을 다른 담보물권자보다 우선하여 변제받을 권리가 있다."
        ),
    },
}
# Scores under the default analyzer (cw-kiwi-fused-2: the Korean sections' fields also make the
# corpus's mean length, so the English scores move with the analyzer); every backend must compute the same.
RANKING_QUERIES = {
    "landlord deposit": [
        ("deposit-guide", "Landlord duties", 0.8385),
        ("lease-act", "Deposit", 0.8063),
        ("deposit-guide", "Tenant duties", 0.4193),
        ("lease-act", "Repairs", 0.3301),
    ],
    "임차권등기명령 신청": [
        ("주택임대차보호법", "제3조의3(임차권등기명령)", 18.0601),
        ("주택임대차보호법", "제8조(보증금 중 일정액의 보호)", 0.5102),
    ],
    "보증금 반환": [
        ("주택임대차보호법", "제3조의3(임차권등기명령)", 3.1502),
        ("주택임대차보호법", "제8조(보증금 중 일정액의 보호)", 2.891),
    ],
}


def new_version(
    doc_id: str = "doc-a",
    sections: dict[str, str] | None = None,
    *,
    title: str | None = None,
    promulgated: str | None = None,
    deleted: tuple[str, ...] = (),
) -> NewVersion:
    """A version whose section headings are their ids."""
    sections = sections if sections is not None else {"§ 1": "Scope of this act.", "§ 2": "Definitions."}
    return NewVersion(
        doc_id=doc_id,
        title=title or doc_id,
        format="test",
        source=f"{doc_id}.txt",
        full_text="\n\n".join(f"{k}\n{v}" for k, v in sections.items()),
        provenance=Provenance(
            issuing_authority="Test Authority",
            promulgated_on=date.fromisoformat(promulgated) if promulgated else None,
            permitted_uses=("quote",),
        ),
        sections=tuple(
            NewSection(sid, sid, text, SectionKind.ARTICLE, deleted=sid in deleted) for sid, text in sections.items()
        ),
        metadata={"kind": "test"},
    )


def _approve(store: EvidenceStoreProtocol, doc_id: str, version: int | None = None) -> None:
    store.record_decision(doc_id, version, APPROVED, reviewer="Rita", reason="checked")


class StoreConformance:
    """Tests every evidence store passes. Subclasses provide ``store_url``: a new, empty database."""

    @pytest.fixture
    def store_url(self) -> str:
        raise NotImplementedError("a backend's test class provides store_url")

    @pytest.fixture
    def evidence_store(self, store_url: str) -> Iterator[EvidenceStore]:
        with EvidenceStore.open(store_url) as store:
            yield store

    # -- migrations ---------------------------------------------------------------------------

    def test_a_blank_store_gets_every_migration_once(self, store_url: str) -> None:
        every = [m.id for m in migrations.MIGRATIONS]
        assert migrate_blank(store_url) == (every, every, [])
        with EvidenceStore.open(store_url) as store:
            assert isinstance(store, EvidenceStoreProtocol)
            assert store.migrations() == every

    def test_concurrent_first_openings_apply_each_migration_once(self, store_url: str) -> None:
        opened: list[list[str]] = []
        errors: list[BaseException] = []

        def open_store() -> None:
            try:
                with EvidenceStore.open(store_url) as store:
                    opened.append(store.migrations())
            except BaseException as exc:  # collected: a thread's failure must fail the test
                errors.append(exc)

        threads = [threading.Thread(target=open_store) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert opened == [[m.id for m in migrations.MIGRATIONS]] * 6

    def test_the_migrated_schema_matches_the_declared_tables(self, evidence_store: EvidenceStore) -> None:
        assert schema_differences(evidence_store) == []

    @pytest.mark.parametrize("previous", [m.id for m in migrations.MIGRATIONS[:-1]])
    def test_upgrade_from_each_previous_schema_keeps_data_and_builds_the_index(
        self, store_url: str, previous: str
    ) -> None:
        assert store_at_schema(store_url, previous)[-1] == previous  # written before any index existed
        with EvidenceStore.open(store_url) as store:
            assert store.migrations()[-1] == migrations.MIGRATIONS[-1].id
            assert [(h.doc_id, h.section_id) for h in search(store, "landlord", k=3)] == [OLD_DOCUMENT]
            added = store.store_version(new_version("new-doc", {"s1": "Landlords and tenants, again."}))
            assert added.outcome is IngestOutcome.NEW_DOCUMENT
            assert {h.doc_id for h in search(store, "landlord", k=3)} == {"old-doc", "new-doc"}
            assert store.verify() == (4, [])

    def test_a_store_written_by_a_newer_citewise_is_refused(self, store_url: str) -> None:
        EvidenceStore.open(store_url).close()
        mark_written_by_a_newer_citewise(store_url)
        with pytest.raises(StoreError, match="newer version"):
            EvidenceStore.open(store_url)

    # -- ingest and versioning ----------------------------------------------------------------

    def test_a_new_document_is_staged_for_review_with_its_provenance(self, evidence_store: EvidenceStore) -> None:
        result = evidence_store.store_version(new_version(promulgated="2024-05-01"))
        assert (result.outcome, result.doc_id, result.version, result.section_count) == (
            IngestOutcome.NEW_DOCUMENT,
            "doc-a",
            1,
            2,
        )
        stored = evidence_store.version("doc-a")
        assert stored.status is ReviewStatus.REVIEW_REQUIRED
        assert stored.provenance.issuing_authority == "Test Authority"
        assert stored.provenance.promulgated_on == date(2024, 5, 1)
        assert stored.provenance.permitted_uses == ("quote",)
        assert stored.metadata == {"kind": "test"}
        assert [d.doc_id for d in evidence_store.documents()] == ["doc-a"]
        sections = evidence_store.sections("doc-a")
        assert [(s.section_id, s.ordinal, s.status) for s in sections] == [
            ("§ 1", 0, ReviewStatus.REVIEW_REQUIRED),
            ("§ 2", 1, ReviewStatus.REVIEW_REQUIRED),
        ]

    def test_identical_content_is_a_no_op_and_formatting_noise_is_no_change(
        self, evidence_store: EvidenceStore
    ) -> None:
        evidence_store.store_version(new_version(sections={"§ 1": "Scope  of this act. "}))
        again = evidence_store.store_version(new_version(sections={"§ 1": "Scope of this act."}))
        assert (again.outcome, again.version, again.section_count) == (IngestOutcome.UNCHANGED, 1, 1)
        assert len(evidence_store.versions("doc-a")) == 1

    def test_changed_content_is_a_new_version_and_unchanged_sections_keep_their_hashes(
        self, evidence_store: EvidenceStore
    ) -> None:
        evidence_store.store_version(new_version())
        changed = evidence_store.store_version(new_version(sections={"§ 1": "Scope of this act.", "§ 2": "Amended."}))
        assert (changed.outcome, changed.version) == (IngestOutcome.NEW_VERSION, 2)
        v1, v2 = evidence_store.sections("doc-a", 1), evidence_store.sections("doc-a", 2)
        assert v1[0].content_hash == v2[0].content_hash
        assert v1[1].content_hash != v2[1].content_hash
        assert evidence_store.version("doc-a").version == 2
        assert [v.version for v in evidence_store.versions(status=ReviewStatus.REVIEW_REQUIRED)] == [1, 2]
        back = evidence_store.store_version(new_version())  # the first content again: still stored
        assert (back.outcome, back.version) == (IngestOutcome.UNCHANGED, 1)

    def test_unknown_documents_and_versions_name_what_exists(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version())
        with pytest.raises(NotFoundError, match="docs list"):
            evidence_store.version("nope")
        with pytest.raises(NotFoundError, match=r"versions \[1\]"):
            evidence_store.sections("doc-a", 7)
        with pytest.raises(NotFoundError, match=r"versions \[1\]"):
            evidence_store.record_decision("doc-a", 7, APPROVED, reviewer="r", reason="x")

    def test_deleted_sections_are_kept_marked_and_never_found_by_id(self, evidence_store: EvidenceStore) -> None:
        sections = {"제1조": "목적", "제7조": "삭제 <2020. 3. 24.>"}
        evidence_store.store_version(new_version("law", sections, deleted=("제7조",)))
        _approve(evidence_store, "law")
        stored = {s.section_id: s for s in evidence_store.sections("law")}
        assert stored["제7조"].deleted and not stored["제1조"].deleted
        assert [m.section_id for m in evidence_store.find_sections(["제1조", "제7조"])] == ["제1조"]
        hits = search(evidence_store, "삭제", k=5)
        assert [(h.section_id, h.deleted) for h in hits] == [("제7조", True)]

    def test_a_failing_version_leaves_nothing_half_written(self, evidence_store: EvidenceStore) -> None:
        good = new_version()
        broken = NewVersion(
            **{**{f: getattr(good, f) for f in good.__dataclass_fields__}, "sections": good.sections * 2}
        )
        with pytest.raises(StoreError):
            evidence_store.store_version(broken)
        assert evidence_store.documents() == []
        assert evidence_store.store_version(good).outcome is IngestOutcome.NEW_DOCUMENT
        assert evidence_store.verify() == (3, [])

    def test_concurrent_writers_store_each_version_once(self, evidence_store: EvidenceStore) -> None:
        versions = [new_version(f"doc-{i}", {"s": f"text {i}"}) for i in range(4)]
        versions += [new_version("doc-0", {"s": "text 0, amended"})]
        errors: list[BaseException] = []

        def writer() -> None:
            try:
                for v in versions:
                    evidence_store.store_version(v)
            except BaseException as exc:  # collected: a thread's failure must fail the test
                errors.append(exc)

        threads = [threading.Thread(target=writer) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert [(v.doc_id, v.version) for v in evidence_store.versions()] == [
            ("doc-0", 1),
            ("doc-0", 2),
            ("doc-1", 1),
            ("doc-2", 1),
            ("doc-3", 1),
        ]
        assert len(search(evidence_store, "text", k=10)) == 5

    # -- review ------------------------------------------------------------------------------

    def test_approval_covers_pending_sections_and_records_who_when_why(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version())
        made = evidence_store.record_decision("doc-a", None, APPROVED, reviewer="Rita", reason="checked the source")
        assert (made.doc_id, made.version, made.section_id, made.decision) == ("doc-a", 1, None, APPROVED)
        assert evidence_store.version("doc-a").status is APPROVED
        assert {s.status for s in evidence_store.sections("doc-a")} == {APPROVED}
        [recorded] = evidence_store.decisions("doc-a")
        assert (recorded.reviewer, recorded.reason, recorded.decided_at) == (
            "Rita",
            "checked the source",
            made.decided_at,
        )
        assert recorded.decided_at.tzinfo is not None

    def test_a_rejected_section_stays_rejected_when_its_version_is_approved(
        self, evidence_store: EvidenceStore
    ) -> None:
        evidence_store.store_version(new_version())
        evidence_store.record_decision("doc-a", 1, REJECTED, reviewer="r", reason="wrong", section_id="§ 2")
        assert [p.pending_sections for p in evidence_store.pending_reviews()] == [1]
        _approve(evidence_store, "doc-a", 1)
        assert [s.status for s in evidence_store.sections("doc-a")] == [APPROVED, REJECTED]
        assert evidence_store.pending_reviews() == []
        assert [d.section_id for d in evidence_store.decisions()] == ["§ 2", None]

    def test_deciding_twice_or_on_an_unknown_section_is_refused(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version())
        _approve(evidence_store, "doc-a")
        with pytest.raises(ReviewError, match="already approved"):
            _approve(evidence_store, "doc-a")
        with pytest.raises(NotFoundError, match="no section"):
            evidence_store.record_decision("doc-a", 1, REJECTED, reviewer="r", reason="x", section_id="§ 9")
        assert len(evidence_store.decisions()) == 1

    def test_approving_a_newer_version_supersedes_and_rejecting_it_restores_the_older(
        self, evidence_store: EvidenceStore
    ) -> None:
        evidence_store.store_version(new_version(promulgated="2020-01-01"))
        evidence_store.store_version(new_version(sections={"§ 1": "Changed."}, promulgated="2022-01-01"))
        _approve(evidence_store, "doc-a", 1)
        _approve(evidence_store, "doc-a", 2)
        assert [v.status for v in evidence_store.versions("doc-a")] == [ReviewStatus.SUPERSEDED, APPROVED]
        evidence_store.record_decision("doc-a", 2, REJECTED, reviewer="r", reason="not in force")
        assert [v.status for v in evidence_store.versions("doc-a")] == [APPROVED, REJECTED]

    def test_an_older_version_ingested_later_does_not_supersede_the_newer(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version(promulgated="2022-01-01"))
        evidence_store.store_version(new_version(sections={"§ 1": "Old text."}, promulgated="2019-01-01"))
        _approve(evidence_store, "doc-a", 1)
        _approve(evidence_store, "doc-a", 2)
        assert [v.status for v in evidence_store.versions("doc-a")] == [APPROVED, ReviewStatus.SUPERSEDED]

    def test_pending_reviews_list_versions_and_leftover_sections(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version("doc-a"))
        evidence_store.store_version(new_version("doc-b"))
        evidence_store.record_decision("doc-b", 1, APPROVED, reviewer="r", reason="x", section_id="§ 1")
        assert [
            (p.doc_id, p.status, p.pending_sections, p.section_count) for p in evidence_store.pending_reviews()
        ] == [
            ("doc-a", ReviewStatus.REVIEW_REQUIRED, 2, 2),
            ("doc-b", ReviewStatus.REVIEW_REQUIRED, 1, 2),
        ]

    def test_find_sections_reads_approved_versions_only(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version("doc-a", title="Act A"))
        evidence_store.store_version(new_version("doc-b", title="Act B"))
        assert evidence_store.find_sections(["§ 2"]) == []
        _approve(evidence_store, "doc-a")
        _approve(evidence_store, "doc-b")
        found = evidence_store.find_sections(["§ 2", "§ 9"])
        assert [(m.doc_id, m.version, m.title, m.section_id, m.heading) for m in found] == [
            ("doc-a", 1, "Act A", "§ 2", "§ 2"),
            ("doc-b", 1, "Act B", "§ 2", "§ 2"),
        ]

    # -- integrity ---------------------------------------------------------------------------

    def test_hashes_are_prefixed_and_verify_reports_tampering(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version())
        assert evidence_store.version("doc-a").content_hash.startswith("sha256:")
        assert evidence_store.verify() == (3, [])
        tamper_with_texts(evidence_store, "§ 1", "Scope of another act.")
        _, mismatches = evidence_store.verify()
        assert {(m.doc_id, m.section_id) for m in mismatches} == {("doc-a", "§ 1"), ("doc-a", None)}

    # -- search ------------------------------------------------------------------------------

    def _ranking_corpus(self, store: EvidenceStoreProtocol) -> None:
        for doc_id, sections in RANKING_CORPUS.items():
            store.store_version(new_version(doc_id, sections))

    def test_search_ranks_by_the_same_bm25_on_every_backend(self, evidence_store: EvidenceStore) -> None:
        self._ranking_corpus(evidence_store)
        for query, expected in RANKING_QUERIES.items():
            hits = search(evidence_store, query, k=5)
            assert [(h.doc_id, h.section_id, h.score) for h in hits] == expected, query

    def test_index_scores_are_the_very_doubles_sqlite_fts5_computes(self, evidence_store: EvidenceStore) -> None:
        # Not rounded: equal doubles make identical sections tie, and ties break by row id, alike.
        self._ranking_corpus(evidence_store)
        scored = [
            (m.section.doc_id, m.section.section_id, m.score)
            for m in evidence_store.search(["landlord", "deposit"], 10)
        ]
        assert scored == [
            ("deposit-guide", "Landlord duties", 0.8385088033637818),
            ("lease-act", "Deposit", 0.8063004574012407),
            ("deposit-guide", "Tenant duties", 0.4192544016818909),
            ("lease-act", "Repairs", 0.3300846222196977),
        ]

    def test_a_query_of_many_postings_scores_the_candidates_of_its_rarest_terms_over_all_terms(
        self, evidence_store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self._ranking_corpus(evidence_store)
        monkeypatch.setattr(index, "FULL_SCORE_POSTINGS", 5)  # landlord and deposit: 3 sections each
        scored = [(m.section.section_id, m.score) for m in evidence_store.search(["landlord", "zebra", "deposit"], 10)]
        # The sections with "deposit" (the rarest term, first by name on a tie) are the candidates,
        # scored over both terms: the very doubles of the one-stage search (see the test above);
        # "Repairs" has "landlord" only and is not a candidate.
        assert scored == [
            ("Landlord duties", 0.8385088033637818),
            ("Deposit", 0.8063004574012407),
            ("Tenant duties", 0.4192544016818909),
        ]

    def test_two_stage_scores_follow_the_index_as_it_grows(
        self, evidence_store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self._ranking_corpus(evidence_store)
        evidence_store.search(["landlord", "deposit"], 10)  # term counts cached for this index
        evidence_store.store_version(new_version("more", {"Landlord": "The landlord holds the deposit."}))
        one_stage = evidence_store.search(["landlord", "deposit"], 10)
        monkeypatch.setattr(index, "FULL_SCORE_POSTINGS", 1)
        two_stage = evidence_store.search(["landlord", "deposit"], 10)
        assert [(m.section.section_id, m.score) for m in two_stage] == [
            (m.section.section_id, m.score) for m in one_stage if m.section.section_id != "Repairs"
        ]
        assert len(two_stage) == 4

    def test_two_stage_scores_sections_of_identical_text_as_one_stage_does(
        self, evidence_store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # Copies of one document (the same title, headings and texts under other ids) share their
        # field counts in the second stage; each copy must still get the one-stage doubles.
        self._ranking_corpus(evidence_store)
        for copy in ("lease-act-2", "lease-act-3"):
            evidence_store.store_version(new_version(copy, RANKING_CORPUS["lease-act"], title="lease-act"))
        terms = ["landlord", "deposit"]  # "deposit", the rarer, picks the candidates
        one_stage = [(m.section.doc_id, m.section.section_id, m.score) for m in evidence_store.search(terms, 20)]
        monkeypatch.setattr(index, "FULL_SCORE_POSTINGS", 1)
        two_stage = [(m.section.doc_id, m.section.section_id, m.score) for m in evidence_store.search(terms, 20)]
        candidates = {(doc_id, section_id) for doc_id, section_id, _ in two_stage}
        assert two_stage == [hit for hit in one_stage if (hit[0], hit[1]) in candidates]
        copied = [score for doc_id, section_id, score in two_stage if section_id == "Deposit"]
        assert len(copied) == 3 and len(set(copied)) == 1  # the three copies, one double

    def test_a_match_in_a_heading_counts_double(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version("in-heading", {"Rent": "Paid monthly."}))
        evidence_store.store_version(new_version("in-body", {"Payments": "Rent paid monthly."}))
        [first, second] = evidence_store.search(["rent"], 5)
        assert (first.section.doc_id, second.section.doc_id) == ("in-heading", "in-body")
        assert first.score > second.score

    def test_search_marks_status_and_collapses_identical_sections_of_versions(
        self, evidence_store: EvidenceStore
    ) -> None:
        evidence_store.store_version(new_version(sections={"§ 1": "Tenancy rules.", "§ 2": "Deposits."}))
        evidence_store.store_version(new_version(sections={"§ 1": "Tenancy rules.", "§ 2": "Deposits, amended."}))
        [hit] = search(evidence_store, "tenancy", k=5)
        assert (hit.version, hit.also_in_versions, hit.unapproved) == (2, (1,), True)
        _approve(evidence_store, "doc-a", 1)
        _approve(evidence_store, "doc-a", 2)
        [old] = [h for h in search(evidence_store, "deposits", k=5) if h.version == 1]
        assert old.superseded and not old.unapproved

    def test_queries_without_indexed_terms_find_nothing(self, evidence_store: EvidenceStore) -> None:
        self._ranking_corpus(evidence_store)
        assert search(evidence_store, "zebra quantum", k=5) == []
        assert evidence_store.search([], 5) == []

    def test_reindex_rebuilds_the_same_ranking(self, evidence_store: EvidenceStore) -> None:
        self._ranking_corpus(evidence_store)
        before = search(evidence_store, "landlord deposit", k=5)
        assert evidence_store.reindex() == 0  # current: nothing to do
        assert evidence_store.reindex(force=True) == 7
        assert search(evidence_store, "landlord deposit", k=5) == before

    def test_an_index_built_by_another_analyzer_is_rebuilt_on_open(self, store_url: str) -> None:
        with EvidenceStore.open(store_url) as store:
            self._ranking_corpus(store)
            before = search(store, "보증금 반환", k=5)
            mark_index_built_by(store, "old-analyzer")
        with EvidenceStore.open(store_url) as store:
            assert search(store, "보증금 반환", k=5) == before

    # -- dense vectors ------------------------------------------------------------------------

    def test_vectors_are_stored_per_model_and_text_and_found_back_as_sections(
        self, evidence_store: EvidenceStore
    ) -> None:
        self._ranking_corpus(evidence_store)
        evidence_store.store_version(new_version("copy", {"Deposit": RANKING_CORPUS["lease-act"]["Deposit"]}))
        pending = evidence_store.texts_to_embed("m", "1")
        assert len(pending) == 7  # the copied article is one text
        vector = struct.pack("<3f", 1.0, 0.0, 0.0)
        assert evidence_store.add_vectors("m", "1", 3, [(h, vector) for h, _ in pending]) == 7
        assert evidence_store.add_vectors("m", "1", 3, [(pending[0][0], vector)]) == 0  # already there
        assert evidence_store.texts_to_embed("m", "1") == [] and len(evidence_store.texts_to_embed("m", "2")) == 7
        stored = evidence_store.vectors("m", "1")
        assert stored.dim == 3 and stored.data == vector * 7 and set(stored.content_hashes) == {h for h, _ in pending}
        assert stored.marker == evidence_store.vectors_marker("m", "1") > 0 == evidence_store.vectors_marker("x", "1")
        assert [(e.model_id, e.count) for e in evidence_store.embedding_sets()] == [("m", 7)]
        copied = next(h for h, text in pending if "returns the deposit" in text)
        found = evidence_store.sections_with_hashes([(copied, 0.9)])
        assert [(m.section.doc_id, m.score) for m in found] == [("lease-act", 0.9), ("copy", 0.9)]
        assert len(evidence_store.sections_with_hashes([(copied, 0.9)], limit=1)) == 1

    def test_sections_of_many_copies_fill_the_limit_in_hash_order_then_row_order(
        self, evidence_store: EvidenceStore
    ) -> None:
        # Three texts: "a" in five documents, "b" in two, "c" in one; a fourth hash has no section.
        texts = {"a": "Shared article.", "b": "Second article.", "c": "Third article."}
        for doc, held in (("d1", "ab"), ("d2", "a"), ("d3", "abc"), ("d4", "a"), ("d5", "a")):
            evidence_store.store_version(new_version(doc, {f"§ {t}": texts[t] for t in held}))
        hashes = {t: section_hash(f"§ {t}", text) for t, text in texts.items()}
        scored = [(hashes["b"], 0.9), ("sha256:" + "0" * 64, 0.8), (hashes["a"], 0.7), (hashes["c"], 0.6)]

        def places(limit: int | None) -> list[tuple[str, str, float]]:
            found = evidence_store.sections_with_hashes(scored, limit)
            return [(m.section.doc_id, m.section.section_id, m.score) for m in found]

        every = [("d1", "§ b", 0.9), ("d3", "§ b", 0.9)]
        every += [(d, "§ a", 0.7) for d in ("d1", "d2", "d3", "d4", "d5")] + [("d3", "§ c", 0.6)]
        assert places(None) == every
        for limit in (1, 2, 3, 4, 7, 8, 20):
            assert places(limit) == every[:limit]
        assert evidence_store.sections_with_hashes([(hashes["c"], 0.5), (hashes["c"], 0.4)], 5)[1].score == 0.4
        assert evidence_store.sections_with_hashes([("sha256:" + "1" * 64, 0.5)], 5) == []

    def test_versions_of_reads_each_documents_versions_at_once(self, evidence_store: EvidenceStore) -> None:
        evidence_store.store_version(new_version(promulgated="2020-01-01"))
        evidence_store.store_version(new_version(sections={"§ 1": "Changed."}, promulgated="2022-01-01"))
        evidence_store.store_version(new_version("doc-b"))
        found = evidence_store.versions_of(["doc-b", "no-such-doc", "doc-a", "doc-b"])
        assert list(found) == ["doc-b", "no-such-doc", "doc-a"]
        assert found["doc-a"] == evidence_store.versions("doc-a") and [v.version for v in found["doc-a"]] == [1, 2]
        assert found["doc-b"] == evidence_store.versions("doc-b") and found["no-such-doc"] == []
        assert evidence_store.versions_of([]) == {}

    def test_the_versions_marker_moves_with_every_new_version_and_decision(
        self, evidence_store: EvidenceStore, store_url: str
    ) -> None:
        empty = evidence_store.versions_marker()
        evidence_store.store_version(new_version())
        stored = evidence_store.versions_marker()
        evidence_store.store_version(new_version())  # unchanged content: no new version
        search(evidence_store, "scope", k=5)
        assert evidence_store.versions_marker() == stored != empty
        with EvidenceStore.open(store_url) as other:  # another writer, as another process would be
            _approve(other, "doc-a")
        assert evidence_store.versions_marker() not in (stored, empty)

    def test_search_flags_follow_a_decision_made_after_an_earlier_search(
        self, evidence_store: EvidenceStore, store_url: str
    ) -> None:
        evidence_store.store_version(new_version(sections={"§ 1": "Tenancy rules."}, promulgated="2020-01-01"))
        evidence_store.store_version(new_version(sections={"§ 1": "Tenancy rules, amended."}, promulgated="2022-01-01"))
        on = date(2026, 1, 1)
        assert {(h.version, h.unapproved, h.superseded) for h in search(evidence_store, "tenancy", k=5, on=on)} == {
            (1, True, False),
            (2, True, False),
        }
        with EvidenceStore.open(store_url) as other:
            _approve(other, "doc-a", 1)
            _approve(other, "doc-a", 2)
        assert {(h.version, h.unapproved, h.superseded) for h in search(evidence_store, "tenancy", k=5, on=on)} == {
            (1, False, True),
            (2, False, False),
        }
