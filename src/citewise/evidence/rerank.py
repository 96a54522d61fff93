"""An embedding reranker: lexical score blended with sentence-embedding similarity (SPEC 3.4).

:class:`EmbeddingReranker` is a :class:`~citewise.evidence.rank.Ranker`: it returns the candidate
objects it was given, reordered, and nothing else. Each candidate gets

    blend = weight * cosine(query, heading + text) + (1 - weight) * lexical

where ``lexical`` is the candidate's retrieval score min-max normalised within the list (best 1,
worst 0; all 0 when every score is equal) and ``cosine`` the similarity of the all-MiniLM-L6-v2
embeddings (:mod:`citewise.search.embed`; the text is truncated to 256 tokens). Highest blend
first; ties keep the given order.

The default weight, 0.7, was chosen on ARES NQ with ``benchmarks/rerank_quality.py``: reranking
the top 20 local search hits of its 2,000 queries, weights 0.2-0.8 and 1.0 were tried; 0.7 gave the
best recall@1 (0.971 against 0.961 for the search order) and, tied with 0.8, the best MRR@10 (0.981
against 0.974). The gain is small because lexical search is already strong on ARES, and the weight
was picked on the same queries it is reported on. The model is English-only: on the Korean statute
questions the blend lowers recall@5 (0.469 to 0.408 at 0.7) and MRR@10 (0.327 to 0.313), so do not
use this ranker for Korean text. Encoding costs about 2 s per query (query + 20 candidates, two CPU
cores); see :mod:`citewise.search.embed`.

Example::

    outcome = apply_ranker(EmbeddingReranker(), "notice before dismissal", gate_outcome.eligible)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from citewise.errors import ConfigError
from citewise.records.gate import Candidate

__all__ = ["DEFAULT_WEIGHT", "EmbeddingReranker", "TextEncoder", "candidate_text", "normalised_scores"]

DEFAULT_WEIGHT = 0.7
"""Share of the embedding similarity in the blend (measured on ARES NQ, see the module docstring)."""


class TextEncoder(Protocol):
    """Anything that turns texts into L2-normalised vectors, one row per text."""

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> npt.NDArray[np.float32]:
        """One unit-norm row per text, in order."""
        ...


def candidate_text(candidate: Candidate) -> str:
    """What is embedded for a candidate: its heading (when it has one) and its text."""
    heading = candidate.section.heading.strip()
    return f"{heading}\n{candidate.text}" if heading else candidate.text


def normalised_scores(candidates: Sequence[Candidate]) -> npt.NDArray[np.float64]:
    """Retrieval scores min-max normalised to [0, 1] within the list (all 0 when they are equal)."""
    scores = np.array([c.score for c in candidates], dtype=np.float64)
    if not len(scores):
        return scores
    spread = scores.max() - scores.min()
    return (scores - scores.min()) / spread if spread > 0 else np.zeros_like(scores)


class EmbeddingReranker:
    """Reorders candidates by a blend of lexical score and embedding similarity to the query.

    ``encoder`` defaults to :class:`~citewise.search.embed.MiniLMEncoder` (loaded here, so a
    missing model fails at construction with the install line); ``weight`` is the share of the
    embedding similarity, from 0 (lexical order) to 1 (embedding order only).
    """

    def __init__(self, encoder: TextEncoder | None = None, weight: float = DEFAULT_WEIGHT) -> None:
        if not 0.0 <= weight <= 1.0:
            raise ConfigError(f"the reranker weight must be between 0 and 1, got {weight}")
        if encoder is None:
            from citewise.search.embed import MiniLMEncoder

            encoder = MiniLMEncoder()
        self.encoder = encoder
        self.weight = weight

    def rank(self, query: str, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The same candidates, highest blend first (ties keep the given order)."""
        if len(candidates) < 2:
            return list(candidates)
        blend = self.scores(query, candidates)
        order = sorted(range(len(candidates)), key=lambda i: -blend[i])
        return [candidates[i] for i in order]

    def scores(self, query: str, candidates: Sequence[Candidate]) -> npt.NDArray[np.float64]:
        """The blend of each candidate, in the given order."""
        lexical = normalised_scores(candidates)
        if self.weight == 0.0:
            return lexical
        vectors = self.encoder.encode([query, *(candidate_text(c) for c in candidates)])
        cosine = (vectors[1:] @ vectors[0]).astype(np.float64)
        return self.weight * cosine + (1.0 - self.weight) * lexical
