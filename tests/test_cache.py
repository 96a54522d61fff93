"""The search and extraction cache (SPEC 4.5a): the real Tavily client against the loopback fake, on
SQLite and on PostgreSQL. A re-run within the time-to-live makes no provider call (the fake's request
log says so), spends no budget or credits, and keeps each source's original ``retrieved_at``; an
expired entry is fetched again; ``--no-cache`` neither reads nor writes; a resumed round answers its
recorded hits from the record, never from a cache that changed since."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from citewise.audit.events import AttemptEnded, AttemptStarted, Event
from citewise.cli import app
from citewise.config import Secret
from citewise.cost import ledger_for_run
from citewise.errors import InputError
from citewise.prices import load_prices
from citewise.providers.cached import CachedExtractor, CachedSearch, cache_key, parse_duration
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.records.budget import Budget, BudgetUsage
from citewise.research.caching import cached_providers, page_key
from citewise.research.collect import collect_round
from citewise.research.configure import research_settings
from citewise.research.context import ResearchResult
from citewise.research.loop import research
from citewise.research.recorder import Recorder
from citewise.research.round import RecordedCalls
from citewise.research.settings import ResearchSettings
from citewise.research.state import ResearchState
from citewise.research.urls import query_key
from citewise.store.cache import ProviderCache
from citewise.store.evidence import EvidenceStore
from citewise.store.runs import RunStore
from citewise.testing.fake_tavily import FakeTavilyServer
from tests.loop_harness import Web, page

pytestmark = pytest.mark.integration

KEY = "tvly-cache-0123456789"
QUESTION = "How are rental deposits protected?"
HOUR = timedelta(hours=1)


@dataclass
class Harness:
    store: EvidenceStore
    tavily: FakeTavilyServer
    web: Web
    search: TavilySearch
    extract: TavilyExtract

    def settings(self, ttl: timedelta = HOUR, **wrapped: Any) -> ResearchSettings:
        if wrapped:
            search, extractor = wrapped["search"], wrapped["extractor"]
        else:
            search, extractor = cached_providers(self.store, self.search, self.extract, ttl)
        return ResearchSettings(search=search, extractor=extractor, sleep=lambda s: None, cache_ttl=ttl)

    def run(self, ttl: timedelta = HOUR, **wrapped: Any) -> ResearchResult:
        return research(self.store, QUESTION, self.settings(ttl, **wrapped))

    def calls(self) -> list[str]:
        return [r.path.rstrip("/") for r in self.tavily.requests]


PAGES = ("https://law.example/deposits", "https://gov.example/return")


@dataclass
class TwoPageWeb(Web):
    """Every query not scripted otherwise finds the same two pages."""

    def search(self, body: Any) -> Any:
        self.hits.setdefault(body["query"], list(PAGES))
        return super().search(body)


@pytest.fixture
def harness(backend_url: str) -> Iterator[Harness]:
    with open_harness(backend_url) as opened:
        yield opened


@contextmanager
def open_harness(backend_url: str) -> Iterator[Harness]:
    """A store on ``backend_url`` and the real Tavily client talking to a fake serving two pages."""
    web = TwoPageWeb()
    web.pages.update({PAGES[0]: page("the deposit act"), PAGES[1]: page("deposit returns")})
    with (
        EvidenceStore.open(backend_url) as store,
        FakeTavilyServer(api_key=KEY, search_responder=web.search, extract_responder=web.extract) as tavily,
        TavilyConnection(TavilySettings(api_key=Secret(KEY), base_url=tavily.base_url, timeout_s=10)) as connection,
    ):
        yield Harness(store, tavily, web, TavilySearch(connection=connection), TavilyExtract(connection=connection))


def _cached_attempts(store: EvidenceStore, run_id: str) -> list[bool]:
    return [e.attempt.cached for e in RunStore(store).get(run_id).of(AttemptEnded)]


def test_a_rerun_within_the_ttl_makes_no_provider_call(harness: Harness) -> None:
    first = harness.run()
    calls = harness.calls()
    assert calls == ["/search", "/extract"] and first.usage.searches == "1/8" and first.usage.extractions == "2/12"

    second = harness.run()

    assert harness.calls() == calls  # not one request reached the provider
    assert second.status == first.status and second.stop_reason == first.stop_reason
    assert (second.usage.searches, second.usage.extractions) == ("0/8", "0/12")  # no budget spent
    assert [(s.source_id, s.url, s.page_text_hash) for s in second.sources] == [
        (s.source_id, s.url, s.page_text_hash) for s in first.sources
    ]
    assert [s.retrieved_at for s in second.sources] == [s.retrieved_at for s in first.sources]  # the original time
    record = RunStore(harness.store).get(second.run_id)
    assert _cached_attempts(harness.store, second.run_id) == [True, True, True]
    assert record.of(AttemptStarted) == []  # a hit spends no attempt
    prices = load_prices(None)
    paid = {line.component.value for line in ledger_for_run(record, prices).lines}
    assert not paid & {"search", "extraction"}  # and costs no credits
    paid_first = ledger_for_run(RunStore(harness.store).get(first.run_id), prices).lines
    assert {line.component.value for line in paid_first} >= {"search", "extraction"}
    stats = ProviderCache(harness.store).stats()
    assert [(g.provider, g.kind, g.entries, g.hits) for g in stats.groups] == [
        ("tavily", "extract", 2, 2),
        ("tavily", "search", 1, 1),
    ]
    assert stats.size_bytes > 0 and stats.oldest is not None and stats.oldest <= datetime.now(UTC)


def test_an_expired_entry_is_fetched_again_and_replaced(harness: Harness) -> None:
    harness.run()
    later = lambda: datetime.now(UTC) + 2 * HOUR  # noqa: E731 - the clock of a run two hours on
    cache = ProviderCache(harness.store)
    search = CachedSearch(harness.search, cache, ttl=HOUR, target_key=query_key, clock=later)
    extractor = CachedExtractor(harness.extract, cache, ttl=HOUR, target_key=page_key(("http", "https")), clock=later)

    again = harness.run(search=search, extractor=extractor)

    assert harness.calls() == ["/search", "/extract", "/search", "/extract"]
    assert (again.usage.searches, again.usage.extractions) == ("1/8", "2/12")
    assert _cached_attempts(harness.store, again.run_id) == [False, False, False]
    stats = cache.stats()
    assert [(g.kind, g.entries, g.hits) for g in stats.groups] == [("extract", 2, 0), ("search", 1, 0)]
    assert stats.oldest is not None and stats.oldest >= again.sources[0].retrieved_at - timedelta(seconds=1)


def test_no_cache_neither_reads_nor_writes(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", harness.tavily.base_url)
    harness.run()  # fills the cache
    before = ProviderCache(harness.store).stats()
    with research_settings(harness.store, search="tavily", no_model=True, no_cache=True) as settings:
        assert settings.cache_ttl == timedelta(0)
        result = research(harness.store, QUESTION, settings)
    assert harness.calls() == ["/search", "/extract"] * 2
    assert _cached_attempts(harness.store, result.run_id) == [False, False, False]
    assert ProviderCache(harness.store).stats() == before  # nothing read (no hit counted), nothing written
    with research_settings(harness.store, search="tavily", no_model=True, cache_ttl="0") as settings:
        assert settings.search is not None and not isinstance(settings.search, CachedSearch)


def test_the_default_run_configuration_caches_remote_providers_only(
    store: EvidenceStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.delenv("CITEWISE_CACHE_TTL", raising=False)
    with research_settings(store, search="tavily", no_model=True) as settings:
        assert isinstance(settings.search, CachedSearch) and isinstance(settings.extractor, CachedExtractor)
        assert settings.cache_ttl == timedelta(hours=24) and settings.search.name == "tavily"
    monkeypatch.setenv("CITEWISE_CACHE_TTL", "30m")
    with research_settings(store, search="local", no_model=True) as settings:
        assert not isinstance(settings.search, CachedSearch)  # the local store is never cached
        assert not isinstance(settings.extractor, CachedExtractor)
        assert settings.cache_ttl == timedelta(minutes=30)


def test_a_resumed_round_answers_its_recorded_hits_from_the_record(harness: Harness) -> None:
    search, extractor = cached_providers(harness.store, harness.search, harness.extract, HOUR)
    search.search(QUESTION)  # the cache now holds the query and both pages
    extractor.extract(list(PAGES))
    events: list[Event] = []
    state = ResearchState(QUESTION, BudgetUsage(Budget()))
    first = collect_round(
        round=1, queries=[QUESTION], question=QUESTION, search=search, extractor=extractor,
        recorder=Recorder(events.append, state),
    )  # fmt: skip
    assert [a.cached for a in first.attempts] == [True, True, True]
    assert ProviderCache(harness.store).clear() == 3  # the cache is gone before the resume

    replayed: list[Event] = []
    again = ResearchState(QUESTION, BudgetUsage(Budget()))
    recorder = Recorder(replayed.append, again)
    with recorder.replaying(events):
        second = collect_round(
            round=1, queries=[QUESTION], question=QUESTION, search=search, extractor=extractor,
            recorder=recorder, replay=RecordedCalls(events),
        )  # fmt: skip

    assert harness.calls() == ["/search", "/extract"]  # only the first run's calls, none for the replay
    assert replayed == []  # every event was already recorded
    assert [(s.source_id, s.retrieved_at) for s in second.new_sources] == [
        (s.source_id, s.retrieved_at) for s in first.new_sources
    ]
    assert (again.usage.searches, again.usage.extractions) == (0, 0)


def test_a_recorded_call_is_replayed_from_the_record_even_when_the_cache_now_has_it(harness: Harness) -> None:
    search, extractor = cached_providers(harness.store, harness.search, harness.extract, HOUR)
    events: list[Event] = []
    state = ResearchState(QUESTION, BudgetUsage(Budget()))
    collect_round(
        round=1, queries=[QUESTION], question=QUESTION, search=search, extractor=extractor,
        recorder=Recorder(events.append, state),
    )  # fmt: skip
    assert ProviderCache(harness.store).stats().entries == 3  # the calls filled the cache
    replayed: list[Event] = []
    again = ResearchState(QUESTION, BudgetUsage(Budget()))
    recorder = Recorder(replayed.append, again)
    with recorder.replaying(events):
        collect_round(
            round=1, queries=[QUESTION], question=QUESTION, search=search, extractor=extractor,
            recorder=recorder, replay=RecordedCalls(events),
        )  # fmt: skip
    assert replayed == [] and (again.usage.searches, again.usage.extractions) == (1, 2)  # as recorded
    assert ProviderCache(harness.store).stats().hits == 0  # the cache was not consulted


# -- the store's table, on both backends ----------------------------------------------------------


def test_a_damaged_entry_is_a_miss_and_the_next_answer_replaces_it(harness: Harness) -> None:
    search, _ = cached_providers(harness.store, harness.search, harness.extract, HOUR)
    assert isinstance(search, CachedSearch)
    search.search(QUESTION)
    with harness.store.transaction() as conn:
        conn.execute(sa.text("UPDATE provider_cache SET payload = :p"), {"p": '{"query": 3, "not": "a response"'})
    assert search.lookup(QUESTION) is None
    search.search(QUESTION)
    hit = search.lookup(" how ARE rental deposits   protected? ")  # the normalised query is the key
    assert hit is not None and [r.url for r in hit.results] == list(PAGES)
    assert hit.credits is None  # a hit costs nothing now


def test_a_key_never_reaches_the_cache_even_when_the_provider_echoes_it(harness: Harness) -> None:
    url = "https://leaky.example/page"
    harness.web.hits["leaky"] = [url]
    harness.web.pages[url] = f"# Leak\n\nThe request carried {KEY} in its header."
    search, extractor = cached_providers(harness.store, harness.search, harness.extract, HOUR)
    search.search("leaky")
    extractor.extract([url])
    with harness.store.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT * FROM provider_cache")).all()
    assert len(rows) == 2 and KEY not in json.dumps([list(map(str, r)) for r in rows])
    key, settings = cache_key("search", "tavily", {"api_key": KEY, "base_url": "https://u:pw@h.example"}, "q")
    assert KEY not in settings and "pw" not in settings and "api_key" not in settings


def test_clear_by_provider_and_age(harness: Harness) -> None:
    harness.run()
    cache = ProviderCache(harness.store)
    assert cache.clear(provider="other") == 0
    assert cache.clear(older_than=datetime.now(UTC) - HOUR) == 0  # all younger than an hour
    assert cache.clear(provider="Tavily", older_than=datetime.now(UTC) + timedelta(seconds=1)) == 3
    assert cache.stats().groups == ()


# -- durations and the command line ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("24h", timedelta(hours=24)), ("30m", timedelta(minutes=30)), ("1h30m", timedelta(minutes=90)),
     ("7d", timedelta(days=7)), ("90s", timedelta(seconds=90)), ("0", timedelta(0)), (" 2H ", timedelta(hours=2))],
)  # fmt: skip
def test_durations(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "soon", "24", "-1h", "1h and more", "h"])
def test_a_bad_duration_names_the_option_and_the_forms(text: str) -> None:
    with pytest.raises(InputError, match=r"--cache-ttl must be a duration such as 24h"):
        parse_duration(text)
    with pytest.raises(InputError, match="CITEWISE_CACHE_TTL"):
        parse_duration(text, what="CITEWISE_CACHE_TTL")


def test_cache_commands(harness: Harness, backend_url: str) -> None:
    harness.run()
    harness.run()
    runner = CliRunner()
    shown = runner.invoke(app, ["cache", "stats", "--json", "--store", backend_url])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert (data["entries"], data["hits"]) == (3, 3) and data["size_bytes"] > 0 and data["oldest"]
    assert {(g["provider"], g["kind"], g["entries"]) for g in data["groups"]} == {
        ("tavily", "search", 1),
        ("tavily", "extract", 2),
    }
    table = runner.invoke(app, ["cache", "stats", "--store", backend_url])
    assert "3 entries, 3 hits recorded" in table.stdout
    kept = runner.invoke(app, ["cache", "clear", "--older-than", "7d", "--json", "--store", backend_url])
    assert json.loads(kept.stdout)["deleted"] == 0
    cleared = runner.invoke(app, ["cache", "clear", "--provider", "tavily", "--store", backend_url])
    assert cleared.exit_code == 0 and "3 cache entries deleted" in cleared.stdout
    bad = runner.invoke(app, ["cache", "clear", "--older-than", "a while", "--store", backend_url])
    said = " ".join(bad.output.split())
    assert bad.exit_code == 2 and "--older-than must be a duration" in said and "Traceback" not in said


def test_research_refuses_a_bad_cache_ttl_in_one_line(tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    result = CliRunner().invoke(
        app, ["research", "q", "--search", "local", "--no-model", "--cache-ttl", "tomorrow", "--store", store]
    )
    output = " ".join(result.output.split())
    assert result.exit_code == 2
    assert "--cache-ttl must be a duration such as 24h, 30m, 90s, 7d or 0 (off), got 'tomorrow'" in output
    assert "Traceback" not in output


def test_the_research_command_reuses_the_cache_and_no_cache_bypasses_it(
    harness: Harness, backend_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    monkeypatch.setenv("CITEWISE_TAVILY_BASE_URL", harness.tavily.base_url)
    runner = CliRunner()

    def research_json(*flags: str) -> dict[str, Any]:
        out = runner.invoke(app, ["research", QUESTION, "--no-model", "--json", "--store", backend_url, *flags])
        assert out.exit_code == 0, out.output
        return dict(json.loads(out.stdout))

    research_json()
    assert harness.calls() == ["/search", "/extract"]
    warm = research_json("--cache-ttl", "30m")
    assert harness.calls() == ["/search", "/extract"]  # within the TTL: no request
    assert (warm["usage"]["searches"], warm["usage"]["extractions"]) == ("0/8", "0/12")
    assert "from the cache, at no cost" in warm["markdown"]
    research_json("--no-cache")
    assert harness.calls() == ["/search", "/extract"] * 2
