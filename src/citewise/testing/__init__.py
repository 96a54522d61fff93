"""Fakes at the network edge, shipped so users can test their own citewise pipelines.

Each fake is a real server on loopback speaking the provider's exact wire format, so the real
client libraries run unpatched against it. They need only the standard library (no pytest).

- :class:`FakeOpenAIServer` (:mod:`citewise.testing.fake_openai`): OpenAI-compatible Chat Completions.
- :class:`FakeTavilyServer` (:mod:`citewise.testing.fake_tavily`): Tavily Search and Extract.
- :class:`FakeNativeServer` (:mod:`citewise.testing.fake_native`): OpenAI Responses ``web_search``,
  Anthropic ``web_search``, Gemini ``google_search`` grounding (JSON and streamed).

Beside them, :mod:`citewise.testing.postgres` starts a real, throwaway PostgreSQL server (initdb into
a temporary directory, a loopback port) for testing against a PostgreSQL store; as a pytest plugin it
gives the fixtures ``postgres_cluster`` and ``postgres_url``. :mod:`citewise.testing.netguard` makes a
suite's connections to anything but this machine fail before they leave it, and
:class:`~citewise.testing.store_conformance.StoreConformance` is the conformance test class every
evidence-store backend must pass (subclass it and give a ``store_url`` fixture; it needs pytest).
"""

from citewise.testing.fake_native import (
    FakeNativeServer,
    anthropic_web_answer,
    gemini_grounded_answer,
    openai_web_answer,
)
from citewise.testing.fake_openai import FakeError, FakeOpenAIServer, FakeRaw, FakeReply, ReceivedRequest
from citewise.testing.fake_tavily import (
    FakeExtractReply,
    FakeSearchReply,
    FakeTavilyError,
    FakeTavilyServer,
    synthetic_extract,
    synthetic_search,
)

__all__ = [
    "FakeError",
    "FakeExtractReply",
    "FakeNativeServer",
    "FakeOpenAIServer",
    "FakeRaw",
    "FakeReply",
    "FakeSearchReply",
    "FakeTavilyError",
    "FakeTavilyServer",
    "ReceivedRequest",
    "anthropic_web_answer",
    "gemini_grounded_answer",
    "openai_web_answer",
    "synthetic_extract",
    "synthetic_search",
]
