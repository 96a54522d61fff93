"""The provider cache in the store: search answers and extracted pages shared by every process and
worker that opens the store (SPEC 4.5a; the wrappers that use it are in
:mod:`citewise.providers.cached`).

One row per key; a newer answer replaces the row (``INSERT ... ON CONFLICT DO UPDATE`` on both
SQLite and PostgreSQL, so two workers caching the same page at once never collide). A hit is counted
on its row (``hits``, ``last_hit_at``) in the same transaction that reads it. Entries are never
removed by reading: an expired one is simply not used, and ``citewise cache clear`` deletes rows.
Payloads pass :func:`~citewise.config.redact_data` before they are written, so a key a provider
echoed into an answer is not stored here either.

::

    cache = ProviderCache(store)
    cache.stats()                                    # entries by provider and kind, hits, size, oldest
    cache.clear(provider="tavily", older_than=datetime(2026, 1, 1, tzinfo=UTC))
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from citewise.config import redact_data
from citewise.records.cache import CacheKind, CacheRecord
from citewise.store.connect import write_retrying
from citewise.store.evidence import EvidenceStore
from citewise.store.schema import provider_cache

__all__ = ["CacheGroup", "CacheStats", "ProviderCache", "stamp"]

T = TypeVar("T")


def stamp(at: datetime) -> str:
    """``at`` as the table stores it: fixed-width ISO 8601 in UTC, so that text order is time order.

    >>> stamp(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2026-01-02T03:04:05.000000+00:00'
    """
    if at.tzinfo is None:
        raise ValueError("cache timestamps must be timezone-aware")
    return at.astimezone(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class CacheGroup:
    """The entries of one provider and kind."""

    provider: str
    """The provider's registry name."""
    kind: CacheKind
    """Search answers or extracted pages."""
    entries: int
    """How many are stored."""
    hits: int
    """Hits recorded on them."""
    size_bytes: int
    """Bytes of their stored answers."""
    oldest: datetime | None
    """The earliest original retrieval time among them."""
    newest: datetime | None
    """The latest one."""


@dataclass(frozen=True, slots=True)
class CacheStats:
    """What the cache holds (``citewise cache stats``)."""

    groups: tuple[CacheGroup, ...]
    """By provider and kind, sorted."""

    @property
    def entries(self) -> int:
        """All entries."""
        return sum(g.entries for g in self.groups)

    @property
    def hits(self) -> int:
        """All hits recorded on the entries still stored."""
        return sum(g.hits for g in self.groups)

    @property
    def size_bytes(self) -> int:
        """Bytes of all stored answers."""
        return sum(g.size_bytes for g in self.groups)

    @property
    def oldest(self) -> datetime | None:
        """The earliest original retrieval time of any entry."""
        return min((g.oldest for g in self.groups if g.oldest is not None), default=None)


class ProviderCache:
    """The ``provider_cache`` table of one store; implements
    :class:`~citewise.providers.cached.ResponseCache`."""

    def __init__(self, store: EvidenceStore) -> None:
        self.store = store

    def _write(self, work: Callable[[Connection], T]) -> T:
        return write_retrying(self.store.engine, work, url=self.store.url)

    def take(self, key: str, *, not_before: datetime) -> CacheRecord | None:
        """The entry under ``key`` retrieved at or after ``not_before``, its hit counted; else None."""

        def work(conn: Connection) -> CacheRecord | None:
            row = (
                conn.execute(
                    sa.select(provider_cache).where(
                        provider_cache.c.cache_key == key, provider_cache.c.retrieved_at >= stamp(not_before)
                    )
                )
                .mappings()
                .first()
            )
            if row is None:
                return None
            conn.execute(
                sa.update(provider_cache)
                .where(provider_cache.c.cache_key == key)
                .values(hits=provider_cache.c.hits + 1, last_hit_at=stamp(datetime.now(UTC)))
            )
            return CacheRecord(
                key=row["cache_key"],
                kind=row["kind"],
                provider=row["provider"],
                settings=row["settings_json"],
                target=row["target"],
                payload=row["payload"],
                retrieved_at=datetime.fromisoformat(row["retrieved_at"]),
            )

        # Read first without the write lock: a miss (the common case of a first run) writes nothing.
        with self.store.engine.connect() as conn:
            present = conn.execute(
                sa.select(provider_cache.c.cache_key).where(
                    provider_cache.c.cache_key == key, provider_cache.c.retrieved_at >= stamp(not_before)
                )
            ).first()
        if present is None:
            return None
        return self._write(work)

    def put(self, record: CacheRecord) -> None:
        """Store ``record`` (redacted), replacing an older answer under the same key; its hit count stays."""
        payload = json.dumps(redact_data(json.loads(record.payload)), ensure_ascii=False, sort_keys=True)
        values = {
            "cache_key": record.key,
            "kind": record.kind,
            "provider": record.provider,
            "settings_json": redact_data(record.settings),
            "target": redact_data(record.target),
            "payload": payload,
            "size": len(payload.encode("utf-8")),
            "retrieved_at": stamp(record.retrieved_at),
            "stored_at": stamp(datetime.now(UTC)),
            "hits": 0,
        }
        replaced = {k: v for k, v in values.items() if k not in ("cache_key", "hits")}

        def work(conn: Connection) -> None:
            insert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(provider_cache)
            conn.execute(insert.values(**values).on_conflict_do_update(index_elements=["cache_key"], set_=replaced))

        self._write(work)

    def forget(self, key: str) -> None:
        """Delete the entry under ``key``, if there is one."""
        self._write(lambda conn: conn.execute(sa.delete(provider_cache).where(provider_cache.c.cache_key == key)))

    def stats(self) -> CacheStats:
        """Entries by provider and kind, with hits, bytes and the oldest and newest retrieval times."""
        c = provider_cache.c
        query = (
            sa.select(
                c.provider,
                c.kind,
                sa.func.count(),
                sa.func.coalesce(sa.func.sum(c.hits), 0),
                sa.func.coalesce(sa.func.sum(c.size), 0),
                sa.func.min(c.retrieved_at),
                sa.func.max(c.retrieved_at),
            )
            .group_by(c.provider, c.kind)
            .order_by(c.provider, c.kind)
        )
        with self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
        return CacheStats(
            tuple(
                CacheGroup(provider, kind, int(n), int(hits), int(size), _time(oldest), _time(newest))
                for provider, kind, n, hits, size, oldest, newest in rows
            )
        )

    def clear(self, *, provider: str | None = None, older_than: datetime | None = None) -> int:
        """Delete entries (of ``provider``; retrieved before ``older_than``); how many were deleted."""
        condition: sa.ColumnElement[bool] = sa.true()
        if provider is not None:
            condition = sa.and_(condition, provider_cache.c.provider == provider.strip().lower())
        if older_than is not None:
            condition = sa.and_(condition, provider_cache.c.retrieved_at < stamp(older_than))

        def work(conn: Connection) -> int:
            return int(conn.execute(sa.delete(provider_cache).where(condition)).rowcount or 0)

        return self._write(work)


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None
