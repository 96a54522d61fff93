"""Searching while the plan streams in (citewise.research.ahead): each first query named whole by the
planner's streamed reply is searched at once, inside the search budget and on the record, and round 1
takes the recorded answer. Real clients against the loopback fakes of tests.loop_harness; a crash is
simulated by a progress callback that raises right after a chosen event was stored."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

import pytest

from citewise.audit.events import (
    AttemptEnded,
    AttemptStarted,
    Event,
    ModelCallEnded,
    ModelCallStarted,
    PlanMade,
    ReviewMade,
    RoundStarted,
)
from citewise.export.run import run_data
from citewise.export.view import event_summary
from citewise.llm import ModelReplyInvalid
from citewise.records.budget import Budget
from citewise.records.research import ModelPurpose, StopReason
from citewise.research.loop import research, resume
from citewise.research.planner import PlanRejected, validate_plan
from citewise.research.prompts import REVIEW_PROMPT_VERSION, REVIEW_V5
from citewise.research.state import ResearchState
from citewise.store.runs import RunRecord, RunStore
from citewise.testing.fake_openai import FakeReply
from tests.loop_harness import (
    QUESTION,
    TOPICS,
    Env,
    covered,
    draft_citing,
    failure_of,
    page,
    payloads,
    plan_reply,
    stages,
    two_pages,
    verdict,
)
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name

pytestmark = pytest.mark.integration


def queries_first(queries: tuple[str, ...] = ("rental deposit law",), topics: list[str] = TOPICS) -> str:
    """A plan reply in plan-v2's order: the queries before the topics."""
    return json.dumps({"queries": list(queries), "topics": topics})


def events(record: RunRecord) -> list[Event]:
    return [r.event for r in record.events]


def ahead_starts(record: RunRecord) -> list[AttemptStarted]:
    return [e for e in events(record) if isinstance(e, AttemptStarted) and e.ahead]


def index_of(record: RunRecord, kind: type[Event], purpose: ModelPurpose | None = None) -> int:
    return next(
        i
        for i, e in enumerate(events(record))
        if isinstance(e, kind) and (purpose is None or getattr(e, "purpose", None) is purpose)
    )


def only_run(env: Env) -> RunRecord:
    (run,) = RunStore(env.store).list()
    return env.record(run.run_id)


class CrashAfter:
    """A progress callback that raises once, right after the first event ``matches`` accepts was
    stored: the run stops there as if its process had died (nothing later is made)."""

    def __init__(self, matches: Any) -> None:
        self.matches, self.fired = matches, False

    def __call__(self, event: Event, state: ResearchState) -> None:
        if not self.fired and self.matches(event):
            self.fired = True
            raise RuntimeError("simulated crash")


def plan_call_ended(event: Event) -> bool:
    return isinstance(event, ModelCallEnded) and event.purpose is ModelPurpose.PLAN


# -- the plan's fields in either order ----------------------------------------------------------


def test_the_plan_validator_accepts_either_order() -> None:
    one = validate_plan({"queries": ["a b"], "topics": ["a?", "b?"]})
    other = validate_plan({"topics": ["a?", "b?"], "queries": ["a b"]})
    assert one == other == (("a?", "b?"), ("a b",))


@pytest.mark.parametrize("order", ["queries-first", "topics-first"])
def test_the_streamed_plan_starts_its_search_before_the_plan_is_recorded(env: Env, order: str) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", queries_first() if order == "queries-first" else plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    assert result.status == "report" and result.stop_reason is StopReason.COVERAGE_PASSED
    assert result.plan.topics == tuple(TOPICS) and result.plan.queries == ("rental deposit law",)
    # searched once, while the plan streamed in; round 1 used that answer (no second search)
    assert env.searched() == ["rental deposit law"] and result.usage.searches == "1/8"
    assert [(s.source_id, s.url, s.round) for s in result.sources] == [("S1", a, 1), ("S2", b, 1)]
    plan_request = next(r for r in env.model.requests if "You plan web research" in json.dumps(r.json))
    assert plan_request.json["stream"] is True
    assert plan_request.json["response_format"]["json_schema"]["schema"]["required"] == ["queries", "topics"]
    record = env.record(result.run_id)
    (start,) = ahead_starts(record)
    assert (start.target, start.round) == ("rental deposit law", 1)
    # the order on the record: the search started during the plan call, ended before round 1 started
    started = events(record).index(start)
    assert started < index_of(record, ModelCallEnded, ModelPurpose.PLAN) < index_of(record, PlanMade)
    ended = next(i for i, e in enumerate(events(record)) if isinstance(e, AttemptEnded) and e.search is not None)
    assert started < ended < index_of(record, RoundStarted)
    assert [p["queries"] for p in payloads(record, "round_start")] == [["rental deposit law"]]
    assert payloads(record, "attempt_start")[0]["ahead"] is True
    assert event_summary(start) == "search rental deposit law (ahead of its round, as a streamed reply named it)"
    exported = [e for e in run_data(record)["events"] if e["kind"] == "attempt_started"]
    assert [(e["target"], e["ahead"]) for e in exported][0] == ("rental deposit law", True)
    assert all(p["ahead"] is False for p in payloads(record, "attempt_start")[1:])  # the page reads


