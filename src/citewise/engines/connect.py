"""How an engine reaches its provider: key and base URL from the environment, no hidden retries,
no request leaving the configured origin, and HTTP failures mapped to :class:`EngineError`.

=========  ===================  ===========================  ============================================
engine     key                  base URL variable            default
=========  ===================  ===========================  ============================================
openai     ``OPENAI_API_KEY``    ``CITEWISE_OPENAI_BASE_URL``    ``https://api.openai.com/v1``
anthropic  ``ANTHROPIC_API_KEY`` ``CITEWISE_ANTHROPIC_BASE_URL`` ``https://api.anthropic.com``
gemini     ``GEMINI_API_KEY``    ``CITEWISE_GEMINI_BASE_URL``    ``https://generativelanguage.googleapis.com``
=========  ===================  ===========================  ============================================

A gateway (CometAPI, OpenRouter ...) may speak a provider's API without offering its native search
tool; such an endpoint is reported in one line (:class:`EngineToolUnavailable`), never retried.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from citewise.config import Secret, checked_endpoint, env, secret_from_env
from citewise.errors import ConfigError
from citewise.llm.errors import display_url
from citewise.llm.wire import OffOrigin, same_origin_as
from citewise.records.engines import EngineError, EngineErrorKind, EngineToolUnavailable
from citewise.retry_after import retry_after_seconds
from citewise.text.origins import origin

__all__ = [
    "ENDPOINTS",
    "EngineEndpoint",
    "OffOrigin",
    "engine_endpoint",
    "http_error",
    "same_origin_as",
    "sdk_client",
    "sdk_errors",
]


@dataclass(frozen=True)
class EngineEndpoint:
    """Where one engine's requests go, with its key (a :class:`Secret`: it never prints)."""

    engine: str
    key: Secret
    base_url: str
    key_env: str
    url_env: str
    timeout_s: float = 120.0

    @property
    def official(self) -> bool:
        """True when the base URL is the provider's own endpoint."""
        return origin(self.base_url) == origin(ENDPOINTS[self.engine][2])


ENDPOINTS: Final = {
    "openai": ("OPENAI_API_KEY", "CITEWISE_OPENAI_BASE_URL", "https://api.openai.com/v1", "OpenAI's web_search"),
    "anthropic": (
        "ANTHROPIC_API_KEY",
        "CITEWISE_ANTHROPIC_BASE_URL",
        "https://api.anthropic.com",
        "Anthropic's web_search_20250305",
    ),
    "gemini": (
        "GEMINI_API_KEY",
        "CITEWISE_GEMINI_BASE_URL",
        "https://generativelanguage.googleapis.com",
        "Gemini's google_search grounding",
    ),
}
"""Engine -> (key variable, base URL variable, official base URL, the native tool's name)."""


def engine_endpoint(engine: str, *, api_key: str | None = None, base_url: str | None = None) -> EngineEndpoint:
    """The endpoint of ``engine`` from the arguments or the environment; a missing key is a
    :class:`ConfigError` naming the variable and the keyless alternative."""
    key_env, url_env, default, _ = ENDPOINTS[engine]
    raw = api_key or env(key_env)
    if not raw:
        raise ConfigError(
            f"--engine {engine} needs {key_env}; set it, or use the default engine (citewise's own loop: "
            "--search tavily or --search local)"
        )
    url = checked_endpoint(base_url or env(url_env) or default, url_env=url_env, key_env=key_env)
    return EngineEndpoint(engine, secret_from_env(key_env, raw), url, key_env, url_env)


def off_origin_error(endpoint: EngineEndpoint, exc: OffOrigin) -> EngineError:
    """The error for a request the endpoint tried to redirect to another origin."""
    return EngineError(
        f"the {endpoint.engine} endpoint {display_url(endpoint.base_url)} redirected the request to another "
        f"origin ({exc.target}); citewise only talks to the configured endpoint: check {endpoint.url_env}",
        EngineErrorKind.INVALID_RESPONSE,
    )


_TOOL_WORDS = re.compile(r"web_search|google_search|googleSearch|tool|grounding", re.IGNORECASE)
_NOT_OFFERED = re.compile(r"not (?:supported|available|allowed|enabled)|unsupported|unknown|invalid|not found", re.I)


