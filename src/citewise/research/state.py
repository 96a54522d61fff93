"""A research run's state is a fold over its events.

:func:`apply` is the only thing that changes a :class:`ResearchState`; the loop records an event and
applies it in one step (:class:`~citewise.research.recorder.Recorder`), and resume folds the stored
events with the same function. So a resumed run and an uninterrupted one cannot drift apart: budget
spent, queries and URLs tried, sources, reviews, drafts and token counts all come from the events.

>>> from citewise.records.budget import Budget
>>> from citewise.audit.events import RoundStarted
>>> state = ResearchState(question="q", usage=BudgetUsage(Budget()))
>>> apply(state, RoundStarted(1, ("a query",)))
>>> state.usage.rounds, state.round, state.next_round
(1, 1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from citewise.audit.events import (
    AttemptEnded,
    AttemptInterrupted,
    AttemptStarted,
    CollectionEnded,
    DraftDropped,
    DraftMade,
    DropReason,
    EngineSearched,
    Event,
    MirrorFound,
    ModelCallEnded,
    ModelCallInterrupted,
    ModelCallStarted,
    PlanMade,
    ReportMade,
    ReviewMade,
    RoundEnded,
    RoundStarted,
    SourceStored,
)
from citewise.records.budget import BudgetUsage, ModelUsage
from citewise.records.research import (
    Attempt,
    AttemptError,
    AttemptKind,
    CoverageReview,
    Draft,
    ModelPurpose,
    ResearchPlan,
    Source,
    StopReason,
)
from citewise.research.urls import query_key

__all__ = ["AheadSearch", "CollectionState", "ResearchState", "apply", "fold", "started_key"]

_BUDGET = {AttemptKind.SEARCH: "searches", AttemptKind.EXTRACT: "extractions"}


@dataclass
class AheadSearch:
    """A search started before its round (:mod:`citewise.research.ahead`), until that round's
    collection ends: the round takes its recorded answer instead of searching again."""

    round: int
    """The round it was started for."""
    target: str
    """The query as searched."""
    ended: AttemptEnded | None = None
    """Its recorded end; None while it runs (after a crash: interrupted)."""


@dataclass
class CollectionState:
    """What a run has collected so far."""

    tried_queries: set[str] = field(default_factory=set)
    """Keys (:func:`~citewise.research.urls.query_key`) of every query searched in the run."""
    tried_urls: set[str] = field(default_factory=set)
    """Normalised URLs of every page an extraction was attempted for."""
    sources: list[Source] = field(default_factory=list)
    """Every source of the run, in id order."""
    attempts: list[Attempt] = field(default_factory=list)
    """Every attempt of the run, in the order they were processed."""
    ahead: dict[str, AheadSearch] = field(default_factory=dict)
    """Searches started before their round, by query key, until that round's collection ends."""

    @property
    def next_source_number(self) -> int:
        """The number of the next source id (``S<n>``)."""
        return len(self.sources) + 1


def started_key(kind: AttemptKind, target: str, round_no: int) -> tuple[str, str, int]:
    """How a started attempt is matched to its end."""
    return (kind.value, target, round_no)


