"""Batches of research questions, their lines, the shared money purse and the rate buckets.

A batch is created from a question file: one row for the batch (its research settings, whether it
was cancelled, its money cap and what workers have committed of it) and one row per line. Workers
*claim* lines: a claim is a compare-and-set update (``WHERE status = 'pending'``, or ``WHERE owner =
<the owner that died>``), so two workers never hold one line, on SQLite and PostgreSQL alike, with no
lock held while a question is researched. A line's run id is recorded before the run makes its
first paid call, so a line taken over from a dead worker resumes that run instead of starting a new
one: no recorded call is paid twice.

Money is kept in integer micro-dollars: a worker *reserves* the most a call can cost before it is
sent (refused when the batch cap would be crossed) and *settles* the difference once the call's
real cost is known. Rate limits are token buckets, one row per provider, updated by compare-and-set.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from citewise.errors import NotFoundError
from citewise.records.batch import TERMINAL, BatchItem, BatchLine, BatchRecord, BatchStatus, ItemStatus
from citewise.store.evidence import EvidenceStore, utcnow
from citewise.store.schema import batch_items, batches, provider_slots, rate_buckets

__all__ = ["BatchStore", "from_micro", "to_micro"]

_MICRO = Decimal(1_000_000)


def to_micro(usd: Decimal | float) -> int:
    """US dollars as whole micro-dollars, rounded up (a reservation never falls short)."""
    value = Decimal(str(usd)) * _MICRO
    return int(value.to_integral_value(rounding="ROUND_CEILING"))


def from_micro(micro: int) -> Decimal:
    """Whole micro-dollars as US dollars."""
    return Decimal(micro) / _MICRO


class BatchStore:
    """Batches in the same database as the evidence and the runs."""

    def __init__(self, store: EvidenceStore) -> None:
        self.store = store

    def create(
        self, source: str, lines: Sequence[BatchLine], settings: dict[str, Any], max_cost_usd: float | None = None
    ) -> str:
        """Record a batch and its lines (bad lines as failed, with their reason); returns its id."""
        now = utcnow()
        batch_id = f"batch-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        with self.store.transaction() as conn:
            conn.execute(
                sa.insert(batches).values(
                    id=batch_id,
                    source=source,
                    created_at=now.isoformat(),
                    status=BatchStatus.OPEN.value,
                    settings_json=json.dumps(settings, sort_keys=True),
                    max_cost_micro=None if max_cost_usd is None else to_micro(max_cost_usd),
                    committed_micro=0,
                )
            )
            if lines:
                conn.execute(sa.insert(batch_items), [_line_row(batch_id, line, now) for line in lines])
        return batch_id

    def get(self, batch_id: str) -> BatchRecord:
        """One batch with its lines; :class:`NotFoundError` naming the id when there is none."""
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(batches).where(batches.c.id == batch_id)).mappings().first()
            if row is None:
                raise NotFoundError(f"no batch {batch_id!r}; `citewise batch list` shows the batches")
            items = conn.execute(
                sa.select(batch_items).where(batch_items.c.batch_id == batch_id).order_by(batch_items.c.line_no)
            ).mappings()
            return _record(row, [_item(i) for i in items])

    def list(self, limit: int = 20) -> list[BatchRecord]:
        """Recent batches, newest first."""
        with self.store.engine.connect() as conn:
            ids = conn.execute(sa.select(batches.c.id).order_by(batches.c.created_at.desc()).limit(limit)).scalars()
            found = list(ids)
        return [self.get(i) for i in found]

    def claim(self, batch_id: str, owner: str, abandoned: Callable[[BatchItem], bool]) -> BatchItem | None:
        """Take the next pending line for ``owner``, else a running line whose holder ``abandoned``
        says is gone; None when the batch has nothing left to start (or was cancelled)."""
        record = self.get(batch_id)
        if record.status is BatchStatus.CANCELLED:
            return None
        for item in record.items:
            taken = self._take(item, owner, abandoned)
            if taken is not None:
                return taken
        return None

    def claim_line(
        self, batch_id: str, line_no: int, owner: str, abandoned: Callable[[BatchItem], bool]
    ) -> BatchItem | None:
        """Take one given line (a queued task's line) for ``owner``: when it is pending, or held by a
        worker ``abandoned`` says is gone. None when it is finished, cancelled or held by a live worker."""
        if self.get(batch_id).status is BatchStatus.CANCELLED:
            return None
        return self._take(self.item(batch_id, line_no), owner, abandoned)

    def _take(self, item: BatchItem, owner: str, abandoned: Callable[[BatchItem], bool]) -> BatchItem | None:
        if item.status is ItemStatus.PENDING:
            guard = batch_items.c.status == ItemStatus.PENDING.value
        elif item.status is ItemStatus.RUNNING and item.owner != owner and abandoned(item):
            guard = sa.and_(batch_items.c.status == ItemStatus.RUNNING.value, _same_owner(item.owner))
        else:
            return None
        with self.store.transaction() as conn:
            taken = conn.execute(
                sa.update(batch_items)
                .where(batch_items.c.batch_id == item.batch_id, batch_items.c.line_no == item.line_no, guard)
                .values(status=ItemStatus.RUNNING.value, owner=owner, claimed_at=utcnow().isoformat())
                .values(claims=item.claims + 1)
            ).rowcount
        return self.item(item.batch_id, item.line_no) if taken == 1 else None

    def item(self, batch_id: str, line_no: int) -> BatchItem:
        """One line of a batch."""
        with self.store.engine.connect() as conn:
            row = (
                conn.execute(
                    sa.select(batch_items).where(batch_items.c.batch_id == batch_id, batch_items.c.line_no == line_no)
                )
                .mappings()
                .first()
            )
        if row is None:
            raise NotFoundError(f"batch {batch_id!r} has no line {line_no}")
        return _item(row)

    def attach_run(self, item: BatchItem, run_id: str, owner: str) -> bool:
        """Record ``run_id`` as the line's run (before its first paid call); False when ``owner`` no
        longer holds the line."""
        return self._update_held(item, owner, run_id=run_id)

    def finish_item(
        self, item: BatchItem, owner: str, status: ItemStatus, outcome: str | None = None, error: str | None = None
    ) -> bool:
        """Close a line held by ``owner`` as done or failed; False when another worker holds it now."""
        return self._update_held(
            item, owner, status=status.value, outcome=outcome, error=error, finished_at=utcnow().isoformat()
        )

    def _update_held(self, item: BatchItem, owner: str, **values: Any) -> bool:
        with self.store.transaction() as conn:
            return (
                conn.execute(
                    sa.update(batch_items)
                    .where(
                        batch_items.c.batch_id == item.batch_id,
                        batch_items.c.line_no == item.line_no,
                        batch_items.c.owner == owner,
                        batch_items.c.status == ItemStatus.RUNNING.value,
                    )
                    .values(**values)
                ).rowcount
                == 1
            )

    def cancel(self, batch_id: str) -> int:
        """Stop a batch: no new line starts (running ones finish); returns the lines cancelled."""
        self.get(batch_id)
        with self.store.transaction() as conn:
            conn.execute(sa.update(batches).where(batches.c.id == batch_id).values(status=BatchStatus.CANCELLED.value))
            return conn.execute(
                sa.update(batch_items)
                .where(batch_items.c.batch_id == batch_id, batch_items.c.status == ItemStatus.PENDING.value)
                .values(status=ItemStatus.CANCELLED.value, finished_at=utcnow().isoformat())
            ).rowcount

    def reopen(self, batch_id: str) -> int:
        """Undo a cancel (for resume): cancelled lines are pending again; returns how many."""
        self.get(batch_id)
        with self.store.transaction() as conn:
            conn.execute(sa.update(batches).where(batches.c.id == batch_id).values(status=BatchStatus.OPEN.value))
            return conn.execute(
                sa.update(batch_items)
                .where(batch_items.c.batch_id == batch_id, batch_items.c.status == ItemStatus.CANCELLED.value)
                .values(status=ItemStatus.PENDING.value, finished_at=None)
            ).rowcount

    # -- the batch's money cap -----------------------------------------------------------------

    def reserve(self, batch_id: str, micro: int) -> bool:
        """Commit ``micro`` micro-dollars of the batch's money before a call; False (nothing
        committed) when that would cross the batch's cap."""
        capped = sa.or_(
            batches.c.max_cost_micro.is_(None), batches.c.committed_micro + micro <= batches.c.max_cost_micro
        )
        with self.store.transaction() as conn:
            return (
                conn.execute(
                    sa.update(batches)
                    .where(batches.c.id == batch_id, capped)
                    .values(committed_micro=batches.c.committed_micro + micro)
                ).rowcount
                == 1
            )

    def settle(self, batch_id: str, delta_micro: int) -> None:
        """Correct a reservation by the difference between a call's real and reserved cost."""
        if delta_micro:
            with self.store.transaction() as conn:
                conn.execute(
                    sa.update(batches)
                    .where(batches.c.id == batch_id)
                    .values(committed_micro=batches.c.committed_micro + delta_micro)
                )

    # -- shared rate limits --------------------------------------------------------------------

    def take_token(self, name: str, rate: float, burst: int, now_us: int) -> float:
        """Take one token from bucket ``name`` (``rate`` tokens a second, at most ``burst`` kept);
        returns 0 when taken, else the seconds to wait before one is there."""
        for _ in range(50):  # compare-and-set: another worker may take tokens between read and write
            with self.store.engine.connect() as conn:
                row = conn.execute(sa.select(rate_buckets).where(rate_buckets.c.name == name)).mappings().first()
            full = burst * 1_000_000
            if row is None:
                if self._new_bucket(name, full - 1_000_000, now_us):
                    return 0.0
                continue
            elapsed = max(0, now_us - row["updated_us"])
            tokens = min(full, row["micro_tokens"] + int(elapsed * rate))
            if tokens < 1_000_000:
                return (1_000_000 - tokens) / (rate * 1_000_000)
            with self.store.transaction() as conn:
                done = conn.execute(
                    sa.update(rate_buckets)
                    .where(
                        rate_buckets.c.name == name,
                        rate_buckets.c.updated_us == row["updated_us"],
                        rate_buckets.c.micro_tokens == row["micro_tokens"],
                    )
                    .values(micro_tokens=tokens - 1_000_000, updated_us=max(now_us, row["updated_us"]))
                ).rowcount
            if done == 1:
                return 0.0
        return 0.05

    def _new_bucket(self, name: str, micro_tokens: int, now_us: int) -> bool:
        try:
            with self.store.transaction() as conn:
                conn.execute(sa.insert(rate_buckets).values(name=name, micro_tokens=micro_tokens, updated_us=now_us))
        except sa.exc.IntegrityError:  # another worker created it first: take from it instead
            return False
        return True

    # -- shared concurrency limits -------------------------------------------------------------

    def take_slot(self, name: str, slots: int, owner: str, now_us: int, lease_us: int) -> int | None:
        """Hold one of ``slots`` slots of ``name`` for ``owner`` until ``now_us + lease_us`` (a free
        slot, or one whose lease ran out); its number, or None when all are held."""
        with self.store.engine.connect() as conn:
            rows = {
                r["slot"]: r
                for r in conn.execute(sa.select(provider_slots).where(provider_slots.c.name == name)).mappings()
            }
        for slot in range(slots):
            row = rows.get(slot)
            try:
                with self.store.transaction() as conn:
                    if row is None:
                        conn.execute(
                            sa.insert(provider_slots).values(
                                name=name, slot=slot, owner=owner, until_us=now_us + lease_us
                            )
                        )
                        return slot
                    free = sa.or_(provider_slots.c.owner.is_(None), provider_slots.c.until_us < now_us)
                    if conn.execute(
                        sa.update(provider_slots)
                        .where(provider_slots.c.name == name, provider_slots.c.slot == slot, free)
                        .values(owner=owner, until_us=now_us + lease_us)
                    ).rowcount:
                        return slot
            except sa.exc.IntegrityError:  # another worker inserted that slot first
                continue
        return None

    def release_slot(self, name: str, slot: int, owner: str) -> None:
        """Give a slot back (only its holder can)."""
        with self.store.transaction() as conn:
            conn.execute(
                sa.update(provider_slots)
                .where(provider_slots.c.name == name, provider_slots.c.slot == slot, provider_slots.c.owner == owner)
                .values(owner=None, until_us=0)
            )


