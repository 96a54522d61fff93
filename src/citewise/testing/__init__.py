"""Fakes at the network edge, shipped so users can test their own citewise pipelines.

Each fake is a real server on loopback speaking the provider's exact wire format, so the real
client libraries run unpatched against it. They need only the standard library (no pytest).

- :class:`FakeOpenAIServer` (:mod:`citewise.testing.fake_openai`): OpenAI-compatible Chat Completions.
"""

from citewise.testing.fake_openai import FakeError, FakeOpenAIServer, FakeRaw, FakeReply, ReceivedRequest

__all__ = ["FakeError", "FakeOpenAIServer", "FakeRaw", "FakeReply", "ReceivedRequest"]