@dataclass
class ResearchState:
    """Everything a research run knows about itself, rebuilt from its events."""

    question: str
    """The question."""
    usage: BudgetUsage
    """Budget used (counted when each attempt started; tokens when each model call ended)."""
    plan: ResearchPlan | None = None
    """The checklist, once planned."""
    collection: CollectionState = field(default_factory=CollectionState)
    """Queries, URLs, attempts and sources."""
    reviews: list[CoverageReview] = field(default_factory=list)
    """One per round that had sources."""
    drafts: list[Draft] = field(default_factory=list)
    """One per reviewed round, plus a repaired one."""
    dropped_drafts: set[int] = field(default_factory=set)
    """Rounds whose speculative draft was dropped because the review asked for more searching: they
    get no draft."""
    revision: Draft | None = None
    """The writer's revision of the final draft, once its call was answered and the draft recorded: a
    resumed run delivers from it instead of asking for it again."""
    revision_removed: tuple[str, ...] = ()
    """The sentences that revision took out."""
    answered: ModelPurpose | None = None
    """The purpose of the latest model call that was answered (a draft recorded next is its answer)."""
    round: int | None = None
    """The latest round started."""
    round_queries: tuple[str, ...] = ()
    """The queries that round was given."""
    collected: bool = False
    """True once that round's collection ended."""
    round_ended: bool = True
    """True once that round ended (or before any round)."""
    collect_stop: StopReason | None = None
    """A budget that ran out during that round's collection."""
    open_attempts: dict[tuple[str, str, int], AttemptStarted] = field(default_factory=dict)
    """Attempts started and not yet ended (after a crash: interrupted)."""
    open_model_calls: list[ModelCallStarted] = field(default_factory=list)
    """Model calls started and not yet ended (after a crash: interrupted)."""
    report: ReportMade | None = None
    """What the loop delivered, once it did."""

    @property
    def next_round(self) -> int:
        """The number the next round gets."""
        return (self.round or 0) + 1


def apply(state: ResearchState, event: Event) -> None:
    """Change ``state`` by one event (events that do not concern the state are ignored)."""
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        handler(state, event)


def fold(state: ResearchState, events: Iterable[Event]) -> ResearchState:
    """``state`` after every event of ``events``, in order."""
    for event in events:
        apply(state, event)
    return state


def _plan(state: ResearchState, e: PlanMade) -> None:
    state.plan = e.plan


def _round_started(state: ResearchState, e: RoundStarted) -> None:
    state.usage.rounds += 1
    state.round, state.round_queries = e.round, e.queries
    state.collected, state.round_ended, state.collect_stop = False, False, None


def _attempt_started(state: ResearchState, e: AttemptStarted) -> None:
    budget = _BUDGET.get(e.attempt_kind)
    if budget is not None:
        setattr(state.usage, budget, getattr(state.usage, budget) + 1)
    _tried(state, e.attempt_kind, e.target, e.normalized_url)
    state.open_attempts[started_key(e.attempt_kind, e.target, e.round)] = e
    if e.ahead and e.attempt_kind is AttemptKind.SEARCH:
        state.collection.ahead[query_key(e.target)] = AheadSearch(e.round, e.target)


def _tried(state: ResearchState, kind: AttemptKind, target: str, normalized_url: str | None) -> None:
    if kind is AttemptKind.SEARCH:
        state.collection.tried_queries.add(query_key(target))
    elif kind is AttemptKind.EXTRACT:
        state.collection.tried_urls.add(normalized_url or target)


def _attempt_ended(state: ResearchState, e: AttemptEnded) -> None:
    a = e.attempt
    state.collection.attempts.append(a)
    if a.cached:  # answered from the cache: tried, but no budget was spent (it has no start event)
        _tried(state, a.kind, a.target, e.normalized_url)
        if e.ahead and a.kind is AttemptKind.SEARCH:  # before its round: the round takes this answer
            state.collection.ahead[query_key(a.target)] = AheadSearch(a.round, a.target, e)
        return
    ahead = state.collection.ahead.get(query_key(a.target)) if a.kind is AttemptKind.SEARCH else None
    if ahead is not None and ahead.ended is None and ahead.round == a.round and ahead.target == a.target:
        ahead.ended = e
    if state.open_attempts.pop(started_key(a.kind, a.target, a.round), None) is None:
        # A legacy record without a start event: the attempt was still counted before the call.
        _attempt_started(state, AttemptStarted(a.kind, a.target, a.round, e.normalized_url, e.query))
        state.open_attempts.pop(started_key(a.kind, a.target, a.round), None)


