"""A fake Tavily API (Search and Extract) on loopback, scriptable per test.

It speaks the exact wire format of ``POST {base}/search`` and ``POST {base}/extract`` (recorded
responses in ``shared/wire/pydantic-ai/test_tavily__*.yaml``), so the real ``tavily-python`` client
talks to it over a real socket: nothing in the client is patched. Each test scripts what Tavily
does next::

    from citewise.testing.fake_tavily import FakeTavilyServer

    with FakeTavilyServer() as tavily:
        tavily.enqueue_search([{"url": "https://example.org/a", "title": "A", "content": "snippet"}])
        tavily.enqueue_extract(results=[{"url": "https://example.org/a", "raw_content": "# A\\n..."}],
                               failed=["https://example.org/paywalled"])
        tavily.enqueue_error(432, "This request exceeds your plan's set usage limit.")
        tavily.enqueue_error(429, "Rate limit exceeded", headers={"retry-after": "2"})
        tavily.enqueue_delay(2.0)                    # longer than the client's timeout
        ...  # point the client at tavily.base_url with any non-empty key
        assert tavily.requests[0].headers["authorization"] == "Bearer tvly-test"

Scripted replies are served first in, first out, whichever endpoint is called (a search reply
served to ``/extract`` is a scripting mistake and answered with 500 saying so). When none is left,
``search_responder`` / ``extract_responder`` (callables given the request's JSON body) decide; without
one the server answers 500 and says so. :func:`synthetic_search` and :func:`synthetic_extract` are
ready-made responders. ``latency_s`` makes every reply take realistic time, for benchmarks.

Bodies have the recorded shape: search ``{query, follow_up_questions, answer, images,
results[{url, title, content, score, raw_content}], response_time, usage{credits}, request_id}``;
extract ``{results[{url, raw_content, images}], failed_results[{url, error}], response_time,
usage{credits}, request_id}``; ``usage`` only when the request asked for it (``include_usage``).
Errors are ``{"detail": {"error": "..."}}`` with their status. The key is accepted as
``Authorization: Bearer`` (what tavily-python sends) or as ``api_key`` in the body (older clients).

Only the standard library is used, so users can import this in their own tests without pytest.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from citewise.testing._loopback import LoopbackHandler, LoopbackServer, ReceivedRequest

__all__ = [
    "FakeDelay",
    "FakeExtractReply",
    "FakeSearchReply",
    "FakeTavilyError",
    "FakeTavilyRaw",
    "FakeTavilyServer",
    "ReceivedRequest",
    "synthetic_extract",
    "synthetic_search",
]

SEARCH_PATH = "/search"
EXTRACT_PATH = "/extract"
_SEARCH_CREDITS = {"basic": 1, "advanced": 2}
_EXTRACT_CREDITS_PER_5 = {"basic": 1, "advanced": 2}


@dataclass(frozen=True)
class FakeSearchReply:
    """A ``/search`` answer (HTTP 200)."""

    results: Sequence[Mapping[str, Any] | str] = ()
    """Hits: dicts with ``url`` and any of ``title``, ``content``, ``score``, ``raw_content`` (missing
    ones are filled in: empty text, scores 0.99, 0.98, ...), or bare URL strings. Cut to the
    request's ``max_results``, as Tavily does."""
    response: Mapping[str, Any] | None = None
    """A whole body, sent exactly as given instead of one built from ``results`` (for odd shapes)."""
    credits: float | None = None
    """``usage.credits`` when the request asked for usage; by default Tavily's rule (basic 1, advanced 2)."""
    omit_usage: bool = False
    """Leave ``usage`` out even when the request asked for it."""
    answer: str | None = None
    """``answer`` (Tavily sends ``null`` unless ``include_answer``)."""
    response_time: float = 0.42
    """``response_time``: Tavily's own figure, in seconds."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra response headers."""
    delay: float = 0.0
    """Seconds to wait before answering (on top of the server's latency)."""


