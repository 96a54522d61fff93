"""From a store setting to a working database engine, and database errors to one clear line.

A store is named by ``--store`` or ``CITEWISE_STORE``: a plain path (a SQLite file), ``sqlite:///PATH``,
or ``postgresql+psycopg://USER:PASSWORD@HOST:PORT/DB`` (``postgresql://`` and ``postgres://`` mean the
same). Anything else is refused with the forms that work.

Writers share the store, so transactions are short and ask for the write lock up front:

* **SQLite** runs in WAL mode (readers never wait for a writer) with a busy timeout, and a write
  transaction starts with ``BEGIN IMMEDIATE`` so that a read-then-write never fails half-way with
  "database is locked" (a deferred transaction cannot upgrade to a write while another writer holds
  the lock).
* **PostgreSQL** runs at READ COMMITTED; writers lock the rows they decide on (``FOR UPDATE``) and
  migrations and index rebuilds take advisory locks.

:func:`write_retrying` runs a whole transaction again, a bounded number of times, when the database
reports a transient conflict (lock timeout, deadlock, serialisation failure, a unique key another
writer just took). Every other database error becomes a :class:`~citewise.errors.StoreError` naming
the setting, never a traceback; passwords never appear in messages.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from citewise.errors import StoreError
from citewise.retry import RetryPolicy

__all__ = [
    "STORE_SETTING",
    "advisory_lock",
    "describe_error",
    "redact",
    "store_engine",
    "write_retrying",
    "write_transaction",
]

STORE_SETTING = "CITEWISE_STORE"
_SETTING = f"from {STORE_SETTING} or --store"
_FORMS = "a SQLite path, sqlite:///PATH or postgresql+psycopg://USER:PASSWORD@HOST:PORT/DATABASE"

#: How long a SQLite writer waits for another writer's lock before giving up (seconds).
SQLITE_BUSY_TIMEOUT_S = 30.0
#: Attempts of one write transaction that hit a transient conflict.
WRITE_ATTEMPTS = 6
#: Waits between them: 0.1 s doubling to at most 2 s, jittered so that writers that conflicted
#: together do not try again together.
WRITE_RETRY = RetryPolicy(retries=WRITE_ATTEMPTS - 1, base_s=0.1, growth=2.0, max_wait_s=2.0, jitter=True)

_WRITE_OPTION = "citewise_write"
_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")

T = TypeVar("T")


def redact(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for messages and displays."""
    return _PASSWORD.sub(r"\1***@", url)


def _parse(url: str) -> sa.URL:
    if "://" not in url:
        path = Path(url).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the directory of the SQLite store {path} ({_SETTING}): {exc.strerror}"
            ) from exc
        return sa.URL.create("sqlite", database=str(path))
    try:
        parsed = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError) as exc:
        raise StoreError(
            f"the store setting {redact(url)!r} ({_SETTING}) is not a database URL; expected {_FORMS}"
        ) from exc
    backend = parsed.get_backend_name()
    if backend in ("postgres", "postgresql") and "+" not in parsed.drivername:
        return parsed.set(drivername="postgresql+psycopg")
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(
            f"the store setting {redact(url)} ({_SETTING}) names a {backend} database; citewise stores are {_FORMS}"
        )
    return parsed


def store_engine(url: str) -> Engine:
    """An engine for a store setting: a SQLAlchemy URL, or a plain path meaning a SQLite file.

    >>> store_engine("sqlite://").dialect.name
    'sqlite'
    """
    parsed = _parse(url)
    try:
        if parsed.get_backend_name() == "sqlite":
            return _sqlite_engine(parsed)
        return sa.create_engine(parsed, connect_args={"connect_timeout": 10, "application_name": "citewise"})
    except ImportError as exc:
        install = "pip install 'psycopg[binary]'" if "psycopg" in parsed.drivername else "install its Python driver"
        raise StoreError(
            f"the store {redact(url)} ({_SETTING}) needs the {exc.name or parsed.drivername} driver, "
            f"which is not installed: {install}"
        ) from exc


