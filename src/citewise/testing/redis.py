"""A real, throwaway Redis server for tests: ``redis-server`` on a free loopback port with its data in
a temporary directory (nothing persisted), stopped and removed at the end.

>>> with RedisServer.start() as server:     # doctest: +SKIP
...     server.url                          # redis://127.0.0.1:PORT/0

For pytest, the ``redis_url`` fixture gives one server per test session. Without ``redis-server``
(Debian: ``apt-get install redis-server``) it skips, loudly; with ``CITEWISE_REQUIRE_REDIS=1`` (set by
``scripts/test``) it fails instead, so CI never skips it silently.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["RedisServer", "RedisUnavailable", "redis_url"]

REQUIRE_ENV = "CITEWISE_REQUIRE_REDIS"


class RedisUnavailable(RuntimeError):
    """No Redis server can be started here (the message says why and how to get one)."""


@dataclass
class RedisServer:
    """One running ``redis-server``."""

    port: int
    directory: Path
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @classmethod
    def start(cls, timeout_s: float = 20.0) -> RedisServer:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RedisUnavailable("redis-server is not installed (Debian: apt-get install redis-server)")
        directory = Path(tempfile.mkdtemp(prefix="citewise-redis-"))
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        args = [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(directory),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
            "--daemonize",
            "no",
        ]
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        server = cls(port, directory, process)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if process.poll() is not None:
                err = process.stderr.read().decode(errors="replace") if process.stderr else ""
                server.stop()
                raise RedisUnavailable(f"redis-server exited: {err.strip()[-300:]}")
            if server._ping():
                return server
            time.sleep(0.05)
        server.stop()
        raise RedisUnavailable(f"redis-server did not answer on port {port} within {timeout_s:.0f} s")

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _pytest_fixture() -> Any:
    import pytest

    @pytest.fixture(scope="session")
    def redis_url() -> Iterator[str]:
        """The URL of a throwaway Redis server for the test session."""
        try:
            server = RedisServer.start()
        except RedisUnavailable as exc:
            message = f"Redis tests NOT RUN: {exc}"
            if os.environ.get(REQUIRE_ENV) == "1":
                pytest.fail(f"{message} ({REQUIRE_ENV}=1 requires them)", pytrace=False)
            pytest.skip(message)
        try:
            yield server.url
        finally:
            server.stop()

    return redis_url


with contextlib.suppress(ImportError):
    redis_url = _pytest_fixture()
