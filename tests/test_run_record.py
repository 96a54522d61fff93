"""The typed run record (issue 8): a store from release 0.1.0 upgrades and still verifies, exports and
costs; a run whose process died reads as interrupted; a research process killed with SIGKILL at
several points resumes without repeating a recorded call or losing a source."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from citewise.audit.events import AttemptInterrupted, ReportMade, SourceStored, Verified
from citewise.cost import ledger_for_run
from citewise.export.run import export_run
from citewise.prices import load_prices
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStatus, RunStore
from citewise.verify.service import verify_run
from tests.conftest import REPO

pytestmark = pytest.mark.integration

LEGACY = REPO / "tests" / "fixtures" / "legacy" / "store-0.1.0.sqlite"


@pytest.fixture
def legacy_store(tmp_path: Path):  # type: ignore[no-untyped-def]
    copy = tmp_path / "legacy.sqlite"
    shutil.copy(LEGACY, copy)
    with EvidenceStore.open(str(copy)) as store:
        yield store


def test_a_release_0_1_0_store_upgrades_and_still_verifies_exports_and_costs(legacy_store: EvidenceStore) -> None:
    runs = RunStore(legacy_store)
    records = [runs.get(r.run_id) for r in runs.list()]
    assert sorted(r.kind for r in records) == ["ask", "research", "research"]
    assert all(r.status is RunStatus.FINISHED for r in records)
    prices = load_prices(REPO / "examples" / "prices.yaml")
    for record in records:
        before = len(record.of(Verified))
        assert before >= 1  # the old ledgers read as verification events
        verification = verify_run(legacy_store, record.run_id)
        again = runs.get(record.run_id)
        assert len(again.of(Verified)) == before + 1
        assert again.of(Verified)[-1].acceptance == verification.acceptance
        for fmt in ("md", "json", "html"):
            assert record.question.split()[0] in export_run(again, fmt)
        ledger = ledger_for_run(again, prices)
        assert ledger.run_id == record.run_id
    research = [r for r in records if r.kind == "research"]
    assert all(r.last(ReportMade) is not None and r.of(SourceStored) for r in research)
    with_model = [r for r in research if r.last(ReportMade).path == "model"]  # type: ignore[union-attr]
    (modelled,) = with_model
    priced = ledger_for_run(modelled, prices)
    assert any(line.item for line in priced.lines if line.component.value == "llm")


def test_a_run_whose_process_died_reads_as_interrupted(store: EvidenceStore) -> None:
    runs = RunStore(store)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    run_id = runs.create("research", "q")
    assert runs.get(run_id).status is RunStatus.RUNNING
    from sqlalchemy import update

    from citewise.store.schema import runs as runs_table

    with store.transaction() as conn:  # the run belongs to the child process
        owner = f"{os.uname()[1]}:{child.pid}"
        conn.execute(update(runs_table).where(runs_table.c.id == run_id).values(lease_owner=owner))
    assert runs.get(run_id).status is RunStatus.RUNNING
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert runs.get(run_id).status is RunStatus.INTERRUPTED
    assert [r.status for r in runs.list()] == [RunStatus.INTERRUPTED]


# -- kill -9 at several points of a research run ---------------------------------------------------


def _resume(store: EvidenceStore, run_id: str, tavily_url: str, model_url: str) -> Any:
    """Resume ``run_id`` as the killed child ran it: the same fakes, keys, models and budget."""
    from citewise.config import Secret
    from citewise.llm import ChatClient, ModelSettings
    from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
    from citewise.records.budget import Budget
    from citewise.research.loop import resume
    from citewise.research.settings import ResearchSettings

    ts = TavilySettings(api_key=Secret("tvly-kill"), base_url=tavily_url, timeout_s=10)
    ms = ModelSettings(api_key=Secret("sk-kill"), base_url=model_url, timeout_s=10)
    with TavilyConnection(ts) as connection, ChatClient(ms) as client:
        settings = ResearchSettings(
            search=TavilySearch(connection=connection),
            extractor=TavilyExtract(connection=connection),
            budget=Budget(),
            client=client,
            planner_model="planner-x",
            writer_model="writer-y",
            concurrent=False,
            sleep=lambda s: None,
        )
        return resume(store, run_id, settings)


CHILD = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, {repo!r})
    from citewise.config import Secret
    from citewise.llm import ChatClient, ModelSettings
    from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
    from citewise.records.budget import Budget
    from citewise.research.loop import research
    from citewise.research.settings import ResearchSettings
    from citewise.store.evidence import EvidenceStore

    kill_at, kill_after = sys.argv[1], int(sys.argv[2])
    seen = [0]

    def progress(event, state):
        if event.kind.value == kill_at:
            seen[0] += 1
            if seen[0] == kill_after:
                os.kill(os.getpid(), signal.SIGKILL)

    with EvidenceStore.open({store!r}) as store:
        tavily = TavilySettings(api_key=Secret("tvly-kill"), base_url={tavily!r}, timeout_s=10)
        model = ModelSettings(api_key=Secret("sk-kill"), base_url={model!r}, timeout_s=10)
        with TavilyConnection(tavily) as connection, ChatClient(model) as client:
            settings = ResearchSettings(
                search=TavilySearch(connection=connection), extractor=TavilyExtract(connection=connection),
                budget=Budget(), client=client, planner_model="planner-x", writer_model="writer-y",
                concurrent=False, sleep=lambda s: None,
            )
            research(store, "How are rental deposits protected?", settings, progress)
    """
)


