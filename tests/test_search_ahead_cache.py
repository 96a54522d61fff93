"""Searching ahead through the store's cache (citewise.research.ahead with a CachedSearch), as
``citewise research`` runs by default (cache on, 24 h): a query the streamed plan or review names is
looked up in the cache first; a fresh answer is recorded at once as a cache hit (no search budget,
no credits, its original retrieval time) and its round takes it without looking it up again; a miss
is searched ahead inside the budget and written to the cache. Real Tavily and OpenAI clients against
the shipped loopback fakes (tests.loop_harness), through the command line and through the loop."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.audit.events import AttemptEnded, AttemptStarted, Event, PlanMade, RoundStarted
from citewise.cli import app
from citewise.providers.cached import CachedSearch
from citewise.records.budget import Budget
from citewise.research.caching import cached_providers
from citewise.research.loop import research, resume
from citewise.store.cache import ProviderCache
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from tests.loop_harness import (
    MODEL_KEY,
    QUESTION,
    TAVILY_KEY,
    Env,
    covered,
    draft_citing,
    page,
    payloads,
    two_pages,
    verdict,
)
from tests.loop_harness import env as env  # noqa: F401 - the harness fixture, used by name
from tests.test_research_search_ahead import CrashAfter, ahead_starts, events, only_run, plan_call_ended, queries_first

pytestmark = pytest.mark.integration

HOUR = timedelta(hours=1)
FOLLOW_UP = "deposit return deadline"


def cached_settings(env: Env, budget: Budget | None = None, **options: object) -> object:
    search, extractor = cached_providers(env.store, env.search, env.extract, HOUR)
    return env.settings(budget, search=search, extractor=extractor, cache_ttl=HOUR, **options)


def hits_ahead(record: RunRecord) -> list[AttemptEnded]:
    """The cache hits recorded ahead of their rounds."""
    return [e for e in record.of(AttemptEnded) if e.ahead and e.attempt.cached]


def ends_ahead(record: RunRecord) -> list[AttemptEnded]:
    """The searches made ahead of their rounds (not from the cache), as ended."""
    return [e for e in record.of(AttemptEnded) if e.ahead and not e.attempt.cached]


def follow_up_web(env: Env) -> tuple[str, str, str]:
    """Round 1 ("rental deposit law", two pages) leaves topic 2 missing with a follow-up query; round
    2 covers it from the follow-up's page."""
    a, b = two_pages(env)
    c = "https://late.example/deadline"
    env.web.hits[FOLLOW_UP] = [c]
    env.web.pages[c] = page("late")
    return a, b, c


def script_two_rounds(env: Env) -> None:
    for steps in env.brain.steps.values():  # a run scripted afresh: nothing left from an earlier one
        steps.clear()
    env.brain.script("plan", queries_first())
    env.brain.script("review", lambda d: verdict(d, missing={1: FOLLOW_UP}), covered)
    env.brain.script("write", draft_citing("S1", "S3"))


# -- through the loop ----------------------------------------------------------------------------


def test_with_the_cache_on_a_miss_is_searched_ahead_inside_the_budget_and_cached(env: Env) -> None:
    a, b, c = follow_up_web(env)
    script_two_rounds(env)

    result = research(env.store, QUESTION, cached_settings(env))  # type: ignore[arg-type]

    assert result.status == "report" and [(s.url, s.round) for s in result.sources] == [(a, 1), (b, 1), (c, 2)]
    assert env.searched() == ["rental deposit law", FOLLOW_UP] and result.usage.searches == "2/8"
    record = env.record(result.run_id)
    # both started ahead (the plan's query, the review's follow-up), counted before the call
    assert [(s.target, s.round) for s in ahead_starts(record)] == [("rental deposit law", 1), (FOLLOW_UP, 2)]
    assert hits_ahead(record) == [] and not any(e.attempt.cached for e in record.of(AttemptEnded))
    assert [(e.attempt.target, e.attempt.round, e.attempt.ok) for e in ends_ahead(record)] == [
        ("rental deposit law", 1, True),
        (FOLLOW_UP, 2, True),
    ]
    # the answers were written to the cache: a lookup now finds them without a request
    lookup = CachedSearch(
        env.search, ProviderCache(env.store), ttl=HOUR, target_key=lambda q: " ".join(q.lower().split())
    )
    assert lookup.lookup("rental deposit law") is not None and lookup.lookup(FOLLOW_UP) is not None
    assert env.searched() == ["rental deposit law", FOLLOW_UP]