def http_error(
    endpoint: EngineEndpoint, status: int, message: str, headers: Any, redact: Callable[[str], str]
) -> EngineError | EngineToolUnavailable:
    """The error for an HTTP failure of the engine's call. A refusal of the tool itself (a gateway
    without it), or an endpoint that does not have the API at all, is :class:`EngineToolUnavailable`."""
    detail = " ".join(redact(message).split())[:300]
    tool = ENDPOINTS[endpoint.engine][3]
    where = display_url(endpoint.base_url)
    if status in (400, 404, 405, 422) and (
        status != 400 or (_TOOL_WORDS.search(detail) and _NOT_OFFERED.search(detail))
    ):
        gateway = "" if endpoint.official else " (access through a gateway does not imply the native tools)"
        return EngineToolUnavailable(
            f"{where} does not offer {tool} (HTTP {status}: {detail or 'no detail'}){gateway}; point "
            f"{endpoint.url_env} at the provider's own API, or use the default engine"
        )
    if 300 <= status < 400:
        return EngineError(
            f"the {endpoint.engine} endpoint {where} answered with a redirect (HTTP {status}), which citewise "
            f"does not follow to another origin; check {endpoint.url_env}",
            EngineErrorKind.INVALID_RESPONSE,
            status_code=status,
        )
    if status in (401, 403):
        return EngineError(
            f"the {endpoint.engine} endpoint rejected the key (HTTP {status}): {detail}; check {endpoint.key_env}",
            EngineErrorKind.AUTH,
            status_code=status,
        )
    if status == 429:
        wait = retry_after_seconds(headers) if headers is not None else None
        shown = f", retry after {wait:g} s" if wait is not None else ""
        return EngineError(
            f"rate limited by {endpoint.engine} (HTTP 429{shown}): {detail}",
            EngineErrorKind.RATE_LIMITED,
            status_code=429,
            retry_after=wait,
        )
    if status >= 500:
        return EngineError(
            f"the {endpoint.engine} endpoint failed (HTTP {status}): {detail}",
            EngineErrorKind.SERVER,
            status_code=status,
        )
    return EngineError(
        f"the {endpoint.engine} endpoint refused the request (HTTP {status}): {detail}",
        EngineErrorKind.BAD_REQUEST,
        status_code=status,
    )


def redactor(endpoint: EngineEndpoint) -> Callable[[str], str]:
    """Server-provided text with the key removed, should an endpoint echo it."""
    key = endpoint.key.reveal()
    return lambda text: text.replace(key, "<redacted>")


# -- the OpenAI and Anthropic SDKs: generated alike, so built and read alike -------------------------


def sdk_client(sdk: Any, client_class: Any, endpoint: EngineEndpoint) -> Any:
    """A ``client_class`` of ``sdk`` (the ``openai`` or ``anthropic`` module) on ``endpoint``: its key,
    base URL and timeout, no retries of its own (citewise retries once, inside the budget, recorded),
    and an HTTP client that refuses a redirect off the configured origin before the hop is sent."""
    http_client = sdk.DefaultHttpxClient(
        timeout=endpoint.timeout_s, event_hooks={"request": [same_origin_as(endpoint.base_url)]}
    )
    return client_class(
        api_key=endpoint.key.reveal(),
        base_url=endpoint.base_url,
        timeout=endpoint.timeout_s,
        max_retries=0,
        http_client=http_client,
    )


@contextmanager
def sdk_errors(sdk: Any, endpoint: EngineEndpoint, provider: str) -> Iterator[None]:
    """Turn the ``openai`` / ``anthropic`` SDK's errors raised inside into :class:`EngineError` s
    (``provider``: the name shown, e.g. ``OpenAI``)."""
    try:
        yield
    except OffOrigin as exc:  # raised by the request hook before the hop is sent
        raise off_origin_error(endpoint, exc) from exc
    except sdk.APIStatusError as exc:
        raise http_error(
            endpoint, exc.status_code, _sdk_message(exc), exc.response.headers, redactor(endpoint)
        ) from exc
    except sdk.APITimeoutError as exc:
        raise EngineError(
            f"no answer from {provider} within {endpoint.timeout_s:g} s", EngineErrorKind.TIMEOUT
        ) from exc
    except sdk.APIConnectionError as exc:
        if isinstance(exc.__cause__, OffOrigin):
            raise off_origin_error(endpoint, exc.__cause__) from exc
        raise EngineError(f"cannot reach the {provider.lower()} endpoint: {exc}", EngineErrorKind.UNAVAILABLE) from exc


def _sdk_message(exc: Any) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])
    return str(exc.message)