def _sqlite_engine(url: sa.URL) -> Engine:
    engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S})

    @sa.event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        # citewise issues BEGIN itself (below): the driver's own implicit transactions would start
        # a write only at the first INSERT, after the reads it depends on.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        # WAL lets readers (search, the web UI) work while an ingest writes.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _sqlite_begin(conn):  # type: ignore[no-untyped-def]
        write = conn.get_execution_options().get(_WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A connection in a write transaction (SQLite: holding the write lock from the start),
    committed on success and rolled back on error."""
    with engine.connect() as conn:
        conn.execution_options(**{_WRITE_OPTION: True})
        with conn.begin():
            yield conn


def advisory_lock(conn: Connection, key: int, *, shared: bool = False) -> None:
    """PostgreSQL: hold advisory lock ``key`` until the transaction ends (SQLite: nothing to do, a
    write transaction already excludes every other writer)."""
    if conn.dialect.name == "postgresql":
        function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        conn.execute(sa.text(f"SELECT {function}(:key)"), {"key": key})


# SQLSTATEs worth a second attempt: serialisation failure, deadlock, lock not available. (A unique
# violation is not among them: writers lock what they decide on, so one means a real conflict.)
_TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03"})


def _transient(exc: sa.exc.DBAPIError) -> bool:
    sqlstate = getattr(exc.orig, "sqlstate", None)
    if sqlstate in _TRANSIENT_SQLSTATES:
        return True
    # SQLite: "database is locked" (the busy timeout ran out), "database table is locked".
    return "is locked" in str(exc.orig).lower()


def write_retrying(engine: Engine, work: Callable[[Connection], T], *, url: str, attempts: int = WRITE_ATTEMPTS) -> T:
    """Run ``work`` in a write transaction, again (up to ``attempts`` times, with jittered backoff)
    when a concurrent writer made it fail; other database errors become a :class:`StoreError`."""

    def attempt() -> T:
        with write_transaction(engine) as conn:
            return work(conn)

    policy = replace(WRITE_RETRY, retries=attempts - 1)
    try:
        return policy.call(attempt, retryable=_retryable, sleep=time.sleep)
    except sa.exc.DBAPIError as exc:
        raise StoreError(describe_error(exc, url)) from exc


def _retryable(exc: Exception) -> bool:
    return isinstance(exc, sa.exc.DBAPIError) and _transient(exc)


def describe_error(exc: sa.exc.DBAPIError | sa.exc.SQLAlchemyError, url: str) -> str:
    """One line saying what went wrong with the store at ``url`` and what to do about it."""
    where = f"the store {redact(url)} ({_SETTING})"
    cause = getattr(exc, "orig", None) or exc
    first = " ".join(str(cause).split()) or type(cause).__name__
    text = first.lower()
    if "password authentication failed" in text or "no password supplied" in text:
        return f"cannot log in to {where}: {_quoted_user(first)}; fix the user or password in {STORE_SETTING}"
    missing = re.search(r'database "([^"]*)" does not exist', first)
    if missing:
        return f"{where}: {missing[0]}; create it (createdb {missing[1]}) or fix {STORE_SETTING}"
    if "connection refused" in text or "could not connect" in text or "timeout expired" in text:
        return f"cannot connect to {where}: no PostgreSQL server answers there; start it or fix {STORE_SETTING}"
    if "could not translate host name" in text or "name or service not known" in text:
        return f"cannot connect to {where}: unknown host; fix the host in {STORE_SETTING}"
    if "unable to open database file" in text:
        return f"cannot open {where}: unable to open the file; check the path and that its directory is writable"
    if "file is not a database" in text:
        return f"cannot open {where}: the file is not a SQLite database; point {STORE_SETTING} at a store"
    if "database is locked" in text:
        return f"{where} stayed locked by other writers for {SQLITE_BUSY_TIMEOUT_S:.0f} s; try again"
    return f"{where}: {redact(first)[:300]}"


def _quoted_user(message: str) -> str:
    match = re.search(r'password authentication failed for user "([^"]*)"', message)
    return f'password authentication failed for user "{match[1]}"' if match else "authentication failed"
