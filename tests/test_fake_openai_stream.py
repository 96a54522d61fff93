"""The fake Chat Completions server streams as the real endpoint does: server-sent events of
``chat.completion.chunk`` objects, read here by the real ``openai`` SDK and on the raw wire; and
:meth:`ChatClient.stream` reads them through the SDK."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import openai
import pytest

from citewise.config import Secret
from citewise.llm import (
    ChatClient,
    ModelError,
    ModelServerError,
    ModelSettings,
    ModelStreamBroken,
    ModelTruncated,
)
from citewise.testing import FakeOpenAIServer
from citewise.testing.fake_openai import FakeError, FakeReply

TEXT = "Deposits are protected [S1.2]. 보증금은 돌려받는다 [S2.1]."


def _client(server: FakeOpenAIServer) -> openai.OpenAI:
    return openai.OpenAI(api_key="sk-test", base_url=server.base_url, max_retries=0)


def test_the_sdk_reads_a_streamed_reply_piece_by_piece_with_its_usage_last() -> None:
    with FakeOpenAIServer() as server:
        server.enqueue_reply(TEXT, usage={"prompt_tokens": 12, "completion_tokens": 9})
        stream = _client(server).chat.completions.create(
            model="writer",
            messages=[{"role": "user", "content": "hi"}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)

    pieces = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    assert "".join(pieces) == TEXT and len(pieces) > 5  # in pieces, not in one go
    assert chunks[0].choices[0].delta.role == "assistant" and chunks[0].object == "chat.completion.chunk"
    finish = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finish[-1] == "stop" and set(finish[:-1]) == {None}
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert (chunks[-1].usage.prompt_tokens, chunks[-1].usage.completion_tokens) == (12, 9)
    assert all(c.usage is None for c in chunks[:-1])
    assert {c.id for c in chunks} == {chunks[0].id} and {c.model for c in chunks} == {"writer"}
    assert server.requests[0].json["stream"] is True


def test_without_include_usage_no_usage_chunk_is_sent_and_a_cut_off_reply_says_length() -> None:
    with FakeOpenAIServer() as server:
        server.enqueue_reply("cut off mid", finish_reason="length")
        chunks = list(
            _client(server).chat.completions.create(
                model="writer", messages=[{"role": "user", "content": "hi"}], stream=True
            )
        )

    assert all(c.choices for c in chunks) and chunks[-1].choices[0].finish_reason == "length"
    assert all(c.usage is None for c in chunks)


def test_an_error_comes_as_json_before_any_event() -> None:
    with FakeOpenAIServer() as server:
        server.enqueue_error(429, "slow down", type="rate_limit_error", headers={"retry-after": "2"})
        with pytest.raises(openai.RateLimitError, match="slow down"):
            _client(server).chat.completions.create(
                model="writer", messages=[{"role": "user", "content": "hi"}], stream=True
            )


def test_the_wire_is_data_lines_of_chunks_ending_in_done() -> None:
    with FakeOpenAIServer() as server:
        server.enqueue_reply("Rents rose.")
        url = urlsplit(server.base_url)
        connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
        body = {"model": "m", "messages": [{"role": "user", "content": "x"}], "stream": True}
        connection.request(
            "POST",
            "/v1/chat/completions",
            json.dumps(body),
            {"authorization": "Bearer sk-test", "content-type": "application/json"},
        )
        response = connection.getresponse()
        raw = response.read().decode()
        connection.close()

    assert response.status == 200 and response.getheader("content-type") == "text/event-stream; charset=utf-8"
    events = [block for block in raw.split("\n\n") if block]
    assert all(e.startswith("data: ") for e in events) and events[-1] == "data: [DONE]"
    first = json.loads(events[0].removeprefix("data: "))
    assert first["object"] == "chat.completion.chunk" and first["choices"][0]["delta"]["role"] == "assistant"
    text = "".join(json.loads(e[6:])["choices"][0]["delta"].get("content") or "" for e in events[:-1])
    assert text == "Rents rose."


# -- ChatClient.stream: the same reply, errors and record as complete(), piece by piece --------------


def _chat(server: FakeOpenAIServer) -> ChatClient:
    return ChatClient(ModelSettings(api_key=Secret("sk-test"), base_url=server.base_url, timeout_s=10))


def test_chat_client_stream_hands_each_piece_over_and_returns_the_whole_reply_with_its_usage() -> None:
    pieces: list[str] = []
    with FakeOpenAIServer() as server, _chat(server) as client:
        server.enqueue_reply(TEXT, usage={"prompt_tokens": 12, "completion_tokens": 9})
        result = client.stream("writer", [{"role": "user", "content": "hi"}], on_text=pieces.append)

    assert "".join(pieces) == TEXT and len(pieces) > 5 and result.text == TEXT
    assert result.usage is not None and (result.usage.prompt, result.usage.completion) == (12, 9)
    (record,) = client.calls
    assert record.outcome == "ok" and record.usage == result.usage and record.request_id == "req_fake1"
    assert server.requests[0].json["stream_options"] == {"include_usage": True}


def test_chat_client_stream_raises_what_complete_raises_for_a_cut_off_reply_and_records_it() -> None:
    with FakeOpenAIServer() as server, _chat(server) as client:
        server.enqueue_reply("cut off mid", finish_reason="length")
        with pytest.raises(ModelTruncated) as caught:
            client.stream("writer", [{"role": "user", "content": "hi"}], on_text=lambda piece: None)

    assert caught.value.text == "cut off mid" and client.calls[0].outcome == "ModelTruncated"


@pytest.mark.parametrize("with_error", [False, True], ids=["dropped", "error-event"])
def test_a_stream_cut_part_way_is_a_broken_stream_with_what_arrived_estimated(with_error: bool) -> None:
    error = FakeError(500, "The server had an error while processing your request.", "server_error")
    pieces: list[str] = []
    with FakeOpenAIServer() as server, _chat(server) as client:
        server.enqueue(FakeReply(TEXT, cut_after=12, cut_error=error if with_error else None))
        with pytest.raises(ModelStreamBroken) as caught:
            client.stream("writer", [{"role": "user", "content": "hi"}], on_text=pieces.append)

    received = "".join(pieces)
    assert received and TEXT.startswith(received) and len(received) <= 12  # only the part before the cut
    message = str(caught.value)
    assert f"broke off its streamed reply after {len(received)} characters (model writer)" in message
    assert ("sent an error instead of the rest" in message) is with_error
    assert ("dropped the connection" in message) is not with_error
    assert caught.value.retryable  # worth one bounded retry
    (record,) = client.calls
    assert record.outcome == "ModelStreamBroken" and record.usage is None
    assert record.received_tokens is not None and record.received_tokens >= 1


def test_an_error_before_a_stream_begins_is_not_a_broken_stream() -> None:
    with FakeOpenAIServer() as server, _chat(server) as client:
        server.enqueue_error(503, "overloaded", type="server_error")
        with pytest.raises(ModelServerError) as caught:
            client.stream("writer", [{"role": "user", "content": "hi"}], on_text=lambda piece: None)

    assert not isinstance(caught.value, ModelStreamBroken) and client.calls[0].received_tokens is None


def test_an_error_the_callers_reader_raises_is_passed_on_as_it_is_not_as_a_body_that_is_not_json() -> None:
    """A ``ValueError`` from ``on_text`` (the caller's own reader) is the caller's: it is not mapped
    to "a body that is not valid JSON", the call is recorded with it, and the stream is closed so the
    client's next request goes through."""

    def reader(piece: str) -> None:
        raise ValueError("the reader rejects this piece")

    with FakeOpenAIServer() as server, _chat(server) as client:
        server.enqueue_reply(TEXT)
        server.enqueue_reply("second reply")
        with pytest.raises(ValueError, match="the reader rejects this piece") as caught:
            client.stream("writer", [{"role": "user", "content": "hi"}], on_text=reader)
        after = client.stream("writer", [{"role": "user", "content": "again"}], on_text=lambda piece: None)

    assert not isinstance(caught.value, ModelError)
    assert [record.outcome for record in client.calls] == ["ValueError", "ok"]
    assert after.text == "second reply"


def test_a_reader_error_in_a_streamed_json_call_is_not_a_rejected_reply() -> None:
    def reader(piece: str) -> None:
        raise KeyError("reader")

    with FakeOpenAIServer() as server, _chat(server) as client:
        server.enqueue_reply('{"answer": "yes"}')
        with pytest.raises(KeyError):
            client.stream_json(
                "planner",
                [{"role": "user", "content": "hi"}],
                schema={"type": "object"},
                name="answer",
                validate=lambda value: value,
                on_text=reader,
            )

    assert [record.outcome for record in client.calls] == ["KeyError"]
