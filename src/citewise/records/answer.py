"""Records of the ask path: the evidence an answer may use, its citations, and answer provenance.

Answer provenance (which path produced the text, which model, which prompt version, why a fallback
happened) is kept apart from retrieval provenance (plan, candidates, gate decisions, ranking): a model
name in a log does not establish which path produced an answer; :class:`AnswerProvenance` does.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from citewise.records import SectionKind

__all__ = [
    "AnswerPath",
    "AnswerProvenance",
    "AskOutcome",
    "Citation",
    "ClarificationOption",
    "ComposedAnswer",
    "Evidence",
    "ReadingUsed",
    "ShadowComparison",
]


class AskOutcome(enum.StrEnum):
    """The five outcomes of ``citewise ask``, each recorded as such. A ``StrEnum``: it renders as its value in text."""

    MODEL_ANSWER = "model_answer_accepted"
    """A model wrote the answer from gated passages and citewise validated it."""
    FALLBACK = "deterministic_evidence_fallback"
    """An extractive answer built from eligible passages, no model (none configured, or its reply failed)."""
    NO_ELIGIBLE_EVIDENCE = "no_eligible_evidence"
    """Nothing passed the eligibility gate."""
    CLARIFICATION = "clarification"
    """The question is ambiguous between documents, versions or sections; the user must say which."""
    HANDOFF = "handoff"
    """Eligible evidence does not cover the question; routed to a person with the gap stated."""


class AnswerPath(str, enum.Enum):
    """Which path produced the final text."""

    MODEL = "model"
    DETERMINISTIC = "deterministic"
    NONE = "none"  #: no answer text was composed (no evidence, clarification, handoff)


@dataclass(frozen=True, slots=True)
class Evidence:
    """One gated, eligible passage offered to a composer, with the id answers cite it by."""

    evidence_id: str
    """``E1``, ``E2``, ... in ranked order."""
    doc_id: str
    """Document id."""
    version: int
    """Document version."""
    section_id: str
    """Section id (official numbering)."""
    title: str
    """Document title of that version."""
    heading: str
    """Section heading."""
    text: str
    """The exact section text given to the composer (deleted paragraphs already removed)."""
    content_hash: str
    """Content hash of the stored section."""
    origin_url: str | None = None
    """Where the document came from."""
    kind: SectionKind = SectionKind.ARTICLE
    """What the section is (an article, a 부칙 ...): the extractive composer keeps to the provisions
    that answer (:mod:`citewise.answer.roles`)."""


@dataclass(frozen=True, slots=True)
class Citation:
    """A citation in an answer: an evidence id and the verbatim quote that supports the sentence."""

    evidence_id: str
    """Which evidence passage (``E1`` ...)."""
    quote: str
    """Text that occurs verbatim (after whitespace/Unicode normalisation) in that passage."""
    doc_id: str = ""
    """Document id of the passage (filled in by citewise, never by a model)."""
    version: int = 0
    """Version of the passage."""
    section_id: str = ""
    """Section id of the passage."""
    group: int = 0
    """Quotes the extractive composer quoted together share a number (from 1; 0: quoted alone): a
    sentence with what it leans on (a list's lead-in, the rule a proviso excepts from, the entry a
    description is under) and, for a sentence that leads a short list, the list's items. When
    verification removes one of them, the others go too: alone they say nothing, or say it wrongly."""


@dataclass(frozen=True, slots=True)
class ComposedAnswer:
    """Answer text with ``[E#]`` markers and the citations that back them."""

    text: str
    """The answer, every sentence carrying at least one ``[E#]`` marker."""
    citations: tuple[Citation, ...]
    """Validated citations."""


@dataclass(frozen=True, slots=True)
class ReadingUsed:
    """An everyday word of the question read as the statute's terms (집주인 as 임대인), as recorded
    with the answer: what the question was taken to ask in the statute's words."""

    lay: str
    """The everyday word (the reading table's form: 잘리다 for 잘렸어요)."""
    statute: tuple[str, ...]
    """The statute terms it was read as."""

    def render(self) -> str:
        """``집주인 as 임대인`` (``a as b, c`` for more than one term)."""
        return f"{self.lay} as {', '.join(self.statute)}"


@dataclass(frozen=True, slots=True)
class AnswerProvenance:
    """Which path produced the final text, recorded apart from retrieval provenance."""

    path: AnswerPath
    """Model, deterministic composer, or none."""
    model: str | None = None
    """Model id as the endpoint reported it, when a model produced the text."""
    requested_model: str | None = None
    """Model id citewise asked for (also recorded when the model's reply was rejected)."""
    prompt_version: str | None = None
    """Version of the prompt used."""
    fallback_reason: str | None = None
    """Why the deterministic composer was used (no model configured, reply failed validation ...)."""
    prompt_tokens: int | None = None
    """Prompt tokens of the model call(s), when reported."""
    completion_tokens: int | None = None
    """Completion tokens of the model call(s), when reported."""
    readings: tuple[ReadingUsed, ...] = ()
    """The question's everyday words read as statute terms, on every path (the composer's sentence
    choice, the relevance gate and the search all read the question through them)."""


@dataclass(frozen=True, slots=True)
class ClarificationOption:
    """One document/section the user may have meant."""

    doc_id: str
    """Document id."""
    title: str
    """Document title."""
    section_id: str
    """Section id."""
    heading: str
    """Section heading."""


@dataclass(frozen=True, slots=True)
class ShadowComparison:
    """What the new retrieval would have done beside the existing answer."""

    existing_answer: str
    """Returned unchanged."""
    new_outcome: AskOutcome
    """What the new path would have answered with."""
    new_answer: str
    """Its text."""
    new_evidence: tuple[str, ...]
    """``doc@version:section`` of the evidence it would have used."""
