"""What happens when something fails around a search started ahead of its round
(citewise.research.ahead): a search answered 429 with Retry-After by the fake Tavily is retried by
its round inside the budget, after the wait it asked for, and the record says so; a plan call whose
stream breaks off part way (the fake model server drops the connection, or sends an error event)
after its first query's search started keeps that search's evidence, counts the broken call in the
budget by estimate, retries the plan once (recorded) without searching again, and when the retry
breaks too stops with a clear error the run can be resumed from. Real Tavily and OpenAI clients
against the shipped loopback fakes (tests.loop_harness)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from citewise.audit.events import (
    AttemptEnded,
    AttemptStarted,
    ModelCallEnded,
    ModelCallStarted,
    ModelRetried,
    PlanMade,
    RoundStarted,
    RunFailed,
)
from citewise.llm import ModelStreamBroken
from citewise.records.budget import Budget
from citewise.records.research import AttemptError, ModelPurpose, StopReason
from citewise.research.caching import cached_providers
from citewise.research.loop import research, resume
from citewise.testing.fake_openai import FakeError, FakeReply
from citewise.testing.fake_tavily import FakeTavilyError
from tests.loop_harness import QUESTION, Env, covered, draft_citing, payloads, two_pages
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name
from tests.test_research_search_ahead import ahead_starts, events, only_run, queries_first

pytestmark = pytest.mark.integration

QUERY = "rental deposit law"
LIMITED = FakeTavilyError(429, "Rate limit exceeded", headers={"retry-after": "2"})


def search_attempts(record: object) -> list[tuple[str, bool, str | None]]:
    """(event, ahead, error kind) of every search start and end, in record order."""
    out: list[tuple[str, bool, str | None]] = []
    for e in events(record):  # type: ignore[arg-type]
        if isinstance(e, AttemptStarted) and e.attempt_kind.value == "search":
            out.append(("start", e.ahead, None))
        elif isinstance(e, AttemptEnded) and e.attempt.kind.value == "search":
            out.append(("end", e.ahead, e.attempt.error_kind.value if e.attempt.error_kind else None))
    return out


def script_one_round(env: Env, *plans: object) -> None:
    env.brain.script("plan", *(plans or (queries_first(),)))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))


# -- a search ahead that is rate limited -----------------------------------------------------------


@pytest.mark.parametrize("cache", [False, True], ids=["no-cache", "cache"])
def test_a_rate_limited_search_ahead_is_retried_in_its_round_inside_the_budget(env: Env, cache: bool) -> None:
    a, b = two_pages(env)
    env.web.search_errors[QUERY] = [LIMITED]
    script_one_round(env)
    waits: list[float] = []
    options: dict[str, object] = {"sleep": waits.append}
    if cache:
        search, extractor = cached_providers(env.store, env.search, env.extract, timedelta(hours=1))
        options |= {"search": search, "extractor": extractor, "cache_ttl": timedelta(hours=1)}

    result = research(env.store, QUESTION, env.settings(**options))  # type: ignore[arg-type]

    assert result.status == "report" and [(s.url, s.round) for s in result.sources] == [(a, 1), (b, 1)]
    assert env.searched() == [QUERY, QUERY] and result.usage.searches == "2/8"  # the retry was counted
    assert waits == [2.0]  # the wait Tavily asked for
    record = env.record(result.run_id)
    # ahead: started and answered 429 before round 1; the round retried it (a new attempt, counted first)
    assert search_attempts(record) == [
        ("start", True, None),
        ("end", True, "rate_limited"),
        ("start", False, None),
        ("end", False, None),
    ]
    (limited,) = [e.attempt for e in record.of(AttemptEnded) if e.attempt.error_kind is AttemptError.RATE_LIMITED]
    assert limited.retry_after == 2.0 and limited.round == 1 and not limited.ok
    rows = events(record)
    round_1 = next(i for i, e in enumerate(rows) if isinstance(e, RoundStarted))
    retried = [i for i, e in enumerate(rows) if isinstance(e, AttemptStarted) and e.attempt_kind.value == "search"]
    assert retried[0] < round_1 < retried[1]
    # the round's result lists both attempts of the query: the one made ahead, then the retry
    attempts = [a for a in result_attempts(record) if a["kind"] == "search"]
    assert [(a["ok"], a["error_kind"]) for a in attempts] == [(False, "rate_limited"), (True, None)]


def result_attempts(record: object) -> list[dict[str, object]]:
    return [p["attempt"] for p in payloads(record, "attempt")]  # type: ignore[arg-type]


def test_a_rate_limited_search_ahead_with_no_search_left_is_not_retried(env: Env) -> None:
    two_pages(env)
    env.web.search_errors[QUERY] = [LIMITED]
    script_one_round(env)
    waits: list[float] = []

    result = research(env.store, QUESTION, env.settings(Budget(max_searches=1), sleep=waits.append))

    assert env.searched() == [QUERY] and result.usage.searches == "1/1" and waits == []
    assert result.sources == () and result.stop_reason is StopReason.SEARCHES_EXHAUSTED
    record = env.record(result.run_id)
    assert [p["stop"] for p in payloads(record, "collected")] == ["searches_exhausted"]
    assert search_attempts(record) == [("start", True, None), ("end", True, "rate_limited")]


# -- a plan whose stream breaks off after its first search started -----------------------------------

# The plan's reply names its query within its first 40 characters; the stream stops after them.
CUTS = {
    "dropped": FakeReply(queries_first(), cut_after=40),
    "error-event": FakeReply(
        queries_first(),
        cut_after=40,
        cut_error=FakeError(500, "The server had an error while processing your request.", "server_error"),
    ),
}


@pytest.mark.parametrize("cut", sorted(CUTS))
def test_a_plan_stream_broken_after_a_search_ahead_is_retried_once_without_searching_again(env: Env, cut: str) -> None:
    assert QUERY in queries_first()[:40]
    a, b = two_pages(env)
    script_one_round(env, CUTS[cut], queries_first())
    waits: list[float] = []

    result = research(env.store, QUESTION, env.settings(sleep=waits.append))

    assert result.status == "report" and [(s.url, s.round) for s in result.sources] == [(a, 1), (b, 1)]
    assert len(env.brain.calls("plan")) == 2  # the plan asked again, once
    assert env.searched() == [QUERY] and result.usage.searches == "1/8"  # its search not made again
    record = env.record(result.run_id)
    assert [s.target for s in ahead_starts(record)] == [QUERY]
    (retry,) = record.of(ModelRetried)
    assert (retry.purpose, retry.error) == (ModelPurpose.PLAN, "ModelStreamBroken") and waits == [retry.wait_s]
    # the broken call is counted by estimate: the prompt as admitted, the part of the reply received
    started = [e for e in record.of(ModelCallStarted) if e.purpose is ModelPurpose.PLAN]
    ended = [e for e in record.of(ModelCallEnded) if e.purpose is ModelPurpose.PLAN]
    assert [(e.outcome, e.estimated) for e in ended] == [("ModelStreamBroken", True), ("ok", False)]
    assert ended[0].prompt_tokens == started[0].estimated_prompt_tokens
    assert ended[0].completion_tokens is not None and 0 < ended[0].completion_tokens <= 40
    tokens = sum((e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in record.of(ModelCallEnded))
    assert result.usage.tokens == tokens
    # the search ahead started during the broken call and ended before round 1
    rows = events(record)
    assert rows.index(ahead_starts(record)[0]) < rows.index(ended[0]) < rows.index(retry)
    assert len(record.of(PlanMade)) == 1


def test_a_plan_stream_broken_twice_stops_with_a_clear_error_keeps_the_search_and_resumes(env: Env) -> None:
    a, b = two_pages(env)
    script_one_round(env, CUTS["dropped"], CUTS["dropped"], queries_first())

    with pytest.raises(ModelStreamBroken, match=r"broke off its streamed reply after \d+ characters"):
        research(env.store, QUESTION, env.settings())

    before = only_run(env)
    assert before.status == "failed" and not before.of(PlanMade)
    failed = before.last(RunFailed)
    assert failed is not None and failed.error == "ModelStreamBroken"
    assert "dropped the connection" in failed.message
    assert env.searched() == [QUERY]
    (end,) = [e for e in before.of(AttemptEnded) if e.attempt.kind.value == "search"]
    assert end.attempt.ok and end.search is not None and len(end.search.results) == 2  # the evidence is kept
    broken = [e for e in before.of(ModelCallEnded) if e.purpose is ModelPurpose.PLAN]
    assert [(e.outcome, e.estimated) for e in broken] == [("ModelStreamBroken", True)] * 2

    resumed = resume(env.store, before.run_id, env.settings())

    assert len(env.brain.calls("plan")) == 3 and env.searched() == [QUERY]  # planned again, not searched again
    assert resumed.status == "report" and resumed.usage.searches == "1/8"
    assert [(s.url, s.round) for s in resumed.sources] == [(a, 1), (b, 1)]
    after = env.record(resumed.run_id)
    spent = sum((e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in after.of(ModelCallEnded))
    assert resumed.usage.tokens == spent  # the broken calls stay counted after the resume
    assert payloads(after, "resume")[0]["interrupted_attempts"] == 0
