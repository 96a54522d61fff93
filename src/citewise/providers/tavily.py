"""Tavily Search and Tavily Extract through the official ``tavily-python`` client.

::

    from citewise.providers.tavily import TavilyConnection, TavilyExtract, TavilySearch

    with TavilyConnection() as tavily:           # TAVILY_API_KEY, CITEWISE_TAVILY_BASE_URL
        hits = TavilySearch(connection=tavily).search("deposit protection rules 2024")
        pages = TavilyExtract(connection=tavily).extract([hit.url for hit in hits.results[:2]])

The parts:

- :class:`TavilySettings`: key (a :class:`~citewise.config.Secret`), base URL, timeout and the
  request options citewise uses (basic depth, 5 results, no answer, no raw content; Markdown
  extraction at basic depth).
- :class:`TavilyConnection`: the authenticated ``tavily.TavilyClient`` and its HTTP session, shared
  by search and extract. It maps the client's exceptions onto
  :mod:`citewise.providers.errors` and records every request in :attr:`TavilyConnection.calls`.
- :class:`TavilySearch` and :class:`TavilyExtract`: the wire format, mapped to
  :mod:`citewise.providers.base` records.

What they guarantee:

- **Never keyless.** ``tavily-python`` falls back to an anonymous "keyless" mode when it has no key;
  citewise refuses to run without ``TAVILY_API_KEY`` instead, and says which variable to set.
- **No retries.** Every call is one request; ``ProviderError.retryable`` tells the caller which
  failures a bounded retry inside the budget may help with.
- **Credits per call**: Tavily's own ``usage.credits`` when it reports them (``credits_source
  "reported"``), else the documented price rule (``"estimated"``): a basic search costs 1 credit
  (advanced 2); extraction costs 1 credit per 5 successful URLs at basic depth (2 at advanced),
  rounded up per call.
- **Every requested URL is accounted for**: a page with text, or a failure with its reason (Tavily's,
  an empty page, or a URL missing from Tavily's answer).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, TypeVar
from urllib.parse import urlsplit

from citewise.config import Secret, env
from citewise.errors import ConfigError, InputError
from citewise.providers.base import (
    CreditsSource,
    ExtractedPage,
    ExtractFailure,
    ExtractResponse,
    ProviderCall,
    SearchResponse,
    SearchResult,
)
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

if TYPE_CHECKING:
    import requests

    from citewise.providers.registry import ProviderRegistry

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_BASE_URL",
    "KEY_ENV",
    "MAX_EXTRACT_URLS",
    "MISSING_KEY_MESSAGE",
    "PROVIDER",
    "TIMEOUT_ENV",
    "TavilyConnection",
    "TavilyExtract",
    "TavilySearch",
    "TavilySettings",
    "register",
]

PROVIDER = "tavily"
DEFAULT_BASE_URL = "https://api.tavily.com"
KEY_ENV = "TAVILY_API_KEY"
BASE_URL_ENV = "CITEWISE_TAVILY_BASE_URL"
TIMEOUT_ENV = "CITEWISE_TAVILY_TIMEOUT"
MISSING_KEY_MESSAGE = "no Tavily key: set TAVILY_API_KEY, or use --search local to search the local evidence store"
MAX_EXTRACT_URLS = 20
"""Tavily Extract takes at most 20 URLs per request."""

SEARCH_CREDITS: Mapping[str, int] = {"basic": 1, "advanced": 2}
"""Credits per search by depth (Tavily's documented price rule)."""
EXTRACT_CREDITS_PER_5: Mapping[str, int] = {"basic": 1, "advanced": 2}
"""Credits per 5 successful extractions by depth (Tavily's documented price rule)."""

Depth = Literal["basic", "advanced"]
Operation = Literal["search", "extract"]
_DETAIL_CHARS = 300


# -- settings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TavilySettings:
    """How to reach Tavily and what to ask it for. The key is a :class:`Secret`: it never prints."""

    api_key: Secret
    """The Tavily key, sent as ``Authorization: Bearer``."""
    base_url: str = DEFAULT_BASE_URL
    """The API root; ``/search`` and ``/extract`` are appended."""
    timeout_s: float = 30.0
    """Seconds before a call is abandoned with :class:`ProviderTimeout`. tavily-python also sends it
    as Extract's own ``timeout`` parameter, which Tavily accepts from 1 to 60 seconds."""
    search_depth: Depth = "basic"
    """``search_depth``: basic costs 1 credit a search, advanced 2."""
    max_results: int = 5
    """``max_results`` per search (Tavily allows 0..20)."""
    extract_depth: Depth = "basic"
    """``extract_depth``: basic costs 1 credit per 5 pages, advanced 2."""
    extract_format: Literal["markdown", "text"] = "markdown"
    """``format`` of extracted page text."""

    def __post_init__(self) -> None:
        if not isinstance(self.api_key, Secret):
            raise ConfigError("TavilySettings.api_key must be a citewise.config.Secret")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"{BASE_URL_ENV} must be an http(s) URL, got {self.base_url!r}")
        if parts.username is not None or parts.password is not None:
            # requests would send them as Basic auth in place of the Bearer key.
            raise ConfigError(f"{BASE_URL_ENV} must not contain user:password@; put the key in {KEY_ENV}")
        object.__setattr__(self, "base_url", self.base_url.rstrip("/"))
        if not self.timeout_s > 0:
            raise ConfigError(f"the Tavily timeout must be positive seconds, got {self.timeout_s!r}")
        for name, depth in (("search_depth", self.search_depth), ("extract_depth", self.extract_depth)):
            if depth not in SEARCH_CREDITS:
                raise ConfigError(f"{name} must be 'basic' or 'advanced', got {depth!r}")
        if not 0 <= self.max_results <= 20:
            raise ConfigError(f"max_results must be 0..20, got {self.max_results!r}")
        if self.extract_format not in ("markdown", "text"):
            raise ConfigError(f"extract_format must be 'markdown' or 'text', got {self.extract_format!r}")

    @classmethod
    def from_env(cls) -> TavilySettings:
        """Settings from ``TAVILY_API_KEY``, ``CITEWISE_TAVILY_BASE_URL`` and ``CITEWISE_TAVILY_TIMEOUT``
        (seconds). Without a key this raises :class:`ConfigError` naming the variable to set."""
        key = env(KEY_ENV)
        if key is None:
            raise ConfigError(MISSING_KEY_MESSAGE)
        options: dict[str, Any] = {}
        if base_url := env(BASE_URL_ENV):
            options["base_url"] = base_url
        if timeout := env(TIMEOUT_ENV):
            try:
                options["timeout_s"] = float(timeout)
            except ValueError:
                raise ConfigError(f"{TIMEOUT_ENV} must be a number of seconds, got {timeout!r}") from None
        return cls(api_key=Secret(key), **options)


