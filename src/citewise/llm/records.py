"""What a model call leaves behind: reported token usage, a finished reply, and the per-call record.

Immutable records with every field documented. :class:`~citewise.llm.client.ChatClient` produces
them; a research run copies each :class:`CallRecord` into its run log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["CallRecord", "ChatResult", "TokenUsage"]


@dataclass(frozen=True)
class TokenUsage:
    """Tokens the endpoint reported for one call."""

    prompt: int = 0
    """Input tokens, cached ones included (``usage.prompt_tokens``)."""
    completion: int = 0
    """Output tokens, reasoning tokens included (``usage.completion_tokens``)."""
    cached: int = 0
    """Input tokens served from the endpoint's prompt cache (``prompt_tokens_details.cached_tokens``),
    often billed at a lower rate."""

    @property
    def total(self) -> int:
        return self.prompt + self.completion

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(self.prompt + other.prompt, self.completion + other.completion, self.cached + other.cached)


@dataclass(frozen=True)
class ChatResult:
    """A finished reply: ``finish_reason == "stop"`` and non-empty text."""

    text: str
    """The reply's content."""
    model: str
    """The model id the endpoint says answered (may be more specific than the requested one)."""
    requested_model: str
    """The model id citewise asked for."""
    finish_reason: str
    """Always ``"stop"`` for a result; kept for the record."""
    usage: TokenUsage | None
    """Reported token usage; ``None`` when the endpoint sent none (unknown, not zero)."""
    latency_s: float
    """Seconds from sending the request to having parsed the reply."""
    request_id: str | None = None
    """The endpoint's ``x-request-id``, if it sent one."""
    response_format: str | None = None
    """The ``response_format`` type requested (``"json_schema"``), or ``None`` for plain text."""
    structured_fallback: bool = False
    """True when structured output was refused by the endpoint and the reply came from plain
    prompting with the schema in the instructions instead."""


@dataclass(frozen=True)
class CallRecord:
    """One request to the endpoint, successful or not, for the usage and cost ledger."""

    requested_model: str
    """The model id citewise asked for."""
    model: str | None
    """The model id the endpoint reported; ``None`` when there was no usable reply."""
    started_at: datetime
    """When the request was sent (UTC)."""
    latency_s: float
    """Seconds until the reply (or the failure)."""
    outcome: str
    """``"ok"``, or the name of the :class:`~citewise.llm.errors.ModelError` subclass raised
    (e.g. ``"ModelTruncated"``)."""
    usage: TokenUsage | None = None
    """Tokens the endpoint reported, also for failed replies it billed; ``None`` if unknown."""
    finish_reason: str | None = None
    """The reply's ``finish_reason``, when there was a reply."""
    status_code: int | None = None
    """The HTTP status, when there was a response."""
    request_id: str | None = None
    """The endpoint's ``x-request-id``."""
    response_format: str | None = None
    """The ``response_format`` type requested, if any."""
    received_tokens: int | None = None
    """For a streamed call that failed without reported usage (e.g. a stream broken off part way):
    citewise's estimate of the output tokens that had arrived (the endpoint likely billed them)."""
