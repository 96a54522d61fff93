"""The adapters read the providers' real recorded answers (shipped in ``tests/data/wire``), served byte for byte by
the loopback fakes to the official SDKs, JSON and streamed alike."""

from __future__ import annotations

import gzip
import json
from typing import Any

import yaml

from citewise.config import Secret
from citewise.engines.connect import EngineEndpoint
from citewise.engines.registry import get_engine
from citewise.records.engines import EngineAnswer, EngineRequest
from citewise.testing import FakeNativeServer
from tests.corpora import WIRE


def _gz(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(gzip.decompress((WIRE / name).read_bytes()))
    return data


def _body(response: dict[str, Any]) -> str:
    raw = response["body"]["string"]
    return raw.decode() if isinstance(raw, bytes) else str(raw)


def _answer(provider: str, body: str, content_type: str) -> EngineAnswer:
    with FakeNativeServer(provider) as server:
        server.enqueue_raw(200, body, content_type)
        endpoint = EngineEndpoint(provider, Secret("sk-recorded-0123456789"), server.base_url, "K", "U", timeout_s=10)
        engine = get_engine(provider, model="recorded", endpoint=endpoint)
        try:
            return engine.answer(EngineRequest("q"))
        finally:
            engine.close()


def test_openai_recorded_stream_keeps_every_url_citation_on_its_span() -> None:
    recording = _gz("openai/responses_web_search.yaml.gz")
    answer = _answer("openai", _body(recording["responses"][1]), "text/event-stream")
    assert [s.query for s in answer.searches] == ["positive news stories October 11 2023"]
    assert len(answer.citations) == 5 and answer.model == "gpt-4o-mini-2024-07-18"
    for citation in answer.citations:  # OpenAI's span is the ([site](url)) link the model wrote
        assert answer.text[citation.start : citation.end].startswith("([")
    assert not answer.searched_urls_known  # this recording was made without action.sources
    assert answer.usage.input_tokens and answer.usage.search_calls == 1


def test_anthropic_recorded_answer_with_max_uses_exceeded() -> None:
    recording = _gz("anthropic/test_web_search.yaml.gz")
    first = json.loads(_body(recording["responses"][0]))
    # served as a stream built from the recorded message (the SDK accumulates it)
    with FakeNativeServer("anthropic") as server:
        server.enqueue_body(first)
        endpoint = EngineEndpoint(
            "anthropic", Secret("sk-recorded-0123456789"), server.base_url, "K", "U", timeout_s=10
        )
        engine = get_engine("anthropic", model="recorded", endpoint=endpoint)
        try:
            answer = engine.answer(EngineRequest("q", max_searches=1))
        finally:
            engine.close()
    assert [e.code for e in answer.tool_errors] == ["max_uses_exceeded"]
    assert answer.usage.search_calls == 1 and answer.searches[0].query == "update web app TypeScript 5.5"
    assert all(c.url.startswith("https://") and c.cited_text for c in answer.citations)
    for citation in answer.citations:  # a citation covers its text block
        assert answer.text[citation.start : citation.end].strip()


def test_anthropic_recorded_event_stream() -> None:
    recording = _gz("anthropic/test_web_search.yaml.gz")
    answer = _answer("anthropic", _body(recording["responses"][1]), "text/event-stream")
    assert answer.searches and answer.text


def test_gemini_recorded_stream_byte_offsets_match_the_segment_text() -> None:
    recording = yaml.safe_load(
        (WIRE / "pydantic-ai/test_google__test_google_model_web_search_tool_stream.yaml").read_text()
    )
    body = recording["interactions"][0]["response"]["body"]["string"]
    answer = _answer("gemini", body, "text/event-stream")
    assert [s.query for s in answer.searches] == ["weather in San Francisco today"]
    assert answer.citations and any("grounding-api-redirect" in c.url for c in answer.citations)
    assert "As of Tuesday afternoon" in answer.text[answer.citations[0].start : answer.citations[0].end]
    assert answer.usage.input_tokens == 17 + 102 and answer.usage.search_calls == 1


def test_gemini_recorded_json_answer() -> None:
    recording = yaml.safe_load((WIRE / "pydantic-ai/test_google__test_google_model_web_search_tool.yaml").read_text())
    body = json.dumps(recording["interactions"][0]["response"]["parsed_body"])
    chunks = [f"data: {body}\r\n\r\n"]
    answer = _answer("gemini", "".join(chunks), "text/event-stream")
    first = answer.citations[0]
    assert answer.text[first.start : first.end].startswith("**San Francisco, CA** - Residents")
    assert "69°F" in answer.text[first.start : first.end]  # a multi-byte character inside the span
