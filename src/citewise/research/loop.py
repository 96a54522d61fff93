"""The research loop controller.

::

    plan -> [ round: collect (search -> normalise/dedupe -> extract -> select) -> review coverage
              -> draft ] ... until coverage passes, no new query remains, or a budget runs out
         -> final draft -> citation validation (one repair inside the budget) -> report

A round whose review asks for more searching gets no draft when a later one can be written (no
token or money cap; ``draft_every_round`` to draft anyway): only the round the loop stops after is
drafted, so the writer's wait is not on the path of every round. From round 2 on, the draft may be
written while the review runs (:mod:`citewise.research.speculate`): kept when the loop stops on the
coverage it was written from, dropped (and recorded) otherwise.

Every step is recorded as a typed event when it happens and the run's state is the fold of those
events (:mod:`citewise.research.state`), so a crash loses nothing already collected and ``resume``
continues from the same state without repeating a recorded call. While it works, the run renews its
lease, so a run whose process died shows as interrupted. The report is never "accepted" here:
acceptance is a separate decision of the verification layer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from citewise.audit.events import (
    CollectionEnded,
    DraftMade,
    Event,
    PlanMade,
    ReviewMade,
    RoundEnded,
    RoundStarted,
    RunConfigured,
    RunFailed,
)
from citewise.errors import ConfigError
from citewise.records.budget import BudgetExhausted, BudgetUsage
from citewise.records.research import ResearchPlan, StopReason
from citewise.records.runs import RunKind
from citewise.research import ahead, speculate, steps
from citewise.research.collect import collect_round
from citewise.research.context import ResearchResult, ResearchRun
from citewise.research.recorder import Progress, Recorder
from citewise.research.resume import Restored, recorded_review_prompt, restore
from citewise.research.round import RecordedCalls
from citewise.research.settings import ResearchSettings
from citewise.research.state import ResearchState
from citewise.research.urls import query_key
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore

__all__ = ["HEARTBEAT_S", "ResearchResult", "research", "resume"]

HEARTBEAT_S = 10.0
"""How often a working run renews its lease (besides every recorded event)."""


def research(
    store: EvidenceStore,
    question: str,
    settings: ResearchSettings,
    progress: Progress | None = None,
    started: Callable[[str], None] | None = None,
    *,
    run_id: str | None = None,
) -> ResearchResult:
    """Run the research loop for ``question`` and record every step.

    ``started(run_id)`` is called once the run exists, before any work (the web UI follows a run it
    started by its id while it is still running). ``run_id``: a research run already created for this
    question (:meth:`RunStore.create`) and not started yet, so that a caller can record which run it
    is before the first paid call (a batch)."""
    runs = RunStore(store)
    run_id = run_id or runs.create(RunKind.RESEARCH, question)
    if started is not None:
        started(run_id)
    state = ResearchState(question, BudgetUsage(settings.budget))
    run = ResearchRun(run_id, settings, Recorder(lambda e: runs.append(run_id, e), state, progress))
    with _closing(runs, run):
        run.record(_configured(settings))
        run.record(PlanMade(steps.make_plan(run)))
        return _loop(run, _first_queries(run))


def resume(
    store: EvidenceStore, run_id: str, settings: ResearchSettings, progress: Progress | None = None
) -> ResearchResult:
    """Continue a run that stopped part-way, from its recorded state, without repeating a recorded call.
    Its reviews are asked under the review prompt it started with (:func:`recorded_review_prompt`),
    whatever ``settings`` say."""
    runs = RunStore(store)
    record = runs.get(run_id)
    settings = replace(settings, review_prompt=recorded_review_prompt(record.last(RunConfigured)))
    restored = restore(record, settings)
    runs.take_over(run_id)
    run = ResearchRun(run_id, settings, Recorder(lambda e: runs.append(run_id, e), restored.state, progress))
    with _closing(runs, run):
        for event in restored.notes:
            run.record(event)
        if run.state.plan is None:  # it stopped while planning: plan now (the cut-off call is counted)
            run.record(PlanMade(steps.make_plan(run)))
            return _loop(run, _first_queries(run))
        return _continue(run, restored)


@contextmanager
def _closing(runs: RunStore, run: ResearchRun) -> Iterator[None]:
    """Keep the lease while working; close the run as finished or failed (everything stays recorded)."""
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(runs, run.run_id, stop), daemon=True, name="citewise-lease")
    beat.start()
    try:
        try:
            yield
        except Exception:
            speculate.wait_dropped(run)  # a dropped draft's call ends on the record before the failure
            ahead.settle(run, failing=True)  # and so does every search started ahead of its round
            raise
    except BaseException as exc:
        stop.set()
        run.record(RunFailed(type(exc).__name__, str(exc)[:500]))
        runs.finish(run.run_id, status=RunStatus.FAILED, outcome=None)
        raise
    finally:
        stop.set()
        beat.join(timeout=5)
    report = run.state.report
    runs.finish(run.run_id, status=RunStatus.FINISHED, outcome=report.status if report else None)


def _heartbeat(runs: RunStore, run_id: str, stop: threading.Event) -> None:
    while not stop.wait(HEARTBEAT_S):
        try:
            runs.heartbeat(run_id)
        except Exception:  # noqa: BLE001 - a missed beat is harmless; the next event renews the lease
            continue


def _configured(settings: ResearchSettings) -> RunConfigured:
    def options(provider: object) -> dict[str, str]:
        return {str(k): str(v) for k, v in (getattr(provider, "options", None) or {}).items()}

    uses = settings.uses_models
    return RunConfigured(
        search=getattr(settings.search, "name", type(settings.search).__name__),
        extract=getattr(settings.extractor, "name", type(settings.extractor).__name__),
        planner_model=(settings.planner_model or "") if uses else "deterministic",
        writer_model=(settings.writer_model or "") if uses else "deterministic",
        budget=settings.budget,
        concurrent=settings.concurrent,
        pages_per_query=settings.pages_per_query,
        search_options=options(settings.search),
        extract_options=options(settings.extractor),
        review_prompt=settings.review_prompt,
    )


def _plan(run: ResearchRun) -> ResearchPlan:
    plan = run.state.plan
    assert plan is not None
    return plan


def _first_queries(run: ResearchRun) -> list[str]:
    """Round 1's queries: the planned ones, and any other searched ahead of it (a plan made again
    after a crash may name other queries than the streamed reply the crash cut off)."""
    return ahead.with_ahead(run.state, 1, _plan(run).queries)


def _continue(run: ResearchRun, restored: Restored) -> ResearchResult:
    """Finish the round the run stopped in, from the step it stopped at, then go on as usual."""
    state = run.state
    if state.round is None:
        return _loop(run, _first_queries(run))
    if not state.round_ended:
        stop = _round(run, state.round, list(state.round_queries), restored.replay)
    else:
        stop = restored.round_stop or _after_round(run, state.round, state.collect_stop)
    if stop is not None:
        speculate.wait_dropped(run)
        ahead.settle(run)  # a search started for a round that will not come ends on the record first
        return steps.finish(run, stop)
    return _loop(run)


def _loop(run: ResearchRun, first: list[str] | None = None) -> ResearchResult:
    """Rounds until a stop; the first one gets ``first`` (the planned queries), later ones the gaps'."""
    state = run.state
    stop: StopReason | None = None
    while stop is None:
        try:
            state.usage.check_before("rounds")
        except BudgetExhausted:
            stop = StopReason.ROUNDS_EXHAUSTED
            break
        queries, first = (first if first is not None else _pending(run)), None
        stop = _round(run, state.next_round, queries, None)
    speculate.wait_dropped(run)
    ahead.settle(run)  # a search started for a round that will not come ends on the record first
    return steps.finish(run, stop)


