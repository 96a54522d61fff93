"""What an ask returns, and how it is configured."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from citewise.evidence.rank import Ranker
from citewise.records.answer import (
    AnswerPath,
    AnswerProvenance,
    AskOutcome,
    Citation,
    ClarificationOption,
    Evidence,
    ShadowComparison,
)
from citewise.records.budget import Budget
from citewise.records.verify import Acceptance, Finding, UnsupportedAction
from citewise.records.versions import VersionNote

__all__ = ["DEFAULT_HANDOFF", "AskResult", "AskSettings", "ShadowComparison"]

DEFAULT_HANDOFF = "a qualified reviewer (set CITEWISE_HANDOFF to name one)"


@dataclass(frozen=True, slots=True)
class AskSettings:
    """How an ask runs. ``client``/``model`` absent means the deterministic composer answers."""

    verify: bool = True
    """Verify a composed answer claim by claim before it is returned (``--no-verify``: recorded)."""
    unsupported: UnsupportedAction = UnsupportedAction.REMOVE
    """What happens to a factual claim verification did not support: removed, or marked inline."""
    mode: str = "active"
    """``active`` (the new retrieval decides) or ``shadow`` (the existing answer is returned)."""
    candidates: int = 30
    """How many search hits are gated."""
    evidence: int = 5
    """How many eligible passages a composer sees."""
    handoff_target: str = DEFAULT_HANDOFF
    """Who a handoff goes to."""
    ranker: Ranker | None = None
    """The ranker (may only reorder); None: the answering ranker
    (:class:`~citewise.answer.deterministic.AnswerRanker`, named provisions first)."""
    client: Any = None
    """A :class:`citewise.llm.ChatClient`, or None for no model."""
    model: str | None = None
    """Writer model id."""
    existing_answer: str | None = None
    """Shadow mode: the answer the existing path gave."""
    today: date | None = None
    """The date "in force" is judged on (default: today)."""
    budget: Budget | None = None
    """Token and money caps of the model call (``max_tokens``, ``max_cost_usd``; the other limits are
    the research loop's): a call that would cross one is not made, and the deterministic composer
    answers instead, saying why."""
    prices: Any = None
    """The :class:`~citewise.prices.PriceTable` a money cap is priced from."""


@dataclass(frozen=True, slots=True)
class AskResult:
    """What ``citewise ask`` returns (and records)."""

    run_id: str
    """Audit record id (``citewise runs show RUN``)."""
    question: str
    """The question."""
    mode: str
    """``active`` or ``shadow``."""
    outcome: AskOutcome
    """Which of the five outcomes."""
    text: str
    """What the user reads: the answer, the clarifying question, the handoff or the no-evidence notice."""
    citations: tuple[Citation, ...] = ()
    """Validated citations of the answer."""
    evidence: tuple[Evidence, ...] = ()
    """The eligible passages offered to the composer, in ranked order."""
    provenance: AnswerProvenance = AnswerProvenance(AnswerPath.NONE)
    """Which path produced the text."""
    options: tuple[ClarificationOption, ...] = ()
    """For a clarification: what the user can choose from."""
    gap: str | None = None
    """For a handoff: what the evidence does not cover."""
    exclusions: dict[str, int] = field(default_factory=dict)
    """Exclusion reasons and how many candidates each excluded."""
    ranking_violations: tuple[str, ...] = ()
    """Ranking contract violations (the input order was used)."""
    shadow: ShadowComparison | None = None
    """Shadow mode only."""
    acceptance: Acceptance | None = None
    """The acceptance decision on the delivered answer (None when nothing was verified)."""
    removed: tuple[Finding, ...] = ()
    """Claims taken out of the composed answer before it was returned, with the reason."""
    version_notes: tuple[VersionNote, ...] = ()
    """About the versions of the documents offered as evidence: an approved version that takes effect
    later, or an eligible text not yet in force on the date judged."""
