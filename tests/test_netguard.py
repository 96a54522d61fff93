"""The suite's socket guard: connections leave loopback never, and loopback keeps working."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from citewise.testing.netguard import RemoteConnectionRefused, guarded, is_loopback_address

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("family", "address"),
    [
        (socket.AF_INET, ("127.0.0.1", 80)),
        (socket.AF_INET, ("127.3.4.5", 80)),
        (socket.AF_INET6, ("::1", 80, 0, 0)),
        (socket.AF_INET6, ("::ffff:127.0.0.1", 80, 0, 0)),
        (socket.AF_INET, ("localhost", 80)),
        (socket.AF_UNIX, "/tmp/.s.PGSQL.5432"),
    ],
)
def test_loopback_and_unix_sockets_are_allowed(family: int, address: Any) -> None:
    assert is_loopback_address(family, address)


@pytest.mark.parametrize(
    ("family", "address"),
    [
        (socket.AF_INET, ("93.184.216.34", 443)),
        (socket.AF_INET, ("10.0.0.1", 443)),
        (socket.AF_INET, ("169.254.169.254", 80)),
        (socket.AF_INET, ("0.0.0.0", 80)),
        (socket.AF_INET6, ("2001:db8::1", 443, 0, 0)),
        (socket.AF_INET6, ("::ffff:10.0.0.1", 443, 0, 0)),
        (socket.AF_INET, ("api.tavily.com.invalid", 443)),
    ],
)
def test_everything_else_is_refused(family: int, address: Any) -> None:
    assert not is_loopback_address(family, address)


def test_the_guard_refuses_before_connecting() -> None:
    attempted: list[Any] = []
    connect = guarded(lambda sock, address: attempted.append(address))
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        with pytest.raises(RemoteConnectionRefused, match="only connect to this machine"):
            connect(sock, ("198.51.100.7", 443))
        connect(sock, ("127.0.0.1", 9))
    assert attempted == [("127.0.0.1", 9)]  # the remote address never reached the real connect


def test_the_guard_is_installed_and_loopback_still_connects() -> None:
    assert getattr(socket.socket.connect, "__wrapped__", None) is not None
    assert getattr(socket.socket.connect_ex, "__wrapped__", None) is not None
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted = threading.Thread(target=lambda: server.accept()[0].close())
    accepted.start()
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    accepted.join(5)
    server.close()
