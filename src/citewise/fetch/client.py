"""The fetcher: one URL in, a :class:`~citewise.fetch.records.FetchResult` out, every decision kept.

::

    with Fetcher() as fetcher:
        result = fetcher.fetch("https://example.org/report")
        result.ok, result.text, result.published_at, result.decisions

The order of the rules (SPEC 4.6):

1. the URL is parsed by the WHATWG standard and refused when it is not http(s), carries credentials,
   uses a port outside the policy (80 and 443 unless ``CITEWISE_FETCH_PORTS`` adds ports) or names a
   host that is not public (:mod:`citewise.fetch.target`);
2. robots.txt of the origin is consulted (:mod:`citewise.fetch.robots`);
3. the request goes through :class:`~citewise.fetch.transport.GuardedTransport`, which resolves the
   name itself and connects only to the address it checked;
4. a redirect is followed by hand, at most ``max_redirects`` times, and every hop starts again at 1;
5. the body is streamed and decompressed here (gzip and deflate only), stopping at ``max_bytes`` of
   *decompressed* data — a gzip bomb stops at the limit; connect, read and total time are limited,
   and the total limit bounds every socket read, so a slow drip stops on time;
6. only HTML, PDF and plain text are read (:mod:`citewise.fetch.content`); walls are gaps.

Nothing here raises for a page that could not be read: the result says why.
"""

from __future__ import annotations

import os
import time
import zlib
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Self

import httpx
from ada_url import URL

from citewise.errors import ConfigError
from citewise.fetch.content import READABLE_TYPES, Reading, read_body, sniff_type
from citewise.fetch.guard import AddressPolicy, allowlist_from_env, ports_from_env
from citewise.fetch.records import Decision, FetchOutcome, FetchRefused, FetchResult, Step
from citewise.fetch.robots import ROBOTS_MAX_BYTES, RobotsAnswer, RobotsCache
from citewise.fetch.target import Target, UnusableURL, host_refusal, parse_target
from citewise.fetch.transport import GuardedBackend, GuardedTransport, Resolver, deadline, system_resolver, time_left
from citewise.ingest.bounded import Bound, BoundExceeded, run_bounded
from citewise.version import __version__

__all__ = ["CONTACT_ENV", "FetchSettings", "Fetcher"]

CONTACT_ENV = "CITEWISE_FETCH_CONTACT"
"""A contact (URL or e-mail) sent in the User-Agent, so site owners can reach whoever runs citewise."""
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class FetchSettings:
    """Limits and identity of the fetcher."""

    connect_timeout_s: float = 5.0
    read_timeout_s: float = 10.0
    total_timeout_s: float = 30.0
    """Wall time for the whole fetch: robots.txt, every redirect hop and the body."""
    max_bytes: int = 10 * 1024 * 1024
    """Largest body read, counted after decompression."""
    max_redirects: int = 5
    read_timeout_total_s: float = 20.0
    """Time reading one body may take (HTML extraction, PDF text), within what is left of the total."""
    read_max_memory_bytes: int | None = 512 * 2**20
    """Memory reading one body may add (a PDF compression bomb stops here); ``None``: no bound."""
    contact: str | None = None
    """Sent in the User-Agent (``CITEWISE_FETCH_CONTACT``)."""
    respect_robots: bool = True

    @property
    def user_agent(self) -> str:
        """``citewise/VERSION (+contact)``."""
        contact = f" (+{self.contact})" if self.contact else " (+https://pypi.org/project/citewise/)"
        return f"citewise/{__version__}{contact}"

    @classmethod
    def from_env(cls, **overrides: object) -> FetchSettings:
        """Defaults, with ``CITEWISE_FETCH_CONTACT``, ``CITEWISE_FETCH_TIMEOUT`` (total seconds) and
        ``CITEWISE_FETCH_MAX_BYTES`` from the environment, then ``overrides``."""
        values: dict[str, object] = {"contact": os.environ.get(CONTACT_ENV) or None}
        for name, key, kind in (
            ("CITEWISE_FETCH_TIMEOUT", "total_timeout_s", float),
            ("CITEWISE_FETCH_MAX_BYTES", "max_bytes", int),
        ):
            raw = os.environ.get(name, "").strip()
            if raw:
                try:
                    values[key] = kind(raw)
                except ValueError:
                    raise ConfigError(f"{name} must be a number (got {raw!r})") from None
        values.update(overrides)
        return replace(cls(), **values)  # type: ignore[arg-type]