@dataclass(frozen=True)
class FakeExtractReply:
    """An ``/extract`` answer (HTTP 200)."""

    results: Sequence[Mapping[str, Any]] = ()
    """Pages read: dicts with ``url`` and ``raw_content`` (``title``, ``images`` optional)."""
    failed: Sequence[Mapping[str, Any] | str] = ()
    """``failed_results``: dicts with ``url`` and ``error``, or bare URLs (error "Failed to fetch url")."""
    response: Mapping[str, Any] | None = None
    """A whole body, sent exactly as given instead of one built from ``results``."""
    credits: float | None = None
    """``usage.credits`` when asked for; by default Tavily's rule (1 per 5 pages at basic, 2 at advanced)."""
    omit_usage: bool = False
    """Leave ``usage`` out even when the request asked for it."""
    response_time: float = 0.87
    """``response_time``, in seconds."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra response headers."""
    delay: float = 0.0
    """Seconds to wait before answering."""


@dataclass(frozen=True)
class FakeTavilyError:
    """An error in Tavily's shape: ``{"detail": {"error": message}}`` with ``status``."""

    status: int
    message: str
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class FakeTavilyRaw:
    """Any body at all, e.g. the HTML page a wrong base URL or a proxy answers with."""

    status: int
    body: str
    content_type: str = "text/html; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class FakeDelay:
    """Wait ``seconds``, then answer with ``then`` or, when ``None``, what the endpoint would have
    answered next (its responder, else an empty answer)."""

    seconds: float
    then: FakeSearchReply | FakeExtractReply | FakeTavilyError | FakeTavilyRaw | None = None


Scripted = FakeSearchReply | FakeExtractReply | FakeTavilyError | FakeTavilyRaw | FakeDelay
Reply = FakeSearchReply | FakeExtractReply | FakeTavilyError | FakeTavilyRaw
SearchResponder = Callable[[Any], "Reply | Sequence[Any] | Mapping[str, Any]"]
"""Given the request body: a reply, a list of results, or a whole response body."""
ExtractResponder = Callable[[Any], "Reply | Sequence[Any]"]
"""Given the request body: a reply, or a list of page results."""


def synthetic_search(request: Any) -> FakeSearchReply:
    """A ready-made search responder: ``max_results`` deterministic hits on ``example.org`` whose URLs
    and snippets are derived from the query."""
    query = str(request.get("query", "")) if isinstance(request, dict) else ""
    count = request.get("max_results", 5) if isinstance(request, dict) else 5
    slug = "-".join(query.lower().split())[:40] or "query"
    results = [
        {
            "url": f"https://example.org/{slug}/{n}",
            "title": f"{query} ({n})",
            "content": f"Result {n} about {query}.",
            "score": round(0.99 - n / 100, 4),
        }
        for n in range(1, int(count) + 1)
    ]
    return FakeSearchReply(results)


def synthetic_extract(request: Any) -> FakeExtractReply:
    """A ready-made extract responder: every requested URL yields a short Markdown page naming it."""
    urls = request.get("urls", []) if isinstance(request, dict) else []
    urls = [urls] if isinstance(urls, str) else list(urls)
    return FakeExtractReply([{"url": url, "raw_content": f"# Page\n\nThe text of {url}.\n"} for url in urls])


