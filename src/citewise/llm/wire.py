"""What the model client reads from an endpoint and how it words a request again: a streamed reply
put together from its chunks, the origin guard on redirects, a JSON reply validated, the usage of a
reply, which refusals are about streaming or structured output, and instructions added to the
messages. Used by :mod:`citewise.llm.client` only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from citewise.llm.errors import CallInfo, ModelBadRequest, ModelReplyInvalid
from citewise.llm.records import ChatResult, TokenUsage
from citewise.llm.structured import excerpt, parse_json_reply
from citewise.text.origins import origin

__all__ = [
    "OffOrigin",
    "Streamed",
    "StreamedChoice",
    "StreamedMessage",
    "about_response_format",
    "about_streaming",
    "read_stream",
    "same_origin_as",
    "usage_of",
    "validated",
    "validated_text",
    "with_instruction",
]

T = TypeVar("T")


@dataclass
class StreamedMessage:
    content: str | None
    refusal: str | None


@dataclass
class StreamedChoice:
    finish_reason: str | None
    message: StreamedMessage


@dataclass
class Streamed:
    """A streamed reply put together from its chunks, read like a completion by ``_result``."""

    model: str | None
    usage: Any
    choices: list[StreamedChoice]


def read_stream(stream: Any, on_text: Callable[[str], None], pieces: list[str] | None = None) -> Streamed | None:
    """The reply of a stream of ``chat.completion.chunk`` events (None when none came), each piece of
    content handed to ``on_text`` as it arrives and kept in ``pieces`` (so a caller still has what
    arrived when the stream breaks off)."""
    pieces = [] if pieces is None else pieces
    refusal: list[str] = []
    model = finish = usage = None
    seen = False
    try:
        for chunk in stream:
            seen = True
            model = model or getattr(chunk, "model", None)
            usage = getattr(chunk, "usage", None) or usage
            for choice in getattr(chunk, "choices", None) or ():
                delta = choice.delta
                if delta.content:
                    pieces.append(delta.content)
                    on_text(delta.content)
                if getattr(delta, "refusal", None):
                    refusal.append(delta.refusal)
                finish = choice.finish_reason or finish
    finally:  # a reader that stops early (its caller raised) leaves no response open
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    if not seen:
        return None
    message = StreamedMessage("".join(pieces) if pieces else None, "".join(refusal) or None)
    return Streamed(model, usage, [StreamedChoice(finish, message)])


class OffOrigin(Exception):
    """A request (a redirect hop) leaving the configured endpoint's origin; raised before it is sent."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target


def same_origin_as(base_url: str) -> Callable[[Any], None]:
    """An httpx request hook refusing any request whose origin is not ``base_url``'s."""
    allowed = origin(base_url)

    def check(request: Any) -> None:
        target = origin(str(request.url))
        if target != allowed:
            raise OffOrigin(target)

    return check


def validated(result: ChatResult, validate: Callable[[Any], T]) -> T:
    """``validate(JSON of the reply)``; a reply that does not parse or validate is ModelReplyInvalid."""
    try:
        return validate(parse_json_reply(result.text))
    except ModelReplyInvalid as exc:  # from the parser, or a validator that raises it itself
        raise ModelReplyInvalid(exc.message, excerpt=exc.excerpt, text=result.text, **_info(result)) from exc
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise _rejected(result, exc, "JSON reply") from exc


def validated_text(result: ChatResult, validate: Callable[[str], T]) -> T:
    """``validate(text of the reply)``; a reply it rejects is ModelReplyInvalid."""
    try:
        return validate(result.text)
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        raise _rejected(result, exc, "reply") from exc


def _info(result: ChatResult) -> CallInfo:
    return {"model": result.requested_model, "status_code": 200, "request_id": result.request_id, "usage": result.usage}


def _rejected(result: ChatResult, exc: Exception, what: str) -> ModelReplyInvalid:
    shown = excerpt(result.text)
    return ModelReplyInvalid(
        f"the {what} of {result.requested_model} failed validation: {exc}; reply: {shown!r}",
        excerpt=shown,
        text=result.text,
        **_info(result),
    )


def usage_of(usage: Any) -> TokenUsage | None:
    if usage is None:
        return None
    details = getattr(usage, "prompt_tokens_details", None)
    return TokenUsage(
        prompt=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion=int(getattr(usage, "completion_tokens", 0) or 0),
        cached=int(getattr(details, "cached_tokens", 0) or 0),
    )


_FORMAT_WORDS = ("response_format", "response format", "json_schema", "json schema", "structured output")


def about_streaming(exc: ModelBadRequest) -> bool:
    """Whether a refusal is about streaming (so the same request unstreamed may work)."""
    return exc.status_code in (400, 422) and "stream" in (exc.detail or str(exc)).lower()


def about_response_format(exc: ModelBadRequest) -> bool:
    """Whether a refusal is about structured output (so plain prompting may work)."""
    if exc.status_code not in (400, 422):
        return False
    if exc.param and "response_format" in exc.param:
        return True
    text = (exc.detail or "").lower()
    return any(word in text for word in _FORMAT_WORDS)


def with_instruction(messages: Sequence[Mapping[str, Any]], instruction: str) -> list[dict[str, Any]]:
    """``messages`` with ``instruction`` added to the leading system message (or as a new one)."""
    copied = [dict(message) for message in messages]
    if copied and copied[0].get("role") == "system" and isinstance(copied[0].get("content"), str):
        copied[0]["content"] = f"{copied[0]['content']}\n\n{instruction}"
    else:
        copied.insert(0, {"role": "system", "content": instruction})
    return copied