def test_a_cached_query_is_answered_ahead_without_budget_and_not_searched_again(env: Env) -> None:
    a, b, c = follow_up_web(env)
    script_two_rounds(env)
    first = research(env.store, QUESTION, cached_settings(env))  # type: ignore[arg-type]
    assert env.searched() == ["rental deposit law", FOLLOW_UP]
    script_two_rounds(env)

    again = research(env.store, QUESTION, cached_settings(env))  # type: ignore[arg-type]

    assert env.searched() == ["rental deposit law", FOLLOW_UP]  # no search request the second time
    assert again.usage.searches == "0/8" and again.status == "report"
    assert [(s.url, s.round) for s in again.sources] == [(a, 1), (b, 1), (c, 2)]
    record = env.record(again.run_id)
    hits = hits_ahead(record)
    assert [(h.attempt.target, h.attempt.round, h.attempt.cached) for h in hits] == [
        ("rental deposit law", 1, True),
        (FOLLOW_UP, 2, True),
    ]
    assert all(h.attempt.credits is None for h in hits)
    # no budget spent: no start event for a search, ahead or not
    assert not [e for e in record.of(AttemptStarted) if e.attempt_kind.value == "search"]
    # the hits keep the original retrieval time, and come before the round that takes them
    original = {e.attempt.target: e.search for e in env.record(first.run_id).of(AttemptEnded) if e.search}
    assert all(h.search is not None and h.search.retrieved_at == original[h.attempt.target].retrieved_at for h in hits)  # type: ignore[union-attr]
    rows = events(record)
    rounds = [i for i, e in enumerate(rows) if isinstance(e, RoundStarted)]
    assert rows.index(hits[0]) < rounds[0] and rounds[0] < rows.index(hits[1]) < rounds[1]
    # each query was looked up once: the round took the recorded hit instead of a second lookup
    searches = [e for e in record.of(AttemptEnded) if e.attempt.kind.value == "search"]
    assert len(searches) == 2


def test_a_cached_query_leaves_its_budget_to_the_next_query(env: Env) -> None:
    two_pages(env)
    env.web.hits["deposit return deadline"] = ["https://late.example/deadline"]
    env.web.pages["https://late.example/deadline"] = page("late")
    env.brain.script("plan", queries_first(("rental deposit law",)))
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))
    research(env.store, QUESTION, cached_settings(env))  # type: ignore[arg-type]  # caches the first query
    env.brain.steps["plan"].clear()
    env.brain.script("plan", queries_first(("rental deposit law", FOLLOW_UP)))

    result = research(env.store, QUESTION, cached_settings(env, Budget(max_searches=1)))  # type: ignore[arg-type]

    # the cached query took no search, so the one search left went to the new query, ahead of round 1
    assert env.searched() == ["rental deposit law", FOLLOW_UP] and result.usage.searches == "1/1"
    record = env.record(result.run_id)
    assert [h.attempt.target for h in hits_ahead(record)] == ["rental deposit law"]
    assert [s.target for s in ahead_starts(record)] == [FOLLOW_UP]
    assert [p["queries"] for p in payloads(record, "round_start")][0] == ["rental deposit law", FOLLOW_UP]


def test_resume_after_a_crash_between_a_cached_answer_ahead_and_the_plan(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", queries_first())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))
    research(env.store, QUESTION, cached_settings(env))  # type: ignore[arg-type]  # warms the cache
    assert env.searched() == ["rental deposit law"]

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, cached_settings(env), progress=CrashAfter(plan_call_ended))  # type: ignore[arg-type]
    crashed = [r for r in RunStore(env.store).list() if r.status == "failed"]
    (stopped,) = crashed
    before = env.record(stopped.run_id)
    assert not any(isinstance(e, PlanMade) for e in events(before)) and len(hits_ahead(before)) == 1
    # the cache is emptied: a resumed run must take the recorded hit, not look it up (nor search) again
    ProviderCache(env.store).clear()

    resumed = resume(env.store, stopped.run_id, cached_settings(env))  # type: ignore[arg-type]

    assert env.searched() == ["rental deposit law"] and resumed.usage.searches == "0/8"
    assert resumed.status == "report" and [(s.url, s.round) for s in resumed.sources] == [(a, 1), (b, 1)]
    after = env.record(resumed.run_id)
    assert len(hits_ahead(after)) == 1 and ahead_starts(after) == []
    assert payloads(after, "resume")[0]["interrupted_attempts"] == 0


