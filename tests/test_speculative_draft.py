"""A speculative draft: from round 2 on, the writer starts while the round's review runs
when the budget allows; the draft is kept when the loop stops on the coverage it was written from,
and dropped — recorded, its tokens counted — when the review asks for more searching or changes the
coverage. Real Tavily and OpenAI clients against the shipped loopback fakes."""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import replace
from typing import Any

import pytest

from citewise.audit.events import (
    AttemptEnded,
    DraftDropped,
    DraftMade,
    DropReason,
    ModelCallEnded,
    ModelCallInterrupted,
    ModelCallStarted,
    ReportMade,
    RoundStarted,
    RunConfigured,
    encode,
)
from citewise.export.run import export_run, run_data
from citewise.records.budget import Budget
from citewise.records.runs import RunKind
from citewise.research.loop import research, resume
from citewise.research.prompts import REVIEW_V4_SYSTEM_PROMPT
from citewise.research.resume import restore
from citewise.store.runs import RunStatus, RunStore
from citewise.testing.fake_openai import FakeError
from tests import test_research_loop as loop
from tests.loop_harness import QUESTION, Env, covered, draft_citing, page, plan_reply, two_pages, verdict

pytestmark = pytest.mark.integration

env = loop.env


def _follow_ups(env: Env, *queries: str) -> None:
    """Pages for each follow-up query, and a reviewer that asks for them one after the other."""
    for n, query in enumerate(queries, 1):
        url = f"https://more.example/{n}"
        env.web.hits[query] = [url]
        env.web.pages[url] = page(f"more {n}")
    asked = iter(queries)
    env.brain.script("review", lambda d: verdict(d, missing={1: next(asked, "nothing new")}))


def _purposes(env: Env, run_id: str) -> list[str]:
    return [e.purpose.value for e in env.record(run_id).of(ModelCallEnded)]


def test_a_draft_written_while_the_review_asks_for_more_searching_is_dropped_and_counted(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline", "deposit return court")
    env.brain.script("write", draft_citing("S1"))

    result = env.run(budget=Budget(max_rounds=3))

    record = env.record(result.run_id)
    dropped, written = record.of(DraftDropped)
    # dropped at once without waiting for its call (no cap), so first without its text; once its
    # call has answered and the loop waited for it, again with the text the writer gave
    assert dropped.round == 2 and dropped.reason is DropReason.MORE_SEARCHING and dropped.draft is None
    assert (written.round, written.reason) == (2, DropReason.MORE_SEARCHING) and written.draft is not None
    assert "Deposits are protected here" in written.draft.markdown
    # round 1 asks for more searching and is not drafted; round 2's draft is dropped and not written
    # again; round 3's, written beside its review, is kept as the report's draft
    assert [d.round for d in result.drafts] == [3]
    assert _purposes(env, result.run_id).count("speculative_draft") == 2
    assert _purposes(env, result.run_id).count("draft") == 0
    # every call's tokens are in the budget, the dropped draft's too
    ends = record.of(ModelCallEnded)
    assert result.usage.tokens == sum((e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in ends)
    assert result.status == "report"
    # the export carries the dropped draft with its reason, and the HTML view renders the run
    exported = run_data(record)
    assert {"round": 2, "reason": "more_searching"}.items() <= _dropped(exported).items()
    with_text = [e for e in exported["events"] if e.get("kind") == "draft_dropped" and e.get("draft")]
    assert [(e["round"], e["reason"]) for e in with_text] == [(2, "more_searching")]
    assert "Deposits are protected here" in with_text[0]["draft"]["markdown"]
    assert "Deposits are protected here" in export_run(record, "html")
    timeline = export_run(record, "html").split('<h2 id="timeline">', 1)[1]
    assert "round 2 draft dropped (more_searching): text not recorded" in timeline
    assert "round 2 draft dropped (more_searching): ## Topic 1 Deposits are protected here [S1]." in timeline


def _dropped(exported: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in exported["events"] if e.get("kind") == "draft_dropped")


def test_a_review_that_changes_the_coverage_drops_the_draft_and_the_round_drafts_again(env: Env) -> None:
    two_pages(env)
    env.web.hits["deposit return deadline"] = ["https://more.example/1"]
    env.web.pages["https://more.example/1"] = page("more")
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: "deposit return deadline"}), covered)
    env.brain.script("write", draft_citing("S1"), draft_citing("S1", "S2"))

    result = env.run()

    record = env.record(result.run_id)
    (dropped,) = record.of(DraftDropped)
    assert dropped.round == 2 and dropped.reason is DropReason.COVERAGE_CHANGED  # topic 2 is covered now
    assert _purposes(env, result.run_id)[-1] == "draft"  # written again, from the review that passed
    (written,) = env.brain.calls("write")[-1:]
    assert [i["status"] for i in written["topics"]] == ["covered", "covered"]
    assert result.drafts[-1].source_ids == ("S1", "S2") and result.status == "report"


