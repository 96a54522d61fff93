"""Rebuilding a research run from its audit record, so it can continue after a crash.

The state is the fold of the recorded events (:func:`~citewise.research.state.fold`): the plan, every
attempt (their budget stays spent), every source with its page text and excerpt, every review and
draft, every model call's tokens. A round whose collection had not ended is folded only up to its
start and then run again against its recorded events: calls already answered are answered from the
record (never sent again), and a call that was started but never answered is recorded as interrupted
and made again only if budget is left (the calls of a dropped speculative draft that ended beside
that collection are folded, not replayed). A model call cut off by the crash is recorded as interrupted
and counted in the token budget with its estimated prompt (the provider may have charged for it).

A run that finished because the next model call would have crossed its token or money cap can be
resumed too (with a larger cap): it goes on from the step the cap stopped, keeping all its evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

from citewise.audit.events import (
    CollectionEnded,
    DraftDropped,
    Event,
    ModelCallEnded,
    ModelCallInterrupted,
    ModelCallStarted,
    ModelRetried,
    ReportMade,
    RoundEnded,
    RoundStarted,
    RunConfigured,
    RunResumed,
)
from citewise.errors import InputError
from citewise.records.budget import BudgetUsage
from citewise.records.research import ModelPurpose, StopReason
from citewise.records.runs import RunKind
from citewise.research.prompts import REVIEW_V4
from citewise.research.settings import ResearchSettings
from citewise.research.state import ResearchState, fold
from citewise.store.runs import RunRecord, RunStatus

__all__ = ["Restored", "recorded_review_prompt", "restore"]


@dataclass(frozen=True)
class Restored:
    """A run's state rebuilt from its record, and how to go on from it."""

    state: ResearchState
    """The fold of the recorded events (up to the start of a round whose collection had not ended)."""
    notes: tuple[Event, ...]
    """Events to record now: the resume itself and every model call the crash cut off."""
    replay: tuple[Event, ...] | None
    """The recorded events of the round to run again, when its collection had not ended."""
    round_stop: StopReason | None
    """The stop recorded when the last round ended, if it ended with one."""


def restore(record: RunRecord, settings: ResearchSettings) -> Restored:
    """The state of ``record``; refuse runs that are not research runs or already finished."""
    if record.kind is not RunKind.RESEARCH:
        raise InputError(f"run {record.run_id} is an {record.kind} run; only research runs can be resumed")
    events = [r.event for r in record.events]
    configured = next((e for e in events if isinstance(e, RunConfigured)), None)
    if configured is not None and configured.engine is not None:
        raise InputError(
            f"run {record.run_id} was answered by a native engine ({configured.engine}), which cannot be "
            "resumed: ask the question again with --engine"
        )
    if record.status is RunStatus.RUNNING:
        raise InputError(
            f"run {record.run_id} is still running in another process (its lease is alive); "
            "resume it when that process has stopped"
        )
    if record.status is RunStatus.FINISHED:
        events = _reopened(record, events)
    start = _unfinished_collection(events)
    state = ResearchState(record.question, BudgetUsage(settings.budget))
    replay: tuple[Event, ...] | None = None
    if start is None:
        fold(state, events)
    else:
        tail = events[start + 1 :]
        earlier = [e for e in tail if _dropped_draft_call(e)]
        fold(state, [*events[: start + 1], *earlier])
        replay = tuple(e for e in tail if not _dropped_draft_call(e))
    everything = fold(ResearchState(record.question, BudgetUsage(settings.budget)), events)
    cut_off = [ModelCallInterrupted(c.purpose, c.model, c.estimated_prompt_tokens) for c in state.open_model_calls]
    resumed = RunResumed(
        from_round=state.round or 0,
        sources=len(everything.collection.sources),
        interrupted_attempts=len(everything.open_attempts),
        interrupted_model_calls=len(cut_off),
    )
    ended = [e for e in events if isinstance(e, RoundEnded)]
    round_stop = ended[-1].stop if ended and state.round_ended and ended[-1].round == state.round else None
    return Restored(state, (resumed, *cut_off), replay, round_stop)


def recorded_review_prompt(configured: RunConfigured | None) -> str:
    """The review prompt a run started with: the recorded one, or ``review-v4`` for a record made
    before runs recorded it (the prompt of that time)."""
    if configured is None or configured.review_prompt is None:
        return REVIEW_V4
    return configured.review_prompt


_CAP_STOPS = (StopReason.TOKENS_EXHAUSTED, StopReason.COST_EXHAUSTED)


def _reopened(record: RunRecord, events: list[Event]) -> list[Event]:
    """The events of a finished run that stopped at a token or money cap, as they stood before the
    stop: its reports, and the end of a round the cap cut short (before its review or draft), are left
    out, so the run goes on from there (with a larger cap). Any other finished run is refused."""
    report = record.last(ReportMade)
    if report is None or report.stop_reason not in _CAP_STOPS:
        raise InputError(f"run {record.run_id} already finished ({record.outcome}); start a new run instead")
    kept = [e for e in events if not isinstance(e, ReportMade)]
    ends = [i for i, e in enumerate(kept) if isinstance(e, RoundEnded)]
    if ends and kept[ends[-1]].stop in _CAP_STOPS:  # type: ignore[attr-defined]
        del kept[ends[-1]]
    return kept


def _unfinished_collection(events: list[Event]) -> int | None:
    """The index of the last round's start when that round's collection never ended."""
    starts = [i for i, e in enumerate(events) if isinstance(e, RoundStarted)]
    if not starts:
        return None
    last = starts[-1]
    number = events[last].round  # type: ignore[attr-defined]
    if any(isinstance(e, CollectionEnded) and e.round == number for e in events[last + 1 :]):
        return None
    return last


def _dropped_draft_call(event: Event) -> bool:
    """Whether ``event`` is of a speculative draft's call: in a round whose collection never ended
    (no review, so no draft of its own was started) it is the call of the round before's draft,
    dropped without waiting and ended beside this collection, or the text of that draft recorded
    when a failure there was waited out. It belongs to the fold, not the replay."""
    if isinstance(event, DraftDropped):
        return True
    purpose = getattr(event, "purpose", None)
    return purpose is ModelPurpose.SPECULATIVE_DRAFT and isinstance(
        event, (ModelCallStarted, ModelCallEnded, ModelRetried)
    )