class Fetcher:
    """Fetches and reads pages under the rules of the module docstring. Thread-safe; close it after use.

    ``policy`` defaults to ports 80/443 plus ``CITEWISE_FETCH_PORTS`` and the test-only allowlist of
    ``CITEWISE_FETCH_ALLOW`` (announced on standard error when set); ``resolver`` may be injected.
    """

    def __init__(
        self,
        settings: FetchSettings | None = None,
        *,
        policy: AddressPolicy | None = None,
        resolver: Resolver = system_resolver,
        max_connections: int = 32,
    ) -> None:
        self.settings = settings or FetchSettings.from_env()
        self.policy = policy or AddressPolicy(ports=ports_from_env(), allow=allowlist_from_env())
        s = self.settings
        transport = GuardedTransport(GuardedBackend(self.policy, resolver), max_connections=max_connections)
        self._client = httpx.Client(
            transport=transport,
            follow_redirects=False,
            event_hooks={"response": [_take_location]},
            trust_env=False,
            timeout=httpx.Timeout(
                connect=s.connect_timeout_s, read=s.read_timeout_s, write=s.read_timeout_s, pool=s.connect_timeout_s
            ),
            headers={
                "User-Agent": s.user_agent,
                "Accept": "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8",
                "Accept-Encoding": "gzip, deflate",
            },
        )
        self._robots = RobotsCache(self._load_robots, s.user_agent)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the connections."""
        self._client.close()

    # -- one fetch --------------------------------------------------------------------------------

    def fetch(self, url: str) -> FetchResult:
        """Fetch and read ``url``; the result says what was read or why nothing was."""
        log: list[Decision] = []
        started = time.monotonic()
        final: str | None = None
        try:
            with deadline(self.settings.total_timeout_s, log):
                result = self._fetch(url, log)
        except FetchRefused as exc:
            if not log or log[-1].detail != exc.detail:
                log.append(Decision(exc.step, False, exc.detail))
            final = next((d.detail for d in reversed(log) if d.step is Step.URL and d.allowed), None)
            result = FetchResult(url, final, exc.outcome, content_type=exc.content_type, status_code=exc.status_code)
        return replace(result, elapsed_s=round(time.monotonic() - started, 4), decisions=tuple(log))

    def _fetch(self, url: str, log: list[Decision]) -> FetchResult:
        target = self._check(url, log)
        for hop in range(self.settings.max_redirects + 1):
            if self.settings.respect_robots:
                verdict = self._robots.verdict(_origin(target), target.url)
                log.append(Decision(Step.ROBOTS, verdict.allowed, verdict.detail))
                if not verdict.allowed:
                    raise FetchRefused(FetchOutcome.REFUSED_ROBOTS, Step.ROBOTS, verdict.detail)
            with self._send(target.url) as response:
                log.append(Decision(Step.RESPONSE, True, f"HTTP {response.status_code} from {target.url}"))
                location = response.extensions.get(_LOCATION)
                if response.status_code in _REDIRECTS and location:
                    if hop == self.settings.max_redirects:
                        detail = f"more than {self.settings.max_redirects} redirects"
                        raise FetchRefused(FetchOutcome.TOO_MANY_REDIRECTS, Step.REDIRECT, detail)
                    nxt = _join(location, target.url)
                    log.append(Decision(Step.REDIRECT, True, f"redirect {hop + 1} to {nxt[:300]}"))
                    target = self._check(nxt, log)
                    continue
                return self._read(url, target, response, log)
        raise AssertionError("unreachable: the loop returns or raises")

    def _check(self, url: str, log: list[Decision]) -> Target:
        try:
            target = parse_target(url)
        except UnusableURL as exc:
            raise FetchRefused(FetchOutcome.REFUSED_URL, Step.URL, str(exc)) from None
        refusal = host_refusal(target, self.policy) or self.policy.check_port(target.host, target.port)
        if refusal is not None:
            raise FetchRefused(
                FetchOutcome.REFUSED_URL, Step.URL, f"{target.host}:{target.port} refused: {refusal.value}"
            )
        log.append(Decision(Step.URL, True, target.url))
        return target

    def _send(self, url: str) -> _Streamed:
        request = self._client.build_request("GET", url)
        try:
            response = self._client.send(request, stream=True)
        except httpx.TimeoutException as exc:
            raise FetchRefused(FetchOutcome.TIMEOUT, Step.CONNECT, f"timed out: {type(exc).__name__}") from exc
        except httpx.HTTPError as exc:
            raise FetchRefused(FetchOutcome.CONNECT_FAILED, Step.CONNECT, f"{type(exc).__name__}: {exc}") from exc
        except (httpx.InvalidURL, UnicodeError, ValueError) as exc:
            # What httpx or h11 cannot handle in a server's answer is that page's failure, not the run's.
            detail = f"the server's answer could not be used: {type(exc).__name__}: {exc}"
            raise FetchRefused(FetchOutcome.CONNECT_FAILED, Step.CONNECT, detail[:500]) from exc
        return _Streamed(response)

    def _read(self, url: str, target: Target, response: httpx.Response, log: list[Decision]) -> FetchResult:
        status = response.status_code
        media, charset = _media_type(response.headers.get("content-type"))
        base = FetchResult(url, target.url, FetchOutcome.HTTP_ERROR, content_type=media, status_code=status)
        if not 200 <= status < 300:
            outcome = {401: FetchOutcome.LOGIN_WALL, 402: FetchOutcome.PAYWALL}.get(status, FetchOutcome.HTTP_ERROR)
            raise FetchRefused(
                outcome, Step.RESPONSE, f"HTTP {status}: nothing read", status_code=status, content_type=media
            )
        if media is not None and media not in READABLE_TYPES:
            detail = f"content type {media} is not read (only HTML, PDF and plain text)"
            raise FetchRefused(
                FetchOutcome.UNSUPPORTED_TYPE, Step.CONTENT, detail, status_code=status, content_type=media
            )
        body = self._body(response, self.settings.max_bytes)
        log.append(Decision(Step.BODY, True, f"{len(body)} bytes read"))
        media = sniff_type(media, body[:1024])
        if media is None:
            raise FetchRefused(FetchOutcome.UNSUPPORTED_TYPE, Step.CONTENT, "no content type, and not HTML or PDF")
        reading = self._read_bounded(body, media, charset, target.url, status)
        for note in reading.dates.notes:
            log.append(Decision(Step.DATE, True, note))
        read = reading.outcome is FetchOutcome.READ
        log.append(Decision(Step.CONTENT, read, reading.note or f"{len(reading.text)} characters of {media} text"))
        dates = reading.dates
        return replace(
            base,
            outcome=reading.outcome,
            content_type=media,
            text=reading.text if read else "",
            title=reading.title,
            published_at=dates.published_at,
            updated_at=dates.updated_at,
            publication_date_source=dates.source,
            bytes_read=len(body),
        )

    def _read_bounded(self, body: bytes, media: str, charset: str | None, url: str, status: int) -> Reading:
        """``read_body`` in a child process its time and memory limits can stop
        (:mod:`citewise.ingest.bounded`): markup or a PDF built to hang the reader is one page's
        failure, within the bound, never a stalled run."""
        left = time_left()
        seconds = self.settings.read_timeout_total_s if left is None else min(left, self.settings.read_timeout_total_s)
        try:
            return run_bounded(
                read_body,
                body,
                media,
                charset,
                url,
                seconds=max(seconds, 0.5),
                memory_bytes=self.settings.read_max_memory_bytes,
                advice="the limit for reading one page",
            )
        except BoundExceeded as exc:
            outcome = {Bound.TIME: FetchOutcome.TIMEOUT, Bound.MEMORY: FetchOutcome.TOO_LARGE}.get(
                exc.bound, FetchOutcome.UNREADABLE
            )
            raise FetchRefused(outcome, Step.CONTENT, exc.detail, status_code=status, content_type=media) from None

    def _body(self, response: httpx.Response, limit: int) -> bytes:
        declared = response.headers.get("content-length", "")
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if declared.isdigit() and encoding in ("", "identity") and int(declared) > limit:
            raise FetchRefused(
                FetchOutcome.TOO_LARGE, Step.BODY, f"Content-Length {declared} is over the {limit}-byte limit"
            )
        decoder = _Decoder(encoding, limit)
        try:
            for chunk in response.iter_raw(_CHUNK):
                decoder.feed(chunk)
        except httpx.TimeoutException as exc:
            raise FetchRefused(
                FetchOutcome.TIMEOUT, Step.BODY, f"timed out reading the body: {type(exc).__name__}"
            ) from exc
        except httpx.HTTPError as exc:
            raise FetchRefused(FetchOutcome.CONNECT_FAILED, Step.BODY, f"{type(exc).__name__}: {exc}") from exc
        return decoder.finish()

    def resource(
        self, url: str, *, robots: bool = False, limit: int | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One resource as a rendered page asks for it (:mod:`citewise.fetch.browser`): the same URL
        rules, address guard and time limit, ``limit`` bytes at most (default ``max_bytes``), robots.txt
        when ``robots``; a redirect is answered as it came, for the page to follow (and ask again).
        Returns (status, headers, body); a rule that stops it raises :class:`FetchRefused`."""
        log: list[Decision] = []
        with deadline(self.settings.total_timeout_s, log):
            target = self._check(url, log)
            if robots and self.settings.respect_robots:
                verdict = self._robots.verdict(_origin(target), target.url)
                if not verdict.allowed:
                    raise FetchRefused(FetchOutcome.REFUSED_ROBOTS, Step.ROBOTS, verdict.detail)
            with self._send(target.url) as response:
                headers = {
                    k: v
                    for k, v in response.headers.items()
                    if k.lower() not in ("content-encoding", "content-length", "transfer-encoding", "set-cookie")
                }
                body = self._body(response, self.settings.max_bytes if limit is None else max(0, limit))
                return response.status_code, headers, body

    def _load_robots(self, origin: str) -> RobotsAnswer:
        try:
            with self._send(f"{origin}/robots.txt") as response:
                if response.status_code >= 300:
                    return RobotsAnswer(response.status_code if response.status_code >= 400 else 404)
                return RobotsAnswer(response.status_code, self._body(response, ROBOTS_MAX_BYTES * 2)[:ROBOTS_MAX_BYTES])
        except FetchRefused as exc:
            if exc.outcome is FetchOutcome.TOO_LARGE:
                return RobotsAnswer(200, b"")
            if exc.outcome in (FetchOutcome.REFUSED_URL, FetchOutcome.CONNECT_FAILED, FetchOutcome.TIMEOUT):
                raise  # the page itself cannot be reached either: that is the fetch's outcome
            return RobotsAnswer(None, error=exc.detail)


