"""Typed errors of a model call.

Every failure of the model client is a :class:`ModelError`, a run error (see
:mod:`citewise.errors`); the SDK's own exceptions are mapped at the boundary with
``raise ... from exc``. A missing key is not a model error but a
:class:`~citewise.errors.ConfigError`, raised before any call.

    RunError
    └── ModelError                  a model call failed; model, status_code, request_id, usage, detail
        ├── ModelAuthError          401/403: the key was rejected or may not use this model
        ├── ModelRateLimited        429; retry_after in seconds when the endpoint said   (retryable)
        ├── ModelBadRequest         400/404/409/422 and other 4xx: the request was refused
        ├── ModelServerError        5xx                                                  (retryable)
        │   ├── ModelUnavailable    the endpoint could not be reached at all             (retryable)
        │   └── ModelStreamBroken   a streamed reply broke off part way (the connection
        │                           dropped, or an error event came instead of the rest) (retryable)
        ├── ModelTimeout            no answer within the client's timeout                (retryable)
        ├── ModelEndpointError      an answer that is not Chat Completions JSON (an HTML page:
        │                           usually a wrong CITEWISE_LLM_BASE_URL)
        └── ModelReplyError         the call succeeded but the reply cannot be used (tokens were spent)
            ├── ModelTruncated      finish_reason "length": max_completion_tokens was reached
            ├── ModelRefused        finish_reason "content_filter", or a refusal instead of content
            ├── ModelEmptyReply     finish_reason "stop" with empty content
            ├── ModelUnexpectedFinish  any other finish_reason (e.g. "tool_calls")
            └── ModelReplyInvalid   not JSON, or JSON that failed validation; excerpt shows it

:func:`from_sdk_error` maps the SDK's exceptions onto this tree; :func:`from_broken_stream` those
raised once a stream had begun.

The client never retries (budgets must not grow invisibly); ``retryable`` tells the caller which
failures a bounded retry inside the budget may help with. Messages never contain the API key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypedDict, Unpack
from urllib.parse import urlsplit

from citewise.errors import RunError
from citewise.retry_after import retry_after_seconds

if TYPE_CHECKING:
    import openai

    from citewise.llm.records import TokenUsage

__all__ = [
    "ModelAuthError",
    "ModelBadRequest",
    "ModelEmptyReply",
    "ModelEndpointError",
    "ModelError",
    "ModelRateLimited",
    "ModelRefused",
    "ModelReplyError",
    "ModelReplyInvalid",
    "ModelServerError",
    "ModelStreamBroken",
    "ModelTimeout",
    "ModelTruncated",
    "ModelUnavailable",
    "ModelUnexpectedFinish",
    "from_broken_stream",
    "from_sdk_error",
]


class CallInfo(TypedDict, total=False):
    """What is known about the failed call; every error accepts these keywords."""

    model: str | None
    status_code: int | None
    request_id: str | None
    usage: TokenUsage | None
    detail: str | None


class ModelError(RunError):
    """A model call failed."""

    retryable: ClassVar[bool] = False
    """Whether a later attempt (by the caller, inside its budget) may succeed."""

    def __init__(
        self,
        message: str,
        *,
        model: str | None = None,
        status_code: int | None = None,
        request_id: str | None = None,
        usage: TokenUsage | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.model = model
        """The requested model id."""
        self.status_code = status_code
        """The HTTP status, when there was a response."""
        self.request_id = request_id
        """The endpoint's request id (``x-request-id``), for support tickets."""
        self.usage = usage
        """Tokens spent by the failed call, when the endpoint reported them."""
        self.detail = detail
        """The endpoint's own error message (shortened, key removed), when it gave one."""


class ModelAuthError(ModelError):
    """The key was rejected (401) or is not allowed to do this (403)."""


class ModelRateLimited(ModelError):
    """The endpoint answered 429."""

    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None, **info: Unpack[CallInfo]) -> None:
        super().__init__(message, **info)
        self.retry_after = retry_after
        """Seconds to wait before trying again, from the ``retry-after`` header; ``None`` if absent."""


class ModelBadRequest(ModelError):
    """The endpoint refused the request as given (400, 404, 409, 422, other 4xx)."""

    def __init__(
        self, message: str, *, param: str | None = None, code: str | None = None, **info: Unpack[CallInfo]
    ) -> None:
        super().__init__(message, **info)
        self.param = param
        """The request parameter the endpoint complained about, if it said."""
        self.code = code
        """The endpoint's error code, if any."""


class ModelServerError(ModelError):
    """The endpoint failed (5xx)."""

    retryable = True


class ModelUnavailable(ModelServerError):
    """The endpoint could not be reached (connection refused, DNS, TLS)."""


class ModelStreamBroken(ModelServerError):
    """A streamed reply stopped part way: the connection dropped before the stream's end, or the
    endpoint sent an error event instead of the rest. What had arrived is not a reply (it is not
    used); the prompt and the part received were most likely billed."""


class ModelTimeout(ModelError):
    """No answer within the client's timeout."""

    retryable = True


class ModelEndpointError(ModelError):
    """The endpoint answered, but not in the Chat Completions format (e.g. an HTML page)."""


class ModelReplyError(ModelError):
    """The call succeeded but its reply cannot be used."""

    def __init__(self, message: str, *, text: str | None = None, **info: Unpack[CallInfo]) -> None:
        super().__init__(message, **info)
        self.text = text
        """The reply as received (possibly partial), for the caller's log; never in the message."""


