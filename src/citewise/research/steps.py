"""The steps of the loop that talk to a planner or writer (model or deterministic), and the final
report. Each model call is recorded before it is sent (with an estimate of its prompt) and after it
returns (with its usage), so a call cut off by a crash still counts in the budget and the cost."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from citewise.audit.events import (
    DraftMade,
    ModelCallEnded,
    ModelCallStarted,
    ModelRetried,
    RepairAsked,
    ReportMade,
)
from citewise.llm import ModelError, ModelRateLimited
from citewise.research import planner as planning
from citewise.research import prompts
from citewise.research import review as reviewing
from citewise.research import writer as writing
from citewise.research.budget import BudgetExhausted
from citewise.research.context import ResearchResult, ResearchRun
from citewise.research.records import CoverageReview, Draft, ReportStatus, ResearchPlan, StopReason
from citewise.research.report import render_report

__all__ = ["draft", "finish", "make_plan", "review"]

T = TypeVar("T")


def _model_call(run: ResearchRun, purpose: str, model: str, call: Callable[[], T]) -> T:
    """Make one model call, inside the token budget, with one bounded retry for transient failures
    (rate limit, server error, timeout); every call is recorded with its usage, failed ones too."""
    usage = run.state.usage
    if usage.tokens_exhausted():
        raise BudgetExhausted("tokens", usage.tokens, usage.budget.max_tokens or 0)
    try:
        return _recorded(run, purpose, model, call)
    except ModelError as exc:
        if not getattr(exc, "retryable", False) or usage.tokens_exhausted():
            raise
        wait = exc.retry_after if isinstance(exc, ModelRateLimited) and exc.retry_after is not None else 1.0
        run.record(ModelRetried(purpose, type(exc).__name__, min(wait, 5.0)))
        run.settings.sleep(min(wait, 5.0))
        return _recorded(run, purpose, model, call)


def estimated_prompt_tokens(run: ResearchRun) -> int:
    """A conservative estimate of a call's prompt tokens: every excerpt and the question, at two
    characters a token (Korean text runs close to one), plus the instructions."""
    chars = len(run.question) + sum(len(s.content) for s in run.state.collection.sources)
    return chars // 2 + 1500


def _recorded(run: ResearchRun, purpose: str, model: str, call: Callable[[], T]) -> T:
    client = run.settings.client
    seen = len(client.calls)
    run.record(ModelCallStarted(purpose, model, estimated_prompt_tokens(run)))
    try:
        return call()
    finally:
        if len(client.calls) == seen:  # failed before the client could record the call
            run.record(ModelCallEnded(purpose, model, None, "not_answered"))
        for record in client.calls[seen:]:
            usage = record.usage
            run.record(
                ModelCallEnded(
                    purpose=purpose,
                    requested_model=record.requested_model,
                    model=record.model,
                    outcome=record.outcome,
                    prompt_tokens=usage.prompt if usage else None,
                    completion_tokens=usage.completion if usage else None,
                    cached_tokens=usage.cached if usage else None,
                    latency_s=record.latency_s,
                )
            )


def make_plan(run: ResearchRun) -> ResearchPlan:
    """The checklist: from the planner model, or from the question's clauses without one.

    An invalid plan stops the run (PlanRejected): the goal is never silently changed.
    """
    if not run.settings.uses_models:
        return planning.plan_deterministic(run.question)
    model = run.settings.planner_model or ""
    return _model_call(run, "plan", model, lambda: planning.plan_with_model(run.settings.client, model, run.question))


def _tried(run: ResearchRun) -> tuple[str, ...]:
    return tuple(run.state.collection.tried_queries)


def _plan(run: ResearchRun) -> ResearchPlan:
    plan = run.state.plan
    assert plan is not None, "a step after planning ran without a plan"
    return plan


def review(run: ResearchRun, round_no: int) -> CoverageReview:
    """Coverage of every planned topic against the stored excerpts, quotes verified by citewise."""
    plan = _plan(run)
    sources = tuple(run.state.collection.sources)
    if not run.settings.uses_models:
        return reviewing.review_deterministic(run.question, plan, sources, round_no, tried_queries=_tried(run))
    model = run.settings.planner_model or ""
    return _model_call(
        run,
        "review",
        model,
        lambda: reviewing.review_with_model(
            run.settings.client, model, run.question, plan, sources, round_no, tried_queries=_tried(run)
        ),
    )


def draft(run: ResearchRun, round_no: int, coverage: CoverageReview) -> Draft:
    """This round's draft, from the writer model or the deterministic writer."""
    plan = _plan(run)
    sources = tuple(run.state.collection.sources)
    if not run.settings.uses_models:
        return writing.write_deterministic(run.question, plan, sources, coverage, round_no)
    model = run.settings.writer_model or ""
    return _model_call(
        run,
        "draft",
        model,
        lambda: writing.write_with_model(run.settings.client, model, run.question, plan, sources, coverage, round_no),
    )