def _round(run: ResearchRun, round_no: int, queries: list[str], replay: Sequence[Event] | None) -> StopReason | None:
    """Run round ``round_no`` (collect, review, draft) to its end; the stop reason, if any. A round
    that was under way when the run stopped is replayed against its recorded events."""
    state = run.state
    if state.round != round_no or state.round_ended:
        ahead.settle(run)  # every search started ahead of the round is recorded before it starts
        run.record(RoundStarted(round_no, tuple(queries)))
    if not state.collected:
        _collect(run, round_no, queries, replay)
    try:
        if state.collection.sources and not _reviewed(state, round_no):
            _review(run, round_no)
        drafted = any(d.round == round_no for d in state.drafts) or round_no in state.dropped_drafts
        if _reviewed(state, round_no) and not drafted and not _defers_draft(run, round_no):
            run.record(DraftMade(steps.draft(run, round_no, state.reviews[-1])))
    except BudgetExhausted as exhausted:
        stop = exhausted.stop_reason or StopReason.TOKENS_EXHAUSTED
        run.record(RoundEnded(round_no, stop))
        if exhausted.stop_reason is not None:  # a token or money cap: stop before the call
            return stop
        raise
    collect_stop = state.collect_stop
    run.record(RoundEnded(round_no, collect_stop))
    return _after_round(run, round_no, collect_stop)