# -- the authenticated client -----------------------------------------------------------------

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

        self.settings = settings or TavilySettings.from_env()
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


# -- adapters: wire format to records ---------------------------------------------------------


class _Adapter:
    name = PROVIDER

    def __init__(self, settings: TavilySettings | None = None, *, connection: TavilyConnection | None = None) -> None:
        if connection is not None and settings is not None and settings != connection.settings:
            raise ConfigError("give settings or a connection, not both with different settings")
        self._owns_connection = connection is None
        self.connection = connection if connection is not None else TavilyConnection(settings)
        """The authenticated client this adapter sends through."""

    @property
    def settings(self) -> TavilySettings:
        """The connection's settings."""
        return self.connection.settings

    def close(self) -> None:
        """Release the connection if this adapter opened it (a shared one is closed by its owner)."""
        if self._owns_connection:
            self.connection.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.settings.base_url!r})"


class TavilySearch(_Adapter):
    """Tavily Search as a :class:`~citewise.providers.base.SearchProvider`.

    Without ``settings`` or ``connection`` it reads :meth:`TavilySettings.from_env`.
    """

    @property
    def options(self) -> Mapping[str, object]:
        s = self.settings
        return {
            "base_url": s.base_url,
            "search_depth": s.search_depth,
            "max_results": s.max_results,
            "include_answer": False,
            "include_raw_content": False,
        }

    def __enter__(self) -> TavilySearch:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def search(self, query: str) -> SearchResponse:
        """One Tavily search: basic depth, 5 results, no answer, no raw content (by default)."""
        query = query.strip()
        if not query:
            raise InputError("a search query must not be empty")
        params = {
            "query": query,
            "search_depth": self.settings.search_depth,
            "max_results": self.settings.max_results,
            "include_answer": False,
            "include_raw_content": False,
            "include_usage": True,
        }
        return self.connection.call("search", params, lambda body: self._parse(body, query))

    def _parse(self, body: Mapping[str, Any], query: str) -> SearchResponse:
        raw_results = body.get("results")
        if not isinstance(raw_results, list):
            raise _invalid("search", "no results list")
        results = []
        for rank, item in enumerate(raw_results, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("url"), str) or not item["url"]:
                raise _invalid("search", f"result {rank} has no url")
            results.append(
                SearchResult(
                    url=item["url"],
                    title=_text(item.get("title")),
                    content=_text(item.get("content")),
                    score=_number(item.get("score")),
                    rank=rank,
                    provider=PROVIDER,
                    query=query,
                )
            )
        credits, source = _credits(body, estimate=SEARCH_CREDITS[self.settings.search_depth])
        return SearchResponse(
            query=query,
            results=tuple(results),
            provider=PROVIDER,
            retrieved_at=datetime.now(UTC),
            credits=credits,
            credits_source=source,
            request_id=_str_or_none(body.get("request_id")),
            response_time=_number(body.get("response_time")),
        )


