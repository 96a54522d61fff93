"""The whole main job on SQLite and on a real PostgreSQL, through the Python API: ingest -> review ->
ask -> research (real clients against the loopback fakes) -> verify -> review a claim -> export -> cost;
the two backends' typed run records must be the same, ids and timestamps aside."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from citewise import Citewise
from citewise.audit.events import ReportMade, Verified
from citewise.config import Secret
from citewise.llm import ChatClient, ModelSettings
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.records.budget import Budget
from citewise.research.settings import ResearchSettings
from citewise.serial import to_data
from citewise.store.runs import RunRecord
from citewise.testing.fake_openai import FakeOpenAIServer
from citewise.testing.fake_tavily import FakeTavilyServer
from tests.conftest import REPO
from tests.loop_harness import Brain, Web, covered, draft_citing, page, plan_reply

pytestmark = pytest.mark.integration

SAMPLE = REPO / "examples" / "corpus"
VOLATILE = {"store", "at", "started_at", "retrieved_at", "answered_at", "noticed_at", "latency_s", "run_id", "gated_on"}
_RUN_ID = re.compile(r"(ask|research)-\d{8}-\d{6}-[0-9a-f]{6}")
_FAKE = re.compile(r"http://127\.0\.0\.1:\d+")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(\+00:00)?")


def _stable(value: Any) -> Any:
    """``value`` without what differs between two runs of the same job: ids, times, latencies."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    if isinstance(value, str):
        return _FAKE.sub("<fake>", _TIME.sub("<time>", _RUN_ID.sub("<run>", value)))
    return value


def _events(record: RunRecord) -> list[tuple[str, Any]]:
    return [(r.event.kind.value, _stable(to_data(r.event))) for r in record.events]


def _main_job(url: str, tmp_path: Path) -> dict[str, Any]:
    web, brain = Web(), Brain()
    a, b = "https://law.example/deposits", "https://gov.example/return"
    web.hits["rental deposit law"] = [a, b]
    web.pages.update({a: page("the deposit act"), b: page("deposit returns")})
    brain.script("plan", plan_reply())
    brain.script("review", covered)
    brain.script("write", draft_citing("S1", "S2"))
    with (
        Citewise(store=url) as cw,
        FakeTavilyServer(api_key="tvly-e2e", search_responder=web.search, extract_responder=web.extract) as tavily,
        FakeOpenAIServer(api_key="sk-e2e") as model,
    ):
        model.responder = brain
        cw.ingest(SAMPLE, manifest=SAMPLE / "ingest.yaml")
        cw.apply_review_manifest(SAMPLE / "review.yaml")
        asked = cw.ask("해고 예고는 며칠 전에 해야 하나요?")
        ts = TavilySettings(api_key=Secret("tvly-e2e"), base_url=tavily.base_url, timeout_s=10)
        ms = ModelSettings(api_key=Secret("sk-e2e"), base_url=model.base_url, timeout_s=10)
        with TavilyConnection(ts) as connection, ChatClient(ms) as client:
            settings = ResearchSettings(
                search=TavilySearch(connection=connection),
                extractor=TavilyExtract(connection=connection),
                budget=Budget(),
                client=client,
                planner_model="planner-x",
                writer_model="writer-y",
                concurrent=False,
            )
            researched = cw.research("How are rental deposits protected?", settings)
        keyless = cw.research("주택임대차보호법에서 보증금은 어떻게 돌려받나요?", no_model=True, search="local")
        verdicts = {run: cw.verify(run) for run in (asked.run_id, researched.run_id, keyless.run_id)}
        first_claim = verdicts[keyless.run_id].entries[0].claim.claim_id
        cw.review_claim(keyless.run_id, first_claim, "supported", reviewer="Kim", reason="checked by hand")
        exports = {fmt: cw.export(researched.run_id, fmt) for fmt in ("md", "json", "html")}
        cost = cw.cost(REPO / "examples" / "prices.yaml")
        records = {
            name: cw.run(run)
            for name, run in (("ask", asked.run_id), ("web", researched.run_id), ("keyless", keyless.run_id))
        }
        assert cw.verify_store()[1] == []
    return {"records": records, "exports": exports, "cost": cost, "researched": researched}


def test_the_main_job_gives_the_same_typed_records_on_sqlite_and_postgresql(tmp_path: Path, postgres_url: str) -> None:
    on_sqlite = _main_job(str(tmp_path / "store.sqlite"), tmp_path)
    on_postgres = _main_job(postgres_url, tmp_path)
    for job in (on_sqlite, on_postgres):
        web = job["records"]["web"]
        assert job["researched"].status == "report" and web.last(ReportMade) is not None
        assert web.last(Verified) is not None and "## Claim ledger" in job["exports"]["md"]
        assert job["cost"].runs == 3
        keyless = job["records"]["keyless"]
        assert len(keyless.of(Verified)) == 3  # at delivery, by verify, and again after the claim review
    for name in ("ask", "web", "keyless"):
        one, other = _events(on_sqlite["records"][name]), _events(on_postgres["records"][name])
        assert one == other, _diff(one, other)
    assert on_sqlite["cost"].total == on_postgres["cost"].total


def _diff(a: list[Any], b: list[Any]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"{i}: {x}\n!=\n{y}"
    return f"lengths {len(a)} {len(b)}"
