"""Research progress in words: the step *in progress*, derived from the run's events.

The loop reports each event it records (:data:`~citewise.research.recorder.Progress`); an event
says what just happened, and the reader wants what is happening now. :func:`step_after` maps one to
the other as a pure function of the event and the run's state::

    ModelCallStarted(purpose="plan")           -> planning
    AttemptStarted(search, ahead) x2           -> planning, searching 2 queries ahead
    PlanMade / RoundStarted                    -> searching the queries not yet answered ahead
    AttemptStarted(search) x3 (in flight)      -> searching 3 queries
    AttemptStarted(extract) x6 (in flight)     -> reading 6 pages
    CollectionEnded (sources stored)           -> reviewing coverage
    ReviewMade                                 -> drafting
    RoundEnded (no round follows)              -> verifying

:func:`counters` sums the budget counters shown beside the step. The terminal display
(:mod:`citewise.cli.progress`) and the MCP server's progress notifications both read these.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal

from citewise.audit.events import (
    AttemptEnded,
    AttemptStarted,
    CollectionEnded,
    DraftMade,
    Event,
    ModelCallEnded,
    ModelCallStarted,
    ModelRetried,
    PlanMade,
    RepairAsked,
    ReportMade,
    ReviewMade,
    RoundEnded,
    RoundStarted,
    RunConfigured,
    RunFailed,
    RunResumed,
    SourceStored,
    Verified,
)
from citewise.errors import ConfigError
from citewise.prices import PriceTable
from citewise.records.research import AttemptKind, ModelPurpose
from citewise.research.state import ResearchState
from citewise.research.urls import query_key

__all__ = [
    "Counters",
    "Step",
    "StepKind",
    "counters",
    "elapsed_text",
    "render_counters",
    "step_after",
    "worth_a_line",
]


class StepKind(str, enum.Enum):
    """What a research run is doing now."""

    STARTING = "starting"
    RESUMING = "resuming"
    PLANNING = "planning"
    SEARCHING = "searching"
    READING = "reading"
    SELECTING = "selecting"
    REVIEWING = "reviewing"
    DRAFTING = "drafting"
    REPAIRING = "repairing"
    REVISING = "revising"
    VERIFYING = "verifying"
    FINISHING = "finishing"
    WAITING = "waiting"
    RETRYING = "retrying"
    ENGINE = "engine"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Step:
    """The step in progress."""

    kind: StepKind
    """What is being done."""
    count: int | None = None
    """How many queries are being searched or pages read (None when not counted); while planning or
    reviewing, how many queries are searched ahead of their round."""
    detail: str | None = None
    """For a model call of another purpose, or a retry: the call's purpose."""

    def describe(self) -> str:
        """The step in words (``searching 3 queries``)."""
        if self.kind is StepKind.SEARCHING:
            return _counted("searching", self.count, "query", "queries")
        if self.kind is StepKind.READING:
            return _counted("reading", self.count, "page", "pages")
        if self.kind in (StepKind.PLANNING, StepKind.REVIEWING) and self.count:
            return f"{_WORDS[self.kind]}, {_counted('searching', self.count, 'query', 'queries')} ahead"
        if self.kind is StepKind.ENGINE:
            return f"engine {self.detail}" if self.detail else "the engine is searching and writing"
        if self.kind in (StepKind.WAITING, StepKind.RETRYING) and self.detail:
            return f"{_WORDS[self.kind]} ({self.detail})"
        return _WORDS[self.kind]


_WORDS = {
    StepKind.STARTING: "starting",
    StepKind.RESUMING: "resuming the recorded run",
    StepKind.PLANNING: "planning",
    StepKind.SEARCHING: "searching",
    StepKind.READING: "reading pages",
    StepKind.SELECTING: "selecting passages",
    StepKind.REVIEWING: "reviewing coverage",
    StepKind.DRAFTING: "drafting",
    StepKind.REPAIRING: "repairing citations",
    StepKind.REVISING: "revising unsupported claims",
    StepKind.VERIFYING: "verifying",
    StepKind.FINISHING: "finishing the report",
    StepKind.WAITING: "waiting for the model",
    StepKind.RETRYING: "retrying the model call",
    StepKind.ENGINE: "the engine is searching and writing",
    StepKind.DONE: "done",
    StepKind.FAILED: "failed",
}

