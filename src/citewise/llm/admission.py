"""Admitting a request before it is sent: what a token or money cap is shown, and an estimate of its
prompt that errs high.

A caller that must keep a run under a cap gives :meth:`ChatClient.admitting
<citewise.llm.client.ChatClient.admitting>` an :data:`Admission`: it sees every request as a
:class:`PendingRequest` just before it goes out, and answers with the reply cap to send (at most the
one asked for) or raises to stop it. Nothing is sent and nothing is recorded for a stopped request::

    def admit(request: PendingRequest) -> int:
        if used + request.estimated_prompt_tokens + request.max_completion_tokens > cap:
            raise RunError("the next call would cross the token cap")
        return request.max_completion_tokens

    with client.admitting(admit):
        client.complete("gpt-4o-mini", messages)

The estimate counts what the endpoint bills as prompt tokens — every message's text, the JSON schema
of structured output, and a few tokens of framing per message — each text by the one token estimate,
:func:`citewise.text.tokens.estimate_text_tokens`, which errs high.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from citewise.text.tokens import estimate_text_tokens

__all__ = [
    "MESSAGE_OVERHEAD_TOKENS",
    "Admission",
    "PendingRequest",
]

MESSAGE_OVERHEAD_TOKENS: Final = 4
"""Tokens of framing (role, separators) counted for each message, plus once for the reply's start."""


@dataclass(frozen=True, slots=True)
class PendingRequest:
    """A chat completion about to be sent."""

    model: str
    """The model id requested."""
    messages: tuple[Mapping[str, Any], ...]
    """The messages as they will be sent."""
    max_completion_tokens: int
    """The reply cap the request asks for (reasoning tokens included)."""
    response_format: Mapping[str, Any] | None = None
    """The structured-output format, when one is requested (its schema is billed as prompt)."""

    @property
    def estimated_prompt_tokens(self) -> int:
        """A high estimate of the prompt tokens the endpoint will bill for this request."""
        tokens = MESSAGE_OVERHEAD_TOKENS
        for message in self.messages:
            tokens += MESSAGE_OVERHEAD_TOKENS + estimate_text_tokens(_text(message.get("content")))
        if self.response_format is not None:
            tokens += estimate_text_tokens(json.dumps(self.response_format, ensure_ascii=False))
        return tokens


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))
    return "" if content is None else str(content)


Admission = Callable[[PendingRequest], int]
"""Called just before a request is sent; returns the reply cap to send (at most the one asked for), or
raises to stop the request (nothing is sent)."""