@pytest.mark.parametrize(
    ("kill_at", "kill_after"),
    [
        ("model_call_started", 1),  # during planning
        ("attempt_started", 1),  # during the first search
        ("attempt_started", 3),  # during the second extraction
        ("source_stored", 1),  # between sources
        ("model_call_started", 2),  # during the review
        ("model_call_started", 3),  # during drafting
        ("in_flight_extract", 1),  # while the extract request is being answered
        ("in_flight_review", 1),  # while the review request is being answered
    ],
)
def test_a_killed_research_process_resumes_without_repeating_a_recorded_call(
    kill_at: str, kill_after: int, tmp_path: Path
) -> None:
    from citewise.audit.events import ModelCallInterrupted
    from citewise.testing.fake_openai import FakeOpenAIServer
    from citewise.testing.fake_tavily import FakeTavilyServer
    from tests.loop_harness import TOPICS, Brain, Web, covered, draft_citing, page, plan_reply

    web, brain = Web(), Brain()
    child: list[subprocess.Popen[bytes]] = []

    def kill_child() -> None:
        child[0].send_signal(signal.SIGKILL)
        child[0].wait()

    def extract(body):  # type: ignore[no-untyped-def]
        if kill_at == "in_flight_extract" and child and child[0].poll() is None:
            kill_child()  # the provider answers, but the process that asked is gone
        return web.extract(body)

    def review(data):  # type: ignore[no-untyped-def]
        if kill_at == "in_flight_review" and child and child[0].poll() is None:
            kill_child()
        return covered(data)

    path = tmp_path / "s.sqlite"
    with (
        FakeTavilyServer(api_key="tvly-kill", search_responder=web.search, extract_responder=extract) as tavily,
        FakeOpenAIServer(api_key="sk-kill") as model,
    ):
        model.responder = brain
        a, b = "https://law.example/deposits", "https://gov.example/return"
        web.hits["rental deposit law"] = [a, b]
        web.pages.update({a: page("the deposit act"), b: page("deposit returns")})
        brain.script("plan", plan_reply())
        brain.script("review", review)
        brain.script("write", draft_citing("S1", "S2"))
        hook = kill_at if not kill_at.startswith("in_flight") else "never"
        script = CHILD.format(repo=str(REPO), store=str(path), tavily=tavily.base_url, model=model.base_url)
        child.append(subprocess.Popen([sys.executable, "-c", script, hook, str(kill_after)], stderr=subprocess.PIPE))
        _, err = child[0].communicate(timeout=60)
        assert child[0].returncode == -signal.SIGKILL, err.decode()[-2000:]
        with EvidenceStore.open(str(path)) as store:
            runs = RunStore(store)
            (listed,) = runs.list()
            assert listed.status is RunStatus.INTERRUPTED  # not "running" forever
            result = _resume(store, listed.run_id, tavily.base_url, model.base_url)
            after = runs.get(listed.run_id)
        assert result.status == "report" and after.status is RunStatus.FINISHED
        assert [(s.source_id, s.url) for s in result.sources] == [("S1", a), ("S2", b)]  # none lost, none twice
        assert result.plan.topics == tuple(TOPICS)
        searched = [r.json["query"] for r in tavily.requests if r.path.rstrip("/") == "/search"]
        extracted = [u for r in tavily.requests if r.path.rstrip("/") == "/extract" for u in r.json["urls"]]
        purposes = [p for p, _ in brain.seen]
        assert searched == ["rental deposit law"]  # the recorded search is reused, never sent again
        if kill_at == "in_flight_extract":
            # answered, never recorded: made again inside the budget, and the interruption recorded
            assert extracted == [a, b, a, b] and len(after.of(AttemptInterrupted)) == 2
            assert result.usage.extractions == "4/12"
        elif (kill_at, kill_after) == ("attempt_started", 3):
            # budget spent, call never answered (here: never sent): the same, counted and recorded
            assert extracted == [a, b] and len(after.of(AttemptInterrupted)) == 2
            assert result.usage.extractions == "4/12"
        else:
            assert extracted == [a, b] and result.usage.extractions == "2/12"
        if kill_at == "in_flight_review":
            assert purposes == ["plan", "review", "review", "write"]
            (cut,) = after.of(ModelCallInterrupted)
            assert cut.purpose == "review" and cut.estimated_prompt_tokens > 0  # counted: it may have been billed
            assert result.usage.tokens >= cut.estimated_prompt_tokens
        else:
            assert purposes == ["plan", "review", "write"]  # no recorded model call repeated


