"""The deterministic evidence composer: an extractive answer, no model.

It picks, from each of the top eligible passages, the sentence that shares the most terms with the
question, and cites it. Every sentence it writes is copied from a passage, so every quote verifies.
It is the answer path when no model is configured, and the fallback when a model's reply fails
validation; the run record says which, and why.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citewise.answer.records import Citation, ComposedAnswer, Evidence
from citewise.search.analyze import analyze, query_terms

__all__ = ["compose_extractive", "split_sentences", "strip_deleted_parts"]

# A sentence ends at a full stop/question/exclamation mark followed by space or end, or at a line
# break; Korean statute sentences end in "다." which the first rule covers.
_SENTENCE_END = re.compile(r"(?<=[.?!。])\s+|\n+")
_DELETED_LINE = re.compile(r"^\s*\S{1,8}\s*삭제\s*<[^>]*>\s*$", re.MULTILINE)


def strip_deleted_parts(text: str) -> str:
    """Remove lines that are only a deleted paragraph or item (``③ 삭제 <2020. 2. 4.>``).

    Deleted provisions exist but are never evidence, even inside a live article.
    """
    return re.sub(r"\n{3,}", "\n\n", _DELETED_LINE.sub("", text)).strip()


def split_sentences(text: str) -> list[str]:
    """Sentences (or list items / lines) of ``text``, stripped, empty ones dropped."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _best_sentence(evidence: Evidence, wanted: set[str]) -> tuple[int, str]:
    best, best_score = "", 0
    for sentence in split_sentences(evidence.text):
        if len(sentence) < 8:  # bare markers such as "1." or "①" say nothing on their own
            continue
        score = len(wanted.intersection(analyze(sentence)))
        if score > best_score:
            best, best_score = sentence, score
    return best_score, best


def compose_extractive(question: str, evidence: Sequence[Evidence], max_passages: int = 3) -> ComposedAnswer:
    """Cite the best sentence of each of the top ``max_passages`` passages that share a term with
    the question; if none does, the first sentence of the top passage."""
    wanted = set(query_terms(question))
    lines: list[str] = []
    citations: list[Citation] = []
    for item in evidence[:max_passages]:
        score, sentence = _best_sentence(item, wanted)
        if score == 0:
            continue
        lines.append(f"{sentence} [{item.evidence_id}]")
        citations.append(Citation(item.evidence_id, sentence, item.doc_id, item.version, item.section_id))
    if not lines and evidence:
        top = evidence[0]
        sentence = next((s for s in split_sentences(top.text) if len(s) >= 8), top.text.strip())
        lines.append(f"{sentence} [{top.evidence_id}]")
        citations.append(Citation(top.evidence_id, sentence, top.doc_id, top.version, top.section_id))
    return ComposedAnswer("\n".join(lines), tuple(citations))