# A model call's purpose -> the step it is; after it answers, the step that follows its answer.
_CALL_STEP = {
    ModelPurpose.PLAN: StepKind.PLANNING,
    ModelPurpose.REVIEW: StepKind.REVIEWING,
    ModelPurpose.DRAFT: StepKind.DRAFTING,
    ModelPurpose.SPECULATIVE_DRAFT: StepKind.DRAFTING,
    ModelPurpose.REPAIR: StepKind.REPAIRING,
    ModelPurpose.REVISE: StepKind.REVISING,
}
_AFTER_CALL = {ModelPurpose.REPAIR: StepKind.VERIFYING, ModelPurpose.REVISE: StepKind.VERIFYING}


def _counted(verb: str, count: int | None, one: str, many: str) -> str:
    if not count:
        return f"{verb} {many}"
    return f"{verb} {count} {one if count == 1 else many}"


def _in_flight(state: ResearchState, kind: AttemptKind) -> int:
    return sum(1 for started in state.open_attempts.values() if started.attempt_kind is kind)


def _collecting(state: ResearchState, finished: AttemptKind | None) -> Step:
    """While a round collects: the calls still in flight; between steps, the one that follows."""
    searches, pages = _in_flight(state, AttemptKind.SEARCH), _in_flight(state, AttemptKind.EXTRACT)
    if searches:
        return Step(StepKind.SEARCHING, searches)
    if pages:
        return Step(StepKind.READING, pages)
    if finished is AttemptKind.SEARCH:
        return Step(StepKind.READING)  # the pages of the answered searches are chosen next
    return Step(StepKind.SELECTING)


def _ahead(state: ResearchState) -> Step | None:
    """While a streamed plan or review starts searches for the next round: the call's step with the
    searches in flight; None once no such call is open (the step that followed it stays)."""
    calls = [c for c in state.open_model_calls if _CALL_STEP.get(c.purpose) in (StepKind.PLANNING, StepKind.REVIEWING)]
    if not calls:
        return None
    in_flight = sum(1 for s in state.open_attempts.values() if s.attempt_kind is AttemptKind.SEARCH and s.ahead)
    return Step(_CALL_STEP[calls[-1].purpose], in_flight or None)


def _to_search(state: ResearchState, queries: tuple[str, ...]) -> Step:
    """A round about to collect: the queries still to be answered (a search started ahead of the round
    and answered is not searched again); with none left, the answered searches' pages come next."""
    ahead = state.collection.ahead
    left = sum(
        1 for q in queries if (a := ahead.get(query_key(q))) is None or a.ended is None or not a.ended.attempt.ok
    )
    return Step(StepKind.SEARCHING, left) if left else Step(StepKind.READING)


def worth_a_line(shown: Step | None, step: Step) -> bool:
    """Whether ``step`` deserves a new line after ``shown`` in a log: a new step, or a new batch of
    calls (not the end of each call of a batch)."""
    if shown is None or shown.kind is not step.kind or shown.detail != step.detail:
        return True
    return (step.count or 0) > (shown.count or 0)


def _model_step(purpose: ModelPurpose) -> Step:
    kind = _CALL_STEP.get(purpose)
    return Step(kind) if kind is not None else Step(StepKind.WAITING, detail=purpose.value)


