"""What every step of a research run works with: its settings, its recorder and the state the
recorder keeps (a fold over the run's events), and the result the run delivers."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from citewise.audit.events import Event, UsageSummary
from citewise.records.research import (
    CoverageReview,
    Draft,
    ReportStatus,
    ResearchPlan,
    Source,
    StopReason,
)
from citewise.records.verify import Acceptance, Finding
from citewise.research.recorder import Recorder
from citewise.research.settings import ResearchSettings
from citewise.research.state import ResearchState
from citewise.verify.ledger import CheckCache

__all__ = ["ResearchResult", "ResearchRun"]


@dataclass(frozen=True)
class ResearchRun:
    """One run being worked on."""

    run_id: str
    """Audit record id."""
    settings: ResearchSettings
    """Providers, models, budgets."""
    recorder: Recorder
    """Records events and applies them to :attr:`state`."""
    checks: CheckCache = field(default_factory=CheckCache, compare=False)
    """Support checks made while drafts streamed in, reused when the report is delivered (this
    process only; a resumed run checks again)."""
    dropped: list[tuple[int, Future[Any]]] = field(default_factory=list, compare=False)
    """Calls of speculative drafts dropped without waiting for them (with their round), still under way
    (:func:`citewise.research.speculate.wait_dropped`)."""
    searching: list[Future[Any]] = field(default_factory=list, compare=False)
    """Searches started ahead of their round, still under way (:func:`citewise.research.ahead.settle`)."""

    @property
    def state(self) -> ResearchState:
        """The run's state: the fold of everything recorded so far."""
        return self.recorder.state

    @property
    def question(self) -> str:
        return self.state.question

    def record(self, event: Event) -> bool:
        """Record one event (and apply it to the state)."""
        return self.recorder.record(event)

    def usage_summary(self) -> UsageSummary:
        """Budget used, as ``used/limit`` strings."""
        u = self.state.usage
        return UsageSummary(
            round=self.state.round or 0,
            rounds=f"{u.rounds}/{u.budget.max_rounds}",
            searches=f"{u.searches}/{u.budget.max_searches}",
            extractions=f"{u.extractions}/{u.budget.max_extractions}",
            tokens=u.tokens,
        )


@dataclass(frozen=True)
class ResearchResult:
    """What a research run produced."""

    run_id: str
    """Audit record id."""
    question: str
    """The question."""
    status: ReportStatus
    """``report`` (a validated draft), ``rejected`` (citations could not be validated) or ``no_evidence``."""
    stop_reason: StopReason
    """Why the loop stopped."""
    markdown: str
    """The full report (body, gaps and limitations, sources, how it was made)."""
    plan: ResearchPlan
    """The checklist the run followed."""
    sources: tuple[Source, ...]
    """Every source citewise extracted and stored."""
    reviews: tuple[CoverageReview, ...]
    """One coverage review per round."""
    drafts: tuple[Draft, ...]
    """One draft per round (the last is the final report body)."""
    usage: UsageSummary
    """Budget used: rounds, searches, extractions, tokens."""
    problems: tuple[str, ...] = ()
    """Why the report was rejected, or what was removed from it (unknown ids, foreign URLs)."""
    body: str | None = None
    """The delivered body: the final draft after citewise's checks, verified claim by claim; None
    when there is no evidence."""
    acceptance: Acceptance | None = None
    """The acceptance decision on the delivered body (None with ``--no-verify``)."""
    removed: tuple[Finding, ...] = ()
    """Claims taken out before delivery, with the reason."""
