"""The steps of the loop that talk to a planner or writer (model or deterministic), and the final
report. Model calls are recorded with their token usage as they happen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, TypeVar

from citewise.research import planner as planning
from citewise.research import review as reviewing
from citewise.research import writer as writing
from citewise.research.budget import BudgetExhausted
from citewise.research.records import CoverageReview, Draft, ResearchPlan, StopReason

if TYPE_CHECKING:
    from citewise.research.loop import ResearchResult, _Run

__all__ = ["draft", "finish", "make_plan", "review"]

T = TypeVar("T")


def _model_call(run: _Run, purpose: str, call: Callable[[], T]) -> T:
    """Make one model call, inside the token budget, with one bounded retry for transient failures
    (rate limit, server error, timeout); every call is recorded with its usage, failed ones too."""
    from citewise.llm import ModelError, ModelRateLimited

    assert run.usage is not None
    if run.usage.tokens_exhausted():
        budget = run.usage.budget.max_tokens or 0
        raise BudgetExhausted("tokens", run.usage.tokens, budget)
    try:
        return _recorded(run, purpose, call)
    except ModelError as exc:
        if not getattr(exc, "retryable", False) or run.usage.tokens_exhausted():
            raise
        wait = exc.retry_after if isinstance(exc, ModelRateLimited) and exc.retry_after is not None else 1.0
        run.record("model_retry", {"purpose": purpose, "error": type(exc).__name__, "wait_s": min(wait, 5.0)})
        run.settings.sleep(min(wait, 5.0))
        return _recorded(run, purpose, call)


def _recorded(run: _Run, purpose: str, call: Callable[[], T]) -> T:
    client = run.settings.client
    seen = len(client.calls)
    try:
        return call()
    finally:
        for record in client.calls[seen:]:
            usage = record.usage
            tokens = (usage.prompt + usage.completion) if usage else 0
            assert run.usage is not None
            run.usage.add_tokens(tokens)
            run.record(
                "model_call",
                {
                    "purpose": purpose,
                    "requested_model": record.requested_model,
                    "model": record.model,
                    "outcome": record.outcome,
                    "prompt_tokens": usage.prompt if usage else None,
                    "completion_tokens": usage.completion if usage else None,
                    "cached_tokens": usage.cached if usage else None,
                    "latency_s": record.latency_s,
                },
            )


def make_plan(run: _Run) -> ResearchPlan:
    """The checklist: from the planner model, or from the question's clauses without one.

    An invalid plan stops the run (PlanRejected): the goal is never silently changed.
    """
    if not run.settings.uses_models:
        return planning.plan_deterministic(run.question)
    model = run.settings.planner_model or ""
    return _model_call(run, "plan", lambda: planning.plan_with_model(run.settings.client, model, run.question))


def _tried(run: _Run) -> tuple[str, ...]:
    return tuple(run.state.tried_queries)


def review(run: _Run, round_no: int) -> CoverageReview:
    """Coverage of every planned topic against the stored excerpts, quotes verified by citewise."""
    plan = run.plan
    assert plan is not None
    sources = tuple(run.state.sources)
    if not run.settings.uses_models:
        return reviewing.review_deterministic(run.question, plan, sources, round_no, tried_queries=_tried(run))
    model = run.settings.planner_model or ""
    return _model_call(
        run,
        "review",
        lambda: reviewing.review_with_model(
            run.settings.client, model, run.question, plan, sources, round_no, tried_queries=_tried(run)
        ),
    )


def draft(run: _Run, round_no: int, coverage: CoverageReview) -> Draft:
    """This round's draft, from the writer model or the deterministic writer."""
    plan = run.plan
    assert plan is not None
    sources = tuple(run.state.sources)
    if not run.settings.uses_models:
        return writing.write_deterministic(run.question, plan, sources, coverage, round_no)
    model = run.settings.writer_model or ""
    return _model_call(
        run,
        "draft",
        lambda: writing.write_with_model(run.settings.client, model, run.question, plan, sources, coverage, round_no),
    )


def _final_draft(run: _Run) -> tuple[Draft | None, list[str], list[str]]:
    """The last draft after URL stripping and citation validation, with one repair if needed."""
    if not run.drafts:
        return None, ["no draft was composed"], []
    sources = tuple(run.state.sources)
    checked = writing.check_draft(run.drafts[-1], sources)
    removed = list(checked.removed_urls)
    if checked.ok:
        return checked.draft, [], removed
    problems = list(checked.problems)
    plan = run.plan
    assert plan is not None and run.usage is not None
    if run.settings.uses_models and not run.usage.tokens_exhausted():
        run.record("repair", {"problems": problems})
        model = run.settings.writer_model or ""
        repaired = _model_call(
            run,
            "repair",
            lambda: writing.repair_with_model(
                run.settings.client, model, run.question, plan, sources, run.reviews[-1], checked.draft, problems
            ),
        )
        again = writing.check_draft(repaired, sources)
        removed += list(again.removed_urls)
        if again.ok:
            run.drafts.append(again.draft)
            return again.draft, [], removed
        problems = list(again.problems)
    return None, problems, removed


def finish(run: _Run, stop: StopReason) -> ResearchResult:
    """Assemble the report from citewise's own records and close the run."""
    from citewise.research.loop import ResearchResult
    from citewise.research.report import render_report

    assert run.plan is not None and run.usage is not None
    if not run.state.sources:
        # The stop reason stays the one that ended the loop (e.g. searches_exhausted): the status
        # already says there is no evidence.
        final: Draft | None = None
        problems: list[str] = ["no usable page content was obtained"]
        removed: list[str] = []
        status = "no_evidence"
    else:
        final, problems, removed = _final_draft(run)
        status = "report" if final is not None else "rejected"
    markdown = render_report(run, final, status, stop, problems)
    usage = run.usage_summary()
    result = ResearchResult(
        run_id=run.run_id,
        question=run.question,
        status=status,
        stop_reason=stop,
        markdown=markdown,
        plan=run.plan,
        sources=tuple(run.state.sources),
        reviews=tuple(run.reviews),
        drafts=tuple(run.drafts),
        problems=tuple(problems + [f"removed URL not from citewise's records: {u}" for u in removed]),
        usage=usage,
        body=final.markdown if final is not None else None,
    )
    _close(run, result)
    return result


def _close(run: _Run, result: ResearchResult) -> None:
    sources: list[dict[str, Any]] = [{k: v for k, v in asdict(s).items() if k != "page_text"} for s in result.sources]
    run.runs.finish(
        run.run_id,
        outcome=result.status,
        retrieval={
            "stop_reason": result.stop_reason.value,
            "usage": result.usage,
            "queries": list(run.state.tried_queries),
            "sources": [s.source_id for s in result.sources],
        },
        answer={
            "path": "model" if run.settings.uses_models else "deterministic",
            "planner": result.plan.planner,
            "writer": run.settings.writer_model if run.settings.uses_models else "deterministic",
            "prompt_versions": _prompt_versions(run),
        },
        result={
            "markdown": result.markdown,
            "body": result.body,
            "status": result.status,
            "problems": list(result.problems),
            "sources": sources,
        },
    )


def _prompt_versions(run: _Run) -> dict[str, str] | None:
    if not run.settings.uses_models:
        return None
    from citewise.research import prompts

    return {
        "plan": prompts.PLAN_PROMPT_VERSION,
        "review": prompts.REVIEW_PROMPT_VERSION,
        "write": prompts.WRITE_PROMPT_VERSION,
    }