class ModelTruncated(ModelReplyError):
    """The reply stopped at ``max_completion_tokens`` (``finish_reason == "length"``)."""


class ModelRefused(ModelReplyError):
    """The model or its content filter refused (``content_filter`` or a ``refusal`` message)."""


class ModelEmptyReply(ModelReplyError):
    """``finish_reason == "stop"`` but the content was empty."""


class ModelUnexpectedFinish(ModelReplyError):
    """A ``finish_reason`` citewise never asks for, such as ``tool_calls``."""


class ModelReplyInvalid(ModelReplyError):
    """The reply was not valid JSON, or its JSON failed validation."""

    def __init__(self, message: str, *, excerpt: str = "", text: str | None = None, **info: Unpack[CallInfo]) -> None:
        super().__init__(message, text=text, **info)
        self.excerpt = excerpt
        """The start of the offending reply, shortened."""


# -- mapping from the openai SDK --------------------------------------------------------------

_CHECK_BASE_URL = "check CITEWISE_LLM_BASE_URL (OpenAI-compatible APIs usually end in /v1)"


def from_sdk_error(
    exc: openai.OpenAIError,
    *,
    model: str,
    base_url: str,
    timeout_s: float,
    redact: Callable[[str], str],
) -> ModelError:
    """The :class:`ModelError` for an exception of the ``openai`` SDK.

    ``base_url`` must already be safe to show; ``redact`` shortens server-provided text and removes
    the key from it, should an endpoint echo it back.
    """
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return ModelTimeout(f"no answer from {base_url} within {timeout_s:g} s (model {model})", model=model)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = redact(str(cause)) if cause else None
        where = f": {detail}" if detail else ""
        return ModelUnavailable(f"cannot reach the model endpoint {base_url}{where}", model=model, detail=detail)
    if isinstance(exc, openai.APIStatusError):
        return _from_status_error(exc, model=model, base_url=base_url, redact=redact)
    if isinstance(exc, openai.APIResponseValidationError):
        return ModelEndpointError(
            f"the model endpoint {base_url} answered with a reply the SDK could not read; {_CHECK_BASE_URL}",
            model=model,
            status_code=exc.status_code,
        )
    return ModelError(f"the model call failed: {redact(str(exc))}", model=model)


def from_broken_stream(
    exc: openai.OpenAIError,
    *,
    model: str,
    base_url: str,
    timeout_s: float,
    received_chars: int,
    redact: Callable[[str], str],
) -> ModelError:
    """The :class:`ModelError` for an exception raised while a stream that had begun (HTTP 200) was
    read: a timeout stays a :class:`ModelTimeout`; a dropped connection or an error event is a
    :class:`ModelStreamBroken` saying how far the reply had come."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return from_sdk_error(exc, model=model, base_url=base_url, timeout_s=timeout_s, redact=redact)
    body = getattr(exc, "body", None)
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        what = f"sent an error instead of the rest: {redact(str(body['message']))}"
    else:
        cause = exc.__cause__ or exc.__context__
        what = f"dropped the connection: {redact(str(cause or exc))}"
    return ModelStreamBroken(
        f"the model endpoint {base_url} broke off its streamed reply after {received_chars} characters "
        f"(model {model}); it {what}",
        model=model,
        detail=what,
    )


def _from_status_error(
    exc: openai.APIStatusError, *, model: str, base_url: str, redact: Callable[[str], str]
) -> ModelError:
    status = exc.status_code
    content_type = exc.response.headers.get("content-type", "")
    is_json = isinstance(exc.body, dict) or "json" in content_type
    detail = redact(_server_message(exc)) if is_json else _page_summary(exc.body, content_type)
    info: CallInfo = {"model": model, "status_code": status, "request_id": exc.request_id, "detail": detail}
    if status in (401, 403):
        return ModelAuthError(
            f"the model endpoint rejected the key (HTTP {status}): {detail}; check COMETAPI_KEY or "
            f"CITEWISE_LLM_API_KEY and that the key may use {model}",
            **info,
        )
    if status == 429:
        retry_after = retry_after_seconds(exc.response.headers)
        wait = f", retry after {retry_after:g} s" if retry_after is not None else ""
        return ModelRateLimited(
            f"rate limited by the model endpoint (HTTP 429{wait}): {detail}", retry_after=retry_after, **info
        )
    if status >= 500:
        return ModelServerError(f"the model endpoint failed (HTTP {status}): {detail}", **info)
    if not is_json:
        return ModelEndpointError(
            f"the model endpoint {base_url} answered HTTP {status} with {detail} instead of the Chat "
            f"Completions API; {_CHECK_BASE_URL}",
            **info,
        )
    return ModelBadRequest(
        f"the model endpoint refused the request (HTTP {status}, model {model}): {detail}",
        param=exc.param,
        code=exc.code,
        **info,
    )


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return exc.message


def _page_summary(body: object, content_type: str) -> str:
    """'a text/html page titled ...': what a non-JSON error body was, without pasting it."""
    kind = content_type.split(";")[0].strip() or "non-JSON"
    title = re.search(r"<title[^>]*>(.*?)</title>", body, re.I | re.S) if isinstance(body, str) else None
    return f"a {kind} page" + (f" titled {' '.join(title.group(1).split())[:80]!r}" if title else "")


def display_url(url: str) -> str:
    """``url`` without any ``user:password@`` part, safe for messages."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return parts._replace(netloc=netloc).geturl()