class FakeTavilyServer(LoopbackServer[Scripted]):
    """A threaded loopback server speaking Tavily Search and Extract; see the module docstring.

    ``api_key``: when given, any other key is answered with 401 (a request with no key always is).
    ``latency_s``: seconds before every reply.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        latency_s: float = 0.0,
        search_responder: SearchResponder | None = None,
        extract_responder: ExtractResponder | None = None,
    ) -> None:
        super().__init__(_Handler, api_key=api_key, latency_s=latency_s)
        self.search_responder = search_responder
        """Answers ``/search`` when nothing is scripted."""
        self.extract_responder = extract_responder
        """Answers ``/extract`` when nothing is scripted."""

    # -- scripting (``enqueue`` and ``pending`` come from LoopbackServer) --------------------

    def enqueue_search(
        self,
        results: Sequence[Mapping[str, Any] | str] | Mapping[str, Any] = (),
        **options: Any,
    ) -> None:
        """Queue a search answer: a list of results, or a whole response body (a dict, sent as is);
        ``options`` are the other :class:`FakeSearchReply` fields."""
        if isinstance(results, Mapping):
            self.enqueue(FakeSearchReply(response=results, **options))
        else:
            self.enqueue(FakeSearchReply(tuple(results), **options))

    def enqueue_extract(
        self,
        results: Sequence[Mapping[str, Any]] = (),
        failed: Sequence[Mapping[str, Any] | str] = (),
        **options: Any,
    ) -> None:
        """Queue an extract answer; ``options`` are the other :class:`FakeExtractReply` fields."""
        self.enqueue(FakeExtractReply(tuple(results), tuple(failed), **options))

    def enqueue_error(
        self, status: int, message: str, *, headers: Mapping[str, str] | None = None, delay: float = 0.0
    ) -> None:
        """Queue an error: ``{"detail": {"error": message}}`` with ``status`` (400, 401, 403, 429,
        432, 433, 5xx ...)."""
        self.enqueue(FakeTavilyError(status, message, dict(headers or {}), delay))

    def enqueue_raw(
        self,
        status: int,
        body: str,
        *,
        content_type: str = "text/html; charset=utf-8",
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Queue a body that is not Tavily's JSON (a wrong base URL, a proxy's error page)."""
        self.enqueue(FakeTavilyRaw(status, body, content_type, dict(headers or {})))

    def enqueue_delay(self, seconds: float, then: Reply | None = None) -> None:
        """Queue a reply that only comes after ``seconds`` (to make clients time out)."""
        self.enqueue(FakeDelay(seconds, then))

    # -- lifecycle (``start``, ``close`` and the context manager come from LoopbackServer) ---

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``, the value for ``api_base_url`` / ``CITEWISE_TAVILY_BASE_URL``."""
        return self._url()

    # -- serving (called from handler threads) -----------------------------------------------

    def _next(self, path: str, body: Any) -> Reply:
        scripted = self._pop_scripted()
        delay = 0.0
        if isinstance(scripted, FakeDelay):
            delay, scripted = scripted.seconds, scripted.then
            if scripted is None:
                scripted = self._respond(path, body, default_empty=True)
        elif scripted is None:
            scripted = self._respond(path, body, default_empty=False)
        return _with_delay(scripted, delay) if delay else scripted

    def _respond(self, path: str, body: Any, *, default_empty: bool) -> Reply:
        """The responder's answer for ``path``, or an empty answer / a 500 when there is none."""
        if path == SEARCH_PATH:
            if self.search_responder is not None:
                return _coerce_search(self.search_responder(body))
            if default_empty:
                return FakeSearchReply()
        else:
            if self.extract_responder is not None:
                return _coerce_extract(self.extract_responder(body))
            if default_empty:
                return FakeExtractReply()
        return FakeTavilyError(500, f"FakeTavilyServer: no reply scripted for POST {path}")


def _with_delay(reply: Reply, seconds: float) -> Reply:
    return replace(reply, delay=reply.delay + seconds)


def _coerce_search(answer: Any) -> Reply:
    if isinstance(answer, FakeSearchReply | FakeTavilyError | FakeTavilyRaw):
        return answer
    if isinstance(answer, Mapping):
        return FakeSearchReply(response=answer)
    return FakeSearchReply(tuple(answer))


def _coerce_extract(answer: Any) -> Reply:
    if isinstance(answer, FakeExtractReply | FakeTavilyError | FakeTavilyRaw):
        return answer
    return FakeExtractReply(tuple(answer))


def _error_body(message: str) -> bytes:
    return json.dumps({"detail": {"error": message}}).encode()


def _request_id(number: int) -> str:
    # Deterministic, in the UUID form Tavily uses, so tests can predict it.
    return str(uuid.UUID(int=number))


def _search_body(reply: FakeSearchReply, request: dict[str, Any], number: int) -> dict[str, Any]:
    if reply.response is not None:
        return dict(reply.response)
    results = []
    for n, item in enumerate(reply.results, start=1):
        given = {"url": item} if isinstance(item, str) else dict(item)
        results.append(
            {
                "url": given.get("url"),
                "title": given.get("title", ""),
                "content": given.get("content", ""),
                "score": given.get("score", round(1.0 - n / 100, 8)),
                "raw_content": given.get("raw_content"),
                **{k: v for k, v in given.items() if k not in ("url", "title", "content", "score", "raw_content")},
            }
        )
    max_results = request.get("max_results")
    if isinstance(max_results, int) and not isinstance(max_results, bool):
        results = results[:max_results]
    body: dict[str, Any] = {
        "query": request.get("query"),
        "follow_up_questions": None,
        "answer": reply.answer,
        "images": [],
        "results": results,
        "response_time": reply.response_time,
    }
    if request.get("include_usage") and not reply.omit_usage:
        depth = str(request.get("search_depth") or "basic")
        credits = reply.credits if reply.credits is not None else _SEARCH_CREDITS.get(depth, 1)
        body["usage"] = {"credits": credits}
    body["request_id"] = _request_id(number)
    return body


