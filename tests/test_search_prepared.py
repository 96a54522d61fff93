"""Hybrid search prepares what its lexical candidates need while the question is embedded (issue 26):
their documents' versions (the versions marker read once) and their snippets, so that only the
dense-only candidates need work after the vector. The hits, every field, are those of the steps run
one after another (the lexical index, the nearest texts, fusion, collapsing, the version flags), for
hybrid and lexical search, on statutes with several versions, copies of one law and 부칙.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from citewise.ingest.pipeline import ingest_paths
from citewise.records import SearchHit
from citewise.review import decide
from citewise.search import dense, hubs, local
from citewise.store.evidence import EvidenceStore
from citewise.testing.embedder import HashingEmbedder
from citewise.testing.store_conformance import new_version
from tests.corpora import KR_STATUTES

pytestmark = pytest.mark.integration

FOREIGN = "kr-law-009542"
HOUSING = "kr-law-001248"
QUESTIONS = [
    "전세 보증금을 돌려받지 못하면 어떻게 하나요",
    "임대차 기간은 몇 년인가요",
    "외국인근로자 고용허가 기간",
    "외국인근로자 고용 목적",
    "이 법의 시행일과 경과조치",
    "근로소득 세율",
    "집주인이 계약 갱신을 거절할 수 있나요",
]
DATES = [date(2026, 12, 1), date(2005, 1, 1)]


class SlowEmbedder(HashingEmbedder):
    """Hashing vectors that take ``seconds`` to make, as a real model's do; records when each ended."""

    def __init__(self, seconds: float) -> None:
        super().__init__(dim=64)
        self.seconds = seconds
        self.ended: list[float] = []

    def embed(self, texts: Sequence[str], *, query: bool = False) -> npt.NDArray[np.float32]:
        time.sleep(self.seconds)
        vectors = super().embed(texts, query=query)
        self.ended.append(time.perf_counter())
        return vectors


@pytest.fixture(scope="module")
def store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("prepared") / "store.sqlite"
    with EvidenceStore.open(str(path)) as store:
        files = [*sorted(KR_STATUTES.glob("외국인근로자*.md")), *sorted(KR_STATUTES.glob("주택임대차보호법__*.md"))]
        ingest_paths(store, [*files, *KR_STATUTES.glob("소득세법__*.md")])
        for target in [f"{FOREIGN}@1", f"{FOREIGN}@2", f"{FOREIGN}@3", f"{HOUSING}@1", f"{HOUSING}@2"]:
            decide(store, target, "approve", reviewer="Kim", reason="checked against law.go.kr")
        # Copies of one law under other ids (a text in many documents, as at scale), one approved.
        housing = {s.section_id: s.text for s in store.sections(HOUSING, 2)}
        for n in range(4):
            store.store_version(new_version(f"copy-{n}", housing))
        decide(store, "copy-0", "approve", reviewer="Kim", reason="checked")
        dense.embed_pending(store, HashingEmbedder(dim=64))
    return path