def test_a_search_ahead_is_counted_before_the_call_and_stays_inside_the_budget(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", queries_first(("rental deposit law", "deposit return deadline")))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run(budget=Budget(max_searches=1))

    # one search left: the first query took it while the plan streamed in; the second was not started
    assert env.searched() == ["rental deposit law"] and result.usage.searches == "1/1"
    record = env.record(result.run_id)
    assert [s.target for s in ahead_starts(record)] == ["rental deposit law"]
    assert [p["stop"] for p in payloads(record, "collected")] == ["searches_exhausted"]
    assert result.status == "report"  # the evidence of the one search is used


# -- an invalid plan after a search started ------------------------------------------------------


def test_an_invalid_plan_after_a_search_ahead_stops_the_run_and_keeps_the_search(env: Env) -> None:
    two_pages(env)
    # the queries are whole (and searched) before the reply turns out to repeat a topic
    env.brain.script("plan", queries_first(("rental deposit law", "Rental  deposit LAW"), ["a?", "A?"]))

    with pytest.raises(PlanRejected, match="topics repeats"):
        env.run()

    assert env.searched() == ["rental deposit law"]  # the repeated query (case, spacing) not searched again
    assert env.extracted() == []
    record = only_run(env)
    assert record.status == "failed" and failure_of(record) == "PlanRejected"
    assert not any(isinstance(e, PlanMade) for e in events(record))
    (start,) = ahead_starts(record)
    (end,) = [e for e in events(record) if isinstance(e, AttemptEnded)]
    assert end.attempt.ok and end.search is not None and len(end.search.results) == 2  # its answer is kept
    assert stages(record)[-1] == "failed" and index_of(record, AttemptEnded) < len(record.events) - 1
    assert payloads(record, "model_call")[0]["outcome"] == "ModelReplyInvalid"


# -- a crash between the search ahead and the plan, then resume ------------------------------------


def test_resume_after_a_crash_between_a_search_ahead_and_the_plan(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", queries_first())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, env.settings(), progress=CrashAfter(plan_call_ended))

    before = only_run(env)
    assert before.status == "failed" and not any(isinstance(e, PlanMade) for e in events(before))
    assert len(ahead_starts(before)) == 1 and any(isinstance(e, AttemptEnded) for e in events(before))
    assert env.searched() == ["rental deposit law"]

    resumed = resume(env.store, before.run_id, env.settings())

    # planned again (the plan was never recorded), but the search is not made again nor counted twice
    assert len(env.brain.calls("plan")) == 2
    assert env.searched() == ["rental deposit law"] and resumed.usage.searches == "1/8"
    assert resumed.status == "report"
    assert [(s.source_id, s.url, s.query) for s in resumed.sources] == [
        ("S1", a, "rental deposit law"),
        ("S2", b, "rental deposit law"),
    ]
    after = env.record(resumed.run_id)
    assert payloads(after, "resume")[0]["interrupted_attempts"] == 0
    assert len(ahead_starts(after)) == 1 and len(payloads(after, "plan")) == 1


class FailingSearch:
    """A search provider whose calls raise something that is not a provider's answer: the process is
    taken to die during the call, so its end is never recorded."""

    name = "tavily"

    def search(self, query: str) -> Any:
        raise RuntimeError("the process died during this search")


@pytest.mark.parametrize("searches", [8, 1])
def test_resume_after_a_crash_during_a_search_ahead_makes_it_again_inside_the_budget(env: Env, searches: int) -> None:
    two_pages(env)
    env.brain.script("plan", queries_first())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(
            env.store,
            QUESTION,
            env.settings(Budget(max_searches=searches), search=FailingSearch()),
            progress=CrashAfter(plan_call_ended),
        )
    before = only_run(env)
    assert len(ahead_starts(before)) == 1 and not any(isinstance(e, AttemptEnded) for e in events(before))

    resumed = resume(env.store, before.run_id, env.settings(Budget(max_searches=searches)))

    after = env.record(resumed.run_id)
    assert payloads(after, "resume")[0]["interrupted_attempts"] == 1
    (interrupted,) = payloads(after, "attempt_interrupted")
    assert (interrupted["target"], interrupted["round"]) == ("rental deposit law", 1)
    if searches == 8:  # budget left: searched again, the cut-off attempt stays spent
        assert env.searched() == ["rental deposit law"] and resumed.usage.searches == "2/8"
        assert resumed.status == "report" and len(resumed.sources) == 2
    else:  # none left: not searched again, the run stops on the search budget
        assert env.searched() == [] and resumed.usage.searches == "1/1"
        assert resumed.stop_reason is StopReason.SEARCHES_EXHAUSTED and resumed.sources == ()


# -- an endpoint that refuses to stream ----------------------------------------------------------


def test_an_endpoint_that_refuses_to_stream_gets_the_plan_unstreamed(env: Env) -> None:
    two_pages(env)
    env.model.enqueue_error(400, "stream is not supported for this model", param="stream")
    env.brain.script("plan", queries_first())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run()

    assert result.status == "report" and result.plan.queries == ("rental deposit law",)
    plans = [r.json for r in env.model.requests if "You plan web research" in json.dumps(r.json)]
    assert [p.get("stream", False) for p in plans] == [True, False]
    assert "response_format" in plans[1]  # the unstreamed request still asks for structured output
    # the whole reply arrives at once: the query is searched then, still once and before round 1
    assert env.searched() == ["rental deposit law"] and result.usage.searches == "1/8"
    record = env.record(result.run_id)
    assert len(ahead_starts(record)) == 1
    assert [p["outcome"] for p in payloads(record, "model_call")][:2] == ["ModelBadRequest", "ok"]


def test_without_search_ahead_the_plan_is_not_streamed(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", FakeReply(queries_first()))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    result = env.run(search_ahead=False)

    assert result.status == "report" and env.searched() == ["rental deposit law"]
    plan_request = next(r for r in env.model.requests if "You plan web research" in json.dumps(r.json))
    assert "stream" not in plan_request.json
    assert ahead_starts(env.record(result.run_id)) == []


def test_a_reply_that_is_not_json_starts_no_search(env: Env) -> None:
    env.brain.script("plan", 'queries: ["rental deposit law"]')
    with pytest.raises(PlanRejected) as caught:
        env.run()
    assert isinstance(caught.value.__cause__, ModelReplyInvalid)
    assert env.searched() == [] and ahead_starts(only_run(env)) == []


# -- the next round's search, from a streamed review's gap line -----------------------------------


def follow_up_run(env: Env) -> tuple[str, str, str]:
    """Round 1 finds topic 2 missing and asks for "deposit return deadline"; round 2 covers it."""
    a, b = two_pages(env)
    c = "https://late.example/deadline"
    env.web.hits["deposit return deadline"] = [c]
    env.web.pages[c] = page("late")
    env.brain.script("plan", queries_first())
    env.brain.script("review", lambda d: verdict(d, missing={1: "deposit return deadline"}), covered)
    env.brain.script("write", draft_citing("S1", "S3"))
    return a, b, c


def test_a_streamed_review_gap_line_starts_the_next_rounds_search(env: Env) -> None:
    a, b, c = follow_up_run(env)

    result = env.run()

    assert result.status == "report" and result.usage.rounds == "2/3"
    assert env.searched() == ["rental deposit law", "deposit return deadline"]  # each once
    assert result.usage.searches == "2/8"
    assert [(s.url, s.round) for s in result.sources] == [(a, 1), (b, 1), (c, 2)]
    record = env.record(result.run_id)
    assert [(s.target, s.round) for s in ahead_starts(record)] == [
        ("rental deposit law", 1),
        ("deposit return deadline", 2),
    ]
    # started while round 1's review streamed in, before the review was recorded
    follow = events(record).index(ahead_starts(record)[1])
    assert index_of(record, ModelCallStarted, ModelPurpose.REVIEW) < follow < index_of(record, ReviewMade)
    review_requests = [r.json for r in env.model.requests if "You review whether" in json.dumps(r.json)]
    assert all(r["stream"] is True for r in review_requests)
    assert [p["queries"] for p in payloads(record, "round_start")] == [
        ["rental deposit law"],
        ["deposit return deadline"],
    ]


REVIEW_TOKENS_PER_S = 20.0
"""How fast the reviewer of the next test writes: slow enough that the rest of its reply takes far
longer than a loopback search."""


@pytest.mark.parametrize("version", [REVIEW_PROMPT_VERSION, REVIEW_V5])
def test_a_review_that_names_its_gaps_first_searches_them_while_it_is_still_written(env: Env, version: str) -> None:
    follow_up_run(env)
    brain = env.model.responder
    assert brain is not None

    def paced(body: Any) -> Any:  # only the reviewer writes slowly; the others answer at once
        env.model.tokens_per_s = REVIEW_TOKENS_PER_S if "You review whether" in json.dumps(body) else None
        return brain(body)

    env.model.responder = paced
    result = env.run(budget=Budget(max_rounds=2), review_prompt=version)

    assert result.status == "report" and env.searched() == ["rental deposit law", "deposit return deadline"]
    record = env.record(result.run_id)
    rows = record.events
    started = next(i for i, r in enumerate(rows) if r.event == ahead_starts(record)[1])
    ended = next(
        i
        for i, r in enumerate(rows)
        if isinstance(r.event, AttemptEnded) and r.event.attempt.target == rows[started].event.target
    )
    review_start = index_of(record, ModelCallStarted, ModelPurpose.REVIEW)
    review_end = index_of(record, ModelCallEnded, ModelPurpose.REVIEW)
    reply = rows[review_end].event
    assert isinstance(reply, ModelCallEnded) and reply.completion_tokens
    writing_s = reply.completion_tokens / REVIEW_TOKENS_PER_S
    after_s = (rows[started].at - rows[review_start].at).total_seconds()
    if version == REVIEW_PROMPT_VERSION:
        # the gap line comes first: its search starts, and is answered, while the review is written
        assert review_start < started < ended < review_end < index_of(record, ReviewMade)
        assert after_s < writing_s * 0.9
    else:
        # review-v5 writes the topics in order, the gap line last: its search waits for the whole reply
        # (it still starts before the review is recorded, as the end of the stream hands over the line)
        assert review_start < started < ended and started < index_of(record, ReviewMade)
        assert after_s >= writing_s * 0.9


def test_no_search_ahead_for_a_round_that_cannot_come(env: Env) -> None:
    follow_up_run(env)
    env.brain.steps["write"] = deque([draft_citing("S1", "S2")])

    result = env.run(budget=Budget(max_rounds=1))

    assert result.stop_reason is StopReason.ROUNDS_EXHAUSTED
    assert env.searched() == ["rental deposit law"] and result.usage.searches == "1/8"
    assert [s.target for s in ahead_starts(env.record(result.run_id))] == ["rental deposit law"]


def test_resume_after_a_crash_between_a_gap_lines_search_and_the_review(env: Env) -> None:
    a, b, c = follow_up_run(env)

    def review_ended(event: Event) -> bool:
        return isinstance(event, ModelCallEnded) and event.purpose is ModelPurpose.REVIEW

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, env.settings(), progress=CrashAfter(review_ended))
    before = only_run(env)
    assert not any(isinstance(e, ReviewMade) for e in events(before))
    assert [s.target for s in ahead_starts(before)] == ["rental deposit law", "deposit return deadline"]

    env.brain.steps["review"] = deque([lambda d: verdict(d, missing={1: "deposit return deadline"}), covered])
    resumed = resume(env.store, before.run_id, env.settings())

    assert len(env.brain.calls("review")) == 3  # round 1's review asked again, then round 2's
    # the review asked again is not told that its follow-up, searched ahead, was tried
    assert "deposit return deadline" not in json.dumps(env.brain.calls("review")[1])
    assert env.searched() == ["rental deposit law", "deposit return deadline"]  # not searched again
    assert resumed.usage.searches == "2/8" and resumed.status == "report"
    assert [(s.url, s.round) for s in resumed.sources] == [(a, 1), (b, 1), (c, 2)]


def test_an_endpoint_that_refuses_to_stream_gets_reviews_unstreamed_and_still_searches_ahead(env: Env) -> None:
    a, b, c = follow_up_run(env)
    env.model.enqueue_error(400, "stream is not supported for this model", param="stream")

    result = env.run()

    assert result.status == "report" and [s.url for s in result.sources] == [a, b, c]
    review_requests = [r.json for r in env.model.requests if "You review whether" in json.dumps(r.json)]
    assert review_requests and all("stream" not in r for r in review_requests)  # not asked to stream again
    # the whole review arrives at once: its gap line's query is searched then, once, before round 2
    assert env.searched() == ["rental deposit law", "deposit return deadline"]
    assert [s.target for s in ahead_starts(env.record(result.run_id))][1:] == ["deposit return deadline"]
