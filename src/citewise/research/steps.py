"""The steps of the loop that talk to a planner or writer (model or deterministic), and the final
report. Each model call is checked against the token and money caps and recorded just before it is
sent (with a high estimate of its prompt and the reply cap it is sent with) and after it returns
(with its usage), so a run never ends above a cap and a call cut off by a crash still counts in the
budget and the cost."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from citewise.audit.events import (
    DraftMade,
    ModelCallEnded,
    ModelCallStarted,
    ModelRetried,
    RepairAsked,
    ReportMade,
    UsageSummary,
    Verified,
)
from citewise.llm import (
    CallRecord,
    ModelError,
    ModelRateLimited,
    ModelReplyInvalid,
    ModelTruncated,
    PendingRequest,
    TokenUsage,
)
from citewise.records.budget import BudgetExhausted
from citewise.records.research import CoverageReview, Draft, ModelPurpose, ReportStatus, ResearchPlan, StopReason
from citewise.research import ahead, prompts
from citewise.research import planner as planning
from citewise.research import review as reviewing
from citewise.research import writer as writing
from citewise.research.context import ResearchResult, ResearchRun
from citewise.research.deliver import Delivered, check_as_written, deliver_report
from citewise.research.report import render_report
from citewise.research.revise import REVISE_PROMPT_VERSION
from citewise.research.sites import site_figures
from citewise.retry import TRANSIENT

__all__ = ["draft", "finish", "make_plan", "review"]

T = TypeVar("T")


def _model_call(run: ResearchRun, purpose: ModelPurpose, model: str, call: Callable[[], T]) -> T:
    """Make one model call inside the budget, with one bounded retry for transient failures (rate
    limit, server error, timeout); every call is recorded with its usage, failed ones too.

    The token and money caps are checked just before each request goes out (:class:`_Admission`),
    with a high estimate of the request: a call that would cross a cap is not made
    (:class:`BudgetExhausted`), and one that fits only with a smaller reply cap is sent with it."""
    usage = run.state.usage
    if usage.tokens_exhausted():
        raise BudgetExhausted("tokens", usage.tokens, usage.budget.max_tokens or 0)

    def retryable(exc: Exception) -> bool:
        return isinstance(exc, ModelError) and getattr(exc, "retryable", False) and not usage.tokens_exhausted()

    return TRANSIENT.call(
        lambda: _recorded(run, purpose, model, call),
        retryable=retryable,
        asked=lambda exc: exc.retry_after if isinstance(exc, ModelRateLimited) else None,
        sleep=run.settings.sleep,
        before_retry=lambda exc, wait: run.record(ModelRetried(purpose, type(exc).__name__, wait)),
    )


@dataclass
class _Admission:
    """Before each request of one model call: check the caps (:meth:`BudgetUsage.admit
    <citewise.records.budget.BudgetUsage.admit>`) with the request's estimated prompt and reply cap,
    lower the reply cap to what they leave, and record the call's start."""

    run: ResearchRun
    purpose: ModelPurpose
    lowered_by: str | None = None
    """``tokens`` or ``cost`` when a cap lowered the reply cap of the last request."""
    sent: int = 0
    """Requests let through."""
    estimates: list[int] = field(default_factory=list)
    """The estimated prompt tokens of each request let through, in order."""

    def __call__(self, request: PendingRequest) -> int:
        estimate = request.estimated_prompt_tokens
        admitted = self.run.state.usage.admit(
            request.model,
            prompt_tokens=estimate,
            max_reply=request.max_completion_tokens,
            prices=self.run.settings.prices,
        )
        self.lowered_by = admitted.limited_by
        self.run.record(ModelCallStarted(self.purpose, request.model, estimate, admitted.max_reply))
        self.sent += 1
        self.estimates.append(estimate)
        return admitted.max_reply


def _recorded(run: ResearchRun, purpose: ModelPurpose, model: str, call: Callable[[], T]) -> T:
    admission = _Admission(run, purpose)
    try:
        return _sent(run, purpose, model, call, admission)
    except Exception as exc:
        # A reply cut off at a cap-lowered reply cap used what the cap left: the cap is reached.
        if admission.lowered_by is not None and _cut_off(exc):
            raise _cap_reached(run, admission.lowered_by) from exc
        raise


def _sent(run: ResearchRun, purpose: ModelPurpose, model: str, call: Callable[[], T], admission: _Admission) -> T:
    client = run.settings.chat
    with client.collecting() as records:
        try:
            with client.admitting(admission):
                return call()
        finally:
            _ended(run, purpose, model, admission, records)


