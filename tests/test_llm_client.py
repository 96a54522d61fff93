"""The model client against a fake OpenAI-compatible server on loopback.

The real ``openai`` SDK runs unpatched; only the server is fake, and it speaks the exact wire
format. Every failure the product promises to type is scripted here: 400/401/403/429/5xx, a
timeout, an HTML page, a truncated, empty or filtered reply, JSON that does not parse or does not
validate, and an endpoint without structured output.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from citewise.config import Secret
from citewise.errors import ConfigError, RunError
from citewise.llm import (
    ChatClient,
    ModelAuthError,
    ModelBadRequest,
    ModelEmptyReply,
    ModelEndpointError,
    ModelError,
    ModelRateLimited,
    ModelRefused,
    ModelReplyInvalid,
    ModelServerError,
    ModelSettings,
    ModelTimeout,
    ModelTruncated,
    ModelUnavailable,
    ModelUnexpectedFinish,
    TokenUsage,
    expect_object,
    expect_str_list,
    model_configured,
    parse_json_reply,
)
from citewise.testing import FakeOpenAIServer, FakeRaw, FakeReply

pytestmark = pytest.mark.integration

KEY = "sk-test-3f9c0d1e2b7a4c5d"
MODEL = "gpt-test-mini"
ASK = [{"role": "user", "content": "What does Article 7 require?"}]

PLAN_SCHEMA = {
    "type": "object",
    "properties": {
        "topics": {"type": "array", "items": {"type": "string"}},
        "queries": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["topics", "queries"],
    "additionalProperties": False,
}


def validate_plan(value: object) -> dict[str, tuple[str, ...]]:
    plan = expect_object(value, keys=("topics", "queries"))
    return {
        "topics": expect_str_list(plan["topics"], field="topics", min_items=2, max_items=5),
        "queries": expect_str_list(plan["queries"], field="queries", min_items=1, max_items=3),
    }


GOOD_PLAN = json.dumps({"topics": ["scope", "deadlines"], "queries": ["article 7 obligations"]})


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def make_client(server: FakeOpenAIServer, **settings: Any) -> ChatClient:
    return ChatClient(ModelSettings(api_key=Secret(KEY), base_url=server.base_url, **settings))


@pytest.fixture
def client(server: FakeOpenAIServer) -> Iterator[ChatClient]:
    with make_client(server, timeout_s=5) as chat:
        yield chat


def assert_keyless(exc: BaseException) -> None:
    assert KEY not in str(exc)
    assert KEY not in repr(exc)


# -- a finished reply -------------------------------------------------------------------------


def test_reply_text_model_and_usage_are_recorded(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(
        "Article 7 requires a yearly report.",
        usage={"prompt_tokens": 120, "completion_tokens": 9, "cached_tokens": 64},
        model="gpt-test-mini-2026-01-01",
    )

    result = client.complete(MODEL, ASK)

    assert result.text == "Article 7 requires a yearly report."
    assert result.model == "gpt-test-mini-2026-01-01"
    assert result.requested_model == MODEL
    assert result.finish_reason == "stop"
    assert result.usage == TokenUsage(prompt=120, completion=9, cached=64)
    assert result.request_id == "req_fake1"
    assert result.latency_s > 0
    [call] = client.calls
    assert call.outcome == "ok"
    assert call.model == "gpt-test-mini-2026-01-01"
    assert call.requested_model == MODEL
    assert call.usage == TokenUsage(120, 9, 64)
    assert call.started_at.tzinfo is not None and call.started_at.utcoffset().total_seconds() == 0
    assert client.usage == TokenUsage(120, 9, 64)


def test_request_carries_bearer_key_and_max_completion_tokens(server: FakeOpenAIServer) -> None:
    server.enqueue_reply("one")
    server.enqueue_reply("two")
    with make_client(server, max_completion_tokens=777) as chat:
        chat.complete(MODEL, ASK)
        chat.complete(MODEL, ASK, max_completion_tokens=50, temperature=0.2)

    first, second = server.requests
    assert first.path == "/v1/chat/completions"
    assert first.headers["authorization"] == f"Bearer {KEY}"
    assert first.json == {"model": MODEL, "messages": ASK, "max_completion_tokens": 777}
    assert "temperature" not in first.json and "response_format" not in first.json
    assert second.json["max_completion_tokens"] == 50
    assert second.json["temperature"] == 0.2


def test_missing_usage_is_unknown_not_zero(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue(FakeReply("fine", omit_usage=True))

    result = client.complete(MODEL, ASK)

    assert result.usage is None
    assert client.calls[0].usage is None


# -- replies that are not a finished answer ----------------------------------------------------


def test_length_finish_is_truncated_and_still_counts_tokens(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply("Article 7 requires", finish_reason="length", usage={"completion_tokens": 50})

    with pytest.raises(ModelTruncated) as caught:
        client.complete(MODEL, ASK, max_completion_tokens=50)

    assert "length" in str(caught.value)
    assert caught.value.text == "Article 7 requires"
    assert caught.value.usage is not None and caught.value.usage.completion == 50
    assert client.calls[0].outcome == "ModelTruncated"
    assert client.calls[0].usage is not None and client.calls[0].usage.completion == 50
    assert client.calls[0].finish_reason == "length"


@pytest.mark.parametrize("content", ["", "   \n", None])
def test_empty_content_is_an_empty_reply(server: FakeOpenAIServer, client: ChatClient, content: str | None) -> None:
    server.enqueue_reply(content)

    with pytest.raises(ModelEmptyReply):
        client.complete(MODEL, ASK)
    assert client.calls[0].outcome == "ModelEmptyReply"


def test_content_filter_is_a_refusal(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(None, finish_reason="content_filter")

    with pytest.raises(ModelRefused, match="content_filter"):
        client.complete(MODEL, ASK)


def test_refusal_message_is_a_refusal(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue(FakeReply(None, refusal="I can't help with that."))

    with pytest.raises(ModelRefused, match="can't help"):
        client.complete(MODEL, ASK)


def test_tool_calls_finish_is_unexpected(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(None, finish_reason="tool_calls")

    with pytest.raises(ModelUnexpectedFinish, match="tool_calls"):
        client.complete(MODEL, ASK)


# -- HTTP errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "error_type", "expected", "retryable"),
    [
        (400, "invalid_request_error", ModelBadRequest, False),
        (401, "invalid_request_error", ModelAuthError, False),
        (403, "permission_denied", ModelAuthError, False),
        (404, "invalid_request_error", ModelBadRequest, False),
        (422, "invalid_request_error", ModelBadRequest, False),
        (429, "rate_limit_error", ModelRateLimited, True),
        (500, "server_error", ModelServerError, True),
        (503, "comet_api_error", ModelServerError, True),
    ],
)
def test_http_errors_are_typed(
    server: FakeOpenAIServer,
    client: ChatClient,
    status: int,
    error_type: str,
    expected: type[ModelError],
    retryable: bool,
) -> None:
    server.enqueue_error(status, f"upstream says {status}", type=error_type, code="some_code")

    with pytest.raises(expected) as caught:
        client.complete(MODEL, ASK)

    error = caught.value
    assert isinstance(error, RunError)
    assert error.status_code == status
    assert error.retryable is retryable
    assert error.detail == f"upstream says {status}"
    assert f"HTTP {status}" in str(error)
    assert error.request_id == "req_fake1"
    assert client.calls[0].outcome == expected.__name__
    assert client.calls[0].status_code == status
    assert_keyless(error)


def test_bad_request_keeps_param_and_code(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_error(400, "The model `nope` does not exist", code="model_not_found", param="model")

    with pytest.raises(ModelBadRequest) as caught:
        client.complete("nope", ASK)

    assert caught.value.param == "model"
    assert caught.value.code == "model_not_found"
    assert "does not exist" in str(caught.value)


def test_rate_limit_parses_retry_after(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_error(429, "Rate limit reached", type="rate_limit_error", headers={"retry-after": "2"})
    server.enqueue_error(429, "Rate limit reached", type="rate_limit_error", headers={"retry-after-ms": "1500"})
    server.enqueue_error(429, "Rate limit reached", type="rate_limit_error")

    retry_afters = []
    for _ in range(3):
        with pytest.raises(ModelRateLimited) as caught:
            client.complete(MODEL, ASK)
        retry_afters.append(caught.value.retry_after)

    assert retry_afters == [2.0, 1.5, None]
    assert [call.outcome for call in client.calls] == ["ModelRateLimited"] * 3


@pytest.mark.parametrize("status", [429, 500, 503])
def test_no_retries_inside_the_client(server: FakeOpenAIServer, client: ChatClient, status: int) -> None:
    server.enqueue_error(status, "try later", type="server_error", headers={"retry-after": "0"})
    server.enqueue_reply("a retry would have got this")

    with pytest.raises(ModelError):
        client.complete(MODEL, ASK)

    assert len(server.requests) == 1
    assert server.pending == 1
    assert len(client.calls) == 1


def test_timeout_is_typed(server: FakeOpenAIServer) -> None:
    server.enqueue_delay(2.0, then="too late")
    with make_client(server, timeout_s=0.5) as chat:
        started = time.perf_counter()
        with pytest.raises(ModelTimeout) as caught:
            chat.complete(MODEL, ASK)
        elapsed = time.perf_counter() - started

    assert elapsed < 1.9  # gave up before the 2 s reply: the timeout, not the server, ended the call
    assert caught.value.retryable
    assert "0.5 s" in str(caught.value)
    assert chat.calls[0].outcome == "ModelTimeout"
    assert len(server.requests) == 1


def test_unreachable_endpoint_is_unavailable() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = ModelSettings(api_key=Secret(KEY), base_url=f"http://127.0.0.1:{port}/v1", timeout_s=2)
    with ChatClient(settings) as chat, pytest.raises(ModelUnavailable) as caught:
        chat.complete(MODEL, ASK)
    assert isinstance(caught.value, ModelServerError)
    assert caught.value.retryable
    assert_keyless(caught.value)


# -- endpoints that do not speak Chat Completions ----------------------------------------------


def test_html_error_page_names_the_base_url_setting(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_html(404, "<html><head><title>Page not found</title></head><body>...</body></html>")

    with pytest.raises(ModelEndpointError) as caught:
        client.complete(MODEL, ASK)

    message = str(caught.value)
    assert "CITEWISE_LLM_BASE_URL" in message
    assert "text/html" in message and "Page not found" in message
    assert "<body>" not in message


def test_html_page_with_200_is_an_endpoint_error(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_html(200, "<!doctype html><html><title>CometAPI</title><p>Welcome</p></html>")

    with pytest.raises(ModelEndpointError, match="text/html"):
        client.complete(MODEL, ASK)
    assert client.calls[0].outcome == "ModelEndpointError"


def test_html_502_from_a_proxy_is_a_server_error(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_html(502, "<html><title>502 Bad Gateway</title></html>")

    with pytest.raises(ModelServerError, match="502 Bad Gateway"):
        client.complete(MODEL, ASK)


def test_json_that_is_not_a_completion_is_an_endpoint_error(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue(FakeRaw(200, '{"status": "ok"}', content_type="application/json"))

    with pytest.raises(ModelEndpointError, match="without choices"):
        client.complete(MODEL, ASK)


# -- JSON replies -----------------------------------------------------------------------------


def test_json_reply_requests_the_schema_and_validates(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(GOOD_PLAN)

    plan, result = client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert plan == {"topics": ("scope", "deadlines"), "queries": ("article 7 obligations",)}
    assert result.response_format == "json_schema"
    assert not result.structured_fallback
    sent = server.requests[0].json
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "plan", "schema": PLAN_SCHEMA, "strict": True},
    }
    assert sent["messages"] == ASK
    assert client.calls[0].response_format == "json_schema"


def test_fenced_and_framed_json_is_accepted(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_reply(f"```json\n{GOOD_PLAN}\n```")
    server.enqueue_reply(f"Here is the plan:\n\n```\n{GOOD_PLAN}\n```\n")
    server.enqueue_reply(f"Here is the plan:\n{GOOD_PLAN}\nLet me know if you want changes.")

    first, _ = client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)
    second, _ = client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)
    framed, _ = client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert first == second == framed
    assert first["topics"] == ("scope", "deadlines")


@pytest.mark.parametrize(
    "reply",
    [
        '{"topics": ["scope", "deadlines"], "queries": ["x"]',  # cut short
        "Sure! The topics are scope and deadlines.",
        '{"topics": NaN}',
        f"```json\n{GOOD_PLAN}\n```\n```json\n{GOOD_PLAN}\n```",  # which one?
    ],
)
def test_invalid_json_is_reply_invalid_with_an_excerpt(
    server: FakeOpenAIServer, client: ChatClient, reply: str
) -> None:
    server.enqueue_reply(reply)

    with pytest.raises(ModelReplyInvalid) as caught:
        client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    error = caught.value
    assert "not valid JSON" in str(error)
    assert error.excerpt and error.excerpt[:10] in " ".join(reply.split())
    assert len(error.excerpt) <= 160
    assert error.usage is not None
    assert client.calls[0].outcome == "ModelReplyInvalid"
    assert_keyless(error)


@pytest.mark.parametrize(
    ("payload", "complaint"),
    [
        (["scope", "deadlines"], "must be a JSON object"),
        ({"topics": ["scope"], "queries": ["q"]}, "at least 2"),
        ({"topics": ["scope", "Scope "], "queries": ["q"]}, "repeats"),
        ({"topics": ["scope", ""], "queries": ["q"]}, "must not be empty"),
        ({"topics": ["a", "b"], "queries": ["1", "2", "3", "4"]}, "at most 3"),
        ({"topics": ["a", "b"]}, "lacks queries"),
    ],
)
def test_json_that_fails_validation_is_reply_invalid(
    server: FakeOpenAIServer, client: ChatClient, payload: object, complaint: str
) -> None:
    server.enqueue_reply(json.dumps(payload))

    with pytest.raises(ModelReplyInvalid, match=complaint) as caught:
        client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert "failed validation" in str(caught.value)
    assert client.calls[0].outcome == "ModelReplyInvalid"
    assert isinstance(caught.value.__cause__, ValueError)


def test_structured_output_falls_back_when_the_endpoint_refuses_it(
    server: FakeOpenAIServer, client: ChatClient
) -> None:
    server.enqueue_error(
        400,
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
        param="response_format",
    )
    server.enqueue_reply(GOOD_PLAN)
    server.enqueue_reply(GOOD_PLAN)
    system = [{"role": "system", "content": "You plan research."}, *ASK]

    plan, result = client.complete_json(MODEL, system, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert plan["topics"] == ("scope", "deadlines")
    assert result.structured_fallback
    assert result.response_format is None
    refused, plain = server.requests
    assert "response_format" in refused.json
    assert "response_format" not in plain.json
    assert plain.json["messages"][0]["role"] == "system"
    assert plain.json["messages"][0]["content"].startswith("You plan research.")
    assert '"topics"' in plain.json["messages"][0]["content"]  # the schema moved into the prompt
    assert plain.json["messages"][1:] == ASK
    assert [call.outcome for call in client.calls] == ["ModelBadRequest", "ok"]

    # The endpoint said no once; the next call for this model does not ask again.
    _, again = client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)
    assert again.structured_fallback
    assert len(server.requests) == 3
    assert "response_format" not in server.requests[2].json


def test_fallback_also_recognises_a_message_without_param(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_error(400, "json_schema response format is not supported by this provider")
    server.enqueue_reply(GOOD_PLAN)

    _, result = client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert result.structured_fallback
    assert server.requests[1].json["messages"][0]["role"] == "system"


def test_other_bad_requests_do_not_fall_back(server: FakeOpenAIServer, client: ChatClient) -> None:
    server.enqueue_error(400, "This model's maximum context length is 8192 tokens.", code="context_length_exceeded")
    server.enqueue_reply(GOOD_PLAN)

    with pytest.raises(ModelBadRequest, match="context length"):
        client.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert len(server.requests) == 1


def test_structured_output_can_be_switched_off(server: FakeOpenAIServer) -> None:
    server.enqueue_reply(GOOD_PLAN)
    with make_client(server, structured_output=False) as chat:
        _, result = chat.complete_json(MODEL, ASK, schema=PLAN_SCHEMA, name="plan", validate=validate_plan)

    assert not result.structured_fallback
    assert "response_format" not in server.requests[0].json
    assert "JSON schema" in server.requests[0].json["messages"][0]["content"]


# -- the key never leaks ----------------------------------------------------------------------


def test_key_never_appears_in_reprs_or_messages(server: FakeOpenAIServer) -> None:
    settings = ModelSettings(api_key=Secret(KEY), base_url=server.base_url, timeout_s=5)
    assert KEY not in repr(settings) and KEY not in str(settings)
    # An endpoint that echoes the key back in its error message.
    server.enqueue_error(401, f"Incorrect API key provided: {KEY}.", code="invalid_api_key")
    server.enqueue_error(400, f"bad request from key {KEY}")
    server.enqueue_error(500, f"internal error for {KEY}")
    with ChatClient(settings) as chat:
        assert KEY not in repr(chat)
        for expected in (ModelAuthError, ModelBadRequest, ModelServerError):
            with pytest.raises(expected) as caught:
                chat.complete(MODEL, ASK)
            assert_keyless(caught.value)
            assert caught.value.detail is not None and KEY not in caught.value.detail
            assert "<redacted>" in str(caught.value)
        assert all(KEY not in repr(call) for call in chat.calls)


def test_auth_error_names_the_variables(server: FakeOpenAIServer) -> None:
    with (
        FakeOpenAIServer(api_key="sk-the-right-one") as strict,
        make_client(strict) as chat,
        pytest.raises(ModelAuthError) as caught,
    ):
        chat.complete(MODEL, ASK)
    assert "COMETAPI_KEY" in str(caught.value)
    assert "Incorrect API key" in str(caught.value)
    assert_keyless(caught.value)


# -- settings from the environment ------------------------------------------------------------


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (
        "COMETAPI_KEY",
        "CITEWISE_LLM_API_KEY",
        "CITEWISE_LLM_BASE_URL",
        "CITEWISE_LLM_TIMEOUT",
        "CITEWISE_LLM_MAX_COMPLETION_TOKENS",
        "CITEWISE_LLM_STRUCTURED_OUTPUT",
    ):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_missing_key_names_the_variable_and_the_keyless_path(clean_env: pytest.MonkeyPatch) -> None:
    assert not model_configured()
    with pytest.raises(ConfigError) as caught:
        ModelSettings.from_env()
    message = str(caught.value)
    assert "COMETAPI_KEY" in message
    assert "CITEWISE_LLM_API_KEY" in message
    assert "deterministic evidence composer" in message
    with pytest.raises(ConfigError):
        ChatClient()


def test_settings_from_env(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("COMETAPI_KEY", KEY)
    settings = ModelSettings.from_env()
    assert model_configured()
    assert settings.api_key.reveal() == KEY
    assert settings.base_url == "https://api.cometapi.com/v1"
    assert settings.timeout_s == 60
    assert settings.structured_output

    clean_env.setenv("CITEWISE_LLM_API_KEY", "sk-local")
    clean_env.setenv("CITEWISE_LLM_BASE_URL", "http://localhost:8000/v1/")
    clean_env.setenv("CITEWISE_LLM_TIMEOUT", "12.5")
    clean_env.setenv("CITEWISE_LLM_MAX_COMPLETION_TOKENS", "2000")
    clean_env.setenv("CITEWISE_LLM_STRUCTURED_OUTPUT", "false")
    other = ModelSettings.from_env()
    assert other.api_key.reveal() == "sk-local"  # the explicit key for the other endpoint wins
    assert other.base_url == "http://localhost:8000/v1"
    assert other.timeout_s == 12.5
    assert other.max_completion_tokens == 2000
    assert not other.structured_output


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CITEWISE_LLM_TIMEOUT", "soon"),
        ("CITEWISE_LLM_TIMEOUT", "0"),
        ("CITEWISE_LLM_MAX_COMPLETION_TOKENS", "lots"),
        ("CITEWISE_LLM_STRUCTURED_OUTPUT", "maybe"),
        ("CITEWISE_LLM_BASE_URL", "api.cometapi.com/v1"),
    ],
)
def test_invalid_settings_are_config_errors(clean_env: pytest.MonkeyPatch, name: str, value: str) -> None:
    clean_env.setenv("COMETAPI_KEY", KEY)
    clean_env.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        ModelSettings.from_env()
    assert KEY not in str(caught.value)


def test_base_url_with_credentials_is_refused(server: FakeOpenAIServer) -> None:
    # httpx would send them as Basic auth instead of the Bearer key.
    url = server.base_url.replace("http://", "http://user:hunter2@")
    with pytest.raises(ConfigError, match="user:password") as caught:
        ModelSettings(api_key=Secret(KEY), base_url=url)
    assert "hunter2" not in str(caught.value)


def test_a_model_id_is_required(client: ChatClient) -> None:
    with pytest.raises(ConfigError, match="model"):
        client.complete("", ASK)
    assert client.calls == []


# -- the fake server itself --------------------------------------------------------------------


def _post(url: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.load(error)


def test_fake_server_requires_a_bearer_key(server: FakeOpenAIServer) -> None:
    server.enqueue_reply("never served")
    status, body = _post(f"{server.base_url}/chat/completions", {"model": MODEL, "messages": ASK}, {})

    assert status == 401
    assert set(body["error"]) == {"message", "type", "param", "code"}
    assert server.pending == 1


def test_fake_server_speaks_the_wire_format(server: FakeOpenAIServer) -> None:
    server.enqueue_reply('{"a":1}', usage={"prompt_tokens": 3, "completion_tokens": 2})
    status, body = _post(
        f"{server.base_url}/chat/completions",
        {"model": "m", "messages": ASK},
        {"authorization": "Bearer k"},
    )

    assert status == 200
    assert body["object"] == "chat.completion"
    assert body["model"] == "m"
    assert body["choices"] == [
        {
            "index": 0,
            "finish_reason": "stop",
            "logprobs": None,
            "message": {"role": "assistant", "content": '{"a":1}', "refusal": None},
        }
    ]
    assert body["usage"] == {
        "prompt_tokens": 3,
        "completion_tokens": 2,
        "total_tokens": 5,
        "prompt_tokens_details": {"cached_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 0},
    }


def test_fake_server_responder_and_empty_script(server: FakeOpenAIServer, client: ChatClient) -> None:
    with pytest.raises(ModelServerError, match="no reply scripted"):
        client.complete(MODEL, ASK)

    server.responder = lambda request: f"you asked {request['model']}"
    assert client.complete(MODEL, ASK).text == f"you asked {MODEL}"


def test_fake_server_latency_option() -> None:
    with FakeOpenAIServer(latency_s=0.2, tokens_per_s=100) as slow, make_client(slow) as chat:
        slow.enqueue_reply("x", usage={"completion_tokens": 10})  # 0.2 s + 10 / 100 s
        result = chat.complete(MODEL, ASK)
    assert result.latency_s >= 0.3


def test_fake_server_closes_while_a_reply_is_delayed() -> None:
    with FakeOpenAIServer() as fake:
        fake.enqueue_delay(30)
        with make_client(fake, timeout_s=0.3) as chat, pytest.raises(ModelTimeout):
            chat.complete(MODEL, ASK)
        started = time.perf_counter()
    assert time.perf_counter() - started < 2  # the 30 s delay did not hold up shutdown


# -- JSON helpers -----------------------------------------------------------------------------


@pytest.mark.unit
def test_parse_json_reply_accepts_bare_and_fenced_json() -> None:
    assert parse_json_reply(' {"a": [1, 2]} ') == {"a": [1, 2]}
    assert parse_json_reply('```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json_reply("```JSON\r\n[1]\r\n```") == [1]
    with pytest.raises(ModelReplyInvalid):
        parse_json_reply('The answer is {"a": 1}.')


@pytest.mark.unit
def test_parse_json_reply_reads_one_value_between_lines_of_framing() -> None:
    assert parse_json_reply('Here is the plan:\n{\n  "a": [{"b": 1}]\n}\nLet me know if ...') == {"a": [{"b": 1}]}
    assert parse_json_reply('Sure — below.\n\n["x", "y"]') == ["x", "y"]
    for reply in [
        'Here is the plan:\n{"a": 1}\n{"a": 2}',  # which one?
        'Here is the plan:\n{"a": 1} and more',  # the value does not end its line
        'See [1]:\n{"a": 1}',  # framing that holds a bracket
        'Here:\n{"a": 1}\nOr use {"a": 2}.',
        'Here:\n"just a string"',
        'Here:\n{"a": NaN}',
    ]:
        with pytest.raises(ModelReplyInvalid):
            parse_json_reply(reply)
