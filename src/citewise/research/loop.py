"""The research loop controller.

::

    plan -> [ round: collect (search -> normalise/dedupe -> extract -> select) -> review coverage
              -> draft ] ... until coverage passes, no new query remains, or a budget runs out
         -> final draft -> citation validation (one repair inside the budget) -> report

Every step is written to the audit store as it happens, so a crash loses nothing already collected
and ``resume`` continues without repeating a recorded call. The report is never "accepted" here:
acceptance is a separate decision of the verification layer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from citewise.research.budget import BudgetExhausted, BudgetUsage
from citewise.research.collect import CollectionState, collect_round, query_key
from citewise.research.records import CoverageReview, Draft, ResearchPlan, Source, StopReason
from citewise.research.settings import ResearchSettings
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore

__all__ = ["ResearchResult", "research", "resume"]

Progress = Callable[[str, dict[str, Any]], None]


@dataclass(frozen=True)
class ResearchResult:
    """What a research run produced. ``status`` is ``report``, ``rejected`` or ``no_evidence``."""

    run_id: str
    """Audit record id."""
    question: str
    """The question."""
    status: str
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
    problems: tuple[str, ...] = ()
    """Why the report was rejected, or what was removed from it (unknown ids, foreign URLs)."""
    usage: dict[str, Any] = field(default_factory=dict)
    """Budget used: rounds, searches, extractions, tokens."""
    body: str | None = None
    """The validated report body (the final draft after citewise's checks); None when rejected."""


@dataclass
class _Run:
    """The mutable state of one run, owned by the controller alone."""

    run_id: str
    question: str
    settings: ResearchSettings
    runs: RunStore
    progress: Progress | None
    plan: ResearchPlan | None = None
    usage: BudgetUsage | None = None
    state: CollectionState = field(default_factory=CollectionState)
    reviews: list[CoverageReview] = field(default_factory=list)
    drafts: list[Draft] = field(default_factory=list)
    pending_queries: list[str] = field(default_factory=list)
    next_round: int = 1
    resume_point: tuple[int, str, StopReason | None] | None = None

    def record(self, stage: str, payload: dict[str, Any]) -> None:
        self.runs.append(self.run_id, stage, payload)
        if self.progress:
            self.progress(stage, {**payload, "usage": self.usage_summary()})

    def usage_summary(self) -> dict[str, Any]:
        u = self.usage
        if u is None:
            return {}
        return {
            "round": max(self.next_round - 1, 0),
            "rounds": f"{u.rounds}/{u.budget.max_rounds}",
            "searches": f"{u.searches}/{u.budget.max_searches}",
            "extractions": f"{u.extractions}/{u.budget.max_extractions}",
            "tokens": u.tokens,
        }


def research(
    store: EvidenceStore, question: str, settings: ResearchSettings, progress: Progress | None = None
) -> ResearchResult:
    """Run the research loop for ``question`` and record every step."""
    from citewise.research import steps

    runs = RunStore(store)
    run = _Run(runs.create("research", question), question, settings, runs, progress)
    run.usage = BudgetUsage(settings.budget)
    run.record("settings", settings.describe())
    try:
        run.plan = steps.make_plan(run)
        run.record("plan", asdict(run.plan))
        run.pending_queries = list(run.plan.queries)
        return _loop(run)
    except BaseException as exc:
        runs.finish(
            run.run_id, outcome=None, retrieval={}, answer={}, result={"error": type(exc).__name__}, status="failed"
        )
        raise


def resume(
    store: EvidenceStore, run_id: str, settings: ResearchSettings, progress: Progress | None = None
) -> ResearchResult:
    """Continue a run that stopped part-way, without repeating any recorded call."""
    from citewise.research.resume import restore

    runs = RunStore(store)
    run = _Run(run_id, "", settings, runs, progress)
    restore(run, runs.get(run_id))
    run.record("resume", {"from_round": run.next_round, "sources": len(run.state.sources)})
    try:
        return _loop(run)
    except BaseException as exc:
        runs.finish(
            run.run_id, outcome=None, retrieval={}, answer={}, result={"error": type(exc).__name__}, status="failed"
        )
        raise


def _loop(run: _Run) -> ResearchResult:
    assert run.plan is not None and run.usage is not None
    stop: StopReason | None = None
    if run.resume_point is not None:
        # Finish the round the run stopped in, from the step it stopped at, before any new round.
        round_no, phase, collect_stop = run.resume_point
        run.resume_point = None
        stop = _continue_round(run, round_no, phase, collect_stop)
    while stop is None:
        try:
            run.usage.spend("rounds")
        except BudgetExhausted:
            stop = StopReason.ROUNDS_EXHAUSTED
            break
        round_no = run.next_round
        run.next_round += 1
        run.record("round_start", {"round": round_no, "queries": list(run.pending_queries)})
        stop = _continue_round(run, round_no, "collect", None)
    from citewise.research import steps

    return steps.finish(run, stop)


def _continue_round(run: _Run, round_no: int, phase: str, collect_stop: StopReason | None) -> StopReason | None:
    """Run a round from ``phase`` (collect, review, draft or end) to its end; the stop reason, if any."""
    from citewise.research import steps

    assert run.usage is not None
    if phase == "collect":
        result = collect_round(
            round=round_no,
            queries=run.pending_queries,
            question=run.question,
            search=run.settings.search,
            extractor=run.settings.extractor,
            usage=run.usage,
            state=run.state,
            excerpt_chars=run.settings.budget.excerpt_chars,
            pages_per_query=run.settings.pages_per_query,
            concurrent=run.settings.concurrent,
            on_event=run.record,
        )
        collect_stop = result.stop
        run.record("collected", {"round": round_no, "stop": collect_stop.value if collect_stop else None})
        phase = "review"
    try:
        if phase == "review" and run.state.sources:
            review = steps.review(run, round_no)
            run.reviews.append(review)
            run.record("review", asdict(review))
            phase = "draft"
        if phase == "draft" and run.reviews and run.reviews[-1].round == round_no:
            draft = steps.draft(run, round_no, run.reviews[-1])
            run.drafts.append(draft)
            run.record("draft", asdict(draft))
    except BudgetExhausted as exhausted:
        run.record("round_end", {"round": round_no, "stop": StopReason.TOKENS_EXHAUSTED.value})
        if exhausted.kind == "tokens":
            return StopReason.TOKENS_EXHAUSTED
        raise
    run.record("round_end", {"round": round_no, "stop": collect_stop.value if collect_stop else None})
    return _stop_after_round(run, round_no, collect_stop)


def _stop_after_round(run: _Run, round_no: int, collect_stop: StopReason | None) -> StopReason | None:
    assert run.usage is not None
    if run.reviews and run.reviews[-1].passed and run.reviews[-1].round == round_no:
        return StopReason.COVERAGE_PASSED
    if collect_stop is not None:
        return collect_stop
    if run.usage.tokens_exhausted():
        return StopReason.TOKENS_EXHAUSTED
    tried = run.state.tried_queries
    follow_ups: list[str] = []
    for item in run.reviews[-1].items if run.reviews else ():
        if item.follow_up and query_key(item.follow_up) not in tried and item.follow_up not in follow_ups:
            follow_ups.append(item.follow_up)
    if not run.reviews and run.plan is not None:
        # Nothing usable was collected yet: only untried planned queries can still help.
        follow_ups = [q for q in run.plan.queries if query_key(q) not in tried]
    if not follow_ups:
        return StopReason.NO_NEW_QUERIES if run.state.sources else StopReason.NO_EVIDENCE
    run.pending_queries = follow_ups
    return None
