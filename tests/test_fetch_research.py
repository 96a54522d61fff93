"""Research end to end with citewise's own fetcher (``--extract own``) against loopback fakes: the real
tavily-python client for search, the real fetcher for pages; non-public hits never become sources
whichever extractor is used; a fallback extractor gets a budgeted, recorded second attempt."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from citewise.audit.events import ExtractFellBack, Verified
from citewise.cli import app
from citewise.config import Secret
from citewise.fetch.guard import ALLOW_ENV
from citewise.providers.own import OwnExtractor
from citewise.providers.registry import extractor_names, get_extractor
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.records.budget import Budget
from citewise.records.research import AttemptKind, SkipReason
from citewise.research.configure import WithFallback
from citewise.research.loop import research
from citewise.research.prompts import build_review_messages, build_write_messages
from citewise.research.settings import ResearchSettings
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.testing.fake_tavily import FakeExtractReply, FakeSearchReply, FakeTavilyServer
from citewise.testing.fake_web import FakeWeb

pytestmark = pytest.mark.integration

PAGES = Path(__file__).parent / "fixtures" / "pages"
QUESTION = "How are bank deposits protected?"
NON_PUBLIC = [
    "http://127.0.0.1:8080/admin",
    "http://[::1]/a",
    "http://2130706433/b",
    "http://0x7f.1/c",
    "http://localhost/d",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:7f00:1]/e",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://10.0.0.8/f",
]


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeWeb]:
    with FakeWeb() as server:
        monkeypatch.setenv(ALLOW_ENV, f"127.0.0.1:{server.port}")
        server.page("/economy/2024/11/18/deposit-protection", (PAGES / "news_article.html").read_bytes())
        server.page("/lease-renewal", (PAGES / "blog_byline.html").read_bytes())
        yield server


def _hits(*urls: str) -> Any:
    def search(body: Any) -> FakeSearchReply:
        return FakeSearchReply([{"url": u, "title": f"hit {i}", "content": "SNIPPET ONLY"} for i, u in enumerate(urls)])

    return search


def _settings(connection: TavilyConnection, extractor: Any, pages: int = 12) -> ResearchSettings:
    return ResearchSettings(
        search=TavilySearch(connection=connection),
        extractor=extractor,
        budget=Budget(max_rounds=1, max_extractions=pages),
        client=None,
        concurrent=False,
    )


def test_own_is_an_extractor_in_the_registry() -> None:
    assert "own" in extractor_names()
    extractor = get_extractor("own")
    try:
        assert extractor.name == "own" and extractor.options["max_redirects"] == 5
    finally:
        extractor.close()


def test_research_runs_end_to_end_with_the_own_fetcher(web: FakeWeb, store: EvidenceStore) -> None:
    news, blog = web.url("/economy/2024/11/18/deposit-protection"), web.url("/lease-renewal")
    with (
        FakeTavilyServer(api_key="tvly-x", search_responder=_hits(news, blog)) as tavily,
        TavilyConnection(TavilySettings(api_key=Secret("tvly-x"), base_url=tavily.base_url, timeout_s=5)) as conn,
        OwnExtractor() as own,
    ):
        result = research(store, QUESTION, _settings(conn, own))
        assert all(r.path == "/search" for r in tavily.requests)  # pages came through citewise, not Tavily
    by_url = {s.url: s for s in result.sources}
    assert set(by_url) == {news, blog}
    assert {s.provider for s in result.sources} == {"own"}
    assert (by_url[news].published_at, by_url[news].publication_date_source) == ("2024-11-18", "json-ld datePublished")
    assert (by_url[blog].published_at, by_url[blog].publication_date_source) == ("2023-03-05", "visible byline")
    assert "SNIPPET ONLY" not in by_url[news].page_text
    assert "published 2024-11-18" in result.markdown
    # The reviewer and the writer see the date; the ledger reads an undated claim as of it.
    data = json.loads(build_write_messages(QUESTION, result.plan, result.sources, result.reviews[-1])[1]["content"])
    assert {s["id"]: s.get("published") for s in data["sources"]} == {
        by_url[news].source_id: "2024-11-18",
        by_url[blog].source_id: "2023-03-05",
    }
    review = json.loads(build_review_messages(QUESTION, result.plan, result.sources)[1]["content"])
    assert "published" in review["sources"][0]
    verified = RunStore(store).get(result.run_id).last(Verified)
    assert verified is not None
    as_of = {e.scope.as_of for e in verified.entries if not e.scope.dates and e.source_url}
    assert as_of and as_of <= {"2024-11-18", "2023-03-05"}


@pytest.mark.parametrize("chunk", [NON_PUBLIC[:4], NON_PUBLIC[4:8], NON_PUBLIC[8:]])
def test_non_public_hits_never_reach_any_extractor_or_become_sources(store: EvidenceStore, chunk: list[str]) -> None:
    """Tavily returns five hits; the non-public ones are refused before extraction, by Tavily too."""
    ok = "https://law.example/deposits"
    asked: list[str] = []

    def extract(body: Any) -> FakeExtractReply:
        asked.extend(body["urls"])
        return FakeExtractReply(
            [{"url": u, "raw_content": f"# Page\n\nDeposits are protected at {u}."} for u in body["urls"]]
        )

    with (
        FakeTavilyServer(api_key="tvly-x", search_responder=_hits(*chunk, ok), extract_responder=extract) as t,
        TavilyConnection(TavilySettings(api_key=Secret("tvly-x"), base_url=t.base_url, timeout_s=5)) as conn,
    ):
        result = research(store, QUESTION, _settings(conn, TavilyExtract(connection=conn)))
    assert set(asked) == {ok}
    assert [s.url for s in result.sources] == [ok]
    record = RunStore(store).get(result.run_id)
    skipped = [e.event.skip for e in record.events if type(e.event).__name__ == "Skipped"]
    refused = {s.target for s in skipped if s.reason is SkipReason.UNUSABLE_URL}
    assert refused == set(chunk)
    assert all("is not public" in (s.detail or "") for s in skipped if s.reason is SkipReason.UNUSABLE_URL)


def test_a_page_own_cannot_read_falls_back_to_tavily_inside_the_budget(web: FakeWeb, store: EvidenceStore) -> None:
    walled = web.page(
        "/members/report",
        ("<html><body><form><input type='password' name='p'></form><p>Sign in to continue reading.</p></body></html>"),
    )

    def extract(body: Any) -> FakeExtractReply:
        return FakeExtractReply(
            [{"url": u, "raw_content": "# Report\n\nDeposits are protected by law."} for u in body["urls"]]
        )

    with (
        FakeTavilyServer(api_key="tvly-x", search_responder=_hits(walled), extract_responder=extract) as tavily,
        TavilyConnection(TavilySettings(api_key=Secret("tvly-x"), base_url=tavily.base_url, timeout_s=5)) as conn,
        OwnExtractor() as own,
    ):
        result = research(store, QUESTION, _settings(conn, WithFallback(own, TavilyExtract(connection=conn))))
    assert [(s.url, s.provider) for s in result.sources] == [(walled, "tavily")]
    record = RunStore(store).get(result.run_id)
    fell_back = [e.event for e in record.events if isinstance(e.event, ExtractFellBack)]
    assert fell_back == [ExtractFellBack(1, "own", "tavily", (walled,))]
    extracts = [a for a in result_attempts(record) if a.kind is AttemptKind.EXTRACT]
    assert [a.ok for a in extracts] == [False, True]
    assert "login_wall" in (extracts[0].error or "")


def test_a_failed_tavily_extract_falls_back_to_the_own_fetcher(web: FakeWeb, store: EvidenceStore) -> None:
    news = web.url("/economy/2024/11/18/deposit-protection")
    with (
        FakeTavilyServer(api_key="tvly-x", search_responder=_hits(news)) as tavily,
        TavilyConnection(TavilySettings(api_key=Secret("tvly-x"), base_url=tavily.base_url, timeout_s=5)) as conn,
        OwnExtractor() as own,
    ):
        tavily.enqueue_search([news])
        tavily.enqueue_error(502, "Bad gateway")  # then the extract call fails as a whole
        search = _settings(conn, WithFallback(TavilyExtract(connection=conn), own))
        result = research(store, QUESTION, search)
    assert [(s.url, s.provider, s.published_at) for s in result.sources] == [(news, "own", "2024-11-18")]
    assert result.usage.extractions == "2/12"  # the failed call and the fallback, both counted


def test_the_fallback_is_not_tried_when_the_page_budget_is_spent(web: FakeWeb, store: EvidenceStore) -> None:
    walled = web.page("/members/x", "<html><body><input type='password'><p>Log in to continue.</p></body></html>")
    with (
        FakeTavilyServer(api_key="tvly-x", search_responder=_hits(walled)) as tavily,
        TavilyConnection(TavilySettings(api_key=Secret("tvly-x"), base_url=tavily.base_url, timeout_s=5)) as conn,
        OwnExtractor() as own,
    ):
        result = research(store, QUESTION, _settings(conn, WithFallback(own, TavilyExtract(connection=conn)), pages=1))
        assert all(r.path == "/search" for r in tavily.requests)
    assert result.sources == ()


def result_attempts(record: Any) -> list[Any]:
    return [e.event.attempt for e in record.events if type(e.event).__name__ == "AttemptEnded"]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CITEWISE_STORE", str(tmp_path / "cli.sqlite"))
    monkeypatch.setenv("COLUMNS", "200")
    for name in ("COMETAPI_KEY", "CITEWISE_LLM_API_KEY", "PLANNER_MODEL", "WRITER_MODEL"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == code, (result.output, result.exception)
        return result.stdout if code in (0, 3, 4) else result.output

    return run


def test_cli_research_with_extract_own(web: FakeWeb, cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    news = web.url("/economy/2024/11/18/deposit-protection")
    with FakeTavilyServer(api_key="tvly-x", search_responder=_hits(news)) as tavily:
        monkeypatch.setenv("TAVILY_API_KEY", "tvly-x")
        monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", tavily.base_url)
        out = json.loads(cli("research", QUESTION, "--extract", "own", "--no-model", "--pages", "2", "--json"))
    assert [(s["provider"], s["published_at"]) for s in out["sources"]] == [("own", "2024-11-18")]


def test_cli_research_refuses_an_unknown_or_same_fallback(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-x")
    assert "valid: tavily, own, browser, none" in cli("research", "q", "--extract", "wget", "--no-model", code=2)
    same = cli("research", "q", "--extract", "own", "--extract-fallback", "own", "--no-model", code=2)
    assert "must name another extractor" in same


def test_cli_fetch_prints_text_date_and_decisions_and_exits_4_on_a_gap(web: FakeWeb, cli: Any) -> None:
    out = json.loads(cli("fetch", web.url("/economy/2024/11/18/deposit-protection"), "--json"))
    result = out["result"]
    assert out["ok"] and result["published_at"] == "2024-11-18" and "100 million won" in result["text"]
    assert [d["step"] for d in result["decisions"]][0] == "url"
    refused = json.loads(cli("fetch", "http://2130706433/", "--json", code=4))
    assert refused["result"]["outcome"] == "refused_url" and not refused["ok"]
    human = cli("fetch", "http://[::ffff:7f00:1]:80/", code=4)
    assert "could not read (refused_url)" in human and "loopback" in human