class _Streamed:
    """A streamed response as a context manager that always closes it."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    def __enter__(self) -> httpx.Response:
        return self.response

    def __exit__(self, *exc: object) -> None:
        self.response.close()


class _Decoder:
    """Content-Encoding undone chunk by chunk, never producing more than ``limit`` bytes."""

    def __init__(self, encoding: str, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        if encoding in ("", "identity"):
            self.inflater = None
        elif encoding in ("gzip", "x-gzip"):
            self.inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self.inflater = zlib.decompressobj()
        else:
            raise FetchRefused(FetchOutcome.UNREADABLE, Step.BODY, f"content encoding {encoding!r} is not accepted")

    def feed(self, chunk: bytes) -> None:
        if self.inflater is None:
            self._add(chunk)
            return
        data = chunk
        while data:
            try:
                out = self.inflater.decompress(data, self.limit - self.size + 1)
            except zlib.error as exc:
                raise FetchRefused(
                    FetchOutcome.UNREADABLE, Step.BODY, f"the compressed body is corrupt: {exc}"
                ) from exc
            self._add(out)
            data = self.inflater.unconsumed_tail
            if not out and data:
                break

    def _add(self, data: bytes) -> None:
        self.size += len(data)
        if self.size > self.limit:
            raise FetchRefused(FetchOutcome.TOO_LARGE, Step.BODY, f"the body passed the {self.limit}-byte limit")
        if data:
            self.parts.append(data)

    def finish(self) -> bytes:
        return b"".join(self.parts)


def _origin(target: Target) -> str:
    default = {"http": 80, "https": 443}[target.scheme]
    return f"{target.scheme}://{target.host}" + ("" if target.port == default else f":{target.port}")


_LOCATION = "citewise.location"


def _take_location(response: httpx.Response) -> None:
    """Move ``Location`` out of httpx's sight. citewise follows redirects itself, parsing the target
    with the WHATWG standard (:func:`_join`, then the guard); httpx would otherwise parse it first
    and raise on one it cannot read (``http:\\\\host\\x``), failing the fetch with a traceback."""
    location = response.headers.get("location")
    if location is not None:
        del response.headers["location"]
        response.extensions[_LOCATION] = location  # type: ignore[index]


def _join(location: str, base: str) -> str:
    try:
        return URL(location.strip(), base).href
    except ValueError:
        return location


def _media_type(header: str | None) -> tuple[str | None, str | None]:
    if not header:
        return None, None
    media, _, params = header.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip('"') or None
    return media.strip().lower() or None, charset
