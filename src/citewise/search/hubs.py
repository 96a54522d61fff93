"""Hub texts discounted in the dense ranking: a text near everything is near no question in particular.

In a space of sentence embeddings some texts are *hubs*: close to a great many others, so close to
many questions they do not answer. On the statute corpus they are penalty clauses, fine tables and
data-provision articles (출입국관리법 제99조의3 양벌규정, 외국인근로자법 제32조 과태료, 근로기준법
제43조의6 ...), which led the nearest texts of fact patterns about idle-time pay or a layoff. The
correction is the document side of CSLS (cross-domain similarity local scaling, Conneau et al.
2018): a text's cosine to the question loses :data:`HUB_WEIGHT` times its *hubness*, the mean
cosine of its :data:`HUB_NEIGHBOURS` nearest other stored texts,

    score = cos(question, text) - HUB_WEIGHT * mean(cos(text, its HUB_NEIGHBOURS nearest texts))

The stored vectors do not change (the embedder id stays); a text's hubness is computed from them the
first time the text is a candidate and kept with the in-memory index (a new index, built when
vectors are added, starts afresh, since new texts change who is near whom). The candidates are the
:data:`OVERFETCH` x ``limit`` nearest by plain cosine, rescored. Chosen on the development sets
with ``benchmarks/dense_feedback.py`` (``docs/retrieval-notes.md``).

>>> import numpy as np
>>> rescore([("a", 0.9), ("b", 0.88)], np.array([0.2, 0.0]), weight=0.25)
[('b', 0.88), ('a', 0.85)]
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from citewise.search.dense import VectorIndex
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import IndexMatch

__all__ = ["HUB_NEIGHBOURS", "HUB_WEIGHT", "OVERFETCH", "hubness", "nearest_texts", "nearest_sections", "rescore"]

Matrix = npt.NDArray[np.float32]

HUB_NEIGHBOURS = 10
"""Nearest other texts whose mean cosine is a text's hubness."""
HUB_WEIGHT = 0.25
"""Share of its hubness a text's cosine loses (0 turns the correction off)."""
OVERFETCH = 4
"""Nearest texts by plain cosine rescored per text kept."""
_BLOCK = 256  # rows whose neighbours one product finds (256 x 20,000 floats = 20 MB)


class _Hubness:
    """The hubness of an index's rows, computed as rows are asked for."""

    def __init__(self, index: VectorIndex) -> None:
        self.values = np.full(len(index), np.nan, dtype=np.float32)
        self.rows = {content_hash: row for row, content_hash in enumerate(index.content_hashes)}


_CACHE: weakref.WeakKeyDictionary[VectorIndex, dict[int, _Hubness]] = weakref.WeakKeyDictionary()


def hubness(index: VectorIndex, content_hashes: Sequence[str], neighbours: int = HUB_NEIGHBOURS) -> Matrix:
    """The hubness of each text (by content hash) of ``index``: the mean cosine of its ``neighbours``
    nearest other texts (0 for a text the index does not hold, or an index of one text)."""
    per_index = _CACHE.setdefault(index, {})
    cached = per_index.get(neighbours)
    if cached is None:
        cached = per_index[neighbours] = _Hubness(index)
    rows = np.array([cached.rows.get(h, -1) for h in content_hashes], dtype=np.int64)
    known = rows[rows >= 0]
    missing = np.unique(known[np.isnan(cached.values[known])])
    if len(missing):
        cached.values[missing] = _neighbour_means(index, missing, neighbours)
    out = np.zeros(len(rows), dtype=np.float32)
    out[rows >= 0] = cached.values[known]
    return out


def _neighbour_means(index: VectorIndex, rows: npt.NDArray[np.int64], neighbours: int) -> Matrix:
    count = min(neighbours, len(index) - 1)
    if count < 1:
        return np.zeros(len(rows), dtype=np.float32)
    if index.approximate:  # the HNSW index finds each row's neighbours (itself among them)
        means = []
        for row in rows:
            found = index.nearest(index.matrix[row], count + 1)
            others = [score for content_hash, score in found if content_hash != index.content_hashes[row]]
            means.append(float(np.mean(others[:count])) if others else 0.0)
        return np.array(means, dtype=np.float32)
    out = np.empty(len(rows), dtype=np.float32)
    for start in range(0, len(rows), _BLOCK):
        block = rows[start : start + _BLOCK]
        # einsum's own loop, not BLAS: a BLAS thread pool started in a process that later forks
        # embedding workers (search, then ingest) hung the children in testing.
        scores = np.einsum("ij,kj->ik", index.matrix[block], index.matrix)
        scores[np.arange(len(block)), block] = -np.inf  # not its own neighbour
        top = -np.partition(-scores, count - 1, axis=1)[:, :count]
        out[start : start + len(block)] = top.mean(axis=1)
    return out


def rescore(
    candidates: Sequence[tuple[str, float]], hub: Matrix, weight: float = HUB_WEIGHT
) -> list[tuple[str, float]]:
    """(content hash, cosine) pairs rescored by ``cosine - weight * hub`` (one hubness per pair), best
    first; on equal scores the nearer by cosine first."""
    scored = [(h, float(cosine - weight * float(hub[i])), i) for i, (h, cosine) in enumerate(candidates)]
    scored.sort(key=lambda item: (-item[1], item[2]))
    return [(h, score) for h, score, _i in scored]


def nearest_texts(
    index: VectorIndex, vector: Matrix, limit: int, *, weight: float | None = None
) -> list[tuple[str, float]]:
    """Up to ``limit`` (content hash, corrected score) pairs, best first: the :data:`OVERFETCH` x
    ``limit`` nearest texts by cosine, their hubness discounted by ``weight`` (default
    :data:`HUB_WEIGHT`, read at the call; :func:`rescore`)."""
    weight = HUB_WEIGHT if weight is None else weight
    if weight == 0.0:
        return index.nearest(vector, limit)
    candidates = index.nearest(vector, limit * OVERFETCH)
    return rescore(candidates, hubness(index, [h for h, _s in candidates]), weight)[:limit]


def nearest_sections(
    store: EvidenceStoreProtocol, index: VectorIndex, vector: Matrix, limit: int, *, weight: float | None = None
) -> list[IndexMatch]:
    """Up to ``limit`` sections holding the texts of :func:`nearest_texts`, best first (score: the
    corrected cosine) — :func:`citewise.search.dense.nearest_sections` with hubs discounted."""
    if not len(index):
        return []
    return store.sections_with_hashes(nearest_texts(index, vector, limit, weight=weight), limit)