def test_no_speculation_when_the_token_cap_has_no_room_for_the_review_and_the_draft_at_once(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline")
    env.brain.script("write", draft_citing("S1"))

    # enough for the run's calls one at a time, not for two 8,192-token replies at once
    result = env.run(budget=Budget(max_rounds=2, max_tokens=15_000))

    assert "speculative_draft" not in _purposes(env, result.run_id)
    assert [d.round for d in result.drafts] == [1, 2] and not env.record(result.run_id).of(DraftDropped)


def test_a_failed_speculative_draft_is_dropped_and_the_draft_written_after_the_review(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline")
    server_error = FakeError(500, "overloaded", "server_error")
    env.brain.script("write", server_error, server_error, draft_citing("S1", "S2"))

    result = env.run(budget=Budget(max_rounds=2))

    (dropped,) = env.record(result.run_id).of(DraftDropped)
    assert dropped.reason is DropReason.FAILED and dropped.draft is None
    assert result.drafts[-1].source_ids == ("S1", "S2") and result.status == "report"


def test_a_crash_during_the_review_keeps_the_evidence_and_resume_finishes_the_round(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline")
    env.brain.script("write", draft_citing("S1"))
    ended = {"reviews": 0}

    def crash_at_the_second_review(event: Any, state: Any) -> None:
        if isinstance(event, ModelCallEnded) and event.purpose.value == "review":
            ended["reviews"] += 1
            if ended["reviews"] == 2:
                raise RuntimeError("simulated crash")

    settings = env.settings(Budget(max_rounds=2))
    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, settings, progress=crash_at_the_second_review)

    (run,) = RunStore(env.store).list()
    before = env.record(run.run_id)
    assert before.status == "failed" and not before.of(DraftMade)  # round 1 went on to round 2: no draft
    (dropped,) = before.of(DraftDropped)  # the draft beside the cut-off review is on the record
    assert dropped.round == 2 and dropped.reason is DropReason.FAILED

    env.brain.steps["review"] = deque([covered])
    resumed = resume(env.store, run.run_id, env.settings(Budget(max_rounds=2)))

    after = env.record(run.run_id)
    assert after.status == "finished" and after.last(ReportMade) is not None
    assert [s.source_id for s in resumed.sources] == ["S1", "S2", "S3"]  # nothing collected is lost
    assert len(env.brain.calls("plan")) == 1 and resumed.status == "report"
    assert resumed.usage.tokens == sum(
        (e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in after.of(ModelCallEnded)
    )


def _slow(reply: str, seconds: float) -> Any:
    """A writer step that takes ``seconds`` to answer (the far side of the network is slow)."""

    def answer(data: Any) -> str:
        time.sleep(seconds)
        return reply

    return answer


def test_a_dropped_draft_does_not_hold_up_the_next_round_and_its_tokens_are_counted(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline", "deposit return court")
    env.brain.script("write", _slow(draft_citing("S1"), 0.6))

    result = env.run(budget=Budget(max_rounds=3))

    events = [r.event for r in env.record(result.run_id).events]
    spec_ends = [
        i for i, e in enumerate(events) if isinstance(e, ModelCallEnded) and e.purpose.value == "speculative_draft"
    ]
    round3 = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 3)
    dropped = next(i for i, e in enumerate(events) if isinstance(e, DraftDropped))
    # round 2's draft is dropped as soon as its review asks for more, and round 3 starts while the
    # writer is still at it: its call ends during round 3's collection
    assert dropped < round3 < spec_ends[0]
    # ... and before round 3's review starts (never more than the review and one draft at once)
    review3 = next(
        i
        for i, e in enumerate(events)
        if i > round3 and isinstance(e, ModelCallStarted) and e.purpose.value == "review"
    )
    assert spec_ends[0] < review3
    ends = [e for e in events if isinstance(e, ModelCallEnded)]
    assert all(e.completion_tokens for e in ends)  # the provider's reported usage, for every call
    assert result.usage.tokens == sum((e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in ends)
    assert [d.round for d in result.drafts] == [3] and result.status == "report"


def test_resume_folds_the_call_of_a_draft_that_ended_during_the_next_collection(env: Env) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline", "deposit return court")
    env.brain.script("write", _slow(draft_citing("S1"), 0.3))
    spec_ended = threading.Event()
    search = env.tavily.search_responder
    assert search is not None

    def search_after_the_draft(body: Any) -> Any:
        if body["query"] == "deposit return court":  # round 3's search waits for round 2's draft
            assert spec_ended.wait(10)
        return search(body)

    env.tavily.search_responder = search_after_the_draft
    # (round 3's search is made in its round, as it is without search_ahead: the crash is in that collection)

    def crash_in_round_3(event: Any, state: Any) -> None:
        if isinstance(event, ModelCallEnded) and event.purpose.value == "speculative_draft":
            spec_ended.set()
        if isinstance(event, AttemptEnded) and event.attempt.round == 3 and event.attempt.kind.value == "search":
            raise RuntimeError("simulated crash")

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, env.settings(Budget(max_rounds=3), search_ahead=False), progress=crash_in_round_3)
    (run,) = RunStore(env.store).list()
    before = env.record(run.run_id)
    events = [r.event for r in before.events]
    round3 = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 3)
    assert any(isinstance(e, ModelCallEnded) and e.purpose.value == "speculative_draft" for e in events[round3:])
    # the failure waited for the dropped draft: its text is on the record, inside round 3's collection
    assert [e.round for e in events[round3:] if isinstance(e, DraftDropped) and e.draft is not None] == [2]
    spent = sum((e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in before.of(ModelCallEnded))

    restored = restore(before, env.settings(Budget(max_rounds=3), search_ahead=False))

    # the draft's call is folded with its reported usage (not cut off, not estimated), round 3 is
    # run again from its start, and the state is the one the live run had at its start plus that call
    assert restored.state.usage.tokens == spent and not restored.state.open_model_calls
    assert not [e for e in restored.notes if isinstance(e, ModelCallInterrupted)]
    assert restored.state.dropped_drafts == {2} and restored.state.round == 3
    assert restored.replay is not None and not any(isinstance(e, ModelCallEnded) for e in restored.replay)
    assert not any(isinstance(e, DraftDropped) for e in restored.replay)  # folded, not replayed as collection

    env.brain.steps["review"] = deque([covered])
    resumed = resume(env.store, run.run_id, env.settings(Budget(max_rounds=3), search_ahead=False))
    after = env.record(run.run_id)
    assert resumed.status == "report" and len(env.brain.calls("plan")) == 1
    assert resumed.usage.tokens == sum(
        (e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in after.of(ModelCallEnded)
    )


def _review_prompts(env: Env) -> list[str]:
    """The system prompt of every review request the fake model was sent, as the prompt's version."""
    systems = [r.json["messages"][0]["content"] for r in env.model.requests if r.json and "messages" in r.json]
    reviews = [s for s in systems if s.startswith("You review whether")]
    return ["review-v4" if s == REVIEW_V4_SYSTEM_PROMPT else "review-v5" for s in reviews]


@pytest.mark.parametrize("recorded", [None, "review-v4"])
def test_a_run_resumes_under_the_review_prompt_it_started_with(env: Env, recorded: str | None) -> None:
    # None: a record from before runs recorded the prompt (those runs were reviewed under review-v4)
    two_pages(env)
    env.brain.script("plan", plan_reply())
    _follow_ups(env, "deposit return deadline")
    env.brain.script("write", draft_citing("S1"))

    def crash_at_the_second_round(event: Any, state: Any) -> None:
        if isinstance(event, RoundStarted) and event.round == 2:
            raise RuntimeError("simulated crash")

    store = RunStore(env.store)
    original = store.append

    settings = env.settings(Budget(max_rounds=2), review_prompt="review-v4")
    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, settings, progress=crash_at_the_second_round)
    (run,) = store.list()
    configured = env.record(run.run_id).last(RunConfigured)
    assert configured is not None and configured.review_prompt == "review-v4"
    if recorded is None:  # the same run as an older record shows it: the field absent
        legacy = RunStore(env.store).create(RunKind.RESEARCH, QUESTION)
        for stored in env.record(run.run_id).events:
            event = stored.event
            original(legacy, replace(event, review_prompt=None) if isinstance(event, RunConfigured) else event)
        RunStore(env.store).finish(legacy, status=RunStatus.FAILED, outcome=None)
        run_id = legacy
        assert encode(env.record(legacy).last(RunConfigured))[1].get("review_prompt") is None  # type: ignore[arg-type]
    else:
        run_id = run.run_id
    asked_before = len(_review_prompts(env))

    env.brain.steps["review"] = deque([covered])
    resumed = resume(env.store, run_id, env.settings(Budget(max_rounds=2)))  # today's default: review-v5

    assert _review_prompts(env)[:asked_before] == ["review-v4"] * asked_before
    assert _review_prompts(env)[asked_before:] == ["review-v4"]  # round 2's review, after the resume
    assert resumed.status == "report"