def _defers_draft(run: ResearchRun, round_no: int) -> bool:
    """Whether round ``round_no`` goes without a draft: its review asks for more searching and the
    loop goes on to another round, whose own review and draft will replace it. Only with a writer
    model (a deterministic draft costs nothing), without ``draft_every_round``, and without a token
    or money cap, so a cap can never leave the run with no model draft that it would have had.
    Decided from the recorded state alone, so a resumed run decides the same."""
    settings, usage = run.settings, run.state.usage
    if not settings.uses_models or settings.draft_every_round:
        return False
    if usage.budget.max_tokens is not None or usage.budget.max_cost_usd is not None:
        return False
    continues = _after_round(run, round_no, run.state.collect_stop) is None
    return continues and usage.remaining("rounds") > 0


def _review(run: ResearchRun, round_no: int) -> None:
    """The round's review, with its draft written at the same time when the budget allows
    (:mod:`citewise.research.speculate`); the draft's events are all recorded before the review's."""
    speculate.wait_dropped(run)  # the draft dropped last round: at most two calls at once
    speculation = speculate.start(run, round_no)
    try:
        review = steps.review(run, round_no)
    except Exception:
        if speculation is not None:  # (an interrupt does not wait for the writer)
            speculate.settle(run, speculation, continues=False, reviewed=False)
        raise
    run.record(ReviewMade(review))
    if speculation is not None:
        continues = _after_round(run, round_no, run.state.collect_stop) is None
        budget = run.state.usage.budget
        speculate.settle(
            run,
            speculation,
            continues=continues and run.state.usage.remaining("rounds") > 0,
            background=budget.max_tokens is None and budget.max_cost_usd is None,
        )


def _collect(run: ResearchRun, round_no: int, queries: list[str], replay: Sequence[Event] | None) -> None:
    settings = run.settings
    if settings.search is None:  # a native engine's settings: that engine searches, not this loop
        raise ConfigError(f"no search provider is configured (the run is set up for {settings.engine})")
    recorded = list(replay or ())
    with run.recorder.replaying(recorded):
        result = collect_round(
            round=round_no,
            queries=queries,
            question=run.question,
            search=settings.search,
            extractor=settings.extractor,
            recorder=run.recorder,
            excerpt_chars=settings.budget.excerpt_chars,
            pages_per_query=settings.pages_per_query,
            concurrent=settings.concurrent,
            sleep=settings.sleep,
            replay=RecordedCalls(recorded) if replay is not None else None,
            sites=settings.sites,
        )
    run.record(CollectionEnded(round_no, result.stop))


def _reviewed(state: ResearchState, round_no: int) -> bool:
    return bool(state.reviews) and state.reviews[-1].round == round_no


def _after_round(run: ResearchRun, round_no: int, collect_stop: StopReason | None) -> StopReason | None:
    state = run.state
    if _reviewed(state, round_no) and state.reviews[-1].passed:
        return StopReason.COVERAGE_PASSED
    if collect_stop is not None:
        return collect_stop
    if state.usage.tokens_exhausted():
        return StopReason.TOKENS_EXHAUSTED
    if not _pending(run):
        return StopReason.NO_NEW_QUERIES if state.collection.sources else StopReason.NO_EVIDENCE
    return None


def _pending(run: ResearchRun) -> list[str]:
    """The queries the next round gets: the last review's follow-ups not yet tried, or, while nothing
    usable was collected, the planned queries not yet tried."""
    state = run.state
    tried = state.collection.tried_queries
    if state.reviews:
        wanted = [i.follow_up for i in state.reviews[-1].items if i.follow_up]
    else:
        wanted = list(_plan(run).queries)
    ahead_keys = {k for k, a in state.collection.ahead.items() if a.round == state.next_round}
    fresh = [q for q in wanted if query_key(q) not in tried or query_key(q) in ahead_keys]
    return ahead.with_ahead(state, state.next_round, list(dict.fromkeys(fresh)))
