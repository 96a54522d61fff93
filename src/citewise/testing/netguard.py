"""A socket guard for test suites: any connection to an address that is not this machine fails.

Fakes sit on loopback (:mod:`citewise.testing`), so a test that opens a connection anywhere else is
reaching a real provider — a bug, even when no key is set. :func:`forbid_remote_connections`
replaces :meth:`socket.socket.connect` and :meth:`~socket.socket.connect_ex` (which every client
here goes through: httpx, the ``openai`` and ``anthropic`` SDKs, psycopg, redis, asyncio) with a
check that runs **before** the connection is attempted, so nothing leaves the machine::

    from citewise.testing.netguard import forbid_remote_connections
    forbid_remote_connections()       # in conftest.py, before any test runs

Loopback (``127.0.0.0/8``, ``::1``, IPv4-mapped loopback) and Unix sockets are allowed; a host name
is resolved and allowed only when every address it resolves to is loopback. Processes a test starts
are not covered (they get no provider keys instead).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Any

__all__ = ["RemoteConnectionRefused", "forbid_remote_connections", "guarded", "is_loopback_address"]


class RemoteConnectionRefused(ConnectionRefusedError):
    """A test tried to connect to an address that is not this machine."""


def is_loopback_address(family: int, address: Any) -> bool:
    """Whether ``connect(address)`` on a socket of ``family`` stays on this machine."""
    if family == getattr(socket, "AF_UNIX", object()):
        return True
    if family not in (socket.AF_INET, socket.AF_INET6) or not isinstance(address, tuple) or not address:
        return False
    host = str(address[0]).split("%", 1)[0]
    try:
        return _loopback(ipaddress.ip_address(host))
    except ValueError:  # a name: every address it resolves to must be loopback
        try:
            infos = socket.getaddrinfo(host, None)
        except OSError:
            return False
        return bool(infos) and all(_loopback(ipaddress.ip_address(str(i[4][0]).split("%", 1)[0])) for i in infos)


def _loopback(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def guarded(connect: Callable[..., Any]) -> Callable[..., Any]:
    """``connect`` (a ``socket.socket`` method) refusing non-loopback addresses before it runs."""

    def guarded_connect(sock: socket.socket, address: Any) -> Any:
        if not is_loopback_address(sock.family, address):
            raise RemoteConnectionRefused(f"tests may only connect to this machine; refused {address!r}")
        return connect(sock, address)

    guarded_connect.__wrapped__ = connect  # type: ignore[attr-defined]
    return guarded_connect


def forbid_remote_connections() -> None:
    """Install the guard on :class:`socket.socket` for this process (idempotent)."""
    for name in ("connect", "connect_ex"):
        current = getattr(socket.socket, name)
        if getattr(current, "__wrapped__", None) is None:
            setattr(socket.socket, name, guarded(current))
