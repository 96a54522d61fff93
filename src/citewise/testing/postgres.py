"""A real, throwaway PostgreSQL server for tests: ``initdb`` into a temporary directory, ``pg_ctl
start`` on a free loopback port, one database per test, everything removed at the end.

>>> with PostgresCluster.start() as cluster:          # doctest: +SKIP
...     url = cluster.create_database("example")      # postgresql+psycopg://citewise:...@127.0.0.1:PORT/example
...     with EvidenceStore.open(url) as store: ...

The binaries are looked up in ``$CITEWISE_PG_BINDIR``, ``pg_config --bindir``,
``/usr/lib/postgresql/*/bin`` (newest first) and ``$PATH``. ``initdb`` refuses to run as root, so
when tests run as root (CI containers) the server runs as an unprivileged system user (``nobody``,
or ``citewise-pg`` when there is no ``nobody``), with a data directory owned by that user.

For pytest, load this module as a plugin (``pytest_plugins = ["citewise.testing.postgres"]``) to get
two fixtures: ``postgres_cluster`` (one server per session) and ``postgres_url`` (a new database
per test). Without PostgreSQL binaries they skip, loudly; with ``CITEWISE_REQUIRE_POSTGRES=1`` (set
by ``scripts/test``) they fail instead, so CI never skips them silently.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["PostgresCluster", "PostgresUnavailable", "find_bindir", "postgres_cluster", "postgres_url"]

REQUIRE_ENV = "CITEWISE_REQUIRE_POSTGRES"
BINDIR_ENV = "CITEWISE_PG_BINDIR"
SUPERUSER = "citewise"
_UNPRIVILEGED = ("nobody", "citewise-pg")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here (the message says why and how to get one)."""


def find_bindir() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None."""
    candidates: list[str] = []
    if os.environ.get(BINDIR_ENV):
        candidates.append(os.environ[BINDIR_ENV])
    if shutil.which("pg_config"):
        done = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False)
        candidates.append(done.stdout.strip())
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(versions, key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0)[::-1]
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for candidate in candidates:
        if candidate and (Path(candidate) / "initdb").is_file() and (Path(candidate) / "pg_ctl").is_file():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_user() -> pwd.struct_passwd | None:
    """The user the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in _UNPRIVILEGED:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", _UNPRIVILEGED[-1]], capture_output=True, check=False)
    try:
        return pwd.getpwnam(_UNPRIVILEGED[-1])
    except KeyError as exc:
        raise PostgresUnavailable("running as root and no unprivileged user (nobody, citewise-pg) exists") from exc