class TavilyExtract(_Adapter):
    """Tavily Extract as an :class:`~citewise.providers.base.Extractor`.

    Without ``settings`` or ``connection`` it reads :meth:`TavilySettings.from_env`.
    """

    @property
    def options(self) -> Mapping[str, object]:
        s = self.settings
        return {"base_url": s.base_url, "extract_depth": s.extract_depth, "format": s.extract_format}

    def __enter__(self) -> TavilyExtract:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def extract(self, urls: Sequence[str]) -> ExtractResponse:
        """Read up to 20 URLs in one Tavily Extract call (basic depth, Markdown, by default).

        No URLs, no call: the answer is empty and costs nothing.
        """
        if isinstance(urls, str):
            raise InputError("extract takes a list of URLs, not one string")
        wanted = list(dict.fromkeys(url.strip() for url in urls))
        if any(not url for url in wanted):
            raise InputError("an empty URL cannot be extracted")
        if len(wanted) > MAX_EXTRACT_URLS:
            raise InputError(f"Tavily Extract takes at most {MAX_EXTRACT_URLS} URLs per call, got {len(wanted)}")
        if not wanted:
            return ExtractResponse((), (), PROVIDER, datetime.now(UTC), credits=0.0, credits_source="estimated")
        params = {
            "urls": wanted,
            "extract_depth": self.settings.extract_depth,
            "format": self.settings.extract_format,
            "include_usage": True,
        }
        return self.connection.call("extract", params, lambda body: self._parse(body, wanted))

    def _parse(self, body: Mapping[str, Any], wanted: list[str]) -> ExtractResponse:
        raw_results, raw_failed = body.get("results"), body.get("failed_results", [])
        if not isinstance(raw_results, list) or not isinstance(raw_failed, list):
            raise _invalid("extract", "no results / failed_results lists")
        pages: list[ExtractedPage] = []
        failures: list[ExtractFailure] = []
        for number, item in enumerate(raw_results, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("url"), str):
                raise _invalid("extract", f"result {number} has no url")
            text = _text(item.get("raw_content"))
            if text.strip():
                pages.append(ExtractedPage(item["url"], text, PROVIDER, _str_or_none(item.get("title"))))
            else:
                failures.append(ExtractFailure(item["url"], "no text extracted (empty page)"))
        for number, item in enumerate(raw_failed, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("url"), str):
                raise _invalid("extract", f"failed result {number} has no url")
            failures.append(ExtractFailure(item["url"], _text(item.get("error")) or "extraction failed"))
        answered = {_url_key(p.url) for p in pages} | {_url_key(f.url) for f in failures}
        failures.extend(
            ExtractFailure(url, "not in Tavily's answer") for url in wanted if _url_key(url) not in answered
        )
        per_5 = EXTRACT_CREDITS_PER_5[self.settings.extract_depth]
        credits, source = _credits(body, estimate=math.ceil(len(raw_results) / 5) * per_5)
        return ExtractResponse(
            pages=tuple(pages),
            failures=tuple(failures),
            provider=PROVIDER,
            retrieved_at=datetime.now(UTC),
            credits=credits,
            credits_source=source,
            request_id=_str_or_none(body.get("request_id")),
            response_time=_number(body.get("response_time")),
        )


def _invalid(operation: Operation, what: str) -> ProviderInvalidResponse:
    return ProviderInvalidResponse(
        f"Tavily's {operation} answer is not in the expected shape ({what}); check {BASE_URL_ENV}",
        provider=PROVIDER,
        status_code=200,
    )


def _credits(body: Mapping[str, Any], *, estimate: float) -> tuple[float, CreditsSource]:
    usage = body.get("usage")
    reported = _number(usage.get("credits")) if isinstance(usage, dict) else None
    if reported is not None:
        return reported, "reported"
    return float(estimate), "estimated"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _url_key(url: str) -> str:
    """Enough normalisation to match Tavily's echo of a URL to the one requested (case of scheme and
    host, a trailing slash, the fragment); the real normalisation for dedupe lives elsewhere."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return url
    path = parts.path.rstrip("/")
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}?{parts.query}"


# -- registration -----------------------------------------------------------------------------


def register(registry: ProviderRegistry) -> None:
    """Register ``"tavily"`` as a search provider and an extractor (the built-in plugin hook)."""
    registry.add_search_provider(PROVIDER, TavilySearch)
    registry.add_extractor(PROVIDER, TavilyExtract)