@pytest.fixture
def store(store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "store.sqlite"
    shutil.copy(store_file, copy)
    with EvidenceStore.open(str(copy)) as opened:
        yield opened


def _step_by_step_hybrid(
    store: EvidenceStore, query: str, k: int, embedder: HashingEmbedder, on: date
) -> list[SearchHit]:
    terms = local._query_terms(query)
    lexical = store.search(local._index_lookup(query), k * local._CANDIDATE_FACTOR)
    model = embedder.model
    index = dense.vector_index(store, model.model_id, model.version)
    vector = dense.query_vector(embedder, query)
    nearest = hubs.nearest_sections(store, index, vector, k * local.DENSE_CANDIDATE_FACTOR)
    return local.version_flags(store, local._collapse(local.fuse_hybrid(lexical, nearest, query), terms, k, 6), on)


def _step_by_step_lexical(store: EvidenceStore, query: str, k: int, on: date) -> list[SearchHit]:
    terms = local._query_terms(query)
    lexical = local.demote_addenda(store.search(local._index_lookup(query), k * local._CANDIDATE_FACTOR), query)
    return local.version_flags(store, local._collapse(lexical, terms, k), on)


@pytest.mark.parametrize("seconds", [0.0, 0.05])
def test_hits_are_those_of_the_steps_one_after_another(store: EvidenceStore, seconds: float) -> None:
    embedder = SlowEmbedder(seconds)
    seen = {"dense only": 0, "several versions": 0, "superseded": 0, "not yet in force": 0, "addenda": 0}
    for query in QUESTIONS:
        lexical_candidates = {
            (m.section.doc_id, m.section.version, m.section.section_id)
            for m in store.search(local._index_lookup(query), 10 * local._CANDIDATE_FACTOR)
        }
        for on in DATES:
            for k in (3, 10):
                dense._QUERY_VECTORS.clear()  # the question is embedded again, on the search's thread
                hybrid = local.search(store, query, k, embedder=embedder, on=on)
                assert hybrid == _step_by_step_hybrid(store, query, k, embedder, on)
                lexical = local.search(store, query, k, embedder=None, on=on)
                assert lexical == _step_by_step_lexical(store, query, k, on)
                assert len(hybrid) == k and hybrid != lexical
                seen["dense only"] += sum((h.doc_id, h.version, h.section_id) not in lexical_candidates for h in hybrid)
                seen["several versions"] += sum(bool(h.also_in_versions) for h in hybrid)
                seen["superseded"] += sum(h.superseded for h in hybrid)
                seen["not yet in force"] += sum(h.not_yet_in_force for h in hybrid)
                seen["addenda"] += sum(h.kind.value == "supplementary" for h in hybrid)
    # The fixture exercises what the preparation must keep: hits from the dense list alone, versions
    # collapsed, the version flags either way, and 부칙.
    assert all(seen.values()), seen


def _recording(calls: list[tuple[str, float, Any]], name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    def recorded(*args: Any) -> Any:
        calls.append((name, time.perf_counter(), args))
        return method(*args)

    return recorded


def test_lexical_candidates_are_prepared_while_the_question_is_embedded(
    store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = SlowEmbedder(0.2)
    query = "전세 보증금을 돌려받지 못하면 어떻게 하나요"
    local.search(store, query, embedder=embedder)  # the documents' versions are now known
    calls: list[tuple[str, float, Any]] = []
    monkeypatch.setattr(store, "versions_marker", _recording(calls, "marker", store.versions_marker))
    monkeypatch.setattr(store, "versions_of", _recording(calls, "versions", store.versions_of))
    monkeypatch.setattr(local, "snippet", _recording(calls, "snippet", local.snippet))
    dense._QUERY_VECTORS.clear()
    hits = local.search(store, query, embedder=embedder)
    [vector_ended] = embedder.ended[-1:]
    before = [(name, args) for name, at, args in calls if at < vector_ended]
    after = [(name, args) for name, at, args in calls if at >= vector_ended]
    # The marker is read once, before the vector; every lexical candidate's snippet is made then.
    assert [name for name, _at, _args in calls].count("marker") == 1 and before[0][0] == "marker"
    lexical_texts = {m.section.text for m in store.search(local._index_lookup(query), 40)}
    assert {args[0] for name, args in before if name == "snippet"} == lexical_texts
    # After it, only the texts shown that no lexical candidate has, each once.
    later = [args[0] for name, args in after if name == "snippet"]
    assert len(later) == len(set(later)) and not set(later) & lexical_texts
    terms = local._query_terms(query)
    assert {h.snippet for h in hits} <= {local.snippet(text, terms) for text in lexical_texts | set(later)}
    assert not [name for name, _ in after if name != "snippet"]  # every hit's document was known


def test_searches_one_after_another_embed_on_one_thread(store: EvidenceStore) -> None:
    embedder = SlowEmbedder(0.0)
    threads: list[threading.Thread] = []  # kept, so that no two are the same object by chance
    original = embedder.embed

    def embed(texts: Sequence[str], *, query: bool = False) -> npt.NDArray[np.float32]:
        threads.append(threading.current_thread())
        return original(texts, query=query)

    embedder.embed = embed  # type: ignore[method-assign]
    for query in QUESTIONS:
        dense._QUERY_VECTORS.clear()
        local.search(store, query, embedder=embedder)
    assert len(threads) == len(QUESTIONS) and len(set(threads)) == 1
    assert threads[0].name.startswith("citewise-embed") and threads[0] is not threading.current_thread()


def test_more_searches_at_once_than_embedding_threads_give_the_hits_of_one_at_a_time(store: EvidenceStore) -> None:
    embedder = SlowEmbedder(0.02)
    questions = [*QUESTIONS, *QUESTIONS][:10]  # more than the four embedding threads
    alone = {}
    for query in questions:
        dense._QUERY_VECTORS.clear()
        alone[query] = local.search(store, query, embedder=embedder)
    dense._QUERY_VECTORS.clear()
    results: dict[int, list[SearchHit]] = {}
    start = threading.Barrier(len(questions))

    def one(i: int) -> None:
        start.wait()
        results[i] = local.search(store, questions[i], embedder=embedder)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(questions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert [results[i] for i in range(len(questions))] == [alone[q] for q in questions]
