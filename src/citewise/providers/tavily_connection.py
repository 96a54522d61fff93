"""The authenticated Tavily client: ``tavily-python``'s ``TavilyClient`` with its own HTTP session.

::

    from citewise.providers.tavily import TavilyConnection, TavilySearch

    with TavilyConnection() as tavily:           # TAVILY_API_KEY, CITEWISE_TAVILY_BASE_URL
        hits = TavilySearch(connection=tavily).search("deposit protection rules 2024")
        print(tavily.calls, tavily.credits)

:class:`TavilyConnection` is the provider half of the Tavily support; the adapters in
:mod:`citewise.providers.tavily` (which re-exports this class) turn its JSON into records. It

- sends one request per call through ``tavily-python`` (no retries; ``ProviderError.retryable`` tells
  the caller which failures a bounded retry inside the budget may help with);
- maps the client's and ``requests``' exceptions onto :mod:`citewise.providers.errors` with
  ``raise ... from``, reading the HTTP status and ``Retry-After`` from a session hook because
  ``tavily-python``'s exceptions drop the response;
- keeps the key out of every message, even when a server echoes it back;
- records every request, successful or not, in :attr:`TavilyConnection.calls`.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypeVar
from urllib.parse import urljoin

from citewise.providers.errors import (
    ProviderAuthError,
    ProviderBadRequest,
    ProviderError,
    ProviderForbidden,
    ProviderInvalidResponse,
    ProviderQuotaExceeded,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
    retry_after_seconds,
)
from citewise.providers.tavily_settings import BASE_URL_ENV, KEY_ENV, TavilySettings
from citewise.records.providers import ExtractResponse, ProviderCall, SearchResponse
from citewise.text.origins import origin

if TYPE_CHECKING:
    import requests

__all__ = ["BASE_URL_ENV", "KEY_ENV", "PROVIDER", "Operation", "TavilyConnection"]

PROVIDER = "tavily"

Operation = Literal["search", "extract"]
_DETAIL_CHARS = 300

R = TypeVar("R", SearchResponse, ExtractResponse)


class TavilyConnection:
    """The authenticated ``tavily.TavilyClient`` with its own HTTP session; see the module docstring.

    Search and extract adapters may share one connection (one connection pool, one call log). Safe for
    concurrent calls from several threads. Close it, or use it as a context manager, to release the
    connections.
    """

    def __init__(self, settings: TavilySettings | None = None) -> None:
        import requests
        import tavily

        if settings is None:
            settings = TavilySettings.from_env()
        self.settings = settings
        self.calls: list[ProviderCall] = []
        """Every request made, in order, successful or not."""
        self._lock = threading.Lock()
        # tavily-python's exceptions drop the response (no status for 403/432/433, no retry-after on
        # 429), so a session hook keeps the last response each thread received.
        self._last = threading.local()
        self._session = requests.Session()
        self._session.hooks["response"].append(self._remember_response)
        self._client = tavily.TavilyClient(
            api_key=self.settings.api_key.reveal(),
            api_base_url=self.settings.base_url,
            session=self._session,
        )

    def __repr__(self) -> str:
        return f"TavilyConnection(base_url={self.settings.base_url!r}, calls={len(self.calls)})"

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()  # a no-op for a session it was given
        self._session.close()

    def __enter__(self) -> TavilyConnection:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def credits(self) -> float:
        """Credits over all successful calls so far (reported or estimated)."""
        return sum(call.credits or 0.0 for call in list(self.calls))

    def call(self, operation: Operation, params: Mapping[str, Any], parse: Callable[[Mapping[str, Any]], R]) -> R:
        """Send one request, map any failure to a :class:`ProviderError`, parse the answer, record the call."""
        started_at, started = datetime.now(UTC), time.perf_counter()
        self._last.response = None
        try:
            result = parse(self._send(operation, params))
        except ProviderError as error:
            latency = time.perf_counter() - started
            outcome = type(error).__name__
            self._record(
                ProviderCall(
                    PROVIDER,
                    operation,
                    started_at,
                    latency,
                    outcome,
                    status_code=error.status_code,
                    request_id=error.request_id,
                )
            )
            raise
        finally:
            self._last.response = None  # do not keep the last page alive
        self._record(
            ProviderCall(
                PROVIDER,
                operation,
                started_at,
                time.perf_counter() - started,
                "ok",
                credits=result.credits,
                credits_source=result.credits_source,
                status_code=200,
                request_id=result.request_id,
            )
        )
        return result

    # -- internals ----------------------------------------------------------------------------

    def _send(self, operation: Operation, params: Mapping[str, Any]) -> Mapping[str, Any]:
        """One request through tavily-python; its exceptions become :class:`ProviderError`."""
        timeout = self.settings.timeout_s
        try:
            if operation == "search":
                body = self._client.search(timeout=timeout, **params)
            else:
                body = self._client.extract(timeout=timeout, **params)
        except Exception as exc:
            error = self._map_error(exc, operation)
            if error is None:
                raise  # not a provider failure: a bug, kept as it is
            raise error from exc
        if not isinstance(body, Mapping):
            raise ProviderInvalidResponse(
                f"Tavily answered {operation} with a JSON {type(body).__name__}, not an object; check {BASE_URL_ENV}",
                provider=PROVIDER,
                status_code=200,
            )
        return body

    def _remember_response(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        self._last.response = response
        if response.is_redirect:
            # requests would follow it and re-send the body (dropping only the Authorization header):
            # a configured endpoint that sends citewise elsewhere is refused, never followed.
            target = origin(urljoin(response.url, response.headers.get("location", "")))
            if target != origin(self.settings.base_url):
                response.close()  # requests leaves a response it was not allowed to finish open
                raise ProviderInvalidResponse(
                    f"Tavily at {self.settings.base_url} redirected the request to another origin ({target}) "
                    f"with HTTP {response.status_code}; citewise only talks to the configured endpoint: "
                    f"check {BASE_URL_ENV}",
                    provider=PROVIDER,
                    status_code=response.status_code,
                )

    def _record(self, call: ProviderCall) -> None:
        with self._lock:
            self.calls.append(call)

    def _redact(self, text: str) -> str:
        """Server-provided text, shortened and with the key removed should it be echoed back."""
        text = " ".join(text.replace(self.settings.api_key.reveal(), "<redacted>").split())
        return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"

    def _map_error(self, exc: Exception, operation: Operation) -> ProviderError | None:
        """The :class:`ProviderError` for an exception of tavily-python or requests; ``None`` for an
        exception that is not a provider failure (a bug, to be raised as it is)."""
        import requests
        from tavily import errors as tavily_errors

        if isinstance(exc, ProviderError):  # raised by the session hook (a redirect off the endpoint)
            return exc
        base_url = self.settings.base_url
        if isinstance(exc, tavily_errors.TimeoutError) or _read_timed_out(exc):
            return ProviderTimeout(
                f"no answer from Tavily {operation} at {base_url} within {self.settings.timeout_s:g} s",
                provider=PROVIDER,
                timeout_s=self.settings.timeout_s,
            )
        response: requests.Response | None = getattr(self._last, "response", None)
        if response is not None and response.status_code != 200:
            # tavily-python raised its own class, requests.HTTPError, or (for a status it does not
            # expect, e.g. a 3xx) a TypeError from `raise None`: the status says what happened.
            return self._from_status(response, operation)
        if response is not None and isinstance(exc, ValueError | TypeError | AttributeError | KeyError):
            # A 200 the client could not read: not JSON (requests' JSONDecodeError is a ValueError),
            # or JSON that is not an object (tavily-python calls .setdefault on it).
            what = "not JSON" if isinstance(exc, ValueError) else "JSON but not an object"
            return ProviderInvalidResponse(
                f"Tavily at {base_url} answered {operation} with a body that is {what} "
                f"({_content_kind(response)}); check {BASE_URL_ENV}",
                provider=PROVIDER,
                status_code=200,
            )
        if isinstance(exc, requests.RequestException):
            # Connection refused, DNS, TLS, a connection cut mid-answer.
            return ProviderUnavailable(
                f"cannot reach Tavily at {base_url}: {self._redact(_cause(exc))}", provider=PROVIDER
            )
        for tavily_class, provider_class in _TAVILY_ERRORS:
            # Only when no response was seen (should not happen): map by class, status unknown.
            if isinstance(exc, getattr(tavily_errors, tavily_class)):
                return provider_class(f"Tavily {operation} failed: {self._redact(str(exc))}", provider=PROVIDER)
        return None

    def _from_status(self, response: requests.Response, operation: Operation) -> ProviderError:
        status = response.status_code
        body = _json_or_none(response)
        detail = self._redact(_server_message(body)) if body is not None else _content_kind(response)
        request_id = _request_id(body, response)
        info: dict[str, Any] = {"provider": PROVIDER, "status_code": status, "request_id": request_id, "detail": detail}
        if status == 400:
            return ProviderBadRequest(f"Tavily refused the {operation} request (HTTP 400): {detail}", **info)
        if status == 401:
            return ProviderAuthError(f"Tavily rejected the key (HTTP 401): {detail}; check {KEY_ENV}", **info)
        if status == 403:
            return ProviderForbidden(
                f"Tavily refused the {operation} request for this key (HTTP 403): {detail}; check the key's plan",
                **info,
            )
        if status in (432, 433):
            which = "the key's or plan's usage limit" if status == 432 else "the pay-as-you-go spending limit"
            return ProviderQuotaExceeded(
                f"Tavily {operation} refused: {which} was reached (HTTP {status}): {detail}", **info
            )
        if status == 429:
            retry_after = retry_after_seconds(response.headers)
            wait = f", retry after {retry_after:g} s" if retry_after is not None else ""
            return ProviderRateLimited(
                f"rate limited by Tavily (HTTP 429{wait}): {detail}", retry_after=retry_after, **info
            )
        if status >= 500:
            return ProviderUnavailable(f"Tavily {operation} failed (HTTP {status}): {detail}", **info)
        if body is None:
            return ProviderInvalidResponse(
                f"Tavily at {self.settings.base_url} answered {operation} with HTTP {status} and {detail} "
                f"instead of the Tavily API; check {BASE_URL_ENV}",
                **info,
            )
        return ProviderBadRequest(f"Tavily refused the {operation} request (HTTP {status}): {detail}", **info)


_TAVILY_ERRORS: tuple[tuple[str, type[ProviderError]], ...] = (
    ("InvalidAPIKeyError", ProviderAuthError),
    ("BadRequestError", ProviderBadRequest),
    ("ForbiddenError", ProviderForbidden),
    ("UsageLimitExceededError", ProviderRateLimited),
)


def _read_timed_out(exc: BaseException) -> bool:
    """A read timeout while the body was streaming, which requests wraps in a ConnectionError."""
    import urllib3

    reason = exc.args[0] if exc.args else None
    return isinstance(reason, urllib3.exceptions.ReadTimeoutError)


def _json_or_none(response: requests.Response) -> Any:
    if "json" not in response.headers.get("content-type", ""):
        return None
    try:
        return response.json()
    except ValueError:
        return None


def _server_message(body: Any) -> str:
    """Tavily's ``{"detail": {"error": "..."}}``, or the other shapes a gateway might send."""
    if isinstance(body, dict):
        detail = body.get("detail")
        if isinstance(detail, dict) and isinstance(detail.get("error"), str):
            return str(detail["error"])
        if isinstance(detail, str):
            return detail
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(error, str):
            return error
    return "no error message"