@dataclass
class PostgresCluster:
    """A running throwaway server; :meth:`stop` removes it with its data."""

    bindir: Path
    root: Path
    port: int
    password: str
    user: pwd.struct_passwd | None

    @classmethod
    def start(cls, bindir: Path | None = None) -> PostgresCluster:
        """initdb and start a server on a free loopback port (PostgresUnavailable if impossible)."""
        bindir = bindir or find_bindir()
        if bindir is None or not (bindir / "initdb").is_file():
            raise PostgresUnavailable(
                "no PostgreSQL binaries (initdb, pg_ctl) found: install Debian's postgresql package "
                f"(apt-get install postgresql) or set {BINDIR_ENV}"
            )
        user = _server_user()
        root = Path(tempfile.mkdtemp(prefix="citewise-pg-"))
        cluster = cls(bindir, root, _free_port(), secrets.token_urlsafe(12), user)
        try:
            cluster._initdb()
            cluster._start_server()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        extra: dict[str, Any] = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        done = subprocess.run(
            args, capture_output=True, text=True, check=False, cwd=self.root, env=self._env(), **extra
        )
        if done.returncode != 0:
            raise PostgresUnavailable(f"{Path(args[0]).name} failed: {(done.stderr or done.stdout).strip()[-800:]}")
        return done

    def _env(self) -> dict[str, str]:
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "HOME": str(self.root)}

    def _initdb(self) -> None:
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        pwfile = self.root / "pwfile"
        pwfile.write_text(self.password + "\n", encoding="utf-8")
        if self.user is not None:
            os.chown(pwfile, self.user.pw_uid, self.user.pw_gid)
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            f"--pwfile={pwfile}",
            "--auth-host=scram-sha-256",
            "--auth-local=trust",
            "-E",
            "UTF8",
            "--no-instructions",
        )
        pwfile.unlink()

    @property
    def data(self) -> Path:
        """The data directory."""
        return self.root / "data"

    def _server_options(self) -> str:
        # Durability is not what these servers are for: fsync off makes CREATE DATABASE and
        # commits fast.
        return (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )

    def _start_server(self) -> None:
        pg_ctl = str(self.bindir / "pg_ctl")
        for attempt in range(3):
            try:
                self._run(
                    pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", self._server_options(), "-w", "start"
                )
                return
            except PostgresUnavailable:
                if attempt == 2:
                    raise PostgresUnavailable(f"the server did not start; log: {self.log_tail()}") from None
                self.port = _free_port()  # the port was taken between choosing and binding

    @property
    def log(self) -> Path:
        """The server log."""
        return self.root / "server.log"

    def log_tail(self, lines: int = 20) -> str:
        """The end of the server log, for error messages."""
        try:
            return "\n".join(self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def url(self, database: str = "postgres", *, password: str | None = None) -> str:
        """A SQLAlchemy URL for ``database`` on this server (``password`` to try a wrong one)."""
        secret = self.password if password is None else password
        return f"postgresql+psycopg://{SUPERUSER}:{secret}@127.0.0.1:{self.port}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        dsn = f"host=127.0.0.1 port={self.port} user={SUPERUSER} password={self.password} dbname=postgres"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]  # names are checked by the callers

    def create_database(self, name: str | None = None) -> str:
        """Create an empty database (a fresh name unless given); return its URL."""
        name = name or f"t_{secrets.token_hex(6)}"
        if not name.replace("_", "").isalnum():
            raise ValueError(f"bad database name {name!r}: letters, digits and _ only")
        # FILE_COPY (PostgreSQL 15+) copies the small template in ~20 ms, WAL_LOG takes ~120 ms.
        strategy = " STRATEGY FILE_COPY" if self.version >= 15 else ""
        self._admin(f'CREATE DATABASE "{name}"{strategy}')
        return self.url(name)

    @property
    def version(self) -> int:
        """The server's major version."""
        return int((self.data / "PG_VERSION").read_text(encoding="utf-8").strip().split(".")[0])

    def drop_database(self, name: str) -> None:
        """Drop a database, disconnecting whoever still uses it."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"bad database name {name!r}")
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its directory."""
        if (self.data / "postmaster.pid").exists():
            # A server already gone leaves only its directory to remove.
            with contextlib.suppress(PostgresUnavailable):
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _pytest_fixtures() -> tuple[Any, Any]:
    import pytest

    @pytest.fixture(scope="session")
    def postgres_cluster() -> Iterator[PostgresCluster]:
        """One throwaway PostgreSQL server for the test session."""
        try:
            cluster = PostgresCluster.start()
        except PostgresUnavailable as exc:
            message = f"PostgreSQL tests NOT RUN: {exc}"
            if os.environ.get(REQUIRE_ENV) == "1":
                pytest.fail(f"{message} ({REQUIRE_ENV}=1 requires them)", pytrace=False)
            pytest.skip(message)
        try:
            yield cluster
        finally:
            cluster.stop()

    @pytest.fixture
    def postgres_url(postgres_cluster: PostgresCluster) -> Iterator[str]:
        """A URL of a new, empty database on the session's server, dropped after the test."""
        url = postgres_cluster.create_database()
        try:
            yield url
        finally:
            postgres_cluster.drop_database(url.rsplit("/", 1)[1])

    return postgres_cluster, postgres_url


# pytest is a test-time tool, not a dependency: without it the cluster still works, minus fixtures.
with contextlib.suppress(ImportError):
    postgres_cluster, postgres_url = _pytest_fixtures()