def _ended(
    run: ResearchRun, purpose: ModelPurpose, model: str, admission: _Admission, records: list[CallRecord]
) -> None:
    """Record the end of every request of one model call (this thread's), failed ones too. A
    streamed reply broken off without usage is counted by estimate (:attr:`ModelCallEnded.estimated
    <citewise.audit.events.ModelCallEnded.estimated>`): the prompt as admitted, the output received."""
    for _ in range(admission.sent - len(records)):  # let through, but failed before the client recorded it
        run.record(ModelCallEnded(purpose, model, None, "not_answered"))
    for i, record in enumerate(records):
        usage = record.usage
        if usage is None and record.received_tokens is not None and i < len(admission.estimates):
            usage, estimated = TokenUsage(admission.estimates[i], record.received_tokens), True
        else:
            estimated = False
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
                estimated=estimated,
            )
        )


def _cut_off(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it was raised from) is a reply cut off at its reply cap."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ModelTruncated):
            return True
        seen = seen.__cause__
    return False


def _cap_reached(run: ResearchRun, kind: str) -> BudgetExhausted:
    usage, budget = run.state.usage, run.state.usage.budget
    if kind == "cost" and run.settings.prices is not None:
        return BudgetExhausted("cost", usage.spent_usd(run.settings.prices), Decimal(str(budget.max_cost_usd)))
    return BudgetExhausted("tokens", usage.tokens, budget.max_tokens or 0)


def make_plan(run: ResearchRun) -> ResearchPlan:
    """The checklist: from the planner model, or from the question's clauses without one.

    An invalid plan stops the run (PlanRejected): the goal is never silently changed. With a model,
    each first query's search starts as soon as the streamed reply names it (:mod:`citewise.research.ahead`).
    """
    if not run.settings.uses_models:
        return planning.plan_deterministic(run.question)
    model = run.settings.planner_model or ""
    on_query = ahead.starter(run, 1)
    return _model_call(
        run,
        ModelPurpose.PLAN,
        model,
        lambda: planning.plan_with_model(run.settings.chat, model, run.question, on_query=on_query),
    )


def _tried(run: ResearchRun) -> tuple[str, ...]:
    """The queries a review is told were tried: not those searched ahead for a round still to come
    (a review asked again after a crash must not take its own follow-up for one already used)."""
    collection = run.state.collection
    return tuple(q for q in collection.tried_queries if q not in collection.ahead)


def _plan(run: ResearchRun) -> ResearchPlan:
    plan = run.state.plan
    assert plan is not None, "a step after planning ran without a plan"
    return plan


def review(run: ResearchRun, round_no: int) -> CoverageReview:
    """Coverage of every planned topic against the stored excerpts, quotes verified by citewise; a
    reply not shaped like a review is asked for once more (recorded as a retry, counted in the budget)."""
    plan = _plan(run)
    sources = tuple(run.state.collection.sources)
    if not run.settings.uses_models:
        return reviewing.review_deterministic(run.question, plan, sources, round_no, tried_queries=_tried(run))
    model = run.settings.planner_model or ""
    on_line = ahead.gap_starter(run, round_no)

    def once() -> CoverageReview:
        return _model_call(
            run,
            ModelPurpose.REVIEW,
            model,
            lambda: reviewing.review_with_model(
                run.settings.chat,
                model,
                run.question,
                plan,
                sources,
                round_no,
                tried_queries=_tried(run),
                prompt_version=run.settings.review_prompt,
                on_line=on_line,
            ),
        )

    try:
        return once()
    except reviewing.ReviewRejected as exc:
        # A reply not shaped like a review (prose instead of topic lines, broken JSON) is asked for
        # once more, inside the budget and on the record; a reply cut off at its token cap would be
        # cut off again, and a second unusable reply fails the run (it can be resumed).
        if not isinstance(exc.__cause__, ModelReplyInvalid) or run.state.usage.tokens_exhausted():
            raise
        run.record(ModelRetried(ModelPurpose.REVIEW, type(exc.__cause__).__name__, 0.0))
        return once()


def draft(
    run: ResearchRun, round_no: int, coverage: CoverageReview, purpose: ModelPurpose = ModelPurpose.DRAFT
) -> Draft:
    """This round's draft, from the writer model or the deterministic writer, written from
    ``coverage`` (the round's review; for a speculative draft, the review before it)."""
    plan = _plan(run)
    sources = tuple(run.state.collection.sources)
    if not run.settings.uses_models:
        return writing.write_deterministic(run.question, plan, sources, coverage, round_no)
    model = run.settings.writer_model or ""
    on_line = check_as_written(run, sources) if run.settings.stream else None
    return _model_call(
        run,
        purpose,
        model,
        lambda: writing.write_with_model(
            run.settings.chat, model, run.question, plan, sources, coverage, round_no, on_line=on_line
        ),
    )


