"""Supplementary provisions (부칙) are searchable and ranked as what they are.

A 부칙 restates the words of its law ("제6조의3의 개정규정은 이 법 시행 당시 존속 중인 임대차에 대하여도
적용한다") and answers almost no question about it: search ranks it after the articles of comparable
score, keeps it in the results, and ranks it as it scores when the question asks about 시행일,
경과조치 or the 부칙 themselves. The law is the real 주택임대차보호법 (2025), 부칙 and all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from citewise import Citewise
from citewise.records import SearchHit, SectionKind
from citewise.search import local
from citewise.store.protocol import EvidenceStoreProtocol
from tests.corpora import KR_STATUTES

LEASE_ACT = KR_STATUTES / "주택임대차보호법__법률__2025-10-01__MST276291.md"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EvidenceStoreProtocol]:
    path: Path = tmp_path_factory.mktemp("addenda") / "store.sqlite"
    with Citewise(str(path)) as cw:
        cw.ingest(LEASE_ACT, embed=False)
        yield cw.store


def _ids(hits: list[SearchHit]) -> list[str]:
    return [h.section_id for h in hits]


def _undemoted(store: EvidenceStoreProtocol, query: str, monkeypatch: pytest.MonkeyPatch) -> list[SearchHit]:
    with monkeypatch.context() as patch:
        patch.setattr(local, "ADDENDUM_DEMOTION", 0.0)
        return local.search(store, query, 10, embedder=None)


def test_an_addendum_ranks_after_the_articles_of_comparable_score(
    store: EvidenceStoreProtocol, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "임대차 계약의 갱신을 요구할 수 있는 기간"
    undemoted = _undemoted(store, question, monkeypatch)
    plain = _ids(undemoted)
    hits = local.search(store, question, 10, embedder=None)
    ranked = _ids(hits)
    # Undemoted, the 부칙 that introduced the renewal right outscores 제6조의2 ...
    assert plain.index("부칙-22") < plain.index("제6조의2")
    # ... demoted, it ranks after it and is still in the top 10, marked as what it is.
    assert ranked.index("제6조의2") < ranked.index("부칙-22")
    assert hits[ranked.index("부칙-22")].kind is SectionKind.SUPPLEMENTARY
    assert hits[0].kind is SectionKind.ARTICLE
    supplementary = [h.rank for h in hits if h.kind is SectionKind.SUPPLEMENTARY]
    assert len(supplementary) < sum(1 for h in undemoted if h.kind is SectionKind.SUPPLEMENTARY)


def test_a_question_about_the_law_taking_effect_gets_the_addenda_first(
    store: EvidenceStoreProtocol, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "이 법 시행 당시 존속 중인 임대차에도 적용되나요"
    hits = local.search(store, question, 10, embedder=None)
    assert hits[0].kind is SectionKind.SUPPLEMENTARY
    assert _ids(hits) == _ids(_undemoted(store, question, monkeypatch))


def test_demotion_lowers_only_addenda_and_keeps_every_candidate(store: EvidenceStoreProtocol) -> None:
    matches = store.search(["임대차", "갱신"], 40)
    demoted = local.demote_addenda(matches, "임대차 갱신", by=2.0)
    assert len(demoted) == len(matches)
    for before, after in zip(matches, demoted, strict=True):
        if before.section.kind is SectionKind.SUPPLEMENTARY:
            assert after.score < before.score
        else:
            assert after.score == before.score
    assert local.demote_addenda(matches, "부칙의 적용례", by=2.0) == matches


def test_hybrid_fusion_demotes_the_dense_lists_addenda_before_taking_its_z_scores(
    store: EvidenceStoreProtocol,
) -> None:
    matches = store.search(["임대차", "갱신"], 40)
    a, b, c, d = [m for m in matches if m.section.kind is SectionKind.ARTICLE][:4]
    addendum = next(m for m in matches if m.section.kind is SectionKind.SUPPLEMENTARY)
    lexical = [replace(b, score=9.0), replace(a, score=8.0), replace(c, score=3.0), replace(d, score=2.0)]
    # The dense list's nearest text is a 부칙, far above its articles: it sets their z-scale.
    dense = [
        replace(addendum, score=0.95),
        *(replace(m, score=s) for m, s in zip((a, b, c, d), (0.86, 0.84, 0.83, 0.82), strict=True)),
    ]
    question = "임대차 갱신"
    fused = local.fuse_hybrid(lexical, dense, question)
    expected = local.demote_addenda(local.fuse_scores(lexical, local.demote_addenda(dense, question)), question)
    assert [(m.section.section_id, m.score) for m in fused] == [
        (m.section.section_id, m.score) for m in sorted(expected, key=lambda m: -m.score)
    ]
    # Demoted after the fusion only, the 부칙 stays above an article; demoted before as well, every
    # article comes first, and the 부칙 is still a candidate.
    after_only = sorted(local.demote_addenda(local.fuse_scores(lexical, dense), question), key=lambda m: -m.score)
    assert [m.section.kind for m in after_only][-1] is SectionKind.ARTICLE
    assert [m.section.kind for m in fused] == [SectionKind.ARTICLE] * 4 + [SectionKind.SUPPLEMENTARY]
    # A question about the addenda: nothing is demoted, the plain z-score fusion.
    asked = "부칙의 적용례"
    assert [m.section.section_id for m in local.fuse_hybrid(lexical, dense, asked)] == [
        m.section.section_id for m in local.fuse_scores(lexical, dense)
    ]
    assert local.fuse_hybrid([], [], question) == []