def _attempt_interrupted(state: ResearchState, e: AttemptInterrupted) -> None:
    # Its start already spent the budget; the attempt is shown as failed by the interruption.
    state.open_attempts.pop(started_key(e.attempt_kind, e.target, e.round), None)
    if e.attempt_kind is AttemptKind.SEARCH:
        ahead = state.collection.ahead.get(query_key(e.target))
        if ahead is not None and ahead.ended is None and ahead.round == e.round:
            del state.collection.ahead[query_key(e.target)]  # cut off: its round searches it again
    state.collection.attempts.append(
        Attempt(
            e.attempt_kind,
            e.target,
            e.round,
            False,
            e.noticed_at,
            "interrupted",
            "the run stopped during this call; its result was not recorded",
            error_kind=AttemptError.INTERRUPTED,
        )
    )


def _source(state: ResearchState, e: SourceStored) -> None:
    state.collection.sources.append(e.source)


def _collection_ended(state: ResearchState, e: CollectionEnded) -> None:
    state.collected, state.collect_stop = True, e.stop
    ahead = state.collection.ahead
    for key in [k for k, search in ahead.items() if search.round <= e.round]:
        del ahead[key]  # its round has used it (or it was for a round that took other queries)


def _model_started(state: ResearchState, e: ModelCallStarted) -> None:
    state.open_model_calls.append(e)


def _model_ended(state: ResearchState, e: ModelCallEnded) -> None:
    # Tokens and money spent are counted from the call's reported usage (money is priced from these
    # counts when a cap is checked, so a resumed run prices its calls the same way).
    state.usage.add_call(
        ModelUsage(e.requested_model, e.model, e.prompt_tokens or 0, e.cached_tokens or 0, e.completion_tokens or 0)
    )
    for i, started in enumerate(state.open_model_calls):
        if started.purpose == e.purpose:
            del state.open_model_calls[i]
            break
    state.answered = e.purpose if e.outcome == "ok" else None


def _model_interrupted(state: ResearchState, e: ModelCallInterrupted) -> None:
    state.usage.add_call(ModelUsage(e.model, None, e.estimated_prompt_tokens))
    for i, started in enumerate(state.open_model_calls):
        if started.purpose == e.purpose:
            del state.open_model_calls[i]
            break


def _engine_searched(state: ResearchState, e: EngineSearched) -> None:
    # A native engine's search spends the run's search budget like one of citewise's own.
    state.usage.searches += 1
    if e.search.query:
        state.collection.tried_queries.add(query_key(e.search.query))


def _review(state: ResearchState, e: ReviewMade) -> None:
    state.reviews.append(e.review)


def _mirror(state: ResearchState, e: MirrorFound) -> None:
    sources = state.collection.sources
    for i, source in enumerate(sources):
        if source.source_id == e.source_id:
            sources[i] = replace(source, mirrors=(*source.mirrors, e.url))
            break


def _draft(state: ResearchState, e: DraftMade) -> None:
    if state.answered is ModelPurpose.REVISE:
        state.revision = e.draft  # the revision of the final draft, not a draft of its own
        state.revision_removed = e.removed_sentences
    else:
        state.drafts.append(e.draft)
    state.answered = None


def _draft_dropped(state: ResearchState, e: DraftDropped) -> None:
    if e.reason is DropReason.MORE_SEARCHING:
        state.dropped_drafts.add(e.round)


def _round_ended(state: ResearchState, e: RoundEnded) -> None:
    state.round_ended = True
    state.round_queries = ()


def _report(state: ResearchState, e: ReportMade) -> None:
    state.report = e


_HANDLERS: dict[type[Event], Callable[[ResearchState, Any], None]] = {
    PlanMade: _plan,
    RoundStarted: _round_started,
    AttemptStarted: _attempt_started,
    AttemptEnded: _attempt_ended,
    AttemptInterrupted: _attempt_interrupted,
    SourceStored: _source,
    MirrorFound: _mirror,
    CollectionEnded: _collection_ended,
    ModelCallStarted: _model_started,
    ModelCallEnded: _model_ended,
    ModelCallInterrupted: _model_interrupted,
    ReviewMade: _review,
    DraftMade: _draft,
    DraftDropped: _draft_dropped,
    RoundEnded: _round_ended,
    ReportMade: _report,
    EngineSearched: _engine_searched,
}