def test_a_run_still_running_elsewhere_is_not_resumed_twice(store: EvidenceStore) -> None:
    from citewise.errors import InputError
    from citewise.providers.local import LocalExtractor, LocalSearch
    from citewise.research.loop import resume
    from citewise.research.settings import ResearchSettings

    run_id = RunStore(store).create("research", "q")  # owned by this (live) process
    settings = ResearchSettings(search=LocalSearch(store), extractor=LocalExtractor(store))
    with pytest.raises(InputError, match="still running"):
        resume(store, run_id, settings)


def test_a_run_killed_after_its_revision_was_recorded_resumes_without_asking_for_it_again(tmp_path: Path) -> None:
    """Killed during the second verification (the revision answered and its draft recorded): the
    resumed run delivers from the recorded revision; the revision prompt is not sent twice."""
    from citewise.testing.fake_openai import FakeOpenAIServer
    from citewise.testing.fake_tavily import FakeTavilyServer
    from tests.loop_harness import Brain, Web, covered, draft_citing, page, plan_reply, revise_by

    web, brain = Web(), Brain()
    path = tmp_path / "s.sqlite"
    with (
        FakeTavilyServer(api_key="tvly-kill", search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key="sk-kill") as model,
    ):
        model.responder = brain
        a, b = "https://law.example/deposits", "https://gov.example/return"
        web.hits["rental deposit law"] = [a, b]
        web.pages.update({a: page("the deposit act"), b: page("deposit returns")})
        brain.script("plan", plan_reply())
        brain.script("review", covered)
        # a sentence that cites nothing: verification removes it and the writer is asked to revise once
        brain.script("write", draft_citing("S1", "S2", extra="\n\nLandlords usually comply within a week."))
        brain.script("revise", revise_by(lambda sentence: "Revised: deposits are protected here [S1]."))
        script = CHILD.format(repo=str(REPO), store=str(path), tavily=tavily.base_url, model=model.base_url)
        child = subprocess.Popen([sys.executable, "-c", script, "draft_made", "2"], stderr=subprocess.PIPE)
        _, err = child.communicate(timeout=60)
        assert child.returncode == -signal.SIGKILL, err.decode()[-2000:]
        assert [p for p, _ in brain.seen] == ["plan", "review", "write", "revise"]
        with EvidenceStore.open(str(path)) as store:
            (listed,) = RunStore(store).list()
            result = _resume(store, listed.run_id, tavily.base_url, model.base_url)
    assert [p for p, _ in brain.seen] == ["plan", "review", "write", "revise"]  # nothing asked twice
    assert result.status == "report" and "Landlords usually comply" not in (result.body or "")
