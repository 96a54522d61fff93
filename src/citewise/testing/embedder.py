"""A deterministic, dependency-free :class:`~citewise.search.embedders.Embedder` for tests.

:class:`HashingEmbedder` hashes the character bigrams of each text (spaces removed, lower-cased)
into ``dim`` buckets and L2-normalises the counts: texts sharing words get similar vectors, the
same text always gets the same vector, and nothing is loaded. It is no model of meaning; use it to
test pipelines (ingest embedding, storage, hybrid search, the ranking contract), not quality.

>>> e = HashingEmbedder(dim=32)
>>> v = e.embed(["보증금 반환", "deposit return"])
>>> v.shape, v.dtype.name
((2, 32), 'float32')
>>> bool(abs(float(v[0] @ v[0]) - 1.0) < 1e-6)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from citewise.search.embedders import EmbeddingModel, normalise_rows

__all__ = ["HashingEmbedder"]


class HashingEmbedder:
    """Character-bigram hashing into ``dim`` buckets; ``calls`` counts the texts embedded."""

    def __init__(self, dim: int = 64, model_id: str = "citewise-testing/hashing-bigrams") -> None:
        self._model = EmbeddingModel(model_id, "1", dim)
        self.calls = 0
        """How many texts were embedded (tests check that ingest embeds only new sections)."""

    @property
    def model(self) -> EmbeddingModel:
        return self._model

    def embed(self, texts: Sequence[str], *, query: bool = False) -> npt.NDArray[np.float32]:
        self.calls += len(texts)
        out = np.zeros((len(texts), self._model.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            flat = "".join(text.lower().split())
            for i in range(max(len(flat) - 1, 1)):
                gram = flat[i : i + 2].encode("utf-8")
                out[row, int.from_bytes(hashlib.blake2b(gram, digest_size=4).digest(), "big") % self._model.dim] += 1
        return normalise_rows(out)
