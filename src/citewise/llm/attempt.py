"""One request to the model endpoint while it is in flight: what it learned before it succeeded or
failed (:class:`Attempt`, the source of its :class:`~citewise.llm.records.CallRecord`), how a finished
completion becomes a :class:`~citewise.llm.records.ChatResult` or a typed error, and how an error the
caller's stream reader raises is told apart from the endpoint's."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from citewise.llm.errors import (
    ModelEmptyReply,
    ModelEndpointError,
    ModelRefused,
    ModelTruncated,
    ModelUnexpectedFinish,
    display_url,
)
from citewise.llm.records import CallRecord, ChatResult, TokenUsage
from citewise.llm.settings import BASE_URL_ENV
from citewise.llm.structured import excerpt
from citewise.llm.wire import usage_of
from citewise.text.tokens import estimate_text_tokens


class CallerRaised(Exception):
    """What the caller's ``on_text`` raised while a stream was read, carried past the handlers that map
    the SDK's and the body's errors (a ``ValueError`` of the caller's is not a body that is not JSON)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


def relayed(on_text: Callable[[str], None]) -> Callable[[str], None]:
    def relay(piece: str) -> None:
        try:
            on_text(piece)
        except Exception as exc:
            raise CallerRaised(exc) from exc

    return relay


@dataclass
class Attempt:
    # One request in flight, and what it learned before it succeeded or failed (for its CallRecord).
    requested_model: str
    params: dict[str, Any]
    format_type: str | None
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    started: float = field(default_factory=time.perf_counter)
    model: str | None = None
    usage: TokenUsage | None = None
    finish_reason: str | None = None
    status_code: int | None = None
    request_id: str | None = None
    received: list[str] | None = None  # a stream's content so far, once it has begun (HTTP 200)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def info(self) -> dict[str, Any]:
        """The keywords every :class:`ModelError` about this attempt gets."""
        return {
            "model": self.requested_model,
            "status_code": self.status_code,
            "request_id": self.request_id,
            "usage": self.usage,
        }

    def record(self, outcome: str) -> CallRecord:
        """The call record of this attempt, ended with ``outcome`` (``"ok"`` or an error's type
        name); a stream that broke off before its usage came has what arrived estimated."""
        broken = outcome != "ok" and self.usage is None and self.received is not None
        return CallRecord(
            requested_model=self.requested_model,
            model=self.model,
            started_at=self.started_at,
            latency_s=self.elapsed(),
            outcome=outcome,
            usage=self.usage,
            finish_reason=self.finish_reason,
            status_code=self.status_code,
            request_id=self.request_id,
            response_format=self.format_type,
            received_tokens=estimate_text_tokens("".join(self.received or ())) if broken else None,
        )


def result_of(completion: Any, attempt: Attempt, base_url: str) -> ChatResult:
    """The result of a finished completion, or the typed error its reply is (the attempt learns the
    model, usage and finish reason either way)."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise endpoint_error(base_url, "a reply without choices", attempt)
    attempt.model = getattr(completion, "model", None) or None
    attempt.usage = usage_of(getattr(completion, "usage", None))
    attempt.finish_reason = finish_reason = getattr(choices[0], "finish_reason", None)
    message = getattr(choices[0], "message", None)
    text = getattr(message, "content", None)
    refusal = getattr(message, "refusal", None)
    model = attempt.requested_model
    if finish_reason == "length":
        raise ModelTruncated(
            f"the reply of {model} was cut off at the token limit (finish_reason length); "
            "raise max_completion_tokens or ask for less",
            text=text,
            **attempt.info(),
        )
    if finish_reason == "content_filter" or refusal:
        reason = f": {excerpt(refusal)}" if refusal else " (finish_reason content_filter)"
        raise ModelRefused(f"{model} refused to answer{reason}", text=text, **attempt.info())
    if finish_reason != "stop":
        raise ModelUnexpectedFinish(
            f"the reply of {model} ended with finish_reason {finish_reason!r}, not 'stop'",
            text=text,
            **attempt.info(),
        )
    if not isinstance(text, str) or not text.strip():
        raise ModelEmptyReply(f"{model} finished (finish_reason stop) with empty content", **attempt.info())
    return ChatResult(
        text=text,
        model=attempt.model or model,
        requested_model=model,
        finish_reason=finish_reason,
        usage=attempt.usage,
        latency_s=attempt.elapsed(),
        request_id=attempt.request_id,
        response_format=attempt.format_type,
    )


def endpoint_error(base_url: str, what: str, attempt: Attempt) -> ModelEndpointError:
    return ModelEndpointError(
        f"the model endpoint {display_url(base_url)} answered with {what} instead of a "
        f"Chat Completions reply; check {BASE_URL_ENV} (OpenAI-compatible APIs usually end in /v1)",
        **attempt.info(),
    )
