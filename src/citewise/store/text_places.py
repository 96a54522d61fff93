"""Where stored texts are: the first sections holding each of a ranked list of content hashes.

Dense search ranks distinct texts; a text repeated in many documents (an article copied into a
hundred statutes) stands for as many sections. :func:`first_section_ids` returns, for the ranked
hashes in order, the row ids of their sections (by row id), stopping once ``limit`` sections are
found, and reads no more of the index than that needs: the hashes are asked for in batches, the
first batch one hash, each next batch as many hashes as the sections still wanted would fill at the
sections per hash seen so far (and at least twice the last batch, so that a few reads always do),
each hash capped at the sections still wanted. When the nearest text alone fills the limit (the
common case in a corpus of copies) that is one ``LIMIT`` read of the hash index; no hash's sections
are counted.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from citewise.store.schema import sections

__all__ = ["first_section_ids"]

Scored = Sequence[tuple[str, float]]
"""(content hash, score) pairs, best first."""


def first_section_ids(
    conn: Connection, scored: Scored, limit: int | None, read: dict[str, list[int]] | None = None
) -> list[tuple[int, float]]:
    """(section row id, score) for every section of each hash of ``scored`` (hash, score), in that
    order and by row id within a hash, at most ``limit`` of them (None: all).

    ``read``: the first hash's first ``limit`` row ids, when the caller has read them (its first
    batch, read another way: :meth:`~citewise.store.evidence.EvidenceStore.sections_with_hashes`
    reads those rows whole)."""
    if limit is None:
        every = _ids_of(conn, list(dict.fromkeys(h for h, _ in scored)), None)
        return [(row_id, score) for text_hash, score in scored for row_id in every.get(text_hash, [])]
    found: list[tuple[int, float]] = []
    held: dict[str, list[int]] = dict(read or {})  # a hash read with cap c: all its sections, or its first c
    last = len(held)  # hashes in the last batch: each batch is at least twice as large
    for text_hash, score in scored:
        remaining = limit - len(found)
        if remaining <= 0:
            break
        if text_hash not in held:
            batch = _next_batch(scored, text_hash, max(_estimate(held, remaining), 2 * last), held)
            read = _ids_of(conn, batch, remaining)
            held.update((h, read.get(h, [])) for h in batch)
            last = len(batch)
        found.extend((row_id, score) for row_id in held[text_hash][:remaining])
    return found


def _estimate(held: dict[str, list[int]], remaining: int) -> int:
    """Hashes ``remaining`` sections need at the mean sections per hash read so far (one when none
    is read yet)."""
    if not held:
        return 1
    seen = [len(ids) for ids in held.values() if ids]
    per_hash = sum(seen) / len(seen) if seen else 1.0
    return max(1, math.ceil(remaining / max(per_hash, 1.0)))


def _next_batch(scored: Scored, first: str, wanted: int, held: dict[str, list[int]]) -> list[str]:
    """``first`` and the next hashes of ``scored`` not read yet, ``wanted`` of them at most."""
    batch: dict[str, None] = {first: None}
    for text_hash, _score in scored:
        if len(batch) >= wanted:
            break
        if text_hash not in held:
            batch[text_hash] = None
    return list(batch)


def _ids_of(conn: Connection, hashes: list[str], cap: int | None) -> dict[str, list[int]]:
    """The row ids of the sections of ``hashes`` (the first ``cap`` of each by row id; all when None),
    each hash's in row order; a hash without a section is left out."""
    if not hashes:
        return {}
    if len(hashes) == 1 and cap is not None:
        ids = [int(row_id) for (row_id,) in conn.execute(_FIRST_OF_ONE, {"content_hash": hashes[0], "cap": cap})]
        return {hashes[0]: ids} if ids else {}
    if cap is None:
        query = sa.select(sections.c.id, sections.c.content_hash).where(sections.c.content_hash.in_(hashes))
        query = query.order_by(sections.c.id)
    else:
        place = sa.func.row_number().over(partition_by=sections.c.content_hash, order_by=sections.c.id)
        numbered = (
            sa.select(sections.c.id, sections.c.content_hash, place.label("place"))
            .where(sections.c.content_hash.in_(hashes))
            .subquery()
        )
        query = sa.select(numbered.c.id, numbered.c.content_hash).where(numbered.c.place <= cap)
        query = query.order_by(numbered.c.id)
    held: dict[str, list[int]] = {}
    for row_id, text_hash in conn.execute(query):
        held.setdefault(text_hash, []).append(int(row_id))
    return held


_FIRST_OF_ONE = (
    sa.select(sections.c.id)
    .where(sections.c.content_hash == sa.bindparam("content_hash"))
    .order_by(sections.c.id)
    .limit(sa.bindparam("cap"))
)
"""The first sections of one hash: built once, as most searches of a corpus of copies need no other."""