def test_resume_after_a_crash_between_a_cached_search_ahead_and_the_plan_repeats_nothing(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", queries_first())
    env.brain.script("review", covered)
    env.brain.script("write", draft_citing("S1", "S2"))

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, cached_settings(env), progress=CrashAfter(plan_call_ended))  # type: ignore[arg-type]
    before = only_run(env)
    assert len(ahead_starts(before)) == 1 and hits_ahead(before) == []

    resumed = resume(env.store, before.run_id, cached_settings(env))  # type: ignore[arg-type]

    # the search made ahead (a miss, then cached) is taken from the record: not searched nor looked up again
    assert env.searched() == ["rental deposit law"] and resumed.usage.searches == "1/8"
    after = env.record(resumed.run_id)
    assert hits_ahead(after) == [] and not any(e.attempt.cached for e in after.of(AttemptEnded))
    assert [(s.url, s.round) for s in resumed.sources] == [(a, 1), (b, 1)]


# -- through the command line (cache on by default) ------------------------------------------------


def cli_env(env: Env, monkeypatch: pytest.MonkeyPatch, store: Path) -> None:
    for name, value in {
        "CITEWISE_STORE": str(store),
        "TAVILY_API_KEY": TAVILY_KEY,
        "CITEWISE_TAVILY_BASE_URL": env.tavily.base_url,
        "CITEWISE_LLM_API_KEY": MODEL_KEY,
        "CITEWISE_LLM_BASE_URL": env.model.base_url,
        "PLANNER_MODEL": "gpt-4o-mini",
        "WRITER_MODEL": "gpt-4o-mini",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("COMETAPI_KEY", raising=False)
    monkeypatch.delenv("CITEWISE_CACHE_TTL", raising=False)


def cli_run(store: Path, *flags: str) -> tuple[dict[str, object], RunRecord]:
    result = CliRunner().invoke(app, ["research", QUESTION, "--json", *flags])
    # delivered (accepted or not: the scripted draft's verdict is not what these tests are about)
    assert result.exit_code in (0, 3) and json.loads(result.stdout)["status"] == "report", result.output
    with EvidenceStore.open(str(store)) as opened:
        runs = RunStore(opened).list()
        newest = max(runs, key=lambda r: r.created_at)
        return dict(json.loads(result.stdout)), RunStore(opened).get(newest.run_id)


def search_events(record: RunRecord) -> list[Event]:
    return [
        e
        for e in events(record)
        if isinstance(e, AttemptStarted | AttemptEnded)
        and (e.attempt_kind if isinstance(e, AttemptStarted) else e.attempt.kind).value == "search"
    ]


def test_the_default_command_searches_ahead_through_the_cache(
    env: Env, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    store = tmp_path / "cli.sqlite"
    cli_env(env, monkeypatch, store)
    follow_up_web(env)
    script_two_rounds(env)

    shown, record = cli_run(store)

    assert [(s.target, s.round) for s in ahead_starts(record)] == [("rental deposit law", 1), (FOLLOW_UP, 2)]
    assert env.searched() == ["rental deposit law", FOLLOW_UP]
    assert shown["usage"]["searches"] == "2/8"  # type: ignore[index]
    plan_request = next(r for r in env.model.requests if "You plan web research" in json.dumps(r.json))
    assert plan_request.json["stream"] is True
    with EvidenceStore.open(str(store)) as opened:  # the cache is on by default: both answers written
        groups = {(g.provider, g.kind): g.entries for g in ProviderCache(opened).stats().groups}
    assert groups[("tavily", "search")] == 2

    script_two_rounds(env)
    warm, again = cli_run(store)

    # the same question again: both queries answered from the cache ahead of their rounds, nothing searched
    assert env.searched() == ["rental deposit law", FOLLOW_UP]
    assert warm["usage"]["searches"] == "0/8"  # type: ignore[index]
    assert [(h.attempt.target, h.attempt.round) for h in hits_ahead(again)] == [
        ("rental deposit law", 1),
        (FOLLOW_UP, 2),
    ]
    assert all(isinstance(e, AttemptEnded) and e.attempt.cached for e in search_events(again))


def test_no_search_ahead_searches_each_query_in_its_round(
    env: Env, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    store = tmp_path / "cli.sqlite"
    cli_env(env, monkeypatch, store)
    a, b, c = follow_up_web(env)
    script_two_rounds(env)

    shown, record = cli_run(store, "--no-search-ahead")

    assert ahead_starts(record) == [] and hits_ahead(record) == []
    assert env.searched() == ["rental deposit law", FOLLOW_UP] and shown["usage"]["searches"] == "2/8"  # type: ignore[index]
    rows = events(record)
    rounds = [i for i, e in enumerate(rows) if isinstance(e, RoundStarted)]
    starts = [i for i, e in enumerate(rows) if isinstance(e, AttemptStarted) and e.attempt_kind.value == "search"]
    assert starts[0] > rounds[0] and starts[1] > rounds[1]  # each searched after its round started
    planned = [r.json for r in env.model.requests if "You plan web research" in json.dumps(r.json)]
    assert planned and all("stream" not in r for r in planned)  # nothing to search as it streams