def _final_draft(run: ResearchRun) -> tuple[Draft | None, list[str], list[str]]:
    """The last draft after URL stripping and citation validation, with one repair if needed."""
    state = run.state
    if not state.drafts:
        return None, ["no draft was composed"], []
    sources = tuple(state.collection.sources)
    checked = writing.check_draft(state.drafts[-1], sources)
    removed = list(checked.removed_urls)
    if checked.ok:
        return checked.draft, [], removed
    problems = list(checked.problems)
    plan = _plan(run)
    if run.settings.uses_models and not state.usage.tokens_exhausted():
        run.record(RepairAsked(tuple(problems)))
        model = run.settings.writer_model or ""
        repaired = _model_call(
            run,
            "repair",
            model,
            lambda: writing.repair_with_model(
                run.settings.client, model, run.question, plan, sources, state.reviews[-1], checked.draft, problems
            ),
        )
        again = writing.check_draft(repaired, sources)
        removed += list(again.removed_urls)
        if again.ok:
            run.record(DraftMade(again.draft))
            return again.draft, [], removed
        problems = list(again.problems)
    return None, problems, removed


def finish(run: ResearchRun, stop: StopReason) -> ResearchResult:
    """Assemble the report from citewise's own records and record what was delivered."""
    state = run.state
    if not state.collection.sources:
        # The stop reason stays the one that ended the loop (e.g. searches_exhausted): the status
        # already says there is no evidence.
        final: Draft | None = None
        problems: list[str] = ["no usable page content was obtained"]
        removed: list[str] = []
        status = ReportStatus.NO_EVIDENCE
    else:
        final, problems, removed = _final_draft(run)
        status = ReportStatus.REPORT if final is not None else ReportStatus.REJECTED
    markdown = render_report(run, final, status, stop, problems)
    all_problems = tuple(problems + [f"removed URL not from citewise's records: {u}" for u in removed])
    usage = run.usage_summary()
    uses_models = run.settings.uses_models
    run.record(
        ReportMade(
            status=status,
            stop_reason=stop,
            markdown=markdown,
            body=final.markdown if final is not None else None,
            problems=all_problems,
            usage=usage,
            path="model" if uses_models else "deterministic",
            planner=_plan(run).planner,
            writer=(run.settings.writer_model or "") if uses_models else "deterministic",
            prompt_versions=_prompt_versions() if uses_models else None,
            queries=tuple(sorted(state.collection.tried_queries)),
        )
    )
    return ResearchResult(
        run_id=run.run_id,
        question=run.question,
        status=status,
        stop_reason=stop,
        markdown=markdown,
        plan=_plan(run),
        sources=tuple(state.collection.sources),
        reviews=tuple(state.reviews),
        drafts=tuple(state.drafts),
        usage=usage,
        problems=all_problems,
        body=final.markdown if final is not None else None,
    )


def _prompt_versions() -> dict[str, str]:
    return {
        "plan": prompts.PLAN_PROMPT_VERSION,
        "review": prompts.REVIEW_PROMPT_VERSION,
        "write": prompts.WRITE_PROMPT_VERSION,
    }
