"""Rebuilding a research run from its audit record, so it can continue after a crash.

Everything the run wrote is reused as it is: the plan (no re-planning), every attempt (their budget
stays spent), every source with its page text and excerpt, every review and draft. Queries already
searched and URLs already tried are never tried again. Pages found by a search whose extraction had
not started when the run stopped are not re-searched (that would repeat a recorded call).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from citewise.errors import InputError
from citewise.research.budget import BudgetUsage
from citewise.research.collect import attempt_from_payload, query_key, source_from_payload
from citewise.research.records import (
    AttemptKind,
    CoverageReview,
    CoverageStatus,
    Draft,
    Quote,
    ResearchPlan,
    TopicCoverage,
)
from citewise.store.runs import RunRecord

if TYPE_CHECKING:
    from citewise.research.loop import _Run

__all__ = ["restore"]


def _plan(data: Mapping[str, Any]) -> ResearchPlan:
    return ResearchPlan(tuple(data["topics"]), tuple(data["queries"]), data["planner"], data.get("prompt_version"))


def _review(data: Mapping[str, Any]) -> CoverageReview:
    items = tuple(
        TopicCoverage(
            topic=i["topic"],
            status=CoverageStatus(i["status"]),
            claimed_status=CoverageStatus(i["claimed_status"]),
            source_ids=tuple(i["source_ids"]),
            quotes=tuple(Quote(q["source_id"], q["text"], q["verified"]) for q in i["quotes"]),
            gap=i.get("gap"),
            follow_up=i.get("follow_up"),
        )
        for i in data["items"]
    )
    return CoverageReview(data["round"], items, data["reviewer"], tuple(data.get("problems") or ()))


def _draft(data: Mapping[str, Any]) -> Draft:
    return Draft(data["round"], data["markdown"], tuple(data["source_ids"]), data["writer"])


def restore(run: _Run, record: RunRecord) -> None:
    """Fill ``run`` from ``record``; refuse runs that are not research runs or already finished."""
    if record.kind != "research":
        raise InputError(f"run {record.run_id} is an {record.kind} run; only research runs can be resumed")
    if record.status == "finished":
        raise InputError(f"run {record.run_id} already finished ({record.outcome}); start a new run instead")
    run.question = record.question
    run.usage = BudgetUsage(run.settings.budget)
    interrupted: list[str] = []
    for event in record.events:
        _apply(run, event.stage, event.payload, interrupted)
    if run.plan is None:
        raise InputError(f"run {record.run_id} stopped before it had a plan; start a new run instead")
    run.state.next_source_number = len(run.state.sources) + 1
    run.pending_queries = _pending(run, interrupted)


def _apply(run: _Run, stage: str, payload: Mapping[str, Any], interrupted: list[str]) -> None:
    assert run.usage is not None
    if stage == "plan":
        run.plan = _plan(payload)
    elif stage == "round_start":
        run.usage.rounds += 1
        run.next_round = payload["round"] + 1
        interrupted[:] = list(payload["queries"])
    elif stage == "round_end":
        interrupted.clear()
    elif stage == "attempt":
        attempt = attempt_from_payload(payload["attempt"])
        run.state.attempts.append(attempt)
        if attempt.kind is AttemptKind.SEARCH:
            run.usage.searches += 1
            run.state.tried_queries.add(query_key(attempt.target))
        elif attempt.kind is AttemptKind.EXTRACT:
            run.usage.extractions += 1
            run.state.tried_urls.add(payload.get("normalized_url") or attempt.target)
    elif stage == "source":
        run.state.sources.append(source_from_payload(payload["source"]))
    elif stage == "review":
        run.reviews.append(_review(payload))
    elif stage == "draft":
        run.drafts.append(_draft(payload))
    elif stage == "model_call":
        run.usage.add_tokens((payload.get("prompt_tokens") or 0) + (payload.get("completion_tokens") or 0))


def _pending(run: _Run, interrupted: list[str]) -> list[str]:
    tried = run.state.tried_queries
    untried = [q for q in interrupted if query_key(q) not in tried]
    if untried:
        return untried
    follow = [i.follow_up for i in (run.reviews[-1].items if run.reviews else ()) if i.follow_up]
    follow = [q for q in follow if query_key(q) not in tried]
    if follow:
        return list(dict.fromkeys(follow))
    assert run.plan is not None
    return [q for q in run.plan.queries if query_key(q) not in tried]