def step_after(event: Event, state: ResearchState) -> Step | None:
    """The step in progress once ``event`` was recorded and applied to ``state``; None when the event
    does not change it (a skipped URL, a stored ask event ...)."""
    if isinstance(event, RunConfigured):
        return Step(StepKind.PLANNING)
    if isinstance(event, RunResumed):
        return Step(StepKind.RESUMING)
    if isinstance(event, ModelCallStarted):
        return _model_step(event.purpose)
    if isinstance(event, ModelCallEnded):
        after = _AFTER_CALL.get(event.purpose)
        return Step(after) if after is not None else _model_step(event.purpose)
    if isinstance(event, ModelRetried):
        return Step(StepKind.RETRYING, detail=event.purpose.value)
    if isinstance(event, PlanMade):
        return _to_search(state, event.plan.queries)
    if isinstance(event, RoundStarted):
        return _to_search(state, event.queries)
    if isinstance(event, AttemptStarted | AttemptEnded) and event.ahead:
        return _ahead(state)
    if isinstance(event, AttemptStarted):
        return _collecting(state, None)
    if isinstance(event, AttemptEnded):
        return _collecting(state, event.attempt.kind)
    if isinstance(event, SourceStored):
        return Step(StepKind.SELECTING)
    if isinstance(event, CollectionEnded):
        return Step(StepKind.REVIEWING) if state.collection.sources else None
    if isinstance(event, ReviewMade):
        return Step(StepKind.DRAFTING)
    if isinstance(event, DraftMade):
        # A draft after the rounds (a repair or a revision) is verified next.
        return Step(StepKind.VERIFYING) if state.round_ended else None
    if isinstance(event, RoundEnded):
        # Another round starts at once (RoundStarted follows), or the report is checked and verified
        # (with nothing collected, there is nothing to verify: the no-evidence report is written).
        return Step(StepKind.VERIFYING if state.collection.sources else StepKind.FINISHING)
    if isinstance(event, RepairAsked):
        return Step(StepKind.REPAIRING)
    if isinstance(event, ReportMade | Verified):
        return Step(StepKind.DONE)
    if isinstance(event, RunFailed):
        return Step(StepKind.FAILED)
    return None


# -- counters ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counters:
    """The budget counters shown beside the step."""

    round: int
    """The latest round started (0 before the first)."""
    max_rounds: int
    """Round budget."""
    searches: int
    """Search attempts spent."""
    max_searches: int
    """Search budget."""
    pages: int
    """Extraction attempts spent."""
    max_pages: int
    """Extraction budget."""
    sources: int
    """Sources stored."""
    tokens: int
    """Model tokens counted."""
    max_tokens: int | None
    """Token cap, if any."""
    cost_usd: Decimal | None
    """Model cost so far, priced from the price table; None before any model call, or when a model
    is not in the table."""
    max_cost_usd: float | None
    """Money cap, if any."""


def counters(state: ResearchState, prices: PriceTable | None) -> Counters:
    """The counters of ``state``; model calls are priced with ``prices`` (None: cost not shown)."""
    u, b = state.usage, state.usage.budget
    return Counters(
        round=state.round or 0,
        max_rounds=b.max_rounds,
        searches=u.searches,
        max_searches=b.max_searches,
        pages=u.extractions,
        max_pages=b.max_extractions,
        sources=len(state.collection.sources),
        tokens=u.tokens,
        max_tokens=b.max_tokens,
        cost_usd=_model_cost(state, prices),
        max_cost_usd=b.max_cost_usd,
    )


def _model_cost(state: ResearchState, prices: PriceTable | None) -> Decimal | None:
    if prices is None or not state.usage.calls:
        return None
    try:
        return state.usage.spent_usd(prices)
    except ConfigError:  # a model the table does not price: no figure to show
        return None


def render_counters(c: Counters) -> str:
    """``round 1/3 · searches 3/8 · pages 6/12 · sources 4 · tokens 1200 · $0.0021``."""
    parts = [
        f"round {c.round}/{c.max_rounds}",
        f"searches {c.searches}/{c.max_searches}",
        f"pages {c.pages}/{c.max_pages}",
        f"sources {c.sources}",
        f"tokens {c.tokens:,}" + (f"/{c.max_tokens:,}" if c.max_tokens else ""),
    ]
    if c.cost_usd is not None:
        parts.append(f"${c.cost_usd:.4f}" + (f"/${c.max_cost_usd:g}" if c.max_cost_usd else ""))
    return " · ".join(parts)


def elapsed_text(seconds: float) -> str:
    """``7 s``, ``2 m 05 s``."""
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} m {whole % 60:02d} s"
