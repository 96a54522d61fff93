"""A round whose review asks for more searching is not drafted when a later draft can still be
written (no token or money cap): only the round the loop stops after is. ``draft_every_round``
drafts every round as before; a cap does too. The decision is made from the recorded state, so a
run resumed after the review decides the same. Real Tavily and OpenAI clients against the shipped
loopback fakes."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

from citewise.audit.events import DraftMade, ModelCallEnded, ReviewMade
from citewise.records.budget import Budget, BudgetUsage
from citewise.records.research import StopReason
from citewise.research.loop import research, resume
from citewise.research.state import ResearchState, fold
from citewise.store.runs import RunStore
from tests import test_budget_caps as caps
from tests import test_research_loop as loop
from tests.loop_harness import QUESTION, Env, covered, draft_citing, page, plan_reply, two_pages, verdict

pytestmark = pytest.mark.integration

env = loop.env


def _gap_closed_in_round_two(env: Env) -> None:
    """Round 1 leaves topic 2 missing with a follow-up query; round 2 covers it."""
    two_pages(env)
    env.web.hits["deposit return deadline"] = ["https://court.example/ruling"]
    env.web.pages["https://court.example/ruling"] = page("the ruling")
    env.brain.script("plan", plan_reply())
    env.brain.script("review", lambda d: verdict(d, missing={1: "deposit return deadline"}), covered)
    env.brain.script("write", draft_citing("S1", "S3"))


def _purposes(env: Env, run_id: str) -> list[str]:
    return [e.purpose.value for e in env.record(run_id).of(ModelCallEnded)]


@pytest.mark.parametrize("speculate", [True, False])
def test_a_round_that_goes_on_to_another_is_not_drafted(env: Env, speculate: bool) -> None:
    _gap_closed_in_round_two(env)

    result = env.run(speculate=speculate)

    assert result.stop_reason is StopReason.COVERAGE_PASSED and result.status == "report"
    assert [d.round for d in result.drafts] == [2] and result.drafts[-1].source_ids == ("S1", "S3")
    purposes = _purposes(env, result.run_id)
    assert purposes[:2] == ["plan", "review"]  # no writer call between round 1's review and round 2
    # the writer was asked only from round 2's sources, never from round 1's alone
    assert all(len(call["sources"]) == 3 for call in env.brain.calls("write"))
    assert result.usage.tokens == sum(
        (e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in env.record(result.run_id).of(ModelCallEnded)
    )


def test_draft_every_round_drafts_the_round_that_goes_on(env: Env) -> None:
    _gap_closed_in_round_two(env)

    result = env.run(draft_every_round=True, speculate=False)

    assert [d.round for d in result.drafts] == [1, 2]
    assert _purposes(env, result.run_id) == ["plan", "review", "draft", "review", "draft"]


@pytest.mark.parametrize("budget", [Budget(max_tokens=60_000), Budget(max_cost_usd=5.0)])
def test_a_token_or_money_cap_drafts_every_round(env: Env, budget: Budget) -> None:
    # a cap could stop the next round's review before any later draft: round 1's draft is the fallback
    _gap_closed_in_round_two(env)

    result = env.run(budget=budget, prices=caps.table())

    assert [d.round for d in result.drafts][:1] == [1] and result.drafts[-1].round == 2


def test_a_run_resumed_after_the_review_decides_the_same_and_folds_the_same_state(env: Env) -> None:
    _gap_closed_in_round_two(env)

    def crash_after_the_first_review(event: Any, state: Any) -> None:
        if isinstance(event, ReviewMade) and event.review.round == 1:
            raise RuntimeError("simulated crash")

    with pytest.raises(RuntimeError, match="simulated crash"):
        research(env.store, QUESTION, env.settings(), progress=crash_after_the_first_review)
    (run,) = RunStore(env.store).list()
    assert not env.record(run.run_id).of(DraftMade)

    env.brain.steps["review"] = deque([covered])
    resumed = resume(env.store, run.run_id, env.settings())

    record = env.record(run.run_id)
    assert resumed.status == "report" and [d.round for d in resumed.drafts] == [2]
    assert _purposes(env, run.run_id).count("review") == 2  # round 1's review was not made again
    assert [e.draft.round for e in record.of(DraftMade)] == [2]
    # the record folds to the state the resumed run ended with
    folded = fold(ResearchState(QUESTION, BudgetUsage(Budget())), (r.event for r in record.events))
    assert folded.drafts == list(resumed.drafts) and folded.reviews == list(resumed.reviews)
    assert folded.usage.tokens == resumed.usage.tokens and not folded.dropped_drafts
