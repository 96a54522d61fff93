"""Native engines end to end against loopback fakes of the three APIs (the official SDKs, unpatched):
each engine's answer is read, its cited pages extracted by citewise (fake Tavily), its citations
placed and checked, and its claims verified by the same delivery as citewise's own loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from citewise.audit.events import (
    DraftMade,
    EngineAnswered,
    EngineCallFailed,
    EngineCitationsChecked,
    EngineRedirectResolved,
    EngineSearched,
    EngineToolFailed,
    ModelCallEnded,
    ModelCallStarted,
)
from citewise.config import Secret
from citewise.engines.connect import EngineEndpoint
from citewise.engines.prompt import ENGINE_INSTRUCTIONS
from citewise.engines.registry import get_engine
from citewise.engines.run import research_with_engine
from citewise.providers.tavily import TavilyConnection, TavilyExtract
from citewise.providers.tavily_settings import TavilySettings
from citewise.records.budget import Budget
from citewise.records.engines import CitationFlag, CitationStatus, EngineErrorKind, EngineToolUnavailable
from citewise.records.research import ReportStatus, StopReason
from citewise.research.context import ResearchResult
from citewise.research.settings import ResearchSettings
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunRecord, RunStore
from citewise.testing import FakeNativeServer, anthropic_web_answer, gemini_grounded_answer, openai_web_answer
from citewise.testing.fake_tavily import FakeExtractReply, FakeTavilyServer
from citewise.text.tokens import estimate_text_tokens

KEY = "sk-native-test-key-0123456789"
LEASE = "https://law.example/lease"
DEPOSIT = "https://law.example/deposit"
PAGES = {
    LEASE: "# Housing Lease Act\n\nA lease of a dwelling runs for two years. The tenant may end it earlier.\n",
    DEPOSIT: "# Deposits\n\nThe deposit is returned when the lease ends. Interest is not owed on it.\n",
}


@dataclass
class Web:
    pages: dict[str, str] = field(default_factory=lambda: dict(PAGES))

    def extract(self, request: Any) -> FakeExtractReply:
        urls = request.get("urls", [])
        urls = [urls] if isinstance(urls, str) else urls
        found = [{"url": u, "raw_content": self.pages[u]} for u in urls if u in self.pages]
        failed = [{"url": u, "error": "could not fetch"} for u in urls if u not in self.pages]
        return FakeExtractReply(found, failed)


@dataclass
class Env:
    store: EvidenceStore
    tavily: FakeTavilyServer
    extractor: TavilyExtract
    web: Web
    slept: list[float] = field(default_factory=list)

    def run(
        self, server: FakeNativeServer, question: str = "How long does a lease run?", **budget: Any
    ) -> ResearchResult:
        endpoint = EngineEndpoint(server.provider, Secret(KEY), server.base_url, "K", "U", timeout_s=10)
        engine = get_engine(server.provider, model="m-1", endpoint=endpoint)
        settings = ResearchSettings(
            search=None,
            extractor=self.extractor,
            budget=Budget(**budget),
            sleep=self.slept.append,
            engine=f"{server.provider}:m-1",
        )
        try:
            return research_with_engine(self.store, question, engine, settings, redirect_hosts=(server.host,))
        finally:
            engine.close()

    def record(self, run_id: str) -> RunRecord:
        return RunStore(self.store).get(run_id)


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    web = Web()
    with (
        EvidenceStore.open(str(tmp_path / "s.sqlite")) as store,
        FakeTavilyServer(api_key="tvly-test-key-0123456789", extract_responder=web.extract) as tavily,
    ):
        settings = TavilySettings(api_key=Secret("tvly-test-key-0123456789"), base_url=tavily.base_url, timeout_s=10)
        with TavilyConnection(settings) as connection:
            yield Env(store, tavily, TavilyExtract(connection=connection), web)


@pytest.fixture(params=["openai", "anthropic", "gemini"])
def provider(request: pytest.FixtureRequest) -> Iterator[FakeNativeServer]:
    with FakeNativeServer(request.param) as server:
        yield server


def honest(server: FakeNativeServer, lease: str = LEASE) -> None:
    """An honest answer: two claims, each cited to the page that states it."""
    first, second = "A lease of a dwelling runs for two years.", " The deposit is returned when the lease ends."
    text = first + second
    if server.provider == "openai":
        server.enqueue_body(
            openai_web_answer(
                text,
                [(0, len(first), lease, "Act"), (len(first), len(text), DEPOSIT, "Deposits")],
                searches=[("lease term", [lease, DEPOSIT])],
            )
        )
    elif server.provider == "anthropic":
        server.enqueue_body(
            anthropic_web_answer(
                [
                    (first, [(lease, "Act", "A lease of a dwelling runs for two years. ")]),
                    (second, [(DEPOSIT, "Deposits", "The deposit is returned when the lease ends.")]),
                ],
                searches=[("lease term", [(lease, "Act"), (DEPOSIT, "Deposits")])],
            )
        )
    else:
        chunks = [(server.redirect_to(lease), "law.example"), (server.redirect_to(DEPOSIT), "law.example")]
        server.enqueue_body(
            gemini_grounded_answer(
                text, [(0, len(first), [0]), (len(first) + 1, len(text), [1])], chunks, queries=["lease term"]
            )
        )


def test_an_honest_answer_is_verified_claim_by_claim_and_accepted(env: Env, provider: FakeNativeServer) -> None:
    honest(provider)
    result = env.run(provider)
    assert result.status is ReportStatus.REPORT and result.stop_reason is StopReason.ENGINE_ANSWERED
    assert result.acceptance is not None and result.acceptance.accepted, result.markdown
    assert [s.url for s in result.sources] == [LEASE, DEPOSIT]
    assert result.body is not None and "two years [S1]." in result.body and "ends [S2]." in result.body
    record = env.record(result.run_id)
    assert [e.search.query for e in record.of(EngineSearched)] == ["lease term"]
    answered = record.last(EngineAnswered)
    assert answered is not None and answered.engine == provider.provider and answered.usage.input_tokens
    checks = record.last(EngineCitationsChecked)
    assert checks is not None and all(c.status is CitationStatus.CHECKED and not c.flags for c in checks.checks)
    ended = [e for e in record.of(ModelCallEnded) if e.purpose == "engine"]
    assert len(ended) == 1 and ended[0].outcome == "ok" and ended[0].prompt_tokens
    assert "the native engine" in result.markdown


def test_the_sdk_streams_and_sends_the_search_budget(env: Env, provider: FakeNativeServer) -> None:
    honest(provider)
    env.run(provider, max_searches=3)
    request = provider.requests[0]
    if provider.provider == "openai":
        assert request.json["stream"] is True and request.json["max_tool_calls"] == 3
        assert request.json["include"] == ["web_search_call.action.sources"]
        assert request.json["tools"] == [{"type": "web_search"}]
    elif provider.provider == "anthropic":
        assert request.json["stream"] is True
        assert request.json["tools"] == [{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}]
    else:
        assert ":streamGenerateContent" in request.path and request.json["tools"] == [{"googleSearch": {}}]


def test_a_page_citewise_cannot_read_leaves_its_claim_unreviewed_never_supported(
    env: Env, provider: FakeNativeServer
) -> None:
    del env.web.pages[DEPOSIT]
    honest(provider)
    result = env.run(provider)
    assert [s.url for s in result.sources] == [LEASE]
    assert result.body is not None and "deposit" not in result.body.lower()
    checks = env.record(result.run_id).last(EngineCitationsChecked)
    assert checks is not None
    unread = [c for c in checks.checks if c.status is CitationStatus.UNREVIEWED]
    assert len(unread) == 1 and unread[0].source_id is None and CitationFlag.PAGE_UNREADABLE in unread[0].flags
    assert "could not read this page" in result.markdown


def test_a_url_no_search_returned_is_flagged(env: Env, provider: FakeNativeServer) -> None:
    if provider.provider == "gemini":  # Gemini cites chunks by index: one naming no chunk is the case
        text = "A lease of a dwelling runs for two years."
        provider.enqueue_body(gemini_grounded_answer(text, [(0, len(text), [5])], [], queries=["q"]))
        result = env.run(provider)
        checks = env.record(result.run_id).last(EngineCitationsChecked)
        assert checks is not None and checks.checks[0].url == "grounding-chunk:5"
        assert CitationFlag.PAGE_UNREADABLE in checks.checks[0].flags
        return
    text = "A lease of a dwelling runs for two years."
    if provider.provider == "openai":
        provider.enqueue_body(openai_web_answer(text, [(0, len(text), LEASE, "Act")], searches=[("q", [DEPOSIT])]))
    else:
        provider.enqueue_body(
            anthropic_web_answer(
                [(text, [(LEASE, "Act", "A lease of a dwelling runs")])], searches=[("q", [(DEPOSIT, "Deposits")])]
            )
        )
    result = env.run(provider)
    checks = env.record(result.run_id).last(EngineCitationsChecked)
    assert checks is not None and checks.checks[0].flags == (CitationFlag.NOT_SEARCHED,)
    assert checks.checks[0].status is CitationStatus.CHECKED  # still read and verified by citewise
    assert "none of the engine's searches returned this URL" in result.markdown


def test_a_cited_text_that_is_not_on_the_page_is_flagged(env: Env) -> None:
    with FakeNativeServer("anthropic") as server:
        text = "A lease of a dwelling runs for two years."
        server.enqueue_body(
            anthropic_web_answer(
                [(text, [(LEASE, "Act", "Leases are perpetual unless registered otherwise.")])],
                searches=[("q", [(LEASE, "Act")])],
            )
        )
        result = env.run(server)
    checks = env.record(result.run_id).last(EngineCitationsChecked)
    assert checks is not None and checks.checks[0].flags == (CitationFlag.CITED_TEXT_NOT_ON_PAGE,)
    assert "is not on the page citewise read" in result.markdown


def test_a_shortened_cited_text_is_matched_by_what_precedes_the_ellipsis(env: Env) -> None:
    with FakeNativeServer("anthropic") as server:
        text = "A lease of a dwelling runs for two years."
        server.enqueue_body(
            anthropic_web_answer(
                [(text, [(LEASE, "Act", "A lease of a dwelling runs for...")])], searches=[("q", [(LEASE, "Act")])]
            )
        )
        result = env.run(server)
    checks = env.record(result.run_id).last(EngineCitationsChecked)
    assert checks is not None and checks.checks[0].flags == ()


def test_korean_byte_offsets_land_on_the_right_sentences(env: Env) -> None:
    env.web.pages[LEASE] = "# 주택임대차보호법\n\n임대차는 그 기간을 2년으로 본다. 보증금은 반환되어야 한다.\n"
    first, second = "임대차는 그 기간을 2년으로 본다.", " 보증금은 반환되어야 한다."
    text = first + second
    with FakeNativeServer("gemini") as server:
        chunk = [(server.redirect_to(LEASE), "law.example")]
        # the second sentence only: its byte offsets are far past its character offsets
        server.enqueue_body(gemini_grounded_answer(text, [(len(first) + 1, len(text), [0])], chunk, queries=["임대차"]))
        result = env.run(server, question="임대차 기간은?")
        body = server.requests[0].json
    assert body["contents"][0]["parts"][0]["text"] == "임대차 기간은?"
    assert result.body is not None and "반환되어야 한다 [S1]." in result.body
    assert "[S1]" not in result.body.split("보증금")[0]
    resolved = env.record(result.run_id).last(EngineRedirectResolved)
    assert resolved is not None and resolved.final_url == LEASE and resolved.redirect_url != LEASE


@pytest.mark.parametrize(
    ("name", "status", "kind"),
    [
        ("openai", 429, "rate_limit_exceeded"),
        ("anthropic", 429, "rate_limit_error"),
        ("gemini", 429, "RESOURCE_EXHAUSTED"),
        ("anthropic", 529, "overloaded_error"),
    ],
)
def test_a_rate_limit_is_recorded_and_retried_once_inside_the_budget(
    env: Env, name: str, status: int, kind: str
) -> None:
    with FakeNativeServer(name) as server:
        server.enqueue_error(status, "slow down", type=kind, headers={"retry-after": "2"})
        honest(server)
        result = env.run(server)
    record = env.record(result.run_id)
    failed = record.of(EngineCallFailed)
    expected = EngineErrorKind.RATE_LIMITED if status == 429 else EngineErrorKind.SERVER
    assert [f.error_kind for f in failed] == [expected] and failed[0].status_code == status
    assert env.slept == [2.0] if status == 429 else env.slept == [1.0]
    assert result.acceptance is not None and result.acceptance.accepted
    assert [e.outcome for e in record.of(ModelCallEnded)] == [expected.value, "ok"]


def test_two_rate_limits_end_the_run_without_an_answer(env: Env, provider: FakeNativeServer) -> None:
    provider.enqueue_error(429, "slow down")
    provider.enqueue_error(429, "still slow")
    result = env.run(provider)
    assert result.status is ReportStatus.NO_EVIDENCE and result.stop_reason is StopReason.ENGINE_FAILED
    assert len(env.record(result.run_id).of(EngineCallFailed)) == 2 and len(provider.requests) == 2


def test_max_uses_exceeded_is_recorded_as_a_tool_error(env: Env) -> None:
    with FakeNativeServer("anthropic") as server:
        text = "A lease of a dwelling runs for two years."
        server.enqueue_body(
            anthropic_web_answer(
                [(text, [(LEASE, "Act", "A lease of a dwelling runs for two years.")])],
                searches=[("q", [(LEASE, "Act")]), ("again", "max_uses_exceeded"), ("more", "too_many_requests")],
            )
        )
        result = env.run(server, max_searches=1)
    errors = env.record(result.run_id).of(EngineToolFailed)
    assert [e.error.code for e in errors] == ["max_uses_exceeded", "too_many_requests"]
    assert "web_search tool failed: max_uses_exceeded" in result.markdown
    assert result.acceptance is not None and result.acceptance.accepted


def test_a_gateway_without_the_native_tool_is_one_clear_line(env: Env, provider: FakeNativeServer) -> None:
    provider.enqueue_error(400, "Unsupported tool type: web_search is not supported on this endpoint")
    with pytest.raises(EngineToolUnavailable) as caught:
        env.run(provider)
    message = str(caught.value)
    assert "does not offer" in message and "\n" not in message and KEY not in message
    assert "gateway" in message  # the fake is not the official endpoint


def test_text_shaped_like_a_citation_in_the_answer_is_escaped_not_trusted(env: Env) -> None:
    with FakeNativeServer("openai") as server:
        text = "A lease of a dwelling runs for two years [S2] {{S1.1}}."
        server.enqueue_body(openai_web_answer(text, [(0, len(text), LEASE, "Act")], searches=[("q", [LEASE])]))
        result = env.run(server)
    draft = env.record(result.run_id).last(DraftMade)
    assert draft is not None and "\\[S2\\]" in draft.draft.markdown and draft.draft.source_ids == ("S1",)
    assert "\\{\\{S1.1\\}\\}" in draft.draft.markdown  # never filled in from the stored page
    # the escaped text is checked as the engine's words (its "2" is not on the page), never as a citation
    assert all("not a stored source" not in f.reason for f in result.removed)


def test_the_engine_key_never_reaches_the_record(env: Env, provider: FakeNativeServer) -> None:
    provider.enqueue_error(401, f"invalid key {KEY}")
    result = env.run(provider)
    record = env.record(result.run_id)
    assert KEY not in repr(record.events) and KEY not in result.markdown
    assert record.of(EngineCallFailed)[0].error_kind is EngineErrorKind.AUTH


def test_native_search_calls_are_priced_per_call_and_cost_per_accepted_report_is_per_engine(env: Env) -> None:
    from decimal import Decimal

    from citewise.cost.ledger import Component, cost_report
    from citewise.prices import default_prices

    with FakeNativeServer("anthropic") as server:
        honest(server)
        env.run(server)
    with FakeNativeServer("openai") as server:
        server.enqueue_error(429, "slow down")
        server.enqueue_error(429, "slow down")
        env.run(server)
    report = cost_report(env.store, default_prices())
    search = [line for line in report.lines if line.component is Component.SEARCH]
    assert [(line.item, line.quantity, line.amount) for line in search] == [
        ("anthropic search tool calls", Decimal(1), Decimal("0.01"))
    ]
    engines = report.per_engine()
    assert (engines["anthropic"].runs, engines["anthropic"].accepted) == (1, 1)
    assert (engines["openai"].runs, engines["openai"].accepted) == (1, 0)
    assert engines["openai"].cost_per_accepted_report is None
    assert engines["anthropic"].cost_per_accepted_report == engines["anthropic"].total


def test_offsets_outside_the_answer_cover_no_sentence_and_are_flagged(env: Env) -> None:
    with FakeNativeServer("openai") as server:
        text = "A lease of a dwelling runs for two years."
        server.enqueue_body(openai_web_answer(text, [(900, 950, LEASE, "Act")], searches=[("q", [LEASE])]))
        result = env.run(server)
    checks = env.record(result.run_id).last(EngineCitationsChecked)
    assert checks is not None and CitationFlag.NO_SENTENCE in checks.checks[0].flags
    assert result.status is ReportStatus.NO_EVIDENCE  # nothing was attached, so nothing is delivered


def test_the_page_budget_caps_what_is_read_and_the_rest_is_unreviewed(env: Env, provider: FakeNativeServer) -> None:
    honest(provider)
    result = env.run(provider, max_extractions=1)
    assert [s.url for s in result.sources] == [LEASE]
    checks = env.record(result.run_id).last(EngineCitationsChecked)
    assert checks is not None
    assert [c.status for c in checks.checks] == [CitationStatus.CHECKED, CitationStatus.UNREVIEWED]


def test_a_cited_url_with_credentials_is_never_recorded_nor_read(env: Env) -> None:
    secret_url = "https://admin:hunter2-secret@law.example/lease"
    with FakeNativeServer("openai") as server:
        text = "A lease of a dwelling runs for two years."
        server.enqueue_body(
            openai_web_answer(text, [(0, len(text), secret_url, "Act")], searches=[("q", [secret_url])])
        )
        result = env.run(server)
    record = env.record(result.run_id)
    assert "hunter2-secret" not in repr(record.events) and not result.sources
    assert all(r.path.rstrip("/") != "/extract" for r in env.tavily.requests)


def test_a_native_run_cannot_be_resumed(env: Env) -> None:
    from citewise.errors import InputError
    from citewise.research.loop import resume

    with FakeNativeServer("openai") as server:
        honest(server)
        result = env.run(server)
    with pytest.raises(InputError, match="native engine"):
        resume(env.store, result.run_id, ResearchSettings(search=None, extractor=env.extractor))


def test_a_token_cap_the_call_would_cross_stops_it_before_it_is_sent(env: Env, provider: FakeNativeServer) -> None:
    honest(provider)
    result = env.run(provider, max_tokens=600)
    assert result.stop_reason is StopReason.TOKENS_EXHAUSTED and result.status is ReportStatus.NO_EVIDENCE
    assert provider.requests == []


def test_the_engine_prompt_is_estimated_as_every_model_call_is(env: Env) -> None:
    # The engine path divided characters by three, so a Korean question was estimated at a third of
    # a token a syllable: under what the endpoint bills, and so under a cap it would cross.
    question = "주택 임대차의 존속기간은 얼마인가요?"
    with FakeNativeServer("openai") as server:
        honest(server)
        result = env.run(server, question=question)
    [started] = env.record(result.run_id).of(ModelCallStarted)
    assert started.estimated_prompt_tokens == estimate_text_tokens(question) + estimate_text_tokens(ENGINE_INSTRUCTIONS)
    assert started.estimated_prompt_tokens > (len(question) + len(ENGINE_INSTRUCTIONS)) // 3 + 1


def test_a_redirect_off_the_engine_endpoint_is_refused(env: Env, provider: FakeNativeServer) -> None:
    provider.enqueue_raw(307, "", "text/plain", {"location": "http://evil.example/steal"})
    result = env.run(provider)
    failed = env.record(result.run_id).of(EngineCallFailed)
    # followed by the SDK: refused before the hop is sent; not followed (Gemini's client): reported
    assert failed and ("another origin" in failed[0].message and "U" in failed[0].message)
    assert failed[0].error_kind is EngineErrorKind.INVALID_RESPONSE
    assert result.status is ReportStatus.NO_EVIDENCE


def test_the_python_api_runs_an_engine_by_name(env: Env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citewise.api import Citewise

    with FakeNativeServer("gemini") as server:
        honest(server)
        monkeypatch.setenv("GEMINI_API_KEY", KEY)
        monkeypatch.setenv("CITEWISE_GEMINI_BASE_URL", server.base_url)
        monkeypatch.setenv("TAVILY_API_KEY", "tvly-test-key-0123456789")
        monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", env.tavily.base_url)
        with Citewise(str(tmp_path / "api.sqlite")) as api:
            result = api.research_with_engine("How long does a lease run?", "gemini", model="gemini-x")
    # the fake's redirect URLs are on loopback: a host that is not public is refused for every
    # extractor (Tavily's too), so none is sent anywhere, and nothing unverified is delivered
    asked = [u for r in env.tavily.requests if r.path.rstrip("/") == "/extract" for u in r.json["urls"]]
    assert asked == []
    assert result.status is ReportStatus.NO_EVIDENCE and not result.sources
    assert server.requests[0].path.startswith("/v1beta/models/gemini-x:streamGenerateContent")