def _final_draft(run: ResearchRun) -> tuple[Draft | None, list[str], list[str]]:
    """The last draft after URL stripping and citation validation, with one repair if needed; the
    draft comes back even when its citations still fail (delivery salvages what it can)."""
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
        try:
            repaired = _model_call(
                run,
                ModelPurpose.REPAIR,
                model,
                lambda: writing.repair_with_model(
                    run.settings.chat, model, run.question, plan, sources, state.reviews[-1], checked.draft, problems
                ),
            )
        except BudgetExhausted as exhausted:  # the repair would cross a cap: not made
            return checked.draft, [*problems, f"citations not repaired: {exhausted}"], removed
        again = writing.check_draft(repaired, sources)
        removed += list(again.removed_urls)
        run.record(DraftMade(again.draft))
        return again.draft, list(again.problems), removed
    return checked.draft, problems, removed


def finish(run: ResearchRun, stop: StopReason, notes: Sequence[str] = ()) -> ResearchResult:
    """Deliver the report — salvaged, verified and revised once (:mod:`citewise.research.deliver`) —
    from citewise's own records, and record what was delivered. ``notes`` (a native engine's
    citation checks) are shown with the gaps and recorded with the problems."""
    state = run.state
    removed_urls: list[str] = []
    problems: list[str] = []
    if not state.collection.sources:
        # The stop reason stays the one that ended the loop (e.g. searches_exhausted): the status
        # already says there is no evidence.
        delivered = Delivered(ReportStatus.NO_EVIDENCE, None, None)
        problems = ["no usable page content was obtained"]
    else:
        final, problems, removed_urls = _final_draft(run)
        delivered = deliver_report(run, final, _model_call)
        if delivered.status is ReportStatus.NO_EVIDENCE:
            problems = [*problems, "no verified quote exists to compose a report from"]
        elif delivered.status is ReportStatus.NO_VERIFIED_FINDING:
            problems = [*problems, "no claim survived verification, so no report was delivered"]
    markdown = render_report(run, delivered, stop, problems, notes)
    all_problems = tuple(
        problems + [f"removed URL not from citewise's records: {u}" for u in removed_urls] + list(notes)
    )
    usage = run.usage_summary()
    verification = delivered.delivery
    run.record(_report_made(run, delivered, stop, markdown, all_problems, usage))
    if verification is not None:
        run.record(
            Verified(
                verification.acceptance.verifier_version,
                verification.entries,
                verification.conflicts,
                verification.acceptance,
            )
        )
    return ResearchResult(
        run_id=run.run_id,
        question=run.question,
        status=delivered.status,
        stop_reason=stop,
        markdown=markdown,
        plan=_plan(run),
        sources=tuple(state.collection.sources),
        reviews=tuple(state.reviews),
        drafts=tuple(state.drafts),
        usage=usage,
        problems=all_problems,
        body=delivered.body,
        acceptance=verification.acceptance if verification is not None else None,
        removed=delivered.removed,
    )


def _report_made(
    run: ResearchRun,
    delivered: Delivered,
    stop: StopReason,
    markdown: str,
    problems: tuple[str, ...],
    usage: UsageSummary,
) -> ReportMade:
    """What the run delivered, with which path wrote it."""
    uses_models = run.settings.uses_models
    verification = delivered.delivery
    if run.settings.engine and not delivered.salvaged:
        path, writer = "engine", run.settings.engine
    else:
        path = "deterministic" if (delivered.salvaged or not uses_models) else "model"
        writer = (run.settings.writer_model or "") if uses_models and not delivered.salvaged else "deterministic"
    return ReportMade(
        status=delivered.status,
        stop_reason=stop,
        markdown=markdown,
        body=delivered.body,
        problems=problems,
        usage=usage,
        path=path,
        planner=_plan(run).planner,
        writer=writer,
        prompt_versions=_prompt_versions(run.settings.review_prompt) if uses_models else None,
        queries=tuple(sorted(run.state.collection.tried_queries)),
        verified=verification is not None,
        removed=delivered.removed,
        marked=verification.marked if verification is not None else (),
        sites=site_figures(run.state.collection.sources, run.settings.sites),
        salvaged=delivered.salvaged,
    )


def _prompt_versions(review: str) -> dict[str, str]:
    return {
        "plan": prompts.PLAN_PROMPT_VERSION,
        "review": review,
        "write": prompts.WRITE_PROMPT_VERSION,
        "revise": REVISE_PROMPT_VERSION,
    }
