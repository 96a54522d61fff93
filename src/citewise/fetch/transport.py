"""An httpx transport that resolves each host itself and connects only to the address it checked.

httpx's own transport hands a host name to the operating system at connect time, so a name checked a
moment earlier may resolve to another address by then (DNS rebinding). Here the connection pool's
network backend is :class:`GuardedBackend`: for every new connection it resolves the name with the
injected :data:`Resolver`, refuses the connection when *any* resolved address is not public
(:func:`citewise.fetch.guard.check_address`), and opens the socket to the checked address itself —
TLS still verifies the certificate against the host name. Ports outside the policy are refused too.

Every socket read and write is bounded by the per-fetch deadline (:func:`deadline`), so a server that
drips a byte at a time stops at the total time even while headers are still arriving.
"""

from __future__ import annotations

import contextlib
import contextvars
import ipaddress
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import httpcore
import httpx

from citewise.fetch.guard import AddressPolicy, IPAddress, check_address, check_host_name
from citewise.fetch.records import Decision, FetchOutcome, FetchRefused, Step

__all__ = ["GuardedBackend", "GuardedTransport", "Resolver", "deadline", "system_resolver", "time_left"]

Resolver = Callable[[str, int], Sequence[IPAddress]]
"""Resolves a host name (and port) to its addresses; raises ``OSError`` when it cannot."""

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("citewise_fetch_deadline", default=None)
_LOG: contextvars.ContextVar[list[Decision] | None] = contextvars.ContextVar("citewise_fetch_log", default=None)


def system_resolver(host: str, port: int) -> Sequence[IPAddress]:
    """The operating system's answer for ``host`` (A and AAAA records)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    seen: dict[IPAddress, None] = {}
    for _family, _type, _proto, _name, sockaddr in infos:
        seen.setdefault(ipaddress.ip_address(str(sockaddr[0]).split("%")[0]), None)
    return list(seen)


@contextlib.contextmanager
def deadline(seconds: float, log: list[Decision]) -> Iterator[None]:
    """Within this block, socket I/O of the current thread ends at ``seconds`` from now, and connect
    decisions are appended to ``log``."""
    until = _DEADLINE.set(time.monotonic() + seconds)
    logged = _LOG.set(log)
    try:
        yield
    finally:
        _DEADLINE.reset(until)
        _LOG.reset(logged)


def _note(step: Step, allowed: bool, detail: str) -> None:
    log = _LOG.get()
    if log is not None:
        log.append(Decision(step, allowed, detail))


def time_left() -> float | None:
    """Seconds left of the current fetch's deadline (``None`` outside :func:`deadline`)."""
    until = _DEADLINE.get()
    return None if until is None else max(0.0, until - time.monotonic())


def _remaining(timeout: float | None) -> float | None:
    until = _DEADLINE.get()
    if until is None:
        return timeout
    left = until - time.monotonic()
    if left <= 0:
        raise FetchRefused(FetchOutcome.TIMEOUT, Step.BODY, "the total time limit passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every read and write ends by the fetch's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _remaining(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _remaining(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, _remaining(timeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class GuardedBackend(httpcore.SyncBackend):
    """Connects only to addresses the policy allows, resolved here; see the module docstring."""

    def __init__(self, policy: AddressPolicy, resolver: Resolver = system_resolver) -> None:
        self.policy = policy
        self.resolver = resolver

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        address = self.checked_address(host, port)
        stream = super().connect_tcp(str(address), port, _remaining(timeout), local_address, socket_options)
        return _DeadlineStream(stream)

    def checked_address(self, host: str, port: int) -> IPAddress:
        """The address to connect to for ``host:port``; raises :class:`FetchRefused`."""
        bare = host.strip("[]")
        allowed = self.policy.allowed(bare, port)
        if self.policy.check_port(bare, port) is not None:
            raise self._refuse(f"port {port} is not allowed (80 and 443 unless CITEWISE_FETCH_PORTS adds it)")
        literal = _literal(bare)
        if literal is not None:
            addresses: Sequence[IPAddress] = [literal]
        else:
            name_refusal = None if allowed else check_host_name(bare)
            if name_refusal is not None:
                raise self._refuse(f"host {bare!r} is refused ({name_refusal.value})")
            try:
                addresses = list(self.resolver(bare, port))
            except (OSError, UnicodeError) as exc:
                raise FetchRefused(
                    FetchOutcome.CONNECT_FAILED, Step.CONNECT, f"{bare!r} did not resolve: {exc}"
                ) from exc
            if not addresses:
                raise FetchRefused(FetchOutcome.CONNECT_FAILED, Step.CONNECT, f"{bare!r} resolved to no address")
        if not allowed:
            for candidate in addresses:
                reason = check_address(candidate)
                if reason is not None:
                    via = "" if literal is not None else f" (resolved from {bare!r})"
                    raise self._refuse(f"address {candidate} is refused ({reason.value}){via}")
        chosen = addresses[0]
        via = "" if literal is not None else f" (resolved from {bare})"
        note = " [test-only allowlist]" if allowed else ""
        _note(Step.CONNECT, True, f"connect {chosen}:{port}{via}{note}")
        return chosen

    def _refuse(self, detail: str) -> FetchRefused:
        _note(Step.CONNECT, False, detail)
        return FetchRefused(FetchOutcome.REFUSED_URL, Step.CONNECT, detail)


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


class GuardedTransport(httpx.HTTPTransport):
    """httpx's transport with the connection pool built on :class:`GuardedBackend`; no proxies, no
    environment settings (a proxy would resolve names where citewise cannot check them)."""

    def __init__(self, backend: GuardedBackend, *, max_connections: int = 32) -> None:
        super().__init__(trust_env=False)
        # The pool is httpx's own (the same one HTTPTransport builds), given citewise's network backend.
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=5.0,
            network_backend=backend,
        )
