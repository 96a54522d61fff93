"""Caps that hold (issue 9, point 6) and a judge that degrades (point 8), against the loopback fakes.

Token and money caps are checked before each model call with a high estimate of it (its prompt plus
the reply cap it is sent with), so a run never ends above a cap: the call that would cross one is not
made, the loop stops with ``tokens_exhausted`` / ``cost_exhausted``, the evidence stays, and the run
can be resumed with a larger cap. Budgets also come from the environment; a built-in, dated price
table prices known models out of the box and leaves unknown ones unknown. A malformed ``verify
--llm`` judgement for one claim is recorded as a judge failure and the command completes.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citewise.answer.ask import ask
from citewise.answer.result import AskSettings
from citewise.audit.events import ModelCallStarted, ReportMade, RoundEnded, RunResumed
from citewise.cli import app
from citewise.config import Secret, load_dotenv
from citewise.cost.ledger import Component, ledger_for_run
from citewise.errors import ConfigError
from citewise.evidence.plan import RetrievalPlan
from citewise.llm import ChatClient, ModelSettings, PendingRequest
from citewise.prices import PRICES_ENV, default_prices, parse_prices
from citewise.records.budget import MIN_REPLY_TOKENS, Budget, BudgetExhausted, BudgetUsage, budget_from_env
from citewise.records.research import StopReason
from citewise.research.configure import priced_models
from citewise.research.loop import resume
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore
from citewise.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests import loop_harness
from tests.loop_harness import PLANNER, WRITER, Env, covered, plan_reply, two_pages

pytestmark = pytest.mark.integration

env = loop_harness.env  # the loop's harness: real Tavily and OpenAI clients against the fakes

GOOD = "## Deposits\n\nDeposits are protected here [S1].\n\nMore background on deposit returns [S2]."
# 1 USD per million prompt tokens, 10 per million completion tokens, for both test models
RATES = {"input": "1.00", "output": "10.00"}


def table(**models: dict[str, str]) -> Any:
    return parse_prices(
        {
            "models": models or {PLANNER: RATES, WRITER: RATES},
            "tavily_credit": 0,
            "extraction_per_page": 0,
            "assumptions": {
                "infrastructure_per_run": 0,
                "maintenance_per_month": 0,
                "runs_per_month": 1,
                "human_review_seconds_per_run": 0,
                "human_review_rate_per_hour": 0,
            },
        }
    )


def started(env: Env, run_id: str) -> list[ModelCallStarted]:
    return [e.event for e in env.record(run_id).events if isinstance(e.event, ModelCallStarted)]


def sent_reply_caps(env: Env) -> list[int]:
    return [r.json["max_completion_tokens"] for r in env.model.requests]


# -- the token cap ---------------------------------------------------------------------------------


def test_a_token_cap_the_next_call_would_cross_stops_the_run_before_it_and_resume_goes_on(env: Env) -> None:
    a, b = two_pages(env)
    env.brain.script("plan", FakeReply(json.dumps(plan_reply()), usage={"prompt_tokens": 10, "completion_tokens": 5}))
    env.brain.script(
        "review", lambda d: FakeReply(json.dumps(covered(d)), usage={"prompt_tokens": 300, "completion_tokens": 200})
    )
    env.brain.script("write", GOOD)

    result = env.run(budget=Budget(max_tokens=2400))

    # plan and review fit; the draft's estimated prompt plus a 1,024-token reply do not: never sent
    assert [p for p, _ in env.brain.seen] == ["plan", "review"]
    assert result.stop_reason is StopReason.TOKENS_EXHAUSTED
    assert result.usage.tokens == 515 <= 2400
    assert [(s.source_id, s.url) for s in result.sources] == [("S1", a), ("S2", b)]  # the evidence is kept
    record = env.record(result.run_id)
    assert record.status is RunStatus.FINISHED and record.last(RoundEnded).stop is StopReason.TOKENS_EXHAUSTED
    calls = started(env, result.run_id)
    assert [c.purpose for c in calls] == ["plan", "review"]  # the refused draft was never started
    for call, cap in zip(calls, sent_reply_caps(env), strict=True):  # each went out with what the cap left
        assert call.max_reply_tokens == cap < 8192

    again = resume(env.store, result.run_id, env.settings(Budget(max_tokens=20_000)))

    assert again.stop_reason is StopReason.COVERAGE_PASSED and again.status == "report"
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write"]  # nothing recorded is asked again
    assert env.searched() == ["rental deposit law"] and env.extracted() == [a, b]
    assert [(s.source_id, s.url) for s in again.sources] == [("S1", a), ("S2", b)]
    assert "Deposits are protected here [S1]" in (again.body or "")
    after = env.record(result.run_id)
    assert after.status is RunStatus.FINISHED and len(after.of(RunResumed)) == 1
    assert [r.stop_reason for r in after.of(ReportMade)] == [StopReason.TOKENS_EXHAUSTED, StopReason.COVERAGE_PASSED]


@pytest.mark.parametrize("cap", [1800, 2600, 3400, 4200, 6000])
def test_a_run_never_ends_above_its_token_cap(env: Env, cap: int) -> None:
    # Usage as the fake endpoint reports it (from the prompt it received); the reviewer never
    # passes coverage, so the loop goes on until a cap (or the round budget) stops it.
    two_pages(env)
    counter = iter(range(1, 100))
    env.brain.script("plan", plan_reply())
    env.brain.script(
        "review",
        lambda d: {
            "topics": [
                {
                    "topic": t,
                    "status": "missing",
                    "source_ids": [],
                    "quotes": [],
                    "gap": "no primary source",
                    "follow_up_query": f"follow up {next(counter)}",
                }
                for t in d["topics"]
            ]
        },
    )
    env.brain.script("write", GOOD)

    try:
        result = env.run(budget=Budget(max_tokens=cap, max_rounds=5))
    except BudgetExhausted as exhausted:  # too small even to plan: nothing was sent
        assert exhausted.kind == "tokens" and env.model.requests == []
        return
    assert result.usage.tokens <= cap
    assert result.stop_reason in (StopReason.TOKENS_EXHAUSTED, StopReason.ROUNDS_EXHAUSTED)
    reported = sum(e.prompt_tokens + e.completion_tokens for e in _ended(env, result.run_id))
    assert reported == result.usage.tokens


def _ended(env: Env, run_id: str) -> list[Any]:
    from citewise.audit.events import ModelCallEnded

    return [e.event for e in env.record(run_id).events if isinstance(e.event, ModelCallEnded)]


def test_a_reply_cap_is_never_lowered_below_the_floor() -> None:
    usage = BudgetUsage(Budget(max_tokens=5000))
    assert usage.admit("m", prompt_tokens=1000, max_reply=8192).max_reply == 4000
    assert usage.admit("m", prompt_tokens=1000, max_reply=512).max_reply == 512  # asked for less: unchanged
    with pytest.raises(BudgetExhausted, match="the next call needs up to 5,025"):
        usage.admit("m", prompt_tokens=4001, max_reply=8192)
    assert MIN_REPLY_TOKENS == 1024


# -- the money cap ---------------------------------------------------------------------------------


def test_a_money_cap_the_next_call_would_cross_stops_the_run_before_it_and_resume_goes_on(env: Env) -> None:
    a, b = two_pages(env)
    prices = table()
    env.brain.script(
        "plan", FakeReply(json.dumps(plan_reply()), usage={"prompt_tokens": 1000, "completion_tokens": 500})
    )
    env.brain.script(
        "review", lambda d: FakeReply(json.dumps(covered(d)), usage={"prompt_tokens": 2000, "completion_tokens": 1200})
    )
    env.brain.script("write", GOOD)

    result = env.run(budget=Budget(max_cost_usd=0.03), prices=prices)

    # plan $0.006 and review $0.014 fit in $0.03; the draft (its prompt and a 1,024-token reply at
    # $10 a million) would not fit in the $0.01 left: it is never sent
    assert [p for p, _ in env.brain.seen] == ["plan", "review"]
    assert result.stop_reason is StopReason.COST_EXHAUSTED
    assert [(s.source_id, s.url) for s in result.sources] == [("S1", a), ("S2", b)]
    ledger = ledger_for_run(env.record(result.run_id), prices)
    assert ledger.by_component()[Component.LLM] == Decimal("0.02") <= Decimal("0.03")
    # the reply caps sent were lowered to what the money left: plan (0.03 - its prompt) at $10/M
    plan = started(env, result.run_id)[0]
    assert (
        sent_reply_caps(env)[0]
        == plan.max_reply_tokens
        == int((Decimal("0.03") - plan.estimated_prompt_tokens / Decimal(10**6)) * 100_000)
    )

    again = resume(env.store, result.run_id, env.settings(Budget(max_cost_usd=1.0), prices=prices))

    assert again.stop_reason is StopReason.COVERAGE_PASSED and again.status == "report"
    assert [p for p, _ in env.brain.seen] == ["plan", "review", "write"]
    assert env.searched() == ["rental deposit law"] and env.extracted() == [a, b]
    assert ledger_for_run(env.record(result.run_id), prices).measured <= Decimal("1.0")


def test_a_money_cap_refuses_to_start_for_a_model_the_price_table_cannot_price() -> None:
    with pytest.raises(ConfigError) as refused:
        priced_models(Budget(max_cost_usd=0.5), table(), [PLANNER, "mystery-model"])
    message = str(refused.value)
    assert "'mystery-model'" in message and "--prices" in message and "\n" not in message
    assert priced_models(Budget(), None, ["mystery-model"]) is None  # no money cap: nothing to price


def test_the_cli_refuses_a_money_cap_it_cannot_keep_in_one_line(tmp_path: Path) -> None:
    env = {
        "COMETAPI_KEY": "sk-never-sent",
        "PLANNER_MODEL": "mystery-model",
        "WRITER_MODEL": "mystery-model",
        "TAVILY_API_KEY": "",
        PRICES_ENV: "",
    }
    refused = CliRunner().invoke(
        app,
        ["research", "q", "--search", "local", "--max-cost", "0.50", "--store", str(tmp_path / "s.sqlite")],
        env=env,
    )
    assert refused.exit_code == 2
    shown = " ".join(refused.stderr.split())  # one message (the terminal may wrap it)
    assert shown.startswith("error: --max-cost cannot be kept: 'mystery-model' is not in the price table")
    assert "(citewise built-in list prices, as of " in shown and "pass --prices FILE" in shown


# -- budgets from the environment ------------------------------------------------------------------


def test_budgets_come_from_the_environment_and_dotenv_with_flags_winning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (
        "CITEWISE_MAX_ROUNDS",
        "CITEWISE_MAX_SEARCHES",
        "CITEWISE_MAX_PAGES",
        "CITEWISE_MAX_TOKENS",
        "CITEWISE_MAX_COST",
    ):
        monkeypatch.setenv(name, "")  # recorded, so what .env sets below is undone after the test
        monkeypatch.delenv(name)
    dotenv = tmp_path / ".env"
    dotenv.write_text("CITEWISE_MAX_ROUNDS=2\nCITEWISE_MAX_PAGES=5\nCITEWISE_MAX_COST=$0.25\n", encoding="utf-8")
    load_dotenv(dotenv)
    monkeypatch.setenv("CITEWISE_MAX_SEARCHES", "4")
    monkeypatch.setenv("CITEWISE_MAX_TOKENS", "50_000")
    budget = budget_from_env(max_rounds=1)
    assert (budget.max_rounds, budget.max_searches, budget.max_extractions) == (1, 4, 5)
    assert (budget.max_tokens, budget.max_cost_usd) == (50_000, 0.25)
    for name, value in (("CITEWISE_MAX_ROUNDS", "three"), ("CITEWISE_MAX_TOKENS", "0"), ("CITEWISE_MAX_COST", "-1")):
        monkeypatch.setenv(name, value)
        with pytest.raises(ConfigError, match=name):
            budget_from_env()
        monkeypatch.delenv(name)


def test_the_cli_reads_budgets_from_the_environment(sample_store_file: Path, tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    shutil.copy(sample_store_file, store)
    base = {"TAVILY_API_KEY": "", "COMETAPI_KEY": "", "CITEWISE_MAX_ROUNDS": "1", "CITEWISE_MAX_SEARCHES": "2"}
    args = ["research", "해고 예고는 며칠 전에 해야 하나요?", "--no-model", "--json", "--store", str(store)]
    ran = CliRunner().invoke(app, args, env=base)
    assert json.loads(ran.stdout)["usage"]["rounds"].endswith("/1")
    assert json.loads(ran.stdout)["usage"]["searches"].endswith("/2")
    flagged = CliRunner().invoke(app, [*args, "--searches", "3"], env=base)
    assert json.loads(flagged.stdout)["usage"]["searches"].endswith("/3")  # the flag wins
    bad = CliRunner().invoke(app, args, env={**base, "CITEWISE_MAX_PAGES": "lots"})
    assert bad.exit_code == 2 and "CITEWISE_MAX_PAGES must be a whole number" in bad.stderr


# -- the built-in price table ----------------------------------------------------------------------


def test_the_built_in_price_table_prices_known_models_and_leaves_others_unknown(env: Env) -> None:
    prices = default_prices()
    assert prices.as_of is not None and "built-in" in prices.origin
    known = prices.model("gpt-4o-mini")
    assert known is not None and known.source and known.rates.input == Decimal("0.15")
    assert prices.model("claude-sonnet-4-20250514") is not None and prices.tavily_credit == Decimal("0.008")
    assert all(price.source for price in prices.models.values())  # every price says where it came from
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", GOOD)
    result = env.run(planner_model="gpt-4o-mini", writer_model="not-a-listed-model")
    lines = {line.item: line for line in ledger_for_run(env.record(result.run_id), prices).lines}
    assert lines["gpt-4o-mini"].amount is not None and lines["gpt-4o-mini"].amount > 0
    assert lines["not-a-listed-model"].amount is None  # unknown, never free
    assert lines["not-a-listed-model"].note == "not in the price table"


def test_citewise_cost_works_without_a_price_table(tmp_path: Path) -> None:
    ran = CliRunner().invoke(app, ["cost", "--json", "--store", str(tmp_path / "s.sqlite")], env={PRICES_ENV: ""})
    assert ran.exit_code == 0, ran.stderr
    assert json.loads(ran.stdout)["prices"].startswith("citewise built-in list prices, as of ")


# -- ask -------------------------------------------------------------------------------------------


@pytest.fixture
def sample(sample_store_file: Path, tmp_path: Path) -> Iterator[EvidenceStore]:
    copy = tmp_path / "ask.sqlite"
    shutil.copy(sample_store_file, copy)
    with EvidenceStore.open(str(copy)) as s:
        yield s


def test_an_ask_whose_model_call_would_cross_a_cap_is_answered_without_it(sample: EvidenceStore) -> None:
    question = "해고 예고는 며칠 전에 해야 하나요?"
    reply = {
        "answer": "사용자는 적어도 30일 전에 예고를 하여야 한다 [E1].",
        "covered": True,
        "citations": [{"id": "E1", "quote": "적어도 30일 전에 예고를 하여야 하고"}],
    }
    with FakeOpenAIServer() as server:
        server.responder = lambda body: json.dumps(reply, ensure_ascii=False)
        settings = ModelSettings(api_key=Secret("sk-ask"), base_url=server.base_url, timeout_s=5)
        with ChatClient(settings) as client:
            capped = ask(
                sample,
                question,
                RetrievalPlan(),
                AskSettings(client=client, model="writer-1", budget=Budget(max_tokens=800)),
            )
            assert server.requests == []  # never sent
            priced = AskSettings(
                client=client, model="writer-1", budget=Budget(max_cost_usd=0.05), prices=table(**{"writer-1": RATES})
            )
            answered = ask(sample, question, RetrievalPlan(), priced)
            sent = server.requests[0].json["max_completion_tokens"]
    assert capped.outcome.value == "deterministic_evidence_fallback"
    assert "model writer-1 not called: token budget exhausted" in (capped.provenance.fallback_reason or "")
    assert capped.provenance.requested_model is None  # no call to price
    assert answered.outcome.value == "model_answer_accepted"
    assert MIN_REPLY_TOKENS <= sent < 8192  # lowered to what $0.05 leaves at $10 a million


def test_an_admission_sees_each_request_and_can_lower_or_stop_it() -> None:
    seen: list[PendingRequest] = []

    def admit(request: PendingRequest) -> int:
        seen.append(request)
        if len(seen) > 1:
            raise BudgetExhausted("tokens", 0, 1)
        return 300

    with FakeOpenAIServer() as server:
        server.responder = lambda body: "fine"
        with ChatClient(ModelSettings(api_key=Secret("sk-a"), base_url=server.base_url, timeout_s=5)) as client:
            with client.admitting(admit):
                client.complete("m", [{"role": "user", "content": "보증금 deposit"}])
                with pytest.raises(BudgetExhausted):
                    client.complete("m", [{"role": "user", "content": "again"}])
            client.complete("m", [{"role": "user", "content": "outside"}])
            assert [r.json["max_completion_tokens"] for r in server.requests] == [300, 8192]
            assert len(client.calls) == 2  # the stopped request left no record
    assert seen[0].max_completion_tokens == 8192 and seen[0].estimated_prompt_tokens >= 4 + 4 + 3 + 5


# -- the judge degrades, never aborts ---------------------------------------------------------------


def test_a_malformed_judgement_for_one_claim_is_a_judge_failure_and_verify_completes(env: Env, tmp_path: Path) -> None:
    two_pages(env)
    env.brain.script("plan", plan_reply())
    env.brain.script("review", covered)
    env.brain.script("write", GOOD)
    run_id = env.run().run_id

    def judge(body: Any) -> str:
        claim = json.loads(body["messages"][-1]["content"])["claim"]
        if claim.startswith("Deposits are protected"):
            return json.dumps({"decision": "supported", "reason": "fine"})  # no span: malformed
        return json.dumps({"decision": "supported", "reason": "fine", "span": "More background on deposit returns."})

    with FakeOpenAIServer() as server:
        server.responder = judge
        cli_env = {"COMETAPI_KEY": "sk-judge", "CITEWISE_LLM_BASE_URL": server.base_url, "VERIFIER_MODEL": "judge-1"}
        ran = CliRunner().invoke(
            app, ["verify", run_id, "--llm", "--json", "--store", str(tmp_path / "s.sqlite")], env=cli_env
        )
        shown = CliRunner().invoke(app, ["verify", run_id, "--llm", "--store", str(tmp_path / "s.sqlite")], env=cli_env)
    data = json.loads(ran.stdout)  # one complete object
    assert ran.exit_code in (0, 1) and data["acceptance"]["verifier_version"].endswith("+judge:judge-1")
    checks = {e["claim"]["text"]: e["checks"][0] for e in data["entries"]}
    failed = checks["Deposits are protected here."]
    assert failed["decision"] == "supported"  # the deterministic verdict stands
    assert "reason and span must be strings" in failed["judge_failure"]
    assert checks["More background on deposit returns."]["judge_failure"] is None
    assert "no usable judgement for 1 check" in shown.stdout


def test_a_judge_call_that_fails_is_recorded_not_raised(sample: EvidenceStore) -> None:
    from citewise.records.verify import Decision
    from citewise.testing.fake_openai import FakeError
    from citewise.verify.service import model_judge, verify_run

    reply = {
        "answer": "사용자는 해고하려면 적어도 30일 전에 예고를 하여야 한다 [E1].",
        "covered": True,
        "citations": [{"id": "E1", "quote": "적어도 30일 전에 예고를 하여야 하고"}],
    }
    with FakeOpenAIServer() as server:
        server.enqueue_reply(json.dumps(reply, ensure_ascii=False))
        settings = ModelSettings(api_key=Secret("sk-j"), base_url=server.base_url, timeout_s=5)
        with ChatClient(settings) as client:
            run_id = ask(
                sample, "해고 예고는 며칠 전에 해야 하나요?", RetrievalPlan(), AskSettings(client=client, model="w")
            ).run_id
            server.enqueue(FakeError(500, "judge down", "server_error"))
            result = verify_run(sample, run_id, model_judge(client, "judge-1"), "judge-1")
    (entry,) = result.entries
    assert entry.decision is Decision.SUPPORTED and "ModelServerError" in (entry.checks[0].judge_failure or "")
    assert RunStore(sample).get(run_id).status is RunStatus.FINISHED


def test_a_cap_too_small_even_to_plan_exits_with_the_budget_code_and_sends_nothing(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        cli_env = {
            "COMETAPI_KEY": "sk-cap",
            "CITEWISE_LLM_BASE_URL": server.base_url,
            "PLANNER_MODEL": PLANNER,
            "WRITER_MODEL": WRITER,
            "TAVILY_API_KEY": "",
        }
        args = [
            "research",
            "q",
            "--search",
            "local",
            "--max-tokens",
            "500",
            "--json",
            "--store",
            str(tmp_path / "s.sqlite"),
        ]
        ran = CliRunner().invoke(app, args, env=cli_env)
        assert server.requests == []
    data = json.loads(ran.stdout)
    assert ran.exit_code == data["exit_code"] == 5
    assert (
        data["error"]["kind"] == "BudgetExhausted"
        and "token budget exhausted: 0 of 500 used" in data["error"]["message"]
    )
