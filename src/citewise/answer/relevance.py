"""The relevance gate for answers: does the eligible evidence answer the question at all?

The eligibility gate decides which passages *may* be used; this decides whether the best of them is
*about* the question. Without it "What is the capital of France?" is answered from a regulation on
"capital stock". The score is the share of the question's content terms
(:mod:`citewise.answer.question`) found in the top passages (title, heading and text), each term
counted once however many passages hold it. Below :data:`RELEVANCE_THRESHOLD` the ask is a handoff
with the gap stated (the terms not found), never a cited answer about something else.

The threshold was chosen on a labelled dev set of answerable and unanswerable questions in Korean
and English (``benchmarks/data/relevance_dev.jsonl``; ``python benchmarks/relevance_gate.py`` prints
the false answers and false handoffs at it and around it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citewise.answer.question import Question, text_terms
from citewise.answer.records import Evidence

__all__ = ["RELEVANCE_THRESHOLD", "TOP_PASSAGES", "Relevance", "relevance", "term_found"]

#: Share of the question's content terms the top passages must hold for an answer to be composed.
RELEVANCE_THRESHOLD = 0.55

#: How many of the ranked eligible passages are read.
TOP_PASSAGES = 3

_HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]{2,}$")


@dataclass(frozen=True, slots=True)
class Relevance:
    """The relevance gate's measurement and decision."""

    score: float
    """Share of the question's content terms found in the top passages (1.0 when it has none)."""
    found: tuple[str, ...]
    """Content terms found."""
    missing: tuple[str, ...]
    """Content terms not found: the gap a handoff states."""
    threshold: float
    """The threshold applied."""

    @property
    def answers(self) -> bool:
        """True when the evidence is judged to answer the question."""
        return self.score >= self.threshold


def term_found(term: str, terms: frozenset[str], squashed: str) -> bool:
    """``term`` is among a passage's terms, or (a Korean noun of two syllables or more) inside its text:
    임차권 is in 임차권등기명령 even where the analyser keeps the compound whole."""
    return term in terms or (_HANGUL_WORD.match(term) is not None and term in squashed)


def _passage(e: Evidence) -> tuple[frozenset[str], str]:
    text = f"{e.title}\n{e.heading}\n{e.text}"
    return text_terms(text), re.sub(r"\s+", "", text)


def relevance(
    question: Question,
    evidence: Sequence[Evidence],
    *,
    threshold: float = RELEVANCE_THRESHOLD,
    top: int = TOP_PASSAGES,
) -> Relevance:
    """Measure how much of ``question`` the top ``top`` passages of ``evidence`` cover."""
    if not question.terms:
        return Relevance(1.0, (), (), threshold)
    passages = [_passage(e) for e in evidence[:top]]
    found = [t for t in question.terms if any(term_found(t, terms, text) for terms, text in passages)]
    missing = [t for t in question.terms if t not in found]
    return Relevance(len(found) / len(question.terms), tuple(found), tuple(missing), threshold)
