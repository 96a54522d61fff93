"""The research progress display (issue 14, point 4): the step *in progress* in words, with elapsed
time and budget counters, then a final summary.

The mapping is a pure function of typed events and the run's state; the display is checked through
the command line against the fake Tavily and model servers, and on a terminal."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from citewise.audit.events import (
    AttemptEnded,
    AttemptStarted,
    CollectionEnded,
    DraftMade,
    Event,
    ModelCallEnded,
    ModelCallStarted,
    ModelRetried,
    PlanMade,
    RepairAsked,
    RoundEnded,
    RoundStarted,
    RunFailed,
    Skipped,
)
from citewise.cli import app
from citewise.cli.progress import ResearchProgress
from citewise.prices import default_prices
from citewise.providers.local import LocalExtractor, LocalSearch
from citewise.records.budget import Budget, BudgetUsage, ModelUsage
from citewise.records.research import Attempt, AttemptKind, Draft, ModelPurpose, ResearchPlan, Skip, SkipReason
from citewise.research.loop import research
from citewise.research.progress import (
    Step,
    StepKind,
    counters,
    elapsed_text,
    render_counters,
    step_after,
    worth_a_line,
)
from citewise.research.settings import ResearchSettings
from citewise.research.state import ResearchState, apply
from citewise.store.evidence import EvidenceStore
from citewise.testing.fake_openai import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyServer
from tests.loop_harness import MODEL_KEY as RESEARCH_MODEL_KEY
from tests.loop_harness import TAVILY_KEY as RESEARCH_TAVILY_KEY
from tests.loop_harness import Brain, Web, covered, draft_citing, page, plan_reply

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def fresh(budget: Budget | None = None) -> ResearchState:
    return ResearchState("q", BudgetUsage(budget or Budget()))


def steps(state: ResearchState, *events: Event) -> list[str | None]:
    """What the display says after each event (None: unchanged), applying each to ``state`` first."""
    said = []
    for event in events:
        apply(state, event)
        step = step_after(event, state)
        said.append(step.describe() if step is not None else None)
    return said


def started(kind: AttemptKind, target: str) -> AttemptStarted:
    return AttemptStarted(kind, target, 1)


def ended(kind: AttemptKind, target: str, ok: bool = True) -> AttemptEnded:
    return AttemptEnded(Attempt(kind, target, 1, ok, NOW))


# -- the mapping: what just happened -> what is happening now --------------------------------------


@pytest.mark.unit
def test_each_model_call_names_its_step_not_the_one_before() -> None:
    state = fresh()
    assert steps(
        state,
        ModelCallStarted("plan", "m", 100),
        ModelCallEnded("plan", "m", "m", "ok", 100, 20),
        ModelCallStarted("review", "m", 100),
        ModelCallStarted("draft", "m", 100),
        ModelCallStarted("repair", "m", 100),
        ModelCallEnded("repair", "m", "m", "ok", 100, 20),
        ModelCallStarted("revise", "m", 100),
        ModelCallEnded("revise", "m", "m", "ok", 100, 20),
    ) == [
        "planning",
        "planning",
        "reviewing coverage",
        "drafting",
        "repairing citations",
        "verifying",  # a repaired draft is checked and verified next
        "revising unsupported claims",
        "verifying",
    ]


@pytest.mark.unit
def test_a_call_of_another_purpose_and_a_retry_say_what_they_are_for() -> None:
    started_call = ModelCallStarted(ModelPurpose.UNKNOWN, "m", 10)
    assert steps(fresh(), started_call, ModelRetried(ModelPurpose.REVIEW, "ModelRateLimited", 1.0)) == [
        "waiting for the model (unknown)",
        "retrying the model call (review)",
    ]


@pytest.mark.unit
def test_searches_and_pages_in_flight_are_counted() -> None:
    state = fresh()
    plan = ResearchPlan(("t1", "t2"), ("a", "b", "c"), "m")
    said = steps(
        state,
        PlanMade(plan),
        RoundStarted(1, ("a", "b", "c")),
        started(AttemptKind.SEARCH, "a"),
        started(AttemptKind.SEARCH, "b"),
        started(AttemptKind.SEARCH, "c"),
        ended(AttemptKind.SEARCH, "a"),
        ended(AttemptKind.SEARCH, "b"),
        ended(AttemptKind.SEARCH, "c", ok=False),
        Skipped(Skip("url", "https://x.example/", SkipReason.ALREADY_TRIED, 1)),
        *(started(AttemptKind.EXTRACT, f"https://p{i}.example/") for i in range(6)),
        ended(AttemptKind.EXTRACT, "https://p0.example/"),
    )
    assert said == [
        "searching 3 queries",
        "searching 3 queries",
        "searching 1 query",
        "searching 2 queries",
        "searching 3 queries",
        "searching 2 queries",
        "searching 1 query",
        "reading pages",  # the answered searches' pages are chosen next
        None,  # a skipped URL changes nothing
        "reading 1 page",
        "reading 2 pages",
        "reading 3 pages",
        "reading 4 pages",
        "reading 5 pages",
        "reading 6 pages",
        "reading 5 pages",
    ]
    assert state.usage.searches == 3 and state.usage.extractions == 6


@pytest.mark.unit
def test_searches_started_ahead_are_shown_with_the_call_that_started_them_and_not_searched_twice() -> None:
    state = fresh()
    plan = ResearchPlan(("t1", "t2"), ("a", "b", "c"), "m")
    ahead_a, ahead_b = (
        AttemptStarted(AttemptKind.SEARCH, "a", 1, ahead=True),
        AttemptStarted(AttemptKind.SEARCH, "b", 1, ahead=True),
    )
    said = steps(
        state,
        ModelCallStarted("plan", "m", 100),
        ahead_a,
        ahead_b,
        AttemptEnded(Attempt(AttemptKind.SEARCH, "a", 1, True, NOW), ahead=True),
        ModelCallEnded("plan", "m", "m", "ok", 100, 20),
        PlanMade(plan),  # b still in flight, c not started: two left
        AttemptEnded(Attempt(AttemptKind.SEARCH, "b", 1, True, NOW), ahead=True),  # no call open: unchanged
        RoundStarted(1, ("a", "b", "c")),  # a and b answered ahead: only c is searched
    )
    assert said == [
        "planning",
        "planning, searching 1 query ahead",
        "planning, searching 2 queries ahead",
        "planning, searching 1 query ahead",
        "planning",
        "searching 2 queries",
        None,
        "searching 1 query",
    ]
    assert state.usage.searches == 2
    # every query answered ahead: the round goes straight to its pages
    state = fresh()
    steps(state, ModelCallStarted("review", "m", 100), AttemptStarted(AttemptKind.SEARCH, "d", 2, ahead=True))
    assert steps(state, AttemptEnded(Attempt(AttemptKind.SEARCH, "d", 2, True, NOW), ahead=True)) == [
        "reviewing coverage"
    ]
    assert steps(state, RoundStarted(2, ("d",))) == ["reading pages"]


@pytest.mark.unit
def test_the_end_of_collection_review_and_rounds() -> None:
    state = fresh()
    said = steps(
        state,
        RoundStarted(1, ("a",)),
        started(AttemptKind.SEARCH, "a"),
        ended(AttemptKind.SEARCH, "a", ok=False),
        CollectionEnded(1),  # nothing collected: no review follows
        RoundEnded(1),
    )
    assert said == ["searching 1 query", "searching 1 query", "reading pages", None, "finishing the report"]


@pytest.mark.unit
def test_a_draft_after_the_rounds_is_verified_next_and_a_draft_in_a_round_changes_nothing() -> None:
    state = fresh()
    draft = Draft(1, "text [S1]", ("S1",), "m")
    assert steps(state, RoundStarted(1, ("a",)), DraftMade(draft)) == ["searching 1 query", None]
    assert steps(state, RoundEnded(1), RepairAsked(("unknown id S9",)), DraftMade(draft)) == [
        "finishing the report",  # no source was stored in this state
        "repairing citations",
        "verifying",
    ]


@pytest.mark.unit
def test_a_failed_run_says_so() -> None:
    # (ReportMade and Verified mean done: checked on a real run below.)
    assert steps(fresh(), RunFailed("ProviderUnavailable", "down")) == ["failed"]


@pytest.mark.unit
def test_counters_show_budgets_tokens_and_cost_only_once_a_model_was_called() -> None:
    state = fresh(Budget(max_tokens=5000, max_cost_usd=0.5))
    apply(state, RoundStarted(1, ("a",)))
    apply(state, started(AttemptKind.SEARCH, "a"))
    assert render_counters(counters(state, default_prices())) == (
        "round 1/3 · searches 1/8 · pages 0/12 · sources 0 · tokens 0/5,000"
    )
    state.usage.add_call(ModelUsage("gpt-4o-mini", "gpt-4o-mini", 1000, 0, 1000))
    shown = render_counters(counters(state, default_prices()))
    assert shown.startswith("round 1/3 · searches 1/8 · pages 0/12 · sources 0 · tokens 2,000/5,000 · $0.")
    assert shown.endswith("/$0.5")
    state.usage.add_call(ModelUsage("no-such-model", None, 10, 0, 10))
    assert "$" not in render_counters(counters(state, default_prices()))  # unknown price: no made-up cost


@pytest.mark.unit
def test_plain_lines_only_for_a_new_step_or_a_new_batch() -> None:
    reading = Step(StepKind.READING, 6)
    assert worth_a_line(None, reading)
    assert not worth_a_line(reading, Step(StepKind.READING, 5))  # one page of the batch answered
    assert worth_a_line(Step(StepKind.READING, 2), reading)
    assert worth_a_line(reading, Step(StepKind.REVIEWING))
    assert elapsed_text(7.9) == "7 s" and elapsed_text(125) == "2 m 05 s"


# -- a whole recorded run ----------------------------------------------------------------------------


@pytest.mark.integration
def test_a_keyless_run_goes_through_the_steps_in_order(sample_store_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "s.sqlite"
    copy.write_bytes(sample_store_file.read_bytes())
    said: list[str] = []

    def progress(event: Event, state: ResearchState) -> None:
        step = step_after(event, state)
        if step is not None and (not said or said[-1] != step.describe()):
            said.append(step.describe())

    with EvidenceStore.open(str(copy)) as store:
        settings = ResearchSettings(search=LocalSearch(store), extractor=LocalExtractor(store))
        research(store, "임대차 보증금은 어떻게 보호되나요?", settings, progress)
    assert said[0] == "planning" and said[-1] == "done"
    order = [s.split(" ")[0] for s in said]
    for earlier, later in [("planning", "searching"), ("searching", "reading"), ("reading", "reviewing")]:
        assert order.index(earlier) < order.index(later)
    assert order.index("reviewing") < order.index("drafting") < order.index("verifying") < order.index("done")


# -- the display on a terminal ------------------------------------------------------------------------


@pytest.mark.unit
def test_on_a_terminal_a_live_line_with_spinner_elapsed_time_and_counters() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=160, color_system=None)
    ticks = iter([0.0, 42.0, 42.0, 42.0, 42.0, 42.0, 42.0])
    state = fresh()
    with ResearchProgress(console, None, clock=lambda: next(ticks, 42.0)) as display:
        apply(state, RoundStarted(1, ("a", "b")))
        display.update(RoundStarted(1, ("a", "b")), state)
        display._live.refresh()  # type: ignore[union-attr]
    text = out.getvalue()
    assert "searching 2 queries" in text and "42 s" in text and "searches 0/8" in text
    assert "round 1/3" in text


# -- through the command line, against the fakes --------------------------------------------------------


@pytest.fixture
def web_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Web, Brain]]:
    web, brain = Web(), Brain()
    with (
        FakeTavilyServer(api_key=RESEARCH_TAVILY_KEY, search_responder=web.search, extract_responder=web.extract) as t,
        FakeOpenAIServer(api_key=RESEARCH_MODEL_KEY) as model,
    ):
        model.responder = brain
        for name, value in {
            "CITEWISE_STORE": str(tmp_path / "cli.sqlite"),
            "TAVILY_API_KEY": RESEARCH_TAVILY_KEY,
            "CITEWISE_TAVILY_BASE_URL": t.base_url,
            "CITEWISE_LLM_API_KEY": RESEARCH_MODEL_KEY,
            "CITEWISE_LLM_BASE_URL": model.base_url,
            "PLANNER_MODEL": "gpt-4o-mini",
            "WRITER_MODEL": "gpt-4o-mini",
            "COLUMNS": "200",
        }.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("COMETAPI_KEY", raising=False)
        yield web, brain


def script_two_queries(web: Web, brain: Brain) -> None:
    for query, urls in {
        "deposit law": ["https://law.example/a", "https://law.example/b"],
        "deposit return": ["https://gov.example/c", "https://gov.example/d"],
    }.items():
        web.hits[query] = urls
        web.pages.update({u: page(u.rsplit("/", 1)[1]) for u in urls})
    brain.script("plan", plan_reply(queries=("deposit law", "deposit return")))
    brain.script("review", covered)
    # each topic answered from the source the review checked for it (topic i from source i)
    brain.script("write", draft_citing("S1", "S2"))
    brain.script("revise", draft_citing("S1", "S2"))


@pytest.mark.integration
def test_the_cli_says_each_step_in_progress_and_ends_with_a_summary(web_env: tuple[Web, Brain]) -> None:
    script_two_queries(*web_env)
    result = CliRunner().invoke(app, ["research", "How are rental deposits protected?"])
    assert result.exit_code == 0, (result.output, result.exception)
    lines = result.stderr.splitlines()
    said = [line.split("] ", 1)[1].split(" · ")[0] for line in lines]
    # Both queries are searched while the plan streams in; the round then reads their pages.
    first_read = said.index("reading pages")
    assert said[0] == "planning" and said[1].startswith("planning, searching") and said[1].endswith(" ahead")
    assert all(s.startswith(("planning", "searching")) for s in said[:first_read])
    assert "planning" not in said[first_read:] and "searching 2 queries" not in said[first_read:]
    assert "reading 4 pages" in said  # two pages per query, read concurrently
    for step in ("reviewing coverage", "drafting", "verifying", "done"):
        assert step in said
    assert said.index("reviewing coverage") < said.index("drafting") < said.index("verifying") < said.index("done")
    assert all(" s] " in line and "searches " in line and "pages " in line for line in lines)
    assert "tokens " in lines[-1] and "$0." in lines[-1]  # the model calls priced live
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith("accepted · 4 sources (2 cited) · stopped: coverage passed · searches 2/8")
    assert "cost $0." in summary and "run research-" in summary
    assert "settings" not in result.stderr and "collected" not in result.stderr  # no raw event names


@pytest.mark.integration
def test_without_searching_ahead_the_steps_follow_the_plan(web_env: tuple[Web, Brain]) -> None:
    script_two_queries(*web_env)
    result = CliRunner().invoke(app, ["research", "How are rental deposits protected?", "--no-search-ahead"])
    assert result.exit_code == 0, (result.output, result.exception)
    said = [line.split("] ", 1)[1].split(" · ")[0] for line in result.stderr.splitlines()]
    assert said[:3] == ["planning", "searching 2 queries", "reading pages"]


@pytest.mark.integration
def test_json_output_stays_one_object_without_progress_lines(web_env: tuple[Web, Brain]) -> None:
    script_two_queries(*web_env)
    result = CliRunner().invoke(app, ["research", "How are rental deposits protected?", "--json"])
    assert result.exit_code == 0, (result.output, result.exception)
    data = json.loads(result.stdout)
    assert data["exit_code"] == 0 and data["acceptance"]["accepted"] is True
    assert result.stderr == ""
    assert os.environ["TAVILY_API_KEY"] not in result.stdout