def _extract_body(reply: FakeExtractReply, request: dict[str, Any], number: int) -> dict[str, Any]:
    if reply.response is not None:
        return dict(reply.response)
    results = [
        {"url": item.get("url"), "raw_content": item.get("raw_content"), "images": [], **dict(item)}
        for item in reply.results
    ]
    failed = [
        {"url": item, "error": "Failed to fetch url"} if isinstance(item, str) else dict(item) for item in reply.failed
    ]
    body: dict[str, Any] = {"results": results, "failed_results": failed, "response_time": reply.response_time}
    if request.get("include_usage") and not reply.omit_usage:
        depth = str(request.get("extract_depth") or "basic")
        per_5 = _EXTRACT_CREDITS_PER_5.get(depth, 1)
        body["usage"] = {"credits": reply.credits if reply.credits is not None else math.ceil(len(results) / 5) * per_5}
    body["request_id"] = _request_id(number)
    return body


def _invalid_request(path: str, body: Any) -> str | None:
    """Why Tavily would refuse this body with 400, or ``None``."""
    if not isinstance(body, dict):
        return "Invalid JSON body."
    if path == SEARCH_PATH and not (isinstance(body.get("query"), str) and body["query"].strip()):
        return "Query is missing."
    if path == EXTRACT_PATH:
        urls = body.get("urls")
        if not urls or not (isinstance(urls, str) or all(isinstance(u, str) for u in urls)):
            return "No URLs provided."
    return None


class _Handler(LoopbackHandler[FakeTavilyServer]):
    """Answers ``POST /search`` and ``POST /extract`` in Tavily's shape; GET with 405, other paths with 404."""

    def do_GET(self) -> None:
        self._read_and_record()
        self._send_json(405, json.dumps({"detail": "Method Not Allowed"}).encode())

    def do_POST(self) -> None:
        fake = self.fake
        body = self._read_and_record()
        path = self._route()
        if path not in (SEARCH_PATH, EXTRACT_PATH):
            self._send_json(404, json.dumps({"detail": "Not Found"}).encode())
            return
        key = self._key(body)
        if key is None or (fake.api_key is not None and key != fake.api_key):
            self._send_json(401, _error_body("Unauthorized: missing or invalid API key."))
            return
        problem = _invalid_request(path, body)
        if problem is not None:
            self._send_json(400, _error_body(problem))
            return
        self._answer(fake._next(path, body), path, body)

    def _key(self, body: Any) -> str | None:
        # tavily-python sends the bearer header; older clients put ``api_key`` in the body.
        bearer = self._bearer_key()
        if bearer is not None:
            return bearer
        if isinstance(body, dict) and isinstance(body.get("api_key"), str) and body["api_key"]:
            return str(body["api_key"])
        return None

    def _answer(self, reply: Reply, path: str, request: dict[str, Any]) -> None:
        wait = self.fake.latency_s + reply.delay
        content_type = "application/json"
        if isinstance(reply, FakeSearchReply | FakeExtractReply):
            expected = FakeSearchReply if path == SEARCH_PATH else FakeExtractReply
            if not isinstance(reply, expected):
                status = 500
                body = _error_body(f"FakeTavilyServer: a {type(reply).__name__} was scripted but POST {path} came")
            elif isinstance(reply, FakeSearchReply):
                status, body = 200, json.dumps(_search_body(reply, request, self.number)).encode()
            else:
                status, body = 200, json.dumps(_extract_body(reply, request, self.number)).encode()
        elif isinstance(reply, FakeTavilyError):
            status, body = reply.status, _error_body(reply.message)
        else:
            status, body, content_type = reply.status, reply.body.encode(), reply.content_type
        self._reply_after(wait, status, body, content_type, reply.headers)
