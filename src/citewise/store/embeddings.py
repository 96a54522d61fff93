"""Stored dense vectors of section text (migration ``m007_section_embeddings``).

A vector is keyed by (model id, model version, section content hash): identical text in several
versions or documents is embedded once, and vectors of different models never meet. The store
keeps the raw float32 bytes and knows nothing of numpy; :mod:`citewise.search.dense` turns them into
matrices and indexes. Every function works inside the caller's connection or transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.store.schema import section_embeddings, sections

__all__ = [
    "EmbeddingSet",
    "StoredVectors",
    "add_vectors",
    "embedding_sets",
    "texts_to_embed",
    "vectors",
    "vectors_among",
    "vectors_marker",
]


@dataclass(frozen=True, slots=True)
class EmbeddingSet:
    """The vectors one model has stored."""

    model_id: str
    """The model that computed them."""
    model_version: str
    """Its version."""
    dim: int
    """Width of each vector."""
    count: int
    """How many distinct section texts have a vector."""


@dataclass(frozen=True, slots=True)
class StoredVectors:
    """Every vector of one model: content hashes and their float32 bytes, in storage order."""

    content_hashes: tuple[str, ...]
    """The section content hash of each vector."""
    dim: int
    """Width of each vector (0 when there is none)."""
    data: bytes
    """``len(content_hashes) * dim`` float32 values, row after row."""
    marker: int
    """:func:`vectors_marker` when they were read: it changes whenever a vector is added."""


def _of_model(model_id: str, model_version: str) -> sa.ColumnElement[bool]:
    return sa.and_(section_embeddings.c.model_id == model_id, section_embeddings.c.model_version == model_version)


def texts_to_embed(
    conn: Connection, model_id: str, model_version: str, among: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    """(content hash, heading + text) of every distinct, not deleted section text without a vector
    of this model, in storage order; only those whose hash is ``among`` the given ones when given."""
    has_vector = (
        sa.select(section_embeddings.c.id)
        .where(_of_model(model_id, model_version), section_embeddings.c.content_hash == sections.c.content_hash)
        .exists()
    )
    query = (
        sa.select(sections.c.content_hash, sections.c.heading, sections.c.text)
        .where(sections.c.deleted.is_(False), ~has_vector)
        .order_by(sections.c.id)
    )
    if among is not None:
        query = query.where(sections.c.content_hash.in_(list(among)))
    seen: dict[str, str] = {}
    for content_hash, heading, text in conn.execute(query):
        if content_hash not in seen:
            seen[content_hash] = f"{heading.strip()}\n{text}" if heading.strip() else text
    return list(seen.items())


def add_vectors(
    conn: Connection, model_id: str, model_version: str, dim: int, rows: Sequence[tuple[str, bytes]], at: str
) -> int:
    """Store (content hash, float32 bytes) rows not stored yet (another writer may have got there
    first); return how many were added."""
    if not rows:
        return 0
    hashes = [h for h, _ in rows]
    present = set(
        conn.execute(
            sa.select(section_embeddings.c.content_hash).where(
                _of_model(model_id, model_version), section_embeddings.c.content_hash.in_(hashes)
            )
        ).scalars()
    )
    fresh = {h: data for h, data in rows if h not in present}
    if fresh:
        # A concurrent writer (another embedding worker, a redelivered task) may store the same
        # hash between the read above and this insert: the unique key keeps its row, not a second.
        conn.execute(
            _insert_new(conn),
            [
                {
                    "model_id": model_id,
                    "model_version": model_version,
                    "content_hash": h,
                    "dim": dim,
                    "vector": data,
                    "created_at": at,
                }
                for h, data in fresh.items()
            ],
        )
    return len(fresh)


def _insert_new(conn: Connection) -> sa.Insert:
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(section_embeddings).on_conflict_do_nothing()
    if conn.dialect.name == "sqlite":
        from sqlalchemy.dialects import sqlite

        return sqlite.insert(section_embeddings).on_conflict_do_nothing()
    return sa.insert(section_embeddings)


def vectors_among(conn: Connection, model_id: str, model_version: str, hashes: Sequence[str]) -> int:
    """How many of ``hashes`` have a vector of this model (asked in chunks: a long list of bound
    values is refused by some drivers)."""
    found = 0
    unique = list(dict.fromkeys(hashes))
    for start in range(0, len(unique), 500):
        chunk = unique[start : start + 500]
        query = sa.select(sa.func.count()).where(
            _of_model(model_id, model_version), section_embeddings.c.content_hash.in_(chunk)
        )
        found += int(conn.execute(query).scalar_one())
    return found


def vectors_marker(conn: Connection, model_id: str, model_version: str) -> int:
    """0 when this model has no vector, else the highest vector row id of any model: it changes
    whenever a vector is added, and reading it is one primary-key lookup, cheap enough to ask on
    every search (a scan of one model's rows was 10 ms at 1,220 vectors). One statement, built once:
    building it was most of the time (0.23 ms a search, the lookups themselves ~0.03 ms)."""
    return int(conn.execute(_MARKER, {"model_id": model_id, "model_version": model_version}).scalar_one_or_none() or 0)


_MARKER = sa.select(
    sa.case(
        (
            sa.exists().where(
                section_embeddings.c.model_id == sa.bindparam("model_id"),
                section_embeddings.c.model_version == sa.bindparam("model_version"),
            ),
            sa.select(sa.func.max(section_embeddings.c.id)).scalar_subquery(),
        ),
        else_=0,
    )
)


def vectors(conn: Connection, model_id: str, model_version: str) -> StoredVectors:
    """Every vector of this model."""
    query = (
        sa.select(
            section_embeddings.c.id,
            section_embeddings.c.content_hash,
            section_embeddings.c.dim,
            section_embeddings.c.vector,
        )
        .where(_of_model(model_id, model_version))
        .order_by(section_embeddings.c.id)
    )
    hashes: list[str] = []
    chunks: list[bytes] = []
    dim = 0
    for _row_id, content_hash, width, data in conn.execute(query):
        hashes.append(content_hash)
        chunks.append(bytes(data))
        dim = width
    return StoredVectors(tuple(hashes), dim, b"".join(chunks), vectors_marker(conn, model_id, model_version))


def embedding_sets(conn: Connection) -> list[EmbeddingSet]:
    """Which models have stored vectors, and how many."""
    query = (
        sa.select(
            section_embeddings.c.model_id,
            section_embeddings.c.model_version,
            sa.func.max(section_embeddings.c.dim),
            sa.func.count(),
        )
        .group_by(section_embeddings.c.model_id, section_embeddings.c.model_version)
        .order_by(section_embeddings.c.model_id, section_embeddings.c.model_version)
    )
    return [EmbeddingSet(m, v, int(d), int(n)) for m, v, d, n in conn.execute(query)]
