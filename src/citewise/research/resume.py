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
    StopReason,
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
    replay = _Replay()
    for event in record.events:
        _apply(run, event.stage, event.payload, replay)
    if run.plan is None:
        raise InputError(f"run {record.run_id} stopped before it had a plan; start a new run instead")
    _interrupted_attempts(run, replay)
    run.state.next_source_number = len(run.state.sources) + 1
    run.pending_queries = _pending(run, replay.round_queries)
    if replay.round is not None and not replay.ended:
        run.resume_point = (replay.round, _phase(run, replay), replay.collect_stop)


class _Replay:
    """What the events say about the round the run stopped in."""

    def __init__(self) -> None:
        self.round: int | None = None
        self.round_queries: list[str] = []
        self.ended = True
        self.collected = False
        self.collect_stop: StopReason | None = None
        self.started: dict[tuple[str, str], dict[str, Any]] = {}


def _phase(run: _Run, replay: _Replay) -> str:
    if not replay.collected:
        return "collect"
    if run.drafts and run.drafts[-1].round == replay.round:
        return "end"
    if run.reviews and run.reviews[-1].round == replay.round:
        return "draft"
    return "review"


def _interrupted_attempts(run: _Run, replay: _Replay) -> None:
    # A call whose budget was spent but whose answer never got recorded (the process died during
    # it) stays spent and tried, and is shown as an interrupted attempt.
    from datetime import UTC, datetime

    from citewise.research.records import Attempt

    for (kind, target), start in replay.started.items():
        run.state.attempts.append(
            Attempt(
                AttemptKind(kind),
                target,
                start["round"],
                False,
                datetime.now(UTC),
                "interrupted",
                "the run stopped during this call; its result was not recorded",
            )
        )


_BUDGET = {"search": "searches", "extract": "extractions"}


def _apply(run: _Run, stage: str, payload: Mapping[str, Any], replay: _Replay) -> None:
    assert run.usage is not None
    if stage == "plan":
        run.plan = _plan(payload)
    elif stage == "round_start":
        run.usage.rounds += 1
        run.next_round = payload["round"] + 1
        replay.round, replay.round_queries = payload["round"], list(payload["queries"])
        replay.ended, replay.collected, replay.collect_stop = False, False, None
    elif stage == "collected":
        replay.collected = True
        replay.collect_stop = StopReason(payload["stop"]) if payload.get("stop") else None
    elif stage == "round_end":
        replay.ended = True
        replay.round_queries = []
    elif stage == "attempt_start":
        _count(run, payload["kind"], payload["target"], payload.get("normalized_url"))
        replay.started[(payload["kind"], payload["target"])] = dict(payload)
    elif stage == "attempt":
        attempt = attempt_from_payload(payload["attempt"])
        run.state.attempts.append(attempt)
        if replay.started.pop((attempt.kind.value, attempt.target), None) is None:
            _count(run, attempt.kind.value, attempt.target, payload.get("normalized_url"))
    elif stage == "source":
        run.state.sources.append(source_from_payload(payload["source"]))
    elif stage == "review":
        run.reviews.append(_review(payload))
    elif stage == "draft":
        run.drafts.append(_draft(payload))
    elif stage == "model_call":
        run.usage.add_tokens((payload.get("prompt_tokens") or 0) + (payload.get("completion_tokens") or 0))


def _count(run: _Run, kind: str, target: str, normalized_url: str | None) -> None:
    assert run.usage is not None
    if kind not in _BUDGET:
        return
    setattr(run.usage, _BUDGET[kind], getattr(run.usage, _BUDGET[kind]) + 1)
    if kind == "search":
        run.state.tried_queries.add(query_key(target))
    else:
        run.state.tried_urls.add(normalized_url or target)


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
