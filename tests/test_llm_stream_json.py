"""ChatClient.stream_json and complete_text(on_text=...): a JSON or line reply streamed piece by piece
and validated once whole, and the fallbacks when an endpoint refuses to stream or to stream with
structured output. Against the loopback fake, which streams server-sent events."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from citewise.config import Secret
from citewise.llm import ChatClient, ModelReplyInvalid, ModelSettings
from citewise.research.planner import validate_plan
from citewise.research.prompts import PLAN_SCHEMA
from citewise.testing.fake_openai import FakeOpenAIServer

KEY = "sk-test-stream-json-5b1c"
MODEL = "gpt-test-mini"
ASK = [{"role": "system", "content": "You plan research."}, {"role": "user", "content": '{"question": "q"}'}]
PLAN = json.dumps({"queries": ["article 7 obligations"], "topics": ["Scope?", "Deadlines?"]})


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def client(server: FakeOpenAIServer) -> Iterator[ChatClient]:
    with ChatClient(ModelSettings(api_key=Secret(KEY), base_url=server.base_url, timeout_s=5)) as chat:
        yield chat


def stream_plan(client: ChatClient, pieces: list[str]) -> Any:
    return client.stream_json(
        MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan, on_text=pieces.append
    )


def test_a_json_reply_is_streamed_with_structured_output_and_validated_whole(
    server: FakeOpenAIServer, client: ChatClient
) -> None:
    server.enqueue_reply(PLAN)
    pieces: list[str] = []

    (topics, queries), result = stream_plan(client, pieces)

    assert (topics, queries) == (("Scope?", "Deadlines?"), ("article 7 obligations",))
    assert len(pieces) > 1 and "".join(pieces) == PLAN  # piece by piece, as it arrived
    (sent,) = server.requests
    assert sent.json["stream"] is True and sent.json["response_format"]["type"] == "json_schema"
    assert not result.structured_fallback and result.usage is not None
    assert [c.outcome for c in client.calls] == ["ok"]


def test_an_invalid_streamed_reply_is_rejected_once_whole(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(json.dumps({"queries": ["a"], "topics": ["only one?"]}))
    pieces: list[str] = []

    with pytest.raises(ModelReplyInvalid, match="topics"):
        stream_plan(client, pieces)

    assert '"queries": ["a"]' in "".join(pieces)  # the pieces had arrived before it was judged
    assert [c.outcome for c in client.calls] == ["ModelReplyInvalid"]


def test_a_refused_structured_stream_is_streamed_again_with_the_schema_in_the_prompt(
    server: FakeOpenAIServer, client: ChatClient
) -> None:
    server.enqueue_error(
        400,
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
        param="response_format",
    )
    server.enqueue_reply(PLAN)
    pieces: list[str] = []

    (_, queries), result = stream_plan(client, pieces)

    assert queries == ("article 7 obligations",) and len(pieces) > 1 and "".join(pieces) == PLAN
    refused, plain = server.requests
    assert refused.json["stream"] is True and "response_format" in refused.json
    assert plain.json["stream"] is True and "response_format" not in plain.json
    assert '"queries"' in plain.json["messages"][0]["content"]  # the schema moved into the prompt
    assert result.structured_fallback
    assert [c.outcome for c in client.calls] == ["ModelBadRequest", "ok"]


def test_a_refused_stream_falls_back_unstreamed(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_error(400, "stream is not supported for this model", param="stream")
    server.enqueue_reply(PLAN)
    server.enqueue_reply(PLAN)
    pieces: list[str] = []

    (_, queries), _ = stream_plan(client, pieces)
    stream_plan(client, pieces)

    assert queries == ("article 7 obligations",) and pieces == [PLAN, PLAN]  # each whole reply at once
    assert [r.json.get("stream", False) for r in server.requests] == [True, False, False]
    assert all(r.json["response_format"]["type"] == "json_schema" for r in server.requests)


def test_a_line_reply_is_streamed_and_falls_back_when_streaming_is_refused(
    server: FakeOpenAIServer, client: ChatClient
) -> None:
    reply = "T1 covered S1.1\nT2 missing: no date | query: rules date"
    server.enqueue_reply(reply)
    server.enqueue_error(400, "stream is not supported for this model", param="stream")
    server.enqueue_reply(reply)
    first: list[str] = []
    second: list[str] = []

    value, _ = client.complete_text(MODEL, ASK, validate=str.upper, on_text=first.append)
    again, _ = client.complete_text(MODEL, ASK, validate=str.upper, on_text=second.append)

    assert value == again == reply.upper()
    assert len(first) > 1 and "".join(first) == reply and second == [reply]
    assert [r.json.get("stream", False) for r in server.requests] == [True, True, False]
    # refused once: this model is not asked to stream again
    server.enqueue_reply(reply)
    client.complete_text(MODEL, ASK, validate=str.upper, on_text=second.append)
    assert "stream" not in server.requests[-1].json