def _request_id(body: Any, response: requests.Response) -> str | None:
    if isinstance(body, dict) and isinstance(body.get("request_id"), str):
        return str(body["request_id"])
    return response.headers.get("x-request-id")


def _content_kind(response: requests.Response | None) -> str:
    """'a text/html page titled ...': what a body was, without pasting it."""
    if response is None:
        return "no body"
    kind = response.headers.get("content-type", "").split(";")[0].strip() or "untyped"
    article = "an" if kind[0] in "aeiou" else "a"
    title = re.search(r"<title[^>]*>(.*?)</title>", response.text[:4096], re.I | re.S) if "html" in kind else None
    return f"{article} {kind} body" + (f" titled {' '.join(title.group(1).split())[:80]!r}" if title else "")


def _cause(exc: BaseException) -> str:
    """The innermost reason of a connection failure, e.g. ``[Errno 111] Connection refused``."""
    reason: BaseException = exc
    seen: set[int] = set()
    while id(reason) not in seen:
        seen.add(id(reason))
        inner = reason.__cause__ or reason.__context__
        nested = reason.args[0] if reason.args and isinstance(reason.args[0], BaseException) else None
        nxt = inner or nested or getattr(reason, "reason", None)
        if not isinstance(nxt, BaseException):
            break
        reason = nxt
    return str(reason) or type(reason).__name__
