"""Before composing: is the question ambiguous (clarify), or does the evidence not cover it (hand off)?

* **Clarification**: the question names an article or section (``제3조``, ``§ 2``, ``Article 7``) without
  naming the document, and several documents the plan allows have that section. The answer asks which
  one, listing the options.
* **Handoff**: the relevance gate (:mod:`citewise.answer.relevance`) finds that the eligible passages
  do not answer the question: too few of its content terms occur in them and, when the store holds
  vectors, they are not close to it in meaning either. The gap is stated (the terms not found, the
  similarity) and the configured handoff target is named.
"""

from __future__ import annotations

from collections.abc import Sequence

from citewise.answer.provisions import NamedProvisions, squash
from citewise.answer.question import analyse_question
from citewise.answer.relevance import relevance, semantic_similarity
from citewise.evidence.plan import RetrievalPlan
from citewise.records.answer import AskOutcome, ClarificationOption, Evidence
from citewise.store.protocol import EvidenceStoreProtocol
from citewise.text.articles import article_references

__all__ = [
    "clarify_or_handoff",
    "ClarificationOption",
    "ambiguous_sections",
]

#: Share of the question's key terms that must occur in the top passages for an answer to be tried.
COVERAGE_THRESHOLD = 0.25


def ambiguous_sections(
    store: EvidenceStoreProtocol, plan: RetrievalPlan, question: str, named: NamedProvisions | None = None
) -> list[ClarificationOption]:
    """Options to ask about when the question's section reference fits several documents."""
    refs = article_references(question)
    if not refs or (named is not None and named.laws):
        return []  # no article named, or the question names the law it means
    candidates = [f"§ {r}" for r in refs] + [f"Sec. {r}" for r in refs] + refs
    rows = store.find_sections(candidates)
    options = [
        ClarificationOption(r.doc_id, r.title, r.section_id, r.heading)
        for r in rows
        if plan.permits_document(r.doc_id) and plan.permits_pair(r.doc_id, r.section_id)
    ]
    by_title = [o for o in options if squash(o.title) in squash(question) or o.doc_id in question]
    if by_title:
        return []  # the question says which document it means
    if len({o.doc_id for o in options}) < 2:
        return []
    return options


def clarify_or_handoff(
    store: EvidenceStoreProtocol,
    question: str,
    plan: RetrievalPlan,
    evidence: Sequence[Evidence],
    handoff_target: str,
    named: NamedProvisions | None = None,
) -> tuple[AskOutcome, str, tuple[ClarificationOption, ...], str | None] | None:
    """The clarification or handoff this question needs before composing, if any."""
    options = ambiguous_sections(store, plan, question, named)
    if options:
        listing = "; ".join(f"{o.title} {o.heading} ({o.doc_id}:{o.section_id})" for o in options)
        text = f"Which document do you mean? The question names a provision found in several: {listing}."
        return AskOutcome.CLARIFICATION, text, tuple(options), None
    measured = relevance(analyse_question(question), evidence, semantic=semantic_similarity(store, question, evidence))
    if not measured.answers:
        gap = measured.gap()
        text = f"The eligible evidence does not answer this question ({gap}). Handed off to {handoff_target}."
        return AskOutcome.HANDOFF, text, (), gap
    return None
