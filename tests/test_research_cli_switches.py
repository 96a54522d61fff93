"""``citewise research --no-stream --no-speculate --draft-every-round --no-search-ahead``: each switch reaches the loop
through :meth:`citewise.api.Citewise.research` (the one path), and by default the drafts are streamed,
the last round drafts beside its review and a round that goes on to another is not drafted. Real
Tavily and OpenAI clients against the shipped loopback fakes, driven through the command line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citewise.audit.events import AttemptStarted, DraftMade, ModelCallEnded
from citewise.cli import app
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from citewise.testing.fake_openai import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyServer
from tests.loop_harness import MODEL_KEY, TAVILY_KEY, Brain, Web, covered, draft_citing, page, plan_reply, verdict

pytestmark = pytest.mark.integration

QUESTION = "How are rental deposits protected?"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeOpenAIServer, Path]]:
    """Two rounds: round 1 leaves topic 2 missing with a follow-up query, round 2 covers it."""
    web, brain = Web(), Brain()
    for query, url in {
        "deposit law": "https://law.example/a",
        "deposit return deadline": "https://gov.example/b",
    }.items():
        web.hits[query] = [url]
        web.pages[url] = page(url.rsplit("/", 1)[1])
    brain.script("plan", plan_reply(queries=("deposit law",)))
    brain.script("review", lambda d: verdict(d, missing={1: "deposit return deadline"}), covered)
    brain.script("write", draft_citing("S1", "S2"))
    brain.script("revise", draft_citing("S1", "S2"))
    store = tmp_path / "cli.sqlite"
    with (
        FakeTavilyServer(api_key=TAVILY_KEY, search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key=MODEL_KEY) as model,
    ):
        model.responder = brain
        for name, value in {
            "CITEWISE_STORE": str(store),
            "TAVILY_API_KEY": TAVILY_KEY,
            "CITEWISE_TAVILY_BASE_URL": tavily.base_url,
            "CITEWISE_LLM_API_KEY": MODEL_KEY,
            "CITEWISE_LLM_BASE_URL": model.base_url,
            "PLANNER_MODEL": "gpt-4o-mini",
            "WRITER_MODEL": "gpt-4o-mini",
        }.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("COMETAPI_KEY", raising=False)
        yield model, store


def _run(store: Path, *flags: str) -> RunRecord:
    result = CliRunner().invoke(app, ["research", QUESTION, "--json", *flags])
    assert result.exit_code == 0, (result.output, result.exception)
    with EvidenceStore.open(str(store)) as opened:
        (run,) = RunStore(opened).list()
        return RunStore(opened).get(run.run_id)


def _purposes(record: RunRecord) -> list[str]:
    return [e.purpose.value for e in record.of(ModelCallEnded)]


def test_by_default_drafts_stream_the_last_round_speculates_and_round_one_is_not_drafted(
    cli: tuple[FakeOpenAIServer, Path],
) -> None:
    model, store = cli

    record = _run(store)

    purposes = _purposes(record)
    assert purposes[:2] == ["plan", "review"] and "speculative_draft" in purposes
    assert [e.draft.round for e in record.of(DraftMade)][0] == 2  # round 1 went on to round 2: no draft
    streamed = [bool(r.json.get("stream")) for r in model.requests if r.json and r.json.get("stream") is not None]
    assert streamed and all(streamed)  # the writer's calls were streamed


def test_the_switches_turn_off_streaming_and_speculation_and_draft_every_round(
    cli: tuple[FakeOpenAIServer, Path],
) -> None:
    model, store = cli

    record = _run(store, "--no-stream", "--no-speculate", "--draft-every-round", "--no-search-ahead")

    purposes = _purposes(record)
    assert "speculative_draft" not in purposes
    assert purposes[:3] == ["plan", "review", "draft"]  # round 1 is drafted after its review
    assert [e.draft.round for e in record.of(DraftMade)][:2] == [1, 2]
    # nothing was streamed: not the drafts (--no-stream), nor the plan and reviews (--no-search-ahead)
    assert not any(r.json and r.json.get("stream") for r in model.requests)


def test_no_stream_alone_leaves_the_plan_and_reviews_streamed_to_search_ahead(
    cli: tuple[FakeOpenAIServer, Path],
) -> None:
    model, store = cli

    record = _run(store, "--no-stream")

    def streamed(system_start: str) -> list[bool]:
        found = [r.json for r in model.requests if r.json and r.json["messages"][0]["content"].startswith(system_start)]
        assert found, system_start
        return [bool(r.get("stream")) for r in found]

    assert all(streamed("You plan web research")) and all(streamed("You review whether"))
    assert not any(streamed("You write a research report"))  # the drafts are not streamed
    assert any(e.ahead for e in record.of(AttemptStarted))
