"""Before composing: is the question ambiguous (clarify), or does the evidence not cover it (hand off)?

* **Clarification**: the question names an article or section (``제3조``, ``§ 2``, ``Article 7``) without
  naming the document, and several documents the plan allows have that section. The answer asks which
  one, listing the options.
* **Handoff**: the eligible passages share too few of the question's key terms to be an answer. The gap
  is stated and the configured handoff target is named. The threshold is deliberately low: a weak
  match still goes to a composer, which cites only what the passage says.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from citewise.answer.records import AskOutcome, ClarificationOption, Evidence
from citewise.evidence.plan import RetrievalPlan
from citewise.search.analyze import analyze
from citewise.store.protocol import EvidenceStoreProtocol

__all__ = [
    "COVERAGE_THRESHOLD",
    "clarify_or_handoff",
    "ClarificationOption",
    "ambiguous_sections",
    "coverage",
    "key_terms",
    "section_references",
]

#: Share of the question's key terms that must occur in the top passages for an answer to be tried.
COVERAGE_THRESHOLD = 0.25

_KO_ARTICLE = re.compile(r"제\s*(\d+)\s*조(?:\s*의\s*(\d+))?")
_EN_SECTION = re.compile(r"(?:§+|\bsection\b|\bsec\.|\barticle\b)\s*(\d+(?:\.\d+)*[a-z]?)", re.IGNORECASE)


def section_references(question: str) -> list[str]:
    """Section ids the question names, in the store's notation (``제3조의2``, ``2``, ``555.11``)."""
    refs = [f"제{m[1]}조" + (f"의{m[2]}" if m[2] else "") for m in _KO_ARTICLE.finditer(question)]
    refs += [m[1] for m in _EN_SECTION.finditer(question)]
    return list(dict.fromkeys(refs))


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFC", text)).lower()


def ambiguous_sections(store: EvidenceStoreProtocol, plan: RetrievalPlan, question: str) -> list[ClarificationOption]:
    """Options to ask about when the question's section reference fits several documents."""
    refs = section_references(question)
    if not refs:
        return []
    candidates = [f"§ {r}" for r in refs] + [f"Sec. {r}" for r in refs] + refs
    rows = store.find_sections(candidates)
    options = [
        ClarificationOption(r.doc_id, r.title, r.section_id, r.heading)
        for r in rows
        if plan.permits_document(r.doc_id) and plan.permits_pair(r.doc_id, r.section_id)
    ]
    named = [o for o in options if _squash(o.title) in _squash(question) or o.doc_id in question]
    if named:
        return []  # the question says which document it means
    if len({o.doc_id for o in options}) < 2:
        return []
    return options


# Words that shape a Korean question without saying what it is about.
_KO_QUESTION_WORDS = frozenset(
    """
    어떻게 어떤 무엇 무엇인가요 뭐 뭔가요 언제 얼마 얼마나 어디 누가 누구 왜 하나요 해야 하나 되나요 있나요
    없나요 인가요 있는지 없는지 알려 알려주세요 궁금 궁금합니다 경우 때 수
    """.split()
)


def key_terms(question: str) -> list[str]:
    """The words of a question as the index knows them: one stem per word (no bigrams), stop words
    dropped, numbers kept."""
    terms: list[str] = []
    for token in re.findall(r"\w+", question):
        analysed = analyze(token)
        if analysed and analysed[0] not in _KO_QUESTION_WORDS and (len(analysed[0]) >= 2 or analysed[0].isdigit()):
            terms.append(analysed[0])
    return list(dict.fromkeys(terms))


def _found(term: str, passage_terms: set[str]) -> bool:
    if term in passage_terms:
        return True
    # A Korean word in another inflection (돌려받지 / 반환받을) still shares most of its bigrams.
    grams = [term[i : i + 2] for i in range(len(term) - 1)]
    hangul = all("\uac00" <= ch <= "\ud7a3" for ch in term)
    return hangul and len(grams) >= 2 and sum(g in passage_terms for g in grams) * 2 >= len(grams)


def coverage(question: str, evidence: Sequence[Evidence], top: int = 3) -> tuple[float, list[str]]:
    """Share of the question's key terms found in the top passages, and the terms not found."""
    words = key_terms(question)
    if not words:
        return 1.0, []
    found: set[str] = set()
    for item in evidence[:top]:
        found.update(analyze(f"{item.title}\n{item.heading}\n{item.text}"))
    missing = [w for w in words if not _found(w, found)]
    return 1 - len(missing) / len(words), missing


def clarify_or_handoff(
    store: EvidenceStoreProtocol, question: str, plan: RetrievalPlan, evidence: Sequence[Evidence], handoff_target: str
) -> tuple[AskOutcome, str, tuple[ClarificationOption, ...], str | None] | None:
    """The clarification or handoff this question needs before composing, if any."""
    options = ambiguous_sections(store, plan, question)
    if options:
        listing = "; ".join(f"{o.title} {o.heading} ({o.doc_id}:{o.section_id})" for o in options)
        text = f"Which document do you mean? The question names a provision found in several: {listing}."
        return AskOutcome.CLARIFICATION, text, tuple(options), None
    share, missing = coverage(question, evidence)
    if share < COVERAGE_THRESHOLD:
        gap = f"the eligible evidence covers {share:.0%} of the question's key terms; not found: {', '.join(missing)}"
        text = f"The eligible evidence does not answer this question ({gap}). Handed off to {handoff_target}."
        return AskOutcome.HANDOFF, text, (), gap
    return None