def _same_owner(owner: str | None) -> sa.ColumnElement[bool]:
    return batch_items.c.owner.is_(None) if owner is None else batch_items.c.owner == owner


def _line_row(batch_id: str, line: BatchLine, now: datetime) -> dict[str, Any]:
    bad = line.error is not None
    return {
        "batch_id": batch_id,
        "line_no": line.line_no,
        "item_id": line.item_id,
        "question": line.question,
        "status": (ItemStatus.FAILED if bad else ItemStatus.PENDING).value,
        "run_id": None,
        "owner": None,
        "claimed_at": None,
        "finished_at": now.isoformat() if bad else None,
        "outcome": None,
        "error": line.error,
        "claims": 0,
    }


def _when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _item(row: RowMapping) -> BatchItem:
    return BatchItem(
        batch_id=row["batch_id"],
        line_no=row["line_no"],
        item_id=row["item_id"],
        question=row["question"],
        status=ItemStatus(row["status"]),
        run_id=row["run_id"],
        owner=row["owner"],
        claimed_at=_when(row["claimed_at"]),
        finished_at=_when(row["finished_at"]),
        outcome=row["outcome"],
        error=row["error"],
        claims=row["claims"],
    )


def _record(row: RowMapping, items: Iterable[BatchItem]) -> BatchRecord:
    listed = tuple(items)
    if row["status"] == BatchStatus.CANCELLED.value:
        status = BatchStatus.CANCELLED
    elif all(i.status in TERMINAL for i in listed):
        status = BatchStatus.FINISHED
    else:
        status = BatchStatus.OPEN
    cap = row["max_cost_micro"]
    return BatchRecord(
        batch_id=row["id"],
        source=row["source"],
        created_at=datetime.fromisoformat(row["created_at"]),
        status=status,
        settings=json.loads(row["settings_json"]),
        max_cost_usd=None if cap is None else from_micro(cap),
        committed_usd=from_micro(row["committed_micro"]),
        items=listed,
    )
