"""Configured endpoints don't redirect elsewhere (issue 11, point 6).

A model endpoint or Tavily base URL that answers with a redirect to another origin is refused: the
request body is not re-sent to the other host, the error names the setting, and the call is recorded
as failed (no credit, no empty "successful" search). A redirect within the same origin still works.
"""

from __future__ import annotations

import pytest

from citewise.config import Secret
from citewise.llm import ChatClient, ModelSettings
from citewise.llm.errors import ModelEndpointError
from citewise.providers.errors import ProviderInvalidResponse
from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch, TavilySettings
from citewise.testing.fake_openai import FakeOpenAIServer, FakeReply
from citewise.testing.fake_tavily import FakeSearchReply, FakeTavilyServer

pytestmark = pytest.mark.integration

MODEL_KEY = "sk-redirect-test-0001"
TAVILY_KEY = "tvly-redirect-test-0001"


def test_the_model_client_refuses_a_redirect_to_another_origin() -> None:
    with FakeOpenAIServer(api_key=MODEL_KEY) as configured, FakeOpenAIServer(api_key=None) as elsewhere:
        elsewhere.enqueue(FakeReply("an answer from somewhere else"))
        configured.enqueue_html(307, "", headers={"location": f"{elsewhere.base_url}/chat/completions"})
        settings = ModelSettings(api_key=Secret(MODEL_KEY), base_url=configured.base_url, timeout_s=5)
        with ChatClient(settings) as client, pytest.raises(ModelEndpointError) as caught:
            client.complete("m", [{"role": "user", "content": "the question"}])
        message = str(caught.value)
        assert "redirected" in message and "CITEWISE_LLM_BASE_URL" in message
        assert elsewhere.requests == []  # the prompt never reached the other host
        assert [c.outcome for c in client.calls] == ["ModelEndpointError"]


def test_the_model_client_follows_a_redirect_within_its_origin() -> None:
    with FakeOpenAIServer(api_key=MODEL_KEY) as configured:
        configured.enqueue_html(307, "", headers={"location": f"{configured.base_url}/chat/completions"})
        configured.enqueue(FakeReply("fine"))
        settings = ModelSettings(api_key=Secret(MODEL_KEY), base_url=configured.base_url, timeout_s=5)
        with ChatClient(settings) as client:
            assert client.complete("m", [{"role": "user", "content": "q"}]).text == "fine"


@pytest.mark.parametrize("operation", ["search", "extract"])
def test_tavily_refuses_a_redirect_to_another_origin_and_records_no_credit(operation: str) -> None:
    with FakeTavilyServer(api_key=TAVILY_KEY) as configured, FakeTavilyServer(api_key=None) as elsewhere:
        elsewhere.enqueue(FakeSearchReply(results=[]))
        configured.enqueue_raw(307, "", headers={"location": f"{elsewhere.base_url}/{operation}"})
        settings = TavilySettings(api_key=Secret(TAVILY_KEY), base_url=configured.base_url, timeout_s=5)
        with TavilyConnection(settings) as connection, pytest.raises(ProviderInvalidResponse) as caught:
            if operation == "search":
                TavilySearch(connection=connection).search("deposit law")
            else:
                TavilyExtract(connection=connection).extract(["https://law.example/a"])
        message = str(caught.value)
        assert "redirected" in message and "CITEWISE_TAVILY_BASE_URL" in message and TAVILY_KEY not in message
        assert elsewhere.requests == []
        assert [(c.outcome, c.credits) for c in connection.calls] == [("ProviderInvalidResponse", None)]
        assert connection.credits == 0
